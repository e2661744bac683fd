/*
 * test_sort_key.c: kernel/shell/sort_key.c, sort's keys and order, each
 * as GNU sort (LC_ALL=C) orders the same lines.
 */
#include "test.h"
#include "../../kernel/shell/sort_key.c"

static int sign(int c)
{
	return c < 0 ? -1 : c > 0;
}

static int cmp(const struct sort_order *o, const char *a, const char *b)
{
	return sign(sort_compare(o, a, strlen(a), b, strlen(b)));
}

static struct sort_order with_keys(const char *k1, const char *k2)
{
	struct sort_order o = { .nkeys = 0 };

	if (k1 && !sort_parse_key(k1, &o.keys[o.nkeys]))
		o.nkeys++;
	if (k2 && !sort_parse_key(k2, &o.keys[o.nkeys]))
		o.nkeys++;
	return o;
}

TEST(parse_keys)
{
	struct sort_key k;

	EXPECT_EQ(sort_parse_key("2", &k), 0);
	EXPECT_EQ(k.field1, 2);
	EXPECT_EQ(k.char1, 1);
	EXPECT_EQ(k.field2, 0);
	EXPECT_EQ(sort_parse_key("2.3n,4.1r", &k), 0);
	EXPECT_EQ(k.char1, 3);
	EXPECT_EQ(k.field2, 4);
	EXPECT_EQ(k.char2, 1);
	EXPECT(k.numeric && k.reverse);
	EXPECT_EQ(sort_parse_key("0", &k), -EINVAL);
	EXPECT_EQ(sort_parse_key("x", &k), -EINVAL);
	EXPECT_EQ(sort_parse_key("1,", &k), -EINVAL);
	EXPECT_EQ(sort_parse_key("1.", &k), -EINVAL);
	EXPECT_EQ(sort_parse_key("1z", &k), -EINVAL);
}

TEST(whole_lines)
{
	struct sort_order o = { .nkeys = 0 };

	EXPECT_EQ(cmp(&o, "a", "b"), -1);
	EXPECT_EQ(cmp(&o, "ab", "a"), 1);
	EXPECT_EQ(cmp(&o, "B", "a"), -1);	/* bytes, as LC_ALL=C */
	EXPECT_EQ(cmp(&o, "x", "x"), 0);
	o.reverse = true;
	EXPECT_EQ(cmp(&o, "a", "b"), 1);
}

TEST(numbers)
{
	struct sort_order o = { .numeric = true };

	EXPECT_EQ(cmp(&o, "9", "10"), -1);
	EXPECT_EQ(cmp(&o, "-5", "3"), -1);
	EXPECT_EQ(cmp(&o, "-5", "-30"), 1);
	EXPECT_EQ(cmp(&o, "1.5", "1.25"), 1);
	EXPECT_EQ(cmp(&o, "007", "7.0"), -1);	/* equal: the bytes decide */
	EXPECT_EQ(cmp(&o, "  42", "5"), 1);
	EXPECT_EQ(cmp(&o, "abc", "0"), 1);	/* no number is 0; then bytes */
	EXPECT_EQ(cmp(&o, "-0", "0"), -1);
	o.unique = true;
	EXPECT_EQ(cmp(&o, "007", "7.0"), 0);
	EXPECT_EQ(cmp(&o, "-0", "0"), 0);
}

/* Without -t a field begins with its blanks: -k2 sees " 10", " 9". */
TEST(blank_fields)
{
	struct sort_order o = with_keys("2", NULL);

	EXPECT_EQ(cmp(&o, "b 10 x", "a 9 y"), -1);
	o = with_keys("2n", NULL);
	EXPECT_EQ(cmp(&o, "b 10 x", "a 9 y"), 1);
	o = with_keys("2,2", NULL);
	EXPECT_EQ(cmp(&o, "a  x", "b x"), -1);
	o = with_keys("3", NULL);
	EXPECT_EQ(cmp(&o, "a b", "a c"), -1);	/* both keys empty: bytes */
}

TEST(separator_fields)
{
	struct sort_order o = with_keys("3,3", "2n");

	o.separator = ':';
	EXPECT_EQ(cmp(&o, "a:10:x", "b:9:x"), 1);
	EXPECT_EQ(cmp(&o, "a:10:x", "b:9:y"), -1);
	o = with_keys("2.2,2.3", NULL);
	o.separator = ':';
	EXPECT_EQ(cmp(&o, "z:abc", "a:xbd"), -1);
	o = with_keys("2", NULL);
	o.separator = ':';
	EXPECT_EQ(cmp(&o, "a::b", "b:a"), -1);	/* an empty field */
}

/* A key's own options replace the global ones, for that key only. */
TEST(key_options)
{
	struct sort_order o = with_keys("1r", NULL);

	o.numeric = true;
	EXPECT_EQ(cmp(&o, "9", "10"), -1);	/* text, reversed */
	o = with_keys("1", NULL);
	o.reverse = true;
	EXPECT_EQ(cmp(&o, "a", "b"), 1);
	o.unique = true;
	EXPECT_EQ(cmp(&o, "a x", "a y"), 1);
	o = with_keys("1,1", NULL);
	o.unique = true;
	EXPECT_EQ(cmp(&o, "a x", "a y"), 0);
}
