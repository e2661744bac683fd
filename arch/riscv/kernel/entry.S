/*
 * entry.S: the supervisor trap vector. The kernel never runs user code,
 * so every trap arrives on the current kernel stack: push a pt_regs,
 * call handle_trap, pop it, sret. Nested traps simply push another.
 * tp is the per-CPU pointer and is never restored from the frame: a task
 * preempted here may resume on another CPU.
 */
#include "asm/ptrace.h"

	.section .text
	.globl handle_exception
	.balign 4
handle_exception:
	addi	sp, sp, -PT_SIZE
	sd	x1, 8(sp)
	sd	x3, 24(sp)
	sd	x4, 32(sp)
	sd	x5, 40(sp)
	sd	x6, 48(sp)
	sd	x7, 56(sp)
	sd	x8, 64(sp)
	sd	x9, 72(sp)
	sd	x10, 80(sp)
	sd	x11, 88(sp)
	sd	x12, 96(sp)
	sd	x13, 104(sp)
	sd	x14, 112(sp)
	sd	x15, 120(sp)
	sd	x16, 128(sp)
	sd	x17, 136(sp)
	sd	x18, 144(sp)
	sd	x19, 152(sp)
	sd	x20, 160(sp)
	sd	x21, 168(sp)
	sd	x22, 176(sp)
	sd	x23, 184(sp)
	sd	x24, 192(sp)
	sd	x25, 200(sp)
	sd	x26, 208(sp)
	sd	x27, 216(sp)
	sd	x28, 224(sp)
	sd	x29, 232(sp)
	sd	x30, 240(sp)
	sd	x31, 248(sp)
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
	addi	sp, sp, -16
	sd	s0, 0(sp)
	ld	t0, 16+PT_EPC(sp)
	sd	t0, 8(sp)
	addi	s0, sp, 16
	addi	a0, sp, 16
	call	handle_trap
	addi	sp, sp, 16

	.globl ret_from_exception
ret_from_exception:
	ld	t0, PT_STATUS(sp)
	csrw	sstatus, t0
	ld	t0, PT_EPC(sp)
	csrw	sepc, t0
	ld	x1, 8(sp)
	ld	x3, 24(sp)
	ld	x5, 40(sp)
	ld	x6, 48(sp)
	ld	x7, 56(sp)
	ld	x8, 64(sp)
	ld	x9, 72(sp)
	ld	x10, 80(sp)
	ld	x11, 88(sp)
	ld	x12, 96(sp)
	ld	x13, 104(sp)
	ld	x14, 112(sp)
	ld	x15, 120(sp)
	ld	x16, 128(sp)
	ld	x17, 136(sp)
	ld	x18, 144(sp)
	ld	x19, 152(sp)
	ld	x20, 160(sp)
	ld	x21, 168(sp)
	ld	x22, 176(sp)
	ld	x23, 184(sp)
	ld	x24, 192(sp)
	ld	x25, 200(sp)
	ld	x26, 208(sp)
	ld	x27, 216(sp)
	ld	x28, 224(sp)
	ld	x29, 232(sp)
	ld	x30, 240(sp)
	ld	x31, 248(sp)
	ld	x2, PT_SP(sp)
	sret
