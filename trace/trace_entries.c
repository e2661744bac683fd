/*
 * trace_entries.c: the tracers' own records as events/ftrace/ shows
 * them (Linux's kernel/trace/trace_entries.h): a format and an id
 * each, no enable, as in Linux, where the tracers write them. The
 * formats are rvftrace's records (trace.h): a 4-byte context word with
 * the type in it, addresses in 32 bits, a function_graph return with
 * its duration rather than its two times. Each id is its entry type.
 */
#include "kernel.h"
#include "trace_events.h"

#define FIELD(t, n, off, sz)	{ .type = t, .name = n, .size = sz, \
				  .align = 4, .offset = off }

static struct trace_event_field function_fields[] = {
	FIELD("unsigned int", "ip", 4, 4),
	FIELD("unsigned int", "parent_ip", 8, 4),
	{ 0 },
};

static struct trace_event_field kernel_stack_fields[] = {
	FIELD("unsigned int", "size", 4, 4),
	FIELD("unsigned int[16]", "caller", 8, 64),
	{ 0 },
};

static struct trace_event_field print_fields[] = {
	FIELD("unsigned int", "ip", 4, 4),
	FIELD("char[]", "buf", 8, 0),
	{ 0 },
};

static struct trace_event_field bprint_fields[] = {
	FIELD("unsigned int", "ip", 4, 4),
	FIELD("unsigned int", "fmt", 8, 4),
	FIELD("u32[]", "buf", 12, 0),
	{ 0 },
};

static struct trace_event_field funcgraph_entry_fields[] = {
	FIELD("unsigned int", "func", 4, 4),
	FIELD("unsigned int", "depth", 8, 4),
	{ 0 },
};

static struct trace_event_field funcgraph_exit_fields[] = {
	FIELD("unsigned int", "func", 4, 4),
	FIELD("unsigned int", "depth", 8, 4),
	FIELD("unsigned long long", "duration", 12, 8),
	{ 0 },
};

#define FTRACE_ENTRY(_name, _type, _fmt)				\
	static const struct trace_event_class ftrace_class_##_name = {	\
		.fields = _name##_fields,				\
		.print_fmt = _fmt,					\
	};								\
	static struct trace_event_call ftrace_event_##_name = {	\
		.system = "ftrace",					\
		.name = #_name,						\
		.class = &ftrace_class_##_name,				\
		.order = -1,						\
		.id = _type,						\
	};								\
	trace_event_section(_name) = &ftrace_event_##_name

FTRACE_ENTRY(function, TRACE_FN,
	     "\" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip");
FTRACE_ENTRY(funcgraph_entry, TRACE_GRAPH_ENT,
	     "\"--> %ps (%d)\", (void *)REC->func, REC->depth");
FTRACE_ENTRY(funcgraph_exit, TRACE_GRAPH_RET,
	     "\"<-- %ps (%d) (duration: %llu)\", (void *)REC->func, "
	     "REC->depth, REC->duration");
FTRACE_ENTRY(kernel_stack, TRACE_STACK,
	     "\"\\t=> %ps\\n\", (void *)REC->caller[0...size-1]");
FTRACE_ENTRY(print, TRACE_PRINT, "\"%ps: %s\", (void *)REC->ip, REC->buf");
FTRACE_ENTRY(bprint, TRACE_BPRINT,
	     "\"%ps: %s\", (void *)REC->ip, REC->fmt");
