/*
 * trace_selftest.c: may a tracing selftest take the state it tests?
 * Linux runs its tracer selftests at boot, before anyone can trace
 * (kernel/trace/trace_selftest.c); here `selftest` may be typed while
 * a tracer runs. The suites that drive global_trace, the profiler or
 * the stack tracer put everything back to the defaults when done, so
 * they may only start from the defaults: otherwise each case skips,
 * naming the first file that differs.
 */
#include "kernel.h"
#include "string.h"
#include "printf.h"
#include "selftest.h"
#include "trace.h"

#define T	"/sys/kernel/tracing/"
#define PROC	"/proc/sys/kernel/"
#define ALL	"#### all functions enabled ####\n"
#define NONE	"#### no functions disabled ####\n"

struct tracing_default {
	const char *path;
	const char *text;		/* what it reads after boot */
	const char *differs;		/* why a test skips when it does not */
};

/* The specific files first, enabled_functions (any ops) after them. */
static const struct tracing_default tracing_defaults[] = {
	{ PROC "ftrace_enabled", "1\n", "ftrace_enabled is 0" },
	{ T "current_tracer", "nop\n", "current_tracer is not nop" },
	{ T "function_profile_enabled", "0\n",
	  "function_profile_enabled is 1" },
	{ PROC "stack_tracer_enabled", "0\n", "stack_tracer_enabled is 1" },
	{ T "enabled_functions", "", "enabled_functions is not empty" },
	{ T "tracing_on", "1\n", "tracing_on is 0" },
	{ T "events/enable", "0\n", "an event is enabled" },
	{ T "set_ftrace_filter", ALL, "set_ftrace_filter is set" },
	{ T "set_ftrace_notrace", NONE, "set_ftrace_notrace is set" },
	{ T "set_ftrace_pid", "no pid\n", "set_ftrace_pid is set" },
	{ T "set_graph_function", ALL, "set_graph_function is set" },
	{ T "set_graph_notrace", NONE, "set_graph_notrace is set" },
	{ T "max_graph_depth", "0\n", "max_graph_depth is set" },
	{ T "tracing_thresh", "0\n", "tracing_thresh is set" },
	{ T "options/funcgraph-irqs", "1\n", "funcgraph-irqs is off" },
	{ T "stack_trace_filter", ALL, "stack_trace_filter is set" },
	{ T "stack_max_size", "0\n", "stack_max_size is not 0" },
};

/* Does the file at path read exactly text (a few dozen bytes)? */
static bool file_reads(const char *path, const char *text)
{
	size_t len = strlen(text), got = 0;
	struct file *f;
	char buf[64];
	ssize_t n = 1;

	if (vfs_open(NULL, path, O_RDONLY, &f))
		return false;
	while (got <= len && got < sizeof(buf) && n > 0) {
		n = vfs_read(f, buf + got, sizeof(buf) - got);
		got += n > 0 ? n : 0;
	}
	vfs_close(f);
	return n >= 0 && got == len && !memcmp(buf, text, len);
}

static bool trace_buffer_empty(void)
{
	int cpu;

	for (cpu = 0; cpu < trace_nr_cpus(); cpu++)
		if (!ring_buffer_empty_cpu(global_trace.buffer, cpu))
			return false;
	return true;
}

/* What differs from the defaults, or NULL. */
static const char *tracing_differs(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tracing_defaults); i++)
		if (!file_reads(tracing_defaults[i].path,
				tracing_defaults[i].text))
			return tracing_defaults[i].differs;
	return trace_buffer_empty() ? NULL : "the trace buffer is not empty";
}

/*
 * Consume every CPU's events into ev, in time order (the local clock is
 * one across harts), at most max of them; returns how many.
 */
int tracing_selftest_consume(struct selftest_event *ev, int max)
{
	struct ring_buffer_event *e;
	struct selftest_event x;
	int cpu, n = 0, i;
	u64 ts;

	ring_buffer_reader_lock(global_trace.buffer);
	for (cpu = 0; cpu < trace_nr_cpus(); cpu++)
		while (n < max && (e = ring_buffer_consume(global_trace.buffer,
							   cpu, &ts, NULL))) {
			x.ts = ts;
			memcpy(x.word, ring_buffer_event_data(e),
			       sizeof(x.word));
			for (i = n++; i > 0 && ev[i - 1].ts > x.ts; i--)
				ev[i] = ev[i - 1];
			ev[i] = x;
		}
	ring_buffer_reader_unlock(global_trace.buffer);
	return n;
}

/*
 * Call fn(c) in context c of SELFTEST_CONTEXTS: interrupts on (even c)
 * or off, preemption disabled c / 2 deep. Returns the context word
 * (without a type) that an event of the call should carry.
 */
u32 tracing_selftest_call_in_context(int c, long (*fn)(long))
{
	unsigned long flags = 0;
	int i;
	u32 ctx;

	for (i = 0; i < c / 2; i++)
		preempt_disable();
	if (c & 1)
		flags = local_irq_save();
	ctx = tracing_gen_ctx_dec(0);
	fn(c);
	if (c & 1)
		local_irq_restore(flags);
	for (i = 0; i < c / 2; i++)
		preempt_enable();
	return ctx;
}

/* A suite's init: skip the case unless tracing is as after boot. */
void tracing_selftest_need_defaults(struct kunit *t)
{
	static char why[80];
	const char *differs = tracing_differs();

	if (!differs)
		return;
	snprintf(why, sizeof(why), "tracing in use: %s", differs);
	KUNIT_SKIP(t, why);
}
