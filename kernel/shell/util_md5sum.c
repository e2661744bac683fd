/*
 * util_md5sum.c: md5sum [FILE]...: each file's MD5 (lib/md5.c) as
 * "HASH  NAME", standard input's as "HASH  -".
 */
#include "kernel.h"
#include "shell.h"
#include "text_input.h"
#include "md5.h"

static void md5sum_file(struct shell_out *out, struct text_input *in)
{
	u8 digest[MD5_DIGEST_SIZE];
	struct md5_ctx c;
	size_t len;
	char *line;
	int i;

	md5_init(&c);
	while ((line = text_read_line(in, &len))) {
		md5_update(&c, line, len);
		if (!in->no_newline)
			md5_update(&c, "\n", 1);
	}
	if (in->interrupted || in->read_error)
		return;
	md5_final(&c, digest);
	for (i = 0; i < MD5_DIGEST_SIZE; i++)
		sh_printf(out, "%02x", digest[i]);
	sh_printf(out, "  %s\n", in->name);
}

static int cmd_md5sum(struct shell_out *out, int argc, char **argv)
{
	struct text_input in;

	text_input_init(&in, "md5sum", argc - 1, argv + 1);
	while (text_next_file(&in) && !in.interrupted)
		md5sum_file(out, &in);
	text_input_free(&in);
	return in.failed;
}
SHELL_COMMAND("md5sum", cmd_md5sum, "[FILE]...: print each file's MD5 digest");
