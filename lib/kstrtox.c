/*
 * kstrtox.c: Linux's kstrtoul() family. Base 0 picks 16 for "0x",
 * 8 for a leading "0" and 10 otherwise; unsigned conversions take an
 * optional '+', signed ones '+' or '-'.
 */
#include "kernel.h"
#include "kstrtox.h"

/* rv64 and the hosts the unit tests run on are LP64: long is s64. */
_Static_assert(sizeof(long) == sizeof(s64), "kstrtoul assumes LP64");

static char to_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* A digit's value, or 16 (a digit in no base we accept) for others. */
static unsigned int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = to_lower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return 16;
}

static bool is_hex_prefix(const char *s)
{
	return s[0] == '0' && to_lower(s[1]) == 'x';
}

/* Resolve base 0 and step over a "0x" that base 16 allows. */
static const char *fixup_radix(const char *s, unsigned int *base)
{
	if (*base == 0) {
		if (is_hex_prefix(s) && digit_value(s[2]) < 16)
			*base = 16;
		else if (s[0] == '0')
			*base = 8;
		else
			*base = 10;
	}
	if (*base == 16 && is_hex_prefix(s))
		s += 2;
	return s;
}

/* The digits and an optional newline must be all there is. */
static int parse_u64(const char *s, unsigned int base, u64 *res)
{
	bool overflow = false;
	const char *digits;
	unsigned int d;
	u64 v = 0;

	s = fixup_radix(s, &base);
	for (digits = s; (d = digit_value(*s)) < base; s++) {
		if (v > (~0ULL - d) / base)
			overflow = true;
		v = v * base + d;
	}
	if (overflow)
		return -ERANGE;
	if (s == digits)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

static int parse_s64(const char *s, unsigned int base, s64 *res)
{
	bool neg = s[0] == '-';
	u64 v;
	int err;

	err = parse_u64(s + (neg || s[0] == '+'), base, &v);
	if (err)
		return err;
	if (neg) {
		/* -v must not wrap to a positive value; LLONG_MIN does fit */
		if ((s64)-v > 0)
			return -ERANGE;
		v = -v;
	} else if ((s64)v < 0) {
		return -ERANGE;
	}
	*res = (s64)v;
	return 0;
}

int kstrtoul(const char *s, unsigned int base, unsigned long *res)
{
	u64 v;
	int err = parse_u64(s + (s[0] == '+'), base, &v);

	if (!err)
		*res = v;
	return err;
}

int kstrtol(const char *s, unsigned int base, long *res)
{
	s64 v;
	int err = parse_s64(s, base, &v);

	if (!err)
		*res = v;
	return err;
}

int kstrtouint(const char *s, unsigned int base, unsigned int *res)
{
	unsigned long v;
	int err = kstrtoul(s, base, &v);

	if (err)
		return err;
	if (v != (unsigned int)v)
		return -ERANGE;
	*res = v;
	return 0;
}

int kstrtoint(const char *s, unsigned int base, int *res)
{
	long v;
	int err = kstrtol(s, base, &v);

	if (err)
		return err;
	if (v != (int)v)
		return -ERANGE;
	*res = v;
	return 0;
}
