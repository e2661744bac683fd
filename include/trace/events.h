/*
 * The kernel's event headers, in the order Linux's events/ lists their
 * systems: the tracepoints' definitions (kernel/tracepoint.c) and
 * trace/'s events (trace/trace_events_kernel.c) read them all.
 */
#include "trace/events/power.h"
#include "trace/events/timer.h"
#include "trace/events/sched.h"
#include "trace/events/irq.h"
#include "trace/events/ipi.h"
