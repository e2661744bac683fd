/*
 * ring_buffer.h: the per-CPU trace ring buffer (trace/ring_buffer.c,
 * with its writer and readers in ring_buffer_write.c and _read.c),
 * with Linux's names and event layout (include/linux/ring_buffer.h).
 *
 * Each CPU writes only its own buffer, a ring of 4 KiB pages. A writer
 * reserves space, fills it and commits; an interrupt on the same CPU
 * may reserve and commit its own event while a task's reservation is
 * still open. Readers copy events out: a consuming reader (trace_pipe)
 * and non-consuming iterators (trace) run alongside the writers.
 *
 * An event starts with a 4-byte header:
 *
 *   31         5 4     0
 *   +-----------+-------+
 *   | time_delta| type_ |   time_delta: since the previous event (27 bits)
 *   |           |  len  |   type_len 1..28: 4 * type_len bytes of data
 *   +-----------+-------+               0:  data length in array[0]
 *   | array[]...        |              30:  TIME_EXTEND, delta >> 27 in array[0]
 *                                      31:  TIME_STAMP, absolute, same layout
 */
#ifndef _RING_BUFFER_H
#define _RING_BUFFER_H

#include "kernel.h"

struct ring_buffer_event {
	u32 type_len:5, time_delta:27;
	u32 array[];
};

enum ring_buffer_type {
	RINGBUF_TYPE_DATA_TYPE_LEN_MAX = 28,
	RINGBUF_TYPE_PADDING,		/* Linux's discarded events */
	RINGBUF_TYPE_TIME_EXTEND,
	RINGBUF_TYPE_TIME_STAMP = 31,
};

#define TS_SHIFT		27
#define TS_MASK			((1ULL << TS_SHIFT) - 1)

/* A page: Linux's struct buffer_data_page, 16 bytes then the events. */
#define BUF_PAGE_HDR_SIZE	16
#define BUF_PAGE_SIZE		(4096 - BUF_PAGE_HDR_SIZE)
/* The largest data an event may carry (a whole page less two headers). */
#define BUF_MAX_DATA_SIZE	(BUF_PAGE_SIZE - 16)

struct trace_buffer;
struct ring_buffer_iter;

struct trace_buffer *ring_buffer_alloc(unsigned long size, int nr_cpus);
void ring_buffer_free(struct trace_buffer *buffer);
int ring_buffer_resize(struct trace_buffer *buffer, unsigned long size,
		       int cpu);
unsigned long ring_buffer_size(struct trace_buffer *buffer, int cpu);
int ring_buffer_nr_cpus(struct trace_buffer *buffer);

/* Writing: preemption must be off from reserve to commit. */
struct ring_buffer_event *ring_buffer_lock_reserve(struct trace_buffer *buffer,
						   unsigned long length);
void ring_buffer_unlock_commit(struct trace_buffer *buffer);
int ring_buffer_write(struct trace_buffer *buffer, unsigned long length,
		      const void *data);
/* Fixed-size events of 3 and 5 words, passed in registers. */
int ring_buffer_write3(struct trace_buffer *buffer, u32 w0, u32 w1, u32 w2);
int ring_buffer_write5(struct trace_buffer *buffer, u32 w0, u32 w1, u32 w2,
		       u32 w3, u32 w4);

static inline void *ring_buffer_event_data(struct ring_buffer_event *event)
{
	return event->type_len ? &event->array[0] : &event->array[1];
}

unsigned int ring_buffer_event_length(struct ring_buffer_event *event);

/* Recording on and off: tracing_on, and short stops (reset, resize). */
void ring_buffer_record_on(struct trace_buffer *buffer);
void ring_buffer_record_off(struct trace_buffer *buffer);
bool ring_buffer_record_is_on(struct trace_buffer *buffer);

void ring_buffer_set_cpus_off(struct trace_buffer *buffer, unsigned long cpus);
bool ring_buffer_record_cpu_on(struct trace_buffer *buffer);

/*
 * Would a write be recorded now? record_disabled is the first word of
 * struct trace_buffer (trace/ring_buffer_internal.h checks), so a
 * tracer can ask in two loads before it does any other work; only when
 * it is set does tracing_cpumask's answer for this CPU cost a call.
 */
static inline bool ring_buffer_recording(struct trace_buffer *buffer)
{
	return likely(!READ_ONCE(*(unsigned long *)buffer)) ||
	       ring_buffer_record_cpu_on(buffer);
}
void ring_buffer_record_disable(struct trace_buffer *buffer);
void ring_buffer_record_enable(struct trace_buffer *buffer);
void ring_buffer_change_overwrite(struct trace_buffer *buffer, bool on);

void ring_buffer_set_clock(struct trace_buffer *buffer, u64 (*clock)(void));
/* A CPU's writer state, where the trampolines' fast paths write. */
void *ring_buffer_cpu_writer(struct trace_buffer *buffer, int cpu);
u64 ring_buffer_time_stamp(struct trace_buffer *buffer);
void ring_buffer_reset(struct trace_buffer *buffer);
void ring_buffer_reset_cpu(struct trace_buffer *buffer, int cpu);
int ring_buffer_swap_cpu(struct trace_buffer *a, struct trace_buffer *b,
			 int cpu);
int ring_buffer_swap_cpu_irqsoff(struct trace_buffer *a,
				 struct trace_buffer *b);
int ring_buffer_swap_begin(struct trace_buffer *a, struct trace_buffer *b);
void ring_buffer_swap_end(struct trace_buffer *a, struct trace_buffer *b);

/*
 * Counters, as per_cpu/cpuN/stats shows them. Those that look at the
 * pages (entries, bytes, written, oldest ts) take the reader lock.
 */
unsigned long ring_buffer_entries_cpu(struct trace_buffer *buffer, int cpu);
unsigned long ring_buffer_overrun_cpu(struct trace_buffer *buffer, int cpu);
unsigned long ring_buffer_commit_overrun_cpu(struct trace_buffer *buffer,
					     int cpu);
unsigned long ring_buffer_dropped_events_cpu(struct trace_buffer *buffer,
					     int cpu);
unsigned long ring_buffer_read_events_cpu(struct trace_buffer *buffer,
					  int cpu);
/* Not in stats (as in Linux): written == entries + overrun + read. */
unsigned long ring_buffer_written_cpu(struct trace_buffer *buffer, int cpu);
unsigned long ring_buffer_bytes_cpu(struct trace_buffer *buffer, int cpu);
u64 ring_buffer_oldest_event_ts(struct trace_buffer *buffer, int cpu);
unsigned long ring_buffer_overruns(struct trace_buffer *buffer);

/*
 * The consuming reader: peek at or consume the oldest event of a CPU.
 * The event is a copy in the reader's own storage, valid until the next
 * call; lost_events counts what the writer overwrote since last time.
 * Callers serialize with ring_buffer_reader_lock().
 */
void ring_buffer_reader_lock(struct trace_buffer *buffer);
bool ring_buffer_reader_trylock(struct trace_buffer *buffer);
void ring_buffer_reader_unlock(struct trace_buffer *buffer);
struct ring_buffer_event *ring_buffer_peek(struct trace_buffer *buffer, int cpu,
					   u64 *ts, unsigned long *lost_events);
struct ring_buffer_event *ring_buffer_consume(struct trace_buffer *buffer,
					      int cpu, u64 *ts,
					      unsigned long *lost_events);
bool ring_buffer_empty_cpu(struct trace_buffer *buffer, int cpu);

/*
 * Iterators: walk one CPU's events, as they were when it started,
 * without consuming them. That CPU cannot be resized meanwhile:
 * ring_buffer_resize fails with -EBUSY until ring_buffer_read_finish.
 */
struct ring_buffer_iter *ring_buffer_read_prepare(struct trace_buffer *buffer,
						  int cpu);
void ring_buffer_read_finish(struct ring_buffer_iter *iter);
struct ring_buffer_event *ring_buffer_iter_peek(struct ring_buffer_iter *iter,
						u64 *ts);
void ring_buffer_iter_advance(struct ring_buffer_iter *iter);
bool ring_buffer_iter_dropped(struct ring_buffer_iter *iter);

#endif
