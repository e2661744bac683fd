/*
 * test_sh_arith.c: kernel/shell/sh_arith.c on the host: C's operators,
 * precedence and constants as dash evaluates $((...)), variables read
 * and assigned, short-circuits that skip assignments, and the errors.
 * The expected values are what `dash -c 'echo $((EXPR))'` prints.
 */
#include "test.h"
#include <stdlib.h>
#include "../../lib/string.c"
#include "../../kernel/shell/sh_arith.c"

static char names[8][16];
static char values[8][32];

static const char *get(void *ctx, const char *name)
{
	int i;

	for (i = 0; i < 8; i++)
		if (!strcmp(names[i], name))
			return values[i];
	return NULL;
}

static int set(void *ctx, const char *name, long v)
{
	int i;

	for (i = 0; i < 8 && names[i][0] && strcmp(names[i], name); i++)
		;
	if (i == 8)
		return -ENOMEM;
	strcpy(names[i], name);
	sprintf(values[i], "%ld", v);
	return 0;
}

static const struct sh_arith_vars vars = { get, set, NULL };

static long eval(const char *expr, const char **why)
{
	long v;

	sh_arith(expr, &vars, &v, why);
	return v;
}

static void check(int *failed, int line, const char *expr, long want)
{
	const char *why;
	long v = eval(expr, &why);

	if (why || v != want) {
		printf("    # %s:%d: $((%s)) = %ld%s%s, expected %ld\n",
		       __FILE__, line, expr, v, why ? ": " : "",
		       why ? why : "", want);
		*failed = 1;
	}
}
#define CHECK(expr, want) check(failed, __LINE__, expr, want)

static void check_error(int *failed, int line, const char *expr,
			const char *want)
{
	const char *why;

	eval(expr, &why);
	if (!why || strcmp(why, want)) {
		printf("    # %s:%d: $((%s)) fails with \"%s\", expected \"%s\"\n",
		       __FILE__, line, expr, why ? why : "(nothing)", want);
		*failed = 1;
	}
}
#define CHECK_ERROR(expr, want) check_error(failed, __LINE__, expr, want)

TEST(operators_and_precedence)
{
	CHECK("1 + 2 * 3", 7);
	CHECK("(1 + 2) * 3", 9);
	CHECK("7 / 2", 3);
	CHECK("-7 / 2", -3);
	CHECK("-7 % 3", -1);
	CHECK("1 << 4 | 1", 17);
	CHECK("1 < 2 == 1", 1);
	CHECK("5 & 3 ^ 6", 7);
	CHECK("~0", -1);
	CHECK("!5 + !0", 1);
	CHECK("- -3", 3);
	CHECK("2 > 1 && 3 >= 3 || 0", 1);
	CHECK("0 ? 1 : 2 ? 3 : 4", 3);
	CHECK("1 ? 2 : 3", 2);
	CHECK("-8 >> 1", -4);
	CHECK("", 0);
	CHECK("  42  ", 42);
}

TEST(constants)
{
	CHECK("010", 8);
	CHECK("0x1F", 31);
	CHECK("0XfF", 255);
	CHECK("9223372036854775807 + 1", (long)(1UL << 63));
	CHECK("-9223372036854775807 - 1", (long)(1UL << 63));
}

TEST(variables)
{
	memset(names, 0, sizeof(names));
	set(NULL, "x", 5);
	strcpy(names[1], "e");
	strcpy(names[2], "neg");
	strcpy(values[2], " -3");
	CHECK("x * 2", 10);
	CHECK("x + e + unset", 5);
	CHECK("neg", -3);
	CHECK("y = x + 1", 6);
	EXPECT_STR(get(NULL, "y"), "6");
	CHECK("y += 4", 10);
	CHECK("y <<= 1", 20);
	EXPECT_STR(get(NULL, "y"), "20");
	CHECK("y == 20", 1);
	CHECK("0 && (z = 1)", 0);
	CHECK("1 || (z = 1)", 1);
	CHECK("1 ? 2 : (z = 1)", 2);
	EXPECT(!get(NULL, "z"));
	CHECK("0 && 1 / 0", 0);
}

TEST(errors)
{
	CHECK_ERROR("1 / 0", "division by zero");
	CHECK_ERROR("5 % 0", "division by zero");
	CHECK_ERROR("1 +", "syntax error");
	CHECK_ERROR("(1", "syntax error");
	CHECK_ERROR("1 2", "syntax error");
	CHECK_ERROR("09", "invalid number");
	CHECK_ERROR("1 ? 2", "syntax error");
	strcpy(names[3], "word");
	strcpy(values[3], "abc");
	CHECK_ERROR("word + 1", "invalid number");
}
