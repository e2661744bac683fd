/*
 * list.h: a circular doubly linked list, as Linux's <linux/list.h>.
 */
#ifndef _LIST_H
#define _LIST_H

#include "kernel.h"

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(n) { &(n), &(n) }
#define LIST_HEAD(n) struct list_head n = LIST_HEAD_INIT(n)

static inline void INIT_LIST_HEAD(struct list_head *l)
{
	l->next = l;
	l->prev = l;
}

static inline void __list_add(struct list_head *n, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

static inline void list_add(struct list_head *n, struct list_head *head)
{
	__list_add(n, head, head->next);
}

static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	__list_add(n, head->prev, head);
}

static inline void list_del(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	e->next = e;
	e->prev = e;
}

static inline bool list_empty(const struct list_head *h)
{
	return h->next == h;
}

#define list_entry(p, t, m) container_of(p, t, m)
#define list_first_entry(h, t, m) list_entry((h)->next, t, m)
#define list_for_each(p, h) for (p = (h)->next; p != (h); p = p->next)
#define list_for_each_entry(e, h, m)					\
	for (e = list_entry((h)->next, typeof(*e), m); &e->m != (h);	\
	     e = list_entry(e->m.next, typeof(*e), m))
#define list_for_each_entry_reverse(e, h, m)				\
	for (e = list_entry((h)->prev, typeof(*e), m); &e->m != (h);	\
	     e = list_entry(e->m.prev, typeof(*e), m))
#define list_for_each_entry_from(e, h, m)				\
	for (; &e->m != (h); e = list_entry(e->m.next, typeof(*e), m))
#define list_for_each_entry_safe(e, n, h, m)				\
	for (e = list_entry((h)->next, typeof(*e), m),			\
	     n = list_entry(e->m.next, typeof(*e), m); &e->m != (h);	\
	     e = n, n = list_entry(n->m.next, typeof(*e), m))

#endif
