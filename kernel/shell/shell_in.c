/*
 * shell_in.c: a command's standard input, and whether it was asked to
 * stop. Standard input is the task's file (a file opened with <, a
 * pipe, a here-document) or, without one, the console, read a line at
 * a time with echo and editing as a tty in canonical mode gives it.
 */
#include "kernel.h"
#include "shell.h"
#include "readline.h"
#include "sched.h"
#include "vfs.h"
#include "mm.h"
#include "string.h"

/*
 * The console's cooked line, as a tty's line discipline keeps it: a
 * read takes what fits, and the rest waits for the next read (of this
 * command, or of the shell, as n_tty hands it on).
 */
static struct {
	char *buf;
	size_t len, off;
} cooked;

static size_t take_cooked(char *buf, size_t n)
{
	size_t len = min(n, cooked.len - cooked.off);

	memcpy(buf, cooked.buf + cooked.off, len);
	cooked.off += len;
	if (cooked.off == cooked.len) {
		kfree(cooked.buf);
		cooked.buf = NULL;
	}
	return len;
}

/* Bytes of a console line: Enter's newline included; 0 at Ctrl-D. */
static ssize_t read_console_line(char *buf, size_t n)
{
	bool eol;
	int len;

	if (!cooked.buf) {
		char *line = kmalloc(SHELL_LINE_MAX + 1);

		if (!line)
			return -ENOMEM;
		len = readline_canon(line, SHELL_LINE_MAX + 1, &eol);
		if (len < 0) {
			kfree(line);
			return len == -ENODATA ? 0 : len;
		}
		if (eol)
			line[len++] = '\n';
		cooked.buf = line;
		cooked.len = len;
		cooked.off = 0;
	}
	return take_cooked(buf, n);
}

size_t sh_console_unread(char *line, size_t size)
{
	size_t len;

	if (!cooked.buf || !size)
		return 0;
	len = take_cooked(line, size - 1);
	line[len] = 0;
	if (len && line[len - 1] == '\n')
		line[--len] = 0;
	return len;
}

ssize_t sh_read_stdin(char *buf, size_t n)
{
	struct file *in = current->files[0];

	if (sh_interrupted())
		return -EINTR;
	if (!n)
		return 0;
	return in ? vfs_read(in, buf, n) : read_console_line(buf, n);
}

bool sh_interrupted(void)
{
	return READ_ONCE(current->sigpending);
}
