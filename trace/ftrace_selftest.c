/*
 * ftrace_selftest.c: the dynamic ftrace core tested from inside the
 * kernel, in the spirit of Linux's trace_selftest.c: boot-time nop
 * patching, site states, ops with filters (one, two, three at once),
 * notrace, globs, filter replacement without an all-functions window,
 * recursion, SAVE_REGS, IPMODIFY, PERMANENT, the unregister guarantee,
 * and a patch storm against callers on every other CPU.
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
#include "trace_targets.h"
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

	(void)fregs;
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

/*
 * Every site holds the form its record says: nop, or a jal when on.
 * ftrace_location leads from anywhere in a traced function to its site,
 * and from anywhere else to nothing.
 */
static void sites_match_records(struct kunit *t)
{
	int bad = 0;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	KUNIT_EXPECT_TRUE(t, ftrace_nr_records() > 20);
	ftrace_for_each_rec(check_rec_state, &bad);
	KUNIT_EXPECT_EQ(t, bad, 0);
	KUNIT_EXPECT_TRUE(t, ftrace_lookup_ip(T1) != NULL);
	KUNIT_EXPECT_EQ(t, site_insn(T1), RISCV_INSN_NOP);
	KUNIT_EXPECT_EQ(t, ftrace_location(T1), T1);
	KUNIT_EXPECT_EQ(t, ftrace_location(T1 + 2), T1);
	KUNIT_EXPECT_EQ(t, ftrace_location((unsigned long)kallsyms_lookup), 0);
}

/* A site that does not hold what it should is refused, not written. */
static void bad_site_is_refused(struct kunit *t)
{
	struct dyn_ftrace fake = { .ip = (unsigned long)kallsyms_lookup };
	u32 before = site_insn(fake.ip);

	mutex_lock(&text_mutex);
	KUNIT_EXPECT_EQ(t, ftrace_init_nop(&fake), -EINVAL);
	KUNIT_EXPECT_EQ(t, ftrace_make_call(&fake,
					    (unsigned long)ftrace_caller),
			-EINVAL);
	mutex_unlock(&text_mutex);
	KUNIT_EXPECT_EQ(t, site_insn(fake.ip), before);
}

/* make_call then make_nop on a real site, checking the bytes each time. */
static void make_call_and_nop(struct kunit *t)
{
	unsigned long ip = T3;
	struct dyn_ftrace *rec = ftrace_lookup_ip(ip);
	u32 jal;

	if (!rec)
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	riscv_insn_jal(ip, FTRACE_ADDR, FTRACE_SITE_LINK_REG, &jal);
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

static void single_ops_filter(struct kunit *t)
{
	struct counting_ops c;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	counting_init(&c, "ftrace_test_target1");
	KUNIT_EXPECT_EQ(t, register_ftrace_function(&c.ops), 0);
	KUNIT_EXPECT_TRUE(t, riscv_insn_is_jal(site_insn(T1)));
	KUNIT_EXPECT_EQ(t, site_insn(T2), RISCV_INSN_NOP);
	KUNIT_EXPECT_TRUE(t, ftrace_trace_function == count_call);
	call_targets(100);
	counting_done(&c);
	KUNIT_EXPECT_EQ(t, c.hits[0], 100);
	KUNIT_EXPECT_EQ(t, c.hits[1] + c.hits[2] + c.other, 0);
	KUNIT_EXPECT_EQ(t, c.parent_bad, 0);
	KUNIT_EXPECT_EQ(t, site_insn(T1), RISCV_INSN_NOP);
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

static void list_func_three_ops(struct kunit *t)
{
	struct counting_ops a, b, c;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	counting_init(&a, "ftrace_test_target1");
	counting_init(&b, "ftrace_test_target*");
	counting_init(&c, "*target3");
	register_ftrace_function(&a.ops);
	register_ftrace_function(&b.ops);
	register_ftrace_function(&c.ops);
	KUNIT_EXPECT_EQ(t, ftrace_rec_count(ftrace_lookup_ip(T1)), 2);
	KUNIT_EXPECT_EQ(t, ftrace_rec_count(ftrace_lookup_ip(T3)), 2);
	call_targets(20);
	counting_done(&a);
	counting_done(&b);
	counting_done(&c);
	KUNIT_EXPECT_EQ(t, a.hits[0], 20);
	KUNIT_EXPECT_EQ(t, b.hits[0] + b.hits[1] + b.hits[2], 60);
	KUNIT_EXPECT_EQ(t, c.hits[2], 20);
	KUNIT_EXPECT_EQ(t, a.other + b.other + c.other, 0);
	KUNIT_EXPECT_EQ(t, ftrace_rec_count(ftrace_lookup_ip(T1)), 0);
}

static void notrace_wins(struct kunit *t)
{
	struct counting_ops c;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	counting_init(&c, "ftrace_test_target*");
	ftrace_set_notrace(&c.ops, "ftrace_test_target2", 19, 1);
	register_ftrace_function(&c.ops);
	KUNIT_EXPECT_EQ(t, site_insn(T2), RISCV_INSN_NOP);
	call_targets(10);
	counting_done(&c);
	KUNIT_EXPECT_EQ(t, c.hits[0], 10);
	KUNIT_EXPECT_EQ(t, c.hits[1], 0);
	KUNIT_EXPECT_EQ(t, c.hits[2], 10);
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
 * Seed 001: replacing a filter with reset must never let every function
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

/* A callback that calls a traced function is not called again for it. */
static unsigned long recursion_calls;

static void recursing_call(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);

	(void)op, (void)fregs;
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
	KUNIT_EXPECT_EQ(t, recursion_calls, 2);
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

	(void)ip, (void)parent_ip, (void)op;
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
	u32 jal;

	KUNIT_EXPECT_EQ(t, register_ftrace_function(ops), 0);
	riscv_insn_jal(ip, FTRACE_REGS_ADDR, FTRACE_SITE_LINK_REG, &jal);
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

static void redirect(unsigned long ip, unsigned long parent_ip,
		     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	(void)ip, (void)parent_ip, (void)op;
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

static void permanent_vs_ftrace_enabled(struct kunit *t)
{
	struct counting_ops c;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
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
	KUNIT_EXPECT_EQ(t, site_insn(T1), RISCV_INSN_NOP);
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

	(void)ip, (void)parent_ip, (void)op, (void)fregs;
	__atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < 200; i++)
		barrier();
	slow_calls++;
	__atomic_sub_fetch(&inside, 1, __ATOMIC_SEQ_CST);
}

static void unregister_waits_for_callbacks(struct kunit *t)
{
	struct ftrace_ops ops = { .func = slow_callback, .name = "slow" };
	struct callers cs;
	unsigned long after;
	int round;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
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

SELFTEST_SUITE(ftrace,
	KUNIT_CASE(sites_match_records),
	KUNIT_CASE(bad_site_is_refused),
	KUNIT_CASE(make_call_and_nop),
	KUNIT_CASE(single_ops_filter),
	KUNIT_CASE(two_ops_two_filters),
	KUNIT_CASE(list_func_three_ops),
	KUNIT_CASE(notrace_wins),
	KUNIT_CASE(glob_forms),
	KUNIT_CASE(filter_replace_no_window),
	KUNIT_CASE(recursion_is_stopped),
	KUNIT_CASE(recursion_flag_wraps),
	KUNIT_CASE(save_regs_sees_args),
	KUNIT_CASE(ipmodify_redirects),
	KUNIT_CASE(permanent_vs_ftrace_enabled),
	KUNIT_CASE(unregister_waits_for_callbacks),
	KUNIT_CASE(patch_storm),
);
