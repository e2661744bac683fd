/*
 * sched.h: kernel threads (struct task) and the scheduler: real-time
 * (SCHED_FIFO) tasks first, by priority, then round robin.
 */
#ifndef _SCHED_H
#define _SCHED_H

#include "kernel.h"
#include "list.h"
#include "spinlock.h"
#include "smp.h"

#define TASK_COMM_LEN	16
#define THREAD_SIZE	(16 * 1024)
#define HZ		100

enum task_state {
	TASK_RUNNING,		/* on a CPU or in the run queue */
	TASK_SLEEPING,		/* waiting on chan */
	TASK_DEAD,		/* exited, waiting to be reaped */
};

/* Callee-saved registers, what __switch_to saves and restores. */
struct context {
	unsigned long ra, sp;
	unsigned long s[12];
};

struct ftrace_ret_stack;

/*
 * Priorities as Linux numbers them (include/linux/sched/prio.h): 0-99
 * real-time (99 - rt_priority), 100-139 normal (120 + nice). Lower is
 * better.
 */
#define MAX_NICE	19
#define MIN_NICE	-20
#define MAX_RT_PRIO	100
#define MAX_PRIO	(MAX_RT_PRIO + 40)
#define DEFAULT_PRIO	(MAX_RT_PRIO + 20)
#define NICE_TO_PRIO(nice)	((nice) + DEFAULT_PRIO)
#define PRIO_TO_NICE(prio)	((prio) - DEFAULT_PRIO)

/* Linux's policies (include/uapi/linux/sched.h); the others are not built. */
#define SCHED_NORMAL	0
#define SCHED_FIFO	1

/*
 * preempt_count as Linux lays it out: bits 0-7 count preempt_disable
 * nesting (the trace's preempt-depth column), bits 16-19 hardirq
 * nesting. Zero means preemptible.
 */
#define PREEMPT_MASK	0x000000ff
#define HARDIRQ_OFFSET	0x00010000
#define HARDIRQ_MASK	0x000f0000

/* The assembly reads preempt_count: see asm/asm-offsets.h. */
struct task {
	struct context ctx;
	int preempt_count;
	int pid;
	unsigned long trace_recursion;	/* ftrace's per-context bits */
	char comm[TASK_COMM_LEN];
	enum task_state state;
	int cpu;			/* CPU it runs or last ran on */
	unsigned long cpus_allowed;	/* bit mask of CPUs */
	bool stopper;			/* stop_machine's: runs first */
	bool sigpending;		/* Ctrl-C or kill seen for this task */
	void *stack;			/* THREAD_SIZE bytes */
	void *chan;			/* what it sleeps on */
	int exit_code;
	void (*fn)(void *);
	void *arg;
	struct task *parent;
	struct list_head run_list;	/* in a run queue */
	struct list_head tasks;		/* in the list of all tasks */
	u64 nr_switches;
	u64 sum_ticks;

	/* function_graph (trace/fgraph.c) */
	struct ftrace_ret_stack *ret_stack;
	int curr_ret_stack;
	int curr_ret_depth;
	unsigned long trace_overrun;
	int tracing_graph_pause;
	u64 ftrace_timestamp;

	/* scheduling: Linux's fields, set by sched_setscheduler and nice */
	int prio;			/* what the scheduler compares */
	int static_prio;		/* 120 + nice */
	int normal_prio;		/* prio without boosting: the same here */
	unsigned int rt_priority;	/* 1-99 under SCHED_FIFO, else 0 */
	unsigned int policy;		/* SCHED_NORMAL or SCHED_FIFO */

	/* the shell's: after the fields the assembly reads */
	int pgrp;			/* process group: Ctrl-C stops all of it */
	struct file *files[3];		/* stdin, stdout, stderr; NULL: console */
	void *shell;			/* the shell state it runs (kernel/shell/) */
};

static inline struct task *current_task(void)
{
	return this_cpu()->curr;
}
#define current current_task()

/* Stacks grow down from here; the stack tracer measures depth from it. */
static inline unsigned long task_stack_top(struct task *t)
{
	return (unsigned long)t->stack + THREAD_SIZE;
}

static inline bool rt_prio(int prio)
{
	return prio < MAX_RT_PRIO;
}

static inline bool rt_task(const struct task *p)
{
	return rt_prio(p->prio);
}

static inline int task_nice(const struct task *p)
{
	return PRIO_TO_NICE(p->static_prio);
}

static inline bool in_hardirq(void)
{
	return current->preempt_count & HARDIRQ_MASK;
}

void sched_init(void);
void sched_init_cpu(void);
void schedule(void);
void yield(void);
void scheduler_tick(void);
void preempt_schedule(void);
void preempt_schedule_irq(void);
void preempt_schedule_notrace(void);

/*
 * The _notrace forms leave out the preemptoff tracers' hook (Linux's
 * names): the tracing paths themselves use them. The others cost one
 * instruction more while no latency tracer runs, the c.nop of a static
 * key; turned on, the hook runs where the count leaves or reaches 0
 * (kernel/trace_preemptirq.c).
 */
extern struct static_key trace_preempt_key;
void trace_preempt_on(unsigned long ip);
void trace_preempt_off(unsigned long ip);

static __always_inline void preempt_disable_notrace(void)
{
	current->preempt_count++;
	barrier();
}

static __always_inline void preempt_enable_no_resched_notrace(void)
{
	barrier();
	current->preempt_count--;
}

static __always_inline void preempt_disable(void)
{
	preempt_disable_notrace();
	if (static_branch_unlikely(&trace_preempt_key) &&
	    current->preempt_count == 1)
		preemptirq_call(trace_preempt_off_thunk);
}

static __always_inline void preempt_enable_no_resched(void)
{
	if (static_branch_unlikely(&trace_preempt_key) &&
	    current->preempt_count == 1)
		preemptirq_call(trace_preempt_on_thunk);
	preempt_enable_no_resched_notrace();
}

static __always_inline void preempt_enable(void)
{
	preempt_enable_no_resched();
	if (unlikely(this_cpu()->need_resched && !current->preempt_count))
		preempt_schedule();
}

/*
 * What a new task runs and where: Linux's kernel_clone() takes the
 * flags of clone(2) instead, and wakes the task; here kthread_start
 * does. The task inherits its creator's process group.
 */
struct kernel_clone_args {
	void (*fn)(void *);
	void *arg;
	const char *name;
	int cpu;			/* -1: any */
};

struct task *kernel_clone(const struct kernel_clone_args *args);
struct task *kthread_create(void (*fn)(void *), void *arg, const char *name);
struct task *kthread_create_on_cpu(void (*fn)(void *), void *arg,
				   const char *name, int cpu);
void kthread_start(struct task *t);

/*
 * Set p's policy and real-time priority (Linux's sched_setscheduler:
 * -EINVAL unless rt_priority is 1..99 for SCHED_FIFO, 0 for
 * SCHED_NORMAL), or its nice value (set_user_nice, clamped to -20..19).
 * Nice sets prio, which tracers and headers show, and no CPU share:
 * there are no CFS weights, normal tasks take turns.
 */
int sched_setscheduler(struct task *p, int policy, int rt_priority);
void set_user_nice(struct task *p, long nice);
__noreturn void kthread_exit(int code);
int kthread_wait(struct task *t);

void sleep_on(void *chan, spinlock_t *lock);
void wake_up(void *chan);
void wake_up_task(struct task *t);
void msleep(unsigned long ms);

/*
 * Ask a task (kill_pid) or a process group (kill_pgrp, what Ctrl-C
 * does to the console's) to stop: sigpending is set, a sleeper woken.
 * kill_pid returns -ESRCH when no task has that pid.
 */
int kill_pid(int pid);
void kill_pgrp(int pgrp);

int for_each_task(int (*fn)(struct task *t, void *data), void *data);
void sched_register_task_hook(void (*on_create)(struct task *t),
			      void (*on_free)(struct task *t));
void sched_register_switch_hook(void (*fn)(struct task *prev,
					  struct task *next));

#endif
