/*
 * ftrace_bench.c: `-append bench`: what a trivial traced function
 * (bench_target) costs per call, in retired instructions, with its site
 * disabled and with a stub callback on it. Interrupts are off while it
 * counts; run it under `qemu -icount shift=0`, where instret counts
 * instructions (`make bench` does, once per FTRACE mode).
 */
#include "kernel.h"
#include "printk.h"
#include "ftrace.h"
#include "trace_targets.h"
#include "asm/csr.h"

#define BENCH_CALLS	10000

static volatile long bench_sink;

static void bench_stub(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	(void)ip, (void)parent_ip, (void)op, (void)fregs;
}

/* Instructions per loop iteration (call, body, loop), in tenths. */
static unsigned long tenths_per_call(void)
{
	unsigned long flags = local_irq_save(), i;
	long sum = 0;
	u64 start = rdinstret(), insns;

	for (i = 0; i < BENCH_CALLS; i++)
		sum += bench_target(i);
	insns = rdinstret() - start;
	local_irq_restore(flags);
	bench_sink = sum;
	return insns * 10 / BENCH_CALLS;
}

static void print_cost(const char *what, unsigned long tenths)
{
	console_printf("bench: bench_target %s: %lu.%lu insns/call\n", what,
		       tenths / 10, tenths % 10);
}

void ftrace_bench(void)
{
	struct ftrace_ops ops = { .func = bench_stub, .name = "bench" };

	print_cost("disabled", tenths_per_call());
	if (ftrace_set_filter(&ops, "bench_target", 12, 1) < 0 ||
	    register_ftrace_function(&ops)) {
		console_printf("bench: bench_target has no call site\n");
		return;
	}
	print_cost("enabled, stub callback", tenths_per_call());
	unregister_ftrace_function(&ops);
	ftrace_free_ops_hashes(&ops);
}
