/*
 * name_list.c: names kept in strcmp order as they are added (the C
 * locale's order, which `ls` uses under LC_ALL=C), each once: static
 * functions of different files may share a name. Lists are short, so
 * insertion is a memmove. Adding may run under a spinlock: kmalloc
 * does not sleep.
 */
#include "kernel.h"
#include "name_list.h"
#include "mm.h"
#include "string.h"

#define NAME_LIST_FIRST	16

void name_list_init(struct name_list *l)
{
	l->names = NULL;
	l->count = l->capacity = 0;
	l->overflow = false;
}

static bool name_list_grow(struct name_list *l)
{
	int capacity = l->capacity ? l->capacity * 2 : NAME_LIST_FIRST;
	char (*names)[NAME_LIST_WIDTH] = kmalloc(capacity * NAME_LIST_WIDTH);

	if (!names)
		return false;
	/* The first time names is NULL: memcpy from NULL is undefined. */
	if (l->count)
		memcpy(names, l->names, l->count * NAME_LIST_WIDTH);
	kfree(l->names);
	l->names = names;
	l->capacity = capacity;
	return true;
}

/* Index of the first name greater than name. */
static int insert_position(struct name_list *l, const char *name)
{
	int lo = 0, hi = l->count, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (strcmp(l->names[mid], name) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void name_list_add(struct name_list *l, const char *name, const char *suffix)
{
	char entry[NAME_LIST_WIDTH];
	int pos;

	if (l->count == l->capacity && !name_list_grow(l)) {
		l->overflow = true;
		return;
	}
	strlcpy(entry, name, sizeof(entry));
	strlcat(entry, suffix, sizeof(entry));
	pos = insert_position(l, entry);
	if (pos && !strcmp(l->names[pos - 1], entry))
		return;
	memmove(l->names[pos + 1], l->names[pos],
		(l->count - pos) * NAME_LIST_WIDTH);
	memcpy(l->names[pos], entry, NAME_LIST_WIDTH);
	l->count++;
}

void name_list_free(struct name_list *l)
{
	kfree(l->names);
	name_list_init(l);
}
