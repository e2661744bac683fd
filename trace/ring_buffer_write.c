/*
 * ring_buffer_write.c: the writer of the per-CPU ring buffer: reserve,
 * commit and the events' time stamps (Linux's __rb_reserve_next,
 * rb_commit and rb_end_commit in kernel/trace/ring_buffer.c).
 *
 * Each CPU writes only its own ring, with preemption off; interrupts
 * may nest writers. The tail page, where the writer reserves, is the
 * commit page too, but while nested writers have moved the tail on
 * under an open event:
 *
 *   +------------------------+-------------------+----------+
 *   | committed: readers may | reserved: events  | free     |
 *   | copy these events      | still being filled|          |
 *   +------------------------+-------------------+----------+
 *   0                        ^                   ^          ^
 *                      page->commit     tail_page->write   end
 *
 *   end         BUF_PAGE_SIZE, or, once an event did not fit, where
 *               it would have begun: the page switch sets it
 *   committing  the reservations open on this CPU, nested (a task's,
 *               and any interrupt's inside it)
 *   write_stamp the time of the last event reserved: the next one's
 *               header holds only the delta from it (27 bits; a
 *               TIME_EXTEND event comes first when it does not fit)
 *
 *  - reserve: with interrupts masked for a few dozen instructions, read
 *    the clock, claim the bytes on the tail page, time the event
 *    against write_stamp. An interrupt that comes while the event's
 *    data is written reserves the next bytes.
 *  - commit: only the outermost writer moves the commit point, so a
 *    reader never sees an event whose nested neighbour is unfinished.
 *  - the page switch (once per ~250 events) runs with interrupts off;
 *    in overwrite mode it pushes head past the oldest page, counting
 *    its unread events as overrun.
 *
 * Fast and slow twins: each step has a short version for the common
 * case, written to an instruction budget (`make bench`), beside the one
 * that handles every case, which the short one falls back to:
 *
 *   common case (nearly every event)       every case
 *   rb_reserve_fast: not the page's first  __rb_reserve_next via
 *     event, small, fits, within a delta,    rb_reserve_slow: time
 *     one of trace_clock's clocks            stamps, page switches
 *   ring_buffer_unlock_commit: the only    rb_end_commit: nested
 *     open event, on the commit page         writers, pages to commit
 *   ring_buffer_write{,3,5}: reserve,      rb_write_slow: through
 *     copy and commit with interrupts        ring_buffer_lock_reserve
 *     masked, no calls, no frame             and _unlock_commit
 *
 * Two because the common case must not pay for the rare ones: the fast
 * twins are inlined leaves that save no registers, the slow ones are
 * noinline so that their frames and calls stay out of the fast path.
 * The trampolines' fast paths (ftrace_fast.S) do what
 * rb_write_begin and rb_write_end do, in assembly.
 */
#include "kernel.h"
#include "string.h"
#include "trace_clock.h"
#include "ring_buffer_internal.h"
#include "asm/csr.h"

#define RB_RETRY		((struct ring_buffer_event *)ERR_PTR(-EAGAIN))

/* Bytes an event with length bytes of data takes, header included. */
static inline unsigned long rb_event_size(unsigned long length)
{
	length = ALIGN_UP(length, 4);
	return length + (length > RB_MAX_SMALL_DATA ? 8 : RB_EVNT_HDR_SIZE);
}

/* The header as one store: type_len in bits 0-4, the delta above. */
static inline void rb_set_header(void *p, u32 type_len, u64 delta)
{
	*(u32 *)p = type_len | (u32)delta << 5;
}

static void rb_write_stamp_event(void *p, u32 type, u64 value)
{
	rb_set_header(p, type, value & TS_MASK);
	((u32 *)p)[1] = value >> TS_SHIFT;
}

static struct ring_buffer_event *rb_write_header(void *p, int stamp, u64 delta,
						 u64 ts, unsigned long length)
{
	if (unlikely(stamp)) {
		rb_write_stamp_event(p, stamp, stamp ==
				     RINGBUF_TYPE_TIME_STAMP ? ts : delta);
		p += RB_LEN_TIME_EXTEND;
		delta = 0;
	}
	if (likely(length <= RB_MAX_SMALL_DATA)) {
		rb_set_header(p, ALIGN_UP(length, 4) / 4, delta);
	} else {
		rb_set_header(p, 0, delta);
		((u32 *)p)[1] = length;
	}
	return p;
}

/*
 * Overwrite mode: drop the oldest page, unless a reader freed one
 * meanwhile. Its events not yet read are the overrun.
 */
static bool rb_push_head(struct ring_buffer_per_cpu *cpu_buffer, u64 next)
{
	u64 pos, head;

	if (!cpu_buffer->buffer->overwrite)
		return false;
	do {
		pos = READ_ONCE(cpu_buffer->reader_pos);
		head = reader_pos_head(pos);
		if (next - head < cpu_buffer->nr_pages)
			return true;
	} while (!rb_cas_reader_pos(cpu_buffer, pos,
				    reader_pos_pack(head + 1, 0, 0)));
	WRITE_ONCE(cpu_buffer->overrun, cpu_buffer->overrun +
		   rb_num_to_page(cpu_buffer, head)->entries -
		   reader_pos_count(pos));
	return true;
}

/* Interrupts off. Move the writer to the next page, if it may. */
static bool rb_advance_tail(struct ring_buffer_per_cpu *cpu_buffer)
{
	u64 next = cpu_buffer->tail_num + 1;
	struct buffer_page *bpage;

	/* Nested writers filled the whole ring under an open event. */
	if (next - cpu_buffer->commit_num >= cpu_buffer->nr_pages) {
		cpu_buffer->commit_overrun++;
		return false;
	}
	if (next - rb_head_num(cpu_buffer) >= cpu_buffer->nr_pages &&
	    !rb_push_head(cpu_buffer, next)) {
		cpu_buffer->dropped_events++;
		return false;
	}
	/* No writer comes back to the old tail: its count is final. */
	WRITE_ONCE(cpu_buffer->written,
		   cpu_buffer->written + cpu_buffer->tail_page->entries);
	bpage = rb_num_to_page(cpu_buffer, next);
	rb_reset_page(bpage);
	wmb();
	cpu_buffer->tail_num = next;
	WRITE_ONCE(cpu_buffer->tail_page, bpage);
	return true;
}

/*
 * The event does not fit: the page's events stop at tail. Move the
 * writer to the next page and retry there (interrupts are off).
 */
static noinline struct ring_buffer_event *
rb_move_tail(struct ring_buffer_per_cpu *cpu_buffer,
	     struct buffer_page *tail_page, unsigned long tail)
{
	WRITE_ONCE(tail_page->end, tail);
	return rb_advance_tail(cpu_buffer) ? RB_RETRY : NULL;
}

/* One of trace_clock's, inline, or any other clock, called. */
static __always_inline u64 rb_clock(struct ring_buffer_per_cpu *cpu_buffer)
{
	enum trace_clock_id id = cpu_buffer->clock_id;

	if (likely(id == TRACE_CLOCK_LOCAL))
		return rdtime();
	if (id < TRACE_CLOCK_NR)
		return trace_clock_read(id);
	return cpu_buffer->buffer->clock();
}

/*
 * Reserve length bytes on the tail page; interrupts are off. Masking
 * them for the instructions that read the clock and claim the bytes
 * keeps, on this CPU, buffer order equal to time order, so the delta
 * from the previous event is always right: what Linux's before/after
 * stamps work out with atomics, here for two CSR instructions (cheap on
 * RISC-V). An interrupt may still come while the event's data is being
 * written, between reserve and commit, and write events of its own.
 * This handles every case; the common one takes rb_reserve_fast.
 */
static struct ring_buffer_event *
__rb_reserve_next(struct ring_buffer_per_cpu *cpu_buffer,
		  unsigned long data_len)
{
	struct buffer_page *tail_page = cpu_buffer->tail_page;
	unsigned long tail = tail_page->write, length = rb_event_size(data_len);
	u64 ts = rb_clock(cpu_buffer);
	u64 delta = ts - cpu_buffer->write_stamp;
	int stamp = 0;

	if (!tail)
		delta = 0;
	else if ((s64)delta < 0)
		stamp = RINGBUF_TYPE_TIME_STAMP;	/* the clock changed */
	else if (delta > TS_MASK)
		stamp = RINGBUF_TYPE_TIME_EXTEND;
	if (stamp)
		length += RB_LEN_TIME_EXTEND;
	if (tail + length > BUF_PAGE_SIZE)
		return rb_move_tail(cpu_buffer, tail_page, tail);
	tail_page->write = tail + length;
	cpu_buffer->write_stamp = ts;
	if (!tail)
		tail_page->page->time_stamp = ts;
	tail_page->entries++;
	return rb_write_header(tail_page->page->data + tail, stamp, delta, ts,
			       data_len);
}

static noinline struct ring_buffer_event *
rb_reserve_slow(struct ring_buffer_per_cpu *cpu_buffer, unsigned long length)
{
	struct ring_buffer_event *event;

	do {
		event = __rb_reserve_next(cpu_buffer, length);
	} while (event == RB_RETRY);
	return event;
}

/*
 * The common case of __rb_reserve_next with nothing to call: one of
 * trace_clock's clocks (inline), a small event that fits the page, not
 * the first on it, within a delta of the last. NULL sends it the long
 * way (which also ends a page that end says is full).
 */
static inline __attribute__((always_inline)) struct ring_buffer_event *
rb_reserve_fast(struct ring_buffer_per_cpu *cpu_buffer, unsigned long length)
{
	struct buffer_page *tail_page = cpu_buffer->tail_page;
	unsigned long tail = tail_page->write, size = ALIGN_UP(length, 4);
	enum trace_clock_id clock_id = cpu_buffer->clock_id;
	u64 ts, delta;
	u32 *header;

	if (unlikely(!tail || size > RB_MAX_SMALL_DATA ||
		     tail + size + RB_EVNT_HDR_SIZE > tail_page->end))
		return NULL;
	if (likely(clock_id == TRACE_CLOCK_LOCAL))
		ts = rdtime();
	else if (clock_id < TRACE_CLOCK_NR)
		ts = trace_clock_read(clock_id);
	else
		return NULL;
	delta = ts - cpu_buffer->write_stamp;
	if (unlikely(delta > TS_MASK))
		return NULL;
	tail_page->write = tail + size + RB_EVNT_HDR_SIZE;
	cpu_buffer->write_stamp = ts;
	tail_page->entries++;
	header = (u32 *)(tail_page->page->data + tail);
	*header = size / 4 | (u32)delta << 5;
	return (struct ring_buffer_event *)header;
}

/* Nested writers moved the tail on: the pages before it are complete. */
static noinline struct buffer_page *
rb_commit_pages(struct ring_buffer_per_cpu *cpu_buffer)
{
	struct buffer_page *bpage = cpu_buffer->commit_page;

	while (bpage != READ_ONCE(cpu_buffer->tail_page)) {
		WRITE_ONCE(bpage->page->commit, rb_page_bytes(bpage));
		wmb();
		bpage = rb_num_to_page(cpu_buffer, ++cpu_buffer->commit_num);
		WRITE_ONCE(cpu_buffer->commit_page, bpage);
	}
	return bpage;
}

/* Make every reserved byte visible: only the outermost writer does. */
static inline void
rb_set_commit_to_write(struct ring_buffer_per_cpu *cpu_buffer)
{
	struct buffer_page *bpage = cpu_buffer->commit_page;

	wmb();			/* the events' bytes before the commit */
	if (unlikely(bpage != cpu_buffer->tail_page))
		bpage = rb_commit_pages(cpu_buffer);
	WRITE_ONCE(bpage->page->commit, rb_page_bytes(bpage));
}

/*
 * The outermost writer publishes, nested ones (interrupts that wrote
 * inside an open event) leave it to it. Interrupts are off so that none
 * can reserve between the publishing and the count going down.
 */
static noinline void rb_end_commit(struct ring_buffer_per_cpu *cpu_buffer)
{
	unsigned long flags = raw_local_irq_save();

	if (cpu_buffer->committing == 1)
		rb_set_commit_to_write(cpu_buffer);
	cpu_buffer->committing--;
	raw_local_irq_restore(flags);
}

/*
 * Reserve room for length bytes of event data on this CPU, or NULL when
 * recording is off or the event cannot be had (full, not overwriting).
 */
struct ring_buffer_event *ring_buffer_lock_reserve(struct trace_buffer *buffer,
						   unsigned long length)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	struct ring_buffer_event *event;
	unsigned long flags;

	if (unlikely(READ_ONCE(buffer->record_disabled)) &&
	    !ring_buffer_record_cpu_on(buffer))
		return NULL;
	if (unlikely(length > BUF_MAX_DATA_SIZE))
		return NULL;
	/* After masking: a snapshot swap (an IPI) may change it before. */
	flags = raw_local_irq_save();
	cpu_buffer = buffer->buffers[smp_processor_id()];
	cpu_buffer->committing++;
	event = rb_reserve_fast(cpu_buffer, length);
	if (unlikely(!event))
		event = rb_reserve_slow(cpu_buffer, length);
	raw_local_irq_restore(flags);
	if (unlikely(!event))
		rb_end_commit(cpu_buffer);
	return event;
}

/*
 * The common case of rb_end_commit: the only open event, on the page
 * the commit point is on. A function event reserved, filled (memcpy)
 * and committed, the call and the loop of `bench` included:
 * bench: rb_reserve_commit_insns_per_event 138.5
 */
void ring_buffer_unlock_commit(struct trace_buffer *buffer)
{
	struct ring_buffer_per_cpu *cpu_buffer =
		buffer->buffers[smp_processor_id()];
	unsigned long flags = raw_local_irq_save();
	struct buffer_page *bpage = cpu_buffer->commit_page;

	if (likely(cpu_buffer->committing == 1 &&
		   bpage == cpu_buffer->tail_page)) {
		wmb();
		WRITE_ONCE(bpage->page->commit, bpage->write);
		cpu_buffer->committing = 0;
		raw_local_irq_restore(flags);
		return;
	}
	raw_local_irq_restore(flags);
	rb_end_commit(cpu_buffer);
}

/*
 * A small event written whole with interrupts masked: reserve (NULL:
 * go the long way), fill, then rb_write_end publishes it unless an
 * interrupted writer still has an event open (it publishes ours with
 * its own). No calls, so no registers to save.
 */
static __always_inline struct ring_buffer_event *
rb_write_begin(struct trace_buffer *buffer, unsigned long length,
	       struct ring_buffer_per_cpu **cpu_bufferp, unsigned long *flags)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	struct ring_buffer_event *event;

	if (unlikely((length & 3) || READ_ONCE(buffer->record_disabled)))
		return NULL;
	cpu_buffer = buffer->buffers[smp_processor_id()];
	*flags = raw_local_irq_save();
	event = rb_reserve_fast(cpu_buffer, length);
	if (unlikely(!event))
		raw_local_irq_restore(*flags);
	*cpu_bufferp = cpu_buffer;
	return event;
}

static __always_inline void rb_write_end(struct ring_buffer_per_cpu *cpu_buffer,
					 unsigned long flags)
{
	struct buffer_page *bpage = cpu_buffer->tail_page;

	if (likely(!cpu_buffer->committing &&
		   cpu_buffer->commit_page == bpage)) {
		wmb();
		WRITE_ONCE(bpage->page->commit, bpage->write);
	}
	raw_local_irq_restore(flags);
}

static noinline int rb_write_slow(struct trace_buffer *buffer,
				  unsigned long length, const void *data)
{
	struct ring_buffer_event *event = ring_buffer_lock_reserve(buffer,
								   length);

	if (!event)
		return -EBUSY;
	memcpy(ring_buffer_event_data(event), data, length);
	ring_buffer_unlock_commit(buffer);
	return 0;
}

/*
 * Reserve, copy and commit in one call; preemption must be off. A leaf
 * or a tail call, so it needs no frame of its own. A 12-byte event,
 * the call and the loop of `bench` included:
 * bench: rb_write_insns_per_event 82
 */
int ring_buffer_write(struct trace_buffer *buffer, unsigned long length,
		      const void *data)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	struct ring_buffer_event *event;
	unsigned long flags, i;

	event = rb_write_begin(buffer, length, &cpu_buffer, &flags);
	if (unlikely(!event))
		return rb_write_slow(buffer, length, data);
	for (i = 0; i < length / 4; i++)
		event->array[i] = ((const u32 *)data)[i];
	rb_write_end(cpu_buffer, flags);
	return 0;
}

/* The long way of ring_buffer_write3 and 5: only here on the stack. */
static noinline int rb_write3_slow(struct trace_buffer *buffer, u32 w0,
				   u32 w1, u32 w2)
{
	const u32 data[] = { w0, w1, w2 };

	return rb_write_slow(buffer, sizeof(data), data);
}

static noinline int rb_write5_slow(struct trace_buffer *buffer, u32 w0,
				   u32 w1, u32 w2, u32 w3, u32 w4)
{
	const u32 data[] = { w0, w1, w2, w3, w4 };

	return rb_write_slow(buffer, sizeof(data), data);
}

/*
 * The same for the tracers' fixed-size events, their words passed in
 * registers: no staging on the stack, no copy loop. A function event,
 * the call and the loop of `bench` included:
 * bench: rb_write3_insns_per_event 58.04
 */
int ring_buffer_write3(struct trace_buffer *buffer, u32 w0, u32 w1, u32 w2)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	struct ring_buffer_event *event;
	unsigned long flags;

	event = rb_write_begin(buffer, 12, &cpu_buffer, &flags);
	if (unlikely(!event))
		return rb_write3_slow(buffer, w0, w1, w2);
	event->array[0] = w0;
	event->array[1] = w1;
	event->array[2] = w2;
	rb_write_end(cpu_buffer, flags);
	return 0;
}

int ring_buffer_write5(struct trace_buffer *buffer, u32 w0, u32 w1, u32 w2,
		       u32 w3, u32 w4)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	struct ring_buffer_event *event;
	unsigned long flags;

	event = rb_write_begin(buffer, 20, &cpu_buffer, &flags);
	if (unlikely(!event))
		return rb_write5_slow(buffer, w0, w1, w2, w3, w4);
	event->array[0] = w0;
	event->array[1] = w1;
	event->array[2] = w2;
	event->array[3] = w3;
	event->array[4] = w4;
	rb_write_end(cpu_buffer, flags);
	return 0;
}
