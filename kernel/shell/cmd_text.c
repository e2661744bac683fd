/*
 * cmd_text.c: the stream utilities next to the shell: head, tail
 * (-n, -f), wc and tee. Each reads its files or, without one (or for
 * "-"), its standard input, so that they sit in pipelines as their
 * busybox versions do: `cat trace | head -20`, `grep fib trace | wc -l`.
 * Messages and output formats are GNU coreutils'.
 */
#include "kernel.h"
#include "mm.h"
#include "string.h"
#include "kstrtox.h"
#include "sched.h"
#include "vfs.h"
#include "shell.h"

#define TEXT_CHUNK	4096

/* A file, or standard input ("-" or none). */
struct input {
	struct file *f;
	const char *name;
};

static int input_open(const char *who, const char *path, struct input *in)
{
	int err;

	in->f = NULL;
	in->name = path && strcmp(path, "-") ? path : "standard input";
	if (!path || !strcmp(path, "-"))
		return 0;
	err = vfs_open(shell_cwd(), path, O_RDONLY, &in->f);
	if (err)
		sh_err("%s: %s: %s\n", who, path, strerror_text(err));
	return err;
}

static ssize_t input_read(struct input *in, char *buf, size_t n)
{
	if (sh_interrupted())
		return -EINTR;
	return in->f ? vfs_read(in->f, buf, n) : sh_read_stdin(buf, n);
}

static void input_close(struct input *in)
{
	if (in->f)
		vfs_close(in->f);
}

/* -n N, -N, or -nN: the count (and from_start for tail's +N). */
static int line_count(const char *who, int *argc, char ***argv, long *n,
		      bool *from_start)
{
	const char *arg = NULL;
	unsigned long v;

	if (*argc > 1 && !strcmp((*argv)[1], "-n") && *argc > 2) {
		arg = (*argv)[2];
		*argc -= 2;
		*argv += 2;
	} else if (*argc > 1 && !strncmp((*argv)[1], "-n", 2)) {
		arg = (*argv)[1] + 2;
		*argc -= 1;
		*argv += 1;
	} else if (*argc > 1 && (*argv)[1][0] == '-' &&
		   (*argv)[1][1] >= '0' && (*argv)[1][1] <= '9') {
		arg = (*argv)[1] + 1;
		*argc -= 1;
		*argv += 1;
	}
	if (!arg)
		return 0;
	*from_start = *arg == '+';
	if (kstrtoul(arg + (*arg == '+' || *arg == '-'), 10, &v)) {
		sh_err("%s: invalid number of lines: '%s'\n", who, arg);
		return 2;
	}
	*n = v;
	return 0;
}

/* Copy the first n lines; stop reading there (a pipe's writer then ends). */
static int head_one(struct shell_out *out, struct input *in, long n,
		    char *buf)
{
	ssize_t got = 0;
	size_t i;

	while (n > 0 && !out->error && (got = input_read(in, buf, TEXT_CHUNK)) > 0) {
		for (i = 0; i < (size_t)got && n > 0; i++)
			n -= buf[i] == '\n';
		sh_write(out, buf, i);
	}
	return got < 0 && got != -EINTR;
}

static int cmd_head(struct shell_out *out, int argc, char **argv)
{
	struct input in;
	bool from_start;
	long n = 10;
	int i, status = line_count("head", &argc, &argv, &n, &from_start);
	char *buf = kmalloc(TEXT_CHUNK);

	for (i = 1; !status && buf && i < argc + (argc == 1); i++) {
		if (input_open("head", argc > 1 ? argv[i] : NULL, &in)) {
			status = 1;
			continue;
		}
		if (argc > 2)
			sh_printf(out, "%s==> %s <==\n", i > 1 ? "\n" : "",
				  in.name);
		status |= head_one(out, &in, n, buf);
		input_close(&in);
	}
	if (!buf)
		sh_err("head: %s\n", strerror_text(ENOMEM));
	kfree(buf);
	return buf ? status : 1;
}
SHELL_COMMAND("head", cmd_head, "[-n N] [FILE...]: the first N lines (10)");

/* The whole input, NUL-terminated, in a buffer that doubles. */
static char *read_input(struct input *in, size_t *len)
{
	size_t size = TEXT_CHUNK;
	char *buf = kmalloc(size), *bigger;
	ssize_t n = 0;

	*len = 0;
	while (buf && (n = input_read(in, buf + *len, size - 1 - *len)) > 0) {
		*len += n;
		if (*len < size - 1)
			continue;
		bigger = kmalloc(size * 2);
		if (bigger)
			memcpy(bigger, buf, *len);
		kfree(buf);
		buf = bigger;
		size *= 2;
	}
	if (buf && n < 0 && n != -EINTR) {
		kfree(buf);
		return ERR_PTR(n);
	}
	if (buf)
		buf[*len] = 0;
	return buf ? buf : ERR_PTR(-ENOMEM);
}

/* Where the last n lines of text begin (or line n, from_start). */
static size_t tail_start(const char *text, size_t len, long n,
			 bool from_start)
{
	size_t i;

	if (from_start) {
		for (i = 0; i < len && n > 1; i++)
			n -= text[i] == '\n';
		return i;
	}
	i = len;
	if (i && text[i - 1] == '\n')
		i--;
	while (i && n) {
		i--;
		if (text[i] == '\n' && !--n)
			return i + 1;
	}
	return i;
}

/* tail -f: what is added to the file, until Ctrl-C. */
static void follow(struct shell_out *out, struct input *in)
{
	char buf[256];
	ssize_t n;

	while (!out->error && !sh_interrupted()) {
		n = input_read(in, buf, sizeof(buf));
		if (n > 0)
			sh_write(out, buf, n);
		else if (n < 0 || !in->f)
			break;
		else
			msleep(100);
	}
}

static int cmd_tail(struct shell_out *out, int argc, char **argv)
{
	bool from_start = false, follow_file = false;
	struct input in;
	size_t len, start;
	long n = 10;
	char *text;
	int status;

	if (argc > 1 && !strcmp(argv[1], "-f")) {
		follow_file = true;
		argc--;
		argv++;
	}
	status = line_count("tail", &argc, &argv, &n, &from_start);
	if (status)
		return status;
	if (argc > 2) {
		sh_err("tail: only one file is supported\n");
		return 2;
	}
	if (input_open("tail", argc > 1 ? argv[1] : NULL, &in))
		return 1;
	text = read_input(&in, &len);
	if (IS_ERR(text)) {
		sh_err("tail: %s: %s\n", in.name, strerror_text(PTR_ERR(text)));
		input_close(&in);
		return 1;
	}
	start = tail_start(text, len, n, from_start);
	sh_write(out, text + start, len - start);
	kfree(text);
	if (follow_file)
		follow(out, &in);
	input_close(&in);
	return 0;
}
SHELL_COMMAND("tail", cmd_tail, "[-f] [-n [+]N] [FILE]: the last N lines (10); -f: and what follows");

struct counts {
	unsigned long lines, words, bytes;
};

static int count_input(struct input *in, struct counts *c, char *buf)
{
	bool in_word = false, space;
	ssize_t n;
	ssize_t i;

	while ((n = input_read(in, buf, TEXT_CHUNK)) > 0) {
		c->bytes += n;
		for (i = 0; i < n; i++) {
			space = buf[i] == ' ' || (buf[i] >= '\t' && buf[i] <= '\r');
			c->lines += buf[i] == '\n';
			c->words += in_word && space;
			in_word = !space;
		}
	}
	c->words += in_word;
	return n < 0 && n != -EINTR;
}

/* One count alone is bare, several are at width 7, as GNU's for a pipe. */
static void print_counts(struct shell_out *out, const struct counts *c,
			 const char *opts, const char *name)
{
	unsigned long v[3] = { c->lines, c->words, c->bytes };
	int shown = !!strchr(opts, 'l') + !!strchr(opts, 'w') +
		    !!strchr(opts, 'c'), i, printed = 0;

	for (i = 0; i < 3; i++) {
		if (!strchr(opts, "lwc"[i]))
			continue;
		sh_printf(out, shown > 1 ? "%s%7lu" : "%s%lu",
			  printed++ ? " " : "", v[i]);
	}
	sh_printf(out, name ? " %s\n" : "\n", name);
}

static int cmd_wc(struct shell_out *out, int argc, char **argv)
{
	struct counts total = { 0 }, c;
	char opts[4] = "", *buf;
	int i = 1, files, status = 0;
	struct input in;
	const char *p;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		for (p = argv[i] + 1; *p; p++) {
			if (!strchr("lwc", *p)) {
				sh_err("wc: invalid option -- '%c'\n", *p);
				return 2;
			}
			if (!strchr(opts, *p))
				strlcat(opts, (char[]){ *p, 0 }, sizeof(opts));
		}
	}
	if (!opts[0])
		strlcpy(opts, "lwc", sizeof(opts));
	files = argc - i;
	buf = kmalloc(TEXT_CHUNK);
	if (!buf) {
		sh_err("wc: %s\n", strerror_text(ENOMEM));
		return 1;
	}
	do {
		memset(&c, 0, sizeof(c));
		if (input_open("wc", files ? argv[i] : NULL, &in)) {
			status = 1;
			continue;
		}
		status |= count_input(&in, &c, buf);
		input_close(&in);
		print_counts(out, &c, opts, files ? argv[i] : NULL);
		total.lines += c.lines;
		total.words += c.words;
		total.bytes += c.bytes;
	} while (++i < argc);
	if (files > 1)
		print_counts(out, &total, opts, "total");
	kfree(buf);
	return status;
}
SHELL_COMMAND("wc", cmd_wc, "[-lwc] [FILE...]: count lines, words and bytes");

static int cmd_tee(struct shell_out *out, int argc, char **argv)
{
	bool append = argc > 1 && !strcmp(argv[1], "-a");
	int first = 1 + append, nfiles = argc - first, i, status = 0;
	struct shell_out *files = kzalloc((nfiles + 1) * sizeof(*files));
	char *buf = kmalloc(TEXT_CHUNK);
	ssize_t n = 0;

	if (!files || !buf) {
		sh_err("tee: %s\n", strerror_text(ENOMEM));
		kfree(files);
		kfree(buf);
		return 1;
	}
	for (i = 0; i < nfiles; i++) {
		int err = sh_open_output(argv[first + i], append, &files[i]);

		if (err) {
			sh_err("tee: %s: %s\n", argv[first + i],
			       strerror_text(err));
			files[i].error = err;
			files[i].file = NULL;
			status = 1;
		}
	}
	while ((n = sh_read_stdin(buf, TEXT_CHUNK)) > 0) {
		sh_write(out, buf, n);
		for (i = 0; i < nfiles; i++)
			if (!files[i].error)
				sh_write(&files[i], buf, n);
	}
	for (i = 0; i < nfiles; i++) {
		if (files[i].file && sh_close_output(&files[i])) {
			sh_err("tee: %s: %s\n", argv[first + i],
			       strerror_text(files[i].error));
			status = 1;
		}
	}
	kfree(files);
	kfree(buf);
	return status;
}
SHELL_COMMAND("tee", cmd_tee, "[-a] [FILE...]: copy standard input to output and files");
