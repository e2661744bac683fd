/*
 * util_uniq.c: uniq [-cdu] [FILE]: each run of equal adjacent lines
 * once; -c with its count (as "%7lu "), -d only runs of two or more,
 * -u only lines that stand alone.
 */
#include "kernel.h"
#include "shell.h"
#include "getopt.h"
#include "text_input.h"
#include "mm.h"
#include "string.h"

struct uniq {
	bool count, repeated, unique;
	char *prev;		/* the run's line */
	size_t len, cap;
	unsigned long n;	/* lines in the run */
};

static void end_run(struct shell_out *out, struct uniq *u)
{
	if (!u->n || (u->repeated && u->n < 2) || (u->unique && u->n > 1))
		return;
	if (u->count)
		sh_printf(out, "%7lu %.*s\n", u->n, (int)u->len, u->prev);
	else
		sh_printf(out, "%.*s\n", (int)u->len, u->prev);
}

static int start_run(struct uniq *u, const char *line, size_t len)
{
	char *buf;

	if (len >= u->cap) {
		buf = kmalloc(len + 1);
		if (!buf)
			return -ENOMEM;
		kfree(u->prev);
		u->prev = buf;
		u->cap = len + 1;
	}
	memcpy(u->prev, line, len);
	u->len = len;
	u->n = 1;
	return 0;
}

static int cmd_uniq(struct shell_out *out, int argc, char **argv)
{
	struct getopt g = { .who = "uniq", .ind = 1 };
	struct uniq u = { .n = 0 };
	struct text_input in;
	int c, err = 0;
	size_t len;
	char *line;

	while ((c = getopt_next(&g, argc, argv, "cdu")) != -1) {
		if (c == '?')
			return 1;
		u.count |= c == 'c';
		u.repeated |= c == 'd';
		u.unique |= c == 'u';
	}
	if (argc - g.ind > 1) {
		sh_err("uniq: extra operand '%s'\n", argv[g.ind + 1]);
		return 1;
	}
	text_input_init(&in, "uniq", argc - g.ind, argv + g.ind);
	while (!err && (line = text_next_line(&in, &len))) {
		if (u.n && len == u.len && !memcmp(line, u.prev, len)) {
			u.n++;
			continue;
		}
		end_run(out, &u);
		err = start_run(&u, line, len);
	}
	if (err)
		sh_err("uniq: out of memory\n");
	else if (!in.interrupted)
		end_run(out, &u);
	kfree(u.prev);
	text_input_free(&in);
	return err || in.failed;
}
SHELL_COMMAND("uniq", cmd_uniq,
	      "[-cdu] [FILE]: print each run of equal lines once");
