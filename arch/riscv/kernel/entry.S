/*
 * entry.S: the supervisor trap vector. The kernel never runs user code,
 * so every trap arrives on the current kernel stack: push a pt_regs,
 * call handle_trap, pop it, sret. Nested traps simply push another.
 * tp is the per-CPU pointer and is never restored from the frame: a task
 * preempted here may resume on another CPU.
 */
#include "asm/asm.h"

	.section .text
	.globl handle_exception
	.balign 4
handle_exception:
	addi	sp, sp, -PT_SIZE
	sd	x1, PT_RA(sp)
	sd	x3, PT_GP(sp)
	sd	x4, PT_TP(sp)
	sd	x5, PT_T0(sp)
	save_from_x6_to_x31 0
	addi	t0, sp, PT_SIZE
	sd	t0, PT_SP(sp)
	csrr	t0, sepc
	sd	t0, PT_EPC(sp)
	csrr	t0, sstatus
	sd	t0, PT_STATUS(sp)
	csrr	t0, stval
	sd	t0, PT_BADADDR(sp)
	csrr	t0, scause
	sd	t0, PT_CAUSE(sp)
	/*
	 * A frame record {s0, sepc} below pt_regs so that a frame-pointer
	 * backtrace walks from the handler into the interrupted function.
	 */
	addi	sp, sp, -FRAME_RECORD_SIZE
	sd	s0, FRAME_RECORD_FP(sp)
	ld	t0, FRAME_RECORD_SIZE + PT_EPC(sp)
	sd	t0, FRAME_RECORD_RA(sp)
	addi	s0, sp, FRAME_RECORD_SIZE
	addi	a0, sp, FRAME_RECORD_SIZE
	call	handle_trap
	addi	sp, sp, FRAME_RECORD_SIZE

	.globl ret_from_exception
ret_from_exception:
	ld	t0, PT_STATUS(sp)
	csrw	sstatus, t0
	ld	t0, PT_EPC(sp)
	csrw	sepc, t0
	ld	x1, PT_RA(sp)
	ld	x3, PT_GP(sp)
	ld	x5, PT_T0(sp)
	restore_from_x6_to_x31 0
	ld	x2, PT_SP(sp)
	sret
