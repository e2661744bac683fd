/*
 * util_xargs.c: xargs [-rt] [-n MAX] [COMMAND [ARG]...]: the words of
 * standard input (split at blanks and newlines; '...', "..." and \
 * quote as the shell does) appended to COMMAND (echo if none), which
 * runs, as the shell would run it, once per batch of MAX words (all
 * of them if no -n). Exit status as busybox's: 123 if a run failed,
 * 127 if COMMAND is no command.
 */
#include "kernel.h"
#include "shell.h"
#include "getopt.h"
#include "text_input.h"
#include "ctype.h"
#include "kstrtox.h"
#include "mm.h"
#include "string.h"

struct words {
	char **v;		/* the command's words, then the batch's */
	int n, cap, fixed;	/* fixed: the command's own */
};

static int add_word(struct words *w, char *word)
{
	char **v;

	if (w->n + 1 >= w->cap) {
		v = kmalloc(2 * w->cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		memcpy(v, w->v, w->n * sizeof(*v));
		kfree(w->v);
		w->v = v;
		w->cap *= 2;
	}
	w->v[w->n++] = word;
	w->v[w->n] = NULL;
	return 0;
}

static void drop_batch(struct words *w)
{
	while (w->n > w->fixed)
		kfree(w->v[--w->n]);
}

/*
 * The next word of line from *p, unquoted, kmalloc'd; NULL at the
 * line's end (*err: -ENOMEM, or -EINVAL for an unmatched quote).
 */
static char *next_word(char **p, int *err)
{
	char *s = *p, *word, *w, quote = 0;

	while (isspace(*s))
		s++;
	if (!*s)
		return NULL;
	word = w = kmalloc(strlen(s) + 1);
	if (!word) {
		*err = -ENOMEM;
		return NULL;
	}
	for (; *s && (quote || !isspace(*s)); s++) {
		if (quote && *s == quote)
			quote = 0;
		else if (!quote && (*s == '\'' || *s == '"'))
			quote = *s;
		else if (!quote && *s == '\\' && s[1])
			*w++ = *++s;
		else
			*w++ = *s;
	}
	*w = 0;
	*p = s;
	if (quote) {
		sh_err("xargs: unmatched %s quote\n",
		       quote == '"' ? "double" : "single");
		kfree(word);
		*err = -EINVAL;
		return NULL;
	}
	return word;
}

struct xargs {
	const struct shell_command *cmd;
	int max;		/* words a run, 0: no limit */
	bool no_empty_run, trace;
	int status;
};

static void run_batch(struct shell_out *out, struct xargs *x,
		      struct words *w)
{
	int i, ret;

	if (x->trace) {
		for (i = 0; i < w->n; i++)
			sh_err("%s%s", i ? " " : "", w->v[i]);
		sh_err("\n");
	}
	ret = x->cmd->fn(out, w->n, w->v);
	if (ret)
		x->status = 123;
	drop_batch(w);
}

static int read_words(struct shell_out *out, struct xargs *x, struct words *w)
{
	struct text_input in;
	bool ran = false;
	char *line, *word;
	size_t len;
	int err = 0;

	text_input_init(&in, "xargs", 0, NULL);
	while (!err && (line = text_next_line(&in, &len))) {
		while ((word = next_word(&line, &err))) {
			err = add_word(w, word);
			if (err) {
				kfree(word);
				break;
			}
			if (x->max && w->n - w->fixed == x->max) {
				run_batch(out, x, w);
				ran = true;
			}
		}
	}
	if (!err && !in.interrupted &&
	    (w->n > w->fixed || (!ran && !x->no_empty_run)))
		run_batch(out, x, w);
	text_input_free(&in);
	if (err == -ENOMEM)
		sh_err("xargs: out of memory\n");
	return err;
}

static int cmd_xargs(struct shell_out *out, int argc, char **argv)
{
	struct getopt g = { .who = "xargs", .ind = 1 };
	static char *echo_argv[] = { "echo", NULL };
	struct xargs x = { .status = 0 };
	struct words w = { .cap = 0 };
	char **cmd_argv;
	int c, i;

	while ((c = getopt_next(&g, argc, argv, "rtn:")) != -1) {
		if (c == 'n' && (kstrtoint(g.arg, 10, &x.max) || x.max <= 0)) {
			sh_err("xargs: invalid number '%s'\n", g.arg);
			return 1;
		}
		if (c == '?')
			return 1;
		x.no_empty_run |= c == 'r';
		x.trace |= c == 't';
	}
	cmd_argv = g.ind < argc ? argv + g.ind : echo_argv;
	x.cmd = shell_find_command(cmd_argv[0]);
	if (!x.cmd) {
		sh_err("xargs: %s: No such file or directory\n", cmd_argv[0]);
		return 127;
	}
	w.cap = argc + 16;
	w.v = kmalloc(w.cap * sizeof(*w.v));
	if (!w.v) {
		sh_err("xargs: out of memory\n");
		return 1;
	}
	for (i = 0; cmd_argv[i] && i < argc; i++)
		w.v[w.n++] = cmd_argv[i];
	w.v[w.n] = NULL;
	w.fixed = w.n;
	if (read_words(out, &x, &w))
		x.status = 1;
	drop_batch(&w);
	kfree(w.v);
	return x.status;
}
SHELL_COMMAND("xargs", cmd_xargs,
	      "[-rt] [-n MAX] [COMMAND [ARG]...]: run COMMAND on the words of stdin");
