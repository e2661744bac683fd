/*
 * rcu.c: synchronize_rcu(), a grace period without stopping any CPU.
 * When it returns, every region that ran with preemption off when it
 * was called has ended: every ftrace trampoline and callback (they run
 * non-preemptible, and a task is never preempted inside a trampoline),
 * every ftrace_ops_list_func walk. Live patching (trace/ftrace_live.c)
 * waits on it where synchronize_sched (kernel/stop_machine.c) would
 * stop every CPU.
 *
 * A CPU that enters __schedule is outside all such regions, so each
 * CPU counts its entries (cpu->sched_count). The caller asks every
 * other CPU to reschedule (Linux's resched_cpu; its synchronize_rcu
 * waits for the same context switches) and waits until each count has
 * moved. A CPU interrupted inside a region defers it to the region's
 * end, where preempt_enable, or the trampoline's PREEMPT_ENABLE, sees
 * need_resched. The caller's own CPU is outside every region already.
 *
 * The caller sleeps in wfi meanwhile, its CPU's bit set in rcu_waiters:
 * a CPU passing its quiescent point sends it an IPI. A spinning hart
 * would take a host thread from the harts it waits for under QEMU.
 */
#include "kernel.h"
#include "rcu.h"
#include "sched.h"
#include "smp.h"
#include "printk.h"
#include "asm/csr.h"
#include "asm/sbi.h"

unsigned long rcu_waiters;

void rcu_wake_waiters(unsigned long waiters)
{
	unsigned long harts = 0;
	int cpu;

	for_each_online_cpu(cpu)
		if (waiters & (1UL << cpu))
			harts |= 1UL << cpus[cpu].hartid;
	sbi_send_ipi(harts, 0);
}

static unsigned long sched_count(int cpu)
{
	return __atomic_load_n(&cpus[cpu].sched_count, __ATOMIC_SEQ_CST);
}

static void report_late_cpus(const unsigned long *snap, int skip,
			     struct stall_watch *w)
{
	u64 ms = stall_watch_ms(w);
	int cpu;

	if (!ms)
		return;
	for_each_online_cpu(cpu)
		if (cpu != skip && snap[cpu] == sched_count(cpu))
			pr_err("rcu: CPU %d (hart %lu) has not passed a "
			       "quiescent point after %llu ms\n", cpu,
			       cpus[cpu].hartid, ms);
}

/* Has every CPU but skip entered __schedule since snap was taken? */
static bool all_passed(const unsigned long *snap, int skip)
{
	int cpu;

	for_each_online_cpu(cpu)
		if (cpu != skip && sched_count(cpu) == snap[cpu])
			return false;
	return true;
}

/*
 * Sleep until a CPU passes a quiescent point. Interrupts are off from
 * the bit's setting to the wfi, so no wake-up is lost; the caller may
 * be preempted (and move) between two waits, as it must: the CPU it
 * waits for may be waiting for this one's stopper.
 */
static bool wait_once(const unsigned long *snap, int skip)
{
	unsigned long flags = local_irq_save();
	unsigned long bit = 1UL << smp_processor_id();
	bool done;

	__atomic_fetch_or(&rcu_waiters, bit, __ATOMIC_SEQ_CST);
	done = all_passed(snap, skip);
	if (!done)
		wfi();
	__atomic_fetch_and(&rcu_waiters, ~bit, __ATOMIC_SEQ_CST);
	local_irq_restore(flags);
	return done;
}

/* From task context, preemptible. */
void synchronize_rcu(void)
{
	unsigned long snap[NR_CPUS];
	struct stall_watch w = { 0, 0 };
	int cpu, self;

	preempt_disable();
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	self = smp_processor_id();
	for_each_online_cpu(cpu) {
		snap[cpu] = sched_count(cpu);
		if (cpu != self)
			smp_send_ipi(cpu, IPI_RESCHEDULE);
	}
	preempt_enable();
	while (!wait_once(snap, self))
		report_late_cpus(snap, self, &w);
}
