/*
 * trace_entries.c: the tracers' own records as events/ftrace/ shows
 * them (Linux's kernel/trace/trace_entries.h): a format and an id
 * each, no enable, as in Linux, where the tracers write them. The
 * formats are Linux's entries, as trace_pipe_raw converts rvftrace's
 * compact records into them (trace_pipe_raw.c): 64-bit addresses, a
 * function_graph return with its two times. Each id is its entry type.
 */
#include "kernel.h"
#include "trace_events.h"

#define FIELD(t, n, off, sz, sign)	{ .type = t, .name = n, .size = sz, \
					  .align = 4, .offset = off,	     \
					  .is_signed = sign }

static struct trace_event_field function_fields[] = {
	FIELD("unsigned long", "ip", 8, 8, 0),
	FIELD("unsigned long", "parent_ip", 16, 8, 0),
	{ 0 },
};

/* Linux's FTRACE_CTX_FIELDS, which wakeup shares (FTRACE_ENTRY_DUP). */
static struct trace_event_field context_switch_fields[] = {
	FIELD("unsigned int", "prev_pid", 8, 4, 0),
	FIELD("unsigned int", "next_pid", 12, 4, 0),
	FIELD("unsigned int", "next_cpu", 16, 4, 0),
	FIELD("unsigned char", "prev_prio", 20, 1, 0),
	FIELD("unsigned char", "prev_state", 21, 1, 0),
	FIELD("unsigned char", "next_prio", 22, 1, 0),
	FIELD("unsigned char", "next_state", 23, 1, 0),
	{ 0 },
};
#define wakeup_fields	context_switch_fields

static struct trace_event_field kernel_stack_fields[] = {
	FIELD("int", "size", 8, 4, 1),
	FIELD("unsigned long[16]", "caller", 16, 8 * FTRACE_STACK_ENTRIES, 0),
	{ 0 },
};

static struct trace_event_field print_fields[] = {
	FIELD("unsigned long", "ip", 8, 8, 0),
	FIELD("char[]", "buf", 16, 0, 0),
	{ 0 },
};

static struct trace_event_field bprint_fields[] = {
	FIELD("unsigned long", "ip", 8, 8, 0),
	FIELD("const char *", "fmt", 16, 8, 0),
	FIELD("u32[]", "buf", 24, 0, 0),
	{ 0 },
};

static struct trace_event_field raw_data_fields[] = {
	FIELD("unsigned int", "id", 8, 4, 0),
	FIELD("char[]", "buf", 12, 0, 0),
	{ 0 },
};

static struct trace_event_field funcgraph_entry_fields[] = {
	FIELD("unsigned long", "func", 8, 8, 0),
	FIELD("int", "depth", 16, 4, 1),
	{ 0 },
};

static struct trace_event_field funcgraph_exit_fields[] = {
	FIELD("unsigned long", "func", 8, 8, 0),
	FIELD("int", "depth", 16, 4, 1),
	FIELD("unsigned int", "overrun", 20, 4, 0),
	FIELD("unsigned long long", "calltime", 24, 8, 0),
	FIELD("unsigned long long", "rettime", 32, 8, 0),
	{ 0 },
};

/* Linux prints 8 callers; rvftrace's stack entries hold 16. */
#define STACK_FMT4	"\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n"
#define STACK_ARGS4(a, b, c, d)						\
	", (void *)REC->caller[" #a "], (void *)REC->caller[" #b "]"	\
	", (void *)REC->caller[" #c "], (void *)REC->caller[" #d "]"

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
	     "\"<-- %ps (%d) (start: %llx  end: %llx) over: %d\", "
	     "(void *)REC->func, REC->depth, REC->calltime, REC->rettime, "
	     "REC->depth");
#define CTX_ARGS	", REC->prev_pid, REC->prev_prio, REC->prev_state, " \
			"REC->next_pid, REC->next_prio, REC->next_state, " \
			"REC->next_cpu"
FTRACE_ENTRY(context_switch, TRACE_CTX,
	     "\"%u:%u:%u  ==> %u:%u:%u [%03u]\"" CTX_ARGS);
FTRACE_ENTRY(wakeup, TRACE_WAKE,
	     "\"%u:%u:%u  ==+ %u:%u:%u [%03u]\"" CTX_ARGS);
FTRACE_ENTRY(kernel_stack, TRACE_STACK,
	     "\"" STACK_FMT4 STACK_FMT4 STACK_FMT4 STACK_FMT4 "\""
	     STACK_ARGS4(0, 1, 2, 3) STACK_ARGS4(4, 5, 6, 7)
	     STACK_ARGS4(8, 9, 10, 11) STACK_ARGS4(12, 13, 14, 15));
FTRACE_ENTRY(print, TRACE_PRINT, "\"%ps: %s\", (void *)REC->ip, REC->buf");
FTRACE_ENTRY(bprint, TRACE_BPRINT,
	     "\"%ps: %s\", (void *)REC->ip, REC->fmt");
FTRACE_ENTRY(raw_data, TRACE_RAW_DATA,
	     "\"id:%04x %08x\", REC->id, (int)REC->buf[0]");
