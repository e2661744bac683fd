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
#include "trace/events/irq.h"
#include "trace/events/timer.h"

/* What handles each interrupt, as irq_handler_entry names it. */
static const char *irq_name(unsigned long irq)
{
	switch (irq) {
	case IRQ_S_TIMER:
		return "riscv-timer";
	case IRQ_S_SOFT:
		return "ipi";
	default:
		return "plic";
	}
}

/* The tick, which Linux runs as the hrtimer tick_sched_timer. */
static void tick_handle(struct cpu *c)
{
	trace_hrtimer_expire_entry(c, ktime_get_ns(), scheduler_tick);
	timer_arm_next_tick();
	scheduler_tick();
	trace_hrtimer_expire_exit(c);
}

/* The hardirq count goes up inside: do_irq itself is the task's call. */
__irq_entry void do_irq(unsigned long irq)
{
	current->preempt_count += HARDIRQ_OFFSET;
	this_cpu()->irqs++;
	trace_irq_handler_entry(irq, irq_name(irq));
	if (irq == IRQ_S_TIMER) {
		tick_handle(this_cpu());
	} else if (irq == IRQ_S_SOFT) {
		csr_clear(sip, SIE_SSIE);
		handle_ipi();
	} else if (irq == IRQ_S_EXT) {
		plic_handle_irq();
	}
	trace_irq_handler_exit(irq, 1);
	current->preempt_count -= HARDIRQ_OFFSET;
}
