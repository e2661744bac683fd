/*
 * sort_key.c: sort's comparison, as POSIX sort defines its keys: a
 * field is, without -t, a run of blanks and what follows up to the
 * next blank (so leading blanks count, as without -b); with -t, what
 * lies between separators. -n reads an optional '-', digits and a
 * fraction, and compares the numbers; text that is no number is 0.
 */
#include "kernel.h"
#include "string.h"
#include "ctype.h"
#include "sort_key.h"

static const char *parse_pos(const char *p, int *field, int *chr,
			     struct sort_key *k)
{
	*field = 0;
	*chr = 0;
	if (!isdigit(*p))
		return NULL;
	while (isdigit(*p))
		*field = *field * 10 + (*p++ - '0');
	if (*p == '.') {
		if (!isdigit(*++p))
			return NULL;
		while (isdigit(*p))
			*chr = *chr * 10 + (*p++ - '0');
	}
	for (; *p == 'n' || *p == 'r' || *p == 'b'; p++) {
		k->numeric |= *p == 'n';
		k->reverse |= *p == 'r';
	}
	return p;
}

int sort_parse_key(const char *spec, struct sort_key *k)
{
	const char *p;

	memset(k, 0, sizeof(*k));
	p = parse_pos(spec, &k->field1, &k->char1, k);
	if (!p || !k->field1)
		return -EINVAL;
	if (!k->char1)
		k->char1 = 1;
	if (*p == ',') {
		p = parse_pos(p + 1, &k->field2, &k->char2, k);
		if (!p || !k->field2)
			return -EINVAL;
	}
	return *p ? -EINVAL : 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Where field n (from 1) starts in s[0..len), or len. */
static size_t field_start(const struct sort_order *o, const char *s,
			  size_t len, int n)
{
	size_t i = 0;

	while (--n > 0 && i < len) {
		if (o->separator) {
			while (i < len && s[i] != o->separator)
				i++;
			i += i < len;
		} else {
			while (i < len && is_blank(s[i]))
				i++;
			while (i < len && !is_blank(s[i]))
				i++;
		}
	}
	return i;
}

static size_t field_end(const struct sort_order *o, const char *s, size_t len,
			size_t i)
{
	if (o->separator) {
		while (i < len && s[i] != o->separator)
			i++;
		return i;
	}
	while (i < len && is_blank(s[i]))
		i++;
	while (i < len && !is_blank(s[i]))
		i++;
	return i;
}

/* The key's bytes: *start and the length. */
static size_t key_of(const struct sort_order *o, const struct sort_key *k,
		     const char *s, size_t len, size_t *start)
{
	size_t from = field_start(o, s, len, k->field1), to = len;

	from = min(from + k->char1 - 1, field_end(o, s, len, from));
	if (k->field2) {
		to = field_start(o, s, len, k->field2);
		if (k->char2)
			to = min(to + k->char2, field_end(o, s, len, to));
		else
			to = field_end(o, s, len, to);
	}
	*start = from;
	return to > from ? to - from : 0;
}

static int compare_text(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = min(alen, blen) ? memcmp(a, b, min(alen, blen)) : 0;

	if (c)
		return c;
	return alen < blen ? -1 : alen > blen;
}

/* A number's parts: its sign, its digits without leading zeros, its fraction. */
struct number {
	bool negative;
	const char *digits, *fraction;
	size_t ndigits, nfraction;
};

static void parse_number(const char *s, size_t len, struct number *n)
{
	size_t i = 0;

	memset(n, 0, sizeof(*n));
	while (i < len && is_blank(s[i]))
		i++;
	if (i < len && s[i] == '-') {
		n->negative = true;
		i++;
	}
	while (i < len && s[i] == '0')
		i++;
	n->digits = s + i;
	while (i < len && isdigit(s[i]))
		i++, n->ndigits++;
	if (i < len && s[i] == '.') {
		n->fraction = s + ++i;
		while (i < len && isdigit(s[i]))
			i++, n->nfraction++;
	}
	while (n->nfraction && n->fraction[n->nfraction - 1] == '0')
		n->nfraction--;
	if (!n->ndigits && !n->nfraction)
		n->negative = false;	/* -0 is 0 */
}

static int compare_numbers(const char *a, size_t alen, const char *b,
			   size_t blen)
{
	struct number x, y;
	int c;

	parse_number(a, alen, &x);
	parse_number(b, blen, &y);
	if (x.negative != y.negative)
		return x.negative ? -1 : 1;
	if (x.ndigits != y.ndigits)
		c = x.ndigits < y.ndigits ? -1 : 1;
	else
		c = memcmp(x.digits, y.digits, x.ndigits);
	if (!c)
		c = compare_text(x.fraction, x.nfraction, y.fraction,
				 y.nfraction);
	return x.negative ? -c : c;
}

static int compare_key(const struct sort_order *o, const struct sort_key *k,
		       const char *a, size_t alen, const char *b, size_t blen)
{
	size_t as, bs, al = key_of(o, k, a, alen, &as), bl = key_of(o, k, b, blen, &bs);
	/* A key with options of its own takes none of the global ones. */
	bool own = k->numeric || k->reverse;
	bool numeric = own ? k->numeric : o->numeric;
	bool reverse = own ? k->reverse : o->reverse;
	int c = numeric ? compare_numbers(a + as, al, b + bs, bl) :
			  compare_text(a + as, al, b + bs, bl);

	return reverse ? -c : c;
}

int sort_compare(const struct sort_order *o, const char *a, size_t alen,
		 const char *b, size_t blen)
{
	struct sort_key whole = { .field1 = 1, .char1 = 1 };
	int i, c;

	for (i = 0; i < o->nkeys; i++) {
		c = compare_key(o, &o->keys[i], a, alen, b, blen);
		if (c)
			return c;
	}
	if (!o->nkeys) {
		c = compare_key(o, &whole, a, alen, b, blen);
		if (c || o->unique)
			return c;
	}
	if (o->unique)
		return 0;
	c = compare_text(a, alen, b, blen);
	return o->reverse ? -c : c;
}
