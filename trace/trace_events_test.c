/*
 * trace_events_test.c: selftests of tracepoints on static keys: every
 * site verified at boot and refused when it does not hold the expected
 * halfword; a probe's registration patching the site to a c.j and back;
 * and no switch lost while the other harts switch tasks and the site
 * changes under them, in both patch modes (stop_machine and live);
 * and trace_printk's bprint event.
 */
#include "kernel.h"
#include "string.h"
#include "printf.h"
#include "selftest.h"
#include "sched.h"
#include "smp.h"
#include "patch.h"
#include "tracepoint.h"
#include "trace_events.h"
#include "trace/events/sched.h"
#include "trace_fixtures.h"
#include "asm/insn.h"

extern const struct jump_entry __start___jump_table[], __stop___jump_table[];

static u16 site(const struct jump_entry *e)
{
	return READ_ONCE(*(const u16 *)e->code);
}

/* Off, every site holds the compiler's c.nop, and c.j reaches. */
static void sites_are_verified(struct kunit *t)
{
	const struct jump_entry *e;
	int n = 0;

	for (e = __start___jump_table; e < __stop___jump_table; e++, n++) {
		if (static_key_enabled(e->key))
			continue;
		KUNIT_EXPECT_EQ(t, site(e), RISCV_INSN_C_NOP);
		KUNIT_EXPECT_EQ(t, arch_jump_label_check(e), 0);
		/* Turning off a site that is off finds no c.j: refused. */
		mutex_lock(&text_mutex);
		KUNIT_EXPECT_EQ(t, arch_jump_label_transform(e, false),
				-EINVAL);
		patch_unmap();
		mutex_unlock(&text_mutex);
		KUNIT_EXPECT_EQ(t, site(e), RISCV_INSN_C_NOP);
	}
	KUNIT_EXPECT_TRUE(t, n >= 16);
}

/* ---- a probe of our own on sched_switch --------------------------------- */

#define NR_WORKERS	(2 * (NR_CPUS - 1))
#define COUNTED_YIELDS	200

struct worker {
	struct task *task;
	int phase;			/* 0 run, 1 count, 2 done, 3 stop */
	bool counting;			/* between first and last */
	u64 first, last;		/* its nr_switches around counting */
	unsigned long seen;		/* switches in the probe saw */
};

static struct worker workers[NR_WORKERS];
static int nr_workers;
static unsigned long probe_calls;

static void count_switch(void *data, bool preempt, struct task *prev,
			 struct task *next)
{
	int i;

	__atomic_fetch_add(&probe_calls, 1, __ATOMIC_RELAXED);
	for (i = 0; i < nr_workers; i++)
		if (workers[i].task == next && READ_ONCE(workers[i].counting))
			workers[i].seen++;
}

static int probe_on(void)
{
	return tracepoint_probe_register(&__tracepoint_sched_switch,
					 (void *)count_switch, NULL);
}

static int probe_off(void)
{
	return tracepoint_probe_unregister(&__tracepoint_sched_switch,
					   (void *)count_switch, NULL);
}

static void key_must_be_off(struct kunit *t)
{
	tracing_selftest_need_defaults(t);
	if (static_key_enabled(&__tracepoint_sched_switch.key))
		KUNIT_SKIP(t, "sched_switch is in use");
}

/* c.nop, then a c.j to the probes' call, then c.nop again. */
static void probe_patches_site(struct kunit *t)
{
	const struct jump_entry *e =
		jump_label_find(&__tracepoint_sched_switch.key, NULL);
	u16 jump = 0;

	key_must_be_off(t);
	KUNIT_EXPECT_TRUE(t, e != NULL);
	if (!e)
		return;
	KUNIT_EXPECT_EQ(t, riscv_insn_c_j(e->code, e->target, &jump), 0);
	KUNIT_EXPECT_EQ(t, site(e), RISCV_INSN_C_NOP);
	probe_calls = 0;
	KUNIT_EXPECT_EQ(t, probe_on(), 0);
	KUNIT_EXPECT_EQ(t, site(e), jump);
	msleep(20);
	KUNIT_EXPECT_TRUE(t, READ_ONCE(probe_calls) > 0);
	KUNIT_EXPECT_EQ(t, probe_off(), 0);
	KUNIT_EXPECT_EQ(t, site(e), RISCV_INSN_C_NOP);
	probe_calls = 0;
	msleep(20);
	KUNIT_EXPECT_EQ(t, READ_ONCE(probe_calls), 0UL);
	KUNIT_EXPECT_EQ(t, probe_off(), -ENOENT);
}

/*
 * Yield while the site changes under it; then count COUNTED_YIELDS
 * yields' switches, reading nr_switches and the flag the probe checks
 * together (preemption off: no switch between the two), and stay
 * runnable until told to stop, so its CPU always has two to switch.
 */
static void worker_fn(void *arg)
{
	struct worker *w = arg;
	int i;

	while (READ_ONCE(w->phase) == 0)
		yield();
	preempt_disable();
	w->first = current->nr_switches;
	WRITE_ONCE(w->counting, true);
	preempt_enable();
	for (i = 0; i < COUNTED_YIELDS; i++)
		yield();
	preempt_disable();
	WRITE_ONCE(w->counting, false);
	w->last = current->nr_switches;
	preempt_enable();
	WRITE_ONCE(w->phase, 2);
	while (READ_ONCE(w->phase) != 3)
		yield();
}

static void start_workers(void)
{
	int cpu, i;

	nr_workers = 0;
	for_each_online_cpu(cpu) {
		if (cpu == smp_processor_id() && nr_cpus > 1)
			continue;
		for (i = 0; i < 2; i++) {
			struct worker *w = &workers[nr_workers];

			*w = (struct worker){ 0 };
			w->task = kthread_create_on_cpu(worker_fn, w, "st_tp",
							cpu);
			if (w->task)
				nr_workers++;
		}
	}
	for (i = 0; i < nr_workers; i++)
		kthread_start(workers[i].task);
}

static void set_phase(int phase)
{
	int i;

	for (i = 0; i < nr_workers; i++)
		WRITE_ONCE(workers[i].phase, phase);
}

/*
 * The site turns on while the workers switch; every switch into a
 * worker while it counts must reach the probe, then the site turns off
 * while they switch on.
 */
static void switches_counted(struct kunit *t)
{
	unsigned long unfenced = READ_ONCE(text_unfenced);
	int i;

	start_workers();
	KUNIT_EXPECT_TRUE(t, nr_workers >= 2);
	msleep(10);
	KUNIT_EXPECT_EQ(t, probe_on(), 0);
	set_phase(1);
	for (i = 0; i < nr_workers; i++)
		while (READ_ONCE(workers[i].phase) != 2)
			msleep(1);
	KUNIT_EXPECT_EQ(t, probe_off(), 0);
	/* Every hart that runs on fetched each change (patch.h's account). */
	KUNIT_EXPECT_EQ(t, READ_ONCE(text_unfenced), unfenced);
	set_phase(3);
	for (i = 0; i < nr_workers; i++) {
		KUNIT_EXPECT_EQ(t, kthread_wait(workers[i].task), 0);
		KUNIT_EXPECT_TRUE(t, workers[i].last > workers[i].first);
		KUNIT_EXPECT_EQ(t, workers[i].seen,
				(unsigned long)(workers[i].last -
						workers[i].first));
	}
}

/* The boot's patch mode, then the other one; the boot's is put back. */
static void no_switch_lost_in_either_mode(struct kunit *t)
{
	const char *boot_mode = ftrace_patch_mode_name();
	const char *other = text_patch_live_mode() ? "stop_machine" : "live";

	key_must_be_off(t);
	switches_counted(t);
	if (!FTRACE_LIVE_PATCHING || ftrace_set_patch_mode(other))
		return;
	switches_counted(t);
	KUNIT_EXPECT_EQ(t, ftrace_set_patch_mode(boot_mode), 0);
}

/* The text of a bprint event, from its format and binary arguments. */
static void bprint_text(struct ring_buffer_event *e, char *text, size_t size)
{
	struct bprint_entry *b = ring_buffer_event_data(e);
	size_t len = ring_buffer_event_length(e) - ((u8 *)b - (u8 *)e);

	bstr_printf(text, size, (const char *)(unsigned long)b->fmt, b->buf,
		    (len - sizeof(*b)) / sizeof(u32));
}

/*
 * trace_printk with a constant format: one bprint event, whose ip
 * names its caller, whose fmt is the format, and whose arguments make
 * the text again.
 */
static void trace_printk_records_bprint(struct kunit *t)
{
	struct ring_buffer_event *e;
	struct bprint_entry *b;
	char text[32] = "", name[64] = "";
	int cpu, found = 0;
	u64 ts;

	tracing_selftest_need_defaults(t);
	tracing_reset_online_cpus(&global_trace);
	ftrace_test_printk(42);
	ring_buffer_reader_lock(global_trace.buffer);
	for (cpu = 0; cpu < trace_nr_cpus(); cpu++)
		while ((e = ring_buffer_consume(global_trace.buffer, cpu, &ts,
						NULL))) {
			b = ring_buffer_event_data(e);
			if (entry_type(&b->ent) != TRACE_BPRINT)
				continue;
			found++;
			snprintf(name, sizeof(name), "%ps",
				 (void *)(unsigned long)b->ip);
			KUNIT_EXPECT_STREQ(t, (const char *)(unsigned long)b->fmt,
					   "a=%ld\n");
			bprint_text(e, text, sizeof(text));
		}
	ring_buffer_reader_unlock(global_trace.buffer);
	KUNIT_EXPECT_EQ(t, found, 1);
	KUNIT_EXPECT_STREQ(t, name, "ftrace_test_printk");
	KUNIT_EXPECT_STREQ(t, text, "a=42\n");
}

SELFTEST_SUITE(events,
	KUNIT_CASE(sites_are_verified),
	KUNIT_CASE(probe_patches_site),
	KUNIT_CASE(no_switch_lost_in_either_mode),
	KUNIT_CASE(trace_printk_records_bprint));
