/*
 * insn.h: the one RISC-V instruction encoder and decoder of the kernel
 * (arch/riscv/kernel/insn.c), and a one-instruction disassembler
 * (arch/riscv/kernel/disasm.c). The ftrace patcher builds every
 * instruction it writes with these helpers, so range and alignment are
 * checked in one place; the field helpers below are shared with the
 * disassembler, which expands compressed code back into 32-bit form.
 */
#ifndef _ASM_INSN_H
#define _ASM_INSN_H

#include "types.h"
#include "errno.h"

/* Integer register numbers, named as the psABI does. */
#define RV_REG_ZERO	0
#define RV_REG_RA	1
#define RV_REG_SP	2
#define RV_REG_GP	3
#define RV_REG_TP	4
#define RV_REG_T0	5
#define RV_REG_T1	6
#define RV_REG_T2	7
#define RV_REG_S0	8
#define RV_REG_S1	9
#define RV_REG_A0	10
#define RV_REG_A1	11
#define RV_REG_A2	12
#define RV_REG_A3	13
#define RV_REG_A4	14
#define RV_REG_A5	15
#define RV_REG_A6	16
#define RV_REG_A7	17
#define RV_REG_S2	18
#define RV_REG_S3	19
#define RV_REG_S4	20
#define RV_REG_S5	21
#define RV_REG_S6	22
#define RV_REG_S7	23
#define RV_REG_S8	24
#define RV_REG_S9	25
#define RV_REG_S10	26
#define RV_REG_S11	27
#define RV_REG_T3	28
#define RV_REG_T4	29
#define RV_REG_T5	30
#define RV_REG_T6	31
#define RV_NR_REGS	32

/* Major opcodes (bits 6:0) of the 32-bit encodings we use. */
#define RV_OP_LOAD	0x03
#define RV_OP_MISC_MEM	0x0f
#define RV_OP_IMM	0x13
#define RV_OP_AUIPC	0x17
#define RV_OP_IMM_32	0x1b
#define RV_OP_STORE	0x23
#define RV_OP_AMO	0x2f
#define RV_OP_REG	0x33
#define RV_OP_LUI	0x37
#define RV_OP_REG_32	0x3b
#define RV_OP_BRANCH	0x63
#define RV_OP_JALR	0x67
#define RV_OP_JAL	0x6f
#define RV_OP_SYSTEM	0x73

/* `addi zero, zero, 0`, and its compressed form `c.nop` (one halfword). */
#define RISCV_INSN_NOP		0x00000013U
#define RISCV_INSN_C_NOP	0x0001U

/* jal reaches [pc - 1 MiB, pc + 1 MiB - 2]: a signed 21-bit offset. */
#define RISCV_JAL_MIN		(-(1L << 20))
#define RISCV_JAL_MAX		((1L << 20) - 2)

/* Bits hi..lo of x, moved down to bit 0. */
static inline u32 riscv_bits(u32 x, int hi, int lo)
{
	return (x >> lo) & ((2U << (hi - lo)) - 1);
}

/* The low `width` bits of x as a signed number. */
static inline long riscv_sext(u64 x, int width)
{
	return (long)(x << (64 - width)) >> (64 - width);
}

static inline int riscv_insn_opcode(u32 insn)
{
	return riscv_bits(insn, 6, 0);
}

static inline int riscv_insn_rd(u32 insn)
{
	return riscv_bits(insn, 11, 7);
}

static inline int riscv_insn_rs1(u32 insn)
{
	return riscv_bits(insn, 19, 15);
}

static inline int riscv_insn_rs2(u32 insn)
{
	return riscv_bits(insn, 24, 20);
}

/* Immediates of the I, S, B, U and J formats, sign-extended. */
static inline long riscv_imm_i(u32 insn)
{
	return riscv_sext(riscv_bits(insn, 31, 20), 12);
}

static inline long riscv_imm_s(u32 insn)
{
	return riscv_sext(riscv_bits(insn, 31, 25) << 5 |
			  riscv_bits(insn, 11, 7), 12);
}

static inline long riscv_imm_b(u32 insn)
{
	return riscv_sext(riscv_bits(insn, 31, 31) << 12 |
			  riscv_bits(insn, 7, 7) << 11 |
			  riscv_bits(insn, 30, 25) << 5 |
			  riscv_bits(insn, 11, 8) << 1, 13);
}

static inline long riscv_imm_j(u32 insn)
{
	return riscv_sext(riscv_bits(insn, 31, 31) << 20 |
			  riscv_bits(insn, 19, 12) << 12 |
			  riscv_bits(insn, 20, 20) << 11 |
			  riscv_bits(insn, 30, 21) << 1, 21);
}

/*
 * Format encoders. They trust their operands: the checked entry points
 * below (and the disassembler, whose fields come from real encodings)
 * guarantee registers < 32 and immediates that fit.
 */
static inline u32 riscv_enc_r(int opcode, int funct3, int funct7, int rd,
			      int rs1, int rs2)
{
	return (u32)funct7 << 25 | (u32)rs2 << 20 | (u32)rs1 << 15 |
	       (u32)funct3 << 12 | (u32)rd << 7 | (u32)opcode;
}

static inline u32 riscv_enc_i(int opcode, int funct3, int rd, int rs1,
			      long imm)
{
	return ((u32)imm & 0xfff) << 20 | (u32)rs1 << 15 |
	       (u32)funct3 << 12 | (u32)rd << 7 | (u32)opcode;
}

static inline u32 riscv_enc_s(int opcode, int funct3, int rs1, int rs2,
			      long imm)
{
	return riscv_bits(imm, 11, 5) << 25 | (u32)rs2 << 20 |
	       (u32)rs1 << 15 | (u32)funct3 << 12 |
	       riscv_bits(imm, 4, 0) << 7 | (u32)opcode;
}

static inline u32 riscv_enc_b(int funct3, int rs1, int rs2, long imm)
{
	return riscv_bits(imm, 12, 12) << 31 | riscv_bits(imm, 10, 5) << 25 |
	       (u32)rs2 << 20 | (u32)rs1 << 15 | (u32)funct3 << 12 |
	       riscv_bits(imm, 4, 1) << 8 | riscv_bits(imm, 11, 11) << 7 |
	       RV_OP_BRANCH;
}

/* imm20 is the value of bits 31:12, as `lui rd, imm20` spells it. */
static inline u32 riscv_enc_u(int opcode, int rd, long imm20)
{
	return ((u32)imm20 & 0xfffff) << 12 | (u32)rd << 7 | (u32)opcode;
}

static inline u32 riscv_enc_j(int rd, long imm)
{
	return riscv_bits(imm, 20, 20) << 31 | riscv_bits(imm, 10, 1) << 21 |
	       riscv_bits(imm, 11, 11) << 20 | riscv_bits(imm, 19, 12) << 12 |
	       (u32)rd << 7 | RV_OP_JAL;
}

/*
 * The checked encoder for the patcher. It returns 0 and stores the
 * instruction, or -ERANGE when the target is odd or out of reach,
 * or -EINVAL for a register that cannot be used; nothing is stored
 * on error. jal is inline: patching every site encodes one per site.
 */
static inline int riscv_insn_jal(unsigned long pc, unsigned long target,
				 int rd, u32 *insn)
{
	long offset = (long)(target - pc);

	if (rd < 0 || rd >= RV_NR_REGS)
		return -EINVAL;
	if ((target & 1) || offset < RISCV_JAL_MIN || offset > RISCV_JAL_MAX)
		return -ERANGE;
	*insn = riscv_enc_j(rd, offset);
	return 0;
}

/* c.j reaches [pc - 2 KiB, pc + 2 KiB - 2]. */
#define RISCV_C_J_MIN	(-(1L << 11))
#define RISCV_C_J_MAX	((1L << 11) - 2)

static inline u32 riscv_cj_bit(long imm, int from, int to)
{
	return (u32)((imm >> from) & 1) << to;
}

/*
 * c.j (a static key's site, jump_label.h): the CJ format scatters
 * imm[11:1] over bits 12:2. -ERANGE when the target is out of reach.
 */
static inline int riscv_insn_c_j(unsigned long pc, unsigned long target,
				 u16 *insn)
{
	long off = (long)(target - pc);

	if ((off & 1) || off < RISCV_C_J_MIN || off > RISCV_C_J_MAX)
		return -ERANGE;
	*insn = 0xa001 | riscv_cj_bit(off, 11, 12) | riscv_cj_bit(off, 4, 11) |
		riscv_cj_bit(off, 9, 10) | riscv_cj_bit(off, 8, 9) |
		riscv_cj_bit(off, 10, 8) | riscv_cj_bit(off, 6, 7) |
		riscv_cj_bit(off, 7, 6) | riscv_cj_bit(off, 3, 5) |
		riscv_cj_bit(off, 2, 4) | riscv_cj_bit(off, 1, 3) |
		riscv_cj_bit(off, 5, 2);
	return 0;
}

/* Decoders. */
bool riscv_insn_is_jal(u32 insn);
unsigned long riscv_insn_jal_target(unsigned long pc, u32 insn);
unsigned long riscv_insn_auipc_jr_target(unsigned long pc);

/* 4 for a 32-bit instruction, 2 for a compressed one. */
static inline int riscv_insn_len(u16 first_halfword)
{
	return (first_halfword & 3) == 3 ? 4 : 2;
}

/*
 * The 32-bit instruction at addr, read as two halfwords: with RVC an
 * instruction is only 2-aligned (as most -pg call sites are).
 */
static inline u32 riscv_insn_read(unsigned long addr)
{
	const volatile u16 *p = (const volatile u16 *)addr;

	return p[0] | (u32)p[1] << 16;
}

/*
 * Writes the text of the one instruction at `code` (which runs at `pc`)
 * into buf, objdump style, and returns its length in bytes (2 or 4).
 */
int riscv_disasm(const void *code, unsigned long pc, char *buf, size_t size);

#endif
