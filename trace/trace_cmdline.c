/*
 * trace_cmdline.c: the pid-to-comm map behind each line's TASK column
 * (Linux's saved_cmdlines). Events store only the pid; a task's comm is
 * saved the first time it traces on a CPU after another task did, so a
 * task that has exited still shows by name. Unknown pids print as <...>.
 */
#include "kernel.h"
#include "string.h"
#include "spinlock.h"
#include "trace.h"

#define SAVED_CMDLINES	128

struct saved_cmdline {
	int pid;
	char comm[TASK_COMM_LEN];
};

static struct saved_cmdline saved_cmdlines[SAVED_CMDLINES] = {
	[0 ... SAVED_CMDLINES - 1] = { -1, "" },
};
static DEFINE_SPINLOCK(cmdline_lock);
/* The pid each CPU saved last: the tracer's cheap test (trace.h). */
int trace_cmdline_last_pid[NR_CPUS] = { [0 ... NR_CPUS - 1] = -1 };

/* From a tracer callback: never wait for the lock, try again later. */
void tracing_record_cmdline(struct task *t)
{
	struct saved_cmdline *s = &saved_cmdlines[t->pid % SAVED_CMDLINES];

	if (!spin_trylock(&cmdline_lock))
		return;
	s->pid = t->pid;
	memcpy(s->comm, t->comm, TASK_COMM_LEN);
	spin_unlock(&cmdline_lock);
	trace_cmdline_last_pid[this_cpu()->id] = t->pid;
}

void trace_find_cmdline(int pid, char comm[TASK_COMM_LEN])
{
	struct saved_cmdline *s = &saved_cmdlines[pid % SAVED_CMDLINES];
	unsigned long flags;

	if (!pid) {
		strlcpy(comm, "<idle>", TASK_COMM_LEN);
		return;
	}
	flags = spin_lock_irqsave(&cmdline_lock);
	strlcpy(comm, s->pid == pid ? s->comm : "<...>", TASK_COMM_LEN);
	spin_unlock_irqrestore(&cmdline_lock, flags);
}
