/*
 * shell_in.c: a command's standard input, which here is the console
 * read as a terminal in canonical mode gives it to a program: a line
 * at a time, echoed as typed, Backspace erasing, Enter ending the
 * line (with its '\n'), Ctrl-D at the start of a line the end of file
 * (within a line it hands over what was typed), Ctrl-C -EINTR.
 */
#include "kernel.h"
#include "shell.h"
#include "printk.h"
#include "sched.h"
#include "string.h"

#define CTRL(c)		((c) & 0x1f)
#define DEL		0x7f

/* The line being typed, then handed out; commands run one at a time. */
static struct {
	char buf[SHELL_LINE_MAX + 1];
	size_t len, pos;	/* filled up to len, handed out up to pos */
	bool after_cr;
} tty;

bool sh_interrupted(void)
{
	return current->sigpending;
}

static void erase(void)
{
	if (tty.len) {
		tty.len--;
		console_write("\b \b", 3);
	}
}

/* A full line rings the bell and drops the byte, as n_tty does. */
static void type_byte(char c)
{
	if (tty.len >= SHELL_LINE_MAX) {
		console_write("\a", 1);
		return;
	}
	tty.buf[tty.len++] = c;
	console_write(&c, 1);
}

/* Collect a line; 0 when one is ready (maybe empty: end of file). */
static int cook_line(void)
{
	int c;

	tty.len = tty.pos = 0;
	for (;;) {
		c = console_getc();
		if (c == CTRL('C') || sh_interrupted())
			return -EINTR;
		if (c == '\n' && tty.after_cr) {
			tty.after_cr = false;
			continue;
		}
		tty.after_cr = c == '\r';
		if (c == '\r' || c == '\n') {
			console_write("\n", 1);
			tty.buf[tty.len++] = '\n';
			return 0;
		}
		if (c == CTRL('D'))
			return 0;
		if (c == DEL || c == '\b')
			erase();
		else
			type_byte(c);
	}
}

ssize_t sh_read_stdin(char *buf, size_t n)
{
	int err;

	if (tty.pos == tty.len) {
		err = cook_line();
		if (err)
			return err;
	}
	n = min(n, tty.len - tty.pos);
	memcpy(buf, tty.buf + tty.pos, n);
	tty.pos += n;
	return n;
}
