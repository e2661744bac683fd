/*
 * asm/ftrace.h: the arch half of dynamic ftrace (seed 004's
 * HAVE_DYNAMIC_FTRACE list): MCOUNT_ADDR, ftrace_call_adjust(),
 * struct dyn_arch_ftrace, and what a call site looks like.
 *
 * A site is the first 4 bytes of every traceable function:
 *
 *   compiled (-fpatchable-function-entry=2, RVC):  c.nop; c.nop
 *   disabled (after ftrace_init):                  nop           1 insn
 *   enabled:                                       jal t0, ftrace_caller
 *                                     (or          jal t0, ftrace_regs_caller)
 *
 * In the -pg build (FTRACE=mcount) the site is GCC's `call _mcount`
 * after the prologue, relaxed by the linker to `jal ra, _mcount`; it
 * becomes `nop` and `jal ra, ftrace_caller` the same way.
 *
 * One 4-byte, 4-aligned instruction is both the whole disabled cost and
 * the unit of patching: a hart sees the old or the new instruction,
 * never half of each. jal reaches +-1 MiB; scripts/checkelf.py fails
 * the build if the kernel's text grows past that.
 */
#ifndef _ASM_FTRACE_H
#define _ASM_FTRACE_H

#define MCOUNT_INSN_SIZE	4
/* Bytes of the trampoline frame of ftrace_caller (mcount-dyn.S). */
#define FTRACE_FRAME_SIZE	96
#define FTRACE_REGS_FRAME_SIZE	(32 + 288)

#ifndef __ASSEMBLY__
#include "types.h"

extern void _mcount(void);
extern char __ftrace_tramp_text_start[], __ftrace_tramp_text_end[];
extern char ftrace_caller[], ftrace_regs_caller[];
extern char ftrace_call[], ftrace_regs_call[];
extern char ftrace_graph_call[], ftrace_graph_regs_call[];
struct ftrace_ops;
struct ftrace_regs;
/* A bare `ret`: what ftrace_call calls when nothing is traced. */
void ftrace_stub(unsigned long ip, unsigned long parent_ip,
		 struct ftrace_ops *op, struct ftrace_regs *fregs);
extern void ftrace_graph_caller(void);
extern void ftrace_graph_regs_caller(void);
extern void return_to_handler(void);

#define MCOUNT_ADDR	((unsigned long)_mcount)

/* No extra state per record: the site's address says it all. */
struct dyn_arch_ftrace {
};

/*
 * A task is never preempted inside a trampoline: it may have passed a
 * site that the update it would wait for turns off, and must not then
 * call back for it. From the trampoline's PREEMPT_DISABLE on, the
 * preempt count covers the callback too.
 */
static inline bool in_ftrace_trampoline(unsigned long pc)
{
	return pc >= (unsigned long)__ftrace_tramp_text_start &&
	       pc < (unsigned long)__ftrace_tramp_text_end;
}

/* The record table holds each site's address already. */
static inline unsigned long ftrace_call_adjust(unsigned long addr)
{
	return addr;
}

#endif

#endif
