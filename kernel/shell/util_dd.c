/*
 * util_dd.c: dd [if=FILE] [of=FILE] [bs=N] [count=N] [skip=N]: copy
 * blocks of bs bytes (512 by default; N may end in c, w, b, k or M),
 * count of them at most, after skipping skip, from if (standard input)
 * to of (standard output). Standard error gets the records in and
 * out, whole and partial, and the bytes copied, as dd reports them.
 */
#include "kernel.h"
#include "shell.h"
#include "text_input.h"
#include "kstrtox.h"
#include "vfs.h"
#include "mm.h"
#include "string.h"

#define BS_MAX		(1UL << 20)

struct dd {
	char *input, *output;
	unsigned long bs, count, skip;
	bool counted;		/* count= was given */
	unsigned long full_in, part_in, full_out, part_out;
	u64 bytes;
};

/* N with dd's multipliers: c 1, w 2, b 512, k 1024, M 1048576. */
static int parse_size(const char *s, unsigned long *n)
{
	static const char suffixes[] = "cwbkM";
	static const unsigned long factors[] = { 1, 2, 512, 1024, 1 << 20 };
	char num[24];
	size_t len = strlen(s);
	const char *f;

	if (!len || len >= sizeof(num))
		return -EINVAL;
	strlcpy(num, s, sizeof(num));
	f = strchr(suffixes, num[len - 1]);
	if (f && len > 1)
		num[len - 1] = 0;
	if (kstrtoul(num, 10, n))
		return -EINVAL;
	if (f)
		*n *= factors[f - suffixes];
	return 0;
}

/* The operand's value if arg is "key=value", else NULL. */
static char *value_of(char *arg, const char *key)
{
	size_t len = strlen(key);

	return !strncmp(arg, key, len) && arg[len] == '=' ? arg + len + 1 : NULL;
}

static int parse_operand(struct dd *d, char *arg)
{
	unsigned long *n = NULL;
	char *value;

	if ((value = value_of(arg, "if")))
		d->input = value;
	else if ((value = value_of(arg, "of")))
		d->output = value;
	else if ((value = value_of(arg, "bs")))
		n = &d->bs;
	else if ((value = value_of(arg, "count")))
		n = &d->count;
	else if ((value = value_of(arg, "skip")))
		n = &d->skip;
	if (!value) {
		sh_err("dd: unrecognized operand '%s'\n", arg);
		return -EINVAL;
	}
	d->counted |= n == &d->count;
	if (n && parse_size(value, n)) {
		sh_err("dd: invalid number '%s'\n", value);
		return -EINVAL;
	}
	return 0;
}

/* One block: a full one, or what the input had left. */
static ssize_t read_block(struct text_input *in, char *buf, size_t bs)
{
	size_t got = 0;
	ssize_t n;

	while (got < bs) {
		n = text_read_bytes(in, buf + got, bs - got);
		if (n <= 0)
			return got ? (ssize_t)got : n;
		got += n;
		if (!in->file)	/* a line typed is a block, as from a tty */
			break;
	}
	return got;
}

static void copy(struct shell_out *out, struct dd *d, struct text_input *in,
		 char *buf)
{
	unsigned long blocks = 0;
	ssize_t n;

	while (!out->error && (!d->counted || blocks < d->count + d->skip)) {
		n = read_block(in, buf, d->bs);
		if (n <= 0)
			break;
		if (blocks++ < d->skip)
			continue;
		*((size_t)n == d->bs ? &d->full_in : &d->part_in) += 1;
		sh_write(out, buf, n);
		if (out->error)
			break;
		*((size_t)n == d->bs ? &d->full_out : &d->part_out) += 1;
		d->bytes += n;
	}
}

static int open_output(struct dd *d, struct shell_out *out)
{
	struct shell_out file;
	int err;

	if (!d->output)
		return 0;
	err = sh_open_output(d->output, false, &file);
	if (err) {
		sh_err("dd: can't open '%s': %s\n", d->output, strerror_text(err));
		return err;
	}
	*out = file;
	return 0;
}

static int cmd_dd(struct shell_out *out, int argc, char **argv)
{
	struct dd d = { .bs = 512 };
	struct shell_out to = *out;
	struct text_input in;
	char *buf;
	int i, status = 1;

	for (i = 1; i < argc; i++)
		if (parse_operand(&d, argv[i]))
			return 1;
	if (!d.bs || d.bs > BS_MAX) {
		sh_err("dd: bs must be 1 to %lu bytes\n", BS_MAX);
		return 1;
	}
	buf = kmalloc(d.bs);
	if (!buf) {
		sh_err("dd: out of memory\n");
		return 1;
	}
	text_input_init(&in, "dd", d.input ? 1 : 0, &d.input);
	if (text_next_file(&in) && !open_output(&d, &to)) {
		copy(&to, &d, &in, buf);
		if (d.output && sh_close_output(&to))
			sh_err("dd: %s: %s\n", d.output, strerror_text(to.error));
		else if (!d.output && to.error)
			out->error = to.error;
		sh_err("%lu+%lu records in\n%lu+%lu records out\n%llu bytes copied\n",
		       d.full_in, d.part_in, d.full_out, d.part_out, d.bytes);
		status = in.failed || to.error;
	}
	text_input_free(&in);
	kfree(buf);
	return status;
}
SHELL_COMMAND("dd", cmd_dd,
	      "[if=F] [of=F] [bs=N] [count=N] [skip=N]: copy blocks");
