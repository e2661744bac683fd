/*
 * trace.c: the tracing core, after Linux's kernel/trace/trace.c:
 * global_trace and its ring buffer, the tracer registry
 * (register_tracer, nop as the default), tracing_set_tracer calling a
 * tracer's init and reset, tracing_on, the trace clocks and options.
 */
#include "kernel.h"
#include "selftest.h"
#include "init.h"
#include "string.h"
#include "mm.h"
#include "smp.h"
#include "printk.h"
#include "time.h"
#include "trace_clock.h"
#include "fgraph.h"
#include "trace.h"
#include "trace_events.h"

DEFINE_MUTEX(trace_types_lock);
static struct tracer *trace_types;
unsigned long tracing_thresh;

struct trace_array global_trace = {
	.trace_flags = TRACE_ITER_PRINT_PARENT | TRACE_ITER_PRINTK |
		       TRACE_ITER_ANNOTATE | TRACE_ITER_CONTEXT_INFO |
		       TRACE_ITER_RECORD_CMD | TRACE_ITER_OVERWRITE |
		       TRACE_ITER_IRQ_INFO | TRACE_ITER_MARKERS |
		       TRACE_ITER_HASH_PTR | TRACE_ITER_FUNCTION,
	.func_probes = LIST_HEAD_INIT(global_trace.func_probes),
	.mod_trace = LIST_HEAD_INIT(global_trace.mod_trace),
	.mod_notrace = LIST_HEAD_INIT(global_trace.mod_notrace),
	.err_log = LIST_HEAD_INIT(global_trace.err_log),
	.tracing_cpumask = ~0UL,
	.buffer_percent = 50,
	.max_lock = SPIN_LOCK_UNLOCKED,
};

/* In enum trace_iter_flags order, which is Linux's listing order. */
const char *const trace_options[] = {
	"print-parent", "sym-offset", "sym-addr", "verbose", "raw", "hex",
	"bin", "block", "trace_printk", "annotate", "userstacktrace",
	"sym-userobj", "printk-msg-only", "context-info", "latency-format",
	"record-cmd", "record-tgid", "overwrite", "disable_on_free",
	"irq-info", "markers", "event-fork", "pause-on-trace", "hash-ptr",
	"function-trace", "function-fork", "display-graph", "stacktrace",
};
const unsigned int trace_options_count = ARRAY_SIZE(trace_options);

static const struct trace_clock_def {
	const char *name;
	u64 (*func)(void);
	bool in_ns;			/* else printed as a plain count */
	bool ticks;			/* stored in time CSR ticks */
} trace_clocks[] = {
	[TRACE_CLOCK_LOCAL] = { "local", trace_clock_local_ticks, true, true },
	[TRACE_CLOCK_GLOBAL] = { "global", trace_clock_global, true, true },
	[TRACE_CLOCK_COUNTER] = { "counter", trace_clock_counter, false,
				  false },
	[TRACE_CLOCK_UPTIME] = { "uptime", trace_clock_uptime, false, false },
	[TRACE_CLOCK_PERF] = { "perf", trace_clock_perf, true, true },
	[TRACE_CLOCK_MONO] = { "mono", trace_clock_mono, true, true },
	[TRACE_CLOCK_MONO_RAW] = { "mono_raw", trace_clock_mono_raw, true,
				   true },
	[TRACE_CLOCK_BOOT] = { "boot", trace_clock_boot, true, true },
	[TRACE_CLOCK_TAI] = { "tai", trace_clock_tai, true, true },
	[TRACE_CLOCK_INSTRET] = { "instret", trace_clock_instret, false,
				  false },
};

/* ---- nop ---------------------------------------------------------------- */

static int nop_trace_init(struct trace_array *tr)
{
	return 0;
}

static void nop_trace_reset(struct trace_array *tr)
{
}

/*
 * Linux's nop has two options to test the option files with: setting
 * test_nop_accept works, setting test_nop_refuse fails with EINVAL.
 */
#define TRACE_NOP_OPT_ACCEPT	0x1
#define TRACE_NOP_OPT_REFUSE	0x2

static const struct tracer_opt nop_opts[] = {
	{ "test_nop_accept", TRACE_NOP_OPT_ACCEPT },
	{ "test_nop_refuse", TRACE_NOP_OPT_REFUSE },
	{ NULL, 0 },
};

static struct tracer_flags nop_flags = { 0, nop_opts };

static int nop_set_flag(struct trace_array *tr, u32 old_flags, u32 bit,
			int set)
{
	if (bit == TRACE_NOP_OPT_ACCEPT) {
		printk("<7>nop_test_accept flag set to %d: we accept. "
		       "Now cat trace_options to see the result\n", set);
		return 0;
	}
	printk("<7>nop_test_refuse flag set to %d: we refuse. "
	       "Now cat trace_options to see the result\n", set);
	return -EINVAL;
}

/* The tracer that records nothing: only trace_marker and probes write. */
struct tracer nop_trace = {
	.name = "nop",
	.init = nop_trace_init,
	.reset = nop_trace_reset,
	.flags = &nop_flags,
	.set_flag = nop_set_flag,
	.allow_instances = true,
};
register_tracer_initcall(nop_trace);

/* ---- the registry ------------------------------------------------------ */

static struct tracer *find_tracer(const char *name)
{
	struct tracer *t;

	/*
	 * The first letter first: most names differ there, and a switch
	 * of tracer (bench: switch_one_insns) passes most tracers by.
	 */
	for (t = trace_types; t; t = t->next)
		if (t->name[0] == name[0] && !strcmp(t->name, name))
			return t;
	return NULL;
}

/*
 * available_tracers lists Linux's tracers in Linux 6.1's order (the
 * order of its Makefile and initcalls), whatever order the linker
 * gathered them in; any other comes first.
 */
static const char *const linux_tracer_order[] = {
	"function_graph", "wakeup_dl", "wakeup_rt", "wakeup",
	"preemptirqsoff", "preemptoff", "irqsoff", "function", "nop",
};

static unsigned int tracer_rank(const struct tracer *t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(linux_tracer_order); i++)
		if (!strcmp(t->name, linux_tracer_order[i]))
			return i + 1;
	return 0;
}

int register_tracer(struct tracer *type)
{
	struct tracer **pos;
	unsigned int rank;
	int ret = 0;

	if (!type->name || !type->init)
		return -EINVAL;
	mutex_lock(&trace_types_lock);
	if (find_tracer(type->name)) {
		ret = -EBUSY;
	} else {
		rank = tracer_rank(type);	/* once: it is nine strcmp */
		pos = &trace_types;
		while (*pos && tracer_rank(*pos) <= rank)
			pos = &(*pos)->next;
		type->next = *pos;
		*pos = type;
	}
	mutex_unlock(&trace_types_lock);
	return ret;
}

struct tracer *trace_types_list(void)
{
	return trace_types;
}

/*
 * Stop the old tracer (reset), start the new one (init). If init
 * fails, nop runs instead, as Linux leaves it.
 */
int tracing_set_tracer(struct trace_array *tr, const char *name)
{
	struct tracer *t;
	int ret = 0;

	mutex_lock(&trace_types_lock);
	t = find_tracer(name);
	if (!t || !trace_ok_for_array(t, tr)) {
		ret = -EINVAL;
	} else if (t != tr->current_trace) {
		tr->current_trace->reset(tr);
		tr->current_trace = &nop_trace;
		/* As Linux's tracer_init: a new tracer starts on empty buffers. */
		tracing_reset_online_cpus(tr);
		ret = t->init(tr);
		if (!ret)
			tr->current_trace = t;
	}
	mutex_unlock(&trace_types_lock);
	return ret;
}

/* ---- tracing_on, reset, resize ----------------------------------------- */

void tracer_tracing_on(struct trace_array *tr)
{
	ring_buffer_record_on(tr->buffer);
}

void tracer_tracing_off(struct trace_array *tr)
{
	ring_buffer_record_off(tr->buffer);
}

bool tracer_tracing_is_on(struct trace_array *tr)
{
	return ring_buffer_record_is_on(tr->buffer);
}

/* `echo > trace`: empty every CPU's buffer; the latency clock restarts. */
void tracing_reset_online_cpus(struct trace_array *tr)
{
	ring_buffer_reset(tr->buffer);
	tr->time_start = ring_buffer_time_stamp(tr->buffer);
}

int tracing_resize_ring_buffer(struct trace_array *tr, unsigned long size,
			       int cpu)
{
	int ret;

	mutex_lock(&trace_types_lock);
	ret = ring_buffer_resize(tr->buffer, size, cpu);
	/* The snapshot swaps pages with it: the same size (Linux's too). */
	if (!ret && tr->max_buffer)
		ret = ring_buffer_resize(tr->max_buffer, size, cpu);
	if (!ret && cpu < 0)
		tr->buffer_size = size;
	mutex_unlock(&trace_types_lock);
	return ret;
}

/*
 * pause-on-trace: reading `trace` stops recording until closed. Under
 * max_lock, so that a snapshot (which looks at stop_count under it)
 * never moves the live buffer between the stop and the start.
 */
void tracing_stop_tr(struct trace_array *tr)
{
	unsigned long flags;

	mutex_lock(&trace_types_lock);
	flags = spin_lock_irqsave(&tr->max_lock);
	if (!tr->stop_count++)
		ring_buffer_record_disable(tr->buffer);
	spin_unlock_irqrestore(&tr->max_lock, flags);
	mutex_unlock(&trace_types_lock);
}

void tracing_start_tr(struct trace_array *tr)
{
	unsigned long flags;

	mutex_lock(&trace_types_lock);
	flags = spin_lock_irqsave(&tr->max_lock);
	if (!--tr->stop_count)
		ring_buffer_record_enable(tr->buffer);
	spin_unlock_irqrestore(&tr->max_lock, flags);
	mutex_unlock(&trace_types_lock);
}

int trace_nr_cpus(void)
{
	return ring_buffer_nr_cpus(global_trace.buffer);
}

struct trace_buffer *tracing_global_buffer(void)
{
	return global_trace.buffer;
}

int tracing_tracer_names(const char **names, int max)
{
	struct tracer *t;
	int n = 0;

	for (t = trace_types; t && n < max; t = t->next)
		names[n++] = t->name;
	return n;
}

/* ---- clocks ------------------------------------------------------------- */

/* Linux's order, then this kernel's instret. */
static const enum trace_clock_id clock_order[] = {
	TRACE_CLOCK_LOCAL, TRACE_CLOCK_GLOBAL, TRACE_CLOCK_COUNTER,
	TRACE_CLOCK_UPTIME, TRACE_CLOCK_PERF, TRACE_CLOCK_MONO,
	TRACE_CLOCK_MONO_RAW, TRACE_CLOCK_BOOT, TRACE_CLOCK_TAI,
	TRACE_CLOCK_INSTRET,
};

/* The clock trace_clock lists at pos. */
int trace_clock_at(int pos)
{
	return clock_order[pos];
}

const char *trace_clock_name(int id)
{
	return trace_clocks[id].name;
}

int trace_clock_count(void)
{
	return ARRAY_SIZE(trace_clocks);
}

u64 (*trace_clock_func(int id))(void)
{
	return trace_clocks[id].func;
}

bool trace_clock_in_ns(struct trace_array *tr)
{
	return trace_clocks[tr->clock_id].in_ns;
}

/* A time stamp as printed: ns for the clocks in_ns, else as counted. */
u64 trace_clock_to_ns(struct trace_array *tr, u64 ts)
{
	return trace_clocks[tr->clock_id].ticks ? trace_clock_ticks_to_ns(ts) :
						  ts;
}

/*
 * The array whose trace clock times the graph's calls, so that their
 * durations are in its time stamps' units: the top level's, where
 * function_graph and the profiler run, or a latency tracer's array
 * while it draws a section under display-graph. Under trace_types_lock.
 */
static struct trace_array *graph_clock_array = &global_trace;

void tracing_graph_clock_follow(struct trace_array *tr)
{
	graph_clock_array = tr;
	ftrace_graph_set_clock(trace_clocks[tr->clock_id].func);
}

/*
 * A new clock makes old time stamps meaningless: empty the buffer too.
 * The graph's durations follow the clock of the array they are for.
 */
int tracing_set_clock(struct trace_array *tr, const char *name)
{
	int i;

	for (i = 0; i < trace_clock_count(); i++)
		if (!strcmp(trace_clocks[i].name, name))
			break;
	if (i == trace_clock_count())
		return -EINVAL;
	mutex_lock(&trace_types_lock);
	tr->clock_id = i;
	ring_buffer_set_clock(tr->buffer, trace_clocks[i].func);
	if (tr->max_buffer) {
		ring_buffer_set_clock(tr->max_buffer, trace_clocks[i].func);
		ring_buffer_reset(tr->max_buffer);
	}
	if (tr == graph_clock_array)
		tracing_graph_clock_follow(tr);
	function_trace_update_fast_path(tr);
	tracing_reset_online_cpus(tr);
	mutex_unlock(&trace_types_lock);
	return 0;
}

/* tracing_thresh, written in us (Linux's tracing_thresh_write). */
int tracing_set_thresh(struct trace_array *tr, unsigned long usecs)
{
	int ret = 0;

	mutex_lock(&trace_types_lock);
	tracing_thresh = usecs * NSEC_PER_USEC;
	if (tr->current_trace->update_thresh)
		ret = tr->current_trace->update_thresh(tr);
	mutex_unlock(&trace_types_lock);
	return ret;
}

/* ---- options ------------------------------------------------------------ */

int set_tracer_flag(struct trace_array *tr, unsigned int mask, int enabled)
{
	struct tracer *t;
	int ret;

	mutex_lock(&trace_types_lock);
	t = tr->current_trace;
	ret = t->flag_changed ? t->flag_changed(tr, mask, !!enabled) : 0;
	if (ret) {
		mutex_unlock(&trace_types_lock);
		return ret;
	}
	if (mask == TRACE_ITER_RECORD_TGID && enabled &&
	    trace_alloc_tgid_map()) {
		mutex_unlock(&trace_types_lock);
		return -ENOMEM;
	}
	if (mask == TRACE_ITER_FUNC_FORK &&
	    !!(tr->trace_flags & mask) != !!enabled)
		ftrace_pid_follow_fork(tr, enabled);
	if (mask == TRACE_ITER_EVENT_FORK &&
	    !!(tr->trace_flags & mask) != !!enabled)
		trace_event_follow_fork(tr, enabled);
	if (enabled)
		tr->trace_flags |= mask;
	else
		tr->trace_flags &= ~mask;
	if (mask == TRACE_ITER_OVERWRITE) {
		ring_buffer_change_overwrite(tr->buffer, enabled);
		if (tr->max_buffer)
			ring_buffer_change_overwrite(tr->max_buffer, enabled);
	}
	mutex_unlock(&trace_types_lock);
	return 0;
}

/* A tracer's own option, e.g. function's func_stack_trace. */
int trace_set_tracer_option(struct trace_array *tr, struct tracer *t,
			    const char *name, int set)
{
	const struct tracer_opt *opt;
	int ret;

	if (!t->flags)
		return -EINVAL;
	for (opt = t->flags->opts; opt->name; opt++)
		if (!strcmp(opt->name, name))
			break;
	if (!opt->name)
		return -EINVAL;
	mutex_lock(&trace_types_lock);
	ret = t->set_flag ? t->set_flag(tr, t->flags->val, opt->bit, set) : 0;
	if (!ret)
		t->flags->val = set ? t->flags->val | opt->bit :
				      t->flags->val & ~opt->bit;
	mutex_unlock(&trace_types_lock);
	return ret;
}

/* A write to trace_options: "name" or "noname", a core or tracer option. */
int trace_set_options(struct trace_array *tr, const char *option)
{
	int set = strncmp(option, "no", 2) != 0;
	const char *name = set ? option : option + 2;
	unsigned int i;

	for (i = 0; i < trace_options_count; i++)
		if (!strcmp(trace_options[i], name))
			return set_tracer_flag(tr, 1U << i, set);
	return trace_set_tracer_option(tr, tr->current_trace, name, set);
}

/* ---- boot ---------------------------------------------------------------- */

static void register_builtin_tracers(void)
{
	extern struct tracer *const __start_tracers[], *const __stop_tracers[];
	struct tracer *const *t;

	for (t = __start_tracers; t < __stop_tracers; t++)
		if (register_tracer(*t))
			pr_err("tracing: cannot register %s\n", (*t)->name);
}

/* Once every CPU is online: buffers, tracers, commands, tracefs. */
static void trace_init(void)
{
	int cpu;

	global_trace.buffer = ring_buffer_alloc(TRACE_BUF_SIZE_DEFAULT, nr_cpus);
	if (!global_trace.buffer || ftrace_pid_cache_alloc(&global_trace))
		panic("tracing: no memory for the per-CPU buffers");
	for (cpu = 0; cpu < nr_cpus; cpu++)
		cpus[cpu].trace_buffer =
			ring_buffer_cpu_writer(global_trace.buffer, cpu);
	global_trace.buffer_size = TRACE_BUF_SIZE_DEFAULT;
	global_trace.current_trace = &nop_trace;
	register_builtin_tracers();
	if (register_ftrace_commands() || register_event_probe_commands() ||
	    register_snapshot_cmd())
		pr_err("tracing: cannot register the filter commands\n");
	trace_events_init();
	trace_create_files(vfs_lookup(NULL, "/sys/kernel/tracing"));
	tracing_start_cmdline_record();
	selftest_set_bytes_in_use(mm_bytes_less_ret_stacks);
}
late_initcall(trace_init);
