/*
 * ring_buffer_internal.h: what the three rooms of the ring buffer
 * share, Linux's kernel/trace/ring_buffer.c in three files:
 *
 *   ring_buffer.c         the pages: allocation, resize, reset, the
 *                         counters and the switches (record on/off)
 *   ring_buffer_write.c   the writer: reserve, commit, time stamps
 *   ring_buffer_read.c    the readers: consume, peek, iterators
 *
 * Each opens with a drawing of the state it changes. Here: the
 * structures, the page numbering and the reader's packed position, the
 * one word that the writer and the consuming reader both change.
 */
#ifndef _RING_BUFFER_INTERNAL_H
#define _RING_BUFFER_INTERNAL_H

#include "kernel.h"
#include "ring_buffer.h"
#include "smp.h"
#include "spinlock.h"
#include "asm/asm-offsets.h"

#define RB_EVNT_HDR_SIZE	4
#define RB_LEN_TIME_EXTEND	8
#define RB_MAX_SMALL_DATA	(RINGBUF_TYPE_DATA_TYPE_LEN_MAX * 4)

struct buffer_data_page {
	u64 time_stamp;			/* of the page's first event */
	u64 commit;			/* bytes of committed events */
	u8 data[BUF_PAGE_SIZE];
};

/* A slot of the ring: a data page and what the writer knows of it. */
struct buffer_page {
	unsigned long write;		/* bytes reserved; past end when full */
	unsigned long entries;		/* data events reserved on it */
	unsigned long end;		/* where its events stop */
	struct buffer_data_page *page;
};

/* A place in a CPU's events, and the time of the event before it. */
struct rb_cursor {
	u64 page_num;
	unsigned long events;		/* data events before offset */
	unsigned long offset;		/* bytes into the page */
	u64 read_stamp;
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
	u64 reader_pos;			/* see reader_pos_pack */
	unsigned long overrun;		/* events lost to overwriting */
	unsigned long read;		/* events consumed */
	/* Under buffer->reader_lock: the consuming reader's, and more. */
	struct rb_cursor reader;	/* follows reader_pos */
	unsigned long last_overrun;	/* overrun already reported */
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
	int reading;			/* reader_lock held: see */
	int swapping;			/* ring_buffer_reader_lock */
	unsigned long cpus_off;		/* CPUs tracing_cpumask leaves out */
	struct ring_buffer_per_cpu *buffers[];	/* nr_cpus of them */
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

/*
 * reader_pos, the consuming reader's place as one word, so that the
 * reader (consuming) and an overwriting writer (pushing head) can each
 * change it with one compare-and-swap:
 *
 *   63                     24 23         12 11          0
 *   +-------------------------+-------------+-------------+
 *   | head: page number       | count:      | offset:     |
 *   | (40 bits)               | data events | bytes read  |
 *   |                         | read on it  | on it       |
 *   +-------------------------+-------------+-------------+
 *
 * A page holds at most BUF_PAGE_SIZE (4080) bytes, so 12 bits hold
 * both counts; 40 bits of pages outlast any run.
 */
#define READER_POS_OFFSET_BITS	12
#define READER_POS_COUNT_BITS	12
#define READER_POS_FIELD_MASK	((1UL << READER_POS_OFFSET_BITS) - 1)

static inline u64 reader_pos_pack(u64 head, unsigned long count,
				  unsigned long offset)
{
	return head << (READER_POS_OFFSET_BITS + READER_POS_COUNT_BITS) |
	       count << READER_POS_OFFSET_BITS | offset;
}

static inline u64 reader_pos_head(u64 pos)
{
	return pos >> (READER_POS_OFFSET_BITS + READER_POS_COUNT_BITS);
}

static inline unsigned long reader_pos_count(u64 pos)
{
	return (pos >> READER_POS_OFFSET_BITS) & READER_POS_FIELD_MASK;
}

static inline unsigned long reader_pos_offset(u64 pos)
{
	return pos & READER_POS_FIELD_MASK;
}

/* The slot page number num lives in (ring_buffer.c draws the ring). */
static inline struct buffer_page *
rb_num_to_page(struct ring_buffer_per_cpu *cpu_buffer, u64 num)
{
	return &cpu_buffer->pages[num % cpu_buffer->nr_pages];
}

/* Bytes of events on a page: up to where the first overflowing one began. */
static inline unsigned long rb_page_bytes(struct buffer_page *bpage)
{
	return min(READ_ONCE(bpage->write), READ_ONCE(bpage->end));
}

static inline void rb_reset_page(struct buffer_page *bpage)
{
	bpage->write = 0;
	bpage->entries = 0;
	bpage->end = BUF_PAGE_SIZE;
	bpage->page->commit = 0;
	bpage->page->time_stamp = 0;
}

/* The page number of head, the oldest page still held. */
static inline u64 rb_head_num(struct ring_buffer_per_cpu *cpu_buffer)
{
	return reader_pos_head(READ_ONCE(cpu_buffer->reader_pos));
}

static inline bool rb_cas_reader_pos(struct ring_buffer_per_cpu *cpu_buffer,
				     u64 old, u64 new)
{
	return __atomic_compare_exchange_n(&cpu_buffer->reader_pos, &old, new,
					   false, __ATOMIC_SEQ_CST,
					   __ATOMIC_SEQ_CST);
}

#endif
