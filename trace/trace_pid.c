/*
 * trace_pid.c: set_ftrace_pid, the tasks the function tracer records,
 * and set_ftrace_notrace_pid, those it skips (Linux's trace_pid_list,
 * ftrace_pid_func and trace_ignore_this_task). A list is a sorted
 * array, replaced whole on each write; the callback asks the lists
 * only when the CPU runs another task than last time
 * (ftrace_pid_ignored in trace.h), much as Linux decides once per
 * context switch. Each trace array keeps its own answers, as Linux
 * keeps ftrace_ignore_pid in each array's per-CPU data: two arrays
 * with different lists ask about the same task. The fast paths look
 * at function_pids alone: with only notrace pids it is
 * trace_pid_every, which takes every pid. With the function-fork
 * option, an array's lists follow tasks: a listed task's child joins
 * its list, and a task leaves it when it is reaped (Linux's
 * ftrace_pid_follow_fork); event-fork does the same for set_event_pid
 * (trace_filter_add_remove_task).
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "kstrtox.h"
#include "spinlock.h"
#include "stop_machine.h"
#include "trace.h"
#include "trace/events/sched.h"

struct trace_pid_list {
	unsigned int nr;
	/* lists a fork or a reap replaced, freed with this one */
	struct trace_pid_list *retired;
	int pids[];
};

static struct trace_pid_list trace_pid_every;

/* Orders function-fork's copies of a list with a write's swap. */
static DEFINE_SPINLOCK(pid_fork_lock);

static size_t pid_cache_size(void)
{
	return trace_nr_cpus() * sizeof(struct ftrace_pid_cache);
}

/* The array's cache, one line per CPU of the trace buffer, each empty. */
int ftrace_pid_cache_alloc(struct trace_array *tr)
{
	int cpu;

	tr->pid_cache = kzalloc_cacheline(pid_cache_size());
	if (!tr->pid_cache)
		return -ENOMEM;
	for (cpu = 0; cpu < trace_nr_cpus(); cpu++)
		tr->pid_cache[cpu].pid = -1;
	return 0;
}

void ftrace_pid_cache_free(struct trace_array *tr)
{
	kfree_cacheline(tr->pid_cache, pid_cache_size());
}

bool trace_pid_list_is_set(struct trace_pid_list *list, int pid)
{
	unsigned int lo = 0, hi = list->nr;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (list->pids[mid] == pid)
			return true;
		if (list->pids[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/*
 * A CPU runs another task than last time: ask the lists, remember. A
 * notrace pid is skipped even if set_ftrace_pid has it, as in Linux.
 */
noinline bool ftrace_pid_cache_fill(struct trace_array *tr,
				    struct trace_pid_list *pids,
				    struct ftrace_pid_cache *c, int pid)
{
	struct trace_pid_list *no = READ_ONCE(tr->function_no_pids);
	bool ok = (pids == &trace_pid_every ||
		   trace_pid_list_is_set(pids, pid)) &&
		  !(no && trace_pid_list_is_set(no, pid));

	c->ok = ok;
	c->pid = pid;
	return ok;
}

static struct trace_pid_list *pid_list_alloc(unsigned int room)
{
	struct trace_pid_list *list = kmalloc(sizeof(*list) +
					      room * sizeof(int));

	if (list) {
		list->nr = 0;
		list->retired = NULL;
	}
	return list;
}

/* Insert keeping the order; room was made at allocation. */
static void pid_list_add(struct trace_pid_list *list, int pid)
{
	unsigned int i;

	if (trace_pid_list_is_set(list, pid))
		return;
	for (i = list->nr; i > 0 && list->pids[i - 1] > pid; i--)
		list->pids[i] = list->pids[i - 1];
	list->pids[i] = pid;
	list->nr++;
}

static unsigned int count_words(const char *s)
{
	unsigned int n = 0;
	bool in = false;

	for (; *s; s++) {
		n += !trace_isspace(*s) && !in;
		in = !trace_isspace(*s);
	}
	return n;
}

/*
 * Each word a pid below PID_MAX, in any base kstrtouint's base 0 takes
 * (`0x10` is 16, as Linux's trace_pid_write reads it), else -EINVAL;
 * pids need not exist.
 */
static int parse_pids(struct trace_pid_list *list, char *buf)
{
	char *word;
	unsigned int pid;

	while ((word = trace_next_word(&buf))) {
		if (kstrtouint(word, 0, &pid) || pid >= PID_MAX)
			return -EINVAL;
		pid_list_add(list, pid);
	}
	return 0;
}

/* set_ftrace_pid's list; NULL when it is empty (`no pid`). */
static struct trace_pid_list *function_pid_list(struct trace_array *tr)
{
	return tr->function_pids == &trace_pid_every ? NULL : tr->function_pids;
}

/*
 * Swap in the new list, set_ftrace_pid's or (skip_list) notrace's, once
 * no callback can still use the old one. An empty list is none.
 */
static void pid_list_install(struct trace_array *tr,
			     struct trace_pid_list *list, bool skip_list)
{
	struct trace_pid_list *old, *pids;
	unsigned long flags;
	int cpu;

	if (list && !list->nr) {
		kfree(list);
		list = NULL;
	}
	flags = spin_lock_irqsave(&pid_fork_lock);
	old = skip_list ? tr->function_no_pids : function_pid_list(tr);
	pids = skip_list ? function_pid_list(tr) : list;
	if (skip_list)
		WRITE_ONCE(tr->function_no_pids, list);
	if (!pids && tr->function_no_pids)
		pids = &trace_pid_every;
	WRITE_ONCE(tr->function_pids, pids);
	spin_unlock_irqrestore(&pid_fork_lock, flags);
	synchronize_sched();
	for (cpu = 0; cpu < trace_nr_cpus(); cpu++)
		WRITE_ONCE(tr->pid_cache[cpu].pid, -1);
	trace_pid_list_free(old);
}

/*
 * A new list of the pids in buf (NUL-terminated words), and old's too
 * when appending; set_ftrace_pid's and set_event_pid's alike.
 */
int trace_pid_list_parse(struct trace_pid_list *old, const char *buf,
			 bool append, struct trace_pid_list **out)
{
	unsigned int i, room = count_words(buf) + (append && old ? old->nr : 0);
	char *copy = kmalloc(strlen(buf) + 1);
	struct trace_pid_list *list = pid_list_alloc(room);
	int ret;

	if (!list || !copy) {
		kfree(list);
		kfree(copy);
		return -ENOMEM;
	}
	for (i = 0; append && old && i < old->nr; i++)
		pid_list_add(list, old->pids[i]);
	strlcpy(copy, buf, strlen(buf) + 1);
	ret = parse_pids(list, copy);
	kfree(copy);
	if (ret) {
		kfree(list);
		return ret;
	}
	*out = list;
	return 0;
}

/*
 * A copy of old with pid added (a listed task's child), or NULL. Readers
 * may still hold old: it is kept on the copy's retired chain, and
 * freed with the copy (trace_pid_list_free).
 */
static struct trace_pid_list *trace_pid_list_add(struct trace_pid_list *old,
						 int pid)
{
	struct trace_pid_list *list = pid_list_alloc(old->nr + 1);

	if (!list)
		return NULL;
	memcpy(list->pids, old->pids, old->nr * sizeof(int));
	list->nr = old->nr;
	list->retired = old;
	pid_list_add(list, pid);
	return list;
}

/* A copy of old without pid, old kept as trace_pid_list_add keeps it. */
static struct trace_pid_list *trace_pid_list_remove(struct trace_pid_list *old,
						    int pid)
{
	struct trace_pid_list *list = pid_list_alloc(old->nr);
	unsigned int i;

	if (!list)
		return NULL;
	for (i = 0; i < old->nr; i++)
		if (old->pids[i] != pid)
			list->pids[list->nr++] = old->pids[i];
	list->retired = old;
	return list;
}

/*
 * Linux's trace_filter_add_remove_task: task joins *dst if its parent
 * is there, or with no parent (it is reaped) leaves it. Readers may
 * hold the list: a copy replaces it. Out of memory, nothing changes.
 * The caller holds the lock that orders the list's writers.
 */
void trace_filter_add_remove_task(struct trace_pid_list **dst,
				  struct task *parent, struct task *task)
{
	struct trace_pid_list *list = *dst, *copy;

	if (!list || list == &trace_pid_every)
		return;
	if (parent) {
		if (!trace_pid_list_is_set(list, parent->pid))
			return;
		copy = trace_pid_list_add(list, task->pid);
	} else {
		if (!trace_pid_list_is_set(list, task->pid))
			return;
		copy = trace_pid_list_remove(list, task->pid);
	}
	if (copy)
		WRITE_ONCE(*dst, copy);
}

/* The probes' data is the trace array whose lists they follow. */
static void ftrace_pid_follow_sched_process_fork(void *data,
						 struct task *parent,
						 struct task *child)
{
	struct trace_array *tr = data;
	unsigned long flags = spin_lock_irqsave(&pid_fork_lock);

	trace_filter_add_remove_task(&tr->function_pids, parent, child);
	trace_filter_add_remove_task(&tr->function_no_pids, parent, child);
	spin_unlock_irqrestore(&pid_fork_lock, flags);
}

static void ftrace_pid_follow_sched_process_free(void *data, struct task *task)
{
	struct trace_array *tr = data;
	unsigned long flags = spin_lock_irqsave(&pid_fork_lock);

	trace_filter_add_remove_task(&tr->function_pids, NULL, task);
	trace_filter_add_remove_task(&tr->function_no_pids, NULL, task);
	spin_unlock_irqrestore(&pid_fork_lock, flags);
}

/*
 * The function-fork option of tr changed: follow forks and reaped
 * tasks in its lists, as Linux's probes on sched_process_fork and
 * sched_process_free do, one registration per array.
 */
void ftrace_pid_follow_fork(struct trace_array *tr, bool enable)
{
	if (enable) {
		register_trace_sched_process_fork(
			ftrace_pid_follow_sched_process_fork, tr);
		register_trace_sched_process_free(
			ftrace_pid_follow_sched_process_free, tr);
	} else {
		unregister_trace_sched_process_fork(
			ftrace_pid_follow_sched_process_fork, tr);
		unregister_trace_sched_process_free(
			ftrace_pid_follow_sched_process_free, tr);
	}
}

void trace_pid_list_free(struct trace_pid_list *list)
{
	struct trace_pid_list *next;

	for (; list; list = next) {
		next = list->retired;
		kfree(list);
	}
}

unsigned int trace_pid_list_count(const struct trace_pid_list *list)
{
	return list ? list->nr : 0;
}

int trace_pid_write(struct trace_array *tr, const char *buf, bool append)
{
	struct trace_pid_list *list;
	int ret = trace_pid_list_parse(function_pid_list(tr), buf, append,
				       &list);

	if (!ret)
		pid_list_install(tr, list, false);
	return ret;
}

int trace_notrace_pid_write(struct trace_array *tr, const char *buf,
			    bool append)
{
	struct trace_pid_list *list;
	int ret = trace_pid_list_parse(tr->function_no_pids, buf, append,
				       &list);

	if (!ret)
		pid_list_install(tr, list, true);
	return ret;
}

void trace_pid_list_show(struct trace_pid_list *list, struct seq_buf *s)
{
	unsigned int i;

	for (i = 0; list && i < list->nr; i++)
		seq_printf(s, "%d\n", list->pids[i]);
}

static void pid_list_show_or_none(struct trace_pid_list *list,
				  struct seq_buf *s)
{
	if (!list)
		seq_puts(s, "no pid\n");
	trace_pid_list_show(list, s);
}

void trace_pid_show(struct trace_array *tr, struct seq_buf *s)
{
	pid_list_show_or_none(function_pid_list(tr), s);
}

void trace_notrace_pid_show(struct trace_array *tr, struct seq_buf *s)
{
	pid_list_show_or_none(tr->function_no_pids, s);
}
