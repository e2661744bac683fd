/*
 * ftrace_hash.c: struct ftrace_hash, a set of site addresses (the
 * filter_hash / notrace_hash of Linux's kernel/trace/ftrace.c): open
 * hashing on the ip, with a power-of-two bucket count. Readers (ftrace_ops_list_func) run with preemption off
 * while writers build a new hash and swap it in under stop_machine, so
 * a hash is never changed while it may be read.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "ftrace.h"

#define FTRACE_HASH_MAX_BITS	12

static unsigned long hash_index(const struct ftrace_hash *hash,
				unsigned long ip)
{
	return ftrace_hash_ip(ip, hash->size_bits);
}

struct ftrace_hash *alloc_ftrace_hash(unsigned int size_bits)
{
	struct ftrace_hash *hash = kzalloc(sizeof(*hash));

	if (!hash)
		return NULL;
	hash->size_bits = max(size_bits, 1U);
	hash->buckets = kzalloc(sizeof(*hash->buckets) << hash->size_bits);
	if (!hash->buckets) {
		kfree(hash);
		return NULL;
	}
	return hash;
}

void free_ftrace_hash(struct ftrace_hash *hash)
{
	unsigned long i;

	if (!hash)
		return;
	for (i = 0; i < (1UL << hash->size_bits); i++) {
		struct ftrace_func_entry *e = hash->buckets[i], *next;

		for (; e; e = next) {
			next = e->next;
			kfree(e);
		}
	}
	kfree(hash->buckets);
	kfree(hash);
}

/* In a hash that is not empty. */
bool __ftrace_lookup_ip_in_hash(const struct ftrace_hash *hash,
				unsigned long ip)
{
	const struct ftrace_func_entry *e;

	for (e = hash->buckets[hash_index(hash, ip)]; e; e = e->next)
		if (e->ip == ip)
			return true;
	return false;
}

/* Add ip (once); 0 or -ENOMEM. */
int ftrace_hash_add(struct ftrace_hash *hash, unsigned long ip)
{
	struct ftrace_func_entry *e;
	unsigned long i;

	if (ftrace_lookup_ip_in_hash(hash, ip))
		return 0;
	e = kmalloc(sizeof(*e));
	if (!e)
		return -ENOMEM;
	i = hash_index(hash, ip);
	e->ip = ip;
	e->next = hash->buckets[i];
	hash->buckets[i] = e;
	hash->count++;
	return 0;
}

void ftrace_hash_remove(struct ftrace_hash *hash, unsigned long ip)
{
	struct ftrace_func_entry **pp, *e;

	if (ftrace_hash_empty(hash))
		return;
	for (pp = &hash->buckets[hash_index(hash, ip)]; (e = *pp);
	     pp = &e->next) {
		if (e->ip == ip) {
			*pp = e->next;
			kfree(e);
			hash->count--;
			return;
		}
	}
}

/* Call fn for each ip until it returns nonzero; returns that value. */
int ftrace_hash_for_each(const struct ftrace_hash *hash,
			 int (*fn)(unsigned long ip, void *data), void *data)
{
	const struct ftrace_func_entry *e;
	unsigned long i;
	int ret;

	if (ftrace_hash_empty(hash))
		return 0;
	for (i = 0; i < (1UL << hash->size_bits); i++)
		for (e = hash->buckets[i]; e; e = e->next)
			if ((ret = fn(e->ip, data)))
				return ret;
	return 0;
}

static int copy_one(unsigned long ip, void *data)
{
	return ftrace_hash_add(data, ip);
}

/* A copy sized for its contents; NULL when out of memory. */
struct ftrace_hash *ftrace_hash_copy(const struct ftrace_hash *src)
{
	unsigned int bits = 4;
	struct ftrace_hash *hash;

	while (src && bits < FTRACE_HASH_MAX_BITS &&
	       (1UL << bits) < src->count)
		bits++;
	hash = alloc_ftrace_hash(bits);
	if (hash && ftrace_hash_for_each(src, copy_one, hash)) {
		free_ftrace_hash(hash);
		return NULL;
	}
	return hash;
}
