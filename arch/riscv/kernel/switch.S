/*
 * switch.S: __switch_to(prev, next) saves the callee-saved registers of
 * the running task into prev->ctx and loads next's (struct context in
 * sched.h). ret_from_fork is where a new kernel thread first runs.
 */
	.section .text
	.globl __switch_to
	.balign 4
__switch_to:
	sd	ra, 0(a0)
	sd	sp, 8(a0)
	sd	s0, 16(a0)
	sd	s1, 24(a0)
	sd	s2, 32(a0)
	sd	s3, 40(a0)
	sd	s4, 48(a0)
	sd	s5, 56(a0)
	sd	s6, 64(a0)
	sd	s7, 72(a0)
	sd	s8, 80(a0)
	sd	s9, 88(a0)
	sd	s10, 96(a0)
	sd	s11, 104(a0)
	ld	ra, 0(a1)
	ld	sp, 8(a1)
	ld	s0, 16(a1)
	ld	s1, 24(a1)
	ld	s2, 32(a1)
	ld	s3, 40(a1)
	ld	s4, 48(a1)
	ld	s5, 56(a1)
	ld	s6, 64(a1)
	ld	s7, 72(a1)
	ld	s8, 80(a1)
	ld	s9, 88(a1)
	ld	s10, 96(a1)
	ld	s11, 104(a1)
	ret

	.globl ret_from_fork
	.balign 4
ret_from_fork:
	call	schedule_tail
	mv	s0, zero
	call	kthread_entry
1:	j	1b
