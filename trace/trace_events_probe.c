/*
 * trace_events_probe.c: the function probes that turn an event on or
 * off (Linux's event_enable_func in kernel/trace/trace_events.c):
 *
 *   echo 'fib:enable_event:sched:sched_switch:1' > set_ftrace_filter
 *
 * puts sched_switch in soft mode (registered, recording nothing: its
 * enable reads 0*) and enables it on fib's first call (1*). Each
 * event, direction and counted-or-not is its own probe, as in Linux:
 * `!fib:enable_event:sched:sched_switch` does not remove the counted
 * one (ENODEV), `!...:0` does. The event leaves soft mode when its
 * probe leaves its last function.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "kstrtox.h"
#include "printf.h"
#include "trace_events.h"

struct event_probe_data {
	struct ftrace_probe_ops ops;	/* first: ops is how a call finds it */
	struct trace_event_call *call;
	bool enable;
	struct event_probe_data *next;
	char name[64];			/* enable_event:SYS:EVENT */
};

/* Under the ftrace command's caller; freed from the probe's free hook. */
static struct event_probe_data *event_probes;

static bool event_probe_acts(struct event_probe_data *d)
{
	return !!(READ_ONCE(d->call->flags) & EVENT_FL_SOFT_DISABLED) ==
	       d->enable;
}

static void event_enable_probe(unsigned long ip, unsigned long parent_ip,
			       struct trace_array *tr,
			       struct ftrace_probe_ops *ops, long *count)
{
	struct event_probe_data *d = (struct event_probe_data *)ops;

	if (event_probe_acts(d))
		trace_event_soft_enable(d->call, d->enable);
}

/* A count is spent only when the probe changes the event. */
static void event_enable_count_probe(unsigned long ip, unsigned long parent_ip,
				     struct trace_array *tr,
				     struct ftrace_probe_ops *ops, long *count)
{
	struct event_probe_data *d = (struct event_probe_data *)ops;
	long old = READ_ONCE(*count);

	if (old <= 0 || !event_probe_acts(d))
		return;
	trace_event_soft_enable(d->call, d->enable);
	WRITE_ONCE(*count, old - 1);
}

static void event_probe_free(struct ftrace_probe_ops *ops)
{
	struct event_probe_data *d = (struct event_probe_data *)ops, **p;

	for (p = &event_probes; *p != d; p = &(*p)->next)
		;
	*p = d->next;
	trace_event_soft_mode(d->call, false);
	kfree(d);
}

static struct event_probe_data *event_probe_find(struct trace_event_call *call,
						 bool enable, bool counted)
{
	struct event_probe_data *d;

	for (d = event_probes; d; d = d->next)
		if (d->call == call && d->enable == enable &&
		    d->ops.counted == counted)
			return d;
	return NULL;
}

/* A new probe's data, its event put in soft mode. */
static struct event_probe_data *event_probe_new(struct trace_event_call *call,
						bool enable, bool counted)
{
	struct event_probe_data *d = kzalloc(sizeof(*d));

	if (!d)
		return NULL;
	snprintf(d->name, sizeof(d->name), "%s:%s:%s",
		 enable ? "enable_event" : "disable_event", call->system,
		 call->name);
	d->ops = (struct ftrace_probe_ops){
		d->name, counted ? event_enable_count_probe : event_enable_probe,
		counted, event_probe_free };
	d->call = call;
	d->enable = enable;
	if (trace_event_soft_mode(call, true)) {
		kfree(d);
		return NULL;
	}
	d->next = event_probes;
	event_probes = d;
	return d;
}

/* param: SYS:EVENT[:N] */
static int event_enable_func(struct trace_array *tr, const char *glob,
			     int len, const char *param, bool enable,
			     bool remove)
{
	char buf[128], *sys = buf, *name, *count;
	struct trace_event_call *call;
	struct event_probe_data *d;
	long n = -1;
	bool created;
	int ret;

	if (!param || strlcpy(buf, param, sizeof(buf)) >= sizeof(buf))
		return -EINVAL;
	name = strchr(sys, ':');
	if (!name)
		return -EINVAL;
	*name++ = 0;
	count = strchr(name, ':');
	if (count)
		*count++ = 0;
	if (count && kstrtol(count, 0, &n))
		return -EINVAL;
	call = trace_event_find(tr, sys, name);
	if (!call || !call->tp)
		return -EINVAL;
	d = event_probe_find(call, enable, count);
	if (remove)
		return d ? unregister_ftrace_function_probe_func(glob, len, tr,
								 &d->ops) :
			   -ENODEV;
	created = !d;
	if (created)
		d = event_probe_new(call, enable, count);
	if (!d)
		return -ENOMEM;
	ret = register_ftrace_function_probe(glob, len, tr, &d->ops, n);
	if (ret <= 0 && created)
		event_probe_free(&d->ops);
	return ret < 0 ? ret : ret ? 0 : -EINVAL;
}

static int event_enable_cmd(struct trace_array *tr, const char *glob, int len,
			    const char *param, bool remove)
{
	return event_enable_func(tr, glob, len, param, true, remove);
}

static int event_disable_cmd(struct trace_array *tr, const char *glob,
			     int len, const char *param, bool remove)
{
	return event_enable_func(tr, glob, len, param, false, remove);
}

static struct ftrace_func_command event_enable_command = {
	.name = "enable_event", .func = event_enable_cmd,
};

static struct ftrace_func_command event_disable_command = {
	.name = "disable_event", .func = event_disable_cmd,
};

int register_event_probe_commands(void)
{
	return register_ftrace_command(&event_enable_command) ?:
	       register_ftrace_command(&event_disable_command);
}
