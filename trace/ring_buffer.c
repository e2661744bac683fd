/*
 * ring_buffer.c: the per-CPU trace ring buffer, Linux's
 * kernel/trace/ring_buffer.c made smaller (include/ring_buffer.h).
 * This room holds the pages: allocation, resize and reset, the
 * counters that walk the pages, and the switches (recording on and
 * off, overwrite, the clock). The writer is in ring_buffer_write.c,
 * the readers in ring_buffer_read.c, what they share in
 * ring_buffer_internal.h.
 *
 * Each CPU owns a ring of nr_pages slots. Pages are numbered as the
 * writer reaches them, page n living in slot n % nr_pages, so a number
 * says both where a page is and whether it was overwritten since (a
 * reader that held page n sees head move past n). Three numbers say
 * where things are, here with nr_pages = 4 after the writer went
 * round once:
 *
 *   slot:        0          1          2          3
 *             +--------+ +--------+ +--------+ +--------+
 *   page num: |   4    | |   5    | |   2    | |   3    |
 *             +--------+ +--------+ +--------+ +--------+
 *                 ^          ^          ^
 *               commit      tail       head
 *
 *   Pages 2 and 3 are whole and committed, 4 holds the first
 *   uncommitted byte, 5 is being written; 2 is the oldest page still
 *   held, where the consuming reader reads.
 *
 *   head <= commit <= tail < head + nr_pages
 *
 *   head    reader_pos_head(reader_pos): moved by the consuming reader
 *           as it finishes a page, and by an overwriting writer that
 *           needs the slot (its unread events count as overrun)
 *   commit  commit_num, commit_page: readers see the bytes below
 *           page->commit of it, and every byte of the pages before
 *   tail    tail_num, tail_page: where the writer reserves
 *
 * Resizing swaps a CPU's pages, so it holds buffer->reader_lock, as do
 * the consuming reader, the opening of an iterator and the counters
 * that walk the pages. It puts each page number k of the newest pages
 * in slot k % n of the new ring, so the numbers stay true.
 */
#include "kernel.h"
#include "mm.h"
#include "rcu.h"
#include "trace_clock.h"
#include "ring_buffer_internal.h"

#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define RB_BUFFER_OFF		(1UL << 20)

/*
 * The lock of the pages: the readers take it, and resize and reset,
 * which swap or rewind them. Here, where most of its users are.
 *
 * A latency tracer swaps a CPU's pages where it cannot sleep, so it
 * cannot take this lock (ring_buffer_swap_cpu_irqsoff). The holder and
 * that swapper meet as in Dekker's algorithm: each raises its flag
 * (reading, swapping), fences, then looks at the other's. The swapper
 * gives up if a reader is in; the reader waits the few instructions of
 * a swap out. Both cannot pass.
 */
static void rb_reader_enter(struct trace_buffer *buffer)
{
	WRITE_ONCE(buffer->reading, 1);
	mb();
	while (READ_ONCE(buffer->swapping))
		cpu_relax();
}

void ring_buffer_reader_lock(struct trace_buffer *buffer)
{
	mutex_lock(&buffer->reader_lock);
	rb_reader_enter(buffer);
}

/* Without sleeping, for ftrace_dump, which may run where it cannot. */
bool ring_buffer_reader_trylock(struct trace_buffer *buffer)
{
	if (!mutex_trylock(&buffer->reader_lock))
		return false;
	rb_reader_enter(buffer);
	return true;
}

void ring_buffer_reader_unlock(struct trace_buffer *buffer)
{
	__atomic_store_n(&buffer->reading, 0, __ATOMIC_RELEASE);
	mutex_unlock(&buffer->reader_lock);
}

/* ---- counters ------------------------------------------------------------ */

struct rb_unread_totals {
	unsigned long entries, bytes;
};

/*
 * Events and bytes held from the reader's place up to the tail; the
 * lock keeps a resize from swapping the pages under the walk.
 */
static struct rb_unread_totals rb_count_unread(struct trace_buffer *buffer,
					       int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer = buffer->buffers[cpu];
	struct rb_unread_totals t = { 0, 0 };
	u64 pos, tail, num;

	ring_buffer_reader_lock(buffer);
	pos = READ_ONCE(cpu_buffer->reader_pos);
	tail = READ_ONCE(cpu_buffer->tail_num);
	for (num = reader_pos_head(pos); num <= tail; num++) {
		struct buffer_page *bpage = rb_num_to_page(cpu_buffer, num);

		t.entries += READ_ONCE(bpage->entries);
		t.bytes += rb_page_bytes(bpage);
	}
	ring_buffer_reader_unlock(buffer);
	t.entries -= min(t.entries, reader_pos_count(pos));
	t.bytes -= min(t.bytes, reader_pos_offset(pos));
	return t;
}

unsigned long ring_buffer_entries_cpu(struct trace_buffer *buffer, int cpu)
{
	return rb_count_unread(buffer, cpu).entries;
}

unsigned long ring_buffer_bytes_cpu(struct trace_buffer *buffer, int cpu)
{
	return rb_count_unread(buffer, cpu).bytes;
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
	head = rb_num_to_page(cpu_buffer, rb_head_num(cpu_buffer));
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

/*
 * tracing_cpumask: the CPUs in cpus record nothing, as Linux's
 * ring_buffer_record_disable_cpu makes them. The mask is in place
 * before the bit sends the writers to look at it.
 */
void ring_buffer_set_cpus_off(struct trace_buffer *buffer, unsigned long cpus)
{
	WRITE_ONCE(buffer->cpus_off, cpus);
	if (cpus)
		__atomic_or_fetch(&buffer->record_disabled, RB_CPUS_OFF,
				  __ATOMIC_SEQ_CST);
	else
		__atomic_and_fetch(&buffer->record_disabled, ~RB_CPUS_OFF,
				   __ATOMIC_SEQ_CST);
}

/* Recording is stopped only for some CPUs, and not for this one. */
bool ring_buffer_record_cpu_on(struct trace_buffer *buffer)
{
	return READ_ONCE(buffer->record_disabled) == RB_CPUS_OFF &&
	       !(READ_ONCE(buffer->cpus_off) & (1UL << smp_processor_id()));
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

/*
 * A writer reads the clock inside its reservation, before its first
 * byte shows: the grace period sees out those that read the old one, so
 * a reset that finds the buffer untouched (ring_buffer_reset, which
 * then waits for no writer) leaves no event of the old clock behind.
 */
void ring_buffer_set_clock(struct trace_buffer *buffer, u64 (*clock)(void))
{
	int cpu;

	if (buffer->clock == clock)
		return;
	buffer->clock = clock;
	for (cpu = 0; cpu < buffer->nr_cpus; cpu++)
		WRITE_ONCE(buffer->buffers[cpu]->clock_id,
			   trace_clock_id_of(clock));
	synchronize_rcu();
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
	struct buffer_page *bpage = rb_num_to_page(cpu_buffer, num);

	rb_reset_page(bpage);
	cpu_buffer->tail_num = cpu_buffer->commit_num = num;
	cpu_buffer->tail_page = cpu_buffer->commit_page = bpage;
	cpu_buffer->write_stamp = 0;
	cpu_buffer->overrun = cpu_buffer->read = cpu_buffer->written = 0;
	cpu_buffer->commit_overrun = cpu_buffer->dropped_events = 0;
	cpu_buffer->last_overrun = 0;
	cpu_buffer->reader = (struct rb_cursor){ .page_num = num };
	WRITE_ONCE(cpu_buffer->reader_pos, reader_pos_pack(num, 0, 0));
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

/*
 * Nothing reserved, written, read or lost on this CPU since its last
 * reset: resetting it would change nothing, so no writer needs keeping
 * out. A writer that starts while this looks has its event after the
 * reset, as if it came just later; one whose event came before the
 * caller's call shows, in committing, its page's write or write_stamp.
 */
static bool rb_cpu_pristine(struct ring_buffer_per_cpu *cpu_buffer)
{
	u64 num = READ_ONCE(cpu_buffer->tail_num);
	u64 start = reader_pos_pack(num, 0, 0);

	return !READ_ONCE(cpu_buffer->committing) &&
	       !READ_ONCE(cpu_buffer->tail_page->write) &&
	       READ_ONCE(cpu_buffer->commit_num) == num &&
	       READ_ONCE(cpu_buffer->reader_pos) == start &&
	       !READ_ONCE(cpu_buffer->written) &&
	       !READ_ONCE(cpu_buffer->overrun) && !cpu_buffer->read &&
	       !cpu_buffer->commit_overrun && !cpu_buffer->dropped_events &&
	       !cpu_buffer->last_overrun && !cpu_buffer->write_stamp &&
	       cpu_buffer->reader.page_num == num &&
	       !cpu_buffer->reader.offset && !cpu_buffer->reader.events;
}

static bool rb_pristine(struct trace_buffer *buffer)
{
	int cpu;

	for (cpu = 0; cpu < buffer->nr_cpus; cpu++)
		if (!rb_cpu_pristine(buffer->buffers[cpu]))
			return false;
	return true;
}

/*
 * An empty buffer stays as it is: a new tracer resets buffers that
 * are most often empty already, and stopping the writers waits a
 * grace period.
 */
void ring_buffer_reset(struct trace_buffer *buffer)
{
	int cpu;

	ring_buffer_reader_lock(buffer);
	if (rb_pristine(buffer)) {
		ring_buffer_reader_unlock(buffer);
		return;
	}
	rb_stop_writers(buffer);
	for (cpu = 0; cpu < buffer->nr_cpus; cpu++)
		rb_reset_cpu(buffer->buffers[cpu]);
	rb_start_writers(buffer);
	ring_buffer_reader_unlock(buffer);
}

/*
 * Swap one CPU's pages between two buffers of the same size (Linux's
 * ring_buffer_swap_cpu), for the snapshot. The caller runs on that CPU
 * with interrupts off and holds both readers' locks: then no writer
 * or reader is on either side, but an event this CPU reserved and has
 * not committed yet (-EAGAIN), or an open iterator (-EBUSY), which
 * would read on in pages that changed sides.
 */
int ring_buffer_swap_cpu(struct trace_buffer *a, struct trace_buffer *b,
			 int cpu)
{
	struct ring_buffer_per_cpu *ca = a->buffers[cpu], *cb = b->buffers[cpu];

	if (ca->nr_pages != cb->nr_pages)
		return -EINVAL;
	if (ca->resize_disabled || cb->resize_disabled)
		return -EBUSY;
	if (ca->committing || cb->committing)
		return -EAGAIN;
	a->buffers[cpu] = cb;
	b->buffers[cpu] = ca;
	cb->buffer = a;
	ca->buffer = b;
	return 0;
}

static void rb_swap_exit(struct trace_buffer *a, struct trace_buffer *b)
{
	__atomic_store_n(&a->swapping, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&b->swapping, 0, __ATOMIC_RELEASE);
}

/*
 * The swapper's side of the handshake with the readers (see
 * rb_reader_enter): raise both flags, then look. -EAGAIN while a
 * reader holds either lock; the flags stay up only on success.
 */
static int rb_swap_enter(struct trace_buffer *a, struct trace_buffer *b)
{
	WRITE_ONCE(a->swapping, 1);
	WRITE_ONCE(b->swapping, 1);
	mb();
	if (!READ_ONCE(a->reading) && !READ_ONCE(b->reading))
		return 0;
	rb_swap_exit(a, b);
	return -EAGAIN;
}

/*
 * The same from any context, on this CPU with interrupts off, for the
 * latency tracers' update_max_tr_single: instead of the readers' locks,
 * the handshake above, so -EBUSY also while a reader holds either
 * lock. The callers serialize among themselves (tr->max_lock).
 */
int ring_buffer_swap_cpu_irqsoff(struct trace_buffer *a,
				 struct trace_buffer *b)
{
	int ret = rb_swap_enter(a, b);

	if (ret)
		return -EBUSY;
	ret = ring_buffer_swap_cpu(a, b, smp_processor_id());
	rb_swap_exit(a, b);
	return ret;
}

static bool rb_has_iterators(struct trace_buffer *buffer)
{
	int cpu;

	for (cpu = 0; cpu < buffer->nr_cpus; cpu++)
		if (READ_ONCE(buffer->buffers[cpu]->resize_disabled))
			return true;
	return false;
}

/*
 * Before the caller trades the roles of two whole buffers (Linux's
 * update_max_tr swaps array_buffer.buffer and max_buffer.buffer): from
 * any context, never waiting. Until ring_buffer_swap_end no reader
 * gets in (rb_reader_enter waits those few instructions out). -EAGAIN
 * while a reader holds either lock, -EBUSY while an iterator is open
 * on either: it holds its buffer's pages across reads and sleeps.
 * Writers need no such care: each finishes its event on the buffer it
 * found. tracing_on and tracing_cpumask belong to the role, the live
 * buffer's, so they change sides here.
 */
int ring_buffer_swap_begin(struct trace_buffer *a, struct trace_buffer *b)
{
	unsigned long disabled, cpus_off;
	int ret = rb_swap_enter(a, b);

	if (ret)
		return ret;
	if (rb_has_iterators(a) || rb_has_iterators(b)) {
		rb_swap_exit(a, b);
		return -EBUSY;
	}
	disabled = __atomic_exchange_n(&a->record_disabled,
				       READ_ONCE(b->record_disabled),
				       __ATOMIC_SEQ_CST);
	WRITE_ONCE(b->record_disabled, disabled);
	cpus_off = READ_ONCE(a->cpus_off);
	WRITE_ONCE(a->cpus_off, READ_ONCE(b->cpus_off));
	WRITE_ONCE(b->cpus_off, cpus_off);
	return 0;
}

void ring_buffer_swap_end(struct trace_buffer *a, struct trace_buffer *b)
{
	rb_swap_exit(a, b);
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

static struct ring_buffer_per_cpu *
rb_allocate_cpu_buffer(struct trace_buffer *buffer, int cpu,
		       unsigned long nr_pages)
{
	struct ring_buffer_per_cpu *cpu_buffer =
		kzalloc_cacheline(sizeof(*cpu_buffer));

	if (!cpu_buffer)
		return NULL;
	cpu_buffer->event_buf = kmalloc(BUF_PAGE_SIZE);
	cpu_buffer->pages = rb_alloc_slots(nr_pages);
	if (!cpu_buffer->event_buf || !cpu_buffer->pages) {
		if (cpu_buffer->pages)
			rb_free_slots(cpu_buffer->pages, nr_pages);
		kfree(cpu_buffer->event_buf);
		kfree_cacheline(cpu_buffer, sizeof(*cpu_buffer));
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
	kfree_cacheline(cpu_buffer, sizeof(*cpu_buffer));
}

struct trace_buffer *ring_buffer_alloc(unsigned long size, int nr_cpus)
{
	struct trace_buffer *buffer = kzalloc(sizeof(*buffer) + nr_cpus *
					      sizeof(buffer->buffers[0]));
	int cpu;

	if (!buffer)
		return NULL;
	buffer->clock = trace_clock_local_ticks;
	buffer->overwrite = true;
	buffer->nr_cpus = nr_cpus;
	buffer->reader_lock = (struct mutex){ SPIN_LOCK_UNLOCKED, 0, 0 };
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
 * counts as overrun. slots holds n fresh data pages for the other
 * slots; the old data pages left over go back.
 */
static void rb_move_pages(struct ring_buffer_per_cpu *cpu_buffer,
			  struct buffer_page *slots, unsigned long n)
{
	u64 pos = cpu_buffer->reader_pos, head = reader_pos_head(pos);
	u64 tail = cpu_buffer->tail_num;
	u64 first = tail + 1 > n ? tail + 1 - n : 0;
	unsigned long count = reader_pos_count(pos);
	unsigned long offset = reader_pos_offset(pos);
	unsigned long i;
	u64 num;

	if (first > head) {
		for (num = head; num < first; num++, count = 0)
			cpu_buffer->overrun += rb_num_to_page(cpu_buffer,
							      num)->entries -
					       count;
		head = first;
		count = offset = 0;
	}
	for (num = head; num <= tail; num++) {
		struct buffer_page *dst = &slots[num % n];
		struct buffer_data_page *fresh = dst->page;

		*dst = *rb_num_to_page(cpu_buffer, num);
		rb_num_to_page(cpu_buffer, num)->page = fresh;
	}
	for (i = 0; i < cpu_buffer->nr_pages; i++)
		free_page(cpu_buffer->pages[i].page);
	kfree(cpu_buffer->pages);
	cpu_buffer->pages = slots;
	cpu_buffer->nr_pages = n;
	cpu_buffer->tail_page = rb_num_to_page(cpu_buffer, tail);
	cpu_buffer->commit_page = cpu_buffer->tail_page;
	cpu_buffer->reader_pos = reader_pos_pack(head, count, offset);
	cpu_buffer->reader = (struct rb_cursor){ .page_num = (u64)-1 };
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
	int c, first = cpu < 0 ? 0 : cpu;
	int last = cpu < 0 ? buffer->nr_cpus - 1 : cpu;
	struct buffer_page **slots;

	if (cpu >= 0 && buffer->buffers[cpu]->nr_pages == n)
		return 0;
	if (rb_resize_disabled(buffer, first, last))
		return -EBUSY;
	slots = kzalloc(buffer->nr_cpus * sizeof(*slots));
	if (!slots || !rb_alloc_rings(slots, first, last, n)) {
		kfree(slots);
		return -ENOMEM;
	}
	rb_stop_writers(buffer);
	for (c = first; c <= last; c++)
		rb_move_pages(buffer->buffers[c], slots[c], n);
	rb_start_writers(buffer);
	kfree(slots);
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
