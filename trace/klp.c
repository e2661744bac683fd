/*
 * klp.c: live patching on ftrace (Linux's ftrace-uses.rst and
 * kernel/livepatch/patch.c). A patch is an ftrace_ops with IPMODIFY
 * and SAVE_REGS, filtered on the old function: its handler, klp_ftrace_handler,
 * rewrites the saved pc, so the trampoline returns into the new
 * function instead of the old one's body. The ops is PERMANENT too: as
 * in Linux, tracing cannot be switched off (ftrace_enabled 0) under a
 * patch, which would quietly bring the bug back.
 *
 * Simpler than Linux: one function per patch; no klp_ops shared by the
 * patches of one function (each patch has its own ops, so a second
 * patch of a function meets ftrace's one-IPMODIFY-owner rule and gets
 * -EBUSY); no per-task transition, since the demo's functions keep no
 * state that a task could see change under it.
 *
 * Why a call runs the old function or the new one, never a mix of the
 * two: the choice is made once per call, at the old function's first
 * instruction, before any instruction of either body runs.
 *
 *   disabled:  old: nop                          -> old body runs
 *   enabled:   old: jal t0, ftrace_regs_caller   -> klp_ftrace_handler
 *                   sets regs->epc = new, and the trampoline returns
 *                   there with ra, sp and a0-a7 as the caller left them
 *
 * Enabling and disabling change that one aligned 4-byte instruction.
 * Under stop_machine every other CPU waits with interrupts off
 * meanwhile, outside any trampoline (they run with preemption off), and
 * one store does it. In live mode (trace/ftrace_live.c) they run on,
 * and the word changes a halfword at a time, through a nop, so that a
 * CPU fetching it in two halves runs the old word, a nop or the new
 * one, never a torn jal. Either way each executes
 * fence.i before the update goes on, and a call that began before the
 * switch finishes in the body it began in. The update's stop_machine
 * round, or its closing synchronize_rcu, also waits out any CPU inside
 * the handler (none can stop there, preemption being off): once
 * klp_disable_patch returns, no CPU is about to jump to the new
 * function, and the ops can be freed.
 */
#include "kernel.h"
#include "mm.h"
#include "kallsyms.h"
#include "ftrace.h"
#include "livepatch.h"
#include "asm/ptrace.h"

#define KLP_OPS_FLAGS	(FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY | \
			 FTRACE_OPS_FL_PERMANENT)

struct klp_patch {
	struct ftrace_ops fops;
	struct klp_func func;
};

/* Runs in the trampoline, preemption off, for calls of the old function. */
static void klp_ftrace_handler(unsigned long ip, unsigned long parent_ip,
			       struct ftrace_ops *fops,
			       struct ftrace_regs *fregs)
{
	struct klp_patch *patch = container_of(fops, struct klp_patch, fops);

	ftrace_get_regs(fregs)->epc = (unsigned long)patch->func.new_func;
}

/*
 * The old function's site, which must be its first instruction: with
 * -pg the site follows the prologue, and jumping from there into the
 * new function would run a prologue twice (Linux offers livepatch only
 * where sites come before the prologue, for the same reason).
 */
static unsigned long klp_site(const char *old_name)
{
	unsigned long addr = kallsyms_lookup_name(old_name);

	return addr && ftrace_location(addr) == addr ? addr : 0;
}

struct klp_patch *klp_enable_patch(const char *name,
				   const struct klp_func *func)
{
	unsigned long site = klp_site(func->old_name);
	struct klp_patch *patch;
	int err;

	if (!site)
		return ERR_PTR(-EINVAL);
	patch = kzalloc(sizeof(*patch));
	if (!patch)
		return ERR_PTR(-ENOMEM);
	patch->func = *func;
	patch->fops.func = klp_ftrace_handler;
	patch->fops.flags = KLP_OPS_FLAGS;
	patch->fops.name = name;
	err = ftrace_set_filter_ip(&patch->fops, site, 0, 1);
	if (!err)
		err = register_ftrace_function(&patch->fops);
	if (err) {
		ftrace_free_ops_hashes(&patch->fops);
		kfree(patch);
		return ERR_PTR(err);
	}
	return patch;
}

int klp_disable_patch(struct klp_patch *patch)
{
	int err = unregister_ftrace_function(&patch->fops);

	if (err)
		return err;
	ftrace_free_ops_hashes(&patch->fops);
	kfree(patch);
	return 0;
}
