/*
 * 9p_msg.c: 9P's wire format (Linux's net/9p/protocol.c). Every
 * message is size[4] type[1] tag[2] and its fields, little-endian;
 * a string is len[2] and its bytes, with no NUL; a qid is type[1]
 * version[4] path[8]. Replies come from outside the kernel, so every
 * read is bounds-checked: a field past the end sets overflow, reads
 * as zero, and the reply is refused as -EIO.
 */
#include "kernel.h"
#include "string.h"
#include "9p.h"

static u8 *room(struct p9_buf *b, u32 len)
{
	u8 *p;

	if (b->overflow || len > b->size - b->pos) {
		b->overflow = true;
		return NULL;
	}
	p = b->data + b->pos;
	b->pos += len;
	return p;
}

static void put_le(struct p9_buf *b, u64 v, int n)
{
	u8 *p = room(b, n);
	int i;

	for (i = 0; p && i < n; i++)
		p[i] = v >> (8 * i);
}

static u64 get_le(struct p9_buf *b, int n)
{
	const u8 *p = room(b, n);
	u64 v = 0;
	int i;

	for (i = n - 1; p && i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

void p9_put_u8(struct p9_buf *b, u8 v)
{
	put_le(b, v, 1);
}

void p9_put_u16(struct p9_buf *b, u16 v)
{
	put_le(b, v, 2);
}

void p9_put_u32(struct p9_buf *b, u32 v)
{
	put_le(b, v, 4);
}

void p9_put_u64(struct p9_buf *b, u64 v)
{
	put_le(b, v, 8);
}

void p9_put_data(struct p9_buf *b, const void *p, u32 len)
{
	u8 *dst = room(b, len);

	if (dst)
		memcpy(dst, p, len);
}

void p9_put_str(struct p9_buf *b, const char *s)
{
	size_t len = strlen(s);

	if (len > 0xffff) {
		b->overflow = true;
		return;
	}
	p9_put_u16(b, len);
	p9_put_data(b, s, len);
}

/* Start a T-message; its size is filled in by p9_end. */
void p9_begin(struct p9_buf *b, u8 type, u16 tag)
{
	b->pos = 0;
	b->overflow = false;
	p9_put_u32(b, 0);
	p9_put_u8(b, type);
	p9_put_u16(b, tag);
}

/* The message's length, 0 if it did not fit. */
u32 p9_end(struct p9_buf *b)
{
	u32 len = b->pos;

	if (b->overflow)
		return 0;
	b->pos = 0;
	p9_put_u32(b, len);
	b->pos = len;
	return len;
}

u8 p9_get_u8(struct p9_buf *b)
{
	return get_le(b, 1);
}

u16 p9_get_u16(struct p9_buf *b)
{
	return get_le(b, 2);
}

u32 p9_get_u32(struct p9_buf *b)
{
	return get_le(b, 4);
}

u64 p9_get_u64(struct p9_buf *b)
{
	return get_le(b, 8);
}

const u8 *p9_get_data(struct p9_buf *b, u32 len)
{
	return room(b, len);
}

/*
 * A string into s, NUL-terminated; one that does not fit in size (or
 * holds a NUL, which no name may) sets overflow. Returns its length.
 */
u32 p9_get_str(struct p9_buf *b, char *s, u32 size)
{
	u32 len = p9_get_u16(b);
	const u8 *p = room(b, len);

	if (!p || len >= size || strnlen((const char *)p, len) != len) {
		b->overflow = true;
		s[0] = 0;
		return 0;
	}
	memcpy(s, p, len);
	s[len] = 0;
	return len;
}

void p9_get_qid(struct p9_buf *b, struct p9_qid *qid)
{
	qid->type = p9_get_u8(b);
	qid->version = p9_get_u32(b);
	qid->path = p9_get_u64(b);
}

/*
 * Check a reply's header: its size as received, the tag sent, and the
 * type wanted; Rlerror gives its errno (negated), anything else -EIO.
 * On success b is at the first field.
 */
int p9_check_reply(struct p9_buf *b, u32 len, u8 type, u16 tag)
{
	u32 ecode;
	u8 got;

	b->pos = 0;
	b->overflow = false;
	if (len > b->size || len < P9_HDRSZ || p9_get_u32(b) != len)
		return -EIO;
	b->size = len;
	got = p9_get_u8(b);
	if (p9_get_u16(b) != tag)
		return -EIO;
	if (got == type)
		return 0;
	if (got != P9_RLERROR)
		return -EIO;
	ecode = p9_get_u32(b);
	return b->overflow || !ecode || ecode > 4095 ? -EIO : -(int)ecode;
}

/* One entry of an Rreaddir's data: qid[13] offset[8] type[1] name[s]. */
int p9_parse_dirent(struct p9_buf *b, struct p9_qid *qid, u64 *offset,
		    char *name, u32 size)
{
	p9_get_qid(b, qid);
	*offset = p9_get_u64(b);
	p9_get_u8(b);
	p9_get_str(b, name, size);
	return b->overflow ? -EIO : 0;
}
