/*
 * trace_latency_graph.c: the display-graph option of the latency
 * tracers (irqsoff, preemptoff, preemptirqsoff, wakeup, wakeup_rt):
 * their calls recorded through graph ops, as entries and returns,
 * instead of function ops, and `trace` drawing them as function_graph's
 * call tree in its latency form. Linux keeps a copy of each piece in
 * kernel/trace/trace_irqsoff.c and kernel/trace/trace_sched_wakeup.c;
 * here the tracers share one, each with its own graph ops.
 */
#include "kernel.h"
#include "fgraph.h"
#include "trace.h"

/* The call tree's columns (Linux's GRAPH_TRACER_FLAGS). */
#define GRAPH_TRACER_FLAGS	(TRACE_GRAPH_PRINT_CPU | \
				 TRACE_GRAPH_PRINT_PROC | \
				 TRACE_GRAPH_PRINT_DURATION)

/*
 * Register the graph ops or the array's function ops (Linux's
 * register_irqsoff_function and register_wakeup_function). The graph's
 * clock is the array's, and follows its trace_clock, so the durations
 * are in the units of its timestamps.
 */
int register_latency_function(struct trace_array *tr,
			      struct fgraph_ops *gops, bool graph)
{
	int ret;

	if (!graph)
		return register_ftrace_function(&tr->ops);
	gops->func_hash = &tr->ops.local_hash;
	tracing_graph_clock_follow(tr);
	ret = register_ftrace_graph(gops);
	if (ret)
		tracing_graph_clock_follow(&global_trace);
	return ret;
}

void unregister_latency_function(struct trace_array *tr,
				 struct fgraph_ops *gops, bool graph)
{
	if (!graph) {
		unregister_ftrace_function(&tr->ops);
		return;
	}
	unregister_ftrace_graph(gops);
	tracing_graph_clock_follow(&global_trace);
}

/*
 * Under trace_types_lock: display-graph set or cleared while the
 * tracer runs (Linux's irqsoff_display_graph, wakeup_display_graph);
 * *graph says which way records now. The other way is registered
 * first; if it cannot be (another graph user: EBUSY), the option stays
 * as it was.
 */
int latency_display_graph(struct trace_array *tr, struct fgraph_ops *gops,
			  bool *graph, unsigned int mask, int set)
{
	int ret;

	if (mask != TRACE_ITER_DISPLAY_GRAPH || set == *graph)
		return 0;
	unregister_latency_function(tr, gops, *graph);
	ret = register_latency_function(tr, gops, set);
	if (ret) {
		register_latency_function(tr, gops, *graph);
		return ret;
	}
	WRITE_ONCE(*graph, set);
	return 0;
}

static bool is_graph(struct trace_iterator *iter)
{
	return iter->trace_flags & TRACE_ITER_DISPLAY_GRAPH;
}

/* The graph printer keeps per-CPU state for each open trace file. */
int latency_trace_open(struct trace_iterator *iter)
{
	return is_graph(iter) ? graph_trace_open(iter) : 0;
}

void latency_trace_close(struct trace_iterator *iter)
{
	if (is_graph(iter))
		graph_trace_close(iter);
}

enum print_line_t latency_print_line(struct trace_iterator *iter)
{
	if (is_graph(iter))
		return print_graph_function_flags(iter, GRAPH_TRACER_FLAGS);
	return TRACE_TYPE_UNHANDLED;
}

void latency_print_header(struct trace_iterator *iter)
{
	if (is_graph(iter))
		print_graph_headers_flags(iter, GRAPH_TRACER_FLAGS);
	else
		trace_default_header(iter);
}
