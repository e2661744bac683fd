/*
 * mmu.c: Sv39 page tables. The kernel runs identity-mapped:
 *
 *   0x00000000 .. 0x3fffffff  devices (UART, PLIC, test)   RW, gigapage
 *   0x40000000                text-poke alias (fixmap)      RW, 2 pages
 *   _text   .. _etext         kernel text                   R X
 *   _rodata .. _erodata       rodata, ftrace record table   R
 *   _data   .. _ebss          data, bss                     RW
 *   _kallsyms .. _end         symbol table                  R
 *   _end    .. end of RAM     free pages                    RW
 *
 * Text is never writable through its own mapping: the patcher maps the
 * physical page a second time at FIXMAP_BASE (Linux's fixmap), writes
 * there, and unmaps it. A stray store into text page-faults.
 */
#include "kernel.h"
#include "mm.h"
#include "string.h"
#include "printk.h"
#include "asm/csr.h"

#define PTE_V	(1UL << 0)
#define PTE_R	(1UL << 1)
#define PTE_W	(1UL << 2)
#define PTE_X	(1UL << 3)
#define PTE_G	(1UL << 5)
#define PTE_A	(1UL << 6)
#define PTE_D	(1UL << 7)
#define PAGE_KERNEL_RO	(PTE_V | PTE_R | PTE_G | PTE_A)
#define PAGE_KERNEL_RX	(PAGE_KERNEL_RO | PTE_X)
#define PAGE_KERNEL_RW	(PAGE_KERNEL_RO | PTE_W | PTE_D)
#define SATP_SV39	(8UL << 60)
#define MEGA		(2UL << 20)

typedef u64 pte_t;

static pte_t *root;
static pte_t *fixmap_pte;	/* the leaf table holding the fixmap slots */
static unsigned long ram_end;

static unsigned long vpn(unsigned long va, int level)
{
	return (va >> (PAGE_SHIFT + 9 * level)) & 0x1ff;
}

static pte_t mkpte(unsigned long pa, unsigned long prot)
{
	return (pa >> PAGE_SHIFT) << 10 | prot;
}

static pte_t *pte_table(pte_t e)
{
	return (pte_t *)((e >> 10) << PAGE_SHIFT);
}

/* The table at `level` below root for va, allocating the way down. */
static pte_t *walk(unsigned long va, int level)
{
	pte_t *t = root;
	int l;

	for (l = 2; l > level; l--) {
		pte_t *e = &t[vpn(va, l)];

		if (!(*e & PTE_V)) {
			pte_t *next = alloc_page();

			BUG_ON(!next);
			memset(next, 0, PAGE_SIZE);
			*e = mkpte((unsigned long)next, PTE_V);
		}
		t = pte_table(*e);
	}
	return t;
}

static void map(unsigned long va, unsigned long pa, int level,
		unsigned long prot)
{
	walk(va, level)[vpn(va, level)] = mkpte(pa, prot);
}

/*
 * Megapages where they fit; 4 KiB pages fill one leaf table per walk,
 * each entry the one before it plus a page.
 */
static void map_range(unsigned long start, unsigned long end,
		      unsigned long prot)
{
	unsigned long a = start, stop;
	pte_t *pte, e;

	while (a < end) {
		if (!(a & (MEGA - 1)) && a + MEGA <= end) {
			map(a, a, 1, prot);
			a += MEGA;
			continue;
		}
		pte = &walk(a, 0)[vpn(a, 0)];
		e = mkpte(a, prot);
		stop = min(end, ALIGN_UP(a + 1, MEGA));
		for (; a < stop; a += PAGE_SIZE, e += mkpte(PAGE_SIZE, 0))
			*pte++ = e;
	}
}

void mmu_init(u64 mem_base, u64 mem_size)
{
	ram_end = mem_base + mem_size;
	root = alloc_page();
	BUG_ON(!root);
	memset(root, 0, PAGE_SIZE);
	map(0, 0, 2, PAGE_KERNEL_RW);
	map_range((unsigned long)_text, (unsigned long)_etext, PAGE_KERNEL_RX);
	map_range((unsigned long)_rodata, (unsigned long)_erodata,
		  PAGE_KERNEL_RO);
	/* _ebss is 128-aligned: its last page is mapped whole. */
	map_range((unsigned long)_data, (unsigned long)_ebss, PAGE_KERNEL_RW);
	map_range((unsigned long)_kallsyms, (unsigned long)_end,
		  PAGE_KERNEL_RO);
	map_range((unsigned long)_end, mem_base + mem_size, PAGE_KERNEL_RW);
	fixmap_pte = walk(FIXMAP_BASE, 0);
}

/* Each hart loads the same root table. */
void mmu_enable(void)
{
	csr_write(satp, SATP_SV39 | ((unsigned long)root >> PAGE_SHIFT));
	local_flush_tlb_all();
}

void *fixmap_map(int idx, unsigned long pa)
{
	unsigned long va = FIXMAP_BASE + idx * PAGE_SIZE;

	fixmap_pte[vpn(va, 0)] = mkpte(pa & ~(PAGE_SIZE - 1), PAGE_KERNEL_RW);
	local_flush_tlb_page(va);
	return (void *)(va + (pa & (PAGE_SIZE - 1)));
}

void fixmap_clear(int idx)
{
	unsigned long va = FIXMAP_BASE + idx * PAGE_SIZE;

	fixmap_pte[vpn(va, 0)] = 0;
	local_flush_tlb_page(va);
}


/* Stacks live in .bss (the boot stack) or in allocated pages. */
bool kernel_stack_addr(unsigned long a)
{
	return a >= (unsigned long)_data && a < ram_end;
}
