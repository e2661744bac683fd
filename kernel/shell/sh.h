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
#include "shell.h"

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
	SH_BG,		/* left &, name: its text for `jobs` */
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
	struct sh_arena *arena;	/* the parse's: a function, a job hold it */
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
	size_t tok_start;	/* where the token read ahead begins */
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
char *sh_save_text(struct sh_lexer *lx, size_t from, size_t to);
size_t sh_scan_subst(const char *s, size_t i);

/* --- sh_parse.c -------------------------------------------------------- */

/*
 * The next complete command of text (one line's list, or a compound
 * command over several lines) from lx->pos on: 0 with *node (NULL at
 * the end of the text), or -EINVAL (lx->error says why), -ENOMEM, or
 * SH_INCOMPLETE when lx->more is set and the text stops mid-command.
 */
int sh_parse_command(struct sh_lexer *lx, struct sh_node **node);
/* All of the text's commands as one list (NULL if none). */
int sh_parse_program(struct sh_lexer *lx, struct sh_node **node);
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

/* --- the interpreter: sh_vars.c, sh_exec.c, sh_expand.c, sh_jobs.c ----- */

struct task;
struct file;
struct inode;

struct sh_var {
	struct sh_var *next;
	char *name;
	char *value;		/* NULL: `local x` made it, still unset */
	bool exported;
};

struct sh_func {
	struct sh_func *next;
	char *name;
	struct sh_node *body;	/* in body->arena, held by the function */
};

/* What `local` hid, put back when the function returns. */
struct sh_saved_var {
	struct sh_saved_var *next;
	char *name;
	char *value;		/* NULL: it was unset */
	bool exported;
};

#define SH_MAX_JOBS	16

struct sh_job {
	struct task *task;	/* NULL: the slot is free */
	int pid;
	char *text;		/* the command as typed */
};

/*
 * One shell: the interactive one, a script's, or a copy a subshell, a
 * pipeline stage, a command substitution or a background job gets (as
 * fork would give it). current->shell points at the one a task runs.
 */
struct sh_state {
	struct sh_var *vars;
	struct sh_func *funcs;
	char *arg0;		/* $0 */
	int argc;		/* $# */
	char **argv;		/* $1 ... */
	int status;		/* $? */
	int subst_status;	/* of the last $(...), for `x=$(cmd)` */
	int last_bg;		/* $! */
	int pid;		/* $$: the main shell's, in subshells too */
	bool opt_e, opt_x, opt_u;
	char *trap_exit, *trap_int;
	struct inode *cwd;
	int loops;		/* loop nesting, for break and continue */
	int breaks;		/* loops still to leave */
	bool continuing;	/* ... then continue the last one */
	bool returning;		/* return was run */
	bool exiting;		/* exit was run, or set -e stopped it */
	bool aborted;		/* an expansion failed: drop the line */
	bool interactive;
	int func_depth;
	int task_depth;		/* subshells between it and its script */
	int errexit_off;	/* inside a condition: set -e waits */
	struct sh_saved_var *locals;	/* the innermost call's */
	struct sh_job jobs[SH_MAX_JOBS];
};

struct sh_state *sh_current(void);

char *sh_strdup(const char *s);
char *sh_strndup(const char *s, size_t n);

const char *sh_getvar(struct sh_state *sh, const char *name);
int sh_setvar(struct sh_state *sh, const char *name, const char *value);
int sh_setvar_n(struct sh_state *sh, const char *name, size_t n,
		const char *value);
int sh_unsetvar(struct sh_state *sh, const char *name);
int sh_export(struct sh_state *sh, const char *name);
int sh_local(struct sh_state *sh, const char *name);
void sh_restore_locals(struct sh_state *sh, struct sh_saved_var *saved);
int sh_set_args(struct sh_state *sh, int argc, char **argv);
void sh_free_args(int argc, char **argv);
struct sh_func *sh_find_func(struct sh_state *sh, const char *name);
int sh_define_func(struct sh_state *sh, const char *name,
		   struct sh_node *body);
int sh_unset_func(struct sh_state *sh, const char *name);
struct sh_state *sh_state_new(void);
struct sh_state *sh_state_clone(const struct sh_state *parent);
void sh_state_free(struct sh_state *sh);

/* A growing array of strings: argv for a command, fields of a word. */
struct sh_argv {
	int argc, cap;
	char **argv;		/* NULL-terminated */
};

int sh_argv_add(struct sh_argv *a, char *s);
void sh_argv_free(struct sh_argv *a);

/*
 * Expansions (sh_expand.c): sh_expand_fields does all of them and
 * splits and globs into out; sh_expand_word gives one string (a
 * redirection's file, an assignment's value, case's word); with
 * as_pattern, quoted pattern characters keep a backslash for
 * glob_match. All return 0, or 1 with the error already said.
 */
int sh_expand_fields(struct sh_state *sh, const struct sh_word *words,
		     struct sh_argv *out);
int sh_expand_word(struct sh_state *sh, const char *text, bool as_pattern,
		   char **out);
int sh_expand_heredoc(struct sh_state *sh, const char *body, char **out);

/* sh_exec.c */
int sh_run(struct sh_state *sh, struct sh_node *n);
int sh_eval_string(struct sh_state *sh, const char *text);
int sh_run_argv(struct sh_state *sh, int argc, char **argv);
int sh_run_in_task(struct sh_state *sh, struct sh_node *n, const char *name,
		   struct file *files[3], int *status);
struct task *sh_fork(struct sh_state *sh, struct sh_node *n,
		     struct file *files[3]);
void sh_inherit_files(struct file *files[3]);
int sh_wait(struct task *t);
int sh_task_status(struct sh_state *sh, int status);
int sh_command_subst(struct sh_state *sh, const char *text, char **out);
int sh_run_exit_trap(struct sh_state *sh);
bool sh_check_interrupt(struct sh_state *sh);
void sh_close_files(struct file *files[3]);

/* sh_script.c: scripts by name, `sh FILE`, `sh -c` */
char *sh_find_program(struct sh_state *sh, const char *name);
int sh_print_command_path(struct shell_out *out, const char *name,
			  bool functions);
int sh_run_script_file(const char *path, int argc, char **argv);

/* sh_jobs.c */
int sh_job_start(struct sh_state *sh, struct sh_node *n, const char *text);
int sh_job_wait(struct sh_state *sh, struct sh_job *job);
void sh_jobs_reap(struct sh_state *sh, bool report);

#endif
