/*
 * trace_irqsoff_test.c: selftests of the latency tracers' machinery.
 * The hooks in local_irq_* and preempt_* are one c.nop each while no
 * latency tracer runs, a c.j while one does, and c.nops again after;
 * and the max trace's swap (update_max_tr_irqsoff), made by writers on
 * every CPU between and inside their own events while a reader
 * consumes both buffers, tears, loses and duplicates no event and
 * leaves each in its CPU's pages. An instance runs irqsoff into its
 * own maximum, but only while no other array runs a latency tracer.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "sched.h"
#include "smp.h"
#include "patch.h"
#include "selftest.h"
#include "jump_label.h"
#include "trace.h"
#include "time.h"
#include "asm/csr.h"
#include "asm/insn.h"

static u16 site(const struct jump_entry *e)
{
	return READ_ONCE(*(const u16 *)e->code);
}

/* Each site of key holds a c.nop, or its c.j when on; how many. */
static int check_sites(struct kunit *t, struct static_key *key, bool on)
{
	const struct jump_entry *e = NULL;
	u16 jump = 0;
	int n = 0;

	while ((e = jump_label_find(key, e))) {
		n++;
		if (!on) {
			KUNIT_EXPECT_EQ(t, site(e), RISCV_INSN_C_NOP);
			continue;
		}
		KUNIT_EXPECT_EQ(t, riscv_insn_c_j(e->code, e->target, &jump),
				0);
		KUNIT_EXPECT_EQ(t, site(e), jump);
	}
	return n;
}

/*
 * Off, every hook site is the one instruction a c.nop costs; irqsoff
 * turns on the irq hooks alone, preemptirqsoff both; nop turns them off.
 */
static void hooks_are_nops_when_off(struct kunit *t)
{
	tracing_selftest_need_defaults(t);
	KUNIT_EXPECT_TRUE(t, check_sites(t, &trace_irqflags_key, false) >= 16);
	KUNIT_EXPECT_TRUE(t, check_sites(t, &trace_preempt_key, false) >= 16);
	KUNIT_EXPECT_EQ(t, tracing_set_tracer(&global_trace, "irqsoff"), 0);
	check_sites(t, &trace_irqflags_key, true);
	check_sites(t, &trace_preempt_key, false);
	KUNIT_EXPECT_EQ(t, tracing_set_tracer(&global_trace, "preemptirqsoff"),
			0);
	check_sites(t, &trace_irqflags_key, true);
	check_sites(t, &trace_preempt_key, true);
	KUNIT_EXPECT_EQ(t, tracing_set_tracer(&global_trace, "nop"), 0);
	check_sites(t, &trace_irqflags_key, false);
	check_sites(t, &trace_preempt_key, false);
	KUNIT_EXPECT_TRUE(t, global_trace.max_buffer == NULL);
}

/* ---- in an instance ------------------------------------------------------ */

#define SECTION_US	200

static void irqs_off_for(unsigned long us)
{
	unsigned long flags = local_irq_save();
	u64 start = rdtime();

	while (rdtime() - start < (u64)us * timebase_freq / 1000000)
		cpu_relax();
	local_irq_restore(flags);
}

static bool runs(struct trace_array *tr, const char *tracer)
{
	return !strcmp(tr->current_trace->name, tracer);
}

/*
 * EBUSY for an array while another runs a latency tracer, which it
 * keeps; the instance's section counts in its maximum alone.
 */
static void instance_latency_tracer_one_at_a_time(struct kunit *t)
{
	struct trace_array *tr = trace_array_get_by_name("selftest_lat");
	unsigned long top_max;

	tracing_selftest_need_defaults(t);
	if (!tr)
		KUNIT_SKIP(t, "no memory");
	KUNIT_EXPECT_EQ(t, tracing_set_tracer(&global_trace, "irqsoff"), 0);
	KUNIT_EXPECT_EQ(t, tracing_set_tracer(tr, "irqsoff"), -EBUSY);
	KUNIT_EXPECT_EQ(t, tracing_set_tracer(tr, "preemptoff"), -EBUSY);
	KUNIT_EXPECT_TRUE(t, runs(tr, "nop") && runs(&global_trace, "irqsoff"));
	KUNIT_EXPECT_TRUE(t, tr->max_buffer == NULL);
	KUNIT_EXPECT_EQ(t, tracing_set_tracer(&global_trace, "nop"), 0);
	top_max = global_trace.max_latency;
	KUNIT_EXPECT_EQ(t, tracing_set_tracer(tr, "irqsoff"), 0);
	KUNIT_EXPECT_EQ(t, tracing_set_tracer(&global_trace, "preemptoff"),
			-EBUSY);
	WRITE_ONCE(tr->max_latency, 0);
	irqs_off_for(SECTION_US);
	KUNIT_EXPECT_TRUE(t, READ_ONCE(tr->max_latency) >=
			     SECTION_US * NSEC_PER_USEC);
	KUNIT_EXPECT_EQ(t, global_trace.max_latency, top_max);
	KUNIT_EXPECT_EQ(t, tracing_set_tracer(tr, "nop"), 0);
	KUNIT_EXPECT_TRUE(t, tr->max_buffer == NULL);
	trace_array_put(tr);
	KUNIT_EXPECT_EQ(t, trace_array_destroy(tr), 0);
	KUNIT_EXPECT_EQ(t, tracing_set_tracer(&global_trace, "irqsoff"), 0);
	KUNIT_EXPECT_EQ(t, tracing_set_tracer(&global_trace, "nop"), 0);
}

/* ---- the swap under load ------------------------------------------------- */

#define MAX_EVENTS	3000	/* per CPU */
#define MAX_BUF_SIZE	(64 * 1024)

struct max_race {
	struct trace_array tr;
	int writers_done;
	unsigned long written[NR_CPUS];
	unsigned long swaps[NR_CPUS];
	unsigned long inside[NR_CPUS];	/* swaps made inside an event */
	u8 seen[NR_CPUS][MAX_EVENTS];
	bool bad;
};

struct max_writer {
	struct max_race *r;
	int cpu;
};

/* This CPU's pages into the max buffer, as a latency tracer swaps them. */
static int max_swap(struct max_race *r)
{
	struct trace_max_data data = { .cpu = smp_processor_id() };
	unsigned long flags = raw_local_irq_save();
	int ret;

	spin_lock(&r->tr.max_lock);
	ret = update_max_tr_irqsoff(&r->tr, &data);
	spin_unlock(&r->tr.max_lock);
	raw_local_irq_restore(flags);
	return ret;
}

/*
 * Event seq of this CPU, {cpu, seq, ~seq}: whole, or reserved and
 * committed with a swap tried while it is open (which must wait).
 */
static int max_write_one(struct max_race *r, int cpu, u32 seq)
{
	struct ring_buffer_event *e;
	u32 *w;

	if (seq & 1)
		return ring_buffer_write3(r->tr.buffer, cpu, seq, ~seq);
	e = ring_buffer_lock_reserve(r->tr.buffer, 12);
	if (!e)
		return -EBUSY;
	w = ring_buffer_event_data(e);
	w[0] = cpu;
	w[1] = seq;
	if (seq % 16 == 2)	/* -EAGAIN, or -EBUSY under a reader */
		r->inside[cpu] += !max_swap(r);
	w[2] = ~seq;
	ring_buffer_unlock_commit(r->tr.buffer);
	return 0;
}

static void max_write(void *arg)
{
	struct max_writer *w = arg;
	struct max_race *r = w->r;
	u32 seq;

	for (seq = 0; seq < MAX_EVENTS; seq++) {
		preempt_disable();
		if (!max_write_one(r, w->cpu, seq))
			r->written[w->cpu]++;
		if (seq % 8 == 0)
			r->swaps[w->cpu] += !max_swap(r);
		preempt_enable();
		if (seq % 64 == 0)
			yield();
	}
	__atomic_add_fetch(&r->writers_done, 1, __ATOMIC_RELEASE);
}

/* Consume what one buffer holds; a torn or misplaced event is bad. */
static void max_drain(struct max_race *r, struct trace_buffer *b)
{
	struct ring_buffer_event *e;
	unsigned long lost = 0;
	int cpu;
	u64 ts;
	u32 *w;

	ring_buffer_reader_lock(b);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		while ((e = ring_buffer_consume(b, cpu, &ts, &lost))) {
			w = ring_buffer_event_data(e);
			if (w[0] != (u32)cpu || w[1] >= MAX_EVENTS ||
			    w[2] != ~w[1] || r->seen[cpu][w[1]]++)
				r->bad = true;
		}
		r->bad |= lost != 0;
	}
	ring_buffer_reader_unlock(b);
}

static struct max_race *max_race_alloc(void)
{
	struct max_race *r = kzalloc(sizeof(*r));

	if (!r)
		return NULL;
	r->tr.max_lock = (spinlock_t)SPIN_LOCK_UNLOCKED;
	r->tr.buffer = ring_buffer_alloc(MAX_BUF_SIZE, nr_cpus);
	r->tr.buffer_size = MAX_BUF_SIZE;
	if (r->tr.buffer && !tracing_alloc_snapshot_instance(&r->tr)) {
		ring_buffer_change_overwrite(r->tr.buffer, false);
		ring_buffer_change_overwrite(r->tr.max_buffer, false);
		return r;
	}
	if (r->tr.buffer)
		ring_buffer_free(r->tr.buffer);
	kfree(r);
	return NULL;
}

static void max_swap_under_load(struct kunit *t)
{
	struct max_race *r = max_race_alloc();
	struct max_writer w[NR_CPUS];
	struct task *task[NR_CPUS];
	unsigned long found, swaps = 0;
	int cpu, seq;

	if (!r)
		KUNIT_SKIP(t, "no memory");
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		w[cpu] = (struct max_writer){ r, cpu };
		task[cpu] = kthread_create_on_cpu(max_write, &w[cpu],
						  "max_writer", cpu);
		KUNIT_EXPECT_TRUE(t, task[cpu] != NULL);
		if (task[cpu])
			kthread_start(task[cpu]);
	}
	while (__atomic_load_n(&r->writers_done, __ATOMIC_ACQUIRE) < nr_cpus) {
		max_drain(r, r->tr.buffer);
		max_drain(r, r->tr.max_buffer);
		msleep(1);
	}
	for (cpu = 0; cpu < nr_cpus; cpu++)
		if (task[cpu])
			kthread_wait(task[cpu]);
	max_drain(r, r->tr.buffer);
	max_drain(r, r->tr.max_buffer);
	KUNIT_EXPECT_TRUE(t, !r->bad);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		for (found = 0, seq = 0; seq < MAX_EVENTS; seq++)
			found += r->seen[cpu][seq];
		KUNIT_EXPECT_EQ(t, found, r->written[cpu]);
		KUNIT_EXPECT_EQ(t, r->inside[cpu], 0UL);
		swaps += r->swaps[cpu];
	}
	KUNIT_EXPECT_TRUE(t, swaps > 0);
	tracing_free_snapshot(&r->tr);
	ring_buffer_free(r->tr.buffer);
	kfree(r);
}

/* A reader holding either buffer's lock keeps the swap out (-EBUSY). */
static void max_swap_waits_for_readers(struct kunit *t)
{
	struct max_race *r = max_race_alloc();

	if (!r)
		KUNIT_SKIP(t, "no memory");
	ring_buffer_reader_lock(r->tr.max_buffer);
	KUNIT_EXPECT_EQ(t, max_swap(r), -EBUSY);
	ring_buffer_reader_unlock(r->tr.max_buffer);
	ring_buffer_reader_lock(r->tr.buffer);
	KUNIT_EXPECT_EQ(t, max_swap(r), -EBUSY);
	ring_buffer_reader_unlock(r->tr.buffer);
	KUNIT_EXPECT_EQ(t, max_swap(r), 0);
	tracing_free_snapshot(&r->tr);
	ring_buffer_free(r->tr.buffer);
	kfree(r);
}

SELFTEST_SUITE(latency,
	KUNIT_CASE(hooks_are_nops_when_off),
	KUNIT_CASE(instance_latency_tracer_one_at_a_time),
	KUNIT_CASE(max_swap_under_load),
	KUNIT_CASE(max_swap_waits_for_readers));
