/*
 * ftrace_selftest.c: the dynamic ftrace core tested from inside the
 * kernel, in the spirit of Linux's trace_selftest.c: boot-time nop
 * patching, site states, ops with filters (one, two, three at once),
 * notrace, globs, each site's ops literal, filter replacement without
 * an all-functions window, recursion, SAVE_REGS, IPMODIFY, PERMANENT,
 * the unregister guarantee, and a patch storm against callers on every
 * other CPU. They run beside
 * a user's tracer: counts are taken relative to what it holds, and the
 * few cases that need ftrace to themselves skip while any ops is on.
 */
#include "kernel.h"
#include "string.h"
#include "selftest.h"
#include "ftrace.h"
#include "kallsyms.h"
#include "sched.h"
#include "smp.h"
#include "patch.h"
#include "printk.h"
#include "trace_fixtures.h"
#include "asm/insn.h"
#include "asm/ptrace.h"

/* Each target's site: its entry, or its call of _mcount (-pg). */
#define T1 ftrace_location((unsigned long)ftrace_test_target1)
#define T2 ftrace_location((unsigned long)ftrace_test_target2)
#define T3 ftrace_location((unsigned long)ftrace_test_target3)

struct counting_ops {
	struct ftrace_ops ops;
	unsigned long site[3];		/* T1..T3 */
	unsigned long hits[3];		/* calls seen for target1..3 */
	unsigned long other;		/* calls for any other ip */
	unsigned long parent_bad;
	unsigned long outside;		/* calls for an ip not in the filter */
	/*
	 * While the test changes the filter: the targets (bit i: site[i])
	 * of the filter being replaced. Under stop_machine no callback
	 * runs midway through the change; in live mode one may, once, for
	 * a site just dropped (trace/ftrace_live.c).
	 */
	unsigned int replaced;
};

static int target_index(struct counting_ops *c, unsigned long ip)
{
	int i;

	for (i = 0; i < 3; i++)
		if (ip == c->site[i])
			return i;
	return -1;
}

static unsigned long *target_counter(struct counting_ops *c,
				     unsigned long ip)
{
	int i = target_index(c, ip);

	return i < 0 ? &c->other : &c->hits[i];
}

static bool in_replaced_filter(struct counting_ops *c, unsigned long ip)
{
	int i = target_index(c, ip);

	return i >= 0 && (READ_ONCE(c->replaced) & (1U << i));
}

static void count_call(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct counting_ops *c = container_of(op, struct counting_ops, ops);

	if (!ftrace_ops_test(op, ip) && !in_replaced_filter(c, ip))
		__atomic_add_fetch(&c->outside, 1, __ATOMIC_RELAXED);
	if (!kallsyms_is_text(parent_ip))
		__atomic_add_fetch(&c->parent_bad, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(target_counter(c, ip), 1, __ATOMIC_RELAXED);
}

static void counting_init(struct counting_ops *c, const char *filter)
{
	memset(c, 0, sizeof(*c));
	c->site[0] = T1;
	c->site[1] = T2;
	c->site[2] = T3;
	c->ops.func = count_call;
	c->ops.name = "selftest";
	if (filter)
		ftrace_set_filter(&c->ops, filter, strlen(filter), 1);
}

static void counting_done(struct counting_ops *c)
{
	unregister_ftrace_function(&c->ops);
	ftrace_free_ops_hashes(&c->ops);
}

static void call_targets(int times)
{
	volatile long sink = 0;
	int i;

	for (i = 0; i < times; i++)
		sink += ftrace_test_target1(i) + ftrace_test_target2(i) +
			ftrace_test_target3(i);
}

static u32 site_insn(unsigned long ip)
{
	return riscv_insn_read(ip);
}

/*
 * What a site holds while no ops wants it: a nop, or in FTRACE=static
 * the compiler's call of _mcount, which nothing ever patches.
 */
static u32 site_off_insn(unsigned long ip)
{
	u32 insn = RISCV_INSN_NOP;

	if (!DYNAMIC_FTRACE)
		riscv_insn_jal(ip, MCOUNT_ADDR, FTRACE_SITE_LINK_REG, &insn);
	return insn;
}

static unsigned long rec_count(unsigned long ip)
{
	return ftrace_rec_count(ftrace_lookup_ip(ip));
}

/* A case that checks what ftrace does with its ops alone. */
#define SKIP_UNLESS_ALONE(t) do {					\
	if (ftrace_ops_list != &ftrace_list_end)			\
		KUNIT_SKIP(t, "ftrace in use (enabled_functions): "	\
			      "needs every ops off");			\
} while (0)

static int check_rec_state(struct dyn_ftrace *rec, void *data)
{
	int *bad = data;
	u32 insn = site_insn(rec->ip);

	if (rec->flags & FTRACE_FL_DISABLED)
		return 0;
	if (rec->flags & FTRACE_FL_ENABLED)
		*bad += !riscv_insn_is_jal(insn);
	else
		*bad += insn != RISCV_INSN_NOP;
	return 0;
}

struct site_reach {
	unsigned long out_of_reach;	/* (site, trampoline) pairs */
	unsigned long veneered;		/* of them, called through a veneer */
	unsigned long bad;
};

static bool jal_reaches(unsigned long ip, unsigned long to)
{
	long offset = (long)(to - ip);

	return offset >= RISCV_JAL_MIN && offset <= RISCV_JAL_MAX;
}

/*
 * The call that would enable the site at ip reaches tramp: with its
 * jal, or through a veneer that jumps there. And the veneer nearest to
 * the site, the one it would call if it were far, does too.
 */
static void check_reach(unsigned long ip, unsigned long tramp,
			struct site_reach *r)
{
	unsigned long to, near = ftrace_veneer_near(ip, tramp ==
						    FTRACE_REGS_ADDR);
	u32 insn;

	r->out_of_reach += !jal_reaches(ip, tramp);
	if (!near || riscv_insn_auipc_jr_target(near) != tramp ||
	    !in_ftrace_veneer(near) || ftrace_call_insn(ip, tramp, &insn) ||
	    !riscv_insn_is_jal(insn) ||
	    riscv_insn_rd(insn) != FTRACE_SITE_LINK_REG) {
		r->bad++;
		return;
	}
	to = riscv_insn_jal_target(ip, insn);
	if (to == tramp)
		return;
	r->veneered++;
	r->bad += riscv_insn_auipc_jr_target(to) != tramp ||
		  ftrace_veneer_target(to) != tramp;
}

static int check_rec_reach(struct dyn_ftrace *rec, void *data)
{
	check_reach(rec->ip, FTRACE_ADDR, data);
	check_reach(rec->ip, FTRACE_REGS_ADDR, data);
	return 0;
}

/*
 * Every site's call reaches ftrace_caller (and ftrace_regs_caller): a
 * jal straight there when it can, through its object's veneer only
 * when it cannot (asm/ftrace_veneer.h). `make PAD_TEXT=3M` builds a
 * kernel whose traced sites are all far.
 */
static void sites_reach_trampolines(struct kunit *t)
{
	struct site_reach r = { 0 };

	if (!FTRACE_VENEERS)
		KUNIT_SKIP(t, "-pg: ld relaxed each site into a jal");
	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	ftrace_for_each_rec(check_rec_reach, &r);
	KUNIT_EXPECT_EQ(t, r.bad, 0);
	KUNIT_EXPECT_EQ(t, r.veneered, r.out_of_reach);
}

/*
 * Every site holds the form its record says: nop, or a jal when on.
 * ftrace_location leads from anywhere in a traced function to its site,
 * and from anywhere else to nothing.
 */
static void sites_match_records(struct kunit *t)
{
	int bad = 0;

	if (!DYNAMIC_FTRACE)
		KUNIT_SKIP(t, FTRACE_SKIP_STATIC);
	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	KUNIT_EXPECT_TRUE(t, ftrace_nr_records() > 20);
	ftrace_for_each_rec(check_rec_state, &bad);
	KUNIT_EXPECT_EQ(t, bad, 0);
	KUNIT_EXPECT_TRUE(t, ftrace_lookup_ip(T1) != NULL);
	if (!rec_count(T1))
		KUNIT_EXPECT_EQ(t, site_insn(T1), site_off_insn(T1));
	KUNIT_EXPECT_EQ(t, ftrace_location(T1), T1);
	KUNIT_EXPECT_EQ(t, ftrace_location(T1 + 2), T1);
	KUNIT_EXPECT_EQ(t, ftrace_location((unsigned long)kallsyms_lookup), 0);
}

/*
 * A site that does not hold what it should is refused, not written,
 * nor is the ops literal before it.
 */
static void bad_site_is_refused(struct kunit *t)
{
	struct dyn_ftrace fake = { .ip = (unsigned long)kallsyms_lookup };
	u32 before = site_insn(fake.ip);
	u8 literal[8];	/* the 8 bytes an ops literal would take */
	unsigned long done = 1;

	if (!DYNAMIC_FTRACE)
		KUNIT_SKIP(t, FTRACE_SKIP_STATIC);
	memcpy(literal, (void *)(fake.ip - 8), 8);
	mutex_lock(&text_mutex);
	KUNIT_EXPECT_EQ(t, ftrace_init_nop(&fake), -EINVAL);
	KUNIT_EXPECT_EQ(t, ftrace_make_call(&fake,
					    (unsigned long)ftrace_caller),
			-EINVAL);
	if (FTRACE_CALL_OPS && !ftrace_patch_live()) {
		KUNIT_EXPECT_EQ(t, ftrace_make_call_ops(&fake, 1,
				(unsigned long)ftrace_caller, &ftrace_list_ops,
				&done), -EINVAL);
		KUNIT_EXPECT_EQ(t, done, 0);	/* no site written */
	}
	mutex_unlock(&text_mutex);
	KUNIT_EXPECT_EQ(t, site_insn(fake.ip), before);
	KUNIT_EXPECT_EQ(t, memcmp((void *)(fake.ip - 8), literal, 8), 0);
}

/* ftrace_make_call and ftrace_make_nop on a site that is off. */
static void call_and_nop(struct kunit *t, struct dyn_ftrace *rec)
{
	unsigned long ip = rec->ip;
	u32 jal = 0;	/* no site holds 0: a jal not encoded fails */

	ftrace_call_insn(ip, FTRACE_ADDR, &jal);
	mutex_lock(&text_mutex);
	KUNIT_EXPECT_EQ(t, ftrace_make_call(rec, FTRACE_ADDR), 0);
	patch_unmap();
	flush_icache_all();
	KUNIT_EXPECT_EQ(t, site_insn(ip), jal);
	KUNIT_EXPECT_EQ(t, ftrace_make_nop(rec, FTRACE_ADDR), 0);
	patch_unmap();
	flush_icache_all();
	mutex_unlock(&text_mutex);
	KUNIT_EXPECT_EQ(t, site_insn(ip), RISCV_INSN_NOP);
}

/*
 * make_call then make_nop on a real site, checking the bytes each
 * time. The site is written behind its record's back, so only while
 * no ops wants it, and ftrace_lock keeps it so. (Once written under a
 * tracer, the site was left a nop while its record said call: the
 * next update failed to verify it and disabled it for good.)
 */
static void make_call_and_nop(struct kunit *t)
{
	struct dyn_ftrace *rec = ftrace_lookup_ip(T3);
	bool in_use;

	if (!DYNAMIC_FTRACE)
		KUNIT_SKIP(t, FTRACE_SKIP_STATIC);
	if (!rec)
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	mutex_lock(&ftrace_lock);
	in_use = rec->flags & (FTRACE_REF_MAX | FTRACE_FL_ENABLED |
			       FTRACE_FL_DISABLED);
	if (!in_use)
		call_and_nop(t, rec);
	mutex_unlock(&ftrace_lock);
	if (in_use)
		KUNIT_SKIP(t, "ftrace_test_target3 is in enabled_functions");
}

/*
 * An 8-aligned word of code inside kallsyms_lookup, not at a page's
 * start: a "site" the batch writes in place (text_poke_site), not one
 * it hands to ftrace_make_call, so that its own check must refuse it.
 */
static unsigned long bad_site(void)
{
	unsigned long ip = ALIGN_UP((unsigned long)kallsyms_lookup, 8) + 8;

	return ip & (PAGE_SIZE - FTRACE_OPS_LITERAL_SIZE) ? ip : ip + 8;
}

/*
 * A batch of sites to enable (ftrace_make_call_ops) whose second site
 * does not hold a nop: the first is written, literal and call, and the
 * batch stops at the second, which is left as it was, literal too.
 */
static void call_ops_batch(struct kunit *t, struct dyn_ftrace *rec)
{
	struct dyn_ftrace batch[2] = {
		{ .ip = rec->ip },
		{ .ip = bad_site() },
	};
	struct ftrace_ops *saved = ftrace_site_ops(rec->ip);
	u32 bad = site_insn(batch[1].ip), jal = 0;
	u8 literal[8];
	unsigned long done = 0;

	KUNIT_EXPECT_NE(t, bad, RISCV_INSN_NOP);
	memcpy(literal, (void *)(batch[1].ip - 8), 8);
	riscv_insn_jal(rec->ip, FTRACE_ADDR, FTRACE_SITE_LINK_REG, &jal);
	mutex_lock(&text_mutex);
	KUNIT_EXPECT_EQ(t, ftrace_make_call_ops(batch, 2, FTRACE_ADDR,
						&ftrace_list_ops, &done),
			-EINVAL);
	patch_unmap();
	flush_icache_all();
	KUNIT_EXPECT_EQ(t, done, 1);
	KUNIT_EXPECT_EQ(t, site_insn(rec->ip), jal);
	KUNIT_EXPECT_TRUE(t, ftrace_site_ops(rec->ip) == &ftrace_list_ops);
	KUNIT_EXPECT_EQ(t, site_insn(batch[1].ip), bad);
	KUNIT_EXPECT_EQ(t, memcmp((void *)(batch[1].ip - 8), literal, 8), 0);
	KUNIT_EXPECT_EQ(t, ftrace_make_nop(rec, FTRACE_ADDR), 0);
	KUNIT_EXPECT_EQ(t, ftrace_rec_update_ops(rec, saved), 0);
	patch_unmap();
	flush_icache_all();
	mutex_unlock(&text_mutex);
	KUNIT_EXPECT_EQ(t, site_insn(rec->ip), RISCV_INSN_NOP);
}

/* call_ops_batch on a real site, while no ops wants it (as above). */
static void call_ops_batch_stops_at_bad_site(struct kunit *t)
{
	struct dyn_ftrace *rec = ftrace_lookup_ip(T3);
	bool in_use;

	if (!DYNAMIC_FTRACE || !FTRACE_CALL_OPS)
		KUNIT_SKIP(t, "sites have no ops literal");
	if (!rec)
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	if (ftrace_patch_live())
		KUNIT_SKIP(t, "live: each site is written on its own");
	mutex_lock(&ftrace_lock);
	in_use = rec->flags & (FTRACE_REF_MAX | FTRACE_FL_ENABLED |
			       FTRACE_FL_DISABLED);
	if (!in_use)
		call_ops_batch(t, rec);
	mutex_unlock(&ftrace_lock);
	if (in_use)
		KUNIT_SKIP(t, "ftrace_test_target3 is in enabled_functions");
}

/* The writes of one update, as ftrace_patch_hook sees them. */
#define ORDER_MAX	8
static struct {
	unsigned long ip;
	u32 insn;
} order_log[ORDER_MAX];
static int order_n;

static void log_order(unsigned long ip, u32 old, u32 new)
{
	if (order_n < ORDER_MAX) {
		order_log[order_n].ip = ip;
		order_log[order_n].insn = new;
	}
	order_n++;
}

/* Where write i makes its ip jump; 0 for a nop. */
static unsigned long order_target(int i)
{
	u32 insn = order_log[i].insn;

	return riscv_insn_is_jal(insn) ?
	       riscv_insn_jal_target(order_log[i].ip, insn) : 0;
}

/* How many writes before (or after) the site's went to func. */
static int order_count(int from, int to, void *func)
{
	int i, n = 0;

	for (i = from; i < to; i++)
		n += order_log[i].ip != T1 &&
		     order_target(i) == (unsigned long)func;
	return n;
}

/*
 * ftrace_modify_all_code's three steps, in the order of the writes:
 * the trampolines' ftrace_call to the list function, then the site,
 * then ftrace_call to the ops' own function. Under stop_machine no
 * other hart runs between them, so the order shows only here (live
 * patching shows it at work).
 */
static void modify_all_code_order(struct kunit *t)
{
	struct counting_ops c;
	int site;

	if (!DYNAMIC_FTRACE)
		KUNIT_SKIP(t, FTRACE_SKIP_STATIC);
	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	SKIP_UNLESS_ALONE(t);
	if (ftrace_patch_hook)
		KUNIT_SKIP(t, "ftrace_debug is on");
	counting_init(&c, "ftrace_test_target1");
	order_n = 0;
	ftrace_patch_hook = log_order;
	KUNIT_EXPECT_EQ(t, register_ftrace_function(&c.ops), 0);
	ftrace_patch_hook = NULL;
	counting_done(&c);
	KUNIT_EXPECT_TRUE(t, order_n <= ORDER_MAX);
	for (site = 0; site < order_n && site < ORDER_MAX; site++)
		if (order_log[site].ip == T1)
			break;
	KUNIT_EXPECT_TRUE(t, site < order_n && site < ORDER_MAX);
	if (site >= order_n || order_n > ORDER_MAX)
		return;
	KUNIT_EXPECT_TRUE(t, site > 0);
	KUNIT_EXPECT_EQ(t, order_count(0, site, ftrace_ops_list_func), site);
	KUNIT_EXPECT_TRUE(t, order_n > site + 1);
	KUNIT_EXPECT_EQ(t, order_count(site + 1, order_n, count_call),
			order_n - site - 1);
}

/* What the trampoline's ftrace_call calls now. */
static unsigned long ftrace_call_target(void)
{
	unsigned long call = (unsigned long)ftrace_call;
	u32 insn = site_insn(call);

	return riscv_insn_is_jal(insn) ? riscv_insn_jal_target(call, insn) : 0;
}

/*
 * A filter change goes through the list function (step 1), and must
 * come back to the only ops' own function (step 3), or every traced call
 * pays for the list walk from then on.
 */
static void filter_change_restores_ftrace_call(struct kunit *t)
{
	struct counting_ops c;

	if (!DYNAMIC_FTRACE)
		KUNIT_SKIP(t, FTRACE_SKIP_STATIC);
	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	SKIP_UNLESS_ALONE(t);
	counting_init(&c, "ftrace_test_target1");
	KUNIT_EXPECT_EQ(t, register_ftrace_function(&c.ops), 0);
	KUNIT_EXPECT_EQ(t, ftrace_call_target(), (unsigned long)count_call);
	KUNIT_EXPECT_EQ(t, ftrace_set_filter(&c.ops, "ftrace_test_target2",
					     19, 1), 0);
	KUNIT_EXPECT_EQ(t, ftrace_call_target(), (unsigned long)count_call);
	call_targets(10);
	counting_done(&c);
	KUNIT_EXPECT_EQ(t, ftrace_call_target(), (unsigned long)ftrace_stub);
	KUNIT_EXPECT_EQ(t, c.hits[0] + c.hits[2], 0);
	KUNIT_EXPECT_EQ(t, c.hits[1], 10);
}

struct location_check {
	unsigned long bad, checked;
};

/*
 * ftrace_location at the last halfword before each site (before its
 * ops literal, which is in no function): 0, or a site inside the
 * function that holds that address, never the next one's.
 */
static int check_location_before(struct dyn_ftrace *rec, void *data)
{
	struct location_check *lc = data;
	unsigned long p = ftrace_rec_ops_literal(rec->ip) - 2, size, off, loc;

	if (!kallsyms_lookup(p, &size, &off))
		return 0;
	loc = ftrace_location(p);
	lc->checked++;
	lc->bad += loc && (loc < p - off || loc >= p - off + size);
	return 0;
}

static void location_stays_in_function(struct kunit *t)
{
	struct location_check lc = { 0, 0 };

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	ftrace_for_each_rec(check_location_before, &lc);
	KUNIT_EXPECT_TRUE(t, lc.checked > 20);
	KUNIT_EXPECT_EQ(t, lc.bad, 0);
}

static void single_ops_filter(struct kunit *t)
{
	struct counting_ops c;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	SKIP_UNLESS_ALONE(t);
	counting_init(&c, "ftrace_test_target1");
	KUNIT_EXPECT_EQ(t, register_ftrace_function(&c.ops), 0);
	KUNIT_EXPECT_TRUE(t, riscv_insn_is_jal(site_insn(T1)));
	KUNIT_EXPECT_EQ(t, site_insn(T2), site_off_insn(T2));
	/* Static: no site says which ops wants it, the list function does. */
	KUNIT_EXPECT_TRUE(t, ftrace_trace_function ==
			  (DYNAMIC_FTRACE ? count_call : ftrace_ops_list_func));
	call_targets(100);
	counting_done(&c);
	KUNIT_EXPECT_EQ(t, c.hits[0], 100);
	KUNIT_EXPECT_EQ(t, c.hits[1] + c.hits[2] + c.other, 0);
	KUNIT_EXPECT_EQ(t, c.parent_bad, 0);
	KUNIT_EXPECT_EQ(t, site_insn(T1), site_off_insn(T1));
	KUNIT_EXPECT_EQ(t, ftrace_rec_count(ftrace_lookup_ip(T1)), 0);
}

/* Linux's dynamic ops test: each ops sees its own function only. */
static void two_ops_two_filters(struct kunit *t)
{
	struct counting_ops a, b;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	counting_init(&a, "ftrace_test_target1");
	counting_init(&b, "ftrace_test_target2");
	register_ftrace_function(&a.ops);
	register_ftrace_function(&b.ops);
	KUNIT_EXPECT_TRUE(t, ftrace_trace_function == ftrace_ops_list_func);
	call_targets(50);
	counting_done(&b);
	call_targets(10);
	counting_done(&a);
	KUNIT_EXPECT_EQ(t, a.hits[0], 60);
	KUNIT_EXPECT_EQ(t, a.hits[1] + a.hits[2] + a.other, 0);
	KUNIT_EXPECT_EQ(t, b.hits[1], 50);
	KUNIT_EXPECT_EQ(t, b.hits[0] + b.hits[2] + b.other, 0);
}

static int count_misaligned_literal(struct dyn_ftrace *rec, void *data)
{
	*(unsigned long *)data += ftrace_rec_ops_literal(rec->ip) & 7;
	return 0;
}

/*
 * Every site's ops literal is one aligned 8-byte word, which the
 * patcher writes with one store (-falign-functions=8 in the Makefile).
 */
static void ops_literals_aligned(struct kunit *t)
{
	unsigned long misaligned = 0;

	if (!FTRACE_CALL_OPS)
		KUNIT_SKIP(t, "-pg: sites have no ops literal");
	ftrace_for_each_rec(count_misaligned_literal, &misaligned);
	KUNIT_EXPECT_EQ(t, misaligned, 0);
}

/*
 * Each site's ops literal (asm/ftrace.h): a site one ops wants names
 * that ops, which the trampoline then calls directly beside another;
 * once a second ops wants it, ftrace_list_ops; once that one leaves,
 * the first again. Each ops sees its own calls, and only those.
 */
static void call_ops_follow_sharing(struct kunit *t)
{
	struct counting_ops a, b;

	if (!FTRACE_CALL_OPS)
		KUNIT_SKIP(t, "-pg: sites have no ops literal");
	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	SKIP_UNLESS_ALONE(t);
	counting_init(&a, "ftrace_test_target1");
	counting_init(&b, "ftrace_test_target2");
	register_ftrace_function(&a.ops);
	register_ftrace_function(&b.ops);
	KUNIT_EXPECT_TRUE(t, ftrace_site_ops(T1) == &a.ops);
	KUNIT_EXPECT_TRUE(t, ftrace_site_ops(T2) == &b.ops);
	call_targets(10);
	ftrace_set_filter(&b.ops, "ftrace_test_target1", 19, 0);
	KUNIT_EXPECT_TRUE(t, ftrace_site_ops(T1) == &ftrace_list_ops);
	call_targets(10);
	counting_done(&b);
	KUNIT_EXPECT_TRUE(t, ftrace_site_ops(T1) == &a.ops);
	call_targets(10);
	counting_done(&a);
	KUNIT_EXPECT_EQ(t, a.hits[0], 30);
	KUNIT_EXPECT_EQ(t, a.hits[1] + a.hits[2] + a.other + a.outside, 0);
	KUNIT_EXPECT_EQ(t, b.hits[0], 10);
	KUNIT_EXPECT_EQ(t, b.hits[1], 20);
	KUNIT_EXPECT_EQ(t, b.hits[2] + b.other + b.outside, 0);
}

static void list_func_three_ops(struct kunit *t)
{
	struct counting_ops a, b, c;
	unsigned long t1, t3;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	t1 = rec_count(T1);
	t3 = rec_count(T3);
	counting_init(&a, "ftrace_test_target1");
	counting_init(&b, "ftrace_test_target*");
	counting_init(&c, "*target3");
	register_ftrace_function(&a.ops);
	register_ftrace_function(&b.ops);
	register_ftrace_function(&c.ops);
	KUNIT_EXPECT_EQ(t, rec_count(T1), t1 + 2);
	KUNIT_EXPECT_EQ(t, rec_count(T3), t3 + 2);
	call_targets(20);
	counting_done(&a);
	counting_done(&b);
	counting_done(&c);
	KUNIT_EXPECT_EQ(t, a.hits[0], 20);
	KUNIT_EXPECT_EQ(t, b.hits[0] + b.hits[1] + b.hits[2], 60);
	KUNIT_EXPECT_EQ(t, c.hits[2], 20);
	KUNIT_EXPECT_EQ(t, a.other + b.other + c.other, 0);
	/* T1 and T3 are shared: the list function asks each ops' hash. */
	KUNIT_EXPECT_EQ(t, a.outside + b.outside + c.outside, 0);
	KUNIT_EXPECT_EQ(t, rec_count(T1), t1);
}

static void notrace_wins(struct kunit *t)
{
	struct counting_ops c;
	unsigned long t2;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	t2 = rec_count(T2);
	counting_init(&c, "ftrace_test_target*");
	ftrace_set_notrace(&c.ops, "ftrace_test_target2", 19, 1);
	register_ftrace_function(&c.ops);
	KUNIT_EXPECT_EQ(t, rec_count(T2), t2);
	if (!t2)
		KUNIT_EXPECT_EQ(t, site_insn(T2), site_off_insn(T2));
	call_targets(10);
	counting_done(&c);
	KUNIT_EXPECT_EQ(t, c.hits[0], 10);
	KUNIT_EXPECT_EQ(t, c.hits[1], 0);
	KUNIT_EXPECT_EQ(t, c.hits[2], 10);
}

/* With no filter, an ops wants every site but its notrace ones. */
static void notrace_without_filter(struct kunit *t)
{
	struct counting_ops c;
	unsigned long t2;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	t2 = rec_count(T2);
	counting_init(&c, NULL);
	ftrace_set_notrace(&c.ops, "ftrace_test_target2", 19, 1);
	register_ftrace_function(&c.ops);
	KUNIT_EXPECT_EQ(t, rec_count(T2), t2);
	KUNIT_EXPECT_EQ(t, rec_count(T1), rec_count(T3));
	call_targets(10);
	counting_done(&c);
	KUNIT_EXPECT_EQ(t, c.hits[0], 10);
	KUNIT_EXPECT_EQ(t, c.hits[1], 0);
	KUNIT_EXPECT_EQ(t, c.hits[2], 10);
}

/*
 * With two ops the list function asks each (ftrace_ops_test): a site on
 * for b must not reach a, whose notrace names it.
 */
static void notrace_with_two_ops(struct kunit *t)
{
	struct counting_ops a, b;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	counting_init(&a, "ftrace_test_target*");
	ftrace_set_notrace(&a.ops, "ftrace_test_target2", 19, 1);
	counting_init(&b, "ftrace_test_target2");
	register_ftrace_function(&a.ops);
	register_ftrace_function(&b.ops);
	call_targets(10);
	counting_done(&b);
	counting_done(&a);
	KUNIT_EXPECT_EQ(t, a.hits[0], 10);
	KUNIT_EXPECT_EQ(t, a.hits[1], 0);
	KUNIT_EXPECT_EQ(t, a.hits[2], 10);
	KUNIT_EXPECT_EQ(t, b.hits[1], 10);
	KUNIT_EXPECT_EQ(t, b.hits[0] + b.hits[2], 0);
}

static int glob_count(const char *glob)
{
	struct ftrace_hash *h = alloc_ftrace_hash(4);
	int n = ftrace_match_records(h, glob, strlen(glob));

	free_ftrace_hash(h);
	return n;
}

static void glob_forms(struct kunit *t)
{
	struct ftrace_hash *h;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	h = alloc_ftrace_hash(4);
	KUNIT_EXPECT_EQ(t, glob_count("ftrace_test_target1"), 1);
	KUNIT_EXPECT_EQ(t, glob_count("ftrace_test_target*"), 3);
	KUNIT_EXPECT_EQ(t, glob_count("*_test_target2"), 1);
	KUNIT_EXPECT_EQ(t, glob_count("*test_targ*"), 3);
	KUNIT_EXPECT_EQ(t, glob_count("ftrace_test_target[12]"), 2);
	KUNIT_EXPECT_EQ(t, glob_count("no_such_function_xyz"), -EINVAL);
	KUNIT_EXPECT_EQ(t, glob_count("*"), ftrace_nr_records());
	KUNIT_EXPECT_EQ(t, glob_count("!"), -EINVAL);
	ftrace_match_records(h, "ftrace_test_target*", 19);
	ftrace_match_records(h, "!ftrace_test_target2", 20);
	KUNIT_EXPECT_EQ(t, h->count, 2);
	KUNIT_EXPECT_TRUE(t, !ftrace_lookup_ip_in_hash(h, T2));
	free_ftrace_hash(h);
}

/* ---- callers on the other CPUs ----------------------------------------- */

struct callers {
	struct task *task[NR_CPUS];
	volatile bool stop;
	int n;
};

static void caller_loop(void *arg)
{
	struct callers *cs = arg;

	while (!cs->stop)
		call_targets(10);
}

static void start_callers(struct callers *cs)
{
	int cpu;

	memset(cs, 0, sizeof(*cs));
	for_each_online_cpu(cpu) {
		if (cpu == smp_processor_id() && nr_cpus > 1)
			continue;
		cs->task[cs->n] = kthread_create_on_cpu(caller_loop, cs,
							"caller", cpu);
		if (cs->task[cs->n])
			kthread_start(cs->task[cs->n++]);
	}
}

static void stop_callers(struct callers *cs)
{
	int i;

	cs->stop = true;
	for (i = 0; i < cs->n; i++)
		kthread_wait(cs->task[i]);
}

/*
 * ftrace-uses.rst: replacing a filter with reset must never let every function
 * call back, not even for an instant, while other CPUs keep calling.
 */
static void filter_replace_no_window(struct kunit *t)
{
	struct counting_ops c;
	struct callers cs;
	int i;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	counting_init(&c, "ftrace_test_target1");
	register_ftrace_function(&c.ops);
	start_callers(&cs);
	for (i = 0; i < 20; i++) {
		const char *f = i & 1 ? "ftrace_test_target1" :
					"ftrace_test_target2";

		WRITE_ONCE(c.replaced, i & 1 ? 1U << 1 : 1U << 0);
		ftrace_set_filter(&c.ops, f, strlen(f), 1);
		WRITE_ONCE(c.replaced, 0);
		if (nr_cpus == 1)
			msleep(1);
	}
	stop_callers(&cs);
	counting_done(&c);
	KUNIT_EXPECT_EQ(t, c.other, 0);
	KUNIT_EXPECT_EQ(t, c.outside, 0);
	KUNIT_EXPECT_EQ(t, c.hits[2], 0);
	KUNIT_EXPECT_TRUE(t, c.hits[0] > 0);
}

/*
 * A callback that calls a traced function is called again for it once
 * (the transition bit, which cannot tell this from an interrupt on its
 * way in), never twice: two calls, four callbacks.
 */
static unsigned long recursion_calls;

static void recursing_call(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);

	if (bit < 0)
		return;
	recursion_calls++;
	ftrace_test_target1(0);
	ftrace_test_recursion_unlock(bit);
}

static void recursion_is_stopped(struct kunit *t)
{
	struct ftrace_ops ops = { .func = recursing_call, .name = "recurse" };

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	ftrace_set_filter(&ops, "ftrace_test_target1", 19, 1);
	recursion_calls = 0;
	register_ftrace_function(&ops);
	ftrace_test_target1(1);
	ftrace_test_target1(2);
	unregister_ftrace_function(&ops);
	ftrace_free_ops_hashes(&ops);
	KUNIT_EXPECT_EQ(t, recursion_calls, 4);
}

/*
 * A callback with no guard of its own, under ftrace_ops_list_func (a
 * second ops wants its site too: a site of its own would call it
 * directly, as a single ops is): the list function's own bits stop it,
 * one level deeper at most (its transition bit). Its own depth limit
 * only keeps a broken list function from overflowing the stack.
 */
static unsigned long naive_calls, naive_depth;

static void naive_recursing_call(unsigned long ip, unsigned long parent_ip,
				 struct ftrace_ops *op,
				 struct ftrace_regs *fregs)
{
	naive_calls++;
	if (naive_depth++ < 8)
		ftrace_test_target1(0);
	naive_depth--;
}

static void list_func_stops_recursion(struct kunit *t)
{
	struct ftrace_ops ops = { .func = naive_recursing_call,
				  .name = "naive" };
	struct counting_ops other;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	counting_init(&other, "ftrace_test_target1");
	ftrace_set_filter(&ops, "ftrace_test_target1", 19, 1);
	naive_calls = 0;
	register_ftrace_function(&other.ops);
	register_ftrace_function(&ops);
	ftrace_test_target1(1);
	ftrace_test_target1(2);
	unregister_ftrace_function(&ops);
	ftrace_free_ops_hashes(&ops);
	counting_done(&other);
	KUNIT_EXPECT_EQ(t, naive_calls, 4);
}

/*
 * An interrupt has a recursion bit of its own: inside one that lands
 * in a callback (simulated here, hardirq count up), a callback may
 * still call a traced function once more (the transition bit), as it
 * may in a task. T1's callback "takes the interrupt" and calls T2;
 * T2's callback calls T3; T3's is reached.
 */
static unsigned long irq_chain_hits[3];

static void irq_chain_call(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);

	if (bit < 0)
		return;
	if (ip == T1) {
		irq_chain_hits[0]++;
		current->preempt_count += HARDIRQ_OFFSET;
		ftrace_test_target2(0);
		current->preempt_count -= HARDIRQ_OFFSET;
	} else if (ip == T2) {
		irq_chain_hits[1]++;
		ftrace_test_target3(0);
	} else if (ip == T3) {
		irq_chain_hits[2]++;
	}
	ftrace_test_recursion_unlock(bit);
}

static void irq_has_its_own_bit(struct kunit *t)
{
	struct ftrace_ops ops = { .func = irq_chain_call, .name = "irq" };

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	ftrace_set_filter(&ops, "ftrace_test_target*", 19, 1);
	memset(irq_chain_hits, 0, sizeof(irq_chain_hits));
	register_ftrace_function(&ops);
	ftrace_test_target1(1);
	unregister_ftrace_function(&ops);
	ftrace_free_ops_hashes(&ops);
	KUNIT_EXPECT_EQ(t, irq_chain_hits[0], 1);
	KUNIT_EXPECT_EQ(t, irq_chain_hits[1], 1);
	KUNIT_EXPECT_EQ(t, irq_chain_hits[2], 1);
}

/* FTRACE_OPS_FL_RECURSION: the core wraps the callback itself. */
static void recursion_flag_wraps(struct kunit *t)
{
	struct counting_ops c;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	counting_init(&c, "ftrace_test_target1");
	c.ops.flags = FTRACE_OPS_FL_RECURSION;
	register_ftrace_function(&c.ops);
	call_targets(5);
	counting_done(&c);
	KUNIT_EXPECT_EQ(t, c.hits[0], 5);
	KUNIT_EXPECT_TRUE(t, c.ops.saved_func == count_call);
}

/* ---- pt_regs: SAVE_REGS and IPMODIFY ----------------------------------- */

static struct {
	unsigned long args[8];
	int calls;
	int without_regs;
} seen;

static void save_args(unsigned long ip, unsigned long parent_ip,
		      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);

	seen.calls++;
	if (regs)
		memcpy(seen.args, &regs->a0, sizeof(seen.args));
	else
		seen.without_regs++;
}

static long call_args(void)
{
	return ftrace_test_args(11, 22, 33, 44, 55, 66, 77, 88);
}

static void expect_args_seen(struct kunit *t)
{
	int i;

	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(t, seen.args[i], 11 * (i + 1));
}

/* The site calls ftrace_regs_caller, and the callback sees a0-a7. */
static void save_regs_on_site(struct kunit *t, struct ftrace_ops *ops)
{
	unsigned long ip = ftrace_location((unsigned long)ftrace_test_args);
	u32 jal = 0;	/* no site holds 0: a jal not encoded fails */

	KUNIT_EXPECT_EQ(t, register_ftrace_function(ops), 0);
	ftrace_call_insn(ip, FTRACE_REGS_ADDR, &jal);
	KUNIT_EXPECT_EQ(t, site_insn(ip), jal);
	KUNIT_EXPECT_TRUE(t, ftrace_lookup_ip(ip)->flags & FTRACE_FL_REGS_EN);
	KUNIT_EXPECT_EQ(t, call_args(), 11 ^ 22 ^ 33 ^ 44 ^ 55 ^ 66 ^ 77 ^ 88);
	unregister_ftrace_function(ops);
	expect_args_seen(t);
}

/*
 * SAVE_REGS_IF_SUPPORTED (which makes SAVE_REGS beside it irrelevant)
 * is accepted everywhere, with pt_regs exactly where sites have them.
 */
static void save_regs_if_supported(struct kunit *t, unsigned long flags)
{
	struct ftrace_ops ops = { .func = save_args, .flags = flags,
				  .name = "regs-if-supported" };

	ftrace_set_filter(&ops, "ftrace_test_args", 16, 1);
	memset(&seen, 0, sizeof(seen));
	KUNIT_EXPECT_EQ(t, register_ftrace_function(&ops), 0);
	call_args();
	unregister_ftrace_function(&ops);
	ftrace_free_ops_hashes(&ops);
	KUNIT_EXPECT_EQ(t, seen.calls, 1);
	KUNIT_EXPECT_EQ(t, seen.without_regs, !ftrace_regs_supported());
	if (ftrace_regs_supported())
		expect_args_seen(t);
}

/*
 * SAVE_REGS needs the argument registers live at the site; -pg's call
 * of _mcount is an ordinary call where they are not, so there it is
 * refused (-EINVAL), as Linux does without DYNAMIC_FTRACE_WITH_REGS.
 */
static void save_regs_sees_args(struct kunit *t)
{
	struct ftrace_ops ops = { .func = save_args, .name = "regs",
				  .flags = FTRACE_OPS_FL_SAVE_REGS };

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	ftrace_set_filter(&ops, "ftrace_test_args", 16, 1);
	memset(&seen, 0, sizeof(seen));
	if (ftrace_regs_supported())
		save_regs_on_site(t, &ops);
	else
		KUNIT_EXPECT_EQ(t, register_ftrace_function(&ops), -EINVAL);
	ftrace_free_ops_hashes(&ops);
	save_regs_if_supported(t, FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED);
	save_regs_if_supported(t, FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED |
				  FTRACE_OPS_FL_SAVE_REGS);
}

/* Calls of one ops on T1, and how many came with pt_regs. */
struct regs_ops {
	struct ftrace_ops ops;
	unsigned long calls, with_regs;
};

static void count_regs(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct regs_ops *r = container_of(op, struct regs_ops, ops);

	if (ip != T1)
		return;
	r->calls++;
	r->with_regs += fregs != NULL;
}

static void regs_ops_init(struct regs_ops *r, unsigned long flags)
{
	memset(r, 0, sizeof(*r));
	r->ops.func = count_regs;
	r->ops.flags = flags;
	r->ops.name = "regs-count";
	ftrace_set_filter(&r->ops, "ftrace_test_target1", 19, 1);
}

/*
 * A site moves from ftrace_caller to ftrace_regs_caller when a SAVE_REGS
 * ops joins a plain one (ftrace_modify_call), and stays there while any
 * SAVE_REGS ops still wants it: each gets pt_regs on every call.
 */
static void regs_ops_join_and_leave(struct kunit *t)
{
	struct regs_ops plain, r1, r2;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	if (!ftrace_regs_supported())
		KUNIT_SKIP(t, "sites have no pt_regs (-pg)");
	regs_ops_init(&plain, 0);
	regs_ops_init(&r1, FTRACE_OPS_FL_SAVE_REGS);
	regs_ops_init(&r2, FTRACE_OPS_FL_SAVE_REGS);
	KUNIT_EXPECT_EQ(t, register_ftrace_function(&plain.ops), 0);
	ftrace_test_target1(1);
	KUNIT_EXPECT_EQ(t, register_ftrace_function(&r1.ops), 0);
	ftrace_test_target1(2);
	KUNIT_EXPECT_EQ(t, register_ftrace_function(&r2.ops), 0);
	unregister_ftrace_function(&r1.ops);
	ftrace_test_target1(3);
	unregister_ftrace_function(&r2.ops);
	unregister_ftrace_function(&plain.ops);
	ftrace_free_ops_hashes(&plain.ops);
	ftrace_free_ops_hashes(&r1.ops);
	ftrace_free_ops_hashes(&r2.ops);
	KUNIT_EXPECT_EQ(t, plain.calls, 3);
	KUNIT_EXPECT_EQ(t, r1.calls, 1);
	KUNIT_EXPECT_EQ(t, r1.with_regs, 1);
	KUNIT_EXPECT_EQ(t, r2.calls, 1);
	KUNIT_EXPECT_EQ(t, r2.with_regs, 1);
}

static void redirect(unsigned long ip, unsigned long parent_ip,
		     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	ftrace_get_regs(fregs)->epc = (unsigned long)ftrace_test_replacement;
}

/* One IPMODIFY ops owns a function; IPMODIFY needs SAVE_REGS. */
static void ipmodify_owns_function(struct kunit *t, struct ftrace_ops *a,
				   struct ftrace_ops *b, struct ftrace_ops *c)
{
	KUNIT_EXPECT_EQ(t, register_ftrace_function(a), 0);
	KUNIT_EXPECT_EQ(t, ftrace_test_redirected(7), 21);
	KUNIT_EXPECT_EQ(t, register_ftrace_function(b), -EBUSY);
	KUNIT_EXPECT_EQ(t, register_ftrace_function(c), -EINVAL);
	unregister_ftrace_function(a);
	KUNIT_EXPECT_EQ(t, ftrace_test_redirected(7), 14);
	KUNIT_EXPECT_EQ(t, register_ftrace_function(b), 0);
	unregister_ftrace_function(b);
}

/* Under -pg there is no regs->epc to change: always -EINVAL. */
static void ipmodify_refused(struct kunit *t, struct ftrace_ops *a,
			     struct ftrace_ops *c)
{
	struct ftrace_ops d = {
		.func = redirect, .name = "d",
		.flags = FTRACE_OPS_FL_IPMODIFY |
			 FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED };

	KUNIT_EXPECT_EQ(t, register_ftrace_function(a), -EINVAL);
	KUNIT_EXPECT_EQ(t, register_ftrace_function(c), -EINVAL);
	KUNIT_EXPECT_EQ(t, register_ftrace_function(&d), -EINVAL);
	KUNIT_EXPECT_EQ(t, ftrace_test_redirected(7), 14);
}

static void ipmodify_redirects(struct kunit *t)
{
	unsigned long flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY;
	struct ftrace_ops a = { .func = redirect, .flags = flags, .name = "a" };
	struct ftrace_ops b = { .func = redirect, .flags = flags, .name = "b" };
	struct ftrace_ops c = { .func = redirect,
				.flags = FTRACE_OPS_FL_IPMODIFY, .name = "c" };

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	ftrace_set_filter(&a, "ftrace_test_redirected", 22, 1);
	ftrace_set_filter(&b, "ftrace_test_redirected", 22, 1);
	ftrace_set_filter(&c, "ftrace_test_target1", 19, 1);
	KUNIT_EXPECT_EQ(t, ftrace_test_redirected(7), 14);
	if (ftrace_regs_supported())
		ipmodify_owns_function(t, &a, &b, &c);
	else
		ipmodify_refused(t, &a, &c);
	ftrace_free_ops_hashes(&a);
	ftrace_free_ops_hashes(&b);
	ftrace_free_ops_hashes(&c);
}

static void leave_ip(unsigned long ip, unsigned long parent_ip,
		     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

static bool ipmodify_owned(unsigned long ip)
{
	return ftrace_lookup_ip(ip)->flags & FTRACE_FL_IPMODIFY;
}

/* a owns redirected and target1; b, filter target*, notrace target1. */
static void ipmodify_two_owners(struct kunit *t, struct ftrace_ops *a,
				struct ftrace_ops *b)
{
	KUNIT_EXPECT_EQ(t, ftrace_set_filter(a, "ftrace_test_target1", 19, 0),
			0);
	KUNIT_EXPECT_TRUE(t, ipmodify_owned(T1));
	KUNIT_EXPECT_EQ(t, ftrace_test_redirected(7), 21);
	ftrace_set_filter(b, "ftrace_test_target*", 19, 1);
	ftrace_set_notrace(b, "ftrace_test_target1", 19, 1);
	KUNIT_EXPECT_EQ(t, register_ftrace_function(b), 0);
	KUNIT_EXPECT_TRUE(t, ipmodify_owned(T2) && ipmodify_owned(T3));
	KUNIT_EXPECT_EQ(t, ftrace_set_notrace(b, NULL, 0, 1), -EBUSY);
	KUNIT_EXPECT_EQ(t, ftrace_set_filter(b, "ftrace_test_redirected", 22,
					     0), -EBUSY);
	KUNIT_EXPECT_TRUE(t, !ftrace_ops_test(b, T1) && ftrace_ops_test(b, T2));
}

/*
 * An enabled IPMODIFY ops may change its own filter: only functions it
 * adds must be free, and those it drops are freed (Linux's
 * __ftrace_hash_update_ipmodify). Another IPMODIFY ops still gets
 * -EBUSY for them, through its filter or its notrace hash.
 */
static void ipmodify_filter_update(struct kunit *t)
{
	unsigned long flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY;
	struct ftrace_ops a = { .func = redirect, .flags = flags, .name = "a" };
	struct ftrace_ops b = { .func = leave_ip, .flags = flags, .name = "b" };

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	if (!ftrace_regs_supported())
		KUNIT_SKIP(t, "no IPMODIFY: sites have no pt_regs (-pg)");
	ftrace_set_filter(&a, "ftrace_test_redirected", 22, 1);
	KUNIT_EXPECT_EQ(t, register_ftrace_function(&a), 0);
	ipmodify_two_owners(t, &a, &b);
	KUNIT_EXPECT_EQ(t, ftrace_set_filter(&a, "ftrace_test_redirected", 22,
					     1), 0);
	KUNIT_EXPECT_TRUE(t, !ipmodify_owned(T1));
	KUNIT_EXPECT_TRUE(t, ipmodify_owned(T2));
	KUNIT_EXPECT_EQ(t, ftrace_test_redirected(7), 21);
	KUNIT_EXPECT_EQ(t, ftrace_set_notrace(&b, NULL, 0, 1), 0);
	KUNIT_EXPECT_TRUE(t, ipmodify_owned(T1));
	unregister_ftrace_function(&b);
	KUNIT_EXPECT_TRUE(t, !ipmodify_owned(T1) && !ipmodify_owned(T3));
	KUNIT_EXPECT_TRUE(t, ipmodify_owned(
		ftrace_location((unsigned long)ftrace_test_redirected)));
	unregister_ftrace_function(&a);
	KUNIT_EXPECT_EQ(t, ftrace_test_redirected(7), 14);
	ftrace_free_ops_hashes(&a);
	ftrace_free_ops_hashes(&b);
}

/* It turns ftrace off for everyone: only with no other ops on. */
static void permanent_vs_ftrace_enabled(struct kunit *t)
{
	struct counting_ops c;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	SKIP_UNLESS_ALONE(t);
	counting_init(&c, "ftrace_test_target1");
	c.ops.flags = FTRACE_OPS_FL_PERMANENT;
	KUNIT_EXPECT_EQ(t, register_ftrace_function(&c.ops), 0);
	KUNIT_EXPECT_EQ(t, ftrace_enable_sysctl(0), -EBUSY);
	KUNIT_EXPECT_EQ(t, ftrace_enabled, 1);
	unregister_ftrace_function(&c.ops);
	KUNIT_EXPECT_EQ(t, ftrace_enable_sysctl(0), 0);
	KUNIT_EXPECT_EQ(t, register_ftrace_function(&c.ops), -EBUSY);
	c.ops.flags &= ~FTRACE_OPS_FL_PERMANENT;
	KUNIT_EXPECT_EQ(t, register_ftrace_function(&c.ops), 0);
	KUNIT_EXPECT_EQ(t, site_insn(T1), site_off_insn(T1));
	call_targets(3);
	KUNIT_EXPECT_EQ(t, c.hits[0], 0);
	KUNIT_EXPECT_EQ(t, ftrace_enable_sysctl(1), 0);
	call_targets(3);
	counting_done(&c);
	KUNIT_EXPECT_EQ(t, c.hits[0], 3);
}

/* ---- unregister guarantee and patch storm ------------------------------ */

static volatile int inside;
static volatile unsigned long slow_calls;

static void slow_callback(unsigned long ip, unsigned long parent_ip,
			  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	int i;

	__atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < 200; i++)
		barrier();
	slow_calls++;
	__atomic_sub_fetch(&inside, 1, __ATOMIC_SEQ_CST);
}

/* Register and unregister the slow ops while other CPUs call in. */
static void slow_ops_rounds(struct kunit *t)
{
	struct ftrace_ops ops = { .func = slow_callback, .name = "slow" };
	struct callers cs;
	unsigned long after;
	int round;

	ftrace_set_filter(&ops, "ftrace_test_target*", 19, 1);
	start_callers(&cs);
	for (round = 0; round < 10; round++) {
		register_ftrace_function(&ops);
		msleep(5);
		unregister_ftrace_function(&ops);
		KUNIT_EXPECT_EQ(t, inside, 0);
		after = slow_calls;
		msleep(2);
		KUNIT_EXPECT_EQ(t, slow_calls, after);
	}
	stop_callers(&cs);
	ftrace_free_ops_hashes(&ops);
	KUNIT_EXPECT_TRUE(t, slow_calls > 0);
}

static void unregister_waits_for_callbacks(struct kunit *t)
{
	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	slow_ops_rounds(t);
}

/*
 * The same where unregistering changes no site and no function: two
 * other ops keep the sites on and ftrace_call on the list function.
 * The rendezvous must run all the same.
 */
static void unregister_waits_beside_others(struct kunit *t)
{
	struct counting_ops a, b;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	counting_init(&a, "ftrace_test_target*");
	counting_init(&b, "ftrace_test_target*");
	register_ftrace_function(&a.ops);
	register_ftrace_function(&b.ops);
	slow_ops_rounds(t);
	counting_done(&b);
	counting_done(&a);
}

static const struct {
	const char *glob;
	unsigned int targets;	/* bit i: ftrace_test_target(i + 1) */
} storm_filters[] = {
	{ "ftrace_test_target1", 1 << 0 }, { "ftrace_test_target2", 1 << 1 },
	{ "ftrace_test_target3", 1 << 2 },
	{ "ftrace_test_target[13]", 1 << 0 | 1 << 2 }, { "*target2", 1 << 1 },
};

/* c[0] starts with ftrace_test_target1, storm_filters[0]. */
static void storm_step(struct counting_ops *c, int i)
{
	int n = ARRAY_SIZE(storm_filters);
	const char *f = storm_filters[i % n].glob;

	if (i % 3 == 0) {
		WRITE_ONCE(c[0].replaced,
			   storm_filters[i ? (i - 3) % n : 0].targets);
		ftrace_set_filter(&c[0].ops, f, strlen(f), 1);
		WRITE_ONCE(c[0].replaced, 0);
	} else if (i % 3 == 1)
		register_ftrace_function(&c[1].ops);
	else
		unregister_ftrace_function(&c[1].ops);
}

/*
 * Callers on every other CPU while this one changes filters and
 * registers and unregisters ops 1000 times: no callback may ever see an
 * ip outside its filter (in live mode: or the one it replaces), and
 * nothing may crash.
 */
static void patch_storm(struct kunit *t)
{
	struct counting_ops c[2];
	struct callers cs;
	int i;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	counting_init(&c[0], "ftrace_test_target1");
	counting_init(&c[1], "ftrace_test_target3");
	register_ftrace_function(&c[0].ops);
	start_callers(&cs);
	for (i = 0; i < 1000; i++)
		storm_step(c, i);
	stop_callers(&cs);
	counting_done(&c[0]);
	counting_done(&c[1]);
	KUNIT_EXPECT_EQ(t, c[0].other + c[1].other, 0);
	KUNIT_EXPECT_EQ(t, c[0].outside + c[1].outside, 0);
	KUNIT_EXPECT_EQ(t, c[1].hits[0] + c[1].hits[1], 0);
	KUNIT_EXPECT_EQ(t, c[0].parent_bad + c[1].parent_bad, 0);
	KUNIT_EXPECT_TRUE(t, c[0].hits[0] + c[0].hits[1] + c[0].hits[2] > 0);
}

/* With ftrace_enabled 0 no callback runs: nothing here could pass. */
static void ftrace_suite_init(struct kunit *t)
{
	if (!ftrace_enabled)
		KUNIT_SKIP(t, "ftrace_enabled is 0");
}

SELFTEST_SUITE_INIT(ftrace, ftrace_suite_init,
	KUNIT_CASE(sites_match_records),
	KUNIT_CASE(sites_reach_trampolines),
	KUNIT_CASE(bad_site_is_refused),
	KUNIT_CASE(make_call_and_nop),
	KUNIT_CASE(call_ops_batch_stops_at_bad_site),
	KUNIT_CASE(single_ops_filter),
	KUNIT_CASE(modify_all_code_order),
	KUNIT_CASE(filter_change_restores_ftrace_call),
	KUNIT_CASE(location_stays_in_function),
	KUNIT_CASE(two_ops_two_filters),
	KUNIT_CASE(ops_literals_aligned),
	KUNIT_CASE(call_ops_follow_sharing),
	KUNIT_CASE(list_func_three_ops),
	KUNIT_CASE(notrace_wins),
	KUNIT_CASE(notrace_with_two_ops),
	KUNIT_CASE(notrace_without_filter),
	KUNIT_CASE(glob_forms),
	KUNIT_CASE(filter_replace_no_window),
	KUNIT_CASE(recursion_is_stopped),
	KUNIT_CASE(recursion_flag_wraps),
	KUNIT_CASE(list_func_stops_recursion),
	KUNIT_CASE(irq_has_its_own_bit),
	KUNIT_CASE(save_regs_sees_args),
	KUNIT_CASE(regs_ops_join_and_leave),
	KUNIT_CASE(ipmodify_redirects),
	KUNIT_CASE(ipmodify_filter_update),
	KUNIT_CASE(permanent_vs_ftrace_enabled),
	KUNIT_CASE(unregister_waits_for_callbacks),
	KUNIT_CASE(unregister_waits_beside_others),
	KUNIT_CASE(patch_storm),
);
