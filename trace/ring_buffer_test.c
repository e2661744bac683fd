/*
 * ring_buffer_test.c: selftests of the ring buffer (trace/ring_buffer.c):
 * order and time stamps, wrap-around with exact overrun counts, time
 * extends, an interrupt writing while a task's reservation is open
 * (forced, then at random from another CPU), resizing, iterators, and
 * every event written accounted for (held, overrun or read).
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "sched.h"
#include "smp.h"
#include "selftest.h"
#include "ring_buffer.h"
#include "asm/csr.h"

#define EVENT_DATA	12		/* a function event's payload */
#define PER_PAGE	(BUF_PAGE_SIZE / (EVENT_DATA + 4))

static u64 test_time;

/* A clock that moves by test_step per read, for exact time stamps. */
static u64 test_step = 1;

static u64 test_clock(void)
{
	return __atomic_add_fetch(&test_time, test_step, __ATOMIC_RELAXED);
}

static struct trace_buffer *test_buffer(unsigned long pages)
{
	struct trace_buffer *b = ring_buffer_alloc(pages * BUF_PAGE_SIZE,
						   nr_cpus);

	if (b)
		ring_buffer_set_clock(b, test_clock);
	test_time = 0;
	test_step = 1;
	return b;
}

/* One event whose three words say who wrote it and its number. */
static bool write_event(struct trace_buffer *b, u32 who, u32 seq)
{
	struct ring_buffer_event *e;
	u32 *d;

	preempt_disable();
	e = ring_buffer_lock_reserve(b, EVENT_DATA);
	if (e) {
		d = ring_buffer_event_data(e);
		d[0] = who;
		d[1] = seq;
		d[2] = ~seq;
		ring_buffer_unlock_commit(b);
	}
	preempt_enable();
	return e;
}

static int my_cpu(void)
{
	int cpu;

	preempt_disable();
	cpu = smp_processor_id();
	preempt_enable();
	return cpu;
}

/* Write n events on one CPU (preemption off throughout). */
static int write_many(struct trace_buffer *b, u32 n)
{
	int cpu;
	u32 i;

	preempt_disable();
	cpu = smp_processor_id();
	for (i = 0; i < n; i++)
		write_event(b, 0, i);
	preempt_enable();
	return cpu;
}

static void rb_test_order_and_time(struct kunit *t)
{
	struct trace_buffer *b = test_buffer(4);
	struct ring_buffer_event *e;
	u64 ts, last = 0;
	u32 i, *d;
	int cpu;

	if (!b)
		KUNIT_SKIP(t, "no memory");
	cpu = write_many(b, 600);
	for (i = 0; (e = ring_buffer_consume(b, cpu, &ts, NULL)); i++) {
		d = ring_buffer_event_data(e);
		KUNIT_EXPECT_EQ(t, d[1], i);
		KUNIT_EXPECT_EQ(t, d[2], ~i);
		KUNIT_EXPECT_TRUE(t, ts > last);
		last = ts;
	}
	KUNIT_EXPECT_EQ(t, i, 600);
	KUNIT_EXPECT_EQ(t, ring_buffer_read_events_cpu(b, cpu), 600);
	KUNIT_EXPECT_EQ(t, ring_buffer_entries_cpu(b, cpu), 0);
	ring_buffer_free(b);
}

/*
 * Two pages of 255 events each: 1000 events leave the last partial page
 * (235) and the full one before it; the other 510 are overrun.
 */
static void rb_test_overwrite_counts(struct kunit *t)
{
	struct trace_buffer *b = test_buffer(2);
	struct ring_buffer_event *e;
	unsigned long kept = 1000 % PER_PAGE + PER_PAGE;
	u64 ts;
	u32 first;
	int cpu;

	if (!b)
		KUNIT_SKIP(t, "no memory");
	cpu = write_many(b, 1000);
	KUNIT_EXPECT_EQ(t, ring_buffer_entries_cpu(b, cpu), kept);
	KUNIT_EXPECT_EQ(t, ring_buffer_overrun_cpu(b, cpu), 1000 - kept);
	KUNIT_EXPECT_EQ(t, ring_buffer_bytes_cpu(b, cpu), kept * 16);
	e = ring_buffer_consume(b, cpu, &ts, NULL);
	first = e ? ((u32 *)ring_buffer_event_data(e))[1] : 0;
	KUNIT_EXPECT_EQ(t, first, 1000 - kept);
	ring_buffer_free(b);
}

static void rb_test_no_overwrite_drops(struct kunit *t)
{
	struct trace_buffer *b = test_buffer(2);
	int cpu;

	if (!b)
		KUNIT_SKIP(t, "no memory");
	ring_buffer_change_overwrite(b, false);
	cpu = write_many(b, 1000);
	KUNIT_EXPECT_EQ(t, ring_buffer_entries_cpu(b, cpu), 2 * PER_PAGE);
	KUNIT_EXPECT_EQ(t, ring_buffer_overrun_cpu(b, cpu), 0);
	KUNIT_EXPECT_EQ(t, ring_buffer_dropped_events_cpu(b, cpu),
			1000 - 2 * PER_PAGE);
	ring_buffer_free(b);
}

/* Deltas past 27 bits take a time extend; times stay exact. */
static void rb_test_time_extend(struct kunit *t)
{
	struct trace_buffer *b = test_buffer(2);
	struct ring_buffer_event *e;
	u64 ts, expect;
	u32 i;
	int cpu;

	if (!b)
		KUNIT_SKIP(t, "no memory");
	test_step = 3ULL << 30;
	cpu = write_many(b, 10);
	for (i = 0; (e = ring_buffer_consume(b, cpu, &ts, NULL)); i++) {
		expect = (i + 1) * (3ULL << 30);
		KUNIT_EXPECT_EQ(t, ts, expect);
	}
	KUNIT_EXPECT_EQ(t, i, 10);
	ring_buffer_free(b);
}

/* The iterator reads without consuming, and sees only what was there. */
static void rb_test_iterator(struct kunit *t)
{
	struct trace_buffer *b = test_buffer(4);
	struct ring_buffer_iter *it;
	u64 ts;
	u32 i = 0;
	int cpu;

	if (!b)
		KUNIT_SKIP(t, "no memory");
	cpu = write_many(b, 300);
	it = ring_buffer_read_prepare(b, cpu);
	KUNIT_EXPECT_TRUE(t, it != NULL);
	KUNIT_EXPECT_EQ(t, ring_buffer_resize(b, 8 * BUF_PAGE_SIZE, -1),
			-EBUSY);
	write_many(b, 5);
	while (it && ring_buffer_iter_peek(it, &ts)) {
		ring_buffer_iter_advance(it);
		i++;
	}
	KUNIT_EXPECT_EQ(t, i, 300);
	KUNIT_EXPECT_EQ(t, ring_buffer_entries_cpu(b, cpu), 305);
	if (it)
		ring_buffer_read_finish(it);
	ring_buffer_free(b);
}

static void rb_test_resize(struct kunit *t)
{
	struct trace_buffer *b = test_buffer(4);
	unsigned long size;
	int cpu;

	if (!b)
		KUNIT_SKIP(t, "no memory");
	cpu = write_many(b, 3 * PER_PAGE);
	size = ring_buffer_size(b, cpu);
	KUNIT_EXPECT_EQ(t, ring_buffer_resize(b, 1UL << 40, -1), -ENOMEM);
	KUNIT_EXPECT_EQ(t, ring_buffer_size(b, cpu), size);
	KUNIT_EXPECT_EQ(t, ring_buffer_entries_cpu(b, cpu), 3 * PER_PAGE);
	/* Down to two pages: the oldest page goes, counted as overrun. */
	KUNIT_EXPECT_EQ(t, ring_buffer_resize(b, 1, -1), 0);
	KUNIT_EXPECT_EQ(t, ring_buffer_size(b, cpu), 2 * BUF_PAGE_SIZE);
	KUNIT_EXPECT_EQ(t, ring_buffer_entries_cpu(b, cpu), 2 * PER_PAGE);
	KUNIT_EXPECT_EQ(t, ring_buffer_overrun_cpu(b, cpu), PER_PAGE);
	KUNIT_EXPECT_EQ(t, ring_buffer_resize(b, 6 * BUF_PAGE_SIZE, -1), 0);
	write_many(b, PER_PAGE);
	KUNIT_EXPECT_EQ(t, ring_buffer_entries_cpu(b, cpu), 3 * PER_PAGE);
	ring_buffer_free(b);
}

static void expect_balance(struct kunit *t, struct trace_buffer *b, int cpu,
			   unsigned long written)
{
	KUNIT_EXPECT_EQ(t, ring_buffer_written_cpu(b, cpu), written);
	KUNIT_EXPECT_EQ(t, ring_buffer_entries_cpu(b, cpu) +
			ring_buffer_overrun_cpu(b, cpu) +
			ring_buffer_read_events_cpu(b, cpu), written);
}

/*
 * Every event written is held, overrun or read, through wrapping,
 * consuming, a shrink that drops pages, a reset; dropped events were
 * never written.
 */
static void rb_test_written_balance(struct kunit *t)
{
	struct trace_buffer *b = test_buffer(4);
	unsigned long lost;
	u64 ts;
	int cpu, i;

	if (!b)
		KUNIT_SKIP(t, "no memory");
	cpu = write_many(b, 10 * PER_PAGE + 7);
	expect_balance(t, b, cpu, 10 * PER_PAGE + 7);
	for (i = 0; i < 20; i++)
		ring_buffer_consume(b, cpu, &ts, &lost);
	KUNIT_EXPECT_EQ(t, ring_buffer_read_events_cpu(b, cpu), 20);
	expect_balance(t, b, cpu, 10 * PER_PAGE + 7);
	KUNIT_EXPECT_EQ(t, ring_buffer_resize(b, 1, -1), 0);
	expect_balance(t, b, cpu, 10 * PER_PAGE + 7);
	ring_buffer_reset(b);
	expect_balance(t, b, cpu, 0);
	ring_buffer_change_overwrite(b, false);
	write_many(b, 3 * PER_PAGE);
	expect_balance(t, b, cpu, 2 * PER_PAGE);
	KUNIT_EXPECT_EQ(t, ring_buffer_dropped_events_cpu(b, cpu), PER_PAGE);
	ring_buffer_free(b);
}

/* ---- an interrupt writing inside a task's open reservation ------------- */

struct nest {
	struct trace_buffer *b;
	volatile bool done;
};

static void nested_write(void *arg)
{
	struct nest *n = arg;

	write_event(n->b, 1, 0);
	n->done = true;
}

/*
 * Reserve, then take an IPI sent to this very CPU before filling and
 * committing: the interrupt's event lands after the open one, and both
 * are whole once the outer commit is done.
 */
static void rb_test_irq_inside_reserve(struct kunit *t)
{
	struct nest n = { test_buffer(2), false };
	struct ring_buffer_event *e;
	struct cpu *c;
	u64 ts1 = 0, ts2 = 0;
	u32 *d;

	if (!n.b)
		KUNIT_SKIP(t, "no memory");
	preempt_disable();
	c = this_cpu();
	e = ring_buffer_lock_reserve(n.b, EVENT_DATA);
	c->ipi_func = nested_write;
	c->ipi_data = &n;
	smp_send_ipi(c->id, IPI_CALL_FUNC);
	while (!n.done)
		;
	KUNIT_EXPECT_TRUE(t, ring_buffer_empty_cpu(n.b, c->id));
	d = ring_buffer_event_data(e);
	d[0] = 0, d[1] = 7, d[2] = ~7U;
	ring_buffer_unlock_commit(n.b);
	preempt_enable();
	e = ring_buffer_consume(n.b, c->id, &ts1, NULL);
	KUNIT_EXPECT_EQ(t, e ? ((u32 *)ring_buffer_event_data(e))[1] : 0, 7);
	e = ring_buffer_consume(n.b, c->id, &ts2, NULL);
	KUNIT_EXPECT_EQ(t, e ? ((u32 *)ring_buffer_event_data(e))[0] : 0, 1);
	KUNIT_EXPECT_TRUE(t, ts1 <= ts2);
	ring_buffer_free(n.b);
}

#define STORM_EVENTS	20000

struct storm {
	struct trace_buffer *b;
	int cpu;
	volatile bool writing;
	u32 irq_events;
};

static void storm_irq_write(void *arg)
{
	struct storm *s = arg;

	if (write_event(s->b, 1, s->irq_events))
		s->irq_events++;
}

static void storm_writer(void *arg)
{
	struct storm *s = arg;
	u32 i;

	s->cpu = my_cpu();
	s->writing = true;
	for (i = 0; i < STORM_EVENTS; i++)
		write_event(s->b, 0, i);
	s->writing = false;
}

static void storm_sender(void *arg)
{
	struct storm *s = arg;

	while (!s->writing)
		yield();
	while (s->writing)
		smp_call_function_single(s->cpu, storm_irq_write, s);
}

/* Each writer's events come back in its order, times never go back. */
static void check_storm(struct kunit *t, struct storm *s)
{
	struct ring_buffer_event *e;
	u32 next[2] = { 0, 0 }, *d;
	u64 ts, last = 0;
	bool ok = true;

	while ((e = ring_buffer_consume(s->b, s->cpu, &ts, NULL))) {
		d = ring_buffer_event_data(e);
		ok &= d[0] < 2 && d[1] == next[d[0] & 1] && d[2] == ~d[1] &&
		      ts >= last;
		next[d[0] & 1]++;
		last = ts;
	}
	KUNIT_EXPECT_TRUE(t, ok);
	KUNIT_EXPECT_EQ(t, next[0], STORM_EVENTS);
	KUNIT_EXPECT_EQ(t, next[1], s->irq_events);
	KUNIT_EXPECT_TRUE(t, s->irq_events > 0);
}

/* A task writes on CPU 1 while CPU 0 keeps interrupting it to write. */
static void rb_test_irq_storm(struct kunit *t)
{
	struct storm s = { test_buffer(512), -1, false, 0 };
	struct task *w, *snd;

	if (nr_cpus < 2)
		KUNIT_SKIP(t, "needs 2 CPUs");
	if (!s.b)
		KUNIT_SKIP(t, "no memory");
	ring_buffer_set_clock(s.b, rdtime);
	w = kthread_create_on_cpu(storm_writer, &s, "rb_writer", 1);
	snd = kthread_create_on_cpu(storm_sender, &s, "rb_irq", 0);
	if (!w || !snd)
		KUNIT_SKIP(t, "no threads");
	kthread_start(snd);
	kthread_start(w);
	kthread_wait(w);
	kthread_wait(snd);
	check_storm(t, &s);
	KUNIT_EXPECT_EQ(t, ring_buffer_overrun_cpu(s.b, s.cpu), 0);
	expect_balance(t, s.b, s.cpu, STORM_EVENTS + s.irq_events);
	ring_buffer_free(s.b);
}

SELFTEST_SUITE(ring_buffer,
	       KUNIT_CASE(rb_test_order_and_time),
	       KUNIT_CASE(rb_test_overwrite_counts),
	       KUNIT_CASE(rb_test_no_overwrite_drops),
	       KUNIT_CASE(rb_test_time_extend),
	       KUNIT_CASE(rb_test_iterator),
	       KUNIT_CASE(rb_test_resize),
	       KUNIT_CASE(rb_test_written_balance),
	       KUNIT_CASE(rb_test_irq_inside_reserve),
	       KUNIT_CASE(rb_test_irq_storm));
