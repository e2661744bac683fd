/*
 * trace_marker.c: text written to trace_marker becomes a TRACE_PRINT
 * event (Linux's tracing_mark_write), shown in the trace as
 * `tracing_mark_write: TEXT`, in time order with everything else; and
 * trace_printk's text, shown after its caller's name (Linux's
 * kernel/trace/trace_printk.c records it as bprint or print).
 */
#include "kernel.h"
#include "string.h"
#include "printf.h"
#include "trace.h"

/*
 * A TRACE_PRINT event of len bytes of text from ip, kept to
 * TRACE_MARKER_MAX, a newline added if missing: trace_marker's and
 * trace_printk's. -EBADF when the ring buffer takes nothing.
 */
int trace_print_record(struct trace_array *tr, unsigned long ip,
		       const char *text, size_t len)
{
	struct ring_buffer_event *event;
	struct print_entry *entry;

	len = min(len, (size_t)TRACE_MARKER_MAX);
	preempt_disable();
	event = ring_buffer_lock_reserve(tr->buffer, sizeof(*entry) + len + 2);
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
	ring_buffer_unlock_commit(tr->buffer);
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

/*
 * trace_printk(), for the code above trace/ (include/tracing.h): the
 * text is formatted now and recorded as a print event, as Linux's
 * trace_printk does when it cannot keep the format.
 */
int __trace_printk(unsigned long ip, const char *fmt, ...)
{
	char buf[TRACE_MARKER_MAX];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return trace_print_record(&global_trace, ip, buf,
				  min((size_t)len, sizeof(buf) - 1));
}
