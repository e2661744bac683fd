/*
 * trace_marker.c: text written to trace_marker becomes a TRACE_PRINT
 * event (Linux's tracing_mark_write), shown in the trace as
 * `tracing_mark_write: TEXT`, in time order with everything else.
 */
#include "kernel.h"
#include "string.h"
#include "trace.h"

/*
 * Up to TRACE_MARKER_MAX bytes are kept, a newline added if missing.
 * Errors as Linux's: -EINVAL with the markers option off, -EBADF when
 * the ring buffer takes nothing (tracing_on is 0).
 */
ssize_t tracing_mark_write(struct trace_array *tr, const char *ubuf,
			   size_t cnt)
{
	size_t len = min(cnt, (size_t)TRACE_MARKER_MAX);
	struct ring_buffer_event *event;
	struct print_entry *entry;

	if (!(tr->trace_flags & TRACE_ITER_MARKERS))
		return -EINVAL;
	preempt_disable();
	event = ring_buffer_lock_reserve(tr->buffer, sizeof(*entry) + len + 2);
	if (!event) {
		preempt_enable();
		return -EBADF;
	}
	entry = ring_buffer_event_data(event);
	entry->ent.ctx = tracing_gen_ctx_dec(1) | TRACE_PRINT;
	entry->ip = (unsigned long)tracing_mark_write;
	memcpy(entry->buf, ubuf, len);
	if (!len || entry->buf[len - 1] != '\n')
		entry->buf[len++] = '\n';
	entry->buf[len] = 0;
	ring_buffer_unlock_commit(tr->buffer);
	preempt_enable();
	return cnt;
}
