/*
 * test_sed.c: lib/sed.c, the script language: how scripts parse (and
 * busybox's messages for those that do not), and what they print, each
 * as GNU and busybox sed print it for the same input.
 */
#include "test.h"
#include <stdlib.h>
#include "../../lib/regex.c"
#include "../../lib/sed.c"

void *kmalloc(size_t size)
{
	return malloc(size);
}

void *kzalloc(size_t size)
{
	return calloc(1, size);
}

void kfree(const void *p)
{
	free((void *)p);
}

static char output[4096];

static void collect(void *ctx, const char *text, size_t len)
{
	strncat(output, text, len);
	strcat(output, "\n");
}

/* The script run over input's lines, as sed [-n] [-E] prints it. */
static const char *sed(const char *script, int flags, bool quiet,
		       const char *input)
{
	struct sed_space ps = { 0 };
	struct sed_script s;
	const char *line = input, *nl;
	unsigned long lineno = 0;

	output[0] = 0;
	sed_init(&s, flags);
	s.quiet = quiet;
	if (sed_parse(&s, script)) {
		snprintf(output, sizeof(output), "sed: %s", s.error);
		sed_free(&s);
		return output;
	}
	while (*line) {
		nl = strchr(line, '\n');
		sed_space_set(&ps, line, nl - line);
		if (sed_run(&s, &ps, ++lineno, !nl[1], collect, NULL))
			break;
		line = nl + 1;
	}
	free(ps.buf);
	sed_free(&s);
	return output;
}

static const char *const three = "a fib b\nnothing\nFIB\n";

TEST(substitute)
{
	EXPECT_STR(sed("s/fib/FOO/", 0, false, three), "a FOO b\nnothing\nFIB\n");
	EXPECT_STR(sed("s/i/I/g", 0, false, "fifi\n"), "fIfI\n");
	EXPECT_STR(sed("s/i/I/2", 0, false, "fifi\n"), "fifI\n");
	EXPECT_STR(sed("s/i/I/2g", 0, false, "fififi\n"), "fifIfI\n");
	EXPECT_STR(sed("s/FIB/x/I", 0, false, "a fib\n"), "a x\n");
	EXPECT_STR(sed("s/b/[&]/", 0, false, "abc\n"), "a[b]c\n");
	EXPECT_STR(sed("s/b/\\&/", 0, false, "abc\n"), "a&c\n");
	EXPECT_STR(sed("s/\\(a\\)\\(b\\)/\\2\\1/", 0, false, "abc\n"), "bac\n");
	EXPECT_STR(sed("s/(a)(b)/\\2\\1/", REGEX_EXTENDED, false, "abc\n"), "bac\n");
	EXPECT_STR(sed("s|/|:|g", 0, false, "/a/b\n"), ":a:b\n");
	EXPECT_STR(sed("s/\\//:/g", 0, false, "/a/b\n"), ":a:b\n");
	EXPECT_STR(sed("s/[/]/:/", 0, false, "a/b\n"), "a:b\n");
	EXPECT_STR(sed("s/b/\\n/", 0, false, "abc\n"), "a\nc\n");
	EXPECT_STR(sed("s/^/> /", 0, false, "a\n"), "> a\n");
	EXPECT_STR(sed("s/x*$//", 0, false, "axx\n"), "a\n");
}

/* GNU sed: an empty match right after a match is no match. */
TEST(substitute_empty_matches)
{
	EXPECT_STR(sed("s/x*/-/g", 0, false, "abc\n"), "-a-b-c-\n");
	EXPECT_STR(sed("s/a*/x/g", 0, false, "baaac\n"), "xbxcx\n");
	EXPECT_STR(sed("s/^a*//g", 0, false, "aab\n"), "b\n");
}

TEST(commands)
{
	EXPECT_STR(sed("2p", 0, true, three), "nothing\n");
	EXPECT_STR(sed("p", 0, false, "a\n"), "a\na\n");
	EXPECT_STR(sed("1d", 0, false, three), "nothing\nFIB\n");
	EXPECT_STR(sed("2q", 0, false, three), "a fib b\nnothing\n");
	EXPECT_STR(sed("$=", 0, true, three), "3\n");
	EXPECT_STR(sed("=", 0, false, "a\n"), "1\na\n");
	EXPECT_STR(sed("s/i/I/p", 0, true, three), "a fIb b\nnothIng\n");
	EXPECT_STR(sed("1d;s/I/i/g", 0, false, three), "nothing\nFiB\n");
	EXPECT_STR(sed("1d\n s/I/i/g ;", 0, false, three), "nothing\nFiB\n");
}

TEST(addresses)
{
	EXPECT_STR(sed("/fib/d", 0, false, three), "nothing\nFIB\n");
	EXPECT_STR(sed("$d", 0, false, three), "a fib b\nnothing\n");
	EXPECT_STR(sed("2!d", 0, false, three), "nothing\n");
	EXPECT_STR(sed("\\,fib,d", 0, false, three), "nothing\nFIB\n");
	EXPECT_STR(sed("/^n/,$d", 0, false, three), "a fib b\n");
	EXPECT_STR(sed("/fib/,/fib/p", 0, true, "fib\nx\nfib\ny\n"),
		   "fib\nx\nfib\n");
	/* a range to a line already passed is one line */
	EXPECT_STR(sed("2,1p", 0, true, three), "nothing\n");
	EXPECT_STR(sed("1,2!d", 0, false, three), "a fib b\nnothing\n");
	/* a range starts again after it ended */
	EXPECT_STR(sed("/a/,/b/d", 0, false, "a\nb\nc\na\nc\n"), "c\n");
}

TEST(parse_errors)
{
	EXPECT_STR(sed("s/a/b", 0, false, "a\n"), "sed: unmatched '/'");
	EXPECT_STR(sed("k", 0, false, "a\n"), "sed: unsupported command k");
	EXPECT_STR(sed("1", 0, false, "a\n"), "sed: missing command");
	EXPECT_STR(sed("1,p", 0, false, "a\n"), "sed: unexpected ','");
	EXPECT_STR(sed("0p", 0, false, "a\n"),
		   "sed: invalid usage of line address 0");
	EXPECT_STR(sed("pq", 0, false, "a\n"),
		   "sed: extra characters after command");
	EXPECT_STR(sed("s/a/b/x", 0, false, "a\n"),
		   "sed: extra characters after command");
	EXPECT_STR(sed("s/a/\\1/", 0, false, "a\n"),
		   "sed: invalid reference \\1 on 's' command's RHS");
	EXPECT_STR(sed("s/a/b/0", 0, false, "a\n"),
		   "sed: number option to 's' command may not be zero");
	EXPECT_STR(sed("s/\\(/b/", 0, false, "a\n"),
		   "sed: bad regex '\\(': Unmatched ( or \\(");
	EXPECT_STR(sed("1,2q", 0, false, "a\n"),
		   "sed: command only uses one address");
	EXPECT_STR(sed("/a", 0, false, "a\n"), "sed: unmatched '/'");
}
