/*
 * timer events (Linux's include/trace/events/timer.h): the tick. Linux
 * runs it as the hrtimer tick_sched_timer; here it is each CPU's timer
 * interrupt, and hrtimer names that CPU's tick (struct cpu).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM timer

#if !defined(_TRACE_TIMER_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_TIMER_H

#include "tracepoint.h"

TRACE_EVENT(hrtimer_expire_entry,
	TP_PROTO(void *hrtimer, s64 now, void *function),
	TP_ARGS(hrtimer, now, function),
	TP_STRUCT__entry(
		__field(void *, hrtimer)
		__field(s64, now)
		__field(void *, function)
	),
	TP_fast_assign(
		__entry->hrtimer = hrtimer;
		__entry->now = now;
		__entry->function = function;
	),
	TP_printk("hrtimer=%p function=%ps now=%llu", __entry->hrtimer, __entry->function, (unsigned long long) __entry->now)
);

TRACE_EVENT(hrtimer_expire_exit,
	TP_PROTO(void *hrtimer),
	TP_ARGS(hrtimer),
	TP_STRUCT__entry(
		__field(void *, hrtimer)
	),
	TP_fast_assign(
		__entry->hrtimer = hrtimer;
	),
	TP_printk("hrtimer=%p", __entry->hrtimer)
);

#endif
