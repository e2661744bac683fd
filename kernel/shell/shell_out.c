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

/*
 * fmt formatted: into small if it fits, else into a kmalloc'd buffer
 * (a command line's words can be thousands of bytes), which the caller
 * frees; NULL if there is no memory for it.
 */
static char *vformat(char *small, size_t size, int *len, const char *fmt,
		     va_list ap)
{
	va_list again;
	char *buf = small;

	va_copy(again, ap);
	*len = vsnprintf(small, size, fmt, ap);
	if (*len >= (int)size) {
		buf = kmalloc(*len + 1);
		if (buf)
			vsnprintf(buf, *len + 1, fmt, again);
	}
	va_end(again);
	return buf;
}

void sh_printf(struct shell_out *out, const char *fmt, ...)
{
	char small[256], *buf;
	va_list ap;
	int n;

	va_start(ap, fmt);
	buf = vformat(small, sizeof(small), &n, fmt, ap);
	va_end(ap);
	if (!buf) {
		out->error = -ENOMEM;
		return;
	}
	sh_write(out, buf, n);
	if (buf != small)
		kfree(buf);
}

/* Without memory for a long message, its first part still gets out. */
void sh_err(const char *fmt, ...)
{
	char small[256], *buf;
	va_list ap;
	int n;

	va_start(ap, fmt);
	buf = vformat(small, sizeof(small), &n, fmt, ap);
	va_end(ap);
	if (buf) {
		console_write(buf, n);
	} else {
		console_write(small, sizeof(small) - 1);
		console_write("\n", 1);
	}
	if (buf != small)
		kfree(buf);
}
