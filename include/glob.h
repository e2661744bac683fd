/*
 * glob.h: the one pattern matcher, for set_ftrace_filter and friends:
 * shell globs as Linux's lib/glob.c, and ftrace's split of a filter
 * into the cheap full/front/middle/end matches or a glob.
 */
#ifndef _GLOB_H
#define _GLOB_H

#include "types.h"

bool glob_match(const char *pat, const char *str);

enum regex_type {
	MATCH_FULL,		/* foo */
	MATCH_FRONT_ONLY,	/* foo* */
	MATCH_MIDDLE_ONLY,	/* *foo* */
	MATCH_END_ONLY,		/* *foo */
	MATCH_GLOB,		/* anything else with * ? [ or \ */
};

struct ftrace_glob {
	char *search;		/* what filter_parse_regex left to match */
	unsigned int len;	/* strlen(search) */
	int type;		/* enum regex_type */
};

enum regex_type filter_parse_regex(char *buff, int len, char **search,
				   int *not);
bool ftrace_match(const char *name, const struct ftrace_glob *g);

#endif
