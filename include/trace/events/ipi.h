/*
 * ipi events (Linux's include/trace/events/ipi.h): an inter-processor
 * interrupt sent (ipi_raise) and handled (ipi_entry, ipi_exit). Linux
 * prints the targets as a CPU mask; here they are a hex mask.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ipi

#if !defined(_TRACE_IPI_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_IPI_H

#include "tracepoint.h"

TRACE_EVENT(ipi_raise,
	TP_PROTO(unsigned long target_mask, const char *reason),
	TP_ARGS(target_mask, reason),
	TP_STRUCT__entry(
		__field(unsigned long, target_mask)
		__field(const char *, reason)
	),
	TP_fast_assign(
		__entry->target_mask = target_mask;
		__entry->reason = reason;
	),
	TP_printk("target_mask=%08lx (%s)", __entry->target_mask, __entry->reason)
);

DECLARE_EVENT_CLASS(ipi_handler,
	TP_PROTO(const char *reason),
	TP_ARGS(reason),
	TP_STRUCT__entry(
		__field(const char *, reason)
	),
	TP_fast_assign(
		__entry->reason = reason;
	),
	TP_printk("(%s)", __entry->reason)
);

DEFINE_EVENT(ipi_handler, ipi_entry,
	TP_PROTO(const char *reason),
	TP_ARGS(reason));

DEFINE_EVENT(ipi_handler, ipi_exit,
	TP_PROTO(const char *reason),
	TP_ARGS(reason));

#endif
