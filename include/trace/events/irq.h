/*
 * irq events (Linux's include/trace/events/irq.h): around each
 * interrupt's handling in do_irq. The number is the scause code (5 the
 * timer, 1 the software interrupt, 9 the PLIC's external one), the name
 * what handles it.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM irq

#if !defined(_TRACE_IRQ_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_IRQ_H

#include "tracepoint.h"
#include "string.h"

TRACE_EVENT(irq_handler_entry,
	TP_PROTO(int irq, const char *name),
	TP_ARGS(irq, name),
	TP_STRUCT__entry(
		__field(int, irq)
		__string(name, name)
	),
	TP_fast_assign(
		__entry->irq = irq;
		__assign_str(name, name);
	),
	TP_printk("irq=%d name=%s", __entry->irq, __get_str(name))
);

TRACE_EVENT(irq_handler_exit,
	TP_PROTO(int irq, int ret),
	TP_ARGS(irq, ret),
	TP_STRUCT__entry(
		__field(int, irq)
		__field(int, ret)
	),
	TP_fast_assign(
		__entry->irq = irq;
		__entry->ret = ret;
	),
	TP_printk("irq=%d ret=%s",
		  __entry->irq, __entry->ret ? "handled" : "unhandled")
);

#endif
