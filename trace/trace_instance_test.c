/*
 * trace_instance_test.c: selftests of instances (trace_instance.c).
 * Two instances trace disjoint filters at once, each into its own
 * buffer, nothing lost, nothing mixed, nothing in the top level's; an
 * instance's event records into its buffer only; and making and
 * removing an instance 50 times, tracing in it each time, gives every
 * byte back, as does a mkdir that runs out of memory at any of its
 * allocations. rmdir is refused while a file of it is open or the
 * kernel holds it. Each array answers set_ftrace_pid and
 * tracing_cpumask for itself, the top level and an instance alike.
 */
#include "kernel.h"
#include "string.h"
#include "printf.h"
#include "mm.h"
#include "sched.h"
#include "smp.h"
#include "selftest.h"
#include "fault_inject.h"
#include "trace_fixtures.h"
#include "trace_events.h"

#define CALLS		100	/* of each fixture */
#define LEAK_ROUNDS	50

struct buffer_count {
	unsigned long fn[2];	/* function events of target1, target2 */
	unsigned long other;	/* any other event */
	unsigned long switches;	/* sched_switch events */
};

/* Consume every CPU's events of buffer and sort them into c. */
static void count_events(struct trace_buffer *buffer, struct buffer_count *c)
{
	unsigned long t1 = ftrace_location((unsigned long)ftrace_test_target1);
	unsigned long t2 = ftrace_location((unsigned long)ftrace_test_target2);
	struct trace_event_call *sw = trace_event_find(&global_trace, "sched", "sched_switch");
	struct ring_buffer_event *e;
	struct ftrace_entry *fe;
	unsigned long lost;
	u64 ts;
	int cpu;

	memset(c, 0, sizeof(*c));
	ring_buffer_reader_lock(buffer);
	for (cpu = 0; cpu < trace_nr_cpus(); cpu++) {
		while ((e = ring_buffer_consume(buffer, cpu, &ts, &lost))) {
			fe = ring_buffer_event_data(e);
			if (entry_type(&fe->ent) == TRACE_FN && fe->ip == t1)
				c->fn[0]++;
			else if (entry_type(&fe->ent) == TRACE_FN && fe->ip == t2)
				c->fn[1]++;
			else if (entry_type(&fe->ent) == TRACE_RAW_EVENT &&
				 ((struct trace_event_common *)fe)->common_type ==
				 sw->id)
				c->switches++;
			else
				c->other++;
		}
	}
	ring_buffer_reader_unlock(buffer);
}

static int trace_only(struct trace_array *tr, const char *func)
{
	return ftrace_set_filter(&tr->ops, func, strlen(func), 1) ?:
	       tracing_set_tracer(tr, "function");
}

static void call_targets(int n1, int n2)
{
	int i;

	for (i = 0; i < n1 || i < n2; i++) {
		if (i < n1)
			ftrace_test_target1(i);
		if (i < n2)
			ftrace_test_target2(i);
	}
}

static struct trace_event_call *instance_event(struct trace_array *tr,
					       const char *name)
{
	struct trace_event_call *call;

	list_for_each_entry(call, &tr->events, list)
		if (!strcmp(call->name, name))
			return call;
	return NULL;
}

static void put_and_destroy(struct kunit *t, struct trace_array *tr)
{
	tracing_set_tracer(tr, "nop");
	trace_array_put(tr);
	KUNIT_EXPECT_EQ(t, trace_array_destroy(tr), 0);
}

/*
 * a alone first (the one ops: the trampoline's fast path would write
 * to the top level's buffer, which a marker has started, as a page in
 * use is what the fast path writes into), then b beside it; the top
 * level traces nothing and gets nothing but its marker.
 */
static void instances_disjoint_filters(struct kunit *t)
{
	struct trace_array *a = trace_array_get_by_name("selftest_a");
	struct trace_array *b = trace_array_get_by_name("selftest_b");
	struct buffer_count ca, cb, ctop;

	KUNIT_EXPECT_TRUE(t, a && b && a != b);
	if (!a || !b)
		return;
	tracing_reset_online_cpus(&global_trace);
	KUNIT_EXPECT_EQ(t, trace_only(a, "ftrace_test_target1"), 0);
	preempt_disable();
	KUNIT_EXPECT_EQ(t, trace_print_record(&global_trace, 0,
					      "top", 3), 0);
	call_targets(CALLS, CALLS);
	preempt_enable();
	count_events(a->buffer, &ca);
	KUNIT_EXPECT_EQ(t, ca.fn[0], CALLS);
	KUNIT_EXPECT_EQ(t, ca.fn[1], 0);
	KUNIT_EXPECT_EQ(t, trace_only(b, "ftrace_test_target2"), 0);
	call_targets(CALLS, 2 * CALLS);
	count_events(a->buffer, &ca);
	count_events(b->buffer, &cb);
	count_events(global_trace.buffer, &ctop);
	KUNIT_EXPECT_EQ(t, ca.fn[0], CALLS);
	KUNIT_EXPECT_EQ(t, ca.fn[1] + ca.other, 0);
	KUNIT_EXPECT_EQ(t, cb.fn[1], 2 * CALLS);
	KUNIT_EXPECT_EQ(t, cb.fn[0] + cb.other, 0);
	KUNIT_EXPECT_EQ(t, ctop.fn[0] + ctop.fn[1], 0);
	KUNIT_EXPECT_EQ(t, ctop.other, 1);
	/* While held, neither goes. */
	KUNIT_EXPECT_EQ(t, trace_array_destroy(a), -EBUSY);
	put_and_destroy(t, a);
	put_and_destroy(t, b);
}

/* sched_switch on in an instance: its buffer has them, the top none. */
static void instance_event_own_buffer(struct kunit *t)
{
	struct trace_array *tr = trace_array_get_by_name("selftest_ev");
	struct trace_event_call *call;
	struct buffer_count c, ctop;

	KUNIT_EXPECT_TRUE(t, tr != NULL);
	if (!tr)
		return;
	call = instance_event(tr, "sched_switch");
	KUNIT_EXPECT_TRUE(t, call && call->tr == tr);
	tracing_reset_online_cpus(&global_trace);
	KUNIT_EXPECT_EQ(t, trace_event_enable(call, true), 0);
	msleep(3);
	KUNIT_EXPECT_EQ(t, trace_event_enable(call, false), 0);
	count_events(tr->buffer, &c);
	count_events(global_trace.buffer, &ctop);
	KUNIT_EXPECT_TRUE(t, c.switches >= 3);
	KUNIT_EXPECT_EQ(t, c.other, 0);
	KUNIT_EXPECT_EQ(t, ctop.switches, 0);
	put_and_destroy(t, tr);
}

/* a and the top level trace target1; how many calls each recorded. */
static void count_target1(struct trace_array *a, unsigned long *top,
			  unsigned long *in_a)
{
	struct buffer_count c;

	tracing_reset_online_cpus(&global_trace);
	tracing_reset_online_cpus(a);
	call_targets(CALLS, 0);
	count_events(global_trace.buffer, &c);
	*top = c.fn[0];
	count_events(a->buffer, &c);
	*in_a = c.fn[0];
}

static struct trace_array *trace_target1_beside_top(struct kunit *t,
						    const char *name)
{
	struct trace_array *a = trace_array_get_by_name(name);

	KUNIT_EXPECT_TRUE(t, a != NULL);
	if (!a)
		return NULL;
	KUNIT_EXPECT_EQ(t, trace_only(a, "ftrace_test_target1"), 0);
	KUNIT_EXPECT_EQ(t, trace_only(&global_trace, "ftrace_test_target1"),
			0);
	return a;
}

static void stop_target1_beside_top(struct kunit *t, struct trace_array *a)
{
	tracing_set_tracer(&global_trace, "nop");
	ftrace_free_ops_hashes(&global_trace.ops);
	tracing_reset_online_cpus(&global_trace);
	put_and_destroy(t, a);
}

/*
 * The top level lists this task, a another pid, then the other way
 * round: each records the calls only where its own list has the task,
 * though both ask about it on the same CPU.
 */
static void instance_pid_filter_own(struct kunit *t)
{
	struct trace_array *a = trace_target1_beside_top(t, "selftest_pid");
	unsigned long top, in_a;
	char me[16], other[16];

	if (!a)
		return;
	snprintf(me, sizeof(me), "%d", current->pid);
	snprintf(other, sizeof(other), "%d", current->pid + 1000);
	KUNIT_EXPECT_EQ(t, trace_pid_write(&global_trace, me, false), 0);
	KUNIT_EXPECT_EQ(t, trace_pid_write(a, other, false), 0);
	count_target1(a, &top, &in_a);
	KUNIT_EXPECT_EQ(t, top, CALLS);
	KUNIT_EXPECT_EQ(t, in_a, 0);
	KUNIT_EXPECT_EQ(t, trace_pid_write(&global_trace, other, false), 0);
	KUNIT_EXPECT_EQ(t, trace_pid_write(a, me, false), 0);
	count_target1(a, &top, &in_a);
	KUNIT_EXPECT_EQ(t, top, 0);
	KUNIT_EXPECT_EQ(t, in_a, CALLS);
	KUNIT_EXPECT_EQ(t, trace_pid_write(&global_trace, "", false), 0);
	stop_target1_beside_top(t, a);
}

/* An instance's tracing_cpumask stops its buffer, not the top level's. */
static void instance_cpumask_own(struct kunit *t)
{
	struct trace_array *a = trace_target1_beside_top(t, "selftest_mask");
	const char *mask = "/sys/kernel/tracing/instances/selftest_mask/"
			   "tracing_cpumask";
	unsigned long top, in_a;

	if (!a)
		return;
	KUNIT_EXPECT_EQ(t, vfs_write_file(mask, O_TRUNC, "0\n"), 0);
	count_target1(a, &top, &in_a);
	KUNIT_EXPECT_EQ(t, top, CALLS);
	KUNIT_EXPECT_EQ(t, in_a, 0);
	KUNIT_EXPECT_EQ(t, vfs_write_file(mask, O_TRUNC, "ff\n"), 0);
	count_target1(a, &top, &in_a);
	KUNIT_EXPECT_EQ(t, top, CALLS);
	KUNIT_EXPECT_EQ(t, in_a, CALLS);
	stop_target1_beside_top(t, a);
}

/*
 * Made, traced in (function and an event), refused while a file is
 * open, removed: 50 times, and the memory is where it was.
 */
static void instance_create_destroy_no_leak(struct kunit *t)
{
	size_t before = mm_bytes_in_use();
	struct trace_array *tr;
	struct file *f;
	int i;

	for (i = 0; i < LEAK_ROUNDS; i++) {
		tr = trace_array_get_by_name("selftest_leak");
		KUNIT_EXPECT_TRUE(t, tr != NULL);
		if (!tr)
			return;
		KUNIT_EXPECT_EQ(t, trace_only(tr, "ftrace_test_target1"), 0);
		KUNIT_EXPECT_EQ(t, trace_event_enable(
				instance_event(tr, "sched_switch"), true), 0);
		call_targets(3, 0);
		msleep(1);
		trace_array_put(tr);
		KUNIT_EXPECT_EQ(t, vfs_open(NULL, "/sys/kernel/tracing/instances/"
					    "selftest_leak/trace_pipe",
					    O_RDONLY, &f), 0);
		KUNIT_EXPECT_EQ(t, trace_array_destroy(tr), -EBUSY);
		vfs_close(f);
		KUNIT_EXPECT_EQ(t, trace_array_destroy(tr), 0);
	}
	KUNIT_EXPECT_EQ(t, mm_bytes_in_use(), before);
}

/*
 * mkdir with kmalloc's, then the page allocator's, Nth allocation
 * failing, for each N until one runs through: each failed attempt
 * leaves no directory and gives back every byte.
 */
static void instance_create_nomem(struct kunit *t, struct fault_attr *attr)
{
	struct trace_array *tr;
	size_t before;
	long left;
	int n;

	for (n = 1; n < 2000; n++) {
		before = mm_bytes_in_use();
		fault_attr_set(attr, 100, n, 1);
		tr = trace_array_get_by_name("selftest_nomem");
		left = READ_ONCE(attr->times);
		fault_attr_set(attr, 0, 1, 0);
		if (tr) {
			trace_array_put(tr);
			KUNIT_EXPECT_EQ(t, trace_array_destroy(tr), 0);
		}
		KUNIT_EXPECT_EQ(t, mm_bytes_in_use(), before);
		if (left) {	/* nothing failed: done */
			KUNIT_EXPECT_TRUE(t, tr != NULL);
			break;
		}
		KUNIT_EXPECT_TRUE(t, tr == NULL);
		KUNIT_EXPECT_TRUE(t, !vfs_lookup(NULL, "/sys/kernel/tracing/"
						 "instances/selftest_nomem"));
	}
	KUNIT_EXPECT_TRUE(t, n > 1 && n < 2000);	/* some failed, then done */
}

static void instance_create_nomem_kmalloc(struct kunit *t)
{
	instance_create_nomem(t, &failslab);
}

static void instance_create_nomem_pages(struct kunit *t)
{
	instance_create_nomem(t, &fail_page_alloc);
}

SELFTEST_SUITE_INIT(instances, tracing_selftest_need_defaults,
	KUNIT_CASE(instances_disjoint_filters),
	KUNIT_CASE(instance_event_own_buffer),
	KUNIT_CASE(instance_pid_filter_own),
	KUNIT_CASE(instance_cpumask_own),
	KUNIT_CASE(instance_create_destroy_no_leak),
	KUNIT_CASE(instance_create_nomem_kmalloc),
	KUNIT_CASE(instance_create_nomem_pages));
