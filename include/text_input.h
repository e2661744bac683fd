/*
 * text_input.h: how every text utility (grep, sed, sort, ...) reads its
 * input (kernel/shell/text_input.c): each file named on its command
 * line in turn, or standard input when none is or a name is "-", line
 * by line, from a file, a tracefs file that never ends, or the console.
 */
#ifndef _TEXT_INPUT_H
#define _TEXT_INPUT_H

#include "kernel.h"

struct file;

struct text_input {
	const char *who;	/* the utility, for its messages */
	char **names;		/* the files, or NULL: standard input */
	int nnames, next;
	const char *name;	/* the current file's, "-" for standard input */
	struct file *file;	/* NULL: standard input */
	char *buf;		/* what was read and not yet handed out */
	size_t start, end, cap;
	bool eof;
	bool no_newline;	/* the last line had no '\n' */
	bool read_error;	/* reading the current file failed */
	bool failed;		/* a file could not be opened or read */
	bool interrupted;	/* Ctrl-C */
};

/* Over names[0..n) ("-": standard input), or standard input if n is 0. */
void text_input_init(struct text_input *in, const char *who, int n,
		     char **names);
/*
 * Open the next file: false when there is none left. A file that
 * cannot be opened is reported ("grep: nosuch: No such file or
 * directory"), marks failed and is skipped.
 */
bool text_next_file(struct text_input *in);
/*
 * The current file's next line, without its '\n', NUL-terminated, its
 * length in *len; NULL at its end, on a read error (reported), on
 * Ctrl-C or when memory runs out (reported). The line stays valid
 * until the next call.
 */
char *text_read_line(struct text_input *in, size_t *len);
/*
 * Up to n bytes of the current file, as they come (dd's blocks): the
 * count, 0 at its end, or a negative errno (reported, but -EINTR).
 */
ssize_t text_read_bytes(struct text_input *in, char *buf, size_t n);
/* The next line of all the files in turn, opening each as needed. */
char *text_next_line(struct text_input *in, size_t *len);
void text_input_free(struct text_input *in);

#endif
