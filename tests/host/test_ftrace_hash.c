/*
 * test_ftrace_hash.c: struct ftrace_hash (trace/ftrace_hash.c) on the
 * host, with kmalloc backed by malloc and a failure switch to check
 * that an out-of-memory copy leaves nothing behind.
 */
#include <stdlib.h>
#include "test.h"

static int fail_after = -1;
static int live_blocks;

void *kmalloc(size_t size)
{
	if (fail_after == 0)
		return NULL;
	if (fail_after > 0)
		fail_after--;
	live_blocks++;
	return malloc(size);
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}

void kfree(const void *p)
{
	if (p)
		live_blocks--;
	free((void *)p);
}

#include "../../trace/ftrace_hash.c"

static int sum_ips(unsigned long ip, void *data)
{
	*(unsigned long *)data += ip;
	return 0;
}

TEST(add_lookup_remove)
{
	struct ftrace_hash *h = alloc_ftrace_hash(2);
	unsigned long ip;

	EXPECT(ftrace_hash_empty(h));
	for (ip = 0x80200000; ip < 0x80200000 + 4 * 100; ip += 4)
		EXPECT_EQ(ftrace_hash_add(h, ip), 0);
	EXPECT_EQ(h->count, 100);
	EXPECT_EQ(ftrace_hash_add(h, 0x80200000), 0);
	EXPECT_EQ(h->count, 100);
	EXPECT(ftrace_lookup_ip_in_hash(h, 0x80200000 + 4 * 99));
	EXPECT(!ftrace_lookup_ip_in_hash(h, 0x80200000 + 4 * 100));
	ftrace_hash_remove(h, 0x80200004);
	ftrace_hash_remove(h, 0x80200004);
	EXPECT_EQ(h->count, 99);
	EXPECT(!ftrace_lookup_ip_in_hash(h, 0x80200004));
	free_ftrace_hash(h);
	EXPECT_EQ(live_blocks, 0);
}

TEST(empty_and_null_hash)
{
	EXPECT(ftrace_hash_empty(NULL));
	EXPECT(!ftrace_lookup_ip_in_hash(NULL, 4));
	ftrace_hash_remove(NULL, 4);
	free_ftrace_hash(NULL);
}

TEST(copy_is_equal_and_independent)
{
	struct ftrace_hash *h = alloc_ftrace_hash(4), *c;
	unsigned long a = 0, b = 0, ip;

	for (ip = 4; ip <= 4 * 500; ip += 4)
		ftrace_hash_add(h, ip);
	c = ftrace_hash_copy(h);
	EXPECT_EQ(c->count, 500);
	EXPECT(c->size_bits >= 9);
	ftrace_hash_for_each(h, sum_ips, &a);
	ftrace_hash_for_each(c, sum_ips, &b);
	EXPECT_EQ(a, b);
	ftrace_hash_remove(c, 4);
	EXPECT(ftrace_lookup_ip_in_hash(h, 4));
	free_ftrace_hash(h);
	free_ftrace_hash(c);
	EXPECT_EQ(live_blocks, 0);
}

TEST(copy_of_nothing_is_empty)
{
	struct ftrace_hash *c = ftrace_hash_copy(NULL);

	EXPECT(c != NULL);
	EXPECT(ftrace_hash_empty(c));
	free_ftrace_hash(c);
}

TEST(copy_out_of_memory_frees_all)
{
	struct ftrace_hash *h = alloc_ftrace_hash(4);
	unsigned long ip;

	for (ip = 4; ip <= 4 * 50; ip += 4)
		ftrace_hash_add(h, ip);
	fail_after = 20;
	EXPECT(ftrace_hash_copy(h) == NULL);
	fail_after = -1;
	free_ftrace_hash(h);
	EXPECT_EQ(live_blocks, 0);
}

static int stop_at_third(unsigned long ip, void *data)
{
	return ++*(int *)data == 3 ? 42 : 0;
}

TEST(for_each_stops_early)
{
	struct ftrace_hash *h = alloc_ftrace_hash(3);
	int n = 0;

	ftrace_hash_add(h, 8);
	ftrace_hash_add(h, 16);
	ftrace_hash_add(h, 24);
	ftrace_hash_add(h, 32);
	EXPECT_EQ(ftrace_hash_for_each(h, stop_at_third, &n), 42);
	EXPECT_EQ(n, 3);
	free_ftrace_hash(h);
}
