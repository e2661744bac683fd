/*
 * sh_arena.c: where a parsed command's nodes and words live. They are
 * allocated one after another in chunks and freed together, so the
 * parser never frees piece by piece and a syntax error leaks nothing.
 */
#include "kernel.h"
#include "mm.h"
#include "string.h"
#include "sh.h"

#define SH_CHUNK	2048

struct sh_chunk {
	struct sh_chunk *next;
	size_t used, size;
	char data[];
};

struct sh_arena *sh_arena_new(void)
{
	struct sh_arena *a = kzalloc(sizeof(*a));

	if (a)
		a->refs = 1;
	return a;
}

/* Zeroed, 8-byte aligned; NULL when memory runs out. */
void *sh_arena_alloc(struct sh_arena *a, size_t n)
{
	struct sh_chunk *c = a->chunks;
	size_t size;

	n = ALIGN_UP(n, 8);
	if (!c || c->size - c->used < n) {
		size = max(n, (size_t)SH_CHUNK);
		c = kmalloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->used = 0;
		c->next = a->chunks;
		a->chunks = c;
	}
	c->used += n;
	memset(c->data + c->used - n, 0, n);
	return c->data + c->used - n;
}

void sh_arena_get(struct sh_arena *a)
{
	__atomic_add_fetch(&a->refs, 1, __ATOMIC_RELAXED);
}

void sh_arena_put(struct sh_arena *a)
{
	struct sh_chunk *c;

	if (!a || __atomic_sub_fetch(&a->refs, 1, __ATOMIC_ACQ_REL))
		return;
	while ((c = a->chunks)) {
		a->chunks = c->next;
		kfree(c);
	}
	kfree(a);
}
