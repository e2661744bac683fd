/*
 * kallsyms.h: the kernel's own symbol table, for %pS, backtraces and
 * the tracer's function names (kernel/kallsyms.c).
 */
#ifndef _KALLSYMS_H
#define _KALLSYMS_H

#include "kernel.h"
#include "printf.h"		/* sprint_symbol, the %pS of vsprintf */

#define KSYM_NAME_LEN 128

const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *offset);
unsigned long kallsyms_lookup_name(const char *name);
int kallsyms_for_each(int (*fn)(void *data, const char *name,
				unsigned long addr, unsigned long size),
		      void *data);
bool kallsyms_is_text(unsigned long addr);
/*
 * Symbol i as a line of Linux's /proc/kallsyms, "ADDRESS TYPE NAME\n",
 * snprintf's way: the length it needs, whatever size is.
 */
int kallsyms_sprint_line(char *buf, size_t size, u32 i);

/*
 * The table scripts/kallsyms.py generates into section .kallsyms, one
 * entry per symbol, sorted by address; aliases (symbols at the same
 * address) come best name first. Addresses are 32-bit offsets from
 * kallsyms_base (the address of _text) to keep the table small.
 */
extern const unsigned long kallsyms_base;
extern const unsigned long kallsyms_text_size;	/* _etext - _text */
extern const u32 kallsyms_num_syms;
extern const u32 kallsyms_offsets[];		/* address - base */
extern const u32 kallsyms_sizes[];		/* in bytes */
extern const u32 kallsyms_name_offsets[];	/* into kallsyms_names */
extern const char kallsyms_types[];		/* nm's letter: t, T, d.. */
extern const char kallsyms_names[];		/* each NUL-terminated */

#endif
