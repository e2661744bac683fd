/*
 * test_insn.c: host tests for the instruction encoder (insn.c) and the
 * disassembler (disasm.c). Expected encodings and texts come from GNU
 * as/objdump 2.40, run by hand when the tables were written: jal at the
 * edges of its reach, and one table row per instruction form the
 * disassembler knows.
 */
#include "test.h"
#include "../../lib/vsprintf.c"
#include "../../arch/riscv/kernel/insn.c"
#include "../../arch/riscv/kernel/disasm.c"

/* vsprintf.c's %pS needs kallsyms; nothing here prints symbols. */
size_t sprint_symbol(char *buf, size_t size, unsigned long addr,
		     bool with_offset)
{
	return scnprintf(buf, size, "?");
}

#define BASE	0x80200000UL

TEST(nop_encodings)
{
	EXPECT_EQ(RISCV_INSN_NOP, 0x00000013);
	EXPECT_EQ(RISCV_INSN_C_NOP, 0x0001);
	EXPECT_EQ(riscv_insn_len(RISCV_INSN_NOP & 0xffff), 4);
	EXPECT_EQ(riscv_insn_len(RISCV_INSN_C_NOP), 2);
}

TEST(insn_len)
{
	EXPECT_EQ(riscv_insn_len(0x0000), 2);
	EXPECT_EQ(riscv_insn_len(0x8082), 2);	/* ret (c.jr ra) */
	EXPECT_EQ(riscv_insn_len(0xfffe), 2);
	EXPECT_EQ(riscv_insn_len(0x8067), 4);	/* ret (jalr) */
	EXPECT_EQ(riscv_insn_len(0x0003), 4);
}

/* Encodings `as` gave for the same pc, target and registers. */
TEST(jal_matches_as)
{
	u32 insn = 0;

	EXPECT_EQ(riscv_insn_jal(BASE, BASE + 0xffffe, RV_REG_T0, &insn), 0);
	EXPECT_EQ(insn, 0x7ffff2ef);
	EXPECT_EQ(riscv_insn_jal(BASE + 4, BASE + 4 - 0x100000, RV_REG_RA,
				 &insn), 0);
	EXPECT_EQ(insn, 0x800000ef);
	EXPECT_EQ(riscv_insn_jal(BASE + 8, BASE + 8, RV_REG_ZERO, &insn), 0);
	EXPECT_EQ(insn, 0x0000006f);
}

TEST(jal_reach_edges)
{
	u32 insn = 0;

	EXPECT_EQ(riscv_insn_jal(BASE, BASE + RISCV_JAL_MAX, RV_REG_T0,
				 &insn), 0);
	EXPECT_EQ(riscv_insn_jal_target(BASE, insn), BASE + 0xffffe);
	EXPECT_EQ(riscv_insn_jal(BASE, BASE + RISCV_JAL_MIN, RV_REG_T0,
				 &insn), 0);
	EXPECT_EQ(riscv_insn_jal_target(BASE, insn), BASE - 0x100000);

	insn = 0x12345678;
	EXPECT_EQ(riscv_insn_jal(BASE, BASE + 0x100000, RV_REG_T0, &insn),
		  -ERANGE);
	EXPECT_EQ(riscv_insn_jal(BASE, BASE - 0x100002, RV_REG_T0, &insn),
		  -ERANGE);
	EXPECT_EQ(riscv_insn_jal(BASE, BASE + (1UL << 32), RV_REG_T0, &insn),
		  -ERANGE);
	EXPECT_EQ(riscv_insn_jal(0, -2UL << 40, RV_REG_T0, &insn), -ERANGE);
	EXPECT_EQ(insn, 0x12345678);	/* untouched on error */
}

TEST(jal_rejects_odd_target_and_bad_reg)
{
	u32 insn = 0x12345678;

	EXPECT_EQ(riscv_insn_jal(BASE, BASE + 1, RV_REG_T0, &insn), -ERANGE);
	EXPECT_EQ(riscv_insn_jal(BASE, BASE - 0xfff, RV_REG_T0, &insn),
		  -ERANGE);
	EXPECT_EQ(riscv_insn_jal(BASE, BASE + 4, 32, &insn), -EINVAL);
	EXPECT_EQ(riscv_insn_jal(BASE, BASE + 4, -1, &insn), -EINVAL);
	EXPECT_EQ(insn, 0x12345678);
}

/* Every even offset pattern decodes back to its target and register. */
TEST(jal_round_trip)
{
	long off;
	int bad = 0;

	for (off = RISCV_JAL_MIN; off <= RISCV_JAL_MAX; off += 2 * 1021) {
		unsigned long pc = BASE + (off & 0xffe);
		u32 insn = 0;
		int rd = (int)(off & 31);

		if (riscv_insn_jal(pc, pc + off, rd, &insn) ||
		    !riscv_insn_is_jal(insn) || riscv_insn_rd(insn) != rd ||
		    riscv_insn_jal_target(pc, insn) != pc + off)
			bad++;
	}
	EXPECT_EQ(bad, 0);
}

/* A static key's site (jump_label.h); encodings from GNU as 2.40. */
TEST(c_j_matches_as)
{
	u16 insn = 0;

	EXPECT_EQ(riscv_insn_c_j(BASE, BASE + 0x52, &insn), 0);
	EXPECT_EQ(insn, 0xa889);
	EXPECT_EQ(riscv_insn_c_j(BASE + 2, BASE + 2 - 2048, &insn), 0);
	EXPECT_EQ(insn, 0xb001);
	EXPECT_EQ(riscv_insn_c_j(BASE + 4, BASE + 4 + 2046, &insn), 0);
	EXPECT_EQ(insn, 0xaffd);
	EXPECT_EQ(riscv_insn_c_j(BASE + 6, BASE + 4, &insn), 0);
	EXPECT_EQ(insn, 0xbffd);
}

TEST(c_j_reach_and_round_trip)
{
	char text[64], want[64];
	u16 insn = 0;
	long off;

	EXPECT_EQ(riscv_insn_c_j(BASE, BASE + 2048, &insn), -ERANGE);
	EXPECT_EQ(riscv_insn_c_j(BASE, BASE - 2050, &insn), -ERANGE);
	EXPECT_EQ(riscv_insn_c_j(BASE, BASE + 3, &insn), -ERANGE);
	for (off = RISCV_C_J_MIN; off <= RISCV_C_J_MAX; off += 2) {
		if (riscv_insn_c_j(BASE, BASE + off, &insn)) {
			EXPECT_EQ(off, 0);
			break;
		}
		riscv_disasm(&insn, BASE, text, sizeof(text));
		snprintf(want, sizeof(want), "j 0x%lx", BASE + off);
		if (strcmp(text, want)) {
			EXPECT_STR(text, want);
			break;
		}
	}
}

TEST(insn_is_jal_and_rd)
{
	EXPECT(riscv_insn_is_jal(0x0e0002ef));		/* jal t0, ... */
	EXPECT(riscv_insn_is_jal(0x0000006f));		/* j . */
	EXPECT(!riscv_insn_is_jal(0x000280e7));	/* jalr t0 */
	EXPECT(!riscv_insn_is_jal(RISCV_INSN_NOP));
	EXPECT_EQ(riscv_insn_rd(0x0e0002ef), RV_REG_T0);
	EXPECT_EQ(riscv_insn_rd(0x00c000ef), RV_REG_RA);
	EXPECT_EQ(riscv_insn_rd(0xfffff337), RV_REG_T1);	/* lui t1 */
	EXPECT_EQ(riscv_insn_jal_target(BASE + 0x18, 0x0e0002ef),
		  BASE + 0xf8);
	EXPECT_EQ(riscv_insn_jal_target(BASE + 8, 0xfe1fe06f),
		  BASE + 8 - 0x1020);	/* j . - 0x1020 */
}

/* A veneer's far jump (asm/ftrace_veneer.h), read where it lies. */
static long auipc_jr_offset(u32 auipc, u32 jalr)
{
	u32 code[2] = { auipc, jalr };
	unsigned long pc = (unsigned long)code;
	unsigned long target = riscv_insn_auipc_jr_target(pc);

	return target ? (long)(target - pc) : 0;
}

TEST(auipc_jr_target)
{
	/* auipc t1, 0x1; jr -8(t1) */
	EXPECT_EQ(auipc_jr_offset(0x00001317, 0xff830067), 0x1000 - 8);
	/* auipc t1, 0xffc9d; jr -1048(t1): a veneer 3.4 MiB past ftrace_caller */
	EXPECT_EQ(auipc_jr_offset(0xffc9d317, 0xbe830067),
		  -0x363000L - 1048);
	/* jalr ra, -8(t1): a call, not a jump */
	EXPECT_EQ(auipc_jr_offset(0x00001317, 0xff8300e7), 0);
	/* jr -8(t0): not the register auipc set */
	EXPECT_EQ(auipc_jr_offset(0x00001317, 0xff828067), 0);
	/* lui t1, 0x1; jr -8(t1) */
	EXPECT_EQ(auipc_jr_offset(0x00001337, 0xff830067), 0);
}

/*
 * Disassembler tables: pc, the instruction (compressed when the low two
 * bits are not 11), and objdump's text for it, written the way
 * riscv_disasm writes it: operands separated by ", ", targets as 0x
 * addresses, no `<symbol>` or `# comment`, and the canonical immediate
 * mnemonics addi/andi/ori/slli/srli/srai/addiw/slliw/srliw/sraiw and
 * csrrwi/csrwi etc. where binutils 2.40 prints the add/and/or/sll/...
 * and csrrw/csrw aliases with an immediate operand. Comments mark the
 * only rows where riscv_disasm chose otherwise.
 */
struct dis_case {
	unsigned long pc;
	u32 insn;
	const char *text;
};

static void check_table(int *failed, const struct dis_case *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int len = (t[i].insn & 3) == 3 ? 4 : 2;
		/* Garbage after a compressed instruction must not be read. */
		u8 code[4] = { t[i].insn, t[i].insn >> 8,
			       len == 4 ? t[i].insn >> 16 : 0xff,
			       len == 4 ? t[i].insn >> 24 : 0xff };
		char buf[64];
		int got = riscv_disasm(code, t[i].pc, buf, sizeof(buf));

		if (got != len || strcmp(buf, t[i].text)) {
			printf("    # 0x%08x at 0x%lx: \"%s\" (%d bytes), "
			       "expected \"%s\" (%d bytes)\n", t[i].insn,
			       t[i].pc, buf, got, t[i].text, len);
			*failed = 1;
		}
	}
}

#define CHECK_TABLE(t) check_table(failed, t, ARRAY_SIZE(t))

static const struct dis_case rv64i_cases[] = {
	{ 0x80200000, 0x12345537, "lui a0, 0x12345" },
	{ 0x80200004, 0xfffff337, "lui t1, 0xfffff" },
	{ 0x80200008, 0x00001297, "auipc t0, 0x1" },
	{ 0x8020000c, 0x80000097, "auipc ra, 0x80000" },
	{ 0x80200010, 0x00c000ef, "jal 0x8020001c" },
	{ 0x80200014, 0x0e40006f, "j 0x802000f8" },
	{ 0x80200018, 0x0e0002ef, "jal t0, 0x802000f8" },
	{ 0x8020001c, 0x00c280e7, "jalr 12(t0)" },
	{ 0x80200020, 0x00008067, "ret" },
	{ 0x80200024, 0x000780e7, "jalr a5" },
	{ 0x80200028, 0x00078067, "jr a5" },
	{ 0x8020002c, 0x000282e7, "jalr t0, t0" },
	{ 0x80200030, 0xff858567, "jalr a0, -8(a1)" },
	{ 0x80200034, 0xfeb504e3, "beq a0, a1, 0x8020001c" },
	{ 0x80200038, 0xfe0492e3, "bnez s1, 0x8020001c" },
	{ 0x8020003c, 0x0a054e63, "bltz a0, 0x802000f8" },
	{ 0x80200040, 0x0aa05c63, "blez a0, 0x802000f8" },
	{ 0x80200044, 0x0bde6a63, "bltu t3, t4, 0x802000f8" },
	{ 0x80200048, 0xfcb57ae3, "bgeu a0, a1, 0x8020001c" },
	{ 0x8020004c, 0xfff58503, "lb a0, -1(a1)" },
	{ 0x80200050, 0x00211403, "lh s0, 2(sp)" },
	{ 0x80200054, 0x7ff5a503, "lw a0, 2047(a1)" },
	{ 0x80200058, 0x8005b503, "ld a0, -2048(a1)" },
	{ 0x8020005c, 0x00024f83, "lbu t6, 0(tp)" },
	{ 0x80200060, 0x0061d883, "lhu a7, 6(gp)" },
	{ 0x80200064, 0x064d6d83, "lwu s11, 100(s10)" },
	{ 0x80200068, 0x00a58023, "sb a0, 0(a1)" },
	{ 0x8020006c, 0xfeb11f23, "sh a1, -2(sp)" },
	{ 0x80200070, 0x00552223, "sw t0, 4(a0)" },
	{ 0x80200074, 0x00113423, "sd ra, 8(sp)" },
	{ 0x80200078, 0xff010113, "addi sp, sp, -16" },
	{ 0x8020007c, 0x00500513, "li a0, 5" },
	{ 0x80200080, 0x00058513, "mv a0, a1" },
	{ 0x80200084, 0x00000013, "nop" },
	{ 0x80200088, 0xffd5a513, "slti a0, a1, -3" },
	{ 0x8020008c, 0x0015b513, "seqz a0, a1" },
	{ 0x80200090, 0xfff5c513, "not a0, a1" },
	{ 0x80200094, 0x7ff5e513, "ori a0, a1, 2047" },
	{ 0x80200098, 0x0ff5f513, "zext.b a0, a1" },
	{ 0x8020009c, 0x03f59513, "slli a0, a1, 0x3f" },
	{ 0x802000a0, 0x0015d513, "srli a0, a1, 0x1" },
	{ 0x802000a4, 0x4205d513, "srai a0, a1, 0x20" },
	{ 0x802000a8, 0x00c58533, "add a0, a1, a2" },
	{ 0x802000ac, 0x40b00533, "neg a0, a1" },
	{ 0x802000b0, 0x00c59533, "sll a0, a1, a2" },
	{ 0x802000b4, 0x0005a533, "sltz a0, a1" },
	{ 0x802000b8, 0x00b03533, "snez a0, a1" },
	{ 0x802000bc, 0x0149c933, "xor s2, s3, s4" },
	{ 0x802000c0, 0x017b5ab3, "srl s5, s6, s7" },
	{ 0x802000c4, 0x41acdc33, "sra s8, s9, s10" },
	{ 0x802000c8, 0x01eeee33, "or t3, t4, t5" },
	{ 0x802000cc, 0x00c5f533, "and a0, a1, a2" },
	{ 0x802000d0, 0xffb5851b, "addiw a0, a1, -5" },
	{ 0x802000d4, 0x0005851b, "sext.w a0, a1" },
	{ 0x802000d8, 0x01f5951b, "slliw a0, a1, 0x1f" },
	{ 0x802000dc, 0x0015d51b, "srliw a0, a1, 0x1" },
	{ 0x802000e0, 0x41f5d51b, "sraiw a0, a1, 0x1f" },
	{ 0x802000e4, 0x00c5853b, "addw a0, a1, a2" },
	{ 0x802000e8, 0x40b0053b, "negw a0, a1" },
	{ 0x802000ec, 0x00c5953b, "sllw a0, a1, a2" },
	{ 0x802000f0, 0x00c5d53b, "srlw a0, a1, a2" },
	{ 0x802000f4, 0x40c5d53b, "sraw a0, a1, a2" },
	/* Targets wrap like the hardware's pc arithmetic does. */
	{ 0xfffffffffffffff0, 0x0200006f, "j 0x10" },
	{ 0x0000000000000004, 0xfe000ce3, "beqz zero, 0xfffffffffffffffc" },
};

static const struct dis_case m_cases[] = {
	{ 0x802000f8, 0x02c58533, "mul a0, a1, a2" },
	{ 0x802000fc, 0x02c59533, "mulh a0, a1, a2" },
	{ 0x80200100, 0x02c5a533, "mulhsu a0, a1, a2" },
	{ 0x80200104, 0x02c5b533, "mulhu a0, a1, a2" },
	{ 0x80200108, 0x02c5c533, "div a0, a1, a2" },
	{ 0x8020010c, 0x02c5d533, "divu a0, a1, a2" },
	{ 0x80200110, 0x02c5e533, "rem a0, a1, a2" },
	{ 0x80200114, 0x02c5f533, "remu a0, a1, a2" },
	{ 0x80200118, 0x02c5853b, "mulw a0, a1, a2" },
	{ 0x8020011c, 0x02c5c53b, "divw a0, a1, a2" },
	{ 0x80200120, 0x02c5d53b, "divuw a0, a1, a2" },
	{ 0x80200124, 0x02c5e53b, "remw a0, a1, a2" },
	{ 0x80200128, 0x02c5f53b, "remuw a0, a1, a2" },
};

static const struct dis_case a_cases[] = {
	{ 0x8020012c, 0x1005a52f, "lr.w a0, (a1)" },
	{ 0x80200130, 0x1405b52f, "lr.d.aq a0, (a1)" },
	{ 0x80200134, 0x18c5a52f, "sc.w a0, a2, (a1)" },
	{ 0x80200138, 0x1ac5b52f, "sc.d.rl a0, a2, (a1)" },
	{ 0x8020013c, 0x0cb6252f, "amoswap.w.aq a0, a1, (a2)" },
	{ 0x80200140, 0x00b6252f, "amoadd.w a0, a1, (a2)" },
	{ 0x80200144, 0x06b6352f, "amoadd.d.aqrl a0, a1, (a2)" },
	{ 0x80200148, 0x20b6352f, "amoxor.d a0, a1, (a2)" },
	{ 0x8020014c, 0x60b6252f, "amoand.w a0, a1, (a2)" },
	{ 0x80200150, 0x40b6352f, "amoor.d a0, a1, (a2)" },
	{ 0x80200154, 0x80b6252f, "amomin.w a0, a1, (a2)" },
	{ 0x80200158, 0xa0b6352f, "amomax.d a0, a1, (a2)" },
	{ 0x8020015c, 0xc0b6252f, "amominu.w a0, a1, (a2)" },
	{ 0x80200160, 0xe0b6352f, "amomaxu.d a0, a1, (a2)" },
	{ 0x80200164, 0x1000202f, "lr.w zero, (zero)" },
};

static const struct dis_case zicsr_cases[] = {
	{ 0x80200168, 0x10559573, "csrrw a0, stvec, a1" },
	{ 0x8020016c, 0x1805a573, "csrrs a0, satp, a1" },
	{ 0x80200170, 0x1045b573, "csrrc a0, sie, a1" },
	{ 0x80200174, 0x1401d573, "csrrwi a0, sscratch, 3" },
	{ 0x80200178, 0x10016573, "csrrsi a0, sstatus, 2" },
	{ 0x8020017c, 0x144ff573, "csrrci a0, sip, 31" },
	{ 0x80200180, 0x10002573, "csrr a0, sstatus" },
	{ 0x80200184, 0x14151073, "csrw sepc, a0" },
	{ 0x80200188, 0x10452073, "csrs sie, a0" },
	{ 0x8020018c, 0x10453073, "csrc sie, a0" },
	{ 0x80200190, 0x1402d073, "csrwi sscratch, 5" },
	{ 0x80200194, 0x10016073, "csrsi sstatus, 2" },
	{ 0x80200198, 0x10017073, "csrci sstatus, 2" },
	{ 0x8020019c, 0xc0102573, "rdtime a0" },
	{ 0x802001a0, 0xc0002573, "rdcycle a0" },
	{ 0x802001a4, 0xc0202573, "rdinstret a0" },
	{ 0x802001a8, 0x7c002573, "csrr a0, 0x7c0" },
	{ 0x802001ac, 0x142022f3, "csrr t0, scause" },
	{ 0x802001b0, 0x14302373, "csrr t1, stval" },
};

static const struct dis_case system_cases[] = {
	{ 0x802001b4, 0x0ff0000f, "fence" },
	{ 0x802001b8, 0x0330000f, "fence rw, rw" },
	{ 0x802001bc, 0x0220000f, "fence r, r" },
	{ 0x802001c0, 0x0f10000f, "fence iorw, w" },
	{ 0x802001c4, 0x8330000f, "fence.tso" },
	{ 0x802001c8, 0x0000100f, "fence.i" },
	{ 0x802001cc, 0x00000073, "ecall" },
	{ 0x802001d0, 0x00100073, "ebreak" },
	{ 0x802001d4, 0x10200073, "sret" },
	{ 0x802001d8, 0x30200073, "mret" },
	{ 0x802001dc, 0x10500073, "wfi" },
	{ 0x802001e0, 0x12000073, "sfence.vma" },
	{ 0x802001e4, 0x12050073, "sfence.vma a0" },
	{ 0x802001e8, 0x12b50073, "sfence.vma a0, a1" },
	{ 0x802001ec, 0xc0001073, "unimp" },
	/* objdump 2.40 (no Zihintpause): "fence w,unknown" */
	{ 0x80200268, 0x0100000f, "pause" },
};

/* Quadrants 0, 1 and 2, shown as the instructions they expand to. */
static const struct dis_case rvc_cases[] = {
	{ 0x802001f0, 0x0001, "nop" },
	{ 0x802001f2, 0x0808, "addi a0, sp, 16" },
	{ 0x802001f4, 0x1fe0, "addi s0, sp, 1020" },
	{ 0x8020000a, 0x005c, "addi a5, sp, 4" },
	{ 0x802001f6, 0x41c8, "lw a0, 4(a1)" },
	{ 0x802001f8, 0x6588, "ld a0, 8(a1)" },
	{ 0x802001fa, 0xdde8, "sw a0, 124(a1)" },
	{ 0x802001fc, 0xfde8, "sd a0, 248(a1)" },
	{ 0x802001fe, 0x0505, "addi a0, a0, 1" },
	{ 0x80200200, 0x1501, "addi a0, a0, -32" },
	{ 0x80200202, 0x2515, "addiw a0, a0, 5" },
	{ 0x80200204, 0x2501, "sext.w a0, a0" },
	{ 0x80200206, 0x557d, "li a0, -1" },
	{ 0x80200208, 0x4781, "li a5, 0" },
	{ 0x8020020a, 0x6505, "lui a0, 0x1" },
	{ 0x8020020c, 0x7501, "lui a0, 0xfffe0" },
	{ 0x80200008, 0x63fd, "lui t2, 0x1f" },
	{ 0x8020020e, 0x717d, "addi sp, sp, -16" },
	{ 0x80200210, 0x617d, "addi sp, sp, 496" },
	{ 0x80200212, 0x8105, "srli a0, a0, 0x1" },
	{ 0x80200214, 0x9481, "srai s1, s1, 0x20" },
	{ 0x80200216, 0x997d, "andi a0, a0, -1" },
	{ 0x80200218, 0x8d0d, "sub a0, a0, a1" },
	{ 0x8020021a, 0x8d2d, "xor a0, a0, a1" },
	{ 0x8020021c, 0x8d4d, "or a0, a0, a1" },
	{ 0x8020021e, 0x8d6d, "and a0, a0, a1" },
	{ 0x80200220, 0x9d0d, "subw a0, a0, a1" },
	{ 0x80200222, 0x9d2d, "addw a0, a0, a1" },
	{ 0x80200224, 0xbbf1, "j 0x80200000" },
	{ 0x80200006, 0xa019, "j 0x8020000c" },
	{ 0x80200002, 0xdd7d, "beqz a0, 0x80200000" },
	{ 0x80200004, 0xc401, "beqz s0, 0x8020000c" },
	{ 0x8020022a, 0xec81, "bnez s1, 0x80200242" },
	{ 0x8020022c, 0x157e, "slli a0, a0, 0x3f" },
	{ 0x8020022e, 0x557e, "lw a0, 252(sp)" },
	{ 0x80200230, 0x60a2, "ld ra, 8(sp)" },
	{ 0x80200232, 0x8502, "jr a0" },
	{ 0x80200234, 0x8082, "ret" },
	{ 0x80200236, 0x852e, "mv a0, a1" },
	{ 0x80200238, 0x9002, "ebreak" },
	{ 0x8020023a, 0x9502, "jalr a0" },
	{ 0x8020023c, 0x952e, "add a0, a0, a1" },
	{ 0x8020023e, 0xc02a, "sw a0, 0(sp)" },
	{ 0x80200240, 0xff86, "sd ra, 504(sp)" },
};

static const struct dis_case unknown_cases[] = {
	{ 0x80200242, 0x0000, "unimp" },
	{ 0x80200244, 0x2002, ".half 0x2002" },	/* c.fldsp: no D */
	/* Reserved (nzimm == 0); objdump 2.40: "add sp,sp,0" */
	{ 0x80200246, 0x6101, ".half 0x6101" },
	{ 0x80200248, 0x9c41, ".half 0x9c41" },
	{ 0x8020024a, 0x8002, ".half 0x8002" },	/* c.jr zero */
	{ 0x8020024c, 0x4002, ".half 0x4002" },	/* c.lwsp zero */
	{ 0x8020024e, 0x2001, ".half 0x2001" },	/* c.addiw zero */
	{ 0x80200250, 0x0000000b, ".word 0x0000000b" },
	{ 0x80200254, 0x0000200f, ".word 0x0000200f" },
	{ 0x80200258, 0x00002063, ".word 0x00002063" },
	{ 0x8020025c, 0x00001067, ".word 0x00001067" },
	{ 0x80200260, 0x00300073, ".word 0x00300073" },
	{ 0x80200264, 0x12000173, ".word 0x12000173" },
};

TEST(disasm_rv64i)
{
	CHECK_TABLE(rv64i_cases);
}

TEST(disasm_m)
{
	CHECK_TABLE(m_cases);
}

TEST(disasm_a)
{
	CHECK_TABLE(a_cases);
}

TEST(disasm_zicsr)
{
	CHECK_TABLE(zicsr_cases);
}

TEST(disasm_system)
{
	CHECK_TABLE(system_cases);
}

TEST(disasm_rvc)
{
	CHECK_TABLE(rvc_cases);
}

TEST(disasm_unknown)
{
	CHECK_TABLE(unknown_cases);
}

TEST(disasm_table_size)
{
	size_t n = ARRAY_SIZE(rv64i_cases) + ARRAY_SIZE(m_cases) +
		   ARRAY_SIZE(a_cases) + ARRAY_SIZE(zicsr_cases) +
		   ARRAY_SIZE(system_cases) + ARRAY_SIZE(rvc_cases) +
		   ARRAY_SIZE(unknown_cases);

	EXPECT(n >= 60);
}

/* What the patcher writes reads back as the call it meant. */
TEST(disasm_encoder_output)
{
	u32 insn;
	char buf[64];

	EXPECT_EQ(riscv_insn_jal(BASE + 0x100, BASE, RV_REG_T0, &insn), 0);
	EXPECT_EQ(riscv_disasm(&insn, BASE + 0x100, buf, sizeof(buf)), 4);
	EXPECT_STR(buf, "jal t0, 0x80200000");

	insn = RISCV_INSN_NOP;
	EXPECT_EQ(riscv_disasm(&insn, BASE, buf, sizeof(buf)), 4);
	EXPECT_STR(buf, "nop");
}

/* Code is only 2-byte aligned, and c.nop pairs sit where nops go. */
TEST(disasm_sequence_of_parcels)
{
	/* c.nop; c.nop; jal t0, +0x10 at an odd halfword */
	const u8 code[] = { 0x01, 0x00, 0x01, 0x00, 0xef, 0x02, 0x00, 0x01 };
	char buf[64];
	int off = 0;

	off += riscv_disasm(code + off, BASE + off, buf, sizeof(buf));
	EXPECT_STR(buf, "nop");
	off += riscv_disasm(code + off, BASE + off, buf, sizeof(buf));
	EXPECT_STR(buf, "nop");
	EXPECT_EQ(off, 4);
	off += riscv_disasm(code + off, BASE + off, buf, sizeof(buf));
	EXPECT_STR(buf, "jal t0, 0x80200014");
	EXPECT_EQ(off, 8);
}

TEST(disasm_truncates_like_scnprintf)
{
	const u32 insn = 0x0cb6252f;	/* amoswap.w.aq a0, a1, (a2) */
	char buf[32];
	size_t i;
	int spill = 0;

	/* Cut inside the mnemonic, then inside the operands. */
	memset(buf, 'x', sizeof(buf));
	EXPECT_EQ(riscv_disasm(&insn, BASE, buf, 11), 4);
	EXPECT_STR(buf, "amoswap.w.");
	for (i = 11; i < sizeof(buf); i++)
		spill += buf[i] != 'x';
	EXPECT_EQ(spill, 0);
	EXPECT_EQ(riscv_disasm(&insn, BASE, buf, 18), 4);
	EXPECT_STR(buf, "amoswap.w.aq a0, ");

	EXPECT_EQ(riscv_disasm(&insn, BASE, buf, 1), 4);
	EXPECT_STR(buf, "");
	buf[0] = 'x';
	EXPECT_EQ(riscv_disasm(&insn, BASE, buf, 0), 4);
	EXPECT_EQ(buf[0], 'x');
	EXPECT_EQ(riscv_disasm(&insn, BASE, NULL, 0), 4);
}
