/*
 * fault_inject.h: Linux's fault injection (lib/fault-inject.c) for the
 * allocators: failslab makes kmalloc fail, fail_page_alloc the page
 * allocator. Each follows a schedule set in /sys/kernel/debug/NAME/
 * (kernel/fs/fault_inject_debugfs.c) or by the selftests (mm_fail_every).
 */
#ifndef _FAULT_INJECT_H
#define _FAULT_INJECT_H

#include "kernel.h"
#include "spinlock.h"

/*
 * Linux's struct fault_attr, less the task and stack filters. A call
 * fails when it is an interval-th one, then with probability percent,
 * while times (-1: no limit) is not used up.
 */
struct fault_attr {
	unsigned long probability;	/* 0: never fail (the default) */
	unsigned long interval;
	long times;			/* failures left; -1: no limit */
	unsigned long count;		/* calls since the schedule was set */
	unsigned long injected;		/* failures since boot */
	u32 rnd;			/* xorshift32, reseeded with the schedule */
	spinlock_t lock;
};

extern struct fault_attr failslab, fail_page_alloc;

bool __should_fail(struct fault_attr *attr);

/* A call that may fail on schedule: one load when none is set. */
static inline bool should_fail(struct fault_attr *attr)
{
	return unlikely(READ_ONCE(attr->probability)) && __should_fail(attr);
}

/* A new schedule; the count and the random numbers start over. */
void fault_attr_set(struct fault_attr *attr, unsigned long probability,
		    unsigned long interval, long times);

#endif
