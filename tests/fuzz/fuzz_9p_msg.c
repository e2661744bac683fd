/*
 * fuzz_9p_msg.c: kernel/fs/9p_msg.c, the decoder of the 9P replies a
 * host sends, against a reference encoder written here from the 9P2000.L
 * spec. The input's first byte picks a mode:
 *
 * - encode: a reply (Rversion, Rwalk, Rread, Rgetattr, Rreaddir's
 *   entries or Rlerror) made of fuzzed fields is encoded here, maybe
 *   cut short or with a wrong size, tag or type; the kernel's decoder
 *   must give back every field exactly, or refuse a damaged message.
 * - raw: the rest of the input is an Rreaddir as it came (its header
 *   set right, or not); whatever the decoder reads must lie inside it
 *   and every name fit its buffer (each exactly its size, so ASan
 *   stops any access past them).
 */
#include <stdbool.h>
#include "fuzz.h"
#include "../../lib/string.c"
#include "../../kernel/fs/9p_msg.c"

#define MAX_MSG		8192
#define TAG		1

/* The reference encoder: a growing little-endian message. */
struct ref {
	u8 b[MAX_MSG];
	u32 len;
};

static void ref_le(struct ref *r, u64 v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		r->b[r->len++] = v >> (8 * i);
}

static void ref_str(struct ref *r, const char *s)
{
	size_t n = strlen(s);

	ref_le(r, n, 2);
	memcpy(r->b + r->len, s, n);
	r->len += n;
}

static void ref_qid(struct ref *r, const struct p9_qid *q)
{
	ref_le(r, q->type, 1);
	ref_le(r, q->version, 4);
	ref_le(r, q->path, 8);
}

static void fuzz_qid(struct fuzz_in *in, struct p9_qid *q)
{
	q->type = fuzz_u8(in);
	q->version = fuzz_u64(in, 4);
	q->path = fuzz_u64(in, 8);
}

static bool same_qid(const struct p9_qid *a, const struct p9_qid *b)
{
	return a->type == b->type && a->version == b->version &&
	       a->path == b->path;
}

/* A name of up to 40 bytes, without NULs, from the input. */
static void fuzz_name(struct fuzz_in *in, char *s)
{
	int n = fuzz_pick(in, 41), i;

	for (i = 0; i < n; i++)
		s[i] = 1 + fuzz_pick(in, 255);
	s[n] = 0;
}

/* A copy of exactly len bytes, so ASan sees a read past the reply. */
static int check(const struct ref *r, u32 len, u8 type, struct p9_buf *b)
{
	u8 *copy = malloc(len ? len : 1);

	memcpy(copy, r->b, len);
	*b = (struct p9_buf){ .data = copy, .size = len };
	return p9_check_reply(b, len, type, TAG);
}

static void encode_mode(struct fuzz_in *in)
{
	struct p9_qid q[4], got;
	struct p9_buf b;
	struct ref r = { .len = 0 };
	char name[4][64], s[64];
	u8 kind = fuzz_pick(in, 6), type = 0, damage = fuzz_pick(in, 8);
	u32 nq = fuzz_pick(in, 5), i, v32 = fuzz_u64(in, 4), len;
	u64 v64 = fuzz_u64(in, 8), off;
	int err;

	ref_le(&r, 0, 4);
	for (i = 0; i < nq; i++) {
		fuzz_qid(in, &q[i]);
		fuzz_name(in, name[i]);
	}
	switch (kind) {
	case 0:				/* Rversion msize[4] version[s] */
		type = P9_RVERSION;
		ref_le(&r, type, 1);
		ref_le(&r, TAG, 2);
		ref_le(&r, v32, 4);
		ref_str(&r, name[0]);
		break;
	case 1:				/* Rwalk nwqid[2] qid[13]... */
		type = P9_RWALK;
		ref_le(&r, type, 1);
		ref_le(&r, TAG, 2);
		ref_le(&r, nq, 2);
		for (i = 0; i < nq; i++)
			ref_qid(&r, &q[i]);
		break;
	case 2:				/* Rread count[4] data */
		type = P9_RREAD;
		ref_le(&r, type, 1);
		ref_le(&r, TAG, 2);
		ref_le(&r, strlen(name[0]), 4);
		memcpy(r.b + r.len, name[0], strlen(name[0]));
		r.len += strlen(name[0]);
		break;
	case 3:				/* Rgetattr valid qid mode ... size */
		type = P9_RGETATTR;
		ref_le(&r, type, 1);
		ref_le(&r, TAG, 2);
		ref_le(&r, v64, 8);
		ref_qid(&r, &q[0]);
		ref_le(&r, v32, 4);
		ref_le(&r, 0, 8);		/* uid, gid */
		ref_le(&r, 0, 8);		/* nlink */
		ref_le(&r, 0, 8);		/* rdev */
		ref_le(&r, v64 ^ 1, 8);
		break;
	case 4:				/* Rreaddir's entries */
		type = P9_RREADDIR;
		ref_le(&r, type, 1);
		ref_le(&r, TAG, 2);
		for (i = 0; i < nq; i++) {
			ref_qid(&r, &q[i]);
			ref_le(&r, v64 + i, 8);
			ref_le(&r, q[i].type, 1);
			ref_str(&r, name[i]);
		}
		break;
	default:			/* Rlerror ecode[4] */
		ref_le(&r, P9_RLERROR, 1);
		ref_le(&r, TAG, 2);
		ref_le(&r, v32 % 5000, 4);
		type = P9_RREAD;
		break;
	}
	len = r.len;
	r.b[0] = len;
	r.b[1] = len >> 8;
	if (damage == 1)
		len -= 1 + fuzz_pick(in, len);	/* cut short */
	else if (damage == 2)
		r.b[0] ^= 1;			/* a size that lies */
	else if (damage == 3)
		r.b[5] ^= 2;			/* not our tag */
	err = check(&r, len, type, &b);
	if (damage >= 1 && damage <= 3) {
		FUZZ_CHECK(err == -EIO);
		goto out;
	}
	if (kind == 5) {
		v32 %= 5000;
		FUZZ_CHECK(err == (v32 && v32 <= 4095 ? -(int)v32 : -EIO));
		goto out;
	}
	FUZZ_CHECK(!err);
	switch (kind) {
	case 0:
		FUZZ_CHECK(p9_get_u32(&b) == v32);
		p9_get_str(&b, s, sizeof(s));
		FUZZ_CHECK(!b.overflow && !strcmp(s, name[0]));
		break;
	case 1:
		FUZZ_CHECK(p9_get_u16(&b) == nq);
		for (i = 0; i < nq; i++) {
			p9_get_qid(&b, &got);
			FUZZ_CHECK(same_qid(&got, &q[i]));
		}
		break;
	case 2:
		len = p9_get_u32(&b);
		FUZZ_CHECK(len == strlen(name[0]));
		FUZZ_CHECK(!memcmp(p9_get_data(&b, len), name[0], len));
		break;
	case 3:
		FUZZ_CHECK(p9_get_u64(&b) == v64);
		p9_get_qid(&b, &got);
		FUZZ_CHECK(same_qid(&got, &q[0]) && p9_get_u32(&b) == v32);
		p9_get_data(&b, 24);
		FUZZ_CHECK(p9_get_u64(&b) == (v64 ^ 1));
		break;
	case 4:
		for (i = 0; i < nq; i++) {
			FUZZ_CHECK(!p9_parse_dirent(&b, &got, &off, s,
						    sizeof(s)));
			FUZZ_CHECK(same_qid(&got, &q[i]) && off == v64 + i &&
				   !strcmp(s, name[i]));
		}
		break;
	}
	FUZZ_CHECK(!b.overflow && b.pos == b.size);
out:
	free(b.data);
}

/*
 * Any bytes as an Rreaddir, its header made right or not: reads stay
 * inside, a name fits the buffer given (malloc'd to its exact size, so
 * ASan sees a byte written past it), or overflow is set.
 */
static void raw_mode(struct fuzz_in *in)
{
	bool fix_header = fuzz_u8(in) & 1;
	u32 size = 1 + fuzz_pick(in, 32);
	u8 *copy = malloc(in->n ? in->n : 1);
	char *name = malloc(size);
	struct p9_buf b = { .data = copy, .size = in->n };
	struct p9_qid qid;
	u64 off;

	memcpy(copy, in->p, in->n);
	if (fix_header && in->n >= P9_HDRSZ) {
		copy[0] = in->n;
		copy[1] = in->n >> 8;
		copy[2] = in->n >> 16;
		copy[3] = in->n >> 24;
		copy[4] = P9_RREADDIR;
		copy[5] = TAG;
		copy[6] = 0;
	}
	if (!p9_check_reply(&b, in->n, P9_RREADDIR, TAG))
		while (b.pos < b.size &&
		       !p9_parse_dirent(&b, &qid, &off, name, size))
			FUZZ_CHECK(strlen(name) < size);
	FUZZ_CHECK(b.pos <= b.size);
	free(name);
	free(copy);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_in in = { data, size };

	if (fuzz_u8(&in) & 1)
		raw_mode(&in);
	else
		encode_mode(&in);
	return 0;
}
