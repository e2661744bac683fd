/*
 * stop_machine.c: Linux's multi-stage rendezvous. Each CPU has a stopper
 * thread (migration/N) that the scheduler runs before anything else on
 * that CPU. stop_machine() wakes them all and joins in itself; together
 * they step through PREPARE, DISABLE_IRQ, RUN (one CPU calls fn), EXIT,
 * each state entered only when every CPU acknowledged the last. Since a
 * stopper can only run once its CPU leaves any preempt-disabled region,
 * no CPU is inside an ftrace trampoline or callback while fn runs. Every
 * CPU executes fence.i before it resumes, so it fetches the new text
 * (and checks it did: patch.h).
 * The caller names any CPU that keeps a state waiting too long.
 */
#include "kernel.h"
#include "stop_machine.h"
#include "sched.h"
#include "smp.h"
#include "printk.h"
#include "patch.h"
#include "mm.h"
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

static const char *const state_names[] = {
	[MULTI_STOP_PREPARE] = "PREPARE",
	[MULTI_STOP_DISABLE_IRQ] = "DISABLE_IRQ",
	[MULTI_STOP_RUN] = "RUN",
	[MULTI_STOP_EXIT] = "EXIT",
};

/*
 * Each CPU's part, on lines of its own (stop_machine_init allocates one
 * per CPU): its stopper, whether a round waits for it, and the last
 * state it acknowledged in the current round, which only it writes.
 */
struct cpu_stopper {
	struct task *thread;
	int pending;
	enum multi_stop_state acked;
} ____cacheline_aligned;

static struct cpu_stopper *stoppers;
static struct multi_stop_data *stop_work;
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
 * The last CPU to acknowledge a state moves everyone to the next. After
 * EXIT, thread_ack reaching zero lets stop_machine return, and m, on
 * its stack, be reused at once: so the state is the acknowledger's own
 * copy, and nothing of m is read after the decrement.
 */
static void ack_state(struct multi_stop_data *m, enum multi_stop_state cur)
{
	WRITE_ONCE(stoppers[smp_processor_id()].acked, cur);
	if (__atomic_sub_fetch(&m->thread_ack, 1, __ATOMIC_SEQ_CST) == 0 &&
	    cur != MULTI_STOP_EXIT)
		set_state(m, cur + 1);
}

/*
 * The calling CPU names, every stall_timeout_ms, each CPU that has not
 * acknowledged state s yet. The round neither goes on without it (fn
 * could rewrite text that CPU is executing) nor fails: its callers
 * cannot undo what they did before it (an ops already off the list
 * must still be waited out), and the late CPU would still come and
 * read m. So it waits on, loudly, as Linux's stall warnings do.
 */
static void report_late_cpus(struct multi_stop_data *m,
			     enum multi_stop_state s, struct stall_watch *w)
{
	u64 ms = stall_watch_ms(w);
	int cpu;

	if (!ms)
		return;
	for_each_online_cpu(cpu)
		if (READ_ONCE(stoppers[cpu].acked) < s)
			pr_err("stop_machine: CPU %d (hart %lu) has not "
			       "acknowledged MULTI_STOP_%s after %llu ms\n",
			       cpu, cpus[cpu].hartid, state_names[s], ms);
}

/*
 * Interrupts stay as they were until every CPU has arrived (the
 * DISABLE_IRQ stage), as in Linux: a CPU still on its way may be
 * spinning with interrupts off in smp_call_function_single on this one,
 * and reaches its own stopper only once this one has answered.
 * The callers keep preemption off throughout.
 */
static void multi_cpu_stop(struct multi_stop_data *m)
{
	enum multi_stop_state cur = MULTI_STOP_NONE, next;
	unsigned long flags = local_save_flags();
	bool active = smp_processor_id() == m->active_cpu;
	struct stall_watch w = { 0, 0 };
	u64 gen = 0;

	do {
		next = __atomic_load_n(&m->state, __ATOMIC_SEQ_CST);
		if (next == cur) {
			if (active)
				report_late_cpus(m, cur, &w);
			cpu_relax();
			continue;
		}
		cur = next;
		w.start = 0;
		if (cur == MULTI_STOP_DISABLE_IRQ)
			local_irq_disable();
		else if (cur == MULTI_STOP_RUN && active)
			m->ret = m->fn(m->data);
		else if (cur == MULTI_STOP_EXIT)
			gen = text_gen_read();	/* past fn's last store */
		ack_state(m, cur);
	} while (cur != MULTI_STOP_EXIT);
	local_flush_icache();
	check_text_fenced(1UL << smp_processor_id(), gen);
	local_irq_restore(flags);
}

static void stopper_thread(void *arg)
{
	struct cpu_stopper *st = arg;

	for (;;) {
		unsigned long flags = spin_lock_irqsave(&pending_lock);

		while (!st->pending)
			sleep_on(st->thread, &pending_lock);
		st->pending = 0;
		preempt_disable();	/* no tick moves the stopper away */
		spin_unlock_irqrestore(&pending_lock, flags);
		multi_cpu_stop(stop_work);
		preempt_enable();
	}
}

void stop_machine_init(void)
{
	struct cpu_stopper *all = kzalloc_cacheline(nr_cpu_ids *
						    sizeof(*all));
	char name[16];
	int cpu;

	if (!all)
		panic("stop_machine: no memory for %d CPUs", nr_cpu_ids);
	for_each_online_cpu(cpu) {
		struct task *t;

		snprintf(name, sizeof(name), "migration/%d", cpu);
		t = kthread_create_on_cpu(stopper_thread, &all[cpu], name,
					  cpu);
		if (!t)
			panic("cannot create %s", name);
		t->stopper = true;
		all[cpu].thread = t;
		kthread_start(t);
	}
	stoppers = all;
}

static void wake_stopper(int cpu)
{
	unsigned long flags = spin_lock_irqsave(&pending_lock);

	stoppers[cpu].pending = 1;
	spin_unlock_irqrestore(&pending_lock, flags);
	wake_up_task(stoppers[cpu].thread);
}

static int online_cpus(void)
{
	int cpu, n = 0;

	for_each_online_cpu(cpu)
		n++;
	return n;
}

/*
 * Only this CPU runs: just call fn with interrupts off. Before the
 * stoppers exist (ftrace_init) that must be so: another CPU could
 * fetch an instruction fn is halfway through writing (a -pg site is
 * two halfword stores). Later, on one CPU, the caller runs, so no other
 * task is inside a preempt-disabled region: a round would wait for
 * nothing.
 */
static int stop_machine_alone(int (*fn)(void *), void *data, int n)
{
	unsigned long flags;
	int ret;

	if (n > 1)
		panic("stop_machine: %d CPUs online, no stopper threads", n);
	flags = local_irq_save();
	ret = fn(data);
	rounds++;
	local_flush_icache();
	local_irq_restore(flags);
	return ret;
}

int stop_machine(int (*fn)(void *), void *data)
{
	struct multi_stop_data m = { .fn = fn, .data = data };
	struct stall_watch w = { 0, 0 };
	int cpu, n = online_cpus();

	if (!stoppers || n == 1)
		return stop_machine_alone(fn, data, n);
	mutex_lock(&stop_mutex);
	preempt_disable();
	for_each_online_cpu(cpu)
		stoppers[cpu].acked = MULTI_STOP_NONE;
	m.active_cpu = smp_processor_id();
	m.num_threads = n;
	set_state(&m, MULTI_STOP_PREPARE);
	stop_work = &m;
	stop_running = true;
	for_each_online_cpu(cpu)
		if (cpu != m.active_cpu)
			wake_stopper(cpu);
	multi_cpu_stop(&m);
	while (__atomic_load_n(&m.thread_ack, __ATOMIC_SEQ_CST)) {
		report_late_cpus(&m, MULTI_STOP_EXIT, &w);
		cpu_relax();
	}
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
