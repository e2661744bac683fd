/*
 * trace_events_trigger.c: an event's triggers (Linux's
 * kernel/trace/trace_events_trigger.c), commands written to
 * events/SYS/EVENT/trigger that run when the event fires:
 *
 *   traceon | traceoff | snapshot | stacktrace [:N] [if FILTER]
 *   enable_event:SYS:EVENT | disable_event:SYS:EVENT  [:N] [if FILTER]
 *
 * `:N` runs it N times, counted only when it changes something (as
 * Linux's *_count_trigger); `!` before the command removes it. An
 * enable_event trigger puts its target in soft mode: registered, and
 * recording only once the trigger enabled it. A snapshot trigger
 * allocates the spare buffer when it is set, as Linux's does, and
 * takes the snapshot where it fires, in any context
 * (trace/trace_snapshot.c:update_max_tr).
 *
 * A trigger acts on its event's trace array: an instance's event
 * triggers stop, snapshot or stack that instance's buffer, and enable
 * its events.
 *
 * The triggers are a list the probe walks without a lock (RCU): added
 * at the tail once filled in, unlinked and freed after synchronize_rcu.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "kstrtox.h"
#include "rcu.h"
#include "trace_events.h"

enum trigger_type {
	ETT_TRACE_ONOFF,
	ETT_SNAPSHOT,
	ETT_STACKTRACE,
	ETT_EVENT_ENABLE,
};

struct event_trigger {
	struct event_trigger *next;
	enum trigger_type type;
	bool on;			/* traceon, enable_event */
	long count;			/* -1: unlimited */
	struct event_filter *filter;
	char *filter_str;
	struct trace_event_call *call;		/* whose trigger it is */
	struct trace_event_call *target;	/* enable/disable_event */
};

static const char *trigger_name(const struct event_trigger *t)
{
	switch (t->type) {
	case ETT_TRACE_ONOFF:
		return t->on ? "traceon" : "traceoff";
	case ETT_SNAPSHOT:
		return "snapshot";
	case ETT_STACKTRACE:
		return "stacktrace";
	default:
		return t->on ? "enable_event" : "disable_event";
	}
}

/* ---- firing -------------------------------------------------------------- */

/*
 * Would the trigger change anything now? Only then does it count. A
 * trigger acts on its event's trace array.
 */
static bool trigger_would_act(const struct event_trigger *t)
{
	switch (t->type) {
	case ETT_TRACE_ONOFF:
		return tracer_tracing_is_on(t->call->tr) != t->on;
	case ETT_EVENT_ENABLE:
		return !!(READ_ONCE(t->target->flags) &
			  EVENT_FL_SOFT_DISABLED) == t->on;
	default:
		return true;
	}
}

static void trigger_act(const struct event_trigger *t)
{
	struct trace_array *tr = t->call->tr;

	switch (t->type) {
	case ETT_TRACE_ONOFF:
		if (t->on)
			tracer_tracing_on(tr);
		else
			tracer_tracing_off(tr);
		break;
	case ETT_SNAPSHOT:
		tracing_snapshot_instance(tr);
		break;
	case ETT_STACKTRACE:
		trace_event_stack(tr, tracing_gen_ctx_dec(1));
		break;
	default:
		trace_event_soft_enable(t->target, t->on);
	}
}

/*
 * Before the record is written (post false) the triggers without a
 * filter run; after it, those whose filter the record passes.
 */
void event_triggers_call(struct trace_event_call *call, const void *rec,
			 bool post)
{
	struct event_trigger *t;

	for (t = READ_ONCE(call->triggers); t; t = READ_ONCE(t->next)) {
		if (!!t->filter != post ||
		    (t->filter && !filter_match_preds(t->filter, rec)))
			continue;
		if (!trigger_would_act(t) || !t->count)
			continue;
		if (t->count > 0)
			t->count--;
		trigger_act(t);
	}
}

/* ---- the file -------------------------------------------------------------- */

void event_trigger_show(struct trace_event_call *call, struct seq_buf *s)
{
	struct event_trigger *t;

	mutex_lock(&event_mutex);
	if (!call->triggers)
		seq_puts(s, "# Available triggers:\n# traceon traceoff "
			 "snapshot stacktrace enable_event disable_event\n");
	for (t = call->triggers; t; t = t->next) {
		seq_puts(s, trigger_name(t));
		if (t->type == ETT_EVENT_ENABLE)
			seq_printf(s, ":%s:%s", t->target->system,
				   t->target->name);
		if (t->count < 0)
			seq_puts(s, ":unlimited");
		else
			seq_printf(s, ":count=%ld", t->count);
		seq_printf(s, t->filter_str ? " if %s\n" : "\n", t->filter_str);
	}
	mutex_unlock(&event_mutex);
}

/* A registered trigger holds its event, and any target, in soft mode. */
static void trigger_free(struct event_trigger *t)
{
	if (t->call)
		trace_event_soft_mode(t->call, false);
	if (t->type == ETT_EVENT_ENABLE && t->target)
		trace_event_soft_mode(t->target, false);
	free_event_filter(t->filter);
	kfree(t->filter_str);
	kfree(t);
}

/* Two triggers are the same if they do the same thing. */
static bool trigger_same(const struct event_trigger *a,
			 const struct event_trigger *b)
{
	return a->type == b->type && a->on == b->on && a->target == b->target;
}

static struct event_trigger **trigger_find(struct trace_event_call *call,
					   const struct event_trigger *like)
{
	struct event_trigger **p;

	for (p = &call->triggers; *p; p = &(*p)->next)
		if (trigger_same(*p, like))
			return p;
	return NULL;
}

/* With event_mutex held; -EEXIST if one like it is there already. */
static int trigger_add(struct trace_event_call *call, struct event_trigger *t)
{
	struct event_trigger **p = &call->triggers;

	if (trigger_find(call, t))
		return -EEXIST;
	while (*p)
		p = &(*p)->next;
	__atomic_store_n(p, t, __ATOMIC_RELEASE);
	return 0;
}

/* Unlink the trigger like this one; free it once no probe can see it. */
static void trigger_remove(struct trace_event_call *call,
			   const struct event_trigger *like)
{
	struct event_trigger **p, *t = NULL;

	mutex_lock(&event_mutex);
	p = trigger_find(call, like);
	if (p) {
		t = *p;
		WRITE_ONCE(*p, t->next);
	}
	mutex_unlock(&event_mutex);
	if (!t)
		return;
	synchronize_rcu();
	trigger_free(t);
}

/* Every trigger of call, as its array goes (rmdir of an instance). */
void event_triggers_free(struct trace_event_call *call)
{
	struct event_trigger *t, *next;

	mutex_lock(&event_mutex);
	t = call->triggers;
	WRITE_ONCE(call->triggers, NULL);
	mutex_unlock(&event_mutex);
	if (!t)
		return;
	synchronize_rcu();
	for (; t; t = next) {
		next = t->next;
		trigger_free(t);
	}
}

static int trigger_alloc_snapshot(struct trace_array *tr)
{
	int ret;

	mutex_lock(&trace_types_lock);
	ret = tracing_alloc_snapshot_instance(tr);
	mutex_unlock(&trace_types_lock);
	return ret;
}

/*
 * As Linux's: a trigger puts its event in soft mode (registered, so the
 * trigger runs, but recording only if enabled: enable reads 0*), and an
 * enable_event trigger its target too.
 */
static int trigger_register(struct trace_event_call *call,
			    struct event_trigger *t)
{
	struct trace_event_call *target = t->target;
	int ret = 0;

	if (t->type == ETT_SNAPSHOT)
		ret = trigger_alloc_snapshot(call->tr);
	if (ret) {
		trigger_free(t);
		return ret;
	}
	ret = trace_event_soft_mode(call, true);

	t->target = NULL;
	if (!ret)
		t->call = call;
	if (!ret && t->type == ETT_EVENT_ENABLE) {
		ret = trace_event_soft_mode(target, true);
		t->target = ret ? NULL : target;
	}
	if (ret) {
		trigger_free(t);
		return ret;
	}
	mutex_lock(&event_mutex);
	ret = trigger_add(call, t);
	mutex_unlock(&event_mutex);
	if (ret)
		trigger_free(t);
	return ret;
}

/*
 * CMD, then enable_event's SYS:EVENT (an event of tr's), then :N;
 * NULL-free on error.
 */
static int parse_command(struct trace_array *tr, char *cmd,
			 struct event_trigger *t)
{
	char *sys, *name = NULL, *count = strchr(cmd, ':');

	if (count)
		*count++ = 0;
	t->on = !strcmp(cmd, "traceon") || !strcmp(cmd, "enable_event");
	if (t->on || !strcmp(cmd, "traceoff"))
		t->type = !strcmp(cmd, "enable_event") ? ETT_EVENT_ENABLE :
							ETT_TRACE_ONOFF;
	else if (!strcmp(cmd, "snapshot"))
		t->type = ETT_SNAPSHOT;
	else if (!strcmp(cmd, "stacktrace"))
		t->type = ETT_STACKTRACE;
	else if (!strcmp(cmd, "disable_event"))
		t->type = ETT_EVENT_ENABLE;
	else
		return -EINVAL;
	if (t->type == ETT_EVENT_ENABLE) {
		sys = count;
		name = sys ? strchr(sys, ':') : NULL;
		if (!name)
			return -EINVAL;
		*name++ = 0;
		count = strchr(name, ':');
		if (count)
			*count++ = 0;
		t->target = trace_event_find(tr, sys, name);
		if (!t->target || !t->target->tp)
			return -EINVAL;
	}
	t->count = -1;
	if (count && kstrtol(count, 0, &t->count))
		return -EINVAL;
	return 0;
}

/* `[!]CMD[:N] [if FILTER]`, one per write. */
int event_trigger_write(struct trace_event_call *call, char *buf)
{
	char *cmd = trace_next_word(&buf), *rest;
	struct event_trigger *t;
	bool remove;
	int ret;

	if (!cmd)
		return 0;
	remove = *cmd == '!';
	t = kzalloc(sizeof(*t));
	if (!t)
		return -ENOMEM;
	ret = parse_command(call->tr, cmd + remove, t);
	rest = strim(buf);
	if (!ret && *rest && !remove) {
		ret = str_has_prefix(rest, "if ") ?
			create_trigger_filter(call, strim(rest + 3), &t->filter) :
			-EINVAL;
		t->filter_str = ret ? NULL : kstrdup(strim(rest + 3));
		if (!ret && !t->filter_str)
			ret = -ENOMEM;
	}
	if (ret || remove) {
		if (remove && !ret)
			trigger_remove(call, t);
		free_event_filter(t->filter);
		kfree(t->filter_str);
		kfree(t);
		return ret;
	}
	return trigger_register(call, t);
}
