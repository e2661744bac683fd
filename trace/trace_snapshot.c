/*
 * trace_snapshot.c: the snapshot, a spare ("max") buffer beside the
 * live one whose pages swap with the live pages (Linux's
 * tracing_snapshot, tracing_alloc_snapshot and update_max_tr_single in
 * kernel/trace/trace.c). tr->buffer stays the same trace_buffer, so the
 * writers still find it in one load; what moves is each CPU's
 * ring_buffer_per_cpu, swapped on its own CPU with interrupts off
 * (ring_buffer_swap_cpu), where no event of that CPU is half written.
 */
#include "kernel.h"
#include "mm.h"
#include "rcu.h"
#include "smp.h"
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
	struct trace_buffer *max = tr->max_buffer;

	if (!max)
		return 0;
	if (tr->snapshot_readers)
		return -EBUSY;
	WRITE_ONCE(tr->max_buffer, NULL);
	synchronize_rcu();
	ring_buffer_free(max);
	return 0;
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
 * CPU's pages, or every CPU's one after the other (Linux swaps them all
 * at once, swapping the buffers; here the per-CPU writer pointers would
 * lag). An event open on that CPU (-EAGAIN) is committed within a few
 * instructions: try again after a tick.
 */
int update_max_tr_single(struct trace_array *tr, int cpu)
{
	struct snapshot_swap s = { tr, tr->max_buffer, 0 };
	int c, ret = 0;

	ring_buffer_reader_lock(tr->buffer);
	ring_buffer_reader_lock(s.max);
	for (c = 0; c < trace_nr_cpus() && !ret; c++) {
		if (cpu != RING_BUFFER_ALL_CPUS && c != cpu)
			continue;
		while ((ret = snapshot_swap_cpu(&s, c)) == -EAGAIN)
			msleep(1000 / HZ);
	}
	ring_buffer_reader_unlock(s.max);
	ring_buffer_reader_unlock(tr->buffer);
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
		return ret ? ret : update_max_tr_single(tr, cpu);
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
