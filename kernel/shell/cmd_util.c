/*
 * cmd_util.c: small utilities that scripts lean on: sleep (fractions
 * too), yes, seq, basename, dirname, env, which, nproc, id, date and
 * time. They behave as their busybox and GNU versions do for the
 * options people use; there are no users (id is root) and no real-time
 * clock (date counts from the epoch at boot).
 */
#include "kernel.h"
#include "mm.h"
#include "string.h"
#include "kstrtox.h"
#include "printf.h"
#include "sched.h"
#include "smp.h"
#include "time.h"
#include "vfs.h"
#include "shell.h"
#include "sh.h"

/* "1", "0.25", "2m": milliseconds, or -1 if malformed. */
static long parse_duration(const char *s)
{
	unsigned long whole = 0, frac = 0, scale = 1000, unit = 1;
	const char *p = s;

	while (*p >= '0' && *p <= '9')
		whole = whole * 10 + *p++ - '0';
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (scale > 1) {
				scale /= 10;
				frac += (*p - '0') * scale;
			}
		}
	if (*p == 'm')
		unit = 60;
	else if (*p == 'h')
		unit = 3600;
	else if (*p == 'd')
		unit = 86400;
	else if (*p && *p != 's')
		return -1;
	if (p == s || (*p && p[1]))
		return -1;
	return (whole * 1000 + frac) * unit;
}

static int cmd_sleep(struct shell_out *out, int argc, char **argv)
{
	long ms, total = 0;
	int i;

	if (argc < 2) {
		sh_err("usage: sleep SECONDS[smhd]...\n");
		return 2;
	}
	for (i = 1; i < argc; i++) {
		ms = parse_duration(argv[i]);
		if (ms < 0) {
			sh_err("sleep: invalid number '%s'\n", argv[i]);
			return 1;
		}
		total += ms;
	}
	if (total)
		msleep(total);
	return sh_interrupted() ? 130 : 0;
}
SHELL_COMMAND("sleep", cmd_sleep, "SECONDS[smhd]...: wait (fractions too)");

/* Lines of STRING, many per write, until the reader goes or Ctrl-C. */
static int cmd_yes(struct shell_out *out, int argc, char **argv)
{
	const char *word = argc > 1 ? argv[1] : "y";
	size_t n = strlen(word) + 1, len = 0;
	char *buf = kmalloc(max(n, (size_t)1024));

	if (!buf) {
		sh_err("yes: %s\n", strerror_text(ENOMEM));
		return 1;
	}
	while (len + n <= max(n, (size_t)1024)) {
		memcpy(buf + len, word, n - 1);
		buf[len + n - 1] = '\n';
		len += n;
	}
	while (!out->error && !sh_interrupted())
		sh_write(out, buf, len);
	kfree(buf);
	return 0;
}
SHELL_COMMAND("yes", cmd_yes, "[STRING]: print it (y) over and over");

static int cmd_seq(struct shell_out *out, int argc, char **argv)
{
	long v[3] = { 1, 1, 0 }, i;
	const char *sep = "\n";
	int first = 1, n;

	if (argc > 2 && !strcmp(argv[1], "-s")) {
		sep = argv[2];
		first = 3;
	}
	n = argc - first;
	if (n < 1 || n > 3) {
		sh_err("usage: seq [-s SEP] [FIRST [INCREMENT]] LAST\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		if (kstrtol(argv[first + i], 10, &v[n == 1 ? 2 : n == 2 ?
						    (i ? 2 : 0) : i])) {
			sh_err("seq: invalid number '%s'\n", argv[first + i]);
			return 1;
		}
	}
	if (!v[1]) {
		sh_err("seq: invalid Zero increment value: '0'\n");
		return 1;
	}
	for (i = v[0]; (v[1] > 0 ? i <= v[2] : i >= v[2]) && !out->error &&
	     !sh_interrupted(); i += v[1])
		sh_printf(out, "%s%ld", i == v[0] ? "" : sep, i);
	if (v[1] > 0 ? v[0] <= v[2] : v[0] >= v[2])
		sh_puts(out, "\n");
	return 0;
}
SHELL_COMMAND("seq", cmd_seq, "[-s SEP] [FIRST [INCREMENT]] LAST: print a sequence");

/* The length of path without its trailing slashes (keeping a lone /). */
static size_t trim_slashes(const char *path)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;
	return n;
}

static int cmd_basename(struct shell_out *out, int argc, char **argv)
{
	size_t n, start, slen;

	if (argc < 2 || argc > 3) {
		sh_err("usage: basename NAME [SUFFIX]\n");
		return 2;
	}
	n = trim_slashes(argv[1]);
	for (start = n; start && argv[1][start - 1] != '/'; start--)
		;
	if (start == n && n) {	/* the name is / */
		sh_puts(out, "/\n");
		return 0;
	}
	slen = argc == 3 ? strlen(argv[2]) : 0;
	if (slen && n - start > slen &&
	    !strncmp(argv[1] + n - slen, argv[2], slen))
		n -= slen;
	sh_printf(out, "%.*s\n", (int)(n - start), argv[1] + start);
	return 0;
}
SHELL_COMMAND("basename", cmd_basename, "NAME [SUFFIX]: the last part of a path");

static int cmd_dirname(struct shell_out *out, int argc, char **argv)
{
	size_t n;

	if (argc != 2) {
		sh_err("usage: dirname NAME\n");
		return 2;
	}
	n = trim_slashes(argv[1]);
	while (n && argv[1][n - 1] != '/')
		n--;
	while (n > 1 && argv[1][n - 1] == '/')
		n--;
	if (!n)
		sh_puts(out, argv[1][0] == '/' ? "/\n" : ".\n");
	else
		sh_printf(out, "%.*s\n", (int)n, argv[1]);
	return 0;
}
SHELL_COMMAND("dirname", cmd_dirname, "NAME: the path without its last part");

/* env [NAME=VALUE...] [COMMAND [ARGS]]: the variables set for it. */
static int cmd_env(struct shell_out *out, int argc, char **argv)
{
	struct sh_state *sh = sh_current();
	struct sh_saved_var *outer = sh->locals;
	const char *eq;
	struct sh_var *v;
	int i, status = 0, err = 0;

	sh->locals = NULL;
	for (i = 1; i < argc && (eq = strchr(argv[i], '=')) && !err; i++) {
		char *name = sh_strndup(argv[i], eq - argv[i]);

		err = name ? sh_local(sh, name) : -ENOMEM;
		if (!err)
			err = sh_export(sh, name) ?: sh_setvar(sh, name, eq + 1);
		kfree(name);
	}
	if (err)
		sh_err("env: %s\n", strerror_text(err));
	else if (i < argc)
		status = sh_run_argv(sh, argc - i, argv + i);
	else
		for (v = sh->vars; v; v = v->next)
			if (v->exported && v->value)
				sh_printf(out, "%s=%s\n", v->name, v->value);
	sh_restore_locals(sh, sh->locals);
	sh->locals = outer;
	return err ? 1 : status;
}
SHELL_COMMAND("env", cmd_env, "[NAME=VALUE...] [COMMAND [ARGS]]: the environment, or run with it");

/* A command is built in, so which names it; a script file by its path. */
static int cmd_which(struct shell_out *out, int argc, char **argv)
{
	int i, status = 0;

	for (i = 1; i < argc; i++)
		status |= sh_print_command_path(out, argv[i], false);
	return status;
}
SHELL_COMMAND("which", cmd_which, "NAME...: where each command comes from");

static int cmd_nproc(struct shell_out *out, int argc, char **argv)
{
	int cpu, n = 0;

	for_each_online_cpu(cpu)
		n++;
	sh_printf(out, "%d\n", n);
	return 0;
}
SHELL_COMMAND("nproc", cmd_nproc, "the number of CPUs online");

static int cmd_id(struct shell_out *out, int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "-u") || !strcmp(argv[1], "-g")))
		sh_puts(out, "0\n");
	else if (argc > 1 && (!strcmp(argv[1], "-un") || !strcmp(argv[1], "-gn")))
		sh_puts(out, "root\n");
	else
		sh_puts(out, "uid=0(root) gid=0(root) groups=0(root)\n");
	return 0;
}
SHELL_COMMAND("id", cmd_id, "[-u|-g|-un]: who runs the shell (root)");

/* A day count since 1970-01-01 as a date, after Howard Hinnant's days_from_civil inverse. */
static void civil_from_days(long z, long *y, int *m, int *d)
{
	long era, doe, yoe, doy, mp;

	z += 719468;
	era = z / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = yoe + era * 400 + (*m <= 2);
}

static void format_date(struct shell_out *out, const char *fmt, u64 ns)
{
	static const char *const days[] = {
		"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed" };
	static const char *const months[] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug",
		"Sep", "Oct", "Nov", "Dec" };
	unsigned long s = ns / NSEC_PER_SEC;
	long y;
	int m, d;

	civil_from_days(s / 86400, &y, &m, &d);
	for (; *fmt; fmt++) {
		if (*fmt != '%' || !fmt[1]) {
			sh_write(out, fmt, 1);
			continue;
		}
		switch (*++fmt) {
		case 's': sh_printf(out, "%lu", s); break;
		case 'N': sh_printf(out, "%09lu", (unsigned long)(ns % NSEC_PER_SEC)); break;
		case 'Y': sh_printf(out, "%ld", y); break;
		case 'm': sh_printf(out, "%02d", m); break;
		case 'd': sh_printf(out, "%02d", d); break;
		case 'H': sh_printf(out, "%02lu", s / 3600 % 24); break;
		case 'M': sh_printf(out, "%02lu", s / 60 % 60); break;
		case 'S': sh_printf(out, "%02lu", s % 60); break;
		case 'a': sh_puts(out, days[s / 86400 % 7]); break;
		case 'b': sh_puts(out, months[m - 1]); break;
		case 'e': sh_printf(out, "%2d", d); break;
		case 'T': format_date(out, "%H:%M:%S", ns); break;
		case 'F': format_date(out, "%Y-%m-%d", ns); break;
		case 'Z': sh_puts(out, "UTC"); break;
		case '%': sh_puts(out, "%"); break;
		default: sh_printf(out, "%%%c", *fmt); break;
		}
	}
}

static int cmd_date(struct shell_out *out, int argc, char **argv)
{
	const char *fmt = "%a %b %e %T %Z %Y";

	if (argc > 1 && argv[1][0] == '+')
		fmt = argv[1] + 1;
	else if (argc > 1 && strcmp(argv[1], "-u")) {
		sh_err("date: setting the date is not supported\n");
		return 1;
	}
	format_date(out, fmt, ktime_get_ns());
	sh_puts(out, "\n");
	return 0;
}
SHELL_COMMAND("date", cmd_date, "[+FORMAT]: the time since boot, as a date from 1970");

/* time CMD: as busybox's, the real time on standard error (no user/sys split). */
static int cmd_time(struct shell_out *out, int argc, char **argv)
{
	u64 start = ktime_get_ns(), ns;
	int status = argc > 1 ? sh_run_argv(sh_current(), argc - 1, argv + 1) : 0;

	ns = ktime_get_ns() - start;
	sh_err("real\t%lum %lu.%02lus\n", (unsigned long)(ns / NSEC_PER_SEC / 60),
	       (unsigned long)(ns / NSEC_PER_SEC % 60),
	       (unsigned long)(ns % NSEC_PER_SEC / (10 * NSEC_PER_MSEC)));
	return status;
}
SHELL_COMMAND("time", cmd_time, "COMMAND [ARGS]: run it and say how long it took");
