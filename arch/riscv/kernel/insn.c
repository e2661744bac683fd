/*
 * insn.c: encodes the call the ftrace patcher writes into call sites
 * (`jal` within +-1 MiB) and decodes it back, so the patcher can check
 * what a site holds before it rewrites it. Every range and alignment
 * rule lives here.
 */
#include "kernel.h"
#include "asm/insn.h"

static bool valid_reg(int reg)
{
	return reg >= 0 && reg < RV_NR_REGS;
}

/* Code is at least 2-byte aligned (RVC), so is every jump target. */
static bool valid_target(unsigned long target)
{
	return !(target & 1);
}

int riscv_insn_jal(unsigned long pc, unsigned long target, int rd,
		   u32 *insn)
{
	long offset = (long)(target - pc);

	if (!valid_reg(rd))
		return -EINVAL;
	if (!valid_target(target) || offset < RISCV_JAL_MIN ||
	    offset > RISCV_JAL_MAX)
		return -ERANGE;
	*insn = riscv_enc_j(rd, offset);
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
