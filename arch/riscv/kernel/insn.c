/*
 * insn.c: decodes the call the ftrace patcher writes into call sites
 * (`jal` within +-1 MiB, encoded inline in asm/insn.h, as the patcher
 * encodes one per site), so the patcher can check what a site holds
 * before it rewrites it; and the far jump of a site's veneer
 * (asm/ftrace_veneer.h), so its selftest and `patchsite` can follow it.
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

/*
 * Where `auipc rd, hi; jalr zero, lo(rd)` (a tail jump) at pc goes,
 * or 0 if pc holds no such pair.
 */
unsigned long riscv_insn_auipc_jr_target(unsigned long pc)
{
	u32 auipc = riscv_insn_read(pc), jalr = riscv_insn_read(pc + 4);

	if (riscv_insn_opcode(auipc) != RV_OP_AUIPC ||
	    riscv_insn_opcode(jalr) != RV_OP_JALR ||
	    riscv_bits(jalr, 14, 12) != 0 || riscv_insn_rd(jalr) != RV_REG_ZERO ||
	    riscv_insn_rs1(jalr) != riscv_insn_rd(auipc))
		return 0;
	return pc + riscv_sext(auipc & 0xfffff000U, 32) + riscv_imm_i(jalr);
}
