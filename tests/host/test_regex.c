/*
 * test_regex.c: lib/regex.c on the cases grep and sed users lean on,
 * each result as glibc's regcomp and regexec give it (the fuzz target
 * tests/fuzz/fuzz_regex.c compares the two on everything else).
 */
#include "test.h"
#include <stdlib.h>
#include "../../lib/regex.c"

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

#define BRE	0
#define ERE	REGEX_EXTENDED
#define ICASE	REGEX_ICASE

/* Where pat first matches text: "start,end", "none" or the error's text. */
static const char *find(int flags, const char *pat, const char *text)
{
	static char result[64];
	struct regex_match m;
	struct regex re;
	int err = regex_compile(&re, pat, flags);

	if (err)
		return regex_error(err);
	err = regex_exec(&re, text, strlen(text), 1, &m, 0);
	regex_free(&re);
	if (err)
		return err == REGEX_NOMATCH ? "none" : regex_error(err);
	snprintf(result, sizeof(result), "%d,%d", m.start, m.end);
	return result;
}

/* Group n's offsets after matching, "start,end". */
static const char *group(int flags, const char *pat, const char *text, int n)
{
	static char result[64];
	struct regex_match m[10];
	struct regex re;

	if (regex_compile(&re, pat, flags))
		return "error";
	if (regex_exec(&re, text, strlen(text), 10, m, 0)) {
		regex_free(&re);
		return "none";
	}
	regex_free(&re);
	snprintf(result, sizeof(result), "%d,%d", m[n].start, m[n].end);
	return result;
}

TEST(literals_and_dot)
{
	EXPECT_STR(find(BRE, "fib", "run fib 10"), "4,7");
	EXPECT_STR(find(BRE, "fob", "run fib 10"), "none");
	EXPECT_STR(find(BRE, "f.b", "fab"), "0,3");
	EXPECT_STR(find(BRE, "", "abc"), "0,0");
	EXPECT_STR(find(ERE, "a|", "xyz"), "0,0");
}

TEST(leftmost_then_longest)
{
	/* POSIX, not Perl: the longest of the leftmost matches */
	EXPECT_STR(find(ERE, "a|ab|abc", "xabcd"), "1,4");
	EXPECT_STR(find(ERE, "(a|ab)(c|bcd)", "abcd"), "0,4");
	EXPECT_STR(find(BRE, "x*", "abc"), "0,0");
	EXPECT_STR(find(BRE, "b*", "abbb"), "0,0");
	EXPECT_STR(find(BRE, "ab*", "xabbb"), "1,5");
}

TEST(anchors)
{
	EXPECT_STR(find(BRE, "^fib", "fib fib"), "0,3");
	EXPECT_STR(find(BRE, "fib$", "fib fib"), "4,7");
	EXPECT_STR(find(BRE, "^$", ""), "0,0");
	/* BRE: ^ and $ are anchors only at the ends */
	EXPECT_STR(find(BRE, "a^b", "a^b"), "0,3");
	EXPECT_STR(find(BRE, "a$b", "a$b"), "0,3");
	EXPECT_STR(find(BRE, "\\(^a\\)", "ab"), "0,1");
	EXPECT_STR(find(ERE, "a^b", "a^b"), "none");
	EXPECT_STR(find(BRE, "^*", "*"), "0,1");
	EXPECT_STR(find(ERE, "^*", "*"), "Invalid preceding regular expression");
}

TEST(brackets)
{
	EXPECT_STR(find(BRE, "[0-9][0-9]*", "cpu 123 x"), "4,7");
	EXPECT_STR(find(BRE, "[^a-z ]", "abc DEF"), "4,5");
	EXPECT_STR(find(BRE, "[]a]*", "]a]b"), "0,3");
	EXPECT_STR(find(BRE, "[a-]", "-"), "0,1");
	EXPECT_STR(find(BRE, "[[:digit:]]\\{2\\}", "a1b23"), "3,5");
	EXPECT_STR(find(BRE, "[[:alpha:]_][[:alnum:]_]*", "  do_fork+0x1"), "2,9");
	EXPECT_STR(find(BRE, "[[:space:]]", "a\tb"), "1,2");
	EXPECT_STR(find(BRE, "[[.-.]x]", "-"), "0,1");
	EXPECT_STR(find(BRE, "[[=a=]]", "ba"), "1,2");
	EXPECT_STR(find(BRE, "[/]", "a/b"), "1,2");
}

TEST(bracket_errors)
{
	EXPECT_STR(find(BRE, "[abc", "a"), "Unmatched [, [^, [:, [., or [=");
	EXPECT_STR(find(BRE, "[[:nope:]]", "a"), "Invalid character class name");
	EXPECT_STR(find(BRE, "[z-a]", "a"), "Invalid range end");
	EXPECT_STR(find(BRE, "[a-c-e]", "a"), "Invalid range end");
	EXPECT_STR(find(BRE, "[[.ab.]]", "a"), "Invalid collation character");
}

TEST(repetition)
{
	EXPECT_STR(find(ERE, "a+", "baaa"), "1,4");
	EXPECT_STR(find(ERE, "ba?c", "bc"), "0,2");
	EXPECT_STR(find(ERE, "a{2,3}", "aaaa"), "0,3");
	EXPECT_STR(find(ERE, "a{2}", "a"), "none");
	EXPECT_STR(find(ERE, "a{,2}b", "aaab"), "1,4");
	EXPECT_STR(find(ERE, "a{0}b", "ab"), "1,2");
	EXPECT_STR(find(BRE, "a\\{2,\\}", "aaaaa"), "0,5");
	/* GNU's BRE operators */
	EXPECT_STR(find(BRE, "a\\+", "baa"), "1,3");
	EXPECT_STR(find(BRE, "x\\|aa", "baa"), "1,3");
	/* in BRE a + or { is itself, and a leading * too */
	EXPECT_STR(find(BRE, "a+", "a+"), "0,2");
	EXPECT_STR(find(BRE, "*a", "x*a"), "1,3");
	EXPECT_STR(find(BRE, "a{1}", "a{1}"), "0,4");
	/* an empty loop body ends the loop rather than spinning */
	EXPECT_STR(find(ERE, "(a*)*b", "aab"), "0,3");
	EXPECT_STR(find(ERE, "(|a)+", "aa"), "0,2");
}

TEST(repetition_errors)
{
	EXPECT_STR(find(ERE, "*a", "a"), "Invalid preceding regular expression");
	EXPECT_STR(find(ERE, "a|+", "a"), "Invalid preceding regular expression");
	EXPECT_STR(find(BRE, "a**", "a"), "Invalid preceding regular expression");
	EXPECT_STR(find(ERE, "a**", "aa"), "0,2");
	EXPECT_STR(find(ERE, "a{2,1}", "a"), "Invalid content of \\{\\}");
	EXPECT_STR(find(ERE, "a{1", "a"), "Unmatched \\{");
	EXPECT_STR(find(ERE, "a{x}", "a"), "Invalid content of \\{\\}");
	EXPECT_STR(find(ERE, "a{99999}", "a"), "Regular expression too big");
}

TEST(groups_and_backrefs)
{
	EXPECT_STR(group(BRE, "f\\(i\\)b", "xfib", 1), "2,3");
	EXPECT_STR(group(ERE, "(a)|(b)", "b", 1), "-1,-1");
	EXPECT_STR(group(ERE, "(a)|(b)", "b", 2), "0,1");
	EXPECT_STR(group(ERE, "(a|b)*", "ab", 1), "1,2");
	EXPECT_STR(find(BRE, "\\(ab*\\)c\\1", "abbcabb"), "0,7");
	EXPECT_STR(find(BRE, "\\(a\\)\\1", "aba"), "none");
	EXPECT_STR(find(BRE, "\\(a*\\)*b\\1", "aab"), "0,3");
	EXPECT_STR(find(ERE, "(a)\\1", "xaa"), "1,3");
	EXPECT_STR(find(BRE, "\\(a\\1\\)", "a"), "Invalid back reference");
	EXPECT_STR(find(BRE, "\\(a\\)\\|\\1", "a"), "Invalid back reference");
	EXPECT_STR(find(BRE, "\\(a", "a"), "Unmatched ( or \\(");
	EXPECT_STR(find(BRE, "a\\)", "a"), "Unmatched ) or \\)");
	EXPECT_STR(find(ERE, "a)", "a)"), "0,2");
	EXPECT_STR(find(ERE, "()", "a"), "0,0");
	EXPECT_STR(find(BRE, "a\\", "a"), "Trailing backslash");
}

TEST(case_folding)
{
	EXPECT_STR(find(ICASE, "FiB", "run fIb"), "4,7");
	EXPECT_STR(find(ICASE, "[a-c]x", "BX"), "0,2");
	EXPECT_STR(find(ICASE, "[[:upper:]]", "a"), "0,1");
	EXPECT_STR(find(ICASE, "\\(a\\)\\1", "aA"), "0,2");
	EXPECT_STR(find(ICASE | ERE, "[^x]", "X"), "none");
}

TEST(notbol)
{
	struct regex_match m;
	struct regex re;

	EXPECT_EQ(regex_compile(&re, "^a", 0), 0);
	EXPECT_EQ(regex_exec(&re, "aa", 2, 1, &m, REGEX_NOTBOL), REGEX_NOMATCH);
	EXPECT_EQ(regex_exec(&re, "aa", 2, 1, &m, 0), 0);
	regex_free(&re);
}

/* Offsets count bytes, and a NUL in the text is no end. */
TEST(text_with_length)
{
	struct regex_match m;
	struct regex re;

	EXPECT_EQ(regex_compile(&re, "b$", 0), 0);
	EXPECT_EQ(regex_exec(&re, "ab\0c", 2, 1, &m, 0), 0);
	EXPECT_EQ(m.start, 1);
	regex_free(&re);
}

/* A long line never recurses: the stack is the heap's, and finite. */
TEST(long_lines)
{
	static char line[200001];
	struct regex_match m;
	struct regex re;

	memset(line, 'a', sizeof(line) - 1);
	line[sizeof(line) - 2] = 'x';
	EXPECT_EQ(regex_compile(&re, "\\(a\\|b\\)*x$", 0), 0);
	EXPECT_EQ(regex_exec(&re, line, strlen(line), 1, &m, 0), 0);
	EXPECT_EQ(m.end, (int)strlen(line));
	regex_free(&re);
}

/* What would take for ever or blow a kernel stack is refused. */
TEST(limits)
{
	struct regex_match m;
	struct regex re;
	char deep[64];

	memset(deep, '(', 40);
	strcpy(deep + 40, "a");
	EXPECT_STR(find(ERE, deep, "a"), "Memory exhausted");
	EXPECT_EQ(regex_compile(&re, "\\(.*\\)*\\(.*\\)*\\(.*\\)*c\\1", 0), 0);
	EXPECT_EQ(regex_exec(&re, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 40,
			     1, &m, 0), REGEX_ESPACE);
	regex_free(&re);
}
