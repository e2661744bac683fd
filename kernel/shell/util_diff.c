/*
 * util_diff.c: diff [-u] FILE1 FILE2: the lines to change to turn
 * FILE1 into FILE2, in diff's normal form (2,3c2 with < and > lines)
 * or unified (-u, three lines of context). The shortest edit script is
 * Myers' ("An O(ND) Difference Algorithm and Its Variations", 1986),
 * keeping each step's furthest points to walk back along: (D+1)^2
 * numbers for D differences, so very different files are refused.
 * Exit status 0 if the files are the same, 1 if not, 2 on trouble.
 */
#include "kernel.h"
#include "shell.h"
#include "getopt.h"
#include "text_input.h"
#include "mm.h"
#include "string.h"

#define MAX_D		1400	/* ~8 MiB of furthest points */
#define CONTEXT		3

struct text {
	const char *name;
	char **lines;
	size_t *lens;
	int n, cap;
};

enum op { OP_SAME, OP_DEL, OP_ADD };

struct script {
	u8 *ops;		/* from the start of both files */
	int n;
};

static int add_line(struct text *t, const char *line, size_t len)
{
	char **lines;
	size_t *lens;
	int cap = t->cap ? 2 * t->cap : 64;

	if (t->n == t->cap) {
		lines = kmalloc(cap * sizeof(*lines));
		lens = kmalloc(cap * sizeof(*lens));
		if (!lines || !lens) {
			kfree(lines);
			kfree(lens);
			return -ENOMEM;
		}
		if (t->n) {
			memcpy(lines, t->lines, t->n * sizeof(*lines));
			memcpy(lens, t->lens, t->n * sizeof(*lens));
		}
		kfree(t->lines);
		kfree(t->lens);
		t->lines = lines;
		t->lens = lens;
		t->cap = cap;
	}
	t->lines[t->n] = kmalloc(len + 1);
	if (!t->lines[t->n])
		return -ENOMEM;
	memcpy(t->lines[t->n], line, len + 1);
	t->lens[t->n++] = len;
	return 0;
}

static void free_text(struct text *t)
{
	while (t->n)
		kfree(t->lines[--t->n]);
	kfree(t->lines);
	kfree(t->lens);
}

static int read_text(struct text *t, char *name)
{
	struct text_input in;
	int err = 0;
	size_t len;
	char *line;

	t->name = name;
	text_input_init(&in, "diff", 1, &name);
	while (!err && (line = text_next_line(&in, &len)))
		err = add_line(t, line, len);
	if (err)
		sh_err("diff: out of memory\n");
	if (in.failed || in.interrupted)
		err = -EIO;
	text_input_free(&in);
	return err;
}

static bool same(const struct text *a, int x, const struct text *b, int y)
{
	return a->lens[x] == b->lens[y] &&
	       !memcmp(a->lines[x], b->lines[y], a->lens[x]);
}

/* Step d's furthest x on diagonal k, kept in a triangle: row d has 2d+1. */
static int *at(int *v, int d, int k)
{
	return &v[d * d + (k + d)];
}

/* The furthest point on diagonal k after step d, from step d-1's. */
static int furthest(int *v, int d, int k, const struct text *a,
		    const struct text *b)
{
	int x, y;

	if (!d)
		x = 0;
	else if (k == -d || (k != d && *at(v, d - 1, k - 1) < *at(v, d - 1, k + 1)))
		x = *at(v, d - 1, k + 1);
	else
		x = *at(v, d - 1, k - 1) + 1;
	y = x - k;
	while (x < a->n && y < b->n && same(a, x, b, y))
		x++, y++;
	return x;
}

/*
 * Walk back from (n, m): each step d came from step d-1's furthest
 * point on a neighbouring diagonal by one edit, then a snake of equal
 * lines. The ops are written from the end of the script backwards.
 */
static void walk_back(int *v, int dmax, const struct text *a,
		      const struct text *b, struct script *s)
{
	int x = a->n, y = b->n, d, k, px, py, i = a->n + b->n;
	bool add;

	for (d = dmax; d > 0; d--) {
		k = x - y;
		add = k == -d ||
		      (k != d && *at(v, d - 1, k - 1) < *at(v, d - 1, k + 1));
		px = *at(v, d - 1, add ? k + 1 : k - 1);
		py = px - (add ? k + 1 : k - 1);
		while (x > px + !add && y > py + add)
			x--, y--, s->ops[--i] = OP_SAME;
		s->ops[--i] = add ? OP_ADD : OP_DEL;
		x = px;
		y = py;
	}
	while (x > 0)
		x--, s->ops[--i] = OP_SAME;
	s->n = a->n + b->n - i;
	memmove(s->ops, s->ops + i, s->n);
}

static int edit_script(const struct text *a, const struct text *b,
		       struct script *s)
{
	int max = min(a->n + b->n, MAX_D), d, k, *v;

	v = kmalloc(((size_t)max + 1) * (max + 1) * sizeof(*v));
	s->ops = kmalloc(a->n + b->n + 1);
	if (!v || !s->ops) {
		kfree(v);
		return -ENOMEM;
	}
	for (d = 0; d <= max; d++) {
		for (k = -d; k <= d; k += 2) {
			*at(v, d, k) = furthest(v, d, k, a, b);
			if (*at(v, d, k) >= a->n && *at(v, d, k) - k >= b->n) {
				walk_back(v, d, a, b, s);
				kfree(v);
				return 0;
			}
		}
	}
	kfree(v);
	return -E2BIG;
}

/* --- output ------------------------------------------------------------- */

static void print_range(struct shell_out *out, int from, int to)
{
	if (to - from > 1)
		sh_printf(out, "%d,%d", from + 1, to);
	else
		sh_printf(out, "%d", to > from ? from + 1 : from);
}

static void print_lines(struct shell_out *out, const char *mark,
			const struct text *t, int from, int to)
{
	for (; from < to; from++)
		sh_printf(out, "%s%.*s\n", mark, (int)t->lens[from],
			  t->lines[from]);
}

/* Normal form: one block per run of changes. */
static void print_normal(struct shell_out *out, const struct script *s,
			 const struct text *a, const struct text *b)
{
	int i = 0, x = 0, y = 0, x0, y0;

	while (i < s->n) {
		if (s->ops[i] == OP_SAME) {
			i++, x++, y++;
			continue;
		}
		x0 = x;
		y0 = y;
		for (; i < s->n && s->ops[i] != OP_SAME; i++)
			s->ops[i] == OP_DEL ? x++ : y++;
		print_range(out, x0, x);
		sh_printf(out, "%c", x == x0 ? 'a' : y == y0 ? 'd' : 'c');
		print_range(out, y0, y);
		sh_puts(out, "\n");
		print_lines(out, "< ", a, x0, x);
		if (x > x0 && y > y0)
			sh_puts(out, "---\n");
		print_lines(out, "> ", b, y0, y);
	}
}

/* A hunk's range as -u shows it: "5", "5,3", or "4,0" for none. */
static void print_unified_range(struct shell_out *out, char sign, int from,
				int len)
{
	if (len == 1)
		sh_printf(out, " %c%d", sign, from + 1);
	else
		sh_printf(out, " %c%d,%d", sign, len ? from + 1 : from, len);
}

/* The end of the hunk starting at change i: changes closer than 2*CONTEXT. */
static int hunk_end(const struct script *s, int i)
{
	int same = 0, last = i;

	for (; i < s->n && same <= 2 * CONTEXT; i++) {
		if (s->ops[i] == OP_SAME) {
			same++;
		} else {
			same = 0;
			last = i;
		}
	}
	return last + 1;
}

static void print_hunk(struct shell_out *out, const struct script *s,
		       const struct text *a, const struct text *b, int from,
		       int to, int x, int y)
{
	int i, xn = 0, yn = 0;

	for (i = from; i < to; i++) {
		xn += s->ops[i] != OP_ADD;
		yn += s->ops[i] != OP_DEL;
	}
	sh_puts(out, "@@");
	print_unified_range(out, '-', x, xn);
	print_unified_range(out, '+', y, yn);
	sh_puts(out, " @@\n");
	for (i = from; i < to; i++) {
		if (s->ops[i] == OP_SAME) {
			print_lines(out, " ", a, x, x + 1);
			x++, y++;
		} else if (s->ops[i] == OP_DEL) {
			print_lines(out, "-", a, x, x + 1);
			x++;
		} else {
			print_lines(out, "+", b, y, y + 1);
			y++;
		}
	}
}

static void print_unified(struct shell_out *out, const struct script *s,
			  const struct text *a, const struct text *b)
{
	int i = 0, x = 0, y = 0, start, end, j;

	sh_printf(out, "--- %s\n+++ %s\n", a->name, b->name);
	while (i < s->n) {
		if (s->ops[i] == OP_SAME) {
			i++, x++, y++;
			continue;
		}
		start = max(i - CONTEXT, 0);
		while (start < i && s->ops[start] != OP_SAME)
			start++;
		end = min(hunk_end(s, i) + CONTEXT, s->n);
		print_hunk(out, s, a, b, start, end, x - (i - start),
			   y - (i - start));
		for (j = i; j < end; j++) {
			x += s->ops[j] != OP_ADD;
			y += s->ops[j] != OP_DEL;
		}
		i = end;
	}
}

static int cmd_diff(struct shell_out *out, int argc, char **argv)
{
	struct getopt g = { .who = "diff", .ind = 1 };
	struct text a = { NULL }, b = { NULL };
	struct script s = { NULL, 0 };
	bool unified = false;
	int c, status = 2, err;

	while ((c = getopt_next(&g, argc, argv, "u")) != -1) {
		if (c == '?')
			return 2;
		unified = true;
	}
	if (argc - g.ind != 2) {
		sh_err("Usage: diff [-u] FILE1 FILE2\n");
		return 2;
	}
	if (read_text(&a, argv[g.ind]) || read_text(&b, argv[g.ind + 1]))
		goto out;
	err = edit_script(&a, &b, &s);
	if (err) {
		sh_err(err == -E2BIG ? "diff: the files differ in more than %d lines\n" :
		       "diff: out of memory\n", MAX_D);
		goto out;
	}
	status = memchr(s.ops, OP_DEL, s.n) || memchr(s.ops, OP_ADD, s.n);
	if (status && unified)
		print_unified(out, &s, &a, &b);
	else if (status)
		print_normal(out, &s, &a, &b);
out:
	kfree(s.ops);
	free_text(&a);
	free_text(&b);
	return status;
}
SHELL_COMMAND("diff", cmd_diff, "[-u] FILE1 FILE2: print how two files differ");
