/*
 * spinlock.h: test-and-set spinlocks (amoswap) that also disable
 * preemption, and the irqsave forms for data shared with interrupts.
 */
#ifndef _SPINLOCK_H
#define _SPINLOCK_H

#include "kernel.h"

struct task;

typedef struct {
	volatile int locked;
	int cpu;
} spinlock_t;

#define SPIN_LOCK_UNLOCKED { 0, -1 }
#define DEFINE_SPINLOCK(n) spinlock_t n = SPIN_LOCK_UNLOCKED

void spin_lock(spinlock_t *l);
bool spin_trylock(spinlock_t *l);
void spin_unlock(spinlock_t *l);
unsigned long spin_lock_irqsave(spinlock_t *l);
void spin_unlock_irqrestore(spinlock_t *l, unsigned long flags);

/* A sleeping lock, for text_mutex and other long critical sections. */
struct mutex {
	spinlock_t wait_lock;
	unsigned long owner;	/* the holder's task | MUTEX_FLAG_WAITERS */
	unsigned int waiters;	/* tasks asleep in mutex_lock */
};

#define DEFINE_MUTEX(n) struct mutex n = { SPIN_LOCK_UNLOCKED, 0, 0 }

void mutex_lock(struct mutex *m);
bool mutex_trylock(struct mutex *m);	/* never sleeps */
void mutex_unlock(struct mutex *m);

#endif
