/*
 * util_sed.c: sed [-n] [-E|-r] [-e SCRIPT]... [SCRIPT] [FILE]...: the
 * script language is lib/sed.c's; here the input is read a line ahead
 * (to know which line is $) and each printed line written whole.
 */
#include "kernel.h"
#include "shell.h"
#include "getopt.h"
#include "text_input.h"
#include "sed.h"
#include "mm.h"
#include "string.h"

static void print_line(void *ctx, const char *text, size_t len)
{
	sh_printf(ctx, "%.*s\n", (int)len, text);
}

/* Every line through the script; the exit status. */
static int sed_input(struct shell_out *out, struct sed_script *s,
		     struct text_input *in)
{
	struct sed_space ps = { 0 };
	unsigned long lineno = 0;
	char *line, *next;
	size_t len, next_len;
	int ret = 0;

	line = text_next_line(in, &len);
	while (line && !ret && !sh_interrupted()) {
		ret = sed_space_set(&ps, line, len);
		next = ret ? NULL : text_next_line(in, &next_len);
		if (!ret)
			ret = sed_run(s, &ps, ++lineno, !next, print_line, out);
		line = next;
		len = next_len;
	}
	kfree(ps.buf);
	if (ret < 0) {
		sh_err("sed: out of memory\n");
		return 4;
	}
	if (ret)
		return s->exit_code;
	return in->failed ? 2 : 0;
}

static int parse_script(struct sed_script *s, const char *text)
{
	if (!sed_parse(s, text))
		return 0;
	sh_err("sed: %s\n", s->error);
	return -EINVAL;
}

static int cmd_sed(struct shell_out *out, int argc, char **argv)
{
	struct getopt o = { .who = "sed", .ind = 1 };
	struct sed_script s;
	struct text_input in;
	bool have_script = false, quiet = false;
	int c, flags = 0, status = 1;

	sed_init(&s, 0);
	while ((c = getopt_next(&o, argc, argv, "nEre:")) != -1) {
		if (c == 'n')
			quiet = true;
		else if (c == 'E' || c == 'r')
			s.flags = flags = REGEX_EXTENDED;
		else if (c == 'e' && !parse_script(&s, o.arg))
			have_script = true;
		else
			goto out;
	}
	if (!have_script && o.ind < argc) {
		if (parse_script(&s, argv[o.ind++]))
			goto out;
		have_script = true;
	}
	if (!have_script) {
		sh_err("Usage: sed [-nE] [-e SCRIPT]... [SCRIPT] [FILE]...\n");
		goto out;
	}
	s.quiet = quiet;
	text_input_init(&in, "sed", argc - o.ind, argv + o.ind);
	status = sed_input(out, &s, &in);
	text_input_free(&in);
out:
	sed_free(&s);
	return status;
}
SHELL_COMMAND("sed", cmd_sed,
	      "[-nE] [-e SCRIPT]... [SCRIPT] [FILE]...: edit lines as they stream");
