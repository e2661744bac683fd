/*
 * fuzz_fdt.c: kernel/fdt.c on damaged device trees (the seeds are the
 * blobs of tests/host/fixtures). The blob is copied into a buffer of
 * exactly its totalsize, so ASan stops any read past it; inside that,
 * all but the header and the two blocks the header names is poisoned,
 * since the walker has no business anywhere else. Then cmdline_has()
 * must agree with a plain split of whatever bootargs came out.
 */
#include <sanitizer/asan_interface.h>
#include "fuzz.h"
#include "../../lib/string.c"
#include "../../kernel/fdt.c"

#define HDR_LEN		sizeof(struct fdt_header)
/* Enough to read magic and totalsize, all that a short blob costs. */
#define HDR_MIN		8

#define field(blob, f)	be32((blob) + offsetof(struct fdt_header, f))

static void put_be32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/*
 * The input cut to its totalsize; or, if it claims more than it has,
 * with totalsize lowered to what it has: a blob's size is whatever its
 * header says, and here the buffer must be all of it. It starts 0 to 3
 * bytes into its allocation: nothing may assume an aligned blob.
 */
static u8 *blob_copy(const u8 *data, size_t size, u8 **alloc, size_t *len)
{
	size_t skew = size % 4;
	u8 *blob;

	*len = size;
	if (size >= HDR_MIN && be32(data + 4) < size)
		*len = be32(data + 4);
	*len = max(*len, (size_t)HDR_MIN);
	*alloc = calloc(1, skew + *len);
	blob = *alloc + skew;
	memcpy(blob, data, min(size, *len));
	if (be32(blob + 4) > *len)
		put_be32(blob + 4, *len);
	return blob;
}

static bool block_inside(u32 off, u32 size, size_t len)
{
	return (u64)off + size <= len;
}

/* Only the header, the structure block and the strings may be read. */
static void poison_outside_blocks(u8 *blob, size_t len)
{
	u32 st, st_size, str, str_size;

	if (len < HDR_LEN)
		return;
	st = field(blob, off_dt_struct);
	st_size = field(blob, size_dt_struct);
	str = field(blob, off_dt_strings);
	str_size = field(blob, size_dt_strings);
	if (!block_inside(st, st_size, len) ||
	    !block_inside(str, str_size, len))
		return;		/* fdt_parse must refuse it unread */
	__asan_poison_memory_region(blob + HDR_LEN, len - HDR_LEN);
	__asan_unpoison_memory_region(blob + st, st_size);
	__asan_unpoison_memory_region(blob + str, str_size);
}

/* The reference: is w a word of s, or the name of a name=value word? */
static bool ref_has(const char *s, const char *w)
{
	char *copy = strdup(s), *tok, *save, *eq;
	bool found = false;

	for (tok = strtok_r(copy, " ", &save); tok && !found;
	     tok = strtok_r(NULL, " ", &save)) {
		eq = strchr(tok, '=');
		found = !strcmp(tok, w) ||
			(eq && (size_t)(eq - tok) == strlen(w) &&
			 !strncmp(tok, w, eq - tok));
	}
	free(copy);
	return found;
}

static void check_has(const char *word)
{
	FUZZ_CHECK(cmdline_has(word) == ref_has(boot_info.bootargs, word));
}

/* Each word of the bootargs, its name, and near misses of both. */
static void check_cmdline(void)
{
	char *copy = strdup(boot_info.bootargs), *tok, *save, *eq;
	char probe[BOOTARGS_MAX + 1];

	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		FUZZ_CHECK(cmdline_has(tok));
		eq = strchr(tok, '=');
		if (eq) {
			*eq = 0;
			check_has(tok);
		}
		snprintf(probe, sizeof(probe), "%sx", tok);
		check_has(probe);
		if (strlen(tok) > 1) {
			tok[strlen(tok) - 1] = 0;
			check_has(tok);
		}
	}
	free(copy);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	size_t len;
	u8 *alloc, *blob = blob_copy(data, size, &alloc, &len);
	int err;

	poison_outside_blocks(blob, len);
	err = fdt_parse(blob, &boot_info);
	FUZZ_CHECK(err == 0 || err == -EINVAL);
	FUZZ_CHECK(boot_info.nr_harts >= 0 && boot_info.nr_harts <= NR_CPUS);
	FUZZ_CHECK(strnlen(boot_info.bootargs, BOOTARGS_MAX) < BOOTARGS_MAX);
	if (!err)
		check_cmdline();
	__asan_unpoison_memory_region(blob, len);
	free(alloc);
	return 0;
}
