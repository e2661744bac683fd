/*
 * trace_functions_graph.c: the function_graph tracer (Linux's
 * kernel/trace/trace_functions_graph.c). It registers fgraph_ops on the
 * sites set_ftrace_filter allows: trace_graph_entry records an entry
 * event and says whether to hook the function's return, and
 * trace_graph_return records the return with its duration. While
 * tracing_thresh is set, funcgraph_thresh_ops record only the returns
 * that took longer (trace_graph_thresh_return).
 *
 * Which calls are recorded is decided at entry, per task, as in Linux:
 * set_graph_function (only inside these functions), set_graph_notrace
 * (nothing inside these), max_graph_depth, set_ftrace_pid, and
 * funcgraph-irqs (off: nothing in an interrupt handler). The text of
 * the trace is trace_graph_output.c's.
 */
#include "kernel.h"
#include "cache.h"
#include "string.h"
#include "fgraph.h"
#include "stop_machine.h"
#include "trace_clock.h"
#include "trace.h"
#include "asm/asm-offsets.h"

#define TRACE_GRAPH_NOTRACE	(1UL << TRACE_GRAPH_NOTRACE_BIT)
#define TRACE_GRAPH		(1UL << TRACE_GRAPH_BIT)
#define TRACE_IRQ		(1UL << TRACE_IRQ_BIT)
#define TRACE_GRAPH_DEPTH_MASK	(0xffUL << TRACE_GRAPH_DEPTH_SHIFT)

_Static_assert(FAST_GRAPH_NOTRACE == TRACE_GRAPH_NOTRACE &&
	       FAST_GRAPH_BITS == (TRACE_GRAPH | TRACE_GRAPH_NOTRACE |
				   1UL << TRACE_GRAPH_OVERRUN_BIT) &&
	       FAST_TRACE_GRAPH_ENT == TRACE_GRAPH_ENT &&
	       FAST_TRACE_GRAPH_RET == TRACE_GRAPH_RET &&
	       FAST_GRAPH_ENT_BYTES ==
	       4 + sizeof(struct ftrace_graph_ent_entry) &&
	       FAST_GRAPH_RET_BYTES ==
	       4 + sizeof(struct ftrace_graph_ret_entry),
	       "function_graph's fast paths build the same events");

/* Linux's order. */
static const struct tracer_opt graph_opts[] = {
	{ "funcgraph-overrun", TRACE_GRAPH_PRINT_OVERRUN },
	{ "funcgraph-cpu", TRACE_GRAPH_PRINT_CPU },
	{ "funcgraph-overhead", TRACE_GRAPH_PRINT_OVERHEAD },
	{ "funcgraph-proc", TRACE_GRAPH_PRINT_PROC },
	{ "funcgraph-duration", TRACE_GRAPH_PRINT_DURATION },
	{ "funcgraph-abstime", TRACE_GRAPH_PRINT_ABS_TIME },
	{ "funcgraph-irqs", TRACE_GRAPH_PRINT_IRQS },
	{ "funcgraph-tail", TRACE_GRAPH_PRINT_TAIL },
	{ "sleep-time", TRACE_GRAPH_SLEEP_TIME },
	{ "graph-time", TRACE_GRAPH_GRAPH_TIME },
	{ NULL, 0 },
};

static struct tracer_flags graph_flags = {
	TRACE_GRAPH_PRINT_CPU | TRACE_GRAPH_PRINT_OVERHEAD |
	TRACE_GRAPH_PRINT_DURATION | TRACE_GRAPH_PRINT_IRQS |
	TRACE_GRAPH_SLEEP_TIME | TRACE_GRAPH_GRAPH_TIME, graph_opts,
};

struct trace_array *graph_array;		/* ftrace_fast.S reads it too */
static struct fgraph_ops *graph_gops;	/* the ops registered now */
static bool ftrace_graph_skip_irqs;	/* funcgraph-irqs is off */
unsigned int fgraph_max_depth;		/* 0: no limit */

/* set_graph_function and set_graph_notrace; NULL when empty. */
static struct ftrace_hash *ftrace_graph_hash;
static struct ftrace_hash *ftrace_graph_notrace_hash;
static DEFINE_MUTEX(graph_lock);

/*
 * Is any of the four filters above set? Then trace_graph_entry takes
 * its slow path; the common case, none set, tests this one word.
 */
static bool graph_filtered __cacheline_aligned;

static struct fgraph_ops funcgraph_ops;

#ifdef HAVE_FTRACE_FAST_PATH
static void *const graph_fast_entry[TRACE_CLOCK_NR] = {
	[TRACE_CLOCK_LOCAL] = ftrace_graph_entry_fast_local,
	[TRACE_CLOCK_GLOBAL] = ftrace_graph_entry_fast_global,
	[TRACE_CLOCK_COUNTER] = ftrace_graph_entry_fast_counter,
	[TRACE_CLOCK_INSTRET] = ftrace_graph_entry_fast_instret,
	[TRACE_CLOCK_PERF] = ftrace_graph_entry_fast_local,
	[TRACE_CLOCK_MONO] = ftrace_graph_entry_fast_global,
	[TRACE_CLOCK_MONO_RAW] = ftrace_graph_entry_fast_global,
	[TRACE_CLOCK_BOOT] = ftrace_graph_entry_fast_global,
	[TRACE_CLOCK_TAI] = ftrace_graph_entry_fast_global,
};

static void *const graph_fast_return[TRACE_CLOCK_NR] = {
	[TRACE_CLOCK_LOCAL] = ftrace_graph_return_fast_local,
	[TRACE_CLOCK_GLOBAL] = ftrace_graph_return_fast_global,
	[TRACE_CLOCK_COUNTER] = ftrace_graph_return_fast_counter,
	[TRACE_CLOCK_INSTRET] = ftrace_graph_return_fast_instret,
	[TRACE_CLOCK_PERF] = ftrace_graph_return_fast_local,
	[TRACE_CLOCK_MONO] = ftrace_graph_return_fast_global,
	[TRACE_CLOCK_MONO_RAW] = ftrace_graph_return_fast_global,
	[TRACE_CLOCK_BOOT] = ftrace_graph_return_fast_global,
	[TRACE_CLOCK_TAI] = ftrace_graph_return_fast_global,
};
#endif

/*
 * The trampoline's fast entry records an unfiltered entry only: while
 * a filter is set, entries go through trace_graph_entry. Returns take
 * theirs always: it leaves a task's filter bits to trace_graph_return.
 */
static void update_graph_filtered(void)
{
	bool filtered = ftrace_graph_hash || ftrace_graph_notrace_hash ||
			fgraph_max_depth || ftrace_graph_skip_irqs;

	WRITE_ONCE(graph_filtered, filtered);
#ifdef HAVE_FTRACE_FAST_PATH
	WRITE_ONCE(funcgraph_ops.fast_entry,
		   filtered ? NULL : graph_fast_entry);
	fgraph_update_fast_paths();
#endif
}

/* ---- which calls are recorded ------------------------------------------- */

/*
 * set_graph_function: is this call traced? Yes when the hash is empty,
 * inside one of its functions, or at one: then *starts.
 */
static inline bool ftrace_graph_addr(struct ftrace_graph_ent *trace,
				     bool *starts)
{
	struct ftrace_hash *hash = READ_ONCE(ftrace_graph_hash);

	*starts = false;
	if (!hash || (current->trace_recursion & TRACE_GRAPH))
		return true;
	*starts = ftrace_lookup_ip_in_hash(hash, trace->func);
	return *starts;
}

/*
 * A set_graph_function function's entry is in the buffer: the task is
 * inside it until the return at this depth. Marked only now, unlike
 * Linux, so an interrupt that comes in between is not drawn before the
 * call it interrupted. Entered in an interrupt, it is traced even with
 * funcgraph-irqs off.
 */
static inline void ftrace_graph_start(struct ftrace_graph_ent *trace)
{
	struct task *t = current;
	unsigned long rec;

	rec = t->trace_recursion & ~(TRACE_GRAPH_DEPTH_MASK | TRACE_IRQ);
	rec |= TRACE_GRAPH;
	rec |= (unsigned long)trace->depth << TRACE_GRAPH_DEPTH_SHIFT;
	if (in_hardirq())
		rec |= TRACE_IRQ;
	t->trace_recursion = rec;
}

/* The set_graph_function function at this depth returns: leave it. */
static inline void ftrace_graph_addr_finish(struct task *t, int depth)
{
	unsigned long rec = t->trace_recursion;

	if ((rec & TRACE_GRAPH) && depth == (int)((rec & TRACE_GRAPH_DEPTH_MASK)
						  >> TRACE_GRAPH_DEPTH_SHIFT))
		t->trace_recursion = rec & ~TRACE_GRAPH;
}

static inline bool ftrace_graph_ignore_func(struct ftrace_graph_ent *trace,
					    bool *starts)
{
	unsigned int max_depth = READ_ONCE(fgraph_max_depth);

	return !ftrace_graph_addr(trace, starts) ||
	       (max_depth && (unsigned int)trace->depth >= max_depth);
}

static inline bool ftrace_graph_ignore_irqs(bool starts)
{
	if (!ftrace_graph_skip_irqs || starts ||
	    (current->trace_recursion & TRACE_IRQ))
		return false;
	return in_hardirq();
}

static inline bool ftrace_graph_notrace_addr(unsigned long addr)
{
	struct ftrace_hash *hash = READ_ONCE(ftrace_graph_notrace_hash);

	return unlikely(hash) && ftrace_lookup_ip_in_hash(hash, addr);
}

/* ---- recording ------------------------------------------------------- */

/*
 * Record the entry (struct ftrace_graph_ent_entry), or with
 * tracing_thresh only hook the return.
 */
static __always_inline int graph_entry_record(struct trace_array *tr,
					      struct ftrace_graph_ent *trace)
{
	if (tracing_thresh)
		return 1;		/* only returns are recorded */
	return !ring_buffer_write3(tr->buffer,
				   tracing_gen_ctx_dec(1) | TRACE_GRAPH_ENT,
				   trace->func, trace->depth);
}

/* The filters, in Linux's order (set_ftrace_pid before the graph ones). */
static noinline int trace_graph_entry_filtered(struct ftrace_graph_ent *trace)
{
	struct trace_array *tr = graph_array;
	bool starts;

	if (ftrace_graph_notrace_addr(trace->func)) {
		/* Hooked all the same: its return clears the bit. */
		current->trace_recursion |= TRACE_GRAPH_NOTRACE;
		return 1;
	}
	if (ftrace_pid_ignored(tr) ||
	    ftrace_graph_ignore_func(trace, &starts) ||
	    ftrace_graph_ignore_irqs(starts) || !graph_entry_record(tr, trace))
		return 0;
	if (starts)
		ftrace_graph_start(trace);
	return 1;
}

/*
 * At every hooked site, preemption off (the trampoline's). Returns 1
 * to hook the function's return, 0 to let it return untraced. No frame
 * record of its own, as the function tracer's callback: s0 still points
 * at prepare_ftrace_return's, which chains to the trampoline's.
 */
int trace_graph_entry(struct ftrace_graph_ent *trace)
{
	struct trace_array *tr = graph_array;

	if (current->trace_recursion & TRACE_GRAPH_NOTRACE)
		return 0;
	if (unlikely(READ_ONCE(graph_filtered)))
		return trace_graph_entry_filtered(trace);
	if (ftrace_pid_ignored(tr))
		return 0;
	return graph_entry_record(tr, trace);
}

/* A return of a task whose ret_stack has overrun, with the count. */
static void graph_record_overrun(struct task *t,
				 struct ftrace_graph_ret *trace)
{
	u64 duration = trace->rettime - trace->calltime;
	struct ftrace_graph_ret_overrun_entry e = {
		.ret = { { __tracing_gen_ctx_dec(t, 1) | TRACE_GRAPH_RET },
			 trace->func, trace->depth, duration },
		.overrun = trace->overrun,
	};

	ring_buffer_write(graph_array->buffer, sizeof(e), &e);
}

/*
 * ftrace_return_to_handler raised preempt_count by one around the
 * callback, as the trampoline does at entry: the depth shown is the
 * traced code's, and the write needs nothing more.
 */
static __always_inline void graph_record_return(struct task *t,
						struct ftrace_graph_ret *trace)
{
	u64 duration = trace->rettime - trace->calltime;

	/* struct ftrace_graph_ret_entry, its duration low word first */
	ring_buffer_write5(graph_array->buffer,
			   __tracing_gen_ctx_dec(t, 1) | TRACE_GRAPH_RET,
			   trace->func, trace->depth, (u32)duration,
			   duration >> 32);
}

/* The rare returns, which one test of trace_recursion sends here. */
#define TRACE_GRAPH_RETURN_RARE	(TRACE_GRAPH_NOTRACE | \
				 1UL << TRACE_GRAPH_OVERRUN_BIT)

/*
 * Leaving a set_graph_notrace function: nothing recorded. Else the
 * task's ret_stack has overrun: its returns carry the count, as long as
 * they took thresh_ns (tracing_thresh) or more. Tracing started again
 * since (graph_init_task zeroed the count): the fast way is back.
 */
static noinline void graph_return_rare(struct task *t,
				       struct ftrace_graph_ret *trace,
				       unsigned long thresh_ns)
{
	u64 duration = trace->rettime - trace->calltime;

	if (t->trace_recursion & TRACE_GRAPH_NOTRACE) {
		t->trace_recursion &= ~TRACE_GRAPH_NOTRACE;
		return;
	}
	if (trace_clock_to_ns(graph_array, duration) < thresh_ns)
		return;
	if (trace->overrun) {
		graph_record_overrun(t, trace);
		return;
	}
	t->trace_recursion &= ~(1UL << TRACE_GRAPH_OVERRUN_BIT);
	graph_record_return(t, trace);
}

/* No frame record either: s0 is ftrace_return_to_handler's. */
void trace_graph_return(struct ftrace_graph_ret *trace)
{
	struct task *t = current;

	ftrace_graph_addr_finish(t, trace->depth);
	if (unlikely(t->trace_recursion & TRACE_GRAPH_RETURN_RARE))
		graph_return_rare(t, trace, 0);
	else
		graph_record_return(t, trace);
}

/*
 * A point in the code drawn as a call that took no time, at depth 0:
 * an entry and its return (Linux's trace_graph_function, which the
 * latency tracers use under display-graph for a section's ends).
 */
void trace_graph_function(struct trace_array *tr, unsigned long ip, u32 ctx)
{
	ring_buffer_write3(tr->buffer, ctx | TRACE_GRAPH_ENT, ip, 0);
	ring_buffer_write5(tr->buffer, ctx | TRACE_GRAPH_RET, ip, 0, 0, 0);
}

/* tracing_thresh (ns): only calls that took at least that long. */
static void trace_graph_thresh_return(struct ftrace_graph_ret *trace)
{
	u64 duration = trace->rettime - trace->calltime;
	struct task *t = current;

	ftrace_graph_addr_finish(t, trace->depth);
	if (unlikely(t->trace_recursion & TRACE_GRAPH_RETURN_RARE))
		graph_return_rare(t, trace, tracing_thresh);
	else if (trace_clock_to_ns(graph_array, duration) >= tracing_thresh)
		graph_record_return(t, trace);
}

static struct fgraph_ops funcgraph_thresh_ops = {
	.entryfunc = trace_graph_entry,
	.retfunc = trace_graph_thresh_return,
};

static struct fgraph_ops funcgraph_ops = {
	.entryfunc = trace_graph_entry,
	.retfunc = trace_graph_return,
#ifdef HAVE_FTRACE_FAST_PATH
	.fast_entry = graph_fast_entry,
	.fast_return = graph_fast_return,
#endif
};

/* ---- the tracer ---------------------------------------------------------- */

/* Hooks what set_ftrace_filter allows, like the function tracer. */
static int graph_trace_init(struct trace_array *tr)
{
	struct fgraph_ops *gops = tracing_thresh ? &funcgraph_thresh_ops :
						   &funcgraph_ops;
	int ret;

	WRITE_ONCE(graph_array, tr);
	gops->func_hash = &tr->ops.local_hash;
	ret = register_ftrace_graph(gops);
	if (!ret)
		graph_gops = gops;
	return ret;
}

static void graph_trace_reset(struct trace_array *tr)
{
	unregister_ftrace_graph(graph_gops);
	graph_gops = NULL;
}

/* tracing_thresh changed: switch between the two ops. */
static int graph_trace_update_thresh(struct trace_array *tr)
{
	graph_trace_reset(tr);
	return graph_trace_init(tr);
}

static int func_graph_set_flag(struct trace_array *tr, u32 old_flags,
			       u32 bit, int set)
{
	if (bit == TRACE_GRAPH_PRINT_IRQS) {
		WRITE_ONCE(ftrace_graph_skip_irqs, !set);
		update_graph_filtered();
	}
	if (bit == TRACE_GRAPH_SLEEP_TIME && !(old_flags & bit) != !set)
		ftrace_graph_sleep_time_control(set);
	if (bit == TRACE_GRAPH_GRAPH_TIME)
		ftrace_profile_graph_time_control(set);
	return 0;
}

static struct tracer graph_trace = {
	.name = "function_graph",
	.init = graph_trace_init,
	.reset = graph_trace_reset,
	.open = graph_trace_open,
	.close = graph_trace_close,
	.print_header = print_graph_headers,
	.print_line = print_graph_function,
	.update_thresh = graph_trace_update_thresh,
	.flags = &graph_flags,
	.set_flag = func_graph_set_flag,
};
register_tracer_initcall(graph_trace);

/* ---- set_graph_function, set_graph_notrace ------------------------------- */

static struct ftrace_hash **graph_hash_ptr(bool is_notrace)
{
	return is_notrace ? &ftrace_graph_notrace_hash : &ftrace_graph_hash;
}

/* A copy to edit (empty if none); NULL when out of memory. */
struct ftrace_hash *ftrace_graph_hash_copy(bool is_notrace)
{
	struct ftrace_hash *hash;

	mutex_lock(&graph_lock);
	hash = ftrace_hash_copy(*graph_hash_ptr(is_notrace));
	mutex_unlock(&graph_lock);
	return hash;
}

/*
 * Install hash (kept by the tracer from now on). The old one is freed
 * once no entry callback can still be looking at it: they all run with
 * preemption off, so one synchronize_sched is enough.
 */
void ftrace_graph_set_hash(struct ftrace_hash *hash, bool is_notrace)
{
	struct ftrace_hash **dst = graph_hash_ptr(is_notrace), *old;

	if (ftrace_hash_empty(hash)) {
		free_ftrace_hash(hash);
		hash = NULL;
	}
	mutex_lock(&graph_lock);
	old = *dst;
	WRITE_ONCE(*dst, hash);
	update_graph_filtered();
	mutex_unlock(&graph_lock);
	if (old) {
		synchronize_sched();
		free_ftrace_hash(old);
	}
}

/* max_graph_depth: 0 is no limit. */
void ftrace_graph_set_max_depth(unsigned long depth)
{
	WRITE_ONCE(fgraph_max_depth, depth);
	update_graph_filtered();
}
