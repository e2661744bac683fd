/*
 * ring_buffer_test.c: selftests of the ring buffer (trace/ring_buffer.c):
 * order and time stamps, wrap-around with exact overrun counts, time
 * extends, an interrupt writing while a task's reservation is open
 * (forced, then at random from another CPU), resizing, iterators, and
 * every event written accounted for (held, overrun or read); resizing
 * raced against readers opening and closing, and what tracefs shows
 * for it (EBUSY while `trace` is open).
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "sched.h"
#include "smp.h"
#include "selftest.h"
#include "printk.h"
#include "ring_buffer.h"
#include "printf.h"
#include "vfs.h"
#include "time.h"
#include "trace.h"
#include "asm/csr.h"

#define T		"/sys/kernel/tracing/"
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

/*
 * The events an overrun lost are reported once, with the first event
 * read after it (what trace_pipe prints as "LOST n EVENTS"), and not
 * again: the reader's count catches up with the writer's.
 */
static void rb_test_lost_events_once(struct kunit *t)
{
	struct trace_buffer *b = test_buffer(2);
	unsigned long kept = 1000 % PER_PAGE + PER_PAGE, lost, total = 0;
	u32 reads = 0;
	u64 ts;
	int cpu;

	if (!b)
		KUNIT_SKIP(t, "no memory");
	cpu = write_many(b, 1000);
	KUNIT_EXPECT_TRUE(t, ring_buffer_consume(b, cpu, &ts, &lost) != NULL);
	KUNIT_EXPECT_EQ(t, lost, 1000 - kept);
	while (ring_buffer_consume(b, cpu, &ts, &lost)) {
		total += lost;
		reads++;
	}
	KUNIT_EXPECT_EQ(t, reads, kept - 1);
	KUNIT_EXPECT_EQ(t, total, 0);
	write_many(b, 1);
	KUNIT_EXPECT_TRUE(t, ring_buffer_consume(b, cpu, &ts, &lost) != NULL);
	KUNIT_EXPECT_EQ(t, lost, 0);
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

#define CLOCK_EVENTS	300

/*
 * With the default clock (trace_clock_local, the time CSR) the writers
 * take their fast path: each event's time must lie between the time CSR
 * read before its write and after it. Preemption is off, so no other
 * writer comes between on this CPU.
 */
static void rb_test_default_clock_times(struct kunit *t)
{
	struct trace_buffer *b = ring_buffer_alloc(4 * BUF_PAGE_SIZE,
						   nr_cpus);
	static u64 before[CLOCK_EVENTS], after[CLOCK_EVENTS];
	struct ring_buffer_event *e;
	u32 i, data[3], wrong = 0;
	u64 ts;
	int cpu;

	if (!b)
		KUNIT_SKIP(t, "no memory");
	preempt_disable();
	cpu = smp_processor_id();
	for (i = 0; i < CLOCK_EVENTS; i++) {
		data[0] = i, data[1] = ~i, data[2] = 0;
		before[i] = rdtime();
		ring_buffer_write(b, sizeof(data), data);
		after[i] = rdtime();
	}
	preempt_enable();
	for (i = 0; (e = ring_buffer_consume(b, cpu, &ts, NULL)); i++)
		if (i >= CLOCK_EVENTS || ts < before[i] || ts > after[i])
			wrong++;
	KUNIT_EXPECT_EQ(t, i, CLOCK_EVENTS);
	KUNIT_EXPECT_EQ(t, wrong, 0);
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

/*
 * A reset of a buffer untouched since its last one changes nothing and
 * skips the wait for writers; one read or written since empties it.
 */
static void rb_test_reset_untouched(struct kunit *t)
{
	struct trace_buffer *b = test_buffer(4);
	unsigned long lost;
	u64 ts;
	int cpu;

	if (!b)
		KUNIT_SKIP(t, "no memory");
	ring_buffer_reset(b);
	cpu = write_many(b, 1);
	expect_balance(t, b, cpu, 1);
	KUNIT_EXPECT_TRUE(t, ring_buffer_consume(b, cpu, &ts, &lost) != NULL);
	KUNIT_EXPECT_EQ(t, ring_buffer_read_events_cpu(b, cpu), 1);
	ring_buffer_reset(b);
	expect_balance(t, b, cpu, 0);
	ring_buffer_reset(b);
	write_many(b, PER_PAGE + 1);
	expect_balance(t, b, cpu, PER_PAGE + 1);
	ring_buffer_reset(b);
	expect_balance(t, b, cpu, 0);
	ring_buffer_free(b);
}

/*
 * Resets racing writers: in each round every other CPU writes one event
 * as the reset begins, on a buffer the last round left empty, so the
 * writers start while the reset looks whether it is untouched. Each
 * event is then kept whole or gone, and a second reset, after the
 * writers are done, empties every CPU.
 */
#define RESET_ROUNDS	50

struct reset_race {
	struct trace_buffer *b;
	int round;		/* the round the writers may write in */
	int written;		/* events of this round written */
};

static void reset_race_writer(void *arg)
{
	struct reset_race *r = arg;
	int cpu, round;

	preempt_disable();
	cpu = smp_processor_id();
	preempt_enable();
	for (round = 1; round <= RESET_ROUNDS; round++) {
		while (__atomic_load_n(&r->round, __ATOMIC_ACQUIRE) != round)
			yield();
		write_event(r->b, cpu, round);
		__atomic_add_fetch(&r->written, 1, __ATOMIC_RELEASE);
	}
}

/* CPU cpu holds nothing, or this round's event whole. */
static bool reset_race_kept_ok(struct reset_race *r, int cpu, int round)
{
	struct ring_buffer_event *e;
	u64 ts;
	u32 *d;

	if (!ring_buffer_entries_cpu(r->b, cpu))
		return true;
	e = ring_buffer_peek(r->b, cpu, &ts, NULL);
	if (!e || ring_buffer_entries_cpu(r->b, cpu) != 1)
		return false;
	d = ring_buffer_event_data(e);
	return d[0] == (u32)cpu && d[1] == (u32)round && d[2] == ~d[1];
}

static void rb_test_reset_races_writers(struct kunit *t)
{
	struct reset_race r = { .b = test_buffer(4) };
	struct task *w[NR_CPUS];
	int cpu, n = 0, round, bad = 0;

	if (nr_cpus < 2)
		KUNIT_SKIP(t, "needs 2 CPUs");
	if (!r.b)
		KUNIT_SKIP(t, "no memory");
	for (cpu = 1; cpu < nr_cpus; cpu++) {
		w[n] = kthread_create_on_cpu(reset_race_writer, &r, "rb_reset_w",
					     cpu);
		if (w[n])
			kthread_start(w[n++]);
	}
	for (round = 1; round <= RESET_ROUNDS; round++) {
		__atomic_store_n(&r.written, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&r.round, round, __ATOMIC_RELEASE);
		ring_buffer_reset(r.b);
		while (__atomic_load_n(&r.written, __ATOMIC_ACQUIRE) != n)
			yield();
		for (cpu = 1; cpu < nr_cpus; cpu++)
			bad += !reset_race_kept_ok(&r, cpu, round);
		ring_buffer_reset(r.b);
		for_each_online_cpu(cpu)
			bad += ring_buffer_entries_cpu(r.b, cpu) != 0;
	}
	for (cpu = 0; cpu < n; cpu++)
		kthread_wait(w[cpu]);
	KUNIT_EXPECT_EQ(t, n, nr_cpus - 1);
	KUNIT_EXPECT_EQ(t, bad, 0);
	ring_buffer_free(r.b);
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

/*
 * The sender interrupts from before the first write to after the last,
 * and the writer starts only once an interrupt came: a loaded host may
 * hold CPU 0 back for the writer's whole run, and a sender that waited
 * to see it write would then wait for ever.
 */
struct storm {
	struct trace_buffer *b;
	int cpu;
	volatile bool done;
	volatile u32 irqs;
	u32 irq_events;
};

static void storm_irq_write(void *arg)
{
	struct storm *s = arg;

	s->irqs++;
	if (write_event(s->b, 1, s->irq_events))
		s->irq_events++;
}

static void storm_writer(void *arg)
{
	struct storm *s = arg;
	u32 i;

	while (!s->irqs)
		cpu_relax();
	for (i = 0; i < STORM_EVENTS; i++)
		write_event(s->b, 0, i);
	s->done = true;
}

static void storm_sender(void *arg)
{
	struct storm *s = arg;

	while (!s->done)
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

/*
 * writer runs on CPU 1 while sender, on CPU 0, keeps interrupting it;
 * the sender starts first. False if the threads could not be made.
 */
static bool run_beside_sender(void (*writer)(void *), void (*sender)(void *),
			      void *arg)
{
	struct task *w = kthread_create_on_cpu(writer, arg, "rb_writer", 1);
	struct task *snd = kthread_create_on_cpu(sender, arg, "rb_irq", 0);

	if (!w || !snd)
		return false;
	kthread_start(snd);
	kthread_start(w);
	kthread_wait(w);
	kthread_wait(snd);
	return true;
}

/* A task writes on CPU 1 while CPU 0 keeps interrupting it to write. */
static void rb_test_irq_storm(struct kunit *t)
{
	struct storm s = { .b = test_buffer(512), .cpu = 1 };

	if (nr_cpus < 2)
		KUNIT_SKIP(t, "needs 2 CPUs");
	if (!s.b)
		KUNIT_SKIP(t, "no memory");
	ring_buffer_set_clock(s.b, rdtime);
	if (!run_beside_sender(storm_writer, storm_sender, &s))
		KUNIT_SKIP(t, "no threads");
	check_storm(t, &s);
	KUNIT_EXPECT_EQ(t, ring_buffer_overrun_cpu(s.b, s.cpu), 0);
	expect_balance(t, s.b, s.cpu, STORM_EVENTS + s.irq_events);
	ring_buffer_free(s.b);
}

/*
 * A reader in an interrupt on the writing CPU: the events it consumes
 * must be whole, their data in before the commit made them readable.
 * The task writes with ring_buffer_write (the default clock: its fast
 * path) while CPU 0 keeps interrupting it, from before the first write
 * to after the last, and writes on until PUBLISH_IRQS interrupts came
 * (a loaded host may hold CPU 0 back). An interrupt that arrives while
 * the writer has them masked is taken as it unmasks them. The
 * interrupt is the buffer's only reader, so it needs no reader_lock.
 */
#define PUBLISH_EVENTS	20000
#define PUBLISH_IRQS	50

enum publish_state { PUBLISH_START, PUBLISH_SENDING, PUBLISH_DONE };

struct publish {
	struct trace_buffer *b;
	int cpu;
	volatile enum publish_state state;
	volatile u32 irqs;
	u32 written, last, reads, torn;
};

static void publish_read(struct publish *p)
{
	struct ring_buffer_event *e;
	u32 *d;
	u64 ts;

	while ((e = ring_buffer_consume(p->b, p->cpu, &ts, NULL))) {
		d = ring_buffer_event_data(e);
		if (d[0] <= p->last || d[1] != ~d[0])
			p->torn++;
		p->last = d[0];
		p->reads++;
	}
}

static void publish_irq_read(void *arg)
{
	struct publish *p = arg;

	p->irqs++;
	publish_read(p);
}

static void publish_writer(void *arg)
{
	struct publish *p = arg;
	u32 i, data[3];

	while (p->state != PUBLISH_SENDING)
		yield();
	preempt_disable();
	for (i = 1; i <= PUBLISH_EVENTS || p->irqs < PUBLISH_IRQS; i++) {
		data[0] = i, data[1] = ~i, data[2] = 0;
		ring_buffer_write(p->b, sizeof(data), data);
	}
	preempt_enable();
	p->written = i - 1;
	p->state = PUBLISH_DONE;
}

static void publish_sender(void *arg)
{
	struct publish *p = arg;

	p->state = PUBLISH_SENDING;
	while (p->state == PUBLISH_SENDING)
		smp_call_function_single(p->cpu, publish_irq_read, p);
}

static void rb_test_irq_reads_whole_events(struct kunit *t)
{
	struct publish p = { .cpu = 1, .state = PUBLISH_START };

	if (nr_cpus < 2)
		KUNIT_SKIP(t, "needs 2 CPUs");
	p.b = ring_buffer_alloc(64 * BUF_PAGE_SIZE, nr_cpus);
	if (!p.b)
		KUNIT_SKIP(t, "no memory");
	if (!run_beside_sender(publish_writer, publish_sender, &p))
		KUNIT_SKIP(t, "no threads");
	console_printf("    # %u events, %u read in %u interrupts\n",
		       p.written, p.reads, p.irqs);
	publish_read(&p);
	KUNIT_EXPECT_EQ(t, p.torn, 0);
	KUNIT_EXPECT_EQ(t, p.reads + ring_buffer_overrun_cpu(p.b, p.cpu),
			p.written);
	ring_buffer_free(p.b);
}

/* ---- resizing while readers come and go ------------------------------- */

#define RACE_WORDS	8		/* a 32-byte payload */
#define RACE_LEN	(RACE_WORDS * 4)
#define RACE_EVENT_SIZE	(RACE_LEN + 4)	/* a 4-byte header */
#define RACE_RESIZES	10
#define RACE_TRIES	200
#define RACE_PAUSE_MS	10
#define RACE_MAX_PAGES	8
#define RACE_BATCH	64		/* events per turn of a thread */

/* What the threads saw; the first five must stay 0. */
struct race {
	unsigned long torn;		/* bad length, pattern or order */
	unsigned long resized_under_iter;
	unsigned long bad_counts;	/* stats no ring could hold */
	unsigned long no_iter;
	unsigned long resize_errors;	/* neither 0 nor -EBUSY */
	unsigned long resized, busy, walks;
	struct trace_buffer *b;
	volatile bool stop;
	unsigned long written[NR_CPUS];	/* by the writer on that CPU */
	unsigned long consumed[NR_CPUS], lost[NR_CPUS];
	u32 next[NR_CPUS];		/* the consumer's next sequence */
};

struct race_writer {
	struct race *r;
	int cpu;
};

struct race_reader {
	struct race *r;
	bool all_cpus;		/* `trace`, else each per_cpu/cpuN/trace */
};

static void race_note(unsigned long *counter)
{
	__atomic_add_fetch(counter, 1, __ATOMIC_RELAXED);
}

/* Word i of event seq from cpu: a torn or mixed copy breaks the pattern. */
static u32 race_word(int cpu, u32 seq, int i)
{
	if (i < 2)
		return i ? seq : (u32)cpu;
	return seq * 2654435761U + i;
}

/* A whole event of cpu's writer; its sequence number in *seq. */
static bool race_event_ok(struct ring_buffer_event *e, int cpu, u32 *seq)
{
	u32 *d = ring_buffer_event_data(e);
	int i;

	*seq = d[1];
	if (ring_buffer_event_length(e) != RACE_EVENT_SIZE)
		return false;
	for (i = 0; i < RACE_WORDS; i++)
		if (d[i] != race_word(cpu, *seq, i))
			return false;
	return true;
}

/* Batches of numbered events; the numbers of those that got in. */
static void race_write(void *arg)
{
	struct race_writer *w = arg;
	u32 d[RACE_WORDS], seq = 0;
	int i, n;

	while (!READ_ONCE(w->r->stop)) {
		preempt_disable();
		for (n = 0; n < RACE_BATCH; n++) {
			for (i = 0; i < RACE_WORDS; i++)
				d[i] = race_word(w->cpu, seq, i);
			seq += !ring_buffer_write(w->r->b, RACE_LEN, d);
		}
		preempt_enable();
		msleep(1);
	}
	w->r->written[w->cpu] = seq;
}

/* A batch of cpu's events through an open iterator: whole, in order. */
static void race_read_iter(struct race *r, struct ring_buffer_iter *it,
			   int cpu)
{
	struct ring_buffer_event *e;
	bool first = true;
	u32 seq, last = 0;
	u64 ts;
	int n;

	for (n = 0; n < RACE_BATCH && (e = ring_buffer_iter_peek(it, &ts));
	     n++) {
		if (!race_event_ok(e, cpu, &seq) || (!first && seq <= last))
			race_note(&r->torn);
		first = false;
		last = seq;
		ring_buffer_iter_advance(it);
	}
}

/*
 * Open iterators on CPUs first..last, as opening `trace` (or
 * per_cpu/cpuN/trace) does, read a batch of each and close them: short
 * walks, so that resizes find gaps between them. No ring may change
 * size between the open and the close.
 */
static void race_walk(struct race *r, int first, int last)
{
	struct ring_buffer_iter *it[NR_CPUS];
	unsigned long size[NR_CPUS];
	int cpu;

	for (cpu = first; cpu <= last; cpu++) {
		it[cpu] = ring_buffer_read_prepare(r->b, cpu);
		size[cpu] = ring_buffer_size(r->b, cpu);
		if (!it[cpu])
			race_note(&r->no_iter);
	}
	for (cpu = first; cpu <= last; cpu++)
		if (it[cpu])
			race_read_iter(r, it[cpu], cpu);
	for (cpu = first; cpu <= last; cpu++) {
		if (ring_buffer_size(r->b, cpu) != size[cpu])
			race_note(&r->resized_under_iter);
		if (it[cpu])
			ring_buffer_read_finish(it[cpu]);
	}
	race_note(&r->walks);
}

/*
 * Walk, then stay closed half as long as the walk took: resizes find
 * gaps, and mostly a reader opens while one is under way.
 */
static void race_iterate(void *arg)
{
	struct race_reader *rd = arg;
	u64 start, end;
	int cpu = 0;

	while (!READ_ONCE(rd->r->stop)) {
		start = ktime_get_ns();
		if (rd->all_cpus)
			race_walk(rd->r, 0, nr_cpus - 1);
		else
			race_walk(rd->r, cpu, cpu);
		end = ktime_get_ns();
		while (ktime_get_ns() - end < (end - start) / 2)
			;
		cpu = (cpu + 1) % nr_cpus;
	}
}

/*
 * trace_pipe's way: a batch under the reader lock, in order, gaps
 * lost. Returns how many it read.
 */
static int race_consume_cpu(struct race *r, int cpu)
{
	struct ring_buffer_event *e;
	unsigned long lost;
	u32 seq;
	u64 ts;
	int n;

	ring_buffer_reader_lock(r->b);
	for (n = 0; n < RACE_BATCH &&
	     (e = ring_buffer_consume(r->b, cpu, &ts, &lost)); n++) {
		if (!race_event_ok(e, cpu, &seq) || seq < r->next[cpu])
			race_note(&r->torn);
		r->lost[cpu] += lost;
		r->next[cpu] = seq + 1;
		r->consumed[cpu]++;
	}
	ring_buffer_reader_unlock(r->b);
	return n;
}

/*
 * What per_cpu/cpuN/stats shows meanwhile: no more than the largest
 * ring holds, nothing from the future.
 */
static void race_stats(struct race *r, int cpu)
{
	unsigned long room = RACE_MAX_PAGES * BUF_PAGE_SIZE;

	if (ring_buffer_entries_cpu(r->b, cpu) > room / RACE_EVENT_SIZE ||
	    ring_buffer_bytes_cpu(r->b, cpu) > room ||
	    ring_buffer_oldest_event_ts(r->b, cpu) > rdtime())
		race_note(&r->bad_counts);
}

static void race_consume(void *arg)
{
	struct race *r = arg;
	int cpu;

	while (!READ_ONCE(r->stop)) {
		for (cpu = 0; cpu < nr_cpus; cpu++) {
			race_consume_cpu(r, cpu);
			race_stats(r, cpu);
		}
		msleep(1);
	}
}

/*
 * Every size differs from the last; odd turns resize one CPU. A pause
 * after each try lets the readers come and go, and a resize stops
 * every CPU, so there are few tries.
 */
static void race_resize(void *arg)
{
	struct race *r = arg;
	unsigned long pages;
	int i, cpu, ret;

	for (i = 0; r->resized < RACE_RESIZES && i < RACE_TRIES; i++) {
		pages = 2 + i % (RACE_MAX_PAGES - 1);
		cpu = i % 2 ? (i / 2) % nr_cpus : -1;
		ret = ring_buffer_resize(r->b, pages * BUF_PAGE_SIZE, cpu);
		if (ret && ret != -EBUSY)
			race_note(&r->resize_errors);
		race_note(ret ? &r->busy : &r->resized);
		msleep(RACE_PAUSE_MS);
	}
}

static struct task *race_thread(void (*fn)(void *), void *arg,
				const char *name, int cpu)
{
	struct task *task = kthread_create_on_cpu(fn, arg, name,
						  cpu % nr_cpus);

	if (task)
		kthread_start(task);
	return task;
}

/* Run every thread until the resizer is done; false if one was missing. */
static bool race_run(struct race *r)
{
	struct race_writer w[NR_CPUS];
	struct race_reader rd[2] = { { r, true }, { r, false } };
	struct task *task[NR_CPUS + 4];
	bool all = true;
	int cpu, n = 0, i;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		w[cpu] = (struct race_writer){ r, cpu };
		task[n++] = race_thread(race_write, &w[cpu], "rb_writer", cpu);
	}
	task[n++] = race_thread(race_iterate, &rd[0], "rb_trace", 1);
	task[n++] = race_thread(race_iterate, &rd[1], "rb_trace_cpu", 2);
	task[n++] = race_thread(race_consume, r, "rb_pipe", 3);
	task[n++] = race_thread(race_resize, r, "rb_resize", 0);
	if (task[n - 1])
		kthread_wait(task[n - 1]);
	r->stop = true;
	for (i = 0; i < n; i++) {
		all &= task[i] != NULL;
		if (task[i] && i < n - 1)
			kthread_wait(task[i]);
	}
	return all;
}

/*
 * With the writers and the resizer stopped, the consumer drains each
 * CPU: all it did not read, it was told it lost, and that is the
 * overrun; the writer's count is the buffer's.
 */
static void race_check_accounts(struct kunit *t, struct race *r)
{
	int cpu;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		while (race_consume_cpu(r, cpu))
			;
		KUNIT_EXPECT_EQ(t, ring_buffer_entries_cpu(r->b, cpu), 0);
		KUNIT_EXPECT_EQ(t, ring_buffer_written_cpu(r->b, cpu),
				r->written[cpu]);
		KUNIT_EXPECT_EQ(t, r->consumed[cpu] + r->lost[cpu],
				r->written[cpu]);
		KUNIT_EXPECT_EQ(t, r->lost[cpu],
				ring_buffer_overrun_cpu(r->b, cpu));
		KUNIT_EXPECT_EQ(t, r->consumed[cpu],
				ring_buffer_read_events_cpu(r->b, cpu));
		KUNIT_EXPECT_EQ(t, r->next[cpu], r->written[cpu]);
	}
}

/*
 * Writers on every CPU; a thread opening and walking `trace`, another
 * each per_cpu/cpuN/trace; a consuming reader that also reads the
 * stats; a resizer. Opening an iterator and resizing shut each other
 * out (Linux's resize_disabled), so no iterator sees its ring change
 * size, no event comes out torn and every event is accounted for.
 */
static void rb_test_resize_vs_readers(struct kunit *t)
{
	struct race r = { 0 };
	u64 start = ktime_get_ns();

	if (nr_cpus < 2)
		KUNIT_SKIP(t, "needs 2 CPUs");
	r.b = test_buffer(4);
	if (!r.b)
		KUNIT_SKIP(t, "no memory");
	ring_buffer_set_clock(r.b, rdtime);
	KUNIT_EXPECT_TRUE(t, race_run(&r));
	console_printf("    # %s: %lu resizes, %lu busy, %lu walks, %llu ms\n",
		       t->name, r.resized, r.busy, r.walks,
		       (ktime_get_ns() - start) / 1000000);
	KUNIT_EXPECT_EQ(t, r.torn, 0);
	KUNIT_EXPECT_EQ(t, r.resized_under_iter, 0);
	KUNIT_EXPECT_EQ(t, r.bad_counts, 0);
	KUNIT_EXPECT_EQ(t, r.no_iter, 0);
	KUNIT_EXPECT_EQ(t, r.resize_errors, 0);
	race_check_accounts(t, &r);
	ring_buffer_free(r.b);
}

/* ---- what a user sees: buffer_size_kb while a reader is open ----------- */

static int write_kb(const char *file, unsigned long kb)
{
	char text[24];

	snprintf(text, sizeof(text), "%lu\n", kb);
	return vfs_write_file(file, O_TRUNC, text);
}

/*
 * As in Linux 6.1 (ring_buffer_resize): while per_cpu/cpu0/trace is
 * open, resizing every CPU or cpu0 fails with EBUSY, but cpu0's own
 * size again is no change and succeeds, and cpu1 may be resized.
 * trace_pipe, a consuming reader, holds nothing.
 */
static void rb_test_tracefs_resize_busy(struct kunit *t)
{
	unsigned long kb = ring_buffer_size(global_trace.buffer, 0) >> 10;
	struct file *f;

	if (nr_cpus < 2)
		KUNIT_SKIP(t, "needs 2 CPUs");
	if (vfs_open(NULL, T "per_cpu/cpu0/trace", O_RDONLY, &f))
		KUNIT_SKIP(t, "no memory");
	KUNIT_EXPECT_EQ(t, write_kb(T "buffer_size_kb", kb / 2), -EBUSY);
	KUNIT_EXPECT_EQ(t, write_kb(T "per_cpu/cpu0/buffer_size_kb", kb / 2),
			-EBUSY);
	KUNIT_EXPECT_EQ(t, write_kb(T "per_cpu/cpu0/buffer_size_kb", kb), 0);
	KUNIT_EXPECT_EQ(t, write_kb(T "per_cpu/cpu1/buffer_size_kb", kb / 2),
			0);
	vfs_close(f);
	if (vfs_open(NULL, T "trace_pipe", O_RDONLY, &f))
		KUNIT_SKIP(t, "no memory");
	KUNIT_EXPECT_EQ(t, write_kb(T "buffer_size_kb", kb / 2), 0);
	vfs_close(f);
	KUNIT_EXPECT_EQ(t, write_kb(T "buffer_size_kb", kb), 0);
	KUNIT_EXPECT_EQ(t, ring_buffer_size(global_trace.buffer, 1) >> 10, kb);
}

SELFTEST_SUITE(ring_buffer,
	       KUNIT_CASE(rb_test_order_and_time),
	       KUNIT_CASE(rb_test_overwrite_counts),
	       KUNIT_CASE(rb_test_lost_events_once),
	       KUNIT_CASE(rb_test_no_overwrite_drops),
	       KUNIT_CASE(rb_test_time_extend),
	       KUNIT_CASE(rb_test_default_clock_times),
	       KUNIT_CASE(rb_test_iterator),
	       KUNIT_CASE(rb_test_resize),
	       KUNIT_CASE(rb_test_written_balance),
	       KUNIT_CASE(rb_test_reset_untouched),
	       KUNIT_CASE(rb_test_reset_races_writers),
	       KUNIT_CASE(rb_test_irq_inside_reserve),
	       KUNIT_CASE(rb_test_irq_storm),
	       KUNIT_CASE(rb_test_irq_reads_whole_events),
	       KUNIT_CASE(rb_test_resize_vs_readers),
	       KUNIT_CASE(rb_test_tracefs_resize_busy));
