/*
 * trace_stacktrace.c: stack trace events (Linux's __ftrace_trace_stack),
 * for func_stack_trace, the stacktrace filter command and event
 * trigger, and the stacktrace option. A frame-
 * pointer walk as dump_backtrace does (kernel/printk.c): every frame
 * record holds the return address at fp-8 and the caller's fp at fp-16.
 * The tracer's own frames are skipped up to the trampoline's record of
 * the traced function (its resume pc, ip + MCOUNT_INSN_SIZE), so the
 * trace starts at the traced function and goes on with its callers,
 * the real ones where function_graph hooked them (ftrace_graph_frame_ret).
 */
#include "kernel.h"
#include "mm.h"
#include "fgraph.h"
#include "trace.h"
#include "tracepoint.h"

/*
 * ip (unless 0), then the return addresses of the frames above the one
 * that returns to from (the traced function's callers, when from is the
 * trampoline's resume pc); from 0: above the frame that returns into a
 * tracepoint's probe loop, so from the function that hit it.
 */
static unsigned int save_stack(unsigned long ip, unsigned long from,
			       u32 *callers)
{
	unsigned long fp = (unsigned long)__builtin_frame_address(0);
	unsigned long *next_retp = NULL;
	unsigned int n = 0, depth;
	bool found = false;

	if (ip)
		callers[n++] = ip;
	for (depth = 0; depth < 64 && n < FTRACE_STACK_ENTRIES; depth++) {
		unsigned long *frame = (unsigned long *)fp, ra, next;

		if (!fp || fp & 7 || !kernel_stack_addr(fp - 16))
			break;
		ra = ftrace_graph_frame_ret(fp, &next_retp);
		next = frame[-2];
		if (found && kernel_text_addr(ra))
			callers[n++] = ra;
		found |= from ? ra == from : in_traceiter_text(ra);
		if (next <= fp)
			break;
		fp = next;
	}
	return n;
}

/*
 * ip, then the stack above the frame that returns to from: the
 * latency tracers' end of a section (from = ip, where interrupts or
 * preemption came back on).
 */
void trace_stack_from(struct trace_array *tr, u32 trace_ctx, unsigned long ip,
		      unsigned long from)
{
	struct trace_buffer *buffer;
	struct ring_buffer_event *event;
	struct stack_entry *entry;
	u32 callers[FTRACE_STACK_ENTRIES];
	unsigned int n = save_stack(ip, from, callers), i;

	/* One load: a snapshot may swap tr->buffer before the commit. */
	buffer = READ_ONCE(tr->buffer);
	event = ring_buffer_lock_reserve(buffer, 8 + 4 * n);
	if (!event)
		return;
	entry = ring_buffer_event_data(event);
	entry->ent.ctx = trace_ctx | TRACE_STACK;
	entry->size = n;
	for (i = 0; i < n; i++)
		entry->caller[i] = callers[i];
	ring_buffer_unlock_commit(buffer);
}

/* A traced function's stack: its callers above the trampoline's record. */
void __trace_stack(struct trace_array *tr, u32 trace_ctx, unsigned long ip)
{
	trace_stack_from(tr, trace_ctx, ip, ip + MCOUNT_INSN_SIZE);
}

/*
 * The function that hit the tracepoint whose probe calls this, and its
 * caller (Linux's CALLER_ADDR1 and CALLER_ADDR2 in a probe): addresses
 * inside them, 0 where the stack ends.
 */
void trace_event_caller(unsigned long *ip, unsigned long *parent_ip)
{
	u32 callers[FTRACE_STACK_ENTRIES];
	unsigned int n = save_stack(0, 0, callers);

	*ip = n > 0 ? callers[0] : 0;
	*parent_ip = n > 1 ? callers[1] : 0;
}

/*
 * An event's stack, from the function whose tracepoint fired up (Linux's
 * ftrace_trace_stack from trace_event_buffer_commit, and the stacktrace
 * trigger): called below the event's probe.
 */
void trace_event_stack(struct trace_array *tr, u32 trace_ctx)
{
	trace_stack_from(tr, trace_ctx, 0, 0);
}
