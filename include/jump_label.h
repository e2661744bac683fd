/*
 * jump_label.h: static keys (Linux's include/linux/jump_label.h). A
 * branch on a key is one instruction at its site, patched when the key
 * changes, instead of a load and a compare of a flag:
 *
 *   key off:   c.nop                 1 instruction, falls through
 *   key on:    c.j   <the branch>    2 bytes, reaches +-2 KiB
 *
 * A site is 2 bytes, so it is never torn: a hart fetches the whole old
 * or the whole new halfword (arch/riscv/kernel/jump_label.c writes it,
 * kernel/jump_label.c says when). The compiler puts the branch out of
 * line, near its function's end; a branch out of c.j's reach is found
 * at boot and its key refused (jump_label_init).
 */
#ifndef _JUMP_LABEL_H
#define _JUMP_LABEL_H

#include "kernel.h"

struct static_key {
	int enabled;			/* how many want it on */
};

#define STATIC_KEY_INIT_FALSE	{ .enabled = 0 }

/* One site, in the __jump_table section (rodata). */
struct jump_entry {
	unsigned long code;		/* the c.nop */
	unsigned long target;		/* where c.j goes */
	struct static_key *key;
};

/*
 * asm goto: the c.nop and its table entry; GCC lays out the label's
 * code where it sees fit. .option rvc makes the nop compressed.
 */
static __always_inline bool arch_static_branch(struct static_key *key)
{
	__asm__ goto(
		"	.option push\n"
		"	.option rvc\n"
		"1:	c.nop\n"
		"	.option pop\n"
		"	.pushsection __jump_table, \"a\"\n"
		"	.balign 8\n"
		"	.dword 1b, %l[l_yes], %0\n"
		"	.popsection\n"
		: : "i"(key) : : l_yes);
	return false;
l_yes:
	return true;
}

#define static_branch_unlikely(key)	unlikely(arch_static_branch(key))

static inline bool static_key_enabled(const struct static_key *key)
{
	return READ_ONCE(key->enabled) > 0;
}

void static_key_slow_inc(struct static_key *key);
void static_key_slow_dec(struct static_key *key);
int static_key_usable(const struct static_key *key);
const struct jump_entry *jump_label_find(const struct static_key *key,
					 const struct jump_entry *from);
void jump_label_init(void);

/* The arch half (arch/riscv/kernel/jump_label.c). */
int arch_jump_label_check(const struct jump_entry *e);
int arch_jump_label_transform(const struct jump_entry *e, bool enable);

#endif
