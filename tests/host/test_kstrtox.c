/*
 * test_kstrtox.c: lib/kstrtox.c, case by case against what Linux's
 * kstrto*() return for the same strings.
 */
#include "test.h"
#include <limits.h>
#include "../../lib/kstrtox.c"

#define EXPECT_UL(str, base, want) do {					\
	unsigned long _v = 0xbad;					\
	EXPECT_EQ(kstrtoul(str, base, &_v), 0);				\
	EXPECT_EQ(_v, want);						\
} while (0)

#define EXPECT_L(str, base, want) do {					\
	long _v = 0xbad;						\
	EXPECT_EQ(kstrtol(str, base, &_v), 0);				\
	EXPECT_EQ(_v, want);						\
} while (0)

/* A failed conversion returns err and leaves *res alone. */
#define EXPECT_UL_ERR(str, base, err) do {				\
	unsigned long _v = 0xbad;					\
	EXPECT_EQ(kstrtoul(str, base, &_v), err);			\
	EXPECT_EQ(_v, 0xbad);						\
} while (0)

#define EXPECT_L_ERR(str, base, err) do {				\
	long _v = 0xbad;						\
	EXPECT_EQ(kstrtol(str, base, &_v), err);			\
	EXPECT_EQ(_v, 0xbad);						\
} while (0)

TEST(ul_decimal)
{
	EXPECT_UL("0", 10, 0);
	EXPECT_UL("42", 10, 42);
	EXPECT_UL("+42", 10, 42);
	EXPECT_UL("007", 10, 7);
	EXPECT_UL("18446744073709551615", 10, ULONG_MAX);
}

TEST(ul_trailing_newline)
{
	EXPECT_UL("1\n", 0, 1);
	EXPECT_UL("0x10\n", 0, 16);
	EXPECT_UL_ERR("1\n\n", 0, -EINVAL);
	EXPECT_UL_ERR("1 ", 0, -EINVAL);
	EXPECT_UL_ERR("\n", 0, -EINVAL);
}

TEST(ul_base_detection)
{
	EXPECT_UL("0x1f", 0, 31);
	EXPECT_UL("0X1F", 0, 31);
	EXPECT_UL("017", 0, 15);
	EXPECT_UL("0", 0, 0);
	EXPECT_UL("99", 0, 99);
	EXPECT_UL("ffffffffffffffff", 16, ULONG_MAX);
	EXPECT_UL("0xff", 16, 255);
	EXPECT_UL("ff", 16, 255);
	EXPECT_UL("101", 2, 5);
	EXPECT_UL("777", 8, 511);
}

/* "0x" with no hex digit is an octal 0 followed by junk. */
TEST(ul_bad_prefixes)
{
	EXPECT_UL_ERR("0x", 0, -EINVAL);
	EXPECT_UL_ERR("0x", 16, -EINVAL);
	EXPECT_UL_ERR("0xg", 0, -EINVAL);
	EXPECT_UL_ERR("08", 0, -EINVAL);
	EXPECT_UL_ERR("0x10", 10, -EINVAL);
}

TEST(ul_junk)
{
	EXPECT_UL_ERR("", 0, -EINVAL);
	EXPECT_UL_ERR("abc", 10, -EINVAL);
	EXPECT_UL_ERR("12abc", 10, -EINVAL);
	EXPECT_UL_ERR(" 12", 10, -EINVAL);
	EXPECT_UL_ERR("-1", 10, -EINVAL);
	EXPECT_UL_ERR("+", 10, -EINVAL);
	EXPECT_UL_ERR("++1", 10, -EINVAL);
	EXPECT_UL_ERR("1a", 10, -EINVAL);
	EXPECT_UL_ERR("2", 2, -EINVAL);
}

TEST(ul_overflow)
{
	EXPECT_UL_ERR("18446744073709551616", 10, -ERANGE);
	EXPECT_UL_ERR("99999999999999999999999", 10, -ERANGE);
	EXPECT_UL_ERR("0x10000000000000000", 0, -ERANGE);
	/* As Linux: overflow is reported before trailing junk. */
	EXPECT_UL_ERR("99999999999999999999999x", 10, -ERANGE);
}

TEST(l_signs)
{
	EXPECT_L("-1", 10, -1);
	EXPECT_L("+1", 10, 1);
	EXPECT_L("-0", 10, 0);
	EXPECT_L("-0x10", 0, -16);
	EXPECT_L("-010\n", 0, -8);
	EXPECT_L("9223372036854775807", 10, LONG_MAX);
	EXPECT_L("-9223372036854775808", 10, LONG_MIN);
	EXPECT_L_ERR("--1", 10, -EINVAL);
	EXPECT_L_ERR("-", 10, -EINVAL);
	EXPECT_L_ERR("+-1", 10, -EINVAL);
}

TEST(l_overflow)
{
	EXPECT_L_ERR("9223372036854775808", 10, -ERANGE);
	EXPECT_L_ERR("-9223372036854775809", 10, -ERANGE);
	EXPECT_L_ERR("-18446744073709551615", 10, -ERANGE);
	EXPECT_L_ERR("18446744073709551616", 10, -ERANGE);
}

TEST(uint)
{
	unsigned int v = 7;

	EXPECT_EQ(kstrtouint("4294967295", 10, &v), 0);
	EXPECT_EQ(v, UINT_MAX);
	EXPECT_EQ(kstrtouint("0x100000000", 0, &v), -ERANGE);
	EXPECT_EQ(v, UINT_MAX);
	EXPECT_EQ(kstrtouint("-1", 10, &v), -EINVAL);
	EXPECT_EQ(kstrtouint("1408\n", 10, &v), 0);
	EXPECT_EQ(v, 1408);
}

TEST(int)
{
	int v = 7;

	EXPECT_EQ(kstrtoint("2147483647", 10, &v), 0);
	EXPECT_EQ(v, INT_MAX);
	EXPECT_EQ(kstrtoint("-2147483648", 10, &v), 0);
	EXPECT_EQ(v, INT_MIN);
	EXPECT_EQ(kstrtoint("2147483648", 10, &v), -ERANGE);
	EXPECT_EQ(kstrtoint("-2147483649", 10, &v), -ERANGE);
	EXPECT_EQ(v, INT_MIN);
	EXPECT_EQ(kstrtoint("-5x", 10, &v), -EINVAL);
}
