/*
 * trace_sched_wakeup.c: the wakeup and wakeup_rt latency tracers
 * (Linux's kernel/trace/trace_sched_wakeup.c). They time how long a
 * woken task waits before it runs: from the sched_wakeup (or
 * sched_wakeup_new) of a task better than the one already followed and
 * than the waker, to the sched_switch that runs it. wakeup follows any
 * task, wakeup_rt only SCHED_FIFO ones. Meanwhile the traced functions
 * of the CPU the task is to run on are recorded (sched_migrate_task
 * moves that CPU with the task); the wake-up and the switch are lines
 * of their own, each with its stack and a function line for the
 * function that hit the tracepoint, as Linux's. A wait longer than
 * tracing_max_latency (or, when set, at least tracing_thresh) becomes
 * the max trace: the whole buffer swaps into max_buffer
 * (update_max_tr_latency), since the wake-up and the switch may be on
 * two CPUs' pages.
 *
 * With the display-graph option the calls are recorded through graph
 * ops and drawn as function_graph's call tree, the wake-up and switch
 * lines as comments in it (trace_latency_graph.c, shared with
 * irqsoff). One trace array at a time runs one of them (Linux's
 * wakeup_busy). The wait is the difference of two readings of the
 * array's trace clock. Not built: wakeup_dl (there are no deadline
 * tasks).
 */
#include "kernel.h"
#include "spinlock.h"
#include "fgraph.h"
#include "trace.h"
#include "trace/events/sched.h"

static struct trace_array *wakeup_trace;
static bool tracer_enabled;
static bool wakeup_rt;
static bool wakeup_busy;		/* under trace_types_lock */
static bool save_lat_flag;
static bool wakeup_graph;		/* graph ops registered, not tr->ops */

/* The task followed, under wakeup_lock; MAX_PRIO: none (Linux's -1U). */
static DEFINE_SPINLOCK(wakeup_lock);
static struct task *wakeup_task;
static int wakeup_cpu;			/* Linux's wakeup_current_cpu */
static int wakeup_prio = MAX_PRIO;
static u64 wakeup_start;		/* trace clock units */

static u64 wakeup_clock(struct trace_array *tr)
{
	return trace_clock_func(tr->clock_id)();
}

/* Linux's __task_state_index of the states this kernel has. */
static u8 task_state_index(const struct task *t)
{
	if (t->state == TASK_SLEEPING)
		return TASK_STATE_INDEX_SLEEPING;
	return t->state == TASK_DEAD ? TASK_STATE_INDEX_ZOMBIE : 0;
}

/*
 * A function line, or under display-graph a call of no duration
 * (Linux's __trace_function).
 */
static void wakeup_function(struct trace_array *tr, unsigned long ip,
			    unsigned long parent_ip, u32 ctx)
{
	if (READ_ONCE(wakeup_graph))
		trace_graph_function(tr, ip, ctx);
	else
		ring_buffer_write3(READ_ONCE(tr->buffer), ctx | TRACE_FN, ip,
				   parent_ip);
}

/* The function that hit the probe's tracepoint, called by its caller. */
static void wakeup_caller_function(struct trace_array *tr, u32 ctx)
{
	unsigned long ip, parent_ip;

	trace_event_caller(&ip, &parent_ip);
	wakeup_function(tr, ip, parent_ip, ctx);
}

/*
 * A wake-up (TRACE_WAKE) or switch (TRACE_CTX) line, then its stack
 * from the function that hit the tracepoint.
 */
static void trace_ctxwake(struct trace_array *tr, unsigned int type,
			  struct task *prev, struct task *next, u32 ctx)
{
	ring_buffer_write5(READ_ONCE(tr->buffer), ctx | type, prev->pid,
			   next->pid, next->cpu, (u8)prev->prio |
			   task_state_index(prev) << 8 |
			   (u8)next->prio << 16 |
			   (u32)task_state_index(next) << 24);
	trace_event_stack(tr, ctx);
}

/* Under wakeup_lock: follow no task. */
static void __wakeup_reset(void)
{
	wakeup_task = NULL;
	wakeup_prio = MAX_PRIO;
}

/* Follow p? Only one better than the task followed and than current. */
static bool wakeup_wanted(struct task *p)
{
	if (wakeup_rt && !rt_task(p))
		return false;
	return p->prio < wakeup_prio && p->prio < current->prio;
}

/*
 * The context of a probe's lines: the preemption the probe loop and
 * wakeup_lock add is not the traced code's.
 */
static u32 wakeup_ctx(void)
{
	return tracing_gen_ctx_dec(2);
}

/*
 * sched_wakeup and sched_wakeup_new (Linux's probe_wakeup): under the
 * run-queue lock, interrupts off, in the probe loop (preemption off).
 */
static void probe_wakeup(void *data, struct task *p)
{
	struct trace_array *tr = wakeup_trace;
	u32 ctx;

	if (likely(!READ_ONCE(tracer_enabled)) || !wakeup_wanted(p))
		return;
	tracing_record_cmdline(p);
	tracing_record_cmdline(current);
	spin_lock(&wakeup_lock);
	if (READ_ONCE(tracer_enabled) && wakeup_wanted(p) &&
	    tracer_tracing_is_on(tr)) {
		wakeup_task = p;
		wakeup_prio = p->prio;
		wakeup_cpu = p->cpu;
		wakeup_start = wakeup_clock(tr);
		ctx = wakeup_ctx();
		trace_ctxwake(tr, TRACE_WAKE, current, p, ctx);
		wakeup_caller_function(tr, ctx);
	}
	spin_unlock(&wakeup_lock);
}

/* A new maximum: swap it in, with what the header says of it. */
static void wakeup_check_max(struct trace_array *tr, struct task *next)
{
	unsigned long delta = trace_clock_to_ns(tr, wakeup_clock(tr)) -
			      trace_clock_to_ns(tr, wakeup_start);
	struct trace_max_data data = {
		.time_start = wakeup_start,
		.latency = delta,
		.cpu = smp_processor_id(),
	};

	if (!report_latency(tr, delta))
		return;
	trace_max_data_task(&data, next);
	if (!update_max_tr_latency(tr, &data))
		WRITE_ONCE(tr->max_latency, delta);
}

/*
 * sched_switch (Linux's probe_wakeup_sched_switch): the task followed
 * runs now; its wait ends here.
 */
static void probe_wakeup_sched_switch(void *data, bool preempt,
				      struct task *prev, struct task *next)
{
	struct trace_array *tr = wakeup_trace;
	u32 ctx;

	if (likely(READ_ONCE(wakeup_task) != next))
		return;
	spin_lock(&wakeup_lock);
	/* Either way it follows no task after, as Linux's. */
	if (wakeup_task == next && READ_ONCE(tracer_enabled)) {
		ctx = wakeup_ctx();
		wakeup_caller_function(tr, ctx);
		trace_ctxwake(tr, TRACE_CTX, prev, next, ctx);
		wakeup_check_max(tr, next);
	}
	__wakeup_reset();
	spin_unlock(&wakeup_lock);
}

/* The task followed runs elsewhere: trace that CPU's functions. */
static void probe_wakeup_migrate_task(void *data, struct task *p, int cpu)
{
	if (READ_ONCE(wakeup_task) == p)
		WRITE_ONCE(wakeup_cpu, cpu);
}

/*
 * Are this CPU's calls recorded? While a woken task waits, on its CPU,
 * unless the function-trace option is off (Linux's
 * func_prolog_preempt_disable). Preemption is off (the trampoline).
 */
static bool wakeup_cpu_traced(struct trace_array *tr)
{
	return unlikely(READ_ONCE(wakeup_task)) &&
	       smp_processor_id() == READ_ONCE(wakeup_cpu) &&
	       (READ_ONCE(tr->trace_flags) & TRACE_ITER_FUNCTION) &&
	       ring_buffer_recording(tr->buffer);
}

/* Every traced function (Linux's wakeup_tracer_call). */
static void wakeup_tracer_call(unsigned long ip, unsigned long parent_ip,
			       struct ftrace_ops *op,
			       struct ftrace_regs *fregs)
{
	struct trace_array *tr = op->private;

	if (wakeup_cpu_traced(tr))
		ring_buffer_write3(READ_ONCE(tr->buffer),
				   tracing_gen_ctx_dec(1) | TRACE_FN, ip,
				   parent_ip);
}

/*
 * display-graph: a call while the task waits, recorded as
 * function_graph's entry; 1 hooks its return (Linux's
 * wakeup_graph_entry).
 */
static int wakeup_graph_entry(struct ftrace_graph_ent *trace)
{
	struct trace_array *tr = wakeup_trace;

	if (!wakeup_cpu_traced(tr))
		return 0;
	return !ring_buffer_write3(READ_ONCE(tr->buffer),
				   tracing_gen_ctx_dec(1) | TRACE_GRAPH_ENT,
				   trace->func, trace->depth);
}

/*
 * Its return, while the task still waits; the duration is in the trace
 * clock's units. ftrace_return_to_handler raised preempt_count.
 */
static void wakeup_graph_return(struct ftrace_graph_ret *trace)
{
	u64 duration = trace->rettime - trace->calltime;
	struct trace_array *tr = wakeup_trace;

	if (!READ_ONCE(wakeup_task) ||
	    smp_processor_id() != READ_ONCE(wakeup_cpu))
		return;
	ring_buffer_write5(READ_ONCE(tr->buffer),
			   tracing_gen_ctx_dec(1) | TRACE_GRAPH_RET,
			   trace->func, trace->depth, (u32)duration,
			   duration >> 32);
}

static struct fgraph_ops wakeup_graph_ops = {
	.entryfunc = wakeup_graph_entry,
	.retfunc = wakeup_graph_return,
};

/* Under trace_types_lock (Linux's wakeup_flag_changed). */
static int wakeup_flag_changed(struct trace_array *tr, unsigned int mask,
			       int set)
{
	return latency_display_graph(tr, &wakeup_graph_ops, &wakeup_graph,
				     mask, set);
}

static void unregister_wakeup_probes(void)
{
	unregister_trace_sched_migrate_task(probe_wakeup_migrate_task, NULL);
	unregister_trace_sched_switch(probe_wakeup_sched_switch, NULL);
	unregister_trace_sched_wakeup_new(probe_wakeup, NULL);
	unregister_trace_sched_wakeup(probe_wakeup, NULL);
}

/* All four or none (Linux's start_wakeup_tracer). */
static int register_wakeup_probes(void)
{
	int ret = register_trace_sched_wakeup(probe_wakeup, NULL);

	if (!ret)
		ret = register_trace_sched_wakeup_new(probe_wakeup, NULL);
	if (!ret)
		ret = register_trace_sched_switch(probe_wakeup_sched_switch,
						  NULL);
	if (!ret)
		ret = register_trace_sched_migrate_task(
			probe_wakeup_migrate_task, NULL);
	if (ret)
		unregister_wakeup_probes();
	return ret;
}

static void restore_lat_flag(struct trace_array *tr)
{
	if (!save_lat_flag)
		tr->trace_flags &= ~TRACE_ITER_LATENCY_FMT;
}

/* Under trace_types_lock. */
static int __wakeup_tracer_init(struct trace_array *tr, bool rt)
{
	int ret;

	if (wakeup_busy)
		return -EBUSY;
	ret = tracing_alloc_snapshot_instance(tr);
	if (ret)
		return ret;
	wakeup_trace = tr;
	wakeup_rt = rt;
	tr->max_latency = 0;
	/* As Linux's: the latency tracers print in the latency format. */
	save_lat_flag = tr->trace_flags & TRACE_ITER_LATENCY_FMT;
	tr->trace_flags |= TRACE_ITER_LATENCY_FMT;
	tr->ops.func = wakeup_tracer_call;
	tr->ops.private = tr;
	tr->ops.name = rt ? "wakeup_rt" : "wakeup";
	function_trace_update_fast_path(tr);
	wakeup_graph = tr->trace_flags & TRACE_ITER_DISPLAY_GRAPH;
	ret = register_latency_function(tr, &wakeup_graph_ops, wakeup_graph);
	if (!ret) {
		ret = register_wakeup_probes();
		if (ret)
			unregister_latency_function(tr, &wakeup_graph_ops,
						    wakeup_graph);
	}
	if (ret) {
		restore_lat_flag(tr);
		return ret;
	}
	wakeup_busy = true;
	WRITE_ONCE(tracer_enabled, true);
	return 0;
}

/*
 * Under trace_types_lock. Unregistering the probes waits out those
 * running; the spare buffer goes after a grace period, as irqsoff's.
 */
static void wakeup_tracer_reset(struct trace_array *tr)
{
	unsigned long flags;

	WRITE_ONCE(tracer_enabled, false);
	unregister_wakeup_probes();
	unregister_latency_function(tr, &wakeup_graph_ops, wakeup_graph);
	flags = spin_lock_irqsave(&wakeup_lock);
	__wakeup_reset();
	spin_unlock_irqrestore(&wakeup_lock, flags);
	restore_lat_flag(tr);
	tracing_free_snapshot(tr);
	wakeup_busy = false;
}

static int wakeup_tracer_init(struct trace_array *tr)
{
	return __wakeup_tracer_init(tr, false);
}

static int wakeup_rt_tracer_init(struct trace_array *tr)
{
	return __wakeup_tracer_init(tr, true);
}

static struct tracer wakeup_tracer = {
	.name = "wakeup",
	.init = wakeup_tracer_init,
	.reset = wakeup_tracer_reset,
	.open = latency_trace_open,
	.close = latency_trace_close,
	.print_header = latency_print_header,
	.print_line = latency_print_line,
	.flag_changed = wakeup_flag_changed,
	.use_max_tr = true,
	.print_max = true,
	.allow_instances = true,
};
register_tracer_initcall(wakeup_tracer);

static struct tracer wakeup_rt_tracer = {
	.name = "wakeup_rt",
	.init = wakeup_rt_tracer_init,
	.reset = wakeup_tracer_reset,
	.open = latency_trace_open,
	.close = latency_trace_close,
	.print_header = latency_print_header,
	.print_line = latency_print_line,
	.flag_changed = wakeup_flag_changed,
	.use_max_tr = true,
	.print_max = true,
	.allow_instances = true,
};
register_tracer_initcall(wakeup_rt_tracer);
