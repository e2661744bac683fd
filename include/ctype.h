/*
 * ctype.h: the C locale's character classes, as Linux's
 * include/linux/ctype.h, for the regex classes ([[:alpha:]]) and the
 * text utilities. Bytes above 0x7f belong to no class.
 */
#ifndef _RVF_CTYPE_H
#define _RVF_CTYPE_H

#ifdef HOST_TEST
/* -Iinclude makes <ctype.h> this file: reach past it to the host's. */
#include_next <ctype.h>
#else
static inline int isdigit(int c) { return c >= '0' && c <= '9'; }
static inline int isupper(int c) { return c >= 'A' && c <= 'Z'; }
static inline int islower(int c) { return c >= 'a' && c <= 'z'; }
static inline int isalpha(int c) { return isupper(c) || islower(c); }
static inline int isalnum(int c) { return isalpha(c) || isdigit(c); }
static inline int isxdigit(int c)
{
	return isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static inline int isspace(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static inline int isblank(int c) { return c == ' ' || c == '\t'; }
static inline int iscntrl(int c) { return (c >= 0 && c < ' ') || c == 0x7f; }
static inline int isprint(int c) { return c >= ' ' && c < 0x7f; }
static inline int isgraph(int c) { return c > ' ' && c < 0x7f; }
static inline int ispunct(int c) { return isgraph(c) && !isalnum(c); }
static inline int tolower(int c) { return isupper(c) ? c - 'A' + 'a' : c; }
static inline int toupper(int c) { return islower(c) ? c - 'a' + 'A' : c; }
#endif

#endif
