/*
 * trace_events_pid.c: set_event_pid and set_event_notrace_pid (Linux's
 * in kernel/trace/trace_events.c): the tasks whose events are written,
 * or never written; either list empty means no such rule. The task is
 * the one that records the event (for sched_switch, the one switched
 * out). With the event-fork option, a listed task's new children join
 * its list: a probe on sched_process_fork, registered while a list is
 * set, publishes a copy with the child (trace_pid_list_add); the copies
 * it replaced are freed with the list, after a grace period, when the
 * file is next written.
 */
#include "kernel.h"
#include "string.h"
#include "rcu.h"
#include "spinlock.h"
#include "trace_events.h"
#include "trace/events/sched.h"

static DEFINE_SPINLOCK(fork_lock);
static bool fork_probe_on;

/* From trace_event_commit: is current's event to be dropped from tr? */
bool trace_event_pid_ignored(struct trace_array *tr)
{
	struct trace_pid_list *pids = READ_ONCE(tr->event_pids);
	struct trace_pid_list *no = READ_ONCE(tr->event_notrace_pids);

	return (pids && !trace_pid_list_is_set(pids, current->pid)) ||
	       (no && trace_pid_list_is_set(no, current->pid));
}

static void fork_into(struct trace_pid_list **dst, struct task *parent,
		      struct task *child)
{
	struct trace_pid_list *list = *dst;

	if (!list || !trace_pid_list_is_set(list, parent->pid))
		return;
	list = trace_pid_list_add(list, child->pid);
	if (list)
		WRITE_ONCE(*dst, list);
}

static void event_pid_fork(void *data, struct task *parent, struct task *child)
{
	unsigned long flags;

	if (!(READ_ONCE(global_trace.trace_flags) & TRACE_ITER_EVENT_FORK))
		return;
	flags = spin_lock_irqsave(&fork_lock);
	fork_into(&global_trace.event_pids, parent, child);
	fork_into(&global_trace.event_notrace_pids, parent, child);
	spin_unlock(&fork_lock);
	local_irq_restore(flags);
}

/* The fork probe is on while either list is set. */
static void update_fork_probe(void)
{
	bool want = global_trace.event_pids || global_trace.event_notrace_pids;

	if (want == fork_probe_on)
		return;
	if (want)
		fork_probe_on = !register_trace_sched_process_fork(event_pid_fork,
								   NULL);
	else
		fork_probe_on = unregister_trace_sched_process_fork(
					event_pid_fork, NULL) != 0;
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
		spin_unlock(&fork_lock);
		local_irq_restore(flags);
		update_fork_probe();
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

/*
 * Each trace array's lists; the event-fork option follows forks into
 * the top level's only (docs/tracefs.md, Instances).
 */
void trace_event_pid_create_files(struct trace_array *tr, struct inode *dir)
{
	create_simple(dir, "set_event_notrace_pid", event_pid_show,
		      event_pid_store, (long)&tr->event_notrace_pids);
	create_simple(dir, "set_event_pid", event_pid_show, event_pid_store,
		      (long)&tr->event_pids);
}
