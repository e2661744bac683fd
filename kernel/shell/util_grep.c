/*
 * util_grep.c: grep, as busybox's: basic regular expressions, or
 * extended (-E) or fixed strings (-F), through lib/regex.c; -v -c -q
 * -i -w -x -o -n -l -h -H, several -e. The exit status is grep's: 0 if
 * a line was selected, 1 if none was, 2 on an error (unless -q found
 * one).
 */
#include "kernel.h"
#include "shell.h"
#include "getopt.h"
#include "text_input.h"
#include "regex.h"
#include "ctype.h"
#include "mm.h"
#include "string.h"

#define MAX_PATTERNS	32

struct grep {
	bool invert, count, quiet, words, whole_line, only, number;
	bool list, fixed;
	bool exhausted;		/* a line took more than the matcher may spend */
	int with_name;		/* 1: -H, 0: -h, -1: if several files */
	int flags;		/* REGEX_EXTENDED, REGEX_ICASE */
	const char *patterns[MAX_PATTERNS];
	int npatterns;
	struct regex re[MAX_PATTERNS];
};

/* -F: the string with every character BRE gives a meaning escaped. */
static char *quote_fixed(const char *s)
{
	char *q = kmalloc(2 * strlen(s) + 1), *p = q;

	if (!q)
		return NULL;
	for (; *s; s++) {
		if (strchr(".[]\\*^$", *s))
			*p++ = '\\';
		*p++ = *s;
	}
	*p = 0;
	return q;
}

static int compile_one(struct grep *g, int i)
{
	const char *pat = g->patterns[i];
	char *quoted = NULL;
	int err;

	if (g->fixed) {
		quoted = quote_fixed(pat);
		if (!quoted)
			return REGEX_ESPACE;
	}
	err = regex_compile(&g->re[i], quoted ? quoted : pat,
			    g->fixed ? g->flags & REGEX_ICASE : g->flags);
	kfree(quoted);
	if (err)
		sh_err("grep: bad regex '%s': %s\n", pat, regex_error(err));
	return err;
}

static void free_patterns(struct grep *g, int n)
{
	while (n--)
		regex_free(&g->re[n]);
}

static int compile_all(struct grep *g)
{
	int i;

	for (i = 0; i < g->npatterns; i++) {
		if (compile_one(g, i)) {
			free_patterns(g, i);
			return -EINVAL;
		}
	}
	return 0;
}

static bool is_word_char(int c)
{
	return isalnum(c) || c == '_';
}

/* -w: nothing of a word touches the match on either side. */
static bool whole_word(const char *line, size_t len, struct regex_match *m)
{
	return (!m->start || !is_word_char((u8)line[m->start - 1])) &&
	       ((size_t)m->end == len || !is_word_char((u8)line[m->end]));
}

/*
 * The first match of pattern i at or after from that -w and -x
 * accept, in m; false if there is none. Like busybox, a match that is
 * no whole word is retried one byte further on.
 */
static bool match_from(struct grep *g, int i, const char *line, size_t len,
		       size_t from, struct regex_match *m)
{
	int flags = from ? REGEX_NOTBOL : 0, err;

	while (from <= len) {
		err = regex_exec(&g->re[i], line + from, len - from, 1, m, flags);
		g->exhausted |= err == REGEX_ESPACE;
		if (err)
			return false;
		m->start += from;
		m->end += from;
		if (g->whole_line)
			return m->start == 0 && (size_t)m->end == len;
		if (!g->words || whole_word(line, len, m))
			return true;
		from = m->start + 1;
		flags = REGEX_NOTBOL;
	}
	return false;
}

/* The leftmost (then longest) match of any pattern from from on. */
static bool first_match(struct grep *g, const char *line, size_t len,
			size_t from, struct regex_match *best)
{
	struct regex_match m;
	bool found = false;
	int i;

	for (i = 0; i < g->npatterns; i++) {
		if (!match_from(g, i, line, len, from, &m))
			continue;
		if (!found || m.start < best->start ||
		    (m.start == best->start && m.end > best->end))
			*best = m;
		found = true;
	}
	return found;
}

static void print_prefix(struct shell_out *out, struct grep *g,
			 const char *name, unsigned long lineno)
{
	if (g->with_name)
		sh_printf(out, "%s:", name);
	if (g->number)
		sh_printf(out, "%lu:", lineno);
}

/* -o: each non-empty match of the line on a line of its own. */
static void print_matches(struct shell_out *out, struct grep *g,
			  const char *name, unsigned long lineno,
			  const char *line, size_t len)
{
	struct regex_match m;
	size_t from = 0;

	while (from <= len && first_match(g, line, len, from, &m)) {
		if (m.end > m.start) {
			print_prefix(out, g, name, lineno);
			sh_printf(out, "%.*s\n", m.end - m.start, line + m.start);
		}
		from = m.end > m.start ? (size_t)m.end : (size_t)m.start + 1;
	}
}

static const char *display_name(struct text_input *in)
{
	return strcmp(in->name, "-") ? in->name : "(standard input)";
}

/* One file: how many lines it selected. */
static unsigned long grep_file(struct shell_out *out, struct grep *g,
			       struct text_input *in)
{
	unsigned long lineno = 0, selected = 0;
	struct regex_match m;
	size_t len;
	char *line;

	while ((line = text_read_line(in, &len)) && !sh_interrupted()) {
		lineno++;
		if (first_match(g, line, len, 0, &m) == g->invert)
			continue;
		selected++;
		if (g->quiet || g->list)
			break;
		if (g->count)
			continue;
		if (g->only) {
			if (!g->invert)
				print_matches(out, g, display_name(in), lineno,
					      line, len);
			continue;
		}
		print_prefix(out, g, display_name(in), lineno);
		sh_printf(out, "%.*s\n", (int)len, line);
	}
	return selected;
}

static bool grep_all(struct shell_out *out, struct grep *g,
		     struct text_input *in)
{
	unsigned long selected;
	bool any = false;

	while (text_next_file(in)) {
		selected = grep_file(out, g, in);
		any |= selected > 0;
		if (g->quiet && any)
			break;
		if (g->list && selected)
			sh_printf(out, "%s\n", display_name(in));
		else if (g->count && !g->list && g->with_name)
			sh_printf(out, "%s:%lu\n", display_name(in), selected);
		else if (g->count && !g->list)
			sh_printf(out, "%lu\n", selected);
	}
	return any;
}

static int add_pattern(struct grep *g, const char *pat)
{
	if (g->npatterns == MAX_PATTERNS) {
		sh_err("grep: more than %d patterns\n", MAX_PATTERNS);
		return -E2BIG;
	}
	g->patterns[g->npatterns++] = pat;
	return 0;
}

static int parse_options(struct grep *g, int argc, char **argv,
			 struct getopt *o)
{
	int c;

	while ((c = getopt_next(o, argc, argv, "vcqiwxonlhHEFe:")) != -1) {
		switch (c) {
		case 'v': g->invert = true; break;
		case 'c': g->count = true; break;
		case 'q': g->quiet = true; break;
		case 'i': g->flags |= REGEX_ICASE; break;
		case 'w': g->words = true; break;
		case 'x': g->whole_line = true; break;
		case 'o': g->only = true; break;
		case 'n': g->number = true; break;
		case 'l': g->list = true; break;
		case 'h': g->with_name = 0; break;
		case 'H': g->with_name = 1; break;
		case 'E': g->flags |= REGEX_EXTENDED; break;
		case 'F': g->fixed = true; break;
		case 'e':
			if (add_pattern(g, o->arg))
				return -E2BIG;
			break;
		default:
			return -EINVAL;
		}
	}
	return 0;
}

static int cmd_grep(struct shell_out *out, int argc, char **argv)
{
	struct getopt o = { .who = "grep", .ind = 1 };
	struct text_input in;
	struct grep *g = kzalloc(sizeof(*g));
	int status = 2;
	bool any;

	if (!g) {
		sh_err("grep: out of memory\n");
		return 2;
	}
	g->with_name = -1;
	if (parse_options(g, argc, argv, &o))
		goto out;
	if (!g->npatterns && o.ind < argc)
		add_pattern(g, argv[o.ind++]);
	if (!g->npatterns) {
		sh_err("Usage: grep [-vcqiwxonlhHEF] [-e PATTERN]... PATTERN [FILE]...\n");
		goto out;
	}
	if (compile_all(g))
		goto out;
	if (g->with_name < 0)
		g->with_name = argc - o.ind > 1;
	text_input_init(&in, "grep", argc - o.ind, argv + o.ind);
	any = grep_all(out, g, &in);
	if (g->exhausted)
		sh_err("grep: %s\n", regex_error(REGEX_ESPACE));
	status = ((in.failed || g->exhausted) && !(g->quiet && any)) ? 2 : !any;
	text_input_free(&in);
	free_patterns(g, g->npatterns);
out:
	kfree(g);
	return status;
}
SHELL_COMMAND("grep", cmd_grep,
	      "[-vcqiwxonlhHEF] [-e PAT]... PAT [FILE]...: print lines that match");
