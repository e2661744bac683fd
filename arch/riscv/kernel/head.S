/*
 * head.S: where OpenSBI enters the kernel (0x80200000) on the boot hart,
 * and where the SBI HSM extension starts every other hart.
 * Boot hart: a0 = hart id, a1 = device-tree blob.
 */
#include "asm/ptrace.h"

	.section .text.head, "ax"
	.globl _start
_start:
	csrw	sie, zero
	csrw	sip, zero
	/* clear .bss: nothing in C may run before this */
	la	t0, _bss
	la	t1, _ebss
1:	bgeu	t0, t1, 2f
	sd	zero, 0(t0)
	addi	t0, t0, 8
	j	1b
2:	la	sp, boot_stack_top
	mv	s0, zero
	call	start_kernel
3:	wfi
	j	3b

/*
 * Secondary harts: a0 = hart id, a1 = opaque = the top of the idle
 * task's stack that smp_boot_secondaries allocated for this hart.
 */
	.globl secondary_entry
	.balign 4
secondary_entry:
	csrw	sie, zero
	csrw	sip, zero
	mv	sp, a1
	mv	s0, zero
	call	secondary_start
4:	wfi
	j	4b

	.section .bss
	.balign 16
	.globl boot_stack
boot_stack:
	.skip	16384
	.globl boot_stack_top
boot_stack_top:
