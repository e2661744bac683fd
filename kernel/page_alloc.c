/*
 * page_alloc.c: physical pages from the end of the kernel image to the
 * end of the RAM the device tree reports, one bit per page, first fit.
 * Runs of pages serve kernel stacks and large kmalloc blocks.
 */
#include "kernel.h"
#include "mm.h"
#include "string.h"
#include "spinlock.h"
#include "printk.h"
#include "fault_inject.h"

static u64 *bitmap;		/* bit set: page in use */
static unsigned long base, npages, nfree, hint;
static DEFINE_SPINLOCK(page_lock);

static bool page_used(unsigned long i)
{
	return bitmap[i / 64] & (1ULL << (i % 64));
}

/* A word of the bitmap at a time: boot takes hundreds of pages at once. */
static void mark(unsigned long i, unsigned long n, bool used)
{
	unsigned long bit, k;
	u64 m;

	for (; n; i += k, n -= k) {
		bit = i % 64;
		k = min(n, 64 - bit);
		m = (k == 64 ? ~0ULL : (1ULL << k) - 1) << bit;
		if (used)
			bitmap[i / 64] |= m;
		else
			bitmap[i / 64] &= ~m;
	}
}

void page_alloc_init(unsigned long start, unsigned long end)
{
	unsigned long map_pages;

	start = ALIGN_UP(start, PAGE_SIZE);
	npages = (end - start) / PAGE_SIZE;
	map_pages = ALIGN_UP(ALIGN_UP(npages, 64) / 8, PAGE_SIZE) / PAGE_SIZE;
	bitmap = (u64 *)start;
	memset(bitmap, 0, map_pages * PAGE_SIZE);
	base = start;
	mark(0, map_pages, true);
	nfree = npages - map_pages;
	hint = map_pages;
}

/*
 * Keep [start, end) from the allocator, as Linux's memblock_reserve
 * keeps the initrd that the boot loader put in RAM; free_pages gives
 * the pages back once it is unpacked. Returns the first page, or NULL
 * if the range is not in the allocator's memory.
 */
void *page_alloc_reserve(unsigned long start, unsigned long end)
{
	unsigned long i, n;

	start = ALIGN_DOWN(start, PAGE_SIZE);
	end = ALIGN_UP(end, PAGE_SIZE);
	if (start < base || end > base + npages * PAGE_SIZE || start >= end)
		return NULL;
	i = (start - base) / PAGE_SIZE;
	n = (end - start) / PAGE_SIZE;
	for (; n; i++, n--) {
		if (!page_used(i)) {
			mark(i, 1, true);
			nfree--;
		}
	}
	return (void *)start;
}

/* First fit from hint, then from 0; a free word is 64 pages at once. */
static long find_run(unsigned long n)
{
	unsigned long i, run = 0, pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = pass ? 0 : hint, run = 0; i < npages;) {
			if (!(i % 64) && i + 64 <= npages && !bitmap[i / 64]) {
				run += 64;
				i += 64;
			} else {
				run = page_used(i) ? 0 : run + 1;
				i++;
			}
			if (run >= n)
				return i - run;
		}
	}
	return -1;
}

void *alloc_pages(unsigned long n)
{
	unsigned long flags = spin_lock_irqsave(&page_lock);
	long i = -1;

	if (n && n <= nfree && !should_fail(&fail_page_alloc))
		i = find_run(n);
	if (i >= 0) {
		mark(i, n, true);
		nfree -= n;
		hint = i + n;
	}
	spin_unlock_irqrestore(&page_lock, flags);
	return i < 0 ? NULL : (void *)(base + i * PAGE_SIZE);
}

void free_pages(void *p, unsigned long n)
{
	unsigned long flags, i = ((unsigned long)p - base) / PAGE_SIZE;

	if (!p)
		return;
	flags = spin_lock_irqsave(&page_lock);
	BUG_ON(i + n > npages || !page_used(i));
	mark(i, n, false);
	nfree += n;
	if (i < hint)
		hint = i;
	spin_unlock_irqrestore(&page_lock, flags);
}

void *alloc_page(void)
{
	return alloc_pages(1);
}

/*
 * Take the free pages of [i, end) until got reaches n; the new got.
 * The next search starts where this one stopped.
 */
static unsigned long take_free(unsigned long i, unsigned long end,
			       void **pages, unsigned long got,
			       unsigned long n)
{
	unsigned long k, p;

	while (i < end && got < n) {
		if (!(i % 64) && !bitmap[i / 64]) {
			/* A free word: all its pages wanted at once */
			k = min(n - got, min(64UL, end - i));
			mark(i, k, true);
			p = base + i * PAGE_SIZE;
			for (i += k; k; k--, p += PAGE_SIZE)
				pages[got++] = (void *)p;
		} else {
			if (!page_used(i)) {
				bitmap[i / 64] |= 1ULL << (i % 64);
				pages[got++] = (void *)(base + i * PAGE_SIZE);
			}
			i++;
		}
	}
	hint = i;
	return got;
}

/*
 * Linux's alloc_pages_bulk_array: up to n pages, each its own, into
 * pages[], in one pass of the lock and the bitmap (first fit from hint,
 * then from 0). Returns how many; an injected failure gives none.
 */
unsigned long alloc_pages_bulk(unsigned long n, void **pages)
{
	unsigned long flags = spin_lock_irqsave(&page_lock);
	unsigned long got = 0, start = hint;

	if (!should_fail(&fail_page_alloc)) {
		got = take_free(start, npages, pages, 0, n);
		if (got < n)
			got = take_free(0, start, pages, got, n);
	}
	nfree -= got;
	spin_unlock_irqrestore(&page_lock, flags);
	return got;
}

void free_page(void *p)
{
	free_pages(p, 1);
}

unsigned long nr_free_pages(void)
{
	return nfree;
}

unsigned long nr_total_pages(void)
{
	return npages;
}
