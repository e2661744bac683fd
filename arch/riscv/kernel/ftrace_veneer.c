/*
 * ftrace_veneer.c: finds the veneers each traced object carries
 * (asm/ftrace_veneer.h) in their table, __ftrace_veneers, which the
 * link lays out in address order: the nearest one for a far site
 * (arch/riscv/kernel/ftrace.c), whether an interrupted pc is in one
 * (trap.c must not preempt a task there, as in a trampoline), and
 * where one jumps (its selftest and `patchsite`).
 */
#include "kernel.h"
#include "asm/ftrace.h"
#include "asm/insn.h"

extern const unsigned long __start_ftrace_veneers[], __stop_ftrace_veneers[];

#define FTRACE_VENEER_PAIR_SIZE	(2 * FTRACE_VENEER_SIZE)

/* The first veneer pair at or above addr. */
static const unsigned long *veneer_at_or_above(unsigned long addr)
{
	const unsigned long *lo = __start_ftrace_veneers;
	const unsigned long *hi = __stop_ftrace_veneers;

	while (lo < hi) {
		const unsigned long *mid = lo + (hi - lo) / 2;

		if (*mid < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The veneer pair pc lies in, or 0. */
static unsigned long veneer_pair_of(unsigned long pc)
{
	const unsigned long *v = veneer_at_or_above(pc + 1);

	if (v == __start_ftrace_veneers || pc - v[-1] >= FTRACE_VENEER_PAIR_SIZE)
		return 0;
	return v[-1];
}

bool in_ftrace_veneer(unsigned long pc)
{
	return veneer_pair_of(pc) != 0;
}

unsigned long ftrace_veneer_target(unsigned long addr)
{
	unsigned long pair = veneer_pair_of(addr);

	if (!pair || (addr - pair) % FTRACE_VENEER_SIZE)
		return 0;
	return riscv_insn_auipc_jr_target(addr);
}

/*
 * The veneer to ftrace_caller (or, regs, to ftrace_regs_caller) whose
 * pair is nearest to ip; 0 if there is no veneer.
 */
unsigned long ftrace_veneer_near(unsigned long ip, bool regs)
{
	const unsigned long *v = veneer_at_or_above(ip);

	if (v == __start_ftrace_veneers && v == __stop_ftrace_veneers)
		return 0;
	if (v == __stop_ftrace_veneers ||
	    (v > __start_ftrace_veneers && ip - v[-1] < *v - ip))
		v--;
	return *v + (regs ? FTRACE_VENEER_SIZE : 0);
}
