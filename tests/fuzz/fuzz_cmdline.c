/*
 * fuzz_cmdline.c: lib/cmdline.c, the shell's command-line parser.
 * An input whose first byte is odd describes words, each quoted by a
 * mix of bare text, '...', "..." and backslashes, and a redirection:
 * the line built from them must parse back into exactly those words.
 * Any other input is a raw line (after that byte): whatever it parses
 * into must stay inside the line, and must parse the same again once
 * quoted back.
 */
#include <ctype.h>
#include "fuzz.h"
#include "../../lib/string.c"
#include "../../lib/cmdline.c"

#define MAX_WORDS	(CMDLINE_MAX_ARGS + 4)
#define MAX_WORD	24
#define LINE_MAX	8192

enum quoting { BARE, SINGLE, DOUBLE, BACKSLASH, NR_QUOTINGS };

struct line {
	char text[LINE_MAX];
	size_t len;
};

/* Room is never short: MAX_WORDS words, each at most 4x its length. */
static void put(struct line *l, const char *s, size_t n)
{
	memcpy(l->text + l->len, s, n);
	l->len += n;
	l->text[l->len] = 0;
}

static void put_str(struct line *l, const char *s)
{
	put(l, s, strlen(s));
}

/* Bytes that need no quoting: nothing the parser treats specially. */
static bool is_bare(u8 c)
{
	return isalnum(c) || (c && strchr("_./:=+,@%^-", c));
}

static bool all_bare(const char *s, size_t n)
{
	while (n--)
		if (!is_bare(*s++))
			return false;
	return true;
}

/* Quote n bytes of s so that the parser gives them back. */
static void put_quoted(struct line *l, const char *s, size_t n, int q)
{
	size_t i;

	if (q == BARE && (!n || !all_bare(s, n)))
		q = SINGLE;
	if (q == BACKSLASH && !n)
		q = DOUBLE;
	if (q == SINGLE || q == DOUBLE)
		put(l, q == SINGLE ? "'" : "\"", 1);
	for (i = 0; i < n; i++) {
		if (q == SINGLE && s[i] == '\'')
			put_str(l, "'\\''");	/* close, \', reopen */
		else if (q == DOUBLE && strchr("\"\\$`", s[i]))
			put(l, "\\", 1), put(l, s + i, 1);
		else if (q == BACKSLASH && s[i] == '\n')
			put_str(l, "'\n'");	/* \ newline joins lines */
		else if (q == BACKSLASH)
			put(l, "\\", 1), put(l, s + i, 1);
		else
			put(l, s + i, 1);
	}
	if (q == SINGLE || q == DOUBLE)
		put(l, q == SINGLE ? "'" : "\"", 1);
}

/* A word as up to three glued parts, each quoted its own way. */
static void put_word(struct line *l, const char *w, struct fuzz_in *in)
{
	size_t n = strlen(w), cut1 = fuzz_u8(in) % (n + 1);
	size_t cut2 = cut1 + fuzz_u8(in) % (n - cut1 + 1);

	if (!n) {
		put_quoted(l, w, 0, fuzz_u8(in) & 1 ? SINGLE : DOUBLE);
		return;
	}
	put_quoted(l, w, cut1, fuzz_pick(in, NR_QUOTINGS));
	put_quoted(l, w + cut1, cut2 - cut1, fuzz_pick(in, NR_QUOTINGS));
	put_quoted(l, w + cut2, n - cut2, fuzz_pick(in, NR_QUOTINGS));
}

static void put_blanks(struct line *l, struct fuzz_in *in)
{
	static const char blanks[] = " \t\n";
	int i, n = 1 + fuzz_pick(in, 3);

	for (i = 0; i < n; i++)
		put(l, &blanks[fuzz_pick(in, 3)], 1);
}

/* A word of up to MAX_WORD bytes, NUL bytes made 0x01. */
static void take_word(struct fuzz_in *in, char *w)
{
	int i, n = fuzz_pick(in, MAX_WORD + 1);

	for (i = 0; i < n; i++)
		w[i] = fuzz_u8(in) ?: 1;
	w[n] = 0;
}

/* The line built from the words must parse back into them. */
static void check_built(struct fuzz_in *in)
{
	static const char *const ops[] = {
		" > ", " >> ", " >", " 1> ", " 1>> ", " 1>",
	};
	static char words[MAX_WORDS][MAX_WORD + 1], file[MAX_WORD + 1];
	static struct line l;
	int i, nwords = fuzz_pick(in, MAX_WORDS + 1);
	int at = fuzz_pick(in, nwords + 2), op = fuzz_pick(in, 6);
	struct cmdline cl;
	char *line;
	int err;

	l.len = 0;
	l.text[0] = 0;
	for (i = 0; i <= nwords; i++) {
		if (i == at) {	/* at == nwords + 1: no redirection */
			take_word(in, file);
			put_str(&l, ops[op]);
			put_word(&l, file, in);
		}
		if (i == nwords)
			break;
		take_word(in, words[i]);
		put_blanks(&l, in);
		put_word(&l, words[i], in);
	}
	if (fuzz_u8(in) & 1)
		put_str(&l, " # a comment > | ' \"");
	line = strdup(l.text);
	err = parse_cmdline(line, &cl);
	if (nwords > CMDLINE_MAX_ARGS) {
		FUZZ_CHECK(err == -E2BIG);
	} else {
		FUZZ_CHECK(err == 0);
		FUZZ_CHECK(cl.argc == nwords);
		for (i = 0; i < nwords; i++)
			FUZZ_CHECK(!strcmp(cl.argv[i], words[i]));
		FUZZ_CHECK(!cl.redirect == (at > nwords));
		FUZZ_CHECK(!cl.redirect || !strcmp(cl.redirect, file));
		FUZZ_CHECK(!cl.redirect ||
			   cl.append == !!strstr(ops[op], ">>"));
	}
	free(line);
}

static bool inside(const char *p, const char *line, size_t len)
{
	return p >= line && p + strlen(p) <= line + len;
}

/* Words lie in the line, in order, without overlapping. */
static void check_layout(const struct cmdline *cl, const char *line,
			 size_t len)
{
	const char *end = line;
	int i;

	FUZZ_CHECK(cl->argc >= 0 && cl->argc <= CMDLINE_MAX_ARGS);
	for (i = 0; i < cl->argc; i++) {
		FUZZ_CHECK(inside(cl->argv[i], line, len));
		FUZZ_CHECK(cl->argv[i] >= end);
		end = cl->argv[i] + strlen(cl->argv[i]) + 1;
	}
	FUZZ_CHECK(!cl->redirect || inside(cl->redirect, line, len));
}

/* Quoted back, each word in '...', the words must come out the same. */
static void check_requoted(const struct cmdline *cl)
{
	static struct line l;
	struct cmdline again;
	int i;

	l.len = 0;
	for (i = 0; i < cl->argc; i++) {
		put_str(&l, " ");
		put_quoted(&l, cl->argv[i], strlen(cl->argv[i]), SINGLE);
	}
	if (cl->redirect) {
		put_str(&l, cl->append ? " >> " : " > ");
		put_quoted(&l, cl->redirect, strlen(cl->redirect), SINGLE);
	}
	l.text[l.len] = 0;
	FUZZ_CHECK(parse_cmdline(l.text, &again) == 0);
	FUZZ_CHECK(again.argc == cl->argc);
	for (i = 0; i < cl->argc; i++)
		FUZZ_CHECK(!strcmp(again.argv[i], cl->argv[i]));
	FUZZ_CHECK(!again.redirect == !cl->redirect);
	FUZZ_CHECK(!cl->redirect || !strcmp(again.redirect, cl->redirect));
	FUZZ_CHECK(again.append == cl->append);
}

/* With nothing special in it, a line is its blank-separated words. */
static void check_plain(const struct cmdline *cl, const char *orig)
{
	char *copy = strdup(orig), *w, *save;
	int i = 0;

	for (w = strtok_r(copy, " \t\n", &save); w;
	     w = strtok_r(NULL, " \t\n", &save), i++)
		FUZZ_CHECK(i < cl->argc && !strcmp(cl->argv[i], w));
	FUZZ_CHECK(i == cl->argc && !cl->redirect);
	free(copy);
}

static void check_raw(struct fuzz_in *in)
{
	char *line = fuzz_str(in, 0), *orig = strdup(line);
	size_t len = strlen(line);
	struct cmdline cl;
	int err = parse_cmdline(line, &cl);

	FUZZ_CHECK(strnlen(cl.error, sizeof(cl.error)) < sizeof(cl.error));
	FUZZ_CHECK(!err == !cl.error[0]);
	if (err) {
		FUZZ_CHECK(err == -EINVAL || err == -E2BIG);
	} else {
		check_layout(&cl, line, len);
		check_requoted(&cl);
		if (!strpbrk(orig, "'\"\\#>|;&<()"))
			check_plain(&cl, orig);
	}
	free(line);
	free(orig);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_in in = { data, size };

	if (fuzz_u8(&in) & 1)
		check_built(&in);
	else
		check_raw(&in);
	return 0;
}
