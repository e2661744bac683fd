/*
 * fuzz_event_filter.c: an event's filter (trace/trace_events_filter.c),
 * what a write to events/SYS/EVENT/filter or a trigger's `if` goes
 * through, against a reference. The input is used twice:
 *
 *  - as an expression tree, drawn from its bytes and written out as
 *    text with random blanks, quotes and parentheses; the tree is the
 *    reference: the parser must take the text, and the filter must say
 *    of each of a few records drawn from the input what the tree says;
 *  - as raw text: the parser must never crash, and a refused text gets
 *    -EINVAL with an error position inside it, logged once.
 *
 * The event has a signed int `a`, an unsigned long `u`, a char[8] `s`
 * and a __data_loc string `d`, besides common_pid.
 */
#include <stdarg.h>
#include "fuzz.h"
#include "../../lib/kstrtox.c"
#include "../../lib/glob.c"
#include "../../trace/trace_events_filter.c"

struct trace_array global_trace;
struct mutex event_mutex;
static LIST_HEAD(no_events);		/* a system's filter: not fuzzed here */
static int errors_logged, last_err_pos;

struct list_head *trace_event_list(struct trace_array *tr)
{
	return &no_events;
}

void *kmalloc(size_t size)
{
	return malloc(size);
}

void *kzalloc(size_t size)
{
	return calloc(1, size);
}

char *kstrdup(const char *s)
{
	return strdup(s);
}

void kfree(const void *p)
{
	free((void *)p);
}

void mutex_lock(struct mutex *m)
{
}

void mutex_unlock(struct mutex *m)
{
}

void synchronize_rcu(void)
{
}

void tracing_log_err(struct trace_array *tr, const char *loc,
		     const char *cmd, const char *const *errs, u8 type, u16 pos)
{
	FUZZ_CHECK(type < ARRAY_SIZE(err_text) && errs[type]);
	errors_logged++;
	last_err_pos = pos;
}

/* The record: common header, a, u, s, d, then d's text. */
struct rec {
	struct trace_event_common common;
	s32 a;
	u64 u;
	char s[8];
	u32 d;
	char data[16];
};

static struct trace_event_field fields[] = {
	{ "int", "a", 4, 4, 1, FILTER_OTHER, offsetof(struct rec, a) },
	{ "unsigned long", "u", 8, 8, 0, FILTER_OTHER, offsetof(struct rec, u) },
	{ "char[8]", "s", 8, 1, 0, FILTER_STATIC_STRING,
	  offsetof(struct rec, s) },
	{ "__data_loc char[]", "d", 4, 4, 0, FILTER_DYN_STRING,
	  offsetof(struct rec, d) },
	{ 0 },
};

static const struct trace_event_class class = { .fields = fields };
static const struct trace_event_call call = { .class = &class };

const struct trace_event_field *trace_event_field_find(
	const struct trace_event_call *c, const char *name)
{
	const struct trace_event_field *f;

	for (f = c->class->fields; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

/* ---- the reference: a tree, its text, its value ----------------------- */

enum { N_LEAF, N_AND, N_OR, N_NOT };
enum { F_A, F_U, F_S, F_D, F_PID };

struct node {
	int kind, left, right;
	int field, op;
	s64 num;
	char str[8];
};

#define MAX_NODES	32
static struct node nodes[MAX_NODES];
static int nr_nodes;

static const char *const field_names[] = { "a", "u", "s", "d", "common_pid" };
static const char words[] = "ab*?z";

static void draw_word(struct fuzz_in *in, char *w)
{
	int i, n = 1 + fuzz_pick(in, 4);

	for (i = 0; i < n; i++)
		w[i] = words[fuzz_pick(in, sizeof(words) - 1)];
	w[n] = 0;
}

static int draw(struct fuzz_in *in, int depth)
{
	int i = nr_nodes++, kind = depth < 4 && nr_nodes < MAX_NODES - 2 ?
					 fuzz_pick(in, 4) : N_LEAF;
	struct node *n = &nodes[i];

	n->kind = kind;
	if (kind == N_AND || kind == N_OR) {
		n->left = draw(in, depth + 1);
		n->right = draw(in, depth + 1);
	} else if (kind == N_NOT) {
		n->left = draw(in, depth + 1);
	} else {
		n->field = fuzz_pick(in, 5);
		if (n->field == F_S || n->field == F_D) {
			n->op = (int[]){ OP_EQ, OP_NE, OP_GLOB }[fuzz_pick(in, 3)];
			draw_word(in, n->str);
		} else {
			n->op = fuzz_pick(in, OP_GLOB);
			n->num = (s8)fuzz_u8(in);
			if (n->field == F_U && n->num < 0)
				n->num = -n->num;
		}
	}
	return i;
}

static int blanks(struct fuzz_in *in, char *p)
{
	int n = fuzz_pick(in, 3);

	memset(p, ' ', n);
	return n;
}

/* Children of && and || are parenthesized: the tree's grouping, exactly. */
static int text(struct fuzz_in *in, int i, char *p)
{
	const struct node *n = &nodes[i];
	char *start = p;

	p += blanks(in, p);
	if (n->kind == N_NOT) {
		p += sprintf(p, "!(");
		p += text(in, n->left, p);
		p += sprintf(p, ")");
	} else if (n->kind != N_LEAF) {
		p += sprintf(p, "(");
		p += text(in, n->left, p);
		p += sprintf(p, ") %s (", n->kind == N_AND ? "&&" : "||");
		p += text(in, n->right, p);
		p += sprintf(p, ")");
	} else {
		p += sprintf(p, "%s", field_names[n->field]);
		p += blanks(in, p);
		p += sprintf(p, "%s", ops[n->op]);
		p += blanks(in, p);
		if (n->field == F_S || n->field == F_D)
			p += sprintf(p, fuzz_pick(in, 2) ? "\"%s\"" : "%s", n->str);
		else
			p += sprintf(p, n->num < 0 || fuzz_pick(in, 2) ?
				     "%lld" : "0x%llx", (long long)n->num);
	}
	p += blanks(in, p);
	return p - start;
}

static bool ref_compare(int op, s64 a, s64 b, bool sign)
{
	u64 ua = a, ub = b;

	switch (op) {
	case OP_EQ: return a == b;
	case OP_NE: return a != b;
	case OP_LT: return sign ? a < b : ua < ub;
	case OP_LE: return sign ? a <= b : ua <= ub;
	case OP_GT: return sign ? a > b : ua > ub;
	case OP_GE: return sign ? a >= b : ua >= ub;
	default: return (ua & ub) != 0;
	}
}

static bool ref_eval(int i, const struct rec *r)
{
	const struct node *n = &nodes[i];
	char str[sizeof(r->s) + 1] = { 0 };

	switch (n->kind) {
	case N_AND: return ref_eval(n->left, r) && ref_eval(n->right, r);
	case N_OR: return ref_eval(n->left, r) || ref_eval(n->right, r);
	case N_NOT: return !ref_eval(n->left, r);
	}
	switch (n->field) {
	case F_A: return ref_compare(n->op, r->a, n->num, true);
	case F_U: return ref_compare(n->op, r->u, n->num, false);
	case F_PID: return ref_compare(n->op, r->common.ent.ctx >>
				       TRACE_CTX_PID_SHIFT, n->num, true);
	}
	memcpy(str, n->field == F_S ? r->s : r->data, sizeof(r->s));
	if (n->op == OP_GLOB)
		return glob_match(n->str, str);
	return (strcmp(n->str, str) == 0) == (n->op == OP_EQ);
}

static void draw_record(struct fuzz_in *in, struct rec *r)
{
	memset(r, 0, sizeof(*r));
	r->common.ent.ctx = (u32)fuzz_pick(in, 4) << TRACE_CTX_PID_SHIFT;
	r->a = (s8)fuzz_u8(in);
	r->u = fuzz_pick(in, 2) ? fuzz_u8(in) : ~0ULL - fuzz_u8(in);
	draw_word(in, r->s);
	if (fuzz_pick(in, 2))
		memcpy(r->s, "abzzabzz", 8);	/* no NUL: the array's end */
	draw_word(in, r->data);
	r->d = offsetof(struct rec, data) | (u32)(strlen(r->data) + 1) << 16;
}

static void check_tree(struct fuzz_in *in)
{
	char buf[MAX_NODES * 40];
	struct event_filter *f;
	int err = -1, pos = -1, k;
	struct rec r;

	nr_nodes = 0;
	buf[text(in, draw(in, 0), buf)] = 0;
	FUZZ_CHECK(create_event_filter(&call, buf, &f, &err, &pos) == 0);
	for (k = 0; k < 4; k++) {
		draw_record(in, &r);
		FUZZ_CHECK(filter_match_preds(f, &r) == ref_eval(0, &r));
	}
	free_event_filter(f);
}

/* Any text: a filter, or -EINVAL pointing into the text, logged. */
static void check_raw(const char *s)
{
	struct event_filter *f = NULL;
	int logged = errors_logged;
	int ret = create_trigger_filter(&call, s, &f);

	FUZZ_CHECK(ret == 0 || ret == -EINVAL);
	FUZZ_CHECK((ret == 0) == (f != NULL));
	FUZZ_CHECK(errors_logged == logged + (ret != 0));
	if (ret)
		FUZZ_CHECK(last_err_pos >= 0 &&
			   last_err_pos <= (int)strlen(s));
	free_event_filter(f);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_in in = { data, size };
	char *raw = fuzz_str(&in, '\n');

	check_raw(raw);
	free(raw);
	check_tree(&in);
	return 0;
}
