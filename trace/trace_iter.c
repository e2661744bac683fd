/*
 * trace_iter.c: reading the ring buffer as text (Linux's trace.c
 * readers): `trace` and per_cpu/cpuN/trace walk the buffer without
 * consuming it, trace_pipe consumes it and sleeps while it is empty.
 * Both merge the CPUs' events by time stamp and stream the text in
 * whatever pieces the reader asks for, so no file is ever built whole.
 * ftrace_dump, the third reader, consumes it onto the console.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "sched.h"
#include "smp.h"
#include "printk.h"
#include "kstrtox.h"
#include "trace.h"

/* Files of per_cpu/cpuN carry N + 1 in their private data. */
static int inode_cpu(struct inode *inode)
{
	return inode->private ? (int)(long)inode->private - 1 :
				RING_BUFFER_ALL_CPUS;
}

static bool iter_has_cpu(struct trace_iterator *iter, int cpu)
{
	return iter->cpu_file == RING_BUFFER_ALL_CPUS || iter->cpu_file == cpu;
}

static struct ring_buffer_event *peek_next_entry(struct trace_iterator *iter,
						 int cpu, u64 *ts,
						 unsigned long *lost)
{
	struct ring_buffer_event *event;

	*lost = 0;
	if (iter->consume)
		return ring_buffer_peek(iter->tr->buffer, cpu, ts, lost);
	event = ring_buffer_iter_peek(iter->buffer_iter[cpu], ts);
	if (event && ring_buffer_iter_dropped(iter->buffer_iter[cpu]))
		*lost = (unsigned long)-1;
	return event;
}

/* The CPU whose next event is the oldest; -1 when all are empty. */
static int find_next_cpu(struct trace_iterator *iter, u64 *ent_ts)
{
	struct ring_buffer_event *event;
	unsigned long lost;
	int cpu, next_cpu = -1;
	u64 ts;

	for (cpu = 0; cpu < trace_nr_cpus(); cpu++) {
		if (!iter_has_cpu(iter, cpu))
			continue;
		event = peek_next_entry(iter, cpu, &ts, &lost);
		if (event && (next_cpu < 0 || ts < *ent_ts)) {
			next_cpu = cpu;
			*ent_ts = ts;
		}
	}
	return next_cpu;
}

/* The entry after the current one, left in place (latency lookahead). */
struct trace_entry *trace_find_next_entry(struct trace_iterator *iter,
					  int *ent_cpu, u64 *ent_ts)
{
	int cpu = find_next_cpu(iter, ent_ts);
	unsigned long lost;
	u64 ts;

	if (cpu < 0)
		return NULL;
	*ent_ts = trace_clock_to_ns(iter->tr, *ent_ts);
	if (ent_cpu)
		*ent_cpu = cpu;
	return ring_buffer_event_data(peek_next_entry(iter, cpu, &ts, &lost));
}

/*
 * The next entry of iter->cpu, the CPU of the entry just read, left in
 * place: function_graph looks whether an entry's return follows it.
 */
struct trace_entry *trace_iter_peek_cpu(struct trace_iterator *iter)
{
	unsigned long lost;
	u64 ts;
	struct ring_buffer_event *event = peek_next_entry(iter, iter->cpu,
							  &ts, &lost);

	return event ? ring_buffer_event_data(event) : NULL;
}

/* Move past that entry: it was printed along with the one before. */
void trace_iter_skip_cpu(struct trace_iterator *iter)
{
	u64 ts;

	if (iter->consume)
		ring_buffer_consume(iter->tr->buffer, iter->cpu, &ts, NULL);
	else
		ring_buffer_iter_advance(iter->buffer_iter[iter->cpu]);
}

bool trace_empty(struct trace_iterator *iter)
{
	u64 ts;

	return find_next_cpu(iter, &ts) < 0;
}

/* Copy the oldest event out and move past it (consuming for the pipe). */
static bool trace_find_next_entry_inc(struct trace_iterator *iter)
{
	struct ring_buffer_event *event;
	unsigned long lost = 0;
	int cpu = find_next_cpu(iter, &iter->ts);
	void *data;

	if (cpu < 0)
		return false;
	if (iter->consume) {
		event = ring_buffer_consume(iter->tr->buffer, cpu, &iter->ts,
					    &lost);
	} else {
		event = peek_next_entry(iter, cpu, &iter->ts, &lost);
		ring_buffer_iter_advance(iter->buffer_iter[cpu]);
	}
	if (!event)
		return false;
	iter->ts = trace_clock_to_ns(iter->tr, iter->ts);
	data = ring_buffer_event_data(event);
	iter->ent_size = ring_buffer_event_length(event) -
			 ((u8 *)data - (u8 *)event);
	memcpy(iter->ent_buf, data, iter->ent_size);
	iter->ent = iter->ent_buf;
	iter->cpu = cpu;
	iter->lost_events = lost;
	iter->idx++;
	return true;
}

void get_total_entries(struct trace_array *tr, unsigned long *total,
		       unsigned long *entries)
{
	int cpu;

	*total = *entries = 0;
	for (cpu = 0; cpu < trace_nr_cpus(); cpu++) {
		unsigned long count = ring_buffer_entries_cpu(tr->buffer, cpu);

		*entries += count;
		*total += count + ring_buffer_overrun_cpu(tr->buffer, cpu);
	}
}

/* ---- opening and closing ------------------------------------------------- */

static void free_iter(struct trace_iterator *iter)
{
	int cpu;

	if (iter->trace->close)
		iter->trace->close(iter);
	for (cpu = 0; cpu < trace_nr_cpus(); cpu++)
		if (iter->buffer_iter[cpu])
			ring_buffer_read_finish(iter->buffer_iter[cpu]);
	seq_free(&iter->seq);
	kfree(iter->ent_buf);
	kfree(iter);
}

static struct trace_iterator *alloc_iter_tr(struct trace_array *tr,
					    int cpu_file, bool consume)
{
	struct trace_iterator *iter = kzalloc(sizeof(*iter) + trace_nr_cpus() *
					      sizeof(iter->buffer_iter[0]));

	if (!iter)
		return NULL;
	iter->tr = tr;
	iter->consume = consume;
	iter->cpu_file = cpu_file;
	iter->trace = tr->current_trace;
	iter->trace_flags = tr->trace_flags;
	iter->idx = -1;
	if (trace_clock_in_ns(tr))
		iter->iter_flags |= TRACE_FILE_TIME_IN_NS;
	iter->ent_buf = kmalloc(BUF_PAGE_SIZE);
	if (!iter->ent_buf || seq_init(&iter->seq, PAGE_SIZE) ||
	    (iter->trace->open && iter->trace->open(iter))) {
		free_iter(iter);
		return NULL;
	}
	return iter;
}

/* The top level's: ftrace_dump reads only that. */
static struct trace_iterator *alloc_iter(int cpu_file, bool consume)
{
	return alloc_iter_tr(&global_trace, cpu_file, consume);
}

static int open_buffer_iters(struct trace_iterator *iter)
{
	int cpu;

	for (cpu = 0; cpu < trace_nr_cpus(); cpu++) {
		if (!iter_has_cpu(iter, cpu))
			continue;
		iter->buffer_iter[cpu] = ring_buffer_read_prepare(iter->tr->buffer,
								  cpu);
		if (!iter->buffer_iter[cpu])
			return -ENOMEM;
	}
	return 0;
}

/*
 * A copy of the trace array whose buffer is the spare one (Linux
 * points iter->array_buffer at max_buffer), NULL without memory; its
 * buffer is NULL when there is no spare buffer. While a view is open
 * the spare buffer is not freed.
 */
static struct trace_array *max_view_get(struct trace_array *tr)
{
	struct trace_array *view = kmalloc(sizeof(*view));
	unsigned long flags;

	if (!view)
		return NULL;
	mutex_lock(&trace_types_lock);
	flags = spin_lock_irqsave(&tr->max_lock);
	*view = *tr;
	view->buffer = tr->max_buffer;	/* a trigger may swap them */
	spin_unlock_irqrestore(&tr->max_lock, flags);
	view->time_start = view->max_data.time_start;
	if (view->buffer)
		tr->snapshot_readers++;
	mutex_unlock(&trace_types_lock);
	return view;
}

static void max_view_put(struct trace_array *tr, struct trace_array *view)
{
	mutex_lock(&trace_types_lock);
	if (view->buffer)
		tr->snapshot_readers--;
	mutex_unlock(&trace_types_lock);
	kfree(view);
}

/*
 * Free an iterator, and the view of the max trace it read: its tr is a
 * copy then, of max_of (the top level or an instance, which outlive it).
 */
static void tracing_release_iter(struct trace_iterator *iter)
{
	struct trace_array *tr = iter->max_of, *view = iter->tr;

	free_iter(iter);
	if (tr)
		max_view_put(tr, view);
}

/*
 * A latency tracer's max trace holds its CPU's older events too: they
 * are skipped, and not counted (Linux's tracing_iter_reset).
 */
static void skip_before_section(struct trace_iterator *iter)
{
	u64 ts;
	int cpu;

	for (cpu = 0; cpu < trace_nr_cpus(); cpu++) {
		if (!iter->buffer_iter[cpu])
			continue;
		while (ring_buffer_iter_peek(iter->buffer_iter[cpu], &ts) &&
		       ts < iter->tr->time_start) {
			ring_buffer_iter_advance(iter->buffer_iter[cpu]);
			iter->skipped_entries++;
		}
	}
}

/* `trace`: the header now, the events as they are read. */
static int __tracing_open(struct inode *inode, struct file *file)
{
	struct trace_array *tr = trace_array_of_inode(inode);
	struct trace_iterator *iter = alloc_iter_tr(tr, inode_cpu(inode),
						    false);

	if (!iter)
		return -ENOMEM;
	if (iter->trace->print_max) {
		struct trace_array *tr = iter->tr;

		iter->tr = max_view_get(tr);
		if (!iter->tr || !iter->tr->buffer) {
			if (iter->tr)
				max_view_put(tr, iter->tr);
			iter->tr = tr;
			free_iter(iter);
			return -EBUSY;
		}
		iter->max_of = tr;
	}
	if (iter->trace_flags & TRACE_ITER_LATENCY_FMT)
		iter->iter_flags |= TRACE_FILE_LAT_FMT;
	if (ring_buffer_overruns(iter->tr->buffer))
		iter->iter_flags |= TRACE_FILE_ANNOTATE;
	if (iter->trace_flags & TRACE_ITER_PAUSE)
		tracing_stop_tr(tr);
	if (open_buffer_iters(iter)) {
		if (iter->trace_flags & TRACE_ITER_PAUSE)
			tracing_start_tr(tr);
		tracing_release_iter(iter);
		return -ENOMEM;
	}
	if (iter->trace->print_max)
		skip_before_section(iter);
	trace_print_header(iter);
	file->private = iter;
	return 0;
}

/* Opening for write with O_TRUNC (`echo > trace`) empties the buffer. */
static int tracing_open(struct inode *inode, struct file *file)
{
	struct trace_array *tr = trace_array_of_inode(inode);
	int cpu = inode_cpu(inode);

	if ((file->flags & O_ACCMODE) != O_RDONLY && (file->flags & O_TRUNC)) {
		mutex_lock(&trace_types_lock);
		if (tr->current_trace->print_max) {
			if (cpu == RING_BUFFER_ALL_CPUS)
				ring_buffer_reset(tr->max_buffer);
			else
				ring_buffer_reset_cpu(tr->max_buffer, cpu);
		} else if (cpu == RING_BUFFER_ALL_CPUS)
			tracing_reset_online_cpus(tr);
		else
			ring_buffer_reset_cpu(tr->buffer, cpu);
		mutex_unlock(&trace_types_lock);
	}
	if ((file->flags & O_ACCMODE) == O_WRONLY)
		return 0;
	return __tracing_open(inode, file);
}

static int tracing_release(struct inode *inode, struct file *file)
{
	struct trace_iterator *iter = file->private;

	if (!iter)
		return 0;
	if (!iter->consume && (iter->trace_flags & TRACE_ITER_PAUSE))
		tracing_start_tr(iter->max_of ? iter->max_of : iter->tr);
	tracing_release_iter(iter);
	return 0;
}

/* ---- reading ------------------------------------------------------------- */

/* Bytes up to and including the last newline in text[0..len), or 0. */
static size_t whole_lines(const char *text, size_t len)
{
	while (len && text[len - 1] != '\n')
		len--;
	return len;
}

/*
 * Hand out text already made; true if the reader's buffer is full. A
 * line that does not fit waits for the next read, so a reader that
 * stops (cat after Ctrl-C) never ends on half a line; only a line
 * longer than the whole buffer is handed out in pieces.
 */
static bool copy_seq(struct trace_iterator *iter, char *buf, size_t n,
		     size_t *copied)
{
	const char *text = iter->seq.buf + iter->seq_pos;
	size_t left = iter->seq.len - iter->seq_pos, room = n - *copied;
	size_t len = left;

	if (left > room) {
		len = whole_lines(text, room);
		if (!len && !*copied)
			len = room;
	}
	memcpy(buf + *copied, text, len);
	iter->seq_pos += len;
	*copied += len;
	if (iter->seq_pos == iter->seq.len)
		iter->seq.len = iter->seq_pos = 0;
	return len < left || *copied == n;
}

/* Fill buf with lines; a line that does not fit waits for the next read. */
static size_t fill_lines(struct trace_iterator *iter, char *buf, size_t n)
{
	size_t copied = 0;

	while (!copy_seq(iter, buf, n, &copied) &&
	       trace_find_next_entry_inc(iter))
		print_trace_line(iter);
	return copied;
}

static ssize_t tracing_read(struct file *file, char *buf, size_t n)
{
	struct trace_iterator *iter = file->private;

	return fill_lines(iter, buf, n);
}

/* The trace file takes any write (the truncation happened at open). */
static ssize_t tracing_write(struct file *file, const char *buf, size_t n)
{
	return n;
}

const struct file_operations tracing_fops = {
	.open = tracing_open,
	.read = tracing_read,
	.write = tracing_write,
	.release = tracing_release,
};

/* ---- trace_pipe ---------------------------------------------------------- */

static int tracing_open_pipe(struct inode *inode, struct file *file)
{
	struct trace_iterator *iter = alloc_iter_tr(trace_array_of_inode(inode),
						    inode_cpu(inode), true);

	if (!iter)
		return -ENOMEM;
	file->private = iter;
	return 0;
}

/*
 * Sleep a tick at a time until there is something to read. Linux wakes
 * readers from the commit path through irq_work; checking here instead
 * keeps the writer free of any wake-up test. Once something was read,
 * tracing_on 0 ends the file, as in Linux.
 */
static bool pipe_empty(struct trace_iterator *iter)
{
	struct trace_buffer *buffer = tracing_buffer_lock(iter->tr);
	bool empty = trace_empty(iter);

	ring_buffer_reader_unlock(buffer);
	return empty;
}

static int tracing_wait_pipe(struct trace_iterator *iter, struct file *file)
{
	while (pipe_empty(iter)) {
		if (file->flags & O_NONBLOCK)
			return -EAGAIN;
		if (!tracer_tracing_is_on(iter->tr) && file->pos)
			return 1;
		if (current->sigpending)
			return -EINTR;
		msleep(1000 / HZ);
	}
	return 0;
}

static ssize_t tracing_read_pipe(struct file *file, char *buf, size_t n)
{
	struct trace_iterator *iter = file->private;
	struct trace_buffer *buffer;
	size_t copied = 0;
	int ret;

	if (!copy_seq(iter, buf, n, &copied) && !copied) {
		ret = tracing_wait_pipe(iter, file);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	buffer = tracing_buffer_lock(iter->tr);
	copied += fill_lines(iter, buf + copied, n - copied);
	ring_buffer_reader_unlock(buffer);
	file->pos += copied;
	return copied;
}

const struct file_operations tracing_pipe_fops = {
	.open = tracing_open_pipe,
	.read = tracing_read_pipe,
	.release = tracing_release,
};

/* ---- snapshot: the spare buffer, read as `trace` reads ----------------- */

static void print_snapshot_help(struct trace_iterator *iter, bool allocated)
{
	struct seq_buf *s = &iter->seq;

	seq_printf(s, "# tracer: %s\n#\n#\n# * Snapshot is %s *\n#\n"
		   "# Snapshot commands:\n", iter->trace->name,
		   allocated ? "allocated" : "freed");
	if (iter->cpu_file == RING_BUFFER_ALL_CPUS)
		seq_puts(s,
			 "# echo 0 > snapshot : Clears and frees snapshot buffer\n"
			 "# echo 1 > snapshot : Allocates snapshot buffer, if not already allocated.\n"
			 "#                      Takes a snapshot of the main buffer.\n"
			 "# echo 2 > snapshot : Clears snapshot buffer (but does not allocate or free)\n");
	else
		seq_puts(s,
			 "# echo 0 > snapshot : Invalid for per_cpu snapshot file.\n"
			 "# echo 1 > snapshot : Allocates snapshot buffer, if not already allocated.\n"
			 "#                      Takes a snapshot of the main buffer for this cpu.\n"
			 "# echo 2 > snapshot : Clears this cpu's snapshot buffer (but does not allocate)\n");
	seq_puts(s, "#                      (Doesn't have to be '2' works with any number that\n"
		    "#                       is not a '0' or '1')\n");
}

/*
 * The iterator reads a copy of the trace array whose buffer is the
 * spare one (Linux points iter->array_buffer at max_buffer); with no
 * spare buffer, it has none and shows the help alone. While it is
 * open the spare buffer is not freed.
 */
static int tracing_snapshot_open(struct inode *inode, struct file *file)
{
	struct trace_array *tr = trace_array_of_inode(inode);
	struct trace_iterator *iter;

	if ((file->flags & O_ACCMODE) == O_WRONLY)
		return 0;
	iter = alloc_iter_tr(tr, inode_cpu(inode), false);
	if (!iter)
		return -ENOMEM;
	iter->tr = max_view_get(tr);
	if (!iter->tr) {
		iter->tr = tr;
		free_iter(iter);
		return -ENOMEM;
	}
	iter->max_of = tr;
	file->private = iter;
	if (iter->tr->buffer && open_buffer_iters(iter))
		return -ENOMEM;		/* the release that follows frees */
	if (iter->tr->buffer && !trace_empty(iter))
		trace_print_header(iter);
	else
		print_snapshot_help(iter, iter->tr->buffer);
	return 0;
}

static int tracing_snapshot_release(struct inode *inode, struct file *file)
{
	struct trace_iterator *iter = file->private;

	if (iter)
		tracing_release_iter(iter);
	return 0;
}

static ssize_t tracing_snapshot_read(struct file *file, char *buf, size_t n)
{
	struct trace_iterator *iter = file->private;
	size_t copied = 0;

	if (iter->tr->buffer)
		return fill_lines(iter, buf, n);
	copy_seq(iter, buf, n, &copied);
	return copied;
}

static ssize_t tracing_snapshot_write(struct file *file, const char *ubuf,
				      size_t n)
{
	char buf[24];
	unsigned long val;
	int ret;

	if (n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, ubuf, n);
	buf[n] = 0;
	ret = kstrtoul(buf, 10, &val);
	if (ret)
		return ret;
	mutex_lock(&trace_types_lock);
	ret = tracing_snapshot_command(trace_array_of_inode(file->inode), val,
				       inode_cpu(file->inode));
	mutex_unlock(&trace_types_lock);
	return ret ? ret : (ssize_t)n;
}

const struct file_operations tracing_snapshot_fops = {
	.open = tracing_snapshot_open,
	.read = tracing_snapshot_read,
	.write = tracing_snapshot_write,
	.release = tracing_snapshot_release,
};

/* ---- ftrace_dump ---------------------------------------------------------- */

/* Each line of the text on the console, as Linux's KERN_TRACE (EMERG). */
static void dump_seq(struct seq_buf *seq)
{
	const char *p = seq->buf, *end = seq->buf + seq->len, *nl;

	for (; p < end; p = nl + 1) {
		for (nl = p; nl < end && *nl != '\n'; nl++)
			;
		printk("<0>%.*s\n", (int)(nl - p), p);
	}
	seq->len = 0;
}

static void dump_entries(struct trace_iterator *iter)
{
	int cnt = 0;

	while (trace_find_next_entry_inc(iter)) {
		if (!cnt++)
			printk("<0>---------------------------------\n");
		print_trace_line(iter);
		dump_seq(&iter->seq);
	}
	printk(cnt ? "<0>---------------------------------\n" :
		     "<0>   (ftrace buffer empty)\n");
}

/*
 * The buffer, consumed, on the console in the latency format, from
 * every CPU or only this one (Linux's ftrace_dump, DUMP_ALL and
 * DUMP_ORIG). Tracing stops first and stays off, as in Linux. A probe
 * calls it wherever the traced function runs, so the readers' lock is
 * only tried: this kernel's is a sleeping one, which Linux's dump,
 * stopping every CPU instead, does not need.
 */
void ftrace_dump(bool all_cpus)
{
	static int dump_running;
	struct trace_array *tr = &global_trace;
	struct trace_iterator *iter;
	struct trace_buffer *buffer;

	if (__atomic_exchange_n(&dump_running, 1, __ATOMIC_ACQUIRE))
		return;
	tracer_tracing_off(tr);
	iter = alloc_iter(all_cpus ? RING_BUFFER_ALL_CPUS : smp_processor_id(),
			  true);
	printk("<0>Dumping ftrace buffer:\n");
	if (!iter) {
		printk("<0>   (%s)\n", strerror_text(ENOMEM));
	} else if (!(buffer = tracing_buffer_trylock(tr))) {
		printk("<0>   (ftrace buffer busy: a reader holds it)\n");
	} else {
		iter->iter_flags |= TRACE_FILE_LAT_FMT;
		dump_entries(iter);
		ring_buffer_reader_unlock(buffer);
	}
	if (iter)
		free_iter(iter);
	__atomic_store_n(&dump_running, 0, __ATOMIC_RELEASE);
}
