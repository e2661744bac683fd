/*
 * trace_cmdline.c: the pid-to-comm map behind each line's TASK column
 * (Linux's saved_cmdlines). Events store only the pid. As Linux does
 * from its sched_switch probe, a task's comm is saved when it is
 * switched in, and every task's when tracing starts, so the hot path
 * does nothing for it and a task that has exited still shows by name.
 * Unknown pids print as <...>.
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
/* From the scheduler: never wait for the lock, the next switch will do. */
void tracing_record_cmdline(struct task *t)
{
	struct saved_cmdline *s = &saved_cmdlines[t->pid % SAVED_CMDLINES];

	if (!t->pid || !spin_trylock(&cmdline_lock))
		return;
	s->pid = t->pid;
	memcpy(s->comm, t->comm, TASK_COMM_LEN);
	spin_unlock(&cmdline_lock);
}

static void record_switch(struct task *prev, struct task *next)
{
	if (global_trace.trace_flags & TRACE_ITER_RECORD_CMD)
		tracing_record_cmdline(next);
}

static int record_one(struct task *t, void *data)
{
	tracing_record_cmdline(t);
	return 0;
}

/* The tasks that exist now, then every task as it is switched in. */
void tracing_start_cmdline_record(void)
{
	for_each_task(record_one, NULL);
	sched_register_switch_hook(record_switch);
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
