/*
 * spinlock.c: spinlocks and the sleeping mutex. A spinlock holder is
 * never preempted (the lock disables preemption), so a CPU never spins
 * on a lock whose owner it has switched away from. amoswap.w.aq acquires
 * and the releasing store is ordered by a fence (release semantics).
 */
#include "kernel.h"
#include "spinlock.h"
#include "sched.h"
#include "smp.h"
#include "printk.h"
#include "asm/csr.h"

static int amoswap_acquire(volatile int *p, int v)
{
	int old;

	__asm__ __volatile__("amoswap.w.aq %0, %2, %1"
			     : "=r"(old), "+A"(*p) : "r"(v) : "memory");
	return old;
}

bool spin_trylock(spinlock_t *l)
{
	preempt_disable();
	if (amoswap_acquire(&l->locked, 1)) {
		preempt_enable_no_resched();
		return false;
	}
	l->cpu = smp_processor_id();
	return true;
}

/*
 * The bodies, inlined into both forms (as Linux's __raw_spin_lock and
 * __raw_spin_lock_irqsave in include/linux/spinlock_api_smp.h): the
 * irqsave pair calling the plain one cost a frame each way, some twenty
 * instructions a pair, and boot takes three hundred pairs.
 */
static __always_inline void __raw_spin_lock(spinlock_t *l)
{
	preempt_disable();
	while (amoswap_acquire(&l->locked, 1))
		while (READ_ONCE(l->locked))
			cpu_relax();
	l->cpu = smp_processor_id();
}

static __always_inline void __raw_spin_unlock(spinlock_t *l)
{
	l->cpu = -1;
	__asm__ __volatile__("fence rw, w" ::: "memory");
	l->locked = 0;
	preempt_enable();
}

void spin_lock(spinlock_t *l)
{
	__raw_spin_lock(l);
}

void spin_unlock(spinlock_t *l)
{
	__raw_spin_unlock(l);
}

unsigned long spin_lock_irqsave(spinlock_t *l)
{
	unsigned long flags = local_irq_save();

	__raw_spin_lock(l);
	return flags;
}

void spin_unlock_irqrestore(spinlock_t *l, unsigned long flags)
{
	__raw_spin_unlock(l);
	local_irq_restore(flags);
	if (!irqs_disabled() && this_cpu()->need_resched &&
	    !current->preempt_count)
		preempt_schedule();
}

/*
 * The mutex, as Linux's kernel/locking/mutex.c: owner is the holder's
 * task, with MUTEX_FLAG_WAITERS set while a task may sleep on it. An
 * uncontended lock or unlock is one compare-and-swap of owner; the
 * flag sends the unlock to the slow path, which wakes the sleepers.
 */
#define MUTEX_FLAG_WAITERS	1UL

/*
 * The compare-and-swaps of owner, as Linux's arch_cmpxchg_acquire and
 * arch_cmpxchg_release (arch/riscv/include/asm/cmpxchg.h): an lr/sc
 * loop, then `fence r,rw` once it took the mutex, or after `fence rw,w`
 * to give it up. GCC 12's __atomic_compare_exchange_n makes lr.d and
 * sc.d.aq of __ATOMIC_ACQ_REL, no release: on RVWMO the holder's
 * stores could show after the owner its unlock cleared.
 * tests/host/test_mutex_order.py checks the code made.
 */
static __always_inline bool mutex_cmpxchg_acquire(struct mutex *m,
						  unsigned long old,
						  unsigned long new)
{
	unsigned long prev, fail;

	__asm__ __volatile__("0:	lr.d	%0, %2\n"
			     "	bne	%0, %z3, 1f\n"
			     "	sc.d	%1, %z4, %2\n"
			     "	bnez	%1, 0b\n"
			     "	fence	r, rw\n"
			     "1:\n"
			     : "=&r"(prev), "=&r"(fail), "+A"(m->owner)
			     : "rJ"(old), "rJ"(new)
			     : "memory");
	return prev == old;
}

static __always_inline bool mutex_cmpxchg_release(struct mutex *m,
						  unsigned long old,
						  unsigned long new)
{
	unsigned long prev, fail;

	__asm__ __volatile__("	fence	rw, w\n"
			     "0:	lr.d	%0, %2\n"
			     "	bne	%0, %z3, 1f\n"
			     "	sc.d	%1, %z4, %2\n"
			     "	bnez	%1, 0b\n"
			     "1:\n"
			     : "=&r"(prev), "=&r"(fail), "+A"(m->owner)
			     : "rJ"(old), "rJ"(new)
			     : "memory");
	return prev == old;
}

/*
 * Under wait_lock: take the mutex if it is free, else flag it and
 * sleep. A sleeper counts itself in waiters before it sleeps, so the
 * taker keeps the flag while others wait.
 */
static noinline void mutex_lock_slowpath(struct mutex *m)
{
	unsigned long flags = spin_lock_irqsave(&m->wait_lock), old, new;

	for (;;) {
		old = READ_ONCE(m->owner);
		if (!(old & ~MUTEX_FLAG_WAITERS)) {
			new = (unsigned long)current |
			      (m->waiters ? MUTEX_FLAG_WAITERS : 0);
			if (mutex_cmpxchg_acquire(m, old, new))
				break;
			continue;
		}
		if (!(old & MUTEX_FLAG_WAITERS) &&
		    !mutex_cmpxchg_acquire(m, old, old | MUTEX_FLAG_WAITERS))
			continue;
		m->waiters++;
		sleep_on(m, &m->wait_lock);
		m->waiters--;
	}
	spin_unlock_irqrestore(&m->wait_lock, flags);
}

void mutex_lock(struct mutex *m)
{
	if (!mutex_cmpxchg_acquire(m, 0, (unsigned long)current))
		mutex_lock_slowpath(m);
}

bool mutex_trylock(struct mutex *m)
{
	return mutex_cmpxchg_acquire(m, 0, (unsigned long)current);
}

/* The flag was set: free the mutex under wait_lock, wake the sleepers. */
static noinline void mutex_unlock_slowpath(struct mutex *m)
{
	unsigned long flags = spin_lock_irqsave(&m->wait_lock);
	bool contended = m->waiters;

	__atomic_store_n(&m->owner, 0, __ATOMIC_RELEASE);
	spin_unlock_irqrestore(&m->wait_lock, flags);
	if (contended)
		wake_up(m);
}

void mutex_unlock(struct mutex *m)
{
	BUG_ON((READ_ONCE(m->owner) & ~MUTEX_FLAG_WAITERS) !=
	       (unsigned long)current);
	if (!mutex_cmpxchg_release(m, (unsigned long)current, 0))
		mutex_unlock_slowpath(m);
}
