/*
 * test_awk.c: lib/awk.c, the small awk: programs and what they print
 * for the same input as busybox and GNU awk print it (integers only),
 * and the programs it refuses.
 */
#include "test.h"
#include <stdlib.h>
#include "../../lib/regex.c"
#include "../../lib/awk.c"

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
}

static bool never(void)
{
	return false;
}

/* What the program prints over input's lines, or "awk: ERROR". */
static const char *awk(const char *program, const char *fs, const char *input)
{
	const char *error, *line = input, *nl;
	struct awk *a;
	int err;

	output[0] = 0;
	a = awk_parse(program, fs, collect, NULL, never, &error);
	if (!a) {
		snprintf(output, sizeof(output), "awk: %s", error);
		return output;
	}
	err = awk_begin(a);
	while (!err && *line && awk_reads_input(a)) {
		nl = strchr(line, '\n');
		err = awk_line(a, line, nl - line);
		line = nl + 1;
	}
	if (!err && awk_reads_input(a))
		err = awk_end(a);
	if (err)
		snprintf(output + strlen(output), sizeof(output) - strlen(output),
			 "awk: %s", awk_error(a));
	awk_free(a);
	return output;
}

static const char *const trace =
	"   fib-29  [000] ..... 12: fib <-fib_main\n"
	"   fib-29  [000] ..... 13: fib <-fib\n"
	"   fib-29  [000] ..... 15: fib <-fib\n";

TEST(fields_and_patterns)
{
	EXPECT_STR(awk("{ print $2 }", " ", trace), "[000]\n[000]\n[000]\n");
	EXPECT_STR(awk("{ print $NF }", " ", trace),
		   "<-fib_main\n<-fib\n<-fib\n");
	EXPECT_STR(awk("/fib_main/", " ", trace), "   fib-29  [000] ..... 12: fib <-fib_main\n");
	EXPECT_STR(awk("$NF == \"<-fib\" { n++ } END { print n }", " ", trace),
		   "2\n");
	EXPECT_STR(awk("{ print NR \": \" $1, NF }", " ", "a b\n\nc\n"),
		   "1: a 2\n2:  0\n3: c 1\n");
	EXPECT_STR(awk("NR == 2", " ", "a\nb\nc\n"), "b\n");
	EXPECT_STR(awk("$1 ~ /^b/ || $1 !~ /./", " ", "a\nb\n\nc\n"), "b\n\n");
	EXPECT_STR(awk("{ print $1 }", ":", "a:b:c\n::\n"), "a\n\n");
	EXPECT_STR(awk("{ print $3 }", ":", "a:b:c\n"), "c\n");
}

TEST(arithmetic_and_variables)
{
	EXPECT_STR(awk("{ s += $1 } END { print s, s / NR, s % 4 }", " ",
		       "10\n20\n3\n"), "33 11 1\n");
	EXPECT_STR(awk("BEGIN { x = 2 * 3 + 4; print x, -x, !x, x - -1 }", " ", ""),
		   "10 -10 0 11\n");
	EXPECT_STR(awk("BEGIN { a = \"x\"; b = a a 1; print b, length(b), length }",
		       " ", ""), "xx1 3 0\n");
	EXPECT_STR(awk("BEGIN { print 1 < 2, \"a\" < \"b\", 10 < 9, \"10\" < \"9\" }",
		       " ", ""), "1 1 0 1\n");
	EXPECT_STR(awk("$1 > 9", " ", "10\n9\nabc\n"), "10\nabc\n");
	EXPECT_STR(awk("BEGIN { i = 5; print i++, i, ++i, i--, --i }", " ", ""),
		   "5 6 7 7 5\n");
	EXPECT_STR(awk("BEGIN { print 1/0 }", " ", ""), "awk: division by zero");
	/* the first x is read before x++ replaces its string */
	EXPECT_STR(awk("BEGIN { x = \"a\"; print x x++, x }", " ", ""), "a0 1\n");
}

TEST(statements)
{
	EXPECT_STR(awk("BEGIN { for (i = 0; i < 3; i++) print i }", " ", ""),
		   "0\n1\n2\n");
	EXPECT_STR(awk("BEGIN { while (i < 2) { i++; print \"w\" i } }", " ", ""),
		   "w1\nw2\n");
	EXPECT_STR(awk("{ if ($1 > 1) print \"big\"; else print \"small\" }",
		       " ", "1\n2\n"), "small\nbig\n");
	EXPECT_STR(awk("/a/ { next } { print }", " ", "a\nb\n"), "b\n");
	EXPECT_STR(awk("BEGIN {\n x = 1\n\n if (x)\n  print \"yes\"\n}\n", " ", ""),
		   "yes\n");
	EXPECT_STR(awk("{ $0 = \"x y\"; print $2 }", " ", "a\n"), "y\n");
	EXPECT_STR(awk("BEGIN { OFS = \"-\"; print \"a\", \"b\" }", " ", ""),
		   "a-b\n");
}

TEST(printf)
{
	EXPECT_STR(awk("BEGIN { printf \"%d|%5s|%-3d|%x|%c|%%\\n\", 42, \"ab\", 7, 255, 65 }",
		       " ", ""), "42|   ab|7  |ff|A|%\n");
	EXPECT_STR(awk("{ printf \"%s=%d\\n\", $1, $2 }", " ", "a 1\nb 2\n"),
		   "a=1\nb=2\n");
	EXPECT_STR(awk("BEGIN { printf \"%s\" }", " ", ""), "");
}

TEST(refused)
{
	EXPECT_STR(awk("{ print $1 ", " ", ""), "awk: syntax error");
	EXPECT_STR(awk("{ print \"a }", " ", ""), "awk: unterminated string");
	EXPECT_STR(awk("/(/ { print }", " ", ""), "awk: bad regex");
	EXPECT_STR(awk("{ print > \"f\" }", " ", ""), "awk: syntax error");
	EXPECT_STR(awk("{ 1 = 2 }", " ", ""), "awk: syntax error");
	EXPECT_STR(awk("BEGIN { $1 = 2 }", " ", ""),
		   "awk: only $0 can be assigned");
}

/* What would recurse too deep on a kernel stack is refused, in time. */
TEST(nesting_limits)
{
	char chain[512] = "BEGIN { print 1", bangs[512] = "BEGIN { print ";
	int i;

	EXPECT_STR(awk("BEGIN { print ((((1)))) + !!!!-1 }", " ", ""), "2\n");
	EXPECT_STR(awk("((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))",
		       " ", ""), "awk: program too deeply nested");
	for (i = 0; i < 100; i++)
		strcat(chain, "+1");
	strcat(chain, " }");
	EXPECT_STR(awk(chain, " ", ""), "awk: program too deeply nested");
	for (i = 0; i < 100; i++)
		strcat(bangs, "!");
	strcat(bangs, "1 }");
	EXPECT_STR(awk(bangs, " ", ""), "awk: program too deeply nested");
	EXPECT_STR(awk("BEGIN { if (1) if (1) if (1) if (1) if (1) if (1) if (1) "
		       "if (1) if (1) if (1) if (1) if (1) if (1) if (1) if (1) "
		       "if (1) if (1) if (1) if (1) if (1) if (1) if (1) if (1) "
		       "if (1) if (1) print 1 }", " ", ""),
		   "awk: program too deeply nested");
	EXPECT_STR(awk("BEGIN { x = 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10; print x }",
		       " ", ""), "55\n");
}
