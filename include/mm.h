/*
 * mm.h: the page allocator (kernel/page_alloc.c), kmalloc
 * (kernel/kmalloc.c) and the Sv39 page tables (arch/riscv/mm/mmu.c).
 */
#ifndef _MM_H
#define _MM_H

#include "kernel.h"

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)

extern char _text[], _etext[], _rodata[], _erodata[], _data[], _bss[],
	    _ebss[], _kallsyms[], _end[];

void page_alloc_init(unsigned long start, unsigned long end);
void *page_alloc_reserve(unsigned long start, unsigned long end);
void *alloc_pages(unsigned long n);
void *alloc_page(void);
unsigned long alloc_pages_bulk(unsigned long n, void **pages);
void free_pages(void *p, unsigned long n);
void free_page(void *p);
unsigned long nr_free_pages(void);
unsigned long nr_total_pages(void);

void *kmalloc(size_t size);
void *kzalloc(size_t size);
char *kstrdup(const char *s);
void kfree(const void *p);
void *kzalloc_cacheline(size_t size);
void kfree_cacheline(const void *p, size_t size);
size_t kmalloc_bytes_in_use(void);
size_t mm_bytes_in_use(void);
size_t kmalloc_footprint(const void *p);

/*
 * Fault injection (kernel/fault_inject.c): kmalloc and the page
 * allocator each fail every Nth call from now on (0: never again).
 */
void mm_fail_every(unsigned long n);
unsigned long mm_failures_injected(void);

/* Sv39 */
void mmu_init(u64 mem_base, u64 mem_size);
void mmu_enable(void);
static inline bool kernel_text_addr(unsigned long a)
{
	return a >= (unsigned long)_text && a < (unsigned long)_etext;
}
bool kernel_stack_addr(unsigned long a);

/* The text-poke alias: a temporary writable mapping of a text page. */
#define FIXMAP_BASE	0x40000000UL
#define FIX_TEXT_POKE0	0
void *fixmap_map(int idx, unsigned long pa);
static inline void *fixmap_map_addr(int idx)
{
	return (void *)(FIXMAP_BASE + idx * PAGE_SIZE);
}
void fixmap_clear(int idx);

#endif
