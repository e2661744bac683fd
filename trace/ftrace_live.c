/*
 * ftrace_live.c: how ftrace_modify_all_code's writes reach the running
 * harts. `ftrace_patch=stop_machine|live` on the command line chooses,
 * and /proc/sys/kernel/ftrace_patch_mode switches between updates.
 *
 * stop_machine (the default, Linux 6.1's way): the whole update runs
 * while every other hart spins with interrupts off (trace/ftrace.c,
 * ftrace_run_update_code). Nothing runs while a site changes, so the
 * order of the three steps and the single store per site are
 * defensive there.
 *
 * live (Linux 6.16's RISC-V way, Documentation/arch/riscv/cmodx.rst):
 * the other harts keep running, and tracing, through the update. What
 * carries the weight then:
 *  - each site, ftrace_call and ftrace_graph_call changes a halfword
 *    at a time. Ziccif makes the fetch of a naturally aligned 32-bit
 *    instruction atomic, but QEMU's TCG fetches one as two halfwords:
 *    a hart that translates it while one store changes both halves
 *    can run half of each (a torn jal jumped into cmd_bench from a
 *    selftest). So each store (patch_insn32) changes one halfword and
 *    leaves a nop or the new word, and every hart fences each store
 *    before the next (arch/riscv/kernel/ftrace.c, live_path). A call
 *    that changes target is a nop for a moment: callbacks reached
 *    through ftrace_call are missed while it changes. Linux 6.16
 *    patches no call in its trampoline, which loads ftrace_call_dest;
 *  - a step ends with fence.i on every hart, and the next begins only
 *    when each has done it (ftrace_live_step_end). fence.i only makes
 *    a hart's later fetches see the stores it can already see: without
 *    it, and without waiting for it, a hart may go on running an old
 *    instruction for as long as it likes;
 *  - the three steps: ftrace_call goes to ftrace_ops_list_func, the
 *    sites change (and a new hash takes effect), then ftrace_call goes
 *    to the final function. A callback reached through the list
 *    function runs for an ip only if ftrace_ops_test passed for it
 *    against the ops' own hashes; one called directly runs only from
 *    sites that are exactly its ops' (before step 1 and after step 3);
 *  - a site's ops literal (asm/ftrace.h), which names the one ops that
 *    wants it, is written in step 2 just before the site's own store:
 *    it is one aligned word, and the site's call appears only after
 *    every hart has fenced (live_path). A hart that loads the old
 *    literal calls an ops that wanted the site when the update began,
 *    or goes through ftrace_call.
 *
 * What a callback tolerates in the window: the list function's test
 * and the callback are two moments, so a callback may run once for a
 * site its filter has just dropped, or that was just enabled for it,
 * as in Linux. function_trace_op, which the trampoline loads before it
 * calls through ftrace_call, changes in step 3: before ftrace_call goes
 * to a function that takes the op, ftrace_update_ftrace_func waits
 * (synchronize_rcu) until every hart that may have loaded the old op
 * has left its trampoline, so a callback always gets its own ops. And
 * each update ends with synchronize_rcu, so when unregister returns no
 * hart is in the ops' callback or walking the list past it, and a
 * replaced hash can be freed.
 *
 * QEMU's multi-threaded TCG needs one thing more. A store to a page of
 * translated code drops the page's translations before the store
 * lands, not after (accel/tcg/cputlb.c, notdirty_write): a vCPU that
 * translates the instruction in between caches the old one and runs it
 * until the page is written again, fence.i or not. So once every hart
 * has fenced, the step stores each word it wrote once more, unchanged:
 * that drops any such translation, and no new one can see old bytes.
 * The same bytes are no new instruction, so they need no fence.i (and
 * the fence.i account of patch.h does not count them).
 *
 * The -pg build keeps stop_machine: most of its sites follow an RVC
 * prologue and are only 2-byte aligned, written as two halfwords
 * (asm/ftrace.h); aligning them would mean giving up RVC in all of the
 * kernel's code.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "ftrace.h"
#include "fdt.h"
#include "patch.h"
#include "printk.h"
#include "rcu.h"
#include "smp.h"
#include "vfs.h"
#include "asm/csr.h"

/* A step writes sites, or the trampolines' two or four call slots. */
#define STEP_MAX_WRITES	(ftrace_nr_records() + 4)

static const char *const mode_names[] = { "stop_machine", "live" };
static unsigned long live_steps;

/* A word the step in progress changes, and the words it goes through. */
struct live_write {
	unsigned long ip;
	u32 path[FTRACE_LIVE_PATH_MAX];	/* the last is the new word */
	unsigned int len;
};
static struct live_write *step_writes;
static unsigned long nr_step_writes;
static bool step_open;

unsigned long ftrace_live_steps(void)
{
	return live_steps;
}

static bool live_refused(const char *name)
{
	return !FTRACE_LIVE_PATCHING && !strcmp(name, mode_names[1]);
}

static int set_patch_mode(const char *name)
{
	bool live = !strcmp(name, mode_names[1]);

	if ((!live && strcmp(name, mode_names[0])) || live_refused(name))
		return -EINVAL;
	if (live && !step_writes)
		return -ENOMEM;
	WRITE_ONCE(text_patch_live, live);
	return 0;
}

/* Between updates: one in progress finishes in its own mode. */
int ftrace_set_patch_mode(const char *name)
{
	int ret;

	mutex_lock(&ftrace_lock);
	ret = set_patch_mode(name);
	mutex_unlock(&ftrace_lock);
	return ret;
}

const char *ftrace_patch_mode_name(void)
{
	return mode_names[ftrace_patch_live()];
}

/* ftrace_init, once the records are known, before any patching. */
void ftrace_patch_mode_init(void)
{
	char mode[16];
	int ret;

	if (FTRACE_LIVE_PATCHING)
		step_writes = kmalloc(STEP_MAX_WRITES * sizeof(*step_writes));
	if (!cmdline_value("ftrace_patch", mode, sizeof(mode)))
		return;
	if (live_refused(mode)) {
		pr_warn("ftrace: ftrace_patch=live needs 4-byte aligned "
			"sites, and -pg's are not: stop_machine\n");
		return;
	}
	ret = set_patch_mode(mode);
	if (ret == -EINVAL)
		pr_warn("ftrace: ftrace_patch=%s: no such mode (stop_machine, "
			"live): stop_machine\n", mode);
	else if (ret)
		pr_warn("ftrace: ftrace_patch=%s: no memory: stop_machine\n",
			mode);
}

static void patch_mode_show(struct seq_buf *s, long data)
{
	seq_printf(s, "%s\n", ftrace_patch_mode_name());
}

static int patch_mode_store(char *buf, struct file *file, long data)
{
	return ftrace_set_patch_mode(strim(buf));
}

void ftrace_patch_mode_create_file(void)
{
	create_simple(vfs_lookup(NULL, "/proc/sys/kernel"), "ftrace_patch_mode",
		      patch_mode_show, patch_mode_store, 0);
}

/*
 * A step writes with preemption off: the text alias (patch.c) is
 * mapped in this CPU's TLB only, so the task must not move to another
 * CPU until ftrace_live_step_end has unmapped it.
 */
void ftrace_live_step_begin(void)
{
	if (!ftrace_patch_live())
		return;
	preempt_disable();
	live_steps++;
	nr_step_writes = 0;
	step_open = true;
}

/*
 * The arch's ftrace_modify_code, in live mode: the word at ip goes
 * through path[0..len-1] (arch/riscv/kernel/ftrace.c, live_path, says
 * why it may take more than one store). The first store is made now, each next one at the step's
 * end, after every hart has fenced the one before. Outside a step (a
 * selftest writing a site no hart calls) the new word is stored at once.
 */
int ftrace_live_write(unsigned long ip, const u32 *path, unsigned int len)
{
	struct live_write *w;

	if (!step_open)
		return patch_insn32((void *)ip, path[len - 1]);
	if (WARN_ON(nr_step_writes >= STEP_MAX_WRITES ||
		    len > FTRACE_LIVE_PATH_MAX))
		return -ENOSPC;
	w = &step_writes[nr_step_writes++];
	w->ip = ip;
	w->len = len;
	memcpy(w->path, path, len * sizeof(*path));
	return patch_insn32((void *)ip, path[0]);
}

/*
 * The words of the step's paths at index at, each once every hart has
 * fenced the one before it; false if there are none.
 */
static bool store_path_words(unsigned int at)
{
	struct live_write *w;
	bool any = false;

	check_text_fenced(~0UL, text_gen_read());
	for (w = step_writes; w < step_writes + nr_step_writes; w++) {
		if (at < w->len) {
			patch_insn32((void *)w->ip, w->path[at]);
			any = true;
		}
	}
	return any;
}

void ftrace_live_step_end(void)
{
	unsigned int at = 1;
	unsigned long i;

	if (!ftrace_patch_live())
		return;
	do
		text_fence_all_harts();
	while (at < FTRACE_LIVE_PATH_MAX && store_path_words(at++));
	step_open = false;
	check_text_fenced(~0UL, text_gen_read());
	for (i = 0; i < nr_step_writes; i++)
		patch_insn32((void *)step_writes[i].ip,
			     riscv_insn_read(step_writes[i].ip));
	patch_unmap();
	preempt_enable();
}
