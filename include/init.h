/*
 * init.h: the init calls start_kernel makes once memory, traps and the
 * console are up (early, on the boot CPU alone) and once every CPU is
 * online (late). Defined in kernel/init.c.
 */
#ifndef _INIT_H
#define _INIT_H

#include "types.h"

void early_initcalls(void);
void late_initcalls(void);
__noreturn void cpu_idle(void);
extern u64 boot_instret, kernel_start_instret;

#endif
