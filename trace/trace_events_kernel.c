/*
 * trace_events_kernel.c: the kernel's trace events, made from the
 * declarations in include/trace/events/ (trace_events_define.h says
 * how): each event's record, fields, printer, print fmt and probe, in
 * the .ftrace_events table that trace_events.c reads.
 */
#include "kernel.h"
#include "string.h"
#include "trace/events.h"

#define TRACE_INCLUDE_EVENTS	"trace/events.h"
#include "trace_events_define.h"
