/*
 * trace_snapshot_test.c: selftests of the snapshot. Swaps, whole (from
 * an interrupt, and with interrupts off) and per CPU, while a writer on
 * every CPU records numbered events: each event written is afterwards
 * in one of the two buffers, once, whole, and in its CPU's pages. A
 * snapshot taken in an interrupt takes every CPU's events and leaves
 * the live buffer empty; at the top level the trampolines' writers
 * follow it. And `echo 0 > snapshot` gives back what `echo 1` took.
 */
#include "kernel.h"
#include "mm.h"
#include "sched.h"
#include "smp.h"
#include "selftest.h"
#include "trace.h"

#define SNAP_EVENTS	4000	/* per CPU: 64 KiB of 16-byte events */
#define SNAP_BUF_SIZE	(256 * 1024)

struct snap_race {
	struct trace_array tr;
	int writers_done;
	int swaps;
	unsigned long written[NR_CPUS];	/* events recorded, per CPU */
	u8 seen[NR_CPUS][SNAP_EVENTS];
};

struct snap_writer {
	struct snap_race *r;
	int cpu;
};

/*
 * Event seq of this CPU, as {cpu, seq, ~seq}: the whole-event writer
 * and reserve/commit, whose open event a swap must wait for, in turn.
 */
static int snap_write_one(struct trace_buffer *b, u32 cpu, u32 seq)
{
	struct ring_buffer_event *e;
	u32 *w;
	int i;

	if (seq & 1)
		return ring_buffer_write3(b, cpu, seq, ~seq);
	e = ring_buffer_lock_reserve(b, 12);
	if (!e)
		return -EBUSY;
	w = ring_buffer_event_data(e);
	w[0] = cpu;
	w[1] = seq;
	w[2] = ~seq;
	for (i = 0; i < 200; i++)	/* open long enough for an IPI */
		barrier();
	ring_buffer_unlock_commit(b);
	return 0;
}

static void snap_write(void *arg)
{
	struct snap_writer *w = arg;
	u32 seq;
	int i;

	for (seq = 0; seq < SNAP_EVENTS; seq++) {
		/* In step with the swaps: one at least every 64 events. */
		while ((u32)READ_ONCE(w->r->swaps) < seq / 64)
			msleep(1);
		preempt_disable();
		if (!snap_write_one(w->r->tr.buffer, w->cpu, seq))
			w->r->written[w->cpu]++;
		preempt_enable();
		for (i = 0; i < 2000; i++)	/* swaps come in between */
			barrier();
	}
	__atomic_add_fetch(&w->r->writers_done, 1, __ATOMIC_RELEASE);
}

struct snap_irq {
	struct trace_array *tr;
	int ret;
};

/* In an IPI: interrupt context, interrupts off. */
static void snap_take_in_irq(void *arg)
{
	struct snap_irq *s = arg;

	s->ret = update_max_tr(s->tr);
}

/*
 * Swap number i: one CPU's pages, the whole buffers from an interrupt
 * on some CPU, or from here with interrupts off, in turn.
 */
static int snap_swap(struct trace_array *tr, int i)
{
	struct snap_irq s = { tr, 0 };
	unsigned long flags;
	int cpu = (i / 3) % nr_cpus;

	switch (i % 3) {
	case 0:
		return update_max_tr_single(tr, cpu);
	case 1:
		return smp_call_function_single(cpu, snap_take_in_irq, &s) ?:
		       s.ret;
	default:
		flags = raw_local_irq_save();
		s.ret = update_max_tr(tr);
		raw_local_irq_restore(flags);
		return s.ret;
	}
}

/* Drain one buffer's CPU; false on an event torn or in the wrong pages. */
static bool snap_drain(struct snap_race *r, struct trace_buffer *b, int cpu)
{
	struct ring_buffer_event *e;
	unsigned long lost = 0;
	u64 ts;
	u32 *w;

	while ((e = ring_buffer_consume(b, cpu, &ts, &lost))) {
		w = ring_buffer_event_data(e);
		if (w[0] != (u32)cpu || w[1] >= SNAP_EVENTS || w[2] != ~w[1] ||
		    r->seen[cpu][w[1]]++)
			return false;
	}
	return !lost;
}

static void snapshot_swap_under_load(struct kunit *t)
{
	struct snap_race *r = kzalloc(sizeof(*r));
	struct snap_writer w[NR_CPUS];
	struct task *task[NR_CPUS];
	unsigned long found;
	int cpu, i, swaps = 0, seq;

	if (!r)
		KUNIT_SKIP(t, "no memory");
	r->tr.buffer = ring_buffer_alloc(SNAP_BUF_SIZE, nr_cpus);
	r->tr.buffer_size = SNAP_BUF_SIZE;
	r->tr.max_lock = (spinlock_t)SPIN_LOCK_UNLOCKED;
	if (r->tr.buffer)
		ring_buffer_change_overwrite(r->tr.buffer, false);
	if (!r->tr.buffer || tracing_alloc_snapshot_instance(&r->tr)) {
		if (r->tr.buffer)
			ring_buffer_free(r->tr.buffer);
		kfree(r);
		KUNIT_SKIP(t, "no memory");
	}
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		w[cpu] = (struct snap_writer){ r, cpu };
		task[cpu] = kthread_create_on_cpu(snap_write, &w[cpu],
						  "snap_writer", cpu);
		KUNIT_EXPECT_TRUE(t, task[cpu] != NULL);
		if (task[cpu])
			kthread_start(task[cpu]);
	}
	for (i = 0; __atomic_load_n(&r->writers_done, __ATOMIC_ACQUIRE) <
		    nr_cpus; i++) {
		swaps += !snap_swap(&r->tr, i);
		WRITE_ONCE(r->swaps, i + 1);
	}
	for (cpu = 0; cpu < nr_cpus; cpu++)
		if (task[cpu])
			kthread_wait(task[cpu]);
	KUNIT_EXPECT_EQ(t, swaps, i);
	KUNIT_EXPECT_TRUE(t, i >= SNAP_EVENTS / 64);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		KUNIT_EXPECT_TRUE(t, snap_drain(r, r->tr.buffer, cpu));
		KUNIT_EXPECT_TRUE(t, snap_drain(r, r->tr.max_buffer, cpu));
		for (found = 0, seq = 0; seq < SNAP_EVENTS; seq++)
			found += r->seen[cpu][seq];
		KUNIT_EXPECT_EQ(t, found, r->written[cpu]);
		KUNIT_EXPECT_EQ(t, found, (unsigned long)SNAP_EVENTS);
	}
	tracing_free_snapshot(&r->tr);
	ring_buffer_free(r->tr.buffer);
	kfree(r);
}

/* NR_CPUS events of each CPU, in an IPI on each. */
static void snap_fill_this_cpu(void *arg)
{
	struct trace_buffer *b = arg;
	u32 cpu = smp_processor_id(), seq;

	for (seq = 0; seq < NR_CPUS; seq++)
		ring_buffer_write3(b, cpu, seq, ~seq);
}

/*
 * A snapshot taken in an interrupt on the last CPU holds every CPU's
 * events; the live buffer is left empty on every CPU.
 */
static void snapshot_from_irq_takes_every_cpu(struct kunit *t)
{
	struct trace_array *tr = kzalloc(sizeof(*tr));
	struct snap_irq s = { tr, -1 };
	int cpu;

	if (!tr || !(tr->buffer = ring_buffer_alloc(SNAP_BUF_SIZE, nr_cpus))) {
		kfree(tr);
		KUNIT_SKIP(t, "no memory");
	}
	tr->buffer_size = SNAP_BUF_SIZE;
	tr->max_lock = (spinlock_t)SPIN_LOCK_UNLOCKED;
	if (tracing_alloc_snapshot_instance(tr)) {
		ring_buffer_free(tr->buffer);
		kfree(tr);
		KUNIT_SKIP(t, "no memory");
	}
	on_each_cpu(snap_fill_this_cpu, tr->buffer);
	KUNIT_EXPECT_EQ(t, smp_call_function_single(nr_cpus - 1,
						    snap_take_in_irq, &s), 0);
	KUNIT_EXPECT_EQ(t, s.ret, 0);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		KUNIT_EXPECT_TRUE(t, ring_buffer_empty_cpu(tr->buffer, cpu));
		KUNIT_EXPECT_EQ(t, ring_buffer_entries_cpu(tr->max_buffer, cpu),
				(unsigned long)NR_CPUS);
	}
	tracing_free_snapshot(tr);
	ring_buffer_free(tr->buffer);
	kfree(tr);
}

/*
 * An open iterator (`trace` being read) holds its buffer's pages: the
 * snapshot leaves both buffers as they are until it is closed.
 */
static void snapshot_refused_under_iterator(struct kunit *t)
{
	struct trace_array *tr = kzalloc(sizeof(*tr));
	struct ring_buffer_iter *iter;
	struct trace_buffer *live;

	if (!tr || !(tr->buffer = ring_buffer_alloc(SNAP_BUF_SIZE, nr_cpus))) {
		kfree(tr);
		KUNIT_SKIP(t, "no memory");
	}
	tr->buffer_size = SNAP_BUF_SIZE;
	tr->max_lock = (spinlock_t)SPIN_LOCK_UNLOCKED;
	live = tr->buffer;
	iter = tracing_alloc_snapshot_instance(tr) ? NULL :
	       ring_buffer_read_prepare(live, nr_cpus - 1);
	if (iter) {
		KUNIT_EXPECT_EQ(t, update_max_tr(tr), -EBUSY);
		KUNIT_EXPECT_TRUE(t, tr->buffer == live);
		ring_buffer_read_finish(iter);
		KUNIT_EXPECT_EQ(t, update_max_tr(tr), 0);
		KUNIT_EXPECT_TRUE(t, tr->max_buffer == live);
	}
	tracing_free_snapshot(tr);
	ring_buffer_free(tr->buffer);
	kfree(tr);
	if (!iter)
		KUNIT_SKIP(t, "no memory");
}

/*
 * A CPU's swap while an event reserved on it is still open waits: the
 * commit looks its pages up again, and would close the other buffer's.
 * Once it is committed the swap goes, and the event with it, whole.
 */
static void snapshot_cpu_swap_waits_for_open_event(struct kunit *t)
{
	struct trace_buffer *a = ring_buffer_alloc(SNAP_BUF_SIZE, nr_cpus);
	struct trace_buffer *b = ring_buffer_alloc(SNAP_BUF_SIZE, nr_cpus);
	struct ring_buffer_event *e;
	unsigned long flags, lost = 0;
	int cpu, open, done;
	u64 ts;

	if (!a || !b) {
		ring_buffer_free(a);
		ring_buffer_free(b);
		KUNIT_SKIP(t, "no memory");
	}
	preempt_disable();
	cpu = smp_processor_id();
	e = ring_buffer_lock_reserve(a, 4);
	if (e)
		*(u32 *)ring_buffer_event_data(e) = 0x5a5a;
	flags = raw_local_irq_save();
	open = ring_buffer_swap_cpu_irqsoff(a, b);
	raw_local_irq_restore(flags);
	ring_buffer_unlock_commit(a);
	flags = raw_local_irq_save();
	done = ring_buffer_swap_cpu_irqsoff(a, b);
	raw_local_irq_restore(flags);
	preempt_enable();
	KUNIT_EXPECT_EQ(t, open, -EAGAIN);
	KUNIT_EXPECT_EQ(t, done, 0);
	e = ring_buffer_consume(b, cpu, &ts, &lost);
	KUNIT_EXPECT_TRUE(t, e && *(u32 *)ring_buffer_event_data(e) == 0x5a5a);
	KUNIT_EXPECT_TRUE(t, !ring_buffer_consume(a, cpu, &ts, &lost));
	ring_buffer_free(a);
	ring_buffer_free(b);
}

/*
 * tracing_snapshot() at the top level, interrupts off: the buffers
 * trade places and every CPU's trampoline writer moves to the new live
 * one, so no function event lands in the snapshot after it is taken.
 */
static void snapshot_moves_every_cpu_writer(struct kunit *t)
{
	struct trace_buffer *old = global_trace.buffer;
	unsigned long flags;
	int cpu, ret;

	mutex_lock(&trace_types_lock);
	ret = tracing_alloc_snapshot_instance(&global_trace);
	mutex_unlock(&trace_types_lock);
	if (ret)
		KUNIT_SKIP(t, "no memory");
	flags = raw_local_irq_save();
	tracing_snapshot();
	raw_local_irq_restore(flags);
	KUNIT_EXPECT_TRUE(t, global_trace.max_buffer == old);
	KUNIT_EXPECT_TRUE(t, global_trace.buffer != old);
	for (cpu = 0; cpu < nr_cpus; cpu++)
		KUNIT_EXPECT_TRUE(t, READ_ONCE(cpus[cpu].trace_buffer) ==
				  ring_buffer_cpu_writer(global_trace.buffer,
							 cpu));
	mutex_lock(&trace_types_lock);
	KUNIT_EXPECT_EQ(t, tracing_free_snapshot(&global_trace), 0);
	mutex_unlock(&trace_types_lock);
}

/* `echo 1 > snapshot` then `echo 0`: the memory is back where it was. */
static void snapshot_free_gives_back(struct kunit *t)
{
	size_t before = mm_bytes_in_use();

	mutex_lock(&trace_types_lock);
	KUNIT_EXPECT_EQ(t, tracing_snapshot_command(&global_trace, 1,
						    RING_BUFFER_ALL_CPUS), 0);
	KUNIT_EXPECT_TRUE(t, global_trace.max_buffer != NULL);
	KUNIT_EXPECT_TRUE(t, mm_bytes_in_use() > before);
	KUNIT_EXPECT_EQ(t, tracing_snapshot_command(&global_trace, 0,
						    RING_BUFFER_ALL_CPUS), 0);
	mutex_unlock(&trace_types_lock);
	KUNIT_EXPECT_TRUE(t, global_trace.max_buffer == NULL);
	KUNIT_EXPECT_EQ(t, mm_bytes_in_use(), before);
}

SELFTEST_SUITE_INIT(snapshot, tracing_selftest_need_defaults,
	KUNIT_CASE(snapshot_swap_under_load),
	KUNIT_CASE(snapshot_from_irq_takes_every_cpu),
	KUNIT_CASE(snapshot_refused_under_iterator),
	KUNIT_CASE(snapshot_cpu_swap_waits_for_open_event),
	KUNIT_CASE(snapshot_moves_every_cpu_writer),
	KUNIT_CASE(snapshot_free_gives_back));
