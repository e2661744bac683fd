/*
 * trace_events.h: trace events, trace/'s side (Linux's struct
 * trace_event_call and trace_event_file in one): each event's record
 * layout, format, printer and probe, made from its TRACE_EVENT
 * declaration by trace_events_define.h, and its state in tracefs
 * (enable, filter, trigger).
 */
#ifndef _TRACE_EVENTS_H
#define _TRACE_EVENTS_H

#include "trace.h"
#include "tracepoint.h"

/*
 * Every event record begins with these 8 bytes, as Linux's struct
 * trace_entry does; the fields follow at Linux's offsets. rvftrace's
 * context word packs flags, preempt count and pid (trace.h), and the
 * event's id follows it.
 */
struct trace_event_common {
	struct trace_entry ent;		/* type TRACE_RAW_EVENT */
	u16 common_type;		/* the event's id */
	u16 pad;
};

#define TRACE_EVENT_COMMON_SIZE	((int)sizeof(struct trace_event_common))
/* The largest record an event writes; longer strings are cut. */
#define TRACE_EVENT_MAX_SIZE	256

enum filter_type {
	FILTER_OTHER,
	FILTER_STATIC_STRING,
	FILTER_DYN_STRING,
};

struct trace_event_field {
	const char *type;		/* "char[16]" for an array */
	const char *name;
	int size, align, is_signed;
	enum filter_type filter_type;
	int offset;			/* set at boot, after the one before */
};

/* What __print_flags may write, per event printed. */
#define TRACE_PRINT_SCRATCH	64

struct trace_print_flags {
	unsigned long mask;
	const char *name;
};

struct trace_event_class {
	struct trace_event_field *fields;	/* a NULL name ends them */
	int size;				/* sizeof the record */
	void *probe;
	void (*print)(struct seq_buf *s, const void *rec, char *scratch);
	const char *print_fmt;
};

struct event_filter;
struct event_trigger;

/* trace_event_call.flags */
#define EVENT_FL_ENABLED	0x1	/* probe registered */
#define EVENT_FL_SOFT_MODE	0x2	/* a probe or trigger may enable it */
#define EVENT_FL_SOFT_DISABLED	0x4	/* registered, records nothing */
#define EVENT_FL_USER		0x8	/* enable or set_event turned it on */

struct trace_event_call {
	const char *system;
	const char *name;
	const struct trace_event_class *class;
	struct tracepoint *tp;		/* NULL: the tracer writes it */
	int order;			/* where it is declared, in order */
	int id;
	unsigned long flags;
	int soft_refs;			/* enable_event probes and triggers */
	struct event_filter *filter;	/* RCU */
	char *filter_string;
	struct event_trigger *triggers;	/* RCU, oldest first */
	struct list_head list;		/* in trace_events, or tr->events */
	/*
	 * The trace array it records into. An instance has a copy of each
	 * event for its own state (Linux's struct trace_event_file).
	 */
	struct trace_array *tr;
};

#define trace_event_section(name)					\
	static struct trace_event_call *const __event_ptr_##name	\
		__section(".ftrace_events") __used __aligned(8)

extern struct list_head trace_events;
extern struct mutex event_mutex;

/* trace_events.c */
struct trace_event_call *trace_event_find(struct trace_array *tr,
					  const char *system, const char *name);
struct trace_event_call *trace_event_find_id(int id);
const struct trace_event_field *trace_event_field_find(
	const struct trace_event_call *call, const char *name);
int trace_event_enable(struct trace_event_call *call, bool enable);
int trace_event_soft_mode(struct trace_event_call *call, bool on);
void trace_event_soft_enable(struct trace_event_call *call, bool enable);
bool trace_event_ignore(struct trace_event_call *call);
void trace_event_commit(struct trace_event_call *call, void *rec,
			unsigned int len);
const char *trace_print_flags_seq(char *p, const char *delim,
				  unsigned long flags,
				  const struct trace_print_flags *flag_array);
void trace_event_print(struct seq_buf *s, const struct trace_entry *ent);
void trace_events_init(void);
struct list_head *trace_event_list(struct trace_array *tr);
int trace_array_add_events(struct trace_array *tr);
void trace_array_remove_events(struct trace_array *tr);
void trace_events_create_files(struct inode *dir);
void trace_events_create_tr_files(struct trace_array *tr, struct inode *dir);

/* trace_events_pid.c */
bool trace_event_pid_ignored(struct trace_array *tr);
void trace_event_pid_create_files(struct trace_array *tr, struct inode *dir);

/* trace_events_filter.c */
int create_trigger_filter(const struct trace_event_call *call, const char *str,
			  struct event_filter **out);
bool filter_match_preds(const struct event_filter *filter, const void *rec);
void free_event_filter(struct event_filter *filter);
int apply_event_filter(struct trace_event_call *call, const char *str);
int apply_subsystem_event_filter(struct trace_array *tr, const char *system,
				 const char *str);

/* trace_events_trigger.c */
void event_triggers_free(struct trace_event_call *call);
void event_triggers_call(struct trace_event_call *call, const void *rec,
			 bool post);
void event_trigger_show(struct trace_event_call *call, struct seq_buf *s);
int event_trigger_write(struct trace_event_call *call, char *buf);
int register_event_probe_commands(void);

#endif
