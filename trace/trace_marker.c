/*
 * trace_marker.c: text written to trace_marker becomes a TRACE_PRINT
 * event (Linux's tracing_mark_write), shown in the trace as
 * `tracing_mark_write: TEXT`, in time order with everything else; a
 * write to trace_marker_raw, an id and binary data, a TRACE_RAW_DATA
 * event (tracing_mark_raw_write), shown as `# ID buf: BYTES`.
 */
#include "kernel.h"
#include "string.h"
#include "printf.h"
#include "trace.h"

/*
 * A TRACE_PRINT event of len bytes of text from ip, kept to
 * TRACE_MARKER_MAX, a newline added if missing. -EBADF when the ring
 * buffer takes nothing.
 */
int trace_print_record(struct trace_array *tr, unsigned long ip,
		       const char *text, size_t len)
{
	struct trace_buffer *buffer;
	struct ring_buffer_event *event;
	struct print_entry *entry;

	len = min(len, (size_t)TRACE_MARKER_MAX);
	preempt_disable();
	/* One load: a snapshot may swap tr->buffer before the commit. */
	buffer = READ_ONCE(tr->buffer);
	event = ring_buffer_lock_reserve(buffer, sizeof(*entry) + len + 2);
	if (!event) {
		preempt_enable();
		return -EBADF;
	}
	entry = ring_buffer_event_data(event);
	entry->ent.ctx = tracing_gen_ctx_dec(1) | TRACE_PRINT;
	entry->ip = ip;
	memcpy(entry->buf, text, len);
	if (!len || entry->buf[len - 1] != '\n')
		entry->buf[len++] = '\n';
	entry->buf[len] = 0;
	ring_buffer_unlock_commit(buffer);
	preempt_enable();
	return 0;
}

/* Errors as Linux's: -EINVAL with the markers option off. */
ssize_t tracing_mark_write(struct trace_array *tr, const char *ubuf,
			   size_t cnt)
{
	int ret;

	if (!(tr->trace_flags & TRACE_ITER_MARKERS))
		return -EINVAL;
	ret = trace_print_record(tr, (unsigned long)tracing_mark_write, ubuf,
				 cnt);
	return ret ? ret : (ssize_t)cnt;
}

/* Linux's limit on a trace_marker_raw write, id included. */
#define RAW_DATA_MAX_SIZE	(1024 * 3)
/* Linux reserves room for an id and "<faulted>" at least. */
#define FAULT_SIZE_ID		(sizeof(u32) + sizeof("<faulted>") - 1)

/*
 * The id and the data in Linux's layout. Linux's event holds 4 bytes
 * more than the write (its size counts the id twice), at least
 * FAULT_SIZE_ID of them, to a multiple of 4; `cat trace` shows them
 * all, so they are kept here too, as zeros.
 */
ssize_t tracing_mark_raw_write(struct trace_array *tr, const char *ubuf,
			       size_t cnt)
{
	struct trace_buffer *buffer;
	struct ring_buffer_event *event;
	struct raw_data_entry *entry;
	size_t len;

	if (!(tr->trace_flags & TRACE_ITER_MARKERS) || cnt < sizeof(u32) ||
	    cnt > RAW_DATA_MAX_SIZE)
		return -EINVAL;
	cnt = min(cnt, (size_t)TRACE_MARKER_MAX);
	len = ALIGN_UP(max(cnt, FAULT_SIZE_ID), 4);
	preempt_disable();
	buffer = READ_ONCE(tr->buffer);
	event = ring_buffer_lock_reserve(buffer, sizeof(*entry) + len);
	if (!event) {
		preempt_enable();
		return -EBADF;
	}
	entry = ring_buffer_event_data(event);
	entry->ent.ctx = tracing_gen_ctx_dec(1) | TRACE_RAW_DATA;
	memcpy(&entry->id, ubuf, cnt);
	memset((u8 *)&entry->id + cnt, 0, sizeof(entry->id) + len - cnt);
	ring_buffer_unlock_commit(buffer);
	preempt_enable();
	return cnt;
}
