/*
 * sh_expand.c: word expansion (IEEE Std 1003.1, 2.6): parameters
 * ($x, ${x:-w}, ${#x}, ${x%p}, $@ ...), command substitution ($(...)
 * and `...`), arithmetic ($((...))), then field splitting on IFS,
 * pathname expansion against the VFS, and quote removal.
 *
 * A word is expanded into a buffer where each byte carries how it
 * came: typed outside quotes (globbed, not split), quoted (neither),
 * or from an unquoted expansion (split and globbed). Two zero-width
 * marks: a quote pair or a "$@" parameter that must make a field even
 * when empty, and a break between the fields of "$@".
 */
#include "kernel.h"
#include "mm.h"
#include "string.h"
#include "printf.h"
#include "glob.h"
#include "vfs.h"
#include "sched.h"
#include "shell.h"
#include "name_list.h"
#include "sh.h"

enum { Q_LIT, Q_QUOTED, Q_EXP, Q_MARK, Q_BREAK };

struct xbuf {
	char *s;
	u8 *q;
	size_t len, cap;
};

struct expander {
	struct sh_state *sh;
	struct xbuf b;
	bool in_dq;		/* inside "..." */
	bool heredoc;		/* a here-document's body: no quotes */
	bool saw_at;		/* "$@" expanded in the current quotes */
	int err;		/* 1: failed, and said why */
};

static void nomem(struct expander *x)
{
	if (!x->err)
		sh_err("sh: %s\n", strerror_text(ENOMEM));
	x->err = 1;
}

static void put(struct expander *x, char c, u8 q)
{
	struct xbuf *b = &x->b;
	size_t cap;
	char *s;
	u8 *nq;

	if (x->err)
		return;
	if (b->len == b->cap) {
		cap = b->cap ? b->cap * 2 : 64;
		s = kmalloc(cap);
		nq = kmalloc(cap);
		if (!s || !nq) {
			kfree(s);
			kfree(nq);
			nomem(x);
			return;
		}
		memcpy(s, b->s, b->len);
		memcpy(nq, b->q, b->len);
		kfree(b->s);
		kfree(b->q);
		b->s = s;
		b->q = nq;
		b->cap = cap;
	}
	b->s[b->len] = c;
	b->q[b->len++] = q;
}

/* An expansion's text: quoted inside "...", else to be split. */
static void put_value(struct expander *x, const char *v)
{
	u8 q = x->in_dq || x->heredoc ? Q_QUOTED : Q_EXP;

	while (v && *v)
		put(x, *v++, q);
}

static void xbuf_free(struct xbuf *b)
{
	kfree(b->s);
	kfree(b->q);
	memset(b, 0, sizeof(*b));
}

/*
 * An expansion error: said; a script stops, as POSIX wants, and an
 * interactive shell drops the rest of the line, as bash does.
 */
static void fail(struct expander *x, const char *fmt, const char *arg)
{
	if (!x->err)
		sh_err(fmt, arg);
	x->err = 1;
	x->sh->status = 2;
	if (x->sh->interactive)
		x->sh->aborted = true;
	else
		x->sh->exiting = true;
}

static void expand_range(struct expander *x, const char *s, size_t n);

/* --- parameters ------------------------------------------------------- */

/* The value of a special or positional parameter, or NULL if unset. */
static const char *special_value(struct expander *x, const char *name,
				 char *num, size_t size)
{
	struct sh_state *sh = x->sh;
	long v = 0;

	if (name[0] >= '0' && name[0] <= '9') {
		long i = 0;

		while (*name >= '0' && *name <= '9')
			i = i * 10 + *name++ - '0';
		if (!i)
			return sh->arg0;
		return i <= sh->argc ? sh->argv[i - 1] : NULL;
	}
	switch (name[0]) {
	case '#':	v = sh->argc; break;
	case '?':	v = sh->status; break;
	case '$':	v = sh->pid; break;
	case '!':
		if (!sh->last_bg)
			return NULL;
		v = sh->last_bg;
		break;
	case '-':
		snprintf(num, size, "%s%s%s", sh->opt_e ? "e" : "",
			 sh->opt_u ? "u" : "", sh->opt_x ? "x" : "");
		return num;
	default:
		return sh_getvar(sh, name);
	}
	snprintf(num, size, "%ld", v);
	return num;
}

/* "$@" and $@, "$*" and $*: the positional parameters. */
static void put_params(struct expander *x, bool star)
{
	struct sh_state *sh = x->sh;
	const char *ifs = sh_getvar(sh, "IFS");
	int i;

	if (x->in_dq)
		x->saw_at = true;
	for (i = 0; i < sh->argc; i++) {
		if (i) {
			if (star && x->in_dq) {
				if (!ifs || *ifs)
					put(x, ifs ? *ifs : ' ', Q_QUOTED);
			} else {
				put(x, 0, Q_BREAK);
			}
		}
		if (x->in_dq)
			put(x, 0, Q_MARK);
		put_value(x, sh->argv[i]);
	}
}

static size_t name_len(const char *s, size_t n)
{
	size_t i = 0;

	if (!n)
		return 0;
	if (s[0] >= '0' && s[0] <= '9') {
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		return i;
	}
	if (strchr("@*#?$!-", s[0]))
		return 1;
	while (i < n && sh_is_name(s, i + 1))
		i++;
	return i;
}

/* The parameter's value into a fresh string, NULL if unset. */
static char *lookup(struct expander *x, const char *name, size_t n,
		    bool *is_unset)
{
	char key[64], num[24];
	const char *v;
	char *copy;

	if (n >= sizeof(key))
		n = sizeof(key) - 1;
	memcpy(key, name, n);
	key[n] = 0;
	v = special_value(x, key, num, sizeof(num));
	*is_unset = !v;
	copy = sh_strdup(v ? v : "");
	if (!copy)
		nomem(x);
	return copy;
}

static void check_set(struct expander *x, const char *name, size_t n,
		      bool is_unset)
{
	char key[64];

	if (!is_unset || !x->sh->opt_u || (n == 1 && strchr("@*", name[0])))
		return;
	snprintf(key, sizeof(key), "%.*s", (int)n, name);
	fail(x, "sh: %s: parameter not set\n", key);
}

/* Expand the word of ${x-word} on its own: one string, quotes removed. */
static char *expand_sub(struct expander *x, const char *s, size_t n,
			bool pattern)
{
	char *text = sh_strndup(s, n), *out = NULL;

	if (!text) {
		nomem(x);
		return NULL;
	}
	if (sh_expand_word(x->sh, text, pattern, &out))
		x->err = 1;
	kfree(text);
	return out;
}

/* ${x#p} ${x##p} ${x%p} ${x%%p}: v without the matched prefix/suffix. */
static void remove_match(struct expander *x, char *v, const char *pat,
			 bool suffix, bool longest)
{
	size_t len = strlen(v), i, k;
	char saved;

	for (k = 0; k <= len; k++) {
		i = longest ? (suffix ? k : len - k) : (suffix ? len - k : k);
		if (suffix) {
			if (glob_match(pat, v + i)) {
				v[i] = 0;
				break;
			}
		} else {
			saved = v[i];
			v[i] = 0;
			if (glob_match(pat, v)) {
				v[i] = saved;
				memmove(v, v + i, len - i + 1);
				break;
			}
			v[i] = saved;
		}
	}
	put_value(x, v);
}

static void assign_default(struct expander *x, const char *name, size_t n,
			   const char *word)
{
	if (!sh_is_name(name, n)) {
		fail(x, "sh: $%s: cannot assign in this way\n", name);
		return;
	}
	if (sh_setvar_n(x->sh, name, n, word))
		nomem(x);
}

/* ${...}: s is past the {, n bytes up to the }. */
static void expand_braces(struct expander *x, const char *s, size_t n)
{
	bool length = n > 1 && s[0] == '#', is_unset, colon, empty;
	size_t nl = name_len(s + length, n - length);
	const char *name = s + length, *op = name + nl, *word;
	char *v, *w;
	char o;

	if (!nl || (length && op != s + n)) {
		char bad[64];

		snprintf(bad, sizeof(bad), "${%.*s}", (int)n, s);
		fail(x, "sh: %s: bad substitution\n", bad);
		return;
	}
	if (nl == 1 && (name[0] == '@' || name[0] == '*') && op == s + n &&
	    !length) {
		put_params(x, name[0] == '*');
		return;
	}
	v = lookup(x, name, nl, &is_unset);
	if (!v)
		return;
	if (length) {
		char num[24];

		check_set(x, name, nl, is_unset);
		snprintf(num, sizeof(num), "%zu", strlen(v));
		put_value(x, num);
		kfree(v);
		return;
	}
	colon = *op == ':';
	o = op[colon];
	word = op + colon + (op < s + n);
	empty = is_unset || (colon && !*v);
	if (op == s + n) {
		check_set(x, name, nl, is_unset);
		put_value(x, v);
	} else if (o == '#' || o == '%') {
		bool longest = word < s + n && *word == o;

		word += longest;
		w = expand_sub(x, word, s + n - word, true);
		if (w)
			remove_match(x, v, w, o == '%', longest);
		kfree(w);
	} else if (!strchr("-=+?", o)) {
		char bad[64];

		snprintf(bad, sizeof(bad), "${%.*s}", (int)n, s);
		fail(x, "sh: %s: bad substitution\n", bad);
	} else if ((o == '+') == empty) {
		/* - = ? with a value, + without one: the word is not used */
		if (o != '+')
			put_value(x, v);
	} else {
		w = expand_sub(x, word, s + n - word, false);
		if (w && o == '=')
			assign_default(x, name, nl, w);
		if (w && o == '?') {
			char msg[128];

			snprintf(msg, sizeof(msg), "%.*s: %s", (int)nl, name,
				 *w ? w : "parameter not set");
			fail(x, "sh: %s\n", msg);
		} else if (w) {
			put_value(x, w);
		}
		kfree(w);
	}
	kfree(v);
}

/* $name, $1, $@ ... at s (past the $): returns the bytes used. */
static size_t expand_simple_param(struct expander *x, const char *s,
				  size_t n)
{
	size_t nl = s[0] >= '0' && s[0] <= '9' ? 1 : name_len(s, n);
	bool is_unset;
	char *v;

	if (!nl) {
		put(x, '$', x->in_dq ? Q_QUOTED : Q_LIT);
		return 0;
	}
	if (nl == 1 && (s[0] == '@' || s[0] == '*')) {
		put_params(x, s[0] == '*');
		return 1;
	}
	v = lookup(x, s, nl, &is_unset);
	if (v) {
		check_set(x, s, nl, is_unset);
		put_value(x, v);
		kfree(v);
	}
	return nl;
}

/* --- substitutions ------------------------------------------------------ */

static const char *arith_get(void *ctx, const char *name)
{
	return sh_getvar(ctx, name);
}

static int arith_set(void *ctx, const char *name, long v)
{
	char num[24];

	snprintf(num, sizeof(num), "%ld", v);
	return sh_setvar(ctx, name, num);
}

static void expand_arith(struct expander *x, const char *s, size_t n)
{
	struct sh_arith_vars vars = { arith_get, arith_set, x->sh };
	char *expr = expand_sub(x, s, n, false), num[24];
	const char *why;
	long v;

	if (!expr)
		return;
	if (sh_arith(expr, &vars, &v, &why)) {
		fail(x, !strcmp(why, "syntax error") ?
			"sh: arithmetic syntax error%s\n" : "sh: %s\n",
		     !strcmp(why, "syntax error") ? "" : why);
	} else {
		snprintf(num, sizeof(num), "%ld", v);
		put_value(x, num);
	}
	kfree(expr);
}

/* The output of text run as commands, its trailing newlines dropped. */
static void expand_command(struct expander *x, const char *text)
{
	char *out;
	size_t len;

	if (sh_command_subst(x->sh, text, &out)) {
		x->err = 1;
		return;
	}
	len = strlen(out);
	while (len && out[len - 1] == '\n')
		out[--len] = 0;
	put_value(x, out);
	kfree(out);
}

/* `...`: a backslash before $ ` \ (and " inside "...") is taken out. */
static void expand_backquote(struct expander *x, const char *s, size_t n)
{
	char *text = kmalloc(n + 1), *w = text;
	size_t i;

	if (!text) {
		nomem(x);
		return;
	}
	for (i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n &&
		    (strchr("$`\\", s[i + 1]) || (x->in_dq && s[i + 1] == '"')))
			i++;
		*w++ = s[i];
	}
	*w = 0;
	expand_command(x, text);
	kfree(text);
}

/* s[0] is '$': expand what follows; returns the bytes used. */
static size_t expand_dollar(struct expander *x, const char *s, size_t n)
{
	size_t end = n > 1 ? sh_scan_subst(s, 0) : 0;
	char *text;

	if (end == (size_t)-1 || end > n)
		end = 0;
	if (end && s[1] == '{') {
		expand_braces(x, s + 2, end - 3);
	} else if (end && s[2] == '(' && end >= 5 && s[end - 2] == ')') {
		expand_arith(x, s + 3, end - 5);
	} else if (end) {
		text = sh_strndup(s + 2, end - 3);
		if (!text)
			nomem(x);
		else
			expand_command(x, text);
		kfree(text);
	} else {
		return 1 + expand_simple_param(x, s + 1, n - 1);
	}
	return end;
}

/* --- quotes ------------------------------------------------------------- */

/* A backslash: what it escapes here, or false if it stays itself. */
static bool escapes(struct expander *x, char next)
{
	if (x->heredoc || x->in_dq)
		return next && strchr(x->heredoc ? "$`\\" : "$`\"\\", next);
	return next;
}

static void expand_range(struct expander *x, const char *s, size_t n)
{
	size_t i = 0, end, open_len = 0;

	while (i < n && !x->err) {
		char c = s[i];

		if (c == '\\' && i + 1 < n && escapes(x, s[i + 1])) {
			put(x, s[i + 1], Q_QUOTED);
			i += 2;
		} else if (c == '\'' && !x->in_dq && !x->heredoc) {
			for (i++; i < n && s[i] != '\''; i++)
				put(x, s[i], Q_QUOTED);
			put(x, 0, Q_MARK);
			i++;
		} else if (c == '"' && !x->heredoc) {
			x->in_dq = !x->in_dq;
			if (x->in_dq) {
				open_len = x->b.len;
				x->saw_at = false;
			} else if (x->b.len == open_len && !x->saw_at) {
				put(x, 0, Q_MARK);
			}
			i++;
		} else if (c == '$') {
			i += expand_dollar(x, s + i, n - i);
		} else if (c == '`') {
			end = sh_scan_subst(s, i);
			if (end == (size_t)-1 || end > n)
				end = n;
			expand_backquote(x, s + i + 1, end - i - 2);
			i = end;
		} else {
			put(x, c, x->in_dq || x->heredoc ? Q_QUOTED : Q_LIT);
			i++;
		}
	}
}

/* --- fields and globs --------------------------------------------------- */

static bool is_glob_char(char c)
{
	return c == '*' || c == '?' || c == '[';
}

/* Does [from, to) hold an unquoted pattern character? */
static bool wants_glob(const struct xbuf *b, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++)
		if (b->q[i] != Q_QUOTED && is_glob_char(b->s[i]))
			return true;
	return false;
}

/* The bytes of [from, to) as a string; a pattern escapes quoted ones. */
static char *field_text(const struct xbuf *b, size_t from, size_t to,
			bool pattern)
{
	char *s = kmalloc(2 * (to - from) + 1), *w = s;
	size_t i;

	if (!s)
		return NULL;
	for (i = from; i < to; i++) {
		if (b->q[i] == Q_MARK || b->q[i] == Q_BREAK) {
			if (b->q[i] == Q_BREAK && !pattern)
				*w++ = ' ';
			continue;
		}
		if (pattern && b->q[i] == Q_QUOTED &&
		    (is_glob_char(b->s[i]) || b->s[i] == '\\' ||
		     b->s[i] == ']'))
			*w++ = '\\';
		*w++ = b->s[i];
	}
	*w = 0;
	return s;
}

struct glob_walk {
	struct sh_argv *out;
	int found;
	int err;
};

static void glob_dir(struct glob_walk *g, struct inode *dir,
		     const char *prefix, const char *pat);

static int collect_name(struct inode *child, void *data)
{
	name_list_add(data, child->name, "");
	return 0;
}

/* A component without pattern characters: its backslashes go. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1])
			s++;
		*w++ = *s;
	}
	*w = 0;
}

static bool component_has_glob(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] == '\\' && i + 1 < n) {
			i++;
			continue;
		}
		if (is_glob_char(p[i]))
			return true;
	}
	return false;
}

/* Try one entry of dir against the component pat[0, n), then go on. */
static void glob_entry(struct glob_walk *g, struct inode *dir,
		       const char *prefix, const char *name, const char *rest)
{
	size_t len = strlen(prefix) + strlen(name) + 2;
	char *path = kmalloc(len);
	struct inode *child;

	if (!path) {
		g->err = -ENOMEM;
		return;
	}
	snprintf(path, len, "%s%s", prefix, name);
	if (!*rest) {
		g->found++;
		if (sh_argv_add(g->out, path))
			g->err = -ENOMEM;
		return;
	}
	child = vfs_lookup(dir, name);
	if (child && S_ISDIR(child->mode)) {
		strlcat(path, "/", len);
		glob_dir(g, child, path, rest);
	}
	kfree(path);
}

/* Match pat (components split by /) in dir; names start with prefix. */
static void glob_dir(struct glob_walk *g, struct inode *dir,
		     const char *prefix, const char *pat)
{
	const char *slash = strchr(pat, '/');
	size_t n = slash ? (size_t)(slash - pat) : strlen(pat);
	const char *rest = slash ? slash + 1 : "";
	char *comp = sh_strndup(pat, n);
	struct name_list names;
	int i;

	if (!comp) {
		g->err = -ENOMEM;
		return;
	}
	if (!component_has_glob(comp, n)) {
		unescape(comp);
		if (vfs_lookup(dir, comp) || !*comp)
			glob_entry(g, dir, prefix, comp, rest);
		kfree(comp);
		return;
	}
	name_list_init(&names);
	vfs_for_each_child(dir, collect_name, &names);
	for (i = 0; i < names.count && !g->err; i++) {
		if (names.names[i][0] == '.' && comp[0] != '.')
			continue;
		if (glob_match(comp, names.names[i]))
			glob_entry(g, dir, prefix, names.names[i], rest);
	}
	if (names.overflow)
		g->err = -ENOMEM;
	name_list_free(&names);
	kfree(comp);
}

/* The pathnames pat matches, sorted per directory; none: pat itself. */
static int add_field(struct expander *x, size_t from, size_t to,
		     struct sh_argv *out)
{
	struct glob_walk g = { .out = out };
	const char *p;
	char *s;

	if (wants_glob(&x->b, from, to)) {
		s = field_text(&x->b, from, to, true);
		if (!s)
			return -ENOMEM;
		p = s;
		while (*p == '/')
			p++;
		glob_dir(&g, *s == '/' ? vfs_root() : shell_cwd(),
			 *s == '/' ? "/" : "", p);
		kfree(s);
		if (g.err || g.found)
			return g.err;
	}
	s = field_text(&x->b, from, to, false);
	return s ? sh_argv_add(out, s) : -ENOMEM;
}

static bool is_ifs_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* Split the buffer on IFS where expansions put the bytes. */
static int split_fields(struct expander *x, struct sh_argv *out)
{
	const char *ifs = sh_getvar(x->sh, "IFS");
	struct xbuf *b = &x->b;
	size_t i, start = 0;
	bool keep = false, after_space = false;
	int err = 0;

	if (!ifs)
		ifs = " \t\n";
	for (i = 0; i <= b->len && !err; i++) {
		bool at_end = i == b->len;
		bool sep = !at_end && b->q[i] == Q_EXP && b->s[i] &&
			   strchr(ifs, b->s[i]);

		if (!at_end && b->q[i] == Q_MARK) {
			keep = true;
			continue;
		}
		if (!at_end && b->q[i] != Q_BREAK && !sep) {
			after_space = false;
			continue;
		}
		if (sep && is_ifs_space(b->s[i]) && i == start && !keep) {
			start = i + 1;
			after_space = true;
			continue;
		}
		if (i > start || keep || (sep && !is_ifs_space(b->s[i]) &&
					 !after_space))
			err = add_field(x, start, i, out);
		after_space = sep && is_ifs_space(b->s[i]);
		keep = false;
		start = i + 1;
	}
	return err;
}

static int finish(struct expander *x)
{
	int err = x->err;

	xbuf_free(&x->b);
	return err;
}

int sh_expand_fields(struct sh_state *sh, const struct sh_word *words,
		     struct sh_argv *out)
{
	struct expander x = { .sh = sh };

	for (; words && !x.err; words = words->next) {
		x.b.len = 0;
		x.in_dq = false;
		expand_range(&x, words->text, strlen(words->text));
		if (!x.err && split_fields(&x, out))
			nomem(&x);
	}
	return finish(&x);
}

int sh_expand_word(struct sh_state *sh, const char *text, bool as_pattern,
		   char **out)
{
	struct expander x = { .sh = sh };

	*out = NULL;
	expand_range(&x, text, strlen(text));
	if (!x.err) {
		*out = x.b.len ? field_text(&x.b, 0, x.b.len, as_pattern) :
				 sh_strdup("");
		if (!*out)
			nomem(&x);
	}
	return finish(&x);
}

int sh_expand_heredoc(struct sh_state *sh, const char *body, char **out)
{
	struct expander x = { .sh = sh, .heredoc = true };

	*out = NULL;
	expand_range(&x, body, strlen(body));
	if (!x.err) {
		*out = x.b.len ? field_text(&x.b, 0, x.b.len, false) :
				 sh_strdup("");
		if (!*out)
			nomem(&x);
	}
	return finish(&x);
}
