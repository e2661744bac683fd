/*
 * sh_arith.c: $((...)), POSIX shell arithmetic (IEEE Std 1003.1,
 * 2.6.4): signed long integers with C's operators and precedence,
 * decimal, octal (0...) and hex (0x...) constants, and variables by
 * name, whose values are numbers. The expression is already expanded
 * ($x, $(...)) by the caller. A recursive descent, one function per
 * precedence level; `noeval` skips the side effects of the branch
 * that && || and ?: do not take, as C does.
 */
#include "kernel.h"
#include "string.h"
#include "sh.h"

struct arith {
	const char *p;
	const struct sh_arith_vars *vars;
	const char *why;
	int noeval;
};

static long assignment(struct arith *a);

static bool failed(struct arith *a, const char *why)
{
	if (!a->why)
		a->why = why;
	return true;
}

static void skip_space(struct arith *a)
{
	while (*a->p == ' ' || *a->p == '\t' || *a->p == '\n')
		a->p++;
}

static bool is_alpha(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

/* A constant at *s: its value, *s past it; why set when malformed. */
static long number(struct arith *a, const char **s)
{
	const char *p = *s;
	unsigned long v = 0;
	unsigned int base = 10;
	int d;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	} else if (p[0] == '0') {
		base = 8;
	}
	while (is_alpha(*p) || (*p >= '0' && *p <= '9')) {
		d = digit_value(*p++);
		if (d >= (int)base) {
			failed(a, "invalid number");
			break;
		}
		v = v * base + d;
	}
	*s = p;
	return (long)v;
}

/* A variable's value: empty or unset is 0, else it must be a number. */
static long variable_value(struct arith *a, const char *name)
{
	const char *v = a->vars->get(a->vars->ctx, name), *p;
	bool neg = false;
	long n;

	if (!v || !*v)
		return 0;
	p = v;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (*p < '0' || *p > '9') {
		failed(a, "invalid number");
		return 0;
	}
	n = number(a, &p);
	if (*p)
		failed(a, "invalid number");
	return neg ? -n : n;
}

static const char *read_name(struct arith *a, char *name, size_t size)
{
	size_t n = 0;

	while (is_alpha(*a->p) || (*a->p >= '0' && *a->p <= '9')) {
		if (n + 1 < size)
			name[n++] = *a->p;
		a->p++;
	}
	name[n] = 0;
	return name;
}

static long primary(struct arith *a);

static long unary(struct arith *a)
{
	char op;

	skip_space(a);
	op = *a->p;
	if (op == '+' || op == '-' || op == '!' || op == '~') {
		long v;

		a->p++;
		v = unary(a);
		switch (op) {
		case '-':	return -(unsigned long)v;
		case '!':	return !v;
		case '~':	return ~v;
		default:	return v;
		}
	}
	return primary(a);
}

static long primary(struct arith *a)
{
	char name[64];
	long v;

	skip_space(a);
	if (*a->p == '(') {
		a->p++;
		v = assignment(a);
		skip_space(a);
		if (*a->p != ')')
			failed(a, "syntax error");
		else
			a->p++;
		return v;
	}
	if (*a->p >= '0' && *a->p <= '9')
		return number(a, &a->p);
	if (is_alpha(*a->p))
		return variable_value(a, read_name(a, name, sizeof(name)));
	failed(a, "syntax error");
	return 0;
}

/* The binary operators, loosest last; each row is one precedence level. */
static const char *const levels[][4] = {
	{ "*", "/", "%" },
	{ "+", "-" },
	{ "<<", ">>" },
	{ "<=", ">=", "<", ">" },
	{ "==", "!=" },
	{ "&" },
	{ "^" },
	{ "|" },
	{ "&&" },
	{ "||" },
};

/* The operator of level at a->p, or NULL (& is not the start of &&). */
static const char *binary_op(struct arith *a, int level)
{
	const char *const *op;
	size_t n;

	skip_space(a);
	for (op = levels[level]; op < levels[level] + 4 && *op; op++) {
		n = strlen(*op);
		if (strncmp(a->p, *op, n))
			continue;
		if (n == 1 && (a->p[1] == *a->p || a->p[1] == '=') &&
		    strchr("&|<>", *a->p))
			continue;
		if (n == 1 && a->p[1] == '=' && strchr("*/%+-^", *a->p))
			continue;
		a->p += n;
		return *op;
	}
	return NULL;
}

static long apply(struct arith *a, const char *op, long l, long r)
{
	switch (op[0]) {
	case '*':	return (unsigned long)l * r;
	case '/':
	case '%':
		if (!r) {
			if (!a->noeval)
				failed(a, "division by zero");
			return 0;
		}
		if (r == -1)	/* LONG_MIN / -1 overflows: as dash, wrap */
			return op[0] == '/' ? -(unsigned long)l : 0;
		return op[0] == '/' ? l / r : l % r;
	case '+':	return (unsigned long)l + r;
	case '-':	return (unsigned long)l - r;
	case '<':
		if (op[1] == '<')
			return (unsigned long)l << (r & 63);
		return op[1] == '=' ? l <= r : l < r;
	case '>':
		if (op[1] == '>')
			return l >> (r & 63);
		return op[1] == '=' ? l >= r : l > r;
	case '=':	return l == r;
	case '!':	return l != r;
	case '&':	return op[1] ? l && r : l & r;
	case '|':	return op[1] ? l || r : l | r;
	default:	return l ^ r;
	}
}

static long binary(struct arith *a, int level)
{
	const char *op;
	long l, r;
	bool skip;

	if (level < 0)
		return unary(a);
	l = binary(a, level - 1);
	while (!a->why && (op = binary_op(a, level))) {
		/* && and || do not evaluate what cannot change the result */
		skip = (!strcmp(op, "&&") && !l) || (!strcmp(op, "||") && l);
		a->noeval += skip;
		r = binary(a, level - 1);
		a->noeval -= skip;
		l = skip ? !!l : apply(a, op, l, r);
	}
	return l;
}

static long conditional(struct arith *a)
{
	long c = binary(a, ARRAY_SIZE(levels) - 1), t, f;

	skip_space(a);
	if (*a->p != '?' || a->why)
		return c;
	a->p++;
	a->noeval += !c;
	t = assignment(a);
	a->noeval -= !c;
	skip_space(a);
	if (*a->p != ':') {
		failed(a, "syntax error");
		return 0;
	}
	a->p++;
	a->noeval += !!c;
	f = conditional(a);
	a->noeval -= !!c;
	return c ? t : f;
}

/* NAME = expr, NAME op= expr; else a conditional expression. */
static long assignment(struct arith *a)
{
	static const char *const ops[] = {
		"<<=", ">>=", "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=",
		"=",
	};
	const char *start, *op = NULL;
	char name[64];
	size_t i;
	long v;

	skip_space(a);
	start = a->p;
	if (is_alpha(*a->p)) {
		read_name(a, name, sizeof(name));
		skip_space(a);
		for (i = 0; i < ARRAY_SIZE(ops) && !op; i++)
			if (!strncmp(a->p, ops[i], strlen(ops[i])) &&
			    (ops[i][0] != '=' || a->p[1] != '='))
				op = ops[i];
	}
	if (!op) {
		a->p = start;
		return conditional(a);
	}
	a->p += strlen(op);
	v = assignment(a);
	if (op[0] != '=') {
		char bin[3] = { op[0], op[1] == '=' ? 0 : op[1], 0 };

		v = apply(a, bin, variable_value(a, name), v);
	}
	if (!a->why && !a->noeval && a->vars->set(a->vars->ctx, name, v))
		failed(a, "cannot assign");
	return v;
}

int sh_arith(const char *expr, const struct sh_arith_vars *vars,
	     long *value, const char **why)
{
	struct arith a = { .p = expr, .vars = vars };

	skip_space(&a);
	*value = *a.p ? assignment(&a) : 0;
	skip_space(&a);
	if (*a.p)
		failed(&a, "syntax error");
	*why = a.why;
	return a.why ? -EINVAL : 0;
}
