/*
 * cmd_fgraph.c: the `fgraph` shell command, what the function graph
 * core (trace/fgraph.c) holds per task: the ret_stack's size, whether
 * the core ever lost track of a return, and each task's stack of hooked
 * calls (`fgraph PID` for one task), innermost first: the function, the
 * address it really returns to, and its call time on the trace clock.
 *
 * The stacks are copied under the scheduler's lock and printed after,
 * since printing may sleep. A task running on another CPU meanwhile
 * pushes and pops: its copy is a snapshot, as Linux's /proc/PID/stack.
 * Once graph tracing stopped, such a task also gives its ret_stack back
 * when its last hooked frame returns (trace/fgraph.c), so a copy made
 * just then may hold stale words: they are only printed, and the
 * memory stays mapped.
 */
#include "kernel.h"
#include "shell.h"
#include "fgraph.h"
#include "kstrtox.h"
#include "string.h"
#include "mm.h"
#include "errno.h"

struct fgraph_entry {
	unsigned long func, ret;
	u64 calltime;
};

struct fgraph_task {
	int pid, depth;
	char comm[TASK_COMM_LEN];
	struct fgraph_entry stack[FTRACE_RETFUNC_DEPTH];
};

struct fgraph_snapshot {
	int pid;			/* the one task wanted, or -1: all */
	int count, capacity;
	struct fgraph_task *tasks;
};

static int count_task(struct task *t, void *data)
{
	(*(int *)data)++;
	return 0;
}

static int copy_ret_stack(struct task *t, void *data)
{
	struct fgraph_snapshot *snap = data;
	struct ftrace_ret_stack *rs;
	struct fgraph_task *ft;
	int i;

	if ((snap->pid >= 0 && t->pid != snap->pid) ||
	    snap->count == snap->capacity)
		return 0;
	ft = &snap->tasks[snap->count++];
	ft->pid = t->pid;
	strlcpy(ft->comm, t->comm, sizeof(ft->comm));
	for (i = 0; i < FTRACE_RETFUNC_DEPTH; i++) {
		rs = ftrace_graph_get_ret_stack(t, i);
		if (!rs)
			break;
		ft->stack[i].func = READ_ONCE(rs->func);
		ft->stack[i].ret = READ_ONCE(rs->ret);
		ft->stack[i].calltime = READ_ONCE(rs->calltime);
	}
	ft->depth = i;
	return 0;
}

/* Tasks started between counting and copying wait for the next fgraph. */
static int take_snapshot(struct fgraph_snapshot *snap)
{
	int count = 0;

	if (snap->pid < 0)
		for_each_task(count_task, &count);
	else
		count = 1;
	snap->tasks = kmalloc(count * sizeof(*snap->tasks));
	if (!snap->tasks)
		return -ENOMEM;
	snap->count = 0;
	snap->capacity = count;
	for_each_task(copy_ret_stack, snap);
	return 0;
}

static void print_task(struct shell_out *out, const struct fgraph_task *ft)
{
	const struct fgraph_entry *e;
	int i;

	sh_printf(out, "%d %s: depth %d\n", ft->pid, ft->comm, ft->depth);
	for (i = 0; i < ft->depth; i++) {
		e = &ft->stack[i];
		sh_printf(out, "  [%2d] %pS ret %pS calltime %llu\n", i,
			  (void *)e->func, (void *)e->ret, e->calltime);
	}
}

/* `fgraph [PID]`: the core's sizes, then the stacks of the tasks hooked. */
static int cmd_fgraph(struct shell_out *out, int argc, char **argv)
{
	struct fgraph_snapshot snap = { .pid = -1 };
	int i;

	if (argc > 2 || (argc == 2 && (kstrtoint(argv[1], 10, &snap.pid) ||
				       snap.pid < 0))) {
		sh_err("usage: fgraph [PID]\n");
		return 1;
	}
	if (take_snapshot(&snap)) {
		sh_err("fgraph: %s\n", strerror_text(ENOMEM));
		return 1;
	}
	if (argc == 2 && !snap.count) {
		kfree(snap.tasks);
		sh_err("fgraph: %d: %s\n", snap.pid, strerror_text(ESRCH));
		return 1;
	}
	sh_printf(out, "ret_stack: %d entries of %zu bytes per task\n",
		  FTRACE_RETFUNC_DEPTH, sizeof(struct ftrace_ret_stack));
	sh_printf(out, "unbalanced returns: %lu\n",
		  fgraph_unbalanced_returns());
	for (i = 0; i < snap.count; i++)
		if (argc == 2 || snap.tasks[i].depth)
			print_task(out, &snap.tasks[i]);
	kfree(snap.tasks);
	return 0;
}
SHELL_COMMAND("fgraph", cmd_fgraph,
	      "the function graph core: ret_stack size, unbalanced returns, "
	      "each task's stack of hooked calls (fgraph [PID])");
