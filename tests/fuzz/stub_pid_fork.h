/*
 * stub_pid_fork.h: what trace/trace_pid.c's function-fork needs from
 * the kernel, for the fuzz targets that include it: the two sched
 * tracepoints its probes go on (never fired here) and the lock that
 * orders a list's copies. One thread runs, so the lock does nothing.
 */
#ifndef _STUB_PID_FORK_H
#define _STUB_PID_FORK_H

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
