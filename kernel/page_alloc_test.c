/*
 * page_alloc_test.c: selftests of the page allocator: single pages and
 * runs, the free count, running out of memory and fault injection.
 */
#include "kernel.h"
#include "selftest.h"
#include "mm.h"
#include "string.h"

static bool page_aligned(const void *p)
{
	return ((unsigned long)p & (PAGE_SIZE - 1)) == 0;
}

static void alloc_free_page(struct kunit *t)
{
	unsigned long before = nr_free_pages();
	char *p = alloc_page();

	KUNIT_EXPECT_TRUE(t, p != NULL);
	if (!p)
		return;
	KUNIT_EXPECT_TRUE(t, page_aligned(p));
	KUNIT_EXPECT_EQ(t, nr_free_pages(), before - 1);
	memset(p, 0xa5, PAGE_SIZE);	/* the whole page is ours */
	free_page(p);
	KUNIT_EXPECT_EQ(t, nr_free_pages(), before);
}

static void runs_do_not_overlap(struct kunit *t)
{
	unsigned long before = nr_free_pages();
	char *a = alloc_pages(8), *b = alloc_pages(3);

	KUNIT_EXPECT_TRUE(t, a && b);
	if (a && b) {
		KUNIT_EXPECT_TRUE(t, page_aligned(a) && page_aligned(b));
		KUNIT_EXPECT_TRUE(t, a + 8 * PAGE_SIZE <= b ||
				  b + 3 * PAGE_SIZE <= a);
		KUNIT_EXPECT_EQ(t, nr_free_pages(), before - 11);
		memset(a, 1, 8 * PAGE_SIZE);
		memset(b, 2, 3 * PAGE_SIZE);
		KUNIT_EXPECT_EQ(t, a[8 * PAGE_SIZE - 1], 1);
	}
	free_pages(a, 8);
	free_pages(b, 3);
	KUNIT_EXPECT_EQ(t, nr_free_pages(), before);
}

static void zero_pages_is_null(struct kunit *t)
{
	KUNIT_EXPECT_TRUE(t, alloc_pages(0) == NULL);
	KUNIT_EXPECT_TRUE(t, alloc_pages(nr_total_pages() + 1) == NULL);
}

/* Freed pages are found again, wherever the search hint points. */
static void free_count_returns_to_start(struct kunit *t)
{
	unsigned long before = nr_free_pages();
	void *p[16];
	int i;

	for (i = 0; i < 16; i++)
		p[i] = alloc_pages(1 + i % 3);
	for (i = 0; i < 16; i += 2)
		free_pages(p[i], 1 + i % 3);
	for (i = 0; i < 16; i += 2)
		p[i] = alloc_pages(1 + i % 3);
	for (i = 15; i >= 0; i--) {
		KUNIT_EXPECT_TRUE(t, p[i] != NULL);
		free_pages(p[i], 1 + i % 3);
	}
	KUNIT_EXPECT_EQ(t, nr_free_pages(), before);
}

/* A chain of runs, linked through their own first words. */
struct run {
	struct run *next;
	unsigned long npages;
};

/* Take every free page, in halving run sizes to be quick about it. */
static struct run *take_all_pages(void)
{
	struct run *head = NULL, *r;
	unsigned long n = 1024;

	while (n) {
		r = alloc_pages(n);
		if (!r) {
			n /= 2;
			continue;
		}
		r->next = head;
		r->npages = n;
		head = r;
	}
	return head;
}

static void give_back(struct run *head)
{
	while (head) {
		struct run *next = head->next;

		free_pages(head, head->npages);
		head = next;
	}
}

static void exhaustion_then_recovery(struct kunit *t)
{
	unsigned long before = nr_free_pages();
	struct run *all = take_all_pages();
	void *p;

	KUNIT_EXPECT_EQ(t, nr_free_pages(), 0);
	KUNIT_EXPECT_TRUE(t, alloc_page() == NULL);
	KUNIT_EXPECT_TRUE(t, kmalloc(2 * PAGE_SIZE) == NULL);
	give_back(all);
	KUNIT_EXPECT_EQ(t, nr_free_pages(), before);
	p = alloc_pages(4);
	KUNIT_EXPECT_TRUE(t, p != NULL);
	free_pages(p, 4);
}

static void fail_every_injects_failures(struct kunit *t)
{
	unsigned long injected = mm_failures_injected();
	void *p[12];
	int i, nulls = 0;

	mm_fail_every(4);
	for (i = 0; i < 12; i++) {
		p[i] = alloc_page();
		nulls += !p[i];
	}
	mm_fail_every(0);
	for (i = 0; i < 12; i++)
		free_page(p[i]);
	KUNIT_EXPECT_EQ(t, nulls, 3);
	KUNIT_EXPECT_TRUE(t, p[3] == NULL && p[7] == NULL && p[11] == NULL);
	KUNIT_EXPECT_EQ(t, mm_failures_injected(), injected + 3);
}

static void fail_every_reaches_kmalloc(struct kunit *t)
{
	void *p;

	mm_fail_every(1);
	p = kmalloc(3 * PAGE_SIZE);
	mm_fail_every(0);
	KUNIT_EXPECT_TRUE(t, p == NULL);
	p = kmalloc(3 * PAGE_SIZE);
	KUNIT_EXPECT_TRUE(t, p != NULL);
	kfree(p);
}

SELFTEST_SUITE(page_alloc,
	KUNIT_CASE(alloc_free_page),
	KUNIT_CASE(runs_do_not_overlap),
	KUNIT_CASE(zero_pages_is_null),
	KUNIT_CASE(free_count_returns_to_start),
	KUNIT_CASE(exhaustion_then_recovery),
	KUNIT_CASE(fail_every_injects_failures),
	KUNIT_CASE(fail_every_reaches_kmalloc));
