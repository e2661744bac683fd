/*
 * bitmap.c: a CPU mask from its hex text, for tracing_cpumask, the way
 * Linux 6.1's lib/bitmap.c:bitmap_parse reads it: the text ends at its
 * first newline and is read from the end, one 32-bit chunk of up to 8
 * hex digits at a time; commas and white space separate the chunks,
 * any number of them, so nothing at all is the empty mask.
 */
#include "kernel.h"
#include "string.h"
#include "ctype.h"
#include "bitmap.h"

#define BITS_TO_U32(n)	(((n) + 31) / 32)

static bool end_of_region(char c)
{
	return isspace(c) || c == ',';
}

static int hex_to_bin(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The last character of the region ending at end, before separators. */
static const char *find_region_reverse(const char *start, const char *end)
{
	while (start <= end && end_of_region(*end))
		end--;
	return end;
}

/*
 * The chunk ending at end into *num; where the text before it ends, or
 * NULL with *err: a character that is no hex digit, or a ninth digit.
 */
static const char *get_x32_reverse(const char *start, const char *end,
				   u32 *num, int *err)
{
	u32 ret = 0;
	int c, i;

	for (i = 0; i < 32; i += 4) {
		c = hex_to_bin(*end--);
		if (c < 0) {
			*err = -EINVAL;
			return NULL;
		}
		ret |= (u32)c << i;
		if (start > end || end_of_region(*end))
			goto out;
	}
	if (hex_to_bin(*end--) >= 0) {
		*err = -EOVERFLOW;
		return NULL;
	}
out:
	*num = ret;
	return end;
}

int bitmap_parse(const char *buf, unsigned int nbits, unsigned long *maskp)
{
	const char *nl = strchr(buf, '\n');
	const char *end = (nl ? nl : buf + strlen(buf)) - 1;
	int chunks = BITS_TO_U32(nbits), chunk, err = 0;
	unsigned long mask = 0;
	u32 num;

	for (chunk = 0; ; chunk++) {
		end = find_region_reverse(buf, end);
		if (buf > end)
			break;
		if (!chunks--)
			return -EOVERFLOW;
		end = get_x32_reverse(buf, end, &num, &err);
		if (!end)
			return err;
		mask |= (unsigned long)num << (32 * chunk);
	}
	if (nbits < BITS_PER_LONG && mask >> nbits)
		return -EOVERFLOW;
	*maskp = mask;
	return 0;
}
