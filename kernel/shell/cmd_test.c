/*
 * cmd_test.c: test and [, with POSIX's operators (string, integer and
 * file tests) and the XSI -a, -o, ! and parentheses, by recursive
 * descent as busybox's test does: expr = and (-o and)*, and = not (-a
 * not)*, not = ! not | ( expr ) | primary. Exit 0 true, 1 false, 2 on
 * an error.
 */
#include "kernel.h"
#include "string.h"
#include "kstrtox.h"
#include "vfs.h"
#include "shell.h"

struct test {
	int argc, i;
	char **argv;
	bool error;
};

static bool test_or(struct test *t);

static const char *peek(struct test *t, int ahead)
{
	return t->i + ahead < t->argc ? t->argv[t->i + ahead] : NULL;
}

static bool syntax_error(struct test *t, const char *what)
{
	if (!t->error)
		sh_err("test: %s\n", what);
	t->error = true;
	return false;
}

static long number(struct test *t, const char *s)
{
	long v;

	if (kstrtol(s, 10, &v)) {
		if (!t->error)
			sh_err("test: %s: bad number\n", s);
		t->error = true;
		return 0;
	}
	return v;
}

static bool file_test(char op, const char *path)
{
	struct inode *inode;

	if (vfs_walk(shell_cwd(), path, &inode))
		return false;
	switch (op) {
	case 'e':	return true;
	case 'f':	return !S_ISDIR(inode->mode);
	case 'd':	return S_ISDIR(inode->mode);
	case 'r':	return inode->mode & S_IRUGO;
	case 'w':	return inode->mode & S_IWUGO;
	case 'x':	return inode->mode & S_IXUGO;
	case 's':	return inode->size > 0;
	case 'p':	return (inode->mode & S_IFMT) == S_IFIFO;
	default:	return false;	/* -L -h -b -c -S: none here */
	}
}

static bool is_unary(const char *op)
{
	return op && op[0] == '-' && op[1] && !op[2] &&
	       strchr("efdrwxspLhbcSnzt", op[1]);
}

static bool is_binary(const char *op)
{
	static const char *const ops[] = {
		"=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt",
		"-ge", "-ef", "-nt", "-ot",
	};
	size_t i;

	for (i = 0; op && i < ARRAY_SIZE(ops); i++)
		if (!strcmp(op, ops[i]))
			return true;
	return false;
}

static bool binary(struct test *t, const char *a, const char *op,
		   const char *b)
{
	long x, y;

	if (op[0] != '-') {
		int c = strcmp(a, b);

		return op[0] == '!' ? c : op[0] == '<' ? c < 0 :
		       op[0] == '>' ? c > 0 : !c;
	}
	if (!strcmp(op, "-ef") || !strcmp(op, "-nt") || !strcmp(op, "-ot")) {
		struct inode *i, *j;

		return !strcmp(op, "-ef") && !vfs_walk(shell_cwd(), a, &i) &&
		       !vfs_walk(shell_cwd(), b, &j) && i == j;
	}
	x = number(t, a);
	y = number(t, b);
	if (!strcmp(op, "-eq"))
		return x == y;
	if (!strcmp(op, "-ne"))
		return x != y;
	if (!strcmp(op, "-lt"))
		return x < y;
	if (!strcmp(op, "-le"))
		return x <= y;
	if (!strcmp(op, "-gt"))
		return x > y;
	return x >= y;
}

static bool primary(struct test *t)
{
	const char *a = peek(t, 0), *op = peek(t, 1);

	if (!a)
		return syntax_error(t, "argument expected");
	if (is_binary(op) && peek(t, 2)) {
		t->i += 3;
		return binary(t, a, op, t->argv[t->i - 1]);
	}
	if (is_unary(a) && op) {
		t->i += 2;
		if (a[1] == 'n')
			return *op;
		if (a[1] == 'z')
			return !*op;
		if (a[1] == 't')
			return false;	/* no terminal is a tty here */
		return file_test(a[1], op);
	}
	t->i++;
	return *a;
}

static bool test_not(struct test *t)
{
	const char *a = peek(t, 0);
	bool v;

	if (a && !strcmp(a, "!") && peek(t, 1)) {
		t->i++;
		return !test_not(t);
	}
	if (a && !strcmp(a, "(") && !is_binary(peek(t, 1))) {
		t->i++;
		v = test_or(t);
		if (!peek(t, 0) || strcmp(peek(t, 0), ")"))
			return syntax_error(t, "')' expected");
		t->i++;
		return v;
	}
	return primary(t);
}

static bool test_and(struct test *t)
{
	bool v = test_not(t);

	while (peek(t, 0) && !strcmp(peek(t, 0), "-a")) {
		t->i++;
		v = test_not(t) && v;
	}
	return v;
}

static bool test_or(struct test *t)
{
	bool v = test_and(t);

	while (peek(t, 0) && !strcmp(peek(t, 0), "-o")) {
		t->i++;
		v = test_and(t) || v;
	}
	return v;
}

/* POSIX's rules by the number of arguments come first: 0 to 2. */
static int run_test(int argc, char **argv)
{
	struct test t = { .argc = argc, .argv = argv };
	bool v;

	if (!argc)
		return 1;
	if (argc == 1)
		return !*argv[0];
	if (argc == 2 && !strcmp(argv[0], "!"))
		return !!*argv[1];
	v = test_or(&t);
	if (!t.error && t.i < argc) {
		sh_err("test: %s: unexpected operator\n", argv[t.i]);
		return 2;
	}
	return t.error ? 2 : !v;
}

static int cmd_test(struct shell_out *out, int argc, char **argv)
{
	return run_test(argc - 1, argv + 1);
}
SHELL_COMMAND("test", cmd_test, "EXPR: check files, strings and numbers");

static int cmd_bracket(struct shell_out *out, int argc, char **argv)
{
	if (strcmp(argv[argc - 1], "]")) {
		sh_err("[: missing ]\n");
		return 2;
	}
	return run_test(argc - 2, argv + 1);
}
SHELL_COMMAND("[", cmd_bracket, "EXPR ]: the same as test");
