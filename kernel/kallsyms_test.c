/*
 * kallsyms_test.c: the `kallsyms` selftest suite, which checks the table
 * of the running kernel against the kernel's own functions and data.
 */
#include "kernel.h"
#include "string.h"
#include "printf.h"
#include "kallsyms.h"
#include "selftest.h"

/* A named object, for lookups of data. */
static const char kallsyms_test_object[] = "kallsyms";

/* Expect addr to be offset bytes into the symbol called name. */
static void expect_symbol(struct kunit *t, unsigned long addr,
			  const char *name, unsigned long offset)
{
	unsigned long got_offset = ~0UL, size = 0;
	const char *got = kallsyms_lookup(addr, &size, &got_offset);

	KUNIT_EXPECT_TRUE(t, got != NULL);
	if (!got)
		return;
	KUNIT_EXPECT_STREQ(t, got, name);
	KUNIT_EXPECT_EQ(t, got_offset, offset);
	KUNIT_EXPECT_TRUE(t, offset < size);
}

static void kallsyms_test_lookup_self(struct kunit *t)
{
	unsigned long addr = (unsigned long)kallsyms_lookup_name;

	expect_symbol(t, addr, "kallsyms_lookup_name", 0);
	KUNIT_EXPECT_EQ(t, kallsyms_lookup_name("kallsyms_lookup_name"), addr);
	KUNIT_EXPECT_TRUE(t, kallsyms_is_text(addr));
}

static void kallsyms_test_offset_inside(struct kunit *t)
{
	unsigned long addr = (unsigned long)kallsyms_lookup_name;
	unsigned long size = 0;
	char want[64], got[64];

	kallsyms_lookup(addr, &size, NULL);
	KUNIT_EXPECT_TRUE(t, size > 4);
	expect_symbol(t, addr + 4, "kallsyms_lookup_name", 4);
	expect_symbol(t, addr + size - 1, "kallsyms_lookup_name", size - 1);

	snprintf(want, sizeof(want), "kallsyms_lookup_name+0x4/0x%lx", size);
	snprintf(got, sizeof(got), "%pS", (void *)(addr + 4));
	KUNIT_EXPECT_STREQ(t, got, want);
	snprintf(got, sizeof(got), "%ps", (void *)(addr + 4));
	KUNIT_EXPECT_STREQ(t, got, "kallsyms_lookup_name");
}

static void kallsyms_test_data(struct kunit *t)
{
	unsigned long addr = (unsigned long)kallsyms_test_object;

	expect_symbol(t, addr + 2, "kallsyms_test_object", 2);
	KUNIT_EXPECT_EQ(t, kallsyms_lookup_name("kallsyms_test_object"), addr);
	KUNIT_EXPECT_TRUE(t, !kallsyms_is_text(addr));
}

static void kallsyms_test_unknown(struct kunit *t)
{
	char buf[32];

	KUNIT_EXPECT_EQ(t, kallsyms_lookup_name("no_such_symbol"), 0);
	KUNIT_EXPECT_TRUE(t, !kallsyms_lookup(0, NULL, NULL));
	KUNIT_EXPECT_EQ(t, sprint_symbol(buf, sizeof(buf), 0, true), 0);
	snprintf(buf, sizeof(buf), "%pS", (void *)0x10);
	KUNIT_EXPECT_STREQ(t, buf, "0x10");
}

struct round_trip {
	struct kunit *t;
	unsigned long count;
	unsigned long last_addr;
};

/*
 * Every 97th function: its address names it, and its name gives back its
 * address, or a lower one: static functions may share a name, and
 * kallsyms_lookup_name finds the lowest.
 */
static int kallsyms_test_check_one(void *data, const char *name,
				   unsigned long addr, unsigned long size)
{
	struct round_trip *rt = data;
	unsigned long found;

	KUNIT_EXPECT_TRUE(rt->t, addr > rt->last_addr);
	rt->last_addr = addr;
	if (rt->count++ % 97)
		return 0;
	KUNIT_EXPECT_TRUE(rt->t, size > 0);
	expect_symbol(rt->t, addr, name, 0);
	found = kallsyms_lookup_name(name);
	KUNIT_EXPECT_TRUE(rt->t, found != 0 && found <= addr);
	return 0;
}

static void kallsyms_test_round_trip(struct kunit *t)
{
	struct round_trip rt = { t, 0, 0 };

	KUNIT_EXPECT_EQ(t, kallsyms_for_each(kallsyms_test_check_one, &rt), 0);
	KUNIT_EXPECT_TRUE(t, rt.count > 0);
}

SELFTEST_SUITE(kallsyms,
	KUNIT_CASE(kallsyms_test_lookup_self),
	KUNIT_CASE(kallsyms_test_offset_inside),
	KUNIT_CASE(kallsyms_test_data),
	KUNIT_CASE(kallsyms_test_unknown),
	KUNIT_CASE(kallsyms_test_round_trip),
);
