/*
 * shell_out.c: where command output goes. Standard output is the
 * console or the task's file (a redirect's, a pipe); one sh_write is
 * one vfs_write (tracefs parses each write whole, as Linux's does).
 * Standard error is the task's file 2, else the console.
 */
#include "kernel.h"
#include "shell.h"
#include "vfs.h"
#include "mm.h"
#include "printk.h"
#include "sched.h"
#include "string.h"

/* Write all of buf, as stdio does: a short write is followed by another. */
static int write_file(struct file *file, const char *buf, size_t n)
{
	ssize_t done;

	while (n) {
		done = vfs_write(file, buf, n);
		if (done < 0)
			return done;
		if (!done)
			return -EIO;
		buf += done;
		n -= done;
	}
	return 0;
}

int sh_open_output(const char *path, bool append, struct shell_out *out)
{
	int flags = O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC);

	out->error = 0;
	return vfs_open(shell_cwd(), path, flags, &out->file);
}

int sh_close_output(struct shell_out *out)
{
	int err = out->file ? vfs_close(out->file) : 0;

	out->file = NULL;
	if (!out->error)
		out->error = err;
	return out->error;
}

void sh_write(struct shell_out *out, const char *buf, size_t n)
{
	if (out->error)
		return;
	if (out->file)
		out->error = write_file(out->file, buf, n);
	else
		console_write(buf, n);
}

void sh_puts(struct shell_out *out, const char *s)
{
	sh_write(out, s, strlen(s));
}

/*
 * fmt formatted to out: through small if it fits, else through a
 * kmalloc'd buffer (a command line's words can be thousands of bytes).
 * Without memory for that, -ENOMEM; with first_part, the message's
 * first part still gets out, on a line of its own.
 */
static int vprint(struct shell_out *out, bool first_part, const char *fmt,
		  va_list ap)
{
	char small[256], *buf = small;
	va_list again;
	int n, err = 0;

	va_copy(again, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= (int)sizeof(small)) {
		buf = kmalloc(n + 1);
		if (buf)
			vsnprintf(buf, n + 1, fmt, again);
	}
	va_end(again);
	if (buf) {
		sh_write(out, buf, n);
	} else if (first_part) {
		sh_write(out, small, sizeof(small) - 1);
		sh_write(out, "\n", 1);
	}
	if (!buf)
		err = -ENOMEM;
	else if (buf != small)
		kfree(buf);
	return err;
}

void sh_printf(struct shell_out *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vprint(out, false, fmt, ap))
		out->error = -ENOMEM;
	va_end(ap);
}

void sh_err(const char *fmt, ...)
{
	struct shell_out err = { .file = current->files[2] };
	va_list ap;

	va_start(ap, fmt);
	vprint(&err, true, fmt, ap);
	va_end(ap);
}
