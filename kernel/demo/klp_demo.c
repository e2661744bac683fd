/*
 * klp_demo.c: the livepatch demo (docs/livepatch.md). A function with
 * an off-by-one bug, its fixed version, the `klp` command that patches
 * one into the other (trace/klp.c), and the `klpdemo` workload: a
 * thread per CPU calls the function while the patch goes on and off,
 * and checks every result is exactly the old function's or the new
 * one's, and the one the patch state says it must be.
 */
#include "kernel.h"
#include "livepatch.h"
#include "workloads.h"
#include "shell.h"
#include "sched.h"
#include "string.h"
#include "printf.h"

/*
 * noipa: a real, out-of-line call every time. GCC would otherwise see
 * a const function and merge calls or move them across the loads that
 * bracket them in the stress test.
 */
#define __klp_demo	__attribute__((noipa))

#define DEMO_N			10
#define STRESS_ROUNDS_DEFAULT	10
#define STRESS_ROUNDS_MAX	1000
#define STRESS_PHASE_MS		20	/* between two flips of the patch */
#define STRESS_N_MAX		100	/* calls cycle through n = 1..this */

/* The sum 1 + 2 + ... + n. The bug: it stops at n - 1. */
__klp_demo long klp_demo_buggy_sum(long n)
{
	long sum = 0, i;

	for (i = 1; i < n; i++)
		sum += i;
	return sum;
}

__klp_demo long klp_demo_fixed_sum(long n)
{
	long sum = 0, i;

	for (i = 1; i <= n; i++)
		sum += i;
	return sum;
}

static const struct klp_func demo_func = {
	.old_name = "klp_demo_buggy_sum",
	.new_func = klp_demo_fixed_sum,
};

/*
 * The enabled patch, or NULL. The klp command and klpdemo runs may
 * change it at once (a klpdemo of `make stress` runs beside the shell):
 * demo_lock makes each change whole, as Linux's klp_mutex does, so a
 * patch is never disabled twice.
 */
static struct klp_patch *demo_patch;
static DEFINE_MUTEX(demo_lock);

/* A second patch of the function is refused by ftrace (-EBUSY). */
static int demo_enable(void)
{
	struct klp_patch *patch;
	int err = 0;

	mutex_lock(&demo_lock);
	patch = klp_enable_patch("klp_demo", &demo_func);
	if (IS_ERR(patch))
		err = PTR_ERR(patch);
	else
		demo_patch = patch;
	mutex_unlock(&demo_lock);
	return err;
}

static int demo_disable(void)
{
	int err;

	mutex_lock(&demo_lock);
	err = demo_patch ? klp_disable_patch(demo_patch) : -EINVAL;
	if (!err)
		demo_patch = NULL;
	mutex_unlock(&demo_lock);
	return err;
}

/* ---- the klp command ---------------------------------------------------- */

static void print_state(struct shell_out *out)
{
	if (demo_patch)
		sh_printf(out, "klp_demo: enabled (%s -> %ps)\n",
			  demo_func.old_name, demo_func.new_func);
	else
		sh_puts(out, "klp_demo: disabled\n");
}

static const char *whose_sum(long n, long sum)
{
	return sum == n * (n + 1) / 2 ? "fixed" :
	       sum == n * (n - 1) / 2 ? "buggy" : "neither";
}

static int klp_status(struct shell_out *out)
{
	long sum = klp_demo_buggy_sum(DEMO_N);

	print_state(out);
	sh_printf(out, "klp_demo_buggy_sum(%d) = %ld (%s)\n", DEMO_N, sum,
		  whose_sum(DEMO_N, sum));
	return 0;
}

static int klp_enable(struct shell_out *out)
{
	int err = demo_enable();

	if (err) {
		sh_err("klp: klp_demo: %s\n", strerror_text(err));
		return 1;
	}
	print_state(out);
	return 0;
}

static int klp_disable(struct shell_out *out)
{
	int err;

	if (!demo_patch) {
		sh_err("klp: klp_demo: not enabled\n");
		return 1;
	}
	err = demo_disable();
	if (err) {
		sh_err("klp: klp_demo: %s\n", strerror_text(err));
		return 1;
	}
	print_state(out);
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(struct shell_out *out);
} klp_subcommands[] = {
	{ "status", klp_status },
	{ "enable", klp_enable },
	{ "disable", klp_disable },
};

static int cmd_klp(struct shell_out *out, int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "status";
	size_t i;

	for (i = 0; i < ARRAY_SIZE(klp_subcommands) && argc <= 2; i++)
		if (!strcmp(sub, klp_subcommands[i].name))
			return klp_subcommands[i].fn(out);
	sh_err("usage: klp [status|enable|disable]\n");
	return 2;
}
SHELL_COMMAND("klp", cmd_klp,
	      "[status|enable|disable]: livepatch klp_demo_buggy_sum (docs/livepatch.md)");

/* ---- the klpdemo workload ----------------------------------------------- */

/*
 * The patch state as the workers see it. seq is odd while the patch
 * changes; a call made while seq stayed at one even value ran entirely
 * in one state, the one patched says, so its result must be that
 * state's (else it is counted stale: a CPU ran code from before an
 * enable or disable that had returned).
 */
struct stress_state {
	unsigned long seq;
	bool patched;
	bool stop;
};

struct stress_worker {
	struct stress_state *state;
	struct task *task;
	unsigned long old, new, mixed, stale;
};

static unsigned long load_seq(struct stress_state *s)
{
	return __atomic_load_n(&s->seq, __ATOMIC_SEQ_CST);
}

static void stress_call(struct stress_worker *w, long n)
{
	unsigned long seq = load_seq(w->state);
	bool patched = READ_ONCE(w->state->patched);
	long sum = klp_demo_buggy_sum(n);
	bool steady = !(seq & 1) && load_seq(w->state) == seq;
	bool fixed = sum == n * (n + 1) / 2, buggy = sum == n * (n - 1) / 2;

	if (fixed)
		w->new++;
	else if (buggy)
		w->old++;
	else
		w->mixed++;
	if (steady && (fixed || buggy) && fixed != patched)
		w->stale++;
}

static void stress_worker_main(void *arg)
{
	struct stress_worker *w = arg;
	long n = 0;

	while (!READ_ONCE(w->state->stop)) {
		n = n % STRESS_N_MAX + 1;
		stress_call(w, n);
	}
}

static int stress_flip(struct stress_state *s)
{
	int err;

	__atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_SEQ_CST);
	err = s->patched ? demo_disable() : demo_enable();
	if (!err)
		WRITE_ONCE(s->patched, !s->patched);
	__atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_SEQ_CST);
	return err;
}

/* Flip the patch 2 * rounds times, or an even number until Ctrl-C. */
static int stress_flips(struct stress_state *s, unsigned long rounds,
			unsigned long *flips)
{
	int err = 0;

	for (*flips = 0; *flips < 2 * rounds && !err; ++*flips) {
		if (READ_ONCE(current->sigpending) && !(*flips & 1))
			break;
		msleep(STRESS_PHASE_MS);
		err = stress_flip(s);
	}
	return err;
}

/* A worker on each online CPU; how many started (all, or *err = -ENOMEM). */
static int start_workers(struct stress_worker *w, struct stress_state *s,
			 int *err)
{
	char name[TASK_COMM_LEN];
	int cpu, n = 0;

	*err = 0;
	for_each_online_cpu(cpu) {
		snprintf(name, sizeof(name), "klpdemo/%d", cpu);
		w[n].state = s;
		w[n].task = kthread_create_on_cpu(stress_worker_main, &w[n],
						  name, cpu);
		if (!w[n].task) {
			*err = -ENOMEM;
			break;
		}
		kthread_start(w[n++].task);
	}
	return n;
}

static void report(struct shell_out *out, struct stress_worker *w, int n,
		   unsigned long flips)
{
	unsigned long old = 0, new = 0, mixed = 0, stale = 0;
	int i;

	for (i = 0; i < n; i++) {
		old += w[i].old;
		new += w[i].new;
		mixed += w[i].mixed;
		stale += w[i].stale;
	}
	sh_printf(out, "klpdemo: %d CPUs, %lu flips, %lu calls: ", n, flips,
		  old + new + mixed);
	sh_printf(out, "%lu old, %lu new, %lu mixed, %lu stale\n", old, new,
		  mixed, stale);
}

static bool all_consistent(struct stress_worker *w, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (w[i].mixed || w[i].stale)
			return false;
	return true;
}

static int klpdemo_run(struct shell_out *out, unsigned long rounds)
{
	struct stress_state s = { .patched = demo_patch != NULL };
	struct stress_worker w[NR_CPUS] = { { 0 } };
	unsigned long flips;
	int n, i, err;

	n = start_workers(w, &s, &err);
	if (!err)
		err = stress_flips(&s, rounds, &flips);
	WRITE_ONCE(s.stop, true);
	for (i = 0; i < n; i++)
		kthread_wait(w[i].task);
	if (err)
		return err;
	report(out, w, n, flips);
	if (!all_consistent(w, n)) {
		sh_err("run: klpdemo: a call returned neither function's result, or the wrong one\n");
		return 1;
	}
	return READ_ONCE(current->sigpending) ? -EINTR : 0;
}

/*
 * The flips of one run, with its workers checking the results against
 * the state it set: a second run at once would flip the same patch
 * under it, so it is refused (-EBUSY).
 */
static int klpdemo_running;		/* a word: amoswap has no byte form */

int klpdemo_main(struct shell_out *out, int argc, char **argv)
{
	unsigned long rounds;
	int err;

	err = workload_count_arg(argc, argv, STRESS_ROUNDS_DEFAULT, 1,
				 STRESS_ROUNDS_MAX, &rounds);
	if (err)
		return err;
	if (__atomic_exchange_n(&klpdemo_running, 1, __ATOMIC_ACQUIRE))
		return -EBUSY;
	err = klpdemo_run(out, rounds);
	__atomic_store_n(&klpdemo_running, 0, __ATOMIC_RELEASE);
	return err;
}
