/*
 * regex.c: POSIX regular expressions, BRE and ERE, as glibc's regcomp
 * and regexec read them (posix/regcomp.c), so that grep and sed here
 * accept and match what they do on Linux: . [] [^] [[:class:]] [[=c=]]
 * [[.c.]] * + ? {m,n} | () ^ $, back-references \1..\9, GNU's \+ \?
 * and \| in BRE, and case folding.
 *
 * The pattern is parsed into a tree, the tree is compiled into a small
 * program (as Russ Cox's "Regular Expression Matching: the Virtual
 * Machine Approach" draws it), and the program runs by backtracking
 * on an explicit stack, never the C stack: a kernel thread has 16 KiB.
 * POSIX wants the leftmost match, and of those the longest, so every
 * path from a start is tried and the longest end kept. Without
 * back-references a (instruction, offset) state reached once needs no
 * second visit (it reaches the same ends), which bounds the work by
 * the program's size times the line's; with them a step budget bounds
 * it, and exhausting it is REGEX_ESPACE, as glibc runs out of memory.
 */
#include "kernel.h"
#include "string.h"
#include "ctype.h"
#include "mm.h"
#include "regex.h"

#define REPEAT_INF	-1
#define MAX_INST	(1 << 16)
#define MEMO_MAX_BITS	(8UL << 20)	/* 1 MiB of visited states */
#define STEP_BUDGET	(1UL << 20)
/*
 * Groups and repetitions nest no deeper: the parser and the compiler
 * recurse through them (sequences and alternatives they walk).
 */
#define NEST_MAX	16

/* --- the parse tree ----------------------------------------------------- */

enum node_type {
	N_CHAR, N_ANY, N_SET, N_BOL, N_EOL, N_CAT, N_ALT, N_REPEAT, N_GROUP,
	N_BACKREF,
};

#define NONE	-1		/* an empty tree: matches the empty string */

struct node {
	enum node_type type;
	int a, b;		/* children */
	int min, max;		/* N_REPEAT */
	int c;			/* N_CHAR's byte, N_SET's set, the group's number */
	int depth;		/* groups and repetitions nested in it */
};

enum token_type {
	T_CHAR, T_ANY, T_BRACKET, T_BOL, T_EOL, T_OPEN, T_CLOSE, T_ALT,
	T_STAR, T_PLUS, T_QUESTION, T_OPEN_DUP, T_CLOSE_DUP, T_BACKREF,
	T_END,
};

struct token {
	enum token_type type;
	int c;			/* the byte it was written with */
	int len;
};

struct parser {
	const u8 *pat;
	size_t pos;
	bool ere, icase;
	struct token tok;
	struct node *nodes;
	int nnodes, nodes_cap;
	u8 (*sets)[32];
	int nsets, sets_cap;
	int nsub;
	unsigned int completed;	/* groups closed so far: \N may name them */
	int err;
};

static bool grow(void **array, int *cap, int need, size_t elem)
{
	int n = *cap ? *cap * 2 : 16;
	void *p;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	p = kmalloc(n * elem);
	if (!p)
		return false;
	if (*array)
		memcpy(p, *array, *cap * elem);
	kfree(*array);
	*array = p;
	*cap = n;
	return true;
}

static int depth(const struct parser *ps, int n)
{
	return n == NONE ? 0 : ps->nodes[n].depth;
}

static int new_node(struct parser *ps, enum node_type type, int a, int b)
{
	int d = max(depth(ps, a), depth(ps, b));
	struct node *n;

	if (type == N_GROUP || type == N_REPEAT)
		d++;
	if (d > NEST_MAX)
		ps->err = REGEX_ESPACE;
	if (ps->err)
		return NONE;
	if (!grow((void **)&ps->nodes, &ps->nodes_cap, ps->nnodes + 1,
		  sizeof(*n))) {
		ps->err = REGEX_ESPACE;
		return NONE;
	}
	n = &ps->nodes[ps->nnodes];
	memset(n, 0, sizeof(*n));
	n->type = type;
	n->a = a;
	n->b = b;
	n->depth = d;
	return ps->nnodes++;
}

static int char_node(struct parser *ps, int c)
{
	int n = new_node(ps, N_CHAR, NONE, NONE);

	if (n != NONE)
		ps->nodes[n].c = ps->icase ? toupper(c) : c;
	return n;
}

/*
 * Add b to the chain of N_CAT or N_ALT nodes headed by *head, whose
 * last link is *tail. Chains lean right, a then the rest, so that the
 * compiler walks them in a loop: a line of text is a chain thousands
 * long. An empty b drops out of a sequence.
 */
static void chain(struct parser *ps, enum node_type type, int *head,
		  int *tail, int b)
{
	int link;

	if (type == N_CAT && b == NONE)
		return;
	if (type == N_CAT && *head == NONE) {
		*head = b;
		return;
	}
	if (*tail == NONE) {
		*head = *tail = new_node(ps, type, *head, b);
		return;
	}
	link = new_node(ps, type, ps->nodes[*tail].b, b);
	if (link == NONE)
		return;
	ps->nodes[*tail].b = link;
	ps->nodes[*head].depth = max(ps->nodes[*head].depth, depth(ps, b));
	*tail = link;
}

/* --- tokens ------------------------------------------------------------- */

static void peek_token(struct parser *ps, struct token *t, bool caret_here);

/*
 * BRE's '$' is an anchor only at the end, or before \) or \|, as
 * glibc's peek_token decides.
 */
static bool bre_dollar_is_anchor(struct parser *ps)
{
	struct token next;

	if (!ps->pat[ps->pos + 1])
		return true;
	ps->pos++;
	peek_token(ps, &next, false);
	ps->pos--;
	return next.type == T_ALT || next.type == T_CLOSE;
}

static enum token_type escaped_token(struct parser *ps, int c)
{
	if (c >= '1' && c <= '9')
		return T_BACKREF;
	if (ps->ere)
		return T_CHAR;
	switch (c) {
	case '(': return T_OPEN;
	case ')': return T_CLOSE;
	case '{': return T_OPEN_DUP;
	case '}': return T_CLOSE_DUP;
	case '|': return T_ALT;
	case '+': return T_PLUS;
	case '?': return T_QUESTION;
	}
	return T_CHAR;
}

static enum token_type ere_token(int c)
{
	switch (c) {
	case '+': return T_PLUS;
	case '?': return T_QUESTION;
	case '{': return T_OPEN_DUP;
	case '}': return T_CLOSE_DUP;
	case '(': return T_OPEN;
	case ')': return T_CLOSE;
	case '|': return T_ALT;
	case '^': return T_BOL;
	case '$': return T_EOL;
	}
	return T_CHAR;
}

/* caret_here: BRE's '^' anchors here too (after \( and \|). */
static void peek_token(struct parser *ps, struct token *t, bool caret_here)
{
	int c = ps->pat[ps->pos];

	t->c = c;
	t->len = 1;
	if (!c) {
		t->type = T_END;
		t->len = 0;
	} else if (c == '\\') {
		t->c = ps->pat[ps->pos + 1];
		t->len = 2;
		t->type = t->c ? escaped_token(ps, t->c) : T_END;
		if (!t->c)
			ps->err = REGEX_EESCAPE;
	} else if (c == '.') {
		t->type = T_ANY;
	} else if (c == '[') {
		t->type = T_BRACKET;
	} else if (c == '*') {
		t->type = T_STAR;
	} else if (ps->ere) {
		t->type = ere_token(c);
	} else if (c == '^' && (ps->pos == 0 || caret_here)) {
		t->type = T_BOL;
	} else if (c == '$' && bre_dollar_is_anchor(ps)) {
		t->type = T_EOL;
	} else {
		t->type = T_CHAR;
	}
}

static void next_token(struct parser *ps, bool caret_here)
{
	ps->pos += ps->tok.len;
	peek_token(ps, &ps->tok, caret_here);
}

/* --- bracket expressions ------------------------------------------------ */

static bool class_has(const char *name, int c)
{
	static const struct {
		const char *name;
		int (*fn)(int c);
	} classes[] = {
		{ "alpha", isalpha }, { "upper", isupper }, { "lower", islower },
		{ "digit", isdigit }, { "xdigit", isxdigit }, { "space", isspace },
		{ "print", isprint }, { "punct", ispunct }, { "graph", isgraph },
		{ "cntrl", iscntrl }, { "blank", isblank }, { "alnum", isalnum },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(classes); i++)
		if (!strcmp(name, classes[i].name))
			return c < 0x80 && classes[i].fn(c);
	return false;
}

static bool class_known(const char *name)
{
	return class_has(name, 'a') || class_has(name, 'A') ||
	       class_has(name, '0') || class_has(name, ' ') ||
	       class_has(name, '!') || class_has(name, '\001') ||
	       !strcmp(name, "cntrl");
}

enum elem_type { E_CHAR, E_CLASS, E_EQUIV };

struct bracket_elem {
	enum elem_type type;
	int c;
	char name[32];
};

/*
 * After "[:", "[=" or "[.": the name up to ":]", "=]" or ".]". A
 * collating element or an equivalence class is one byte in the C
 * locale.
 */
static int bracket_symbol(struct parser *ps, int delim, struct bracket_elem *e)
{
	size_t i;

	for (i = 0;; i++) {
		int c = ps->pat[ps->pos];

		if (i >= sizeof(e->name) || !c || !ps->pat[ps->pos + 1])
			return REGEX_EBRACK;
		ps->pos++;
		if (c == delim && ps->pat[ps->pos] == ']')
			break;
		e->name[i] = c;
	}
	ps->pos++;
	e->name[i] = 0;
	if (delim == ':') {
		e->type = E_CLASS;
		return class_known(e->name) ? 0 : REGEX_ECTYPE;
	}
	if (strlen(e->name) != 1)
		return REGEX_ECOLLATE;
	e->type = delim == '=' ? E_EQUIV : E_CHAR;
	e->c = (u8)e->name[0];
	return 0;
}

/* What is at pos inside brackets: '[' with ':', '=' or '.' opens a name. */
static bool bracket_opens_symbol(struct parser *ps)
{
	int c2 = ps->pat[ps->pos + 1];

	return ps->pat[ps->pos] == '[' && (c2 == ':' || c2 == '=' || c2 == '.');
}

/* One element; a '-' is one only first, or last before the ']'. */
static int bracket_elem(struct parser *ps, struct bracket_elem *e,
			bool accept_hyphen)
{
	int c = ps->pat[ps->pos];

	if (bracket_opens_symbol(ps)) {
		ps->pos += 2;
		return bracket_symbol(ps, ps->pat[ps->pos - 1], e);
	}
	ps->pos++;
	if (c == '-' && !accept_hyphen && ps->pat[ps->pos] != ']')
		return REGEX_ERANGE;
	e->type = E_CHAR;
	e->c = c;
	return 0;
}

static void set_add(u8 *set, int c)
{
	set[c >> 3] |= 1 << (c & 7);
}

static void add_elem(struct parser *ps, u8 *set, const struct bracket_elem *e)
{
	const char *name = e->name;
	int c;

	if (e->type != E_CLASS) {
		set_add(set, ps->icase ? toupper(e->c) : e->c);
		return;
	}
	/*
	 * Text is folded to upper case (glibc: build_upper_buffer), and a
	 * folded [[:upper:]] or [[:lower:]] means [[:alpha:]], as there.
	 */
	if (ps->icase && (!strcmp(name, "upper") || !strcmp(name, "lower")))
		name = "alpha";
	for (c = 0; c < 256; c++)
		if (class_has(name, c))
			set_add(set, c);
}

static int add_range(struct parser *ps, u8 *set, const struct bracket_elem *lo,
		     const struct bracket_elem *hi)
{
	int from, to, c;

	if (lo->type != E_CHAR || hi->type != E_CHAR)
		return REGEX_ERANGE;
	from = ps->icase ? toupper(lo->c) : lo->c;
	to = ps->icase ? toupper(hi->c) : hi->c;
	if (from > to)
		return REGEX_ERANGE;
	for (c = from; c <= to; c++)
		set_add(set, c);
	return 0;
}

/* Does a range start at pos: a '-' that is not just before the ']'? */
static bool range_follows(struct parser *ps, const struct bracket_elem *start)
{
	return start->type == E_CHAR && ps->pat[ps->pos] == '-' &&
	       ps->pat[ps->pos + 1] != ']';
}

static int bracket_body(struct parser *ps, u8 *set)
{
	struct bracket_elem start, end;
	bool first = true;
	int err;

	for (;; first = false) {
		if (!ps->pat[ps->pos])
			return REGEX_EBRACK;
		err = bracket_elem(ps, &start, first);
		if (err)
			return err;
		if (range_follows(ps, &start)) {
			ps->pos++;
			if (!ps->pat[ps->pos])
				return REGEX_EBRACK;
			err = bracket_elem(ps, &end, true);
			if (!err)
				err = add_range(ps, set, &start, &end);
		} else {
			add_elem(ps, set, &start);
		}
		if (err)
			return err;
		if (!ps->pat[ps->pos])
			return REGEX_EBRACK;
		if (ps->pat[ps->pos] == ']')
			return 0;
	}
}

/* At the '[': a set node, or NONE with ps->err. A first ']' is a member. */
static int parse_bracket(struct parser *ps)
{
	bool invert;
	int n, i;
	u8 *set;

	ps->pos++;
	invert = ps->pat[ps->pos] == '^';
	ps->pos += invert;
	if (!grow((void **)&ps->sets, &ps->sets_cap, ps->nsets + 1, 32)) {
		ps->err = REGEX_ESPACE;
		return NONE;
	}
	set = ps->sets[ps->nsets];
	memset(set, 0, 32);
	ps->err = bracket_body(ps, set);
	if (ps->err)
		return NONE;
	if (invert)
		for (i = 0; i < 32; i++)
			set[i] = ~set[i];
	n = new_node(ps, N_SET, NONE, NONE);
	if (n != NONE)
		ps->nodes[n].c = ps->nsets++;
	ps->tok.len = 1;	/* the ']' */
	return n;
}

/* --- the grammar, as glibc's parse_reg_exp and its helpers -------------- */

static int parse_reg_exp(struct parser *ps, int nest);

/*
 * The number in an interval: -1 if there is none, -2 if it is not a
 * number or the pattern ends; stops at '}' or ','.
 */
static int fetch_number(struct parser *ps)
{
	int num = -1;

	for (;;) {
		next_token(ps, false);
		if (ps->tok.type == T_END)
			return -2;
		if (ps->tok.type == T_CLOSE_DUP || ps->tok.c == ',')
			return num;
		if (ps->tok.type != T_CHAR || !isdigit(ps->tok.c) || num == -2)
			num = -2;
		else if (num == -1)
			num = ps->tok.c - '0';
		else
			num = min(REGEX_DUP_MAX + 1, num * 10 + ps->tok.c - '0');
	}
}

static int interval(struct parser *ps, int *min_out, int *max_out)
{
	int lo = fetch_number(ps), hi = 0;

	if (lo == -1) {
		if (ps->tok.c != ',')
			return REGEX_BADBR;
		lo = 0;
	}
	if (lo != -2) {
		if (ps->tok.type == T_CLOSE_DUP)
			hi = lo;
		else if (ps->tok.c == ',')
			hi = fetch_number(ps);
		else
			hi = -2;
	}
	if (lo == -2 || hi == -2)
		return ps->tok.type == T_END ? REGEX_EBRACE : REGEX_BADBR;
	if ((hi != -1 && lo > hi) || ps->tok.type != T_CLOSE_DUP)
		return REGEX_BADBR;
	if ((hi == -1 ? lo : hi) > REGEX_DUP_MAX)
		return REGEX_ESIZE;
	*min_out = lo;
	*max_out = hi == -1 ? REPEAT_INF : hi;
	return 0;
}

static int parse_dup(struct parser *ps, int tree)
{
	int lo = 0, hi = REPEAT_INF, n;

	if (ps->tok.type == T_PLUS)
		lo = 1;
	else if (ps->tok.type == T_QUESTION)
		hi = 1;
	else if (ps->tok.type == T_OPEN_DUP)
		ps->err = interval(ps, &lo, &hi);
	if (ps->err)
		return NONE;
	next_token(ps, false);
	if (tree == NONE || (lo == 0 && hi == 0))
		return NONE;
	n = new_node(ps, N_REPEAT, tree, NONE);
	if (n != NONE) {
		ps->nodes[n].min = lo;
		ps->nodes[n].max = hi;
	}
	return n;
}

static int parse_sub_exp(struct parser *ps, int nest)
{
	int cur = ps->nsub++, tree = NONE, n;

	if (nest >= NEST_MAX) {
		ps->err = REGEX_ESPACE;
		return NONE;
	}
	next_token(ps, true);
	if (ps->tok.type != T_CLOSE) {
		tree = parse_reg_exp(ps, nest + 1);
		if (!ps->err && ps->tok.type != T_CLOSE)
			ps->err = REGEX_EPAREN;
	}
	if (ps->err)
		return NONE;
	if (cur < 9)
		ps->completed |= 1u << cur;
	next_token(ps, false);
	n = new_node(ps, N_GROUP, tree, NONE);
	if (n != NONE)
		ps->nodes[n].c = cur + 1;
	return n;
}

/* A repetition operator where nothing precedes it: literal in BRE. */
static int misplaced_dup(struct parser *ps)
{
	int n;

	if (ps->ere || ps->tok.type == T_OPEN_DUP) {
		ps->err = REGEX_BADRPT;
		return NONE;
	}
	n = char_node(ps, ps->tok.c);
	next_token(ps, false);
	return n;
}

static int parse_atom(struct parser *ps)
{
	struct token *t = &ps->tok;
	int n;

	switch (t->type) {
	case T_BRACKET:
		n = parse_bracket(ps);
		break;
	case T_ANY:
		n = new_node(ps, N_ANY, NONE, NONE);
		break;
	case T_BACKREF:
		if (!(ps->completed & (1u << (t->c - '1')))) {
			ps->err = REGEX_ESUBREG;
			return NONE;
		}
		n = new_node(ps, N_BACKREF, NONE, NONE);
		if (n != NONE)
			ps->nodes[n].c = t->c - '0';
		break;
	case T_STAR:
	case T_PLUS:
	case T_QUESTION:
	case T_OPEN_DUP:
		return misplaced_dup(ps);
	case T_CLOSE:
		if (!ps->ere) {
			ps->err = REGEX_ERPAREN;
			return NONE;
		}
		n = char_node(ps, t->c);
		break;
	default:	/* T_CHAR, T_CLOSE_DUP */
		n = char_node(ps, t->c);
		break;
	}
	if (!ps->err)
		next_token(ps, false);
	return n;
}

static bool is_dup(const struct token *t)
{
	return t->type == T_STAR || t->type == T_PLUS ||
	       t->type == T_QUESTION || t->type == T_OPEN_DUP;
}

/* An atom and its repetitions; an anchor takes none (glibc: "^*"). */
static int parse_expression(struct parser *ps, int nest)
{
	int tree;

	if (ps->tok.type == T_ALT || ps->tok.type == T_END)
		return NONE;
	if (ps->tok.type == T_BOL || ps->tok.type == T_EOL) {
		tree = new_node(ps, ps->tok.type == T_BOL ? N_BOL : N_EOL,
				NONE, NONE);
		next_token(ps, false);
		return tree;
	}
	if (ps->tok.type == T_OPEN)
		tree = parse_sub_exp(ps, nest);
	else
		tree = parse_atom(ps);
	while (!ps->err && is_dup(&ps->tok)) {
		tree = parse_dup(ps, tree);
		/* BRE allows no second * or \{ after a repetition. */
		if (!ps->err && !ps->ere &&
		    (ps->tok.type == T_STAR || ps->tok.type == T_OPEN_DUP))
			ps->err = REGEX_BADRPT;
	}
	return ps->err ? NONE : tree;
}

static bool branch_ends(struct parser *ps, int nest)
{
	return ps->tok.type == T_ALT || ps->tok.type == T_END ||
	       (nest && ps->tok.type == T_CLOSE);
}

static int parse_branch(struct parser *ps, int nest)
{
	int tree = parse_expression(ps, nest), tail = NONE;

	while (!ps->err && !branch_ends(ps, nest))
		chain(ps, N_CAT, &tree, &tail, parse_expression(ps, nest));
	return tree;
}

/* A \N may name a group of its own alternative only, as in glibc. */
static int parse_reg_exp(struct parser *ps, int nest)
{
	unsigned int before = ps->completed, after;
	int tree = parse_branch(ps, nest), tail = NONE, branch;

	while (!ps->err && ps->tok.type == T_ALT) {
		next_token(ps, true);
		branch = NONE;
		if (!branch_ends(ps, nest)) {
			after = ps->completed;
			ps->completed = before;
			branch = parse_branch(ps, nest);
			ps->completed |= after;
		}
		chain(ps, N_ALT, &tree, &tail, branch);
	}
	return tree;
}

/* --- the program -------------------------------------------------------- */

enum opcode {
	I_CHAR,		/* c */
	I_ANY,
	I_SET,		/* x: the set */
	I_BOL,
	I_EOL,
	I_SAVE,		/* x: slot := offset (a group's start or end) */
	I_SPLIT,	/* go to x; failing that, to y */
	I_JMP,		/* x */
	I_PROGRESS,	/* x: if the offset is still slot x's, go to y */
	I_BACKREF,	/* x: the group's text again */
	I_MATCH,
};

struct regex_inst {
	u8 op;
	u8 c;
	int x, y;
};

struct compiler {
	const struct node *nodes;
	struct regex_inst *prog;
	int ninst, cap;
	int nslots;
	int err;
};

static int emit(struct compiler *cc, enum opcode op, int x, int y)
{
	if (cc->err)
		return 0;
	if (cc->ninst >= MAX_INST ||
	    !grow((void **)&cc->prog, &cc->cap, cc->ninst + 1,
		  sizeof(*cc->prog))) {
		cc->err = REGEX_ESPACE;
		return 0;
	}
	cc->prog[cc->ninst] = (struct regex_inst){ op, 0, x, y };
	return cc->ninst++;
}

/* Can the tree match the empty string? A loop over one needs a guard. */
static bool nullable(const struct node *nodes, int n)
{
	if (n == NONE)
		return true;
	switch (nodes[n].type) {
	case N_CHAR:
	case N_ANY:
	case N_SET:
		return false;
	case N_CAT:
		for (; n != NONE && nodes[n].type == N_CAT; n = nodes[n].b)
			if (!nullable(nodes, nodes[n].a))
				return false;
		return nullable(nodes, n);
	case N_ALT:
		for (; n != NONE && nodes[n].type == N_ALT; n = nodes[n].b)
			if (nullable(nodes, nodes[n].a))
				return true;
		return nullable(nodes, n);
	case N_REPEAT:
		return !nodes[n].min || nullable(nodes, nodes[n].a);
	case N_GROUP:
		return nullable(nodes, nodes[n].a);
	default:	/* anchors, back-references */
		return true;
	}
}

static void gen(struct compiler *cc, int n);

/*
 * x* is  L: SPLIT L+1, out; x; JMP L  and, where x can match empty,
 * a SAVE of the offset before x and a PROGRESS after it, so that an
 * empty pass leaves the loop instead of going round for ever. It
 * leaves with what that pass captured: glibc matches \(a*\)*b\1 to
 * "aab" so, with \1 empty.
 */
static void gen_star(struct compiler *cc, int child)
{
	bool guard = nullable(cc->nodes, child);
	int slot = cc->nslots, loop = emit(cc, I_SPLIT, 0, 0), progress = 0;

	cc->prog[loop].x = loop + 1;
	if (guard) {
		cc->nslots++;
		emit(cc, I_SAVE, slot, 0);
	}
	gen(cc, child);
	if (guard)
		progress = emit(cc, I_PROGRESS, slot, 0);
	emit(cc, I_JMP, loop, 0);
	if (cc->err)
		return;
	cc->prog[loop].y = cc->ninst;
	if (guard)
		cc->prog[progress].y = cc->ninst;
}

/* x{m,n}: m copies, then n-m optional ones, each SPLIT leaving to the end. */
static void gen_repeat(struct compiler *cc, const struct node *nd)
{
	int i, first, stride, opt = nd->max - nd->min;

	for (i = 0; i < nd->min && !cc->err; i++)
		gen(cc, nd->a);
	if (nd->max == REPEAT_INF) {
		gen_star(cc, nd->a);
		return;
	}
	first = cc->ninst;
	for (i = 0; i < opt && !cc->err; i++) {
		int split = emit(cc, I_SPLIT, 0, 0);

		cc->prog[split].x = split + 1;
		gen(cc, nd->a);
	}
	if (cc->err || !opt)
		return;
	stride = (cc->ninst - first) / opt;
	for (i = 0; i < opt; i++)
		cc->prog[first + i * stride].y = cc->ninst;
}

/*
 * a|b|c is  SPLIT L1, L2; L1: a; JMP out; L2: SPLIT ...; c; out:
 * walked down the chain; the JMPs are linked through x until out is
 * known.
 */
static void gen_alt(struct compiler *cc, int n)
{
	int split, jmp, jumps = -1;

	for (; n != NONE && cc->nodes[n].type == N_ALT && !cc->err;
	     n = cc->nodes[n].b) {
		split = emit(cc, I_SPLIT, 0, 0);
		gen(cc, cc->nodes[n].a);
		jmp = emit(cc, I_JMP, jumps, 0);
		if (cc->err)
			return;
		jumps = jmp;
		cc->prog[split].x = split + 1;
		cc->prog[split].y = cc->ninst;
	}
	gen(cc, n);
	while (!cc->err && jumps >= 0) {
		jmp = cc->prog[jumps].x;
		cc->prog[jumps].x = cc->ninst;
		jumps = jmp;
	}
}

static void gen(struct compiler *cc, int n)
{
	const struct node *nd;
	int i;

	if (n == NONE || cc->err)
		return;
	nd = &cc->nodes[n];
	switch (nd->type) {
	case N_CHAR:
		i = emit(cc, I_CHAR, 0, 0);
		cc->prog[i].c = nd->c;
		break;
	case N_ANY:
		emit(cc, I_ANY, 0, 0);
		break;
	case N_SET:
		emit(cc, I_SET, nd->c, 0);
		break;
	case N_BOL:
		emit(cc, I_BOL, 0, 0);
		break;
	case N_EOL:
		emit(cc, I_EOL, 0, 0);
		break;
	case N_BACKREF:
		emit(cc, I_BACKREF, nd->c, 0);
		break;
	case N_GROUP:
		emit(cc, I_SAVE, 2 * nd->c, 0);
		gen(cc, nd->a);
		emit(cc, I_SAVE, 2 * nd->c + 1, 0);
		break;
	case N_CAT:
		for (; n != NONE && cc->nodes[n].type == N_CAT; n = cc->nodes[n].b)
			gen(cc, cc->nodes[n].a);
		gen(cc, n);
		break;
	case N_ALT:
		gen_alt(cc, n);
		break;
	case N_REPEAT:
		gen_repeat(cc, nd);
		break;
	}
}

static bool has_backref(const struct parser *ps)
{
	int i;

	for (i = 0; i < ps->nnodes; i++)
		if (ps->nodes[i].type == N_BACKREF)
			return true;
	return false;
}

int regex_compile(struct regex *re, const char *pattern, int flags)
{
	struct parser ps = {
		.pat = (const u8 *)pattern,
		.ere = flags & REGEX_EXTENDED,
		.icase = flags & REGEX_ICASE,
	};
	struct compiler cc = { 0 };
	int root;

	memset(re, 0, sizeof(*re));
	peek_token(&ps, &ps.tok, true);
	root = parse_reg_exp(&ps, 0);
	if (!ps.err && ps.tok.type != T_END)	/* a stray \) or ) */
		ps.err = ps.ere ? REGEX_ERPAREN : REGEX_EPAREN;
	if (!ps.err) {
		cc.nodes = ps.nodes;
		cc.nslots = 2 * (ps.nsub + 1);
		gen(&cc, root);
		emit(&cc, I_MATCH, 0, 0);
		ps.err = cc.err;
	}
	re->backrefs = has_backref(&ps);
	kfree(ps.nodes);
	if (ps.err) {
		kfree(ps.sets);
		kfree(cc.prog);
		return ps.err;
	}
	re->flags = flags;
	re->nsub = ps.nsub;
	re->prog = cc.prog;
	re->ninst = cc.ninst;
	re->sets = ps.sets;
	re->nslots = cc.nslots;
	return 0;
}

/* --- running it --------------------------------------------------------- */

/*
 * A saved choice: try pc at pos (a SPLIT's second way), or, with pc
 * below 0, put slot -pc-1 back to pos as backtracking passes it.
 */
struct choice {
	int pc;
	int pos;
};

struct regex_state {
	struct choice *stack;
	int depth, stack_cap;
	int *slots;
	u8 *visited;		/* a bit per (instruction, offset) */
	size_t visited_bytes;
	unsigned long steps;
	const u8 *s;
	int len;
	int best;		/* the longest end so far, or -1 */
	int *best_slots;
	int eflags;
};

static bool push(struct regex_state *st, int pc, int pos)
{
	if (!grow((void **)&st->stack, &st->stack_cap, st->depth + 1,
		  sizeof(*st->stack)))
		return false;
	st->stack[st->depth++] = (struct choice){ pc, pos };
	return true;
}

static int fold_case(const struct regex *re, int c)
{
	return re->flags & REGEX_ICASE ? toupper(c) : c;
}

/* Has this state been here before? Then it reaches no new end. */
static bool seen(struct regex *re, int pc, int pos)
{
	struct regex_state *st = re->state;
	size_t bit;

	if (!st->visited)
		return false;
	bit = (size_t)pc * (st->len + 1) + pos;
	if (st->visited[bit >> 3] & (1 << (bit & 7)))
		return true;
	st->visited[bit >> 3] |= 1 << (bit & 7);
	return false;
}

static bool backref_matches(struct regex *re, int group, int *pos)
{
	struct regex_state *st = re->state;
	int from = st->slots[2 * group], to = st->slots[2 * group + 1], i;

	if (from < 0 || to < 0 || *pos + to - from > st->len)
		return false;
	for (i = 0; i < to - from; i++)
		if (fold_case(re, st->s[from + i]) != fold_case(re, st->s[*pos + i]))
			return false;
	*pos += to - from;
	return true;
}

static bool set_has(const struct regex *re, int set, int c)
{
	return re->sets[set][c >> 3] & (1 << (c & 7));
}

/*
 * One instruction at pos: true to go on at the (updated) pc and pos,
 * false for this path to fail. A SPLIT or SAVE leaves a choice behind.
 */
static bool step(struct regex *re, int *pc, int *pos, int *err)
{
	struct regex_state *st = re->state;
	const struct regex_inst *in = &re->prog[*pc];
	int c = *pos < st->len ? fold_case(re, st->s[*pos]) : -1;

	switch (in->op) {
	case I_CHAR:
		if (c != in->c)
			return false;
		(*pos)++;
		break;
	case I_ANY:
		if (c <= 0)
			return false;
		(*pos)++;
		break;
	case I_SET:
		if (c <= 0 || !set_has(re, in->x, c))
			return false;
		(*pos)++;
		break;
	case I_BOL:
		if (*pos || (st->eflags & REGEX_NOTBOL))
			return false;
		break;
	case I_EOL:
		if (*pos != st->len)
			return false;
		break;
	case I_SAVE:
		if (!push(st, -in->x - 1, st->slots[in->x])) {
			*err = REGEX_ESPACE;
			return false;
		}
		st->slots[in->x] = *pos;
		break;
	case I_PROGRESS:
		if (st->slots[in->x] != *pos)
			break;
		*pc = in->y;
		return true;
	case I_SPLIT:
		if (!push(st, in->y, *pos)) {
			*err = REGEX_ESPACE;
			return false;
		}
		*pc = in->x;
		return true;
	case I_JMP:
		*pc = in->x;
		return true;
	case I_BACKREF:
		if (!backref_matches(re, in->x, pos))
			return false;
		break;
	case I_MATCH:
		if (*pos > st->best) {
			st->best = *pos;
			memcpy(st->best_slots, st->slots,
			       2 * (re->nsub + 1) * sizeof(int));
		}
		return false;
	}
	(*pc)++;
	return true;
}

/* Every path from start; true if one matched (then st->best is its end). */
static int run_from(struct regex *re, int start)
{
	struct regex_state *st = re->state;
	int pc = 0, pos = start, err = 0;
	bool alive = true;

	st->best = -1;
	st->depth = 0;
	for (;;) {
		while (alive) {
			if (++st->steps > STEP_BUDGET && !st->visited)
				return REGEX_ESPACE;
			if (seen(re, pc, pos))
				break;
			alive = step(re, &pc, &pos, &err);
		}
		/* Nothing can be longer than a match to the end. */
		if (err || st->best == st->len || !st->depth)
			break;
		pc = st->stack[--st->depth].pc;
		pos = st->stack[st->depth].pos;
		while (pc < 0) {
			st->slots[-pc - 1] = pos;
			if (!st->depth)
				return err ? err : (st->best < 0);
			pc = st->stack[--st->depth].pc;
			pos = st->stack[st->depth].pos;
		}
		alive = true;
	}
	return err ? err : (st->best < 0);
}

static int prepare(struct regex *re, const char *s, size_t len, int eflags)
{
	struct regex_state *st = re->state;
	size_t bits = (size_t)re->ninst * (len + 1);
	size_t bytes = (bits + 7) / 8;

	if (!st) {
		st = kzalloc(sizeof(*st));
		if (!st)
			return REGEX_ESPACE;
		st->slots = kmalloc(2 * re->nslots * sizeof(int));
		if (!st->slots) {
			kfree(st);
			return REGEX_ESPACE;
		}
		st->best_slots = st->slots + re->nslots;
		re->state = st;
	}
	if (re->backrefs || bits > MEMO_MAX_BITS)
		bytes = 0;
	if (bytes > st->visited_bytes || !bytes) {
		kfree(st->visited);
		st->visited = bytes ? kmalloc(bytes) : NULL;
		st->visited_bytes = st->visited ? bytes : 0;
		if (bytes && !st->visited)
			return REGEX_ESPACE;
	}
	if (st->visited)
		memset(st->visited, 0, bytes);
	st->s = (const u8 *)s;
	st->len = len;
	st->eflags = eflags;
	st->steps = 0;
	return 0;
}

int regex_exec(struct regex *re, const char *s, size_t len, size_t nmatch,
	       struct regex_match *m, int eflags)
{
	struct regex_state *st;
	int start, ret = prepare(re, s, len, eflags);
	size_t i;

	if (ret)
		return ret;
	st = re->state;
	for (start = 0; start <= (int)len; start++) {
		for (i = 0; i < (size_t)re->nslots; i++)
			st->slots[i] = -1;
		ret = run_from(re, start);
		if (ret != REGEX_NOMATCH)
			break;
	}
	if (ret)
		return ret;
	for (i = 0; i < nmatch; i++) {
		bool in = i <= (size_t)re->nsub;

		m[i].start = in ? st->best_slots[2 * i] : -1;
		m[i].end = in ? st->best_slots[2 * i + 1] : -1;
	}
	if (nmatch) {
		m[0].start = start;
		m[0].end = st->best;
	}
	return 0;
}

void regex_free(struct regex *re)
{
	if (re->state) {
		kfree(re->state->stack);
		kfree(re->state->slots);
		kfree(re->state->visited);
		kfree(re->state);
	}
	kfree(re->prog);
	kfree(re->sets);
	memset(re, 0, sizeof(*re));
}

const char *regex_error(int err)
{
	static const char *const text[] = {
		"Success", "No match", "Invalid regular expression",
		"Invalid collation character", "Invalid character class name",
		"Trailing backslash", "Invalid back reference",
		"Unmatched [, [^, [:, [., or [=", "Unmatched ( or \\(",
		"Unmatched \\{", "Invalid content of \\{\\}",
		"Invalid range end", "Memory exhausted",
		"Invalid preceding regular expression",
		"Premature end of regular expression",
		"Regular expression too big", "Unmatched ) or \\)",
	};

	if (err < 0 || err >= (int)ARRAY_SIZE(text))
		return "Unknown error";
	return text[err];
}
