/*
 * glob.c: shell-style glob matching, as Linux's lib/glob.c (`*`, `?`,
 * `[abc]`, `[a-z]`, `[!x]`, `\x`; '/' is not special; only '!' negates a
 * class, so `[^x]` holds '^' and 'x'), and
 * ftrace's filter_parse_regex()/ftrace_match(), which turn the common
 * foo, foo*, *foo and *foo* into plain string compares.
 */
#include "kernel.h"
#include "string.h"
#include "glob.h"

/*
 * Match c against the class after a '['. Returns the pattern past the
 * closing ']', or NULL if the class is malformed, in which case the
 * '[' is an ordinary character. As in Linux, a ']' right after the
 * '[' or '[!' is a member, and a '-' before the ']' is a literal.
 */
static const char *match_class(const char *pat, unsigned char c,
			       bool *matched)
{
	bool inverted = *pat == '!';
	bool in = false;
	unsigned char lo, hi;

	pat += inverted;
	lo = *pat++;
	do {
		if (!lo)
			return NULL;
		hi = lo;
		if (pat[0] == '-' && pat[1] != ']') {
			hi = pat[1];
			if (!hi)
				return NULL;
			pat += 2;
		}
		in |= lo <= c && c <= hi;
	} while ((lo = *pat++) != ']');
	*matched = in != inverted;
	return pat;
}

/*
 * Match one token that is not a '*' against c (which may be the
 * string's NUL) and step *pat past it.
 */
static bool match_token(const char **pat, unsigned char c)
{
	const char *p = *pat;
	unsigned char d = *p++;
	const char *end;
	bool matched;

	if (d == '?') {
		*pat = p;
		return c;
	}
	if (d == '[') {
		if (!c)		/* not even [!x] matches the end */
			return false;
		end = match_class(p, c, &matched);
		if (end) {
			*pat = end;
			return matched;
		}
	} else if (d == '\\' && *p) {	/* a final \ stands for itself */
		d = *p++;
	}
	*pat = p;
	return c == d;
}

/*
 * On a mismatch, retry from the last '*' one character further on in
 * the string. Since '*' matches anything, going back to the last one
 * is always enough.
 */
bool glob_match(const char *pat, const char *str)
{
	const char *star_pat = NULL, *star_str = NULL;

	for (;;) {
		if (*pat == '*') {
			star_pat = ++pat;
			star_str = str;
			if (!*pat)
				return true;
			continue;
		}
		if (match_token(&pat, *str)) {
			if (!*str)
				return true;
			str++;
			continue;
		}
		if (!star_pat || !*star_str)
			return false;
		pat = star_pat;
		str = ++star_str;
	}
}

static bool is_glob_char(char c)
{
	return c == '?' || c == '[' || c == '\\';
}

/*
 * Parse a set_ftrace_filter pattern of len characters in buff, as
 * Linux's filter_parse_regex(): a leading '!' sets *not; a '*' at the
 * end is cut off (buff is written to), one at the start is skipped in
 * *search; any other wildcard makes it a MATCH_GLOB of the whole.
 */
enum regex_type filter_parse_regex(char *buff, int len, char **search,
				   int *not)
{
	enum regex_type type = MATCH_FULL;
	int i;

	*not = buff[0] == '!';
	buff += *not;
	len -= *not;
	*search = buff;
	for (i = 0; i < len; i++) {
		if (is_glob_char(buff[i]))
			return MATCH_GLOB;
		if (buff[i] != '*')
			continue;
		if (i == 0) {
			type = MATCH_END_ONLY;
		} else if (i == len - 1) {
			type = type == MATCH_END_ONLY ? MATCH_MIDDLE_ONLY :
							MATCH_FRONT_ONLY;
			buff[i] = 0;
			break;
		} else {
			return MATCH_GLOB;
		}
	}
	if (buff[0] == '*')
		*search = buff + 1;
	return type;
}

static bool ends_with(const char *s, const char *suffix, size_t len)
{
	size_t slen = strlen(s);

	return slen >= len && !memcmp(s + slen - len, suffix, len);
}

bool ftrace_match(const char *name, const struct ftrace_glob *g)
{
	switch (g->type) {
	case MATCH_FULL:
		return !strcmp(name, g->search);
	case MATCH_FRONT_ONLY:
		return !strncmp(name, g->search, g->len);
	case MATCH_MIDDLE_ONLY:
		return strstr(name, g->search);
	case MATCH_END_ONLY:
		return ends_with(name, g->search, g->len);
	case MATCH_GLOB:
		return glob_match(g->search, name);
	}
	return false;
}
