/*
 * tracepoint.h: tracepoints (Linux's include/linux/tracepoint.h). A
 * tracepoint is a call site in the kernel, trace_NAME(args), that costs
 * one c.nop until a probe is registered: its static key's branch
 * (jump_label.h) then leads to __traceiter_NAME, which calls each probe
 * with its data and the arguments. The core declares and calls them;
 * trace/ registers probes (trace/trace_events.c), so the core never
 * names trace/.
 *
 * An event is declared once, with TRACE_EVENT (include/trace/events/),
 * which here declares its tracepoint; trace/trace_events_define.h
 * reads the same declaration again for its record, format and print.
 */
#ifndef _TRACEPOINT_H
#define _TRACEPOINT_H

#include "kernel.h"
#include "jump_label.h"
#include "sched.h"

/* A probe and the data it is called with. */
struct tracepoint_func {
	void *func;
	void *data;
};

/* At most this many probes at once per tracepoint. */
#define TRACEPOINT_MAX_PROBES	4

struct tracepoint {
	const char *name;
	struct static_key key;
	/* RCU: a NULL func ends it; replaced whole, never changed */
	struct tracepoint_func *funcs;
};

int tracepoint_probe_register(struct tracepoint *tp, void *probe, void *data);
int tracepoint_probe_unregister(struct tracepoint *tp, void *probe,
				void *data);
struct tracepoint *tracepoint_find(const char *name);

/*
 * The probe loops, in a text section of their own: an event's stack
 * trace starts above the frame that returns into one of them, at the
 * function that hit the tracepoint (trace/trace_stacktrace.c).
 */
extern char __traceiter_text_start[], __traceiter_text_end[];

static inline bool in_traceiter_text(unsigned long addr)
{
	return addr >= (unsigned long)__traceiter_text_start &&
	       addr < (unsigned long)__traceiter_text_end;
}

#define TP_PROTO(args...)	args
#define TP_ARGS(args...)	args

/*
 * The call site inlines to the key's c.nop alone; the probes' loop is
 * out of line, in kernel/tracepoint.c. Probes run with preemption off:
 * unregister's synchronize_rcu waits them out.
 */
#define DECLARE_TRACE(_name, proto, args)				\
	extern struct tracepoint __tracepoint_##_name;			\
	void __traceiter_##_name(proto);					\
	static __always_inline void trace_##_name(proto)		\
	{								\
		if (static_branch_unlikely(&__tracepoint_##_name.key))	\
			__traceiter_##_name(args);			\
	}								\
	static inline int register_trace_##_name(			\
		void (*probe)(void *data, proto), void *data)		\
	{								\
		return tracepoint_probe_register(&__tracepoint_##_name, \
						 (void *)probe, data);	\
	}								\
	static inline int unregister_trace_##_name(			\
		void (*probe)(void *data, proto), void *data)		\
	{								\
		return tracepoint_probe_unregister(&__tracepoint_##_name, \
						   (void *)probe, data); \
	}

#define DEFINE_TRACE_FN(_name, proto, args)				\
	struct tracepoint __tracepoint_##_name = { .name = #_name };	\
	static struct tracepoint *const __tracepoint_ptr_##_name	\
		__section(".tracepoints") __used = &__tracepoint_##_name;\
	__section(".text.traceiter") notrace				\
	void __traceiter_##_name(proto)					\
	{								\
		struct tracepoint_func *it;				\
									\
		preempt_disable_notrace();				\
		it = READ_ONCE(__tracepoint_##_name.funcs);		\
		for (; it && it->func; it++)				\
			((void (*)(void *, proto))it->func)(it->data, args); \
		preempt_enable_no_resched_notrace();			\
	}

#endif

/*
 * TRACE_EVENT and its parts, for the event headers. Outside
 * CREATE_TRACE_POINTS and trace/, an event is only its tracepoint.
 */
#ifndef TRACE_EVENT
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)
#define DEFINE_EVENT(template, name, proto, args)			\
	DECLARE_TRACE(name, PARAMS(proto), PARAMS(args))
#define TRACE_EVENT(name, proto, args, struct, assign, print)		\
	DECLARE_TRACE(name, PARAMS(proto), PARAMS(args))
#define PARAMS(args...)		args
#endif
