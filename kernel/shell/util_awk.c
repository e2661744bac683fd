/*
 * util_awk.c: awk [-F SEP] 'PROGRAM' [FILE]...: lib/awk.c's small awk
 * over the files' lines (or standard input's), its output written a
 * line at a time.
 */
#include "kernel.h"
#include "shell.h"
#include "getopt.h"
#include "text_input.h"
#include "awk.h"

static void print_text(void *ctx, const char *text, size_t len)
{
	sh_write(ctx, text, len);
}

static int run(struct shell_out *out, struct awk *a, struct text_input *in)
{
	size_t len;
	char *line;
	int err = awk_begin(a);

	if (!err && awk_reads_input(a)) {
		while (!err && (line = text_next_line(in, &len)))
			err = awk_line(a, line, len);
		if (!err && !in->interrupted)
			err = awk_end(a);
	}
	if (err && !sh_interrupted())	/* Ctrl-C stops it without a word */
		sh_err("awk: %s\n", awk_error(a));
	return err || in->failed ? 2 : 0;
}

static int cmd_awk(struct shell_out *out, int argc, char **argv)
{
	struct getopt g = { .who = "awk", .ind = 1 };
	const char *fs = " ", *error;
	struct text_input in;
	struct awk *a;
	int c, status;

	while ((c = getopt_next(&g, argc, argv, "F:")) != -1) {
		if (c == '?')
			return 2;
		fs = g.arg;
	}
	if (g.ind >= argc) {
		sh_err("Usage: awk [-F SEP] 'PROGRAM' [FILE]...\n");
		return 2;
	}
	a = awk_parse(argv[g.ind], fs, print_text, out, sh_interrupted, &error);
	if (!a) {
		sh_err("awk: %s\n", error);
		return 2;
	}
	text_input_init(&in, "awk", argc - g.ind - 1, argv + g.ind + 1);
	status = run(out, a, &in);
	text_input_free(&in);
	awk_free(a);
	return status;
}
SHELL_COMMAND("awk", cmd_awk,
	      "[-F SEP] 'PROGRAM' [FILE]...: patterns, fields, print, sums");
