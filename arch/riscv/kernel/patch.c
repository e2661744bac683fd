/*
 * patch.c: the one text-patching path. Kernel text is mapped read+execute
 * only, so a write goes through a temporary writable alias of the same
 * physical page (the fixmap slots of arch/riscv/mm/mmu.c), as Linux's
 * patch_text_nosync does. Callers hold text_mutex.
 *
 * Within a batch (ftrace_init, stop_machine rounds) the alias of the
 * last page stays mapped, so patching sites in address order maps each
 * page once; patch_unmap() ends the batch. A text_poke_batch (patch.h)
 * goes further for ftrace's sites: it keeps its page's alias at hand,
 * so a site on the same page costs its check and its stores alone.
 *
 * A batch need not stay on one hart: a stop_machine round writes on its
 * caller's CPU, and that caller may move before patch_unmap. Mapping
 * flushes the local TLB only, so a mapping is good for the CPU that
 * made it alone: another CPU maps the page again before it writes (an
 * old translation of the slot may linger in its TLB), and patch_unmap
 * flushes every CPU that mapped, not only its own.
 *
 * Each store that changes text is counted, and each fence.i notes the
 * count it covers (patch.h): flush_icache_all, stop_machine and a live
 * step check that every CPU that runs on has fenced past the last store.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "smp.h"
#include "printk.h"
#include "patch.h"
#include "stop_machine.h"
#include "asm/csr.h"
#include "asm/sbi.h"

DEFINE_MUTEX(text_mutex);
bool text_patch_live;
u64 text_gen;
unsigned long text_unfenced;

/* Each slot's page, with the CPU that mapped it in the low bits. */
static unsigned long mapped_page[2] = { ~0UL, ~0UL };
static unsigned long alias_cpus;	/* CPUs that mapped since the unmap */

/* Out of line, so that a write to the page already mapped needs no frame. */
static noinline void *poke_map(int slot, unsigned long page_cpu,
			       unsigned long addr)
{
	fixmap_map(FIX_TEXT_POKE0 + slot, page_cpu & ~(PAGE_SIZE - 1));
	mapped_page[slot] = page_cpu;
	alias_cpus |= 1UL << smp_processor_id();
	return fixmap_map_addr(FIX_TEXT_POKE0 + slot) +
	       (addr & (PAGE_SIZE - 1));
}

static inline void *poke_addr(int slot, unsigned long addr)
{
	unsigned long page = addr & ~(PAGE_SIZE - 1);

	if (unlikely(mapped_page[slot] != (page | smp_processor_id())))
		return poke_map(slot, page | smp_processor_id(), addr);
	return fixmap_map_addr(FIX_TEXT_POKE0 + slot) + (addr - page);
}

/* After the store: a CPU that reads the new count fetches it anew. */
static void text_changed(void)
{
	__atomic_store_n(&text_gen, text_gen + 1, __ATOMIC_RELEASE);
}

/*
 * The store that changes a site or a trampoline slot: one aligned
 * 4-byte word, so a hart fetches the old or the new instruction, never
 * half of each. Storing the word already there (a live step does, for
 * QEMU) changes no instruction, and needs no fence.i.
 */
int patch_insn32(void *addr, u32 insn)
{
	unsigned long a = (unsigned long)addr;
	bool change;

	if (!kernel_text_addr(a) || (a & 3))
		return -EINVAL;
	change = READ_ONCE(*(u32 *)a) != insn;
	WRITE_ONCE(*(u32 *)poke_addr(0, a), insn);
	if (change)
		text_changed();
	return 0;
}

/*
 * A static key's site (jump_label.h): one halfword, which a hart
 * fetches whole, old or new; it never crosses a page.
 */
int patch_insn16(void *addr, u16 insn)
{
	unsigned long a = (unsigned long)addr;
	bool change;

	if (!kernel_text_addr(a) || (a & 1))
		return -EINVAL;
	change = READ_ONCE(*(u16 *)a) != insn;
	WRITE_ONCE(*(u16 *)poke_addr(0, a), insn);
	if (change)
		text_changed();
	return 0;
}

/*
 * An 8-byte word of data kept in the text, which code loads and never
 * runs (an ftrace site's ops literal, asm/ftrace.h): one aligned store,
 * so a hart loads the old or the new word. No instruction changes, so
 * it needs no fence.i and is not counted.
 */
int patch_text_literal(void *addr, unsigned long val)
{
	unsigned long a = (unsigned long)addr;

	if (!kernel_text_addr(a) || (a & 7))
		return -EINVAL;
	WRITE_ONCE(*(unsigned long *)poke_addr(0, a), val);
	return 0;
}

/*
 * A batch moves on to addr's page: slot 1 shows it from here on (mapped
 * unless it did already), for this CPU, which the batch stays on. Slot
 * 0 keeps the page of the single writes around the batch (the
 * trampolines' ftrace_call, before and after the sites).
 */
char *text_poke_map(struct text_poke_batch *b, unsigned long addr)
{
	if (!kernel_text_addr(addr))
		return NULL;
	b->page = addr & ~(PAGE_SIZE - 1);
	b->alias = poke_addr(1, b->page);
	return b->alias;
}

/*
 * The batch's stores count as one text change, before the fence.i that
 * ends its round; the next write maps its page anew (another write may
 * have moved slot 1).
 */
void text_poke_finish(struct text_poke_batch *b)
{
	if (b->page != ~0UL)
		text_changed();
	b->page = ~0UL;
}

void patch_unmap(void)
{
	unsigned long others = alias_cpus & ~(1UL << smp_processor_id());
	int slot;

	for (slot = 0; slot < 2; slot++) {
		if (mapped_page[slot] != ~0UL)
			fixmap_clear(FIX_TEXT_POKE0 + slot);
		mapped_page[slot] = ~0UL;
	}
	alias_cpus = 0;
	if (others)
		sbi_remote_sfence_vma(hart_mask(others), 0, FIXMAP_BASE,
				      2 * PAGE_SIZE);
}

/*
 * Write len bytes of instructions at addr, through the alias; a write
 * may cross into the next page (second slot).
 */
int patch_insn_write(void *addr, const void *insns, size_t len)
{
	unsigned long a = (unsigned long)addr;
	size_t first = min(len, PAGE_SIZE - (a & (PAGE_SIZE - 1)));

	if (!kernel_text_addr(a) || !kernel_text_addr(a + len - 1))
		return -EINVAL;
	memcpy(poke_addr(0, a), insns, first);
	if (first < len)
		memcpy(poke_addr(1, a + first), (const u8 *)insns + first,
		       len - first);
	text_changed();
	return 0;
}

/* sbi_remote_fence_i made these harts execute fence.i at gen. */
void icache_fenced_harts(unsigned long hart_mask, u64 gen)
{
	int cpu;

	for_each_online_cpu(cpu)
		if ((hart_mask >> cpus[cpu].hartid) & 1)
			WRITE_ONCE(cpus[cpu].fenced_text_gen,
				   max(READ_ONCE(cpus[cpu].fenced_text_gen),
				       gen));
}

/* The online CPUs in cpumask must have fenced at gen or later. */
void check_text_fenced(unsigned long cpumask, u64 gen)
{
	u64 fenced;
	int cpu;

	for_each_online_cpu(cpu) {
		fenced = READ_ONCE(cpus[cpu].fenced_text_gen);
		if (!((cpumask >> cpu) & 1) || fenced >= gen)
			continue;
		__atomic_fetch_add(&text_unfenced, 1, __ATOMIC_RELAXED);
		pr_err("patch: CPU %d runs on without fence.i: fenced at "
		       "text change %llu, the text is at %llu\n", cpu,
		       fenced, gen);
	}
}

static void fence_i_ipi(void *unused)
{
	local_flush_icache();
}

/*
 * Live patching: every hart executes fence.i; on_each_cpu returns once
 * each other hart has run it, in an interrupt, so from then on it
 * fetches what was written (ftrace's live steps and static keys).
 */
void text_fence_all_harts(void)
{
	on_each_cpu(fence_i_ipi, NULL);
}

/*
 * Make every hart fetch what was written: fence.i here, and SBI's remote
 * fence.i elsewhere (stop_machine does its own on every hart instead,
 * and this CPU runs on inside it).
 */
void flush_icache_all(void)
{
	u64 gen = text_gen_read();
	bool others = !stop_machine_running();

	local_flush_icache();
	if (nr_cpus > 1 && others)
		sbi_remote_fence_i(online_hart_mask(), 0);
	check_text_fenced(others ? ~0UL : 1UL << smp_processor_id(), gen);
}
