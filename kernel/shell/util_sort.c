/*
 * util_sort.c: sort [-nru] [-t CHAR] [-k POS1[,POS2]]... [FILE]...: all
 * the lines, in the order kernel/shell/sort_key.c defines, by a stable
 * merge sort; -u keeps the first of each run of equal keys.
 */
#include "kernel.h"
#include "shell.h"
#include "getopt.h"
#include "text_input.h"
#include "sort_key.h"
#include "mm.h"
#include "string.h"

struct line {
	char *text;
	size_t len;
};

struct lines {
	struct line *v;
	size_t n, cap;
};

static int add_line(struct lines *l, const char *text, size_t len)
{
	struct line *v;

	if (l->n == l->cap) {
		v = kmalloc((l->cap ? 2 * l->cap : 64) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		if (l->v)
			memcpy(v, l->v, l->n * sizeof(*v));
		kfree(l->v);
		l->v = v;
		l->cap = l->cap ? 2 * l->cap : 64;
	}
	l->v[l->n].text = kmalloc(len + 1);
	if (!l->v[l->n].text)
		return -ENOMEM;
	memcpy(l->v[l->n].text, text, len + 1);
	l->v[l->n++].len = len;
	return 0;
}

static void free_lines(struct lines *l)
{
	while (l->n)
		kfree(l->v[--l->n].text);
	kfree(l->v);
}

static int compare(const struct sort_order *o, const struct line *a,
		   const struct line *b)
{
	return sort_compare(o, a->text, a->len, b->text, b->len);
}

/* Merge the sorted runs src[lo..mid) and src[mid..hi) into dst. */
static void merge(const struct sort_order *o, const struct line *src,
		  struct line *dst, size_t lo, size_t mid, size_t hi)
{
	size_t i = lo, j = mid, k = lo;

	while (i < mid && j < hi)
		dst[k++] = compare(o, &src[j], &src[i]) < 0 ? src[j++] : src[i++];
	while (i < mid)
		dst[k++] = src[i++];
	while (j < hi)
		dst[k++] = src[j++];
}

/* Bottom-up merge sort: stable, as sort's -u and equal keys want. */
static int merge_sort(const struct sort_order *o, struct lines *l)
{
	struct line *tmp = kmalloc(l->n * sizeof(*tmp) + 1), *t;
	size_t width, lo;

	if (!tmp)
		return -ENOMEM;
	for (width = 1; width < l->n; width *= 2) {
		for (lo = 0; lo < l->n; lo += 2 * width)
			merge(o, l->v, tmp, lo, min(lo + width, l->n),
			      min(lo + 2 * width, l->n));
		t = l->v;
		l->v = tmp;
		tmp = t;
	}
	kfree(tmp);
	return 0;
}

static void print_sorted(struct shell_out *out, const struct sort_order *o,
			 struct lines *l)
{
	size_t i;

	for (i = 0; i < l->n && !sh_interrupted(); i++) {
		if (o->unique && i && !compare(o, &l->v[i - 1], &l->v[i]))
			continue;
		sh_printf(out, "%.*s\n", (int)l->v[i].len, l->v[i].text);
	}
}

static int parse_options(struct sort_order *o, struct getopt *g, int argc,
			 char **argv)
{
	int c;

	while ((c = getopt_next(g, argc, argv, "nruk:t:")) != -1) {
		if (c == 'n') {
			o->numeric = true;
		} else if (c == 'r') {
			o->reverse = true;
		} else if (c == 'u') {
			o->unique = true;
		} else if (c == 't' && strlen(g->arg) == 1) {
			o->separator = g->arg[0];
		} else if (c == 't') {
			sh_err("sort: multi-character tab '%s'\n", g->arg);
			return -EINVAL;
		} else if (c == 'k' && o->nkeys == SORT_MAX_KEYS) {
			sh_err("sort: more than %d keys\n", SORT_MAX_KEYS);
			return -EINVAL;
		} else if (c == 'k') {
			if (sort_parse_key(g->arg, &o->keys[o->nkeys++])) {
				sh_err("sort: invalid key '%s'\n", g->arg);
				return -EINVAL;
			}
		} else {
			return -EINVAL;
		}
	}
	return 0;
}

static int cmd_sort(struct shell_out *out, int argc, char **argv)
{
	struct getopt g = { .who = "sort", .ind = 1 };
	struct sort_order o = { .nkeys = 0 };
	struct lines l = { NULL, 0, 0 };
	struct text_input in;
	int err = 0;
	size_t len;
	char *line;

	if (parse_options(&o, &g, argc, argv))
		return 2;
	text_input_init(&in, "sort", argc - g.ind, argv + g.ind);
	while (!err && (line = text_next_line(&in, &len)))
		err = add_line(&l, line, len);
	if (!err && !in.interrupted)
		err = merge_sort(&o, &l);
	if (err)
		sh_err("sort: out of memory\n");
	else if (!in.interrupted)
		print_sorted(out, &o, &l);
	free_lines(&l);
	text_input_free(&in);
	return err || in.failed ? 2 : 0;
}
SHELL_COMMAND("sort", cmd_sort,
	      "[-nru] [-t C] [-k POS1[,POS2]]... [FILE]...: print lines sorted");
