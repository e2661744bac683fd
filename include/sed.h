/*
 * sed.h: sed scripts (lib/sed.c): parsed once, then run on each line.
 * The commands are s/RE/REPLACEMENT/[gpNiI], d, p, q [CODE] and =, each
 * with no address, one (a line number, $ or /RE/) or a range of two,
 * and ! to negate it; ';' or a newline between commands.
 */
#ifndef _SED_H
#define _SED_H

#include "kernel.h"
#include "regex.h"

enum sed_addr_type { SED_ADDR_NONE, SED_ADDR_LINE, SED_ADDR_LAST, SED_ADDR_RE };

struct sed_addr {
	enum sed_addr_type type;
	unsigned long line;
	char *text;		/* SED_ADDR_RE: the expression as written */
	struct regex re;
};

struct sed_cmd {
	struct sed_addr a1, a2;	/* a2 set: a range */
	bool negate;
	bool in_range;		/* while running: inside a1,a2 */
	char name;		/* s d p q = */
	/* s */
	char *pattern;		/* the expression as written */
	struct regex re;
	char *replacement;	/* as written, \n already a newline */
	bool global, print, icase;
	unsigned long nth;	/* replace the nth match only (0: the first) */
	int exit_code;		/* q */
};

struct sed_script {
	struct sed_cmd *cmds;
	int ncmds, cap;
	int flags;		/* REGEX_EXTENDED for -E */
	bool quiet;		/* -n */
	int exit_code;		/* set by the q that ended the input */
	char error[96];
};

/* The pattern space: the line being worked on. */
struct sed_space {
	char *buf;
	size_t len, cap;
};

void sed_init(struct sed_script *s, int flags);
/* Add a script's commands: 0, or -EINVAL with s->error, as sed says it. */
int sed_parse(struct sed_script *s, const char *text);
void sed_free(struct sed_script *s);

/*
 * Run the script on the line in ps, numbered lineno (last: it is the
 * input's last), printing through print(ctx, text, len), which adds a
 * newline. Returns 1 if q ended the input, 0 to go on, or -ENOMEM.
 */
int sed_run(struct sed_script *s, struct sed_space *ps, unsigned long lineno,
	    bool last, void (*print)(void *ctx, const char *text, size_t len),
	    void *ctx);
int sed_space_set(struct sed_space *ps, const char *text, size_t len);

#endif
