/*
 * smp.h: the per-CPU area (pointed to by tp in the kernel), CPU numbering
 * and inter-processor interrupts.
 */
#ifndef _SMP_H
#define _SMP_H

#include "kernel.h"
#include "cache.h"
#include "time.h"
#include "asm/csr.h"

/*
 * The most CPUs the kernel takes: a CPU mask (cpus_allowed, the IPI and
 * stop_machine masks, the SBI hart mask) is one word. How many there
 * are is nr_cpu_ids, the harts the device tree lists, and the per-CPU
 * data (cpus[] among it) is allocated for that many at boot.
 */
#define NR_CPUS		64

/* IPI messages, one bit each in cpu->ipi_pending. */
#define IPI_RESCHEDULE	0
#define IPI_CALL_FUNC	1
#define IPI_CALL_EACH	2
#define IPI_MAX		3

struct task;

/*
 * The assembly reads curr and need_resched: see asm/asm-offsets.h. Each
 * on lines of its own: other CPUs read curr and write ipi_pending.
 */
struct cpu {
	struct task *curr;		/* the running task */
	struct task *idle;		/* this CPU's <idle>-0 */
	bool need_resched;
	bool online;
	int id;				/* logical CPU number, 0..nr_cpus-1 */
	unsigned long hartid;
	unsigned long ipi_pending;
	void (*ipi_func)(void *);	/* for IPI_CALL_FUNC */
	void *ipi_data;
	volatile int ipi_done;
	u64 ticks;			/* timer interrupts taken */
	u64 irqs;			/* all interrupts taken */
	u64 idle_ticks;
	/* This CPU's part of the trace's ring buffer, for the trampolines */
	void *trace_buffer;
	unsigned long sched_count;	/* entries into __schedule (rcu.c) */
	u64 fenced_text_gen;		/* text_gen at its last fence.i */
	unsigned int ipi_stats[IPI_MAX];	/* messages taken, by kind */
} ____cacheline_aligned;

extern struct cpu *cpus;	/* nr_cpu_ids of them, from smp_alloc_cpus */
extern int nr_cpu_ids;		/* the harts found, at most NR_CPUS */
extern int nr_cpus;		/* brought online so far */

static inline struct cpu *this_cpu(void)
{
	struct cpu *c;

	__asm__ __volatile__("mv %0, tp" : "=r"(c));
	return c;
}

static inline int smp_processor_id(void)
{
	return this_cpu()->id;
}

#define for_each_online_cpu(c) \
	for ((c) = 0; (c) < nr_cpus; (c)++) if (cpus[c].online)

/*
 * A CPU spinning until other CPUs answer (a function call, a stage of
 * stop_machine) names the late ones every stall_timeout_ms instead of
 * waiting in silence; stall_watch_ms says when, start at zero. 5 s by
 * default, as Linux's csd_lock_timeout: a loaded host's vCPUs can lag
 * for a good part of a second.
 */
extern unsigned int stall_timeout_ms;

struct stall_watch {
	u64 start, next;	/* ns */
};

u64 stall_watch_ms(struct stall_watch *w);

/*
 * One step of a wait for another hart (a lock, a stage of stop_machine,
 * a function call, a CPU coming online). Under QEMU's -icount, one host
 * thread runs the harts in turn and a spinning hart keeps it for its
 * whole slice (millions of instructions), while the hart it waits for
 * cannot run; a wfi ends the turn. A soft interrupt made pending first,
 * with interrupts off, keeps the wfi from sleeping: it returns at once,
 * as on hardware. The pending bit is then put back as the IPIs need it.
 */
static inline void cpu_relax(void)
{
	unsigned long flags = local_irq_save();

	csr_set(sip, SIE_SSIE);
	wfi();
	csr_clear(sip, SIE_SSIE);
	if (READ_ONCE(this_cpu()->ipi_pending))
		csr_set(sip, SIE_SSIE);
	local_irq_restore(flags);
}

void smp_alloc_cpus(int nr_harts);
void smp_boot_secondaries(void);
void smp_send_ipi(int cpu, int msg);
int smp_call_function_single(int cpu, void (*fn)(void *), void *data);
void smp_call_function_many(void (*fn)(void *), void *data);
void on_each_cpu(void (*fn)(void *), void *data);
void handle_ipi(void);
unsigned long hart_mask(unsigned long cpumask);
unsigned long online_hart_mask(void);

#endif
