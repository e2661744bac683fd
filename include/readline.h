/*
 * readline.h: the shell's line editor (kernel/shell/readline.c), its history
 * (kernel/shell/history.c) and Tab completion (kernel/shell/complete.c).
 */
#ifndef _READLINE_H
#define _READLINE_H

#include "kernel.h"
#include "name_list.h"

/*
 * Read one line from the console into line (size bytes, NUL included),
 * echoing and editing it. Returns its length; -EINTR for Ctrl-C;
 * -ENODATA for Ctrl-D on an empty line (the end of input); or,
 * for a line not to be run, -E2BIG if it did not fit and -EINVAL if it
 * holds a control byte.
 */
int readline(const char *prompt, char *line, size_t size);
/*
 * The same for a program reading the console, as a tty in canonical mode
 * gives a line: no prompt, and Ctrl-D after some text ends the line
 * without a newline. *eol says whether Enter ended it.
 */
int readline_canon(char *line, size_t size, bool *eol);

#define HISTORY_LINES	32

void history_add(const char *line);
/* The line n entries back (1: the last one added), or NULL. */
const char *history_get(int n);

/*
 * What Tab may complete the last word of line to: command names for
 * the first word; function names for a word echoed into a filter file
 * or after trace-cmd's -l, -n, -g; else the entries of the directory
 * the word names (directories with a '/'). stem_len is how much of
 * each candidate the word already has.
 */
struct completion {
	struct name_list candidates;
	size_t stem_len;
};

void completion_find(const char *line, struct completion *c);
void completion_free(struct completion *c);

#endif
