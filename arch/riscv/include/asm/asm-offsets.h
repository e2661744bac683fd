/*
 * asm-offsets.h: struct offsets the assembly needs (the trampolines
 * touch the per-CPU area through tp and the current task's
 * preempt_count; their fast paths also write ring-buffer events and
 * read the stack tracer's and the trace array's state). Each is
 * checked with _Static_assert where its struct is defined: kernel/sched.c,
 * trace/ring_buffer.c, trace/trace_functions.c.
 */
#ifndef _ASM_OFFSETS_H
#define _ASM_OFFSETS_H

/* struct cpu, struct task */
#define CPU_CURR		0
#define CPU_NEED_RESCHED	16
#define CPU_ID			20
#define TASK_PREEMPT_COUNT	112
#define TASK_PID		116
#define TASK_STACK		168
#define THREAD_SIZE_ASM		(16 * 1024)

/* struct ftrace_ops, struct trace_array */
#define FTRACE_OPS_FUNC		0
#define FTRACE_OPS_PRIVATE	24
#define FTRACE_OPS_FAST_PATH	72
#define TRACE_ARRAY_BUFFER	0
#define TRACE_ARRAY_FUNCTION_PIDS	128

/* struct trace_buffer, ring_buffer_per_cpu, buffer_page, buffer_data_page */
#define RB_BUFFERS		40
#define RB_TAIL_PAGE		0
#define RB_COMMITTING		8
#define RB_WRITE_STAMP		16
#define RB_COMMIT_PAGE		24
#define BPAGE_WRITE		0
#define BPAGE_ENTRIES		8
#define BPAGE_END		16
#define BPAGE_PAGE		24
#define DPAGE_COMMIT		8
#define DPAGE_DATA		16

/*
 * What the fast paths build a function event from: sstatus.SIE, the
 * context word's fields (trace/trace.h) and the event header's
 * (include/ring_buffer.h).
 */
#define FAST_SR_SIE		2
#define FAST_CTX_PID_SHIFT	12
#define FAST_CTX_PC_SHIFT	8
#define FAST_CTX_IRQS_OFF_SHIFT	4	/* from SIE, bit 1, to bit 5 */
#define FAST_CTX_NEED_RESCHED_SHIFT 6
#define FAST_CTX_HARDIRQ	0x80
#define FAST_TRACE_FN		1
#define FAST_TS_SHIFT		27
#define FAST_FN_EVENT_BYTES	16	/* header, ctx, ip, parent_ip */

#endif
