/*
 * asm/ftrace_veneer.h: each traced object's pair of veneers, for its
 * sites that a `jal` cannot take to the trampolines (jal reaches
 * +-1 MiB; the trampolines are at the start of text). The Makefile
 * passes this header with -include to every traced object of the
 * patchable build, so a veneer lies beside its sites in the object's
 * own text, however large the kernel grows:
 *
 *   ftrace_caller_veneer:       auipc t1, hi(ftrace_caller)
 *                               jr    lo(t1)
 *   ftrace_regs_caller_veneer:  auipc t1, hi(ftrace_regs_caller)
 *                               jr    lo(t1)
 *
 * A far site is then `jal t0, ftrace_caller_veneer`: still one
 * instruction to patch, and t0 still the site + 4, where ftrace_caller
 * resumes and finds the ops literal. t1 is free: caller-saved and no
 * argument, it is dead at a function's first instruction. A near site
 * stays `jal t0, ftrace_caller`. arm64 gives far sites a PLT for the
 * same reason (Linux's arch/arm64/kernel/ftrace.c, get_ftrace_plt).
 *
 * The two are FTRACE_VENEER_SIZE (asm/ftrace.h) apart. The section
 * __ftrace_veneers lists each pair's address, in link order, which is
 * address order (arch/riscv/kernel/ftrace_veneer.c finds the nearest
 * there). norelax: ld must keep both instructions.
 */
#ifndef _ASM_FTRACE_VENEER_H
#define _ASM_FTRACE_VENEER_H

__asm__(".pushsection .text.ftrace_veneer, \"ax\", @progbits\n"
	".option push\n"
	".option norvc\n"
	".option norelax\n"
	".balign 8\n"
	".type ftrace_caller_veneer, @function\n"
	"ftrace_caller_veneer:\n"
	"1:	auipc	t1, %pcrel_hi(ftrace_caller)\n"
	"	jr	%pcrel_lo(1b)(t1)\n"
	".size ftrace_caller_veneer, . - ftrace_caller_veneer\n"
	".type ftrace_regs_caller_veneer, @function\n"
	"ftrace_regs_caller_veneer:\n"
	"2:	auipc	t1, %pcrel_hi(ftrace_regs_caller)\n"
	"	jr	%pcrel_lo(2b)(t1)\n"
	".size ftrace_regs_caller_veneer, . - ftrace_regs_caller_veneer\n"
	".option pop\n"
	".popsection\n"
	".pushsection __ftrace_veneers, \"a\"\n"
	".balign 8\n"
	".8byte ftrace_caller_veneer\n"
	".popsection\n");

#endif
