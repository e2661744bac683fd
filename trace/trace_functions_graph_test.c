/*
 * trace_functions_graph_test.c: the function_graph tracer on
 * global_trace, in the spirit of Linux's
 * trace_selftest_startup_function_graph, through the real filters,
 * fgraph_ops and ring buffer: ftrace_test_fib(10) makes exactly 177
 * balanced entries and returns, 10 levels deep, whose durations nest,
 * through the trampolines' fast paths as through the C callbacks, which
 * write the same events; max_graph_depth, tracing_thresh,
 * set_graph_notrace and funcgraph-irqs turn away what Linux's do; and
 * only one graph user at a time.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "selftest.h"
#include "fgraph.h"
#include "workloads.h"
#include "trace_fixtures.h"
#include "printk.h"
#include "trace.h"
#include "kallsyms.h"

#define MAX_EVENTS	512

struct graph_ev {
	unsigned int type;
	unsigned long func;
	int depth;
	u64 duration;
	u32 overrun;
};

struct graph_log {
	struct graph_ev ev[MAX_EVENTS];
	int n;
};

static int set_hash(const char *glob, bool graph, bool is_notrace)
{
	struct ftrace_hash *hash = alloc_ftrace_hash(4);

	if (!hash || ftrace_match_records(hash, glob, strlen(glob)) < 0) {
		free_ftrace_hash(hash);
		return -EINVAL;
	}
	if (!graph)
		return ftrace_ops_set_hash(&global_trace.ops, hash, !is_notrace);
	ftrace_graph_set_hash(hash, is_notrace);
	return 0;
}

/* function_graph on: only sites_glob's sites are hooked. */
static int start_graph(const char *sites_glob)
{
	int ret = sites_glob ? set_hash(sites_glob, false, false) : 0;

	if (!ret)
		ret = tracing_set_tracer(&global_trace, "function_graph");
	tracing_reset_online_cpus(&global_trace);
	return ret;
}

/* Everything back to the defaults. */
static void stop_graph(void)
{
	trace_set_options(&global_trace, "funcgraph-irqs");
	tracing_set_tracer(&global_trace, "nop");
	ftrace_free_ops_hashes(&global_trace.ops);
	ftrace_graph_set_hash(NULL, false);
	ftrace_graph_set_hash(NULL, true);
	ftrace_graph_set_max_depth(0);
	tracing_set_thresh(&global_trace, 0);
	tracing_reset_online_cpus(&global_trace);
}

/* fn(arg) with interrupts off: its events, in order, on one CPU. */
static int run_here(long (*fn)(long), long arg)
{
	unsigned long flags = local_irq_save();
	int cpu = smp_processor_id();

	fn(arg);
	local_irq_restore(flags);
	return cpu;
}

/* Consume the graph events of one CPU, in order, into log. */
static void read_events(struct graph_log *log, int cpu)
{
	struct ring_buffer_event *e;
	struct ftrace_graph_ret_entry *r;
	u64 ts;

	log->n = 0;
	ring_buffer_reader_lock(global_trace.buffer);
	while ((e = ring_buffer_consume(global_trace.buffer, cpu, &ts, NULL)) &&
	       log->n < MAX_EVENTS) {
		unsigned int type;

		r = ring_buffer_event_data(e);
		type = entry_type(&r->ent);
		log->ev[log->n++] = (struct graph_ev){
			type, r->func, r->depth,
			type == TRACE_GRAPH_RET ? r->duration : 0,
			type == TRACE_GRAPH_RET ? graph_ret_overrun(r,
				ring_buffer_event_length(e) -
				((u8 *)r - (u8 *)e)) : 0,
		};
	}
	ring_buffer_reader_unlock(global_trace.buffer);
}

static int count(struct graph_log *log, unsigned int type, unsigned long func)
{
	int i, n = 0;

	for (i = 0; i < log->n; i++)
		n += log->ev[i].type == type && log->ev[i].func == func;
	return n;
}

struct nest_check {
	int max_depth;
	bool balanced, durations_nest;
};

/*
 * Walk the events as a call stack: every return closes the entry on
 * top, at the same depth, and lasted longer than its children together.
 */
static struct nest_check check_nesting(struct graph_log *log)
{
	struct nest_check c = { -1, true, true };
	u64 children[FTRACE_RETFUNC_DEPTH + 1] = { 0 };
	unsigned long stack[FTRACE_RETFUNC_DEPTH];
	int i, sp = 0;

	for (i = 0; i < log->n; i++) {
		struct graph_ev *e = &log->ev[i];

		if (e->type == TRACE_GRAPH_ENT) {
			c.balanced &= e->depth == sp &&
				      sp < FTRACE_RETFUNC_DEPTH;
			if (!c.balanced)
				break;
			stack[sp++] = e->func;
			children[sp] = 0;
			c.max_depth = max(c.max_depth, e->depth);
		} else if (e->type == TRACE_GRAPH_RET) {
			c.balanced &= sp > 0 && e->depth == sp - 1 &&
				      stack[sp - 1] == e->func;
			if (!c.balanced)
				break;
			c.durations_nest &= e->duration > children[sp];
			children[--sp] += e->duration;
		}
	}
	c.balanced &= sp == 0;
	return c;
}

static struct graph_log *alloc_log(struct kunit *t)
{
	struct graph_log *log = kzalloc(sizeof(*log));

	KUNIT_EXPECT_TRUE(t, log != NULL);
	return log;
}

static unsigned long fib_site(void)
{
	return ftrace_location((unsigned long)ftrace_test_fib);
}

/*
 * fib(10)'s whole tree and nothing else: 177 calls, 9 deep, balanced,
 * each duration inside its caller's. graph_function: through
 * set_graph_function (the C callbacks), else set_ftrace_filter alone
 * (each entry and return through the trampolines' fast paths).
 */
static void expect_fib_tree(struct kunit *t, bool graph_function)
{
	unsigned long fib_ip = fib_site();
	struct graph_log *log;
	struct nest_check c;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	log = alloc_log(t);
	if (!log)
		return;
	if (graph_function) {
		KUNIT_EXPECT_EQ(t, set_hash("ftrace_test_fib", true, false), 0);
		KUNIT_EXPECT_EQ(t, start_graph(NULL), 0);
	} else {
		KUNIT_EXPECT_EQ(t, start_graph("ftrace_test_fib"), 0);
	}
	read_events(log, run_here(ftrace_test_fib, 10));
	stop_graph();
	c = check_nesting(log);
	KUNIT_EXPECT_EQ(t, log->n, 2 * 177);
	KUNIT_EXPECT_EQ(t, count(log, TRACE_GRAPH_ENT, fib_ip), 177);
	KUNIT_EXPECT_EQ(t, count(log, TRACE_GRAPH_RET, fib_ip), 177);
	KUNIT_EXPECT_TRUE(t, c.balanced);
	KUNIT_EXPECT_EQ(t, c.max_depth, 9);
	KUNIT_EXPECT_TRUE(t, c.durations_nest);
	kfree(log);
}

static void graph_test_fib_177(struct kunit *t)
{
	expect_fib_tree(t, true);
	KUNIT_EXPECT_EQ(t, fgraph_unbalanced_returns(), 0);
}

static void graph_test_fib_177_fast(struct kunit *t)
{
	expect_fib_tree(t, false);
}

/*
 * The entry and return events of each call, made in each context of
 * tracing_selftest_call_in_context: type and context words, func and
 * depth. With set_graph_function, the C callbacks write them.
 */
static void graph_events_in_contexts(struct kunit *t, bool c_way,
				     u32 (*ev)[3])
{
	struct selftest_event got[2 * SELFTEST_CONTEXTS + 1];
	u32 want[SELFTEST_CONTEXTS], type;
	int c, n;

	if (c_way)
		KUNIT_EXPECT_EQ(t, set_hash("ftrace_test_target1", true, false),
				0);
	KUNIT_EXPECT_EQ(t, start_graph("ftrace_test_target1"), 0);
	for (c = 0; c < SELFTEST_CONTEXTS; c++)
		want[c] = tracing_selftest_call_in_context(c,
							   ftrace_test_target1);
	tracer_tracing_off(&global_trace);
	n = tracing_selftest_consume(got, ARRAY_SIZE(got));
	tracer_tracing_on(&global_trace);
	stop_graph();
	KUNIT_EXPECT_EQ(t, n, 2 * SELFTEST_CONTEXTS);
	for (c = 0; c < n && c < 2 * SELFTEST_CONTEXTS; c++) {
		type = c & 1 ? TRACE_GRAPH_RET : TRACE_GRAPH_ENT;
		KUNIT_EXPECT_EQ(t, got[c].word[0] & ~SELFTEST_CTX_VOLATILE,
				(want[c / 2] | type) & ~SELFTEST_CTX_VOLATILE);
		memcpy(ev[c], got[c].word, sizeof(ev[c]));
	}
}

/*
 * The fast paths and the C callbacks write the same events, interrupts
 * on or off, preemption 0 to 2 deep.
 */
static void graph_test_fast_path_same_events(struct kunit *t)
{
	unsigned long site =
		ftrace_location((unsigned long)ftrace_test_target1);
	u32 fast[2 * SELFTEST_CONTEXTS][3] = { { 0 } };
	u32 slow[2 * SELFTEST_CONTEXTS][3] = { { 0 } };
	int c;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	graph_events_in_contexts(t, false, fast);
	graph_events_in_contexts(t, true, slow);
	for (c = 0; c < 2 * SELFTEST_CONTEXTS; c++) {
		KUNIT_EXPECT_EQ(t, fast[c][1], site);
		KUNIT_EXPECT_EQ(t, slow[c][1], site);
		KUNIT_EXPECT_EQ(t, fast[c][2], 0);
		KUNIT_EXPECT_EQ(t, slow[c][2], 0);
	}
}

/* max_graph_depth N: only the calls at depths 0 to N - 1. */
static void graph_test_max_depth(struct kunit *t)
{
	struct graph_log *log;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	log = alloc_log(t);
	if (!log)
		return;
	ftrace_graph_set_max_depth(1);
	KUNIT_EXPECT_EQ(t, start_graph("ftrace_test_fib"), 0);
	read_events(log, run_here(ftrace_test_fib, 10));
	KUNIT_EXPECT_EQ(t, log->n, 2);
	KUNIT_EXPECT_EQ(t, check_nesting(log).max_depth, 0);
	ftrace_graph_set_max_depth(3);
	read_events(log, run_here(ftrace_test_fib, 10));
	KUNIT_EXPECT_EQ(t, log->n, 2 * (1 + 2 + 4));
	KUNIT_EXPECT_EQ(t, check_nesting(log).max_depth, 2);
	stop_graph();
	kfree(log);
}

/*
 * Deeper than the ret_stack (funcgraph-overrun): the calls past it are
 * neither hooked nor recorded, but counted, and every return recorded
 * after them carries the task's count, as Linux's does, until tracing
 * starts over.
 */
static void graph_test_overrun(struct kunit *t)
{
	struct graph_log *log;
	unsigned long before;
	int i, rets = 0, carry = 0;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	log = alloc_log(t);
	if (!log)
		return;
	KUNIT_EXPECT_EQ(t, start_graph("ftrace_test_deep"), 0);
	before = current->trace_overrun;
	read_events(log, run_here(ftrace_test_deep, FTRACE_RETFUNC_DEPTH + 30));
	for (i = 0; i < log->n; i++) {
		if (log->ev[i].type != TRACE_GRAPH_RET)
			continue;
		rets++;
		carry += log->ev[i].overrun == before + 31;
	}
	KUNIT_EXPECT_EQ(t, rets, FTRACE_RETFUNC_DEPTH);
	KUNIT_EXPECT_EQ(t, carry, FTRACE_RETFUNC_DEPTH);
	KUNIT_EXPECT_EQ(t, current->trace_overrun, before + 31);
	stop_graph();
	/* Started again, the count is 0, and returns take the fast way. */
	KUNIT_EXPECT_EQ(t, start_graph("ftrace_test_deep"), 0);
	read_events(log, run_here(ftrace_test_deep, 3));
	KUNIT_EXPECT_EQ(t, current->trace_overrun, 0);
	KUNIT_EXPECT_EQ(t, current->trace_recursion &
			(1UL << TRACE_GRAPH_OVERRUN_BIT), 0);
	stop_graph();
	kfree(log);
}

/* tracing_thresh: returns only, each at least that long (us). */
static void graph_test_thresh(struct kunit *t)
{
	struct graph_log *log;
	int i, slow = 0;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	log = alloc_log(t);
	if (!log)
		return;
	KUNIT_EXPECT_EQ(t, start_graph("ftrace_test_fib"), 0);
	KUNIT_EXPECT_EQ(t, tracing_set_thresh(&global_trace, 1), 0);
	read_events(log, run_here(ftrace_test_fib, 10));
	KUNIT_EXPECT_EQ(t, count(log, TRACE_GRAPH_ENT, fib_site()), 0);
	for (i = 0; i < log->n; i++)
		slow += trace_clock_to_ns(&global_trace, log->ev[i].duration) >=
			1000;
	KUNIT_EXPECT_TRUE(t, log->n > 0);
	KUNIT_EXPECT_EQ(t, slow, log->n);
	KUNIT_EXPECT_TRUE(t, log->ev[log->n - 1].depth == 0);
	KUNIT_EXPECT_EQ(t, tracing_set_thresh(&global_trace, 10000000), 0);
	read_events(log, run_here(ftrace_test_fib, 10));
	KUNIT_EXPECT_EQ(t, log->n, 0);
	stop_graph();
	kfree(log);
}

static long sort_100(long unused)
{
	u32 v[100];

	fill_random(v, 100, 1);
	return sort(v, 100);
}

/* set_graph_notrace: sort's own entry and return, none of sift_down's. */
static void graph_test_notrace(struct kunit *t)
{
	unsigned long sift = ftrace_location(kallsyms_lookup_name("sift_down"));
	struct graph_log *log;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	log = alloc_log(t);
	if (!log)
		return;
	KUNIT_EXPECT_EQ(t, set_hash("sort", true, false), 0);
	KUNIT_EXPECT_EQ(t, set_hash("sift_down", true, true), 0);
	KUNIT_EXPECT_EQ(t, start_graph(NULL), 0);
	read_events(log, run_here(sort_100, 0));
	KUNIT_EXPECT_EQ(t, log->n, 2);
	KUNIT_EXPECT_EQ(t, count(log, TRACE_GRAPH_ENT,
				 ftrace_location((unsigned long)sort)), 1);
	KUNIT_EXPECT_TRUE(t, check_nesting(log).balanced);
	ftrace_graph_set_hash(NULL, true);
	read_events(log, run_here(sort_100, 0));
	KUNIT_EXPECT_TRUE(t, log->n > 2);
	KUNIT_EXPECT_TRUE(t, count(log, TRACE_GRAPH_ENT, sift) > 0);
	KUNIT_EXPECT_TRUE(t, check_nesting(log).balanced);
	/* set_graph_notrace alone still holds. */
	ftrace_graph_set_hash(NULL, false);
	KUNIT_EXPECT_EQ(t, set_hash("sift_down", true, true), 0);
	read_events(log, run_here(sort_100, 0));
	KUNIT_EXPECT_TRUE(t, count(log, TRACE_GRAPH_ENT,
				   ftrace_location((unsigned long)sort)) > 0);
	KUNIT_EXPECT_EQ(t, count(log, TRACE_GRAPH_ENT, sift), 0);
	ftrace_graph_set_hash(NULL, true);
	stop_graph();
	kfree(log);
}

/* Calls made as if in an interrupt handler (the hardirq count up). */
static long fib_in_hardirq(long n)
{
	long r;

	current->preempt_count += HARDIRQ_OFFSET;
	r = ftrace_test_fib(n);
	current->preempt_count -= HARDIRQ_OFFSET;
	return r;
}

/* funcgraph-irqs off: nothing recorded in hardirq context. */
static void graph_test_irqs_option(struct kunit *t)
{
	struct graph_log *log;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	log = alloc_log(t);
	if (!log)
		return;
	KUNIT_EXPECT_EQ(t, start_graph("ftrace_test_fib"), 0);
	read_events(log, run_here(fib_in_hardirq, 3));
	KUNIT_EXPECT_EQ(t, log->n, 2 * 5);
	KUNIT_EXPECT_EQ(t, trace_set_options(&global_trace, "nofuncgraph-irqs"),
			0);
	read_events(log, run_here(fib_in_hardirq, 3));
	KUNIT_EXPECT_EQ(t, log->n, 0);
	read_events(log, run_here(ftrace_test_fib, 3));
	KUNIT_EXPECT_EQ(t, log->n, 2 * 5);
	stop_graph();
	kfree(log);
}

static int other_entry(struct ftrace_graph_ent *trace)
{
	return 0;
}

static void other_return(struct ftrace_graph_ret *trace)
{
}

/* One graph user at a time: function_graph waits for the other. */
static void graph_test_busy(struct kunit *t)
{
	struct fgraph_ops other = { .entryfunc = other_entry,
				    .retfunc = other_return };

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	KUNIT_EXPECT_EQ(t, set_hash("ftrace_test_target1", false, false), 0);
	other.func_hash = &global_trace.ops.local_hash;
	KUNIT_EXPECT_EQ(t, register_ftrace_graph(&other), 0);
	KUNIT_EXPECT_EQ(t, tracing_set_tracer(&global_trace, "function_graph"),
			-EBUSY);
	KUNIT_EXPECT_STREQ(t, global_trace.current_trace->name, "nop");
	unregister_ftrace_graph(&other);
	KUNIT_EXPECT_EQ(t, tracing_set_tracer(&global_trace, "function_graph"),
			0);
	stop_graph();
}

/* Events written on cpu since the reset: kept plus overwritten. */
static unsigned long events_written(int cpu)
{
	return ring_buffer_entries_cpu(global_trace.buffer, cpu) +
	       ring_buffer_overrun_cpu(global_trace.buffer, cpu);
}

/*
 * No interrupt is lost, even one that lands while the busy target's
 * entry or return is being recorded: each interrupt makes do_irq's
 * entry and return, each call of the target two more.
 */
static void graph_test_irqs_not_lost(struct kunit *t)
{
	struct irq_window w;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	ftrace_set_filter(&global_trace.ops, "do_irq", 6, 1);
	ftrace_set_filter(&global_trace.ops, "ftrace_test_target1", 19, 0);
	KUNIT_EXPECT_EQ(t, start_graph(NULL), 0);
	selftest_busy_until_irqs(10, events_written, &w);
	stop_graph();
	console_printf("    # %lu interrupts, %lu do_irq entries and returns\n",
		       w.irqs, w.counted - 2 * w.calls);
	KUNIT_EXPECT_EQ(t, w.counted - 2 * w.calls, 2 * w.irqs);
}

#define COST_LOOPS	1000

/* Instructions per call of a hooked function, the loop included. */
static unsigned long cost_per_call(void)
{
	unsigned long flags = local_irq_save();
	u64 start = rdinstret();
	long i;

	for (i = 0; i < COST_LOOPS; i++)
		ftrace_test_target1(i);
	start = rdinstret() - start;
	local_irq_restore(flags);
	return start / COST_LOOPS;
}

/*
 * The budget for a traced call, entry and return with a one-function
 * filter: 200 instructions through the trampolines' fast paths, 500
 * through -pg's (Linux 6.1: 1527). Exact only under -icount shift=0,
 * where `make test` runs the selftests too.
 */
#ifdef HAVE_FTRACE_FAST_PATH
#define GRAPH_COST	200
#else
#define GRAPH_COST	500
#endif

static void graph_test_cost(struct kunit *t)
{
	unsigned long base, traced;
	u64 a = rdinstret(), b = rdinstret();

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	if (b - a >= 4)
		KUNIT_SKIP(t, "needs qemu -icount shift=0,sleep=off");
	base = cost_per_call();
	KUNIT_EXPECT_EQ(t, start_graph("ftrace_test_target1"), 0);
	traced = cost_per_call();
	stop_graph();
	console_printf("    # cost per call: untraced %lu, traced %lu (+%lu)\n",
		       base, traced, traced - base);
	KUNIT_EXPECT_TRUE(t, traced - base <= GRAPH_COST);
}

SELFTEST_SUITE_INIT(function_graph, tracing_selftest_need_defaults,
	       KUNIT_CASE(graph_test_cost),
	       KUNIT_CASE(graph_test_fib_177),
	       KUNIT_CASE(graph_test_fib_177_fast),
	       KUNIT_CASE(graph_test_fast_path_same_events),
	       KUNIT_CASE(graph_test_max_depth),
	       KUNIT_CASE(graph_test_overrun),
	       KUNIT_CASE(graph_test_thresh),
	       KUNIT_CASE(graph_test_notrace),
	       KUNIT_CASE(graph_test_irqs_option),
	       KUNIT_CASE(graph_test_busy),
	       KUNIT_CASE(graph_test_irqs_not_lost));
