/*
 * getopt.c: option letters the way getopt(3) finds them, with its
 * messages, so that every text utility parses "-vn", "-e PAT" and
 * "--" as busybox's do.
 */
#include "kernel.h"
#include "getopt.h"
#include "shell.h"
#include "string.h"

static bool starts_options(const char *word)
{
	return word[0] == '-' && word[1];
}

int getopt_next(struct getopt *g, int argc, char **argv,
		const char *optstring)
{
	const char *spec;
	char *word;
	int c;

	if (!g->pos) {
		if (g->ind >= argc || !starts_options(argv[g->ind]))
			return -1;
		if (!strcmp(argv[g->ind], "--")) {
			g->ind++;
			return -1;
		}
		g->pos = 1;
	}
	word = argv[g->ind];
	c = (u8)word[g->pos++];
	if (!word[g->pos]) {
		g->ind++;
		g->pos = 0;
	}
	spec = c == ':' ? NULL : strchr(optstring, c);
	if (!spec) {
		sh_err("%s: invalid option -- '%c'\n", g->who, c);
		return '?';
	}
	if (spec[1] != ':')
		return c;
	if (g->pos) {		/* -ePAT */
		g->arg = word + g->pos;
		g->ind++;
		g->pos = 0;
	} else if (g->ind < argc) {
		g->arg = argv[g->ind++];
	} else {
		sh_err("%s: option requires an argument -- '%c'\n", g->who, c);
		return '?';
	}
	return c;
}
