/*
 * cmdline.c: split a shell command line into words as a POSIX shell
 * does ('...', "...", backslashes, a word glued from quoted and bare
 * parts, # comments) and pick out an output redirection, `> file`,
 * `>> file` or `1> file`. There is no expansion of $, * or ~, and no
 * pipes or lists: those are reported rather than passed on as words.
 *
 * It works in place: taking out quotes only ever shortens the text,
 * so each word is written back over the line it came from.
 */
#include "kernel.h"
#include "string.h"
#include "cmdline.h"

enum token {
	TOK_NONE,		/* nothing read ahead */
	TOK_END,		/* end of line, or a comment */
	TOK_WORD,
	TOK_GREAT,		/* > */
	TOK_DGREAT,		/* >> */
	TOK_UNSUPPORTED,	/* | ; & < ( ) */
};

struct lexer {
	char *r;		/* next character to read */
	char *w;		/* where word characters go: never past r */
	char *word;		/* the last TOK_WORD */
	bool quoted;		/* ... had quotes or backslashes in it */
	enum token ahead;	/* an operator read with the last word */
	char op[2];		/* the TOK_UNSUPPORTED character */
};

/* Say why in cl->error: msg, then the token and a closing quote if any. */
static int fail(struct cmdline *cl, int err, const char *msg,
		const char *token)
{
	strlcpy(cl->error, msg, sizeof(cl->error));
	if (token) {
		strlcat(cl->error, token, sizeof(cl->error));
		strlcat(cl->error, "'", sizeof(cl->error));
	}
	return err;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

static bool is_operator(char c)
{
	return c && strchr(">|;&<()", c);
}

static enum token read_operator(struct lexer *lx)
{
	char c = *lx->r++;

	if (c != '>') {
		lx->op[0] = c;
		return TOK_UNSUPPORTED;
	}
	if (*lx->r != '>')
		return TOK_GREAT;
	lx->r++;
	return TOK_DGREAT;
}

static int unmatched(struct cmdline *cl, const char *quote)
{
	return fail(cl, -EINVAL, "unexpected EOF while looking for matching `",
		    quote);
}

/* Copy up to the closing '; r is past the opening one. */
static int read_single_quoted(struct lexer *lx, struct cmdline *cl)
{
	while (*lx->r != '\'') {
		if (!*lx->r)
			return unmatched(cl, "'");
		*lx->w++ = *lx->r++;
	}
	lx->r++;
	return 0;
}

/* Inside "...", a backslash escapes only these and is kept elsewhere. */
static bool is_dquote_escape(const char *p)
{
	return p[0] == '\\' && p[1] && strchr("\"\\$`", p[1]);
}

static int read_double_quoted(struct lexer *lx, struct cmdline *cl)
{
	while (*lx->r != '"') {
		if (!*lx->r)
			return unmatched(cl, "\"");
		lx->r += is_dquote_escape(lx->r);
		*lx->w++ = *lx->r++;
	}
	lx->r++;
	return 0;
}

/* Take out quotes and backslashes up to an unquoted blank or operator. */
static int read_word_text(struct lexer *lx, struct cmdline *cl)
{
	int err = 0;
	char c;

	lx->quoted = false;
	while (!err && *lx->r && !is_blank(*lx->r) && !is_operator(*lx->r)) {
		c = *lx->r++;
		lx->quoted |= c == '\'' || c == '"' || c == '\\';
		if (c == '\'')
			err = read_single_quoted(lx, cl);
		else if (c == '"')
			err = read_double_quoted(lx, cl);
		else if (c == '\\' && *lx->r)	/* bash keeps a final \ */
			*lx->w++ = *lx->r++;
		else
			*lx->w++ = c;
	}
	return err;
}

/*
 * The NUL that ends a word can land on the blank or operator that ended
 * it (`echo x`, `echo>x`), so step past that first, reading an operator
 * ahead.
 */
static int read_word(struct lexer *lx, struct cmdline *cl)
{
	int err;

	lx->word = lx->w;
	err = read_word_text(lx, cl);
	if (err)
		return err;
	if (is_operator(*lx->r))
		lx->ahead = read_operator(lx);
	else if (*lx->r)
		lx->r++;
	*lx->w++ = '\0';
	return 0;
}

static int next_token(struct lexer *lx, struct cmdline *cl, enum token *tok)
{
	*tok = lx->ahead;
	if (*tok != TOK_NONE) {
		lx->ahead = TOK_NONE;
		return 0;
	}
	while (is_blank(*lx->r))
		lx->r++;
	if (!*lx->r || *lx->r == '#') {
		*tok = TOK_END;
		return 0;
	}
	if (is_operator(*lx->r)) {
		*tok = read_operator(lx);
		return 0;
	}
	*tok = TOK_WORD;
	return read_word(lx, cl);
}

/* POSIX: unquoted digits just before a '>' name the file descriptor. */
static bool is_io_number(const struct lexer *lx)
{
	const char *p = lx->word;

	if (lx->quoted ||
	    (lx->ahead != TOK_GREAT && lx->ahead != TOK_DGREAT))
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	return !*p;
}

static int syntax_error(const struct lexer *lx, struct cmdline *cl,
			enum token tok)
{
	static const char *const text[] = {
		[TOK_END] = "newline", [TOK_GREAT] = ">", [TOK_DGREAT] = ">>",
	};
	const char *what = tok == TOK_WORD ? lx->word :
			   tok == TOK_UNSUPPORTED ? lx->op : text[tok];

	return fail(cl, -EINVAL, "syntax error near unexpected token `",
		    what);
}

static int read_redirect(struct lexer *lx, struct cmdline *cl,
			 enum token op)
{
	enum token tok;
	int err;

	if (cl->redirect)
		return fail(cl, -EINVAL, "only one redirection is supported",
			    NULL);
	err = next_token(lx, cl, &tok);
	if (err)
		return err;
	if (tok != TOK_WORD || is_io_number(lx))
		return syntax_error(lx, cl, tok);
	cl->redirect = lx->word;
	cl->append = op == TOK_DGREAT;
	return 0;
}

/* A word is an argument, or the 1 of `1>file`. */
static int add_word(struct lexer *lx, struct cmdline *cl)
{
	if (is_io_number(lx)) {
		if (strcmp(lx->word, "1"))
			return fail(cl, -EINVAL,
				    "only standard output can be redirected",
				    NULL);
		return 0;
	}
	if (cl->argc == CMDLINE_MAX_ARGS)
		return fail(cl, -E2BIG, strerror_text(E2BIG), NULL);
	cl->argv[cl->argc++] = lx->word;
	return 0;
}

int parse_cmdline(char *line, struct cmdline *cl)
{
	struct lexer lx = { .r = line, .w = line, .ahead = TOK_NONE };
	enum token tok;
	int err;

	memset(cl, 0, sizeof(*cl));
	while (!(err = next_token(&lx, cl, &tok)) && tok != TOK_END) {
		if (tok == TOK_WORD)
			err = add_word(&lx, cl);
		else if (tok == TOK_GREAT || tok == TOK_DGREAT)
			err = read_redirect(&lx, cl, tok);
		else
			err = fail(cl, -EINVAL, "unsupported token `", lx.op);
		if (err)
			break;
	}
	return err;
}
