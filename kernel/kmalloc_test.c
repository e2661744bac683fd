/*
 * kmalloc_test.c: selftests of kmalloc: each size class, large blocks
 * as page runs, zeroing, reuse, the byte count returning to start, and
 * blocks on cache lines of their own.
 */
#include "kernel.h"
#include "selftest.h"
#include "mm.h"
#include "string.h"
#include "cache.h"

#define HDR	16	/* kmalloc's header before each block */

/* A request of size bytes takes this many bytes of a size class. */
static size_t class_bytes(size_t size)
{
	size_t c = 32;

	while (c < size + HDR)
		c *= 2;
	return c;
}

static bool overlap(const char *a, const char *b, size_t n)
{
	return a < b + n && b < a + n;
}

static void check_class(struct kunit *t, size_t size)
{
	size_t before = kmalloc_bytes_in_use();
	char *a = kmalloc(size), *b = kmalloc(size);

	KUNIT_EXPECT_TRUE(t, a && b);
	if (!a || !b)
		return;
	KUNIT_EXPECT_EQ(t, (unsigned long)a % 16, 0);
	KUNIT_EXPECT_TRUE(t, !overlap(a, b, size));
	KUNIT_EXPECT_EQ(t, kmalloc_bytes_in_use(),
			before + 2 * class_bytes(size));
	memset(a, 0x5a, size);
	memset(b, 0xa5, size);
	KUNIT_EXPECT_EQ(t, (u8)a[size - 1], 0x5a);
	kfree(a);
	kfree(b);
	KUNIT_EXPECT_EQ(t, kmalloc_bytes_in_use(), before);
}

static void every_size_class(struct kunit *t)
{
	static const size_t sizes[] = { 1, 16, 17, 48, 100, 240, 500, 1000,
					2048 - HDR };
	unsigned long i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		check_class(t, sizes[i]);
}

/* Past the largest class, a block is a page run with the header first. */
static void big_block_is_page_run(struct kunit *t)
{
	unsigned long before = nr_free_pages();
	size_t bytes = kmalloc_bytes_in_use();
	char *p = kmalloc(3 * PAGE_SIZE);

	KUNIT_EXPECT_TRUE(t, p != NULL);
	if (!p)
		return;
	KUNIT_EXPECT_EQ(t, ((unsigned long)p & (PAGE_SIZE - 1)), HDR);
	KUNIT_EXPECT_EQ(t, nr_free_pages(), before - 4);
	KUNIT_EXPECT_EQ(t, kmalloc_bytes_in_use(), bytes);
	memset(p, 0x11, 3 * PAGE_SIZE);
	kfree(p);
	KUNIT_EXPECT_EQ(t, nr_free_pages(), before);
}

static void smallest_page_run(struct kunit *t)
{
	unsigned long before = nr_free_pages();
	void *p = kmalloc(2048 - HDR + 1);

	KUNIT_EXPECT_TRUE(t, p != NULL);
	KUNIT_EXPECT_EQ(t, nr_free_pages(), before - 1);
	kfree(p);
	KUNIT_EXPECT_EQ(t, nr_free_pages(), before);
}

static void too_big_is_null(struct kunit *t)
{
	KUNIT_EXPECT_TRUE(t, kmalloc(1UL << 31) == NULL);
	KUNIT_EXPECT_TRUE(t, kmalloc(nr_total_pages() * PAGE_SIZE) == NULL);
}

static void kzalloc_zeroes(struct kunit *t)
{
	char *p = kmalloc(200);
	size_t i, nonzero = 0;

	if (p)
		memset(p, 0xff, 200);
	kfree(p);
	p = kzalloc(200);		/* most likely the block just freed */
	KUNIT_EXPECT_TRUE(t, p != NULL);
	for (i = 0; p && i < 200; i++)
		nonzero += p[i] != 0;
	KUNIT_EXPECT_EQ(t, nonzero, 0);
	kfree(p);
}

static void freed_block_is_reused(struct kunit *t)
{
	void *a = kmalloc(64), *b;

	kfree(a);
	b = kmalloc(64);
	KUNIT_EXPECT_TRUE(t, a == b);
	kfree(b);
	kfree(NULL);			/* must be harmless */
}

static void byte_count_returns_to_start(struct kunit *t)
{
	size_t before = kmalloc_bytes_in_use();
	void *p[200];
	int i, nulls = 0;

	for (i = 0; i < 200; i++) {
		p[i] = kmalloc(24 + i * 7);
		nulls += !p[i];
	}
	KUNIT_EXPECT_EQ(t, nulls, 0);
	KUNIT_EXPECT_TRUE(t, kmalloc_bytes_in_use() > before);
	for (i = 0; i < 200; i++)
		kfree(p[i]);
	KUNIT_EXPECT_EQ(t, kmalloc_bytes_in_use(), before);
}

/*
 * A cache-line block starts a line, is zeroed whatever was there
 * before, no kmalloc block shares its lines, and freeing it gives its
 * pages back.
 */
static void cacheline_block_owns_its_lines(struct kunit *t)
{
	unsigned long pages;
	size_t size;

	kfree(kmalloc(8));	/* its size class has a block from now on */
	pages = nr_free_pages();
	for (size = 1; size <= 9000; size = size * 3 + 1) {
		size_t lines = ALIGN_UP(size, SMP_CACHE_BYTES), i, nonzero = 0;
		char *p = kzalloc_cacheline(size), *b = kmalloc(8);

		KUNIT_EXPECT_TRUE(t, p != NULL && b != NULL);
		if (!p || !b) {
			kfree_cacheline(p, size);
			kfree(b);
			continue;
		}
		KUNIT_EXPECT_EQ(t, (unsigned long)p % SMP_CACHE_BYTES, 0);
		for (i = 0; i < lines; i++)
			nonzero += p[i] != 0;
		KUNIT_EXPECT_EQ(t, nonzero, 0);
		KUNIT_EXPECT_TRUE(t, b + 8 <= p || b >= p + lines);
		memset(p, 0xff, lines);	/* dirty for the next round */
		kfree(b);
		kfree_cacheline(p, size);
	}
	kfree_cacheline(NULL, 64);		/* must be harmless */
	KUNIT_EXPECT_TRUE(t, kzalloc_cacheline(1UL << 31) == NULL);
	KUNIT_EXPECT_EQ(t, nr_free_pages(), pages);
}

SELFTEST_SUITE(kmalloc,
	KUNIT_CASE(every_size_class),
	KUNIT_CASE(big_block_is_page_run),
	KUNIT_CASE(smallest_page_run),
	KUNIT_CASE(too_big_is_null),
	KUNIT_CASE(kzalloc_zeroes),
	KUNIT_CASE(freed_block_is_reused),
	KUNIT_CASE(byte_count_returns_to_start),
	KUNIT_CASE(cacheline_block_owns_its_lines));
