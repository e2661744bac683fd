/*
 * fuzz_bitmap.c: lib/bitmap.c's bitmap_parse, what tracing_cpumask
 * takes, against a reference that reads the text the other way: the
 * words between separators left to right, each cut from its end into
 * chunks of 8 and read by the host's strtoul. The input is an nbits
 * byte, then the text. A mask taken prints and parses back the same,
 * and a refused text leaves the mask alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include "fuzz.h"
#include "../../lib/bitmap.c"

#define MAX_WORDS	64

static bool sep(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == ',';
}

static bool hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/*
 * One word [s, p), its chunks from the end: Linux passes over the
 * character before a chunk of 8 digits if it is no digit (and fails
 * with EOVERFLOW if it is one).
 */
static int ref_word(const char *s, const char *p, int *chunks, int *chunk,
		    unsigned long *mask)
{
	char digits[9];
	int k, i;

	while (p > s) {
		if ((*chunks)-- == 0)
			return -EOVERFLOW;
		k = p - s < 8 ? (int)(p - s) : 8;
		for (i = 1; i <= k; i++)
			if (!hex(p[-i]))
				return -EINVAL;
		memcpy(digits, p - k, k);
		digits[k] = 0;
		*mask |= strtoul(digits, NULL, 16) << (32 * (*chunk)++);
		p -= k;
		if (p > s && hex(p[-1]))
			return -EOVERFLOW;
		if (p > s)
			p--;
	}
	return 0;
}

static int ref_parse(const char *text, unsigned int nbits, unsigned long *out)
{
	size_t n = strcspn(text, "\n"), i = 0;
	const char *ws[MAX_WORDS], *we[MAX_WORDS];
	int nw = 0, chunks = (nbits + 31) / 32, chunk = 0, err;
	unsigned long mask = 0;

	while (i < n) {
		while (i < n && sep(text[i]))
			i++;
		if (i == n)
			break;
		if (nw == MAX_WORDS)
			return 1;	/* too many to follow: skip the input */
		ws[nw] = text + i;
		while (i < n && !sep(text[i]))
			i++;
		we[nw++] = text + i;
	}
	while (nw--) {
		err = ref_word(ws[nw], we[nw], &chunks, &chunk, &mask);
		if (err)
			return err;
	}
	if (nbits < 64 && mask >> nbits)
		return -EOVERFLOW;
	*out = mask;
	return 0;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_in in = { data, size };
	unsigned int nbits = 1 + fuzz_u8(&in) % 64;
	char *text = fuzz_str(&in, 0), again[40];
	unsigned long mask = 0xbad, want = 0xbad, back = 0;
	int ret = bitmap_parse(text, nbits, &mask);
	int ref = ref_parse(text, nbits, &want);

	if (ref != 1) {
		FUZZ_CHECK(ret == ref);
		FUZZ_CHECK(mask == want);
	}
	if (!ret) {
		if (mask >> 32)	/* Linux's %*pb: a comma every 8 digits */
			snprintf(again, sizeof(again), "%lx,%08lx", mask >> 32,
				 mask & 0xffffffffUL);
		else
			snprintf(again, sizeof(again), "%lx", mask);
		FUZZ_CHECK(!bitmap_parse(again, 64, &back) && back == mask);
	}
	free(text);
	return 0;
}
