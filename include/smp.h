/*
 * smp.h: the per-CPU area (pointed to by tp in the kernel), CPU numbering
 * and inter-processor interrupts.
 */
#ifndef _SMP_H
#define _SMP_H

#include "kernel.h"

#define NR_CPUS		8

/* IPI messages, one bit each in cpu->ipi_pending. */
#define IPI_RESCHEDULE	0
#define IPI_CALL_FUNC	1
#define IPI_STOP	2

struct task;

/* The assembly reads curr and need_resched: see asm/asm-offsets.h. */
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
};

extern struct cpu cpus[NR_CPUS];
extern int nr_cpus;

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

void smp_boot_secondaries(void);
void smp_send_ipi(int cpu, int msg);
void smp_send_ipi_mask(unsigned long mask, int msg);
int smp_call_function_single(int cpu, void (*fn)(void *), void *data);
void smp_call_function_many(void (*fn)(void *), void *data);
void handle_ipi(void);
unsigned long online_hart_mask(void);

#endif
