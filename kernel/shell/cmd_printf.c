/*
 * cmd_printf.c: printf FORMAT [ARG...], as POSIX's printf utility:
 * the format's backslash escapes, the conversions %s %b %c %d %i %u
 * %o %x %X %% with flags, width and precision (* too), and the format
 * used again while arguments remain. A number that does not parse is
 * an error that prints 0 and makes the status 1, as in dash.
 */
#include "kernel.h"
#include "string.h"
#include "printf.h"
#include "kstrtox.h"
#include "shell.h"

#define SPEC_MAX	40

/* How many bytes of s are (in) or are not (!in) in set. */
static size_t span(const char *s, const char *set, bool in)
{
	size_t n = 0;

	while (s[n] && !!strchr(set, s[n]) == in)
		n++;
	return n;
}

struct pf {
	struct shell_out *out;
	int argc, i;
	char **argv;
	int status;
	bool stop;		/* \c in a %b argument */
};

static const char *next_arg(struct pf *p)
{
	return p->i < p->argc ? p->argv[p->i++] : NULL;
}

/* A numeric argument: 'c gives the character's code, as POSIX says. */
static long num_arg(struct pf *p)
{
	const char *s = next_arg(p);
	long v;

	if (!s || !*s)
		return 0;
	if (*s == '\'' || *s == '"')
		return (unsigned char)s[1];
	if (!kstrtol(s, 0, &v))
		return v;
	sh_err("printf: %s: invalid number\n", s);
	p->status = 1;
	return 0;
}

/* One backslash escape at s (past the \): its byte; *len bytes used. */
static int escape(const char *s, size_t *len, bool b_arg)
{
	static const char from[] = "abfnrtv\\\"'", to[] = "\a\b\f\n\r\t\v\\\"'";
	const char *p = strchr(from, *s);
	int v = 0, n = 0, max = b_arg && *s == '0' ? 4 : 3;

	if (*s && p) {
		*len = 1;
		return to[p - from];
	}
	while (n < max && s[n] >= '0' && s[n] <= '7')
		v = v * 8 + s[n++] - '0';
	if (n) {
		*len = n;
		return v & 0xff;
	}
	*len = 0;
	return '\\';
}

/* Text with escapes, for the format and for %b; \c stops everything. */
static void put_escaped(struct pf *p, const char *s, size_t n, bool b_arg)
{
	size_t i, used;
	char c;

	for (i = 0; i < n && !p->stop; i++) {
		if (s[i] != '\\' || i + 1 >= n) {
			sh_write(p->out, s + i, 1);
			continue;
		}
		if (s[i + 1] == 'c') {
			p->stop = true;
			return;
		}
		c = escape(s + i + 1, &used, b_arg);
		sh_write(p->out, &c, 1);
		i += used;
	}
}

/* One conversion; spec is "%-08.3" and the letter, NUL-terminated. */
static void convert(struct pf *p, char *spec, char conv)
{
	char buf[64], *star;
	const char *s;
	size_t len = strlen(spec);

	while ((star = strchr(spec, '*'))) {	/* width or precision */
		char rest[32];

		strlcpy(rest, star + 1, sizeof(rest));
		snprintf(star, SPEC_MAX - 3 - (star - spec), "%ld%s",
			 num_arg(p), rest);
	}
	len = strlen(spec);
	switch (conv) {
	case 's':
	case 'b':
		s = next_arg(p);
		if (conv == 'b') {
			put_escaped(p, s ? s : "", s ? strlen(s) : 0, true);
			return;
		}
		spec[len] = 's';
		spec[len + 1] = 0;
		sh_printf(p->out, spec, s ? s : "");
		return;
	case 'c':
		s = next_arg(p);
		if (s && *s)
			sh_write(p->out, s, 1);
		return;
	default:
		spec[len] = 'l';
		spec[len + 1] = conv == 'i' ? 'd' : conv;
		spec[len + 2] = 0;
		snprintf(buf, sizeof(buf), spec, num_arg(p));
		sh_puts(p->out, buf);
	}
}

/* The format once; returns false on a bad conversion. */
static bool format_once(struct pf *p, const char *fmt)
{
	char spec[SPEC_MAX];
	size_t n;

	while (*fmt && !p->stop) {
		if (*fmt != '%') {
			n = span(fmt, "%", false);
			put_escaped(p, fmt, n, false);
			fmt += n;
			continue;
		}
		if (fmt[1] == '%') {
			sh_puts(p->out, "%");
			fmt += 2;
			continue;
		}
		n = 1 + span(fmt + 1, "-+ #0123456789.*", true);
		if (n > 20 || !fmt[n] || !strchr("sbcdiouxX", fmt[n])) {
			sh_err("printf: %%%.*s: invalid format\n",
			       (int)n, fmt + 1);
			return false;
		}
		memcpy(spec, fmt, n);
		spec[n] = 0;
		convert(p, spec, fmt[n]);
		fmt += n + 1;
	}
	return true;
}

static int cmd_printf(struct shell_out *out, int argc, char **argv)
{
	struct pf p = { .out = out, .argc = argc, .i = 2, .argv = argv };
	int used;

	if (argc < 2) {
		sh_err("usage: printf FORMAT [ARG...]\n");
		return 2;
	}
	do {
		used = p.i;
		if (!format_once(&p, argv[1]))
			return 1;
	} while (p.i < argc && p.i > used && !p.stop && !out->error);
	return p.status;
}
SHELL_COMMAND("printf", cmd_printf, "FORMAT [ARG...]: formatted output");
