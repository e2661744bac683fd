/*
 * asm-offsets.h: struct offsets the assembly needs (the trampolines
 * touch the per-CPU area through tp and the current task's
 * preempt_count; their fast paths also write ring-buffer events and
 * read the tracers' state). Each is checked with _Static_assert where
 * its struct is defined or used: kernel/sched.c,
 * trace/ring_buffer_internal.h, trace/fgraph.c, trace/trace_functions.c,
 * trace/trace_functions_graph.c, trace/ftrace_profile.c,
 * trace/trace_stack.c.
 */
#ifndef _ASM_OFFSETS_H
#define _ASM_OFFSETS_H

/* struct cpu, struct task */
#define CPU_CURR		0
#define CPU_NEED_RESCHED	16
#define CPU_ID			20
#define CPU_TRACE_BUFFER	88
#define TASK_PREEMPT_COUNT	112
#define TASK_PID		116
#define TASK_TRACE_RECURSION	120
#define TASK_STACK		168
#define TASK_RET_STACK		264
#define TASK_CURR_RET_STACK	272
#define TASK_CURR_RET_DEPTH	276
#define TASK_GRAPH_PAUSE	288
#define THREAD_SIZE_ASM		(16 * 1024)

/* struct ftrace_ret_stack (include/fgraph.h), 40 bytes */
#define RS_RET			0
#define RS_FUNC			8
#define RS_CALLTIME		16
#define RS_FP			24
#define RS_RETP			32
#define FAST_RETFUNC_DEPTH	50

/* the profiler's per-CPU stats and records (trace/ftrace_profile.c) */
#define PSTAT_HASH		0
#define PSTAT_SHIFT		6	/* a cache line each */
#define PROFILE_HASH_SIZE	1024
#define PROFILE_NEXT		0
#define PROFILE_IP		8
#define PROFILE_COUNTER		16
#define PROFILE_TIME		24
#define PROFILE_TIME_SQUARED	32

/* struct ftrace_ops, struct trace_array */
#define FTRACE_OPS_FUNC		0
#define FTRACE_OPS_PRIVATE	24
#define FTRACE_OPS_FAST_PATH	72
#define TRACE_ARRAY_BUFFER	0
#define TRACE_ARRAY_FUNCTION_PIDS	128

/* struct trace_buffer, ring_buffer_per_cpu, buffer_page, buffer_data_page */
#define RB_BUFFERS		64
/*
 * A bit of struct trace_buffer's record_disabled: tracing_cpumask stops
 * some CPUs (ring_buffer_set_cpus_off). Alone, the fast paths go the C
 * way, which asks whether this CPU records.
 */
#define RB_CPUS_OFF		(1 << 21)
#define RB_TAIL_PAGE		0
#define RB_COMMITTING		8
#define RB_WRITE_STAMP		16
#define RB_COMMIT_PAGE		24
#define RB_BUFFER		32
#define BPAGE_WRITE		0
#define BPAGE_ENTRIES		8
#define BPAGE_END		16
#define BPAGE_PAGE		24
#define DPAGE_COMMIT		8
#define DPAGE_DATA		16

/*
 * What the fast paths build events from: sstatus.SIE, the context
 * word's fields (trace/trace.h), the event types
 * (include/trace_event_ids.h), the event header's
 * (include/ring_buffer.h), function_graph's task bits (include/ftrace.h).
 */
#define FAST_SR_SIE		2
#define FAST_CTX_PID_SHIFT	12
#define FAST_CTX_PC_SHIFT	8
#define FAST_CTX_IRQS_OFF	0x20
#define FAST_CTX_IRQS_OFF_SHIFT	4	/* from SIE, bit 1, to bit 5 */
#define FAST_CTX_NEED_RESCHED_SHIFT 6
#define FAST_CTX_HARDIRQ	0x80
#define FAST_TRACE_FN		1
#define FAST_TRACE_GRAPH_ENT	11
#define FAST_TRACE_GRAPH_RET	10
#define FAST_TS_SHIFT		27
#define FAST_FN_EVENT_BYTES	16	/* header, ctx, ip, parent_ip */
#define FAST_GRAPH_ENT_BYTES	16	/* header, ctx, func, depth */
#define FAST_GRAPH_RET_BYTES	24	/* the same, duration */
#define FAST_GRAPH_NOTRACE	0x80	/* TRACE_GRAPH_NOTRACE_BIT */
#define FAST_GRAPH_BITS		0x2c0	/* and TRACE_GRAPH_BIT, OVERRUN_BIT */

#endif
