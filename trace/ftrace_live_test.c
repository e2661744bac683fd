/*
 * ftrace_live_test.c: the order of ftrace_modify_all_code's steps,
 * tested where it matters, with harts running through the updates.
 * Every other hart calls three traced functions in a tight loop while
 * one hart registers, unregisters and refilters three ops a thousand
 * times. Each callback checks, as it runs, that it was handed its own
 * ops and that its ip is one its ops' filter holds (during an update:
 * the old filter or the new one); after an unregister returns, the ops'
 * callback must be neither running nor called again; and between
 * updates, an ops registered alone must be called directly, not
 * through ftrace_ops_list_func (step 3 was done). z asks for pt_regs
 * (SAVE_REGS) on a site x traces: until that site is rewritten to
 * ftrace_regs_caller, a call through ftrace_caller reaches the list
 * function with none, and z must not be called then. Every failed
 * check is a violation; there must be none, in either patch mode
 * (trace/ftrace_live.c). The test runs in the mode of the moment
 * (ftrace_patch= at boot, /proc/sys/kernel/ftrace_patch_mode): in live
 * mode, reordering or dropping a step makes violations appear; under
 * stop_machine nothing runs during the steps, so their order never
 * shows.
 */
#include "kernel.h"
#include "string.h"
#include "selftest.h"
#include "sched.h"
#include "smp.h"
#include "ftrace.h"
#include "printk.h"
#include "trace_fixtures.h"
#include "time.h"
#include "patch.h"

#define LIVE_CYCLES	20	/* of 10 updates each */
#define STOP_CYCLES	20	/* stop_machine rounds take longer */
/*
 * Loops a callback spins, to widen the window an unregister must wait
 * out: z's is longer than its unregister takes when no site changes.
 */
#define CALLBACK_SPIN	50
#define SLOW_CALLBACK_SPIN	5000
#define NR_TARGETS	3

#define T1	(1U << 0)
#define T2	(1U << 1)
#define T3	(1U << 2)

struct order_ops {
	struct ftrace_ops ops;
	unsigned int filter;		/* the targets in ops' filter */
	unsigned int allowed;		/* where a callback may run now */
	int inside;			/* callbacks running */
	unsigned long calls;
	bool registered;
};

struct order_test {
	struct order_ops x, y, z;
	unsigned long wrong_ip, wrong_op, after_unregister, via_list, no_regs;
	unsigned long updates, calls_during_updates;
	bool updating;
	struct order_ops *alone;	/* between updates: the only ops */
	volatile bool stop;
	struct task *callers[NR_CPUS];
	int nr_callers;
};

static struct order_test ot;

static long (*const targets[NR_TARGETS])(long) = {
	ftrace_test_target1, ftrace_test_target2, ftrace_test_target3,
};

/* Each target's site: its entry, or its call of _mcount (-pg). */
static unsigned long sites[NR_TARGETS];

static void find_sites(void)
{
	int i;

	for (i = 0; i < NR_TARGETS; i++)
		sites[i] = ftrace_location((unsigned long)targets[i]);
}

static unsigned int target_bit(unsigned long ip)
{
	int i;

	for (i = 0; i < NR_TARGETS; i++)
		if (ip == sites[i])
			return 1U << i;
	return 0;
}

static void count(unsigned long *counter)
{
	__atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
}

/* ftrace_ops_list_func holds its recursion bit while it calls back. */
static bool called_by_list_func(void)
{
	return current->trace_recursion &
	       (((1UL << TRACE_CTX_MAX) - 1) << TRACE_LIST_START);
}

static void check_callback(struct order_ops *o, unsigned long ip,
			   struct ftrace_ops *op, int spins)
{
	volatile int spin;

	__atomic_fetch_add(&o->inside, 1, __ATOMIC_SEQ_CST);
	if (op != &o->ops)
		count(&ot.wrong_op);
	if (!(target_bit(ip) & __atomic_load_n(&o->allowed, __ATOMIC_SEQ_CST)))
		count(&ot.wrong_ip);
	if (READ_ONCE(ot.updating))
		count(&ot.calls_during_updates);
	if (READ_ONCE(ot.alone) == o && called_by_list_func())
		count(&ot.via_list);
	count(&o->calls);
	for (spin = 0; spin < spins; spin++)
		;
	__atomic_fetch_sub(&o->inside, 1, __ATOMIC_SEQ_CST);
}

static void x_callback(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	check_callback(&ot.x, ip, op, CALLBACK_SPIN);
}

static void y_callback(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	check_callback(&ot.y, ip, op, CALLBACK_SPIN);
}

static void z_callback(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	if (!ftrace_get_regs(fregs))
		count(&ot.no_regs);
	check_callback(&ot.z, ip, op, SLOW_CALLBACK_SPIN);
}

static void set_allowed(struct order_ops *o, unsigned int targets)
{
	__atomic_store_n(&o->allowed, targets, __ATOMIC_SEQ_CST);
}

static void begin_update(void)
{
	WRITE_ONCE(ot.alone, NULL);
	WRITE_ONCE(ot.updating, true);
}

static struct order_ops *only_registered(void)
{
	struct order_ops *all[] = { &ot.x, &ot.y, &ot.z }, *alone = NULL;
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(all); i++)
		if (all[i]->registered) {
			alone = all[i];
			n++;
		}
	return n == 1 ? alone : NULL;
}

static void end_update(void)
{
	WRITE_ONCE(ot.updating, false);
	WRITE_ONCE(ot.alone, only_registered());
	ot.updates++;
}

/* Make the filter of o these targets (a set of T1, T2, T3). */
static int set_filter(struct order_ops *o, unsigned int set)
{
	struct ftrace_hash *hash = alloc_ftrace_hash(2);
	int i, ret = hash ? 0 : -ENOMEM;

	for (i = 0; i < NR_TARGETS && !ret; i++)
		if (set & (1U << i))
			ret = ftrace_hash_add(hash, sites[i]);
	if (ret) {
		free_ftrace_hash(hash);
		return ret;
	}
	return ftrace_ops_set_hash(&o->ops, hash, true);
}

/* Either filter may show while the sites and the hash change. */
static int refilter(struct order_ops *o, unsigned int set)
{
	int ret;

	set_allowed(o, o->filter | set);
	begin_update();
	ret = set_filter(o, set);
	end_update();
	o->filter = set;
	set_allowed(o, set);
	return ret;
}

static int start(struct order_ops *o)
{
	int ret;

	set_allowed(o, o->filter);
	begin_update();
	ret = register_ftrace_function(&o->ops);
	o->registered = !ret;
	end_update();
	return ret;
}

/*
 * start, then, until o's callback has run once, wait: a loaded host
 * may hold the callers' harts back through a whole window in which o
 * is registered, and no call would count. A second in all, so that a
 * callback that never runs fails the test, not its time limit.
 */
static int see_budget_ms;

static int start_and_see(struct order_ops *o)
{
	int ret = start(o);

	while (!ret && !READ_ONCE(o->calls) && see_budget_ms > 0) {
		msleep(1);
		see_budget_ms--;
	}
	return ret;
}

/* Once unregister returns, no callback may run or be running. */
static int stop(struct order_ops *o)
{
	int ret;

	begin_update();
	ret = unregister_ftrace_function(&o->ops);
	o->registered = false;
	end_update();
	if (__atomic_load_n(&o->inside, __ATOMIC_SEQ_CST))
		count(&ot.after_unregister);
	set_allowed(o, 0);
	return ret;
}

/*
 * Each update moves ftrace_call between a single ops' callback, the
 * list function and the stub, or changes sites under one of them.
 */
static int one_cycle(void)
{
	int ret = start_and_see(&ot.y);	/* x's callback -> list */

	ret = ret ?: refilter(&ot.x, T1 | T3);	/* the list stays */
	ret = ret ?: start_and_see(&ot.z);	/* the list stays, T3: regs */
	ret = ret ?: stop(&ot.z);	/* the list stays */
	ret = ret ?: stop(&ot.y);	/* list -> x's callback */
	ret = ret ?: refilter(&ot.x, T1);	/* x's, list, x's again */
	ret = ret ?: stop(&ot.x);	/* x's callback -> stub */
	ret = ret ?: start(&ot.y);	/* stub -> y's callback */
	ret = ret ?: start(&ot.x);	/* y's callback -> list */
	return ret ?: stop(&ot.y);	/* list -> x's callback */
}

static void caller_loop(void *arg)
{
	long i = 0;

	while (!ot.stop) {
		ftrace_test_target1(i);
		ftrace_test_target2(i);
		ftrace_test_target3(i++);
	}
}

static void start_callers(void)
{
	int cpu;

	for_each_online_cpu(cpu) {
		if (cpu == 0)
			continue;
		ot.callers[ot.nr_callers] =
			kthread_create_on_cpu(caller_loop, NULL, "live_caller",
					      cpu);
		if (ot.callers[ot.nr_callers])
			kthread_start(ot.callers[ot.nr_callers++]);
	}
}

static void stop_callers(void)
{
	int i;

	ot.stop = true;
	for (i = 0; i < ot.nr_callers; i++)
		kthread_wait(ot.callers[i]);
}

static int init_ops(struct order_ops *o, ftrace_func_t func,
		    const char *name, unsigned int set, unsigned long flags)
{
	o->ops = (struct ftrace_ops){ .func = func, .name = name,
				      .flags = flags };
	o->filter = set;
	return set_filter(o, set);
}

static int switcher_ret;

/* On CPU 0, the callers on all the others. */
static void switcher(void *arg)
{
	int cycles = ftrace_patch_live() ? LIVE_CYCLES : STOP_CYCLES;
	int i, ret;

	ret = start_and_see(&ot.x);
	for (i = 0; i < cycles && !ret; i++)
		ret = one_cycle();
	switcher_ret = ret ?: stop(&ot.x);
}

static void print_counts(u64 ns)
{
	console_printf("    # %s: %lu updates in %llu ms, %lu callbacks (%lu "
		       "during updates), %lu violations: ip %lu, ops %lu, "
		       "after unregister %lu, list function alone %lu, "
		       "no regs %lu\n",
		       ftrace_patch_mode_name(), ot.updates,
		       ns / (NSEC_PER_SEC / 1000),
		       ot.x.calls + ot.y.calls + ot.z.calls,
		       ot.calls_during_updates, ot.wrong_ip + ot.wrong_op +
		       ot.after_unregister + ot.via_list + ot.no_regs,
		       ot.wrong_ip, ot.wrong_op, ot.after_unregister,
		       ot.via_list, ot.no_regs);
}

static void run_switcher(struct kunit *t)
{
	struct task *sw = kthread_create_on_cpu(switcher, NULL,
						"live_switcher", 0);

	KUNIT_EXPECT_TRUE(t, sw != NULL);
	if (sw) {
		kthread_start(sw);
		kthread_wait(sw);
	}
}

static void modify_all_code_order(struct kunit *t)
{
	u64 start;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	if (nr_cpus < 2)
		KUNIT_SKIP(t, "needs 2 CPUs");
	if (!FTRACE_LIVE_PATCHING)
		KUNIT_SKIP(t, "-pg sites cannot be patched live: "
			      "ftrace/patch_storm covers stop_machine");
	memset(&ot, 0, sizeof(ot));
	see_budget_ms = 1000;
	find_sites();
	KUNIT_EXPECT_EQ(t, init_ops(&ot.x, x_callback, "live_x", T1, 0), 0);
	KUNIT_EXPECT_EQ(t, init_ops(&ot.y, y_callback, "live_y", T2, 0), 0);
	KUNIT_EXPECT_EQ(t, init_ops(&ot.z, z_callback, "live_z", T3,
				    FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED), 0);
	start_callers();
	start = ktime_get_ns();
	run_switcher(t);
	start = ktime_get_ns() - start;
	stop_callers();
	ftrace_free_ops_hashes(&ot.x.ops);
	ftrace_free_ops_hashes(&ot.y.ops);
	ftrace_free_ops_hashes(&ot.z.ops);
	print_counts(start);
	KUNIT_EXPECT_EQ(t, switcher_ret, 0);
	KUNIT_EXPECT_EQ(t, ot.wrong_ip, 0);
	KUNIT_EXPECT_EQ(t, ot.wrong_op, 0);
	KUNIT_EXPECT_EQ(t, ot.after_unregister, 0);
	KUNIT_EXPECT_EQ(t, ot.via_list, 0);
	if (ot.z.ops.flags & FTRACE_OPS_FL_SAVE_REGS)
		KUNIT_EXPECT_EQ(t, ot.no_regs, 0);
	KUNIT_EXPECT_TRUE(t, ot.x.calls > 0 && ot.y.calls > 0 &&
			     ot.z.calls > 0);
	/* The point of live mode: the others trace on through updates. */
	if (ftrace_patch_live())
		KUNIT_EXPECT_TRUE(t, ot.calls_during_updates > 0);
}

/*
 * A function a test can patch, `li a0, 0; SITE; ret`, with a landing
 * pad 4 KiB past its site. A nop at the site returns 0, and `jal t0,
 * tear_probe_call` returns 1. A hart that fetched the jal's low
 * halfword with the nop's high one (0x0000) runs `jal t0, SITE +
 * 0x1000` and returns 2: bits 15:12 of a jal's offset (0x1010) are in
 * its low halfword, the rest in its high one.
 */
asm(".pushsection .text.tear_probe, \"ax\"\n"
    ".option push\n"
    ".option norvc\n"
    ".balign 4\n"
    "tear_probe:\n"
    "	li	a0, 0\n"
    "tear_probe_site:\n"
    "	nop\n"
    "	ret\n"
    "	.skip	0x1000 - 8\n"
    "tear_probe_torn:\n"		/* tear_probe_site + 0x1000 */
    "	li	a0, 2\n"
    "	jr	t0\n"
    "	.skip	8\n"
    "tear_probe_call:\n"		/* tear_probe_site + 0x1010 */
    "	li	a0, 1\n"
    "	jr	t0\n"
    ".option pop\n"
    ".popsection\n");

long tear_probe(void);
extern char tear_probe_site[], tear_probe_call[];

#define TEAR_CHANGES	200
#define TEAR_CHANGES_MAX	20000	/* until both ran: see below */

static unsigned long tear_seen[NR_CPUS][3];
static volatile bool tear_stop;

static void tear_caller(void *arg)
{
	unsigned long *seen = tear_seen[smp_processor_id()];

	while (!tear_stop)
		seen[tear_probe()]++;
}

/* Has some caller run the nop, and some caller the jal? */
static bool tear_saw_both(void)
{
	bool nop = false, jal = false;
	int cpu;

	for_each_online_cpu(cpu) {
		nop |= READ_ONCE(tear_seen[cpu][0]) > 0;
		jal |= READ_ONCE(tear_seen[cpu][1]) > 0;
	}
	return nop && jal;
}

/* Do a and b differ in one halfword at most? */
static bool one_half_apart(u32 a, u32 b)
{
	return !((a ^ b) & 0xffff) || !((a ^ b) & 0xffff0000);
}

/*
 * Live, as ftrace_replace_code writes a site: a step per change. The
 * step's first store must leave a nop that differs from the old word
 * in one halfword, and its end the new word, one halfword further.
 */
static int tear_change(struct dyn_ftrace *rec, bool on,
		       unsigned long *bad_paths)
{
	unsigned long call = (unsigned long)tear_probe_call;
	u32 before = riscv_insn_read(rec->ip), mid;
	int ret;

	mutex_lock(&text_mutex);
	ftrace_live_step_begin();
	ret = on ? ftrace_make_call(rec, call) : ftrace_make_nop(rec, call);
	mid = riscv_insn_read(rec->ip);
	ftrace_live_step_end();
	mutex_unlock(&text_mutex);
	if (!one_half_apart(before, mid) || (mid & 0xffff) != RISCV_INSN_NOP ||
	    !one_half_apart(mid, riscv_insn_read(rec->ip)))
		(*bad_paths)++;
	return ret;
}

static void start_tear_callers(struct task **callers, int *n)
{
	int cpu;

	memset(tear_seen, 0, sizeof(tear_seen));
	tear_stop = false;
	for_each_online_cpu(cpu)
		if (cpu != smp_processor_id() &&
		    (callers[*n] = kthread_create_on_cpu(tear_caller, NULL,
							 "tear_caller", cpu)))
			kthread_start(callers[(*n)++]);
}

static void stop_tear_callers(struct task **callers, int n,
			      unsigned long *sum)
{
	int cpu, r;

	tear_stop = true;
	while (n)
		kthread_wait(callers[--n]);
	for_each_online_cpu(cpu)
		for (r = 0; r < 3; r++)
			sum[r] += tear_seen[cpu][r];
}

/*
 * A hart may fetch a 32-bit instruction as two halfwords: QEMU's TCG
 * does (target/riscv/translate.c reads the low one, then the high), so
 * a hart that translates a site while the patcher's single store lands
 * can run half of each, whatever Ziccif promises: with one store per
 * change, a thousand changes showed a torn jal in two runs of three.
 * It is rare, so the test also checks how each change is made: one
 * halfword per store, through a nop, each store fenced by every hart
 * before the next (patch.h's account). A site live-patched nop <-> jal
 * while the other harts call it must never run torn.
 */
static void live_site_never_torn(struct kunit *t)
{
	struct dyn_ftrace rec = { .ip = (unsigned long)tear_probe_site };
	struct task *callers[NR_CPUS];
	unsigned long sum[3] = { 0 }, bad_paths = 0;
	unsigned long unfenced = READ_ONCE(text_unfenced);
	char mode[16];
	int n = 0, i, ret = 0;
	u64 ns;

	if (!FTRACE_LIVE_PATCHING || nr_cpus < 2)
		KUNIT_SKIP(t, "needs live patching and 2 CPUs");
	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	strlcpy(mode, ftrace_patch_mode_name(), sizeof(mode));
	ftrace_set_patch_mode("live");
	start_tear_callers(callers, &n);
	ns = ktime_get_ns();
	/* More changes while a loaded host kept the callers from both. */
	for (i = 0; (i < TEAR_CHANGES || !tear_saw_both()) &&
		    i < TEAR_CHANGES_MAX && !ret; i++)
		ret = tear_change(&rec, !(i & 1), &bad_paths);
	ns = ktime_get_ns() - ns;
	stop_tear_callers(callers, n, sum);
	ftrace_set_patch_mode(mode);
	console_printf("    # %d changes in %llu ms, %lu not a halfword at a "
		       "time: %lu calls ran the nop, %lu the jal, %lu a torn "
		       "jal\n", i, ns / (NSEC_PER_SEC / 1000),
		       bad_paths, sum[0], sum[1], sum[2]);
	KUNIT_EXPECT_EQ(t, ret, 0);
	KUNIT_EXPECT_EQ(t, bad_paths, 0);
	KUNIT_EXPECT_EQ(t, READ_ONCE(text_unfenced), unfenced);
	KUNIT_EXPECT_EQ(t, sum[2], 0);
	KUNIT_EXPECT_TRUE(t, sum[0] > 0 && sum[1] > 0);
}

/*
 * The modes' names, as /proc/sys/kernel/ftrace_patch_mode takes them;
 * the -pg build refuses live (its sites are 2-byte aligned).
 */
static void patch_mode_names(struct kunit *t)
{
	char saved[16];

	strlcpy(saved, ftrace_patch_mode_name(), sizeof(saved));
	KUNIT_EXPECT_EQ(t, ftrace_set_patch_mode("stop_machine"), 0);
	KUNIT_EXPECT_STREQ(t, ftrace_patch_mode_name(), "stop_machine");
	KUNIT_EXPECT_EQ(t, ftrace_set_patch_mode("live"),
			FTRACE_LIVE_PATCHING ? 0 : -EINVAL);
	KUNIT_EXPECT_EQ(t, ftrace_patch_live(), FTRACE_LIVE_PATCHING);
	KUNIT_EXPECT_EQ(t, ftrace_set_patch_mode("Live"), -EINVAL);
	KUNIT_EXPECT_EQ(t, ftrace_set_patch_mode(""), -EINVAL);
	KUNIT_EXPECT_EQ(t, ftrace_patch_live(), FTRACE_LIVE_PATCHING);
	KUNIT_EXPECT_EQ(t, ftrace_set_patch_mode(saved), 0);
}

SELFTEST_SUITE(ftrace_live,
	KUNIT_CASE(patch_mode_names),
	KUNIT_CASE(live_site_never_torn),
	KUNIT_CASE(modify_all_code_order));
