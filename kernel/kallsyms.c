/*
 * kallsyms.c: addresses to names and back, through the table that
 * scripts/kallsyms.py generates from the first link pass (see Makefile).
 * Never traced: trace output, %pS and backtraces all come through here.
 */
#include "kernel.h"
#include "string.h"
#include "printf.h"
#include "kallsyms.h"

static unsigned long sym_addr(u32 i)
{
	return kallsyms_base + kallsyms_offsets[i];
}

static const char *sym_name(u32 i)
{
	return &kallsyms_names[kallsyms_name_offsets[i]];
}

/* Code is t or T, or w or W for a weak function: compare in lower case. */
static bool sym_is_function(u32 i)
{
	char type = kallsyms_types[i] | 0x20;

	return type == 't' || type == 'w';
}

/* Aliases follow the best name at their address, which stands for all. */
static bool sym_is_alias(u32 i)
{
	return i > 0 && kallsyms_offsets[i - 1] == kallsyms_offsets[i];
}

/* The best-named symbol at the highest address <= addr, or -1. */
static long find_symbol(unsigned long addr)
{
	u32 lo = 0, hi = kallsyms_num_syms;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (sym_addr(mid) <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	lo--;
	while (sym_is_alias(lo))
		lo--;
	return lo;
}

/*
 * The name of the symbol whose bytes hold addr, with its size and addr's
 * offset into it (either pointer may be NULL); NULL if no symbol does.
 */
const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *offset)
{
	long i = find_symbol(addr);

	if (i < 0 || addr - sym_addr(i) >= kallsyms_sizes[i])
		return NULL;
	if (size)
		*size = kallsyms_sizes[i];
	if (offset)
		*offset = addr - sym_addr(i);
	return sym_name(i);
}

/* The address of the lowest symbol called name, or 0 if there is none. */
unsigned long kallsyms_lookup_name(const char *name)
{
	u32 i;

	for (i = 0; i < kallsyms_num_syms; i++)
		if (!strcmp(sym_name(i), name))
			return sym_addr(i);
	return 0;
}

/*
 * Linux's %pS ("name+0x1c/0x48") or, without offset, %ps ("name").
 * Returns the length stored in buf, or 0 if addr is in no symbol, for
 * vsnprintf to print the bare address instead.
 */
size_t sprint_symbol(char *buf, size_t size, unsigned long addr,
		     bool with_offset)
{
	unsigned long symsize, offset;
	const char *name = kallsyms_lookup(addr, &symsize, &offset);
	int len;

	if (!name || !size)
		return 0;
	if (with_offset)
		len = snprintf(buf, size, "%s+0x%lx/0x%lx", name, offset,
			       symsize);
	else
		len = snprintf(buf, size, "%s", name);
	return min((size_t)len, size - 1);
}

/*
 * Calls fn once per function, in address order, under the name
 * kallsyms_lookup gives it. A non-zero return from fn stops the walk
 * and is returned.
 */
int kallsyms_for_each(int (*fn)(void *data, const char *name,
				unsigned long addr, unsigned long size),
		      void *data)
{
	u32 i;
	int ret;

	for (i = 0; i < kallsyms_num_syms; i++) {
		if (!sym_is_function(i) || sym_is_alias(i))
			continue;
		ret = fn(data, sym_name(i), sym_addr(i), kallsyms_sizes[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* Whether addr is in the kernel's code, _text up to _etext. */
bool kallsyms_is_text(unsigned long addr)
{
	return addr - kallsyms_base < kallsyms_text_size;
}

/* One line for /proc/kallsyms and trace.dat's copy of it. */
int kallsyms_sprint_line(char *buf, size_t size, u32 i)
{
	return snprintf(buf, size, "%016lx %c %s\n", sym_addr(i),
			kallsyms_types[i], sym_name(i));
}
