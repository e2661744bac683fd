/*
 * sched.c: kernel threads and a preemptive round-robin scheduler over
 * one global run queue. Every CPU runs schedule(); a CPU with nothing to
 * do runs its idle task (Linux's <idle>-0, pid 0). The run-queue lock
 * is held across __switch_to and released by the task switched to, so a
 * task's context is saved before any other CPU can pick it.
 */
#include "kernel.h"
#include "sched.h"
#include "spinlock.h"
#include "string.h"
#include "printk.h"
#include "mm.h"
#include "rcu.h"
#include "asm/csr.h"
#include "trace/events/sched.h"
#include "trace/events/power.h"

#include "asm/asm-offsets.h"

_Static_assert(offsetof(struct cpu, curr) == CPU_CURR, "asm-offsets");
_Static_assert(offsetof(struct cpu, need_resched) == CPU_NEED_RESCHED,
	       "asm-offsets");
_Static_assert(offsetof(struct task, preempt_count) == TASK_PREEMPT_COUNT,
	       "asm-offsets");

extern void __switch_to(struct context *prev, struct context *next);
extern void ret_from_fork(void);
extern char boot_stack[];	/* head.S: THREAD_SIZE bytes */

static DEFINE_SPINLOCK(rq_lock);
static LIST_HEAD(runqueue);
static LIST_HEAD(all_tasks);
static int next_pid = 1;
static u64 jiffies_count;	/* written by CPU 0 only */
static int tick_sleepers;
static void (*task_create_hook)(struct task *t);
static void (*task_free_hook)(struct task *t);
static void (*switch_hook)(struct task *prev, struct task *next);

static struct task boot_task = {
	.comm = "swapper/0",
	.state = TASK_RUNNING,
	.cpus_allowed = 1,
};

/* Tracing saves each task's comm as it is switched in. */
void sched_register_switch_hook(void (*fn)(struct task *prev,
					  struct task *next))
{
	switch_hook = fn;
}

/* fgraph gives each task a ret_stack while it runs, freed at reaping. */
void sched_register_task_hook(void (*on_create)(struct task *t),
			      void (*on_free)(struct task *t))
{
	task_create_hook = on_create;
	task_free_hook = on_free;
}

static struct task *pick_next(struct cpu *c)
{
	struct task *t;

	list_for_each_entry(t, &runqueue, run_list) {
		if (t->cpus_allowed & (1UL << c->id)) {
			list_del(&t->run_list);
			return t;
		}
	}
	return c->idle;
}

/*
 * Called with rq_lock held and interrupts off; returns the same way.
 * notrace: the trampolines' preemption point calls into here.
 */
static notrace void __schedule(bool preempt)
{
	struct cpu *c = this_cpu();
	struct task *prev = c->curr, *next;

	rcu_note_context_switch(c);
	c->need_resched = false;
	if (prev->state == TASK_RUNNING && prev != c->idle)
		list_add_tail(&prev->run_list, &runqueue);
	next = pick_next(c);
	if (next == prev)
		return;
	if (next->cpu != c->id && next != c->idle)
		trace_sched_migrate_task(next, c->id);
	trace_sched_switch(preempt && prev != c->idle, prev, next);
	if (switch_hook)
		switch_hook(prev, next);
	c->curr = next;
	next->cpu = c->id;
	next->nr_switches++;
	__switch_to(&prev->ctx, &next->ctx);
}

static void schedule_preempt(bool preempt)
{
	unsigned long flags = local_irq_save();

	spin_lock(&rq_lock);
	__schedule(preempt);
	spin_unlock(&rq_lock);
	local_irq_restore(flags);
}

void schedule(void)
{
	schedule_preempt(false);
}

/* A task that could run on gives way: sched_switch shows it as R+. */
void preempt_schedule_irq(void)
{
	schedule_preempt(true);
}

void preempt_schedule(void)
{
	if (!irqs_disabled())
		preempt_schedule_irq();
}

/* From the ftrace trampolines, which must not recurse into a traced call. */
notrace void preempt_schedule_notrace(void)
{
	unsigned long flags;

	if (irqs_disabled())
		return;
	flags = local_irq_save();
	spin_lock(&rq_lock);
	__schedule(true);
	spin_unlock(&rq_lock);
	local_irq_restore(flags);
}

void yield(void)
{
	schedule();
}

/* First thing a new thread runs: finish the switch that started it. */
void schedule_tail(void)
{
	spin_unlock(&rq_lock);
	local_irq_enable();
}

/* Kick an idle CPU that may run t, or this CPU if it is the only one. */
static void kick_cpu_for(struct task *t)
{
	int i;

	for_each_online_cpu(i) {
		if (!(t->cpus_allowed & (1UL << i)))
			continue;
		if (cpus[i].curr == cpus[i].idle) {
			if (i == smp_processor_id())
				cpus[i].need_resched = true;
			else
				smp_send_ipi(i, IPI_RESCHEDULE);
			return;
		}
	}
}

/* A stopper thread goes first and preempts whatever its CPU runs. */
static void enqueue_locked(struct task *t)
{
	t->state = TASK_RUNNING;
	if (t->stopper) {
		list_add(&t->run_list, &runqueue);
		if (t->cpu == smp_processor_id())
			this_cpu()->need_resched = true;
		else
			smp_send_ipi(t->cpu, IPI_RESCHEDULE);
		return;
	}
	list_add_tail(&t->run_list, &runqueue);
	kick_cpu_for(t);
}

/* Linux's try_to_wake_up: sched_waking, then sched_wakeup once queued. */
static void wake_up_locked(struct task *t)
{
	trace_sched_waking(t);
	enqueue_locked(t);
	trace_sched_wakeup(t);
}

void wake_up_task(struct task *t)
{
	unsigned long flags = spin_lock_irqsave(&rq_lock);

	if (t->state == TASK_SLEEPING)
		wake_up_locked(t);
	spin_unlock(&rq_lock);
	local_irq_restore(flags);
}

void wake_up(void *chan)
{
	unsigned long flags = spin_lock_irqsave(&rq_lock);
	struct task *t;

	list_for_each_entry(t, &all_tasks, tasks)
		if (t->state == TASK_SLEEPING && t->chan == chan)
			wake_up_locked(t);
	spin_unlock(&rq_lock);
	local_irq_restore(flags);
}

/*
 * Sleep on chan, atomically releasing lock (held, interrupts off), so a
 * wake_up issued after the caller checked its condition is never lost.
 */
void sleep_on(void *chan, spinlock_t *lock)
{
	spin_lock(&rq_lock);
	spin_unlock(lock);
	current->chan = chan;
	current->state = TASK_SLEEPING;
	__schedule(false);
	current->chan = NULL;
	spin_unlock(&rq_lock);
	spin_lock(lock);
}

/*
 * The tick now in progress is partly over, so count one more than the
 * ticks ms spans: msleep sleeps at least ms, as Linux's does.
 */
void msleep(unsigned long ms)
{
	u64 until = jiffies_count + (ms * HZ + 999) / 1000 + 1;
	unsigned long flags = spin_lock_irqsave(&rq_lock);

	tick_sleepers++;
	while (READ_ONCE(jiffies_count) < until && !current->sigpending) {
		current->chan = &jiffies_count;
		current->state = TASK_SLEEPING;
		__schedule(false);
		current->chan = NULL;
	}
	tick_sleepers--;
	spin_unlock(&rq_lock);
	local_irq_restore(flags);
}

void scheduler_tick(void)
{
	struct cpu *c = this_cpu();

	c->ticks++;
	c->curr->sum_ticks++;
	if (c->curr == c->idle)
		c->idle_ticks++;
	if (c->id == 0) {
		jiffies_count++;
		if (READ_ONCE(tick_sleepers))
			wake_up(&jiffies_count);
	}
	if (!list_empty(&runqueue))
		c->need_resched = true;
}

/*
 * Sleep until told to reschedule: by the IPI of a wake-up that picked
 * this CPU (kick_cpu_for), or by the tick while tasks wait. Polling the
 * run queue instead makes every idle CPU hammer rq_lock whenever a task
 * pinned elsewhere waits in it, and starves the CPU that could run it.
 */
static void idle_loop(void)
{
	for (;;) {
		/* Raw: waiting is no latency (Linux's stop_critical_timings). */
		raw_local_irq_disable();
		if (!this_cpu()->need_resched) {
			trace_cpu_idle(1, smp_processor_id());
			wfi();
			trace_cpu_idle(PWR_EVENT_EXIT, smp_processor_id());
		}
		raw_local_irq_enable();
		if (this_cpu()->need_resched)
			schedule();
	}
}

void kthread_entry(void)
{
	current->fn(current->arg);
	kthread_exit(0);
}

/* Every task is made here: the shell's subshells and pipeline stages too. */
struct task *kernel_clone(const struct kernel_clone_args *args)
{
	struct task *t = kzalloc(sizeof(*t));
	unsigned long flags;
	int cpu = args->cpu;

	if (!t)
		return NULL;
	t->stack = alloc_pages(THREAD_SIZE / PAGE_SIZE);
	if (!t->stack) {
		kfree(t);
		return NULL;
	}
	strlcpy(t->comm, args->name, sizeof(t->comm));
	t->fn = args->fn;
	t->arg = args->arg;
	t->pgrp = current->pgrp;
	t->ctx.ra = (unsigned long)ret_from_fork;
	t->ctx.sp = (unsigned long)t->stack + THREAD_SIZE;
	t->preempt_count = 1;	/* dropped by schedule_tail */
	t->cpus_allowed = cpu < 0 ? ~0UL : 1UL << cpu;
	t->cpu = cpu < 0 ? smp_processor_id() : cpu;
	t->state = TASK_SLEEPING;
	t->parent = current;
	flags = spin_lock_irqsave(&rq_lock);
	t->pid = next_pid++;
	list_add_tail(&t->tasks, &all_tasks);
	spin_unlock(&rq_lock);
	local_irq_restore(flags);
	if (task_create_hook)
		task_create_hook(t);
	trace_sched_process_fork(current, t);
	return t;
}

struct task *kthread_create_on_cpu(void (*fn)(void *), void *arg,
				   const char *name, int cpu)
{
	struct kernel_clone_args args = {
		.fn = fn, .arg = arg, .name = name, .cpu = cpu,
	};

	return kernel_clone(&args);
}

struct task *kthread_create(void (*fn)(void *), void *arg, const char *name)
{
	return kthread_create_on_cpu(fn, arg, name, -1);
}

/* A new task's first wake-up: sched_wakeup_new, as wake_up_new_task. */
void kthread_start(struct task *t)
{
	unsigned long flags = spin_lock_irqsave(&rq_lock);

	if (t->state == TASK_SLEEPING) {
		enqueue_locked(t);
		trace_sched_wakeup_new(t);
	}
	spin_unlock(&rq_lock);
	local_irq_restore(flags);
}

__noreturn void kthread_exit(int code)
{
	struct task *me = current, *t;

	trace_sched_process_exit(me);
	local_irq_disable();
	spin_lock(&rq_lock);
	me->exit_code = code;
	me->state = TASK_DEAD;
	list_for_each_entry(t, &all_tasks, tasks)
		if (t->state == TASK_SLEEPING && t->chan == me)
			wake_up_locked(t);
	__schedule(false);
	panic("dead task %d ran again", current->pid);
}

/* Wait for t to exit, then free it; returns its exit code. */
int kthread_wait(struct task *t)
{
	unsigned long flags = spin_lock_irqsave(&rq_lock);
	int code;

	while (t->state != TASK_DEAD) {
		current->chan = t;
		current->state = TASK_SLEEPING;
		__schedule(false);
		current->chan = NULL;
	}
	list_del(&t->tasks);
	spin_unlock(&rq_lock);
	local_irq_restore(flags);
	code = t->exit_code;
	trace_sched_process_free(t);
	if (task_free_hook)
		task_free_hook(t);
	free_pages(t->stack, THREAD_SIZE / PAGE_SIZE);
	kfree(t);
	return code;
}


/* Under rq_lock: mark t and wake it, so that a sleeper sees the mark. */
static void signal_task_locked(struct task *t)
{
	t->sigpending = true;
	if (t->state == TASK_SLEEPING)
		enqueue_locked(t);
}

int kill_pid(int pid)
{
	unsigned long flags = spin_lock_irqsave(&rq_lock);
	struct task *t;
	int err = -ESRCH;

	list_for_each_entry(t, &all_tasks, tasks)
		if (t->pid == pid && pid && t->state != TASK_DEAD) {
			signal_task_locked(t);
			err = 0;
		}
	spin_unlock(&rq_lock);
	local_irq_restore(flags);
	return err;
}

void kill_pgrp(int pgrp)
{
	unsigned long flags = spin_lock_irqsave(&rq_lock);
	struct task *t;

	list_for_each_entry(t, &all_tasks, tasks)
		if (t->pgrp == pgrp && t->state != TASK_DEAD)
			signal_task_locked(t);
	spin_unlock(&rq_lock);
	local_irq_restore(flags);
}

/* Call fn on every task (idle tasks included) until it returns nonzero. */
int for_each_task(int (*fn)(struct task *t, void *data), void *data)
{
	unsigned long flags = spin_lock_irqsave(&rq_lock);
	struct task *t;
	int ret = 0;

	list_for_each_entry(t, &all_tasks, tasks)
		if ((ret = fn(t, data)))
			break;
	spin_unlock(&rq_lock);
	local_irq_restore(flags);
	return ret;
}

/* The boot CPU's first context becomes its idle task. */
void sched_init(void)
{
	struct cpu *c = this_cpu();

	boot_task.stack = boot_stack;
	boot_task.cpu = c->id;
	list_add_tail(&boot_task.tasks, &all_tasks);
	c->curr = c->idle = &boot_task;
}

/* A secondary CPU: its boot context becomes its idle task, then idles. */
void sched_init_cpu(void)
{
	struct cpu *c = this_cpu();
	struct task *idle = c->idle;

	snprintf(idle->comm, sizeof(idle->comm), "swapper/%d", c->id);
	idle->cpus_allowed = 1UL << c->id;
	idle->state = TASK_RUNNING;
	idle->cpu = c->id;
	c->curr = idle;
	spin_lock(&rq_lock);
	list_add_tail(&idle->tasks, &all_tasks);
	spin_unlock(&rq_lock);
}

__noreturn void cpu_idle(void)
{
	idle_loop();
	for (;;)
		;
}
