/*
 * fuzz_insn.c: the instruction encoder and decoders (insn.c) and the
 * disassembler (disasm.c). Encoding a call and decoding it must give
 * back its target and register, exactly when the target is in reach;
 * any decoded jal must re-encode to the same word. The
 * disassembler must read only the 2 or 4 bytes of its instruction,
 * write only inside its buffer, and truncate to a prefix of the text.
 */
#include "fuzz.h"

/* The kernel's formatter under its own names, beside the host's. */
#define vsnprintf rv_vsnprintf
#define snprintf rv_snprintf
#define scnprintf rv_scnprintf
#include "../../lib/vsprintf.c"
#include "../../arch/riscv/kernel/insn.c"
#include "../../arch/riscv/kernel/disasm.c"
#undef vsnprintf
#undef snprintf
#undef scnprintf

#define TEXT_MAX	64

/* disasm.c never prints a symbol. */
size_t sprint_symbol(char *buf, size_t size, unsigned long addr,
		     bool with_offset)
{
	abort();
}

static const long edges[] = {
	RISCV_JAL_MIN, RISCV_JAL_MAX,
};

/*
 * A target: often one a few bytes off an edge of jal's reach, else
 * anywhere. pc is a code address, so it is even.
 */
static void pick_call(struct fuzz_in *in, unsigned long *pc,
		      unsigned long *target)
{
	u8 how = fuzz_u8(in);
	long delta = (s8)fuzz_u8(in);

	*pc = fuzz_u64(in, 8) & ~1UL;
	if (how < 0x80)
		*target = *pc + edges[how % ARRAY_SIZE(edges)] + delta;
	else
		*target = fuzz_u64(in, 8);
}

/* Registers in range mostly, now and then one out of it. */
static int pick_reg(struct fuzz_in *in)
{
	u8 b = fuzz_u8(in);

	return b < 0xf0 ? b % RV_NR_REGS : (s8)b * 3;
}

static bool reachable(unsigned long pc, unsigned long target, long lo,
		      long hi)
{
	long offset = (long)(target - pc);

	return !(target & 1) && offset >= lo && offset <= hi;
}

static void check_jal(struct fuzz_in *in)
{
	unsigned long pc, target;
	int rd = pick_reg(in), err;
	u32 insn = 0xdeadbeef;

	pick_call(in, &pc, &target);
	err = riscv_insn_jal(pc, target, rd, &insn);
	if (rd < 0 || rd >= RV_NR_REGS) {
		FUZZ_CHECK(err == -EINVAL && insn == 0xdeadbeef);
		return;
	}
	if (!reachable(pc, target, RISCV_JAL_MIN, RISCV_JAL_MAX)) {
		FUZZ_CHECK(err == -ERANGE && insn == 0xdeadbeef);
		return;
	}
	FUZZ_CHECK(err == 0);
	FUZZ_CHECK(riscv_insn_is_jal(insn));
	FUZZ_CHECK(riscv_insn_rd(insn) == rd);
	FUZZ_CHECK(riscv_insn_jal_target(pc, insn) == target);
}

/* Whatever the decoder accepts, the encoder must write back as is. */
static void check_decode(struct fuzz_in *in)
{
	unsigned long pc = fuzz_u64(in, 8) & ~1UL, target;
	u32 word, again;

	word = fuzz_u64(in, 4);
	if (fuzz_u8(in) & 1)	/* help it find the opcode */
		word = (word & ~0x7fU) | RV_OP_JAL;
	FUZZ_CHECK(riscv_insn_is_jal(word) == ((word & 0x7f) == RV_OP_JAL));
	if (riscv_insn_is_jal(word)) {
		target = riscv_insn_jal_target(pc, word);
		FUZZ_CHECK(riscv_insn_jal(pc, target, riscv_insn_rd(word),
					  &again) == 0);
		FUZZ_CHECK(again == word);
	}
}

static bool printable(const char *s)
{
	for (; *s; s++)
		if (*s < ' ' || *s > '~')
			return false;
	return true;
}

/*
 * The instruction sits at the end of an allocation of its own length,
 * and the text goes to one of exactly size bytes.
 */
static void check_disasm(struct fuzz_in *in)
{
	unsigned long pc = fuzz_u64(in, 8) & ~1UL;
	size_t size = fuzz_pick(in, TEXT_MAX + 1);
	u8 bytes[4];
	char full[TEXT_MAX], *buf = size ? malloc(size) : NULL;
	int len, i;
	u8 *code;

	for (i = 0; i < 4; i++)
		bytes[i] = fuzz_u8(in);
	len = riscv_insn_len(bytes[0] | bytes[1] << 8);
	code = malloc(len);
	memcpy(code, bytes, len);
	FUZZ_CHECK(riscv_disasm(code, pc, full, sizeof(full)) == len);
	FUZZ_CHECK(strlen(full) > 0 && strlen(full) < sizeof(full) - 1);
	FUZZ_CHECK(printable(full));
	FUZZ_CHECK(riscv_disasm(code, pc, buf, size) == len);
	FUZZ_CHECK(!size || (strlen(buf) == min(strlen(full), size - 1) &&
			     !strncmp(buf, full, size - 1)));
	free(code);
	free(buf);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_in in = { data, size };

	switch (fuzz_pick(&in, 3)) {
	case 0:
		check_jal(&in);
		break;
	case 1:
		check_decode(&in);
		break;
	default:
		check_disasm(&in);
	}
	return 0;
}
