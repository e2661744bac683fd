/*
 * regex.h: POSIX regular expressions (lib/regex.c), basic (BRE) and
 * extended (ERE), in the spirit of regcomp(3) and regexec(3): compile
 * once, then match each line, with the offsets of the whole match and
 * of each group for grep -o and sed's s///. The names differ from
 * libc's so that a host test can hold both.
 */
#ifndef _RVF_REGEX_H
#define _RVF_REGEX_H

#include "types.h"

#ifdef HOST_TEST
/* -Iinclude makes <regex.h> this file: the fuzz target wants libc's too. */
#include_next <regex.h>
#endif

/* regex_compile's flags */
#define REGEX_EXTENDED	0x1	/* ERE, as egrep and grep -E */
#define REGEX_ICASE	0x2	/* ignore case, as grep -i */

/* regex_exec's flags */
#define REGEX_NOTBOL	0x1	/* s does not start a line: ^ fails there */

/* Results: regcomp's error codes, in the same order, so the same texts. */
enum {
	REGEX_OK,
	REGEX_NOMATCH,
	REGEX_BADPAT,
	REGEX_ECOLLATE,
	REGEX_ECTYPE,
	REGEX_EESCAPE,
	REGEX_ESUBREG,
	REGEX_EBRACK,
	REGEX_EPAREN,
	REGEX_EBRACE,
	REGEX_BADBR,
	REGEX_ERANGE,
	REGEX_ESPACE,
	REGEX_BADRPT,
	REGEX_EEND,
	REGEX_ESIZE,
	REGEX_ERPAREN,
};

#define REGEX_DUP_MAX	0x7fff	/* as glibc's RE_DUP_MAX */

/* A match's offsets into s; -1 and -1 for a group that took no part. */
struct regex_match {
	int start, end;
};

struct regex_inst;
struct regex_state;

/* A compiled expression: its program and the scratch memory regex_exec uses. */
struct regex {
	int flags;
	int nsub;			/* groups, \( \) or ( ) */
	struct regex_inst *prog;
	int ninst;
	u8 (*sets)[32];			/* bracket expressions, a bit per byte */
	int nslots;			/* group offsets, then loop marks */
	bool backrefs;
	struct regex_state *state;
};

/* 0 or a REGEX_E* error; on error re holds nothing to free. */
int regex_compile(struct regex *re, const char *pattern, int flags);
/*
 * The leftmost, then longest, match in s[0..len): 0 with m[0] the whole
 * match and m[1..nmatch-1] the groups, REGEX_NOMATCH, or REGEX_ESPACE
 * when memory (or the step budget of a pathological expression) ran out.
 */
int regex_exec(struct regex *re, const char *s, size_t len, size_t nmatch,
	       struct regex_match *m, int eflags);
void regex_free(struct regex *re);
/* regerror's text for a REGEX_* code. */
const char *regex_error(int err);

#endif
