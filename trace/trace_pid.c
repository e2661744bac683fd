/*
 * trace_pid.c: set_ftrace_pid, the tasks the function tracer records
 * (Linux's trace_pid_list and ftrace_pid_func). The list is a sorted
 * array, replaced whole on each write; the callback asks it only when
 * the CPU runs another task than last time (ftrace_pid_ignored in
 * trace.h), much as Linux decides once per context switch.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "kstrtox.h"
#include "stop_machine.h"
#include "trace.h"

struct trace_pid_list {
	unsigned int nr;
	int pids[];
};

int ftrace_pid_cache_pid[NR_CPUS] = { [0 ... NR_CPUS - 1] = -1 };
bool ftrace_pid_cache_ok[NR_CPUS];

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

/* A CPU runs another task than last time: ask the list, remember. */
noinline bool ftrace_pid_cache_fill(struct trace_pid_list *pids, int cpu,
				    int pid)
{
	bool ok = trace_pid_list_is_set(pids, pid);

	ftrace_pid_cache_ok[cpu] = ok;
	ftrace_pid_cache_pid[cpu] = pid;
	return ok;
}

static struct trace_pid_list *pid_list_alloc(unsigned int room)
{
	struct trace_pid_list *list = kmalloc(sizeof(*list) +
					      room * sizeof(int));

	if (list)
		list->nr = 0;
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

/* Swap in the new list once no callback can still use the old one. */
static void pid_list_install(struct trace_array *tr,
			     struct trace_pid_list *list)
{
	struct trace_pid_list *old = tr->function_pids;
	int cpu;

	if (list && !list->nr) {
		kfree(list);
		list = NULL;
	}
	WRITE_ONCE(tr->function_pids, list);
	synchronize_sched();
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		WRITE_ONCE(ftrace_pid_cache_pid[cpu], -1);
	kfree(old);
}

/* buf: NUL-terminated words. append keeps the pids already listed. */
int trace_pid_write(struct trace_array *tr, const char *buf, bool append)
{
	struct trace_pid_list *old = tr->function_pids, *list;
	unsigned int i, room = count_words(buf) + (append && old ? old->nr : 0);
	char *copy = kmalloc(strlen(buf) + 1);
	int ret;

	list = pid_list_alloc(room);
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
	pid_list_install(tr, list);
	return 0;
}

void trace_pid_show(struct trace_array *tr, struct seq_buf *s)
{
	struct trace_pid_list *list = tr->function_pids;
	unsigned int i;

	if (!list)
		seq_puts(s, "no pid\n");
	for (i = 0; list && i < list->nr; i++)
		seq_printf(s, "%d\n", list->pids[i]);
}
