/*
 * ftrace_fast.S: the trampolines' fast paths (ftrace_ops.fast_path,
 * fgraph_ops' fast_entry and fast_return). ftrace_caller
 * (mcount-dyn.S) jumps to one while its ops is the only one and
 * ftrace_call calls that ops' func; return_to_handler jumps to
 * fgraph_fast_return. Each does in assembly what its tracer's C
 * callbacks would, in the common case only, and saves next to nothing:
 * at a function's entry t1-t6 are dead (t0 holds the resume pc, ra
 * parent_ip, a0-a7 the arguments), at its return all but a0, a1 and
 * the callee-saved registers. Anything else goes the C way, through
 * ftrace_caller_full or return_to_handler_full, before the fast path
 * has changed anything.
 *
 * Interrupts are masked while a fast path changes anything: its one
 * protection. Nothing it runs is traced, so nothing can recurse; no
 * interrupt can nest in it, so it needs no preempt count; and a CPU
 * with interrupts masked holds up the stop_machine that unregistering
 * runs, as one in a C callback does (before the mask the pc is in the
 * trampoline text, which is never preempted).
 *
 * The events are the C tracers' (trace/trace.h), written as
 * ring_buffer_write.c's rb_write_begin and rb_write_end would: in the
 * common case that the tail page has room, the event is not its first
 * and comes within a time delta of the last. Each path has one copy per
 * trace clock, chosen when tracing starts. asm/asm-offsets.h has the
 * offsets, which the C files check.
 */
#include "asm/ftrace.h"
#include "asm/asm-offsets.h"

#ifdef HAVE_FTRACE_FAST_PATH

	.section .text.ftrace, "ax"
	.option norvc

/* A trace clock (include/trace_clock.h) into rd; tmp is clobbered. */
	.macro TRACE_CLOCK_local rd, tmp
	rdtime	\rd
	.endm

	.macro TRACE_CLOCK_instret rd, tmp
	rdinstret \rd
	.endm

	.macro TRACE_CLOCK_counter rd, tmp
	lla	\tmp, trace_clock_counter_value
	li	\rd, 1
	amoadd.d \rd, \rd, (\tmp)
	addi	\rd, \rd, 1
	.endm

	.macro TRACE_CLOCK_global rd, tmp
	rdtime	\rd
	lla	\tmp, trace_clock_global_last
	amomaxu.d \tmp, \rd, (\tmp)
	bgeu	\rd, \tmp, 1f
	mv	\rd, \tmp
1:
	.endm

/*
 * The context word of an event of this type into out (trace.h's
 * __tracing_gen_ctx with dec 0): the pid, irqs-off from sstatus as it
 * was before the mask, need-resched; and the preempt depth and hardirq
 * where the count is not 0 (a count below 16 is a depth alone). task
 * is current, and may be tmp2.
 */
	.macro EVENT_CTX out, task, sstatus, tmp1, tmp2, type
	lw	\tmp1, TASK_PREEMPT_COUNT(\task)
	lw	\out, TASK_PID(\task)
	slli	\out, \out, FAST_CTX_PID_SHIFT
	beqz	\tmp1, 3f
	sltiu	\tmp2, \tmp1, 16
	bnez	\tmp2, 2f
	srli	\tmp2, \tmp1, 16		/* HARDIRQ_MASK */
	andi	\tmp2, \tmp2, 0xf
	beqz	\tmp2, 1f
	ori	\out, \out, FAST_CTX_HARDIRQ
1:	andi	\tmp1, \tmp1, 0xff		/* PREEMPT_MASK */
	sltiu	\tmp2, \tmp1, 16
	bnez	\tmp2, 2f
	li	\tmp1, 15
2:	slli	\tmp1, \tmp1, FAST_CTX_PC_SHIFT
	or	\out, \out, \tmp1
3:	ori	\out, \out, FAST_CTX_IRQS_OFF | \type
	andi	\tmp1, \sstatus, FAST_SR_SIE	/* on: not irqs-off */
	slli	\tmp1, \tmp1, FAST_CTX_IRQS_OFF_SHIFT
	sub	\out, \out, \tmp1
	lbu	\tmp1, CPU_NEED_RESCHED(tp)
	slli	\tmp1, \tmp1, FAST_CTX_NEED_RESCHED_SHIFT
	or	\out, \out, \tmp1
	.endm

/*
 * Room for an event of size bytes on this CPU's tail page: cpub is
 * this CPU's ring_buffer_per_cpu, tail its tail page, ev + DPAGE_DATA
 * the event. To fail if the page has no room or the event would be
 * its first (which stamps the page). Interrupts masked.
 */
	.macro RB_RESERVE cpub, tail, ev, tmp, size, fail
	ld	\cpub, CPU_TRACE_BUFFER(tp)
	ld	\tail, RB_TAIL_PAGE(\cpub)
	ld	\ev, BPAGE_WRITE(\tail)
	ld	\tmp, BPAGE_END(\tail)
	beqz	\ev, \fail
	sub	\tmp, \tmp, \ev
	addi	\tmp, \tmp, -\size
	bltz	\tmp, \fail
	ld	\tmp, BPAGE_PAGE(\tail)
	add	\ev, \ev, \tmp
	.endm

/*
 * The event's header: its time as a delta from the last event's, to
 * fail if too far (before anything changed), else the new last time.
 */
	.macro RB_STAMP cpub, ev, ts, delta, tmp, size, fail
	ld	\delta, RB_WRITE_STAMP(\cpub)
	sub	\delta, \ts, \delta
	srli	\tmp, \delta, FAST_TS_SHIFT
	bnez	\tmp, \fail
	sd	\ts, RB_WRITE_STAMP(\cpub)
	slli	\delta, \delta, 5
	ori	\delta, \delta, (\size - 4) / 4
	sw	\delta, DPAGE_DATA(\ev)
	.endm

/*
 * Claim the event's bytes on the tail page, count it, and publish it
 * unless an interrupted writer still has one open (it publishes ours
 * with its own). The event's words were stored before: no reader looks
 * past the commit, and no other writer can come on this CPU.
 */
	.macro RB_CLAIM cpub, size, tail, tmp1, tmp2
	ld	\tmp1, BPAGE_WRITE(\tail)
	addi	\tmp1, \tmp1, \size
	sd	\tmp1, BPAGE_WRITE(\tail)
	ld	\tmp2, BPAGE_ENTRIES(\tail)
	addi	\tmp2, \tmp2, 1
	sd	\tmp2, BPAGE_ENTRIES(\tail)
	ld	\tmp2, RB_COMMITTING(\cpub)
	bnez	\tmp2, 4f
	ld	\tmp2, RB_COMMIT_PAGE(\cpub)
	bne	\tmp2, \tail, 4f
	fence	w, w
	ld	\tmp2, BPAGE_PAGE(\tail)
	sd	\tmp1, DPAGE_COMMIT(\tmp2)
4:
	.endm

	.macro IRQ_RESTORE sstatus
	andi	\sstatus, \sstatus, FAST_SR_SIE
	csrs	sstatus, \sstatus
	.endm

/* ret_stack + index * FAST_RS_SIZE (40) into rs; index is clobbered. */
	.macro RET_STACK_SLOT rs, index
	slli	\index, \index, 3
	add	\rs, \rs, \index
	slli	\index, \index, 2
	add	\rs, \rs, \index
	.endm

/* ---- the function tracer (trace_functions.c) ---------------------------- */

/*
 * function_trace_call's event (struct ftrace_entry): tracing_on 0
 * writes nothing, set_ftrace_pid goes the C way. The ops' private is
 * the trace array.
 */
	.macro FUNCTION_FAST clock
	.globl ftrace_function_fast_\clock
	.balign 4
ftrace_function_fast_\clock:
	ld	t1, FTRACE_OPS_PRIVATE(t1)
	ld	t2, TRACE_ARRAY_BUFFER(t1)
	ld	t2, 0(t2)			/* record_disabled */
	bnez	t2, ftrace_fast_off
	ld	t2, TRACE_ARRAY_FUNCTION_PIDS(t1)
	bnez	t2, ftrace_caller_full
	csrrci	t1, sstatus, FAST_SR_SIE
	RB_RESERVE t2, t3, t5, t4, FAST_FN_EVENT_BYTES, ftrace_unmask_full
	ld	t6, CPU_CURR(tp)
	EVENT_CTX t3, t6, t1, t4, t6, FAST_TRACE_FN
	sw	t3, DPAGE_DATA+4(t5)
	addi	t6, t0, -MCOUNT_INSN_SIZE
	sw	t6, DPAGE_DATA+8(t5)
	sw	ra, DPAGE_DATA+12(t5)
	TRACE_CLOCK_\clock t3, t4
	RB_STAMP t2, t5, t3, t4, t6, FAST_FN_EVENT_BYTES, ftrace_unmask_full
	ld	t3, RB_TAIL_PAGE(t2)
	RB_CLAIM t2, FAST_FN_EVENT_BYTES, t3, t4, t6
	IRQ_RESTORE t1
	jr	t0
	.endm

	FUNCTION_FAST local
	FUNCTION_FAST global
	FUNCTION_FAST counter
	FUNCTION_FAST instret

ftrace_unmask_full:
	IRQ_RESTORE t1
	j	ftrace_caller_full

/* Recording is off; if only for some CPUs, the C way asks about this one. */
ftrace_fast_off:
	li	t3, RB_CPUS_OFF
	beq	t2, t3, ftrace_caller_full
	jr	t0

fgraph_fast_off:
	li	t3, RB_CPUS_OFF
	beq	t1, t3, ftrace_caller_full
	jr	t0

ftrace_fast_done:
	jr	t0

/* ---- the stack tracer (trace_stack.c) ----------------------------------- */

/*
 * Only a new maximum needs stack_trace_call, which records the chain.
 * sp is the traced function's entry sp; a task with no stack of its
 * own, or sp off it, goes there too.
 */
	.globl ftrace_stack_fast
	.balign 4
ftrace_stack_fast:
	ld	t2, CPU_CURR(tp)
	ld	t3, TASK_STACK(t2)
	beqz	t3, ftrace_caller_full
	li	t4, THREAD_SIZE_ASM
	add	t3, t3, t4
	bltu	t3, sp, ftrace_caller_full
	sub	t3, t3, sp
	ld	t4, stack_trace_max_size
	bgtu	t3, t4, ftrace_caller_full
	jr	t0

/* ---- function graph (fgraph.c) ---------------------------------------- */

/*
 * fgraph's entry checks (prepare_ftrace_return): into t2 the task; its
 * ret_stack must have room for one more. A paused task's call is not
 * hooked; the rest goes the C way, which counts an overrun. Graph
 * tracing is on: it clears the fast paths before it goes off.
 */
	.macro FGRAPH_ENTRY_CHECKS
	ld	t2, CPU_CURR(tp)
	lw	t3, TASK_GRAPH_PAUSE(t2)
	bnez	t3, ftrace_fast_done
	ld	t3, TASK_RET_STACK(t2)
	beqz	t3, ftrace_caller_full
	lw	t3, TASK_CURR_RET_STACK(t2)
	li	t4, FAST_RETFUNC_DEPTH - 1
	bge	t3, t4, ftrace_caller_full
	.endm

/*
 * Push the hooked call (ftrace_push_return_trace), timed ts, and hook
 * its return. t2 the task; rs and func are clobbered, func left holding
 * the site. The slot where the traced function's prologue saves ra is
 * its entry sp - 8, which fgraph records as retp.
 */
	.macro FGRAPH_PUSH ts, rs, func, entry_sp_off
	lw	\func, TASK_CURR_RET_STACK(t2)
	addi	\func, \func, 1
	sw	\func, TASK_CURR_RET_STACK(t2)
	ld	\rs, TASK_RET_STACK(t2)
	RET_STACK_SLOT \rs, \func
	sd	ra, RS_RET(\rs)
	addi	\func, t0, -MCOUNT_INSN_SIZE
	sd	\func, RS_FUNC(\rs)
	sd	\ts, RS_CALLTIME(\rs)
	sd	s0, RS_FP(\rs)
	addi	ra, sp, \entry_sp_off - 8
	sd	ra, RS_RETP(\rs)
	lla	ra, return_to_handler
	.endm

/*
 * fgraph's return checks (ftrace_pop_return_trace): into t2 the task,
 * t3 the slot of the call returning, t4 its index, which must be in
 * use and have the frame pointer its entry saw (the C way panics).
 */
	.macro FGRAPH_RETURN_CHECKS
	ld	t2, CPU_CURR(tp)
	ld	t3, TASK_RET_STACK(t2)
	beqz	t3, return_to_handler_full
	lw	t4, TASK_CURR_RET_STACK(t2)
	bltz	t4, return_to_handler_full
	mv	t1, t4
	RET_STACK_SLOT t3, t1
	ld	t1, RS_FP(t3)
	bne	t1, s0, return_to_handler_full
	.endm

/* Pop the call (its index in t4) and go back to where it returns. */
	.macro FGRAPH_POP_RETURN sstatus, tmp
	lw	\tmp, TASK_CURR_RET_DEPTH(t2)
	addi	\tmp, \tmp, -1
	sw	\tmp, TASK_CURR_RET_DEPTH(t2)
	addi	t4, t4, -1
	sw	t4, TASK_CURR_RET_STACK(t2)
	ld	ra, RS_RET(t3)
	IRQ_RESTORE \sstatus
	jr	ra
	.endm

/* ---- function_graph (trace_functions_graph.c) --------------------------- */

/*
 * trace_graph_entry's event (struct ftrace_graph_ent_entry), timed
 * with the calltime, for a task outside any set_graph_notrace function
 * (the tracer takes this path away while other filters are set). Its
 * return is hooked only once the event is in. a0 is saved for room.
 */
	.macro GRAPH_ENTRY_FAST clock
	.globl ftrace_graph_entry_fast_\clock
	.balign 4
ftrace_graph_entry_fast_\clock:
	FGRAPH_ENTRY_CHECKS
	ld	t1, TASK_TRACE_RECURSION(t2)
	andi	t1, t1, FAST_GRAPH_NOTRACE
	bnez	t1, ftrace_caller_full
	ld	t1, tracing_thresh
	bnez	t1, ftrace_caller_full
	ld	t1, graph_array
	ld	t3, TRACE_ARRAY_FUNCTION_PIDS(t1)
	bnez	t3, ftrace_caller_full
	ld	t1, TRACE_ARRAY_BUFFER(t1)
	ld	t1, 0(t1)			/* record_disabled */
	bnez	t1, fgraph_fast_off		/* then no hook */
	addi	sp, sp, -16
	sd	a0, 0(sp)
	csrrci	t1, sstatus, FAST_SR_SIE
	RB_RESERVE t5, t3, t6, t4, FAST_GRAPH_ENT_BYTES, \
		   graph_entry_unmask_full
	TRACE_CLOCK_\clock t3, t4
	RB_STAMP t5, t6, t3, t4, a0, FAST_GRAPH_ENT_BYTES, \
		 graph_entry_unmask_full
	FGRAPH_PUSH t3, a0, t4, 16
	sw	t4, DPAGE_DATA+8(t6)
	lw	t3, TASK_CURR_RET_DEPTH(t2)
	addi	t3, t3, 1
	sw	t3, TASK_CURR_RET_DEPTH(t2)
	sw	t3, DPAGE_DATA+12(t6)
	EVENT_CTX t3, t2, t1, t4, a0, FAST_TRACE_GRAPH_ENT
	sw	t3, DPAGE_DATA+4(t6)
	ld	t3, RB_TAIL_PAGE(t5)
	RB_CLAIM t5, FAST_GRAPH_ENT_BYTES, t3, t4, a0
	ld	a0, 0(sp)
	addi	sp, sp, 16
	IRQ_RESTORE t1
	jr	t0
	.endm

/*
 * trace_graph_return's event (struct ftrace_graph_ret_entry), timed
 * with the rettime, for a task outside any set_graph_function or
 * set_graph_notrace function (whose bits only the C way clears) and
 * whose ret_stack never overran (the C way records the count).
 * tracing_on 0 goes the C way, which pops without an event.
 */
	.macro GRAPH_RETURN_FAST clock
	.globl ftrace_graph_return_fast_\clock
	.balign 4
ftrace_graph_return_fast_\clock:
	FGRAPH_RETURN_CHECKS
	ld	t1, TASK_TRACE_RECURSION(t2)
	andi	t1, t1, FAST_GRAPH_BITS
	bnez	t1, return_to_handler_full
	csrrci	t1, sstatus, FAST_SR_SIE
	RB_RESERVE t5, a5, t6, a2, FAST_GRAPH_RET_BYTES, \
		   graph_return_unmask_full
	ld	a2, RB_BUFFER(t5)
	ld	a2, 0(a2)			/* record_disabled */
	bnez	a2, graph_return_unmask_full
	TRACE_CLOCK_\clock a2, a3
	RB_STAMP t5, t6, a2, a3, a4, FAST_GRAPH_RET_BYTES, \
		 graph_return_unmask_full
	ld	a3, RS_FUNC(t3)
	sw	a3, DPAGE_DATA+8(t6)
	lw	a3, TASK_CURR_RET_DEPTH(t2)
	sw	a3, DPAGE_DATA+12(t6)
	ld	a3, RS_CALLTIME(t3)
	sub	a3, a2, a3			/* the duration */
	sw	a3, DPAGE_DATA+16(t6)
	srli	a3, a3, 32
	sw	a3, DPAGE_DATA+20(t6)
	EVENT_CTX a2, t2, t1, a3, a4, FAST_TRACE_GRAPH_RET
	sw	a2, DPAGE_DATA+4(t6)
	RB_CLAIM t5, FAST_GRAPH_RET_BYTES, a5, a3, a4
	FGRAPH_POP_RETURN t1, a2
	.endm

	GRAPH_ENTRY_FAST local
	GRAPH_ENTRY_FAST global
	GRAPH_ENTRY_FAST counter
	GRAPH_ENTRY_FAST instret
	GRAPH_RETURN_FAST local
	GRAPH_RETURN_FAST global
	GRAPH_RETURN_FAST counter
	GRAPH_RETURN_FAST instret

graph_entry_unmask_full:
	IRQ_RESTORE t1
	ld	a0, 0(sp)
	addi	sp, sp, 16
	j	ftrace_caller_full

graph_return_unmask_full:
	IRQ_RESTORE t1
	j	return_to_handler_full

/* ---- the function profiler (ftrace_profile.c) --------------------------- */

/*
 * This CPU's record of the function at ip into rec, through the
 * profiler's hash (profile_bucket); to fail if there is none yet (the
 * C way takes a new one).
 */
	.macro PROFILE_FIND rec, ip, tmp, fail
	lw	\rec, CPU_ID(tp)
	slli	\rec, \rec, PSTAT_SHIFT
	ld	\tmp, ftrace_profile_stats
	add	\rec, \rec, \tmp
	ld	\rec, PSTAT_HASH(\rec)
	srli	\tmp, \ip, 2
	andi	\tmp, \tmp, PROFILE_HASH_SIZE - 1
	slli	\tmp, \tmp, 3
	add	\rec, \rec, \tmp
	ld	\rec, 0(\rec)
1:	beqz	\rec, \fail
	ld	\tmp, PROFILE_IP(\rec)
	beq	\tmp, \ip, 2f
	ld	\rec, PROFILE_NEXT(\rec)
	j	1b
2:
	.endm

/*
 * profile_graph_entry: a hit for a function already seen on this CPU,
 * unless set_ftrace_pid is set. The profiler turns its fast paths off
 * before itself, so they need not look.
 */
	.macro PROFILE_ENTRY_FAST clock
	.globl ftrace_profile_entry_fast_\clock
	.balign 4
ftrace_profile_entry_fast_\clock:
	FGRAPH_ENTRY_CHECKS
	ld	t1, global_trace + TRACE_ARRAY_FUNCTION_PIDS
	bnez	t1, ftrace_caller_full
	csrrci	t1, sstatus, FAST_SR_SIE
	addi	t6, t0, -MCOUNT_INSN_SIZE
	PROFILE_FIND t5, t6, t4, ftrace_unmask_full
	ld	t6, PROFILE_COUNTER(t5)
	addi	t6, t6, 1
	sd	t6, PROFILE_COUNTER(t5)
	TRACE_CLOCK_\clock t3, t4
	FGRAPH_PUSH t3, t5, t6, 0
	lw	t5, TASK_CURR_RET_DEPTH(t2)
	addi	t5, t5, 1
	sw	t5, TASK_CURR_RET_DEPTH(t2)
	IRQ_RESTORE t1
	jr	t0
	.endm

/* profile_graph_return: the call's time and its square, on this CPU. */
	.macro PROFILE_RETURN_FAST clock
	.globl ftrace_profile_return_fast_\clock
	.balign 4
ftrace_profile_return_fast_\clock:
	FGRAPH_RETURN_CHECKS
	csrrci	t1, sstatus, FAST_SR_SIE
	TRACE_CLOCK_\clock t5, t6
	ld	t6, RS_CALLTIME(t3)
	beqz	t6, 3f
	sub	t5, t5, t6			/* the duration */
	ld	a2, RS_FUNC(t3)
	PROFILE_FIND t6, a2, a3, 3f
	ld	a2, PROFILE_TIME(t6)
	add	a2, a2, t5
	sd	a2, PROFILE_TIME(t6)
	mul	t5, t5, t5
	ld	a2, PROFILE_TIME_SQUARED(t6)
	add	a2, a2, t5
	sd	a2, PROFILE_TIME_SQUARED(t6)
3:
	FGRAPH_POP_RETURN t1, a2
	.endm

	PROFILE_ENTRY_FAST local
	PROFILE_ENTRY_FAST global
	PROFILE_ENTRY_FAST counter
	PROFILE_ENTRY_FAST instret
	PROFILE_RETURN_FAST local
	PROFILE_RETURN_FAST global
	PROFILE_RETURN_FAST counter
	PROFILE_RETURN_FAST instret

#endif
