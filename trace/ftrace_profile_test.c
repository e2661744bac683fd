/*
 * ftrace_profile_test.c: selftests of the function profiler: exact hit
 * counts for a known call tree and none outside set_ftrace_filter,
 * times that add up, counts kept across a second `1` and started over
 * after a `0`, the one-fgraph-user rule in both directions, and
 * graph-time.
 */
#include "kernel.h"
#include "selftest.h"
#include "fgraph.h"
#include "trace_fixtures.h"
#include "irq.h"
#include "printk.h"
#include "trace_clock.h"
#include "trace.h"

/* The profiler follows set_ftrace_filter: only ftrace_test_fib. */
static int profile_fib(void)
{
	ftrace_set_filter(&global_trace.ops, "ftrace_test_fib", 15, 1);
	return ftrace_profile_set_enabled(true);
}

static void profile_stop(void)
{
	ftrace_profile_set_enabled(false);
	ftrace_free_ops_hashes(&global_trace.ops);
}

/* A task may move between CPUs: its hits add up over all of them. */
static unsigned long total_hits(void *func, u64 *time, u64 *time_squared)
{
	unsigned long ip = ftrace_location((unsigned long)func), hits = 0;
	const struct ftrace_profile *rec;
	int cpu;

	*time = *time_squared = 0;
	for (cpu = 0; cpu < trace_nr_cpus(); cpu++) {
		rec = ftrace_profile_lookup(cpu, ip);
		if (!rec)
			continue;
		hits += rec->counter;
		*time += rec->time;
		*time_squared += rec->time_squared;
	}
	return hits;
}

static void profile_fib_177_hits(struct kunit *t)
{
	u64 time, sq;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	KUNIT_EXPECT_EQ(t, profile_fib(), 0);
	KUNIT_EXPECT_EQ(t, ftrace_test_fib(10), 55);
	ftrace_test_target1(1);
	profile_stop();
	KUNIT_EXPECT_EQ(t, total_hits(ftrace_test_target1, &time, &sq), 0);
	KUNIT_EXPECT_EQ(t, total_hits(ftrace_test_fib, &time, &sq), 177);
	KUNIT_EXPECT_TRUE(t, time > 0);
	/* Cauchy-Schwarz: n * sum(x^2) >= sum(x)^2. */
	KUNIT_EXPECT_TRUE(t, 177 * sq >= time * time);
}

/* `1` while on changes nothing; `0` then `1` starts over. */
static void profile_reset_on_enable(struct kunit *t)
{
	u64 time, sq;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	KUNIT_EXPECT_EQ(t, profile_fib(), 0);
	ftrace_test_fib(5);
	KUNIT_EXPECT_EQ(t, ftrace_profile_set_enabled(true), 0);
	ftrace_test_fib(5);
	ftrace_profile_set_enabled(false);
	KUNIT_EXPECT_EQ(t, total_hits(ftrace_test_fib, &time, &sq), 30);
	ftrace_test_fib(5);
	KUNIT_EXPECT_EQ(t, total_hits(ftrace_test_fib, &time, &sq), 30);
	KUNIT_EXPECT_EQ(t, ftrace_profile_set_enabled(true), 0);
	profile_stop();
	KUNIT_EXPECT_EQ(t, total_hits(ftrace_test_fib, &time, &sq), 0);
}

static int other_entry(struct ftrace_graph_ent *trace)
{
	return 0;
}

static void other_return(struct ftrace_graph_ret *trace)
{
}

/* fgraph has one user: the profiler and another refuse each other. */
static void profile_one_graph_user(struct kunit *t)
{
	struct fgraph_ops other = { .entryfunc = other_entry,
				    .retfunc = other_return };

	KUNIT_EXPECT_EQ(t, register_ftrace_graph(&other), 0);
	KUNIT_EXPECT_EQ(t, profile_fib(), -EBUSY);
	unregister_ftrace_graph(&other);
	KUNIT_EXPECT_EQ(t, profile_fib(), 0);
	KUNIT_EXPECT_EQ(t, register_ftrace_graph(&other), -EBUSY);
	profile_stop();
}

/* do_irq's hits on cpu. */
static unsigned long do_irq_hits(int cpu)
{
	unsigned long ip = ftrace_location((unsigned long)do_irq);
	const struct ftrace_profile *rec = ftrace_profile_lookup(cpu, ip);

	return rec ? rec->counter : 0;
}

/*
 * Every interrupt is a hit of do_irq, even one that lands while the
 * profiler counts a hit of the busy target.
 */
/*
 * graph-time: on, a call's time includes its children's, so the nested
 * calls of ftrace_test_deep add up to more than the whole took; off,
 * each counts its own time, which add up to at most the whole. Timed
 * by the instret clock, under -icount only: otherwise QEMU's instret
 * follows the host's clock, and a host stall outside the calls can
 * make the whole longer than all of them.
 */
static u64 profile_deep_time(struct kunit *t, bool graph_time, u64 *whole)
{
	unsigned long flags;
	u64 time, sq, start;

	ftrace_profile_graph_time_control(graph_time);
	ftrace_set_filter(&global_trace.ops, "ftrace_test_deep", 16, 1);
	KUNIT_EXPECT_EQ(t, ftrace_profile_set_enabled(true), 0);
	flags = local_irq_save();
	start = trace_clock_read(global_trace.clock_id);
	ftrace_test_deep(10);
	*whole = trace_clock_read(global_trace.clock_id) - start;
	local_irq_restore(flags);
	profile_stop();
	ftrace_profile_graph_time_control(true);
	KUNIT_EXPECT_EQ(t, total_hits(ftrace_test_deep, &time, &sq), 11);
	return time;
}

static void profile_graph_time(struct kunit *t)
{
	u64 whole, a = rdinstret(), b = rdinstret();

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	if (b - a >= 4)
		KUNIT_SKIP(t, "needs qemu -icount shift=0,sleep=off");
	KUNIT_EXPECT_EQ(t, tracing_set_clock(&global_trace, "instret"), 0);
	KUNIT_EXPECT_TRUE(t, profile_deep_time(t, true, &whole) > whole);
	KUNIT_EXPECT_TRUE(t, profile_deep_time(t, false, &whole) <= whole);
	tracing_set_clock(&global_trace, "local");
}

static void profile_irqs_not_lost(struct kunit *t)
{
	struct irq_window w;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	ftrace_set_filter(&global_trace.ops, "do_irq", 6, 1);
	ftrace_set_filter(&global_trace.ops, "ftrace_test_target1", 19, 0);
	KUNIT_EXPECT_EQ(t, ftrace_profile_set_enabled(true), 0);
	selftest_busy_until_irqs(10, do_irq_hits, &w);
	profile_stop();
	console_printf("    # %lu interrupts, %lu do_irq hits\n", w.irqs,
		       w.counted);
	KUNIT_EXPECT_EQ(t, w.counted, w.irqs);
}

SELFTEST_SUITE_INIT(function_profiler, tracing_selftest_need_defaults,
	KUNIT_CASE(profile_fib_177_hits),
	KUNIT_CASE(profile_reset_on_enable),
	KUNIT_CASE(profile_one_graph_user),
	KUNIT_CASE(profile_irqs_not_lost),
	KUNIT_CASE(profile_graph_time),
);
