/*
 * trace_fixtures.c: functions that exist to be traced, the only test
 * code that is (the selftests are built without sites, Makefile's
 * NOTRACE). They are compiled with a patchable entry like any kernel
 * code, kept out of line and distinct, so selftests can filter on them
 * by name and count calls.
 */
#include "kernel.h"
#include "trace_fixtures.h"
#include "printk.h"
#include "tracing.h"

#define TARGET __attribute__((__noinline__, __noclone__))

/*
 * GCC turns `return f(n - 1) + c` into a loop (tail recursion with an
 * accumulator); an opaque use of the result keeps every call a call.
 */
#define KEEP_CALL(x) ({ long __v = (x); __asm__("" : "+r"(__v)); __v; })

TARGET long ftrace_test_target1(long a)
{
	return a + 1;
}

TARGET long ftrace_test_target2(long a)
{
	return a + 2;
}

TARGET long ftrace_test_target3(long a)
{
	return a + 3;
}

TARGET long ftrace_test_args(long a0, long a1, long a2, long a3, long a4,
			     long a5, long a6, long a7)
{
	return a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7;
}

/* IPMODIFY sends calls of the first to the second. */
TARGET long ftrace_test_redirected(long a)
{
	return a * 2;
}

TARGET long ftrace_test_replacement(long a)
{
	return a * 3;
}

/* `bench`: a trivial traced function, the per-call cost's workload. */
TARGET long bench_target(long a)
{
	return a;
}

DEFINE_TRACE_FN(bench_tp, TP_PROTO(long a), TP_ARGS(a));

TARGET long bench_tracepoint_target(long a)
{
	trace_bench_tp(a);
	return a;
}

/* trace_printk's caller: a selftest looks for its text in the trace. */
TARGET long ftrace_test_printk(long a)
{
	trace_printk("a=%ld\n", a);
	return a;
}

/* The naive doubly recursive fib: fib(10) makes 177 calls. */
TARGET long ftrace_test_fib(long n)
{
	return n < 2 ? n : KEEP_CALL(ftrace_test_fib(n - 1)) +
			   KEEP_CALL(ftrace_test_fib(n - 2));
}

/* A traced frame around fn: what fn does happens under a hooked call. */
TARGET long ftrace_test_call(long (*fn)(long), long a)
{
	return KEEP_CALL(fn(a));
}

/*
 * A sibling call of ftrace_test_call: GCC jumps to it from this frame's
 * exit, so both are entered with one sp and, when function_graph hooks
 * both, the second hooks the first's return_to_handler.
 */
TARGET long ftrace_test_tail_call(long (*fn)(long), long a)
{
	return ftrace_test_call(fn, a);
}

/*
 * Returns with its caller's frame pointer moved by delta, as a stack
 * overwrite would: fgraph's frame-pointer test must catch it. Not a
 * leaf, so its frame record is the usual {s0 at fp - 16, ra at fp - 8}.
 */
TARGET long ftrace_test_bad_frame(long delta)
{
	/* volatile: to GCC the saved s0 is not memory a C program owns. */
	volatile unsigned long *fp = __builtin_frame_address(0);

	fp[-2] += delta;
	return KEEP_CALL(ftrace_test_target1(delta));
}

/* Recursion n deep, to run past the end of a ret_stack. */
TARGET long ftrace_test_deep(long n)
{
	return n ? KEEP_CALL(ftrace_test_deep(n - 1)) + 1 : 0;
}

/* n levels down, record the return addresses a backtrace finds. */
TARGET long ftrace_test_backtrace(long n, unsigned long *ras, int max)
{
	unsigned long fp, *next_retp = NULL;
	int i;

	if (n)
		return KEEP_CALL(ftrace_test_backtrace(n - 1, ras, max)) + 1;
	fp = (unsigned long)__builtin_frame_address(0);
	for (i = 0; i < max && fp; i++) {
		ras[i] = unwind_frame_ret(fp, &next_retp);
		fp = ((unsigned long *)fp)[-2];
	}
	return 0;
}
