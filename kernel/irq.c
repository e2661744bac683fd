/*
 * irq.c: do_irq, where every interrupt is handled once the trap vector
 * (arch/riscv/kernel/trap.c) has saved the registers. Unlike the trap
 * code it is traced, and it sits in .irqentry.text (Linux's __irq_entry),
 * so a function_graph trace frames each interrupt with ==========> and
 * <========== and funcgraph-irqs can hide it.
 */
#include "kernel.h"
#include "irq.h"
#include "sched.h"
#include "smp.h"
#include "time.h"
#include "asm/csr.h"

/* The hardirq count goes up inside: do_irq itself is the task's call. */
__irq_entry void do_irq(unsigned long irq)
{
	current->preempt_count += HARDIRQ_OFFSET;
	this_cpu()->irqs++;
	if (irq == IRQ_S_TIMER) {
		timer_arm_next_tick();
		scheduler_tick();
	} else if (irq == IRQ_S_SOFT) {
		csr_clear(sip, SIE_SSIE);
		handle_ipi();
	} else if (irq == IRQ_S_EXT) {
		plic_handle_irq();
	}
	current->preempt_count -= HARDIRQ_OFFSET;
}
