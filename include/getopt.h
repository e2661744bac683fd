/*
 * getopt.h: POSIX getopt(3) for the shell's commands
 * (kernel/shell/getopt.c): "-n -e PAT", "-ne PAT" and "-ePAT" alike;
 * options end at "--", at "-" or at the first word that is not one.
 */
#ifndef _GETOPT_H
#define _GETOPT_H

struct getopt {
	const char *who;	/* the command, for messages */
	int ind;		/* the next word of argv; start at 1 */
	int pos;		/* the next letter of argv[ind] */
	const char *arg;	/* the option's argument */
};

/*
 * The next option letter of argv by optstring (a letter followed by
 * ':' takes an argument), -1 after the last, or '?' once it said
 * "who: invalid option -- 'x'" or "option requires an argument".
 */
int getopt_next(struct getopt *g, int argc, char **argv,
		const char *optstring);

#endif
