/*
 * tracing.h: what the rooms above trace/ may ask of the tracing core
 * (trace/trace.c) beyond ftrace.h, fgraph.h and ring_buffer.h: the
 * global trace array's buffer, how many CPUs it has, and the tracers'
 * names. trace/trace.h, the core's own header, is for trace/ alone.
 */
#ifndef _TRACING_H
#define _TRACING_H

#include "kernel.h"

struct trace_buffer;

struct trace_buffer *tracing_global_buffer(void);
int trace_nr_cpus(void);
/* The registered tracers' names, at most max of them: how many. */
int tracing_tracer_names(const char **names, int max);

/*
 * trace_printk(fmt, ...): printf into the trace, shown as
 * `CALLER: TEXT` (trace/trace_printk.c), while the trace_printk option
 * is set. As in Linux's include/linux/kernel.h, the format is kept in
 * the __trace_printk_fmt section, listed in printk_formats, and the
 * event (ftrace:bprint) holds a pointer to it and the arguments in
 * binary, made into text only when the trace is read. The format must
 * be a constant, which the section's initializer checks: Linux prints
 * any other into a print event, which no caller here needs.
 * 0, or -EBADF when the ring buffer takes nothing.
 */
int __trace_bprintk(unsigned long ip, const char *fmt, ...);

/* The compiler's check of the arguments against the format, as Linux's. */
static inline __attribute__((format(printf, 1, 2)))
void ____trace_printk_check_format(const char *fmt, ...)
{
}

#define trace_printk(fmt, ...)						\
({									\
	static const char *trace_printk_fmt __used			\
		__section("__trace_printk_fmt") = fmt;			\
									\
	if (0)								\
		____trace_printk_check_format(fmt, ##__VA_ARGS__);	\
	__trace_bprintk(({ __label__ __here; __here:			\
			   (unsigned long)&&__here; }),			\
			trace_printk_fmt, ##__VA_ARGS__);		\
})

#endif
