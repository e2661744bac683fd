/*
 * trace_fixtures.h: small traced functions (kernel/trace_fixtures.c)
 * that the ftrace selftests, `bench` and the console tests call, trace
 * and patch.
 */
#ifndef _TRACE_FIXTURES_H
#define _TRACE_FIXTURES_H

#include "tracepoint.h"

long ftrace_test_target1(long a);
long ftrace_test_target2(long a);
long ftrace_test_target3(long a);
long ftrace_test_args(long a0, long a1, long a2, long a3, long a4, long a5,
		      long a6, long a7);
long ftrace_test_redirected(long a);
long ftrace_test_replacement(long a);
long bench_target(long a);
/*
 * bench_target with a tracepoint (a bare one, no event: Linux's
 * DECLARE_TRACE): what a disabled tracepoint costs, and a probe's call.
 */
DECLARE_TRACE(bench_tp, TP_PROTO(long a), TP_ARGS(a));
long bench_tracepoint_target(long a);
long ftrace_test_fib(long n);
long ftrace_test_printk(long a);
long ftrace_test_call(long (*fn)(long), long a);
long ftrace_test_tail_call(long (*fn)(long), long a);
long ftrace_test_deep(long n);
long ftrace_test_bad_frame(long delta);
long ftrace_test_backtrace(long n, unsigned long *ras, int max);

#endif
