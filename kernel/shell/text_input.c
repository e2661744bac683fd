/*
 * text_input.c: the one way text utilities read their input: the
 * files of their command line in turn ("-" and no file at all mean
 * standard input, sh_read_stdin), each line by line. A line may be
 * any length: the buffer doubles until it fits one, and running out
 * of memory is an error message, not a cut line.
 */
#include "kernel.h"
#include "shell.h"
#include "text_input.h"
#include "vfs.h"
#include "mm.h"
#include "string.h"

#define READ_CHUNK	4096

static char *stdin_name = "-";

void text_input_init(struct text_input *in, const char *who, int n,
		     char **names)
{
	memset(in, 0, sizeof(*in));
	in->who = who;
	in->names = n ? names : &stdin_name;
	in->nnames = n ? n : 1;
	in->eof = true;
}

static void close_current(struct text_input *in)
{
	if (in->file)
		vfs_close(in->file);
	in->file = NULL;
	in->start = in->end = 0;
	in->eof = true;
}

bool text_next_file(struct text_input *in)
{
	int err;

	close_current(in);
	while (in->next < in->nnames && !in->interrupted) {
		in->name = in->names[in->next++];
		in->eof = false;
		in->no_newline = false;
		in->read_error = false;
		if (!strcmp(in->name, "-"))
			return true;
		err = vfs_open(shell_cwd(), in->name, O_RDONLY, &in->file);
		if (!err)
			return true;
		sh_err("%s: %s: %s\n", in->who, in->name, strerror_text(err));
		in->failed = true;
		in->file = NULL;
	}
	in->eof = true;
	return false;
}

/* Room for READ_CHUNK more bytes after end, moving the kept bytes down. */
static bool make_room(struct text_input *in)
{
	size_t kept = in->end - in->start, cap = in->cap ? in->cap : 2 * READ_CHUNK;
	char *buf;

	if (in->start) {
		memmove(in->buf, in->buf + in->start, kept);
		in->start = 0;
		in->end = kept;
	}
	if (in->cap - in->end > READ_CHUNK)
		return true;
	while (cap - kept <= READ_CHUNK)
		cap *= 2;
	buf = kmalloc(cap);
	if (!buf)
		return false;
	memcpy(buf, in->buf, kept);
	kfree(in->buf);
	in->buf = buf;
	in->cap = cap;
	return true;
}

static ssize_t read_more(struct text_input *in)
{
	ssize_t n;

	if (!make_room(in)) {
		sh_err("%s: out of memory\n", in->who);
		return -ENOMEM;
	}
	if (sh_interrupted())
		return -EINTR;
	if (in->file)
		n = vfs_read(in->file, in->buf + in->end, READ_CHUNK);
	else
		n = sh_read_stdin(in->buf + in->end, READ_CHUNK);
	if (n > 0)
		in->end += n;
	else if (n < 0 && n != -EINTR)
		sh_err("%s: %s: %s\n", in->who, in->name, strerror_text(n));
	return n;
}

/* The line from start to nl (excluded), handed out NUL-terminated. */
static char *take_line(struct text_input *in, char *nl, size_t *len)
{
	char *line = in->buf + in->start;

	*len = nl - line;
	*nl = 0;
	in->start += *len + 1;
	return line;
}

char *text_read_line(struct text_input *in, size_t *len)
{
	char *nl;
	ssize_t n;

	while (!in->eof) {
		nl = in->buf ? memchr(in->buf + in->start, '\n',
				      in->end - in->start) : NULL;
		if (nl)
			return take_line(in, nl, len);
		n = read_more(in);
		if (n > 0)
			continue;
		in->eof = true;
		in->interrupted = n == -EINTR;
		in->read_error = n < 0 && n != -EINTR;
		in->failed |= in->read_error;
		if (n < 0 || in->start == in->end)
			return NULL;
		/* a last line without '\n': there is room for its NUL */
		in->no_newline = true;
		return take_line(in, in->buf + in->end, len);
	}
	return NULL;
}

ssize_t text_read_bytes(struct text_input *in, char *buf, size_t n)
{
	ssize_t got;

	if (in->end > in->start) {	/* what a line read left over */
		n = min(n, in->end - in->start);
		memcpy(buf, in->buf + in->start, n);
		in->start += n;
		return n;
	}
	if (in->eof)
		return 0;
	if (sh_interrupted())
		got = -EINTR;
	else if (in->file)
		got = vfs_read(in->file, buf, n);
	else
		got = sh_read_stdin(buf, n);
	if (got < 0 && got != -EINTR)
		sh_err("%s: %s: %s\n", in->who, in->name, strerror_text(got));
	in->eof = got <= 0;
	in->interrupted = got == -EINTR;
	in->read_error = got < 0 && got != -EINTR;
	in->failed |= in->read_error;
	return got;
}

char *text_next_line(struct text_input *in, size_t *len)
{
	char *line;

	for (;;) {
		line = text_read_line(in, len);
		if (line || in->interrupted || !text_next_file(in))
			return line;
	}
}

void text_input_free(struct text_input *in)
{
	close_current(in);
	kfree(in->buf);
	in->buf = NULL;
}
