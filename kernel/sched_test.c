/*
 * sched_test.c: selftests of kernel threads and the scheduler: pinning
 * to each CPU, preemption of CPU-bound threads, msleep and exit codes,
 * a mutex handed to the task asleep on it, and passed round tasks
 * on every CPU, real-time tasks before normal ones, and priorities set
 * and inherited.
 */
#include "kernel.h"
#include "selftest.h"
#include "sched.h"
#include "smp.h"
#include "time.h"
#include "spinlock.h"

#define NSEC_PER_MSEC	1000000ULL

static void record_cpu(void *arg)
{
	WRITE_ONCE(*(int *)arg, smp_processor_id());
}

static void runs_on_every_cpu(struct kunit *t)
{
	struct task *th[NR_CPUS];
	int ran_on[NR_CPUS];
	int cpu;

	for_each_online_cpu(cpu) {
		ran_on[cpu] = -1;
		th[cpu] = kthread_create_on_cpu(record_cpu, &ran_on[cpu],
						"st_pin", cpu);
		KUNIT_EXPECT_TRUE(t, th[cpu] != NULL);
		if (th[cpu])
			kthread_start(th[cpu]);
	}
	for_each_online_cpu(cpu) {
		if (!th[cpu])
			continue;
		KUNIT_EXPECT_EQ(t, kthread_wait(th[cpu]), 0);
		KUNIT_EXPECT_EQ(t, ran_on[cpu], cpu);
	}
}

/* Two spinners sharing one CPU; each notes how far the other got. */
struct spinner {
	volatile unsigned long count;
	struct spinner *peer;
	unsigned long peer_count_at_end;
	int cpu;
};

/* Only a failing run waits this long: it bounds a spinner left alone. */
#define SPIN_LIMIT_MS	1000

/*
 * Spin until the other spinner has run too. A deadline in wall time
 * instead would fail whenever the host starves QEMU's vCPU thread for
 * the whole window, which a loaded 2-core machine does.
 */
static void spin(void *arg)
{
	struct spinner *s = arg;
	u64 end = ktime_get_ns() + SPIN_LIMIT_MS * NSEC_PER_MSEC;

	do {
		s->count++;
		s->cpu = smp_processor_id();
	} while (!s->peer->count && ktime_get_ns() < end);
	s->peer_count_at_end = s->peer->count;
}

/*
 * Without preemption the first spinner would spin until its limit with
 * the second never running; with it, each sees the other make progress.
 */
static void cpu_bound_threads_are_preempted(struct kunit *t)
{
	struct spinner a = { 0 }, b = { 0 };
	int cpu = nr_cpus - 1;
	struct task *ta, *tb;

	a.peer = &b;
	b.peer = &a;
	ta = kthread_create_on_cpu(spin, &a, "st_spin_a", cpu);
	tb = kthread_create_on_cpu(spin, &b, "st_spin_b", cpu);
	KUNIT_EXPECT_TRUE(t, ta && tb);
	if (!ta || !tb)
		return;
	kthread_start(ta);
	kthread_start(tb);
	kthread_wait(ta);
	kthread_wait(tb);
	KUNIT_EXPECT_EQ(t, a.cpu, cpu);
	KUNIT_EXPECT_EQ(t, b.cpu, cpu);
	KUNIT_EXPECT_TRUE(t, a.peer_count_at_end > 0);
	KUNIT_EXPECT_TRUE(t, b.peer_count_at_end > 0);
}

static void check_msleep(struct kunit *t, unsigned long ms)
{
	u64 start = ktime_get_ns(), slept;

	msleep(ms);
	slept = ktime_get_ns() - start;
	if (slept < ms * NSEC_PER_MSEC)
		kunit_fail(t, __FILE__, __LINE__,
			   "msleep(%lu) slept %llu us", ms, slept / 1000);
}

static void msleep_sleeps_long_enough(struct kunit *t)
{
	static const unsigned long ms[] = { 1, 5, 10, 15, 50 };
	unsigned long i;

	for (i = 0; i < ARRAY_SIZE(ms); i++)
		check_msleep(t, ms[i]);
}

static void exit_with_42(void *arg)
{
	kthread_exit(42);
}

static void return_normally(void *arg)
{
}

static void wait_returns_exit_code(struct kunit *t)
{
	struct task *a = kthread_create(exit_with_42, NULL, "st_exit42");
	struct task *b = kthread_create(return_normally, NULL, "st_return");

	KUNIT_EXPECT_TRUE(t, a && b);
	if (!a || !b)
		return;
	kthread_start(a);
	kthread_start(b);
	KUNIT_EXPECT_EQ(t, kthread_wait(a), 42);
	KUNIT_EXPECT_EQ(t, kthread_wait(b), 0);
}

/* Waiting for a thread that already exited still gets its code. */
static void wait_after_exit(struct kunit *t)
{
	struct task *a = kthread_create(exit_with_42, NULL, "st_exit42");

	KUNIT_EXPECT_TRUE(t, a != NULL);
	if (!a)
		return;
	kthread_start(a);
	msleep(20);
	KUNIT_EXPECT_EQ(t, kthread_wait(a), 42);
}

struct mutex_taker {
	struct mutex m;
	volatile bool got;
};

static void take_mutex(void *arg)
{
	struct mutex_taker *mt = arg;

	mutex_lock(&mt->m);
	mt->got = true;
	mutex_unlock(&mt->m);
}

/* Poll cond for up to SPIN_LIMIT_MS: only a failing run waits so long. */
static bool wait_for(volatile bool *cond)
{
	int ms;

	for (ms = 0; ms < SPIN_LIMIT_MS && !*cond; ms++)
		msleep(1);
	return *cond;
}

/*
 * The unlock of a mutex a task sleeps on wakes it (mutex_unlock skips
 * the wake-up only when no task counted itself a waiter).
 */
static void mutex_unlock_wakes_waiter(struct kunit *t)
{
	struct mutex_taker mt = { .m = { SPIN_LOCK_UNLOCKED, 0, 0 } };
	struct task *a;
	int ms;

	mutex_lock(&mt.m);
	a = kthread_create(take_mutex, &mt, "st_mutex");
	if (!a) {
		mutex_unlock(&mt.m);
		KUNIT_SKIP(t, "no memory");
	}
	kthread_start(a);
	for (ms = 0; ms < SPIN_LIMIT_MS && !READ_ONCE(mt.m.waiters); ms++)
		msleep(1);
	KUNIT_EXPECT_EQ(t, READ_ONCE(mt.m.waiters), 1);
	KUNIT_EXPECT_TRUE(t, !mt.got);
	mutex_unlock(&mt.m);
	KUNIT_EXPECT_TRUE(t, wait_for(&mt.got));
	if (!mt.got)
		wake_up(&mt.m);	/* a failed run still ends its thread */
	kthread_wait(a);
}

/*
 * Tasks on every CPU take one mutex in turn and give way while they hold
 * it, so that some take it by the compare-and-swap while others sleep
 * on it, flag it or are woken: the count it guards loses no increment,
 * and each unlock of a flagged mutex wakes its sleepers.
 */
#define CONTEND_TASKS	8
#define CONTEND_ROUNDS	300
#define CONTEND_SLEEP_EVERY 64	/* a hold across a tick, now and then */

struct contend {
	struct mutex m;
	unsigned long count;	/* read, then written: the mutex guards it */
	int done;
};

static void contend_fn(void *arg)
{
	struct contend *c = arg;
	unsigned long v;
	int i;

	for (i = 0; i < CONTEND_ROUNDS; i++) {
		mutex_lock(&c->m);
		v = READ_ONCE(c->count);
		if (i % CONTEND_SLEEP_EVERY == 0)
			msleep(1);
		else
			yield();
		WRITE_ONCE(c->count, v + 1);
		mutex_unlock(&c->m);
	}
	__atomic_add_fetch(&c->done, 1, __ATOMIC_RELEASE);
}

/* All done within the limit; else wake the sleepers until they are. */
static bool contenders_finish(struct contend *c, int n)
{
	int ms;

	for (ms = 0; ms < SPIN_LIMIT_MS; ms++) {
		if (__atomic_load_n(&c->done, __ATOMIC_ACQUIRE) == n)
			return true;
		msleep(1);
	}
	while (__atomic_load_n(&c->done, __ATOMIC_ACQUIRE) != n) {
		wake_up(&c->m);
		msleep(1);
	}
	return false;
}

static void mutex_contended_on_every_cpu(struct kunit *t)
{
	struct contend c = { .m = { SPIN_LOCK_UNLOCKED, 0, 0 } };
	struct task *th[CONTEND_TASKS];
	int i, n = 0;

	for (i = 0; i < CONTEND_TASKS; i++) {
		th[n] = kthread_create_on_cpu(contend_fn, &c, "st_contend",
					      i % nr_cpus);
		if (th[n])
			kthread_start(th[n++]);
	}
	if (!n)
		KUNIT_SKIP(t, "no memory");
	KUNIT_EXPECT_TRUE(t, contenders_finish(&c, n));
	for (i = 0; i < n; i++)
		kthread_wait(th[i]);
	KUNIT_EXPECT_EQ(t, c.count, (unsigned long)n * CONTEND_ROUNDS);
	KUNIT_EXPECT_EQ(t, c.m.owner, 0);
	KUNIT_EXPECT_EQ(t, c.m.waiters, 0);
}

/* Each task notes its turn: who ran first. */
struct run_order {
	int next;
	char order[2];
};

static void note_fifo(void *arg)
{
	struct run_order *o = arg;

	o->order[o->next++] = 'F';
}

static void note_normal(void *arg)
{
	struct run_order *o = arg;

	o->order[o->next++] = 'N';
}

/*
 * A normal task and then a SCHED_FIFO one, woken on this CPU while it
 * cannot switch: the FIFO task goes first, and it preempts this
 * (normal) task the moment preemption is back (check_preempt_curr).
 */
static void fifo_task_runs_first(struct kunit *t)
{
	struct run_order o = { 0 };
	struct task *n, *f;
	bool fifo_ran_at_once;
	int cpu;

	preempt_disable();
	cpu = smp_processor_id();
	n = kthread_create_on_cpu(note_normal, &o, "st_normal", cpu);
	f = kthread_create_on_cpu(note_fifo, &o, "st_fifo", cpu);
	if (f)
		KUNIT_EXPECT_EQ(t, sched_setscheduler(f, SCHED_FIFO, 10), 0);
	if (n)
		kthread_start(n);
	if (f)
		kthread_start(f);
	preempt_enable();
	fifo_ran_at_once = READ_ONCE(o.next) >= 1 && o.order[0] == 'F';
	KUNIT_EXPECT_TRUE(t, n && f);
	if (n)
		kthread_wait(n);
	if (f)
		kthread_wait(f);
	KUNIT_EXPECT_TRUE(t, fifo_ran_at_once);
	KUNIT_EXPECT_EQ(t, o.next, 2);
	KUNIT_EXPECT_EQ(t, o.order[0], 'F');
	KUNIT_EXPECT_EQ(t, o.order[1], 'N');
}

/* A FIFO task spinning for a few ticks, and a normal one beside it. */
struct fifo_spin {
	bool normal_ran;
	bool normal_ran_meanwhile;
};

#define FIFO_SPIN_MS	30		/* three ticks */

static void fifo_spin(void *arg)
{
	struct fifo_spin *s = arg;
	u64 end = ktime_get_ns() + FIFO_SPIN_MS * NSEC_PER_MSEC;

	while (ktime_get_ns() < end)
		cpu_relax();
	s->normal_ran_meanwhile = READ_ONCE(s->normal_ran);
}

static void note_ran(void *arg)
{
	WRITE_ONCE(((struct fifo_spin *)arg)->normal_ran, true);
}

/* The tick gives normal tasks turns, never a FIFO task's CPU. */
static void fifo_task_is_not_time_sliced(struct kunit *t)
{
	struct fifo_spin s = { 0 };
	struct task *n, *f;
	int cpu;

	preempt_disable();
	cpu = smp_processor_id();
	n = kthread_create_on_cpu(note_ran, &s, "st_normal", cpu);
	f = kthread_create_on_cpu(fifo_spin, &s, "st_fifo", cpu);
	if (f)
		sched_setscheduler(f, SCHED_FIFO, 10);
	if (n)
		kthread_start(n);
	if (f)
		kthread_start(f);
	preempt_enable();
	KUNIT_EXPECT_TRUE(t, n && f);
	if (n)
		kthread_wait(n);
	if (f)
		kthread_wait(f);
	KUNIT_EXPECT_TRUE(t, s.normal_ran);
	KUNIT_EXPECT_TRUE(t, !s.normal_ran_meanwhile);
}

/*
 * Linux's numbers: prio 99 - rt_priority under SCHED_FIFO, 120 + nice
 * (clamped) otherwise; bad policies and priorities refused; a child
 * gets its parent's.
 */
static void priorities_set_and_inherited(struct kunit *t)
{
	struct task *me = current, *child;

	KUNIT_EXPECT_EQ(t, sched_setscheduler(me, SCHED_FIFO, 0), -EINVAL);
	KUNIT_EXPECT_EQ(t, sched_setscheduler(me, SCHED_FIFO, 100), -EINVAL);
	KUNIT_EXPECT_EQ(t, sched_setscheduler(me, SCHED_NORMAL, 1), -EINVAL);
	KUNIT_EXPECT_EQ(t, sched_setscheduler(me, 2, 1), -EINVAL);
	KUNIT_EXPECT_EQ(t, me->prio, DEFAULT_PRIO);
	set_user_nice(me, -100);
	KUNIT_EXPECT_EQ(t, me->prio, 100);
	KUNIT_EXPECT_EQ(t, task_nice(me), MIN_NICE);
	KUNIT_EXPECT_EQ(t, sched_setscheduler(me, SCHED_FIFO, 10), 0);
	KUNIT_EXPECT_EQ(t, me->prio, 89);
	KUNIT_EXPECT_TRUE(t, rt_task(me));
	child = kthread_create(return_normally, NULL, "st_child");
	KUNIT_EXPECT_TRUE(t, child != NULL);
	KUNIT_EXPECT_EQ(t, sched_setscheduler(me, SCHED_NORMAL, 0), 0);
	set_user_nice(me, 0);
	KUNIT_EXPECT_EQ(t, me->prio, DEFAULT_PRIO);
	if (!child)
		return;
	KUNIT_EXPECT_EQ(t, child->prio, 89);
	KUNIT_EXPECT_EQ(t, child->policy, SCHED_FIFO);
	KUNIT_EXPECT_EQ(t, child->rt_priority, 10);
	KUNIT_EXPECT_EQ(t, task_nice(child), MIN_NICE);
	kthread_start(child);
	kthread_wait(child);
}

SELFTEST_SUITE(sched,
	KUNIT_CASE(runs_on_every_cpu),
	KUNIT_CASE(cpu_bound_threads_are_preempted),
	KUNIT_CASE(msleep_sleeps_long_enough),
	KUNIT_CASE(wait_returns_exit_code),
	KUNIT_CASE(wait_after_exit),
	KUNIT_CASE(mutex_unlock_wakes_waiter),
	KUNIT_CASE(mutex_contended_on_every_cpu),
	KUNIT_CASE(fifo_task_runs_first),
	KUNIT_CASE(fifo_task_is_not_time_sliced),
	KUNIT_CASE(priorities_set_and_inherited));
