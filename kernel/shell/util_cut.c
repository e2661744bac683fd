/*
 * util_cut.c: cut -c LIST | -f LIST [-d C] [-s] [FILE]...: the chosen
 * characters (bytes) or fields of each line. A LIST is N, N-M, N- or
 * -M, comma-separated; fields are split at -d's character (a tab if
 * none), and a line without one prints whole unless -s.
 */
#include "kernel.h"
#include "shell.h"
#include "getopt.h"
#include "text_input.h"
#include "ctype.h"
#include "mm.h"
#include "string.h"

#define MAX_RANGES	32
#define TO_END		0x7fffffff

struct cut {
	struct { int from, to; } ranges[MAX_RANGES];
	int nranges;
	bool fields, only_delimited;
	char delim;
};

static int parse_int(const char **p)
{
	int n = 0;

	while (isdigit(**p)) {
		n = min(n * 10 + (**p - '0'), TO_END);
		(*p)++;
	}
	return n;
}

static int parse_range(struct cut *c, const char **p)
{
	int from = 1, to;

	if (isdigit(**p))
		from = parse_int(p);
	to = from;
	if (**p == '-') {
		(*p)++;
		to = isdigit(**p) ? parse_int(p) : TO_END;
	}
	if (!from || to < from || c->nranges == MAX_RANGES)
		return -EINVAL;
	c->ranges[c->nranges].from = from;
	c->ranges[c->nranges++].to = to;
	return 0;
}

static int parse_list(struct cut *c, const char *list)
{
	const char *p = list;

	do {
		if (*p == ',')
			p++;
		if (!isdigit(*p) && *p != '-')
			return -EINVAL;
		if (parse_range(c, &p))
			return -EINVAL;
	} while (*p == ',');
	return *p ? -EINVAL : 0;
}

static bool chosen(const struct cut *c, int n)
{
	int i;

	for (i = 0; i < c->nranges; i++)
		if (n >= c->ranges[i].from && n <= c->ranges[i].to)
			return true;
	return false;
}

static void cut_chars(struct shell_out *out, const struct cut *c,
		      const char *line, size_t len, char *buf)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		if (chosen(c, i + 1))
			buf[n++] = line[i];
	sh_printf(out, "%.*s\n", (int)n, buf);
}

static void cut_fields(struct shell_out *out, const struct cut *c,
		       const char *line, size_t len, char *buf)
{
	size_t i, start = 0, n = 0;
	int field = 1;

	if (!memchr(line, c->delim, len)) {
		if (!c->only_delimited)
			sh_printf(out, "%.*s\n", (int)len, line);
		return;
	}
	for (i = 0; i <= len; i++) {
		if (i < len && line[i] != c->delim)
			continue;
		if (chosen(c, field)) {
			if (n)
				buf[n++] = c->delim;
			memcpy(buf + n, line + start, i - start);
			n += i - start;
		}
		field++;
		start = i + 1;
	}
	sh_printf(out, "%.*s\n", (int)n, buf);
}

static int parse_options(struct cut *c, struct getopt *g, int argc,
			 char **argv)
{
	const char *list = NULL;
	int opt;

	while ((opt = getopt_next(g, argc, argv, "c:b:f:d:s")) != -1) {
		if (opt == 'c' || opt == 'b' || opt == 'f') {
			list = g->arg;
			c->fields = opt == 'f';
		} else if (opt == 'd' && strlen(g->arg) == 1) {
			c->delim = g->arg[0];
		} else if (opt == 'd') {
			sh_err("cut: the delimiter must be a single character\n");
			return -EINVAL;
		} else if (opt == 's') {
			c->only_delimited = true;
		} else {
			return -EINVAL;
		}
	}
	if (!list) {
		sh_err("cut: expected a list of bytes, characters, or fields\n");
		return -EINVAL;
	}
	if (parse_list(c, list)) {
		sh_err("cut: invalid list '%s'\n", list);
		return -EINVAL;
	}
	return 0;
}

static int cmd_cut(struct shell_out *out, int argc, char **argv)
{
	struct getopt g = { .who = "cut", .ind = 1 };
	struct cut c = { .delim = '\t' };
	struct text_input in;
	char *line, *buf;
	size_t len;
	int err = 0;

	if (parse_options(&c, &g, argc, argv))
		return 1;
	text_input_init(&in, "cut", argc - g.ind, argv + g.ind);
	while ((line = text_next_line(&in, &len))) {
		buf = kmalloc(len + 1);
		if (!buf) {
			sh_err("cut: out of memory\n");
			err = 1;
			break;
		}
		if (c.fields)
			cut_fields(out, &c, line, len, buf);
		else
			cut_chars(out, &c, line, len, buf);
		kfree(buf);
	}
	text_input_free(&in);
	return err || in.failed;
}
SHELL_COMMAND("cut", cmd_cut,
	      "-c LIST | -f LIST [-d C] [-s] [FILE]...: print parts of lines");
