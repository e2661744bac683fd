/*
 * trace_sched_wakeup_test.c: selftests of the wakeup tracers. A task
 * that sleeps and wakes is followed when it is better than its waker:
 * wakeup records a maximum for one at nice -5 and none for one at nice
 * 0; wakeup_rt one for a SCHED_FIFO task and none for a niced one. The
 * maximum names the task, as the header will.
 */
#include "kernel.h"
#include "sched.h"
#include "selftest.h"
#include "trace.h"

#define SLEEPS	3

static void sleep_and_wake(void *arg)
{
	int i;

	for (i = 0; i < SLEEPS; i++)
		msleep(1);
}

/* Run the sleeper with policy, rt_priority and nice under tracer. */
static struct task *run_sleeper(struct kunit *t, const char *tracer,
				int policy, int rt_priority, int nice)
{
	struct task *p;

	KUNIT_EXPECT_EQ(t, tracing_set_tracer(&global_trace, tracer), 0);
	WRITE_ONCE(global_trace.max_latency, 0);
	p = kthread_create(sleep_and_wake, NULL, "st_sleeper");
	if (!p)
		return NULL;
	set_user_nice(p, nice);
	KUNIT_EXPECT_EQ(t, sched_setscheduler(p, policy, rt_priority), 0);
	kthread_start(p);
	return p;
}

/* Wait for it; was a maximum recorded, and for it? */
static bool max_for(struct kunit *t, struct task *p)
{
	int pid = p->pid;
	bool found;

	kthread_wait(p);
	found = READ_ONCE(global_trace.max_latency) > 0;
	if (found)
		KUNIT_EXPECT_EQ(t, global_trace.max_data.pid, pid);
	KUNIT_EXPECT_EQ(t, tracing_set_tracer(&global_trace, "nop"), 0);
	return found;
}

static void wakeup_follows_better_tasks_only(struct kunit *t)
{
	struct task *p;

	tracing_selftest_need_defaults(t);
	p = run_sleeper(t, "wakeup", SCHED_NORMAL, 0, 0);
	KUNIT_EXPECT_TRUE(t, p && !max_for(t, p));
	p = run_sleeper(t, "wakeup", SCHED_NORMAL, 0, -5);
	KUNIT_EXPECT_TRUE(t, p && max_for(t, p));
	KUNIT_EXPECT_EQ(t, global_trace.max_data.nice, -5);
	KUNIT_EXPECT_EQ(t, global_trace.max_data.policy, SCHED_NORMAL);
}

static void wakeup_rt_follows_fifo_tasks_only(struct kunit *t)
{
	struct task *p;

	tracing_selftest_need_defaults(t);
	p = run_sleeper(t, "wakeup_rt", SCHED_NORMAL, 0, -5);
	KUNIT_EXPECT_TRUE(t, p && !max_for(t, p));
	p = run_sleeper(t, "wakeup_rt", SCHED_FIFO, 10, 0);
	KUNIT_EXPECT_TRUE(t, p && max_for(t, p));
	KUNIT_EXPECT_EQ(t, global_trace.max_data.policy, SCHED_FIFO);
	KUNIT_EXPECT_EQ(t, global_trace.max_data.rt_priority, 10);
}

SELFTEST_SUITE(wakeup,
	KUNIT_CASE(wakeup_follows_better_tasks_only),
	KUNIT_CASE(wakeup_rt_follows_fifo_tasks_only));
