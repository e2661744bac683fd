/*
 * livepatch.h: replacing a function while the kernel runs
 * (trace/klp.c), on ftrace as Linux's kernel/livepatch does, and the
 * demo pair it patches (kernel/demo/klp_demo.c). docs/livepatch.md tells
 * the story.
 */
#ifndef _LIVEPATCH_H
#define _LIVEPATCH_H

#include "kernel.h"

/* A function and the one that replaces it (Linux's struct klp_func). */
struct klp_func {
	const char *old_name;
	void *new_func;
};

/* An enabled patch: what klp_enable_patch returns. */
struct klp_patch;

/*
 * Send every call of func->old_name to func->new_func. Returns the
 * patch, or an ERR_PTR: -EINVAL if old_name has no ftrace site at its
 * first instruction, -EBUSY if another IPMODIFY ops owns the function
 * or ftrace_enabled is 0, -ENOMEM.
 */
struct klp_patch *klp_enable_patch(const char *name,
				   const struct klp_func *func);
/* Undo it; when this returns no CPU runs the handler, and patch is freed. */
int klp_disable_patch(struct klp_patch *patch);

/* The demo (kernel/demo/klp_demo.c): 1..n summed, with and without a bug. */
long klp_demo_buggy_sum(long n);
long klp_demo_fixed_sum(long n);

#endif
