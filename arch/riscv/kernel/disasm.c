/*
 * disasm.c: a one-instruction RISC-V disassembler (RV64IMA, Zicsr,
 * Zifencei, the privileged instructions and RVC), for ftrace_bug
 * reports and oops dumps. 32-bit instructions are matched against a
 * table of match/mask pairs, aliases first, as GNU objdump does, and
 * printed with objdump's operand syntax, except that immediate forms
 * keep their own mnemonic (addi, slli, csrwi) where binutils 2.40 reuses
 * the register one (add, sll, csrw). A compressed instruction is first
 * expanded into the 32-bit instruction it stands for, so objdump's habit
 * of showing `c.addi16sp` as `addi sp, sp, -16` comes for free.
 */
#include "kernel.h"
#include "printf.h"
#include "asm/insn.h"

/*
 * One table row. args spells the operands, one character each:
 *   d s t   rd, rs1, rs2            j   I-immediate, decimal
 *   q       S-immediate, decimal    >   shift amount, hex
 *   u       U-immediate, hex        p   branch target, absolute
 *   a       jal target, absolute    E   CSR, by name when known
 *   Z       CSR immediate (rs1)     P Q fence predecessor, successor
 * Anything else is printed as is, with ',' spaced like ", ".
 */
struct rv_opcode {
	const char *name;
	u32 match;
	u32 mask;
	const char *args;
	bool aqrl;	/* takes the .aq/.rl ordering suffix */
};

#define F3(f)		((u32)(f) << 12)
#define F5(f)		((u32)(f) << 27)
#define F7(f)		((u32)(f) << 25)
#define RD(r)		((u32)(r) << 7)
#define RS1(r)		((u32)(r) << 15)
#define IMM12(i)	((u32)(i) << 20)

#define M_OP		0x0000007fU
#define M_F3		0x0000707fU
#define M_R		0xfe00707fU
#define M_SHIFT64	0xfc00707fU	/* RV64 shamt has 6 bits */
#define M_AMO		0xf800707fU	/* aq, rl: aqrl_suffix() */
#define M_FENCE		0xf00fffffU	/* fm, rs1 and rd must be 0 */
#define M_RD		0x00000f80U
#define M_RS1		0x000f8000U
#define M_RS2		0x01f00000U
#define M_IMM12		0xfff00000U
#define M_ALL		0xffffffffU

#define ROW(n, m, mask, a)	{ n, m, mask, a, false }
#define EXACT(n, insn)		ROW(n, insn, M_ALL, "")
#define R(n, op, f3, f7)	ROW(n, (op) | F3(f3) | F7(f7), M_R, "d,s,t")
#define I(n, op, f3)		ROW(n, (op) | F3(f3), M_F3, "d,s,j")
#define SHIFT(n, op, f3, f7, mask) \
				ROW(n, (op) | F3(f3) | F7(f7), mask, "d,s,>")
#define LOAD(n, f3)		ROW(n, RV_OP_LOAD | F3(f3), M_F3, "d,j(s)")
#define STORE(n, f3)		ROW(n, RV_OP_STORE | F3(f3), M_F3, "t,q(s)")
#define BRANCH(n, f3) \
				ROW(n, RV_OP_BRANCH | F3(f3), M_F3, "s,t,p")
#define CSR(n, f3, a)		ROW(n, RV_OP_SYSTEM | F3(f3), M_F3, a)
#define AMO(n, f3, f5) \
	{ n, RV_OP_AMO | F3(f3) | F5(f5), M_AMO, "d,t,(s)", true }
#define LR(n, f3) \
	{ n, RV_OP_AMO | F3(f3) | F5(0x02), M_AMO | M_RS2, "d,(s)", true }

#define CSR_CYCLE	0xc00
#define CSR_TIME	0xc01
#define CSR_INSTRET	0xc02

/* objdump's preferred spellings; the first row that matches wins. */
static const struct rv_opcode rv_aliases[] = {
	/* `csrrw zero, cycle, zero`: what `unimp` assembles to. */
	EXACT("unimp", 0xc0001073),
	EXACT("nop", RISCV_INSN_NOP),
	ROW("li", RV_OP_IMM, M_F3 | M_RS1, "d,j"),
	ROW("mv", RV_OP_IMM, M_F3 | M_IMM12, "d,s"),
	ROW("not", RV_OP_IMM | F3(4) | IMM12(0xfff), M_F3 | M_IMM12, "d,s"),
	ROW("zext.b", RV_OP_IMM | F3(7) | IMM12(0xff), M_F3 | M_IMM12, "d,s"),
	ROW("seqz", RV_OP_IMM | F3(3) | IMM12(1), M_F3 | M_IMM12, "d,s"),
	ROW("sext.w", RV_OP_IMM_32, M_F3 | M_IMM12, "d,s"),
	ROW("neg", RV_OP_REG | F7(0x20), M_R | M_RS1, "d,t"),
	ROW("negw", RV_OP_REG_32 | F7(0x20), M_R | M_RS1, "d,t"),
	ROW("snez", RV_OP_REG | F3(3), M_R | M_RS1, "d,t"),
	ROW("sltz", RV_OP_REG | F3(2), M_R | M_RS2, "d,s"),
	ROW("sgtz", RV_OP_REG | F3(2), M_R | M_RS1, "d,t"),
	ROW("beqz", RV_OP_BRANCH | F3(0), M_F3 | M_RS2, "s,p"),
	ROW("bnez", RV_OP_BRANCH | F3(1), M_F3 | M_RS2, "s,p"),
	ROW("blez", RV_OP_BRANCH | F3(5), M_F3 | M_RS1, "t,p"),
	ROW("bgez", RV_OP_BRANCH | F3(5), M_F3 | M_RS2, "s,p"),
	ROW("bltz", RV_OP_BRANCH | F3(4), M_F3 | M_RS2, "s,p"),
	ROW("bgtz", RV_OP_BRANCH | F3(4), M_F3 | M_RS1, "t,p"),
	ROW("j", RV_OP_JAL, M_OP | M_RD, "a"),
	ROW("jal", RV_OP_JAL | RD(RV_REG_RA), M_OP | M_RD, "a"),
	EXACT("ret", RV_OP_JALR | RS1(RV_REG_RA)),
	ROW("jr", RV_OP_JALR, M_F3 | M_RD | M_IMM12, "s"),
	ROW("jr", RV_OP_JALR, M_F3 | M_RD, "j(s)"),
	ROW("jalr", RV_OP_JALR | RD(RV_REG_RA), M_F3 | M_RD | M_IMM12, "s"),
	ROW("jalr", RV_OP_JALR | RD(RV_REG_RA), M_F3 | M_RD, "j(s)"),
	ROW("jalr", RV_OP_JALR, M_F3 | M_IMM12, "d,s"),
	ROW("rdcycle", RV_OP_SYSTEM | F3(2) | IMM12(CSR_CYCLE),
	    M_F3 | M_RS1 | M_IMM12, "d"),
	ROW("rdtime", RV_OP_SYSTEM | F3(2) | IMM12(CSR_TIME),
	    M_F3 | M_RS1 | M_IMM12, "d"),
	ROW("rdinstret", RV_OP_SYSTEM | F3(2) | IMM12(CSR_INSTRET),
	    M_F3 | M_RS1 | M_IMM12, "d"),
	ROW("csrr", RV_OP_SYSTEM | F3(2), M_F3 | M_RS1, "d,E"),
	ROW("csrw", RV_OP_SYSTEM | F3(1), M_F3 | M_RD, "E,s"),
	ROW("csrs", RV_OP_SYSTEM | F3(2), M_F3 | M_RD, "E,s"),
	ROW("csrc", RV_OP_SYSTEM | F3(3), M_F3 | M_RD, "E,s"),
	ROW("csrwi", RV_OP_SYSTEM | F3(5), M_F3 | M_RD, "E,Z"),
	ROW("csrsi", RV_OP_SYSTEM | F3(6), M_F3 | M_RD, "E,Z"),
	ROW("csrci", RV_OP_SYSTEM | F3(7), M_F3 | M_RD, "E,Z"),
	/* `fence w, 0`: the Zihintpause hint spinning loops use. */
	EXACT("pause", 0x0100000f),
	EXACT("fence", 0x0ff0000f),
	EXACT("fence.tso", 0x8330000f),
	EXACT("sfence.vma", 0x12000073),
	ROW("sfence.vma", 0x12000073, M_R | M_RD | M_RS2, "s"),
};

static const struct rv_opcode rv_opcodes[] = {
	ROW("lui", RV_OP_LUI, M_OP, "d,u"),
	ROW("auipc", RV_OP_AUIPC, M_OP, "d,u"),
	ROW("jal", RV_OP_JAL, M_OP, "d,a"),
	ROW("jalr", RV_OP_JALR, M_F3, "d,j(s)"),
	BRANCH("beq", 0), BRANCH("bne", 1), BRANCH("blt", 4),
	BRANCH("bge", 5), BRANCH("bltu", 6), BRANCH("bgeu", 7),
	LOAD("lb", 0), LOAD("lh", 1), LOAD("lw", 2), LOAD("ld", 3),
	LOAD("lbu", 4), LOAD("lhu", 5), LOAD("lwu", 6),
	STORE("sb", 0), STORE("sh", 1), STORE("sw", 2), STORE("sd", 3),
	I("addi", RV_OP_IMM, 0), I("slti", RV_OP_IMM, 2),
	I("sltiu", RV_OP_IMM, 3), I("xori", RV_OP_IMM, 4),
	I("ori", RV_OP_IMM, 6), I("andi", RV_OP_IMM, 7),
	SHIFT("slli", RV_OP_IMM, 1, 0x00, M_SHIFT64),
	SHIFT("srli", RV_OP_IMM, 5, 0x00, M_SHIFT64),
	SHIFT("srai", RV_OP_IMM, 5, 0x20, M_SHIFT64),
	R("add", RV_OP_REG, 0, 0x00), R("sub", RV_OP_REG, 0, 0x20),
	R("sll", RV_OP_REG, 1, 0x00), R("slt", RV_OP_REG, 2, 0x00),
	R("sltu", RV_OP_REG, 3, 0x00), R("xor", RV_OP_REG, 4, 0x00),
	R("srl", RV_OP_REG, 5, 0x00), R("sra", RV_OP_REG, 5, 0x20),
	R("or", RV_OP_REG, 6, 0x00), R("and", RV_OP_REG, 7, 0x00),
	I("addiw", RV_OP_IMM_32, 0),
	SHIFT("slliw", RV_OP_IMM_32, 1, 0x00, M_R),
	SHIFT("srliw", RV_OP_IMM_32, 5, 0x00, M_R),
	SHIFT("sraiw", RV_OP_IMM_32, 5, 0x20, M_R),
	R("addw", RV_OP_REG_32, 0, 0x00), R("subw", RV_OP_REG_32, 0, 0x20),
	R("sllw", RV_OP_REG_32, 1, 0x00), R("srlw", RV_OP_REG_32, 5, 0x00),
	R("sraw", RV_OP_REG_32, 5, 0x20),
	R("mul", RV_OP_REG, 0, 0x01), R("mulh", RV_OP_REG, 1, 0x01),
	R("mulhsu", RV_OP_REG, 2, 0x01), R("mulhu", RV_OP_REG, 3, 0x01),
	R("div", RV_OP_REG, 4, 0x01), R("divu", RV_OP_REG, 5, 0x01),
	R("rem", RV_OP_REG, 6, 0x01), R("remu", RV_OP_REG, 7, 0x01),
	R("mulw", RV_OP_REG_32, 0, 0x01), R("divw", RV_OP_REG_32, 4, 0x01),
	R("divuw", RV_OP_REG_32, 5, 0x01), R("remw", RV_OP_REG_32, 6, 0x01),
	R("remuw", RV_OP_REG_32, 7, 0x01),
	LR("lr.w", 2), LR("lr.d", 3),
	AMO("sc.w", 2, 0x03), AMO("sc.d", 3, 0x03),
	AMO("amoswap.w", 2, 0x01), AMO("amoswap.d", 3, 0x01),
	AMO("amoadd.w", 2, 0x00), AMO("amoadd.d", 3, 0x00),
	AMO("amoxor.w", 2, 0x04), AMO("amoxor.d", 3, 0x04),
	AMO("amoand.w", 2, 0x0c), AMO("amoand.d", 3, 0x0c),
	AMO("amoor.w", 2, 0x08), AMO("amoor.d", 3, 0x08),
	AMO("amomin.w", 2, 0x10), AMO("amomin.d", 3, 0x10),
	AMO("amomax.w", 2, 0x14), AMO("amomax.d", 3, 0x14),
	AMO("amominu.w", 2, 0x18), AMO("amominu.d", 3, 0x18),
	AMO("amomaxu.w", 2, 0x1c), AMO("amomaxu.d", 3, 0x1c),
	CSR("csrrw", 1, "d,E,s"), CSR("csrrs", 2, "d,E,s"),
	CSR("csrrc", 3, "d,E,s"), CSR("csrrwi", 5, "d,E,Z"),
	CSR("csrrsi", 6, "d,E,Z"), CSR("csrrci", 7, "d,E,Z"),
	ROW("fence", RV_OP_MISC_MEM, M_FENCE, "P,Q"),
	EXACT("fence.i", 0x0000100f),
	EXACT("ecall", 0x00000073),
	EXACT("ebreak", 0x00100073),
	EXACT("sret", 0x10200073),
	EXACT("mret", 0x30200073),
	EXACT("wfi", 0x10500073),
	ROW("sfence.vma", 0x12000073, M_R | M_RD, "s,t"),
};

static const char *const rv_reg_names[RV_NR_REGS] = {
	"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2",
	"s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
	"a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
	"s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

/* The CSRs a supervisor kernel touches; others print as numbers. */
static const struct {
	u16 num;
	const char *name;
} rv_csr_names[] = {
	{ 0x100, "sstatus" }, { 0x104, "sie" }, { 0x105, "stvec" },
	{ 0x106, "scounteren" }, { 0x10a, "senvcfg" },
	{ 0x140, "sscratch" }, { 0x141, "sepc" }, { 0x142, "scause" },
	{ 0x143, "stval" }, { 0x144, "sip" }, { 0x180, "satp" },
	{ CSR_CYCLE, "cycle" }, { CSR_TIME, "time" },
	{ CSR_INSTRET, "instret" },
};

/* The output buffer, filled the way scnprintf fills one. */
struct dis_out {
	char *buf;
	size_t size;
	size_t len;
};

static __printf(2, 3) void emit(struct dis_out *o, const char *fmt, ...)
{
	size_t room = o->size - o->len;
	va_list ap;
	int n;

	if (room <= 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, room, fmt, ap);
	va_end(ap);
	o->len += min((size_t)n, room - 1);
}

static void emit_csr(struct dis_out *o, u32 num)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rv_csr_names); i++) {
		if (rv_csr_names[i].num == num) {
			emit(o, "%s", rv_csr_names[i].name);
			return;
		}
	}
	emit(o, "0x%x", num);
}

/* A fence's access set: some of i, o, r, w; "0" when empty. */
static void emit_fence_set(struct dis_out *o, u32 set)
{
	static const char letters[] = "iorw";
	int i;

	if (!set) {
		emit(o, "0");
		return;
	}
	for (i = 0; i < 4; i++)
		if (set & (8 >> i))
			emit(o, "%c", letters[i]);
}

static void emit_operand(struct dis_out *o, char c, u32 insn,
			 unsigned long pc)
{
	switch (c) {
	case 'd':
		emit(o, "%s", rv_reg_names[riscv_insn_rd(insn)]);
		break;
	case 's':
		emit(o, "%s", rv_reg_names[riscv_insn_rs1(insn)]);
		break;
	case 't':
		emit(o, "%s", rv_reg_names[riscv_insn_rs2(insn)]);
		break;
	case 'j':
		emit(o, "%ld", riscv_imm_i(insn));
		break;
	case 'q':
		emit(o, "%ld", riscv_imm_s(insn));
		break;
	case '>':
		emit(o, "0x%x", riscv_bits(insn, 25, 20));
		break;
	case 'u':
		emit(o, "0x%x", riscv_bits(insn, 31, 12));
		break;
	case 'p':
		emit(o, "0x%lx", pc + riscv_imm_b(insn));
		break;
	case 'a':
		emit(o, "0x%lx", riscv_insn_jal_target(pc, insn));
		break;
	case 'E':
		emit_csr(o, riscv_bits(insn, 31, 20));
		break;
	case 'Z':
		emit(o, "%d", riscv_insn_rs1(insn));
		break;
	case 'P':
		emit_fence_set(o, riscv_bits(insn, 27, 24));
		break;
	case 'Q':
		emit_fence_set(o, riscv_bits(insn, 23, 20));
		break;
	case ',':
		emit(o, ", ");
		break;
	default:
		emit(o, "%c", c);
	}
}

static const struct rv_opcode *lookup(const struct rv_opcode *table,
				      size_t n, u32 insn)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((insn & table[i].mask) == table[i].match)
			return &table[i];
	return NULL;
}

/* Bit 26 is aq (acquire), bit 25 rl (release). */
static const char *aqrl_suffix(u32 insn)
{
	static const char *const suffix[] = { "", ".rl", ".aq", ".aqrl" };

	return suffix[riscv_bits(insn, 26, 25)];
}

/* Returns false when insn is no instruction we know. */
static bool disasm_insn(struct dis_out *o, u32 insn, unsigned long pc)
{
	const struct rv_opcode *op;
	const char *a;

	op = lookup(rv_aliases, ARRAY_SIZE(rv_aliases), insn);
	if (!op)
		op = lookup(rv_opcodes, ARRAY_SIZE(rv_opcodes), insn);
	if (!op)
		return false;
	emit(o, "%s%s", op->name, op->aqrl ? aqrl_suffix(insn) : "");
	if (*op->args)
		emit(o, " ");
	for (a = op->args; *a; a++)
		emit_operand(o, *a, insn, pc);
	return true;
}

/*
 * RVC expansion. Each compressed immediate is a scrambled bit field;
 * rvc_field() moves c[hi:lo] to bit `at` of the decoded value.
 */
static u32 rvc_field(u16 c, int hi, int lo, int at)
{
	return riscv_bits(c, hi, lo) << at;
}

/* rd', rs1', rs2': the 3-bit fields that name x8..x15. */
static int rvc_reg(u16 c, int lo)
{
	return RV_REG_S0 + riscv_bits(c, lo + 2, lo);
}

static long rvc_imm6(u16 c)
{
	return riscv_sext(rvc_field(c, 12, 12, 5) | rvc_field(c, 6, 2, 0), 6);
}

static u32 rvc_shamt(u16 c)
{
	return rvc_field(c, 12, 12, 5) | rvc_field(c, 6, 2, 0);
}

static u32 rvc_addi4spn_imm(u16 c)
{
	return rvc_field(c, 12, 11, 4) | rvc_field(c, 10, 7, 6) |
	       rvc_field(c, 6, 6, 2) | rvc_field(c, 5, 5, 3);
}

static long rvc_addi16sp_imm(u16 c)
{
	return riscv_sext(rvc_field(c, 12, 12, 9) | rvc_field(c, 6, 6, 4) |
			  rvc_field(c, 5, 5, 6) | rvc_field(c, 4, 3, 7) |
			  rvc_field(c, 2, 2, 5), 10);
}

/* Offsets of c.lw/c.sw and of c.ld/c.sd. */
static u32 rvc_word_off(u16 c)
{
	return rvc_field(c, 12, 10, 3) | rvc_field(c, 6, 6, 2) |
	       rvc_field(c, 5, 5, 6);
}

static u32 rvc_dword_off(u16 c)
{
	return rvc_field(c, 12, 10, 3) | rvc_field(c, 6, 5, 6);
}

static long rvc_j_imm(u16 c)
{
	return riscv_sext(rvc_field(c, 12, 12, 11) | rvc_field(c, 11, 11, 4) |
			  rvc_field(c, 10, 9, 8) | rvc_field(c, 8, 8, 10) |
			  rvc_field(c, 7, 7, 6) | rvc_field(c, 6, 6, 7) |
			  rvc_field(c, 5, 3, 1) | rvc_field(c, 2, 2, 5), 12);
}

static long rvc_b_imm(u16 c)
{
	return riscv_sext(rvc_field(c, 12, 12, 8) | rvc_field(c, 11, 10, 3) |
			  rvc_field(c, 6, 5, 6) | rvc_field(c, 4, 3, 1) |
			  rvc_field(c, 2, 2, 5), 9);
}

/* Stack-pointer-relative offsets: c.lwsp, c.ldsp, c.swsp, c.sdsp. */
static u32 rvc_lwsp_off(u16 c)
{
	return rvc_field(c, 12, 12, 5) | rvc_field(c, 6, 4, 2) |
	       rvc_field(c, 3, 2, 6);
}

static u32 rvc_ldsp_off(u16 c)
{
	return rvc_field(c, 12, 12, 5) | rvc_field(c, 6, 5, 3) |
	       rvc_field(c, 4, 2, 6);
}

static u32 rvc_swsp_off(u16 c)
{
	return rvc_field(c, 12, 9, 2) | rvc_field(c, 8, 7, 6);
}

static u32 rvc_sdsp_off(u16 c)
{
	return rvc_field(c, 12, 10, 3) | rvc_field(c, 9, 7, 6);
}

/*
 * The expanders return the equivalent 32-bit instruction, or 0 (never
 * a valid instruction) for reserved encodings and for c.fld/c.fsd/
 * c.fldsp/c.fsdsp, which need the D extension this kernel lacks.
 */
static u32 rvc_expand_q0(u16 c)
{
	int rd = rvc_reg(c, 2), rs1 = rvc_reg(c, 7);

	switch (riscv_bits(c, 15, 13)) {
	case 0:	/* c.addi4spn: a zero immediate is reserved */
		if (!rvc_addi4spn_imm(c))
			return 0;
		return riscv_enc_i(RV_OP_IMM, 0, rd, RV_REG_SP,
				   rvc_addi4spn_imm(c));
	case 2:	/* c.lw */
		return riscv_enc_i(RV_OP_LOAD, 2, rd, rs1, rvc_word_off(c));
	case 3:	/* c.ld */
		return riscv_enc_i(RV_OP_LOAD, 3, rd, rs1, rvc_dword_off(c));
	case 6:	/* c.sw */
		return riscv_enc_s(RV_OP_STORE, 2, rs1, rd, rvc_word_off(c));
	case 7:	/* c.sd */
		return riscv_enc_s(RV_OP_STORE, 3, rs1, rd, rvc_dword_off(c));
	default:
		return 0;
	}
}

/* c.lui, or c.addi16sp when rd is sp; zero immediates are reserved. */
static u32 rvc_expand_lui(u16 c)
{
	int rd = riscv_bits(c, 11, 7);

	if (rd == RV_REG_SP) {
		if (!rvc_addi16sp_imm(c))
			return 0;
		return riscv_enc_i(RV_OP_IMM, 0, rd, rd, rvc_addi16sp_imm(c));
	}
	if (!rvc_imm6(c))
		return 0;
	return riscv_enc_u(RV_OP_LUI, rd, rvc_imm6(c));
}

/* c.sub c.xor c.or c.and, then c.subw c.addw, by c[12] and c[6:5]. */
static const struct {
	u8 opcode, funct3, funct7;
} rvc_arith[8] = {
	{ RV_OP_REG, 0, 0x20 }, { RV_OP_REG, 4, 0 },
	{ RV_OP_REG, 6, 0 }, { RV_OP_REG, 7, 0 },
	{ RV_OP_REG_32, 0, 0x20 }, { RV_OP_REG_32, 0, 0 },
};

/* c.srli, c.srai, c.andi and the register-register arithmetic. */
static u32 rvc_expand_alu(u16 c)
{
	int rd = rvc_reg(c, 7), rs2 = rvc_reg(c, 2), i;

	switch (riscv_bits(c, 11, 10)) {
	case 0:
		return riscv_enc_i(RV_OP_IMM, 5, rd, rd, rvc_shamt(c));
	case 1:	/* srai: srli with imm bit 10 (instruction bit 30) set */
		return riscv_enc_i(RV_OP_IMM, 5, rd, rd,
				   rvc_shamt(c) | 0x400);
	case 2:
		return riscv_enc_i(RV_OP_IMM, 7, rd, rd, rvc_imm6(c));
	default:
		i = riscv_bits(c, 12, 12) << 2 | riscv_bits(c, 6, 5);
		if (!rvc_arith[i].opcode)
			return 0;
		return riscv_enc_r(rvc_arith[i].opcode, rvc_arith[i].funct3,
				   rvc_arith[i].funct7, rd, rd, rs2);
	}
}

static u32 rvc_expand_q1(u16 c)
{
	int rd = riscv_bits(c, 11, 7);

	switch (riscv_bits(c, 15, 13)) {
	case 0:	/* c.addi, c.nop */
		return riscv_enc_i(RV_OP_IMM, 0, rd, rd, rvc_imm6(c));
	case 1:	/* c.addiw: rd == 0 is reserved */
		if (!rd)
			return 0;
		return riscv_enc_i(RV_OP_IMM_32, 0, rd, rd, rvc_imm6(c));
	case 2:	/* c.li */
		return riscv_enc_i(RV_OP_IMM, 0, rd, RV_REG_ZERO, rvc_imm6(c));
	case 3:
		return rvc_expand_lui(c);
	case 4:
		return rvc_expand_alu(c);
	case 5:	/* c.j */
		return riscv_enc_j(RV_REG_ZERO, rvc_j_imm(c));
	case 6:	/* c.beqz */
		return riscv_enc_b(0, rvc_reg(c, 7), RV_REG_ZERO, rvc_b_imm(c));
	default: /* c.bnez */
		return riscv_enc_b(1, rvc_reg(c, 7), RV_REG_ZERO, rvc_b_imm(c));
	}
}

/* c.jr, c.mv, c.ebreak, c.jalr, c.add: told apart by c[12] and rs2. */
static u32 rvc_expand_cr(u16 c)
{
	int rs1 = riscv_bits(c, 11, 7), rs2 = riscv_bits(c, 6, 2);
	bool link = riscv_bits(c, 12, 12);

	if (rs2 && link)
		return riscv_enc_r(RV_OP_REG, 0, 0, rs1, rs1, rs2);
	if (rs2)	/* c.mv means add, but objdump shows it as mv */
		return riscv_enc_i(RV_OP_IMM, 0, rs1, rs2, 0);
	if (!rs1)	/* c.ebreak, or a reserved c.jr zero */
		return link ? 0x00100073 : 0;
	return riscv_enc_i(RV_OP_JALR, 0, link ? RV_REG_RA : RV_REG_ZERO,
			   rs1, 0);
}

static u32 rvc_expand_q2(u16 c)
{
	int rd = riscv_bits(c, 11, 7), rs2 = riscv_bits(c, 6, 2);

	switch (riscv_bits(c, 15, 13)) {
	case 0:	/* c.slli */
		return riscv_enc_i(RV_OP_IMM, 1, rd, rd, rvc_shamt(c));
	case 2:	/* c.lwsp: rd == 0 is reserved */
		if (!rd)
			return 0;
		return riscv_enc_i(RV_OP_LOAD, 2, rd, RV_REG_SP,
				   rvc_lwsp_off(c));
	case 3:	/* c.ldsp: rd == 0 is reserved */
		if (!rd)
			return 0;
		return riscv_enc_i(RV_OP_LOAD, 3, rd, RV_REG_SP,
				   rvc_ldsp_off(c));
	case 4:
		return rvc_expand_cr(c);
	case 6:	/* c.swsp */
		return riscv_enc_s(RV_OP_STORE, 2, RV_REG_SP, rs2,
				   rvc_swsp_off(c));
	case 7:	/* c.sdsp */
		return riscv_enc_s(RV_OP_STORE, 3, RV_REG_SP, rs2,
				   rvc_sdsp_off(c));
	default:
		return 0;
	}
}

static u32 (*const rvc_expand_quadrant[3])(u16 c) = {
	rvc_expand_q0, rvc_expand_q1, rvc_expand_q2,
};

/* Parcels are little-endian and only 2-byte aligned: read bytes. */
static u16 read_parcel(const u8 *p)
{
	return p[0] | p[1] << 8;
}

static void disasm_rvc(struct dis_out *o, u16 c, unsigned long pc)
{
	u32 insn = rvc_expand_quadrant[c & 3](c);

	/* The all-zero halfword is the defined illegal instruction. */
	if (!c)
		emit(o, "unimp");
	else if (!insn || !disasm_insn(o, insn, pc))
		emit(o, ".half 0x%04x", c);
}

int riscv_disasm(const void *code, unsigned long pc, char *buf, size_t size)
{
	struct dis_out o = { buf, size, 0 };
	const u8 *p = code;
	u16 first = read_parcel(p);
	u32 insn;

	if (size)
		buf[0] = '\0';
	if (riscv_insn_len(first) == 2) {
		disasm_rvc(&o, first, pc);
		return 2;
	}
	insn = first | (u32)read_parcel(p + 2) << 16;
	if (!disasm_insn(&o, insn, pc))
		emit(&o, ".word 0x%08x", insn);
	return 4;
}
