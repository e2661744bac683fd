/*
 * sed.c: sed's script language, parsed into a list of commands and run
 * on each line as POSIX sed does (IEEE Std 1003.1, sed): the pattern
 * space is printed at the end of each cycle unless -n; s/// replaces
 * the leftmost-longest match (and with g each following one, an empty
 * match never right after the previous match, as GNU sed has it).
 * Messages are busybox sed's.
 */
#include "kernel.h"
#include "string.h"
#include "ctype.h"
#include "mm.h"
#include "printf.h"
#include "regex.h"
#include "sed.h"

#define MAX_GROUPS	10	/* \0 (&) to \9 */

void sed_init(struct sed_script *s, int flags)
{
	memset(s, 0, sizeof(*s));
	s->flags = flags;
}

static int fail(struct sed_script *s, const char *what, int c)
{
	snprintf(s->error, sizeof(s->error), what, c);
	return -EINVAL;
}

static void skip_blanks(const char **p)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
}

/* Past a bracket expression after its '[': its ']' is not a delimiter. */
static const char *bracket_end(const char *p)
{
	p += *p == '^';
	p += *p == ']';
	for (; *p && *p != ']'; p++) {
		if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
			const char *close = p + 2;

			while (*close && !(close[0] == p[1] && close[1] == ']'))
				close++;
			if (!*close)
				return close;
			p = close + 1;
		}
	}
	return p;
}

/*
 * The text up to the next unescaped delim, kmalloc'd: \delim becomes
 * delim and \n a newline; other escapes stay for the regex or the
 * replacement to read. In a regex a bracket expression may hold delim.
 */
static char *read_delimited(struct sed_script *s, const char **pp, char delim,
			    bool regex)
{
	const char *p = *pp, *end;
	char *text = kmalloc(strlen(p) + 1), *w = text;

	if (!text) {
		fail(s, "out of memory", 0);
		return NULL;
	}
	for (; *p && *p != delim; p++) {
		if (regex && *p == '[') {
			end = bracket_end(p + 1);
			memcpy(w, p, end - p);
			w += end - p;
			p = end;
			if (!*p)
				break;
			*w++ = *p;
		} else if (*p == '\\' && p[1]) {
			p++;
			if (*p == 'n')
				*w++ = '\n';
			else if (*p == delim)
				*w++ = delim;
			else {
				*w++ = '\\';
				*w++ = *p;
			}
		} else {
			*w++ = *p;
		}
	}
	*w = 0;
	if (*p != delim) {
		kfree(text);
		fail(s, "unmatched '%c'", delim);
		return NULL;
	}
	*pp = p + 1;
	return text;
}

static int compile(struct sed_script *s, struct regex *re, const char *text,
		   int flags)
{
	int err = regex_compile(re, text, flags);

	if (!err)
		return 0;
	snprintf(s->error, sizeof(s->error), "bad regex '%s': %s", text,
		 regex_error(err));
	return -EINVAL;
}

static int parse_number(const char **p, unsigned long *n)
{
	if (!isdigit(**p))
		return -EINVAL;
	for (*n = 0; isdigit(**p); (*p)++)
		*n = *n * 10 + (**p - '0');
	return 0;
}

static int parse_address(struct sed_script *s, const char **p,
			 struct sed_addr *a)
{
	char delim;

	if (isdigit(**p)) {
		a->type = SED_ADDR_LINE;
		parse_number(p, &a->line);
		return a->line ? 0 : fail(s, "invalid usage of line address 0", 0);
	}
	if (**p == '$') {
		a->type = SED_ADDR_LAST;
		(*p)++;
		return 0;
	}
	if (**p != '/' && **p != '\\')
		return 0;
	if (**p == '\\')
		(*p)++;
	delim = *(*p)++;
	if (!delim || delim == '\n' || delim == '\\')
		return fail(s, "unexpected end of address", 0);
	a->text = read_delimited(s, p, delim, true);
	if (!a->text)
		return -EINVAL;
	a->type = SED_ADDR_RE;
	return compile(s, &a->re, a->text, s->flags);
}

/* The highest \N the replacement names, which the regex must have. */
static int max_backref(const char *r)
{
	int max = 0;

	for (; *r; r++)
		if (*r == '\\' && r[1]) {
			r++;
			if (isdigit(*r))
				max = max(max, *r - '0');
		}
	return max;
}

static int parse_flags(struct sed_script *s, const char **p,
		       struct sed_cmd *c)
{
	for (;; (*p)++) {
		if (**p == 'g')
			c->global = true;
		else if (**p == 'p')
			c->print = true;
		else if (**p == 'i' || **p == 'I')
			c->icase = true;
		else if (isdigit(**p) && !c->nth) {
			parse_number(p, &c->nth);
			if (!c->nth)
				return fail(s, "number option to 's' command may not be zero", 0);
			(*p)--;
		} else
			return 0;
	}
}

static int parse_subst(struct sed_script *s, const char **p,
		       struct sed_cmd *c)
{
	char delim = *(*p)++;
	int err;

	if (!delim || delim == '\n' || delim == '\\')
		return fail(s, "unterminated 's' command", 0);
	c->pattern = read_delimited(s, p, delim, true);
	if (!c->pattern)
		return -EINVAL;
	c->replacement = read_delimited(s, p, delim, false);
	if (!c->replacement)
		return -EINVAL;
	err = parse_flags(s, p, c);
	if (err)
		return err;
	err = compile(s, &c->re, c->pattern,
		      s->flags | (c->icase ? REGEX_ICASE : 0));
	if (err)
		return err;
	if (max_backref(c->replacement) > c->re.nsub)
		return fail(s, "invalid reference \\%d on 's' command's RHS",
			    max_backref(c->replacement));
	return 0;
}

static bool command_ends(char c)
{
	return !c || c == ';' || c == '\n';
}

static int parse_args(struct sed_script *s, const char **p, struct sed_cmd *c)
{
	unsigned long code = 0;

	switch (c->name) {
	case 's':
		return parse_subst(s, p, c);
	case 'q':
		if (c->a2.type != SED_ADDR_NONE)
			return fail(s, "command only uses one address", 0);
		skip_blanks(p);
		if (!parse_number(p, &code))
			c->exit_code = code & 0xff;	/* an exit status is a byte */
		return 0;
	case 'd':
	case 'p':
	case '=':
		return 0;
	case 0:
	case ';':
	case '\n':
		return fail(s, "missing command", 0);
	}
	return fail(s, "unsupported command %c", c->name);
}

static int parse_command(struct sed_script *s, const char **p,
			 struct sed_cmd *c)
{
	int err = parse_address(s, p, &c->a1);

	if (!err && **p == ',') {
		(*p)++;
		skip_blanks(p);
		err = parse_address(s, p, &c->a2);
		if (!err && c->a2.type == SED_ADDR_NONE)
			return fail(s, "unexpected ','", 0);
	}
	if (err)
		return err;
	skip_blanks(p);
	if (**p == '!') {
		c->negate = true;
		(*p)++;
		skip_blanks(p);
	}
	c->name = **p;
	if (c->name && c->name != ';' && c->name != '\n')
		(*p)++;
	err = parse_args(s, p, c);
	if (err)
		return err;
	skip_blanks(p);
	if (!command_ends(**p))
		return fail(s, "extra characters after command", 0);
	return 0;
}

static struct sed_cmd *new_command(struct sed_script *s)
{
	struct sed_cmd *cmds;

	if (s->ncmds == s->cap) {
		cmds = kmalloc((s->cap ? 2 * s->cap : 8) * sizeof(*cmds));
		if (!cmds)
			return NULL;
		if (s->cmds)
			memcpy(cmds, s->cmds, s->ncmds * sizeof(*cmds));
		kfree(s->cmds);
		s->cmds = cmds;
		s->cap = s->cap ? 2 * s->cap : 8;
	}
	memset(&s->cmds[s->ncmds], 0, sizeof(*cmds));
	return &s->cmds[s->ncmds++];
}

int sed_parse(struct sed_script *s, const char *text)
{
	const char *p = text;
	struct sed_cmd *c;
	int err;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == ';' || *p == '\n')
			p++;
		if (!*p)
			return 0;
		c = new_command(s);
		if (!c)
			return fail(s, "out of memory", 0);
		err = parse_command(s, &p, c);
		if (err)
			return err;
	}
}

static void free_addr(struct sed_addr *a)
{
	if (a->type == SED_ADDR_RE)
		regex_free(&a->re);
	kfree(a->text);
}

void sed_free(struct sed_script *s)
{
	struct sed_cmd *c;
	int i;

	for (i = 0; i < s->ncmds; i++) {
		c = &s->cmds[i];
		free_addr(&c->a1);
		free_addr(&c->a2);
		/* a command whose regex did not compile has re zeroed */
		regex_free(&c->re);
		kfree(c->pattern);
		kfree(c->replacement);
	}
	kfree(s->cmds);
	s->cmds = NULL;
	s->ncmds = s->cap = 0;
}

/* --- running ------------------------------------------------------------ */

static int space_reserve(struct sed_space *ps, size_t need)
{
	size_t cap = ps->cap ? ps->cap : 128;
	char *buf;

	if (need < ps->cap)
		return 0;
	while (cap <= need)
		cap *= 2;
	buf = kmalloc(cap);
	if (!buf)
		return -ENOMEM;
	if (ps->buf)
		memcpy(buf, ps->buf, ps->len);
	kfree(ps->buf);
	ps->buf = buf;
	ps->cap = cap;
	return 0;
}

static int space_append(struct sed_space *ps, const char *text, size_t len)
{
	if (space_reserve(ps, ps->len + len))
		return -ENOMEM;
	memcpy(ps->buf + ps->len, text, len);
	ps->len += len;
	ps->buf[ps->len] = 0;
	return 0;
}

int sed_space_set(struct sed_space *ps, const char *text, size_t len)
{
	ps->len = 0;
	return space_append(ps, text, len);
}

static bool addr_matches(struct sed_addr *a, struct sed_space *ps,
			 unsigned long lineno, bool last)
{
	struct regex_match m;

	switch (a->type) {
	case SED_ADDR_LINE:
		return lineno == a->line;
	case SED_ADDR_LAST:
		return last;
	case SED_ADDR_RE:
		return !regex_exec(&a->re, ps->buf, ps->len, 1, &m, 0);
	default:
		return true;
	}
}

/* A range ends on the line a2 matches, or at once if a2 is a line passed. */
static bool range_ends(struct sed_cmd *c, struct sed_space *ps,
		       unsigned long lineno, bool last)
{
	if (c->a2.type == SED_ADDR_LINE)
		return lineno >= c->a2.line;
	return addr_matches(&c->a2, ps, lineno, last);
}

static bool selected(struct sed_cmd *c, struct sed_space *ps,
		     unsigned long lineno, bool last)
{
	bool sel = true;

	if (c->a2.type == SED_ADDR_NONE) {
		sel = addr_matches(&c->a1, ps, lineno, last);
	} else if (c->in_range) {
		c->in_range = !range_ends(c, ps, lineno, last);
	} else {
		sel = addr_matches(&c->a1, ps, lineno, last);
		c->in_range = sel && !(c->a2.type == SED_ADDR_LINE &&
				       c->a2.line <= lineno) &&
			      !(c->a2.type == SED_ADDR_LAST && last);
	}
	return sel != c->negate;
}

/* The replacement for one match: & and \N are its text and its groups. */
static int expand(struct sed_space *out, const char *r, const char *line,
		  const struct regex_match *m)
{
	int g, err = 0;

	for (; *r && !err; r++) {
		g = -1;
		if (*r == '&')
			g = 0;
		else if (*r == '\\' && isdigit(r[1]))
			g = *++r - '0';
		else if (*r == '\\' && r[1])
			r++;
		if (g < 0)
			err = space_append(out, r, 1);
		else if (m[g].start >= 0)
			err = space_append(out, line + m[g].start,
					   m[g].end - m[g].start);
	}
	return err;
}

/*
 * Each match from the first (or the nth) on, or just that one without
 * g. Returns 1 if something was replaced, 0 if not, or -ENOMEM.
 */
static int substitute(struct sed_cmd *c, struct sed_space *ps,
		      struct sed_space *out)
{
	struct regex_match m[MAX_GROUPS];
	size_t pos = 0, count = 0, want = c->nth ? c->nth : 1;
	int i, last_end = -1, done = 0, err = 0;

	out->len = 0;
	err = space_reserve(out, ps->len);
	while (pos <= ps->len && !err && (!done || c->global)) {
		if (regex_exec(&c->re, ps->buf + pos, ps->len - pos, MAX_GROUPS,
			       m, pos ? REGEX_NOTBOL : 0))
			break;
		for (i = 0; i < MAX_GROUPS; i++)
			if (m[i].start >= 0) {
				m[i].start += pos;
				m[i].end += pos;
			}
		err = space_append(out, ps->buf + pos, m[0].start - pos);
		if (m[0].start == m[0].end && m[0].start == last_end) {
			/* no empty match right after a match */
		} else if (++count >= want) {
			err = err ?: expand(out, c->replacement, ps->buf, m);
			done = 1;
		} else {
			err = err ?: space_append(out, ps->buf + m[0].start,
						  m[0].end - m[0].start);
		}
		pos = m[0].end;
		last_end = m[0].end;
		if (m[0].start == m[0].end && pos < ps->len)
			err = err ?: space_append(out, ps->buf + pos++, 1);
		else if (m[0].start == m[0].end)
			pos++;
	}
	if (!err && pos < ps->len)
		err = space_append(out, ps->buf + pos, ps->len - pos);
	if (err)
		return -ENOMEM;
	if (done) {
		struct sed_space old = *ps;

		*ps = *out;
		*out = old;
	}
	return done;
}

static void print_lineno(void (*print)(void *ctx, const char *text, size_t len),
			 void *ctx, unsigned long lineno)
{
	char num[24];

	print(ctx, num, snprintf(num, sizeof(num), "%lu", lineno));
}

int sed_run(struct sed_script *s, struct sed_space *ps, unsigned long lineno,
	    bool last, void (*print)(void *ctx, const char *text, size_t len),
	    void *ctx)
{
	struct sed_space out = { 0 };
	struct sed_cmd *c;
	int i, ret = 0;

	for (i = 0; i < s->ncmds && !ret; i++) {
		c = &s->cmds[i];
		if (!selected(c, ps, lineno, last))
			continue;
		switch (c->name) {
		case 'd':
			kfree(out.buf);
			return 0;
		case 'p':
			print(ctx, ps->buf, ps->len);
			break;
		case '=':
			print_lineno(print, ctx, lineno);
			break;
		case 'q':
			s->exit_code = c->exit_code;
			ret = 1;
			break;
		case 's':
			ret = substitute(c, ps, &out);
			if (ret > 0 && c->print)
				print(ctx, ps->buf, ps->len);
			ret = min(ret, 0);
			break;
		}
	}
	if (ret >= 0 && !s->quiet)
		print(ctx, ps->buf, ps->len);
	kfree(out.buf);
	return ret;
}
