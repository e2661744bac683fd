/*
 * trace_printk.c: trace_printk() for the code above trace/ (Linux's
 * kernel/trace/trace_printk.c and trace_vbprintk in trace.c). Each
 * call becomes an ftrace:bprint event: the caller, the format's
 * address and the arguments in binary (lib/vsprintf.c: vbin_printf),
 * made into text only when the trace is read; the formats are listed
 * in printk_formats. With the stacktrace option a stack event follows.
 */
#include "kernel.h"
#include "printf.h"
#include "trace.h"

extern const char *const __start___trace_bprintk_fmt[],
	*const __stop___trace_bprintk_fmt[];

/* The arguments of one event at most: Linux's TRACE_BUF_SIZE. */
#define TRACE_BPRINT_WORDS	(TRACE_MARKER_MAX / sizeof(u32))

/*
 * The event, and with the stacktrace option the stack from its caller
 * up (Linux's ftrace_trace_stack in trace_vbprintk): ret is the return
 * address into the function that called trace_printk.
 */
static int trace_vbprintk(unsigned long ip, unsigned long ret,
			  const char *fmt, va_list ap)
{
	struct trace_buffer *buffer = global_trace.buffer;
	struct ring_buffer_event *event;
	struct bprint_entry *entry;
	va_list args;
	int words;
	u32 ctx;

	va_copy(args, ap);
	words = min(vbin_printf(NULL, 0, fmt, args), (int)TRACE_BPRINT_WORDS);
	va_end(args);
	preempt_disable();
	event = ring_buffer_lock_reserve(buffer, sizeof(*entry) + words * 4);
	if (!event) {
		preempt_enable();
		return -EBADF;
	}
	ctx = tracing_gen_ctx_dec(1);
	entry = ring_buffer_event_data(event);
	entry->ent.ctx = ctx | TRACE_BPRINT;
	entry->ip = ip;
	entry->fmt = (unsigned long)fmt;
	vbin_printf(entry->buf, words, fmt, ap);
	ring_buffer_unlock_commit(buffer);
	if (global_trace.trace_flags & TRACE_ITER_STACKTRACE)
		trace_stack_from(&global_trace, ctx, ret, ret);
	preempt_enable();
	return 0;
}

/* Off while the trace_printk option is (Linux's). */
noinline int __trace_bprintk(unsigned long ip, const char *fmt, ...)
{
	va_list ap;
	int ret;

	if (!fmt || !(global_trace.trace_flags & TRACE_ITER_PRINTK))
		return 0;
	va_start(ap, fmt);
	ret = trace_vbprintk(ip, (unsigned long)__builtin_return_address(0),
			     fmt, ap);
	va_end(ap);
	return ret;
}

/* A bprint event's text, its arguments bounded by the event's length. */
void trace_seq_bprint(struct seq_buf *s, const struct bprint_entry *field,
		      unsigned int len)
{
	size_t words = len > sizeof(*field) ?
		       (len - sizeof(*field)) / sizeof(u32) : 0;

	seq_bprintf(s, (const char *)(unsigned long)field->fmt, field->buf,
		    words);
}

/*
 * printk_formats: each constant format's address and text, as Linux's
 * t_show prints them: newline, tab and quote escaped, and a backslash
 * as itself.
 */
void printk_formats_show(struct seq_buf *s, long data)
{
	const char *const *fmt;
	const char *c;

	for (fmt = __start___trace_bprintk_fmt;
	     fmt < __stop___trace_bprintk_fmt; fmt++) {
		if (!*fmt)
			continue;
		seq_printf(s, "0x%lx : \"", (unsigned long)*fmt);
		for (c = *fmt; *c; c++) {
			if (*c == '\n')
				seq_puts(s, "\\n");
			else if (*c == '\t')
				seq_puts(s, "\\t");
			else if (*c == '"')
				seq_puts(s, "\\\"");
			else
				seq_printf(s, "%c", *c);
		}
		seq_puts(s, "\"\n");
	}
}
