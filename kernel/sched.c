/*
 * sched.c: kernel threads and a preemptive scheduler over two global
 * run queues: real-time (SCHED_FIFO) tasks, by priority, then normal
 * ones in round robin. Every CPU runs schedule(); a CPU with nothing to
 * do runs its idle task (Linux's <idle>-0, pid 0). The run-queue lock
 * is held across __switch_to and released by the task switched to, so a
 * task's context is saved before any other CPU can pick it.
 *
 * As Linux's SCHED_FIFO, a real-time task runs until it sleeps or
 * yields, and waking one that is better than what a CPU runs preempts
 * that CPU at once (check_preempt_curr). Normal tasks take turns at
 * each tick: their nice value sets prio but no CPU share, since there
 * are no CFS weights here.
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
static LIST_HEAD(runqueue);		/* normal tasks, in turn */
static LIST_HEAD(rt_runqueue);		/* stoppers, FIFO tasks by prio */
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
	.prio = DEFAULT_PRIO,
	.static_prio = DEFAULT_PRIO,
	.normal_prio = DEFAULT_PRIO,
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

/*
 * A real-time task queues behind those of its priority and better
 * (Linux's enqueue_task_rt), also when a better one preempted it,
 * where Linux puts it back first. notrace, as all __schedule calls:
 * the trampolines' preemption point calls into it.
 */
static notrace void enqueue_rt(struct task *t)
{
	struct task *pos;

	list_for_each_entry(pos, &rt_runqueue, run_list)
		if (pos->prio > t->prio)
			break;
	list_add_tail(&t->run_list, &pos->run_list);
}

/* Queue a runnable task; a normal one at the tail, inline. */
static __always_inline void enqueue_runnable(struct task *t)
{
	if (likely(!rt_task(t)))
		list_add_tail(&t->run_list, &runqueue);
	else
		enqueue_rt(t);
}

static notrace struct task *pick_from(struct list_head *queue,
				      struct cpu *c)
{
	struct task *t;

	list_for_each_entry(t, queue, run_list) {
		if (t->cpus_allowed & (1UL << c->id)) {
			list_del(&t->run_list);
			return t;
		}
	}
	return NULL;
}

/* The first real-time task this CPU may run, else the first normal one. */
static notrace struct task *pick_next(struct cpu *c)
{
	struct task *t;

	if (unlikely(!list_empty(&rt_runqueue)) &&
	    (t = pick_from(&rt_runqueue, c)))
		return t;
	t = pick_from(&runqueue, c);
	return t ? t : c->idle;
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
		enqueue_runnable(prev);
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

/* Make CPU i reschedule: at once here, by IPI elsewhere. */
static void resched_cpu(int i)
{
	if (i == smp_processor_id())
		cpus[i].need_resched = true;
	else
		smp_send_ipi(i, IPI_RESCHEDULE);
}

/*
 * A real-time t that found no idle CPU preempts, of the CPUs it may
 * run on, the one whose task is the worst of those worse than t
 * (Linux's check_preempt_curr).
 */
static void check_preempt_curr(struct task *t)
{
	int i, worst = -1;

	for_each_online_cpu(i) {
		int prio = cpus[i].curr->prio;

		if ((t->cpus_allowed & (1UL << i)) && prio > t->prio &&
		    (worst < 0 || prio > cpus[worst].curr->prio))
			worst = i;
	}
	if (worst >= 0)
		resched_cpu(worst);
}

/* Kick an idle CPU that may run t, else let a real-time t preempt. */
static void kick_cpu_for(struct task *t)
{
	int i;

	for_each_online_cpu(i) {
		if (!(t->cpus_allowed & (1UL << i)))
			continue;
		if (cpus[i].curr == cpus[i].idle) {
			resched_cpu(i);
			return;
		}
	}
	if (unlikely(rt_task(t)))
		check_preempt_curr(t);
}

/* A stopper thread goes first and preempts whatever its CPU runs. */
static void enqueue_locked(struct task *t)
{
	t->state = TASK_RUNNING;
	if (t->stopper) {
		list_add(&t->run_list, &rt_runqueue);
		resched_cpu(t->cpu);
		return;
	}
	enqueue_runnable(t);
	kick_cpu_for(t);
}

/*
 * After a wake-up, with the locks dropped: switch now if it asked this
 * CPU to, as only a real-time task's does (Linux's preempt_enable after
 * try_to_wake_up). Not from an interrupt handler, whose return does it.
 */
static void preempt_check_resched(void)
{
	if (this_cpu()->need_resched && !current->preempt_count)
		preempt_schedule();
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
	preempt_check_resched();
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
	preempt_check_resched();
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
	/* Time slices for normal tasks; a FIFO task runs on. */
	if (!rt_task(c->curr) &&
	    (!list_empty(&runqueue) || !list_empty(&rt_runqueue)))
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
	t->prio = current->prio;
	t->static_prio = current->static_prio;
	t->normal_prio = current->normal_prio;
	t->rt_priority = current->rt_priority;
	t->policy = current->policy;
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
	preempt_check_resched();
}

/* Under rq_lock: a queued task moves to the queue of its new prio. */
static void set_prio_locked(struct task *p, int prio)
{
	bool queued = p->state == TASK_RUNNING && cpus[p->cpu].curr != p;

	if (queued)
		list_del(&p->run_list);
	p->prio = p->normal_prio = prio;
	if (queued)
		enqueue_runnable(p);
}

int sched_setscheduler(struct task *p, int policy, int rt_priority)
{
	unsigned long flags;

	if ((policy == SCHED_FIFO && (rt_priority < 1 ||
				       rt_priority >= MAX_RT_PRIO)) ||
	    (policy == SCHED_NORMAL && rt_priority) ||
	    (policy != SCHED_FIFO && policy != SCHED_NORMAL))
		return -EINVAL;
	flags = spin_lock_irqsave(&rq_lock);
	p->policy = policy;
	p->rt_priority = rt_priority;
	set_prio_locked(p, policy == SCHED_FIFO ?
			   MAX_RT_PRIO - 1 - rt_priority : p->static_prio);
	spin_unlock(&rq_lock);
	local_irq_restore(flags);
	return 0;
}

void set_user_nice(struct task *p, long nice)
{
	unsigned long flags = spin_lock_irqsave(&rq_lock);

	nice = nice < MIN_NICE ? MIN_NICE : min(nice, (long)MAX_NICE);
	p->static_prio = NICE_TO_PRIO(nice);
	if (p->policy == SCHED_NORMAL)
		set_prio_locked(p, p->static_prio);
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
	idle->prio = idle->static_prio = idle->normal_prio = DEFAULT_PRIO;
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
