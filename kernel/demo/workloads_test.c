/*
 * workloads_test.c: selftests of what the workloads compute: fib's
 * result and its call count (what a function trace of `run fib 10`
 * must show), CRC-32 against zlib's values, and the heap sort.
 */
#include "kernel.h"
#include "selftest.h"
#include "workloads.h"
#include "mm.h"
#include "string.h"

#define SORT_TEST_N	1000

static void workloads_test_fib(struct kunit *t)
{
	fib_calls = 0;
	KUNIT_EXPECT_EQ(t, fib(10), 55);
	KUNIT_EXPECT_EQ(t, fib_calls, 177);
	fib_calls = 0;
	KUNIT_EXPECT_EQ(t, fib(1), 1);
	KUNIT_EXPECT_EQ(t, fib_calls, 1);
	KUNIT_EXPECT_EQ(t, fib(20), 6765);
}

/* Expected values from Python's zlib.crc32. */
static void workloads_test_crc32(struct kunit *t)
{
	u8 *buf = kmalloc(1024);

	KUNIT_EXPECT_EQ(t, crc32_le(0, (const u8 *)"123456789", 9), 0xcbf43926);
	KUNIT_EXPECT_EQ(t, crc32_le(0, NULL, 0), 0);
	if (!buf)
		KUNIT_SKIP(t, "no memory");
	crc32_fill_pattern(buf, 1024);
	KUNIT_EXPECT_EQ(t, crc32_le(0, buf, 1024), 0x421b1ffb);
	KUNIT_EXPECT_EQ(t, crc32_le(crc32_le(0, buf, 100), buf + 100, 924),
			0x421b1ffb);
	kfree(buf);
}

static void workloads_test_sort(struct kunit *t)
{
	u32 *v = kmalloc(SORT_TEST_N * sizeof(*v));
	u32 few[] = { 3, 1, 2, 3, 0 };
	size_t i;

	if (!v)
		KUNIT_SKIP(t, "no memory");
	fill_random(v, SORT_TEST_N, 1);
	KUNIT_EXPECT_TRUE(t, !is_sorted(v, SORT_TEST_N));
	KUNIT_EXPECT_EQ(t, sort(v, SORT_TEST_N), 0);
	KUNIT_EXPECT_TRUE(t, is_sorted(v, SORT_TEST_N));
	for (i = 0; i < SORT_TEST_N; i++)
		v[i] = SORT_TEST_N - i;
	sort(v, SORT_TEST_N);
	KUNIT_EXPECT_EQ(t, v[0], 1);
	KUNIT_EXPECT_EQ(t, v[SORT_TEST_N - 1], SORT_TEST_N);
	sort(few, ARRAY_SIZE(few));
	KUNIT_EXPECT_EQ(t, memcmp(few, (u32[]){ 0, 1, 2, 3, 3 }, sizeof(few)), 0);
	KUNIT_EXPECT_EQ(t, sort(v, 0), 0);
	kfree(v);
}

SELFTEST_SUITE(workloads,
	KUNIT_CASE(workloads_test_fib),
	KUNIT_CASE(workloads_test_crc32),
	KUNIT_CASE(workloads_test_sort));
