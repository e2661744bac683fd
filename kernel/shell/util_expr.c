/*
 * util_expr.c: expr EXPRESSION: POSIX expr's operators, loosest first,
 * | & (= != < <= > >=) (+ -) (* / %) : and ( ), with busybox's match,
 * substr, index and length. Values are integers or strings (slices of
 * the arguments); comparison is numeric when both sides are integers.
 * It prints the result; the exit status is 0, or 1 if the result is
 * null or 0, or 2 for an invalid expression.
 */
#include "kernel.h"
#include "shell.h"
#include "regex.h"
#include "kstrtox.h"
#include "printf.h"
#include "string.h"

#define NEST_MAX	32

struct value {
	bool is_num;
	long num;
	const char *str;	/* a string: str[0..len) */
	int len;
};

struct expr {
	char **argv;
	int argc, pos;
	int depth;
	const char *error;	/* the first error: what expr says */
	char message[96];
};

static struct value number(long n)
{
	return (struct value){ .is_num = true, .num = n };
}

static struct value string(const char *s, int len)
{
	return (struct value){ .str = s, .len = len };
}

/* An integer value, or a string that is one. */
static bool to_number(const struct value *v, long *n)
{
	char buf[24];

	if (v->is_num) {
		*n = v->num;
		return true;
	}
	if (!v->len || v->len >= (int)sizeof(buf))
		return false;
	memcpy(buf, v->str, v->len);
	buf[v->len] = 0;
	return !kstrtol(buf, 10, n);
}

static bool is_null(const struct value *v)
{
	long n;

	return v->is_num ? !v->num : !v->len || (to_number(v, &n) && !n);
}

static const char *peek(struct expr *e)
{
	return e->pos < e->argc ? e->argv[e->pos] : NULL;
}

static bool take(struct expr *e, const char *op)
{
	if (!peek(e) || strcmp(peek(e), op))
		return false;
	e->pos++;
	return true;
}

static struct value fail(struct expr *e, const char *error)
{
	if (!e->error)
		e->error = error;
	return number(0);
}

static struct value parse_or(struct expr *e);

/* STRING : REGEX, anchored at the start: \1's text, or the length matched. */
static struct value match(struct expr *e, struct value s, struct value re)
{
	struct regex_match m[2];
	char pat[SHELL_LINE_MAX + 2] = "^";
	struct regex r;
	char num[24];
	int err, nsub;

	if (re.is_num)
		re = string(num, snprintf(num, sizeof(num), "%ld", re.num));
	if (s.is_num)	/* numbers are formatted where they are printed */
		return fail(e, "expr: a number cannot be matched");
	snprintf(pat + 1, sizeof(pat) - 1, "%.*s", re.len, re.str);
	err = regex_compile(&r, pat, 0);
	if (err) {
		snprintf(e->message, sizeof(e->message), "expr: %s",
			 regex_error(err));
		return fail(e, e->message);
	}
	err = regex_exec(&r, s.str, s.len, 2, m, 0);
	nsub = r.nsub;
	regex_free(&r);
	if (nsub)
		return err ? string("", 0) :
		       string(s.str + m[1].start, max(m[1].end - m[1].start, 0));
	return number(err ? 0 : m[0].end);
}

static struct value word(struct expr *e)
{
	const char *w = peek(e);

	if (!w)
		return fail(e, "expr: syntax error");
	e->pos++;
	return string(w, strlen(w));
}

/* busybox's functions: match, substr, index, length. */
static struct value function(struct expr *e, const char *name)
{
	struct value a = word(e), b, c;
	long pos, len;
	int i;

	if (!strcmp(name, "length"))
		return number(a.len);
	b = word(e);
	if (!strcmp(name, "match"))
		return match(e, a, b);
	if (!strcmp(name, "index")) {
		for (i = 0; i < a.len; i++)
			if (memchr(b.str, a.str[i], b.len))
				return number(i + 1);
		return number(0);
	}
	c = word(e);
	if (!to_number(&b, &pos) || !to_number(&c, &len))
		return fail(e, "expr: non-numeric argument");
	if (pos < 1 || pos > a.len || len < 1)
		return string("", 0);
	return string(a.str + pos - 1, min(len, a.len - pos + 1));
}

static struct value parse_primary(struct expr *e)
{
	static const char *const functions[] = { "match", "substr", "index",
						 "length" };
	struct value v;
	size_t i;

	if (take(e, "(")) {
		if (++e->depth > NEST_MAX)
			return fail(e, "expr: too many parentheses");
		v = parse_or(e);
		e->depth--;
		if (!take(e, ")"))
			return fail(e, "expr: syntax error");
		return v;
	}
	for (i = 0; i < ARRAY_SIZE(functions); i++)
		if (take(e, functions[i]))
			return function(e, functions[i]);
	return word(e);
}

static struct value parse_match(struct expr *e)
{
	struct value v = parse_primary(e);

	while (!e->error && take(e, ":"))
		v = match(e, v, parse_primary(e));
	return v;
}

static struct value arith(struct expr *e, struct value a, const char *op,
			  struct value b)
{
	long x, y;

	if (!to_number(&a, &x) || !to_number(&b, &y))
		return fail(e, "expr: non-numeric argument");
	switch (op[0]) {
	case '+': return number(x + y);
	case '-': return number(x - y);
	case '*': return number(x * y);
	}
	if (!y)
		return fail(e, "expr: division by zero");
	return number(op[0] == '/' ? x / y : x % y);
}

static struct value parse_mul(struct expr *e)
{
	struct value v = parse_match(e);
	const char *op;

	while (!e->error && (op = peek(e)) &&
	       (!strcmp(op, "*") || !strcmp(op, "/") || !strcmp(op, "%"))) {
		e->pos++;
		v = arith(e, v, op, parse_match(e));
	}
	return v;
}

static struct value parse_add(struct expr *e)
{
	struct value v = parse_mul(e);
	const char *op;

	while (!e->error && (op = peek(e)) &&
	       (!strcmp(op, "+") || !strcmp(op, "-"))) {
		e->pos++;
		v = arith(e, v, op, parse_mul(e));
	}
	return v;
}

static int compare(const struct value *a, const struct value *b)
{
	long x, y;
	int c;

	if (to_number(a, &x) && to_number(b, &y))
		return x < y ? -1 : x > y;
	c = memcmp(a->str, b->str, min(a->len, b->len));
	return c ? c : a->len - b->len;
}

static const char *const comparisons[] = { "=", "!=", "<", "<=", ">", ">=" };

/* The comparison operator next, as its index in comparisons, or -1. */
static int comparison(struct expr *e)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(comparisons); i++)
		if (take(e, comparisons[i]))
			return i;
	return -1;
}

static bool holds(int which, int c)
{
	switch (which) {
	case 0: return !c;
	case 1: return c;
	case 2: return c < 0;
	case 3: return c <= 0;
	case 4: return c > 0;
	}
	return c >= 0;
}

static struct value parse_compare(struct expr *e)
{
	struct value v = parse_add(e), w;
	char buf[2][24];
	int op;

	while (!e->error && (op = comparison(e)) >= 0) {
		w = parse_add(e);
		/* numbers compare as their text when the other side is none */
		if (v.is_num)
			v = string(buf[0], snprintf(buf[0], 24, "%ld", v.num));
		if (w.is_num)
			w = string(buf[1], snprintf(buf[1], 24, "%ld", w.num));
		v = number(holds(op, compare(&v, &w)));
	}
	return v;
}

static struct value parse_and(struct expr *e)
{
	struct value v = parse_compare(e), w;

	while (!e->error && take(e, "&")) {
		w = parse_compare(e);
		if (is_null(&v) || is_null(&w))
			v = number(0);
	}
	return v;
}

static struct value parse_or(struct expr *e)
{
	struct value v = parse_and(e), w;

	while (!e->error && take(e, "|")) {
		w = parse_and(e);
		if (is_null(&v))
			v = is_null(&w) ? number(0) : w;
	}
	return v;
}

static int cmd_expr(struct shell_out *out, int argc, char **argv)
{
	struct expr e = { .argv = argv, .argc = argc, .pos = 1 };
	struct value v;

	if (argc < 2) {
		sh_err("expr: missing operand\n");
		return 2;
	}
	v = parse_or(&e);
	if (!e.error && e.pos < argc)
		e.error = "expr: syntax error";
	if (e.error) {
		sh_err("%s\n", e.error);
		return 2;
	}
	if (v.is_num)
		sh_printf(out, "%ld\n", v.num);
	else
		sh_printf(out, "%.*s\n", v.len, v.str);
	return is_null(&v);
}
SHELL_COMMAND("expr", cmd_expr, "EXPRESSION: evaluate and print it");
