/*
 * trace_cpumask_test.c: tracing_cpumask on every CPU. A CPU out of the
 * mask records nothing, through the trampoline's fast path (the
 * function tracer) or the C writers (trace_marker); the CPUs in it
 * record every event; bad text is refused and changes nothing.
 */
#include "kernel.h"
#include "string.h"
#include "selftest.h"
#include "workloads.h"
#include "trace_fixtures.h"
#include "trace.h"
#include "sched.h"
#include "smp.h"

#define CPUMASK		"/sys/kernel/tracing/tracing_cpumask"
#define MARKER		"/sys/kernel/tracing/trace_marker"

static void fib_and_mark(void *arg)
{
	fib(10);
	vfs_write_file(MARKER, 0, "cpumask");
}

/* fib(10) and a mark on each CPU; the events each one recorded. */
static void events_per_cpu(unsigned long *events)
{
	struct task *t;
	int cpu;

	tracing_reset_online_cpus(&global_trace);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		t = kthread_create_on_cpu(fib_and_mark, NULL, "cpumask", cpu);
		if (!t)
			continue;
		kthread_start(t);
		kthread_wait(t);
	}
	for (cpu = 0; cpu < nr_cpus; cpu++)
		events[cpu] = ring_buffer_entries_cpu(global_trace.buffer, cpu);
}

static void start_fib_tracer(void)
{
	struct ftrace_hash *hash = alloc_ftrace_hash(4);

	if (hash && ftrace_match_records(hash, "fib", 3) > 0)
		ftrace_ops_set_hash(&global_trace.ops, hash, true);
	else
		free_ftrace_hash(hash);
	tracing_set_tracer(&global_trace, "function");
}

static void stop_fib_tracer(void)
{
	tracing_set_tracer(&global_trace, "nop");
	ftrace_free_ops_hashes(&global_trace.ops);
	tracing_reset_online_cpus(&global_trace);
}

/* 177 calls of fib and one mark: what a CPU in the mask records. */
#define EVENTS	178

static void cpumask_test_masked_cpus_record_nothing(struct kunit *t)
{
	unsigned long events[NR_CPUS];
	int cpu;

	if (nr_cpus < 2)
		KUNIT_SKIP(t, "needs 2 CPUs");
	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	start_fib_tracer();
	KUNIT_EXPECT_EQ(t, vfs_write_file(CPUMASK, O_TRUNC, "5\n"), 0);
	events_per_cpu(events);
	for (cpu = 0; cpu < nr_cpus; cpu++)
		KUNIT_EXPECT_EQ(t, events[cpu], cpu == 0 || cpu == 2 ? EVENTS : 0);
	KUNIT_EXPECT_EQ(t, vfs_write_file(CPUMASK, O_TRUNC, "ff\n"), 0);
	events_per_cpu(events);
	stop_fib_tracer();
	for (cpu = 0; cpu < nr_cpus; cpu++)
		KUNIT_EXPECT_EQ(t, events[cpu], EVENTS);
}

static void read_mask(char *buf, size_t size)
{
	struct file *f;
	ssize_t n = -1;

	if (!vfs_open(NULL, CPUMASK, O_RDONLY, &f)) {
		n = vfs_read(f, buf, size - 1);
		vfs_close(f);
	}
	buf[n > 0 ? n : 0] = 0;
}

static void cpumask_test_bad_text_changes_nothing(struct kunit *t)
{
	char before[16], after[16];

	read_mask(before, sizeof(before));
	KUNIT_EXPECT_EQ(t, vfs_write_file(CPUMASK, O_TRUNC, "x\n"), -EINVAL);
	KUNIT_EXPECT_EQ(t, vfs_write_file(CPUMASK, O_TRUNC, "1,0,0\n"),
			-EOVERFLOW);
	read_mask(after, sizeof(after));
	KUNIT_EXPECT_STREQ(t, after, before);
}

SELFTEST_SUITE_INIT(tracing_cpumask, tracing_selftest_need_defaults,
	       KUNIT_CASE(cpumask_test_masked_cpus_record_nothing),
	       KUNIT_CASE(cpumask_test_bad_text_changes_nothing));
