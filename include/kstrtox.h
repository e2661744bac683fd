/*
 * kstrtox.h: strict string to number conversion, as Linux's kstrto*():
 * the whole string must be the number, save one trailing newline (what
 * `echo` writes into a tracefs file). They return 0, -EINVAL for no
 * number or junk, or -ERANGE when the value does not fit. The base is
 * 2 to 16, or 0 to go by the prefix as C does.
 */
#ifndef _KSTRTOX_H
#define _KSTRTOX_H

#include "types.h"

int kstrtoul(const char *s, unsigned int base, unsigned long *res);
int kstrtol(const char *s, unsigned int base, long *res);
int kstrtouint(const char *s, unsigned int base, unsigned int *res);
int kstrtoint(const char *s, unsigned int base, int *res);

#endif
