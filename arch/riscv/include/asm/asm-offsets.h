/*
 * asm-offsets.h: struct offsets the assembly needs (the trampolines
 * touch the per-CPU area through tp and the current task's
 * preempt_count). kernel/sched.c checks each with _Static_assert.
 */
#ifndef _ASM_OFFSETS_H
#define _ASM_OFFSETS_H

#define CPU_CURR		0
#define CPU_NEED_RESCHED	16
#define TASK_PREEMPT_COUNT	112

#endif
