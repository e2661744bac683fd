/*
 * init.h: what start_kernel runs once memory, traps and the console are
 * up (kernel/init.c), as tables the rooms above the core fill in, so
 * the core never names them (Linux's include/linux/init.h initcalls):
 *
 *   early_initcall(fn)  on the boot CPU alone, before the others start
 *                       (Linux's do_pre_smp_initcalls): vfs_init,
 *                       ftrace_init
 *   late_initcall(fn)   once every CPU is online and each has its
 *                       stopper, before the first thread: trace_init
 *
 * Within a table the calls run in link order. BOOT_PROGRAM names what
 * the first thread runs: the one the command line names (`-append
 * selftest`), else the shell, "sh".
 */
#ifndef _INIT_H
#define _INIT_H

#include "kernel.h"

typedef void (*initcall_t)(void);

#define __define_initcall(fn, table)					\
	static const initcall_t __initcall_##fn				\
		__section(".initcall_" #table) __used __aligned(8) = fn

#define early_initcall(fn)	__define_initcall(fn, early)
#define late_initcall(fn)	__define_initcall(fn, late)

struct boot_program {
	const char *name;
	void (*fn)(void *arg);
};

#define BOOT_PROGRAM(pname, pfn)					\
	static const struct boot_program __boot_program_##pfn		\
		__section(".boot_programs") __used __aligned(8) = {	\
		pname, pfn }

void early_initcalls(void);
void late_initcalls(void);
__noreturn void cpu_idle(void);
extern u64 boot_instret, kernel_start_instret;

#endif
