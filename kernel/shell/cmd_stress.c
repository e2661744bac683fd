/*
 * cmd_stress.c: the `stress` shell command, what `make stress` drives
 * (scripts/stress.py).
 *
 *   stress storm N [SEED]  the other CPUs run every workload in a loop
 *                          while this one makes N changes: switches
 *                          tracers, rewrites set_ftrace_filter and
 *                          set_ftrace_notrace, changes other settings
 *                          (stack traces, pids, buffer size, clock),
 *                          sets the filters of three checking ops and
 *                          registers and unregisters them. Each
 *                          checking callback tests its ip
 *                          against its ops' filter and that its ops is
 *                          registered; at the end no site may be left
 *                          patched and no memory held.
 *   stress rendezvous N    N stop_machine rounds, called from each CPU
 *                          in turn; each round's fn must run once, on
 *                          the caller's CPU and data, and no CPU may
 *                          write to the round's data once
 *                          stop_machine returned
 *   stress graph N         graph tracing of every call started and
 *                          stopped N times, each time from the next
 *                          CPU, while every CPU starts and reaps
 *                          threads: no ret_stack may be lost
 *   stress start           every CPU runs every workload in a loop, in
 *                          the background, while the shell stays free
 *                          to read the trace (the soak)
 *   stress stop            stop them; with the writers stopped, each
 *                          CPU's ring buffer must account for every
 *                          event written, and no function return may
 *                          have come back unbalanced
 *
 * Each prints its figures and ends with `stress: ok` or says what
 * failed (exit status 1).
 */
#include "kernel.h"
#include "string.h"
#include "printf.h"
#include "mm.h"
#include "smp.h"
#include "sched.h"
#include "time.h"
#include "stop_machine.h"
#include "kstrtox.h"
#include "shell.h"
#include "selftest.h"
#include "workloads.h"
#include "fgraph.h"
#include "asm/insn.h"
#include "ring_buffer.h"
#include "tracing.h"
#include "vfs.h"

#define T			"/sys/kernel/tracing/"
#define STORM_OPS		3
#define STORM_SEED_DEFAULT	1
#define STORM_MAX		10000000

/* ---- workers: every workload, in a loop, on one CPU each ----------------- */

struct workers {
	struct task *task[NR_CPUS];
	int n;
	bool stop;
	unsigned long runs;		/* workload runs finished */
	u64 started;			/* ns */
};

/* One run of each workload, with its defaults, output to /dev/null. */
static void run_each_workload(struct workers *w, struct shell_out *out)
{
	const struct workload *wl;
	char *argv[2] = { NULL, NULL };
	size_t i;

	for (i = 0; (wl = workload_get(i)) && !READ_ONCE(w->stop); i++) {
		argv[0] = (char *)wl->name;
		wl->main(out, 1, argv);
		__atomic_add_fetch(&w->runs, 1, __ATOMIC_RELAXED);
	}
}

static void worker(void *arg)
{
	struct workers *w = arg;
	struct shell_out out = { NULL, 0 };

	if (vfs_open(NULL, "/dev/null", O_WRONLY, &out.file))
		return;
	while (!READ_ONCE(w->stop))
		run_each_workload(w, &out);
	vfs_close(out.file);
}

/* fn on every online CPU but skip (-1: on all of them). */
static int start_workers(struct workers *w, int skip, void (*fn)(void *))
{
	char name[TASK_COMM_LEN];
	int cpu;

	memset(w, 0, sizeof(*w));
	w->started = ktime_get_ns();
	for_each_online_cpu(cpu) {
		if (cpu == skip)
			continue;
		snprintf(name, sizeof(name), "stress/%d", cpu);
		w->task[w->n] = kthread_create_on_cpu(fn, w, name, cpu);
		if (!w->task[w->n])
			return -ENOMEM;
		kthread_start(w->task[w->n++]);
	}
	return 0;
}

static void stop_workers(struct workers *w)
{
	int i;

	WRITE_ONCE(w->stop, true);
	for (i = 0; i < w->n; i++)
		kthread_wait(w->task[i]);
}

/* Seconds and hundredths since the workers started. */
static void print_elapsed(struct shell_out *out, const char *what,
			  struct workers *w)
{
	u64 cs = (ktime_get_ns() - w->started) / (NSEC_PER_SEC / 100);

	sh_printf(out, "%s: %llu.%02llu s, %d workers, %lu workload runs\n",
		  what, cs / 100, cs % 100, w->n, w->runs);
}

/* ---- storm: the checking ops ---------------------------------------------- */

struct storm_ops {
	struct ftrace_ops ops;
	bool live;			/* from before register to unregister */
	bool filter_changing;		/* live patching: old or new filter */
	unsigned long calls;
	unsigned long outside;		/* ip not in the ops' filter */
	unsigned long after_unregister;
	unsigned long without_regs;	/* SAVE_REGS, but no pt_regs */
};

static void count(unsigned long *counter)
{
	__atomic_add_fetch(counter, 1, __ATOMIC_RELAXED);
}

/*
 * Runs non-preemptible, and unregister waits for it: what it sees must
 * hold. Under stop_machine no filter change can be halfway while it
 * looks; patching live, the list function may have tested the old
 * filter and this the new one (trace/ftrace_live.c), so either holds
 * until the change has returned.
 */
static void storm_callback(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct storm_ops *s = container_of(op, struct storm_ops, ops);

	count(&s->calls);
	if (!READ_ONCE(s->live))
		count(&s->after_unregister);
	if (!ftrace_ops_test(op, ip) && !READ_ONCE(s->filter_changing))
		count(&s->outside);
	if ((op->flags & FTRACE_OPS_FL_SAVE_REGS) && !fregs)
		count(&s->without_regs);
}

/* Plain, one with pt_regs (regs_caller), one the core guards. */
static const unsigned long storm_ops_flags[STORM_OPS] = {
	0, FTRACE_OPS_FL_SAVE_REGS, FTRACE_OPS_FL_RECURSION,
};

/* Globs of what the workers call; "" is every function. */
static const char *const storm_globs[] = {
	"fib", "sort", "sift_down", "crc32_le", "fill_random", "crc32*",
	"*sort*", "pass_turn", "kmalloc", "kfree", "wake_up*", "",
};

/* For set_ftrace_filter and set_ftrace_notrace: several words too. */
static const char *const storm_lines[] = {
	"fib\n", "sort sift_down\n", "crc32_le crc32_fill_pattern\n",
	"*sort* fib\n", "pass_turn ping pong\n", "kmalloc kfree\n",
	"wake_up*\n", "\n",
};

/* Other tracefs writes that change what the tracers do meanwhile. */
static const struct {
	const char *file, *line;
} storm_settings[] = {
	{ T "options/func_stack_trace", "1\n" },
	{ T "options/func_stack_trace", "0\n" },
	{ T "set_ftrace_pid", "1 2 3\n" },
	{ T "set_ftrace_pid", "\n" },
	{ T "buffer_size_kb", "8\n" },
	{ T "buffer_size_kb", "64\n" },
	{ T "tracing_on", "0\n" },
	{ T "tracing_on", "1\n" },
	{ T "trace_clock", "global\n" },
	{ T "trace_clock", "local\n" },
	{ T "trace", "\n" },
};

struct storm {
	struct storm_ops sops[STORM_OPS];
	const char *tracers[8];
	int nr_tracers;
	u32 rnd;
	unsigned long rounds;		/* stop_machine rounds at the start */
	unsigned long buffer_kb;	/* per CPU, at the start */
	unsigned long switches, filter_writes, settings;
	unsigned long registers, unregisters;
	unsigned long errors;		/* operations that failed */
};

static u32 storm_random(struct storm *s)
{
	s->rnd ^= s->rnd << 13;
	s->rnd ^= s->rnd >> 17;
	s->rnd ^= s->rnd << 5;
	return s->rnd;
}

static void storm_init(struct storm *s, u32 seed)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->rnd = seed ? seed : STORM_SEED_DEFAULT;
	for (i = 0; i < STORM_OPS; i++) {
		s->sops[i].ops.func = storm_callback;
		s->sops[i].ops.flags = storm_ops_flags[i];
		s->sops[i].ops.name = "stress";
	}
	s->nr_tracers = tracing_tracer_names(s->tracers,
					     ARRAY_SIZE(s->tracers));
	s->rounds = stop_machine_rounds();
	s->buffer_kb = ring_buffer_size(tracing_global_buffer(), 0) >> 10;
}

static void check(struct storm *s, int ret)
{
	if (ret < 0)
		s->errors++;
}

static void switch_tracer(struct storm *s)
{
	char line[32];

	snprintf(line, sizeof(line), "%s\n",
		 s->tracers[storm_random(s) % s->nr_tracers]);
	check(s, vfs_write_file(T "current_tracer", O_TRUNC, line));
	s->switches++;
}

static void write_filter_file(struct storm *s)
{
	const char *line = storm_lines[storm_random(s) %
				       ARRAY_SIZE(storm_lines)];
	const char *file = storm_random(s) % 4 ? T "set_ftrace_filter" :
						 T "set_ftrace_notrace";

	check(s, vfs_write_file(file, O_TRUNC, line));
	s->filter_writes++;
}

static void change_setting(struct storm *s)
{
	unsigned int i = storm_random(s) % ARRAY_SIZE(storm_settings);

	check(s, vfs_write_file(storm_settings[i].file, O_TRUNC,
				storm_settings[i].line));
	s->settings++;
}

static void set_ops_filter(struct storm *s, struct storm_ops *so)
{
	const char *glob = storm_globs[storm_random(s) %
				       ARRAY_SIZE(storm_globs)];

	WRITE_ONCE(so->filter_changing, ftrace_patch_live());
	if (storm_random(s) % 4 == 0)
		check(s, ftrace_set_notrace(&so->ops, glob, strlen(glob), 1));
	else
		check(s, ftrace_set_filter(&so->ops, glob, strlen(glob), 1));
	WRITE_ONCE(so->filter_changing, false);
	s->filter_writes++;
}

/* live is set before the callback can run and cleared once it cannot. */
static void toggle_ops(struct storm *s, struct storm_ops *so)
{
	if (so->ops.flags & FTRACE_OPS_FL_ENABLED) {
		check(s, unregister_ftrace_function(&so->ops));
		WRITE_ONCE(so->live, false);
		s->unregisters++;
		return;
	}
	WRITE_ONCE(so->live, true);
	check(s, register_ftrace_function(&so->ops));
	if (!(so->ops.flags & FTRACE_OPS_FL_ENABLED))
		WRITE_ONCE(so->live, false);
	s->registers++;
}

static void storm_step(struct storm *s)
{
	struct storm_ops *so = &s->sops[storm_random(s) % STORM_OPS];

	switch (storm_random(s) % 9) {
	case 0:
		switch_tracer(s);
		break;
	case 1:
	case 2:
		write_filter_file(s);
		break;
	case 3:
	case 4:
		set_ops_filter(s, so);
		break;
	case 5:
		change_setting(s);
		break;
	default:
		toggle_ops(s, so);
	}
}

/*
 * Back to nop, no filters, the default settings, the buffer size of
 * the start, no checking ops; their hashes freed.
 */
static void storm_teardown(struct storm *s)
{
	char kb[24];
	int i;

	for (i = 0; i < STORM_OPS; i++) {
		if (s->sops[i].ops.flags & FTRACE_OPS_FL_ENABLED)
			toggle_ops(s, &s->sops[i]);
		ftrace_free_ops_hashes(&s->sops[i].ops);
	}
	check(s, vfs_write_file(T "current_tracer", O_TRUNC, "nop\n"));
	check(s, vfs_write_file(T "set_ftrace_filter", O_TRUNC, "\n"));
	check(s, vfs_write_file(T "set_ftrace_notrace", O_TRUNC, "\n"));
	check(s, vfs_write_file(T "set_ftrace_pid", O_TRUNC, "\n"));
	check(s, vfs_write_file(T "options/func_stack_trace", O_TRUNC, "0\n"));
	check(s, vfs_write_file(T "tracing_on", O_TRUNC, "1\n"));
	check(s, vfs_write_file(T "trace_clock", O_TRUNC, "local\n"));
	snprintf(kb, sizeof(kb), "%lu\n", s->buffer_kb);
	check(s, vfs_write_file(T "buffer_size_kb", O_TRUNC, kb));
}

/* A site that anyone still counts, or that is not a nop. */
static int count_patched(struct dyn_ftrace *rec, void *data)
{
	if (rec->flags & FTRACE_FL_DISABLED)
		return 0;
	if (ftrace_rec_count(rec) || (rec->flags & FTRACE_FL_ENABLED) ||
	    *(volatile u32 *)rec->ip != RISCV_INSN_NOP)
		(*(unsigned long *)data)++;
	return 0;
}

struct storm_totals {
	unsigned long calls, outside, after_unregister, without_regs;
};

static struct storm_totals storm_sum(struct storm *s)
{
	struct storm_totals t = { 0 };
	int i;

	for (i = 0; i < STORM_OPS; i++) {
		t.calls += s->sops[i].calls;
		t.outside += s->sops[i].outside;
		t.after_unregister += s->sops[i].after_unregister;
		t.without_regs += s->sops[i].without_regs;
	}
	return t;
}

static int storm_report(struct shell_out *out, struct storm *s,
			unsigned long patched, long leaked)
{
	struct storm_totals t = storm_sum(s);
	bool ok = !t.outside && !t.after_unregister && !t.without_regs &&
		  !s->errors && !patched && !leaked;

	sh_printf(out, "storm: tracer switches %lu, filter writes %lu, "
		  "other settings %lu, registers %lu, unregisters %lu, "
		  "errors %lu\n", s->switches, s->filter_writes, s->settings,
		  s->registers, s->unregisters, s->errors);
	sh_printf(out, "storm: callbacks %lu, outside a filter %lu, after "
		  "unregister %lu, without regs %lu\n", t.calls, t.outside,
		  t.after_unregister, t.without_regs);
	sh_printf(out, "storm: stop_machine rounds %lu, sites left patched "
		  "%lu, bytes leaked %ld\n", stop_machine_rounds() - s->rounds,
		  patched, leaked);
	sh_printf(out, "stress: %s\n", ok ? "ok" : "FAILED");
	return ok ? 0 : 1;
}

static int stress_storm(struct shell_out *out, unsigned long n, u32 seed)
{
	struct storm *s = kmalloc(sizeof(*s));
	unsigned long i, patched = 0;
	struct workers w;
	size_t before;
	int cpu, ret;

	if (!s)
		return -ENOMEM;
	selftest_prepare();
	before = mm_bytes_less_ret_stacks();
	storm_init(s, seed);
	preempt_disable();
	cpu = smp_processor_id();
	preempt_enable();
	ret = start_workers(&w, nr_cpus > 1 ? cpu : -1, worker);
	for (i = 0; !ret && i < n && !current->sigpending; i++)
		storm_step(s);
	stop_workers(&w);
	storm_teardown(s);
	print_elapsed(out, "storm", &w);
	sh_printf(out, "storm: %lu operations, seed %u\n", i, seed);
	ftrace_for_each_rec(count_patched, &patched);
	if (!ret)
		ret = storm_report(out, s, patched,
				   (long)(mm_bytes_less_ret_stacks() - before));
	kfree(s);
	return ret;
}

/* ---- rendezvous: stop_machine rounds, each CPU calling in turn ---------- */

#define RV_MAGIC	0x72656e64657a766fUL
#define RV_FRAME_WORDS	64
#define RV_HOLD_NS	(10000 * NSEC_PER_USEC)

struct rendezvous {
	unsigned long rounds;		/* per caller */
	unsigned long done;		/* rounds finished */
	unsigned long wrong_call;	/* fn not run once, here, on our data */
	unsigned long frame_hit;	/* a word of a returned frame changed */
};

struct rv_call {
	unsigned long magic;
	int cpu;
	int calls;
};

static int rv_check(void *data)
{
	struct rv_call *c = data;

	if (!c || c->magic != RV_MAGIC || c->cpu != smp_processor_id())
		return -EINVAL;
	c->calls++;
	return 0;
}

/*
 * The pattern is in place. A function of its own, so that a debugger
 * can hold a stopper until the caller gets here
 * (tests/console/test_rendezvous_race.py).
 */
static noinline void rv_hold(void)
{
	u64 end = ktime_get_ns() + RV_HOLD_NS;

	while (ktime_get_ns() < end)
		barrier();
}

/*
 * Lays a pattern where the caller's stop_machine frame was and holds it
 * a while: a CPU that still wrote to that round's data after
 * stop_machine returned would change a word of it.
 */
static noinline unsigned long rv_frame_untouched(void)
{
	volatile unsigned long frame[RV_FRAME_WORDS];
	unsigned long changed = 0;
	int i;

	for (i = 0; i < RV_FRAME_WORDS; i++)
		frame[i] = RV_MAGIC ^ i;
	rv_hold();
	for (i = 0; i < RV_FRAME_WORDS; i++)
		changed += frame[i] != (RV_MAGIC ^ i);
	return changed;
}

/*
 * Pinned to its CPU: the round's fn must run here, on this data. No
 * other round starts meanwhile, so nothing but a stopper of this
 * round can write to the pattern.
 */
static void rv_caller(void *arg)
{
	struct rendezvous *rv = arg;
	unsigned long i;

	for (i = 0; i < rv->rounds && !rv->wrong_call && !rv->frame_hit;
	     i++) {
		struct rv_call c = { RV_MAGIC, smp_processor_id(), 0 };

		if (stop_machine(rv_check, &c) || c.calls != 1)
			rv->wrong_call++;
		if (rv_frame_untouched())
			rv->frame_hit++;
		rv->done++;
	}
}

/*
 * n stop_machine rounds, n / CPUs from each CPU in turn, until one goes
 * wrong. Each caller's stop_machine frame is gone when the round ends,
 * so no stopper may touch the round's data after its last ack.
 */
static int stress_rendezvous(struct shell_out *out, unsigned long n)
{
	struct rendezvous rv = { (n + nr_cpus - 1) / nr_cpus, 0, 0, 0 };
	u64 start = ktime_get_ns(), cs;
	struct task *t;
	bool ok;
	int cpu;

	for_each_online_cpu(cpu) {
		t = kthread_create_on_cpu(rv_caller, &rv, "rendezvous", cpu);
		if (!t)
			return -ENOMEM;
		kthread_start(t);
		kthread_wait(t);
	}
	cs = (ktime_get_ns() - start) / (NSEC_PER_SEC / 100);
	ok = !rv.wrong_call && !rv.frame_hit;
	sh_printf(out, "rendezvous: %llu.%02llu s, %lu rounds from %d CPUs\n",
		  cs / 100, cs % 100, rv.done, nr_cpus);
	sh_printf(out, "rendezvous: fn wrong %lu, returned frame written "
		  "%lu\n", rv.wrong_call, rv.frame_hit);
	sh_printf(out, "stress: %s\n", ok ? "ok" : "FAILED");
	return ok ? 0 : 1;
}

/* ---- graph: graph tracing started and stopped from each CPU in turn ---- */

static int hook_every_call(struct ftrace_graph_ent *trace)
{
	return 1;
}

static void ignore_return(struct ftrace_graph_ret *trace)
{
}

static struct fgraph_ops stress_gops = {
	.entryfunc = hook_every_call,
	.retfunc = ignore_return,
};

static void child(void *arg)
{
}

/* Threads started and reaped as fast as they go, one at a time. */
static void spawner(void *arg)
{
	struct workers *w = arg;
	struct task *t;

	while (!READ_ONCE(w->stop)) {
		t = kthread_create_on_cpu(child, NULL, "stress/child",
					  smp_processor_id());
		if (!t)
			continue;
		kthread_start(t);
		kthread_wait(t);
		__atomic_add_fetch(&w->runs, 1, __ATOMIC_RELAXED);
	}
}

struct graph_toggle {
	bool on;
	unsigned long starts, errors;
};

static void toggle_graph(void *arg)
{
	struct graph_toggle *g = arg;

	if (g->on) {
		unregister_ftrace_graph(&stress_gops);
		g->on = false;
	} else if (register_ftrace_graph(&stress_gops)) {
		g->errors++;
	} else {
		g->on = true;
		g->starts++;
	}
}

/* Each start and each stop from the next CPU, in a thread pinned there. */
static int toggle_on_cpu(struct graph_toggle *g, int cpu)
{
	struct task *t = kthread_create_on_cpu(toggle_graph, g, "stress/graph",
					       cpu);

	if (!t)
		return -ENOMEM;
	kthread_start(t);
	kthread_wait(t);
	return 0;
}

/*
 * Graph tracing on every call, started and stopped n times, each time
 * from another CPU, while every CPU starts and reaps threads: no
 * ret_stack may be lost or counted twice.
 */
static int stress_graph(struct shell_out *out, unsigned long n)
{
	struct graph_toggle g = { false, 0, 0 };
	unsigned long i;
	struct workers w;
	long leaked;
	int ret;

	selftest_prepare();
	leaked = -(long)mm_bytes_less_ret_stacks();
	ret = start_workers(&w, -1, spawner);
	for (i = 0; !ret && i < 2 * n && !current->sigpending; i++)
		ret = toggle_on_cpu(&g, i % nr_cpus);
	if (g.on)
		toggle_graph(&g);
	stop_workers(&w);
	if (ret)
		return ret;
	leaked += mm_bytes_less_ret_stacks();
	sh_printf(out, "graph: %lu starts, errors %lu, %lu threads started "
		  "meanwhile, bytes leaked %ld\n", g.starts, g.errors, w.runs,
		  leaked);
	ret = !g.errors && !leaked;
	sh_printf(out, "stress: %s\n", ret ? "ok" : "FAILED");
	return ret ? 0 : 1;
}

/* ---- the soak -------------------------------------------------------------- */

static struct workers soak;
static bool soaking;

/*
 * With the writers stopped, every event written on a CPU is still in
 * its buffer, was overwritten, or was read by trace_pipe.
 */
static bool check_buffer(struct shell_out *out, int cpu)
{
	struct trace_buffer *b = tracing_global_buffer();
	unsigned long written = ring_buffer_written_cpu(b, cpu);
	unsigned long entries = ring_buffer_entries_cpu(b, cpu);
	unsigned long overrun = ring_buffer_overrun_cpu(b, cpu);
	unsigned long read = ring_buffer_read_events_cpu(b, cpu);
	bool ok = entries + overrun + read == written;

	sh_printf(out, "cpu%d: written %lu, entries %lu + overrun %lu + "
		  "read %lu%s\n", cpu, written, entries, overrun, read,
		  ok ? "" : ": MISMATCH");
	return ok;
}

static int stress_stop(struct shell_out *out)
{
	struct trace_buffer *b = tracing_global_buffer();
	unsigned long unbalanced = fgraph_unbalanced_returns();
	bool ok = true;
	int cpu;

	if (!soaking) {
		sh_err("stress: not started\n");
		return 1;
	}
	stop_workers(&soak);
	soaking = false;
	print_elapsed(out, "soak", &soak);
	ring_buffer_record_disable(b);
	synchronize_sched();
	for (cpu = 0; cpu < trace_nr_cpus(); cpu++)
		ok &= check_buffer(out, cpu);
	ring_buffer_record_enable(b);
	sh_printf(out, "soak: unbalanced returns %lu\n", unbalanced);
	ok &= !unbalanced;
	sh_printf(out, "stress: %s\n", ok ? "ok" : "FAILED");
	return ok ? 0 : 1;
}

static int stress_start(struct shell_out *out)
{
	int ret;

	if (soaking) {
		sh_err("stress: already started\n");
		return 1;
	}
	ret = start_workers(&soak, -1, worker);
	if (ret) {
		stop_workers(&soak);
		return ret;
	}
	soaking = true;
	sh_printf(out, "soak: %d workers started\n", soak.n);
	return 0;
}

/* ---- the command ----------------------------------------------------------- */

static int usage(void)
{
	sh_err("usage: stress storm N [SEED] | stress rendezvous N | "
	       "stress graph N | stress start | stress stop\n");
	return 2;
}

static int storm_args(struct shell_out *out, int argc, char **argv)
{
	unsigned long n, seed = STORM_SEED_DEFAULT;

	if (argc < 3 || argc > 4 || kstrtoul(argv[2], 10, &n) || !n ||
	    n > STORM_MAX || (argc == 4 && kstrtoul(argv[3], 10, &seed)) ||
	    seed > 0xffffffffUL)
		return usage();
	return stress_storm(out, n, seed);
}

/* stress rendezvous N, stress graph N */
static int count_args(struct shell_out *out, int argc, char **argv,
		      int (*run)(struct shell_out *out, unsigned long n))
{
	unsigned long n;

	if (argc != 3 || kstrtoul(argv[2], 10, &n) || !n || n > STORM_MAX)
		return usage();
	return run(out, n);
}

static int cmd_stress(struct shell_out *out, int argc, char **argv)
{
	int ret;

	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "storm"))
		ret = storm_args(out, argc, argv);
	else if (!strcmp(argv[1], "rendezvous"))
		ret = count_args(out, argc, argv, stress_rendezvous);
	else if (!strcmp(argv[1], "graph"))
		ret = count_args(out, argc, argv, stress_graph);
	else if (!strcmp(argv[1], "start") && argc == 2)
		ret = stress_start(out);
	else if (!strcmp(argv[1], "stop") && argc == 2)
		ret = stress_stop(out);
	else
		return usage();
	if (ret < 0)
		sh_err("stress: %s\n", strerror_text(ret));
	return ret ? 1 : 0;
}
SHELL_COMMAND("stress", cmd_stress,
	      "storm N [SEED] | rendezvous N | graph N | start | stop: "
	      "patch storm, races, soak (make stress)");
