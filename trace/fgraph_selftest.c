/*
 * fgraph_selftest.c: the function graph hook tested from inside the
 * kernel: entry and return are both seen, the hooked function still
 * returns its value to the right place (the return_to_handler round
 * trip and its frame-pointer check), alone and beside a function ops.
 */
#include "kernel.h"
#include "selftest.h"
#include "ftrace.h"
#include "fgraph.h"
#include "trace_targets.h"

static unsigned long graph_site;
static unsigned long graph_entries, graph_returns;

/* Hook only ftrace_test_target1; every other function is let go. */
static int count_entry(struct ftrace_graph_ent *trace)
{
	if (trace->func != graph_site)
		return 0;
	__atomic_add_fetch(&graph_entries, 1, __ATOMIC_RELAXED);
	return 1;
}

static void count_return(struct ftrace_graph_ret *trace)
{
	if (trace->func == graph_site)
		__atomic_add_fetch(&graph_returns, 1, __ATOMIC_RELAXED);
}

static struct fgraph_ops counting_graph = {
	.entryfunc = count_entry,
	.retfunc = count_return,
};

/* Call target1 n times; how many of its results were wrong. */
static int call_target1(int n)
{
	int i, wrong = 0;

	for (i = 0; i < n; i++)
		wrong += ftrace_test_target1(i) != i + 1;
	return wrong;
}

static bool graph_start(struct kunit *t)
{
	graph_site = ftrace_location((unsigned long)ftrace_test_target1);
	graph_entries = graph_returns = 0;
	KUNIT_EXPECT_EQ(t, register_ftrace_graph(&counting_graph), 0);
	return ftrace_graph_active;
}

static void graph_hooks_returns(struct kunit *t)
{
	unsigned long unbalanced = fgraph_unbalanced_returns();

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, "FTRACE=none: the kernel has no call sites");
	if (!graph_start(t))
		return;
	KUNIT_EXPECT_EQ(t, call_target1(50), 0);
	unregister_ftrace_graph(&counting_graph);
	KUNIT_EXPECT_EQ(t, graph_entries, 50);
	KUNIT_EXPECT_EQ(t, graph_returns, 50);
	KUNIT_EXPECT_EQ(t, fgraph_unbalanced_returns(), unbalanced);
	KUNIT_EXPECT_EQ(t, call_target1(5), 0);
	KUNIT_EXPECT_EQ(t, graph_entries, 50);
}

static unsigned long function_calls;

static void count_function(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	(void)ip, (void)parent_ip, (void)op, (void)fregs;
	function_calls++;
}

/* ftrace_call and ftrace_graph_call in the same trampoline pass. */
static void graph_beside_function_ops(struct kunit *t)
{
	struct ftrace_ops ops = { .func = count_function, .name = "beside" };

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, "FTRACE=none: the kernel has no call sites");
	ftrace_set_filter(&ops, "ftrace_test_target1", 19, 1);
	function_calls = 0;
	KUNIT_EXPECT_EQ(t, register_ftrace_function(&ops), 0);
	if (graph_start(t)) {
		KUNIT_EXPECT_EQ(t, call_target1(20), 0);
		unregister_ftrace_graph(&counting_graph);
	}
	unregister_ftrace_function(&ops);
	ftrace_free_ops_hashes(&ops);
	KUNIT_EXPECT_EQ(t, function_calls, 20);
	KUNIT_EXPECT_EQ(t, graph_entries, 20);
	KUNIT_EXPECT_EQ(t, graph_returns, 20);
}

SELFTEST_SUITE(fgraph,
	KUNIT_CASE(graph_hooks_returns),
	KUNIT_CASE(graph_beside_function_ops),
);
