/*
 * trace_irqsoff.c: the irqsoff, preemptoff and preemptirqsoff tracers
 * (Linux's kernel/trace/trace_irqsoff.c). They time each stretch of
 * code that runs with interrupts masked, preemption disabled, or
 * either, on each CPU: the hooks of include/irqflags.h and
 * include/sched.h (kernel/trace_preemptirq.c) call them where the
 * state changes. While a section is open its CPU's traced functions are
 * recorded, as Linux's function tracing under irqsoff does; a section
 * longer than tracing_max_latency (or, when set, at least
 * tracing_thresh) becomes the max trace: that CPU's pages swap into
 * max_buffer (update_max_tr_irqsoff), which `trace` then shows in the
 * latency format.
 *
 * With the display-graph option the calls are recorded instead through
 * graph ops, as entries and returns (Linux's irqsoff_graph_entry and
 * irqsoff_graph_return), and `trace` draws them as function_graph's
 * call tree in its latency form; the section's start and end become
 * calls of no duration (trace_graph_function) and its stack stays a
 * stack event. Setting the option while the tracer runs swaps one
 * registration for the other (irqsoff_flag_changed); the pieces the
 * wakeup tracers share are in trace_latency_graph.c.
 *
 * Any trace array may run one of them (Linux's allow_instances), with
 * its own tracing_max_latency and max_buffer; but one array at a time,
 * since the hooks and the per-CPU sections are shared: another array
 * that asks meanwhile gets EBUSY (Linux's irqsoff_busy).
 *
 * A section's length is the difference of two readings of the trace
 * clock, the buffer's own (`local`, the time CSR, by default).
 * Interrupt handlers run with interrupts masked by the trap itself,
 * which no hook sees: unlike Linux, their time is not an irqs-off
 * section, and the idle loop's wait is not either.
 */
#include "kernel.h"
#include "string.h"
#include "jump_label.h"
#include "fgraph.h"
#include "trace.h"

#define TRACER_IRQS_OFF		0x1
#define TRACER_PREEMPT_OFF	0x2

/* The open section of each CPU (Linux's per-CPU tracing_cpu and data). */
struct irqsoff_cpu {
	bool tracing;
	u64 start;			/* trace clock units */
	unsigned long critical_start;
};

static struct irqsoff_cpu irqsoff_cpus[NR_CPUS];
static struct trace_array *irqsoff_trace;
static int trace_type;
static bool tracer_enabled;
static bool irqsoff_busy;		/* under trace_types_lock */
static bool save_lat_flag;
static bool irqsoff_graph;		/* graph ops registered, not tr->ops */

static u64 irqsoff_clock(struct trace_array *tr)
{
	return trace_clock_func(tr->clock_id)();
}

/* A section's length: ns for the clocks that count time, else counts. */
static unsigned long section_length(struct trace_array *tr, u64 start,
				    u64 end)
{
	return trace_clock_to_ns(tr, end) - trace_clock_to_ns(tr, start);
}

/*
 * Where a section begins or ends: a function event, or under
 * display-graph a call of no duration (Linux's __trace_function).
 */
static void irqsoff_function(struct trace_array *tr, unsigned long ip,
			     unsigned long parent_ip, u32 ctx)
{
	if (READ_ONCE(irqsoff_graph))
		trace_graph_function(tr, ip, ctx);
	else
		ring_buffer_write3(tr->buffer, ctx | TRACE_FN, ip, parent_ip);
}

/*
 * Interrupts or preemption off, on this CPU. Each call is a real
 * change from on (the hooks see to it), so a section still open here
 * is one whose end no hook saw (a task switch into a return from an
 * interrupt): it starts again.
 */
static void start_critical_timing(unsigned long ip)
{
	struct trace_array *tr = irqsoff_trace;
	struct irqsoff_cpu *d = &irqsoff_cpus[smp_processor_id()];

	if (!READ_ONCE(tracer_enabled) || !tracer_tracing_is_on(tr))
		return;
	d->start = irqsoff_clock(tr);
	d->critical_start = ip;
	irqsoff_function(tr, ip, ip, tracing_gen_ctx_dec(0));
	d->tracing = true;
}

/* A new maximum: record its end and its stack, and swap it in. */
static void check_critical_timing(struct trace_array *tr,
				  struct irqsoff_cpu *d, unsigned long ip,
				  unsigned long hook, u32 ctx)
{
	unsigned long delta = section_length(tr, d->start, irqsoff_clock(tr));
	struct trace_max_data data = {
		.time_start = d->start,
		.latency = delta,
		.critical_start = d->critical_start,
		.critical_end = ip,
		.cpu = smp_processor_id(),
	};
	unsigned long flags;

	if (!report_latency(tr, delta))
		return;
	flags = spin_lock_irqsave(&tr->max_lock);
	if (report_latency(tr, delta)) {
		irqsoff_function(tr, hook, ip, ctx);
		trace_stack_from(tr, ctx, ip, ip);
		trace_max_data_task(&data, current);
		if (!update_max_tr_irqsoff(tr, &data))
			WRITE_ONCE(tr->max_latency, delta);
	}
	spin_unlock_irqrestore(&tr->max_lock, flags);
}

static void stop_critical_timing(unsigned long ip, unsigned long hook)
{
	struct trace_array *tr = irqsoff_trace;
	struct irqsoff_cpu *d = &irqsoff_cpus[smp_processor_id()];
	u32 ctx;

	if (!d->tracing)
		return;
	d->tracing = false;
	if (!READ_ONCE(tracer_enabled) || !tracer_tracing_is_on(tr))
		return;
	ctx = tracing_gen_ctx_dec(0);
	irqsoff_function(tr, ip, ip, ctx);
	check_critical_timing(tr, d, ip, hook, ctx);
}

/* Does preemption, or do interrupts, hold a section open? */
static bool preempt_trace(void)
{
	return (trace_type & TRACER_PREEMPT_OFF) && current->preempt_count;
}

static bool irq_trace(void)
{
	return (trace_type & TRACER_IRQS_OFF) && irqs_disabled();
}

/*
 * The hooks, with Linux's names. Under preemptirqsoff a section lasts
 * while either holds, so each opens or closes it only when the other
 * does not hold (the hooks run after the state went off, before it
 * comes back on).
 */
static void tracer_hardirqs_off(unsigned long ip)
{
	if (irq_trace() && !preempt_trace())
		start_critical_timing(ip);
}

static void tracer_hardirqs_on(unsigned long ip)
{
	if (irq_trace() && !preempt_trace())
		stop_critical_timing(ip, (unsigned long)tracer_hardirqs_on);
}

static void tracer_preempt_off(unsigned long ip)
{
	if (preempt_trace() && !irq_trace())
		start_critical_timing(ip);
}

static void tracer_preempt_on(unsigned long ip)
{
	if (preempt_trace() && !irq_trace())
		stop_critical_timing(ip, (unsigned long)tracer_preempt_on);
}

static const struct preemptirq_hooks irqsoff_hooks = {
	.hardirqs_off = tracer_hardirqs_off,
	.hardirqs_on = tracer_hardirqs_on,
	.preempt_off = tracer_preempt_off,
	.preempt_on = tracer_preempt_on,
};

/*
 * Every traced function, recorded while its CPU has a section open
 * (Linux's irqsoff_tracer_call), unless the function-trace option is
 * off. Preemption is off (the trampoline).
 */
static void irqsoff_tracer_call(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op,
				struct ftrace_regs *fregs)
{
	struct trace_array *tr = op->private;

	if (!irqsoff_cpus[smp_processor_id()].tracing ||
	    !(READ_ONCE(tr->trace_flags) & TRACE_ITER_FUNCTION) ||
	    !ring_buffer_recording(tr->buffer))
		return;
	irqsoff_function(tr, ip, parent_ip, tracing_gen_ctx_dec(1));
}

/*
 * display-graph: a call inside a section, recorded as function_graph's
 * entry; 1 hooks its return. Preemption is off (the trampoline).
 */
static int irqsoff_graph_entry(struct ftrace_graph_ent *trace)
{
	struct trace_array *tr = irqsoff_trace;

	if (!irqsoff_cpus[smp_processor_id()].tracing ||
	    !(READ_ONCE(tr->trace_flags) & TRACE_ITER_FUNCTION) ||
	    !ring_buffer_recording(tr->buffer))
		return 0;
	return !ring_buffer_write3(tr->buffer,
				   tracing_gen_ctx_dec(1) | TRACE_GRAPH_ENT,
				   trace->func, trace->depth);
}

/*
 * Its return, while the section is still open; the duration is in the
 * trace clock's units. ftrace_return_to_handler raised preempt_count.
 */
static void irqsoff_graph_return(struct ftrace_graph_ret *trace)
{
	u64 duration = trace->rettime - trace->calltime;
	struct trace_array *tr = irqsoff_trace;

	if (!irqsoff_cpus[smp_processor_id()].tracing)
		return;
	ring_buffer_write5(tr->buffer, tracing_gen_ctx_dec(1) | TRACE_GRAPH_RET,
			   trace->func, trace->depth, (u32)duration,
			   duration >> 32);
}

static struct fgraph_ops irqsoff_graph_ops = {
	.entryfunc = irqsoff_graph_entry,
	.retfunc = irqsoff_graph_return,
};

/*
 * Under trace_types_lock: display-graph set or cleared while the
 * tracer runs (Linux's irqsoff_display_graph).
 */
static int irqsoff_flag_changed(struct trace_array *tr, unsigned int mask,
				int set)
{
	return latency_display_graph(tr, &irqsoff_graph_ops, &irqsoff_graph,
				     mask, set);
}

/* Under trace_types_lock. */
static int irqsoff_tracer_init(struct trace_array *tr, int type)
{
	int ret;

	if (irqsoff_busy)
		return -EBUSY;
	ret = tracing_alloc_snapshot_instance(tr);
	if (ret)
		return ret;
	irqsoff_trace = tr;
	memset(irqsoff_cpus, 0, sizeof(irqsoff_cpus));
	tr->max_latency = 0;
	/* As Linux's: the latency tracers print in the latency format. */
	save_lat_flag = tr->trace_flags & TRACE_ITER_LATENCY_FMT;
	tr->trace_flags |= TRACE_ITER_LATENCY_FMT;
	tr->ops.func = irqsoff_tracer_call;
	tr->ops.private = tr;
	tr->ops.name = "irqsoff";
	function_trace_update_fast_path(tr);
	irqsoff_graph = tr->trace_flags & TRACE_ITER_DISPLAY_GRAPH;
	ret = register_latency_function(tr, &irqsoff_graph_ops, irqsoff_graph);
	if (ret) {
		if (!save_lat_flag)
			tr->trace_flags &= ~TRACE_ITER_LATENCY_FMT;
		return ret;
	}
	trace_type = type;
	irqsoff_busy = true;
	preemptirq_register_hooks(&irqsoff_hooks);
	WRITE_ONCE(tracer_enabled, true);
	if (type & TRACER_IRQS_OFF)
		static_key_slow_inc(&trace_irqflags_key);
	if (type & TRACER_PREEMPT_OFF)
		static_key_slow_inc(&trace_preempt_key);
	return 0;
}

/*
 * Under trace_types_lock. Once the keys are off (under stop_machine)
 * no hook runs any more; the spare buffer goes as in Linux, after a
 * grace period (tracing_free_snapshot).
 */
static void irqsoff_tracer_reset(struct trace_array *tr)
{
	WRITE_ONCE(tracer_enabled, false);
	if (trace_type & TRACER_IRQS_OFF)
		static_key_slow_dec(&trace_irqflags_key);
	if (trace_type & TRACER_PREEMPT_OFF)
		static_key_slow_dec(&trace_preempt_key);
	unregister_latency_function(tr, &irqsoff_graph_ops, irqsoff_graph);
	if (!save_lat_flag)
		tr->trace_flags &= ~TRACE_ITER_LATENCY_FMT;
	tracing_free_snapshot(tr);
	irqsoff_busy = false;
}

static int irqsoff_init(struct trace_array *tr)
{
	return irqsoff_tracer_init(tr, TRACER_IRQS_OFF);
}

static int preemptoff_init(struct trace_array *tr)
{
	return irqsoff_tracer_init(tr, TRACER_PREEMPT_OFF);
}

static int preemptirqsoff_init(struct trace_array *tr)
{
	return irqsoff_tracer_init(tr, TRACER_IRQS_OFF | TRACER_PREEMPT_OFF);
}

static struct tracer irqsoff_tracer = {
	.name = "irqsoff",
	.init = irqsoff_init,
	.reset = irqsoff_tracer_reset,
	.open = latency_trace_open,
	.close = latency_trace_close,
	.print_header = latency_print_header,
	.print_line = latency_print_line,
	.flag_changed = irqsoff_flag_changed,
	.use_max_tr = true,
	.print_max = true,
	.allow_instances = true,
};
register_tracer_initcall(irqsoff_tracer);

static struct tracer preemptoff_tracer = {
	.name = "preemptoff",
	.init = preemptoff_init,
	.reset = irqsoff_tracer_reset,
	.open = latency_trace_open,
	.close = latency_trace_close,
	.print_header = latency_print_header,
	.print_line = latency_print_line,
	.flag_changed = irqsoff_flag_changed,
	.use_max_tr = true,
	.print_max = true,
	.allow_instances = true,
};
register_tracer_initcall(preemptoff_tracer);

static struct tracer preemptirqsoff_tracer = {
	.name = "preemptirqsoff",
	.init = preemptirqsoff_init,
	.reset = irqsoff_tracer_reset,
	.open = latency_trace_open,
	.close = latency_trace_close,
	.print_header = latency_print_header,
	.print_line = latency_print_line,
	.flag_changed = irqsoff_flag_changed,
	.use_max_tr = true,
	.print_max = true,
	.allow_instances = true,
};
register_tracer_initcall(preemptirqsoff_tracer);
