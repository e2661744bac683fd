/*
 * awk.h: a small awk (lib/awk.c): BEGIN and END, patterns (an
 * expression or /ERE/), fields $0..$NF split at FS, NR, NF, variables,
 * print and printf, if/else, while, for, next, and the operators
 * = += -= *= /= %= || && ! ~ !~ < <= > >= == != + - * / % ++ -- and
 * concatenation. Numbers are integers: the kernel has no floating
 * point.
 */
#ifndef _AWK_H
#define _AWK_H

#include "kernel.h"

struct awk;

/*
 * Parse a program, with FS fs: NULL with *error set ("syntax error")
 * if it is not one. print(ctx, text, len) takes what it prints,
 * newlines included; a loop asks stop() whether to give up.
 */
struct awk *awk_parse(const char *text, const char *fs,
		      void (*print)(void *ctx, const char *text, size_t len),
		      void *ctx, bool (*stop)(void), const char **error);
/* Does it have anything to do with input (more than BEGIN)? */
bool awk_reads_input(struct awk *a);
/*
 * Run BEGIN, a line, END: 0, -ENOMEM, or -EINVAL for a run-time error
 * (awk_error says which: "division by zero").
 */
int awk_begin(struct awk *a);
int awk_line(struct awk *a, const char *line, size_t len);
int awk_end(struct awk *a);
const char *awk_error(struct awk *a);
void awk_free(struct awk *a);

#endif
