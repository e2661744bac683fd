/*
 * trace_events_filter.c: an event's filter (Linux's
 * kernel/trace/trace_events_filter.c), the expression written to
 * events/SYS/EVENT/filter and tested on each record before it is
 * written:
 *
 *   expr := and { '||' and }       and  := unary { '&&' unary }
 *   unary := '!' unary | '(' expr ')' | FIELD OP VALUE
 *
 * numbers take == != < <= > >= and & (any bit in common); strings
 * take == != and ~ (a glob), their value quoted or a bare word. The
 * parse makes a tree of predicates, evaluated by filter_match_preds.
 * A bad expression fails with -EINVAL, its error and the caret under
 * where it went wrong shown by the filter file and in error_log
 * (tracing_log_err), as Linux's; the event is then unfiltered.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "glob.h"
#include "kstrtox.h"
#include "printf.h"
#include "rcu.h"
#include "trace_events.h"

/* Linux's MAX_FILTER_STR_VAL; an operand longer fails. */
#define MAX_FILTER_STR_VAL	256
#define MAX_FILTER_PREDS	64

enum filter_op { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_BAND, OP_GLOB };
static const char *const ops[] = { "==", "!=", "<", "<=", ">", ">=", "&", "~" };

enum pred_kind { PRED_LEAF, PRED_AND, PRED_OR, PRED_NOT };

/* Linux's common fields, which rvftrace's context word and id hold. */
enum common_field { COMMON_NONE, COMMON_TYPE, COMMON_FLAGS,
		    COMMON_PREEMPT_COUNT, COMMON_PID };
static const char *const common_names[] = {
	[COMMON_TYPE] = "common_type", [COMMON_FLAGS] = "common_flags",
	[COMMON_PREEMPT_COUNT] = "common_preempt_count",
	[COMMON_PID] = "common_pid",
};

struct filter_pred {
	enum pred_kind kind;
	int left, right;		/* children, for AND, OR and NOT */
	const struct trace_event_field *field;	/* NULL: a common field */
	enum common_field common;
	enum filter_op op;
	s64 val;
	char *str;
};

struct event_filter {
	int nr, root;
	struct filter_pred preds[MAX_FILTER_PREDS];
};

/* Linux's FILT_ERR_* texts, those this parser can give. */
enum filter_err {
	FILT_ERR_INVALID_OP,
	FILT_ERR_TOO_MANY_OPEN,
	FILT_ERR_TOO_MANY_CLOSE,
	FILT_ERR_MISSING_QUOTE,
	FILT_ERR_OPERAND_TOO_LONG,
	FILT_ERR_FIELD_NOT_FOUND,
	FILT_ERR_ILLEGAL_INTVAL,
	FILT_ERR_TOO_MANY_PREDS,
	FILT_ERR_INVALID_FILTER,
	FILT_ERR_BAD_SUBSYS_FILTER,
};

static const char *const err_text[] = {
	[FILT_ERR_INVALID_OP] = "Illegal operation for field type",
	[FILT_ERR_TOO_MANY_OPEN] = "Too many '('",
	[FILT_ERR_TOO_MANY_CLOSE] = "Too few '('",
	[FILT_ERR_MISSING_QUOTE] = "Missing matching quote",
	[FILT_ERR_OPERAND_TOO_LONG] = "Operand too long",
	[FILT_ERR_FIELD_NOT_FOUND] = "Field not found",
	[FILT_ERR_ILLEGAL_INTVAL] = "Illegal integer value",
	[FILT_ERR_TOO_MANY_PREDS] = "Too many terms in predicate expression",
	[FILT_ERR_INVALID_FILTER] = "Meaningless filter expression",
	[FILT_ERR_BAD_SUBSYS_FILTER] =
		"Couldn't find or set field in one of a subsystem's events",
};

/* ---- parsing --------------------------------------------------------------- */

struct filter_parse {
	const struct trace_event_call *call;
	const char *str;
	int pos;
	struct event_filter *filter;
	int err, err_pos;		/* err < 0: none */
};

static void parse_error(struct filter_parse *p, enum filter_err err, int pos)
{
	if (p->err < 0) {
		p->err = err;
		p->err_pos = pos;
	}
}

static char peek(struct filter_parse *p)
{
	while (p->str[p->pos] == ' ' || p->str[p->pos] == '\t')
		p->pos++;
	return p->str[p->pos];
}

static bool take(struct filter_parse *p, const char *tok)
{
	size_t len = strlen(tok);

	peek(p);
	if (strncmp(p->str + p->pos, tok, len))
		return false;
	p->pos += len;
	return true;
}

static int new_pred(struct filter_parse *p, enum pred_kind kind, int left,
		    int right)
{
	struct filter_pred *pred;

	if (p->filter->nr == MAX_FILTER_PREDS) {
		parse_error(p, FILT_ERR_TOO_MANY_PREDS, p->pos);
		return -1;
	}
	pred = &p->filter->preds[p->filter->nr];
	pred->kind = kind;
	pred->left = left;
	pred->right = right;
	return p->filter->nr++;
}

static bool is_ident(char c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (!first && c >= '0' && c <= '9');
}

/* The longest operator at pos, or -1. */
static int parse_op(struct filter_parse *p)
{
	int i, best = -1;

	peek(p);
	for (i = 0; i < (int)ARRAY_SIZE(ops); i++)
		if (!strncmp(p->str + p->pos, ops[i], strlen(ops[i])) &&
		    (best < 0 || strlen(ops[i]) > strlen(ops[best])))
			best = i;
	if (best >= 0 && !strncmp(p->str + p->pos, "&&", 2))
		best = -1;
	return best;
}

/* A quoted string, or a word up to a blank, a parenthesis, & or |. */
static char *parse_string(struct filter_parse *p)
{
	int start, end;
	char quote, *s;

	peek(p);
	start = p->pos;
	quote = p->str[start];

	if (quote == '"' || quote == '\'') {
		const char *close = strchr(p->str + start + 1, quote);

		if (!close) {
			parse_error(p, FILT_ERR_MISSING_QUOTE, start);
			return NULL;
		}
		start++;
		end = close - p->str;
		p->pos = end + 1;
	} else {
		end = start;
		while (p->str[end] && !strchr(" \t()&|", p->str[end]))
			end++;
		p->pos = end;
	}
	if (end - start >= MAX_FILTER_STR_VAL) {
		parse_error(p, FILT_ERR_OPERAND_TOO_LONG, start);
		return NULL;
	}
	s = kmalloc(end - start + 1);
	if (s) {
		memcpy(s, p->str + start, end - start);
		s[end - start] = 0;
	}
	return s;
}

static bool parse_number(struct filter_parse *p, s64 *val)
{
	char buf[32];
	int start = (peek(p), p->pos), len = 0;

	while (p->str[p->pos] && !strchr(" \t()&|", p->str[p->pos]) &&
	       len < (int)sizeof(buf) - 1)
		buf[len++] = p->str[p->pos++];
	buf[len] = 0;
	if (!len || kstrtol(buf, 0, (long *)val)) {
		parse_error(p, FILT_ERR_ILLEGAL_INTVAL, start);
		return false;
	}
	return true;
}

static bool field_is_string(const struct trace_event_field *f)
{
	return f && f->filter_type != FILTER_OTHER;
}

/* FIELD OP VALUE */
static int parse_pred(struct filter_parse *p)
{
	const struct trace_event_field *field = NULL;
	enum common_field common;
	struct filter_pred *pred;
	int start = (peek(p), p->pos), op, i;
	char name[MAX_FILTER_STR_VAL];

	while (is_ident(p->str[p->pos], p->pos == start) &&
	       p->pos - start < (int)sizeof(name) - 1)
		p->pos++;
	if (p->pos == start) {
		parse_error(p, FILT_ERR_INVALID_FILTER, start);
		return -1;
	}
	memcpy(name, p->str + start, p->pos - start);
	name[p->pos - start] = 0;
	peek(p);
	for (common = COMMON_PID; common && strcmp(name, common_names[common]);)
		common--;
	if (!common) {
		field = trace_event_field_find(p->call, name);
		if (!field) {
			parse_error(p, FILT_ERR_FIELD_NOT_FOUND, p->pos);
			return -1;
		}
	}
	op = parse_op(p);
	if (op < 0 || (field_is_string(field) ?
		       op != OP_EQ && op != OP_NE && op != OP_GLOB :
		       op == OP_GLOB)) {
		parse_error(p, FILT_ERR_INVALID_OP, p->pos);
		return -1;
	}
	p->pos += strlen(ops[op]);
	i = new_pred(p, PRED_LEAF, -1, -1);
	if (i < 0)
		return -1;
	pred = &p->filter->preds[i];
	pred->field = field;
	pred->common = common;
	pred->op = op;
	pred->str = NULL;
	if (field_is_string(field)) {
		pred->str = parse_string(p);
		return pred->str ? i : -1;
	}
	return parse_number(p, &pred->val) ? i : -1;
}

static int parse_or(struct filter_parse *p, int depth);

static int parse_unary(struct filter_parse *p, int depth)
{
	int open = p->pos, i;

	if (take(p, "!")) {
		i = parse_unary(p, depth);
		return i < 0 ? -1 : new_pred(p, PRED_NOT, i, -1);
	}
	if (!take(p, "("))
		return parse_pred(p);
	open = p->pos - 1;
	i = parse_or(p, depth + 1);
	if (i >= 0 && !take(p, ")")) {
		parse_error(p, FILT_ERR_TOO_MANY_OPEN, open);
		return -1;
	}
	return i;
}

static int parse_and(struct filter_parse *p, int depth)
{
	int left = parse_unary(p, depth), right;

	while (left >= 0 && take(p, "&&")) {
		right = parse_unary(p, depth);
		left = right < 0 ? -1 : new_pred(p, PRED_AND, left, right);
	}
	return left;
}

static int parse_or(struct filter_parse *p, int depth)
{
	int left = parse_and(p, depth), right;

	while (left >= 0 && take(p, "||")) {
		right = parse_and(p, depth);
		left = right < 0 ? -1 : new_pred(p, PRED_OR, left, right);
	}
	if (left >= 0 && !depth && peek(p)) {
		parse_error(p, peek(p) == ')' ? FILT_ERR_TOO_MANY_CLOSE :
			    FILT_ERR_INVALID_FILTER, p->pos);
		return -1;
	}
	return left;
}

void free_event_filter(struct event_filter *filter)
{
	int i;

	if (!filter)
		return;
	for (i = 0; i < filter->nr; i++)
		kfree(filter->preds[i].str);
	kfree(filter);
}

/*
 * 0 and the filter in *out, or -EINVAL with *out NULL and the error in
 * err (a FILT_ERR_*) and err_pos, or -ENOMEM.
 */
static int create_event_filter(const struct trace_event_call *call,
			       const char *str, struct event_filter **out,
			       int *err, int *err_pos)
{
	struct filter_parse p = { .call = call, .str = str, .err = -1 };

	*out = NULL;
	p.filter = kzalloc(sizeof(*p.filter));
	if (!p.filter)
		return -ENOMEM;
	p.filter->root = parse_or(&p, 0);
	if (p.filter->root >= 0) {
		*out = p.filter;
		return 0;
	}
	free_event_filter(p.filter);
	if (p.err < 0)
		return -ENOMEM;
	*err = p.err;
	*err_pos = p.err_pos;
	return -EINVAL;
}

/* ---- matching ---------------------------------------------------------------- */

static s64 field_number(const struct trace_event_field *f, const void *rec)
{
	const u8 *v = (const u8 *)rec + f->offset;

	switch (f->size) {
	case 1:
		return f->is_signed ? (s64)*(const s8 *)v : (s64)*v;
	case 2:
		return f->is_signed ? (s64)*(const s16 *)v : (s64)*(const u16 *)v;
	case 4:
		return f->is_signed ? (s64)*(const s32 *)v : (s64)*(const u32 *)v;
	default:
		return *(const s64 *)v;
	}
}

/* A string field's text, and its length within the record. */
static const char *field_string(const struct trace_event_field *f,
				const void *rec, size_t *len)
{
	const char *s = (const char *)rec + f->offset;
	u32 loc;

	if (f->filter_type == FILTER_STATIC_STRING) {
		*len = strnlen(s, f->size);
		return s;
	}
	loc = *(const u32 *)s;
	*len = strnlen((const char *)rec + (loc & 0xffff), loc >> 16);
	return (const char *)rec + (loc & 0xffff);
}

static bool match_string(const struct filter_pred *pred, const void *rec)
{
	char buf[MAX_FILTER_STR_VAL];
	size_t len;
	const char *s = field_string(pred->field, rec, &len);
	bool eq;

	len = min(len, sizeof(buf) - 1);
	memcpy(buf, s, len);
	buf[len] = 0;
	if (pred->op == OP_GLOB)
		return glob_match(pred->str, buf);
	eq = !strcmp(pred->str, buf);
	return pred->op == OP_EQ ? eq : !eq;
}

static bool compare(enum filter_op op, s64 a, s64 b, bool is_signed)
{
	u64 ua = a, ub = b;

	switch (op) {
	case OP_EQ:
		return a == b;
	case OP_NE:
		return a != b;
	case OP_BAND:
		return ua & ub;
	case OP_LT:
		return is_signed ? a < b : ua < ub;
	case OP_LE:
		return is_signed ? a <= b : ua <= ub;
	case OP_GT:
		return is_signed ? a > b : ua > ub;
	default:
		return is_signed ? a >= b : ua >= ub;
	}
}

static s64 common_value(enum common_field common, const void *rec)
{
	const struct trace_event_common *c = rec;

	switch (common) {
	case COMMON_TYPE:
		return c->common_type;
	case COMMON_FLAGS:
		return entry_linux_flags(&c->ent);
	case COMMON_PREEMPT_COUNT:
		return entry_preempt_count(&c->ent);
	default:
		return entry_pid(&c->ent);
	}
}

static bool match_leaf(const struct filter_pred *pred, const void *rec)
{
	const struct trace_event_field *f = pred->field;

	if (!f)
		return compare(pred->op, common_value(pred->common, rec),
			       pred->val, true);
	if (field_is_string(f))
		return match_string(pred, rec);
	return compare(pred->op, field_number(f, rec), pred->val,
		       f->is_signed);
}

static bool match_pred(const struct event_filter *filter, int i,
		       const void *rec)
{
	const struct filter_pred *pred = &filter->preds[i];

	switch (pred->kind) {
	case PRED_AND:
		return match_pred(filter, pred->left, rec) &&
		       match_pred(filter, pred->right, rec);
	case PRED_OR:
		return match_pred(filter, pred->left, rec) ||
		       match_pred(filter, pred->right, rec);
	case PRED_NOT:
		return !match_pred(filter, pred->left, rec);
	default:
		return match_leaf(pred, rec);
	}
}

/* The record is aligned (the probe's buffer). */
bool filter_match_preds(const struct event_filter *filter, const void *rec)
{
	return match_pred(filter, filter->root, rec);
}

/* ---- the filter file ------------------------------------------------------------ */

/* What the filter file shows after a bad write: Linux's append_filter_err. */
static char *filter_error_string(const char *str, int err, int pos)
{
	size_t size = strlen(str) + pos + 64;
	char *s = kmalloc(size);

	if (s)
		snprintf(s, size, "%s\n%*s\nparse_error: %s\n", str, pos + 1,
			 "^", err_text[err]);
	return s;
}

static void event_set_filter(struct trace_event_call *call,
			     struct event_filter *filter, char *str)
{
	struct event_filter *old = call->filter;
	char *old_str = call->filter_string;

	WRITE_ONCE(call->filter, filter);
	call->filter_string = str;
	if (old)
		synchronize_rcu();
	free_event_filter(old);
	kfree(old_str);
}

/*
 * Write str as call's filter, "0" to clear it. A bad one leaves the
 * event unfiltered, the error shown in the filter file and error_log.
 */
int apply_event_filter(struct trace_event_call *call, const char *str)
{
	struct event_filter *filter;
	int ret, err = 0, pos = 0;
	char *text;

	if (!strcmp(str, "0")) {
		mutex_lock(&event_mutex);
		event_set_filter(call, NULL, NULL);
		mutex_unlock(&event_mutex);
		return 0;
	}
	ret = create_event_filter(call, str, &filter, &err, &pos);
	if (ret == -ENOMEM)
		return ret;
	text = ret ? filter_error_string(str, err, pos) : kstrdup(str);
	if (!text) {
		free_event_filter(filter);
		return -ENOMEM;
	}
	if (ret)
		tracing_log_err(call->tr, "event filter parse error", str,
				err_text, err, pos);
	mutex_lock(&event_mutex);
	event_set_filter(call, filter, text);
	mutex_unlock(&event_mutex);
	return ret;
}

/* A trigger's `if FILTER`: the filter alone, or -EINVAL. */
int create_trigger_filter(const struct trace_event_call *call, const char *str,
			  struct event_filter **out)
{
	int err, pos, ret = create_event_filter(call, str, out, &err, &pos);

	if (ret == -EINVAL)
		tracing_log_err(call->tr, "event filter parse error", str,
				err_text, err, pos);
	return ret;
}

/* ---- a system's filter file --------------------------------------------------- */

/*
 * Linux's apply_subsystem_event_filter: the filter goes to each event
 * of tr's system that has the fields it names, "0" clears them all. An
 * event that has not is left unfiltered, its filter file showing why;
 * if no event takes it, -EINVAL and error_log says so.
 */
int apply_subsystem_event_filter(struct trace_array *tr, const char *system,
				 const char *str)
{
	struct trace_event_call *call;
	struct event_filter *filter;
	int err, pos, ret, set = 0;
	char *text;

	list_for_each_entry(call, trace_event_list(tr), list) {
		if (!call->tp || strcmp(call->system, system))
			continue;
		if (!strcmp(str, "0")) {
			apply_event_filter(call, str);
			set++;
			continue;
		}
		ret = create_event_filter(call, str, &filter, &err, &pos);
		if (ret == -ENOMEM)
			return ret;
		text = ret ? filter_error_string(str, err, pos) : kstrdup(str);
		if (!text) {
			free_event_filter(filter);
			return -ENOMEM;
		}
		mutex_lock(&event_mutex);
		event_set_filter(call, filter, text);
		mutex_unlock(&event_mutex);
		set += !ret;
	}
	if (set)
		return 0;
	tracing_log_err(tr, "event filter parse error", str, err_text,
			FILT_ERR_BAD_SUBSYS_FILTER, 0);
	return -EINVAL;
}
