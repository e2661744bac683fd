/*
 * fuzz_kstrtox.c: lib/kstrtox.c against the host's strtoull/strtoll,
 * fenced to kstrto*()'s stricter grammar: no blanks, one sign, the
 * whole string a number but for one trailing newline. The input is a
 * base selector byte, then the string.
 */
#include <errno.h>
#include <limits.h>
#include <ctype.h>
#include "fuzz.h"
#include "../../lib/kstrtox.c"

/* The bases callers pass, and now and then any base kstrto* takes. */
static unsigned int pick_base(u8 b)
{
	static const unsigned int common[] = { 0, 8, 10, 16 };

	return b < 0xc0 ? common[b % 4] : (b == 0xc0 ? 0 : 2 + b % 15);
}

/*
 * The host's parse of digits at s (no sign of their own), ended by an
 * optional newline and the end of the string. strtoull would skip
 * blanks and take a sign there: kstrto* do not, so insist on a digit.
 */
static int ref_digits(const char *s, unsigned int base, unsigned long long *v)
{
	char *end;

	if (!isalnum((u8)s[0]))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, base);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s)
		return -EINVAL;
	end += *end == '\n';
	return *end ? -EINVAL : 0;
}

static int ref_ul(const char *s, unsigned int base, unsigned long *res)
{
	unsigned long long v;
	int err = ref_digits(s + (s[0] == '+'), base, &v);

	if (!err)
		*res = v;
	return err;
}

/* The magnitude through strtoull, then the sign and range by hand. */
static int ref_l(const char *s, unsigned int base, long *res)
{
	bool neg = s[0] == '-';
	unsigned long long v;
	int err = ref_digits(s + (neg || s[0] == '+'), base, &v);

	if (err)
		return err;
	if (v > (unsigned long long)LONG_MAX + neg)
		return -ERANGE;
	*res = neg ? (long)(0 - v) : (long)v;
	return 0;
}

/* The same error, the same value on success, untouched on failure. */
#define AGREE(type, kfn, err_ref, v_ref, ...) do {			\
	type _v = (type)0x5a5a5a5a;					\
	int _err = kfn(__VA_ARGS__, &_v);				\
	FUZZ_CHECK(_err == (err_ref));					\
	FUZZ_CHECK(_err ? _v == (type)0x5a5a5a5a : _v == (v_ref));	\
} while (0)

static void check_all(const char *s, unsigned int base)
{
	unsigned long ul = 0;
	long l = 0;
	int eul = ref_ul(s, base, &ul), el = ref_l(s, base, &l);
	int eui = eul ? eul : ul > UINT_MAX ? -ERANGE : 0;
	int ei = el ? el : (l < INT_MIN || l > INT_MAX) ? -ERANGE : 0;

	AGREE(unsigned long, kstrtoul, eul, ul, s, base);
	AGREE(long, kstrtol, el, l, s, base);
	AGREE(unsigned int, kstrtouint, eui, ul, s, base);
	AGREE(int, kstrtoint, ei, l, s, base);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_in in = { data, size };
	unsigned int base = pick_base(fuzz_u8(&in));
	char *s = fuzz_str(&in, 0);

	check_all(s, base);
	free(s);
	return 0;
}
