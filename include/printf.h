/*
 * printf.h: formatted output into buffers (lib/vsprintf.c).
 * Besides C's conversions: %pS prints an address as name+0xoff/0xsize,
 * %ps as the bare name, through kallsyms (kernel/kallsyms.c).
 */
#ifndef _PRINTF_H
#define _PRINTF_H

#include "types.h"
#include <stdarg.h>

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int scnprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* trace_printk's halves: the arguments in binary, and back to text. */
int vbin_printf(u32 *bin_buf, size_t size, const char *fmt, va_list ap);
int bstr_printf(char *buf, size_t size, const char *fmt, const u32 *bin_buf,
		size_t bin_size);

/* Provided by kernel/kallsyms.c (or a host test): 0 when unknown. */
size_t sprint_symbol(char *buf, size_t size, unsigned long addr,
		     bool with_offset);

#endif
