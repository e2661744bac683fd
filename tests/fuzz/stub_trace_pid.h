/*
 * stub_trace_pid.h: what trace/trace_pid.c needs from the kernel, for
 * the fuzz targets that include it: one CPU and its cache-line
 * allocations (the pid cache), the two sched tracepoints function-fork's
 * probes go on (never fired here) and the lock that orders a list's
 * copies. One thread runs, so the lock does nothing.
 */
#ifndef _STUB_TRACE_PID_H
#define _STUB_TRACE_PID_H

/* trace_pid.c sizes its per-CPU cache by the CPUs: one, here. */
int trace_nr_cpus(void)
{
	return 1;
}

/* The kernel's gives whole cache lines: 64-aligned, as the type needs. */
void *kzalloc_cacheline(size_t size)
{
	void *p = aligned_alloc(64, (size + 63) & ~(size_t)63);

	return p ? memset(p, 0, size) : NULL;
}

void kfree_cacheline(const void *p, size_t size)
{
	free((void *)p);
}

struct tracepoint __tracepoint_sched_process_fork;
struct tracepoint __tracepoint_sched_process_free;

int tracepoint_probe_register(struct tracepoint *tp, void *probe, void *data)
{
	return 0;
}

int tracepoint_probe_unregister(struct tracepoint *tp, void *probe,
				void *data)
{
	return 0;
}

unsigned long spin_lock_irqsave(spinlock_t *l)
{
	return 0;
}

void spin_unlock_irqrestore(spinlock_t *l, unsigned long flags)
{
}

#endif
