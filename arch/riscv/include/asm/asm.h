/*
 * asm/asm.h: assembly macros that the trap entry (entry.S) and the
 * ftrace trampolines (mcount-dyn.S, mcount-pg.S) share, as Linux's
 * arch/riscv/include/asm/asm.h shares save_from_x6_to_x31 between
 * entry.S and mcount-dyn.S. Offsets are names: PT_* (asm/ptrace.h),
 * the frame record's below, the scheduler's in asm/asm-offsets.h.
 */
#ifndef _ASM_ASM_H
#define _ASM_ASM_H

#include "asm/ptrace.h"
#include "asm/asm-offsets.h"

#define SZREG			8	/* bytes of a register (rv64) */

/*
 * A frame record, as every function's prologue stores it (-fno-omit-
 * frame-pointer): s0 points just above it, the caller's s0 at s0 - 16,
 * the return address at s0 - 8. Frame-pointer backtraces walk these.
 */
#define FRAME_RECORD_SIZE	16
#define FRAME_RECORD_FP		0	/* from the record's start */
#define FRAME_RECORD_RA		8
#define FRAME_SAVED_FP		(FRAME_RECORD_FP - FRAME_RECORD_SIZE)
#define FRAME_SAVED_RA		(FRAME_RECORD_RA - FRAME_RECORD_SIZE)

#ifdef __ASSEMBLY__

/*
 * x6..x31 into, and out of, a struct pt_regs at sp + base. The callers
 * save x1..x5 themselves: each treats ra, sp, gp, tp and t0 its own way.
 */
	.macro save_from_x6_to_x31 base
	sd	x6, \base + PT_T1(sp)
	sd	x7, \base + PT_T2(sp)
	sd	x8, \base + PT_S0(sp)
	sd	x9, \base + PT_S1(sp)
	sd	x10, \base + PT_A0(sp)
	sd	x11, \base + PT_A1(sp)
	sd	x12, \base + PT_A2(sp)
	sd	x13, \base + PT_A3(sp)
	sd	x14, \base + PT_A4(sp)
	sd	x15, \base + PT_A5(sp)
	sd	x16, \base + PT_A6(sp)
	sd	x17, \base + PT_A7(sp)
	sd	x18, \base + PT_S2(sp)
	sd	x19, \base + PT_S3(sp)
	sd	x20, \base + PT_S4(sp)
	sd	x21, \base + PT_S5(sp)
	sd	x22, \base + PT_S6(sp)
	sd	x23, \base + PT_S7(sp)
	sd	x24, \base + PT_S8(sp)
	sd	x25, \base + PT_S9(sp)
	sd	x26, \base + PT_S10(sp)
	sd	x27, \base + PT_S11(sp)
	sd	x28, \base + PT_T3(sp)
	sd	x29, \base + PT_T4(sp)
	sd	x30, \base + PT_T5(sp)
	sd	x31, \base + PT_T6(sp)
	.endm

	.macro restore_from_x6_to_x31 base
	ld	x6, \base + PT_T1(sp)
	ld	x7, \base + PT_T2(sp)
	ld	x8, \base + PT_S0(sp)
	ld	x9, \base + PT_S1(sp)
	ld	x10, \base + PT_A0(sp)
	ld	x11, \base + PT_A1(sp)
	ld	x12, \base + PT_A2(sp)
	ld	x13, \base + PT_A3(sp)
	ld	x14, \base + PT_A4(sp)
	ld	x15, \base + PT_A5(sp)
	ld	x16, \base + PT_A6(sp)
	ld	x17, \base + PT_A7(sp)
	ld	x18, \base + PT_S2(sp)
	ld	x19, \base + PT_S3(sp)
	ld	x20, \base + PT_S4(sp)
	ld	x21, \base + PT_S5(sp)
	ld	x22, \base + PT_S6(sp)
	ld	x23, \base + PT_S7(sp)
	ld	x24, \base + PT_S8(sp)
	ld	x25, \base + PT_S9(sp)
	ld	x26, \base + PT_S10(sp)
	ld	x27, \base + PT_S11(sp)
	ld	x28, \base + PT_T3(sp)
	ld	x29, \base + PT_T4(sp)
	ld	x30, \base + PT_T5(sp)
	ld	x31, \base + PT_T6(sp)
	.endm

/*
 * The current task's preempt count, as preempt_disable and
 * preempt_enable change it (include/sched.h), found through tp's
 * per-CPU area. t1 and t2 are clobbered: the trampolines use these
 * where both are free (caller-saved, dead at a function's entry).
 */
	.macro PREEMPT_DISABLE
	ld	t1, CPU_CURR(tp)
	lw	t2, TASK_PREEMPT_COUNT(t1)
	addi	t2, t2, 1
	sw	t2, TASK_PREEMPT_COUNT(t1)
	.endm

	/* Re-enable; reschedule if that was asked for meanwhile. */
	.macro PREEMPT_ENABLE
	ld	t1, CPU_CURR(tp)
	lw	t2, TASK_PREEMPT_COUNT(t1)
	addi	t2, t2, -1
	sw	t2, TASK_PREEMPT_COUNT(t1)
	bnez	t2, 1f
	lbu	t2, CPU_NEED_RESCHED(tp)
	beqz	t2, 1f
	call	preempt_schedule_notrace
1:
	.endm

/*
 * The two slots of ftrace_caller that the patcher rewrites, with a0
 * (ip) and a1 (parent_ip) set: ftrace_call, a jal to the callback (a2,
 * function_trace_op; a3, no pt_regs), and ftrace_graph_call, a nop or
 * a jal to ftrace_graph_caller. One family per build mode defines them.
 */
	.macro FTRACE_CALL_SLOT
	la	a2, function_trace_op
	ld	a2, 0(a2)
	li	a3, 0
	.globl ftrace_call
ftrace_call:
	jal	ra, ftrace_stub
	.endm

	.macro FTRACE_GRAPH_CALL_SLOT
	.globl ftrace_graph_call
ftrace_graph_call:
	nop
	.endm

	.macro FTRACE_CALL_SLOTS
	FTRACE_CALL_SLOT
	FTRACE_GRAPH_CALL_SLOT
	.endm

#endif /* __ASSEMBLY__ */

#endif
