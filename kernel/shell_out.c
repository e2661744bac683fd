/*
 * shell_out.c: where command output goes. Standard output is the
 * console or a redirect file; one sh_write is one vfs_write (tracefs
 * parses each write whole, as Linux's does). Standard error is always
 * the console.
 */
#include "kernel.h"
#include "shell.h"
#include "vfs.h"
#include "mm.h"
#include "printk.h"
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

void sh_printf(struct shell_out *out, const char *fmt, ...)
{
	char small[256], *buf = small;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(small)) {
		buf = kmalloc(n + 1);
		if (!buf) {
			out->error = -ENOMEM;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(buf, n + 1, fmt, ap);
		va_end(ap);
	}
	sh_write(out, buf, n);
	if (buf != small)
		kfree(buf);
}

void sh_err(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	console_write(buf, min((size_t)n, sizeof(buf) - 1));
}
