/*
 * tracefs_nomem_test.c: each tracefs write and read that allocates,
 * made to fail at each of its allocations in turn, first kmalloc's
 * (failslab) then the page allocator's (fail_page_alloc), until it
 * runs through. Every failed attempt must return -ENOMEM, leave every
 * tracefs file reading as before, and give back all it took. A write
 * to a filter or pid file is the exception Linux makes: `>` empties
 * the file at open and the words before the failure stay, so there
 * only the memory is checked, once the defaults are back. Prints how
 * many failures it injected.
 */
#include "kernel.h"
#include "string.h"
#include "printf.h"
#include "selftest.h"
#include "fault_inject.h"
#include "mm.h"
#include "printk.h"
#include "trace.h"

#define T		"/sys/kernel/tracing/"
#define SWEEP_MAX	400	/* allocations an operation may make */
#define FNV_OFFSET	0xcbf29ce484222325ULL
#define FNV_PRIME	0x100000001b3ULL

/* What a user's `echo TEXT > FILE` (or `>>`) does; NULL text: `cat`. */
struct tracefs_op {
	const char *file;
	int flags;			/* O_TRUNC, O_APPEND, O_NONBLOCK */
	const char *text;
};

struct nomem_case {
	const char *name;
	struct tracefs_op setup[3];	/* done first, without failures */
	struct tracefs_op op;
};

#define STACK_ENABLED	"/proc/sys/kernel/stack_tracer_enabled"
#define ECHO(f, t)	{ T f, O_TRUNC, t }
#define APPEND(f, t)	{ T f, O_APPEND, t }
#define CAT(f)		{ T f, 0, NULL }

static const struct nomem_case cases[] = {
	{ "filter", {}, ECHO("set_ftrace_filter", "fib sort*\n") },
	{ "filter_append", { ECHO("set_ftrace_filter", "fib\n") },
	  APPEND("set_ftrace_filter", "crc32* sort\n") },
	{ "filter_remove", { ECHO("set_ftrace_filter", "fib sort\n") },
	  APPEND("set_ftrace_filter", "!fib\n") },
	{ "notrace", {}, ECHO("set_ftrace_notrace", "fib\n") },
	{ "notrace_replace", { ECHO("set_ftrace_notrace", "sort\n") },
	  ECHO("set_ftrace_notrace", "fib\n") },
	{ "filter_while_tracing",
	  { ECHO("set_ftrace_filter", "fib\n"),
	    ECHO("current_tracer", "function\n") },
	  ECHO("set_ftrace_filter", "sort\n") },
	{ "tracer", {}, ECHO("current_tracer", "function\n") },
	{ "probe", {}, APPEND("set_ftrace_filter", "fib:traceoff:3\n") },
	{ "probe_second", { APPEND("set_ftrace_filter", "fib:traceoff:3\n") },
	  APPEND("set_ftrace_filter", "sort:traceoff:2\n") },
	{ "probe_remove",
	  { APPEND("set_ftrace_filter", "fib:traceoff:3\n"),
	    APPEND("set_ftrace_filter", "sort:traceoff:2\n") },
	  APPEND("set_ftrace_filter", "!fib:traceoff:0\n") },
	{ "pid", {}, ECHO("set_ftrace_pid", "3 1 2\n") },
	{ "pid_replace", { ECHO("set_ftrace_pid", "5\n") },
	  ECHO("set_ftrace_pid", "7\n") },
	{ "pid_append", { ECHO("set_ftrace_pid", "5\n") },
	  APPEND("set_ftrace_pid", "7\n") },
	{ "resize", {}, ECHO("buffer_size_kb", "64\n") },
	{ "resize_cpu", {}, ECHO("per_cpu/cpu0/buffer_size_kb", "32\n") },
	{ "marker", {}, ECHO("trace_marker", "hello\n") },
	{ "read_trace", { ECHO("trace_marker", "x\n") }, CAT("trace") },
	{ "read_pipe", { ECHO("trace_marker", "x\n") },
	  { T "trace_pipe", O_NONBLOCK, NULL } },
	{ "graph", {}, ECHO("current_tracer", "function_graph\n") },
	{ "graph_filter", {}, ECHO("set_graph_function", "fib sort\n") },
	{ "graph_notrace", { ECHO("set_graph_notrace", "crc32_le\n") },
	  APPEND("set_graph_notrace", "fib\n") },
	{ "read_graph", { ECHO("set_ftrace_filter", "fib\n"),
			  ECHO("current_tracer", "function_graph\n") },
	  CAT("trace") },
	{ "read_filter", { ECHO("set_ftrace_filter", "fib\n"),
			   APPEND("set_ftrace_filter", "sort:traceoff:2\n") },
	  CAT("set_ftrace_filter") },
	{ "profile", { ECHO("set_ftrace_filter", "fib\n") },
	  ECHO("function_profile_enabled", "1\n") },
	/* vfs_open returns before the write that turns fgraph off. */
	{ "read_profile", { ECHO("set_ftrace_filter", "vfs_open\n"),
			    ECHO("function_profile_enabled", "1\n"),
			    ECHO("trace_marker", "x\n") },
	  CAT("trace_stat/function0") },
	{ "stack_filter", {}, ECHO("stack_trace_filter", "fib sort*\n") },
	{ "stack_tracer", { ECHO("stack_trace_filter", "fib\n") },
	  { STACK_ENABLED, O_TRUNC, "1\n" } },
	{ "read_stack", { ECHO("stack_trace_filter", "*\n"),
			  { STACK_ENABLED, O_TRUNC, "1\n" } },
	  CAT("stack_trace") },
};

/* Everything a failed operation must leave as it was. */
static const char *const state_files[] = {
	"current_tracer", "tracing_on", "trace_clock", "trace_options",
	"buffer_size_kb", "buffer_total_size_kb", "per_cpu/cpu0/buffer_size_kb",
	"set_ftrace_filter", "set_ftrace_notrace", "set_ftrace_pid",
	"set_graph_function", "set_graph_notrace", "enabled_functions",
	"function_profile_enabled", "stack_trace_filter",
};

/*
 * The defaults the tests of tracing.py go back to, and no probes. The
 * profiler stops first: once set_ftrace_filter is empty, it would hook
 * every function for the rest of the reset.
 */
static const struct tracefs_op defaults[] = {
	ECHO("function_profile_enabled", "0\n"),
	ECHO("current_tracer", "nop\n"), ECHO("set_ftrace_filter", "\n"),
	APPEND("set_ftrace_filter", "!*:traceoff:0\n"),
	ECHO("set_ftrace_notrace", "\n"), ECHO("set_ftrace_pid", "\n"),
	ECHO("set_graph_function", "\n"), ECHO("set_graph_notrace", "\n"),
	ECHO("tracing_on", "1\n"), ECHO("trace", "\n"),
	{ STACK_ENABLED, O_TRUNC, "0\n" }, ECHO("stack_trace_filter", "\n"),
	ECHO("stack_max_size", "0\n"),
};

static unsigned long injected;

/* Read the whole file; -EAGAIN (trace_pipe, empty) ends it too. */
static int cat_file(const char *path, int flags, u64 *digest)
{
	char buf[256];
	struct file *f;
	ssize_t n, i;
	int ret = vfs_open(NULL, path, O_RDONLY | flags, &f);

	if (ret)
		return ret;
	while ((n = vfs_read(f, buf, sizeof(buf))) > 0)
		for (i = 0; i < n; i++)
			*digest = (*digest ^ (u8)buf[i]) * FNV_PRIME;
	vfs_close(f);
	return n == -EAGAIN ? 0 : n;
}

static int run_op(const struct tracefs_op *op)
{
	u64 digest = FNV_OFFSET;

	if (op->text)
		return vfs_write_file(op->file, op->flags, op->text);
	return cat_file(op->file, op->flags, &digest);
}

static u64 state_digest(void)
{
	char path[96];
	u64 digest = FNV_OFFSET;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(state_files); i++) {
		strlcpy(path, T, sizeof(path));
		strlcat(path, state_files[i], sizeof(path));
		if (cat_file(path, 0, &digest))
			digest = 0;
	}
	return digest;
}

/* -ENODEV: there was no probe to remove. */
static void reset_tracefs(struct kunit *t)
{
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(defaults); i++) {
		ret = run_op(&defaults[i]);
		if (ret && ret != -ENODEV)
			kunit_fail(t, __FILE__, __LINE__, "%s: %d",
				   defaults[i].file, ret);
	}
}

/* The defaults, then c's setup; returns the memory in use at the defaults. */
static size_t set_up(struct kunit *t, const struct nomem_case *c)
{
	size_t i, mem;

	reset_tracefs(t);
	mem = mm_bytes_in_use();
	for (i = 0; i < ARRAY_SIZE(c->setup) && c->setup[i].file; i++)
		KUNIT_EXPECT_EQ(t, run_op(&c->setup[i]), 0);
	return mem;
}

/* The words of a filter file and pids, not FUNC:cmd probes. */
static bool partial_write(const struct tracefs_op *op)
{
	static const char *const files[] = {
		T "set_ftrace_filter", T "set_ftrace_notrace",
		T "set_ftrace_pid", T "set_graph_function",
		T "set_graph_notrace", T "stack_trace_filter",
	};
	size_t i;

	for (i = 0; op->text && i < ARRAY_SIZE(files); i++)
		if (!strcmp(op->file, files[i]))
			return !strchr(op->text, ':');
	return false;
}

/* A failure that may keep what it did: no leak once the defaults are back. */
static bool partial_ok(struct kunit *t, size_t mem_at_defaults)
{
	reset_tracefs(t);
	return mm_bytes_in_use() == mem_at_defaults;
}

/*
 * Fail the nth allocation of attr's kind. True when the operation ran
 * through without reaching it (the sweep is over).
 */
static bool fail_nth(struct kunit *t, const struct nomem_case *c,
		     struct fault_attr *attr, unsigned long n)
{
	size_t mem, mem_at_defaults;
	u64 before;
	ssize_t ret;
	bool hit, kept, partial;

	mem_at_defaults = set_up(t, c);
	before = state_digest();
	mem = mm_bytes_in_use();
	fault_attr_set(attr, 100, n, 1);
	ret = run_op(&c->op);
	hit = !READ_ONCE(attr->times);
	fault_attr_set(attr, 0, 1, 1);
	if (!hit) {
		KUNIT_EXPECT_EQ(t, ret, 0);
		return true;
	}
	injected++;
	kept = state_digest() == before;
	partial = partial_write(&c->op);
	if (ret != -ENOMEM ||
	    (partial ? !partial_ok(t, mem_at_defaults) :
	     !kept || mm_bytes_in_use() != mem))
		kunit_fail(t, __FILE__, __LINE__,
			   "%s, allocation %lu failed: returned %ld, state %s, "
			   "%ld bytes kept", c->name, n, ret,
			   kept ? "kept" : "changed",
			   (long)(mm_bytes_in_use() -
				  (partial ? mem_at_defaults : mem)));
	return false;
}

static void sweep(struct kunit *t, const struct nomem_case *c,
		  struct fault_attr *attr)
{
	unsigned long n;

	for (n = 1; n <= SWEEP_MAX; n++)
		if (fail_nth(t, c, attr, n))
			return;
	kunit_fail(t, __FILE__, __LINE__, "%s: no end after %d allocations",
		   c->name, SWEEP_MAX);
}

static void restore_size(struct kunit *t, unsigned long kb)
{
	char text[24];

	if (ring_buffer_size(global_trace.buffer, 0) >> 10 == kb &&
	    ring_buffer_size(global_trace.buffer, trace_nr_cpus() - 1) >> 10 ==
	    kb)
		return;
	snprintf(text, sizeof(text), "%lu\n", kb);
	KUNIT_EXPECT_EQ(t, vfs_write_file(T "buffer_size_kb", O_TRUNC, text),
			0);
}

static void every_operation(struct kunit *t)
{
	unsigned long kb = ring_buffer_size(global_trace.buffer, 0) >> 10;
	unsigned long start = injected;
	size_t i;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		sweep(t, &cases[i], &failslab);
		sweep(t, &cases[i], &fail_page_alloc);
		restore_size(t, kb);
	}
	reset_tracefs(t);
	console_printf("    # every_operation: %lu faults injected\n",
		       injected - start);
}

SELFTEST_SUITE_INIT(tracefs_nomem, tracing_selftest_need_defaults,
	KUNIT_CASE(every_operation),
);
