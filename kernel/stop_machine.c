/*
 * stop_machine.c: Linux's multi-stage rendezvous. Each CPU has a stopper
 * thread (migration/N) that the scheduler runs before anything else on
 * that CPU. stop_machine() wakes them all and joins in itself; together
 * they step through PREPARE, DISABLE_IRQ, RUN (one CPU calls fn), EXIT,
 * each state entered only when every CPU acknowledged the last. Since a
 * stopper can only run once its CPU leaves any preempt-disabled region,
 * no CPU is inside an ftrace trampoline or callback while fn runs. Every
 * CPU executes fence.i before it resumes, so it fetches the new text.
 */
#include "kernel.h"
#include "stop_machine.h"
#include "sched.h"
#include "smp.h"
#include "printk.h"
#include "asm/csr.h"

enum multi_stop_state {
	MULTI_STOP_NONE,
	MULTI_STOP_PREPARE,
	MULTI_STOP_DISABLE_IRQ,
	MULTI_STOP_RUN,
	MULTI_STOP_EXIT,
};

struct multi_stop_data {
	int (*fn)(void *);
	void *data;
	int active_cpu;
	int num_threads;
	int thread_ack;
	int ret;
	volatile enum multi_stop_state state;
};

static struct task *stopper[NR_CPUS];
static struct multi_stop_data *stop_work;
static int stop_pending[NR_CPUS];
static DEFINE_MUTEX(stop_mutex);
static DEFINE_SPINLOCK(pending_lock);
static bool stop_running;
static unsigned long rounds;

static void set_state(struct multi_stop_data *m, enum multi_stop_state s)
{
	__atomic_store_n(&m->thread_ack, m->num_threads, __ATOMIC_SEQ_CST);
	__atomic_store_n(&m->state, s, __ATOMIC_SEQ_CST);
}

/*
 * The last CPU to acknowledge a state moves everyone to the next; after
 * EXIT, thread_ack reaching zero tells stop_machine nobody reads m. So
 * the state acknowledged is the caller's copy, not m->state: after its
 * last ack m may already be gone, its stack reused.
 */
static void ack_state(struct multi_stop_data *m, enum multi_stop_state cur)
{
	if (__atomic_sub_fetch(&m->thread_ack, 1, __ATOMIC_SEQ_CST) == 0 &&
	    cur != MULTI_STOP_EXIT)
		set_state(m, cur + 1);
}

static void multi_cpu_stop(struct multi_stop_data *m)
{
	enum multi_stop_state cur = MULTI_STOP_NONE, next;
	unsigned long flags = local_irq_save();
	bool active = smp_processor_id() == m->active_cpu;

	do {
		next = __atomic_load_n(&m->state, __ATOMIC_SEQ_CST);
		if (next == cur)
			continue;
		cur = next;
		if (cur == MULTI_STOP_DISABLE_IRQ)
			local_irq_disable();
		else if (cur == MULTI_STOP_RUN && active)
			m->ret = m->fn(m->data);
		ack_state(m, cur);
	} while (cur != MULTI_STOP_EXIT);
	local_flush_icache();
	local_irq_restore(flags);
}

static void stopper_thread(void *arg)
{
	int cpu = (int)(long)arg;

	for (;;) {
		unsigned long flags = spin_lock_irqsave(&pending_lock);

		while (!stop_pending[cpu])
			sleep_on(stopper[cpu], &pending_lock);
		stop_pending[cpu] = 0;
		spin_unlock_irqrestore(&pending_lock, flags);
		multi_cpu_stop(stop_work);
	}
}

void stop_machine_init(void)
{
	char name[16];
	int cpu;

	for_each_online_cpu(cpu) {
		snprintf(name, sizeof(name), "migration/%d", cpu);
		stopper[cpu] = kthread_create_on_cpu(stopper_thread,
						     (void *)(long)cpu, name,
						     cpu);
		if (!stopper[cpu])
			panic("cannot create %s", name);
		stopper[cpu]->stopper = true;
		kthread_start(stopper[cpu]);
	}
}

static void wake_stopper(int cpu)
{
	unsigned long flags = spin_lock_irqsave(&pending_lock);

	stop_pending[cpu] = 1;
	spin_unlock_irqrestore(&pending_lock, flags);
	wake_up_task(stopper[cpu]);
}

/* Before the stoppers exist only the boot CPU runs: just call fn. */
static int stop_machine_early(int (*fn)(void *), void *data)
{
	unsigned long flags = local_irq_save();
	int ret = fn(data);

	local_flush_icache();
	local_irq_restore(flags);
	return ret;
}

int stop_machine(int (*fn)(void *), void *data)
{
	struct multi_stop_data m = { .fn = fn, .data = data };
	int cpu;

	if (!stopper[0])
		return stop_machine_early(fn, data);
	mutex_lock(&stop_mutex);
	preempt_disable();
	m.active_cpu = smp_processor_id();
	for_each_online_cpu(cpu)
		m.num_threads++;
	set_state(&m, MULTI_STOP_PREPARE);
	stop_work = &m;
	stop_running = true;
	for_each_online_cpu(cpu)
		if (cpu != m.active_cpu)
			wake_stopper(cpu);
	multi_cpu_stop(&m);
	while (__atomic_load_n(&m.thread_ack, __ATOMIC_SEQ_CST))
		;
	stop_running = false;
	rounds++;
	preempt_enable();
	mutex_unlock(&stop_mutex);
	return m.ret;
}

bool stop_machine_running(void)
{
	return stop_running;
}

unsigned long stop_machine_rounds(void)
{
	return rounds;
}

static int nothing(void *data)
{
	(void)data;
	return 0;
}

/*
 * Wait until every CPU has left whatever preempt-disabled region it was
 * in (Linux's synchronize_rcu for sched): one empty rendezvous does it.
 */
void synchronize_sched(void)
{
	stop_machine(nothing, NULL);
}
