/*
 * patch.h: writing instructions into read-only kernel text
 * (arch/riscv/kernel/patch.c).
 */
#ifndef _PATCH_H
#define _PATCH_H

#include "kernel.h"
#include "spinlock.h"
#include "smp.h"
#include "mm.h"
#include "asm/csr.h"

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
void text_fence_all_harts(void);
int patch_insn_write(void *addr, const void *insns, size_t len);
void patch_unmap(void);
void flush_icache_all(void);

/*
 * A batch of ftrace sites written in address order on one CPU (as
 * Linux's text_poke_queue and text_poke_finish on x86): each page of
 * text is mapped once for all its sites, each site is checked to hold
 * the old instruction, and the batch counts as one text change (if it
 * mapped a page: a count too many only asks for a fence.i more).
 */
struct text_poke_batch {
	unsigned long page;	/* the text page alias shows, or ~0UL */
	char *alias;		/* its writable alias (slot 1) */
};

#define TEXT_POKE_BATCH_INIT	{ .page = ~0UL }

char *text_poke_map(struct text_poke_batch *b, unsigned long addr);
void text_poke_finish(struct text_poke_batch *b);

/*
 * A site holding old gets the 8-byte literal just before it, a fence,
 * then insn, so a hart that runs insn loads the new literal. addr is
 * 8-aligned, with its literal in its own page (not at its first 8
 * bytes). Inline: a site on the page already mapped needs no call.
 */
static __always_inline int text_poke_site(struct text_poke_batch *b,
					  unsigned long addr, u32 old,
					  u32 insn, unsigned long literal)
{
	unsigned long page = addr & ~(PAGE_SIZE - 1);
	char *alias = b->alias;

	if (unlikely(page != b->page)) {
		alias = text_poke_map(b, addr);
		if (!alias)
			return -EINVAL;
	}
	if (READ_ONCE(*(u32 *)addr) != old)
		return -EINVAL;
	alias += addr - page;
	WRITE_ONCE(*(unsigned long *)(alias - 8), literal);
	wmb();
	WRITE_ONCE(*(u32 *)alias, insn);
	return 0;
}

#endif
