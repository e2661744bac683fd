/*
 * jump_label.c: static keys (Linux's kernel/jump_label.c). A key's
 * count goes up and down; when it leaves or reaches 0, every site that
 * branches on it changes, with the same guarantees as ftrace's sites:
 *
 *  - stop_machine (the default): every other hart spins with
 *    interrupts off while this one writes, and each fences on leaving;
 *  - live (text_patch_live, `ftrace_patch=live`): the others run on.
 *    A site is one halfword, so one store changes it whole; then every
 *    hart fences (text_fence_all_harts) and the store is made once
 *    more, unchanged, for QEMU (trace/ftrace_live.c says why), as a
 *    live ftrace step ends.
 *
 * The arch half checks the halfword it replaces before writing it.
 */
#include "kernel.h"
#include "jump_label.h"
#include "init.h"
#include "patch.h"
#include "printk.h"
#include "sched.h"
#include "stop_machine.h"

extern const struct jump_entry __start___jump_table[], __stop___jump_table[];

/* Keys with a site c.j cannot reach: never turned on. */
static const struct static_key *broken_keys[4];
static unsigned int nr_broken_keys;

const struct jump_entry *jump_label_find(const struct static_key *key,
					 const struct jump_entry *from)
{
	const struct jump_entry *e = from ? from + 1 : __start___jump_table;

	for (; e < __stop___jump_table; e++)
		if (e->key == key)
			return e;
	return NULL;
}

/* 0, or -ERANGE for a key one of whose sites cannot be patched. */
int static_key_usable(const struct static_key *key)
{
	unsigned int i;

	for (i = 0; i < nr_broken_keys; i++)
		if (broken_keys[i] == key)
			return -ERANGE;
	return 0;
}

static int jump_label_patch(struct static_key *key, bool enable)
{
	const struct jump_entry *e = NULL;
	int ret = 0;

	while (!ret && (e = jump_label_find(key, e)))
		ret = arch_jump_label_transform(e, enable);
	return ret;
}

struct jump_label_update {
	struct static_key *key;
	bool enable;
};

static int jump_label_stopped(void *data)
{
	struct jump_label_update *u = data;

	return jump_label_patch(u->key, u->enable);
}

/* Live: the stores are made; every hart fetches them, then QEMU too. */
static void jump_label_live_sync(struct static_key *key)
{
	const struct jump_entry *e = NULL;

	text_fence_all_harts();
	check_text_fenced(~0UL, text_gen_read());
	while ((e = jump_label_find(key, e)))
		patch_insn16((void *)e->code, *(u16 *)e->code);
}

static void jump_label_update(struct static_key *key, bool enable)
{
	struct jump_label_update u = { key, enable };
	int ret;

	mutex_lock(&text_mutex);
	if (text_patch_live_mode()) {
		preempt_disable();
		ret = jump_label_patch(key, enable);
		jump_label_live_sync(key);
		patch_unmap();
		preempt_enable();
	} else {
		ret = stop_machine(jump_label_stopped, &u);
		patch_unmap();
	}
	mutex_unlock(&text_mutex);
	WARN_ON(ret);
}

/* Callers serialize (the tracepoint's mutex). */
void static_key_slow_inc(struct static_key *key)
{
	if (key->enabled++ == 0)
		jump_label_update(key, true);
}

void static_key_slow_dec(struct static_key *key)
{
	if (WARN_ON(key->enabled <= 0))
		return;
	if (--key->enabled == 0)
		jump_label_update(key, false);
}

/* Every site must hold its c.nop, and c.j must reach its target. */
void jump_label_init(void)
{
	const struct jump_entry *e;

	for (e = __start___jump_table; e < __stop___jump_table; e++) {
		if (!arch_jump_label_check(e) || static_key_usable(e->key))
			continue;
		pr_err("jump_label: site %pS cannot branch to %pS: key off\n",
		       (void *)e->code, (void *)e->target);
		if (nr_broken_keys < ARRAY_SIZE(broken_keys))
			broken_keys[nr_broken_keys++] = e->key;
	}
}
early_initcall(jump_label_init);
