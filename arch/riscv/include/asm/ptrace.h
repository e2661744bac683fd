/*
 * ptrace.h: struct pt_regs, the register frame that trap entry (entry.S)
 * and ftrace_regs_caller (mcount-dyn.S) save. The layout is Linux's:
 * epc first, then x1..x31, then the status CSRs.
 */
#ifndef _ASM_PTRACE_H
#define _ASM_PTRACE_H

#define PT_EPC		0
#define PT_RA		8
#define PT_SP		16
#define PT_GP		24
#define PT_TP		32
#define PT_T0		40
#define PT_T1		48
#define PT_T2		56
#define PT_S0		64
#define PT_S1		72
#define PT_A0		80
#define PT_A1		88
#define PT_A2		96
#define PT_A3		104
#define PT_A4		112
#define PT_A5		120
#define PT_A6		128
#define PT_A7		136
#define PT_S2		144
#define PT_S3		152
#define PT_S4		160
#define PT_S5		168
#define PT_S6		176
#define PT_S7		184
#define PT_S8		192
#define PT_S9		200
#define PT_S10		208
#define PT_S11		216
#define PT_T3		224
#define PT_T4		232
#define PT_T5		240
#define PT_T6		248
#define PT_STATUS	256
#define PT_BADADDR	264
#define PT_CAUSE	272
#define PT_SIZE		288	/* 16-byte aligned */

#ifndef __ASSEMBLY__
#include "types.h"

struct pt_regs {
	unsigned long epc;
	unsigned long ra, sp, gp, tp, t0, t1, t2;
	unsigned long s0, s1;
	unsigned long a0, a1, a2, a3, a4, a5, a6, a7;
	unsigned long s2, s3, s4, s5, s6, s7, s8, s9, s10, s11;
	unsigned long t3, t4, t5, t6;
	unsigned long status, badaddr, cause;
	unsigned long pad;
};

/* x1..x31 as an array, for printing. */
static inline unsigned long *pt_regs_gpr(struct pt_regs *r)
{
	return &r->ra;
}

_Static_assert(offsetof(struct pt_regs, ra) == PT_RA &&
	       offsetof(struct pt_regs, a0) == PT_A0 &&
	       offsetof(struct pt_regs, t6) == PT_T6 &&
	       offsetof(struct pt_regs, status) == PT_STATUS &&
	       offsetof(struct pt_regs, cause) == PT_CAUSE &&
	       sizeof(struct pt_regs) == PT_SIZE,
	       "asm/ptrace.h: the PT_* offsets of entry.S and mcount-dyn.S");

void show_regs(struct pt_regs *regs);
void handle_trap(struct pt_regs *regs);
#endif

#endif
