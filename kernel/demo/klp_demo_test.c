/*
 * klp_demo_test.c: the livepatch demo run beside itself, as `make
 * stress` runs every workload on every CPU: of two klpdemo runs at
 * once one is refused (-EBUSY), and the patch is never disabled twice
 * (that freed it twice: an oops in ftrace_shutdown).
 */
#include "kernel.h"
#include "ftrace.h"
#include "selftest.h"
#include "workloads.h"
#include "shell.h"
#include "sched.h"
#include "vfs.h"

#define RUNS	10

/* One thread's runs of `klpdemo 1`; bad: how many ended otherwise. */
struct klpdemo_runs {
	struct task *task;
	int done, refused, bad;
};

static void klpdemo_thread(void *arg)
{
	struct klpdemo_runs *r = arg;
	struct shell_out out = { NULL, 0 };
	char *argv[] = { "klpdemo", "1", NULL };
	int i, ret;

	if (vfs_open(NULL, "/dev/null", O_WRONLY, &out.file)) {
		r->bad = RUNS;
		return;
	}
	for (i = 0; i < RUNS; i++) {
		ret = klpdemo_main(&out, 2, argv);
		r->done += !ret;
		r->refused += ret == -EBUSY;
		r->bad += ret && ret != -EBUSY;
	}
	vfs_close(out.file);
}

/*
 * Two threads run klpdemo over and over: each run completes, or is
 * refused while the other one's runs. Before, the second run flipped
 * the patch under the first (its disable found none, -EINVAL) or both
 * disabled it at once.
 */
static void runs_at_once(struct kunit *t)
{
	struct klpdemo_runs r[2] = { { 0 }, { 0 } };
	int i;

	if (!ftrace_regs_supported())
		KUNIT_SKIP(t, "no IPMODIFY without patchable entries (-pg)");
	for (i = 0; i < 2; i++)
		r[i].task = kthread_create(klpdemo_thread, &r[i],
					   "klpdemo_test");
	for (i = 0; i < 2; i++)
		if (r[i].task)
			kthread_start(r[i].task);
	for (i = 0; i < 2; i++)
		if (r[i].task)
			kthread_wait(r[i].task);
	if (!r[0].task || !r[1].task)
		KUNIT_SKIP(t, "no memory");
	KUNIT_EXPECT_EQ(t, r[0].bad + r[1].bad, 0);
	KUNIT_EXPECT_TRUE(t, r[0].done + r[1].done > 0);
	KUNIT_EXPECT_TRUE(t, r[0].refused + r[1].refused > 0);
}

SELFTEST_SUITE(klp_demo,
	KUNIT_CASE(runs_at_once));
