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

void mutex_lock(struct mutex *m)
{
	unsigned long flags = spin_lock_irqsave(&m->wait_lock);

	while (m->owner) {
		m->waiters++;
		sleep_on(m, &m->wait_lock);
		m->waiters--;
	}
	m->owner = current;
	spin_unlock_irqrestore(&m->wait_lock, flags);
}

bool mutex_trylock(struct mutex *m)
{
	unsigned long flags = spin_lock_irqsave(&m->wait_lock);
	bool free = !m->owner;

	if (free)
		m->owner = current;
	spin_unlock_irqrestore(&m->wait_lock, flags);
	return free;
}

/*
 * A sleeper counts itself in waiters under wait_lock before it sleeps,
 * so an unlock that sees none has nobody to wake: it skips the walk
 * of every task that wake_up makes (Linux's mutex_unlock fast path).
 */
void mutex_unlock(struct mutex *m)
{
	unsigned long flags = spin_lock_irqsave(&m->wait_lock);
	bool contended = m->waiters;

	BUG_ON(m->owner != current);
	m->owner = NULL;
	spin_unlock_irqrestore(&m->wait_lock, flags);
	if (contended)
		wake_up(m);
}
