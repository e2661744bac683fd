/*
 * trace_stack_test.c: selftests of the stack tracer. A recursion of
 * known depth under stack_trace_filter must give a table whose rows are
 * the recursion's frames, each the same size, whose sizes add up to
 * stack_max_size, and whose depths are measured from the stack top
 * exactly: the row above this test's own is at this function's frame.
 * Under function_graph, a tail-called function's caller is the real one.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "kallsyms.h"
#include "selftest.h"
#include "trace_fixtures.h"
#include "fgraph.h"
#include "trace.h"

static int start_on_deep(void)
{
	int ret = ftrace_set_filter(&stack_trace_ops, "ftrace_test_deep", 16,
				    1);

	return ret ? ret : stack_trace_sysctl(1);
}

static void stop(void)
{
	stack_trace_sysctl(0);
	ftrace_free_ops_hashes(&stack_trace_ops);
	stack_trace_set_max(0);
}

static bool in_func(unsigned long addr, void *func)
{
	unsigned long size, off;

	return kallsyms_lookup(addr, &size, &off) &&
	       addr - off == (unsigned long)func;
}

static unsigned int row_size(const struct stack_trace_copy *c, unsigned int i)
{
	return c->index[i] - (i + 1 < c->nr_entries ? c->index[i + 1] : 0);
}

/* Ten frames deeper is exactly nine more of ftrace_test_deep's frames. */
static void stack_depth_of_recursion(struct kunit *t)
{
	unsigned long self = (unsigned long)__builtin_frame_address(0);
	struct stack_trace_copy *c1, *c10;
	unsigned int i, frame, sum = 0;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	c1 = kzalloc(2 * sizeof(*c1));
	if (!c1)
		KUNIT_SKIP(t, "no memory");
	c10 = c1 + 1;
	KUNIT_EXPECT_EQ(t, start_on_deep(), 0);
	stack_trace_set_max(0);
	ftrace_test_deep(1);
	stack_trace_copy(c1);
	stack_trace_set_max(0);
	ftrace_test_deep(10);
	stack_trace_copy(c10);
	stop();
	/* deep(0)'s entry, 10 callers in deep, this test, its caller... */
	KUNIT_EXPECT_TRUE(t, c10->nr_entries > 12);
	KUNIT_EXPECT_EQ(t, c10->dump_trace[0],
			ftrace_location((unsigned long)ftrace_test_deep) +
			MCOUNT_INSN_SIZE);
	for (i = 1; i <= 10; i++)
		KUNIT_EXPECT_TRUE(t, in_func(c10->dump_trace[i],
					     ftrace_test_deep));
	KUNIT_EXPECT_TRUE(t, in_func(c10->dump_trace[11],
				     stack_depth_of_recursion));
	frame = row_size(c10, 1);
	KUNIT_EXPECT_TRUE(t, frame >= 16);
	for (i = 1; i <= 10; i++)
		KUNIT_EXPECT_EQ(t, row_size(c10, i), frame);
	KUNIT_EXPECT_EQ(t, row_size(c10, 0), 0);
	KUNIT_EXPECT_EQ(t, c10->max_size - c1->max_size, 9 * frame);
	/* The row of this test's caller: called at this test's frame. */
	KUNIT_EXPECT_EQ(t, c10->index[12], task_stack_top(current) - self);
	for (i = 0; i < c10->nr_entries; i++)
		sum += row_size(c10, i);
	KUNIT_EXPECT_EQ(t, sum, c10->max_size);
	KUNIT_EXPECT_EQ(t, c10->index[0], c10->max_size);
	kfree(c1);
}

/* Only a deeper stack replaces the table; writing a size sets the bar. */
static void stack_max_is_a_threshold(struct kunit *t)
{
	struct stack_trace_copy *c;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	c = kzalloc(sizeof(*c));
	if (!c)
		KUNIT_SKIP(t, "no memory");
	KUNIT_EXPECT_EQ(t, start_on_deep(), 0);
	stack_trace_set_max(THREAD_SIZE);
	ftrace_test_deep(10);
	stack_trace_copy(c);
	stop();
	KUNIT_EXPECT_EQ(t, c->max_size, THREAD_SIZE);
	kfree(c);
}

/* Functions outside stack_trace_filter are never measured. */
static void stack_filter_limits(struct kunit *t)
{
	struct stack_trace_copy *c;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	c = kzalloc(sizeof(*c));
	if (!c)
		KUNIT_SKIP(t, "no memory");
	KUNIT_EXPECT_EQ(t, start_on_deep(), 0);
	stack_trace_set_max(0);
	ftrace_test_fib(10);
	stack_trace_copy(c);
	stop();
	KUNIT_EXPECT_EQ(t, c->max_size, 0);
	kfree(c);
}

static unsigned long tail_chain[2];

static int hook_tail_chain(struct ftrace_graph_ent *trace)
{
	return trace->func == tail_chain[0] || trace->func == tail_chain[1];
}

static void graph_return_ignored(struct ftrace_graph_ret *trace)
{
}

static long identity(long a)
{
	return a;
}

/*
 * Under function_graph, ftrace_test_tail_call's hook put
 * return_to_handler in ra before it jumped to ftrace_test_call: the
 * row of ftrace_test_call's caller must still be the real one, this
 * test, which called ftrace_test_tail_call.
 */
static void stack_caller_through_tail_call(struct kunit *t)
{
	struct fgraph_ops gops = { .entryfunc = hook_tail_chain,
				   .retfunc = graph_return_ignored };
	struct stack_trace_copy *c;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	c = kzalloc(sizeof(*c));
	if (!c)
		KUNIT_SKIP(t, "no memory");
	tail_chain[0] = ftrace_location((unsigned long)ftrace_test_tail_call);
	tail_chain[1] = ftrace_location((unsigned long)ftrace_test_call);
	KUNIT_EXPECT_EQ(t, ftrace_set_filter(&stack_trace_ops,
					     "ftrace_test_call", 16, 1), 0);
	KUNIT_EXPECT_EQ(t, stack_trace_sysctl(1), 0);
	stack_trace_set_max(0);
	KUNIT_EXPECT_EQ(t, register_ftrace_graph(&gops), 0);
	ftrace_test_tail_call(identity, 1);
	unregister_ftrace_graph(&gops);
	stack_trace_copy(c);
	stop();
	KUNIT_EXPECT_TRUE(t, c->nr_entries > 2);
	KUNIT_EXPECT_EQ(t, c->dump_trace[0], tail_chain[1] + MCOUNT_INSN_SIZE);
	KUNIT_EXPECT_TRUE(t, in_func(c->dump_trace[1],
				     stack_caller_through_tail_call));
	kfree(c);
}

SELFTEST_SUITE_INIT(stack_tracer, tracing_selftest_need_defaults,
	KUNIT_CASE(stack_depth_of_recursion),
	KUNIT_CASE(stack_max_is_a_threshold),
	KUNIT_CASE(stack_filter_limits),
	KUNIT_CASE(stack_caller_through_tail_call),
);
