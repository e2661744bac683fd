/*
 * irqs_selftest.c: the busy loop of the selftests that check a tracer
 * loses no interrupt (trace_functions_test.c, ftrace_profile_test.c,
 * trace_functions_graph_test.c). It calls ftrace_test_target1, which
 * those tests trace too, so interrupts land inside the tracer's
 * callbacks as well as between them, and counts what came meanwhile.
 */
#include "kernel.h"
#include "selftest.h"
#include "sched.h"
#include "smp.h"
#include "trace_fixtures.h"
#include "asm/csr.h"

/* This CPU's interrupts and count(cpu), both at one instant. */
static void irq_snapshot(unsigned long (*count)(int cpu), u64 *irqs,
			 unsigned long *counted)
{
	unsigned long flags = local_irq_save();

	*irqs = this_cpu()->irqs;
	*counted = count(smp_processor_id());
	local_irq_restore(flags);
}

void selftest_busy_until_irqs(unsigned long nr_irqs,
			      unsigned long (*count)(int cpu),
			      struct irq_window *w)
{
	unsigned long counted0, counted1, calls = 0;
	u64 irqs0, irqs1;

	/* Stay on this CPU: its interrupts and its count go together. */
	preempt_disable();
	irq_snapshot(count, &irqs0, &counted0);
	do
		ftrace_test_target1(calls++);
	while (READ_ONCE(this_cpu()->irqs) - irqs0 < nr_irqs);
	irq_snapshot(count, &irqs1, &counted1);
	preempt_enable();
	w->irqs = irqs1 - irqs0;
	w->counted = counted1 - counted0;
	w->calls = calls;
}
