/*
 * test_md5.c: lib/md5.c against RFC 1321's test suite (appendix A.5),
 * and a text fed in pieces of every size against the same text whole.
 */
#include "test.h"
#include "../../lib/md5.c"

static const char *md5_hex(const char *text, size_t piece)
{
	static char hex[2 * MD5_DIGEST_SIZE + 1];
	u8 digest[MD5_DIGEST_SIZE];
	struct md5_ctx c;
	size_t i, len = strlen(text);

	md5_init(&c);
	for (i = 0; i < len; i += piece)
		md5_update(&c, text + i, len - i < piece ? len - i : piece);
	md5_final(&c, digest);
	for (i = 0; i < MD5_DIGEST_SIZE; i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
	return hex;
}

TEST(rfc1321_suite)
{
	EXPECT_STR(md5_hex("", 1), "d41d8cd98f00b204e9800998ecf8427e");
	EXPECT_STR(md5_hex("a", 1), "0cc175b9c0f1b6a831c399e269772661");
	EXPECT_STR(md5_hex("abc", 3), "900150983cd24fb0d6963f7d28e17f72");
	EXPECT_STR(md5_hex("message digest", 14),
		   "f96b697d7cb7938d525a2f31aaf161d0");
	EXPECT_STR(md5_hex("abcdefghijklmnopqrstuvwxyz", 26),
		   "c3fcd3d76192e4007dfb496cca67e13b");
	EXPECT_STR(md5_hex("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 62),
		   "d174ab98d277d9f5a5611c2c9f419d9f");
	EXPECT_STR(md5_hex("12345678901234567890123456789012345678901234567890123456789012345678901234567890", 80),
		   "57edf4a22be3c955ac49da2e2107b67a");
}

/* Blocks fill across calls: any split gives the same digest. */
TEST(pieces)
{
	const char *text = "12345678901234567890123456789012345678901234567890123456789012345678901234567890";
	size_t piece;

	for (piece = 1; piece <= 80; piece++)
		EXPECT_STR(md5_hex(text, piece),
			   "57edf4a22be3c955ac49da2e2107b67a");
}
