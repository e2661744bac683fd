/*
 * trace_snapshot.c: the snapshot, a spare ("max") buffer beside the
 * live one (Linux's tracing_snapshot, tracing_alloc_snapshot and
 * update_max_tr in kernel/trace/trace.c, and its ftrace_snapshot
 * command).
 *
 * Taking it (update_max_tr) trades the two buffers' roles, as Linux
 * swaps tr->array_buffer.buffer with max_buffer.buffer: tr->buffer and
 * tr->max_buffer change places and, at the top level, so does each
 * CPU's cached writer (cpus[].trace_buffer, where the trampolines'
 * fast paths write), all under tr->max_lock with interrupts off.
 * Nothing waits for another CPU, so it runs from any context: an event
 * trigger under the run-queue lock, a function probe, an interrupt.
 *
 *  - Writers find their buffer once per event and finish the event on
 *    it: one that found it before the swap finishes into what is now
 *    the snapshot, as on Linux. Freeing the snapshot waits them out
 *    (synchronize_rcu: they write with preemption off).
 *  - Consuming readers (trace_pipe, trace_pipe_raw, ftrace_dump) lock
 *    the live buffer with tracing_buffer_lock, which tries again if a
 *    swap moved it meanwhile; no swap happens while they hold it
 *    (ring_buffer_swap_begin), so tr->buffer stays theirs until unlock.
 *  - An open iterator (`trace`, `snapshot`) holds its buffer's pages
 *    across reads and sleeps: while one is open, the snapshot is not
 *    taken (-EBUSY), where Linux swaps under it and the iterator reads
 *    on in what became the snapshot. So is a snapshot while tracing is
 *    stopped (pause-on-trace), as on Linux.
 *
 * The other way, each CPU swapping its own pages when an IPI reaches
 * it, would give a snapshot taken at as many moments as CPUs, and
 * tracing_snapshot() could not say when it was done.
 *
 * One CPU's pages alone (per_cpu/cpuN/snapshot, Linux's
 * update_max_tr_single) swap on that CPU by IPI; a latency tracer's
 * (update_max_tr_irqsoff) on the CPU that ends the section.
 */
#include "kernel.h"
#include "mm.h"
#include "rcu.h"
#include "smp.h"
#include "string.h"
#include "trace.h"

/* Under trace_types_lock: the spare buffer, the live one's twin. */
int tracing_alloc_snapshot_instance(struct trace_array *tr)
{
	struct trace_buffer *max;
	int cpu;

	if (tr->max_buffer)
		return 0;
	max = ring_buffer_alloc(tr->buffer_size, trace_nr_cpus());
	if (!max)
		return -ENOMEM;
	for (cpu = 0; cpu < trace_nr_cpus(); cpu++) {
		unsigned long size = ring_buffer_size(tr->buffer, cpu);

		if (ring_buffer_size(max, cpu) != size &&
		    ring_buffer_resize(max, size, cpu)) {
			ring_buffer_free(max);
			return -ENOMEM;
		}
	}
	ring_buffer_set_clock(max, trace_clock_func(tr->clock_id));
	ring_buffer_change_overwrite(max,
				     tr->trace_flags & TRACE_ITER_OVERWRITE);
	__atomic_store_n(&tr->max_buffer, max, __ATOMIC_RELEASE);
	return 0;
}

/*
 * Under trace_types_lock. A writer that found its pages before a swap
 * may still be finishing an event on them, with preemption off: a
 * grace period waits it out before the pages go.
 */
int tracing_free_snapshot(struct trace_array *tr)
{
	struct trace_buffer *max;
	unsigned long flags;

	if (!tr->max_buffer)
		return 0;
	if (tr->snapshot_readers)
		return -EBUSY;
	flags = spin_lock_irqsave(&tr->max_lock);
	max = tr->max_buffer;
	WRITE_ONCE(tr->max_buffer, NULL);
	spin_unlock_irqrestore(&tr->max_lock, flags);
	synchronize_rcu();
	ring_buffer_free(max);
	return 0;
}

/*
 * The live buffer, its reader lock held: no snapshot is taken until
 * ring_buffer_reader_unlock, so tr->buffer is this one till then.
 */
struct trace_buffer *tracing_buffer_lock(struct trace_array *tr)
{
	struct trace_buffer *buffer;

	for (;;) {
		buffer = READ_ONCE(tr->buffer);
		ring_buffer_reader_lock(buffer);
		rmb();		/* a swap that finished: its new pointer */
		if (READ_ONCE(tr->buffer) == buffer)
			return buffer;
		ring_buffer_reader_unlock(buffer);
	}
}

/* The same without sleeping, for ftrace_dump: NULL when busy. */
struct trace_buffer *tracing_buffer_trylock(struct trace_array *tr)
{
	struct trace_buffer *buffer = READ_ONCE(tr->buffer);

	if (!ring_buffer_reader_trylock(buffer))
		return NULL;
	rmb();
	if (READ_ONCE(tr->buffer) == buffer)
		return buffer;
	ring_buffer_reader_unlock(buffer);
	return NULL;
}

/* At the top level the fast paths write where cpus[].trace_buffer says. */
static void set_cpu_writers(struct trace_array *tr)
{
	int cpu;

	if (tr != &global_trace)
		return;
	for (cpu = 0; cpu < trace_nr_cpus(); cpu++)
		WRITE_ONCE(cpus[cpu].trace_buffer,
			   ring_buffer_cpu_writer(tr->buffer, cpu));
}

/*
 * Take the snapshot from any context (Linux's update_max_tr): the live
 * buffer becomes the snapshot and the spare one live; data, if given,
 * is what a latency tracer's header will say of it. -ENODEV without
 * a spare buffer; -EAGAIN while a reader holds a buffer or another
 * swap runs, for a few instructions; -EBUSY while tracing is stopped
 * or an iterator is open (see the top of the file).
 */
static int __update_max_tr(struct trace_array *tr,
			   const struct trace_max_data *data)
{
	unsigned long flags = raw_local_irq_save();
	struct trace_buffer *live, *max;
	int ret;

	/* Not spin_lock: a probe may fire in a function called under it. */
	if (!spin_trylock(&tr->max_lock)) {
		raw_local_irq_restore(flags);
		return -EAGAIN;
	}
	live = tr->buffer;
	max = tr->max_buffer;
	if (!max)
		ret = -ENODEV;
	else if (READ_ONCE(tr->stop_count))
		ret = -EBUSY;
	else
		ret = ring_buffer_swap_begin(live, max);
	if (!ret) {
		WRITE_ONCE(tr->buffer, max);
		WRITE_ONCE(tr->max_buffer, live);
		set_cpu_writers(tr);
		if (data)
			tr->max_data = *data;
		else
			tr->max_data.time_start = tr->time_start;
		ring_buffer_swap_end(live, max);
	}
	spin_unlock(&tr->max_lock);
	raw_local_irq_restore(flags);
	return ret;
}

int update_max_tr(struct trace_array *tr)
{
	return __update_max_tr(tr, NULL);
}

/*
 * The wakeup tracers' new maximum (Linux's update_max_tr, as
 * probe_wakeup_sched_switch calls it): the whole buffer swaps, since
 * the wake-up and the switch may be on two CPUs' pages.
 */
int update_max_tr_latency(struct trace_array *tr,
			  const struct trace_max_data *data)
{
	return __update_max_tr(tr, data);
}

/* A line in the trace, where Linux's internal_trace_puts writes it. */
static void snapshot_say(struct trace_array *tr, const char *line)
{
	trace_print_record(tr, (unsigned long)tracing_snapshot_instance, line,
			   strlen(line));
}

/*
 * Linux's tracing_snapshot_instance: what it cannot do it says in the
 * trace, and without a snapshot buffer it stops tracing there.
 */
void tracing_snapshot_instance(struct trace_array *tr)
{
	if (!READ_ONCE(tr->max_buffer)) {
		snapshot_say(tr, "*** SNAPSHOT NOT ALLOCATED ***\n");
		snapshot_say(tr, "*** stopping trace here!   ***\n");
		tracer_tracing_off(tr);
		return;
	}
	if (READ_ONCE(tr->current_trace)->use_max_tr) {
		snapshot_say(tr, "*** LATENCY TRACER ACTIVE ***\n");
		snapshot_say(tr, "*** Can not use snapshot (sorry) ***\n");
		return;
	}
	update_max_tr(tr);
}

/* The kernel's call, from any context (Linux's tracing_snapshot()). */
void tracing_snapshot(void)
{
	tracing_snapshot_instance(&global_trace);
}

struct snapshot_swap {
	struct trace_array *tr;
	struct trace_buffer *max;
	int ret;
};

/* On the CPU whose pages swap, interrupts off (smp_call_function_single). */
static void snapshot_swap_this_cpu(void *data)
{
	struct snapshot_swap *s = data;
	int cpu = smp_processor_id();

	s->ret = ring_buffer_swap_cpu(s->tr->buffer, s->max, cpu);
	/* The trampolines' fast path writes where this points. */
	if (!s->ret && s->tr == &global_trace)
		this_cpu()->trace_buffer =
			ring_buffer_cpu_writer(s->tr->buffer, cpu);
}

static int snapshot_swap_cpu(struct snapshot_swap *s, int cpu)
{
	int ret = smp_call_function_single(cpu, snapshot_swap_this_cpu, s);

	return ret ? ret : s->ret;
}

/*
 * Under trace_types_lock, with the spare buffer allocated: swap one
 * CPU's pages (Linux's update_max_tr_single, for per_cpu/cpuN/snapshot).
 * Holding the live buffer's lock keeps update_max_tr out, so both
 * pointers stay. An event open on that CPU (-EAGAIN) is committed
 * within a few instructions: try again after a tick.
 */
int update_max_tr_single(struct trace_array *tr, int cpu)
{
	struct trace_buffer *live = tracing_buffer_lock(tr);
	struct snapshot_swap s = { tr, tr->max_buffer, 0 };
	int ret;

	ring_buffer_reader_lock(s.max);
	while ((ret = snapshot_swap_cpu(&s, cpu)) == -EAGAIN)
		msleep(1000 / HZ);
	ring_buffer_reader_unlock(s.max);
	ring_buffer_reader_unlock(live);
	return ret;
}

/* `echo 1 > snapshot`: a reader's few instructions are waited out. */
static int update_max_tr_wait(struct trace_array *tr)
{
	int ret;

	while ((ret = update_max_tr(tr)) == -EAGAIN)
		msleep(1000 / HZ);
	return ret;
}

/*
 * A latency tracer's new maximum (Linux's update_max_tr_single, called
 * as there on the CPU that ends the section, interrupts off, under
 * tr->max_lock): this CPU's pages go to max_buffer, with what the
 * header will say of them. No IPI, no lock to sleep on: it may run
 * under the run-queue lock. -EBUSY while tracing is stopped, a reader
 * holds either buffer or an iterator is open on this CPU (the swap
 * would move pages under it), -EAGAIN inside an open event of this CPU.
 */
int update_max_tr_irqsoff(struct trace_array *tr,
			  const struct trace_max_data *data)
{
	int ret;

	if (!tr->max_buffer || READ_ONCE(tr->stop_count))
		return -EBUSY;
	ret = ring_buffer_swap_cpu_irqsoff(tr->buffer, tr->max_buffer);
	if (ret)
		return ret;
	if (tr == &global_trace)
		this_cpu()->trace_buffer =
			ring_buffer_cpu_writer(tr->buffer, smp_processor_id());
	tr->max_data = *data;
	return 0;
}

/*
 * A number written to snapshot or per_cpu/cpuN/snapshot, under
 * trace_types_lock (Linux's tracing_snapshot_write): 0 frees the spare
 * buffer (not per CPU), 1 allocates it if need be and swaps, anything
 * else empties it.
 */
int tracing_snapshot_command(struct trace_array *tr, unsigned long val,
			     int cpu)
{
	int ret;

	/* Linux's: the latency tracer owns the spare buffer. */
	if (tr->current_trace->use_max_tr)
		return -EBUSY;
	switch (val) {
	case 0:
		if (cpu != RING_BUFFER_ALL_CPUS)
			return -EINVAL;
		return tracing_free_snapshot(tr);
	case 1:
		ret = tracing_alloc_snapshot_instance(tr);
		if (ret)
			return ret;
		return cpu == RING_BUFFER_ALL_CPUS ? update_max_tr_wait(tr) :
						    update_max_tr_single(tr, cpu);
	default:
		if (!tr->max_buffer)
			return 0;
		if (cpu == RING_BUFFER_ALL_CPUS)
			ring_buffer_reset(tr->max_buffer);
		else
			ring_buffer_reset_cpu(tr->max_buffer, cpu);
		return 0;
	}
}

/* ---- FUNC:snapshot[:N] in set_ftrace_filter (Linux's ftrace_snapshot) --- */

static void ftrace_snapshot(unsigned long ip, unsigned long parent_ip,
			    struct trace_array *tr,
			    struct ftrace_probe_ops *ops, long *count)
{
	tracing_snapshot_instance(tr);
}

static void ftrace_count_snapshot(unsigned long ip, unsigned long parent_ip,
				  struct trace_array *tr,
				  struct ftrace_probe_ops *ops, long *count)
{
	if (probe_spend_count(count))
		tracing_snapshot_instance(tr);
}

static struct ftrace_probe_ops snapshot_probe_ops = {
	"snapshot", ftrace_snapshot, false, NULL };
static struct ftrace_probe_ops snapshot_count_probe_ops = {
	"snapshot", ftrace_count_snapshot, true, NULL };

/* As Linux's, the spare buffer is allocated when the probe is set. */
static int ftrace_trace_snapshot_callback(struct trace_array *tr,
					  const char *glob, int len,
					  const char *param, bool remove)
{
	struct ftrace_probe_ops *ops = param ? &snapshot_count_probe_ops :
					       &snapshot_probe_ops;
	int ret = 0;

	if (!remove) {
		mutex_lock(&trace_types_lock);
		ret = tracing_alloc_snapshot_instance(tr);
		mutex_unlock(&trace_types_lock);
	}
	return ret ? ret : ftrace_trace_probe_callback(tr, ops, glob, len,
						       param, remove);
}

static struct ftrace_func_command ftrace_snapshot_cmd = {
	.name = "snapshot", .func = ftrace_trace_snapshot_callback,
};

int register_snapshot_cmd(void)
{
	return register_ftrace_command(&ftrace_snapshot_cmd);
}
