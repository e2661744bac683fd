/*
 * power events (Linux's include/trace/events/power.h): an idle CPU
 * going to sleep in wfi (state 1) and waking (PWR_EVENT_EXIT).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM power

#if !defined(_TRACE_POWER_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_POWER_H

#include "tracepoint.h"

#define PWR_EVENT_EXIT	-1

TRACE_EVENT(cpu_idle,
	TP_PROTO(unsigned int state, unsigned int cpu_id),
	TP_ARGS(state, cpu_id),
	TP_STRUCT__entry(
		__field(u32, state)
		__field(u32, cpu_id)
	),
	TP_fast_assign(
		__entry->state = state;
		__entry->cpu_id = cpu_id;
	),
	TP_printk("state=%lu cpu_id=%lu", (unsigned long)__entry->state, (unsigned long)__entry->cpu_id)
);

#endif
