/*
 * trace_events.c: trace events (Linux's kernel/trace/trace_events.c).
 * Each event the kernel declares (trace_events_kernel.c, from
 * include/trace/events/) is a struct trace_event_call in the
 * .ftrace_events table. Enabling one registers its probe on its
 * tracepoint, which patches the tracepoint's site from a c.nop to a
 * jump (kernel/jump_label.c); the probe writes a record into the same
 * ring buffer as the tracers, so events and functions interleave.
 *
 * An event is on for tracefs (enable, set_event) or in soft mode for
 * enable_event/disable_event probes and triggers: then it is
 * registered, and records only while not soft-disabled. The flags are
 * Linux's EVENT_FILE_FL_*, and __ftrace_event_enable_disable moves
 * between them as Linux's does, so enable reads 0, 1, 0* or 1* alike.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "printk.h"
#include "printf.h"
#include "rcu.h"
#include "trace_events.h"

extern struct trace_event_call *const __start_ftrace_events[],
	*const __stop_ftrace_events[];

LIST_HEAD(trace_events);
DEFINE_MUTEX(event_mutex);

/* Ids above the tracers' own entry types (trace.h, enum trace_type). */
#define TRACE_EVENT_FIRST_ID	32

/* ---- the table ----------------------------------------------------------- */

/* Each printed event asks: an array by id, filled at boot. */
static struct trace_event_call **events_by_id;

/*
 * Each field after the one before, aligned as C lays out the record;
 * the tracers' own records (trace_entries.c) come laid out.
 */
static void trace_event_layout(const struct trace_event_class *class)
{
	struct trace_event_field *f;
	int offset = TRACE_EVENT_COMMON_SIZE;

	if (!class->size)
		return;
	for (f = class->fields; f->name; f++) {
		offset = (offset + f->align - 1) & -f->align;
		f->offset = offset;
		offset += f->size;
	}
	WARN_ON((offset + 7) / 8 != (class->size + 7) / 8);
}

/*
 * The table's order is the compiler's; the list's is the order the
 * events are declared in (include/trace/events.h), which Linux's files
 * follow. Ids are given in that order.
 */
static void trace_event_insert(struct trace_event_call *call)
{
	struct trace_event_call *pos;

	list_for_each_entry(pos, &trace_events, list)
		if (pos->order > call->order)
			break;
	list_add_tail(&call->list, &pos->list);
}

void trace_events_init(void)
{
	struct trace_event_call *const *p, *call;
	int id = TRACE_EVENT_FIRST_ID;

	for (p = __start_ftrace_events; p < __stop_ftrace_events; p++) {
		trace_event_layout((*p)->class);
		trace_event_insert(*p);
	}
	events_by_id = kmalloc((__stop_ftrace_events - __start_ftrace_events) *
			       sizeof(*events_by_id));
	if (!events_by_id)
		panic("trace events: no memory");
	list_for_each_entry(call, &trace_events, list) {
		call->tr = &global_trace;
		if (!call->tp)
			continue;	/* the tracers' own: its entry type */
		events_by_id[id - TRACE_EVENT_FIRST_ID] = call;
		call->id = id++;
	}
}

/* The events of a trace array: the table's, or an instance's copies. */
struct list_head *trace_event_list(struct trace_array *tr)
{
	return tr == &global_trace ? &trace_events : &tr->events;
}

/*
 * An instance's copy of each event that has a tracepoint, off, with no
 * filter or trigger (Linux's trace_create_new_event, per event call).
 */
int trace_array_add_events(struct trace_array *tr)
{
	struct trace_event_call *call, *copy;

	INIT_LIST_HEAD(&tr->events);
	list_for_each_entry(call, &trace_events, list) {
		if (!call->tp)
			continue;
		copy = kmalloc(sizeof(*copy));
		if (!copy) {
			trace_array_remove_events(tr);
			return -ENOMEM;
		}
		*copy = (struct trace_event_call){
			.system = call->system, .name = call->name,
			.class = call->class, .tp = call->tp,
			.order = call->order, .id = call->id, .tr = tr,
		};
		list_add_tail(&copy->list, &tr->events);
	}
	return 0;
}

/*
 * Their triggers gone, off, then freed once no probe can still be
 * running with one as its data or reading the pid lists
 * (tracepoint_probe_unregister has waited for that).
 */
void trace_array_remove_events(struct trace_array *tr)
{
	struct trace_event_call *call, *next;

	list_for_each_entry(call, &tr->events, list)
		event_triggers_free(call);
	list_for_each_entry_safe(call, next, &tr->events, list) {
		trace_event_enable(call, false);
		apply_event_filter(call, "0");
	}
	synchronize_rcu();
	list_for_each_entry_safe(call, next, &tr->events, list) {
		list_del(&call->list);
		kfree(call);
	}
	trace_pid_list_free(tr->event_pids);
	trace_pid_list_free(tr->event_notrace_pids);
	tr->event_pids = tr->event_notrace_pids = NULL;
}

/* An event of tr's by its system (any, if NULL) and name. */
struct trace_event_call *trace_event_find(struct trace_array *tr,
					  const char *system, const char *name)
{
	struct trace_event_call *call;

	list_for_each_entry(call, trace_event_list(tr), list)
		if ((!system || !strcmp(call->system, system)) &&
		    !strcmp(call->name, name))
			return call;
	return NULL;
}

struct trace_event_call *trace_event_find_id(int id)
{
	int nr = __stop_ftrace_events - __start_ftrace_events;

	if (id < TRACE_EVENT_FIRST_ID || id >= TRACE_EVENT_FIRST_ID + nr)
		return NULL;
	return events_by_id[id - TRACE_EVENT_FIRST_ID];
}

const struct trace_event_field *trace_event_field_find(
	const struct trace_event_call *call, const char *name)
{
	const struct trace_event_field *f;

	for (f = call->class->fields; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

/* ---- on and off ------------------------------------------------------------ */

static int event_reg(struct trace_event_call *call, bool on)
{
	if (on)
		return tracepoint_probe_register(call->tp, call->class->probe,
						 call);
	return tracepoint_probe_unregister(call->tp, call->class->probe, call);
}

/*
 * Linux's __ftrace_event_enable_disable: soft_disable is for the
 * enable_event/disable_event commands, which register the probe
 * (soft mode) and only flip EVENT_FL_SOFT_DISABLED when they fire.
 */
static int __ftrace_event_enable_disable(struct trace_event_call *call,
					 bool enable, bool soft_disable)
{
	unsigned long flags = call->flags;
	bool disable;
	int ret;

	if (!enable) {
		if (soft_disable) {
			if (--call->soft_refs > 0)
				return 0;
			disable = flags & EVENT_FL_SOFT_DISABLED;
			flags &= ~EVENT_FL_SOFT_MODE;
		} else {
			disable = !(flags & EVENT_FL_SOFT_MODE);
		}
		if (disable && (flags & EVENT_FL_ENABLED)) {
			flags &= ~EVENT_FL_ENABLED;
			event_reg(call, false);
		}
		if (flags & EVENT_FL_SOFT_MODE)
			flags |= EVENT_FL_SOFT_DISABLED;
		else
			flags &= ~EVENT_FL_SOFT_DISABLED;
		WRITE_ONCE(call->flags, flags);
		return 0;
	}
	if (!soft_disable) {
		flags &= ~EVENT_FL_SOFT_DISABLED;
	} else if (++call->soft_refs == 1) {
		flags |= EVENT_FL_SOFT_MODE;
	} else {
		return 0;
	}
	if (!(flags & EVENT_FL_ENABLED)) {
		if (soft_disable)
			flags |= EVENT_FL_SOFT_DISABLED;
		WRITE_ONCE(call->flags, flags);
		ret = event_reg(call, true);
		if (ret) {
			pr_warn("event trace: Could not enable event %s\n",
				call->name);
			call->soft_refs -= soft_disable;
			WRITE_ONCE(call->flags, call->flags &
				   ~(EVENT_FL_SOFT_MODE | EVENT_FL_SOFT_DISABLED));
			return ret;
		}
		flags |= EVENT_FL_ENABLED;
	}
	WRITE_ONCE(call->flags, flags);
	return 0;
}

/* Only the events with a tracepoint can be turned on. */
int trace_event_enable(struct trace_event_call *call, bool enable)
{
	int ret;

	if (!call->tp)
		return -EINVAL;
	mutex_lock(&event_mutex);
	ret = __ftrace_event_enable_disable(call, enable, false);
	mutex_unlock(&event_mutex);
	return ret;
}

int trace_event_soft_mode(struct trace_event_call *call, bool on)
{
	int ret;

	mutex_lock(&event_mutex);
	ret = __ftrace_event_enable_disable(call, on, true);
	mutex_unlock(&event_mutex);
	return ret;
}

/* From a probe or a trigger, as it fires: no lock, one bit. */
void trace_event_soft_enable(struct trace_event_call *call, bool enable)
{
	if (enable)
		__atomic_fetch_and(&call->flags, ~EVENT_FL_SOFT_DISABLED,
				   __ATOMIC_RELAXED);
	else
		__atomic_fetch_or(&call->flags, EVENT_FL_SOFT_DISABLED,
				  __ATOMIC_RELAXED);
}

/* ---- recording ------------------------------------------------------------- */

/* Soft-disabled, an event records nothing, but its triggers run. */
bool trace_event_ignore(struct trace_event_call *call)
{
	return (READ_ONCE(call->flags) & EVENT_FL_SOFT_DISABLED) &&
	       !READ_ONCE(call->triggers);
}

/*
 * The probe filled the fields; then, as Linux's trace_event_buffer_commit,
 * the triggers without a filter (so a traceoff trigger's own event is
 * not written), set_event_pid, the filter and the ring buffer, and the
 * triggers whose filter needs the record. A soft-disabled event only
 * runs triggers.
 */
void trace_event_commit(struct trace_event_call *call, void *rec,
			unsigned int len)
{
	struct trace_event_common *common = rec;
	struct event_filter *filter = READ_ONCE(call->filter);
	bool triggers = READ_ONCE(call->triggers);
	u32 ctx = tracing_gen_ctx_dec(1);

	common->ent.ctx = ctx | TRACE_RAW_EVENT;
	common->common_type = call->id;
	common->pad = 0;
	if (unlikely(triggers))
		event_triggers_call(call, rec, false);
	if (!(READ_ONCE(call->flags) & EVENT_FL_SOFT_DISABLED) &&
	    !trace_event_pid_ignored(call->tr) &&
	    (!filter || filter_match_preds(filter, rec))) {
		ring_buffer_write(call->tr->buffer, (len + 3) & ~3U, rec);
		/* The stacktrace option: each event's stack after it. */
		if (unlikely(call->tr->trace_flags & TRACE_ITER_STACKTRACE))
			trace_event_stack(call->tr, ctx);
	}
	if (unlikely(triggers))
		event_triggers_call(call, rec, true);
}

/* ---- printing -------------------------------------------------------------- */

/*
 * Linux's trace_print_flags_seq: the names of the set bits, then what
 * is left in hex, into p (TRACE_PRINT_SCRATCH bytes).
 */
const char *trace_print_flags_seq(char *p, const char *delim,
				  unsigned long flags,
				  const struct trace_print_flags *flag_array)
{
	char *s = p, *end = p + TRACE_PRINT_SCRATCH;
	int i;

	*p = 0;
	for (i = 0; flag_array[i].name && flags; i++) {
		unsigned long mask = flag_array[i].mask;

		if ((flags & mask) != mask)
			continue;
		flags &= ~mask;
		s += snprintf(s, end - s, "%s%s", s != p ? delim : "",
			      flag_array[i].name);
	}
	if (flags && s < end)
		snprintf(s, end - s, "%s0x%lx", s != p ? delim : "", flags);
	return p;
}

/* `sched_switch: prev_comm=...`, the line after the context columns. */
void trace_event_print(struct seq_buf *s, const struct trace_entry *ent)
{
	const struct trace_event_common *common = (const void *)ent;
	struct trace_event_call *call = trace_event_find_id(common->common_type);
	char scratch[TRACE_PRINT_SCRATCH];

	if (!call) {
		seq_printf(s, "Unknown event %u\n", common->common_type);
		return;
	}
	seq_printf(s, "%s: ", call->name);
	call->class->print(s, ent, scratch);
}
