/*
 * cmd_bench.c: the `bench` shell command, what `make bench` runs under
 * `qemu -icount shift=0,sleep=off`, where rdinstret counts executed
 * guest instructions. A per-call cost is the median over 20 batches of 1000
 * calls of bench_target() (interrupts off, so nothing else is counted)
 * less the same loop with tracing off. Tracers are switched through
 * tracefs exactly as a user's `echo` does, so those costs include
 * everything a user's command costs. Prints `bench: KEY VALUE` lines.
 *
 * The switches are measured in both patch modes (trace/ftrace_live.c)
 * too, with the longest stop_machine round of each: on more than one
 * hart, that is how long every other hart was kept from its own work.
 * Live mode stops no hart. Under -icount rdinstret counts every hart's
 * instructions, so these figures are the whole machine's.
 *
 * Tracepoints: one disabled (its c.nop), one with an empty probe, and
 * the sched_switch event's cost per switch; and a latency tracer's
 * hook in local_irq_* while none runs (its c.nop).
 */
#include "kernel.h"
#include "string.h"
#include "shell.h"
#include "mm.h"
#include "ftrace.h"
#include "init.h"
#include "kstrtox.h"
#include "printf.h"
#include "trace_fixtures.h"
#include "ring_buffer.h"
#include "patch.h"
#include "stop_machine.h"
#include "sched.h"
#include "smp.h"
#include "time.h"
#include "asm/csr.h"

#define BATCH		1000
#define BATCHES		20
#define TRACING		"/sys/kernel/tracing/"

static u64 one_batch(void)
{
	unsigned long flags = local_irq_save();
	volatile long sink = 0;
	u64 start = rdinstret();
	int i;

	for (i = 0; i < BATCH; i++)
		sink += bench_target(i);
	start = rdinstret() - start;
	local_irq_restore(flags);
	return start;
}

static void sort_u64(u64 *v, int n)
{
	int i, j;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
			u64 t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

/* Instructions for BATCH calls, the median of BATCHES batches. */
static u64 loop_insns(void)
{
	u64 v[BATCHES];
	int i;

	for (i = 0; i < BATCHES; i++)
		v[i] = one_batch();
	sort_u64(v, BATCHES);
	return v[BATCHES / 2];
}

/* Hundredths, printed as a decimal: 4617 -> 46.17. */
static void report(struct shell_out *out, const char *key, u64 centi)
{
	sh_printf(out, "bench: %s %llu.%02llu\n", key, centi / 100,
		  centi % 100);
}

static void report_int(struct shell_out *out, const char *key, u64 v)
{
	sh_printf(out, "bench: %s %llu\n", key, v);
}

/* Per call, above the untraced loop, in hundredths of an instruction. */
static u64 extra_per_call(u64 base)
{
	u64 loop = loop_insns();

	return loop > base ? (loop - base) * 100 / BATCH : 0;
}

static void stub_callback(unsigned long ip, unsigned long parent_ip,
			  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

/* The trampoline alone: an ops with an empty callback on bench_target. */
static void bench_trampoline(struct shell_out *out, u64 base)
{
	struct ftrace_ops ops = { .func = stub_callback, .name = "bench" };

	if (ftrace_set_filter(&ops, "bench_target", 12, 1))
		return;
	register_ftrace_function(&ops);
	report(out, "stub_insns_per_call", extra_per_call(base));
	unregister_ftrace_function(&ops);
	ftrace_free_ops_hashes(&ops);
}

/*
 * The function tracer on bench_target while a second ops, on another
 * function, is registered: bench_target's site still names the
 * tracer's ops alone (its ops literal, asm/ftrace.h).
 */
static void bench_function_2ops(struct shell_out *out, u64 base)
{
	struct ftrace_ops ops = { .func = stub_callback, .name = "bench" };

	if (ftrace_set_filter(&ops, "ftrace_test_target1", 19, 1))
		return;
	if (!register_ftrace_function(&ops)) {
		report(out, "function_2ops_insns_per_call",
		       extra_per_call(base));
		unregister_ftrace_function(&ops);
	}
	ftrace_free_ops_hashes(&ops);
}

/* Instructions that `echo TRACER > current_tracer` takes. */
static u64 switch_insns(const char *tracer)
{
	u64 start = rdinstret();

	if (sh_echo(TRACING "current_tracer", false, tracer))
		return 0;
	return rdinstret() - start;
}

/* One number of per_cpu/cpuN/stats, e.g. field "bytes: ". */
static u64 read_stat(int cpu, const char *field)
{
	char path[64], *stats, *p, *end;
	unsigned long v = 0;

	snprintf(path, sizeof(path), TRACING "per_cpu/cpu%d/stats", cpu);
	stats = sh_read_file(path);
	if (IS_ERR(stats))
		return 0;
	p = strstr(stats, field);
	end = p ? strchr(p, '\n') : NULL;
	if (end) {
		*end = 0;
		kstrtoul(p + strlen(field), 10, &v);
	}
	kfree(stats);
	return v;
}

/* The function tracer with each trace clock, local last (the default). */
static void bench_function_clocks(struct shell_out *out, u64 base)
{
	static const char *const clocks[] = {
		"global", "counter", "instret", "local",
	};
	char key[48];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(clocks); i++) {
		if (sh_echo(TRACING "trace_clock", false, clocks[i]))
			continue;
		snprintf(key, sizeof(key), "function_clock_%s_insns_per_call",
			 clocks[i]);
		report(out, key, extra_per_call(base));
	}
}

static void bench_function(struct shell_out *out, u64 base)
{
	u64 sw, before;

	if (sh_echo(TRACING "set_ftrace_filter", false, "bench_target"))
		return;
	sw = switch_insns("function");
	if (!sw)
		return;
	report_int(out, "switch_one_insns", sw);
	sh_echo(TRACING "trace", false, "");
	before = read_stat(0, "bytes: ");
	report(out, "function_insns_per_call", extra_per_call(base));
	report(out, "bytes_per_function_event",
	       (read_stat(0, "bytes: ") - before) * 100 / (BATCH * BATCHES));
	bench_function_2ops(out, base);
	bench_function_clocks(out, base);
	sh_echo(TRACING "tracing_on", false, "0");
	report(out, "function_off_insns_per_call", extra_per_call(base));
	sh_echo(TRACING "tracing_on", false, "1");
	sh_echo(TRACING "current_tracer", false, "nop");
	if (!sh_echo(TRACING "current_tracer", false, "function_graph")) {
		report(out, "graph_insns_per_call", extra_per_call(base));
		sh_echo(TRACING "current_tracer", false, "nop");
	}
	sh_echo(TRACING "set_ftrace_filter", false, "");
	sh_echo(TRACING "trace", false, "");
}

/*
 * The function profiler on bench_target: fgraph's entry and return
 * around each call, a hit counted at one and the time added at the
 * other.
 */
static void bench_profile(struct shell_out *out, u64 base)
{
	if (sh_echo(TRACING "set_ftrace_filter", false, "bench_target"))
		return;
	if (!sh_echo(TRACING "function_profile_enabled", false, "1")) {
		report(out, "profile_insns_per_call", extra_per_call(base));
		sh_echo(TRACING "function_profile_enabled", false, "0");
	}
	sh_echo(TRACING "set_ftrace_filter", false, "");
}

/*
 * The stack tracer on bench_target: after the first call sets the
 * maximum, each call only measures its depth.
 */
static void bench_stack(struct shell_out *out, u64 base)
{
	if (sh_echo(TRACING "stack_trace_filter", false, "bench_target"))
		return;
	if (!sh_echo("/proc/sys/kernel/stack_tracer_enabled", false, "1")) {
		report(out, "stack_insns_per_call", extra_per_call(base));
		sh_echo("/proc/sys/kernel/stack_tracer_enabled", false, "0");
	}
	sh_echo(TRACING "stack_trace_filter", false, "");
	sh_echo(TRACING "stack_max_size", false, "0");
}

/* ---- tracepoints ------------------------------------------------------- */

/*
 * Instructions between two reads of instret around one trace_bench_tp()
 * (less the read itself), summed over BATCH calls: off, its site's c.nop
 * alone; on, the c.j, the probes' loop and the probe.
 */
static u64 tracepoint_batch(void)
{
	unsigned long flags = local_irq_save();
	u64 sum = 0, start;
	int i;

	for (i = 0; i < BATCH; i++) {
		start = rdinstret();
		trace_bench_tp(i);
		sum += rdinstret() - start - 1;
	}
	local_irq_restore(flags);
	return sum;
}

static u64 tracepoint_insns(void)
{
	u64 v[BATCHES];
	int i;

	for (i = 0; i < BATCHES; i++)
		v[i] = tracepoint_batch();
	sort_u64(v, BATCHES);
	return v[BATCHES / 2] * 100 / BATCH;
}

/*
 * A latency tracer's hook while none runs: a local_irq_save and
 * local_irq_restore pair less its raw_ twin, per hook (the c.nop of a
 * static key each, include/irqflags.h). Interrupts are on at the save,
 * as where the hook would fire.
 */
static u64 irqsoff_hook_batch(bool hooked)
{
	unsigned long flags;
	u64 sum = 0, start;
	int i;

	for (i = 0; i < BATCH; i++) {
		start = rdinstret();
		if (hooked) {
			flags = local_irq_save();
			local_irq_restore(flags);
		} else {
			flags = raw_local_irq_save();
			raw_local_irq_restore(flags);
		}
		sum += rdinstret() - start;
	}
	return sum;
}

static u64 irqsoff_hook_off_insns(void)
{
	u64 v[BATCHES], hooked, raw;
	int i;

	for (i = 0; i < BATCHES; i++)
		v[i] = irqsoff_hook_batch(true);
	sort_u64(v, BATCHES);
	hooked = v[BATCHES / 2];
	for (i = 0; i < BATCHES; i++)
		v[i] = irqsoff_hook_batch(false);
	sort_u64(v, BATCHES);
	raw = v[BATCHES / 2];
	return hooked > raw ? (hooked - raw) * 100 / (2 * BATCH) : 0;
}

static void stub_probe(void *data, long a)
{
}

static volatile bool yielder_stop;

static void yielder(void *arg)
{
	while (!yielder_stop)
		yield();
}

/* Per switch, two tasks on this CPU yielding to each other. */
static u64 switch_insns_per_switch(void)
{
	u64 v[BATCHES], start;
	int b, i;

	for (b = 0; b < BATCHES; b++) {
		start = rdinstret();
		for (i = 0; i < BATCH / 2; i++)
			yield();
		v[b] = rdinstret() - start;
	}
	sort_u64(v, BATCHES);
	return v[BATCHES / 2] * 100 / BATCH;
}

/*
 * The sched_switch event turned on as a user does, each switch then
 * writing its 64-byte record: the cost per event is what a switch costs
 * more with it on.
 */
static void bench_sched_switch_event(struct shell_out *out)
{
	struct task *t = kthread_create_on_cpu(yielder, NULL, "bench_yield",
					       smp_processor_id());
	u64 off, on;

	if (!t)
		return;
	yielder_stop = false;
	kthread_start(t);
	off = switch_insns_per_switch();
	if (!sh_echo(TRACING "events/sched/sched_switch/enable", false, "1")) {
		on = switch_insns_per_switch();
		sh_echo(TRACING "events/sched/sched_switch/enable", false, "0");
		report(out, "sched_switch_event_insns",
		       on > off ? on - off : 0);
	}
	yielder_stop = true;
	kthread_wait(t);
	sh_echo(TRACING "trace", false, "");
}

static void bench_tracepoints(struct shell_out *out)
{
	report(out, "tracepoint_off_insns", tracepoint_insns());
	report(out, "irqsoff_hook_off_insns", irqsoff_hook_off_insns());
	if (!register_trace_bench_tp(stub_probe, NULL)) {
		report(out, "tracepoint_probe_insns", tracepoint_insns());
		unregister_trace_bench_tp(stub_probe, NULL);
	}
	bench_sched_switch_event(out);
}

/* nop -> function with no filter: every site at once. */
static void bench_patch_all(struct shell_out *out)
{
	u64 sw = switch_insns("function");

	if (!sw)
		return;
	report(out, "patch_all_insns_per_site", sw * 100 / ftrace_nr_records());
	sh_echo(TRACING "current_tracer", false, "nop");
	sh_echo(TRACING "trace", false, "");
}

/* The middle of BATCHES batches, per call, in hundredths. */
static u64 median_per_call(u64 *v)
{
	sort_u64(v, BATCHES);
	return v[BATCHES / 2] * 100 / BATCH;
}

/*
 * The ring buffer alone, on a buffer of its own: a function event's 12
 * bytes written whole, from memory and from registers, then reserved,
 * filled and committed. Per event, the call and the loop included;
 * each batch starts on an empty buffer.
 */
static void bench_ring_buffer(struct shell_out *out)
{
	struct trace_buffer *buffer = ring_buffer_alloc(8 * PAGE_SIZE, nr_cpus);
	u32 data[3] = { 0, 0, 0 };
	struct ring_buffer_event *event;
	u64 write[BATCHES], write3[BATCHES], reserve[BATCHES], start;
	unsigned long flags;
	int b, i;

	if (!buffer)
		return;
	for (b = 0; b < BATCHES; b++) {
		ring_buffer_reset(buffer);
		flags = local_irq_save();
		start = rdinstret();
		for (i = 0; i < BATCH; i++)
			ring_buffer_write(buffer, sizeof(data), data);
		write[b] = rdinstret() - start;
		ring_buffer_reset(buffer);
		start = rdinstret();
		for (i = 0; i < BATCH; i++)
			ring_buffer_write3(buffer, i, i, i);
		write3[b] = rdinstret() - start;
		ring_buffer_reset(buffer);
		start = rdinstret();
		for (i = 0; i < BATCH; i++) {
			event = ring_buffer_lock_reserve(buffer, sizeof(data));
			memcpy(ring_buffer_event_data(event), data,
			       sizeof(data));
			ring_buffer_unlock_commit(buffer);
		}
		reserve[b] = rdinstret() - start;
		local_irq_restore(flags);
	}
	ring_buffer_free(buffer);
	report(out, "rb_write_insns_per_event", median_per_call(write));
	report(out, "rb_write3_insns_per_event", median_per_call(write3));
	report(out, "rb_reserve_commit_insns_per_event",
	       median_per_call(reserve));
}

/*
 * patch_insn32 storing a site's own instruction back, its page mapped
 * already: what each site change costs once stop_machine is running.
 */
static void bench_patch_insn(struct shell_out *out)
{
	u32 *site = (u32 *)ftrace_location((unsigned long)bench_target);
	u64 v[BATCHES], start;
	unsigned long flags;
	int b, i;

	mutex_lock(&text_mutex);
	for (b = 0; b < BATCHES; b++) {
		flags = local_irq_save();
		start = rdinstret();
		for (i = 0; i < BATCH; i++)
			patch_insn32(site, *site);
		v[b] = rdinstret() - start;
		local_irq_restore(flags);
	}
	patch_unmap();
	mutex_unlock(&text_mutex);
	report(out, "patch_insn32_insns", median_per_call(v));
}

/* One mode's switches: its figures, prefixed with its name. */
static void bench_mode(struct shell_out *out, const char *mode)
{
	unsigned long rounds;
	char key[64];
	u64 sw, stall;

	if (ftrace_set_patch_mode(mode) ||
	    sh_echo(TRACING "set_ftrace_filter", false, "bench_target"))
		return;
	rounds = stop_machine_rounds();
	ftrace_take_longest_stop_insns();
	sw = switch_insns("function");
	snprintf(key, sizeof(key), "%s_switch_one_insns", mode);
	report_int(out, key, sw);
	snprintf(key, sizeof(key), "%s_stop_rounds_per_switch", mode);
	report_int(out, key, stop_machine_rounds() - rounds);
	sh_echo(TRACING "current_tracer", false, "nop");
	sh_echo(TRACING "set_ftrace_filter", false, "");
	sw = switch_insns("function");
	snprintf(key, sizeof(key), "%s_patch_all_insns_per_site", mode);
	report(out, key, sw * 100 / ftrace_nr_records());
	/* On one hart, no other is held. */
	stall = ftrace_take_longest_stop_insns();
	snprintf(key, sizeof(key), "%s_longest_stall_insns", mode);
	report_int(out, key, nr_cpus > 1 ? stall : 0);
	sh_echo(TRACING "current_tracer", false, "nop");
	sh_echo(TRACING "trace", false, "");
}

static void bench_patch_modes(struct shell_out *out)
{
	char saved[16];

	strlcpy(saved, ftrace_patch_mode_name(), sizeof(saved));
	bench_mode(out, "stop_machine");
	bench_mode(out, "live");
	ftrace_set_patch_mode(saved);
}

static volatile bool writers_stop;

static void writer_loop(void *arg)
{
	while (!writers_stop)
		bench_target(0);
}

/* Events the ring buffer took on every CPU: kept plus overwritten. */
static u64 events_written(void)
{
	u64 sum = 0;
	int cpu;

	for_each_online_cpu(cpu)
		sum += read_stat(cpu, "entries: ") + read_stat(cpu, "overrun: ");
	return sum;
}

/* Events per second with n CPUs calling traced functions flat out. */
static u64 events_per_sec(int n)
{
	struct task *t[NR_CPUS];
	u64 t0, t1, before, after;
	int i, started = 0;

	sh_echo(TRACING "trace", false, "");
	writers_stop = false;
	for (i = 0; i < n; i++) {
		t[started] = kthread_create_on_cpu(writer_loop, NULL, "writer", i);
		if (t[started])
			kthread_start(t[started++]);
	}
	before = events_written();
	t0 = rdtime();
	msleep(300);
	after = events_written();
	t1 = rdtime();
	writers_stop = true;
	for (i = 0; i < started; i++)
		kthread_wait(t[i]);
	return (after - before) * timebase_freq / (t1 - t0);
}

/*
 * `bench smp`, without -icount (one host thread per hart): every
 * function traced, 1, 2 and 4 CPUs writing. Per-CPU buffers should
 * let the rate grow with the writers.
 */
static int bench_smp(struct shell_out *out)
{
	char key[32];
	int n;

	if (sh_echo(TRACING "current_tracer", false, "function"))
		return 1;
	for (n = 1; n <= nr_cpus && n <= 4; n *= 2) {
		snprintf(key, sizeof(key), "events_per_sec_smp%d", n);
		report_int(out, key, events_per_sec(n));
	}
	sh_echo(TRACING "current_tracer", false, "nop");
	sh_echo(TRACING "trace", false, "");
	return 0;
}

static int cmd_bench(struct shell_out *out, int argc, char **argv)
{
	u64 base;

	if (argc > 2) {
		sh_err("usage: bench [smp|modes]\n");
		return 1;
	}
	if (argc == 2 && !strcmp(argv[1], "smp"))
		return bench_smp(out);
	if (argc == 2 && !strcmp(argv[1], "modes")) {
		if (ftrace_nr_records())
			bench_patch_modes(out);
		return 0;
	}
	if (argc == 2) {
		sh_err("bench: %s: no such benchmark\n", argv[1]);
		return 1;
	}
	base = loop_insns();
	report_int(out, "sites", ftrace_nr_records());
	report_int(out, "bytes_per_site_record", sizeof(struct dyn_ftrace));
	report_int(out, "boot_insns_to_prompt", boot_instret);
	report_int(out, "kernel_boot_insns",
		   boot_instret - kernel_start_instret);
	if (ftrace_nr_records())
		report(out, "ftrace_init_insns_per_site",
		       ftrace_update_time_insns() * 100 / ftrace_nr_records());
	report(out, "loop_insns_per_call", base * 100 / BATCH);
	if (!ftrace_nr_records())
		return 0;
	bench_ring_buffer(out);
	bench_patch_insn(out);
	bench_trampoline(out, base);
	bench_function(out, base);
	bench_profile(out, base);
	bench_stack(out, base);
	bench_patch_all(out);
	bench_patch_modes(out);
	bench_tracepoints(out);
	return 0;
}
SHELL_COMMAND("bench", cmd_bench,
	      "tracing costs in instructions (under qemu -icount); bench smp: events/s; bench modes: the patch modes' switches");
