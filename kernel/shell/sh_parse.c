/*
 * sh_parse.c: the grammar of the POSIX Shell Command Language (IEEE Std
 * 1003.1, 2.10 Shell Grammar), by recursive descent over sh_lex.c's
 * tokens, into the tree of sh.h. Reserved words (if, then, do, ...)
 * are words the parser recognises where a command may start. Errors
 * read as busybox ash's: `syntax error: unexpected "fi"`.
 */
#include "kernel.h"
#include "string.h"
#include "sh.h"

static struct sh_node *parse_and_or(struct sh_lexer *lx);
static struct sh_node *parse_compound_list(struct sh_lexer *lx);
static struct sh_node *parse_function(struct sh_lexer *lx, char *name);

static const char *const reserved[] = {
	"if", "then", "else", "elif", "fi", "do", "done", "case", "esac",
	"while", "until", "for", "{", "}",
};

void sh_lexer_init(struct sh_lexer *lx, const char *text, bool more,
		   struct sh_arena *arena)
{
	memset(lx, 0, sizeof(*lx));
	lx->text = text;
	lx->more = more;
	lx->arena = arena;
	lx->lineno = 1;
}

bool sh_is_name(const char *s, size_t n)
{
	size_t i;

	if (!n || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (i = 0; i < n; i++)
		if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

/* Is the next token the unquoted reserved word w? */
static bool at_word(struct sh_lexer *lx, const char *w)
{
	return sh_peek(lx) == T_WORD && !lx->word_quoted &&
	       !strcmp(lx->word, w);
}

static bool at_reserved(struct sh_lexer *lx)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(reserved); i++)
		if (at_word(lx, reserved[i]))
			return true;
	return false;
}

static void *unexpected(struct sh_lexer *lx)
{
	enum sh_token t = sh_peek(lx);

	if (lx->err)
		return NULL;
	if (t == T_EOF)
		sh_lex_failed(lx, lx->more ? SH_INCOMPLETE : -EINVAL,
			      "syntax error: unexpected end of file");
	else if (t == T_NEWLINE)
		sh_lex_failed(lx, -EINVAL, "syntax error: unexpected newline");
	else
		sh_lex_failed(lx, -EINVAL, "syntax error: unexpected \"%s\"",
			      sh_token_text(lx));
	return NULL;
}

static bool expect_word(struct sh_lexer *lx, const char *w)
{
	if (!at_word(lx, w)) {
		unexpected(lx);
		return false;
	}
	sh_next(lx);
	return true;
}

static bool accept(struct sh_lexer *lx, enum sh_token t)
{
	if (sh_peek(lx) != t)
		return false;
	sh_next(lx);
	return true;
}

static void skip_newlines(struct sh_lexer *lx)
{
	while (accept(lx, T_NEWLINE))
		;
}

static struct sh_node *new_node(struct sh_lexer *lx, enum sh_node_type type,
				struct sh_node *left, struct sh_node *right)
{
	struct sh_node *n = sh_arena_alloc(lx->arena, sizeof(*n));

	if (!n) {
		sh_lex_failed(lx, -ENOMEM, "%s", strerror_text(ENOMEM));
		return NULL;
	}
	n->type = type;
	n->left = left;
	n->right = right;
	n->lineno = lx->lineno;
	n->arena = lx->arena;
	return n;
}

static struct sh_word *new_word(struct sh_lexer *lx, char *text)
{
	struct sh_word *w = sh_arena_alloc(lx->arena, sizeof(*w));

	if (!w)
		sh_lex_failed(lx, -ENOMEM, "%s", strerror_text(ENOMEM));
	else
		w->text = text;
	return w;
}

/* Append to a list through its tail pointer. */
#define LIST_APPEND(tailp, item) do {		\
		*(tailp) = (item);		\
		(tailp) = &(item)->next;	\
	} while (0)

static enum sh_redir_type redir_type(enum sh_token t)
{
	switch (t) {
	case T_LESS:		return SH_R_IN;
	case T_DGREAT:		return SH_R_APPEND;
	case T_LESSGREAT:	return SH_R_RDWR;
	case T_LESSAND:
	case T_GREATAND:	return SH_R_DUP;
	case T_DLESS:
	case T_DLESSDASH:	return SH_R_HEREDOC;
	default:		return SH_R_OUT;
	}
}

static bool is_redir_op(enum sh_token t)
{
	return t >= T_LESS && t <= T_CLOBBER;
}

/* [IO_NUMBER] op WORD, the IO_NUMBER already read into fd (or -1). */
static struct sh_redir *parse_redir(struct sh_lexer *lx, int fd)
{
	enum sh_token op = sh_peek(lx);
	struct sh_redir *r;

	sh_next(lx);
	if (sh_peek(lx) != T_WORD)
		return unexpected(lx);
	r = sh_arena_alloc(lx->arena, sizeof(*r));
	if (!r) {
		sh_lex_failed(lx, -ENOMEM, "%s", strerror_text(ENOMEM));
		return NULL;
	}
	r->type = redir_type(op);
	r->fd = fd >= 0 ? fd : (op == T_LESS || op == T_LESSAND ||
				op == T_LESSGREAT || op == T_DLESS ||
				op == T_DLESSDASH) ? 0 : 1;
	r->target = lx->word;
	r->strip_tabs = op == T_DLESSDASH;
	if (r->type == SH_R_HEREDOC) {
		if (lx->nheredocs == ARRAY_SIZE(lx->heredocs)) {
			sh_lex_failed(lx, -EINVAL, "too many here-documents");
			return NULL;
		}
		lx->heredocs[lx->nheredocs++] = r;
	}
	sh_next(lx);
	return r;
}

/* Redirections after a compound command, or NULL. */
static bool parse_redirs(struct sh_lexer *lx, struct sh_redir ***tail)
{
	struct sh_redir *r;
	int fd;

	for (;;) {
		fd = -1;
		if (sh_peek(lx) == T_IO_NUMBER) {
			fd = lx->word[1] ? 10 : lx->word[0] - '0';
			sh_next(lx);
		}
		if (!is_redir_op(sh_peek(lx)))
			return true;
		r = parse_redir(lx, fd);
		if (!r)
			return false;
		LIST_APPEND(*tail, r);
	}
}

static bool is_assignment(struct sh_lexer *lx)
{
	const char *eq;

	if (sh_peek(lx) != T_WORD)
		return false;
	eq = strchr(lx->word, '=');
	return eq && sh_is_name(lx->word, eq - lx->word);
}

/* Words, NAME=value prefixes and redirections, in any order. */
static struct sh_node *parse_simple(struct sh_lexer *lx)
{
	struct sh_node *n = new_node(lx, SH_CMD, NULL, NULL);
	struct sh_word **wtail, **atail, *w;
	struct sh_redir **rtail;
	bool named;

	if (!n)
		return NULL;
	wtail = &n->words;
	atail = &n->assigns;
	rtail = &n->redirs;
	for (;;) {
		if (!parse_redirs(lx, &rtail))
			return NULL;
		if (sh_peek(lx) != T_WORD)
			break;
		w = new_word(lx, lx->word);
		if (!w)
			return NULL;
		if (!n->words && is_assignment(lx)) {
			LIST_APPEND(atail, w);
			sh_next(lx);
			continue;
		}
		named = !lx->word_quoted && sh_is_name(w->text, strlen(w->text));
		LIST_APPEND(wtail, w);
		sh_next(lx);
		if (named && n->words == w && !n->assigns && !n->redirs &&
		    sh_peek(lx) == T_LPAREN)
			return parse_function(lx, w->text);
	}
	if (!n->words && !n->assigns && !n->redirs)
		return unexpected(lx);
	return n;
}

/* NAME ( ) linebreak compound-command: NAME is read, ( is next. */
static struct sh_node *parse_function(struct sh_lexer *lx, char *name)
{
	struct sh_node *n = new_node(lx, SH_FUNC, NULL, NULL);
	struct sh_node *body;

	if (!n)
		return NULL;
	sh_next(lx);
	if (!accept(lx, T_RPAREN))
		return unexpected(lx);
	skip_newlines(lx);
	n->name = name;
	if (!at_word(lx, "{") && !at_word(lx, "if") && !at_word(lx, "for") &&
	    !at_word(lx, "while") && !at_word(lx, "until") &&
	    !at_word(lx, "case") && sh_peek(lx) != T_LPAREN)
		return unexpected(lx);
	body = parse_and_or(lx);
	n->left = body;
	return body ? n : NULL;
}

static struct sh_node *parse_if(struct sh_lexer *lx)
{
	struct sh_node *n = new_node(lx, SH_IF, NULL, NULL);

	if (!n)
		return NULL;
	sh_next(lx);		/* if or elif */
	n->left = parse_compound_list(lx);
	if (!n->left || !expect_word(lx, "then"))
		return NULL;
	n->right = parse_compound_list(lx);
	if (!n->right)
		return NULL;
	if (at_word(lx, "elif")) {
		n->els = parse_if(lx);
		return n->els ? n : NULL;
	}
	if (at_word(lx, "else")) {
		sh_next(lx);
		n->els = parse_compound_list(lx);
		if (!n->els)
			return NULL;
	}
	return expect_word(lx, "fi") ? n : NULL;
}

/* do compound-list done */
static struct sh_node *parse_do_group(struct sh_lexer *lx)
{
	struct sh_node *body;

	if (!expect_word(lx, "do"))
		return NULL;
	body = parse_compound_list(lx);
	return body && expect_word(lx, "done") ? body : NULL;
}

static struct sh_node *parse_while(struct sh_lexer *lx, enum sh_node_type t)
{
	struct sh_node *n = new_node(lx, t, NULL, NULL);

	if (!n)
		return NULL;
	sh_next(lx);
	n->left = parse_compound_list(lx);
	if (!n->left)
		return NULL;
	n->right = parse_do_group(lx);
	return n->right ? n : NULL;
}

static struct sh_node *parse_for(struct sh_lexer *lx)
{
	struct sh_node *n = new_node(lx, SH_FOR, NULL, NULL);
	struct sh_word **tail, *w;

	if (!n)
		return NULL;
	sh_next(lx);
	if (sh_peek(lx) != T_WORD || !sh_is_name(lx->word, strlen(lx->word)))
		return unexpected(lx);
	n->name = lx->word;
	sh_next(lx);
	skip_newlines(lx);
	if (at_word(lx, "in")) {
		sh_next(lx);
		n->for_in = true;
		tail = &n->words;
		while (sh_peek(lx) == T_WORD) {
			w = new_word(lx, lx->word);
			if (!w)
				return NULL;
			LIST_APPEND(tail, w);
			sh_next(lx);
		}
		if (!accept(lx, T_SEMI) && !accept(lx, T_NEWLINE))
			return unexpected(lx);
	} else {
		accept(lx, T_SEMI);
	}
	skip_newlines(lx);
	n->right = parse_do_group(lx);
	return n->right ? n : NULL;
}

/* [(] pattern [| pattern]... ) compound-list [;;] */
static struct sh_case_item *parse_case_item(struct sh_lexer *lx)
{
	struct sh_case_item *item = sh_arena_alloc(lx->arena, sizeof(*item));
	struct sh_word **tail, *w;

	if (!item) {
		sh_lex_failed(lx, -ENOMEM, "%s", strerror_text(ENOMEM));
		return NULL;
	}
	accept(lx, T_LPAREN);
	tail = &item->patterns;
	do {
		if (sh_peek(lx) != T_WORD)
			return unexpected(lx);
		w = new_word(lx, lx->word);
		if (!w)
			return NULL;
		LIST_APPEND(tail, w);
		sh_next(lx);
	} while (accept(lx, T_PIPE));
	if (!accept(lx, T_RPAREN))
		return unexpected(lx);
	skip_newlines(lx);
	if (sh_peek(lx) != T_DSEMI && !at_word(lx, "esac")) {
		item->body = parse_compound_list(lx);
		if (!item->body)
			return NULL;
	}
	if (accept(lx, T_DSEMI))
		skip_newlines(lx);
	else if (!at_word(lx, "esac"))
		return unexpected(lx);
	return item;
}

static struct sh_node *parse_case(struct sh_lexer *lx)
{
	struct sh_node *n = new_node(lx, SH_CASE, NULL, NULL);
	struct sh_case_item **tail, *item;

	if (!n)
		return NULL;
	sh_next(lx);
	if (sh_peek(lx) != T_WORD)
		return unexpected(lx);
	n->words = new_word(lx, lx->word);
	if (!n->words)
		return NULL;
	sh_next(lx);
	skip_newlines(lx);
	if (!expect_word(lx, "in"))
		return NULL;
	skip_newlines(lx);
	tail = &n->items;
	while (!at_word(lx, "esac")) {
		item = parse_case_item(lx);
		if (!item)
			return NULL;
		LIST_APPEND(tail, item);
	}
	sh_next(lx);
	return n;
}

static struct sh_node *parse_group(struct sh_lexer *lx, enum sh_node_type t)
{
	struct sh_node *n = new_node(lx, t, NULL, NULL);

	if (!n)
		return NULL;
	sh_next(lx);
	n->left = parse_compound_list(lx);
	if (!n->left)
		return NULL;
	if (t == SH_GROUP)
		return expect_word(lx, "}") ? n : NULL;
	return accept(lx, T_RPAREN) ? n : unexpected(lx);
}

static struct sh_node *parse_compound(struct sh_lexer *lx)
{
	if (sh_peek(lx) == T_LPAREN)
		return parse_group(lx, SH_SUBSHELL);
	if (at_word(lx, "{"))
		return parse_group(lx, SH_GROUP);
	if (at_word(lx, "if"))
		return parse_if(lx);
	if (at_word(lx, "while"))
		return parse_while(lx, SH_WHILE);
	if (at_word(lx, "until"))
		return parse_while(lx, SH_UNTIL);
	if (at_word(lx, "for"))
		return parse_for(lx);
	if (at_word(lx, "case"))
		return parse_case(lx);
	return NULL;
}

static struct sh_node *parse_command(struct sh_lexer *lx)
{
	struct sh_redir **rtail;
	struct sh_node *n;

	if (sh_peek(lx) != T_LPAREN && !at_reserved(lx))
		return parse_simple(lx);
	n = parse_compound(lx);
	if (!n)
		return lx->err ? NULL : unexpected(lx);
	rtail = &n->redirs;
	return parse_redirs(lx, &rtail) ? n : NULL;
}

/* [!] command [| linebreak command]... */
static struct sh_node *parse_pipeline(struct sh_lexer *lx)
{
	bool negate = false;
	struct sh_node *n, *right;

	while (at_word(lx, "!")) {
		sh_next(lx);
		negate = !negate;
	}
	n = parse_command(lx);
	while (n && accept(lx, T_PIPE)) {
		skip_newlines(lx);
		right = parse_command(lx);
		n = right ? new_node(lx, SH_PIPE, n, right) : NULL;
	}
	if (n && negate)
		n = new_node(lx, SH_NOT, n, NULL);
	return n;
}

static struct sh_node *parse_and_or(struct sh_lexer *lx)
{
	struct sh_node *n = parse_pipeline(lx), *right;
	enum sh_node_type t;

	while (n && (sh_peek(lx) == T_AND_IF || sh_peek(lx) == T_OR_IF)) {
		t = sh_peek(lx) == T_AND_IF ? SH_AND : SH_OR;
		sh_next(lx);
		skip_newlines(lx);
		right = parse_pipeline(lx);
		n = right ? new_node(lx, t, n, right) : NULL;
	}
	return n;
}

/* What ends a compound list: a reserved word that closes, ) or ;; */
static bool at_list_end(struct sh_lexer *lx)
{
	static const char *const closers[] = {
		"then", "else", "elif", "fi", "do", "done", "esac", "}",
	};
	size_t i;

	if (sh_peek(lx) == T_EOF || sh_peek(lx) == T_RPAREN ||
	    sh_peek(lx) == T_DSEMI)
		return true;
	for (i = 0; i < ARRAY_SIZE(closers); i++)
		if (at_word(lx, closers[i]))
			return true;
	return false;
}

/* and_or, then & to put it in the background, or ; */
static struct sh_node *parse_term(struct sh_lexer *lx, bool *more)
{
	size_t start = (sh_peek(lx), lx->tok_start);
	struct sh_node *n = parse_and_or(lx);

	*more = false;
	if (n && sh_peek(lx) == T_AMP) {
		n = new_node(lx, SH_BG, n, NULL);
		if (n)
			n->name = sh_save_text(lx, start, lx->tok_start);
		sh_next(lx);
		*more = true;
	} else if (n && accept(lx, T_SEMI)) {
		*more = true;
	}
	return n;
}

static struct sh_node *seq(struct sh_lexer *lx, struct sh_node *a,
			   struct sh_node *b)
{
	return a ? new_node(lx, SH_SEQ, a, b) : b;
}

/* The body of a compound command: terms over any number of lines. */
static struct sh_node *parse_compound_list(struct sh_lexer *lx)
{
	struct sh_node *list = NULL, *n;
	bool more;

	skip_newlines(lx);
	do {
		n = parse_term(lx, &more);
		if (!n)
			return NULL;
		list = seq(lx, list, n);
		if (!list)
			return NULL;
		if (accept(lx, T_NEWLINE)) {
			skip_newlines(lx);
			more = true;
		}
	} while (more && !at_list_end(lx));
	return list;
}

int sh_parse_command(struct sh_lexer *lx, struct sh_node **node)
{
	struct sh_node *list = NULL, *n;
	bool more;

	*node = NULL;
	skip_newlines(lx);
	if (sh_peek(lx) == T_EOF)
		return lx->err;
	do {
		n = parse_term(lx, &more);
		list = n ? seq(lx, list, n) : NULL;
	} while (list && more && sh_peek(lx) != T_NEWLINE &&
		 sh_peek(lx) != T_EOF);
	if (list && sh_peek(lx) != T_NEWLINE && sh_peek(lx) != T_EOF)
		unexpected(lx);
	if (list && sh_peek(lx) == T_EOF && lx->nheredocs)
		sh_lex_failed(lx, lx->more ? SH_INCOMPLETE : -EINVAL,
			      "syntax error: unexpected end of file in here-document");
	if (!lx->err)
		sh_next(lx);
	if (lx->err)
		return lx->err;
	*node = list;
	return 0;
}

int sh_parse_program(struct sh_lexer *lx, struct sh_node **node)
{
	struct sh_node *n;
	int err;

	*node = NULL;
	while (!(err = sh_parse_command(lx, &n)) && n) {
		*node = seq(lx, *node, n);
		if (!*node)
			return lx->err;
	}
	return err;
}
