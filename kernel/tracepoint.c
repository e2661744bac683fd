/*
 * tracepoint.c: the tracepoints' objects and probes (Linux's
 * kernel/tracepoint.c). A probe is added or removed by replacing the
 * tracepoint's array whole: a call in progress goes on with the array
 * it loaded, and the old one is freed once synchronize_rcu has waited
 * every such call out (they run with preemption off). The first probe
 * turns the static key on, the last one off.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "rcu.h"
#include "tracepoint.h"

/* Each event header's tracepoints, defined once here. */
#undef DECLARE_EVENT_CLASS
#undef DEFINE_EVENT
#undef TRACE_EVENT
#define TRACE_HEADER_MULTI_READ
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)
#define DEFINE_EVENT(template, name, proto, args)			\
	DECLARE_TRACE(name, PARAMS(proto), PARAMS(args))		\
	DEFINE_TRACE_FN(name, PARAMS(proto), PARAMS(args))
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	DEFINE_EVENT(name, name, PARAMS(proto), PARAMS(args))
#include "trace/events.h"

extern struct tracepoint *const __start_tracepoints[], *const __stop_tracepoints[];

static DEFINE_MUTEX(tracepoints_mutex);

static int nr_funcs(const struct tracepoint_func *funcs)
{
	int n = 0;

	while (funcs && funcs[n].func)
		n++;
	return n;
}

/* Publish funcs, wait out the calls that use the old array, free it. */
static void tracepoint_swap(struct tracepoint *tp,
			    struct tracepoint_func *funcs)
{
	struct tracepoint_func *old = tp->funcs;

	WRITE_ONCE(tp->funcs, funcs);
	if (!old)
		return;
	synchronize_rcu();
	kfree(old);
}

int tracepoint_probe_register(struct tracepoint *tp, void *probe, void *data)
{
	struct tracepoint_func *funcs;
	int n, ret;

	mutex_lock(&tracepoints_mutex);
	n = nr_funcs(tp->funcs);
	ret = n < TRACEPOINT_MAX_PROBES ? static_key_usable(&tp->key) : -EBUSY;
	funcs = ret ? NULL : kzalloc((n + 2) * sizeof(*funcs));
	if (!ret && !funcs)
		ret = -ENOMEM;
	if (!ret) {
		if (n)
			memcpy(funcs, tp->funcs, n * sizeof(*funcs));
		funcs[n].func = probe;
		funcs[n].data = data;
		tracepoint_swap(tp, funcs);
		static_key_slow_inc(&tp->key);
	}
	mutex_unlock(&tracepoints_mutex);
	return ret;
}

static int probe_index(const struct tracepoint *tp, void *probe, void *data)
{
	int i;

	for (i = 0; i < nr_funcs(tp->funcs); i++)
		if (tp->funcs[i].func == probe && tp->funcs[i].data == data)
			return i;
	return -1;
}

/*
 * The array without the probe, or none once it was the last: then the
 * key goes off first, so no call starts on the array being freed.
 */
int tracepoint_probe_unregister(struct tracepoint *tp, void *probe,
				void *data)
{
	struct tracepoint_func *funcs = NULL;
	int n, i, ret = 0;

	mutex_lock(&tracepoints_mutex);
	n = nr_funcs(tp->funcs);
	i = probe_index(tp, probe, data);
	if (i < 0)
		ret = -ENOENT;
	else if (n > 1 && !(funcs = kzalloc(n * sizeof(*funcs))))
		ret = -ENOMEM;
	if (!ret) {
		if (funcs) {
			memcpy(funcs, tp->funcs, i * sizeof(*funcs));
			memcpy(funcs + i, tp->funcs + i + 1,
			       (n - i - 1) * sizeof(*funcs));
		}
		static_key_slow_dec(&tp->key);
		tracepoint_swap(tp, funcs);
	}
	mutex_unlock(&tracepoints_mutex);
	return ret;
}

struct tracepoint *tracepoint_find(const char *name)
{
	struct tracepoint *const *tp;

	for (tp = __start_tracepoints; tp < __stop_tracepoints; tp++)
		if (!strcmp((*tp)->name, name))
			return *tp;
	return NULL;
}
