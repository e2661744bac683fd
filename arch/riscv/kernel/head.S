/*
 * head.S: where OpenSBI enters the kernel (0x80200000) on the boot hart,
 * and where the SBI HSM extension starts every other hart.
 * Boot hart: a0 = hart id, a1 = device-tree blob.
 */
#include "asm/ptrace.h"

	.section .text.head, "ax"
	.globl _start
_start:
	/* The kernel's own boot cost counts from here (`bench`). */
	rdinstret s1
	csrw	sie, zero
	csrw	sip, zero
	/*
	 * OpenSBI 1.1 (QEMU 7.2's) can send a hart that sbi_hart_start
	 * starts here instead of to its start address: it marks the start
	 * pending before it stores the address. Only the first hart here
	 * boots; a later one is that secondary, and takes the stack
	 * boot_one published for it (a1 may be stale too).
	 */
	la	t0, hart_lottery
	li	t1, 1
	amoswap.w t1, t1, (t0)
	bnez	t1, .Lmisrouted_secondary
	/*
	 * clear .bss: nothing in C may run before this. 128 bytes a turn
	 * (linker.ld aligns both ends to 128): it is tens of KiB.
	 */
	la	t0, _bss
	la	t1, _ebss
1:	bgeu	t0, t1, 2f
	.irp off, 0, 8, 16, 24, 32, 40, 48, 56, \
		64, 72, 80, 88, 96, 104, 112, 120
	sd	zero, \off(t0)
	.endr
	addi	t0, t0, 128
	j	1b
2:	la	t0, kernel_start_instret
	sd	s1, 0(t0)
	la	sp, boot_stack_top
	mv	s0, zero
	call	start_kernel
3:	wfi
	j	3b

/*
 * Secondary harts: a0 = hart id, a1 = opaque = the top of the idle
 * task's stack that smp_boot_secondaries allocated for this hart.
 */
.Lmisrouted_secondary:
	la	t0, secondary_boot_sp
5:	ld	a1, 0(t0)
	beqz	a1, 5b

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

	.section .data
	.balign 4
hart_lottery:
	.word	0

	/* Not in .bss: a stack needs no zeroes, and clearing it cost 2 k. */
	.section .noinit, "aw", @nobits
	.balign 16
	.globl boot_stack
boot_stack:
	.skip	16384
	.globl boot_stack_top
boot_stack_top:
