/*
 * util_tr.c: tr [-ds] SET1 [SET2]: standard input to standard output
 * with the bytes of SET1 turned into those of SET2 (its last repeated
 * as needed), or deleted (-d); -s squeezes each run of a byte of the
 * last set given into one. Sets take ranges (a-z), classes
 * ([:upper:]), and \n \t \\ \NNN escapes.
 */
#include "kernel.h"
#include "shell.h"
#include "getopt.h"
#include "text_input.h"
#include "ctype.h"
#include "mm.h"
#include "string.h"

#define SET_MAX		1024

struct set {
	u8 chars[SET_MAX];
	int n;
	bool has[256];
};

struct tr {
	bool delete, squeeze, translate;
	u8 map[256];
	bool *delete_set, *squeeze_set;
	int last;		/* the last byte written, for -s */
};

static int add_char(struct set *s, int c)
{
	if (s->n == SET_MAX)
		return -E2BIG;
	s->chars[s->n++] = c;
	s->has[c] = true;
	return 0;
}

static int escaped(const char **p)
{
	static const char from[] = "ntr\\abfv", to[] = "\n\t\r\\\a\b\f\v";
	const char *e;
	int c = 0, i;

	if (**p >= '0' && **p <= '7') {
		for (i = 0; i < 3 && **p >= '0' && **p <= '7'; i++)
			c = c * 8 + (*(*p)++ - '0');
		return c & 0xff;
	}
	e = **p ? strchr(from, **p) : NULL;
	c = e ? to[e - from] : (u8)**p;
	if (**p)
		(*p)++;
	return c;
}

static int next_char(const char **p)
{
	if (**p == '\\' && (*p)[1]) {
		(*p)++;
		return escaped(p);
	}
	return (u8)*(*p)++;
}

static const struct {
	const char *name;
	int (*fn)(int c);
} classes[] = {
	{ "alpha", isalpha }, { "digit", isdigit }, { "alnum", isalnum },
	{ "upper", isupper }, { "lower", islower }, { "space", isspace },
	{ "blank", isblank }, { "punct", ispunct }, { "print", isprint },
	{ "graph", isgraph }, { "cntrl", iscntrl }, { "xdigit", isxdigit },
};

/* At "[:": the class's bytes, in order; -EINVAL for an unknown name. */
static int add_class(struct set *s, const char **p)
{
	const char *end = strstr(*p + 2, ":]");
	size_t i, len;
	int c, err = 0;

	if (!end)
		return 1;	/* not a class: a plain '[' */
	len = end - (*p + 2);
	for (i = 0; i < ARRAY_SIZE(classes); i++) {
		if (strlen(classes[i].name) != len ||
		    strncmp(classes[i].name, *p + 2, len))
			continue;
		for (c = 0; c < 256 && !err; c++)
			if (classes[i].fn(c))
				err = add_char(s, c);
		*p = end + 2;
		return err;
	}
	sh_err("tr: invalid character class\n");
	return -EINVAL;
}

static int parse_set(struct set *s, const char *p)
{
	int c, hi, err = 0;

	memset(s, 0, sizeof(*s));
	while (*p && !err) {
		if (p[0] == '[' && p[1] == ':') {
			err = add_class(s, &p);
			if (err <= 0)
				continue;
		}
		c = next_char(&p);
		if (*p != '-' || !p[1]) {
			err = add_char(s, c);
			continue;
		}
		p++;
		hi = next_char(&p);
		if (hi < c) {
			sh_err("tr: range-endpoints of '%c-%c' are in reverse collating sequence order\n",
			       c, hi);
			return -EINVAL;
		}
		for (; c <= hi && !err; c++)
			err = add_char(s, c);
	}
	if (err == -E2BIG)
		sh_err("tr: set too large\n");
	return err;
}

/* The line's bytes (and its newline) through the map, -d and -s. */
static void tr_text(struct shell_out *out, struct tr *t, const char *text,
		    size_t len, char *buf)
{
	size_t i, n = 0;
	int c;

	for (i = 0; i < len; i++) {
		c = (u8)text[i];
		if (t->delete_set && t->delete_set[c])
			continue;
		c = t->map[c];
		if (t->squeeze_set && t->squeeze_set[c] && c == t->last)
			continue;
		buf[n++] = c;
		t->last = c;
	}
	sh_write(out, buf, n);
}

static void setup(struct tr *t, struct set *s1, struct set *s2, bool have2)
{
	int c, i;

	for (c = 0; c < 256; c++)
		t->map[c] = c;
	if (t->translate)
		for (i = 0; i < s1->n; i++)
			t->map[s1->chars[i]] = s2->chars[min(i, s2->n - 1)];
	t->delete_set = t->delete ? s1->has : NULL;
	if (t->squeeze)
		t->squeeze_set = have2 ? s2->has : s1->has;
	t->last = -1;
}

static int parse_args(struct tr *t, struct set *sets, int argc, char **argv,
		      struct getopt *g)
{
	int c, nsets;

	while ((c = getopt_next(g, argc, argv, "ds")) != -1) {
		if (c == '?')
			return -EINVAL;
		t->delete |= c == 'd';
		t->squeeze |= c == 's';
	}
	nsets = argc - g->ind;
	t->translate = !t->delete && nsets == 2;
	if (nsets < 1 || nsets > 2 || (t->delete && !t->squeeze && nsets > 1) ||
	    (!t->delete && !t->squeeze && nsets < 2)) {
		sh_err(nsets < 1 ? "tr: missing operand\n" :
		       nsets > 2 || t->delete ? "tr: extra operand\n" :
		       "tr: missing operand after SET1\n");
		return -EINVAL;
	}
	if (parse_set(&sets[0], argv[g->ind]) ||
	    (nsets == 2 && parse_set(&sets[1], argv[g->ind + 1])))
		return -EINVAL;
	if (t->translate && !sets[1].n) {
		sh_err("tr: when translating, SET2 must not be empty\n");
		return -EINVAL;
	}
	setup(t, &sets[0], &sets[1], nsets == 2);
	return 0;
}

static int cmd_tr(struct shell_out *out, int argc, char **argv)
{
	struct getopt g = { .who = "tr", .ind = 1 };
	struct set *sets = kzalloc(2 * sizeof(*sets));
	struct text_input in;
	struct tr t = { .delete = false };
	char *line, *buf;
	size_t len;
	int status = 1;

	if (!sets) {
		sh_err("tr: out of memory\n");
		return 1;
	}
	if (parse_args(&t, sets, argc, argv, &g))
		goto out;
	status = 0;
	text_input_init(&in, "tr", 0, NULL);
	while ((line = text_next_line(&in, &len))) {
		buf = kmalloc(len + 1);
		if (!buf) {
			sh_err("tr: out of memory\n");
			status = 1;
			break;
		}
		if (!in.no_newline)
			line[len++] = '\n';	/* its NUL's place */
		tr_text(out, &t, line, len, buf);
		kfree(buf);
	}
	text_input_free(&in);
out:
	kfree(sets);
	return status;
}
SHELL_COMMAND("tr", cmd_tr,
	      "[-ds] SET1 [SET2]: translate, delete or squeeze bytes of stdin");
