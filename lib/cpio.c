/*
 * cpio.c: the entries of a "newc" cpio archive, as Linux's
 * init/initramfs.c reads them: a 110-byte header ("070701" and 13
 * fields of 8 hex digits), the name (namesize bytes with its NUL),
 * padding to 4 bytes, the data, padding to 4 bytes; the entry named
 * TRAILER!!! ends it. Every size is checked against the buffer, so a
 * bad archive is an error, never a read past its end.
 */
#include "kernel.h"
#include "string.h"
#include "errno.h"
#include "cpio.h"

#define CPIO_HEADER	110
#define F_MODE		1	/* field numbers after the magic */
#define F_FILESIZE	6
#define F_NAMESIZE	11

static bool hex_field(const char *p, unsigned long *v)
{
	int i, d;

	*v = 0;
	for (i = 0; i < 8; i++) {
		char c = p[i];

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return false;
		*v = *v * 16 + d;
	}
	return true;
}

static int bad(struct cpio_reader *r, const char *why)
{
	r->error = why;
	return -EINVAL;
}

static size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

int cpio_next(struct cpio_reader *r, struct cpio_entry *e)
{
	const char *h = r->buf + r->pos;
	unsigned long field[13];
	size_t name_at, data_at;
	int i;

	while (r->pos < r->len && !r->buf[r->pos])	/* padding between archives */
		h = r->buf + ++r->pos;
	if (r->pos == r->len)
		return bad(r, "no TRAILER!!! entry at the end");
	if (r->len - r->pos < CPIO_HEADER)
		return bad(r, "a header runs past the end");
	if (memcmp(h, "070701", 6) && memcmp(h, "070702", 6))
		return bad(r, "not a newc cpio archive (no 070701 magic)");
	for (i = 0; i < 13; i++)
		if (!hex_field(h + 6 + 8 * i, &field[i]))
			return bad(r, "a header field is not hexadecimal");
	name_at = r->pos + CPIO_HEADER;
	if (!field[F_NAMESIZE] || field[F_NAMESIZE] > r->len - name_at)
		return bad(r, "a name runs past the end");
	if (h[CPIO_HEADER + field[F_NAMESIZE] - 1])
		return bad(r, "a name is not NUL-terminated");
	data_at = pad4(name_at + field[F_NAMESIZE]);
	if (data_at > r->len || field[F_FILESIZE] > r->len - data_at)
		return bad(r, "a file's data runs past the end");
	e->name = h + CPIO_HEADER;
	e->mode = field[F_MODE];
	e->data = r->buf + data_at;
	e->size = field[F_FILESIZE];
	r->pos = min(pad4(data_at + e->size), r->len);
	return strcmp(e->name, "TRAILER!!!") ? 1 : 0;
}
