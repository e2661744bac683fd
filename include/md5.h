/*
 * md5.h: the MD5 digest (lib/md5.c), RFC 1321, for md5sum.
 */
#ifndef _MD5_H
#define _MD5_H

#include "types.h"

#define MD5_DIGEST_SIZE	16

struct md5_ctx {
	u32 state[4];
	u64 bytes;		/* fed so far */
	u8 block[64];		/* the part block not yet digested */
};

void md5_init(struct md5_ctx *c);
void md5_update(struct md5_ctx *c, const void *data, size_t len);
void md5_final(struct md5_ctx *c, u8 digest[MD5_DIGEST_SIZE]);

#endif
