/*
 * workloads.h: small programs for the tracer to watch
 * (kernel/demo/workloads.c), started by the shell's `run`
 * (kernel/shell/cmd_run.c) as kernel threads. They are traced
 * like the rest of the kernel, and each step is a real, out-of-line
 * function, so a function or function_graph trace shows their shape.
 */
#ifndef _WORKLOADS_H
#define _WORKLOADS_H

#include "kernel.h"

struct shell_out;

/*
 * A workload's main gets its words (argv[0] is its name) and returns 0,
 * a positive status when it already said what went wrong, or a
 * negative errno (-EINTR when Ctrl-C stopped it).
 */
struct workload {
	const char *name;
	const char *usage;
	int (*main)(struct shell_out *out, int argc, char **argv);
};

/*
 * WORKLOAD places one in the .workloads section: the demos register
 * them, and `run` (kernel/shell/cmd_run.c) finds them there, so the
 * shell knows no demo by name.
 */
#define WORKLOAD(wname, wusage, wmain)					\
	static const struct workload __workload_##wmain			\
		__section(".workloads") __used __aligned(8) = {		\
		wname, wusage, wmain }

/* The workload called name, or the i-th (NULL past the last). */
const struct workload *workload_find(const char *name);
const struct workload *workload_get(size_t i);
/*
 * The optional count in argv[1]: def if absent, else min..max. Says
 * what is wrong and returns 1 otherwise (the status `run` passes on).
 */
int workload_count_arg(int argc, char **argv, unsigned long def,
		       unsigned long min, unsigned long max, unsigned long *val);
/* `klpdemo` (kernel/demo/klp_demo.c): the livepatch stress test. */
int klpdemo_main(struct shell_out *out, int argc, char **argv);

/* What the workloads compute, for their selftests. */
extern unsigned long fib_calls;
unsigned long fib(unsigned long n);
u32 crc32_le(u32 crc, const u8 *buf, size_t len);	/* as zlib crc32() */
void crc32_fill_pattern(u8 *buf, size_t len);
int sort(u32 *v, size_t n);
void fill_random(u32 *v, size_t n, u32 seed);
bool is_sorted(const u32 *v, size_t n);

#endif
