/*
 * md5.c: MD5 as RFC 1321 defines it: 64-byte blocks through four
 * rounds of sixteen steps, the length in bits appended after a 0x80
 * and zeros. Only md5sum uses it, to checksum files as Linux users
 * compare them; it is no security measure.
 */
#include "kernel.h"
#include "string.h"
#include "md5.h"

/* The per-step shifts and the constants floor(abs(sin(i + 1)) * 2^32). */
static const u8 shifts[64] = {
	7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
	5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
	4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
	6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
};

static const u32 sines[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a,
	0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
	0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340,
	0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8,
	0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
	0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
	0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92,
	0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
	0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

void md5_init(struct md5_ctx *c)
{
	c->state[0] = 0x67452301;
	c->state[1] = 0xefcdab89;
	c->state[2] = 0x98badcfe;
	c->state[3] = 0x10325476;
	c->bytes = 0;
}

static u32 rol(u32 x, int n)
{
	return (x << n) | (x >> (32 - n));
}

static void md5_block(u32 state[4], const u8 *p)
{
	u32 m[16], a = state[0], b = state[1], c = state[2], d = state[3], f, t;
	int i, g;

	for (i = 0; i < 16; i++)	/* little-endian words */
		m[i] = p[4 * i] | p[4 * i + 1] << 8 | p[4 * i + 2] << 16 |
		       (u32)p[4 * i + 3] << 24;
	for (i = 0; i < 64; i++) {
		if (i < 16) {
			f = (b & c) | (~b & d);
			g = i;
		} else if (i < 32) {
			f = (d & b) | (~d & c);
			g = (5 * i + 1) % 16;
		} else if (i < 48) {
			f = b ^ c ^ d;
			g = (3 * i + 5) % 16;
		} else {
			f = c ^ (b | ~d);
			g = (7 * i) % 16;
		}
		t = d;
		d = c;
		c = b;
		b += rol(a + f + sines[i] + m[g], shifts[i]);
		a = t;
	}
	state[0] += a;
	state[1] += b;
	state[2] += c;
	state[3] += d;
}

void md5_update(struct md5_ctx *c, const void *data, size_t len)
{
	const u8 *p = data;
	size_t used = c->bytes % 64, n;

	c->bytes += len;
	while (len) {
		n = min(len, 64 - used);
		memcpy(c->block + used, p, n);
		used += n;
		p += n;
		len -= n;
		if (used == 64) {
			md5_block(c->state, c->block);
			used = 0;
		}
	}
}

void md5_final(struct md5_ctx *c, u8 digest[MD5_DIGEST_SIZE])
{
	u64 bits = c->bytes * 8;
	u8 pad = 0x80, len[8];
	int i;

	md5_update(c, &pad, 1);
	pad = 0;
	while (c->bytes % 64 != 56)
		md5_update(c, &pad, 1);
	for (i = 0; i < 8; i++)
		len[i] = bits >> (8 * i);
	md5_update(c, len, 8);
	for (i = 0; i < MD5_DIGEST_SIZE; i++)
		digest[i] = c->state[i / 4] >> (8 * (i % 4));
}
