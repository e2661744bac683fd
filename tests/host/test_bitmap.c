/*
 * test_bitmap.c: lib/bitmap.c's bitmap_parse, case by case against
 * what Linux 6.1's bitmap_parse gives tracing_cpumask for the same text.
 */
#include "test.h"
#include "../../lib/bitmap.c"

#define EXPECT_MASK(str, nbits, want) do {				\
	unsigned long _m = 0xbad;					\
	EXPECT_EQ(bitmap_parse(str, nbits, &_m), 0);			\
	EXPECT_EQ(_m, (unsigned long)(want));				\
} while (0)

/* A refused text returns err and leaves the mask alone. */
#define EXPECT_ERR(str, nbits, err) do {				\
	unsigned long _m = 0xbad;					\
	EXPECT_EQ(bitmap_parse(str, nbits, &_m), err);			\
	EXPECT_EQ(_m, 0xbad);						\
} while (0)

TEST(bitmap_hex_digits)
{
	EXPECT_MASK("f", 8, 0xf);
	EXPECT_MASK("F", 8, 0xf);
	EXPECT_MASK("3\n", 8, 3);
	EXPECT_MASK("0000000a", 8, 0xa);
	EXPECT_MASK("ff", 8, 0xff);
	EXPECT_MASK("0", 8, 0);
}

TEST(bitmap_space_and_empty)
{
	EXPECT_MASK("", 8, 0);
	EXPECT_MASK("\n", 8, 0);
	EXPECT_MASK("  5  \n", 8, 5);
}

/* Commas and blanks separate chunks, any run of them, as in Linux. */
TEST(bitmap_chunks)
{
	EXPECT_MASK("3,00000001", 64, 0x300000001UL);
	EXPECT_MASK("1,00000000", 64, 1UL << 32);
	EXPECT_MASK("1,,3", 64, 0x100000003UL);
	EXPECT_MASK("1 2", 64, 0x100000002UL);
	EXPECT_MASK(",3", 8, 3);
	EXPECT_MASK("3,", 8, 3);
	EXPECT_MASK(",", 8, 0);
	/* nbits 8 is one chunk: a second one is too many, zero or not */
	EXPECT_ERR("0,3", 8, -EOVERFLOW);
	EXPECT_ERR("1,00000000", 8, -EOVERFLOW);
}

/* The text ends at its first newline. */
TEST(bitmap_newline_ends_it)
{
	EXPECT_MASK("3\nx", 8, 3);
	EXPECT_MASK("\n1", 8, 0);
}

TEST(bitmap_bad_text)
{
	EXPECT_ERR("x", 8, -EINVAL);
	EXPECT_ERR("0x3", 8, -EINVAL);
	EXPECT_ERR("-1", 8, -EINVAL);
	EXPECT_ERR("g", 8, -EINVAL);
	EXPECT_ERR("1x", 64, -EINVAL);
	/* Linux's quirk: after 8 digits the ninth character is only
	 * looked at for a digit, and then passed over */
	EXPECT_MASK("x00000001", 8, 1);
	EXPECT_ERR("xx00000001", 64, -EINVAL);
	EXPECT_ERR("xx00000001", 8, -EOVERFLOW);
}

TEST(bitmap_too_large)
{
	EXPECT_ERR("100", 8, -EOVERFLOW);
	EXPECT_ERR("1ff", 8, -EOVERFLOW);
	EXPECT_ERR("000000001", 8, -EOVERFLOW);
	EXPECT_MASK("ffffffff", 32, 0xffffffffUL);
	EXPECT_ERR("1f", 4, -EOVERFLOW);
	EXPECT_MASK("f", 4, 0xf);
}
