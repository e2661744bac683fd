/*
 * bitmap.c: a CPU mask from its hex text, as Linux's lib/bitmap.c
 * bitmap_parse reads tracing_cpumask: 32-bit chunks of up to 8 hex
 * digits, most significant first, separated by commas; white space
 * around the whole is ignored, and nothing at all is the empty mask.
 */
#include "kernel.h"
#include "string.h"
#include "ctype.h"
#include "bitmap.h"

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* One chunk of 1 to 8 digits, ending at end; its value, or an errno. */
static long parse_chunk(const char *start, const char *end)
{
	unsigned long val = 0;
	int d;

	if (start == end)
		return -EINVAL;
	if (end - start > 8)
		return -EOVERFLOW;
	for (; start < end; start++) {
		d = hex_digit(*start);
		if (d < 0)
			return -EINVAL;
		val = val << 4 | d;
	}
	return val;
}

int bitmap_parse(const char *buf, unsigned int nbits, unsigned long *maskp)
{
	const char *start = buf, *end = buf + strlen(buf), *comma;
	unsigned long mask = 0;
	unsigned int shift = 0;
	long chunk;

	while (isspace(*start))
		start++;
	while (end > start && isspace(end[-1]))
		end--;
	while (end > start) {
		for (comma = end; comma > start && comma[-1] != ','; comma--)
			;
		chunk = parse_chunk(comma, end);
		if (chunk < 0)
			return chunk;
		if (chunk && (shift >= nbits || (nbits - shift < 32 &&
						  chunk >> (nbits - shift))))
			return -EOVERFLOW;
		if (chunk)
			mask |= (unsigned long)chunk << shift;
		shift += 32;
		if (comma == start)
			break;
		end = comma - 1;
		if (end == start)
			return -EINVAL;		/* a leading comma */
	}
	*maskp = mask;
	return 0;
}
