/*
 * smp_test.c: selftests of inter-processor interrupts: a function call
 * lands on the CPU asked for, every online CPU answers, and a
 * reschedule IPI wakes a CPU out of its idle wfi, and a caller names
 * the CPU that keeps it waiting; cpus[] is sized from the device tree.
 */
#include "kernel.h"
#include "selftest.h"
#include "sched.h"
#include "smp.h"
#include "time.h"
#include "printk.h"
#include "fdt.h"
#include "asm/csr.h"

static void record_cpu(void *arg)
{
	WRITE_ONCE(*(int *)arg, smp_processor_id());
}

static void call_single_runs_on_target(struct kunit *t)
{
	int cpu;

	for_each_online_cpu(cpu) {
		int ran_on = -1;

		KUNIT_EXPECT_EQ(t, smp_call_function_single(cpu, record_cpu,
							    &ran_on), 0);
		KUNIT_EXPECT_EQ(t, ran_on, cpu);
	}
}

static void call_single_rejects_offline_cpu(struct kunit *t)
{
	int ran_on = -1;

	KUNIT_EXPECT_EQ(t, smp_call_function_single(nr_cpu_ids, record_cpu,
						    &ran_on), -ENODEV);
	KUNIT_EXPECT_EQ(t, smp_call_function_single(-1, record_cpu,
						    &ran_on), -ENODEV);
	KUNIT_EXPECT_EQ(t, ran_on, -1);
}

/*
 * cpus[] has one entry per hart of the device tree, each on cache
 * lines of its own, and tp points at this CPU's.
 */
static void cpus_sized_from_device_tree(struct kunit *t)
{
	int cpu;

	KUNIT_EXPECT_EQ(t, nr_cpu_ids, min(boot_info.nr_harts, NR_CPUS));
	KUNIT_EXPECT_EQ(t, nr_cpus, nr_cpu_ids);
	KUNIT_EXPECT_EQ(t, sizeof(struct cpu) % SMP_CACHE_BYTES, 0);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		KUNIT_EXPECT_EQ(t, (unsigned long)&cpus[cpu] % SMP_CACHE_BYTES,
				0);
		KUNIT_EXPECT_EQ(t, cpus[cpu].id, cpu);
	}
	preempt_disable();
	KUNIT_EXPECT_TRUE(t, this_cpu() == &cpus[smp_processor_id()]);
	preempt_enable();
}

static void mark_cpu(void *arg)
{
	__atomic_fetch_or((unsigned long *)arg, 1UL << smp_processor_id(),
			  __ATOMIC_SEQ_CST);
}

static void every_online_cpu_answers(struct kunit *t)
{
	unsigned long answered = 0, online = 0, self;
	int cpu;

	for_each_online_cpu(cpu)
		online |= 1UL << cpu;
	preempt_disable();	/* "the others" must stay the others */
	self = 1UL << smp_processor_id();
	smp_call_function_many(mark_cpu, &answered);
	preempt_enable();
	KUNIT_EXPECT_EQ(t, answered, online & ~self);
}

static int idle_cpu_other_than_self(void)
{
	int cpu, found = -1;

	preempt_disable();
	for_each_online_cpu(cpu) {
		if (cpu != smp_processor_id() &&
		    READ_ONCE(cpus[cpu].curr) == cpus[cpu].idle) {
			found = cpu;
			break;
		}
	}
	preempt_enable();
	return found;
}

/* Only the target's IPI handler clears its pending bits; ticks do not. */
static bool ipi_consumed(int cpu, int msg, u64 timeout_ns)
{
	u64 end = ktime_get_ns() + timeout_ns;

	while (ktime_get_ns() < end)
		if (!(__atomic_load_n(&cpus[cpu].ipi_pending, __ATOMIC_ACQUIRE)
		      & (1UL << msg)))
			return true;
	return false;
}

static void reschedule_ipi_reaches_idle_cpu(struct kunit *t)
{
	int target = idle_cpu_other_than_self();

	if (target < 0)
		KUNIT_SKIP(t, "no other idle CPU");
	smp_send_ipi(target, IPI_RESCHEDULE);
	KUNIT_EXPECT_TRUE(t, ipi_consumed(target, IPI_RESCHEDULE,
					  NSEC_PER_SEC));
}

/*
 * Waking a thread pinned to an idle CPU sends that CPU IPI_RESCHEDULE
 * (kick_cpu_for), which takes it out of wfi to run the thread.
 */
static void woken_thread_runs_on_idle_cpu(struct kunit *t)
{
	int target = idle_cpu_other_than_self(), ran_on = -1;
	struct task *th;

	if (target < 0)
		KUNIT_SKIP(t, "no other idle CPU");
	th = kthread_create_on_cpu(record_cpu, &ran_on, "st_ipi", target);
	KUNIT_EXPECT_TRUE(t, th != NULL);
	if (!th)
		return;
	kthread_start(th);
	KUNIT_EXPECT_EQ(t, kthread_wait(th), 0);
	KUNIT_EXPECT_EQ(t, ran_on, target);
}

#define HOLD_LIMIT_NS	(5 * NSEC_PER_SEC)
#define TEST_STALL_MS	100

/* Keeps interrupts off on its CPU until msg is logged. */
struct irq_holder {
	char msg[96];
	unsigned int seen;	/* times msg was logged before */
	volatile bool holding;
};

static void hold_irqs_off(void *arg)
{
	struct irq_holder *h = arg;
	unsigned long flags = local_irq_save();

	WRITE_ONCE(h->holding, true);
	kunit_dmesg_wait(h->msg, h->seen, HOLD_LIMIT_NS);
	local_irq_restore(flags);
}

/*
 * A call to a CPU with interrupts off cannot be abandoned (the target
 * would later run it on the caller's dead data), so the caller waits,
 * but names the CPU it waits for, as Linux's CSD lock check does.
 */
static void late_call_is_reported(struct kunit *t)
{
	struct irq_holder h = { .holding = false };
	unsigned int timeout = stall_timeout_ms;
	int cpu = nr_cpus - 1, ran_on = -1;
	struct task *th;

	if (nr_cpus < 2)
		KUNIT_SKIP(t, "needs 2 CPUs");
	snprintf(h.msg, sizeof(h.msg), "smp: CPU %d (hart %lu) has not run "
		 "a function call", cpu, cpus[cpu].hartid);
	h.seen = kunit_dmesg_count(h.msg);
	th = kthread_create_on_cpu(hold_irqs_off, &h, "st_irqoff", cpu);
	if (!th)
		KUNIT_SKIP(t, "no thread");
	kthread_start(th);
	while (!h.holding)
		yield();
	stall_timeout_ms = TEST_STALL_MS;
	KUNIT_EXPECT_EQ(t, smp_call_function_single(cpu, record_cpu, &ran_on),
			0);
	stall_timeout_ms = timeout;
	KUNIT_EXPECT_EQ(t, ran_on, cpu);
	KUNIT_EXPECT_EQ(t, kthread_wait(th), 0);
	KUNIT_EXPECT_TRUE(t, kunit_dmesg_count(h.msg) > h.seen);
}

SELFTEST_SUITE(smp,
	KUNIT_CASE(call_single_runs_on_target),
	KUNIT_CASE(call_single_rejects_offline_cpu),
	KUNIT_CASE(cpus_sized_from_device_tree),
	KUNIT_CASE(every_online_cpu_answers),
	KUNIT_CASE(reschedule_ipi_reaches_idle_cpu),
	KUNIT_CASE(woken_thread_runs_on_idle_cpu),
	KUNIT_CASE(late_call_is_reported));
