/*
 * trace_preemptirq.c: where masking interrupts and disabling preemption
 * meet the latency tracers (Linux's kernel/trace/trace_preemptirq.c).
 * include/irqflags.h and include/sched.h call these hooks through
 * static keys, so while no latency tracer runs each hook site is a
 * c.nop. The tracers live in trace/ and register here
 * (preemptirq_register_hooks); a hook that runs inside a hook (the
 * tracer takes a lock, which disables preemption) returns at once.
 * Never traced (Makefile NOTRACE): it runs on every state change.
 */
#include "kernel.h"
#include "sched.h"
#include "smp.h"

struct static_key trace_irqflags_key = STATIC_KEY_INIT_FALSE;
struct static_key trace_preempt_key = STATIC_KEY_INIT_FALSE;

static const struct preemptirq_hooks *hooks;
static int in_hook[NR_CPUS];

void preemptirq_register_hooks(const struct preemptirq_hooks *h)
{
	WRITE_ONCE(hooks, h);
}

/* Interrupts or preemption are off, so the CPU stays until hook_exit. */
static __always_inline const struct preemptirq_hooks *hook_enter(void)
{
	const struct preemptirq_hooks *h = READ_ONCE(hooks);
	int cpu = smp_processor_id();

	if (!h || in_hook[cpu])
		return NULL;
	in_hook[cpu] = 1;
	return h;
}

static __always_inline void hook_exit(void)
{
	in_hook[smp_processor_id()] = 0;
}

/*
 * Called through the thunks of arch/riscv/kernel/preemptirq_thunk.S:
 * ip lies in the function that called the inline masking interrupts or
 * preemption, where the state changed.
 */
void trace_hardirqs_off(unsigned long ip)
{
	const struct preemptirq_hooks *h = hook_enter();

	if (h) {
		h->hardirqs_off(ip);
		hook_exit();
	}
}

void trace_hardirqs_on(unsigned long ip)
{
	const struct preemptirq_hooks *h = hook_enter();

	if (h) {
		h->hardirqs_on(ip);
		hook_exit();
	}
}

void trace_preempt_off(unsigned long ip)
{
	const struct preemptirq_hooks *h = hook_enter();

	if (h) {
		h->preempt_off(ip);
		hook_exit();
	}
}

void trace_preempt_on(unsigned long ip)
{
	const struct preemptirq_hooks *h = hook_enter();

	if (h) {
		h->preempt_on(ip);
		hook_exit();
	}
}
