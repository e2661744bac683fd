/*
 * test_cmdline.c: lib/cmdline.c against what bash makes of the same
 * lines: words, quoting, redirections and bash's error messages.
 */
#include "test.h"
#include <stdarg.h>
#include "../../lib/string.c"
#include "../../lib/cmdline.c"

static char line[8192];
static struct cmdline cl;

static int parse(const char *text)
{
	strcpy(line, text);
	return parse_cmdline(line, &cl);
}

/* The words must be exactly the NULL-terminated list given. */
static void check_args(int *failed, int lineno, const char *text, ...)
{
	const char *want;
	va_list ap;
	int i = 0;

	if (parse(text)) {
		printf("    # %s:%d: \"%s\": %s\n", __FILE__, lineno, text,
		       cl.error);
		*failed = 1;
		return;
	}
	va_start(ap, text);
	for (; (want = va_arg(ap, const char *)); i++) {
		if (i >= cl.argc || strcmp(cl.argv[i], want)) {
			printf("    # %s:%d: \"%s\": argv[%d] is \"%s\", expected \"%s\"\n",
			       __FILE__, lineno, text, i,
			       i < cl.argc ? cl.argv[i] : "(none)", want);
			*failed = 1;
		}
	}
	va_end(ap);
	if (cl.argc != i) {
		printf("    # %s:%d: \"%s\": argc %d, expected %d\n",
		       __FILE__, lineno, text, cl.argc, i);
		*failed = 1;
	}
}

#define CHECK_ARGS(...) check_args(failed, __LINE__, __VA_ARGS__, NULL)

#define CHECK_ERROR(text, err, msg) do {				\
	EXPECT_EQ(parse(text), err);					\
	EXPECT_STR(cl.error, msg);					\
} while (0)

TEST(words)
{
	CHECK_ARGS("ls", "ls");
	CHECK_ARGS("  echo   a  b  ", "echo", "a", "b");
	CHECK_ARGS("echo\ta\t\tb\n", "echo", "a", "b");
	CHECK_ARGS("cat trace_pipe", "cat", "trace_pipe");
}

TEST(empty_lines)
{
	CHECK_ARGS("");
	CHECK_ARGS("   \t ");
	EXPECT(cl.redirect == NULL);
	EXPECT_STR(cl.error, "");
}

TEST(single_quotes)
{
	CHECK_ARGS("echo 'a b'", "echo", "a b");
	CHECK_ARGS("echo 'a\"b'", "echo", "a\"b");
	CHECK_ARGS("echo 'a\\b'", "echo", "a\\b");
	CHECK_ARGS("echo ''", "echo", "");
	CHECK_ARGS("echo '$x >y'", "echo", "$x >y");
}

TEST(double_quotes)
{
	CHECK_ARGS("echo \"c d\"", "echo", "c d");
	CHECK_ARGS("echo \"a'b\"", "echo", "a'b");
	CHECK_ARGS("echo \"a\\\"b\\\\c\\$d\\`e\"", "echo", "a\"b\\c$d`e");
	/* Elsewhere the backslash stays. */
	CHECK_ARGS("echo \"a\\b\\n\"", "echo", "a\\b\\n");
	CHECK_ARGS("echo \"\"", "echo", "");
}

TEST(backslashes)
{
	CHECK_ARGS("echo a\\ b", "echo", "a b");
	CHECK_ARGS("echo \\'x", "echo", "'x");
	CHECK_ARGS("echo \\\\", "echo", "\\");
	CHECK_ARGS("echo \\a", "echo", "a");
	/* bash -c 'echo a\' prints a\ */
	CHECK_ARGS("echo a\\", "echo", "a\\");
}

TEST(glued_parts)
{
	CHECK_ARGS("echo a'b'\"c\"d", "echo", "abcd");
	CHECK_ARGS("echo \"\"''", "echo", "");
	CHECK_ARGS("echo '!'foo", "echo", "!foo");
	CHECK_ARGS("echo 'sched*':traceoff:3", "echo", "sched*:traceoff:3");
}

TEST(quoted_operators_are_text)
{
	CHECK_ARGS("echo '>' x", "echo", ">", "x");
	CHECK_ARGS("echo a\\>b", "echo", "a>b");
	CHECK_ARGS("echo \"a>>b|c\"", "echo", "a>>b|c");
	EXPECT(cl.redirect == NULL);
}

TEST(redirect_with_spaces)
{
	CHECK_ARGS("echo 'fib*' > set_ftrace_filter", "echo", "fib*");
	EXPECT_STR(cl.redirect, "set_ftrace_filter");
	EXPECT(!cl.append);
	CHECK_ARGS("echo foo >> set_ftrace_filter", "echo", "foo");
	EXPECT_STR(cl.redirect, "set_ftrace_filter");
	EXPECT(cl.append);
}

TEST(redirect_without_spaces)
{
	CHECK_ARGS("echo a>x", "echo", "a");
	EXPECT_STR(cl.redirect, "x");
	EXPECT(!cl.append);
	CHECK_ARGS("echo foo>>x", "echo", "foo");
	EXPECT_STR(cl.redirect, "x");
	EXPECT(cl.append);
	CHECK_ARGS("echo>x", "echo");
	EXPECT_STR(cl.redirect, "x");
	CHECK_ARGS("echo >>x", "echo");
	EXPECT(cl.append);
}

TEST(redirect_anywhere)
{
	CHECK_ARGS("echo >x a b", "echo", "a", "b");
	EXPECT_STR(cl.redirect, "x");
	CHECK_ARGS("> trace");
	EXPECT_STR(cl.redirect, "trace");
	CHECK_ARGS("echo a > 'my file'", "echo", "a");
	EXPECT_STR(cl.redirect, "my file");
	CHECK_ARGS("echo a >\"x\"y", "echo", "a");
	EXPECT_STR(cl.redirect, "xy");
}

/* POSIX: bare digits right before '>' are a file descriptor. */
TEST(io_numbers)
{
	CHECK_ARGS("echo 1>x", "echo");
	EXPECT_STR(cl.redirect, "x");
	CHECK_ARGS("echo 1>>x", "echo");
	EXPECT(cl.append);
	CHECK_ARGS("echo 1 >x", "echo", "1");
	CHECK_ARGS("echo '1'>x", "echo", "1");
	CHECK_ARGS("echo a2>x", "echo", "a2");
	CHECK_ERROR("echo 2>x", -EINVAL,
		    "only standard output can be redirected");
}

TEST(comments)
{
	CHECK_ARGS("echo a #b c", "echo", "a");
	CHECK_ARGS("echo a#b", "echo", "a#b");
	CHECK_ARGS("# tracer: nop");
	CHECK_ARGS("echo '#' \\#", "echo", "#", "#");
}

TEST(unterminated_quotes)
{
	CHECK_ERROR("echo 'abc", -EINVAL,
		    "unexpected EOF while looking for matching `''");
	CHECK_ERROR("echo \"abc", -EINVAL,
		    "unexpected EOF while looking for matching `\"'");
	CHECK_ERROR("echo \"a\\\"", -EINVAL,
		    "unexpected EOF while looking for matching `\"'");
	CHECK_ERROR("echo a > 'x", -EINVAL,
		    "unexpected EOF while looking for matching `''");
}

TEST(redirect_syntax_errors)
{
	CHECK_ERROR("echo >", -EINVAL,
		    "syntax error near unexpected token `newline'");
	CHECK_ERROR("echo >>  ", -EINVAL,
		    "syntax error near unexpected token `newline'");
	CHECK_ERROR("echo > #x", -EINVAL,
		    "syntax error near unexpected token `newline'");
	CHECK_ERROR("echo > >x", -EINVAL,
		    "syntax error near unexpected token `>'");
	CHECK_ERROR("echo >>>x", -EINVAL,
		    "syntax error near unexpected token `>'");
	CHECK_ERROR("echo > >>x", -EINVAL,
		    "syntax error near unexpected token `>>'");
	CHECK_ERROR("echo >2>x", -EINVAL,
		    "syntax error near unexpected token `2'");
	CHECK_ERROR("echo > |", -EINVAL,
		    "syntax error near unexpected token `|'");
}

TEST(unsupported)
{
	CHECK_ERROR("cat trace | head", -EINVAL, "unsupported token `|'");
	CHECK_ERROR("echo a; ls", -EINVAL, "unsupported token `;'");
	CHECK_ERROR("echo a&", -EINVAL, "unsupported token `&'");
	CHECK_ERROR("cat < x", -EINVAL, "unsupported token `<'");
	CHECK_ERROR("echo a > x > y", -EINVAL,
		    "only one redirection is supported");
}

TEST(too_many_args)
{
	char text[4 * CMDLINE_MAX_ARGS + 8] = "";
	int i;

	for (i = 0; i < CMDLINE_MAX_ARGS; i++)
		strcat(text, "ab ");
	EXPECT_EQ(parse(text), 0);
	EXPECT_EQ(cl.argc, CMDLINE_MAX_ARGS);
	strcat(text, "x");
	EXPECT_EQ(parse(text), -E2BIG);
	EXPECT_STR(cl.error, "Argument list too long");
}

/* Words have no length limit: they are written over the line. */
TEST(long_word_in_place)
{
	static char text[sizeof(line)];

	memset(text, 'w', sizeof(text) - 1);
	text[0] = '\'';
	text[sizeof(text) - 2] = '\'';
	EXPECT_EQ(parse(text), 0);
	EXPECT_EQ(cl.argc, 1);
	EXPECT(cl.argv[0] == line);
	EXPECT_EQ(strlen(cl.argv[0]), sizeof(text) - 3);
}

/* A long token in a message is cut to fit, still NUL-terminated. */
TEST(long_error_token)
{
	char text[200] = "echo >";

	memset(text + 6, '7', 150);
	strcpy(text + 156, ">x");
	EXPECT_EQ(parse(text), -EINVAL);
	EXPECT_EQ(strlen(cl.error), sizeof(cl.error) - 1);
	EXPECT(str_has_prefix(cl.error,
			      "syntax error near unexpected token `777"));
}

/* Nothing from the last line survives into the next. */
TEST(reparse_resets)
{
	EXPECT_EQ(parse("echo a >> x"), 0);
	EXPECT_EQ(parse("echo 'b"), -EINVAL);
	CHECK_ARGS("ls", "ls");
	EXPECT(cl.redirect == NULL);
	EXPECT(!cl.append);
	EXPECT_STR(cl.error, "");
}
