/*
 * rcu.h: waiting out every non-preemptible region in progress, without
 * stopping the CPUs (kernel/rcu.c).
 */
#ifndef _RCU_H
#define _RCU_H

#include "smp.h"

void synchronize_rcu(void);

extern unsigned long rcu_waiters;	/* CPUs asleep in synchronize_rcu */
void rcu_wake_waiters(unsigned long waiters);

/*
 * __schedule's quiescent point, on its own CPU. A full barrier: what
 * the CPU reads from here on sees what a waiter wrote before it took
 * its snapshot of the count; and either the waiter sees the count or
 * this CPU sees the waiter's bit, and wakes it.
 */
static inline void rcu_note_context_switch(struct cpu *c)
{
	unsigned long waiters;

	__atomic_fetch_add(&c->sched_count, 1, __ATOMIC_SEQ_CST);
	waiters = __atomic_load_n(&rcu_waiters, __ATOMIC_SEQ_CST);
	if (unlikely(waiters))
		rcu_wake_waiters(waiters);
}

#endif
