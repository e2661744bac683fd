/*
 * cmdline.h: the shell's command-line parser (lib/cmdline.c): words
 * with POSIX quoting, and one `> file` or `>> file` redirection.
 */
#ifndef _CMDLINE_H
#define _CMDLINE_H

#include "types.h"

#define CMDLINE_MAX_ARGS	32

struct cmdline {
	int argc;
	char *argv[CMDLINE_MAX_ARGS];
	const char *redirect;	/* the file of `> file` or `>> file`, or NULL */
	bool append;		/* it was `>> file` */
	char error[64];		/* why parse_cmdline failed, as bash says it */
};

/*
 * Split line into cl, writing the words over it. Returns 0, or -EINVAL
 * (bad syntax) or -E2BIG (too many words) with cl->error saying why.
 */
int parse_cmdline(char *line, struct cmdline *cl);

#endif
