/*
 * cpio.h: reading a cpio archive in the "newc" format (lib/cpio.c),
 * the one Linux's initramfs takes (Documentation/driver-api/
 * early-userspace/buffer-format.rst).
 */
#ifndef _CPIO_H
#define _CPIO_H

#include "types.h"

struct cpio_entry {
	const char *name;	/* NUL-terminated, inside the archive */
	unsigned int mode;	/* S_IFDIR, S_IFREG ... and the permissions */
	const char *data;	/* file size bytes, inside the archive */
	size_t size;
};

struct cpio_reader {
	const char *buf;
	size_t len, pos;
	const char *error;	/* why cpio_next failed */
};

/*
 * The next entry: 1 and *e, 0 at the TRAILER!!! entry (or the end of
 * the buffer after one), or -EINVAL with r->error saying why.
 */
int cpio_next(struct cpio_reader *r, struct cpio_entry *e);

#endif
