/*
 * jump_label.c (arch): a static key's site (Linux's
 * arch/riscv/kernel/jump_label.c). Linux's site is a 4-byte nop, 4-byte
 * aligned, and the alignment may put a c.nop before it that runs too;
 * here the site is one halfword, a c.nop or a c.j, so it needs no
 * alignment, costs one instruction off, and one store changes it whole.
 *
 *   off:  0001          c.nop
 *   on:   a001 | imm    c.j  target
 */
#include "kernel.h"
#include "jump_label.h"
#include "patch.h"
#include "asm/insn.h"

static u16 site_read(const struct jump_entry *e)
{
	return READ_ONCE(*(const u16 *)e->code);
}

/* At boot: the site is the compiler's c.nop, and c.j can reach. */
int arch_jump_label_check(const struct jump_entry *e)
{
	u16 jump;

	if (site_read(e) != RISCV_INSN_C_NOP)
		return -EINVAL;
	return riscv_insn_c_j(e->code, e->target, &jump);
}

/* Write the new halfword, after checking the site holds the old one. */
int arch_jump_label_transform(const struct jump_entry *e, bool enable)
{
	u16 jump, old, new;
	int ret = riscv_insn_c_j(e->code, e->target, &jump);

	if (ret)
		return ret;
	old = enable ? RISCV_INSN_C_NOP : jump;
	new = enable ? jump : RISCV_INSN_C_NOP;
	if (site_read(e) != old)
		return -EINVAL;
	return patch_insn16((void *)e->code, new);
}
