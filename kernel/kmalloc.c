/*
 * kmalloc.c: small blocks from power-of-two size classes (32 B to 2 KiB)
 * carved out of pages, large ones as page runs. A 16-byte header before
 * each block says which, so kfree needs no size.
 */
#include "kernel.h"
#include "mm.h"
#include "string.h"
#include "spinlock.h"
#include "printk.h"
#include "fault_inject.h"
#include "cache.h"

#define MIN_SHIFT	5
#define MAX_SHIFT	11
#define NCLASSES	(MAX_SHIFT - MIN_SHIFT + 1)
#define KM_MAGIC	0x6b6d616cU
#define HDR		16

struct km_hdr {
	u32 magic;
	u32 shift;		/* size class, or 0 for a page run */
	u64 npages;
};

struct free_block {
	struct free_block *next;
};

static struct free_block *free_list[NCLASSES];
static DEFINE_SPINLOCK(km_lock);
static size_t bytes_in_use;
static unsigned long cache_pages;	/* pages cut into small blocks */

static int size_class(size_t size)
{
	int s = MIN_SHIFT;

	while ((1UL << s) < size + HDR)
		s++;
	return s;
}

/* Cut a fresh page into blocks of one class. */
static bool refill(int shift)
{
	char *page = alloc_page();
	size_t sz = 1UL << shift, off;

	if (!page)
		return false;
	cache_pages++;
	for (off = 0; off + sz <= PAGE_SIZE; off += sz) {
		struct free_block *b = (void *)(page + off);

		b->next = free_list[shift - MIN_SHIFT];
		free_list[shift - MIN_SHIFT] = b;
	}
	return true;
}

static struct km_hdr *alloc_small(int shift)
{
	unsigned long flags = spin_lock_irqsave(&km_lock);
	struct free_block **head = &free_list[shift - MIN_SHIFT];
	struct free_block *b = NULL;

	if (*head || refill(shift)) {
		b = *head;
		*head = b->next;
		bytes_in_use += 1UL << shift;
	}
	spin_unlock_irqrestore(&km_lock, flags);
	return (struct km_hdr *)b;
}

void *kmalloc(size_t size)
{
	struct km_hdr *h;
	int shift = size_class(size);
	unsigned long n = 0;

	if (size > (1UL << 30))
		return NULL;
	if (shift <= MAX_SHIFT) {
		h = should_fail(&failslab) ? NULL : alloc_small(shift);
	} else {
		n = ALIGN_UP(size + HDR, PAGE_SIZE) / PAGE_SIZE;
		h = alloc_pages(n);
		shift = 0;
	}
	if (!h)
		return NULL;
	h->magic = KM_MAGIC;
	h->shift = shift;
	h->npages = n;
	return (char *)h + HDR;
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}

char *kstrdup(const char *s)
{
	size_t len = strlen(s) + 1;
	char *p = kmalloc(len);

	if (p)
		memcpy(p, s, len);
	return p;
}

void kfree(const void *p)
{
	struct km_hdr *h;
	unsigned long flags;

	if (!p)
		return;
	h = (struct km_hdr *)((char *)p - HDR);
	BUG_ON(h->magic != KM_MAGIC);
	h->magic = 0;
	if (!h->shift) {
		free_pages(h, h->npages);
		return;
	}
	flags = spin_lock_irqsave(&km_lock);
	((struct free_block *)h)->next = free_list[h->shift - MIN_SHIFT];
	free_list[h->shift - MIN_SHIFT] = (struct free_block *)h;
	bytes_in_use -= 1UL << h->shift;
	spin_unlock_irqrestore(&km_lock, flags);
}

/*
 * Zeroed memory on cache lines no other block shares (cache.h), for
 * data one CPU writes and others read: whole pages, so the lines are
 * the block's own, and freeing gives the pages back (no size class
 * keeps them). The caller passes the size again to free it.
 */
void *kzalloc_cacheline(size_t size)
{
	void *p;

	if (size > (1UL << 30))
		return NULL;
	p = alloc_pages(ALIGN_UP(size, PAGE_SIZE) / PAGE_SIZE);
	if (p)
		memset(p, 0, ALIGN_UP(size, SMP_CACHE_BYTES));
	return p;
}

void kfree_cacheline(const void *p, size_t size)
{
	if (p)
		free_pages((void *)p, ALIGN_UP(size, PAGE_SIZE) / PAGE_SIZE);
}

size_t kmalloc_bytes_in_use(void)
{
	return bytes_in_use;
}

/* What the block p counts for in mm_bytes_in_use(). */
size_t kmalloc_footprint(const void *p)
{
	const struct km_hdr *h = (const struct km_hdr *)((const char *)p - HDR);

	return h->shift ? 1UL << h->shift : h->npages * PAGE_SIZE;
}

/*
 * What the kernel holds: pages in use, less those kmalloc keeps cut up
 * for reuse, plus the kmalloc blocks in use. A leak check compares it.
 */
size_t mm_bytes_in_use(void)
{
	return (nr_total_pages() - nr_free_pages() - cache_pages) * PAGE_SIZE +
	       bytes_in_use;
}
