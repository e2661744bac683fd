/*
 * sh_lex.c: the tokens of the POSIX Shell Command Language (IEEE Std
 * 1003.1, 2.3 Token Recognition): words, which keep their quotes and
 * $(...), `...`, ${...} whole for the expansions to read at run time;
 * the operators; IO_NUMBER (the 2 of 2>); comments; and here-document
 * bodies, read from the lines after the newline that ends their
 * command. Reserved words are the parser's business.
 */
#include "kernel.h"
#include "string.h"
#include "printf.h"
#include "sh.h"

bool sh_lex_failed(struct sh_lexer *lx, int err, const char *fmt, ...)
{
	va_list ap;

	if (lx->err)
		return true;
	lx->err = err;
	va_start(ap, fmt);
	vsnprintf(lx->error, sizeof(lx->error), fmt, ap);
	va_end(ap);
	return true;
}

/* The end of the text: an error, or a request for more lines. */
static bool ran_out(struct sh_lexer *lx, const char *what)
{
	if (lx->more)
		return sh_lex_failed(lx, SH_INCOMPLETE, "%s", what);
	return sh_lex_failed(lx, -EINVAL, "syntax error: %s", what);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool ends_word(char c)
{
	return !c || is_blank(c) || c == '\n' || strchr("|&;<>()", c);
}

static size_t scan_single(const char *s, size_t i)
{
	while (s[i] && s[i] != '\'')
		i++;
	return s[i] ? i + 1 : 0;
}

static size_t scan_double(const char *s, size_t i);

/* After $( or ${ or `: the index past the closing one, 0 if none. */
static size_t scan_nested(const char *s, size_t i, char close)
{
	int depth = 1;

	while (s[i]) {
		char c = s[i];

		if (c == '\\' && s[i + 1]) {
			i += 2;
			continue;
		}
		if (close == '`' && c == '`')
			return i + 1;
		if (close != '`' && (c == '\'' || c == '"')) {
			i = c == '\'' ? scan_single(s, i + 1) :
			    scan_double(s, i + 1);
			if (!i)
				return 0;
			continue;
		}
		if (close != '`' && (c == '$' || c == '`')) {
			size_t end = sh_scan_subst(s, i);

			if (end) {
				if (end == (size_t)-1)
					return 0;
				i = end;
				continue;
			}
		}
		if (close == ')' && c == '(')
			depth++;
		if (c == close && !--depth)
			return i + 1;
		i++;
	}
	return 0;
}

/*
 * s[i] is '$' or '`': the index past the substitution it opens, 0 if
 * it opens none ($x, a lone $), or -1 if it is not closed.
 */
size_t sh_scan_subst(const char *s, size_t i)
{
	size_t end;

	if (s[i] == '`')
		end = scan_nested(s, i + 1, '`');
	else if (s[i + 1] == '(')
		end = scan_nested(s, i + 2, ')');
	else if (s[i + 1] == '{')
		end = scan_nested(s, i + 2, '}');
	else
		return 0;
	return end ? end : (size_t)-1;
}

static size_t scan_double(const char *s, size_t i)
{
	while (s[i] && s[i] != '"') {
		size_t end = s[i] == '$' || s[i] == '`' ?
			     sh_scan_subst(s, i) : 0;

		if (end == (size_t)-1)
			return 0;
		if (end)
			i = end;
		else
			i += s[i] == '\\' && s[i + 1] ? 2 : 1;
	}
	return s[i] ? i + 1 : 0;
}

/* Copy text[from, to) into the arena, dropping backslash-newlines. */
char *sh_save_text(struct sh_lexer *lx, size_t from, size_t to)
{
	char *w = sh_arena_alloc(lx->arena, to - from + 1), *p = w;
	size_t i;

	if (!w) {
		sh_lex_failed(lx, -ENOMEM, "%s", strerror_text(ENOMEM));
		return NULL;
	}
	for (i = from; i < to; i++) {
		if (lx->text[i] == '\\' && lx->text[i + 1] == '\n' &&
		    i + 1 < to) {
			i++;
			continue;
		}
		*p++ = lx->text[i];
	}
	return w;
}

static void count_lines(struct sh_lexer *lx, size_t from, size_t to)
{
	for (; from < to; from++)
		lx->lineno += lx->text[from] == '\n';
}

/* One word from lx->pos: its end, 0 when a quote is left open. */
static size_t scan_word(struct sh_lexer *lx)
{
	const char *s = lx->text;
	size_t i = lx->pos, end;

	lx->word_quoted = false;
	while (!ends_word(s[i])) {
		char c = s[i];

		if (c == '\\') {
			lx->word_quoted = true;
			i += s[i + 1] ? 2 : 1;
			continue;
		}
		if (c == '\'' || c == '"') {
			lx->word_quoted = true;
			end = c == '\'' ? scan_single(s, i + 1) :
			      scan_double(s, i + 1);
		} else if (c == '$' || c == '`') {
			end = sh_scan_subst(s, i);
			if (!end)
				end = i + 1;
		} else {
			end = i + 1;
		}
		if (!end || end == (size_t)-1)
			return 0;
		i = end;
	}
	return i;
}

static const struct {
	const char *text;
	enum sh_token tok;
} operators[] = {	/* longest first */
	{ "<<-", T_DLESSDASH }, { "&&", T_AND_IF }, { "||", T_OR_IF },
	{ ";;", T_DSEMI }, { "<<", T_DLESS }, { ">>", T_DGREAT },
	{ "<&", T_LESSAND }, { ">&", T_GREATAND }, { "<>", T_LESSGREAT },
	{ ">|", T_CLOBBER }, { ";", T_SEMI }, { "&", T_AMP },
	{ "|", T_PIPE }, { "(", T_LPAREN }, { ")", T_RPAREN },
	{ "<", T_LESS }, { ">", T_GREAT }, { "\n", T_NEWLINE },
};

const char *sh_token_text(const struct sh_lexer *lx)
{
	size_t i;

	if (lx->tok == T_EOF)
		return "end of file";
	if (lx->tok == T_NEWLINE)
		return "newline";
	if (lx->tok == T_WORD || lx->tok == T_IO_NUMBER)
		return lx->word;
	for (i = 0; i < ARRAY_SIZE(operators); i++)
		if (operators[i].tok == lx->tok)
			return operators[i].text;
	return "?";
}

static void skip_blanks_and_comment(struct sh_lexer *lx)
{
	const char *s = lx->text;

	for (;;) {
		while (is_blank(s[lx->pos]))
			lx->pos++;
		if (s[lx->pos] == '\\' && s[lx->pos + 1] == '\n') {
			lx->pos += 2;
			lx->lineno++;
			continue;
		}
		break;
	}
	if (s[lx->pos] == '#')
		while (s[lx->pos] && s[lx->pos] != '\n')
			lx->pos++;
}

/* The delimiter with its quotes taken out; quoted if it had any. */
static void heredoc_delimiter(const char *w, char *out, size_t size,
			      bool *quoted)
{
	size_t n = 0;

	*quoted = false;
	for (; *w && n + 1 < size; w++) {
		if (*w == '\'' || *w == '"') {
			*quoted = true;
			continue;
		}
		if (*w == '\\' && w[1]) {
			*quoted = true;
			w++;
		}
		out[n++] = *w;
	}
	out[n] = 0;
}

/* <<-: each line of the body loses its leading tabs. */
static void strip_leading_tabs(char *body)
{
	char *r = body, *w = body;
	bool line_start = true;

	for (; *r; r++) {
		if (line_start && *r == '\t')
			continue;
		line_start = *r == '\n';
		*w++ = *r;
	}
	*w = 0;
}

/* Read one here-document's lines up to its delimiter line. */
static void read_heredoc(struct sh_lexer *lx, struct sh_redir *r)
{
	const char *s = lx->text;
	char delim[128];
	size_t start = lx->pos, body_end, line, eol, len;

	heredoc_delimiter(r->target, delim, sizeof(delim), &r->quoted);
	len = strlen(delim);
	body_end = lx->pos;
	for (;;) {
		line = lx->pos;
		if (!s[line]) {
			ran_out(lx, "unexpected end of file in here-document");
			return;
		}
		eol = line;
		while (s[eol] && s[eol] != '\n')
			eol++;
		while (r->strip_tabs && s[line] == '\t')
			line++;
		lx->pos = eol + (s[eol] == '\n');
		lx->lineno++;
		if (eol - line == len && !strncmp(s + line, delim, len))
			break;
		body_end = lx->pos;
	}
	r->body = sh_save_text(lx, start, body_end);
	if (r->body && r->strip_tabs)
		strip_leading_tabs(r->body);
}

static void read_heredocs(struct sh_lexer *lx)
{
	int i;

	for (i = 0; i < lx->nheredocs && !lx->err; i++)
		read_heredoc(lx, lx->heredocs[i]);
	lx->nheredocs = 0;
}

static enum sh_token read_operator(struct sh_lexer *lx)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(operators); i++) {
		n = strlen(operators[i].text);
		if (!strncmp(lx->text + lx->pos, operators[i].text, n)) {
			lx->pos += n;
			return operators[i].tok;
		}
	}
	return T_EOF;
}

static enum sh_token read_token(struct sh_lexer *lx)
{
	const char *s = lx->text;
	size_t end, i;

	skip_blanks_and_comment(lx);
	lx->tok_start = lx->pos;
	if (!s[lx->pos])
		return T_EOF;
	if (s[lx->pos] == '\n') {
		lx->pos++;
		lx->lineno++;
		read_heredocs(lx);
		return T_NEWLINE;
	}
	if (ends_word(s[lx->pos]))
		return read_operator(lx);
	end = scan_word(lx);
	if (!end) {
		ran_out(lx, "unterminated quoted string");
		return T_EOF;
	}
	lx->word = sh_save_text(lx, lx->pos, end);
	count_lines(lx, lx->pos, end);
	for (i = lx->pos; i < end && s[i] >= '0' && s[i] <= '9'; i++)
		;
	lx->pos = end;
	if (i == end && (s[end] == '<' || s[end] == '>'))
		return T_IO_NUMBER;
	return T_WORD;
}

enum sh_token sh_peek(struct sh_lexer *lx)
{
	if (!lx->have_tok) {
		lx->tok = lx->err ? T_EOF : read_token(lx);
		if (lx->err)
			lx->tok = T_EOF;
		lx->have_tok = true;
	}
	return lx->tok;
}

void sh_next(struct sh_lexer *lx)
{
	sh_peek(lx);
	lx->have_tok = false;
}
