/*
 * string.c: memory and string functions for a kernel with no libc.
 * GCC may emit calls to memset/memcpy/memmove/memcmp itself.
 */
#include "kernel.h"
#include "string.h"

/*
 * memset and memcpy move 8 bytes a store once the pointers are aligned,
 * 32 a loop turn (memcpy 4 where only that alignment is shared): boot
 * zeroes tens of KiB (page tables, ring-buffer pages, kzalloc), a byte
 * at a time four instructions each. The host test
 * (tests/host/test_string.c) calls them beside libc's.
 */
#ifdef HOST_TEST
#define memset	kernel_memset
#define memcpy	kernel_memcpy
#endif
void *memset(void *s, int c, size_t n)
{
	u64 v = (u8)c * 0x0101010101010101ULL;
	u8 *p = s;

	for (; n && ((uintptr_t)p & 7); n--)
		*p++ = (u8)c;
	for (; n >= 32; n -= 32, p += 32) {
		((u64 *)p)[0] = v;
		((u64 *)p)[1] = v;
		((u64 *)p)[2] = v;
		((u64 *)p)[3] = v;
	}
	for (; n >= 8; n -= 8, p += 8)
		*(u64 *)p = v;
	while (n--)
		*p++ = (u8)c;
	return s;
}

void *memcpy(void *d, const void *s, size_t n)
{
	u8 *dp = d;
	const u8 *sp = s;

	if ((((uintptr_t)dp ^ (uintptr_t)sp) & 7) == 0) {
		for (; n && ((uintptr_t)dp & 7); n--)
			*dp++ = *sp++;
		for (; n >= 32; n -= 32, dp += 32, sp += 32) {
			((u64 *)dp)[0] = ((const u64 *)sp)[0];
			((u64 *)dp)[1] = ((const u64 *)sp)[1];
			((u64 *)dp)[2] = ((const u64 *)sp)[2];
			((u64 *)dp)[3] = ((const u64 *)sp)[3];
		}
		for (; n >= 8; n -= 8, dp += 8, sp += 8)
			*(u64 *)dp = *(const u64 *)sp;
	} else if ((((uintptr_t)dp ^ (uintptr_t)sp) & 3) == 0) {
		/* Ring-buffer events are 4-aligned. */
		for (; n && ((uintptr_t)dp & 3); n--)
			*dp++ = *sp++;
		for (; n >= 4; n -= 4, dp += 4, sp += 4)
			*(u32 *)dp = *(const u32 *)sp;
	}
	while (n--)
		*dp++ = *sp++;
	return d;
}

#ifdef HOST_TEST
#undef memset
#undef memcpy
#else
void *memmove(void *d, const void *s, size_t n)
{
	u8 *dp = d;
	const u8 *sp = s;

	if (dp <= sp || dp >= sp + n)
		return memcpy(d, s, n);
	while (n--)
		dp[n] = sp[n];
	return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const u8 *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const u8 *p = s;

	for (; n; n--, p++)
		if (*p == (u8)c)
			return (void *)p;
	return NULL;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}

size_t strnlen(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i])
		i++;
	return i;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (u8)*a - (u8)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (u8)*a - (u8)*b;
		if (!*a)
			break;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (; *s; s++)
		if (*s == (char)c)
			return (char *)s;
	return c ? NULL : (char *)s;
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	do {
		if (*s == (char)c)
			last = s;
	} while (*s++);
	return (char *)last;
}

char *strstr(const char *h, const char *n)
{
	size_t len = strlen(n);

	for (; *h; h++)
		if (!strncmp(h, n, len))
			return (char *)h;
	return len ? NULL : (char *)h;
}
#endif

size_t strlcpy(char *d, const char *s, size_t n)
{
	size_t len = strlen(s);

	if (n) {
		size_t c = len >= n ? n - 1 : len;

		memcpy(d, s, c);
		d[c] = 0;
	}
	return len;
}

size_t strlcat(char *d, const char *s, size_t n)
{
	size_t dl = strnlen(d, n);

	if (dl == n)
		return n + strlen(s);
	return dl + strlcpy(d + dl, s, n - dl);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Strip leading and trailing white space in place; returns the new start. */
char *strim(char *s)
{
	size_t n;

	while (is_space(*s))
		s++;
	n = strlen(s);
	while (n && is_space(s[n - 1]))
		s[--n] = 0;
	return s;
}

bool str_has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* The next line of *s, its newline cut off; NULL once *s is empty. */
char *str_next_line(char **s)
{
	char *line = *s, *newline;

	if (!line || !*line)
		return NULL;
	newline = strchr(line, '\n');
	if (newline)
		*newline++ = 0;
	*s = newline ? newline : line + strlen(line);
	return line;
}

/* The message glibc's strerror gives, which is what a Linux shell prints. */
const char *strerror_text(int err)
{
	static const struct { int err; const char *text; } tab[] = {
		{ EPERM, "Operation not permitted" },
		{ ENOENT, "No such file or directory" },
		{ ESRCH, "No such process" },
		{ EINTR, "Interrupted system call" },
		{ EIO, "Input/output error" },
		{ E2BIG, "Argument list too long" },
		{ EBADF, "Bad file descriptor" },
		{ EAGAIN, "Resource temporarily unavailable" },
		{ ENOMEM, "Cannot allocate memory" },
		{ EACCES, "Permission denied" },
		{ EFAULT, "Bad address" },
		{ EBUSY, "Device or resource busy" },
		{ EEXIST, "File exists" },
		{ EXDEV, "Invalid cross-device link" },
		{ ENODEV, "No such device" },
		{ ENOTDIR, "Not a directory" },
		{ EISDIR, "Is a directory" },
		{ EINVAL, "Invalid argument" },
		{ ENFILE, "Too many open files in system" },
		{ ENOSPC, "No space left on device" },
		{ ESPIPE, "Illegal seek" },
		{ EROFS, "Read-only file system" },
		{ ERANGE, "Numerical result out of range" },
		{ ENAMETOOLONG, "File name too long" },
		{ ENOSYS, "Function not implemented" },
		{ EPIPE, "Broken pipe" },
		{ ENOTEMPTY, "Directory not empty" },
		{ ELOOP, "Too many levels of symbolic links" },
		{ ENODATA, "No data available" },
		{ EPROTO, "Protocol error" },
		{ EOVERFLOW, "Value too large for defined data type" },
		{ ETIMEDOUT, "Connection timed out" },
	};
	size_t i;

	if (err < 0)
		err = -err;
	for (i = 0; i < ARRAY_SIZE(tab); i++)
		if (tab[i].err == err)
			return tab[i].text;
	return "Unknown error";
}
