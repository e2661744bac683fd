/*
 * stop_machine_test.c: selftests of the stop_machine rendezvous
 * (kernel/stop_machine.c): it completes while other CPUs keep making
 * cross-CPU function calls.
 */
#include "kernel.h"
#include "selftest.h"
#include "sched.h"
#include "smp.h"
#include "stop_machine.h"

#define ROUNDS		20
#define WARMUP_CALLS	100

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

SELFTEST_SUITE(stop_machine,
	KUNIT_CASE(rendezvous_with_cross_cpu_calls));
