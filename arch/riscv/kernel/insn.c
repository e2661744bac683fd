/*
 * insn.c: encodes the calls the ftrace patcher writes into call sites
 * (`auipc` + `jalr` within +-2 GiB; `jal` within +-1 MiB is inline in
 * asm/insn.h, as the patcher encodes one per site) and decodes them
 * back, so the patcher can check what a site holds before it rewrites
 * it. Every other range and alignment rule lives here.
 */
#include "kernel.h"
#include "asm/insn.h"

#define JALR_FUNCT3	0

static bool valid_reg(int reg)
{
	return reg >= 0 && reg < RV_NR_REGS;
}

/* Code is at least 2-byte aligned (RVC), so is every jump target. */
static bool valid_target(unsigned long target)
{
	return !(target & 1);
}

/*
 * jalr adds a sign-extended 12-bit immediate, so when bit 11 of the
 * offset is set the low part is negative and auipc must add one more
 * 4 KiB page: hi = (offset + 0x800) >> 12 rounds to the nearest page.
 */
int riscv_insn_auipc_jalr(unsigned long pc, unsigned long target,
			  int rd_link, int rs_tmp, u32 insn[2])
{
	long offset = (long)(target - pc);
	long hi, lo;

	/* x0 as base would make jalr jump to an absolute lo. */
	if (!valid_reg(rd_link) || !valid_reg(rs_tmp) ||
	    rs_tmp == RV_REG_ZERO)
		return -EINVAL;
	if (!valid_target(target) || offset < RISCV_AUIPC_JALR_MIN ||
	    offset > RISCV_AUIPC_JALR_MAX)
		return -ERANGE;
	hi = (offset + 0x800) >> 12;
	lo = offset - hi * 4096;
	insn[0] = riscv_enc_u(RV_OP_AUIPC, rs_tmp, hi);
	insn[1] = riscv_enc_i(RV_OP_JALR, JALR_FUNCT3, rd_link, rs_tmp, lo);
	return 0;
}

bool riscv_insn_is_jal(u32 insn)
{
	return riscv_insn_opcode(insn) == RV_OP_JAL;
}

unsigned long riscv_insn_jal_target(unsigned long pc, u32 insn)
{
	return pc + riscv_imm_j(insn);
}

/*
 * An auipc into some register, then a jalr based on that register. Not
 * x0: `auipc zero` writes nothing, so that jalr goes to the absolute
 * address lo, not to pc + hi + lo (and riscv_insn_auipc_jalr() would
 * refuse to write it).
 */
bool riscv_insn_is_auipc_jalr(const u32 insn[2])
{
	return riscv_insn_opcode(insn[0]) == RV_OP_AUIPC &&
	       riscv_insn_rd(insn[0]) != RV_REG_ZERO &&
	       riscv_insn_opcode(insn[1]) == RV_OP_JALR &&
	       riscv_bits(insn[1], 14, 12) == JALR_FUNCT3 &&
	       riscv_insn_rs1(insn[1]) == riscv_insn_rd(insn[0]);
}

unsigned long riscv_insn_auipc_jalr_target(unsigned long pc,
					   const u32 insn[2])
{
	return pc + riscv_imm_u(insn[0]) + riscv_imm_i(insn[1]);
}
