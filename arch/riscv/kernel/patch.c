/*
 * patch.c: the one text-patching path. Kernel text is mapped read+execute
 * only, so a write goes through a temporary writable alias of the same
 * physical page (the fixmap slots of arch/riscv/mm/mmu.c), as Linux's
 * patch_text_nosync does. Callers hold text_mutex.
 *
 * Within a batch (ftrace_init, stop_machine rounds) the alias of the
 * last page stays mapped, so patching sites in address order maps each
 * page once; patch_unmap() ends the batch.
 *
 * A batch need not stay on one hart: a stop_machine round writes on its
 * caller's CPU, and that caller may move before patch_unmap. Mapping
 * flushes the local TLB only, so a mapping is good for the CPU that
 * made it alone: another CPU maps the page again before it writes (an
 * old translation of the slot may linger in its TLB), and patch_unmap
 * flushes every CPU that mapped, not only its own.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "smp.h"
#include "patch.h"
#include "stop_machine.h"
#include "asm/csr.h"
#include "asm/sbi.h"

DEFINE_MUTEX(text_mutex);

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

/*
 * The store that changes a site or a trampoline slot: one aligned
 * 4-byte word, so a hart fetches the old or the new instruction, never
 * half of each.
 */
int patch_insn32(void *addr, u32 insn)
{
	unsigned long a = (unsigned long)addr;

	if (!kernel_text_addr(a) || (a & 3))
		return -EINVAL;
	WRITE_ONCE(*(u32 *)poke_addr(0, a), insn);
	return 0;
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
	return 0;
}

/*
 * Make every hart fetch what was written: fence.i here, and SBI's remote
 * fence.i elsewhere (stop_machine does its own on every hart instead).
 */
void flush_icache_all(void)
{
	local_flush_icache();
	if (nr_cpus > 1 && !stop_machine_running())
		sbi_remote_fence_i(online_hart_mask(), 0);
}
