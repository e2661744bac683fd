/*
 * trace_pipe_raw.c: per_cpu/cpuN/trace_pipe_raw, one CPU's events as
 * the pages of Linux's ring buffer (kernel/trace/ring_buffer.c:
 * ring_buffer_read_page; kernel/trace/trace.c: tracing_buffers_read),
 * which trace-cmd reads and libtraceevent's kbuffer decodes. A read
 * consumes events, as trace_pipe does, into a page:
 *
 *   0            8                    16
 *   +------------+--------------------+---------------------+-------+
 *   | time_stamp | commit             | events              | zeros |
 *   | (u64, ns)  | (bytes of events;  | header, then entry  |       |
 *   |            |  bit 31: lost      | ...                 |       |
 *   |            |  before, bit 30:   |                     |       |
 *   |            |  count stored)     |                     |       |
 *   +------------+--------------------+---------------------+-------+
 *
 * Each event has the header of include/ring_buffer.h: type_len (1..28:
 * 4 * type_len bytes of data; 0: length in the next word, for data
 * over 112 bytes) and time_delta, the nanoseconds since the event
 * before (the first is at the page's time_stamp). A delta that needs
 * more than 27 bits goes first in a TIME_EXTEND event.
 *
 * rvftrace's ring buffer keeps its own compact entries (a function
 * call is 16 bytes with its header; Linux's is 28): they are converted
 * here, one at a time, into Linux's entries as events/ftrace/NAME/format
 * gives them (kernel/trace/trace_entries.h), with the ids of
 * include/trace_event_ids.h. The writers do not change; the reader
 * pays, about a tenth of what trace_pipe's text costs per event (the
 * selftest trace_pipe_raw/raw_test_cost prints both under -icount).
 *
 * A read smaller than a page is served as Linux's: the page holds only
 * the events that fit in the read, and the reads after it return the
 * rest of that page. Like trace_pipe, an empty file waits for events,
 * and ends once something was read and tracing_on is 0.
 */
#include "kernel.h"
#include "mm.h"
#include "sched.h"
#include "string.h"
#include "trace_events.h"

#define RB_MISSED_EVENTS	(1UL << 31)
#define RB_MISSED_STORED	(1UL << 30)
#define RB_MAX_SMALL_DATA	(RINGBUF_TYPE_DATA_TYPE_LEN_MAX * 4)

/* Linux's struct trace_entry, the common fields of every event. */
struct raw_common {
	u16 type;
	u8 flags;
	u8 preempt_count;
	int pid;
};

struct raw_function {
	struct raw_common ent;
	u64 ip, parent_ip;
};

struct raw_graph_ent {
	struct raw_common ent;
	u64 func;
	int depth;
};

struct raw_graph_ret {
	struct raw_common ent;
	u64 func;
	int depth;
	u32 overrun;
	u64 calltime, rettime;
};

struct raw_print {
	struct raw_common ent;
	u64 ip;
	char buf[];
};

struct raw_bprint {
	struct raw_common ent;
	u64 ip;
	u64 fmt;			/* as printk_formats lists it */
	u32 buf[];			/* vbin_printf's words */
};

struct raw_data {
	struct raw_common ent;
	u32 id;
	u8 buf[];
};

struct raw_stack {
	struct raw_common ent;
	int size;
	u64 caller[FTRACE_STACK_ENTRIES];	/* zeros after size */
};

/* Room for the largest entry: a trace_printk's arguments. */
#define RAW_ENTRY_MAX	(sizeof(struct raw_bprint) + TRACE_MARKER_MAX)

struct raw_reader {
	struct trace_array *tr;
	int cpu;
	u32 read;			/* bytes of page already read */
	u8 page[PAGE_SIZE];		/* Linux's struct buffer_data_page */
	u64 entry[RAW_ENTRY_MAX / 8 + 1];	/* one converted entry */
};

/* A trace event's id follows its context word (trace_events.h). */
static void raw_common(struct raw_common *c, const struct trace_entry *e)
{
	c->type = entry_type(e) == TRACE_RAW_EVENT ?
		  ((const struct trace_event_common *)e)->common_type :
		  entry_type(e);
	c->flags = entry_linux_flags(e);
	c->preempt_count = entry_preempt_count(e);
	c->pid = entry_pid(e);
}

static u32 raw_graph_ret(struct trace_array *tr, struct raw_graph_ret *r,
			 const struct ftrace_graph_ret_entry *e, u32 size,
			 u64 ns)
{
	r->func = e->func;
	r->depth = e->depth;
	r->overrun = graph_ret_overrun(e, size);
	r->rettime = ns;
	r->calltime = ns - trace_clock_to_ns(tr, e->duration);
	return sizeof(*r);
}

/* Linux reserves the text, a newline and a NUL (tracing_mark_write). */
static u32 raw_print(struct raw_print *r, const struct print_entry *e)
{
	size_t len = strnlen(e->buf, TRACE_MARKER_MAX + 1);

	r->ip = e->ip;
	memcpy(r->buf, e->buf, len);
	memset(r->buf + len, 0, 2);
	return sizeof(*r) + len + 2;
}

/* The arguments' words, as many as the event holds. */
static u32 raw_bprint(struct raw_bprint *r, const struct bprint_entry *e,
		      u32 size)
{
	u32 len = size > sizeof(*e) ? size - sizeof(*e) : 0;

	len = min(len, (u32)TRACE_MARKER_MAX);
	r->ip = e->ip;
	r->fmt = e->fmt;
	memcpy(r->buf, e->buf, len);
	return sizeof(*r) + len;
}

/* The id and the bytes after it, as Linux's event holds them. */
static u32 raw_data(struct raw_data *r, const struct raw_data_entry *e,
		    u32 size)
{
	u32 len = size > sizeof(*e) ? size - sizeof(*e) : 0;

	len = min(len, (u32)TRACE_MARKER_MAX);
	r->id = e->id;
	memcpy(r->buf, e->buf, len);
	return sizeof(*r) + len;
}

static u32 raw_stack(struct raw_stack *r, const struct stack_entry *e)
{
	u32 i, n = min(e->size, (u32)FTRACE_STACK_ENTRIES);

	r->size = n;
	for (i = 0; i < FTRACE_STACK_ENTRIES; i++)
		r->caller[i] = i < n ? e->caller[i] : 0;
	return sizeof(*r);
}

/* Bytes of data in event, past its header. */
static u32 raw_data_length(struct ring_buffer_event *event)
{
	return (u8 *)event + ring_buffer_event_length(event) -
	       (u8 *)ring_buffer_event_data(event);
}

/* e as Linux's entry in out; its length, 0 for a type Linux lacks. */
static u32 raw_entry(struct trace_array *tr, const struct trace_entry *e,
		     u32 size, u64 ns, void *out)
{
	const struct ftrace_entry *fn = (const void *)e;
	const struct ftrace_graph_ent_entry *ent = (const void *)e;
	struct raw_function *rf = out;
	struct raw_graph_ent *rg = out;
	u32 len;

	memset(out, 0, sizeof(struct raw_graph_ret));
	switch (entry_type(e)) {
	case TRACE_FN:
		rf->ip = fn->ip;
		rf->parent_ip = fn->parent_ip;
		len = sizeof(*rf);
		break;
	case TRACE_GRAPH_ENT:
		rg->func = ent->func;
		rg->depth = ent->depth;
		len = sizeof(*rg);
		break;
	case TRACE_GRAPH_RET:
		len = raw_graph_ret(tr, out, (const void *)e, size, ns);
		break;
	case TRACE_PRINT:
		len = raw_print(out, (const void *)e);
		break;
	case TRACE_BPRINT:
		len = raw_bprint(out, (const void *)e, size);
		break;
	case TRACE_RAW_DATA:
		len = raw_data(out, (const void *)e, size);
		break;
	case TRACE_STACK:
		len = raw_stack(out, (const void *)e);
		break;
	case TRACE_CTX:		/* Linux's layout past the common fields */
	case TRACE_WAKE:
		len = sizeof(struct raw_common) +
		      sizeof(struct ctx_switch_entry) -
		      sizeof(struct trace_entry);
		memcpy((u8 *)out + sizeof(struct raw_common), e + 1,
		       len - sizeof(struct raw_common));
		break;
	case TRACE_RAW_EVENT:	/* Linux's layout past the common fields */
		len = min(size, (u32)TRACE_EVENT_MAX_SIZE);
		memcpy(out, e, len);
		break;
	default:
		return 0;
	}
	raw_common(out, e);
	memset((u8 *)out + len, 0, ALIGN_UP(len, 4) - len);
	return ALIGN_UP(len, 4);
}

/* Bytes an event of len data bytes takes, with a TIME_EXTEND if needed. */
static u32 raw_event_size(u64 delta, u32 len)
{
	return (delta > TS_MASK ? 8 : 0) + len +
	       (len > RB_MAX_SMALL_DATA ? 8 : 4);
}

/* Write the event at p (see raw_event_size); returns its bytes. */
static u32 raw_put_event(u32 *p, u64 delta, const void *data, u32 len)
{
	u32 *start = p;

	if (delta > TS_MASK) {
		*p++ = RINGBUF_TYPE_TIME_EXTEND | (u32)(delta & TS_MASK) << 5;
		*p++ = delta >> TS_SHIFT;
		delta = 0;
	}
	if (len > RB_MAX_SMALL_DATA) {
		*p++ = (u32)delta << 5;		/* type_len 0 */
		*p++ = len + 4;		/* array[0] counts itself */
	} else {
		*p++ = len / 4 | (u32)delta << 5;
	}
	memcpy(p, data, len);
	return (u8 *)p + len - (u8 *)start;
}

/*
 * Events lost before this page: flagged in commit, and their count
 * stored after the events if there is room (Linux's read_page).
 */
static u64 raw_missed(u8 *data, u32 commit, unsigned long missed)
{
	if (!missed)
		return commit;
	if (commit + sizeof(u64) > BUF_PAGE_SIZE)
		return commit | RB_MISSED_EVENTS;
	memcpy(data + commit, &(u64){ missed }, sizeof(u64));
	return commit | RB_MISSED_EVENTS | RB_MISSED_STORED;
}

/*
 * Consume the CPU's oldest events into a page, as many as fit in limit
 * bytes after the page header; a gap of lost events ends the page, so
 * that the next one can say so. Returns the events written.
 */
static int raw_fill_page(struct raw_reader *r, u32 limit)
{
	struct trace_buffer *buffer = tracing_buffer_lock(r->tr);
	u8 *data = r->page + BUF_PAGE_HDR_SIZE;
	struct ring_buffer_event *event;
	unsigned long lost, missed = 0;
	u32 commit = 0, len;
	u64 ts, ns, last = 0;
	int n = 0;

	while ((event = ring_buffer_peek(buffer, r->cpu, &ts, &lost))) {
		if (lost && n)
			break;
		ns = trace_clock_to_ns(r->tr, ts);
		len = raw_entry(r->tr, ring_buffer_event_data(event),
				raw_data_length(event), ns, r->entry);
		if (!n)
			last = ns;
		if (len && commit + raw_event_size(ns - last, len) > limit)
			break;
		if (len && !n++) {
			memcpy(r->page, &ns, sizeof(ns));
			missed = lost;
		}
		if (len) {
			commit += raw_put_event((u32 *)(data + commit),
						ns - last, r->entry, len);
			last = ns;
		}
		ring_buffer_consume(buffer, r->cpu, &ts, NULL);
	}
	ring_buffer_reader_unlock(buffer);
	memset(data + commit, 0, BUF_PAGE_SIZE - commit);
	memcpy(r->page + 8, &(u64){ raw_missed(data, commit, missed) },
	       sizeof(u64));
	return n;
}

static int tracing_buffers_open(struct inode *inode, struct file *file)
{
	struct raw_reader *r = kzalloc(sizeof(*r));

	if (!r)
		return -ENOMEM;
	r->tr = trace_array_of_inode(inode);
	r->cpu = (long)inode->private - 1;
	r->read = PAGE_SIZE;		/* nothing left to give out */
	file->private = r;
	return 0;
}

/* As trace_pipe's tracing_wait_pipe: 1 when the file has ended. */
static int raw_wait(struct raw_reader *r, struct file *file)
{
	if (file->flags & O_NONBLOCK)
		return -EAGAIN;
	if (!tracer_tracing_is_on(r->tr) && file->pos)
		return 1;
	if (current->sigpending)
		return -EINTR;
	msleep(1000 / HZ);
	return 0;
}

static ssize_t tracing_buffers_read(struct file *file, char *buf, size_t n)
{
	struct raw_reader *r = file->private;
	size_t size;
	int ret;

	while (r->read >= PAGE_SIZE) {
		if (n > BUF_PAGE_HDR_SIZE &&
		    raw_fill_page(r, min(n, PAGE_SIZE) - BUF_PAGE_HDR_SIZE)) {
			r->read = 0;
			break;
		}
		if (!ring_buffer_empty_cpu(r->tr->buffer, r->cpu))
			return 0;	/* the next event is larger than n */
		ret = raw_wait(r, file);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	size = min(n, PAGE_SIZE - r->read);
	memcpy(buf, r->page + r->read, size);
	r->read += size;
	file->pos += size;
	return size;
}

static int tracing_buffers_release(struct inode *inode, struct file *file)
{
	kfree(file->private);
	return 0;
}

const struct file_operations tracing_buffers_fops = {
	.open = tracing_buffers_open,
	.read = tracing_buffers_read,
	.release = tracing_buffers_release,
};
