/*
 * patch.h: writing instructions into read-only kernel text
 * (arch/riscv/kernel/patch.c).
 */
#ifndef _PATCH_H
#define _PATCH_H

#include "kernel.h"
#include "spinlock.h"
#include "smp.h"

extern struct mutex text_mutex;

/*
 * The patch mode of ftrace's sites and of static keys' sites alike:
 * stop_machine (false), or live, where the other harts run on while a
 * site changes (trace/ftrace_live.c sets it, kernel/jump_label.c reads).
 */
extern bool text_patch_live;

static inline bool text_patch_live_mode(void)
{
	return READ_ONCE(text_patch_live);
}

/*
 * The fence.i account, checked as lockdep checks locking: QEMU drops
 * its translations on any store to code, so a missing fence.i changes
 * nothing a test could see run, and only this can tell. text_gen counts
 * the stores that changed kernel text; each CPU notes the count it last
 * executed fence.i at (after reading it: every store counted so far is
 * then fetched anew). Where a patch is over, check_text_fenced() wants
 * the CPUs that will run on to have fenced at least at the count of its
 * last store; text_unfenced counts those that had not.
 */
extern u64 text_gen;
extern unsigned long text_unfenced;

static inline u64 text_gen_read(void)
{
	return __atomic_load_n(&text_gen, __ATOMIC_ACQUIRE);
}

static inline void local_flush_icache(void)
{
	u64 gen = text_gen_read();

	__asm__ __volatile__("fence.i" ::: "memory");
	WRITE_ONCE(this_cpu()->fenced_text_gen, gen);
}

void icache_fenced_harts(unsigned long hart_mask, u64 gen);
void check_text_fenced(unsigned long cpumask, u64 gen);

int patch_insn32(void *addr, u32 insn);
int patch_insn16(void *addr, u16 insn);
int patch_text_literal(void *addr, unsigned long val);
int patch_insn32_after_literal(void *addr, u32 insn, unsigned long val);
void text_fence_all_harts(void);
int patch_insn_write(void *addr, const void *insns, size_t len);
void patch_unmap(void);
void flush_icache_all(void);

#endif
