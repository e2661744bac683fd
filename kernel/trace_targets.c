/*
 * trace_targets.c: functions that exist to be traced. They are compiled
 * with a patchable entry like any kernel code, kept out of line and
 * distinct, so selftests can filter on them by name and count calls.
 */
#include "kernel.h"
#include "trace_targets.h"

#define TARGET __attribute__((__noinline__, __noclone__))

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
