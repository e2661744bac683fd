/*
 * history.c: the last HISTORY_LINES command lines, for the line
 * editor's up and down arrows. A line equal to the one before it is
 * kept once, as bash's HISTCONTROL=ignoredups does.
 */
#include "kernel.h"
#include "readline.h"
#include "shell.h"
#include "string.h"

/* __noinit: a line is read only once history_add has written it. */
static char history[HISTORY_LINES][SHELL_LINE_MAX + 1] __noinit;
static int history_count;	/* lines ever added */

void history_add(const char *line)
{
	const char *last = history_get(1);

	if (!*line || (last && !strcmp(last, line)))
		return;
	strlcpy(history[history_count % HISTORY_LINES], line,
		sizeof(history[0]));
	history_count++;
}

const char *history_get(int n)
{
	if (n < 1 || n > history_count || n > HISTORY_LINES)
		return NULL;
	return history[(history_count - n) % HISTORY_LINES];
}
