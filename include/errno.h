/*
 * errno.h: Linux's error numbers, returned negated as the kernel does,
 * and the text `echo` prints for each (see lib/string.c:strerror).
 */
#ifndef _RVF_ERRNO_H
#define _RVF_ERRNO_H

#ifdef HOST_TEST
/* -Iinclude makes <errno.h> this file: reach past it to the host's too. */
#include_next <errno.h>
#endif

#define EPERM		1
#define ENOENT		2
#define ESRCH		3
#define EINTR		4
#define EIO		5
#define E2BIG		7
#define EBADF		9
#define EAGAIN		11
#define ENOMEM		12
#define EACCES		13
#define EFAULT		14
#define EBUSY		16
#define EXDEV		18
#define EEXIST		17
#define ENODEV		19
#define ENOTDIR		20
#define EISDIR		21
#define EINVAL		22
#define ENFILE		23
#define ENOSPC		28
#define ESPIPE		29
#define EPIPE		32
#define EROFS		30
#define ERANGE		34
#define ENAMETOOLONG	36
#define ENOSYS		38
#define ENOTEMPTY	39
#define ELOOP		40
#define ENODATA		61
#define EPROTO		71
#define EOVERFLOW	75
#define ETIMEDOUT	110

#endif
