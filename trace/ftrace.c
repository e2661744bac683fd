/*
 * ftrace.c: the core of dynamic ftrace (Linux's kernel/trace/ftrace.c).
 *
 *  - ftrace_init walks the record table the linker gathered and
 *    scripts/sorttable.py sorted by ip, keeps one struct dyn_ftrace per
 *    site, and checks or makes each site's disabled form
 *    (ftrace_init_nop).
 *  - ftrace_ops are kept on ftrace_ops_list, ending in ftrace_list_end.
 *    update_ftrace_function picks what ftrace_call calls: ftrace_stub,
 *    the only ops' function directly, or ftrace_ops_list_func.
 *  - Each ops has a filter and a notrace hash; __ftrace_hash_rec_update
 *    counts per record how many ops want it, and a site is a call
 *    exactly when that count is nonzero.
 *  - ftrace_run_update_code takes text_mutex and runs
 *    ftrace_modify_all_code in Linux's three steps: under
 *    stop_machine, or in live mode while the other harts run on
 *    (trace/ftrace_live.c).
 */
#include "kernel.h"
#include "cache.h"
#include "init.h"
#include "string.h"
#include "mm.h"
#include "printk.h"
#include "kallsyms.h"
#include "glob.h"
#include "ftrace.h"
#include "patch.h"
#include "stop_machine.h"
#include "rcu.h"
#include "asm/csr.h"
#include "asm/insn.h"

#define FTRACE_UPDATE_CALLS		(1 << 0)
#define FTRACE_UPDATE_TRACE_FUNC	(1 << 1)
#define FTRACE_START_FUNC_RET		(1 << 2)
#define FTRACE_STOP_FUNC_RET		(1 << 3)

struct ftrace_page {
	struct ftrace_page *next;
	struct dyn_ftrace *records;
	int index;			/* records used */
};

extern unsigned long __start_mcount_loc[], __stop_mcount_loc[];

DEFINE_MUTEX(ftrace_lock);
struct ftrace_ops ftrace_list_end = {
	.func = ftrace_stub,
	.flags = FTRACE_OPS_FL_STUB,
	.name = "ftrace_list_end",
};
struct ftrace_ops *ftrace_ops_list = &ftrace_list_end;
/*
 * Linux's ftrace_list_ops: the ops literal of a site that several ops
 * want. ftrace_caller sends its calls through ftrace_call, which calls
 * the list function while more than one ops is registered.
 */
struct ftrace_ops ftrace_list_ops = {
	.func = ftrace_ops_list_func,
	.flags = FTRACE_OPS_FL_STUB,
	.name = "ftrace_list_ops",
};
struct ftrace_ops *function_trace_op __cacheline_aligned = &ftrace_list_end;
ftrace_func_t ftrace_trace_function = ftrace_stub;
int ftrace_enabled = 1;
void (*ftrace_patch_hook)(unsigned long ip, u32 old, u32 new);

static struct ftrace_ops *set_function_trace_op = &ftrace_list_end;
/* What ftrace_call calls now (ftrace_trace_function is what it will). */
static ftrace_func_t saved_ftrace_func = ftrace_stub;
static struct dyn_ftrace *records;	/* all of them, sorted by ip */
static unsigned long nr_records, nr_pages;
/*
 * One bit per record, in ip order: the records whose wanted call changed
 * since their sites were last written. An update visits only these
 * (Linux's ftrace_replace_code walks every record).
 */
static unsigned long *rec_pending;
static struct ftrace_page *ftrace_pages_start;
static u64 init_insns;
static u64 longest_stop_insns;	/* of an update's stop_machine (bench) */

/* A hash that becomes an ops' filter or notrace hash during the update. */
struct hash_swap {
	struct ftrace_hash **dst;
	struct ftrace_hash *hash;
};

struct ftrace_update {
	int command;
	struct hash_swap swap;
};

/* ---- records ---------------------------------------------------------- */

static void ftrace_bug(int err, struct dyn_ftrace *rec)
{
	pr_err("ftrace: %s at %pS (%#lx): site holds %08x\n",
	       err == -EINVAL ? "failed to verify" : "failed to patch",
	       (void *)rec->ip, rec->ip, riscv_insn_read(rec->ip));
	rec->flags |= FTRACE_FL_DISABLED;
}

/*
 * Describe the array as Linux's list of ftrace_pages. A list cut short
 * would hide records from ftrace_for_each_rec, so no memory is fatal,
 * as it is for the records.
 */
static void link_pages(void)
{
	unsigned long per_page = PAGE_SIZE / sizeof(struct dyn_ftrace), i;
	struct ftrace_page **pp = &ftrace_pages_start;

	for (i = 0; i < nr_records; i += per_page) {
		struct ftrace_page *pg = kzalloc(sizeof(*pg));

		if (!pg)
			panic("ftrace: no memory for %lu record pages",
			      nr_pages);
		pg->records = records + i;
		pg->index = min(per_page, nr_records - i);
		*pp = pg;
		pp = &pg->next;
	}
}

/*
 * The table was sorted at build time (Linux's
 * CONFIG_BUILDTIME_MCOUNT_SORT): ftrace_lookup_ip's binary search would
 * miss sites of a table out of order, so the copy checks the order.
 */
static void ftrace_process_locs(void)
{
	unsigned long *loc = __start_mcount_loc, i;

	nr_records = __stop_mcount_loc - __start_mcount_loc;
	nr_pages = ALIGN_UP(nr_records * sizeof(*records), PAGE_SIZE) /
		   PAGE_SIZE;
	if (!nr_records)
		return;			/* FTRACE=none: nothing was compiled in */
	records = alloc_pages(nr_pages);
	if (!records)
		panic("ftrace: no memory for %lu records", nr_records);
	for (i = 0; i < nr_records; i++) {
		if (i && loc[i] <= loc[i - 1])
			panic("ftrace: record table not sorted at %#lx",
			      loc[i]);
		records[i].ip = ftrace_call_adjust(loc[i]);
		records[i].flags = 0;
	}
	link_pages();
	rec_pending = kzalloc(BITS_TO_LONGS(nr_records) * sizeof(long));
	if (!rec_pending)
		panic("ftrace: no memory for %lu records", nr_records);
}

/*
 * Every site into its disabled form (Linux's ftrace_update_code): under
 * -pg written here, in the default build only checked (sorttable.py).
 */
static void ftrace_update_code(void)
{
	unsigned long i;
	int ret;

	for (i = 0; i < nr_records; i++) {
		ret = ftrace_init_nop(&records[i]);
		if (ret)
			ftrace_bug(ret, &records[i]);
	}
	patch_unmap();
	flush_icache_all();
}

static void ftrace_init(void)
{
	u64 start = rdinstret();

	ftrace_process_locs();
	if (DYNAMIC_FTRACE) {
		if (ftrace_dyn_arch_init())
			panic("ftrace: trampolines do not hold what they "
			      "should");
		mutex_lock(&text_mutex);
		ftrace_update_code();
		mutex_unlock(&text_mutex);
	}
	init_insns = rdinstret() - start;
	printk("ftrace: allocating %lu entries in %lu pages\n", nr_records,
	       nr_pages);
	ftrace_patch_mode_init();
}
early_initcall(ftrace_init);

static unsigned long rec_lower_bound(unsigned long ip);

struct dyn_ftrace *ftrace_lookup_ip(unsigned long ip)
{
	unsigned long i = rec_lower_bound(ip);

	return i < nr_records && records[i].ip == ip ? &records[i] : NULL;
}

/* The first record at or after ip (nr_records if none). */
static unsigned long rec_lower_bound(unsigned long ip)
{
	unsigned long lo = 0, hi = nr_records;

	while (lo < hi) {
		unsigned long mid = (lo + hi) / 2;

		if (records[mid].ip < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Linux's ftrace_location: the site of the function containing ip, or 0.
 * With patchable entries that is the function's first byte; with -pg
 * the `_mcount` call after its prologue.
 */
unsigned long ftrace_location(unsigned long ip)
{
	unsigned long size, off, i;

	if (!kallsyms_lookup(ip, &size, &off))
		return 0;
	i = rec_lower_bound(ip - off);
	return i < nr_records && records[i].ip < ip - off + size ?
	       records[i].ip : 0;
}

int ftrace_for_each_rec(int (*fn)(struct dyn_ftrace *rec, void *data),
			void *data)
{
	struct ftrace_page *pg;
	int i, ret;

	for (pg = ftrace_pages_start; pg; pg = pg->next)
		for (i = 0; i < pg->index; i++)
			if ((ret = fn(&pg->records[i], data)))
				return ret;
	return 0;
}

unsigned long ftrace_nr_records(void)
{
	return nr_records;
}

unsigned long ftrace_nr_pages(void)
{
	return nr_pages;
}

unsigned long ftrace_update_time_insns(void)
{
	return init_insns;
}

/* ---- which ops want which site ---------------------------------------- */

static inline bool hash_contains(const struct ftrace_hash *filter,
				 const struct ftrace_hash *notrace_hash,
				 unsigned long ip)
{
	return (ftrace_hash_empty(filter) ||
		ftrace_lookup_ip_in_hash(filter, ip)) &&
	       !ftrace_lookup_ip_in_hash(notrace_hash, ip);
}

/* Does ops want a callback at ip? notrace wins; an empty filter is all. */
bool ftrace_ops_test(struct ftrace_ops *ops, unsigned long ip)
{
	struct ftrace_ops_hash *h = ops->func_hash;

	return hash_contains(READ_ONCE(h->filter_hash),
			     READ_ONCE(h->notrace_hash), ip);
}

static bool ops_wants_regs(const struct ftrace_ops *ops)
{
	return ops->flags & FTRACE_OPS_FL_SAVE_REGS;
}

/* Is some other enabled ops with `flag` also on this site? */
static bool other_ops_with(struct dyn_ftrace *rec, struct ftrace_ops *skip,
			   unsigned long flag)
{
	struct ftrace_ops *op;

	for (op = ftrace_ops_list; op != &ftrace_list_end; op = op->next)
		if (op != skip && (op->flags & flag) &&
		    (op->flags & FTRACE_OPS_FL_ENABLED) &&
		    ftrace_ops_test(op, rec->ip))
			return true;
	return false;
}

struct rec_update {
	struct ftrace_ops *ops;
	const struct ftrace_hash *notrace_hash;
	bool inc;
	bool changed;
};

static inline bool rec_wants_call(const struct dyn_ftrace *rec)
{
	return ftrace_enabled && ftrace_rec_count(rec) &&
	       !(rec->flags & FTRACE_FL_DISABLED);
}

/* Should rec's ops literal name its only ops (or ftrace_list_ops)? */
static inline bool rec_wants_call_ops(const struct dyn_ftrace *rec)
{
	return FTRACE_CALL_OPS && ftrace_rec_count(rec) == 1;
}

/*
 * The site's call, its trampoline, or its ops literal must change: a
 * second ops on a site one ops had turns its literal to the list ops,
 * and the last but one leaving it turns it back.
 */
static inline bool rec_needs_update(const struct dyn_ftrace *rec)
{
	unsigned long f = rec->flags;
	bool want = rec_wants_call(rec), on = f & FTRACE_FL_ENABLED;

	return want != on ||
	       (want && (!!(f & FTRACE_FL_REGS) != !!(f & FTRACE_FL_REGS_EN) ||
			 rec_wants_call_ops(rec) !=
				 !!(f & FTRACE_FL_CALL_OPS_EN)));
}

/*
 * The index of the lowest set bit of w, nonzero (Linux's __ffs).
 * rv64imac has no ctz instruction and the toolchain's libgcc another
 * float ABI, so: the bit alone times a de Bruijn sequence, whose top 6
 * bits differ for each of the 64 bits.
 */
static unsigned int __ffs(unsigned long w)
{
	static const u8 debruijn_bit[64] = {
		0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4,
		62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
		63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
		46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6,
	};

	return debruijn_bit[((w & -w) * 0x03f79d71b4cb0a89UL) >> 58];
}

static inline void rec_mark_pending(unsigned long *pending, unsigned long i)
{
	pending[i / BITS_PER_LONG] |= 1UL << (i % BITS_PER_LONG);
}

/* Count ops in (inc) or out of rec; add_flags are what ops brings to it. */
static __always_inline void rec_count_ops(struct dyn_ftrace *rec,
					  struct ftrace_ops *ops, bool inc,
					  unsigned long add_flags)
{
	if (inc) {
		rec->flags = (rec->flags + 1) | add_flags;
	} else {
		BUG_ON(!ftrace_rec_count(rec));
		rec->flags--;
		if (ops_wants_regs(ops) &&
		    !other_ops_with(rec, ops, FTRACE_OPS_FL_SAVE_REGS))
			rec->flags &= ~FTRACE_FL_REGS;
		if (ops->flags & FTRACE_OPS_FL_IPMODIFY)
			rec->flags &= ~FTRACE_FL_IPMODIFY;
	}
}

/* rec_count_ops: does rec's site now need rewriting? */
static __always_inline bool rec_update_one(struct dyn_ftrace *rec,
					   struct ftrace_ops *ops, bool inc,
					   unsigned long add_flags)
{
	rec_count_ops(rec, ops, inc, add_flags);
	return rec_needs_update(rec);
}

/* The flags an ops sets on each record it wants, worked out once. */
static unsigned long ops_rec_flags(const struct ftrace_ops *ops)
{
	return (ops_wants_regs(ops) ? FTRACE_FL_REGS : 0) |
	       (ops->flags & FTRACE_OPS_FL_IPMODIFY ? FTRACE_FL_IPMODIFY : 0);
}

static int rec_update_ip(unsigned long ip, void *data)
{
	struct rec_update *u = data;
	struct dyn_ftrace *rec = ftrace_lookup_ip(ip);

	if (rec && !ftrace_lookup_ip_in_hash(u->notrace_hash, ip) &&
	    rec_update_one(rec, u->ops, u->inc, ops_rec_flags(u->ops))) {
		u->changed = true;
		rec_mark_pending(rec_pending, rec - records);
	}
	return 0;
}

/*
 * Every record is due: ftrace_replace_code looks at each, as Linux's
 * does always. One store per word.
 */
static void rec_mark_all_pending(void)
{
	unsigned long i, last = nr_records % BITS_PER_LONG;

	for (i = 0; i < nr_records / BITS_PER_LONG; i++)
		rec_pending[i] = ~0UL;
	if (last)
		rec_pending[i] = (1UL << last) - 1;
}

/*
 * No filter: every record but the notrace ones (`nop -> function`
 * patches every site), so every record is marked when one is due, and
 * once one is, the others need not be asked. What the loop reads stays
 * in locals, as the records' stores could otherwise change it for the
 * compiler.
 */
static bool rec_update_every(struct ftrace_ops *ops,
			     const struct ftrace_hash *notrace_hash, bool inc)
{
	struct dyn_ftrace *recs = records;
	unsigned long n = nr_records, i, add_flags = ops_rec_flags(ops);
	bool changed = false, has_notrace = !ftrace_hash_empty(notrace_hash);

	for (i = 0; i < n; i++) {
		if (has_notrace &&
		    ftrace_lookup_ip_in_hash(notrace_hash, recs[i].ip))
			continue;
		rec_count_ops(&recs[i], ops, inc, add_flags);
		changed = changed || rec_needs_update(&recs[i]);
	}
	if (changed)
		rec_mark_all_pending();
	return changed;
}

/*
 * Count ops in (inc) or out of every record it wants under these hashes,
 * and mark those whose site must change. With a filter, only its
 * entries are visited (a few records instead of all of them). Returns
 * whether some site must change.
 */
static bool __ftrace_hash_rec_update(struct ftrace_ops *ops,
				     const struct ftrace_hash *filter,
				     const struct ftrace_hash *notrace_hash,
				     bool inc)
{
	struct rec_update u = { ops, notrace_hash, inc, false };

	if (ftrace_hash_empty(filter))
		return rec_update_every(ops, notrace_hash, inc);
	ftrace_hash_for_each(filter, rec_update_ip, &u);
	return u.changed;
}

struct ipmodify_check {
	struct ftrace_ops *ops;
	const struct ftrace_hash *notrace_hash;	/* the one ops will have */
};

/*
 * A site ops would newly want that an IPMODIFY ops owns. The sites an
 * enabled ops wants already carry its own bit: they are no conflict.
 */
static int ipmodify_conflict(unsigned long ip, void *data)
{
	struct ipmodify_check *c = data;
	struct dyn_ftrace *rec = ftrace_lookup_ip(ip);

	if (!rec || !(rec->flags & FTRACE_FL_IPMODIFY) ||
	    ftrace_lookup_ip_in_hash(c->notrace_hash, ip))
		return 0;
	return !(c->ops->flags & FTRACE_OPS_FL_ENABLED) ||
	       !ftrace_ops_test(c->ops, ip);
}

static int ipmodify_conflict_rec(struct dyn_ftrace *rec, void *data)
{
	return ipmodify_conflict(rec->ip, data);
}

/*
 * Only one IPMODIFY ops may own a function (ftrace-uses.rst): may ops have
 * these hashes? Like Linux's __ftrace_hash_update_ipmodify, only the
 * functions they add are checked, so an ops can change its own filter.
 */
static int ftrace_hash_ipmodify_check(struct ftrace_ops *ops,
				      const struct ftrace_hash *filter,
				      const struct ftrace_hash *notrace_hash)
{
	struct ipmodify_check c = { ops, notrace_hash };
	int busy;

	if (!(ops->flags & FTRACE_OPS_FL_IPMODIFY))
		return 0;
	if (ftrace_hash_empty(filter))
		busy = ftrace_for_each_rec(ipmodify_conflict_rec, &c);
	else
		busy = ftrace_hash_for_each(filter, ipmodify_conflict, &c);
	return busy ? -EBUSY : 0;
}

/* ---- the ops list and what ftrace_call calls -------------------------- */

/*
 * ftrace_ops_list_func: more than one ops is registered, so each must be
 * asked whether it wants this ip. Its own recursion bits keep callbacks'
 * bits free for the callbacks' own checks.
 */
void ftrace_ops_list_func(unsigned long ip, unsigned long parent_ip,
			  struct ftrace_ops *ignored, struct ftrace_regs *fregs)
{
	struct task *t = current;
	int bit = trace_test_and_set_recursion(t, TRACE_LIST_START);
	struct ftrace_ops *op;

	if (bit < 0)
		return;
	for (op = READ_ONCE(ftrace_ops_list); op != &ftrace_list_end;
	     op = READ_ONCE(op->next)) {
		if (op->flags & FTRACE_OPS_FL_STUB)
			continue;
		if ((op->flags & FTRACE_OPS_FL_SAVE_REGS) && !fregs)
			continue;
		if (ftrace_ops_test(op, ip))
			op->func(ip, parent_ip, op, fregs);
	}
	trace_clear_recursion(t, bit);
}

/* The wrapper for ops that asked the core for recursion protection. */
static void ftrace_ops_assist_func(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *op,
				   struct ftrace_regs *fregs)
{
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);

	if (bit < 0)
		return;
	op->saved_func(ip, parent_ip, op, fregs);
	ftrace_test_recursion_unlock(bit);
}

/*
 * FTRACE=static: _mcount calls ftrace_trace_function from every
 * function, the moment it is stored. No site says which ops wants the
 * call, so every ops' hashes are asked at each, in ftrace_ops_list_func
 * (Linux without CONFIG_DYNAMIC_FTRACE has no hashes to ask).
 */
static void update_ftrace_function(void)
{
	struct ftrace_ops *first = ftrace_ops_list, *op;
	ftrace_func_t func;

	set_function_trace_op = first;
	if (!ftrace_enabled || first == &ftrace_list_end) {
		func = ftrace_stub;
	} else if (!DYNAMIC_FTRACE) {
		/* Only fgraph's ops (a stub): nothing for _mcount to call. */
		func = ftrace_stub;
		for (op = first; op != &ftrace_list_end; op = op->next)
			if (!(op->flags & FTRACE_OPS_FL_STUB))
				func = ftrace_ops_list_func;
		set_function_trace_op = &ftrace_list_end;
	} else if (first->next == &ftrace_list_end) {
		func = first->func;
	} else {
		func = ftrace_ops_list_func;
		set_function_trace_op = &ftrace_list_end;
	}
	ftrace_trace_function = func;
}

/* ftrace_ops_list_func may be walking the list on another CPU. */
static void add_ftrace_ops(struct ftrace_ops *ops)
{
	ops->next = ftrace_ops_list;
	rcu_assign_pointer(ftrace_ops_list, ops);
}

static void remove_ftrace_ops(struct ftrace_ops *ops)
{
	struct ftrace_ops **p;

	for (p = &ftrace_ops_list; *p != &ftrace_list_end; p = &(*p)->next) {
		if (*p == ops) {
			WRITE_ONCE(*p, ops->next);
			return;
		}
	}
}

/* ---- patching ---------------------------------------------------------- */

static unsigned long rec_target(unsigned long flags, unsigned long flag)
{
	return (flags & flag) ? FTRACE_REGS_ADDR : FTRACE_ADDR;
}

/*
 * Linux's ftrace_find_unique_ops: the one enabled ops that wants rec
 * (the ops list holds exactly the enabled ops, hashes as of this step).
 * When it holds one ops, that is the one: no hash to look in.
 */
static __always_inline struct ftrace_ops *
ftrace_find_unique_ops(struct dyn_ftrace *rec)
{
	struct ftrace_ops *op = ftrace_ops_list;

	if (op->next == &ftrace_list_end)
		return op;
	for (; op != &ftrace_list_end; op = op->next)
		if (ftrace_ops_test(op, rec->ip))
			return op;
	return &ftrace_list_ops;
}

/* The ops rec's literal should name: its only one, or the list ops. */
static struct ftrace_ops *rec_call_ops(struct dyn_ftrace *rec)
{
	return rec_wants_call_ops(rec) ? ftrace_find_unique_ops(rec) :
					 &ftrace_list_ops;
}

/*
 * Every change but a disabled site's enabling: the ops literal of a
 * site that stays on, then the call. Out of line, so that the common
 * case keeps the walk's registers.
 */
static noinline int rec_update_site(struct dyn_ftrace *rec,
				    unsigned long flags, bool want, bool on)
{
	unsigned long cur = rec_target(flags, FTRACE_FL_REGS_EN);
	unsigned long next = rec_target(flags, FTRACE_FL_REGS);
	int ret = 0;

	if (FTRACE_CALL_OPS && want) {
		struct ftrace_ops *ops = rec_call_ops(rec);

		if (ftrace_site_ops(rec->ip) != ops)
			ret = ftrace_rec_update_ops(rec, ops);
	}
	if (ret)
		return ret;
	if (want && !on)
		return ftrace_make_call(rec, next);
	if (!want && on)
		return ftrace_make_nop(rec, cur);
	if (want && cur != next)
		return ftrace_modify_call(rec, cur, next);
	return 0;
}

/* rec's flags once its site is (want) or is not a call. */
static inline unsigned long rec_flags_updated(const struct dyn_ftrace *rec,
					      unsigned long flags, bool want)
{
	flags &= ~(FTRACE_FL_ENABLED | FTRACE_FL_REGS_EN |
		   FTRACE_FL_CALL_OPS_EN);
	if (want)
		flags |= FTRACE_FL_ENABLED |
			 ((flags & FTRACE_FL_REGS) ? FTRACE_FL_REGS_EN : 0) |
			 (rec_wants_call_ops(rec) ? FTRACE_FL_CALL_OPS_EN : 0);
	return flags;
}

/*
 * Bring rec's site in line with its flags: its ops literal first, then
 * its call. rec_wants_call with ftrace_enabled read once per update
 * (enabled), and the flags read once per record. (A disabled site that
 * is wanted goes in a call_ops_run instead.)
 */
static void __ftrace_replace_code(struct dyn_ftrace *rec, bool enabled)
{
	unsigned long flags = rec->flags;
	bool want = enabled && ftrace_rec_count(rec);
	int ret;

	if (flags & FTRACE_FL_DISABLED)
		return;
	ret = rec_update_site(rec, flags, want, flags & FTRACE_FL_ENABLED);
	if (ret) {
		ftrace_bug(ret, rec);
		return;
	}
	rec->flags = rec_flags_updated(rec, flags, want);
}

/*
 * Pending records, adjacent in the table, that each go from disabled to
 * a call of the same trampoline with the same ops literal: `nop ->
 * function` makes every site one. The arch writes them as one batch,
 * mapping each page of text once. Their flags say enabled as they join
 * (the arch's write follows): a site it could not write is put back.
 */
struct call_ops_run {
	struct dyn_ftrace *start;
	unsigned long n;
	unsigned long addr;
	struct ftrace_ops *ops;
};

/* By value: the run stays in the walk's registers. */
static noinline void call_ops_run_write(struct call_ops_run run)
{
	struct dyn_ftrace *rec = run.start;
	unsigned long n = run.n, done;
	int ret;

	while (n) {
		ret = ftrace_make_call_ops(rec, n, run.addr, run.ops, &done);
		if (!ret)
			break;
		rec[done].flags = rec_flags_updated(&rec[done],
						    rec[done].flags, false);
		ftrace_bug(ret, &rec[done]);
		rec += done + 1;
		n -= done + 1;
	}
}

/*
 * rec, a disabled site now wanted, joins the run, or the run is written
 * and rec starts the next. Its REGS_EN and CALL_OPS_EN are clear, as
 * they are whenever ENABLED is.
 */
static __always_inline void call_ops_run_add(struct call_ops_run *run,
					     struct dyn_ftrace *rec,
					     unsigned long flags,
					     struct ftrace_ops *only)
{
	bool one = rec_wants_call_ops(rec);
	unsigned long addr = rec_target(flags, FTRACE_FL_REGS);
	struct ftrace_ops *ops = !one ? &ftrace_list_ops :
				 only ? only : ftrace_find_unique_ops(rec);

	rec->flags = flags | FTRACE_FL_ENABLED |
		     (flags & FTRACE_FL_REGS ? FTRACE_FL_REGS_EN : 0) |
		     (one ? FTRACE_FL_CALL_OPS_EN : 0);
	if (rec == run->start + run->n && addr == run->addr &&
	    ops == run->ops) {
		run->n++;
		return;
	}
	if (run->n)
		call_ops_run_write(*run);
	*run = (struct call_ops_run){ rec, 1, addr, ops };
}

/* only: the one ops registered, if so (every wanted site is its). */
static __always_inline void replace_rec(struct call_ops_run *run,
					struct dyn_ftrace *rec, bool enabled,
					struct ftrace_ops *only)
{
	unsigned long flags = rec->flags;

	if (FTRACE_CALL_OPS && enabled && (flags & FTRACE_REF_MAX) &&
	    !(flags & (FTRACE_FL_ENABLED | FTRACE_FL_DISABLED))) {
		call_ops_run_add(run, rec, flags, only);
		return;
	}
	if (run->n)
		call_ops_run_write(*run);
	run->n = 0;
	__ftrace_replace_code(rec, enabled);
}

/*
 * The pending records, in ip order: each page of text is mapped once.
 * A run of sites to enable is written before any other site, so that
 * sites change in ip order. A word of the bitmap with every bit set
 * (every record is due) is walked without looking for its bits.
 */
static void ftrace_replace_code(void)
{
	unsigned long *pending = rec_pending, w, bits, i;
	struct dyn_ftrace *recs = records;
	struct call_ops_run run = { .n = 0 };
	struct ftrace_ops *only = ftrace_ops_list;
	bool enabled = ftrace_enabled;

	if (only->next != &ftrace_list_end)
		only = NULL;
	ftrace_live_step_begin();
	for (w = 0; w < BITS_TO_LONGS(nr_records); w++) {
		bits = pending[w];
		if (bits == ~0UL)
			for (i = 0; i < BITS_PER_LONG; i++)
				replace_rec(&run, &recs[w * BITS_PER_LONG + i],
					    enabled, only);
		else
			for (; bits; bits &= bits - 1)
				replace_rec(&run, &recs[w * BITS_PER_LONG +
							__ffs(bits)],
					    enabled, only);
		pending[w] = 0;
	}
	if (run.n)
		call_ops_run_write(run);
	ftrace_live_step_end();
}

static void check_arch(int ret, const char *what)
{
	if (ret)
		panic("ftrace: cannot patch %s (%d)", what, ret);
}

/*
 * Linux's three steps. First ftrace_call goes to the list function,
 * which tests every ops' hashes per ip; only then do sites change (and a
 * new filter takes effect); only then does ftrace_call go to the final
 * function. So no callback runs for an ip its ops' hashes did not hold
 * at some moment of the update, nor does fgraph's entry, which starts
 * or stops checking its own hashes here. Under stop_machine nothing
 * runs in between; in live mode the other harts do, and each step is
 * fetched by all of them before the next begins (trace/ftrace_live.c).
 */
static noinline void ftrace_modify_all_code(struct ftrace_update *u)
{
	bool update = u->command & FTRACE_UPDATE_TRACE_FUNC;

	update_function_graph_func();
	if (!DYNAMIC_FTRACE) {
		/* Only the hashes: ftrace_trace_function is read as is. */
		if (u->swap.dst)
			WRITE_ONCE(*u->swap.dst, u->swap.hash);
		if (update)
			WRITE_ONCE(saved_ftrace_func, ftrace_trace_function);
		return;
	}
	if (update) {
		/*
		 * What ftrace_call calls from here on, for the sites that
		 * several ops want (their ops literal is ftrace_list_ops).
		 */
		WRITE_ONCE(saved_ftrace_func, ftrace_ops_list_func);
		check_arch(ftrace_update_ftrace_func(ftrace_ops_list_func),
			   "ftrace_call");
	}
	if (u->swap.dst)
		WRITE_ONCE(*u->swap.dst, u->swap.hash);
	if (u->command & FTRACE_UPDATE_CALLS)
		ftrace_replace_code();
	if (update && ftrace_trace_function != ftrace_ops_list_func) {
		WRITE_ONCE(function_trace_op, set_function_trace_op);
		check_arch(ftrace_update_ftrace_func(ftrace_trace_function),
			   "ftrace_call");
	}
	if (update)
		WRITE_ONCE(saved_ftrace_func, ftrace_trace_function);
	if (u->command & FTRACE_START_FUNC_RET)
		check_arch(ftrace_enable_ftrace_graph_caller(),
			   "ftrace_graph_call");
	else if (u->command & FTRACE_STOP_FUNC_RET)
		check_arch(ftrace_disable_ftrace_graph_caller(),
			   "ftrace_graph_call");
}

static int __ftrace_modify_code(void *data)
{
	ftrace_modify_all_code(data);
	return 0;
}

/*
 * Every other hart is held for as long as the round takes: the stall
 * live mode has not (bench measures it under -icount).
 */
static void ftrace_stop_machine_update(struct ftrace_update *u)
{
	u64 start = rdinstret();

	stop_machine(__ftrace_modify_code, u);
	longest_stop_insns = max(longest_stop_insns, rdinstret() - start);
}

/* The longest stop_machine update since the last call. */
u64 ftrace_take_longest_stop_insns(void)
{
	u64 longest = longest_stop_insns;

	longest_stop_insns = 0;
	return longest;
}

/*
 * Under text_mutex, with every other hart stopped or, in live mode,
 * running on. A stop_machine round also waits out every CPU still
 * inside a callback, which is what unregister_ftrace_function promises,
 * so it runs even with no command; in live mode synchronize_rcu does.
 */
static void ftrace_run_update_code(struct ftrace_update *u)
{
	bool live = ftrace_patch_live();

	mutex_lock(&text_mutex);
	if (live)
		ftrace_modify_all_code(u);
	else
		ftrace_stop_machine_update(u);
	if (DYNAMIC_FTRACE)
		ftrace_arch_code_modify_post_process();
	mutex_unlock(&text_mutex);
	if (live)
		synchronize_rcu();
}

static int trace_func_command(void)
{
	return ftrace_trace_function != saved_ftrace_func ?
	       FTRACE_UPDATE_TRACE_FUNC : 0;
}

/* ---- register / unregister -------------------------------------------- */

static void ftrace_ops_init(struct ftrace_ops *ops)
{
	if (!ops->func_hash)
		ops->func_hash = &ops->local_hash;
	/* SAVE_REGS_IF_SUPPORTED decides alone whether SAVE_REGS holds. */
	if (ops->flags & FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED) {
		if (ftrace_regs_supported())
			ops->flags |= FTRACE_OPS_FL_SAVE_REGS;
		else
			ops->flags &= ~FTRACE_OPS_FL_SAVE_REGS;
	}
	if ((ops->flags & FTRACE_OPS_FL_RECURSION) &&
	    ops->func != ftrace_ops_assist_func) {
		ops->saved_func = ops->func;
		ops->func = ftrace_ops_assist_func;
	}
}

/*
 * IPMODIFY changes regs->epc, so it needs the regs. Where sites have
 * none (-pg) neither it nor SAVE_REGS can be had, while
 * SAVE_REGS_IF_SUPPORTED ops get a NULL fregs, as ftrace-uses.rst says.
 */
static bool ftrace_ops_regs_ok(const struct ftrace_ops *ops)
{
	unsigned long f = ops->flags;
	bool if_supported = f & FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED;

	if (ftrace_regs_supported())
		return !(f & FTRACE_OPS_FL_IPMODIFY) ||
		       (f & FTRACE_OPS_FL_SAVE_REGS) || if_supported;
	return !(f & FTRACE_OPS_FL_IPMODIFY) &&
	       (!(f & FTRACE_OPS_FL_SAVE_REGS) || if_supported);
}

static int ftrace_startup(struct ftrace_ops *ops, int command)
{
	struct ftrace_update u = { 0 };
	struct ftrace_ops_hash *h;
	int ret;

	if (ops->flags & FTRACE_OPS_FL_ENABLED)
		return -EBUSY;
	if ((ops->flags & FTRACE_OPS_FL_PERMANENT) && !ftrace_enabled)
		return -EBUSY;
	if (!ftrace_ops_regs_ok(ops))
		return -EINVAL;
	ftrace_ops_init(ops);
	h = ops->func_hash;
	ret = ftrace_hash_ipmodify_check(ops, h->filter_hash, h->notrace_hash);
	if (ret)
		return ret;
	add_ftrace_ops(ops);
	ops->flags |= FTRACE_OPS_FL_ENABLED;
	update_ftrace_function();
	if (__ftrace_hash_rec_update(ops, h->filter_hash, h->notrace_hash,
				     true))
		command |= FTRACE_UPDATE_CALLS;
	u.command = command | trace_func_command();
	ftrace_run_update_code(&u);
	return 0;
}

static int ftrace_shutdown(struct ftrace_ops *ops, int command)
{
	struct ftrace_update u = { 0 };
	struct ftrace_ops_hash *h = ops->func_hash;

	if (!(ops->flags & FTRACE_OPS_FL_ENABLED))
		return -EINVAL;
	remove_ftrace_ops(ops);
	update_ftrace_function();
	if (__ftrace_hash_rec_update(ops, h->filter_hash, h->notrace_hash,
				     false))
		command |= FTRACE_UPDATE_CALLS;
	ops->flags &= ~FTRACE_OPS_FL_ENABLED;
	u.command = command | trace_func_command();
	ftrace_run_update_code(&u);
	return 0;
}

int register_ftrace_function(struct ftrace_ops *ops)
{
	int ret;

	mutex_lock(&ftrace_lock);
	ret = ftrace_startup(ops, 0);
	mutex_unlock(&ftrace_lock);
	return ret;
}

/* When this returns, no CPU is in ops->func nor will enter it again. */
int unregister_ftrace_function(struct ftrace_ops *ops)
{
	int ret;

	mutex_lock(&ftrace_lock);
	ret = ftrace_shutdown(ops, 0);
	mutex_unlock(&ftrace_lock);
	return ret;
}

/* For fgraph: an ops plus the graph-caller patch in one update. */
int ftrace_startup_graph(struct ftrace_ops *ops, bool start)
{
	int ret;

	mutex_lock(&ftrace_lock);
	if (start)
		ret = ftrace_startup(ops, FTRACE_START_FUNC_RET);
	else
		ret = ftrace_shutdown(ops, FTRACE_STOP_FUNC_RET);
	mutex_unlock(&ftrace_lock);
	return ret;
}

void ftrace_free_ops_hashes(struct ftrace_ops *ops)
{
	struct ftrace_ops_hash *h = ops->func_hash ? ops->func_hash :
						      &ops->local_hash;

	free_ftrace_hash(h->filter_hash);
	free_ftrace_hash(h->notrace_hash);
	h->filter_hash = NULL;
	h->notrace_hash = NULL;
}

/* ---- filters ----------------------------------------------------------- */

struct match_ctx {
	struct ftrace_glob g;
	bool remove;
	int found;
};

/* A glob names functions; the records at their entries are the sites. */
static int collect_matches(struct ftrace_hash *hash, struct match_ctx *m)
{
	unsigned long i;

	for (i = 0; i < nr_records; i++) {
		const char *name = kallsyms_lookup(records[i].ip, NULL, NULL);

		if (!name || !ftrace_match(name, &m->g))
			continue;
		m->found++;
		if (m->remove)
			ftrace_hash_remove(hash, records[i].ip);
		else if (ftrace_hash_add(hash, records[i].ip))
			return -ENOMEM;
	}
	return 0;
}

/*
 * Apply one glob (`foo`, `foo*`, `*foo`, `*foo*`, `!foo`, ...) to hash;
 * `*` is every function, as in Linux. Returns how many functions
 * matched, -EINVAL if none, -ENOMEM.
 */
int ftrace_match_records(struct ftrace_hash *hash, const char *glob, int len)
{
	char buf[KSYM_NAME_LEN];
	struct match_ctx m = { 0 };
	char *search;
	int not = 0, ret;

	if (len <= 0 || len >= (int)sizeof(buf))
		return -EINVAL;
	memcpy(buf, glob, len);
	buf[len] = 0;
	m.g.type = filter_parse_regex(buf, len, &search, &not);
	m.g.search = search;
	m.g.len = strlen(search);
	m.remove = not;
	if (!m.g.len && m.g.type == MATCH_FULL)
		return -EINVAL;		/* `*` alone is every function */
	ret = collect_matches(hash, &m);
	if (ret)
		return ret;
	return m.found ? m.found : -EINVAL;
}

/*
 * The enabled ops that use these hashes: ops itself, and others that
 * share them (fgraph's, which follows set_ftrace_filter as in Linux).
 * The ops list holds exactly the enabled ops.
 */
static bool hash_in_use(struct ftrace_ops_hash *h)
{
	struct ftrace_ops *op;

	for (op = ftrace_ops_list; op != &ftrace_list_end; op = op->next)
		if (op->func_hash == h)
			return true;
	return false;
}

static int ipmodify_check_users(struct ftrace_ops_hash *h,
				const struct ftrace_hash *filter,
				const struct ftrace_hash *notrace_hash)
{
	struct ftrace_ops *op;
	int ret = 0;

	for (op = ftrace_ops_list; op != &ftrace_list_end && !ret;
	     op = op->next)
		if (op->func_hash == h)
			ret = ftrace_hash_ipmodify_check(op, filter,
							 notrace_hash);
	return ret;
}

static void rec_update_users(struct ftrace_ops_hash *h,
			     const struct ftrace_hash *filter,
			     const struct ftrace_hash *notrace_hash, bool inc)
{
	struct ftrace_ops *op;

	for (op = ftrace_ops_list; op != &ftrace_list_end; op = op->next)
		if (op->func_hash == h)
			__ftrace_hash_rec_update(op, filter, notrace_hash, inc);
}

/*
 * Install a new filter or notrace hash on ops. When an enabled ops uses
 * it, the hash changes inside the site update, after ftrace_call has
 * gone to the list function: the old sites and the new hash never meet
 * in a direct call.
 */
static int ftrace_hash_move_and_update_ops(struct ftrace_ops *ops,
					   struct ftrace_hash **dst,
					   struct ftrace_hash *hash,
					   bool filter)
{
	struct ftrace_ops_hash *h = ops->func_hash;
	struct ftrace_hash *old = *dst, *new_filter, *new_notrace;
	struct ftrace_update u = { 0 };
	int ret;

	if (!hash_in_use(h)) {
		*dst = hash;
		free_ftrace_hash(old);
		return 0;
	}
	new_filter = filter ? hash : h->filter_hash;
	new_notrace = filter ? h->notrace_hash : hash;
	ret = ipmodify_check_users(h, new_filter, new_notrace);
	if (ret)
		return ret;
	rec_update_users(h, h->filter_hash, h->notrace_hash, false);
	rec_update_users(h, new_filter, new_notrace, true);
	u.command = FTRACE_UPDATE_CALLS;
	if (ftrace_trace_function != ftrace_ops_list_func)
		u.command |= FTRACE_UPDATE_TRACE_FUNC;
	u.swap.dst = dst;
	u.swap.hash = hash;
	ftrace_run_update_code(&u);
	free_ftrace_hash(old);
	return 0;
}

/*
 * An empty hash is kept as NULL (Linux's EMPTY_HASH), so an ops whose
 * filters were cleared holds no memory.
 */
static int ftrace_set_hash(struct ftrace_ops *ops, struct ftrace_hash *hash,
			   bool filter)
{
	struct ftrace_hash **dst;
	int ret;

	if (ftrace_hash_empty(hash)) {
		free_ftrace_hash(hash);
		hash = NULL;
	}
	ftrace_ops_init(ops);
	dst = filter ? &ops->func_hash->filter_hash :
		       &ops->func_hash->notrace_hash;
	ret = ftrace_hash_move_and_update_ops(ops, dst, hash, filter);
	if (ret)
		free_ftrace_hash(hash);
	return ret;
}

/* Start from the current hash, or from nothing when reset. */
static struct ftrace_hash *start_hash(struct ftrace_ops *ops, bool filter,
				      int reset)
{
	struct ftrace_ops_hash *h;

	ftrace_ops_init(ops);
	h = ops->func_hash;
	if (reset)
		return alloc_ftrace_hash(4);
	return ftrace_hash_copy(filter ? h->filter_hash : h->notrace_hash);
}

static int ftrace_set_regex(struct ftrace_ops *ops, const char *buf, int len,
			    int reset, bool filter)
{
	struct ftrace_hash *hash;
	int ret = 0;

	mutex_lock(&ftrace_lock);
	hash = start_hash(ops, filter, reset);
	if (!hash) {
		ret = -ENOMEM;
	} else if (buf && len > 0) {
		ret = ftrace_match_records(hash, buf, len);
		if (ret < 0)
			free_ftrace_hash(hash);
	}
	if (ret >= 0)
		ret = ftrace_set_hash(ops, hash, filter);
	mutex_unlock(&ftrace_lock);
	return ret;
}

/*
 * For tracefs's filter files, which gather a whole write's globs into
 * a copy (ftrace_ops_hash_copy) and install it at close, as Linux's
 * ftrace_regex_release does: hash becomes ops' filter or notrace hash.
 */
int ftrace_ops_set_hash(struct ftrace_ops *ops, struct ftrace_hash *hash,
			bool filter)
{
	int ret;

	mutex_lock(&ftrace_lock);
	ret = ftrace_set_hash(ops, hash, filter);
	mutex_unlock(&ftrace_lock);
	return ret;
}

/* A copy of ops' filter or notrace hash (empty if none); NULL: no memory. */
struct ftrace_hash *ftrace_ops_hash_copy(struct ftrace_ops *ops, bool filter)
{
	struct ftrace_hash *hash;

	mutex_lock(&ftrace_lock);
	hash = start_hash(ops, filter, 0);
	mutex_unlock(&ftrace_lock);
	return hash;
}

int ftrace_set_filter(struct ftrace_ops *ops, const char *buf, int len,
		      int reset)
{
	return ftrace_set_regex(ops, buf, len, reset, true);
}

int ftrace_set_notrace(struct ftrace_ops *ops, const char *buf, int len,
		       int reset)
{
	return ftrace_set_regex(ops, buf, len, reset, false);
}

int ftrace_set_filter_ip(struct ftrace_ops *ops, unsigned long ip,
			 int remove, int reset)
{
	struct ftrace_hash *hash;
	int ret = 0;

	ip = ftrace_location(ip);
	if (!ip)
		return -ENOENT;
	mutex_lock(&ftrace_lock);
	hash = start_hash(ops, true, reset);
	if (!hash)
		ret = -ENOMEM;
	else if (remove)
		ftrace_hash_remove(hash, ip);
	else
		ret = ftrace_hash_add(hash, ip);
	if (!ret)
		ret = ftrace_set_hash(ops, hash, true);
	else
		free_ftrace_hash(hash);
	mutex_unlock(&ftrace_lock);
	return ret;
}

/* ---- /proc/sys/kernel/ftrace_enabled ----------------------------------- */

static bool permanent_ops_registered(void)
{
	struct ftrace_ops *op;

	for (op = ftrace_ops_list; op != &ftrace_list_end; op = op->next)
		if (op->flags & FTRACE_OPS_FL_PERMANENT)
			return true;
	return false;
}

/*
 * The file keeps the integer written, as proc_dointvec does; only
 * whether it is zero matters.
 */
int ftrace_enable_sysctl(int enable)
{
	struct ftrace_update u = { 0 };
	bool change;

	mutex_lock(&ftrace_lock);
	if (!enable && permanent_ops_registered()) {
		mutex_unlock(&ftrace_lock);
		return -EBUSY;
	}
	change = !ftrace_enabled != !enable;
	ftrace_enabled = enable;
	if (change) {
		rec_mark_all_pending();
		update_ftrace_function();
		u.command = FTRACE_UPDATE_CALLS | trace_func_command();
		ftrace_run_update_code(&u);
	}
	mutex_unlock(&ftrace_lock);
	return 0;
}

/* The names of the ops that want rec, for enabled_functions. */
void ftrace_rec_ops_names(struct dyn_ftrace *rec, char *buf, size_t size)
{
	struct ftrace_ops *op;
	size_t n = 0;

	buf[0] = 0;
	for (op = ftrace_ops_list; op != &ftrace_list_end; op = op->next)
		if (ftrace_ops_test(op, rec->ip))
			n += scnprintf(buf + n, size - n, "%s%s", n ? "," : "",
				       op->name ? op->name : "?");
}
