/*
 * sort_key.h: how sort compares two lines (kernel/shell/sort_key.c):
 * by keys (-k POS1[,POS2], fields split at -t's character or at
 * blanks), each as text or as a number (-n), reversed or not (-r); the
 * whole line, byte by byte, settles a tie unless -u.
 */
#ifndef _SORT_KEY_H
#define _SORT_KEY_H

#include "kernel.h"

#define SORT_MAX_KEYS	8

struct sort_key {
	int field1, char1;	/* the key starts here (from 1) */
	int field2, char2;	/* and ends here; field2 0: the line's end,
				 * char2 0: field2's end */
	bool numeric, reverse;
};

struct sort_order {
	struct sort_key keys[SORT_MAX_KEYS];
	int nkeys;
	char separator;		/* 0: fields start at a run of blanks */
	bool numeric, reverse;	/* -n, -r: for the keys without their own */
	bool unique;		/* -u: no whole-line tie-break */
};

/* -k's argument: "2", "2,2", "2.3n,3.1", "3r"; 0 or -EINVAL. */
int sort_parse_key(const char *spec, struct sort_key *k);
/* <0, 0 or >0, as a sorts before, with or after b. */
int sort_compare(const struct sort_order *o, const char *a, size_t alen,
		 const char *b, size_t blen);

#endif
