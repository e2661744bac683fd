/*
 * plic.c: the platform-level interrupt controller. Every device
 * interrupt goes to CPU 0's supervisor context; on QEMU virt the
 * S-mode context of hart h is 2h + 1. Each source's handler name and
 * per-CPU count are kept for /proc/interrupts.
 */
#include "kernel.h"
#include "irq.h"
#include "smp.h"

#define PLIC_PRIORITY(i)	(4 * (i))
#define PLIC_ENABLE(ctx)	(0x2000 + 0x80 * (ctx))
#define PLIC_THRESHOLD(ctx)	(0x200000 + 0x1000 * (ctx))
#define PLIC_CLAIM(ctx)		(0x200004 + 0x1000 * (ctx))

static unsigned long plic;
static void (*handlers[PLIC_MAX_IRQ])(void);
static const char *names[PLIC_MAX_IRQ];
static unsigned int counts[NR_CPUS][PLIC_MAX_IRQ];

static volatile u32 *reg(unsigned long off)
{
	return (volatile u32 *)(plic + off);
}

static int context(void)
{
	return 2 * this_cpu()->hartid + 1;
}

void plic_init(unsigned long base)
{
	plic = base;
}

void plic_init_hart(void)
{
	*reg(PLIC_THRESHOLD(context())) = 0;
}

void plic_enable(u32 irq, void (*handler)(void), const char *name)
{
	if (irq >= PLIC_MAX_IRQ)
		return;
	handlers[irq] = handler;
	names[irq] = name;
	*reg(PLIC_PRIORITY(irq)) = 1;
	*reg(PLIC_ENABLE(context()) + 4 * (irq / 32)) |= 1U << (irq % 32);
}

void plic_handle_irq(void)
{
	u32 irq;

	while ((irq = *reg(PLIC_CLAIM(context())))) {
		if (irq < PLIC_MAX_IRQ && handlers[irq]) {
			counts[this_cpu()->id][irq]++;
			handlers[irq]();
		}
		*reg(PLIC_CLAIM(context())) = irq;
	}
}

const char *plic_irq_name(u32 irq)
{
	return irq < PLIC_MAX_IRQ ? names[irq] : NULL;
}

unsigned int plic_irq_count(u32 irq, int cpu)
{
	return irq < PLIC_MAX_IRQ ? READ_ONCE(counts[cpu][irq]) : 0;
}
