/*
 * irq.h: trap setup (arch/riscv/kernel/trap.c), the interrupt handler
 * (kernel/irq.c) and the PLIC (arch/riscv/kernel/plic.c), which routes
 * device interrupts.
 */
#ifndef _IRQ_H
#define _IRQ_H

#include "kernel.h"

/*
 * Linux's __irq_entry: the functions where interrupt handling starts
 * go to .irqentry.text, so function_graph can tell where an interrupt
 * begins and ends.
 */
#define __irq_entry	__section(".irqentry.text")

extern char __irqentry_text_start[], __irqentry_text_end[];

static inline bool in_irqentry_text(unsigned long addr)
{
	return addr >= (unsigned long)__irqentry_text_start &&
	       addr < (unsigned long)__irqentry_text_end;
}

void do_irq(unsigned long irq);

void trap_init(void);
void plic_init(unsigned long base);
void plic_init_hart(void);
#define PLIC_MAX_IRQ	64

/* name is the handler's, as /proc/interrupts shows it ("ttyS0"). */
void plic_enable(u32 irq, void (*handler)(void), const char *name);
void plic_handle_irq(void);
/* A source's handler name (NULL: not enabled), its count on a CPU. */
const char *plic_irq_name(u32 irq);
unsigned int plic_irq_count(u32 irq, int cpu);

#endif
