/*
 * ring_buffer_read.c: the readers of the per-CPU ring buffer: the
 * consuming reader (trace_pipe: ring_buffer_peek, ring_buffer_consume)
 * and the iterators (trace: ring_buffer_read_prepare and
 * ring_buffer_iter_peek), as in Linux's kernel/trace/ring_buffer.c.
 *
 * Readers never stop the writer. They walk a CPU's pages with cursors
 * (struct rb_cursor: a page number, the bytes and data events before
 * the cursor on that page, and the time of the event before it):
 *
 *   page number:  head                                  commit_num
 *                 +------------+  +------------+        +------------+
 *                 |xxxxx|      |  |            |  ...   |       |    |
 *                 +------------+  +------------+        +------------+
 *                       ^                         ^             ^
 *        cpu_buffer->reader     iter->cursor, iter->after_event  end_num,
 *        (the consuming one,    (one per open iterator)          end_offset:
 *        at reader_pos; xxx:                                     the iterator
 *        consumed)                                               stops here
 *
 *   reader_pos     the consuming reader's place, packed in one word
 *                  (ring_buffer_internal.h) that an overwriting
 *                  writer pushes past the oldest page
 *   reader         the same place as a cursor, with the time, under
 *                  reader_lock; reseeked when reader_pos moved under it
 *   after_event    an iterator's cursor past the event it peeked
 *
 * A reader copies an event out, then checks that head has not passed
 * its page: if it has, the writer overwrote it meanwhile, the copy may
 * be torn and is thrown away. The consuming reader's place moves by
 * compare-and-swap on reader_pos, which fails if a writer pushed head
 * meanwhile. An open iterator reads without the lock: while it is
 * open its CPU may not be resized (-EBUSY, Linux's resize_disabled).
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "ring_buffer_internal.h"
#include "asm/csr.h"

struct ring_buffer_iter {
	struct ring_buffer_per_cpu *cpu_buffer;
	struct rb_cursor cursor, after_event;
	u64 end_num;			/* where the writer was at the start */
	unsigned long end_offset;
	bool have_event, dropped;
	void *event_buf;
};

unsigned int ring_buffer_event_length(struct ring_buffer_event *event)
{
	if (event->type_len >= RINGBUF_TYPE_TIME_EXTEND)
		return RB_LEN_TIME_EXTEND;
	if (event->type_len)
		return RB_EVNT_HDR_SIZE + event->type_len * 4;
	return 8 + ALIGN_UP(event->array[0], 4);
}

/* Bytes committed on page num, and whether that can still grow. */
static unsigned long rb_committed_bytes(struct ring_buffer_per_cpu *cpu_buffer,
				       u64 num, bool *final)
{
	*final = num != READ_ONCE(cpu_buffer->commit_num);
	rmb();
	return READ_ONCE(rb_num_to_page(cpu_buffer, num)->page->commit);
}

/* Apply a time stamp event to the cursor's time. */
static void rb_cursor_stamp(struct rb_cursor *c, struct ring_buffer_event *e)
{
	u64 v = e->time_delta | (u64)e->array[0] << TS_SHIFT;

	if (e->type_len == RINGBUF_TYPE_TIME_STAMP)
		c->read_stamp = v;
	else
		c->read_stamp += v;
}

enum { RB_NONE, RB_EVENT, RB_PAGE_DONE };

/*
 * Copy the data event at c (after any time stamps) into buf and move c
 * past it, reading no further than limit bytes of the page. The copy is
 * only good if head has not passed c's page meanwhile
 * (rb_page_still_held).
 */
static int rb_read_event(struct ring_buffer_per_cpu *cpu_buffer,
			 struct rb_cursor *c, unsigned long limit, void *buf)
{
	struct buffer_data_page *dpage =
		rb_num_to_page(cpu_buffer, c->page_num)->page;
	struct ring_buffer_event *e;
	unsigned long len;

	while (c->offset < limit) {
		if (!c->offset)
			c->read_stamp = READ_ONCE(dpage->time_stamp);
		e = (void *)(dpage->data + c->offset);
		len = ring_buffer_event_length(e);
		if (len > limit - c->offset)
			return RB_PAGE_DONE;	/* torn: overwritten */
		c->offset += len;
		if (e->type_len >= RINGBUF_TYPE_TIME_EXTEND) {
			rb_cursor_stamp(c, e);
			continue;
		}
		memcpy(buf, e, len);
		c->read_stamp += e->time_delta;
		c->events++;
		return RB_EVENT;
	}
	return RB_NONE;
}

/* Has head not passed page num: is what was copied from it good? */
static bool rb_page_still_held(struct ring_buffer_per_cpu *cpu_buffer,
			       u64 num)
{
	rmb();
	return rb_head_num(cpu_buffer) <= num;
}

/* A cursor at the start of page num, walked forward to byte offset. */
static void rb_cursor_seek(struct ring_buffer_per_cpu *cpu_buffer,
			   struct rb_cursor *c, u64 num, unsigned long offset,
			   void *buf)
{
	*c = (struct rb_cursor){ .page_num = num };
	while (c->offset < offset && rb_read_event(cpu_buffer, c, offset,
						   buf) == RB_EVENT)
		;
}

/* The cursor's place, packed as reader_pos holds it. */
static u64 rb_cursor_pos(const struct rb_cursor *c)
{
	return reader_pos_pack(c->page_num, c->events, c->offset);
}

/* The consuming reader's cursor follows reader_pos, which writers push. */
static void rb_reader_sync(struct ring_buffer_per_cpu *cpu_buffer)
{
	u64 pos = READ_ONCE(cpu_buffer->reader_pos);
	struct rb_cursor *reader = &cpu_buffer->reader;

	if (pos != rb_cursor_pos(reader))
		rb_cursor_seek(cpu_buffer, reader, reader_pos_head(pos),
			       reader_pos_offset(pos), cpu_buffer->event_buf);
}

/*
 * The next event of the consuming reader, copied. With consume, take it
 * out of the buffer: a compare-and-swap on reader_pos that fails if a
 * writer pushed head meanwhile, and then the copy is read again.
 */
static struct ring_buffer_event *
rb_reader_next(struct ring_buffer_per_cpu *cpu_buffer, u64 *ts, bool consume)
{
	struct rb_cursor c;
	unsigned long size;
	bool final;
	int ret;

	for (;;) {
		rb_reader_sync(cpu_buffer);
		c = cpu_buffer->reader;
		size = rb_committed_bytes(cpu_buffer, c.page_num, &final);
		ret = rb_read_event(cpu_buffer, &c, size,
				    cpu_buffer->event_buf);
		if (ret == RB_NONE && !final)
			return NULL;
		if (ret == RB_EVENT &&
		    !rb_page_still_held(cpu_buffer, c.page_num))
			continue;
		if (ret != RB_EVENT)
			c = (struct rb_cursor){ .page_num = c.page_num + 1 };
		else if (!consume)
			break;
		if (!rb_cas_reader_pos(cpu_buffer,
				       rb_cursor_pos(&cpu_buffer->reader),
				       rb_cursor_pos(&c)))
			continue;
		cpu_buffer->reader = c;
		if (ret == RB_EVENT) {
			cpu_buffer->read++;
			break;
		}
	}
	*ts = c.read_stamp;
	return cpu_buffer->event_buf;
}

static unsigned long rb_lost_events(struct ring_buffer_per_cpu *cpu_buffer)
{
	unsigned long overrun = READ_ONCE(cpu_buffer->overrun);
	unsigned long lost = overrun - cpu_buffer->last_overrun;

	cpu_buffer->last_overrun = overrun;
	return lost;
}

struct ring_buffer_event *ring_buffer_peek(struct trace_buffer *buffer, int cpu,
					   u64 *ts, unsigned long *lost_events)
{
	struct ring_buffer_per_cpu *cpu_buffer = buffer->buffers[cpu];

	if (lost_events)
		*lost_events = READ_ONCE(cpu_buffer->overrun) -
			       cpu_buffer->last_overrun;
	return rb_reader_next(cpu_buffer, ts, false);
}

struct ring_buffer_event *ring_buffer_consume(struct trace_buffer *buffer,
					      int cpu, u64 *ts,
					      unsigned long *lost_events)
{
	struct ring_buffer_per_cpu *cpu_buffer = buffer->buffers[cpu];
	struct ring_buffer_event *event = rb_reader_next(cpu_buffer, ts, true);

	if (event && lost_events)
		*lost_events = rb_lost_events(cpu_buffer);
	return event;
}

bool ring_buffer_empty_cpu(struct trace_buffer *buffer, int cpu)
{
	u64 ts;
	bool empty;

	ring_buffer_reader_lock(buffer);
	empty = !rb_reader_next(buffer->buffers[cpu], &ts, false);
	ring_buffer_reader_unlock(buffer);
	return empty;
}

/* ---- iterators ----------------------------------------------------------- */

/*
 * Open an iterator, as opening `trace` does. Under reader_lock, a
 * resize is either over before the iterator looks at the pages or
 * refused until ring_buffer_read_finish.
 */
struct ring_buffer_iter *ring_buffer_read_prepare(struct trace_buffer *buffer,
						  int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer = buffer->buffers[cpu];
	struct ring_buffer_iter *iter = kzalloc(sizeof(*iter));
	bool final;
	u64 pos;

	if (!iter)
		return NULL;
	iter->event_buf = kmalloc(BUF_PAGE_SIZE);
	if (!iter->event_buf) {
		kfree(iter);
		return NULL;
	}
	ring_buffer_reader_lock(buffer);
	cpu_buffer->resize_disabled++;
	iter->cpu_buffer = cpu_buffer;
	iter->end_num = READ_ONCE(cpu_buffer->commit_num);
	iter->end_offset = rb_committed_bytes(cpu_buffer, iter->end_num,
					      &final);
	pos = READ_ONCE(cpu_buffer->reader_pos);
	rb_cursor_seek(cpu_buffer, &iter->cursor, reader_pos_head(pos),
		       reader_pos_offset(pos), iter->event_buf);
	ring_buffer_reader_unlock(buffer);
	return iter;
}

void ring_buffer_read_finish(struct ring_buffer_iter *iter)
{
	struct trace_buffer *buffer = iter->cpu_buffer->buffer;

	ring_buffer_reader_lock(buffer);
	iter->cpu_buffer->resize_disabled--;
	ring_buffer_reader_unlock(buffer);
	kfree(iter->event_buf);
	kfree(iter);
}

/* The writer overwrote the page under the iterator: go on from head. */
static void rb_iter_skip(struct ring_buffer_iter *iter)
{
	iter->dropped = true;
	rb_cursor_seek(iter->cpu_buffer, &iter->cursor,
		       rb_head_num(iter->cpu_buffer), 0, iter->event_buf);
}

/* How far the iterator may read on its page: no further than its end. */
static unsigned long rb_iter_limit(struct ring_buffer_iter *iter)
{
	bool final;

	if (iter->cursor.page_num == iter->end_num)
		return iter->end_offset;
	return rb_committed_bytes(iter->cpu_buffer, iter->cursor.page_num,
				  &final);
}

struct ring_buffer_event *ring_buffer_iter_peek(struct ring_buffer_iter *iter,
						u64 *ts)
{
	struct ring_buffer_per_cpu *cpu_buffer = iter->cpu_buffer;
	unsigned long limit;
	int ret;

	while (!iter->have_event && iter->cursor.page_num <= iter->end_num) {
		iter->after_event = iter->cursor;
		limit = rb_iter_limit(iter);
		ret = rb_read_event(cpu_buffer, &iter->after_event, limit,
				    iter->event_buf);
		if (!rb_page_still_held(cpu_buffer, iter->cursor.page_num))
			rb_iter_skip(iter);
		else if (ret == RB_EVENT)
			iter->have_event = true;
		else
			iter->cursor = (struct rb_cursor){
				.page_num = iter->cursor.page_num + 1 };
	}
	if (!iter->have_event)
		return NULL;
	*ts = iter->after_event.read_stamp;
	return iter->event_buf;
}

void ring_buffer_iter_advance(struct ring_buffer_iter *iter)
{
	u64 ts;

	if (!iter->have_event && !ring_buffer_iter_peek(iter, &ts))
		return;
	iter->cursor = iter->after_event;
	iter->have_event = false;
}

/* Did the writer overwrite events under the iterator since last asked? */
bool ring_buffer_iter_dropped(struct ring_buffer_iter *iter)
{
	bool dropped = iter->dropped;

	iter->dropped = false;
	return dropped;
}

