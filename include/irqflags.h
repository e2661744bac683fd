/*
 * irqflags.h: masking interrupts, with the hooks of the irqsoff tracers
 * (Linux's include/linux/irqflags.h; the hooks are
 * kernel/trace_preemptirq.c). Each form costs one instruction more
 * than its raw_ twin (asm/csr.h) while no latency tracer runs: the
 * c.nop of a static key. Turned on, a hook runs only where interrupts
 * really change state: trace_hardirqs_off after an on -> off mask,
 * trace_hardirqs_on before an off -> on unmask.
 */
#ifndef _IRQFLAGS_H
#define _IRQFLAGS_H

#include "jump_label.h"

extern struct static_key trace_irqflags_key;
void trace_hardirqs_on(unsigned long ip);
void trace_hardirqs_off(unsigned long ip);

/*
 * A hook called through its thunk (arch/riscv/kernel/preemptirq_thunk.S),
 * which saves what a call would clobber: only t0 changes here. ip, the
 * hook's argument, is the address after this call.
 */
#ifndef HOST_TEST
#define preemptirq_call(thunk)						\
	__asm__ __volatile__("call t0, " #thunk ::: "t0", "memory")
#else
/* Host tests include this through smp.h; clang checks asm clobbers. */
#define preemptirq_call(thunk)	do { } while (0)
#endif

/*
 * What a latency tracer does at each change (trace/trace_irqsoff.c
 * registers them): ip is where the state changed.
 */
struct preemptirq_hooks {
	void (*hardirqs_off)(unsigned long ip);
	void (*hardirqs_on)(unsigned long ip);
	void (*preempt_off)(unsigned long ip);
	void (*preempt_on)(unsigned long ip);
};

void preemptirq_register_hooks(const struct preemptirq_hooks *h);

static __always_inline unsigned long local_irq_save(void)
{
	unsigned long flags = raw_local_irq_save();

	if (static_branch_unlikely(&trace_irqflags_key) && flags)
		preemptirq_call(trace_hardirqs_off_thunk);
	return flags;
}

static __always_inline void local_irq_disable(void)
{
	local_irq_save();
}

static __always_inline void local_irq_restore(unsigned long flags)
{
	if (static_branch_unlikely(&trace_irqflags_key) && flags &&
	    !local_save_flags())
		preemptirq_call(trace_hardirqs_on_thunk);
	raw_local_irq_restore(flags);
}

static __always_inline void local_irq_enable(void)
{
	local_irq_restore(SSTATUS_SIE);
}

#endif
