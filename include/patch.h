/*
 * patch.h: writing instructions into read-only kernel text
 * (arch/riscv/kernel/patch.c).
 */
#ifndef _PATCH_H
#define _PATCH_H

#include "kernel.h"
#include "spinlock.h"

extern struct mutex text_mutex;

int patch_insn32(void *addr, u32 insn);
int patch_insn_write(void *addr, const void *insns, size_t len);
void patch_unmap(void);
void flush_icache_all(void);

#endif
