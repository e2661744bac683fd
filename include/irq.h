/*
 * irq.h: trap setup (arch/riscv/kernel/trap.c) and the PLIC
 * (arch/riscv/kernel/plic.c), which routes device interrupts.
 */
#ifndef _IRQ_H
#define _IRQ_H

#include "types.h"

void trap_init(void);
void plic_init(unsigned long base);
void plic_init_hart(void);
void plic_enable(u32 irq, void (*handler)(void));
void plic_handle_irq(void);

#endif
