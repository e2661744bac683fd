/*
 * test_string.c: the kernel-only string helpers of lib/string.c (the
 * standard ones come from the host's libc under HOST_TEST), and its
 * memset and memcpy, renamed kernel_memset and kernel_memcpy here.
 */
#include "test.h"
#include "../../lib/string.c"

TEST(strlcpy_fits)
{
	char buf[8];

	EXPECT_EQ(strlcpy(buf, "abc", sizeof(buf)), 3);
	EXPECT_STR(buf, "abc");
	EXPECT_EQ(strlcpy(buf, "", sizeof(buf)), 0);
	EXPECT_STR(buf, "");
}

TEST(strlcpy_truncates)
{
	char buf[4] = "xyz";

	EXPECT_EQ(strlcpy(buf, "abcdef", sizeof(buf)), 6);
	EXPECT_STR(buf, "abc");
	EXPECT_EQ(strlcpy(buf, "abcd", sizeof(buf)), 4);
	EXPECT_STR(buf, "abc");
}

TEST(strlcpy_size_zero_writes_nothing)
{
	char buf[2] = "q";

	EXPECT_EQ(strlcpy(buf, "abc", 0), 3);
	EXPECT_STR(buf, "q");
}

TEST(strlcat_appends)
{
	char buf[8] = "ab";

	EXPECT_EQ(strlcat(buf, "cd", sizeof(buf)), 4);
	EXPECT_STR(buf, "abcd");
}

TEST(strlcat_truncates)
{
	char buf[6] = "abc";

	EXPECT_EQ(strlcat(buf, "defgh", sizeof(buf)), 8);
	EXPECT_STR(buf, "abcde");
	EXPECT_EQ(strlcat(buf, "x", sizeof(buf)), 6);
	EXPECT_STR(buf, "abcde");
}

TEST(strlcat_unterminated_dest)
{
	char buf[3] = { 'a', 'b', 'c' };

	/* No NUL within size: nothing is written, size + strlen(src). */
	EXPECT_EQ(strlcat(buf, "de", sizeof(buf)), 5);
	EXPECT(!memcmp(buf, "abc", 3));
}

TEST(strim_both_ends)
{
	char s[] = " \t hello world \r\n";

	EXPECT_STR(strim(s), "hello world");
}

TEST(strim_edge_cases)
{
	char empty[] = "", blanks[] = " \n\t ", bare[] = "x";

	EXPECT_STR(strim(empty), "");
	EXPECT_STR(strim(blanks), "");
	EXPECT_STR(strim(bare), "x");
}

TEST(str_has_prefix)
{
	EXPECT(str_has_prefix("function_graph", "function"));
	EXPECT(str_has_prefix("nop", ""));
	EXPECT(str_has_prefix("nop", "nop"));
	EXPECT(!str_has_prefix("no", "nop"));
	EXPECT(!str_has_prefix("function", "graph"));
}

TEST(str_next_line)
{
	char text[] = "fib\n\nsort\nlast", *rest = text;

	EXPECT_STR(str_next_line(&rest), "fib");
	EXPECT_STR(str_next_line(&rest), "");
	EXPECT_STR(str_next_line(&rest), "sort");
	EXPECT_STR(str_next_line(&rest), "last");
	EXPECT(str_next_line(&rest) == NULL);
	EXPECT(str_next_line(&rest) == NULL);
}

TEST(str_next_line_ends_at_the_last_newline)
{
	char text[] = "a\n", empty[] = "", *rest = text;

	EXPECT_STR(str_next_line(&rest), "a");
	EXPECT(str_next_line(&rest) == NULL);
	rest = empty;
	EXPECT(str_next_line(&rest) == NULL);
	rest = NULL;
	EXPECT(str_next_line(&rest) == NULL);
}

TEST(strerror_text)
{
	EXPECT_STR(strerror_text(EINVAL), "Invalid argument");
	EXPECT_STR(strerror_text(-EINVAL), "Invalid argument");
	EXPECT_STR(strerror_text(-EBUSY), "Device or resource busy");
	EXPECT_STR(strerror_text(-ENOENT), "No such file or directory");
	EXPECT_STR(strerror_text(-E2BIG), "Argument list too long");
	EXPECT_STR(strerror_text(0), "Unknown error");
	EXPECT_STR(strerror_text(-4000), "Unknown error");
}

/* The table claims to be glibc's text, and the host's libc is glibc. */
TEST(strerror_text_matches_libc)
{
	static const int errs[] = {
		EPERM, ENOENT, ESRCH, EINTR, EIO, E2BIG, EBADF, EAGAIN,
		ENOMEM, EACCES, EFAULT, EBUSY, EEXIST, ENODEV, ENOTDIR,
		EISDIR, EINVAL, ENFILE, ENOSPC, ESPIPE, EROFS, ERANGE,
		ENAMETOOLONG, ENOSYS, ENOTEMPTY, ENODATA, ETIMEDOUT,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errs); i++)
		EXPECT_STR(strerror_text(-errs[i]), strerror(errs[i]));
}

#define FILL_BUF	96

/* Every start offset and length: head bytes, 8-byte words, tail. */
TEST(memset_every_alignment_and_length)
{
	unsigned char buf[FILL_BUF], want[FILL_BUF];
	size_t off, len;

	for (off = 0; off < 16; off++)
		for (len = 0; off + len <= FILL_BUF; len++) {
			memset(buf, 0x11, sizeof(buf));
			memset(want, 0x11, sizeof(want));
			memset(want + off, 0xc3, len);
			EXPECT_EQ(kernel_memset(buf + off, 0x1c3, len),
				  buf + off);
			EXPECT_EQ(memcmp(buf, want, sizeof(buf)), 0);
		}
}

/* Source and destination alike or differently aligned. */
TEST(memcpy_every_alignment_and_length)
{
	unsigned char src[FILL_BUF], buf[FILL_BUF], want[FILL_BUF];
	size_t soff, doff, len, i;

	for (i = 0; i < sizeof(src); i++)
		src[i] = (unsigned char)(i * 7 + 1);
	for (soff = 0; soff < 9; soff++)
		for (doff = 0; doff < 9; doff++)
			for (len = 0; doff + len <= FILL_BUF &&
				      soff + len <= FILL_BUF; len++) {
				memset(buf, 0, sizeof(buf));
				memset(want, 0, sizeof(want));
				memcpy(want + doff, src + soff, len);
				EXPECT_EQ(kernel_memcpy(buf + doff, src + soff,
							len), buf + doff);
				EXPECT_EQ(memcmp(buf, want, sizeof(buf)), 0);
			}
}
