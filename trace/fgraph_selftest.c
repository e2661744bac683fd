/*
 * fgraph_selftest.c: the function graph core tested in the spirit of
 * Linux's trace_selftest_startup_function_graph: entries and returns
 * balance for a known call tree, durations nest, a recursion deeper
 * than the ret_stack overruns cleanly, graph and function callbacks
 * share sites, the graph ops' own filter and notrace hashes hold where
 * another ops enabled more sites, callbacks run non-preemptible, a
 * backtrace through hooked frames (tail calls and trampolines too) names
 * the real callers, and a ret_stack goes back once graph tracing stopped
 * and its hooked frames returned. A watchdog stops graph tracing if a
 * test runs away.
 */
#include "kernel.h"
#include "init.h"
#include "string.h"
#include "selftest.h"
#include "ftrace.h"
#include "fgraph.h"
#include "stop_machine.h"
#include "kallsyms.h"
#include "trace_fixtures.h"
#include "printk.h"
#include "mm.h"
#include "asm/csr.h"

#define WATCHDOG_ENTRIES	1000000

static unsigned long want_func;		/* hook only this function */
static unsigned long entries, returns, max_depth, entries_seen;
static bool durations_ok;
static u64 child_sum[FTRACE_RETFUNC_DEPTH + 1];

static int count_entry(struct ftrace_graph_ent *trace)
{
	/* Linux's trace_graph_entry_watchdog: a runaway test stops here. */
	if (++entries_seen > WATCHDOG_ENTRIES) {
		ftrace_graph_stop();
		return 0;
	}
	if (trace->func != want_func)
		return 0;
	entries++;
	if ((unsigned long)trace->depth > max_depth)
		max_depth = trace->depth;
	if (trace->depth <= FTRACE_RETFUNC_DEPTH)
		child_sum[trace->depth + 1] = 0;
	return 1;
}

/* Each call's duration covers the sum of its children's. */
static void count_return(struct ftrace_graph_ret *trace)
{
	u64 d = trace->rettime - trace->calltime;
	int depth = trace->depth;

	returns++;
	if (trace->rettime < trace->calltime ||
	    (depth < FTRACE_RETFUNC_DEPTH && d < child_sum[depth + 1]))
		durations_ok = false;
	if (depth > 0 && depth <= FTRACE_RETFUNC_DEPTH)
		child_sum[depth] += d;
}

static struct fgraph_ops counting_gops = {
	.entryfunc = count_entry,
	.retfunc = count_return,
};

/* Hook func, by its site: -pg's is past the prologue (ftrace_location). */
static void reset_counts(void *func)
{
	want_func = ftrace_location((unsigned long)func);
	entries = returns = max_depth = entries_seen = 0;
	durations_ok = true;
}

static void fib_call_tree(struct kunit *t)
{
	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	reset_counts(ftrace_test_fib);
	KUNIT_EXPECT_EQ(t, register_ftrace_graph(&counting_gops), 0);
	KUNIT_EXPECT_EQ(t, ftrace_test_fib(10), 55);
	unregister_ftrace_graph(&counting_gops);
	KUNIT_EXPECT_EQ(t, entries, 177);
	KUNIT_EXPECT_EQ(t, returns, 177);
	KUNIT_EXPECT_EQ(t, max_depth, 9);
	KUNIT_EXPECT_TRUE(t, durations_ok);
	KUNIT_EXPECT_EQ(t, current->curr_ret_stack, -1);
}

static void one_graph_at_a_time(struct kunit *t)
{
	struct fgraph_ops other = { .entryfunc = count_entry,
				    .retfunc = count_return };

	reset_counts(NULL);
	KUNIT_EXPECT_EQ(t, register_ftrace_graph(&counting_gops), 0);
	KUNIT_EXPECT_EQ(t, register_ftrace_graph(&other), -EBUSY);
	unregister_ftrace_graph(&counting_gops);
}

static long stop_graph(long a)
{
	unregister_ftrace_graph(&counting_gops);
	return a;
}

/*
 * Graph tracing stops under a hooked frame of this task: the frame
 * still returns through return_to_handler, and with it the task gives
 * its ret_stack back (it was kept before, until the task exited).
 */
static void stop_under_hooked_frame(struct kunit *t)
{
	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	reset_counts(ftrace_test_call);
	KUNIT_EXPECT_EQ(t, register_ftrace_graph(&counting_gops), 0);
	KUNIT_EXPECT_EQ(t, ftrace_test_call(stop_graph, 7), 7);
	KUNIT_EXPECT_EQ(t, entries, 1);
	KUNIT_EXPECT_EQ(t, returns, 0);
	KUNIT_EXPECT_TRUE(t, current->ret_stack == NULL);
}

struct cpu_call {
	void (*fn)(void);
};

static void cpu_call_thread(void *arg)
{
	((struct cpu_call *)arg)->fn();
}

/* fn in a thread pinned to cpu, so its stop_machine rounds start there. */
static void run_on_cpu(struct kunit *t, int cpu, void (*fn)(void))
{
	struct cpu_call call = { fn };
	struct task *th = kthread_create_on_cpu(cpu_call_thread, &call,
						"st_on_cpu", cpu);

	KUNIT_EXPECT_TRUE(t, th != NULL);
	if (!th)
		return;
	kthread_start(th);
	kthread_wait(th);
}

static void stop_graph_here(void)
{
	unregister_ftrace_graph(&counting_gops);
}

static int find_stopper0(struct task *t, void *data)
{
	if (!t->stopper || t->cpu != 0)
		return 0;
	*(struct task **)data = t;
	return 1;
}

/* Asleep again, so its next sleep_on started while graph tracing ran. */
static bool wait_asleep(struct task *t)
{
	int ms;

	for (ms = 0; ms < 1000; ms++) {
		if (READ_ONCE(t->state) == TASK_SLEEPING)
			return true;
		msleep(1);
	}
	return false;
}

/*
 * A stop_machine round wakes the stoppers of the other CPUs only. Graph
 * tracing stops from CPU 0 while CPU 0's stopper sleeps in a hooked
 * sleep_on: it keeps its ret_stack until a round from another CPU wakes
 * it. That late kfree is no leak, nor a gain: what a leak check counts
 * must not move with it.
 */
static void kept_ret_stack_is_not_counted(struct kunit *t)
{
	struct task *stopper0 = NULL;
	long before;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	if (nr_cpus < 2)
		KUNIT_SKIP(t, "needs 2 CPUs");
	for_each_task(find_stopper0, &stopper0);
	reset_counts(sleep_on);
	KUNIT_EXPECT_EQ(t, register_ftrace_graph(&counting_gops), 0);
	run_on_cpu(t, 1, synchronize_sched);
	KUNIT_EXPECT_TRUE(t, wait_asleep(stopper0));
	run_on_cpu(t, 0, stop_graph_here);
	KUNIT_EXPECT_TRUE(t, stopper0->ret_stack != NULL);
	KUNIT_EXPECT_EQ(t, stopper0->curr_ret_stack, 0);
	before = mm_bytes_less_ret_stacks();
	run_on_cpu(t, 1, synchronize_sched);
	KUNIT_EXPECT_EQ(t, (long)mm_bytes_less_ret_stacks() - before, 0);
	KUNIT_EXPECT_TRUE(t, stopper0->ret_stack == NULL);
}

/*
 * Deeper than the ret_stack: the excess is not hooked, just counted.
 * Interrupts stay off meanwhile: an interrupt's traced functions push
 * onto the same ret_stack, and while it is full each counts as an
 * overrun too (34 instead of 31, now and then).
 */
static void deep_recursion_overruns(struct kunit *t)
{
	unsigned long flags;
	long depth;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	reset_counts(ftrace_test_deep);
	register_ftrace_graph(&counting_gops);
	flags = local_irq_save();
	depth = ftrace_test_deep(FTRACE_RETFUNC_DEPTH + 30);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(t, depth, FTRACE_RETFUNC_DEPTH + 30);
	unregister_ftrace_graph(&counting_gops);
	KUNIT_EXPECT_EQ(t, entries, returns);
	KUNIT_EXPECT_EQ(t, entries, FTRACE_RETFUNC_DEPTH);
	KUNIT_EXPECT_EQ(t, current->trace_overrun, 31);
	KUNIT_EXPECT_EQ(t, current->curr_ret_stack, -1);
}

static unsigned long function_calls;

static void count_function(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	if (ip == ftrace_location((unsigned long)ftrace_test_fib))
		function_calls++;
}

/* function and function_graph on the same sites: two ops, both served. */
static void graph_with_function(struct kunit *t)
{
	struct ftrace_ops ops = { .func = count_function, .name = "fn" };

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	ftrace_set_filter(&ops, "ftrace_test_fib", 15, 1);
	function_calls = 0;
	reset_counts(ftrace_test_fib);
	register_ftrace_function(&ops);
	register_ftrace_graph(&counting_gops);
	KUNIT_EXPECT_TRUE(t, ftrace_trace_function == ftrace_ops_list_func);
	ftrace_test_fib(6);
	unregister_ftrace_graph(&counting_gops);
	ftrace_test_fib(6);
	unregister_ftrace_function(&ops);
	ftrace_free_ops_hashes(&ops);
	KUNIT_EXPECT_EQ(t, entries, 25);
	KUNIT_EXPECT_EQ(t, returns, 25);
	KUNIT_EXPECT_EQ(t, function_calls, 50);
}

/*
 * Another ops enables sites that the graph ops' own hashes leave out:
 * its entry must still see none of them (Linux's
 * ftrace_graph_entry_test), whether the filter or notrace leaves them out.
 */
static void filter_beside_other_ops(struct kunit *t)
{
	struct ftrace_ops other = { .func = count_function, .name = "other" };
	struct ftrace_ops graph_hashes = { .name = "graph hashes" };
	struct fgraph_ops gops = { .entryfunc = count_entry,
				   .retfunc = count_return };

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	ftrace_set_filter(&other, "ftrace_test_fib", 15, 1);
	ftrace_set_filter(&graph_hashes, "ftrace_test_target1", 19, 1);
	gops.func_hash = graph_hashes.func_hash;
	function_calls = 0;
	reset_counts(ftrace_test_target1);
	register_ftrace_graph(&gops);
	register_ftrace_function(&other);
	ftrace_test_fib(4);
	ftrace_test_target1(1);
	unregister_ftrace_function(&other);
	unregister_ftrace_graph(&gops);
	KUNIT_EXPECT_EQ(t, function_calls, 9);
	KUNIT_EXPECT_EQ(t, entries, 1);
	KUNIT_EXPECT_EQ(t, entries_seen, 1);

	ftrace_set_filter(&graph_hashes, NULL, 0, 1);
	ftrace_set_notrace(&graph_hashes, "ftrace_test_fib", 15, 1);
	reset_counts(ftrace_test_fib);
	register_ftrace_function(&other);
	register_ftrace_graph(&gops);
	ftrace_test_fib(4);
	unregister_ftrace_graph(&gops);
	unregister_ftrace_function(&other);
	ftrace_free_ops_hashes(&graph_hashes);
	ftrace_free_ops_hashes(&other);
	KUNIT_EXPECT_EQ(t, function_calls, 18);
	KUNIT_EXPECT_EQ(t, entries, 0);
}

static unsigned long preemptible_callbacks;

static int entry_in_preemptible(struct ftrace_graph_ent *trace)
{
	if (trace->func != want_func)
		return 0;
	entries++;
	preemptible_callbacks += !current->preempt_count;
	return 1;
}

static void return_in_preemptible(struct ftrace_graph_ret *trace)
{
	returns++;
	preemptible_callbacks += !current->preempt_count;
}

/* include/ftrace.h: every callback runs non-preemptible, returns too. */
static void callbacks_not_preemptible(struct kunit *t)
{
	struct fgraph_ops gops = { .entryfunc = entry_in_preemptible,
				   .retfunc = return_in_preemptible };

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	reset_counts(ftrace_test_fib);
	preemptible_callbacks = 0;
	KUNIT_EXPECT_EQ(t, current->preempt_count, 0);
	register_ftrace_graph(&gops);
	ftrace_test_fib(4);
	unregister_ftrace_graph(&gops);
	KUNIT_EXPECT_EQ(t, entries, 9);
	KUNIT_EXPECT_EQ(t, returns, 9);
	KUNIT_EXPECT_EQ(t, preemptible_callbacks, 0);
}

static bool trace_has(const unsigned long *ras, int n, void *func)
{
	unsigned long size, off, start = (unsigned long)func;
	int i;

	kallsyms_lookup(start, &size, &off);
	for (i = 0; i < n; i++)
		if (ras[i] > start && ras[i] <= start + size)
			return true;
	return false;
}

/* HAVE_FUNCTION_GRAPH_RET_ADDR_PTR: hooked frames unwind to real callers. */
static void backtrace_through_hooks(struct kunit *t)
{
	unsigned long ras[16] = { 0 };
	int i, hooks = 0;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	reset_counts(ftrace_test_backtrace);
	register_ftrace_graph(&counting_gops);
	ftrace_test_backtrace(3, ras, ARRAY_SIZE(ras));
	unregister_ftrace_graph(&counting_gops);
	for (i = 0; i < 16; i++)
		hooks += ras[i] == (unsigned long)return_to_handler;
	KUNIT_EXPECT_EQ(t, entries, 4);
	KUNIT_EXPECT_EQ(t, hooks, 0);
	KUNIT_EXPECT_TRUE(t, trace_has(ras, 16, ftrace_test_backtrace));
	KUNIT_EXPECT_TRUE(t, trace_has(ras, 16, backtrace_through_hooks));
}

static unsigned long tail_caller_site;
static unsigned long ras_inside[16], ras_at_site[16];
static bool tail_call_shares_retp;

static int hook_tail_chain(struct ftrace_graph_ent *trace)
{
	return trace->func == want_func || trace->func == tail_caller_site;
}

/* The return addresses a frame-pointer unwind from here finds. */
static noinline void walk_frames(unsigned long *ras, int max)
{
	unsigned long fp = (unsigned long)__builtin_frame_address(0);
	unsigned long *next_retp = NULL;
	int i;

	for (i = 0; i < max && !(fp & 7) && kernel_stack_addr(fp - 16); i++) {
		unsigned long next = ((unsigned long *)fp)[-2];

		ras[i] = ftrace_graph_frame_ret(fp, &next_retp);
		if (next <= fp)
			break;
		fp = next;
	}
}

/* ftrace_test_call's callback, at its site. */
static void walk_at_site(unsigned long ip, unsigned long parent_ip,
			 struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	walk_frames(ras_at_site, ARRAY_SIZE(ras_at_site));
}

/* What ftrace_test_call calls: under both hooked frames. */
static long walk_inside(long a)
{
	struct ftrace_ret_stack *callee, *caller;

	callee = ftrace_graph_get_ret_stack(current, 0);
	caller = ftrace_graph_get_ret_stack(current, 1);
	tail_call_shares_retp = callee && caller &&
				callee->retp == caller->retp;
	walk_frames(ras_inside, ARRAY_SIZE(ras_inside));
	return a;
}

static int count_hooks(const unsigned long *ras, int n)
{
	int i, hooks = 0;

	for (i = 0; i < n; i++)
		hooks += ras[i] == (unsigned long)return_to_handler;
	return hooks;
}

/*
 * A hooked function tail-calls another: the second hooks the first's
 * return_to_handler, both in one frame slot. An unwind under the two,
 * and one from a callback at the second's site (where the trampoline
 * holds ra), must name the first's real caller, this function.
 */
static void backtrace_through_tail_call(struct kunit *t)
{
	struct ftrace_ops ops = { .func = walk_at_site, .name = "walk" };
	struct fgraph_ops gops = { .entryfunc = hook_tail_chain,
				   .retfunc = count_return };

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	memset(ras_inside, 0, sizeof(ras_inside));
	memset(ras_at_site, 0, sizeof(ras_at_site));
	reset_counts(ftrace_test_call);
	tail_caller_site =
		ftrace_location((unsigned long)ftrace_test_tail_call);
	ftrace_set_filter(&ops, "ftrace_test_call", 16, 1);
	register_ftrace_graph(&gops);
	register_ftrace_function(&ops);
	KUNIT_EXPECT_EQ(t, ftrace_test_tail_call(walk_inside, 5), 5);
	unregister_ftrace_function(&ops);
	unregister_ftrace_graph(&gops);
	ftrace_free_ops_hashes(&ops);
	KUNIT_EXPECT_EQ(t, returns, 2);
	KUNIT_EXPECT_TRUE(t, tail_call_shares_retp);
	KUNIT_EXPECT_EQ(t, count_hooks(ras_inside, 16), 0);
	KUNIT_EXPECT_EQ(t, count_hooks(ras_at_site, 16), 0);
	KUNIT_EXPECT_TRUE(t, trace_has(ras_inside, 16, ftrace_test_call));
	KUNIT_EXPECT_TRUE(t, trace_has(ras_inside, 16,
				       backtrace_through_tail_call));
	KUNIT_EXPECT_TRUE(t, trace_has(ras_at_site, 16,
				       backtrace_through_tail_call));
}

static void watchdog_stops_runaway(struct kunit *t)
{
	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	reset_counts(NULL);
	entries_seen = WATCHDOG_ENTRIES;
	register_ftrace_graph(&counting_gops);
	ftrace_test_fib(5);
	KUNIT_EXPECT_TRUE(t, !ftrace_graph_active);
	ftrace_test_fib(5);
	unregister_ftrace_graph(&counting_gops);
	KUNIT_EXPECT_EQ(t, entries, 0);
	KUNIT_EXPECT_TRUE(t, entries_seen > WATCHDOG_ENTRIES);
}

/* Its own frame takes the corrupted s0, and restores the caller's. */
static noinline void call_bad_frame(void)
{
	ftrace_test_bad_frame(0x100);
}

/*
 * HAVE_FUNCTION_GRAPH_FP_TEST within the suite: a hooked function that
 * returns with a corrupted frame pointer is seen, once. The suite asks
 * for a count where the `fgraph_fp_test` boot gets the panic.
 */
static void frame_pointer_checked(struct kunit *t)
{
	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	reset_counts(ftrace_test_bad_frame);
	ftrace_graph_fp_mismatches = 0;
	KUNIT_EXPECT_EQ(t, register_ftrace_graph(&counting_gops), 0);
	WRITE_ONCE(ftrace_graph_fp_test_count, true);
	call_bad_frame();
	WRITE_ONCE(ftrace_graph_fp_test_count, false);
	unregister_ftrace_graph(&counting_gops);
	KUNIT_EXPECT_EQ(t, entries, 1);
	KUNIT_EXPECT_EQ(t, returns, 1);
	KUNIT_EXPECT_EQ(t, ftrace_graph_fp_mismatches, 1);
}

/*
 * `-append fgraph_fp_test` runs this instead of the shell: a hooked
 * function returns with a corrupted frame pointer, and the return must
 * end in the panic that names it (HAVE_FUNCTION_GRAPH_FP_TEST). Its
 * caller restores its own frame from sp, so if nothing panics it says
 * so and powers off with a failure.
 */
static void fgraph_fp_test(void *arg)
{
	reset_counts(ftrace_test_bad_frame);
	if (register_ftrace_graph(&counting_gops))
		panic("fgraph_fp_test: cannot start graph tracing");
	ftrace_test_bad_frame(0x100);
	unregister_ftrace_graph(&counting_gops);
	console_printf("fgraph_fp_test: the bad frame pointer went unseen\n");
	machine_poweroff(1);
}
BOOT_PROGRAM("fgraph_fp_test", fgraph_fp_test);

/* fgraph has one user: these tests need it free, and ftrace on. */
static void fgraph_suite_init(struct kunit *t)
{
	if (ftrace_graph_active)
		KUNIT_SKIP(t, "fgraph in use: current_tracer is function_graph "
			      "or function_profile_enabled is 1");
	if (!ftrace_enabled)
		KUNIT_SKIP(t, "ftrace_enabled is 0");
}

SELFTEST_SUITE_INIT(fgraph, fgraph_suite_init,
	KUNIT_CASE(fib_call_tree),
	KUNIT_CASE(one_graph_at_a_time),
	KUNIT_CASE(stop_under_hooked_frame),
	KUNIT_CASE(kept_ret_stack_is_not_counted),
	KUNIT_CASE(deep_recursion_overruns),
	KUNIT_CASE(graph_with_function),
	KUNIT_CASE(filter_beside_other_ops),
	KUNIT_CASE(callbacks_not_preemptible),
	KUNIT_CASE(backtrace_through_hooks),
	KUNIT_CASE(backtrace_through_tail_call),
	KUNIT_CASE(watchdog_stops_runaway),
	KUNIT_CASE(frame_pointer_checked),
);
