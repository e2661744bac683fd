/*
 * stop_machine_test.c: selftests of the stop_machine rendezvous
 * (kernel/stop_machine.c): it completes while other CPUs keep making
 * cross-CPU function calls, and names a CPU that keeps it waiting.
 */
#include "kernel.h"
#include "selftest.h"
#include "sched.h"
#include "smp.h"
#include "stop_machine.h"
#include "printk.h"
#include "time.h"

#define ROUNDS		5
#define WARMUP_CALLS	100
#define HOLD_LIMIT_NS	(5 * NSEC_PER_SEC)
#define TEST_STALL_MS	100

struct cross_caller {
	int target;
	volatile bool stop;
	volatile unsigned long calls;
};

static void count_call(void *arg)
{
	struct cross_caller *c = arg;

	c->calls++;
}

static void cross_caller_thread(void *arg)
{
	struct cross_caller *c = arg;

	while (!READ_ONCE(c->stop))
		smp_call_function_single(c->target, count_call, c);
}

/*
 * A CPU spinning in smp_call_function_single (interrupts off) can only
 * reach its stopper once the CPU it calls has answered; so a CPU whose
 * stopper has arrived must still take interrupts until every CPU has
 * (Linux's MULTI_STOP_DISABLE_IRQ stage).
 */
static void rendezvous_with_cross_cpu_calls(struct kunit *t)
{
	struct cross_caller c = { .target = nr_cpus - 2 };
	struct task *th;
	unsigned long before = stop_machine_rounds();
	int i;

	if (nr_cpus < 2)
		KUNIT_SKIP(t, "needs 2 CPUs");
	th = kthread_create_on_cpu(cross_caller_thread, &c, "st_xcall",
				   nr_cpus - 1);
	if (!th)
		KUNIT_SKIP(t, "no thread");
	kthread_start(th);
	while (c.calls < WARMUP_CALLS)
		yield();
	for (i = 0; i < ROUNDS; i++)
		synchronize_sched();
	WRITE_ONCE(c.stop, true);
	KUNIT_EXPECT_EQ(t, kthread_wait(th), 0);
	KUNIT_EXPECT_EQ(t, stop_machine_rounds() - before, ROUNDS);
}

/* Keeps its CPU from running its stopper until msg is logged. */
struct holder {
	char msg[96];
	unsigned int seen;	/* times msg was logged before */
	volatile bool holding;
};

static void hold_preemption(void *arg)
{
	struct holder *h = arg;

	preempt_disable();
	WRITE_ONCE(h->holding, true);
	kunit_dmesg_wait(h->msg, h->seen, HOLD_LIMIT_NS);
	preempt_enable();
}

/*
 * A CPU whose stopper cannot run holds the round in its first stage:
 * stop_machine names the CPU and the stage, and goes on waiting.
 */
static void late_cpu_is_reported(struct kunit *t)
{
	struct holder h = { .holding = false };
	unsigned int timeout = stall_timeout_ms;
	int cpu = nr_cpus - 1;
	struct task *th;

	if (nr_cpus < 2)
		KUNIT_SKIP(t, "needs 2 CPUs");
	snprintf(h.msg, sizeof(h.msg), "stop_machine: CPU %d (hart %lu) "
		 "has not acknowledged MULTI_STOP_PREPARE", cpu,
		 cpus[cpu].hartid);
	h.seen = kunit_dmesg_count(h.msg);
	th = kthread_create_on_cpu(hold_preemption, &h, "st_hold", cpu);
	if (!th)
		KUNIT_SKIP(t, "no thread");
	kthread_start(th);
	while (!h.holding)
		yield();
	stall_timeout_ms = TEST_STALL_MS;
	synchronize_sched();
	stall_timeout_ms = timeout;
	KUNIT_EXPECT_EQ(t, kthread_wait(th), 0);
	KUNIT_EXPECT_TRUE(t, kunit_dmesg_count(h.msg) > h.seen);
}

#define QUIET_NS	(200 * NSEC_PER_MSEC)

/*
 * The round's function: how many other CPUs took an interrupt while it
 * ran. Each is sent an IPI, so that one with interrupts on takes one
 * for sure, whatever its timer does; the window lasts until every
 * other CPU took one or QUIET_NS passed. Every CPU passed DISABLE_IRQ
 * before RUN, so none may.
 */
static int count_cpus_interrupted(void *arg)
{
	u64 before[NR_CPUS], end;
	int cpu, self = smp_processor_id(), n;

	for_each_online_cpu(cpu) {
		before[cpu] = READ_ONCE(cpus[cpu].irqs);
		if (cpu != self)
			smp_send_ipi(cpu, IPI_RESCHEDULE);
	}
	end = ktime_get_ns() + QUIET_NS;
	do {
		n = 0;
		for_each_online_cpu(cpu)
			n += cpu != self &&
			     READ_ONCE(cpus[cpu].irqs) != before[cpu];
	} while (n < nr_cpus - 1 && ktime_get_ns() < end);
	return n;
}

/* While fn runs, every other CPU spins with interrupts off. */
static void no_interrupts_while_fn_runs(struct kunit *t)
{
	if (nr_cpus < 2)
		KUNIT_SKIP(t, "needs 2 CPUs");
	KUNIT_EXPECT_EQ(t, stop_machine(count_cpus_interrupted, NULL), 0);
}

SELFTEST_SUITE(stop_machine,
	KUNIT_CASE(rendezvous_with_cross_cpu_calls),
	KUNIT_CASE(late_cpu_is_reported),
	KUNIT_CASE(no_interrupts_while_fn_runs));
