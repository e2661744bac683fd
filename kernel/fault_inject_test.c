/*
 * fault_inject_test.c: selftests of the fault injection schedules:
 * off by default, the Nth call, every Nth, a probability that replays
 * with its schedule, times used up, each allocator failing only on its
 * own schedule, and the debugfs knobs with their errors.
 */
#include "kernel.h"
#include "selftest.h"
#include "fault_inject.h"
#include "mm.h"
#include "string.h"
#include "vfs.h"

#define CALLS		64
#define DEBUGFS		"/sys/kernel/debug/"
#define PAGE_ALLOC_DIR	DEBUGFS "fail_page_alloc/"

/* Which of CALLS small kmallocs failed, as a bit mask. */
static u64 failed_kmallocs(void)
{
	void *p[CALLS];
	u64 mask = 0;
	int i;

	for (i = 0; i < CALLS; i++) {
		p[i] = kmalloc(40);
		if (!p[i])
			mask |= 1ULL << i;
	}
	for (i = 0; i < CALLS; i++)
		kfree(p[i]);
	return mask;
}

static void off_by_default(struct kunit *t)
{
	KUNIT_EXPECT_EQ(t, failslab.probability, 0);
	KUNIT_EXPECT_EQ(t, failed_kmallocs(), 0);
}

/* interval N, times 1: the Nth call from now fails, and only it. */
static void nth_call_fails_once(struct kunit *t)
{
	unsigned long injected = mm_failures_injected();

	fault_attr_set(&failslab, 100, 5, 1);
	KUNIT_EXPECT_EQ(t, failed_kmallocs(), 1ULL << 4);
	KUNIT_EXPECT_EQ(t, failslab.times, 0);
	mm_fail_every(0);
	KUNIT_EXPECT_EQ(t, mm_failures_injected(), injected + 1);
}

static void every_nth_call(struct kunit *t)
{
	u64 mask = 0;
	int i;

	for (i = 2; i < CALLS; i += 3)
		mask |= 1ULL << i;
	fault_attr_set(&failslab, 100, 3, -1);
	KUNIT_EXPECT_EQ(t, failed_kmallocs(), mask);
	mm_fail_every(0);
}

static void times_runs_out(struct kunit *t)
{
	fault_attr_set(&failslab, 100, 1, 3);
	KUNIT_EXPECT_EQ(t, failed_kmallocs(), 0x7);
	mm_fail_every(0);
}

static int bits_set(u64 mask)
{
	int n = 0;

	for (; mask; mask &= mask - 1)
		n++;
	return n;
}

/* A probability draws from numbers that restart with the schedule. */
static void probability_replays(struct kunit *t)
{
	u64 first, again;

	fault_attr_set(&failslab, 50, 1, -1);
	first = failed_kmallocs();
	fault_attr_set(&failslab, 50, 1, -1);
	again = failed_kmallocs();
	mm_fail_every(0);
	KUNIT_EXPECT_EQ(t, first, again);
	KUNIT_EXPECT_TRUE(t, bits_set(first) > CALLS / 4);
	KUNIT_EXPECT_TRUE(t, bits_set(first) < CALLS * 3 / 4);
}

/* failslab is kmalloc's, fail_page_alloc the page allocator's. */
static void each_allocator_its_own(struct kunit *t)
{
	void *page, *small = kmalloc(40);

	kfree(small);
	fault_attr_set(&failslab, 100, 1, -1);
	page = alloc_page();
	KUNIT_EXPECT_TRUE(t, page != NULL);
	free_page(page);
	KUNIT_EXPECT_TRUE(t, kmalloc(40) == NULL);
	mm_fail_every(0);
	fault_attr_set(&fail_page_alloc, 100, 1, -1);
	KUNIT_EXPECT_TRUE(t, alloc_page() == NULL);
	KUNIT_EXPECT_TRUE(t, kmalloc(2 * PAGE_SIZE) == NULL);
	small = kmalloc(40);		/* a block freed above: no new page */
	KUNIT_EXPECT_TRUE(t, small != NULL);
	mm_fail_every(0);
	kfree(small);
}

static void read_knob(struct kunit *t, const char *path, const char *want)
{
	char buf[32];
	struct file *f;
	ssize_t n = -1;

	KUNIT_EXPECT_EQ(t, vfs_open(NULL, path, O_RDONLY, &f), 0);
	n = vfs_read(f, buf, sizeof(buf) - 1);
	vfs_close(f);
	buf[max(n, (ssize_t)0)] = 0;
	KUNIT_EXPECT_STREQ(t, buf, want);
}

static void debugfs_knobs(struct kunit *t)
{
	const char *probability = PAGE_ALLOC_DIR "probability";
	const char *times = PAGE_ALLOC_DIR "times";
	const char *interval = PAGE_ALLOC_DIR "interval";

	read_knob(t, probability, "0\n");
	KUNIT_EXPECT_EQ(t, vfs_write_file(probability, O_TRUNC, "101\n"),
			-EINVAL);
	KUNIT_EXPECT_EQ(t, vfs_write_file(probability, O_TRUNC, "x\n"),
			-EINVAL);
	read_knob(t, times, "1\n");
	KUNIT_EXPECT_EQ(t, vfs_write_file(times, O_TRUNC, "-2\n"), -EINVAL);
	KUNIT_EXPECT_EQ(t, vfs_write_file(times, O_TRUNC, "-1\n"), 0);
	read_knob(t, times, "-1\n");
	KUNIT_EXPECT_EQ(t, vfs_write_file(interval, O_TRUNC, "7\n"), 0);
	read_knob(t, interval, "7\n");
	KUNIT_EXPECT_EQ(t, fail_page_alloc.interval, 7);
	KUNIT_EXPECT_EQ(t, fail_page_alloc.probability, 0);
	KUNIT_EXPECT_TRUE(t, vfs_lookup(NULL, DEBUGFS "failslab/times") != NULL);
	mm_fail_every(0);
}

SELFTEST_SUITE(fault_inject,
	KUNIT_CASE(off_by_default),
	KUNIT_CASE(nth_call_fails_once),
	KUNIT_CASE(every_nth_call),
	KUNIT_CASE(times_runs_out),
	KUNIT_CASE(probability_replays),
	KUNIT_CASE(each_allocator_its_own),
	KUNIT_CASE(debugfs_knobs));
