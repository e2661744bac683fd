/*
 * patch_test.c: selftests of the text-poke alias (arch/riscv/kernel/
 * patch.c). A batch may write through the alias on one CPU and end on
 * another (a stop_machine round runs on whichever CPU called it, and
 * its caller may then move): once it ends no CPU may still reach the
 * text through the alias, and a CPU that used the alias before it moved
 * to another page must not write through its old translation. And once
 * a patch is over every CPU has executed fence.i since its last store,
 * as the fence.i account (patch.h) records it.
 */
#include "kernel.h"
#include "selftest.h"
#include "sched.h"
#include "smp.h"
#include "mm.h"
#include "patch.h"
#include "stop_machine.h"
#include "asm/csr.h"
#include "asm/insn.h"

#define PROBE_MAGIC	0x5eed1e55U

struct alias_read {
	unsigned long off;
	u32 val;
};

/* Write back the instruction at arg: maps the alias on this CPU. */
static void rewrite_insn(void *arg)
{
	unsigned long ip = (unsigned long)arg;

	patch_insn32(arg, riscv_insn_read(ip));
}

static void read_alias(void *arg)
{
	struct alias_read *r = arg;

	r->val = READ_ONCE(*(u32 *)(fixmap_map_addr(FIX_TEXT_POKE0) + r->off));
}

static void flush_tlb(void *arg)
{
	local_flush_tlb_all();
}

/*
 * Never called: 1100 nops that all differ (addi zero, zero, i, from
 * i = 1), over a page of them, for tests to write into.
 */
#define PAD_FIRST	0x00100013	/* addi zero, zero, 1 */

static noinline __used void poke_pad(void)
{
	__asm__ __volatile__(".balign 4\n"
			     ".set .Lpad_i, 1\n"
			     ".rept 1100\n"
			     ".word 0x13 | (.Lpad_i << 20)\n"
			     ".set .Lpad_i, .Lpad_i + 1\n"
			     ".endr");
}

/* The first of the pad's words, past the prologue. */
static u32 *pad_start(void)
{
	u32 *w = (u32 *)ALIGN_UP((unsigned long)poke_pad, 4);
	int i;

	for (i = 0; i < 16; i++)
		if (w[i] == PAD_FIRST)
			return w + i;
	return NULL;
}

struct pad_write {
	u32 *at;
	u32 insn;
};

static void write_pad(void *arg)
{
	struct pad_write *pw = arg;

	patch_insn32(pw->at, pw->insn);
}

/*
 * After a batch written on CPU w ends on this CPU, w must not reach
 * the text through the alias: point the alias at a probe page without
 * telling w, and see which page w reads.
 */
static void alias_unmapped_on_every_cpu(struct kunit *t)
{
	struct alias_read r = { 0, 0 };
	u32 *probe = alloc_page();
	int w;

	if (nr_cpus < 2 || !probe)
		KUNIT_SKIP(t, nr_cpus < 2 ? "needs 2 CPUs" : "no memory");
	probe[0] = PROBE_MAGIC;
	mutex_lock(&text_mutex);
	preempt_disable();
	for_each_online_cpu(w) {
		if (w == smp_processor_id())
			continue;
		smp_call_function_single(w, rewrite_insn, _text);
		patch_unmap();
		fixmap_map(FIX_TEXT_POKE0, (unsigned long)probe);
		smp_call_function_single(w, read_alias, &r);
		fixmap_clear(FIX_TEXT_POKE0);
		smp_call_function_single(w, flush_tlb, NULL);
		KUNIT_EXPECT_EQ(t, r.val, PROBE_MAGIC);
	}
	preempt_enable();
	mutex_unlock(&text_mutex);
	free_page(probe);
}

/*
 * A batch may move between CPUs. CPU w used the alias for page p; this
 * CPU then moved it to page q. w's next write, into q, must land in q,
 * not in p through w's old translation (which a read through the alias
 * on w first makes sure is in w's TLB).
 */
static void moved_batch_writes_right_page(struct kunit *t)
{
	u32 *p = pad_start(), *q = p + PAGE_SIZE / 4, p_insn, q_insn;
	struct alias_read r = { (unsigned long)p & (PAGE_SIZE - 1), 0 };
	struct pad_write at_p, at_q;
	int w;

	if (nr_cpus < 2)
		KUNIT_SKIP(t, "needs 2 CPUs");
	KUNIT_EXPECT_TRUE(t, p != NULL);
	if (!p)
		return;
	p_insn = *p;
	q_insn = *q;
	at_p = (struct pad_write){ p, p_insn };
	at_q = (struct pad_write){ q, q_insn + (1 << 20) };
	mutex_lock(&text_mutex);
	preempt_disable();
	for_each_online_cpu(w) {
		if (w == smp_processor_id())
			continue;
		smp_call_function_single(w, write_pad, &at_p);
		patch_insn32(q, q_insn);
		smp_call_function_single(w, read_alias, &r);
		smp_call_function_single(w, write_pad, &at_q);
		KUNIT_EXPECT_EQ(t, *q, q_insn + (1 << 20));
		KUNIT_EXPECT_EQ(t, *p, p_insn);
		patch_insn32(p, p_insn);
		patch_insn32(q, q_insn);
		patch_unmap();
		smp_call_function_single(w, flush_tlb, NULL);
	}
	preempt_enable();
	mutex_unlock(&text_mutex);
}

/* Every online CPU has fenced since the last store of text. */
static void expect_all_fenced(struct kunit *t, unsigned long unfenced)
{
	u64 gen = text_gen_read();
	int cpu;

	for_each_online_cpu(cpu)
		KUNIT_EXPECT_TRUE(t, cpus[cpu].fenced_text_gen >= gen);
	KUNIT_EXPECT_EQ(t, READ_ONCE(text_unfenced), unfenced);
}

/* What Linux's patch_text_nosync does: write, then fence every CPU. */
static int write_and_flush(void *addr, u32 insn)
{
	int ret = patch_insn_write(addr, &insn, sizeof(insn));

	patch_unmap();
	flush_icache_all();
	return ret;
}

/* The pad's first word, changed and put back, each then flushed. */
static void patch_text_fences_every_cpu(struct kunit *t)
{
	u32 *p = pad_start(), old, new;
	unsigned long unfenced = READ_ONCE(text_unfenced);
	u64 gen = text_gen_read();

	KUNIT_EXPECT_TRUE(t, p != NULL);
	if (!p)
		return;
	old = *p;
	new = old + (1 << 20);
	mutex_lock(&text_mutex);
	KUNIT_EXPECT_EQ(t, write_and_flush(p, new), 0);
	KUNIT_EXPECT_TRUE(t, text_gen_read() > gen);
	expect_all_fenced(t, unfenced);
	KUNIT_EXPECT_EQ(t, write_and_flush(p, old), 0);
	expect_all_fenced(t, unfenced);
	mutex_unlock(&text_mutex);
	KUNIT_EXPECT_EQ(t, *p, old);
}

static int write_pad_stopped(void *arg)
{
	write_pad(arg);
	patch_unmap();
	return 0;
}

static void nothing(void *arg)
{
}

/*
 * A stop_machine round that writes text: each CPU fences on its way
 * out, before it turns interrupts back on, so once every CPU has taken
 * an interrupt after the round, each must have.
 */
static void stop_machine_fences_every_cpu(struct kunit *t)
{
	u32 *p = pad_start();
	unsigned long unfenced = READ_ONCE(text_unfenced);
	struct pad_write pw;

	KUNIT_EXPECT_TRUE(t, p != NULL);
	if (!p)
		return;
	pw = (struct pad_write){ p, *p + (1 << 20) };
	mutex_lock(&text_mutex);
	stop_machine(write_pad_stopped, &pw);
	on_each_cpu(nothing, NULL);
	expect_all_fenced(t, unfenced);
	pw.insn -= 1 << 20;
	stop_machine(write_pad_stopped, &pw);
	on_each_cpu(nothing, NULL);
	expect_all_fenced(t, unfenced);
	mutex_unlock(&text_mutex);
	KUNIT_EXPECT_EQ(t, *p, pw.insn);
}

SELFTEST_SUITE(patch,
	KUNIT_CASE(alias_unmapped_on_every_cpu),
	KUNIT_CASE(moved_batch_writes_right_page),
	KUNIT_CASE(patch_text_fences_every_cpu),
	KUNIT_CASE(stop_machine_fences_every_cpu));
