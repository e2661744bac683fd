/*
 * awk.c: a small awk, as POSIX awk reads and runs a program (IEEE Std
 * 1003.1, awk), for what people do to trace output: pick lines by a
 * pattern, pick fields, count and sum. The program is tokenized and
 * parsed into a tree, and the tree walked for BEGIN, each line and
 * END. Strings a line makes live in an arena emptied after the line;
 * a variable owns a copy of its string. Numbers are longs.
 */
#include "kernel.h"
#include "string.h"
#include "ctype.h"
#include "mm.h"
#include "printf.h"
#include "regex.h"
#include "awk.h"

#define MAX_VARS	64
/*
 * The parser and the interpreter recurse, on a kernel thread's stack:
 * the parser's nesting is counted (a parenthesis or a block costs a
 * dozen calls, so it weighs more) and so is the tree's depth, which a
 * long chain like a+b+c+... makes without nesting.
 */
#define AWK_NEST_MAX	40
#define GROUP_WEIGHT	4
#define AWK_DEPTH_MAX	24

/* --- values ------------------------------------------------------------- */

enum { V_NUM, V_STR, V_STRNUM };	/* V_STRNUM: input, numeric if it looks so */

struct aval {
	int kind;
	long num;
	const char *str;
};

struct var {
	char name[32];
	struct aval val;	/* val.str is kmalloc'd, owned */
};

/* --- the tree ----------------------------------------------------------- */

enum awk_node_type {
	A_NUM, A_STR, A_ERE, A_VAR, A_FIELD, A_ASSIGN, A_OR, A_AND, A_NOT,
	A_NEG, A_MATCH, A_CMP, A_CAT, A_ARITH, A_INCR, A_LENGTH,
	S_PRINT, S_PRINTF, S_IF, S_WHILE, S_FOR, S_BLOCK, S_NEXT, S_EXPR,
};

struct awk_node {
	enum awk_node_type type;
	int op;			/* the operator's character(s), or the var */
	bool post;		/* A_INCR: i++ rather than ++i */
	struct awk_node *a, *b, *c, *d;
	struct awk_node *next;	/* in a list: statements, print's arguments */
	struct awk_node *all;	/* every node, to free them */
	long num;
	char *str;
	struct regex *re;
	int depth;		/* of the tree below it */
};

enum item_kind { ITEM_BEGIN, ITEM_MAIN, ITEM_END };

struct item {
	enum item_kind kind;
	struct awk_node *pattern;	/* NULL: every line */
	struct awk_node *action;	/* NULL: print $0 */
	struct item *next;
};

/* --- the interpreter's state -------------------------------------------- */

struct awk {
	struct item *items;
	struct awk_node *nodes;
	struct var vars[MAX_VARS];
	int nvars, nr_var, nf_var, fs_var, ofs_var;
	char **arena;		/* the strings of this line */
	int narena, arena_cap;
	const char **fields;	/* $1..$NF */
	int nfields, fields_cap;
	const char *record;
	bool next, failed;
	const char *error;
	void (*print)(void *ctx, const char *text, size_t len);
	void *ctx;
	bool (*stop)(void);	/* Ctrl-C: leave a loop */
	/* the parser's */
	const char *p;
	int tok, depth;
	long tok_num;
	char *tok_str;
	bool operand;		/* the last token ends an operand: '/' divides */
};

/* --- memory ------------------------------------------------------------- */

/* Room in the arena's list for one more string. */
static bool arena_reserve(struct awk *a)
{
	char **v;

	if (a->narena < a->arena_cap)
		return true;
	v = kmalloc((a->arena_cap ? 2 * a->arena_cap : 32) * sizeof(*v));
	if (!v) {
		a->failed = true;
		return false;
	}
	if (a->arena)
		memcpy(v, a->arena, a->narena * sizeof(*v));
	kfree(a->arena);
	a->arena = v;
	a->arena_cap = a->arena_cap ? 2 * a->arena_cap : 32;
	return true;
}

static char *arena_alloc(struct awk *a, size_t len)
{
	char *s;

	if (!arena_reserve(a))
		return NULL;
	s = kmalloc(len + 1);
	if (!s) {
		a->failed = true;
		return NULL;
	}
	a->arena[a->narena++] = s;
	return s;
}

static void arena_reset(struct awk *a)
{
	while (a->narena)
		kfree(a->arena[--a->narena]);
}

static const char *arena_copy(struct awk *a, const char *s, size_t len)
{
	char *c = arena_alloc(a, len);

	if (!c)
		return "";
	memcpy(c, s, len);
	c[len] = 0;
	return c;
}

/* --- conversions -------------------------------------------------------- */

/* Integers wrap around, as the machine's do (C leaves overflow undefined). */
static long wrap(unsigned long n)
{
	return (long)n;
}

static long str_to_num(const char *s)
{
	unsigned long n = 0;
	bool negative = false;

	while (isspace(*s))
		s++;
	if (*s == '-' || *s == '+')
		negative = *s++ == '-';
	while (isdigit(*s))
		n = n * 10 + (*s++ - '0');
	return wrap(negative ? -n : n);
}

static bool looks_numeric(const char *s)
{
	while (isspace(*s))
		s++;
	s += *s == '-' || *s == '+';
	if (!isdigit(*s))
		return false;
	while (isdigit(*s))
		s++;
	while (isspace(*s))
		s++;
	return !*s;
}

static long to_num(const struct aval *v)
{
	return v->kind == V_NUM ? v->num : str_to_num(v->str);
}

static noinline const char *to_str(struct awk *a, const struct aval *v)
{
	char buf[24];

	if (v->kind != V_NUM)
		return v->str;
	return arena_copy(a, buf, snprintf(buf, sizeof(buf), "%ld", v->num));
}

static struct aval num_val(long n)
{
	return (struct aval){ V_NUM, n, NULL };
}

static struct aval str_val(const char *s)
{
	return (struct aval){ V_STR, 0, s };
}

static bool is_numeric(const struct aval *v)
{
	return v->kind == V_NUM || (v->kind == V_STRNUM && looks_numeric(v->str));
}

static bool truth(const struct aval *v)
{
	if (is_numeric(v))
		return to_num(v) != 0;
	return v->str[0];
}

/* --- variables ---------------------------------------------------------- */

static int find_var(struct awk *a, const char *name)
{
	int i;

	for (i = 0; i < a->nvars; i++)
		if (!strcmp(a->vars[i].name, name))
			return i;
	if (a->nvars == MAX_VARS || strlen(name) >= sizeof(a->vars[0].name))
		return -1;
	memcpy(a->vars[a->nvars].name, name, strlen(name) + 1);
	a->vars[a->nvars].val = (struct aval){ V_STRNUM, 0, "" };
	return a->nvars++;
}

/*
 * The old string goes to the arena, not away: a value read from the
 * variable earlier in the expression (x x++) may still point at it.
 */
static void set_var(struct awk *a, int i, struct aval v)
{
	struct var *var = &a->vars[i];
	char *copy = NULL;

	if (!arena_reserve(a))
		return;
	if (v.kind != V_NUM && v.str[0]) {	/* "" needs no copy */
		copy = kmalloc(strlen(v.str) + 1);
		if (!copy) {
			a->failed = true;
			return;
		}
		memcpy(copy, v.str, strlen(v.str) + 1);
	}
	if (var->val.kind != V_NUM && var->val.str[0])
		a->arena[a->narena++] = (char *)var->val.str;
	var->val = v;
	var->val.str = copy ? copy : "";
}

/* --- the lexer ---------------------------------------------------------- */

enum {
	TOK_EOF = 256, TOK_NEWLINE, TOK_NUM, TOK_STR, TOK_ERE, TOK_NAME, TOK_BEGIN, TOK_END,
	TOK_PRINT, TOK_PRINTF, TOK_IF, TOK_ELSE, TOK_WHILE, TOK_FOR, TOK_NEXT, TOK_LENGTH,
	TOK_LE, TOK_GE, TOK_EQ, TOK_NE, TOK_AND, TOK_OR, TOK_NOMATCH, TOK_INCR, TOK_DECR,
	TOK_ADD_ASSIGN, TOK_SUB_ASSIGN, TOK_MUL_ASSIGN, TOK_DIV_ASSIGN, TOK_MOD_ASSIGN,
	TOK_ERROR,
};

static const struct { const char *word; int tok; } keywords[] = {
	{ "BEGIN", TOK_BEGIN }, { "END", TOK_END }, { "print", TOK_PRINT },
	{ "printf", TOK_PRINTF }, { "if", TOK_IF }, { "else", TOK_ELSE },
	{ "while", TOK_WHILE }, { "for", TOK_FOR }, { "next", TOK_NEXT },
	{ "length", TOK_LENGTH },
};

static const struct { const char *op; int tok; } operators[] = {
	{ "<=", TOK_LE }, { ">=", TOK_GE }, { "==", TOK_EQ }, { "!=", TOK_NE },
	{ "&&", TOK_AND }, { "||", TOK_OR }, { "!~", TOK_NOMATCH }, { "++", TOK_INCR },
	{ "--", TOK_DECR }, { "+=", TOK_ADD_ASSIGN }, { "-=", TOK_SUB_ASSIGN },
	{ "*=", TOK_MUL_ASSIGN }, { "/=", TOK_DIV_ASSIGN }, { "%=", TOK_MOD_ASSIGN },
};

/* A string or an ERE up to its closing quote or slash, escapes read. */
static int lex_quoted(struct awk *a, char close, int tok)
{
	const char *p = a->p;
	char *w = a->tok_str = kmalloc(strlen(p) + 1);

	if (!w) {
		a->failed = true;
		return TOK_ERROR;
	}
	for (; *p && *p != close && *p != '\n'; p++) {
		if (*p != '\\' || !p[1]) {
			*w++ = *p;
		} else if (tok == TOK_ERE && p[1] != '/') {
			*w++ = *p++;	/* the regex reads its own escapes */
			*w++ = *p;
		} else {
			p++;
			*w++ = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
		}
	}
	*w = 0;
	if (*p != close) {
		kfree(a->tok_str);
		a->tok_str = NULL;
		return TOK_ERROR;
	}
	a->p = p + 1;
	return tok;
}

static int lex_word(struct awk *a)
{
	const char *start = a->p;
	size_t i, len;

	while (isalnum(*a->p) || *a->p == '_')
		a->p++;
	len = a->p - start;
	for (i = 0; i < ARRAY_SIZE(keywords); i++)
		if (strlen(keywords[i].word) == len &&
		    !strncmp(keywords[i].word, start, len))
			return keywords[i].tok;
	a->tok_str = kmalloc(len + 1);
	if (!a->tok_str) {
		a->failed = true;
		return TOK_ERROR;
	}
	memcpy(a->tok_str, start, len);
	a->tok_str[len] = 0;
	return TOK_NAME;
}

static int lex(struct awk *a)
{
	size_t i;

	while (*a->p == ' ' || *a->p == '\t' || (*a->p == '\\' && a->p[1] == '\n'))
		a->p += *a->p == '\\' ? 2 : 1;
	if (*a->p == '#')
		while (*a->p && *a->p != '\n')
			a->p++;
	if (!*a->p)
		return TOK_EOF;
	if (*a->p == '\n') {
		a->p++;
		return TOK_NEWLINE;
	}
	if (isdigit(*a->p)) {
		a->tok_num = str_to_num(a->p);
		while (isdigit(*a->p))
			a->p++;
		return TOK_NUM;
	}
	if (isalpha(*a->p) || *a->p == '_')
		return lex_word(a);
	if (*a->p == '"' || (*a->p == '/' && !a->operand)) {
		a->p++;
		return lex_quoted(a, a->p[-1], a->p[-1] == '"' ? TOK_STR : TOK_ERE);
	}
	for (i = 0; i < ARRAY_SIZE(operators); i++)
		if (!strncmp(a->p, operators[i].op, 2)) {
			a->p += 2;
			return operators[i].tok;
		}
	return (u8)*a->p++;
}

static void awk_next_token(struct awk *a)
{
	kfree(a->tok_str);
	a->tok_str = NULL;
	a->tok = lex(a);
	a->operand = a->tok == TOK_NUM || a->tok == TOK_STR || a->tok == TOK_ERE ||
		     a->tok == TOK_NAME || a->tok == ')' || a->tok == TOK_INCR ||
		     a->tok == TOK_DECR || a->tok == TOK_LENGTH;
}

/* --- the parser --------------------------------------------------------- */

static struct awk_node *syntax_error(struct awk *a)
{
	if (!a->error)
		a->error = a->failed ? "out of memory" :
			   a->tok == TOK_ERROR ? "unterminated string" :
			   "syntax error";
	return NULL;
}

/* n holds child: n is deeper than it, and no deeper than allowed. */
static void deepen(struct awk *a, struct awk_node *n, struct awk_node *child)
{
	n->depth = max(n->depth, child ? child->depth + 1 : 1);
	if (n->depth > AWK_DEPTH_MAX && !a->error)
		a->error = "program too deeply nested";
}

static struct awk_node *awk_node(struct awk *a, enum awk_node_type type,
			     struct awk_node *x, struct awk_node *y)
{
	struct awk_node *n;

	if (a->error)
		return NULL;
	n = kzalloc(sizeof(*n));
	if (!n) {
		a->failed = true;
		return syntax_error(a);
	}
	n->type = type;
	n->a = x;
	n->b = y;
	n->all = a->nodes;
	a->nodes = n;
	deepen(a, n, x);
	deepen(a, n, y);
	return n;
}

/* One level deeper into the parser's recursion; false when too deep. */
static bool enter(struct awk *a, int weight)
{
	a->depth += weight;
	if (a->depth <= AWK_NEST_MAX)
		return true;
	a->error = a->error ?: "program too deeply nested";
	return false;
}

static bool accept(struct awk *a, int tok)
{
	if (a->tok != tok)
		return false;
	awk_next_token(a);
	return true;
}

static bool expect(struct awk *a, int tok)
{
	if (accept(a, tok))
		return true;
	syntax_error(a);
	return false;
}

static void skip_newlines(struct awk *a)
{
	while (a->tok == TOK_NEWLINE || a->tok == ';')
		awk_next_token(a);
}

static void skip_line_ends(struct awk *a)
{
	while (a->tok == TOK_NEWLINE)
		awk_next_token(a);
}

static struct awk_node *expr(struct awk *a);

static struct awk_node *ere_node(struct awk *a)
{
	struct awk_node *n = awk_node(a, A_ERE, NULL, NULL);

	if (!n)
		return NULL;
	n->re = kzalloc(sizeof(*n->re));
	if (!n->re || regex_compile(n->re, a->tok_str, REGEX_EXTENDED)) {
		kfree(n->re);
		n->re = NULL;
		a->error = "bad regex";
		return NULL;
	}
	awk_next_token(a);
	return n;
}

static struct awk_node *primary(struct awk *a);

static struct awk_node *grouped(struct awk *a)
{
	struct awk_node *n;

	if (!enter(a, GROUP_WEIGHT))
		return NULL;
	skip_line_ends(a);
	n = expr(a);
	a->depth -= GROUP_WEIGHT;
	return expect(a, ')') ? n : NULL;
}

static struct awk_node *var_node(struct awk *a)
{
	struct awk_node *n = awk_node(a, A_VAR, NULL, NULL);
	int v = find_var(a, a->tok_str);

	if (!n || v < 0) {
		a->error = a->error ?: "too many variables";
		return NULL;
	}
	n->op = v;
	awk_next_token(a);
	return n;
}

static struct awk_node *length_node(struct awk *a)
{
	struct awk_node *n = awk_node(a, A_LENGTH, NULL, NULL);

	awk_next_token(a);
	if (n && accept(a, '(') && !accept(a, ')'))
		n->a = grouped(a);
	return a->error ? NULL : n;
}

static bool is_lvalue(const struct awk_node *n)
{
	return n && (n->type == A_VAR || n->type == A_FIELD);
}

static struct awk_node *incr_node(struct awk *a, struct awk_node *lv, int op,
			      bool post)
{
	struct awk_node *n;

	if (!is_lvalue(lv))
		return syntax_error(a);
	n = awk_node(a, A_INCR, lv, NULL);
	if (n) {
		n->op = op == TOK_INCR ? 1 : -1;
		n->post = post;
	}
	return n;
}

static struct awk_node *operand(struct awk *a);

static struct awk_node *primary(struct awk *a)
{
	struct awk_node *n;

	if (!enter(a, 1))
		return NULL;
	n = operand(a);
	a->depth--;
	return n;
}

static struct awk_node *operand(struct awk *a)
{
	struct awk_node *n;
	int op;

	switch (a->tok) {
	case TOK_NUM:
		n = awk_node(a, A_NUM, NULL, NULL);
		if (n)
			n->num = a->tok_num;
		awk_next_token(a);
		return n;
	case TOK_STR:
		n = awk_node(a, A_STR, NULL, NULL);
		if (n) {
			n->str = a->tok_str;
			a->tok_str = NULL;
		}
		awk_next_token(a);
		return n;
	case TOK_ERE:
		return ere_node(a);
	case '$':
		awk_next_token(a);
		return awk_node(a, A_FIELD, primary(a), NULL);
	case '(':
		awk_next_token(a);
		return grouped(a);
	case TOK_LENGTH:
		return length_node(a);
	case TOK_INCR:
	case TOK_DECR:
		op = a->tok;
		awk_next_token(a);
		return incr_node(a, primary(a), op, false);
	case TOK_NAME:
		n = var_node(a);
		if (n && (a->tok == TOK_INCR || a->tok == TOK_DECR)) {
			op = a->tok;
			awk_next_token(a);
			return incr_node(a, n, op, true);
		}
		return n;
	}
	return syntax_error(a);
}

static struct awk_node *unary(struct awk *a)
{
	struct awk_node *n;

	if (!enter(a, 1))
		return NULL;
	if (accept(a, '!'))
		n = awk_node(a, A_NOT, unary(a), NULL);
	else if (accept(a, '-'))
		n = awk_node(a, A_NEG, unary(a), NULL);
	else if (accept(a, '+'))
		n = unary(a);
	else
		n = primary(a);
	a->depth--;
	return n;
}

static struct awk_node *binary(struct awk *a, enum awk_node_type type, int op,
			   struct awk_node *x, struct awk_node *y)
{
	struct awk_node *n = x && y ? awk_node(a, type, x, y) : NULL;

	if (n)
		n->op = op;
	return n;
}

static struct awk_node *multiplicative(struct awk *a)
{
	struct awk_node *n = unary(a);
	int op;

	while (n && (a->tok == '*' || a->tok == '/' || a->tok == '%')) {
		op = a->tok;
		awk_next_token(a);
		n = binary(a, A_ARITH, op, n, unary(a));
	}
	return n;
}

static struct awk_node *additive(struct awk *a)
{
	struct awk_node *n = multiplicative(a);
	int op;

	while (n && (a->tok == '+' || a->tok == '-')) {
		op = a->tok;
		awk_next_token(a);
		n = binary(a, A_ARITH, op, n, multiplicative(a));
	}
	return n;
}

/* Two operands side by side: what can start one. */
static bool starts_operand(int tok)
{
	return tok == TOK_NUM || tok == TOK_STR || tok == TOK_ERE || tok == TOK_NAME ||
	       tok == '$' || tok == '(' || tok == '!' || tok == TOK_LENGTH ||
	       tok == TOK_INCR || tok == TOK_DECR || tok == '-';
}

static struct awk_node *concatenation(struct awk *a)
{
	struct awk_node *n = additive(a);

	while (n && starts_operand(a->tok) && a->tok != '-')
		n = binary(a, A_CAT, 0, n, additive(a));
	return n;
}

static struct awk_node *comparison(struct awk *a, bool in_print)
{
	static const int ops[] = { '<', TOK_LE, TOK_NE, TOK_EQ, '>', TOK_GE };
	struct awk_node *n = concatenation(a);
	size_t i;

	for (i = 0; n && i < ARRAY_SIZE(ops); i++) {
		if (a->tok != ops[i] || (in_print && ops[i] == '>'))
			continue;
		awk_next_token(a);
		return binary(a, A_CMP, ops[i], n, concatenation(a));
	}
	return n;
}

static struct awk_node *matching(struct awk *a, bool in_print)
{
	struct awk_node *n = comparison(a, in_print);
	int op;

	while (n && (a->tok == '~' || a->tok == TOK_NOMATCH)) {
		op = a->tok;
		awk_next_token(a);
		n = binary(a, A_MATCH, op, n, comparison(a, in_print));
	}
	return n;
}

static struct awk_node *logical_and(struct awk *a, bool in_print)
{
	struct awk_node *n = matching(a, in_print);

	while (n && accept(a, TOK_AND)) {
		skip_line_ends(a);
		n = binary(a, A_AND, 0, n, matching(a, in_print));
	}
	return n;
}

static struct awk_node *logical_or(struct awk *a, bool in_print)
{
	struct awk_node *n = logical_and(a, in_print);

	while (n && accept(a, TOK_OR)) {
		skip_line_ends(a);
		n = binary(a, A_OR, 0, n, logical_and(a, in_print));
	}
	return n;
}

static int assign_op(int tok)
{
	switch (tok) {
	case '=': return '=';
	case TOK_ADD_ASSIGN: return '+';
	case TOK_SUB_ASSIGN: return '-';
	case TOK_MUL_ASSIGN: return '*';
	case TOK_DIV_ASSIGN: return '/';
	case TOK_MOD_ASSIGN: return '%';
	}
	return 0;
}

static struct awk_node *assignment(struct awk *a, bool in_print)
{
	struct awk_node *n = logical_or(a, in_print);
	int op = assign_op(a->tok);

	if (!n || !op)
		return n;
	if (!is_lvalue(n))
		return syntax_error(a);
	awk_next_token(a);
	if (!enter(a, 1))
		return NULL;
	n = binary(a, A_ASSIGN, op, n, assignment(a, in_print));
	a->depth--;
	return n;
}

static struct awk_node *expr(struct awk *a)
{
	return assignment(a, false);
}

/* print's arguments: a > would redirect there, so it is no comparison. */
static struct awk_node *expr_list(struct awk *a)
{
	struct awk_node *head = NULL, **tail = &head;

	if (a->tok == ';' || a->tok == TOK_NEWLINE || a->tok == '}' ||
	    a->tok == TOK_EOF)
		return NULL;
	do {
		skip_line_ends(a);
		*tail = assignment(a, true);
		if (!*tail)
			return NULL;
		tail = &(*tail)->next;
	} while (accept(a, ','));
	return head;
}

static struct awk_node *statement(struct awk *a);

static struct awk_node *block(struct awk *a)
{
	struct awk_node *n = awk_node(a, S_BLOCK, NULL, NULL), **tail;

	if (!n || !expect(a, '{') || !enter(a, GROUP_WEIGHT))
		return NULL;
	tail = &n->a;
	for (skip_newlines(a); !a->error && a->tok != '}'; skip_newlines(a)) {
		*tail = statement(a);
		if (!*tail)
			return syntax_error(a);
		deepen(a, n, *tail);
		tail = &(*tail)->next;
	}
	a->depth -= GROUP_WEIGHT;
	return expect(a, '}') ? n : NULL;
}

static struct awk_node *condition(struct awk *a)
{
	struct awk_node *n;

	if (!expect(a, '('))
		return NULL;
	n = expr(a);
	if (!expect(a, ')'))
		return NULL;
	skip_line_ends(a);
	return n;
}

static struct awk_node *if_statement(struct awk *a)
{
	struct awk_node *n = awk_node(a, S_IF, condition(a), NULL);

	if (!n || !n->a || !(n->b = statement(a)))
		return syntax_error(a);
	deepen(a, n, n->b);
	skip_newlines(a);
	if (accept(a, TOK_ELSE)) {
		skip_line_ends(a);
		n->c = statement(a);
		if (!n->c)
			return NULL;
		deepen(a, n, n->c);
	}
	return n;
}

static struct awk_node *for_statement(struct awk *a)
{
	struct awk_node *n = awk_node(a, S_FOR, NULL, NULL);

	if (!n || !expect(a, '('))
		return NULL;
	if (a->tok != ';')
		n->a = expr(a);
	if (!expect(a, ';'))
		return NULL;
	if (a->tok != ';')
		n->b = expr(a);
	if (!expect(a, ';'))
		return NULL;
	if (a->tok != ')')
		n->c = expr(a);
	if (!expect(a, ')'))
		return NULL;
	skip_line_ends(a);
	n->d = statement(a);
	if (!n->d)
		return NULL;
	deepen(a, n, n->a);
	deepen(a, n, n->b);
	deepen(a, n, n->c);
	deepen(a, n, n->d);
	return n;
}

static struct awk_node *simple_statement(struct awk *a)
{
	struct awk_node *n;

	if (accept(a, TOK_PRINT)) {
		n = awk_node(a, S_PRINT, NULL, NULL);
		if (n)
			n->a = expr_list(a);
	} else if (accept(a, TOK_PRINTF)) {
		n = awk_node(a, S_PRINTF, NULL, NULL);
		if (n && !(n->a = expr_list(a)))
			return syntax_error(a);
	} else if (accept(a, TOK_NEXT)) {
		n = awk_node(a, S_NEXT, NULL, NULL);
	} else {
		n = awk_node(a, S_EXPR, expr(a), NULL);
		if (n && !n->a)
			return NULL;
	}
	if (a->error)
		return NULL;
	if (a->tok != '}' && a->tok != TOK_EOF && !accept(a, ';') &&
	    !accept(a, TOK_NEWLINE))
		return syntax_error(a);
	return n;
}

static struct awk_node *while_statement(struct awk *a)
{
	struct awk_node *n = awk_node(a, S_WHILE, condition(a), NULL);

	if (!n || !n->a || !(n->b = statement(a)))
		return syntax_error(a);
	deepen(a, n, n->b);
	return n;
}

static struct awk_node *statement(struct awk *a)
{
	struct awk_node *n;

	if (!enter(a, 2))
		return NULL;
	if (a->tok == '{')
		n = block(a);
	else if (accept(a, TOK_IF))
		n = if_statement(a);
	else if (accept(a, TOK_WHILE))
		n = while_statement(a);
	else if (accept(a, TOK_FOR))
		n = for_statement(a);
	else
		n = simple_statement(a);
	a->depth -= 2;
	return a->error ? NULL : n;
}

static struct item *parse_item(struct awk *a)
{
	struct item *it = kzalloc(sizeof(*it));

	if (!it) {
		a->failed = true;
		syntax_error(a);
		return NULL;
	}
	it->kind = ITEM_MAIN;
	if (accept(a, TOK_BEGIN))
		it->kind = ITEM_BEGIN;
	else if (accept(a, TOK_END))
		it->kind = ITEM_END;
	else if (a->tok != '{')
		it->pattern = expr(a);
	if (a->tok == '{' || it->kind != ITEM_MAIN)
		it->action = block(a);
	if (a->error || (it->kind == ITEM_MAIN && !it->pattern && !it->action)) {
		syntax_error(a);
		kfree(it);
		return NULL;
	}
	return it;
}

/* --- running ------------------------------------------------------------ */

static struct aval eval(struct awk *a, struct awk_node *n);

static noinline struct aval field(struct awk *a, long i)
{
	if (i == 0)
		return (struct aval){ V_STRNUM, 0, a->record };
	if (i < 0 || i > a->nfields)
		return (struct aval){ V_STRNUM, 0, "" };
	return (struct aval){ V_STRNUM, 0, a->fields[i - 1] };
}

static bool add_field(struct awk *a, const char *s, size_t len)
{
	const char **v;

	if (a->nfields == a->fields_cap) {
		v = kmalloc((a->fields_cap ? 2 * a->fields_cap : 16) * sizeof(*v));
		if (!v) {
			a->failed = true;
			return false;
		}
		if (a->fields)
			memcpy(v, a->fields, a->nfields * sizeof(*v));
		kfree(a->fields);
		a->fields = v;
		a->fields_cap = a->fields_cap ? 2 * a->fields_cap : 16;
	}
	a->fields[a->nfields++] = arena_copy(a, s, len);
	return true;
}

/* FS " " splits at runs of blanks, leading ones ignored; else at FS's byte. */
static void split_record(struct awk *a)
{
	const char *fs = to_str(a, &a->vars[a->fs_var].val), *s = a->record;
	const char *start;

	a->nfields = 0;
	if (!strcmp(fs, " ")) {
		for (;;) {
			while (isspace(*s))
				s++;
			if (!*s)
				break;
			for (start = s; *s && !isspace(*s); s++)
				;
			if (!add_field(a, start, s - start))
				break;
		}
	} else if (*s) {
		for (start = s;; s++) {
			if (*s && *s != fs[0])
				continue;
			if (!add_field(a, start, s - start) || !*s)
				break;
			start = s + 1;
		}
	}
	set_var(a, a->nf_var, num_val(a->nfields));
}

/* To a variable, or to $0, which splits again. */
static noinline void assign(struct awk *a, struct awk_node *lv, struct aval v)
{
	struct aval i;
	const char *s;

	if (lv->type == A_VAR) {
		set_var(a, lv->op, v);
		return;
	}
	i = eval(a, lv->a);
	if (to_num(&i)) {
		a->error = "only $0 can be assigned";
		return;
	}
	s = to_str(a, &v);
	a->record = arena_copy(a, s, strlen(s));
	split_record(a);
}

static noinline struct aval arith(struct awk *a, int op, long x, long y)
{
	unsigned long ux = x, uy = y;

	switch (op) {
	case '+': return num_val(wrap(ux + uy));
	case '-': return num_val(wrap(ux - uy));
	case '*': return num_val(wrap(ux * uy));
	}
	if (!y) {
		a->error = "division by zero";
		return num_val(0);
	}
	if (y == -1)	/* LONG_MIN / -1 overflows */
		return num_val(op == '/' ? wrap(-ux) : 0);
	return num_val(op == '/' ? x / y : x % y);
}

static noinline int compare(struct awk *a, struct aval *x, struct aval *y)
{
	long i, j;

	if (is_numeric(x) && is_numeric(y)) {
		i = to_num(x);
		j = to_num(y);
		return i < j ? -1 : i > j;
	}
	return strcmp(to_str(a, x), to_str(a, y));
}

static bool compared(int op, int c)
{
	switch (op) {
	case '<': return c < 0;
	case TOK_LE: return c <= 0;
	case TOK_EQ: return c == 0;
	case TOK_NE: return c != 0;
	case '>': return c > 0;
	}
	return c >= 0;
}

/* s ~ re, where re is an ERE literal or any value, read as an ERE. */
static noinline bool matches(struct awk *a, const char *s, struct awk_node *re_node)
{
	struct regex_match m;
	struct regex re;
	struct aval v;
	int err;

	if (re_node->type == A_ERE)
		return !regex_exec(re_node->re, s, strlen(s), 1, &m, 0);
	v = eval(a, re_node);
	err = regex_compile(&re, to_str(a, &v), REGEX_EXTENDED);
	if (err) {
		a->error = "bad regex";
		return false;
	}
	err = regex_exec(&re, s, strlen(s), 1, &m, 0);
	regex_free(&re);
	return !err;
}

static noinline const char *concat(struct awk *a, const char *x, const char *y)
{
	size_t lx = strlen(x), ly = strlen(y);
	char *s = arena_alloc(a, lx + ly);

	if (!s)
		return "";
	memcpy(s, x, lx);
	memcpy(s + lx, y, ly + 1);
	return s;
}

/*
 * The tree's value. It recurses as deep as the tree, so what it calls
 * that needs room (a regex, a number's text) is kept out of line.
 */
static struct aval eval(struct awk *a, struct awk_node *n)
{
	struct aval x, y;
	long old;

	if (a->error || a->failed)
		return num_val(0);
	switch (n->type) {
	case A_NUM:
		return num_val(n->num);
	case A_STR:
		return str_val(n->str);
	case A_ERE:
		return num_val(matches(a, a->record, n));
	case A_VAR:
		return a->vars[n->op].val;
	case A_FIELD:
		x = eval(a, n->a);
		return field(a, to_num(&x));
	case A_ASSIGN:
		y = eval(a, n->b);
		if (n->op != '=') {
			x = eval(a, n->a);
			y = arith(a, n->op, to_num(&x), to_num(&y));
		}
		assign(a, n->a, y);
		return y;
	case A_INCR:
		x = eval(a, n->a);
		old = to_num(&x);
		x = num_val(wrap((unsigned long)old + n->op));
		assign(a, n->a, x);
		return n->post ? num_val(old) : x;
	case A_OR:
		x = eval(a, n->a);
		return num_val(truth(&x) || (y = eval(a, n->b), truth(&y)));
	case A_AND:
		x = eval(a, n->a);
		return num_val(truth(&x) && (y = eval(a, n->b), truth(&y)));
	case A_NOT:
		x = eval(a, n->a);
		return num_val(!truth(&x));
	case A_NEG:
		x = eval(a, n->a);
		return num_val(wrap(-(unsigned long)to_num(&x)));
	case A_MATCH:
		x = eval(a, n->a);
		return num_val(matches(a, to_str(a, &x), n->b) == (n->op == '~'));
	case A_CMP:
		x = eval(a, n->a);
		y = eval(a, n->b);
		return num_val(compared(n->op, compare(a, &x, &y)));
	case A_CAT:
		x = eval(a, n->a);
		y = eval(a, n->b);
		return str_val(concat(a, to_str(a, &x), to_str(a, &y)));
	case A_ARITH:
		x = eval(a, n->a);
		y = eval(a, n->b);
		return arith(a, n->op, to_num(&x), to_num(&y));
	case A_LENGTH:
		x = n->a ? eval(a, n->a) : field(a, 0);
		return num_val(strlen(to_str(a, &x)));
	default:
		return num_val(0);
	}
}

static void awk_emit(struct awk *a, const char *s, size_t len)
{
	a->print(a->ctx, s, len);
}

static noinline void do_print(struct awk *a, struct awk_node *args)
{
	const char *ofs = to_str(a, &a->vars[a->ofs_var].val), *out = "";
	struct aval v;

	if (!args)
		out = a->record;
	for (; args && !a->error; args = args->next) {
		v = eval(a, args);
		out = concat(a, out, to_str(a, &v));
		if (args->next)
			out = concat(a, out, ofs);
	}
	out = concat(a, out, "\n");
	if (!a->error && !a->failed)
		awk_emit(a, out, strlen(out));
}

/* One % conversion of printf: through snprintf with a long or a string. */
static const char *convert(struct awk *a, const char **f, struct awk_node **arg)
{
	char spec[16] = "%", buf[64], conv, *out;
	const char *s = "";
	size_t n = 1;
	struct aval v = str_val("");

	while (n < sizeof(spec) - 3 && strchr("-+ #0123456789.", **f))
		spec[n++] = *(*f)++;
	conv = *(*f)++;
	if (conv == '%' || !conv) {
		*f -= !conv;
		return "%";
	}
	if (*arg) {
		v = eval(a, *arg);
		*arg = (*arg)->next;
	}
	if (strchr("diouxX", conv)) {
		spec[n++] = 'l';
		spec[n++] = conv == 'i' ? 'd' : conv;
		spec[n] = 0;
		snprintf(buf, sizeof(buf), spec, to_num(&v));
		return arena_copy(a, buf, strlen(buf));
	}
	if (conv == 'c') {
		buf[0] = is_numeric(&v) ? (char)to_num(&v) : to_str(a, &v)[0];
		return arena_copy(a, buf, 1);
	}
	s = to_str(a, &v);
	spec[n++] = 's';
	spec[n] = 0;
	n = snprintf(buf, sizeof(buf), spec, s);
	out = n < sizeof(buf) ? buf : arena_alloc(a, n);
	if (!out)
		return "";
	if (out != buf)
		snprintf(out, n + 1, spec, s);
	return arena_copy(a, out, n);
}

static noinline void do_printf(struct awk *a, struct awk_node *args)
{
	struct aval fmt = eval(a, args);
	const char *f = to_str(a, &fmt), *out = "", *start;
	struct awk_node *arg = args->next;

	while (*f && !a->error && !a->failed) {
		for (start = f; *f && *f != '%'; f++)
			;
		out = concat(a, out, arena_copy(a, start, f - start));
		if (*f == '%') {
			f++;
			out = concat(a, out, convert(a, &f, &arg));
		}
	}
	if (!a->error && !a->failed)
		awk_emit(a, out, strlen(out));
}

/* A loop goes round while nothing failed, next did not run, no Ctrl-C. */
static bool running(struct awk *a)
{
	if (!a->error && a->stop())
		a->error = "interrupted";
	return !a->error && !a->failed && !a->next;
}

/* It recurses as deep as the blocks and ifs nest: printing is out of line. */
static void execute(struct awk *a, struct awk_node *s)
{
	struct aval v;

	for (; s && !a->error && !a->failed && !a->next; s = s->next) {
		switch (s->type) {
		case S_PRINT:
			do_print(a, s->a);
			break;
		case S_PRINTF:
			do_printf(a, s->a);
			break;
		case S_NEXT:
			a->next = true;
			break;
		case S_BLOCK:
			execute(a, s->a);
			break;
		case S_IF:
			v = eval(a, s->a);
			if (truth(&v))
				execute(a, s->b);
			else if (s->c)
				execute(a, s->c);
			break;
		case S_WHILE:
			for (v = eval(a, s->a); truth(&v) && running(a);
			     v = eval(a, s->a))
				execute(a, s->b);
			break;
		case S_FOR:
			if (s->a)
				eval(a, s->a);
			for (v = s->b ? eval(a, s->b) : num_val(1);
			     truth(&v) && running(a);
			     v = s->b ? eval(a, s->b) : num_val(1)) {
				execute(a, s->d);
				if (s->c)
					eval(a, s->c);
			}
			break;
		default:
			eval(a, s->a);
			break;
		}
	}
}

/* --- the interface ------------------------------------------------------ */

static bool special_vars(struct awk *a, const char *fs)
{
	a->nr_var = find_var(a, "NR");
	a->nf_var = find_var(a, "NF");
	a->fs_var = find_var(a, "FS");
	a->ofs_var = find_var(a, "OFS");
	set_var(a, a->nr_var, num_val(0));
	set_var(a, a->nf_var, num_val(0));
	set_var(a, a->fs_var, str_val(fs));
	set_var(a, a->ofs_var, str_val(" "));
	return !a->failed;
}

struct awk *awk_parse(const char *text, const char *fs,
		      void (*print)(void *ctx, const char *text, size_t len),
		      void *ctx, bool (*stop)(void), const char **error)
{
	struct awk *a = kzalloc(sizeof(*a));
	struct item **tail;

	if (!a) {
		*error = "out of memory";
		return NULL;
	}
	a->print = print;
	a->ctx = ctx;
	a->stop = stop;
	a->record = "";
	if (!special_vars(a, fs))
		a->error = "out of memory";
	a->p = text;
	tail = &a->items;
	for (awk_next_token(a), skip_newlines(a); !a->error && a->tok != TOK_EOF;
	     skip_newlines(a)) {
		*tail = parse_item(a);
		if (*tail)
			tail = &(*tail)->next;
	}
	if (a->error) {
		*error = a->error;
		awk_free(a);
		return NULL;
	}
	return a;
}

/* Run the items of one kind; for lines, those whose pattern holds. */
static int run_items(struct awk *a, enum item_kind kind)
{
	struct item *it;
	struct aval v;

	a->next = false;
	for (it = a->items; it && !a->next && !a->error && !a->failed;
	     it = it->next) {
		if (it->kind != kind)
			continue;
		if (it->pattern) {
			v = eval(a, it->pattern);
			if (!truth(&v))
				continue;
		}
		if (it->action)
			execute(a, it->action->a);
		else
			do_print(a, NULL);
	}
	if (a->failed)
		return -ENOMEM;
	return a->error ? -EINVAL : 0;
}

/* The line's strings, kept for END's $0 until the next line. */
static void forget_line(struct awk *a)
{
	arena_reset(a);
	a->record = "";
	a->nfields = 0;
}

int awk_begin(struct awk *a)
{
	int err = run_items(a, ITEM_BEGIN);

	forget_line(a);
	return err;
}

bool awk_reads_input(struct awk *a)
{
	struct item *it;

	for (it = a->items; it; it = it->next)
		if (it->kind != ITEM_BEGIN)
			return true;
	return false;
}

int awk_line(struct awk *a, const char *line, size_t len)
{
	struct aval nr = a->vars[a->nr_var].val;

	forget_line(a);
	set_var(a, a->nr_var, num_val(to_num(&nr) + 1));
	a->record = arena_copy(a, line, len);
	split_record(a);
	return run_items(a, ITEM_MAIN);
}

int awk_end(struct awk *a)
{
	int err = run_items(a, ITEM_END);

	forget_line(a);
	return err;
}

const char *awk_error(struct awk *a)
{
	return a->error ? a->error : "out of memory";
}

void awk_free(struct awk *a)
{
	struct item *it;
	struct awk_node *n;
	int i;

	while ((it = a->items)) {
		a->items = it->next;
		kfree(it);
	}
	while ((n = a->nodes)) {
		a->nodes = n->all;
		kfree(n->str);
		if (n->re)
			regex_free(n->re);
		kfree(n->re);
		kfree(n);
	}
	for (i = 0; i < a->nvars; i++)
		if (a->vars[i].val.kind != V_NUM && a->vars[i].val.str[0])
			kfree(a->vars[i].val.str);
	kfree(a->tok_str);
	arena_reset(a);
	kfree(a->arena);
	kfree(a->fields);
	kfree(a);
}
