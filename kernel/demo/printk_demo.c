/*
 * printk_demo.c: `run printk [N]` calls trace_printk() N times (default
 * 3), with a constant format, so each call is an ftrace:bprint event
 * (trace/trace_printk.c) whose text is made when the trace is read:
 * `printk_demo_step: step 1 of 3: odd 0x9e3779b1`.
 */
#include "kernel.h"
#include "workloads.h"
#include "shell.h"
#include "sched.h"
#include "tracing.h"

#define PRINTK_DEFAULT	3
#define PRINTK_MAX	100000

/* One step: its number, the total, a word and a hash of the number. */
static noinline __attribute__((noclone)) void printk_demo_step(unsigned long i,
							      unsigned long n)
{
	trace_printk("step %lu of %lu: %s 0x%08x\n", i, n,
		     i & 1 ? "odd" : "even", (unsigned int)(i * 2654435761U));
}

static int printk_main(struct shell_out *out, int argc, char **argv)
{
	unsigned long n, i;
	int err = workload_count_arg(argc, argv, PRINTK_DEFAULT, 1,
				     PRINTK_MAX, &n);

	if (err)
		return err;
	for (i = 1; i <= n && !READ_ONCE(current->sigpending); i++)
		printk_demo_step(i, n);
	sh_printf(out, "printk: %lu trace_printk() calls\n", i - 1);
	return i > n ? 0 : -EINTR;
}

WORKLOAD("printk", "[N]: N trace_printk() calls, as bprint events (default 3)",
	 printk_main);
