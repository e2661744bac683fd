/*
 * name_list.h: a sorted list of distinct names (kernel/shell/name_list.c),
 * for what the shell lists: directory entries, commands, completions.
 */
#ifndef _NAME_LIST_H
#define _NAME_LIST_H

#include "kernel.h"
#include "vfs.h"

/* A name and room for a suffix such as a directory's '/'. */
#define NAME_LIST_WIDTH	(NAME_MAX + 1)

struct name_list {
	char (*names)[NAME_LIST_WIDTH];
	int count, capacity;
	bool overflow;		/* a name was dropped: no memory */
};

void name_list_init(struct name_list *l);
void name_list_add(struct name_list *l, const char *name, const char *suffix);
void name_list_free(struct name_list *l);

#endif
