/*
 * preemptirq_thunk.S: the latency tracers' hooks as the static key
 * branches of include/irqflags.h and include/sched.h call them (Linux's
 * x86 thunk_64.S does the same for trace_hardirqs_on/off). The branch
 * is `call t0, THUNK`, which clobbers t0 alone: the thunk saves every
 * other register a C call may change, so the function around the
 * branch needs no frame and keeps its registers for it, and a hook
 * that is off costs its c.nop and nothing else.
 *
 * The thunk's frame is a frame record, the return address (t0, in the
 * function that changed the state) at fp-8 and the caller's fp at
 * fp-16, so a stack walk from the hook goes on through it; that
 * address is also the C hook's one argument.
 */

#define THUNK_FRAME	144

	.macro PREEMPTIRQ_THUNK name, func
	.globl \name
	.balign 4
\name:
	addi	sp, sp, -THUNK_FRAME
	sd	t0, 136(sp)
	sd	s0, 128(sp)
	addi	s0, sp, THUNK_FRAME
	sd	ra, 120(sp)
	sd	t1, 112(sp)
	sd	t2, 104(sp)
	sd	t3, 96(sp)
	sd	t4, 88(sp)
	sd	t5, 80(sp)
	sd	t6, 72(sp)
	sd	a0, 64(sp)
	sd	a1, 56(sp)
	sd	a2, 48(sp)
	sd	a3, 40(sp)
	sd	a4, 32(sp)
	sd	a5, 24(sp)
	sd	a6, 16(sp)
	sd	a7, 8(sp)
	mv	a0, t0
	call	\func
	ld	ra, 120(sp)
	ld	t1, 112(sp)
	ld	t2, 104(sp)
	ld	t3, 96(sp)
	ld	t4, 88(sp)
	ld	t5, 80(sp)
	ld	t6, 72(sp)
	ld	a0, 64(sp)
	ld	a1, 56(sp)
	ld	a2, 48(sp)
	ld	a3, 40(sp)
	ld	a4, 32(sp)
	ld	a5, 24(sp)
	ld	a6, 16(sp)
	ld	a7, 8(sp)
	ld	s0, 128(sp)
	ld	t0, 136(sp)
	addi	sp, sp, THUNK_FRAME
	jr	t0
	.endm

	.text
	PREEMPTIRQ_THUNK trace_hardirqs_off_thunk, trace_hardirqs_off
	PREEMPTIRQ_THUNK trace_hardirqs_on_thunk, trace_hardirqs_on
	PREEMPTIRQ_THUNK trace_preempt_off_thunk, trace_preempt_off
	PREEMPTIRQ_THUNK trace_preempt_on_thunk, trace_preempt_on
