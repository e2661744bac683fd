/*
 * ring_buffer.c: the per-CPU trace ring buffer, Linux's
 * kernel/trace/ring_buffer.c made smaller (include/ring_buffer.h).
 *
 * Each CPU owns a ring of pages. Pages are numbered as the writer
 * reaches them (page n lives in slot n % nr_pages), and three numbers
 * say where things are:
 *
 *   head <= commit <= tail      head: oldest page still held
 *                               commit: holds the first uncommitted byte
 *                               tail: the writer reserves here
 *
 * Writer (this CPU only, preemption off, interrupts may nest):
 *  - reserve: with interrupts masked for a few dozen instructions, read
 *    the clock, claim the bytes on the tail page, time the event
 *    against the previous one (write_stamp). An interrupt that comes
 *    while the event's data is written reserves the next bytes.
 *  - commit: only the outermost writer moves the commit point, so a
 *    reader never sees an event whose nested neighbour is unfinished.
 *  - the page switch (once per ~250 events) runs with interrupts off;
 *    in overwrite mode it pushes head past the oldest page, counting
 *    its unread events as overrun.
 *
 * Readers never stop the writer. The consuming reader's place (head,
 * events and bytes read on it) is one word, reader_pos, that it and an
 * overwriting writer both change by compare-and-swap. Readers copy an
 * event out, then check that head has not passed its page: if it has,
 * the copy may be torn and is thrown away.
 *
 * Resizing swaps a CPU's pages, so it holds buffer->reader_lock, as do
 * the consuming reader, the opening of an iterator and the counters
 * that walk the pages. An open iterator reads without the lock: while
 * it is open its CPU may not be resized (-EBUSY, Linux's
 * resize_disabled).
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "smp.h"
#include "sched.h"
#include "spinlock.h"
#include "rcu.h"
#include "trace_clock.h"
#include "ring_buffer.h"
#include "asm/csr.h"
#include "asm/asm-offsets.h"

#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define RB_EVNT_HDR_SIZE	4
#define RB_LEN_TIME_EXTEND	8
#define RB_MAX_SMALL_DATA	(RINGBUF_TYPE_DATA_TYPE_LEN_MAX * 4)
#define RB_BUFFER_OFF		(1UL << 20)
#define RB_RETRY		((struct ring_buffer_event *)ERR_PTR(-EAGAIN))

/* reader_pos: head page number, events read on it, bytes read on it. */
#define RP_OFF_BITS		12
#define RP_CNT_BITS		12
#define RP_FIELD_MASK		((1UL << RP_OFF_BITS) - 1)

struct buffer_data_page {
	u64 time_stamp;			/* of the page's first event */
	u64 commit;			/* bytes of committed events */
	u8 data[BUF_PAGE_SIZE];
};

/* A slot of the ring: a data page and what the writer knows of it. */
struct buffer_page {
	unsigned long write;		/* bytes reserved; past the end when full */
	unsigned long entries;		/* data events reserved on it */
	unsigned long end;		/* where its events stop */
	struct buffer_data_page *page;
};

/* A place in a CPU's events, and the time of the event before it. */
struct rb_cursor {
	u64 page;
	unsigned long cnt;		/* data events before off on the page */
	unsigned long off;
	u64 stamp;
};

struct ring_buffer_per_cpu {
	/*
	 * The writer's (this CPU). The trampolines' fast paths write events
	 * too: see asm/asm-offsets.h for what they read.
	 */
	struct buffer_page *tail_page;
	unsigned long committing;	/* open reservations, nested */
	u64 write_stamp;		/* time of the last event reserved */
	struct buffer_page *commit_page;
	struct trace_buffer *buffer;
	u8 clock_id;			/* enum trace_clock_id, inline */
	u64 tail_num, commit_num;
	unsigned long commit_overrun;
	unsigned long dropped_events;
	unsigned long written;		/* events on the pages left behind */
	/* Shared with the readers. */
	u64 reader_pos;
	unsigned long overrun;		/* events lost to overwriting */
	unsigned long read;		/* events consumed */
	/* Under buffer->reader_lock: the consuming reader's, and more. */
	struct rb_cursor rd;
	unsigned long rd_overrun;	/* overrun already reported */
	void *event_buf;		/* BUF_PAGE_SIZE, for copies */
	int resize_disabled;		/* open iterators */
	struct buffer_page *pages;
	unsigned long nr_pages;
	int cpu;
};

struct trace_buffer {
	unsigned long record_disabled;	/* RB_BUFFER_OFF | nested stops */
	u64 (*clock)(void);
	bool overwrite;
	int nr_cpus;
	struct mutex reader_lock;	/* readers, resize, reset */
	struct ring_buffer_per_cpu *buffers[NR_CPUS];
};

_Static_assert(offsetof(struct trace_buffer, record_disabled) == 0,
	       "ring_buffer_recording reads the first word");
_Static_assert(offsetof(struct trace_buffer, buffers) == RB_BUFFERS &&
	       offsetof(struct ring_buffer_per_cpu, tail_page) ==
	       RB_TAIL_PAGE &&
	       offsetof(struct ring_buffer_per_cpu, committing) ==
	       RB_COMMITTING &&
	       offsetof(struct ring_buffer_per_cpu, write_stamp) ==
	       RB_WRITE_STAMP &&
	       offsetof(struct ring_buffer_per_cpu, commit_page) ==
	       RB_COMMIT_PAGE &&
	       offsetof(struct ring_buffer_per_cpu, buffer) == RB_BUFFER &&
	       offsetof(struct buffer_page, write) == BPAGE_WRITE &&
	       offsetof(struct buffer_page, entries) == BPAGE_ENTRIES &&
	       offsetof(struct buffer_page, end) == BPAGE_END &&
	       offsetof(struct buffer_page, page) == BPAGE_PAGE &&
	       offsetof(struct buffer_data_page, commit) == DPAGE_COMMIT &&
	       offsetof(struct buffer_data_page, data) == DPAGE_DATA,
	       "asm-offsets: the trampolines' event writers");

struct ring_buffer_iter {
	struct ring_buffer_per_cpu *cpu_buffer;
	struct rb_cursor c, next;
	u64 end_page;			/* where the writer was at the start */
	unsigned long end_off;
	bool have_event, dropped;
	u64 ts;
	void *event_buf;
};

/* ---- events ------------------------------------------------------------ */

static inline u64 rp_make(u64 head, unsigned long cnt, unsigned long off)
{
	return head << (RP_OFF_BITS + RP_CNT_BITS) | cnt << RP_OFF_BITS | off;
}

static inline u64 rp_head(u64 pos)
{
	return pos >> (RP_OFF_BITS + RP_CNT_BITS);
}

static inline unsigned long rp_cnt(u64 pos)
{
	return (pos >> RP_OFF_BITS) & RP_FIELD_MASK;
}

static inline unsigned long rp_off(u64 pos)
{
	return pos & RP_FIELD_MASK;
}

/* Bytes an event with length bytes of data takes, header included. */
static inline unsigned long rb_event_size(unsigned long length)
{
	length = ALIGN_UP(length, 4);
	return length + (length > RB_MAX_SMALL_DATA ? 8 : RB_EVNT_HDR_SIZE);
}

unsigned int ring_buffer_event_length(struct ring_buffer_event *event)
{
	if (event->type_len >= RINGBUF_TYPE_TIME_EXTEND)
		return RB_LEN_TIME_EXTEND;
	if (event->type_len)
		return RB_EVNT_HDR_SIZE + event->type_len * 4;
	return 8 + ALIGN_UP(event->array[0], 4);
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

/* ---- pages --------------------------------------------------------------- */

static inline struct buffer_page *rb_page(struct ring_buffer_per_cpu *cpu_buffer,
					  u64 num)
{
	return &cpu_buffer->pages[num % cpu_buffer->nr_pages];
}

/* Bytes of events on a page: up to where the first overflowing one began. */
static inline unsigned long rb_page_size(struct buffer_page *bpage)
{
	return min(READ_ONCE(bpage->write), READ_ONCE(bpage->end));
}

static void rb_reset_page(struct buffer_page *bpage)
{
	bpage->write = 0;
	bpage->entries = 0;
	bpage->end = BUF_PAGE_SIZE;
	bpage->page->commit = 0;
	bpage->page->time_stamp = 0;
}

static u64 rb_head(struct ring_buffer_per_cpu *cpu_buffer)
{
	return rp_head(READ_ONCE(cpu_buffer->reader_pos));
}

static bool rb_cas_pos(struct ring_buffer_per_cpu *cpu_buffer, u64 old, u64 new)
{
	return __atomic_compare_exchange_n(&cpu_buffer->reader_pos, &old, new,
					   false, __ATOMIC_SEQ_CST,
					   __ATOMIC_SEQ_CST);
}

/* ---- the writer ---------------------------------------------------------- */

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
		head = rp_head(pos);
		if (next - head < cpu_buffer->nr_pages)
			return true;
	} while (!rb_cas_pos(cpu_buffer, pos, rp_make(head + 1, 0, 0)));
	WRITE_ONCE(cpu_buffer->overrun, cpu_buffer->overrun +
		   rb_page(cpu_buffer, head)->entries - rp_cnt(pos));
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
	if (next - rb_head(cpu_buffer) >= cpu_buffer->nr_pages &&
	    !rb_push_head(cpu_buffer, next)) {
		cpu_buffer->dropped_events++;
		return false;
	}
	/* No writer comes back to the old tail: its count is final. */
	WRITE_ONCE(cpu_buffer->written,
		   cpu_buffer->written + cpu_buffer->tail_page->entries);
	bpage = rb_page(cpu_buffer, next);
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
__rb_reserve_next(struct ring_buffer_per_cpu *cpu_buffer, unsigned long data_len)
{
	struct buffer_page *tail_page = cpu_buffer->tail_page;
	unsigned long w = tail_page->write, length = rb_event_size(data_len);
	u64 ts = rb_clock(cpu_buffer);
	u64 delta = ts - cpu_buffer->write_stamp;
	int stamp = 0;

	if (!w)
		delta = 0;
	else if ((s64)delta < 0)
		stamp = RINGBUF_TYPE_TIME_STAMP;	/* the clock changed */
	else if (delta > TS_MASK)
		stamp = RINGBUF_TYPE_TIME_EXTEND;
	if (stamp)
		length += RB_LEN_TIME_EXTEND;
	if (w + length > BUF_PAGE_SIZE)
		return rb_move_tail(cpu_buffer, tail_page, w);
	tail_page->write = w + length;
	cpu_buffer->write_stamp = ts;
	if (!w)
		tail_page->page->time_stamp = ts;
	tail_page->entries++;
	return rb_write_header(tail_page->page->data + w, stamp, delta, ts,
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
	unsigned long w = tail_page->write, size = ALIGN_UP(length, 4);
	enum trace_clock_id clock_id = cpu_buffer->clock_id;
	u64 ts, delta;
	u32 *header;

	if (unlikely(!w || size > RB_MAX_SMALL_DATA ||
		     w + size + RB_EVNT_HDR_SIZE > tail_page->end))
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
	tail_page->write = w + size + RB_EVNT_HDR_SIZE;
	cpu_buffer->write_stamp = ts;
	tail_page->entries++;
	header = (u32 *)(tail_page->page->data + w);
	*header = size / 4 | (u32)delta << 5;
	return (struct ring_buffer_event *)header;
}

/* Nested writers moved the tail on: the pages before it are complete. */
static noinline struct buffer_page *rb_commit_pages(struct ring_buffer_per_cpu *cpu_buffer)
{
	struct buffer_page *bpage = cpu_buffer->commit_page;

	while (bpage != READ_ONCE(cpu_buffer->tail_page)) {
		WRITE_ONCE(bpage->page->commit, rb_page_size(bpage));
		wmb();
		bpage = rb_page(cpu_buffer, ++cpu_buffer->commit_num);
		WRITE_ONCE(cpu_buffer->commit_page, bpage);
	}
	return bpage;
}

/* Make every reserved byte visible: only the outermost writer does. */
static inline void rb_set_commit_to_write(struct ring_buffer_per_cpu *cpu_buffer)
{
	struct buffer_page *bpage = cpu_buffer->commit_page;

	wmb();			/* the events' bytes before the commit */
	if (unlikely(bpage != cpu_buffer->tail_page))
		bpage = rb_commit_pages(cpu_buffer);
	WRITE_ONCE(bpage->page->commit, rb_page_size(bpage));
}

/*
 * The outermost writer publishes, nested ones (interrupts that wrote
 * inside an open event) leave it to it. Interrupts are off so that none
 * can reserve between the publishing and the count going down.
 */
static noinline void rb_end_commit(struct ring_buffer_per_cpu *cpu_buffer)
{
	unsigned long flags = local_irq_save();

	if (cpu_buffer->committing == 1)
		rb_set_commit_to_write(cpu_buffer);
	cpu_buffer->committing--;
	local_irq_restore(flags);
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

	if (unlikely(READ_ONCE(buffer->record_disabled)))
		return NULL;
	if (unlikely(length > BUF_MAX_DATA_SIZE))
		return NULL;
	cpu_buffer = buffer->buffers[smp_processor_id()];
	flags = local_irq_save();
	cpu_buffer->committing++;
	event = rb_reserve_fast(cpu_buffer, length);
	if (unlikely(!event))
		event = rb_reserve_slow(cpu_buffer, length);
	local_irq_restore(flags);
	if (unlikely(!event))
		rb_end_commit(cpu_buffer);
	return event;
}

/*
 * The common case of rb_end_commit: the only open event, on the page
 * the commit point is on. A function event reserved, filled (memcpy)
 * and committed, the call and the loop of `bench` included:
 * bench: rb_reserve_commit_insns_per_event 145.55
 */
void ring_buffer_unlock_commit(struct trace_buffer *buffer)
{
	struct ring_buffer_per_cpu *cpu_buffer =
		buffer->buffers[smp_processor_id()];
	unsigned long flags = local_irq_save();
	struct buffer_page *bpage = cpu_buffer->commit_page;

	if (likely(cpu_buffer->committing == 1 &&
		   bpage == cpu_buffer->tail_page)) {
		wmb();
		WRITE_ONCE(bpage->page->commit, bpage->write);
		cpu_buffer->committing = 0;
		local_irq_restore(flags);
		return;
	}
	local_irq_restore(flags);
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
	*flags = local_irq_save();
	event = rb_reserve_fast(cpu_buffer, length);
	if (unlikely(!event))
		local_irq_restore(*flags);
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
	local_irq_restore(flags);
}

/*
 * The writers below need no frame of their own, and ring_buffer_write's
 * copy loop must stay a loop: GCC would make a call to memcpy of it.
 */
#define RB_WRITER __attribute__((optimize("omit-frame-pointer", \
					  "no-tree-loop-distribute-patterns")))

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
RB_WRITER
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
 * bench: rb_write3_insns_per_event 58.14
 */
RB_WRITER
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

RB_WRITER
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

/* ---- reading ------------------------------------------------------------- */

/* Bytes committed on page num, and whether that can still grow. */
static unsigned long rb_committed(struct ring_buffer_per_cpu *cpu_buffer,
				  u64 num, bool *final)
{
	*final = num != READ_ONCE(cpu_buffer->commit_num);
	rmb();
	return READ_ONCE(rb_page(cpu_buffer, num)->page->commit);
}

/* Apply a time stamp event to the cursor's time. */
static void rb_cursor_stamp(struct rb_cursor *c, struct ring_buffer_event *e)
{
	u64 v = e->time_delta | (u64)e->array[0] << TS_SHIFT;

	c->stamp = e->type_len == RINGBUF_TYPE_TIME_STAMP ? v : c->stamp + v;
}

enum { RB_NONE, RB_EVENT, RB_PAGE_DONE };

/*
 * Copy the data event at c (after any time stamps) into buf and move c
 * past it, reading no further than limit bytes of the page. The copy is
 * only good if head has not passed c's page meanwhile (rb_page_valid).
 */
static int rb_read_event(struct ring_buffer_per_cpu *cpu_buffer,
			 struct rb_cursor *c, unsigned long limit, void *buf)
{
	struct buffer_data_page *dpage = rb_page(cpu_buffer, c->page)->page;
	struct ring_buffer_event *e;
	unsigned long len;

	while (c->off < limit) {
		if (!c->off)
			c->stamp = READ_ONCE(dpage->time_stamp);
		e = (void *)(dpage->data + c->off);
		len = ring_buffer_event_length(e);
		if (len > limit - c->off)
			return RB_PAGE_DONE;	/* torn: overwritten */
		c->off += len;
		if (e->type_len >= RINGBUF_TYPE_TIME_EXTEND) {
			rb_cursor_stamp(c, e);
			continue;
		}
		memcpy(buf, e, len);
		c->stamp += e->time_delta;
		c->cnt++;
		return RB_EVENT;
	}
	return RB_NONE;
}

static bool rb_page_valid(struct ring_buffer_per_cpu *cpu_buffer, u64 num)
{
	rmb();
	return rb_head(cpu_buffer) <= num;
}

/* A cursor at the start of page num, walked forward to byte off. */
static void rb_cursor_seek(struct ring_buffer_per_cpu *cpu_buffer,
			   struct rb_cursor *c, u64 num, unsigned long off,
			   void *buf)
{
	*c = (struct rb_cursor){ .page = num };
	while (c->off < off && rb_read_event(cpu_buffer, c, off, buf) ==
	       RB_EVENT)
		;
}

/* The consuming reader's cursor follows reader_pos, which writers push. */
static void rb_reader_sync(struct ring_buffer_per_cpu *cpu_buffer)
{
	u64 pos = READ_ONCE(cpu_buffer->reader_pos);
	struct rb_cursor *rd = &cpu_buffer->rd;

	if (pos != rp_make(rd->page, rd->cnt, rd->off))
		rb_cursor_seek(cpu_buffer, rd, rp_head(pos), rp_off(pos),
			       cpu_buffer->event_buf);
}

/*
 * The next event of the consuming reader, copied. With consume, take it
 * out of the buffer: a compare-and-swap on reader_pos that fails if a
 * writer pushed head meanwhile, and then the copy is read again.
 */
static struct ring_buffer_event *rb_reader_next(struct ring_buffer_per_cpu *cpu_buffer,
						u64 *ts, bool consume)
{
	struct rb_cursor c;
	unsigned long size;
	bool final;
	int ret;

	for (;;) {
		rb_reader_sync(cpu_buffer);
		c = cpu_buffer->rd;
		size = rb_committed(cpu_buffer, c.page, &final);
		ret = rb_read_event(cpu_buffer, &c, size, cpu_buffer->event_buf);
		if (ret == RB_NONE && !final)
			return NULL;
		if (ret == RB_EVENT && !rb_page_valid(cpu_buffer, c.page))
			continue;
		if (ret != RB_EVENT)
			c = (struct rb_cursor){ .page = c.page + 1 };
		else if (!consume)
			break;
		if (!rb_cas_pos(cpu_buffer, rp_make(cpu_buffer->rd.page,
						    cpu_buffer->rd.cnt,
						    cpu_buffer->rd.off),
				rp_make(c.page, c.cnt, c.off)))
			continue;
		cpu_buffer->rd = c;
		if (ret == RB_EVENT) {
			cpu_buffer->read++;
			break;
		}
	}
	*ts = c.stamp;
	return cpu_buffer->event_buf;
}

static unsigned long rb_lost_events(struct ring_buffer_per_cpu *cpu_buffer)
{
	unsigned long overrun = READ_ONCE(cpu_buffer->overrun);
	unsigned long lost = overrun - cpu_buffer->rd_overrun;

	cpu_buffer->rd_overrun = overrun;
	return lost;
}

struct ring_buffer_event *ring_buffer_peek(struct trace_buffer *buffer, int cpu,
					   u64 *ts, unsigned long *lost_events)
{
	struct ring_buffer_per_cpu *cpu_buffer = buffer->buffers[cpu];

	if (lost_events)
		*lost_events = READ_ONCE(cpu_buffer->overrun) -
			       cpu_buffer->rd_overrun;
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

void ring_buffer_reader_lock(struct trace_buffer *buffer)
{
	mutex_lock(&buffer->reader_lock);
}

void ring_buffer_reader_unlock(struct trace_buffer *buffer)
{
	mutex_unlock(&buffer->reader_lock);
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
	iter->end_page = READ_ONCE(cpu_buffer->commit_num);
	iter->end_off = rb_committed(cpu_buffer, iter->end_page, &final);
	pos = READ_ONCE(cpu_buffer->reader_pos);
	rb_cursor_seek(cpu_buffer, &iter->c, rp_head(pos), rp_off(pos),
		       iter->event_buf);
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
	rb_cursor_seek(iter->cpu_buffer, &iter->c,
		       rb_head(iter->cpu_buffer), 0, iter->event_buf);
}

struct ring_buffer_event *ring_buffer_iter_peek(struct ring_buffer_iter *iter,
						u64 *ts)
{
	struct ring_buffer_per_cpu *cpu_buffer = iter->cpu_buffer;
	unsigned long limit;
	bool final;
	int ret;

	while (!iter->have_event && iter->c.page <= iter->end_page) {
		iter->next = iter->c;
		limit = iter->c.page == iter->end_page ? iter->end_off :
			rb_committed(cpu_buffer, iter->c.page, &final);
		ret = rb_read_event(cpu_buffer, &iter->next, limit,
				    iter->event_buf);
		if (!rb_page_valid(cpu_buffer, iter->c.page))
			rb_iter_skip(iter);
		else if (ret == RB_EVENT)
			iter->have_event = true;
		else
			iter->c = (struct rb_cursor){ .page = iter->c.page + 1 };
	}
	if (!iter->have_event)
		return NULL;
	*ts = iter->next.stamp;
	return iter->event_buf;
}

void ring_buffer_iter_advance(struct ring_buffer_iter *iter)
{
	u64 ts;

	if (!iter->have_event && !ring_buffer_iter_peek(iter, &ts))
		return;
	iter->c = iter->next;
	iter->have_event = false;
}

/* Did the writer overwrite events under the iterator since last asked? */
bool ring_buffer_iter_dropped(struct ring_buffer_iter *iter)
{
	bool dropped = iter->dropped;

	iter->dropped = false;
	return dropped;
}

/* ---- counters ------------------------------------------------------------ */

struct rb_totals {
	unsigned long entries, bytes;
};

/*
 * Events and bytes held from the reader's place up to the tail; the
 * lock keeps a resize from swapping the pages under the walk.
 */
static struct rb_totals rb_held(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer = buffer->buffers[cpu];
	struct rb_totals t = { 0, 0 };
	u64 pos, tail, num;

	ring_buffer_reader_lock(buffer);
	pos = READ_ONCE(cpu_buffer->reader_pos);
	tail = READ_ONCE(cpu_buffer->tail_num);
	for (num = rp_head(pos); num <= tail; num++) {
		t.entries += READ_ONCE(rb_page(cpu_buffer, num)->entries);
		t.bytes += rb_page_size(rb_page(cpu_buffer, num));
	}
	ring_buffer_reader_unlock(buffer);
	t.entries -= min(t.entries, rp_cnt(pos));
	t.bytes -= min(t.bytes, rp_off(pos));
	return t;
}

unsigned long ring_buffer_entries_cpu(struct trace_buffer *buffer, int cpu)
{
	return rb_held(buffer, cpu).entries;
}

unsigned long ring_buffer_bytes_cpu(struct trace_buffer *buffer, int cpu)
{
	return rb_held(buffer, cpu).bytes;
}

/*
 * Every event written since the last reset, kept without a count on
 * the fast path: the pages left behind, plus the tail page's. Exact
 * once the writers are stopped, when it equals entries + overrun + read.
 */
unsigned long ring_buffer_written_cpu(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer = buffer->buffers[cpu];
	unsigned long written;

	ring_buffer_reader_lock(buffer);
	written = READ_ONCE(cpu_buffer->written) +
		  READ_ONCE(READ_ONCE(cpu_buffer->tail_page)->entries);
	ring_buffer_reader_unlock(buffer);
	return written;
}

unsigned long ring_buffer_overrun_cpu(struct trace_buffer *buffer, int cpu)
{
	return READ_ONCE(buffer->buffers[cpu]->overrun);
}

unsigned long ring_buffer_commit_overrun_cpu(struct trace_buffer *buffer,
					     int cpu)
{
	return READ_ONCE(buffer->buffers[cpu]->commit_overrun);
}

unsigned long ring_buffer_dropped_events_cpu(struct trace_buffer *buffer,
					     int cpu)
{
	return READ_ONCE(buffer->buffers[cpu]->dropped_events);
}

unsigned long ring_buffer_read_events_cpu(struct trace_buffer *buffer,
					  int cpu)
{
	return READ_ONCE(buffer->buffers[cpu]->read);
}

u64 ring_buffer_oldest_event_ts(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer = buffer->buffers[cpu];
	struct buffer_page *head;
	u64 ts;

	ring_buffer_reader_lock(buffer);
	head = rb_page(cpu_buffer, rb_head(cpu_buffer));
	ts = READ_ONCE(head->page->time_stamp);
	ring_buffer_reader_unlock(buffer);
	return ts;
}

unsigned long ring_buffer_overruns(struct trace_buffer *buffer)
{
	unsigned long sum = 0;
	int cpu;

	for (cpu = 0; cpu < buffer->nr_cpus; cpu++)
		sum += ring_buffer_overrun_cpu(buffer, cpu);
	return sum;
}

/* ---- control ------------------------------------------------------------- */

void ring_buffer_record_on(struct trace_buffer *buffer)
{
	__atomic_and_fetch(&buffer->record_disabled, ~RB_BUFFER_OFF,
			   __ATOMIC_SEQ_CST);
}

void ring_buffer_record_off(struct trace_buffer *buffer)
{
	__atomic_or_fetch(&buffer->record_disabled, RB_BUFFER_OFF,
			  __ATOMIC_SEQ_CST);
}

bool ring_buffer_record_is_on(struct trace_buffer *buffer)
{
	return !(READ_ONCE(buffer->record_disabled) & RB_BUFFER_OFF);
}

/* A stop that nests, for reset and resize (tracing_on stays as it is). */
void ring_buffer_record_disable(struct trace_buffer *buffer)
{
	__atomic_add_fetch(&buffer->record_disabled, 1, __ATOMIC_SEQ_CST);
}

void ring_buffer_record_enable(struct trace_buffer *buffer)
{
	__atomic_sub_fetch(&buffer->record_disabled, 1, __ATOMIC_SEQ_CST);
}

void ring_buffer_change_overwrite(struct trace_buffer *buffer, bool on)
{
	WRITE_ONCE(buffer->overwrite, on);
}

void ring_buffer_set_clock(struct trace_buffer *buffer, u64 (*clock)(void))
{
	int cpu;

	buffer->clock = clock;
	for (cpu = 0; cpu < buffer->nr_cpus; cpu++)
		WRITE_ONCE(buffer->buffers[cpu]->clock_id,
			   trace_clock_id_of(clock));
}

void *ring_buffer_cpu_writer(struct trace_buffer *buffer, int cpu)
{
	return buffer->buffers[cpu];
}

u64 ring_buffer_time_stamp(struct trace_buffer *buffer)
{
	return buffer->clock();
}

int ring_buffer_nr_cpus(struct trace_buffer *buffer)
{
	return buffer->nr_cpus;
}

unsigned long ring_buffer_size(struct trace_buffer *buffer, int cpu)
{
	return buffer->buffers[cpu]->nr_pages * BUF_PAGE_SIZE;
}

/* Start over on a fresh page numbered after the old tail. */
static void rb_reset_cpu(struct ring_buffer_per_cpu *cpu_buffer)
{
	u64 num = cpu_buffer->tail_num + 1;
	struct buffer_page *bpage = rb_page(cpu_buffer, num);

	rb_reset_page(bpage);
	cpu_buffer->tail_num = cpu_buffer->commit_num = num;
	cpu_buffer->tail_page = cpu_buffer->commit_page = bpage;
	cpu_buffer->write_stamp = 0;
	cpu_buffer->overrun = cpu_buffer->read = cpu_buffer->written = 0;
	cpu_buffer->commit_overrun = cpu_buffer->dropped_events = 0;
	cpu_buffer->rd_overrun = 0;
	cpu_buffer->rd = (struct rb_cursor){ .page = num };
	WRITE_ONCE(cpu_buffer->reader_pos, rp_make(num, 0, 0));
}

/*
 * Under reader_lock: stop the writers and wait until none is inside a
 * reservation. They write with preemption off, so a grace period does,
 * as in Linux, and no CPU is stopped for it.
 */
static void rb_stop_writers(struct trace_buffer *buffer)
{
	ring_buffer_record_disable(buffer);
	synchronize_rcu();
}

static void rb_start_writers(struct trace_buffer *buffer)
{
	ring_buffer_record_enable(buffer);
}

void ring_buffer_reset_cpu(struct trace_buffer *buffer, int cpu)
{
	ring_buffer_reader_lock(buffer);
	rb_stop_writers(buffer);
	rb_reset_cpu(buffer->buffers[cpu]);
	rb_start_writers(buffer);
	ring_buffer_reader_unlock(buffer);
}

void ring_buffer_reset(struct trace_buffer *buffer)
{
	int cpu;

	ring_buffer_reader_lock(buffer);
	rb_stop_writers(buffer);
	for (cpu = 0; cpu < buffer->nr_cpus; cpu++)
		rb_reset_cpu(buffer->buffers[cpu]);
	rb_start_writers(buffer);
	ring_buffer_reader_unlock(buffer);
}

/* ---- allocation and resizing --------------------------------------------- */

static unsigned long rb_size_to_pages(unsigned long size)
{
	return max(DIV_ROUND_UP(size, BUF_PAGE_SIZE), 2UL);
}

static void rb_free_slots(struct buffer_page *pages, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		free_page(pages[i].page);
	kfree(pages);
}

#define RB_ALLOC_BATCH	64UL

/*
 * A ring of n slots, each with a fresh data page, the pages taken
 * RB_ALLOC_BATCH at a time (a tenth of boot's instructions went to
 * taking them one by one).
 */
static struct buffer_page *rb_alloc_slots(unsigned long n)
{
	struct buffer_page *pages = kzalloc(n * sizeof(*pages));
	void *batch[RB_ALLOC_BATCH];
	unsigned long i = 0, got, j;

	if (!pages)
		return NULL;
	while (i < n) {
		got = alloc_pages_bulk(min(n - i, RB_ALLOC_BATCH), batch);
		for (j = 0; j < got; j++, i++) {
			pages[i].page = batch[j];
			rb_reset_page(&pages[i]);
		}
		if (!got) {
			rb_free_slots(pages, i);
			return NULL;
		}
	}
	return pages;
}

static struct ring_buffer_per_cpu *rb_allocate_cpu_buffer(struct trace_buffer *buffer,
							  int cpu,
							  unsigned long nr_pages)
{
	struct ring_buffer_per_cpu *cpu_buffer = kzalloc(sizeof(*cpu_buffer));

	if (!cpu_buffer)
		return NULL;
	cpu_buffer->event_buf = kmalloc(BUF_PAGE_SIZE);
	cpu_buffer->pages = rb_alloc_slots(nr_pages);
	if (!cpu_buffer->event_buf || !cpu_buffer->pages) {
		kfree(cpu_buffer->event_buf);
		kfree(cpu_buffer);
		return NULL;
	}
	cpu_buffer->nr_pages = nr_pages;
	cpu_buffer->buffer = buffer;
	cpu_buffer->cpu = cpu;
	cpu_buffer->clock_id = TRACE_CLOCK_LOCAL;	/* the default */
	cpu_buffer->tail_num = (u64)-1;
	rb_reset_cpu(cpu_buffer);
	return cpu_buffer;
}

static void rb_free_cpu_buffer(struct ring_buffer_per_cpu *cpu_buffer)
{
	if (!cpu_buffer)
		return;
	rb_free_slots(cpu_buffer->pages, cpu_buffer->nr_pages);
	kfree(cpu_buffer->event_buf);
	kfree(cpu_buffer);
}

struct trace_buffer *ring_buffer_alloc(unsigned long size, int nr_cpus)
{
	struct trace_buffer *buffer = kzalloc(sizeof(*buffer));
	int cpu;

	if (!buffer)
		return NULL;
	buffer->clock = trace_clock_local_ticks;
	buffer->overwrite = true;
	buffer->nr_cpus = nr_cpus;
	buffer->reader_lock = (struct mutex){ SPIN_LOCK_UNLOCKED, NULL };
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		buffer->buffers[cpu] = rb_allocate_cpu_buffer(buffer, cpu,
						rb_size_to_pages(size));
		if (!buffer->buffers[cpu]) {
			ring_buffer_free(buffer);
			return NULL;
		}
	}
	return buffer;
}

void ring_buffer_free(struct trace_buffer *buffer)
{
	int cpu;

	for (cpu = 0; cpu < buffer->nr_cpus; cpu++)
		rb_free_cpu_buffer(buffer->buffers[cpu]);
	kfree(buffer);
}

/*
 * Put the newest pages of the old ring into a new one of n slots, page
 * number k in slot k % n as always; what does not fit is the oldest and
 * counts as overrun. spare holds n fresh data pages for the other
 * slots; the old data pages left over go back.
 */
static void rb_move_pages(struct ring_buffer_per_cpu *cpu_buffer,
			  struct buffer_page *slots, unsigned long n)
{
	u64 pos = cpu_buffer->reader_pos, head = rp_head(pos);
	u64 tail = cpu_buffer->tail_num, first = tail + 1 > n ? tail + 1 - n : 0;
	unsigned long i, cnt = rp_cnt(pos), off = rp_off(pos);
	u64 num;

	if (first > head) {
		for (num = head; num < first; num++, cnt = 0)
			cpu_buffer->overrun += rb_page(cpu_buffer, num)->entries -
					       cnt;
		head = first;
		cnt = off = 0;
	}
	for (num = head; num <= tail; num++) {
		struct buffer_page *dst = &slots[num % n];
		struct buffer_data_page *fresh = dst->page;

		*dst = *rb_page(cpu_buffer, num);
		rb_page(cpu_buffer, num)->page = fresh;
	}
	for (i = 0; i < cpu_buffer->nr_pages; i++)
		free_page(cpu_buffer->pages[i].page);
	kfree(cpu_buffer->pages);
	cpu_buffer->pages = slots;
	cpu_buffer->nr_pages = n;
	cpu_buffer->tail_page = cpu_buffer->commit_page = rb_page(cpu_buffer, tail);
	cpu_buffer->reader_pos = rp_make(head, cnt, off);
	cpu_buffer->rd = (struct rb_cursor){ .page = (u64)-1 };
}

/* Fresh rings of n slots for CPUs first..last, or none at all. */
static bool rb_alloc_rings(struct buffer_page **slots, int first, int last,
			   unsigned long n)
{
	int c;

	if (n > nr_free_pages() / (last - first + 1))
		return false;
	for (c = first; c <= last; c++) {
		slots[c] = rb_alloc_slots(n);
		if (!slots[c]) {
			while (c-- > first)
				rb_free_slots(slots[c], n);
			return false;
		}
	}
	return true;
}

/* Is an iterator open on one of CPUs first..last? */
static bool rb_resize_disabled(struct trace_buffer *buffer, int first, int last)
{
	int c;

	for (c = first; c <= last; c++)
		if (buffer->buffers[c]->resize_disabled)
			return true;
	return false;
}

/* Under reader_lock; see ring_buffer_resize. */
static int rb_resize_locked(struct trace_buffer *buffer, unsigned long n,
			    int cpu)
{
	struct buffer_page *slots[NR_CPUS];
	int c, first = cpu < 0 ? 0 : cpu;
	int last = cpu < 0 ? buffer->nr_cpus - 1 : cpu;

	if (cpu >= 0 && buffer->buffers[cpu]->nr_pages == n)
		return 0;
	if (rb_resize_disabled(buffer, first, last))
		return -EBUSY;
	if (!rb_alloc_rings(slots, first, last, n))
		return -ENOMEM;
	rb_stop_writers(buffer);
	for (c = first; c <= last; c++)
		rb_move_pages(buffer->buffers[c], slots[c], n);
	rb_start_writers(buffer);
	return 0;
}

/*
 * Give cpu (or every CPU, cpu < 0) a ring of size bytes, rounded up to
 * whole pages as Linux does. As in Linux, an iterator open on a CPU
 * makes it -EBUSY, checked first, though one CPU given its own size
 * again is no change. All memory is had before anything changes: on
 * -ENOMEM nothing did.
 */
int ring_buffer_resize(struct trace_buffer *buffer, unsigned long size, int cpu)
{
	int ret;

	ring_buffer_reader_lock(buffer);
	ret = rb_resize_locked(buffer, rb_size_to_pages(size), cpu);
	ring_buffer_reader_unlock(buffer);
	return ret;
}
