/*
 * sh.h: the shell language, shared by its files: the syntax tree that
 * the parser (sh_parse.c, over the tokens of sh_lex.c) builds from
 * POSIX Shell Command Language text, and the interpreter state the
 * executor (sh_exec.c), the expansions (sh_expand.c), the arithmetic
 * (sh_arith.c), the variables (sh_vars.c), the builtins (sh_builtin.c)
 * and the jobs (sh_jobs.c) share. The parser and the arithmetic need
 * only memory and strings, so the host tests build them as they are.
 */
#ifndef _SH_H
#define _SH_H

#include "kernel.h"

/*
 * A parse's nodes live in one arena, freed whole: a line's tree when
 * the line has run, a function's when the last reference (the function
 * table's, or a call in progress) goes.
 */
struct sh_arena {
	struct sh_chunk *chunks;
	int refs;
};

struct sh_arena *sh_arena_new(void);
void *sh_arena_alloc(struct sh_arena *a, size_t n);
void sh_arena_get(struct sh_arena *a);
void sh_arena_put(struct sh_arena *a);

/* A word as typed, quotes and all: it is expanded when it runs. */
struct sh_word {
	struct sh_word *next;
	char *text;
};

enum sh_redir_type {
	SH_R_IN,	/* <  */
	SH_R_OUT,	/* >, >| */
	SH_R_APPEND,	/* >> */
	SH_R_RDWR,	/* <> */
	SH_R_DUP,	/* <&, >& */
	SH_R_HEREDOC,	/* <<, <<- */
};

struct sh_redir {
	struct sh_redir *next;
	enum sh_redir_type type;
	int fd;
	char *target;		/* a word; a here-document's delimiter */
	char *body;		/* a here-document's text */
	bool quoted;		/* <<'EOF': the body is not expanded */
	bool strip_tabs;	/* <<-EOF */
};

enum sh_node_type {
	SH_CMD,		/* assigns words redirs */
	SH_PIPE,	/* left | right */
	SH_AND,		/* left && right */
	SH_OR,		/* left || right */
	SH_NOT,		/* ! left */
	SH_SEQ,		/* left ; right */
	SH_BG,		/* left & */
	SH_IF,		/* if left; then right; else els; fi */
	SH_WHILE,	/* while left; do right; done */
	SH_UNTIL,	/* until left; do right; done */
	SH_FOR,		/* for name in words; do right; done */
	SH_CASE,	/* case words in items esac */
	SH_GROUP,	/* { left; } */
	SH_SUBSHELL,	/* ( left ) */
	SH_FUNC,	/* name() left */
};

struct sh_case_item {
	struct sh_case_item *next;
	struct sh_word *patterns;
	struct sh_node *body;
};

struct sh_node {
	enum sh_node_type type;
	struct sh_node *left, *right, *els;
	struct sh_word *words, *assigns;
	struct sh_redir *redirs;
	struct sh_case_item *items;
	char *name;
	bool for_in;		/* for NAME in ...: else "$@" */
	int lineno;
	struct sh_arena *arena;	/* a function's body keeps it alive */
};

/* --- sh_lex.c ---------------------------------------------------------- */

enum sh_token {
	T_EOF, T_NEWLINE, T_WORD, T_IO_NUMBER,
	T_AND_IF, T_OR_IF, T_DSEMI, T_SEMI, T_AMP, T_PIPE,
	T_LPAREN, T_RPAREN,
	T_LESS, T_GREAT, T_DGREAT, T_DLESS, T_DLESSDASH, T_LESSAND,
	T_GREATAND, T_LESSGREAT, T_CLOBBER,
};

/* Why a parse stopped short: -EINVAL with a message, or these. */
#define SH_INCOMPLETE	1	/* the text ends inside a command */

struct sh_lexer {
	const char *text;	/* all of it, NUL-terminated */
	size_t pos;
	int lineno;
	bool more;		/* more text may follow: end means incomplete */
	enum sh_token tok;	/* the token read ahead, if any */
	bool have_tok;
	char *word;		/* its text, for T_WORD and T_IO_NUMBER */
	bool word_quoted;	/* a quote or backslash was in it */
	struct sh_redir *heredocs[16];	/* bodies still to read */
	int nheredocs;
	struct sh_arena *arena;
	char error[96];
	int err;		/* 0, -EINVAL, -ENOMEM or SH_INCOMPLETE */
};

enum sh_token sh_peek(struct sh_lexer *lx);
void sh_next(struct sh_lexer *lx);
bool sh_lex_failed(struct sh_lexer *lx, int err, const char *fmt, ...);
const char *sh_token_text(const struct sh_lexer *lx);
size_t sh_scan_subst(const char *s, size_t i);

/* --- sh_parse.c -------------------------------------------------------- */

/*
 * The next complete command of text (one line's list, or a compound
 * command over several lines) from lx->pos on: 0 with *node (NULL at
 * the end of the text), or -EINVAL (lx->error says why), -ENOMEM, or
 * SH_INCOMPLETE when lx->more is set and the text stops mid-command.
 */
int sh_parse_command(struct sh_lexer *lx, struct sh_node **node);
void sh_lexer_init(struct sh_lexer *lx, const char *text, bool more,
		   struct sh_arena *arena);
bool sh_is_name(const char *s, size_t n);

/* --- sh_arith.c -------------------------------------------------------- */

/* A variable's value for $((...)): the caller's lookup and assignment. */
struct sh_arith_vars {
	const char *(*get)(void *ctx, const char *name);
	int (*set)(void *ctx, const char *name, long value);
	void *ctx;
};

/*
 * Evaluate expr as POSIX $((...)) with C's integer operators. Returns 0
 * and *value, or -EINVAL with *why ("division by zero", ...).
 */
int sh_arith(const char *expr, const struct sh_arith_vars *vars,
	     long *value, const char **why);

#endif
