/*
 * fault_inject.c: allocation failures on a schedule (Linux's
 * lib/fault-inject.c, mm/failslab.c and fail_page_alloc), so that the
 * -ENOMEM paths run in tests. Each schedule has Linux's three debugfs
 * knobs, /sys/kernel/debug/{failslab,fail_page_alloc}/
 * (kernel/fs/fault_inject_debugfs.c):
 *
 *   probability  percent of the due calls that fail (0: none, default)
 *   interval     only every interval-th call is due (default 1)
 *   times        failures left, -1 for no limit (default 1)
 *
 * Unlike Linux, writing a knob restarts the count and reseeds the
 * random numbers, so `interval N` fails the Nth allocation from then
 * on and a schedule replays the same failures each time it is set.
 */
#include "kernel.h"
#include "mm.h"
#include "fault_inject.h"

#define FAULT_SEED	2463534242U

struct fault_attr failslab = {
	.interval = 1, .times = 1, .rnd = FAULT_SEED,
	.lock = SPIN_LOCK_UNLOCKED,
};
struct fault_attr fail_page_alloc = {
	.interval = 1, .times = 1, .rnd = FAULT_SEED,
	.lock = SPIN_LOCK_UNLOCKED,
};

static u32 next_random(struct fault_attr *attr)
{
	u32 x = attr->rnd;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return attr->rnd = x;
}

/* Linux's should_fail, in its order: times, interval, probability. */
static bool due(struct fault_attr *attr)
{
	if (!attr->times)
		return false;
	if (attr->interval > 1 && ++attr->count % attr->interval)
		return false;
	if (attr->probability <= next_random(attr) % 100)
		return false;
	if (attr->times > 0)
		attr->times--;
	attr->injected++;
	return true;
}

bool __should_fail(struct fault_attr *attr)
{
	unsigned long flags = spin_lock_irqsave(&attr->lock);
	bool fail = due(attr);

	spin_unlock_irqrestore(&attr->lock, flags);
	return fail;
}

void fault_attr_set(struct fault_attr *attr, unsigned long probability,
		    unsigned long interval, long times)
{
	unsigned long flags = spin_lock_irqsave(&attr->lock);

	attr->interval = interval;
	attr->times = times;
	attr->count = 0;
	attr->rnd = FAULT_SEED;
	WRITE_ONCE(attr->probability, probability);
	spin_unlock_irqrestore(&attr->lock, flags);
}

/* Both allocators fail every Nth call; 0 puts Linux's defaults back. */
void mm_fail_every(unsigned long n)
{
	long probability = n ? 100 : 0, interval = n ? n : 1, times = n ? -1 : 1;

	fault_attr_set(&failslab, probability, interval, times);
	fault_attr_set(&fail_page_alloc, probability, interval, times);
}

unsigned long mm_failures_injected(void)
{
	return READ_ONCE(failslab.injected) +
	       READ_ONCE(fail_page_alloc.injected);
}
