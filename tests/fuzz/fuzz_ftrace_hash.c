/*
 * fuzz_ftrace_hash.c: trace/ftrace_hash.c driven by a random sequence
 * of adds, removes, lookups, copies and failed allocations, against a
 * reference set: a sorted array of the ips that must be in the hash.
 * After every step the count and the member asked about must agree,
 * and at the end for_each must visit the reference set exactly once
 * per ip. kmalloc is malloc, counted, so nothing may be left behind.
 */
#include "fuzz.h"

#define MAX_IPS		512

static int fail_after = -1;	/* allocations left before one fails */
static int live_blocks;

void *kmalloc(size_t size)
{
	if (fail_after == 0)
		return NULL;
	if (fail_after > 0)
		fail_after--;
	live_blocks++;
	return malloc(size);
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}

void kfree(const void *p)
{
	if (p)
		live_blocks--;
	free((void *)p);
}

#include "../../trace/ftrace_hash.c"

struct ref_set {
	unsigned long ips[MAX_IPS];
	int count;
};

static int ref_find(const struct ref_set *r, unsigned long ip)
{
	int i;

	for (i = 0; i < r->count; i++)
		if (r->ips[i] == ip)
			return i;
	return -1;
}

/*
 * Site-like ips (4-aligned, close together, so buckets collide) most
 * of the time; now and then any value at all.
 */
static unsigned long pick_ip(struct fuzz_in *in)
{
	u8 how = fuzz_u8(in);

	if (how < 0xe0)
		return 0x80200000UL + 4 * fuzz_u8(in);
	return fuzz_u64(in, 8);
}

static int collect(unsigned long ip, void *data)
{
	struct ref_set *seen = data;

	FUZZ_CHECK(ref_find(seen, ip) < 0);	/* visited once */
	FUZZ_CHECK(seen->count < MAX_IPS);
	seen->ips[seen->count++] = ip;
	return 0;
}

static void check_same(struct ftrace_hash *h, const struct ref_set *r)
{
	static struct ref_set seen;
	int i;

	seen.count = 0;
	FUZZ_CHECK(ftrace_hash_for_each(h, collect, &seen) == 0);
	FUZZ_CHECK(seen.count == r->count && (int)h->count == r->count);
	FUZZ_CHECK(ftrace_hash_empty(h) == !r->count);
	for (i = 0; i < r->count; i++)
		FUZZ_CHECK(ftrace_lookup_ip_in_hash(h, r->ips[i]));
}

static void step_add(struct ftrace_hash *h, struct ref_set *r,
		     unsigned long ip, bool fail)
{
	bool had = ref_find(r, ip) >= 0;
	int err;

	fail_after = fail ? 0 : -1;
	err = ftrace_hash_add(h, ip);
	fail_after = -1;
	/* Adding what is there needs no memory, so cannot fail. */
	FUZZ_CHECK(err == (fail && !had ? -ENOMEM : 0));
	if (!err && !had && r->count < MAX_IPS)
		r->ips[r->count++] = ip;
	else if (!err && !had)
		ftrace_hash_remove(h, ip);	/* the reference is full */
}

static void step_remove(struct ftrace_hash *h, struct ref_set *r,
			unsigned long ip)
{
	int i = ref_find(r, ip);

	ftrace_hash_remove(h, ip);
	if (i >= 0)
		r->ips[i] = r->ips[--r->count];
}

/* A copy, or NULL having freed all it took when an allocation fails. */
static struct ftrace_hash *step_copy(struct ftrace_hash *h,
				     const struct ref_set *r, int fail)
{
	int before = live_blocks;
	struct ftrace_hash *c;

	fail_after = fail;
	c = ftrace_hash_copy(h);
	fail_after = -1;
	if (!c) {
		FUZZ_CHECK(fail >= 0 && live_blocks == before);
		return h;
	}
	check_same(c, r);
	free_ftrace_hash(h);
	return c;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_in in = { data, size };
	static struct ref_set r;
	struct ftrace_hash *h = alloc_ftrace_hash(fuzz_pick(&in, 13));
	unsigned long ip;
	u8 op;

	r.count = 0;
	while (in.n) {
		op = fuzz_u8(&in);
		ip = pick_ip(&in);
		switch (op % 5) {
		case 0:
		case 1:
			step_add(h, &r, ip, op == 0xff);
			break;
		case 2:
			step_remove(h, &r, ip);
			break;
		case 3:
			FUZZ_CHECK(ftrace_lookup_ip_in_hash(h, ip) ==
				   (ref_find(&r, ip) >= 0));
			break;
		default:
			h = step_copy(h, &r, op >= 0xc0 ? op - 0xc0 : -1);
		}
		FUZZ_CHECK((int)h->count == r.count);
	}
	check_same(h, &r);
	free_ftrace_hash(h);
	FUZZ_CHECK(live_blocks == 0);
	return 0;
}
