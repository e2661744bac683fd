/*
 * tracing.h: what the rooms above trace/ may ask of the tracing core
 * (trace/trace.c) beyond ftrace.h, fgraph.h and ring_buffer.h: the
 * global trace array's buffer, how many CPUs it has, and the tracers'
 * names. trace/trace.h, the core's own header, is for trace/ alone.
 */
#ifndef _TRACING_H
#define _TRACING_H

struct trace_buffer;

struct trace_buffer *tracing_global_buffer(void);
int trace_nr_cpus(void);
/* The registered tracers' names, at most max of them: how many. */
int tracing_tracer_names(const char **names, int max);

/*
 * trace_printk(fmt, ...): printf into the trace, shown as
 * `CALLER: TEXT` (trace/trace_marker.c). 0, or -EBADF when the ring
 * buffer takes nothing.
 */
int __trace_printk(unsigned long ip, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define trace_printk(fmt, ...)						\
	__trace_printk(({ __label__ __here; __here:			\
			  (unsigned long)&&__here; }), fmt, ##__VA_ARGS__)

#endif
