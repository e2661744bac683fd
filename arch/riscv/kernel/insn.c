/*
 * insn.c: decodes the call the ftrace patcher writes into call sites
 * (`jal` within +-1 MiB, encoded inline in asm/insn.h, as the patcher
 * encodes one per site), so the patcher can check what a site holds
 * before it rewrites it.
 */
#include "kernel.h"
#include "asm/insn.h"

bool riscv_insn_is_jal(u32 insn)
{
	return riscv_insn_opcode(insn) == RV_OP_JAL;
}

unsigned long riscv_insn_jal_target(unsigned long pc, u32 insn)
{
	return pc + riscv_imm_j(insn);
}
