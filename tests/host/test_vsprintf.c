/*
 * test_vsprintf.c: lib/vsprintf.c against the host's printf, which
 * follows the C standard, plus what only the kernel's has (%pS, %ps,
 * scnprintf, and trace_printk's vbin_printf and bstr_printf: every
 * format checked is also kept in binary and made back into text).
 */
#include "test.h"
#include <limits.h>
#include <stdarg.h>
#include <sys/types.h>

/*
 * The kernel's formatter has libc's names; the host's are needed too,
 * as the reference. So the kernel's get an rv_ prefix here, after
 * <stdio.h> has declared the host's.
 */
#define vsnprintf rv_vsnprintf
#define snprintf rv_snprintf
#define scnprintf rv_scnprintf
#include "../../lib/vsprintf.c"
#undef vsnprintf
#undef snprintf
#undef scnprintf

/* A two-symbol kallsyms for %pS and %ps. */
size_t sprint_symbol(char *buf, size_t size, unsigned long addr,
		     bool with_offset)
{
	static const struct {
		const char *name;
		unsigned long start, size;
	} syms[] = {
		{ "start_kernel", 0x80200000, 0x100 },
		{ "schedule", 0x80200100, 0x40 },
	};
	unsigned long off;
	size_t i;

	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		off = addr - syms[i].start;
		if (addr < syms[i].start || off >= syms[i].size)
			continue;
		if (with_offset)
			return snprintf(buf, size, "%s+%#lx/%#lx",
					syms[i].name, off, syms[i].size);
		return snprintf(buf, size, "%s", syms[i].name);
	}
	return 0;
}

static void compare(int *failed, int line, const char *how, const char *fmt,
		    const char *ours, int n_ours, const char *host, int n_host)
{
	if (n_ours != n_host || memcmp(ours, host, n_host + 1)) {
		printf("    # %s:%d: \"%s\" %s gave \"%s\" (%d), host \"%s\" (%d)\n",
		       __FILE__, line, fmt, how, ours, n_ours, host, n_host);
		*failed = 1;
	}
}

/*
 * Format with the kernel's and the host's vsnprintf, and with the
 * kernel's vbin_printf then bstr_printf: all three must agree.
 */
__attribute__((format(printf, 3, 4)))
static void check(int *failed, int line, const char *fmt, ...)
{
	char ours[512], host[512], back[512];
	int n_ours, n_host, n_back, words;
	u32 bin[128];
	va_list ap, ap2, ap3;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	va_copy(ap3, ap);
	n_ours = rv_vsnprintf(ours, sizeof(ours), fmt, ap);
	n_host = vsnprintf(host, sizeof(host), fmt, ap2);
	words = vbin_printf(bin, 128, fmt, ap3);
	va_end(ap3);
	va_end(ap2);
	va_end(ap);
	compare(failed, line, "", fmt, ours, n_ours, host, n_host);
	n_back = bstr_printf(back, sizeof(back), fmt, bin, words);
	compare(failed, line, "in binary", fmt, back, n_back, host, n_host);
}

#define CHECK(...) check(failed, __LINE__, __VA_ARGS__)

static int test_vbin(u32 *bin, size_t size, const char *fmt, ...)
{
	va_list ap;
	int words;

	va_start(ap, fmt);
	words = vbin_printf(bin, size, fmt, ap);
	va_end(ap);
	return words;
}

TEST(signed_decimal)
{
	CHECK("%d", 0);
	CHECK("%d", 1);
	CHECK("%d", -1);
	CHECK("%i", 42);
	CHECK("%d", INT_MAX);
	CHECK("%d", INT_MIN);
	CHECK("[%d|%i|%d]", 7, -8, 9);
	CHECK("%ld", LONG_MIN);
	CHECK("%ld", LONG_MAX);
	CHECK("%lld", LLONG_MIN);
	CHECK("%lld", LLONG_MAX);
}

TEST(unsigned_conversions)
{
	CHECK("%u", 0u);
	CHECK("%u", UINT_MAX);
	CHECK("%x", 0xdeadbeefu);
	CHECK("%X", 0xdeadbeefu);
	CHECK("%x", 0u);
	CHECK("%o", 8u);
	CHECK("%o", 0777u);
	CHECK("%lu", ULONG_MAX);
	CHECK("%llx", ULLONG_MAX);
	CHECK("%llo", ULLONG_MAX);
	CHECK("%x", (unsigned int)-1);
}

TEST(length_modifiers)
{
	CHECK("%hhd", (signed char)-56);
	CHECK("%hhu", (unsigned char)200);
	CHECK("%hd", (short)-2);
	CHECK("%hu", (unsigned short)65535);
	CHECK("%zu", (size_t)-1);
	CHECK("%zd", (ssize_t)-5);
	CHECK("%zx", (size_t)0xabc);
	CHECK("%lx", 0x123456789abcdefUL);
	CHECK("%td", (ptrdiff_t)-7);
	CHECK("%jd", (intmax_t)INT64_MIN);
	CHECK("%ju", (uintmax_t)UINT64_MAX);
}

TEST(chars_and_strings)
{
	CHECK("%c", 'A');
	CHECK("[%3c]", 'b');
	CHECK("[%-3c]", 'c');
	CHECK("%c", 0);
	CHECK("a%cb", '-');
	CHECK("%s", "hello");
	CHECK("%s", "");
	CHECK("[%10s]", "right");
	CHECK("[%-10s]", "left");
	CHECK("[%.3s]", "abcdef");
	CHECK("[%10.2s]", "abcdef");
	CHECK("[%.0s]", "abc");
	CHECK("[%.*s]", 3, "abcdef");
	CHECK("[%.*s]", -1, "abcdef");
	CHECK("[%*s]", 6, "ab");
	CHECK("[%*s]", -6, "ab");
	CHECK("[%2s]", "longer");
}

TEST(flags)
{
	CHECK("[%-5d]", 42);
	CHECK("[%05d]", 42);
	CHECK("[%05d]", -42);
	CHECK("[%+d]", 5);
	CHECK("[%+d]", -5);
	CHECK("[%+d]", 0);
	CHECK("[% d]", 5);
	CHECK("[% d]", -5);
	CHECK("[% 05d]", 42);
	CHECK("[%+05d]", 42);
	CHECK("[%-+6d]", 42);
	CHECK("[%#x]", 255u);
	CHECK("[%#X]", 255u);
	CHECK("[%#x]", 0u);
	CHECK("[%#o]", 8u);
	CHECK("[%#o]", 0u);
	CHECK("[%#08x]", 255u);
	CHECK("[%-#8x]", 255u);
	CHECK("[%#10o]", 8u);
	CHECK("[%#llo]", ULLONG_MAX);
	CHECK("[%030lld]", LLONG_MIN);
	CHECK("[%+lld]", LLONG_MIN);
}

/*
 * Formats the compilers warn about, on purpose: C says which flags lose
 * to which, and h and hh cut an int down to their size.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
TEST(h_and_hh_cut_ints)
{
	CHECK("%hhd", 200);
	CHECK("%hhu", 300);
	CHECK("%hhx", 0x1ff);
	CHECK("%hd", 70000);
	CHECK("%hu", 65535 + 3);
	CHECK("%hx", 0x12345);
}

TEST(ignored_flags)
{
	CHECK("[%-05d]", 42);
	CHECK("[%+ d]", 5);
	CHECK("[%08.5d]", 42);
	CHECK("[%-08.5d]", -42);
	CHECK("[%+u]", 5u);
	CHECK("[% u]", 5u);
	CHECK("[%+x]", 5u);
	CHECK("[% o]", 5u);
	CHECK("[%#d]", 5);
}
#pragma GCC diagnostic pop

TEST(width)
{
	CHECK("[%8d]", 42);
	CHECK("[%8d]", -42);
	CHECK("[%-8d]", -42);
	CHECK("[%*d]", 8, 42);
	CHECK("[%*d]", -8, 42);
	CHECK("[%1d]", 12345);
	CHECK("[%30lld]", LLONG_MIN);
	CHECK("[%-30lld]", LLONG_MIN);
	CHECK("[%8x]", 0xabcu);
	CHECK("[%08X]", 0xabcu);
	CHECK("[%*u]", 12, 7u);
}

TEST(precision)
{
	CHECK("[%.5d]", 42);
	CHECK("[%.5d]", -42);
	CHECK("[%8.5d]", -42);
	CHECK("[%-8.5d]", 42);
	CHECK("[%.0d]", 0);
	CHECK("[%5.0d]", 0);
	CHECK("[%.d]", 0);
	CHECK("[%.0x]", 0u);
	CHECK("[%#.0x]", 0u);
	CHECK("[%#.0o]", 0u);
	CHECK("[%.0d]", 3);
	CHECK("[%.*d]", 3, 7);
	CHECK("[%.*d]", -1, 7);
	CHECK("[%*.*d]", 6, 3, -7);
	CHECK("[%.30d]", 1);
	CHECK("[%#.5x]", 0xabu);
	CHECK("[%#.3o]", 8u);
}

TEST(pointers_as_hex)
{
	CHECK("%p", (void *)0x1234);
	CHECK("%p", (void *)0xffffffff80200000UL);
	CHECK("[%20p]", (void *)0xabcdef);
	CHECK("[%-20p]", (void *)0xabcdef);
}

TEST(percent_and_literals)
{
	CHECK("%%");
	CHECK("100%% sure");
	CHECK("no conversions at all");
	CHECK("%s=%d%%", "load", 99);
}

/* NULL is 0x0, as Linux's %pS prints it, not glibc's "(nil)". */
TEST(null_pointer)
{
	char buf[32];

	rv_snprintf(buf, sizeof(buf), "%p", NULL);
	EXPECT_STR(buf, "0x0");
	rv_snprintf(buf, sizeof(buf), "[%5p]", NULL);
	EXPECT_STR(buf, "[  0x0]");
}

TEST(symbols)
{
	char buf[64];

	rv_snprintf(buf, sizeof(buf), "%pS", (void *)0x80200110);
	EXPECT_STR(buf, "schedule+0x10/0x40");
	rv_snprintf(buf, sizeof(buf), "%ps", (void *)0x80200110);
	EXPECT_STR(buf, "schedule");
	rv_snprintf(buf, sizeof(buf), "[%ps]", (void *)0x80200000);
	EXPECT_STR(buf, "[start_kernel]");
	rv_snprintf(buf, sizeof(buf), "[%-10ps]", (void *)0x80200100);
	EXPECT_STR(buf, "[schedule  ]");
	rv_snprintf(buf, sizeof(buf), "[%10ps]", (void *)0x80200100);
	EXPECT_STR(buf, "[  schedule]");
	rv_snprintf(buf, sizeof(buf), "<-%pS %d", (void *)0x802000ff, 3);
	EXPECT_STR(buf, "<-start_kernel+0xff/0x100 3");
}

/* An address kallsyms does not know prints as hex, as in Linux. */
TEST(unknown_symbol)
{
	char buf[32];

	rv_snprintf(buf, sizeof(buf), "%pS", (void *)0x1000);
	EXPECT_STR(buf, "0x1000");
	rv_snprintf(buf, sizeof(buf), "%ps|", (void *)0x80200140);
	EXPECT_STR(buf, "0x80200140|");
}

TEST(snprintf_truncates)
{
	char buf[8];

	memset(buf, 'X', sizeof(buf));
	EXPECT_EQ(rv_snprintf(buf, 4, "%s", "abcdef"), 6);
	EXPECT_STR(buf, "abc");
	EXPECT_EQ(buf[4], 'X');
	EXPECT_EQ(rv_snprintf(buf, 1, "%d", 12345), 5);
	EXPECT_STR(buf, "");
	EXPECT_EQ(rv_snprintf(buf, sizeof(buf), "%s", "1234567"), 7);
	EXPECT_STR(buf, "1234567");
}

TEST(snprintf_size_zero)
{
	char buf[2] = "q";

	EXPECT_EQ(rv_snprintf(buf, 0, "%s-%d", "abc", 42), 6);
	EXPECT_STR(buf, "q");
	EXPECT_EQ(rv_snprintf(NULL, 0, "%08x", 1u), 8);
}

/* Every size cuts where the host's snprintf cuts. */
TEST(snprintf_truncation_matches_libc)
{
	const char *fmt = "%-6s|%+05d|%#x|%c";
	char ours[32], host[32];
	size_t size;
	int n_ours, n_host;

	for (size = 1; size < sizeof(ours); size++) {
		n_ours = rv_snprintf(ours, size, fmt, "ab", 42, 0xbeefu, 'z');
		n_host = snprintf(host, size, fmt, "ab", 42, 0xbeefu, 'z');
		EXPECT_EQ(n_ours, n_host);
		EXPECT_STR(ours, host);
	}
}

TEST(scnprintf_returns_stored_length)
{
	char buf[8];

	EXPECT_EQ(rv_scnprintf(buf, sizeof(buf), "%s", "abc"), 3);
	EXPECT_EQ(rv_scnprintf(buf, sizeof(buf), "%s", "abcdefghij"), 7);
	EXPECT_STR(buf, "abcdefg");
	EXPECT_EQ(rv_scnprintf(buf, 6, "%s", "hello"), 5);
	EXPECT_EQ(rv_scnprintf(buf, 5, "%s", "hello"), 4);
	EXPECT_EQ(rv_scnprintf(buf, 1, "%d", 7), 0);
	EXPECT_EQ(rv_scnprintf(buf, 0, "%d", 7), 0);
}

/* The usual way to append: the offset never runs past the buffer. */
TEST(scnprintf_appends)
{
	char buf[10];
	int len = 0, i;

	for (i = 0; i < 5; i++)
		len += rv_scnprintf(buf + len, sizeof(buf) - len, "%d,", i);
	EXPECT_EQ(len, 9);
	EXPECT_STR(buf, "0,1,2,3,4");
}

/* Linux's layout: each value aligned to its size, 8-byte ones to 4. */
TEST(vbin_printf_layout)
{
	u32 bin[16];
	int words;

	memset(bin, 0xff, sizeof(bin));
	words = test_vbin(bin, 16, "%c%d %lld %s|%hd", 'x', -2, 0x100000002LL,
			  "ab", 7);
	EXPECT_EQ(words, 6);
	EXPECT_EQ(bin[0] & 0xff, 'x');
	EXPECT_EQ(bin[1], (u32)-2);
	EXPECT_EQ(bin[2], 2);			/* low half first */
	EXPECT_EQ(bin[3], 1);
	EXPECT(!memcmp(&bin[4], "ab", 3));
	EXPECT_EQ(((u8 *)bin)[20] | ((u8 *)bin)[21] << 8, 7);
}

/*
 * Too small a buffer: the words needed are counted, nothing is written
 * past it, and a string that is not whole in it reads back as "".
 */
TEST(vbin_printf_short_buffer)
{
	u32 bin[4] = { 0 };
	char text[64];
	int words;

	words = test_vbin(bin, 2, "%d %s", 5, "a long string");
	EXPECT_EQ(words, 5);
	EXPECT_EQ(bin[2], 0);
	EXPECT_EQ(bstr_printf(text, sizeof(text), "%d %s", bin, 2), 2);
	EXPECT_STR(text, "5 ");
	EXPECT_EQ(bstr_printf(text, sizeof(text), "%d %d", bin, 1), 3);
	EXPECT_STR(text, "5 0");
}
