/*
 * fuzz_cpio.c: lib/cpio.c, the initramfs's archive reader, on any
 * bytes. Every entry it returns must lie inside the buffer with its
 * name NUL-terminated there, each call must move forward, and the
 * entries written out again as newc (the reference format) must read
 * back as the same entries.
 */
#include "fuzz.h"
#include "../../lib/string.c"
#include "../../lib/cpio.c"

#define MAX_OUT		(1 << 20)	/* more than an input makes */

static size_t put_entry(char *out, size_t len, const struct cpio_entry *e)
{
	size_t n = strlen(e->name) + 1;

	FUZZ_CHECK(len + 110 + n + e->size + 8 <= MAX_OUT);
	len += sprintf(out + len,
		       "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		       0, e->mode, 0, 0, 1, 0, e->size, 0, 0, 0, 0, n, 0);
	memcpy(out + len, e->name, n);
	len += n;
	while (len % 4)
		out[len++] = 0;
	memcpy(out + len, e->data, e->size);
	len += e->size;
	while (len % 4)
		out[len++] = 0;
	return len;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static char out[MAX_OUT + 256];
	struct cpio_reader r = { .buf = (const char *)data, .len = size };
	struct cpio_reader again = { .buf = out };
	struct cpio_entry e, f;
	size_t len = 0, last;
	int ret;

	do {
		last = r.pos;
		ret = cpio_next(&r, &e);
		FUZZ_CHECK(ret <= 0 || r.pos > last);
		FUZZ_CHECK(r.pos <= size);
		if (ret < 0) {
			FUZZ_CHECK(r.error);
			return 0;
		}
		FUZZ_CHECK(e.name >= (const char *)data &&
			   e.name + strlen(e.name) < (const char *)data + size);
		FUZZ_CHECK(e.data >= (const char *)data &&
			   e.data + e.size <= (const char *)data + size);
		len = put_entry(out, len, &e);
	} while (ret > 0);
	again.len = len;
	r.pos = 0;
	while (cpio_next(&r, &e) > 0) {
		FUZZ_CHECK(cpio_next(&again, &f) == 1);
		FUZZ_CHECK(!strcmp(e.name, f.name) && e.mode == f.mode &&
			   e.size == f.size && !memcmp(e.data, f.data, e.size));
	}
	FUZZ_CHECK(cpio_next(&again, &f) == 0);
	return 0;
}
