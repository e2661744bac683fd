/*
 * string.h: the freestanding string and memory functions of lib/string.c.
 */
#ifndef _RVF_STRING_H
#define _RVF_STRING_H

#include "types.h"

#ifndef HOST_TEST
void *memset(void *s, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t n);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *h, const char *n);
#else
/* -Iinclude makes <string.h> this file: reach past it to the host's. */
#include_next <string.h>
#endif
size_t strlcpy(char *d, const char *s, size_t n);
size_t strlcat(char *d, const char *s, size_t n);
char *strim(char *s);
bool str_has_prefix(const char *s, const char *prefix);
char *str_next_line(char **s);
const char *strerror_text(int err);

#endif
