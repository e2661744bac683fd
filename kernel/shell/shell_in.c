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

/* A console line: the bytes typed and the newline; 0 at Ctrl-D. */
static ssize_t read_console_line(char *buf, size_t n)
{
	char *line = kmalloc(SHELL_LINE_MAX + 1);
	int len;

	if (!line)
		return -ENOMEM;
	len = readline("", line, SHELL_LINE_MAX + 1);
	if (len >= 0) {
		line[len++] = '\n';
		len = min((size_t)len, n);
		memcpy(buf, line, len);
	} else if (len == -ENODATA) {
		len = 0;
	}
	kfree(line);
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
