/*
 * plic.c: the platform-level interrupt controller. Every device
 * interrupt goes to CPU 0's supervisor context; on QEMU virt the
 * S-mode context of hart h is 2h + 1.
 */
#include "kernel.h"
#include "irq.h"
#include "smp.h"

#define PLIC_PRIORITY(i)	(4 * (i))
#define PLIC_ENABLE(ctx)	(0x2000 + 0x80 * (ctx))
#define PLIC_THRESHOLD(ctx)	(0x200000 + 0x1000 * (ctx))
#define PLIC_CLAIM(ctx)		(0x200004 + 0x1000 * (ctx))
#define MAX_IRQ			64

static unsigned long plic;
static void (*handlers[MAX_IRQ])(void);

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

void plic_enable(u32 irq, void (*handler)(void))
{
	if (irq >= MAX_IRQ)
		return;
	handlers[irq] = handler;
	*reg(PLIC_PRIORITY(irq)) = 1;
	*reg(PLIC_ENABLE(context()) + 4 * (irq / 32)) |= 1U << (irq % 32);
}

void plic_handle_irq(void)
{
	u32 irq;

	while ((irq = *reg(PLIC_CLAIM(context())))) {
		if (irq < MAX_IRQ && handlers[irq])
			handlers[irq]();
		*reg(PLIC_CLAIM(context())) = irq;
	}
}
