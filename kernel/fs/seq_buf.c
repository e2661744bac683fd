/*
 * seq_buf.c: text for generated files, built once and then read in
 * pieces at file->pos, as Linux's seq_file serves /proc and tracefs.
 */
#include "kernel.h"
#include "vfs.h"
#include "mm.h"
#include "string.h"
#include "printf.h"

#define SEQ_MIN_SIZE	64

int seq_init(struct seq_buf *s, size_t size)
{
	s->size = max(size, (size_t)SEQ_MIN_SIZE);
	s->buf = kmalloc(s->size);
	s->len = 0;
	s->overflow = !s->buf;
	if (!s->buf)
		s->size = 0;
	return s->buf ? 0 : -ENOMEM;
}

void seq_free(struct seq_buf *s)
{
	kfree(s->buf);
	s->buf = NULL;
	s->len = s->size = 0;
}

/* Room for need more bytes and a NUL; false (and overflow) if none. */
static bool seq_reserve(struct seq_buf *s, size_t need)
{
	size_t size = max(s->size, (size_t)SEQ_MIN_SIZE);
	char *buf;

	if (s->overflow)
		return false;
	if (s->len + need < s->size)
		return true;
	while (size <= s->len + need)
		size *= 2;
	buf = kmalloc(size);
	if (!buf) {
		s->overflow = true;
		return false;
	}
	memcpy(buf, s->buf, s->len);
	kfree(s->buf);
	s->buf = buf;
	s->size = size;
	return true;
}

void seq_puts(struct seq_buf *s, const char *str)
{
	size_t n = strlen(str);

	if (!seq_reserve(s, n))
		return;
	memcpy(s->buf + s->len, str, n + 1);
	s->len += n;
}

/* Bytes as they are, NULs included (Linux's trace_seq_putmem). */
void seq_putmem(struct seq_buf *s, const void *mem, size_t len)
{
	if (!seq_reserve(s, len))
		return;
	memcpy(s->buf + s->len, mem, len);
	s->len += len;
	s->buf[s->len] = '\0';
}

void seq_printf(struct seq_buf *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (!seq_reserve(s, n))
		return;
	va_start(ap, fmt);
	vsnprintf(s->buf + s->len, s->size - s->len, fmt, ap);
	va_end(ap);
	s->len += n;
}

/* Linux's seq_buf_bprintf: fmt with the arguments vbin_printf kept. */
void seq_bprintf(struct seq_buf *s, const char *fmt, const u32 *bin,
		 size_t bin_words)
{
	int n = bstr_printf(NULL, 0, fmt, bin, bin_words);

	if (!seq_reserve(s, n))
		return;
	bstr_printf(s->buf + s->len, s->size - s->len, fmt, bin, bin_words);
	s->len += n;
}

/* What a show() could not make room for is an error, not a short file. */
void seq_set_nomem(struct seq_buf *s)
{
	s->overflow = true;
}

/* Linux's seq_read: -ENOMEM rather than text cut short. */
ssize_t seq_read(struct seq_buf *s, struct file *f, char *buf, size_t n)
{
	if (s->overflow)
		return -ENOMEM;
	if (f->pos >= s->len)
		return 0;
	n = min(n, s->len - f->pos);
	memcpy(buf, s->buf + f->pos, n);
	f->pos += n;
	return n;
}
