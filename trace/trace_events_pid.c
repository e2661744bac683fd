/*
 * trace_events_pid.c: set_event_pid and set_event_notrace_pid (Linux's
 * in kernel/trace/trace_events.c): the tasks whose events are written,
 * or never written; either list empty means no such rule. The task is
 * the one that records the event (for sched_switch, the one switched
 * out). With an array's event-fork option, a listed task's new
 * children join its list and a reaped task leaves it: probes on
 * sched_process_fork and sched_process_free publish a copy
 * (trace_filter_add_remove_task); the copies they replaced are freed
 * with the list, after a grace period, when the file is next written.
 */
#include "kernel.h"
#include "string.h"
#include "rcu.h"
#include "spinlock.h"
#include "trace_events.h"
#include "trace/events/sched.h"

/* Orders event-fork's copies of a list with a write's swap. */
static DEFINE_SPINLOCK(fork_lock);

/* From trace_event_commit: is current's event to be dropped from tr? */
bool trace_event_pid_ignored(struct trace_array *tr)
{
	struct trace_pid_list *pids = READ_ONCE(tr->event_pids);
	struct trace_pid_list *no = READ_ONCE(tr->event_notrace_pids);

	return (pids && !trace_pid_list_is_set(pids, current->pid)) ||
	       (no && trace_pid_list_is_set(no, current->pid));
}

/* The probes' data is the trace array whose lists they follow. */
static void event_filter_pid_sched_process_fork(void *data,
						struct task *parent,
						struct task *child)
{
	struct trace_array *tr = data;
	unsigned long flags = spin_lock_irqsave(&fork_lock);

	trace_filter_add_remove_task(&tr->event_pids, parent, child);
	trace_filter_add_remove_task(&tr->event_notrace_pids, parent, child);
	spin_unlock_irqrestore(&fork_lock, flags);
}

static void event_filter_pid_sched_process_exit(void *data, struct task *task)
{
	struct trace_array *tr = data;
	unsigned long flags = spin_lock_irqsave(&fork_lock);

	trace_filter_add_remove_task(&tr->event_pids, NULL, task);
	trace_filter_add_remove_task(&tr->event_notrace_pids, NULL, task);
	spin_unlock_irqrestore(&fork_lock, flags);
}

/*
 * The event-fork option of tr changed (Linux's trace_event_follow_fork):
 * a listed task's child joins its list and a reaped task leaves it.
 */
void trace_event_follow_fork(struct trace_array *tr, bool enable)
{
	if (enable) {
		register_trace_sched_process_fork(
			event_filter_pid_sched_process_fork, tr);
		register_trace_sched_process_free(
			event_filter_pid_sched_process_exit, tr);
	} else {
		unregister_trace_sched_process_fork(
			event_filter_pid_sched_process_fork, tr);
		unregister_trace_sched_process_free(
			event_filter_pid_sched_process_exit, tr);
	}
}

/* `>` replaces the list (at the first write), `>>` adds to it. */
static int event_pid_store(char *buf, struct file *file, long data)
{
	struct trace_pid_list **dst = (struct trace_pid_list **)data, *old;
	struct trace_pid_list *list;
	unsigned long flags;
	int ret;

	mutex_lock(&event_mutex);
	ret = trace_pid_list_parse(*dst, buf, !(file->flags & O_TRUNC) ||
				   file->pos, &list);
	if (!ret) {
		file->pos++;
		if (!trace_pid_list_count(list)) {
			trace_pid_list_free(list);
			list = NULL;
		}
		flags = spin_lock_irqsave(&fork_lock);
		old = *dst;
		WRITE_ONCE(*dst, list);
		spin_unlock_irqrestore(&fork_lock, flags);
		synchronize_rcu();
		trace_pid_list_free(old);
	}
	mutex_unlock(&event_mutex);
	return ret;
}

static void event_pid_show(struct seq_buf *s, long data)
{
	mutex_lock(&event_mutex);
	trace_pid_list_show(*(struct trace_pid_list **)data, s);
	mutex_unlock(&event_mutex);
}

/* Each trace array's lists. */
void trace_event_pid_create_files(struct trace_array *tr, struct inode *dir)
{
	create_simple(dir, "set_event_notrace_pid", event_pid_show,
		      event_pid_store, (long)&tr->event_notrace_pids);
	create_simple(dir, "set_event_pid", event_pid_show, event_pid_store,
		      (long)&tr->event_pids);
}
