/*
 * trace_pipe_raw_test.c: selftests of per_cpu/cpuN/trace_pipe_raw. A
 * thread on CPU 0 writes trace_marker texts, short and long, with a
 * pause between that a 27-bit delta cannot span; the page read back
 * is decoded here as libtraceevent's kbuffer decodes it, and each
 * event's time, type and text must be those the ring buffer held.
 * Then a bprint's and a trace_marker_raw's entries in Linux's layout;
 * the rules of reads: smaller than a page, consuming, empty; and what a
 * function event costs to read this way, against trace_pipe.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "sched.h"
#include "selftest.h"
#include "vfs.h"
#include "trace.h"
#include "trace_fixtures.h"
#include "ftrace.h"
#include "printk.h"
#include "trace_clock.h"

#define T		"/sys/kernel/tracing/"
#define RAW0		T "per_cpu/cpu0/trace_pipe_raw"
#define LONG_TEXT	200	/* over 112 bytes: type_len 0 */
#define PAUSE_MS	200	/* over 2^27 ns: a TIME_EXTEND */
#define MAX_EVENTS	8
#define COST_CALLS	500	/* function events read for the cost */

struct decoded {
	u64 ts;
	u32 type_len;		/* of the data event */
	u32 len;		/* data bytes */
	const u8 *data;
};

/* Linux's kbuffer walk of one page; returns the events, -1 if broken. */
static int decode_page(const u8 *page, struct decoded *out, int max,
		       int *extends)
{
	u64 ts, commit;
	u32 pos = 0, w, type_len, delta;
	const u8 *data = page + BUF_PAGE_HDR_SIZE;
	int n = 0;

	memcpy(&ts, page, 8);
	memcpy(&commit, page + 8, 8);
	commit &= 0xfffff;
	while (pos + 4 <= commit && n < max) {
		memcpy(&w, data + pos, 4);
		type_len = w & 0x1f;
		delta = w >> 5;
		if (type_len == RINGBUF_TYPE_TIME_EXTEND) {
			memcpy(&w, data + pos + 4, 4);
			ts += delta + ((u64)w << TS_SHIFT);
			pos += 8;
			(*extends)++;
			continue;
		}
		if (type_len > RINGBUF_TYPE_DATA_TYPE_LEN_MAX)
			return -1;
		ts += delta;
		out[n].ts = ts;
		out[n].type_len = type_len;
		if (type_len) {
			out[n].len = type_len * 4;
			out[n].data = data + pos + 4;
		} else {
			memcpy(&w, data + pos + 4, 4);
			out[n].len = w - 4;
			out[n].data = data + pos + 8;
		}
		pos += (type_len ? 4 : 8) + out[n].len;
		n++;
	}
	return pos == commit ? n : -1;
}

static char long_text[LONG_TEXT + 1];

static void write_markers(void *arg)
{
	vfs_write_file(T "trace_marker", 0, "a");
	vfs_write_file(T "trace_marker", 0, long_text);
	msleep(PAUSE_MS);
	vfs_write_file(T "trace_marker", 0, "b\n");
	kthread_exit(0);
}

/* The markers on CPU 0, after emptying the buffer. */
static void record_markers(struct kunit *t)
{
	struct task *w = kthread_create_on_cpu(write_markers, NULL, "raw_w", 0);

	memset(long_text, 'x', LONG_TEXT);
	KUNIT_EXPECT_EQ(t, vfs_write_file(T "trace", O_TRUNC, ""), 0);
	KUNIT_EXPECT_TRUE(t, w != NULL);
	if (!w)
		return;
	kthread_start(w);
	kthread_wait(w);
}

/* The time stamps the ring buffer holds for CPU 0, in ns, in order. */
static int buffer_times(u64 *ns, int max)
{
	struct ring_buffer_iter *it =
		ring_buffer_read_prepare(global_trace.buffer, 0);
	int n = 0;
	u64 ts;

	while (it && n < max && ring_buffer_iter_peek(it, &ts)) {
		ns[n++] = trace_clock_to_ns(&global_trace, ts);
		ring_buffer_iter_advance(it);
	}
	if (it)
		ring_buffer_read_finish(it);
	return n;
}

static ssize_t read_raw(struct file *f, u8 *page, size_t n)
{
	return vfs_read(f, (char *)page, n);
}

static void expect_print(struct kunit *t, const struct decoded *e,
			 const char *text)
{
	u16 type;

	memcpy(&type, e->data, 2);
	KUNIT_EXPECT_EQ(t, type, TRACE_PRINT);
	KUNIT_EXPECT_EQ(t, e->len, ALIGN_UP(16 + strlen(text) + 2, 4));
	KUNIT_EXPECT_STREQ(t, (const char *)e->data + 16, text);
}

static void raw_test_page_layout(struct kunit *t)
{
	u8 *page = kzalloc(PAGE_SIZE);
	struct decoded ev[MAX_EVENTS];
	u64 ns[MAX_EVENTS];
	struct file *f;
	int i, n, extends = 0;

	record_markers(t);
	KUNIT_EXPECT_EQ(t, buffer_times(ns, MAX_EVENTS), 3);
	KUNIT_EXPECT_EQ(t, vfs_open(NULL, RAW0, O_RDONLY | O_NONBLOCK, &f), 0);
	KUNIT_EXPECT_EQ(t, read_raw(f, page, PAGE_SIZE), PAGE_SIZE);
	n = decode_page(page, ev, MAX_EVENTS, &extends);
	KUNIT_EXPECT_EQ(t, n, 3);
	KUNIT_EXPECT_EQ(t, extends, 1);
	for (i = 0; i < n && i < 3; i++)
		KUNIT_EXPECT_EQ(t, ev[i].ts, ns[i]);
	if (n == 3) {
		/* 16 + 2 + 2 bytes */
		KUNIT_EXPECT_EQ(t, ev[0].type_len, 5);
		KUNIT_EXPECT_EQ(t, ev[1].type_len, 0);
		expect_print(t, &ev[0], "a\n");
		long_text[LONG_TEXT] = '\n';
		expect_print(t, &ev[1], long_text);
		long_text[LONG_TEXT] = 0;
		expect_print(t, &ev[2], "b\n");
	}
	/* Consumed: nothing is left, and a non-blocking read says so. */
	KUNIT_EXPECT_EQ(t, read_raw(f, page, PAGE_SIZE), -EAGAIN);
	KUNIT_EXPECT_EQ(t, vfs_close(f), 0);
	kfree(page);
}

static const char bprint_fmt[] = "%d %llx\n";

static void write_bprint_and_raw(void *arg)
{
	__trace_bprintk(0x80201234, bprint_fmt, 0x1234, 0x5678abcdef0ULL);
	vfs_write_file(T "trace_marker_raw", 0, "abcdefg");
	kthread_exit(0);
}

static u32 word_at(const struct decoded *e, u32 off)
{
	u32 w;

	memcpy(&w, e->data + off, 4);
	return w;
}

/*
 * bprint_entry: ip, the format's address, vbin_printf's words (an int,
 * a long long at 4-byte alignment); raw_data_entry: the id, the rest,
 * zeros to Linux's length (12 + at least 13 bytes, 4-aligned).
 */
static void raw_test_bprint_and_raw_data(struct kunit *t)
{
	struct task *w = kthread_create_on_cpu(write_bprint_and_raw, NULL,
					       "raw_b", 0);
	u8 *page = kzalloc(PAGE_SIZE);
	struct decoded ev[MAX_EVENTS];
	struct file *f;
	int extends = 0;

	KUNIT_EXPECT_EQ(t, vfs_write_file(T "trace", O_TRUNC, ""), 0);
	KUNIT_EXPECT_TRUE(t, w && page);
	if (!w || !page) {
		kfree(page);
		return;
	}
	kthread_start(w);
	kthread_wait(w);
	KUNIT_EXPECT_EQ(t, vfs_open(NULL, RAW0, O_RDONLY | O_NONBLOCK, &f), 0);
	KUNIT_EXPECT_EQ(t, read_raw(f, page, PAGE_SIZE), PAGE_SIZE);
	KUNIT_EXPECT_EQ(t, decode_page(page, ev, MAX_EVENTS, &extends), 2);
	KUNIT_EXPECT_EQ(t, ev[0].len, 24 + 12);
	KUNIT_EXPECT_EQ(t, word_at(&ev[0], 0) & 0xffff, TRACE_BPRINT);
	KUNIT_EXPECT_EQ(t, word_at(&ev[0], 8), 0x80201234);
	KUNIT_EXPECT_EQ(t, word_at(&ev[0], 16), (u32)(unsigned long)bprint_fmt);
	KUNIT_EXPECT_EQ(t, word_at(&ev[0], 24), 0x1234);
	KUNIT_EXPECT_EQ(t, word_at(&ev[0], 28), 0x8abcdef0);
	KUNIT_EXPECT_EQ(t, word_at(&ev[0], 32), 0x567);
	KUNIT_EXPECT_EQ(t, ev[1].len, 28);
	KUNIT_EXPECT_EQ(t, word_at(&ev[1], 0) & 0xffff, TRACE_RAW_DATA);
	KUNIT_EXPECT_EQ(t, word_at(&ev[1], 8), 0x64636261);
	KUNIT_EXPECT_EQ(t, word_at(&ev[1], 12), 0x676665);
	KUNIT_EXPECT_EQ(t, word_at(&ev[1], 24), 0);
	KUNIT_EXPECT_EQ(t, vfs_close(f), 0);
	kfree(page);
}

/* A read smaller than a page: the events that fit, then the page's rest. */
static void raw_test_small_reads(struct kunit *t)
{
	u8 *page = kzalloc(PAGE_SIZE);
	struct decoded ev[MAX_EVENTS];
	struct file *f;
	size_t got = 100;
	int extends = 0;

	record_markers(t);
	KUNIT_EXPECT_EQ(t, vfs_open(NULL, RAW0, O_RDONLY | O_NONBLOCK, &f), 0);
	KUNIT_EXPECT_EQ(t, read_raw(f, page, 16), 0);
	KUNIT_EXPECT_EQ(t, read_raw(f, page, 100), 100);
	KUNIT_EXPECT_EQ(t, decode_page(page, ev, MAX_EVENTS, &extends), 1);
	while (got < PAGE_SIZE && read_raw(f, page, 1000) > 0)
		got += min((size_t)1000, PAGE_SIZE - got);
	KUNIT_EXPECT_EQ(t, got, PAGE_SIZE);
	KUNIT_EXPECT_EQ(t, read_raw(f, page, PAGE_SIZE), PAGE_SIZE);
	KUNIT_EXPECT_EQ(t, decode_page(page, ev, MAX_EVENTS, &extends), 2);
	KUNIT_EXPECT_EQ(t, vfs_close(f), 0);
	kfree(page);
}

static void call_target(void *arg)
{
	int i;

	for (i = 0; i < COST_CALLS; i++)
		ftrace_test_target1(i);
	kthread_exit(0);
}

/* COST_CALLS function events on CPU 0, then tracing off. */
static void record_calls(void)
{
	struct ftrace_hash *hash = alloc_ftrace_hash(4);
	struct task *w;

	if (hash && ftrace_match_records(hash, "ftrace_test_target1", 19) > 0)
		ftrace_ops_set_hash(&global_trace.ops, hash, true);
	else
		free_ftrace_hash(hash);
	tracing_set_tracer(&global_trace, "function");
	tracing_reset_online_cpus(&global_trace);
	tracer_tracing_on(&global_trace);
	w = kthread_create_on_cpu(call_target, NULL, "raw_calls", 0);
	if (w) {
		kthread_start(w);
		kthread_wait(w);
	}
	tracer_tracing_off(&global_trace);
}

static void stop_recording(void)
{
	tracing_set_tracer(&global_trace, "nop");
	ftrace_free_ops_hashes(&global_trace.ops);
	tracer_tracing_on(&global_trace);
	tracing_reset_online_cpus(&global_trace);
}

/* Under -icount shift=0, rdinstret counts instructions exactly. */
static bool instret_exact(void)
{
	u64 a = rdinstret(), b = rdinstret();

	return b - a < 4;
}

/* Instructions to read path to its end, page-sized reads. */
static u64 read_cost(const char *path, u8 *page)
{
	struct file *f;
	u64 start;

	if (vfs_open(NULL, path, O_RDONLY | O_NONBLOCK, &f))
		return 0;
	start = rdinstret();
	while (vfs_read(f, (char *)page, PAGE_SIZE) > 0)
		;
	start = rdinstret() - start;
	vfs_close(f);
	return start;
}

/*
 * The converting reader's price: per event, what reading
 * trace_pipe_raw costs, beside trace_pipe's text for the same events.
 */
static void raw_test_cost(struct kunit *t)
{
	u8 *page = kmalloc(PAGE_SIZE);
	u64 raw, text;

	if (!ftrace_nr_records())
		KUNIT_SKIP(t, FTRACE_SKIP_NO_SITES);
	if (!instret_exact())
		KUNIT_SKIP(t, "needs qemu -icount shift=0,sleep=off");
	record_calls();
	raw = read_cost(RAW0, page);
	stop_recording();
	record_calls();
	text = read_cost(T "per_cpu/cpu0/trace_pipe", page);
	stop_recording();
	console_printf("    # per function event: trace_pipe_raw %llu "
		       "instructions, trace_pipe %llu\n", raw / COST_CALLS,
		       text / COST_CALLS);
	KUNIT_EXPECT_TRUE(t, raw && raw < text);
	kfree(page);
}

SELFTEST_SUITE(trace_pipe_raw,
	KUNIT_CASE(raw_test_page_layout),
	KUNIT_CASE(raw_test_small_reads),
	KUNIT_CASE(raw_test_bprint_and_raw_data),
	KUNIT_CASE(raw_test_cost));
