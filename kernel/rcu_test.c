/*
 * rcu_test.c: selftests of synchronize_rcu (kernel/rcu.c): it waits
 * out a region with preemption off on another CPU, however long, and
 * when it returns every other CPU has been through __schedule.
 */
#include "kernel.h"
#include "selftest.h"
#include "sched.h"
#include "smp.h"
#include "rcu.h"
#include "time.h"

#define HOLD_NS		(20 * NSEC_PER_SEC / 1000)

struct holder {
	volatile bool holding, done;
};

static void hold_preemption(void *arg)
{
	struct holder *h = arg;
	u64 end;

	preempt_disable();
	WRITE_ONCE(h->holding, true);
	end = ktime_get_ns() + HOLD_NS;
	while (ktime_get_ns() < end)
		cpu_relax();
	WRITE_ONCE(h->done, true);
	preempt_enable();
}

/* The region began before the call, so it must be over at the return. */
static void waits_out_preempt_disabled(struct kunit *t)
{
	struct holder h = { false, false };
	struct task *th;

	if (nr_cpus < 2)
		KUNIT_SKIP(t, "needs 2 CPUs");
	th = kthread_create_on_cpu(hold_preemption, &h, "rcu_hold",
				   nr_cpus - 1);
	if (!th)
		KUNIT_SKIP(t, "no thread");
	kthread_start(th);
	while (!READ_ONCE(h.holding))
		yield();
	synchronize_rcu();
	KUNIT_EXPECT_TRUE(t, READ_ONCE(h.done));
	KUNIT_EXPECT_EQ(t, kthread_wait(th), 0);
}

/*
 * Idle CPUs too: the IPI wakes them, and they schedule. (Had this task
 * moved meanwhile, both its CPUs would have scheduled.)
 */
static void every_cpu_schedules(struct kunit *t)
{
	unsigned long before[NR_CPUS];
	int cpu, passed = 0, others = 0;

	for_each_online_cpu(cpu)
		before[cpu] = READ_ONCE(cpus[cpu].sched_count);
	synchronize_rcu();
	for_each_online_cpu(cpu) {
		if (cpu == smp_processor_id())
			continue;
		others++;
		passed += READ_ONCE(cpus[cpu].sched_count) != before[cpu];
	}
	KUNIT_EXPECT_EQ(t, passed, others);
}

SELFTEST_SUITE(rcu,
	KUNIT_CASE(waits_out_preempt_disabled),
	KUNIT_CASE(every_cpu_schedules));
