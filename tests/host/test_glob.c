/*
 * test_glob.c: lib/glob.c, glob_match() and ftrace's filter pattern
 * parse and match, with the cases Linux's lib/globtest.c and
 * set_ftrace_filter users lean on.
 */
#include "test.h"
#include "../../lib/glob.c"

TEST(glob_literals)
{
	EXPECT(glob_match("a", "a"));
	EXPECT(!glob_match("a", "b"));
	EXPECT(!glob_match("a", "aa"));
	EXPECT(!glob_match("a", ""));
	EXPECT(glob_match("", ""));
	EXPECT(!glob_match("", "a"));
}

TEST(glob_question_mark)
{
	EXPECT(glob_match("?", "a"));
	EXPECT(!glob_match("?", ""));
	EXPECT(!glob_match("?", "aa"));
	EXPECT(glob_match("??", "ab"));
	EXPECT(glob_match("a?c", "abc"));
	EXPECT(!glob_match("a?c", "ac"));
}

TEST(glob_star)
{
	EXPECT(glob_match("*", ""));
	EXPECT(glob_match("*", "anything"));
	EXPECT(glob_match("**", "x"));
	EXPECT(glob_match("a*", "a"));
	EXPECT(glob_match("*c", "abc"));
	EXPECT(!glob_match("*c", "abd"));
	EXPECT(glob_match("a*c", "ac"));
	EXPECT(glob_match("a*c", "abbbc"));
	EXPECT(!glob_match("a*c", "abcd"));
	EXPECT(glob_match("*/*", "a/b"));
	EXPECT(glob_match("a*b*c", "aXbYbZc"));
	EXPECT(!glob_match("*a*b", "ba"));
}

/* A failed tail match must retry from the last '*', further on. */
TEST(glob_backtracking)
{
	EXPECT(glob_match("*ab", "aab"));
	EXPECT(glob_match("*aab", "aaab"));
	EXPECT(glob_match("*abc", "ababc"));
	EXPECT(glob_match("a*?c", "abc"));
	EXPECT(!glob_match("*a?", "xa"));
	EXPECT(glob_match("*sched*", "__schedule"));
}

TEST(glob_classes)
{
	EXPECT(glob_match("[abc]", "b"));
	EXPECT(!glob_match("[abc]", "d"));
	EXPECT(glob_match("[a-z]x", "qx"));
	EXPECT(!glob_match("[a-z]", "Q"));
	EXPECT(glob_match("[!x]", "y"));
	EXPECT(!glob_match("[!x]", "x"));
	/* Only '!' negates, as in Linux's lib/glob.c: '^' is a member. */
	EXPECT(!glob_match("[^x]", "y"));
	EXPECT(glob_match("[^x]", "^"));
	EXPECT(glob_match("[^x]", "x"));
	EXPECT(glob_match("[^s]*", "sys_getppid"));
	EXPECT(glob_match("[a-cx-z]", "y"));
	EXPECT(glob_match("[]]", "]"));
	EXPECT(glob_match("[!]]", "a"));
	EXPECT(glob_match("[a-]", "-"));
	EXPECT(glob_match("fib[0-9]*", "fib3_helper"));
}

/* No class, not even an inverted one, matches past the end. */
TEST(glob_class_at_end)
{
	EXPECT(!glob_match("[!x]", ""));
	EXPECT(!glob_match("a[!x]", "a"));
	EXPECT(!glob_match("*[!x]", ""));
}

/* An unclosed '[' is an ordinary character, as in Linux. */
TEST(glob_malformed_class)
{
	EXPECT(glob_match("[", "["));
	EXPECT(glob_match("a[b", "a[b"));
	EXPECT(!glob_match("a[b", "ab"));
	EXPECT(glob_match("[a-", "[a-"));
}

TEST(glob_backslash)
{
	EXPECT(glob_match("\\*", "*"));
	EXPECT(!glob_match("\\*", "a"));
	EXPECT(glob_match("a\\?", "a?"));
	EXPECT(glob_match("\\[a]", "[a]"));
	EXPECT(glob_match("a\\", "a\\"));
}

/* Parse pat as set_ftrace_filter does; check type, search and not. */
static void check_parse(int *failed, const char *pat, int type,
			const char *search, int not)
{
	char buf[64];
	struct ftrace_glob g;
	int got_not = -1;

	strcpy(buf, pat);
	g.type = filter_parse_regex(buf, strlen(buf), &g.search, &got_not);
	if (g.type != type || strcmp(g.search, search) || got_not != not) {
		printf("    # \"%s\": type %d search \"%s\" not %d\n",
		       pat, g.type, g.search, got_not);
		*failed = 1;
	}
}

#define CHECK_PARSE(...) check_parse(failed, __VA_ARGS__)

TEST(parse_types)
{
	CHECK_PARSE("schedule", MATCH_FULL, "schedule", 0);
	CHECK_PARSE("sched*", MATCH_FRONT_ONLY, "sched", 0);
	CHECK_PARSE("*lock", MATCH_END_ONLY, "lock", 0);
	CHECK_PARSE("*lock*", MATCH_MIDDLE_ONLY, "lock", 0);
	CHECK_PARSE("*", MATCH_END_ONLY, "", 0);
	CHECK_PARSE("**", MATCH_MIDDLE_ONLY, "", 0);
	CHECK_PARSE("", MATCH_FULL, "", 0);
}

TEST(parse_globs)
{
	CHECK_PARSE("a*b", MATCH_GLOB, "a*b", 0);
	CHECK_PARSE("fib?", MATCH_GLOB, "fib?", 0);
	CHECK_PARSE("*fib?", MATCH_GLOB, "*fib?", 0);
	CHECK_PARSE("[ab]*", MATCH_GLOB, "[ab]*", 0);
	CHECK_PARSE("a\\*", MATCH_GLOB, "a\\*", 0);
	CHECK_PARSE("*a*b*", MATCH_GLOB, "*a*b*", 0);
}

TEST(parse_not)
{
	CHECK_PARSE("!schedule", MATCH_FULL, "schedule", 1);
	CHECK_PARSE("!*lock*", MATCH_MIDDLE_ONLY, "lock", 1);
	CHECK_PARSE("!a?", MATCH_GLOB, "a?", 1);
	CHECK_PARSE("!", MATCH_FULL, "", 1);
}

/* Only the first len characters count. */
TEST(parse_honours_len)
{
	char buf[] = "sched*xyz";
	char *search;
	int not;

	EXPECT_EQ(filter_parse_regex(buf, 6, &search, &not), MATCH_FRONT_ONLY);
	EXPECT_STR(search, "sched");
}

static bool match(const char *pat, const char *name)
{
	char buf[64];
	struct ftrace_glob g;
	int not;

	strcpy(buf, pat);
	g.type = filter_parse_regex(buf, strlen(buf), &g.search, &not);
	g.len = strlen(g.search);
	return ftrace_match(name, &g);
}

TEST(match_each_type)
{
	EXPECT(match("schedule", "schedule"));
	EXPECT(!match("schedule", "schedule_tail"));
	EXPECT(match("sched*", "schedule_tail"));
	EXPECT(match("sched*", "sched"));
	EXPECT(!match("sched*", "__schedule"));
	EXPECT(match("*lock", "spin_lock"));
	EXPECT(!match("*lock", "spin_lock_irq"));
	EXPECT(match("*lock*", "spin_lock_irq"));
	EXPECT(match("*lock*", "lock"));
	EXPECT(!match("*lock*", "loc"));
	EXPECT(match("*", "anything"));
	EXPECT(match("fib[0-9]", "fib7"));
	EXPECT(!match("fib[0-9]", "fib"));
	EXPECT(match("do_*_work", "do_idle_work"));
	EXPECT(!match("do_*_work", "do_idle_worker"));
}
