/*
 * ftrace_profile.c: the function profiler (Linux's FUNCTION_PROFILER,
 * in its kernel/trace/ftrace.c): function_profile_enabled and one
 * trace_stat/functionN per CPU, with each function's hits, total time,
 * average and s^2, the most time first.
 *
 * As in Linux, it is an fgraph user on the functions set_ftrace_filter
 * and set_ftrace_pid allow: profile_graph_entry counts a hit
 * (function_profile_call), profile_graph_return adds the call's time
 * and its square. fgraph has one user at a time, so the profiler and
 * the function_graph tracer refuse each other with -EBUSY. Times are
 * kept in the trace clock's units, as fgraph gives them, and become ns
 * when printed (Linux's profiler always uses the local clock, in ns).
 * function_graph's options sleep-time and graph-time, off, leave out
 * of a call's time its sleeps (fgraph.c) and its children's time.
 *
 * Counters are per CPU: a hash of ip -> struct ftrace_profile, whose
 * records are all allocated at boot, one per traceable function, so the
 * hot path never allocates. Enabling it again after a 0 starts the
 * counts over; the counts stay readable after a 0.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "kallsyms.h"
#include "kstrtox.h"
#include "printk.h"
#include "printf.h"
#include "fgraph.h"
#include "trace_clock.h"
#include "trace.h"
#include "asm/asm-offsets.h"

#define FTRACE_PROFILE_HASH_BITS	10
#define FTRACE_PROFILE_HASH_SIZE	(1 << FTRACE_PROFILE_HASH_BITS)

/* One CPU's, on lines of its own: only that CPU counts into it. */
struct ftrace_profile_stat {
	struct ftrace_profile **hash;	/* FTRACE_PROFILE_HASH_SIZE lists */
	struct ftrace_profile *records;	/* nr_records of them */
	unsigned long nr_records, used;
} ____cacheline_aligned;

/*
 * The trampolines' fast paths (ftrace_fast.S) read these three too;
 * the stats are one per CPU, from ftrace_profile_tracefs.
 */
struct ftrace_profile_stat *ftrace_profile_stats;
static DEFINE_MUTEX(ftrace_profile_lock);
int ftrace_profile_enabled;

_Static_assert(offsetof(struct ftrace_profile_stat, hash) == PSTAT_HASH &&
	       sizeof(struct ftrace_profile_stat) == 1 << PSTAT_SHIFT &&
	       FTRACE_PROFILE_HASH_SIZE == PROFILE_HASH_SIZE &&
	       offsetof(struct ftrace_profile, next) == PROFILE_NEXT &&
	       offsetof(struct ftrace_profile, ip) == PROFILE_IP &&
	       offsetof(struct ftrace_profile, counter) == PROFILE_COUNTER &&
	       offsetof(struct ftrace_profile, time) == PROFILE_TIME &&
	       offsetof(struct ftrace_profile, time_squared) ==
	       PROFILE_TIME_SQUARED,
	       "asm-offsets: the profiler's fast paths");

/* ---- the hot path ------------------------------------------------------- */

/*
 * Sites are 4-aligned, and functions of a few dozen bytes at least:
 * the ip's low bits above those spread them well enough.
 */
static struct ftrace_profile **profile_bucket(struct ftrace_profile_stat *stat,
					      unsigned long ip)
{
	return &stat->hash[(ip >> 2) & (FTRACE_PROFILE_HASH_SIZE - 1)];
}

static struct ftrace_profile *
ftrace_find_profiled_func(struct ftrace_profile_stat *stat, unsigned long ip)
{
	struct ftrace_profile *rec;

	for (rec = *profile_bucket(stat, ip); rec; rec = rec->next)
		if (rec->ip == ip)
			return rec;
	return NULL;
}

/*
 * The next free record. Interrupts are off and there are no NMIs, so
 * unlike Linux nothing else can be adding one on this CPU meanwhile.
 */
static struct ftrace_profile *
ftrace_profile_alloc(struct ftrace_profile_stat *stat, unsigned long ip)
{
	struct ftrace_profile *rec, **bucket = profile_bucket(stat, ip);

	if (stat->used == stat->nr_records)
		return NULL;
	rec = &stat->records[stat->used++];
	rec->ip = ip;
	rec->next = *bucket;
	*bucket = rec;
	return rec;
}

/*
 * A hit. Shaped as an ftrace_ops callback: Linux registers it as one
 * where there is no fgraph; here, as in Linux with fgraph, the graph
 * entry calls it.
 */
static void function_profile_call(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *ops,
				  struct ftrace_regs *fregs)
{
	struct ftrace_profile_stat *stat;
	struct ftrace_profile *rec;
	unsigned long flags;

	if (!READ_ONCE(ftrace_profile_enabled))
		return;
	/* An interrupt's calls must not meet this one in the same chain. */
	flags = raw_local_irq_save();
	stat = &ftrace_profile_stats[smp_processor_id()];
	rec = ftrace_find_profiled_func(stat, ip);
	if (!rec)
		rec = ftrace_profile_alloc(stat, ip);
	if (rec)
		rec->counter++;
	raw_local_irq_restore(flags);
}

static int profile_graph_entry(struct ftrace_graph_ent *trace)
{
	if (ftrace_pid_ignored(&global_trace))
		return 0;
	function_profile_call(trace->func, 0, NULL, NULL);
	return 1;
}

/* function_graph's graph-time option: off, a call's time is its own. */
static bool fgraph_graph_time = true;

/*
 * graph-time off: each return adds its own time to every call under way
 * below it on the ret_stack, whose time from entry to return is then
 * its own time too (Linux keeps a subtime per frame instead).
 */
static u64 profile_own_time(struct ftrace_graph_ret *trace)
{
	u64 own = trace->rettime - trace->calltime;
	struct ftrace_ret_stack *rs;
	int i;

	for (i = 1; (rs = ftrace_graph_get_ret_stack(current, i)); i++)
		rs->calltime += own;
	return own;
}

/*
 * The time from entry to return, on the CPU it returns on: children and
 * sleeps included with Linux's defaults (graph-time and sleep-time on).
 */
static void profile_graph_return(struct ftrace_graph_ret *trace)
{
	struct ftrace_profile *rec;
	unsigned long flags;
	u64 calltime;

	if (!READ_ONCE(ftrace_profile_enabled) || !trace->calltime)
		return;
	if (READ_ONCE(fgraph_graph_time))
		calltime = trace->rettime - trace->calltime;
	else
		calltime = profile_own_time(trace);
	flags = raw_local_irq_save();
	rec = ftrace_find_profiled_func(
		&ftrace_profile_stats[smp_processor_id()], trace->func);
	if (rec) {
		rec->time += calltime;
		rec->time_squared += calltime * calltime;
	}
	raw_local_irq_restore(flags);
}

#ifdef HAVE_FTRACE_FAST_PATH
static void *const profile_fast_entry[TRACE_CLOCK_NR] = {
	[TRACE_CLOCK_LOCAL] = ftrace_profile_entry_fast_local,
	[TRACE_CLOCK_GLOBAL] = ftrace_profile_entry_fast_global,
	[TRACE_CLOCK_COUNTER] = ftrace_profile_entry_fast_counter,
	[TRACE_CLOCK_INSTRET] = ftrace_profile_entry_fast_instret,
	[TRACE_CLOCK_PERF] = ftrace_profile_entry_fast_local,
	[TRACE_CLOCK_MONO] = ftrace_profile_entry_fast_global,
	[TRACE_CLOCK_MONO_RAW] = ftrace_profile_entry_fast_global,
	[TRACE_CLOCK_BOOT] = ftrace_profile_entry_fast_global,
	[TRACE_CLOCK_TAI] = ftrace_profile_entry_fast_global,
};

static void *const profile_fast_return[TRACE_CLOCK_NR] = {
	[TRACE_CLOCK_LOCAL] = ftrace_profile_return_fast_local,
	[TRACE_CLOCK_GLOBAL] = ftrace_profile_return_fast_global,
	[TRACE_CLOCK_COUNTER] = ftrace_profile_return_fast_counter,
	[TRACE_CLOCK_INSTRET] = ftrace_profile_return_fast_instret,
	[TRACE_CLOCK_PERF] = ftrace_profile_return_fast_local,
	[TRACE_CLOCK_MONO] = ftrace_profile_return_fast_global,
	[TRACE_CLOCK_MONO_RAW] = ftrace_profile_return_fast_global,
	[TRACE_CLOCK_BOOT] = ftrace_profile_return_fast_global,
	[TRACE_CLOCK_TAI] = ftrace_profile_return_fast_global,
};
#endif

/*
 * Linux's graph_ops shares global_ops's hashes: set_ftrace_filter's.
 * The fast paths count a hit of a function seen before on this CPU,
 * and add a return's time; the rest comes here.
 */
static struct fgraph_ops fprofiler_ops = {
	.entryfunc = profile_graph_entry,
	.retfunc = profile_graph_return,
	.func_hash = &global_trace.ops.local_hash,
#ifdef HAVE_FTRACE_FAST_PATH
	.fast_entry = profile_fast_entry,
	.fast_return = profile_fast_return,
#endif
};

/* ---- enabling ------------------------------------------------------------ */

/*
 * graph-time changed: the fast return, which adds the whole time, is
 * for graph-time on only.
 */
void ftrace_profile_graph_time_control(bool enable)
{
	WRITE_ONCE(fgraph_graph_time, enable);
#ifdef HAVE_FTRACE_FAST_PATH
	WRITE_ONCE(fprofiler_ops.fast_return,
		   enable ? profile_fast_return : NULL);
	fgraph_update_fast_paths();
#endif
}

static void ftrace_profile_reset(struct ftrace_profile_stat *stat)
{
	memset(stat->hash, 0, FTRACE_PROFILE_HASH_SIZE * sizeof(*stat->hash));
	memset(stat->records, 0, stat->nr_records * sizeof(*stat->records));
	stat->used = 0;
}

static void ftrace_profile_reset_all(void)
{
	int cpu;

	for (cpu = 0; cpu < trace_nr_cpus(); cpu++)
		ftrace_profile_reset(&ftrace_profile_stats[cpu]);
}

/*
 * Every CPU's records, one per traceable function, at boot: the hot
 * path never allocates (Linux allocates them at the first `1`).
 */
static void ftrace_profile_alloc_cpu(struct ftrace_profile_stat *stat)
{
	/* At least one: FTRACE=none has no sites at all. */
	stat->nr_records = max(ftrace_nr_records(), 1UL);
	stat->hash = kzalloc(FTRACE_PROFILE_HASH_SIZE * sizeof(*stat->hash));
	/* Not zeroed here: none is read below used, and enabling resets. */
	stat->records = kmalloc(stat->nr_records * sizeof(*stat->records));
	if (!stat->hash || !stat->records)
		panic("ftrace: no memory for the profiler's records");
}

/*
 * Linux's ftrace_profile_write: nonzero is on. Only a change does
 * anything; turning on starts the counts over. The profiler is on
 * before its callbacks and off after them: the fast paths, which do
 * not look, count nothing it would not.
 */
int ftrace_profile_set_enabled(bool enable)
{
	int ret = 0;

	mutex_lock(&ftrace_profile_lock);
	if (enable && !ftrace_profile_enabled) {
		ftrace_profile_reset_all();
		WRITE_ONCE(ftrace_profile_enabled, 1);
		ret = register_ftrace_graph(&fprofiler_ops);
		if (ret)
			WRITE_ONCE(ftrace_profile_enabled, 0);
	} else if (!enable && ftrace_profile_enabled) {
		/* stop_machine inside: no CPU is left in a callback. */
		unregister_ftrace_graph(&fprofiler_ops);
		WRITE_ONCE(ftrace_profile_enabled, 0);
	}
	mutex_unlock(&ftrace_profile_lock);
	return ret;
}

/* The record of ip on cpu, NULL if it had no hit. */
const struct ftrace_profile *ftrace_profile_lookup(int cpu, unsigned long ip)
{
	return ftrace_find_profiled_func(&ftrace_profile_stats[cpu], ip);
}

/* ---- trace_stat/functionN ------------------------------------------------ */

/* A sum of times, or of their squares (converted twice), in ns. */
static u64 profile_ns(u64 t)
{
	return trace_clock_to_ns(&global_trace, t);
}

/*
 * Linux's function_stat_show, tracing_thresh included. s^2 is the
 * sample variance, with Linux's u64 arithmetic: in us^2, as one
 * division by 1000 here and one more in trace_print_graph_duration.
 */
static void function_stat_show(struct seq_buf *s,
			       const struct ftrace_profile *rec)
{
	unsigned long long time = profile_ns(rec->time), stddev = 0;
	unsigned long long avg = time / rec->counter;

	if (tracing_thresh && avg < tracing_thresh)
		return;
	seq_printf(s, "  %-30.30s  %10lu    ",
		   kallsyms_lookup(rec->ip, NULL, NULL) ?: "?", rec->counter);
	if (rec->counter > 1)
		stddev = profile_ns(profile_ns(rec->counter * rec->time_squared -
					       rec->time * rec->time)) /
			 (rec->counter * (rec->counter - 1) * 1000);
	trace_print_graph_duration(time, s);
	seq_puts(s, "    ");
	trace_print_graph_duration(avg, s);
	seq_puts(s, "    ");
	trace_print_graph_duration(stddev, s);
	seq_puts(s, "\n");
}

/*
 * The CPU's records, the most time first; NULL when out of memory.
 * Linux's trace_stat puts a record before those with equal time that
 * came earlier: kept here, so ties read alike.
 */
static const struct ftrace_profile **
sorted_records(const struct ftrace_profile_stat *stat, unsigned long n)
{
	const struct ftrace_profile **v = kmalloc(n * sizeof(*v));
	unsigned long i, j;

	for (i = 0; v && i < n; i++) {
		const struct ftrace_profile *rec = &stat->records[i];

		for (j = i; j > 0 && v[j - 1]->time <= rec->time; j--)
			v[j] = v[j - 1];
		v[j] = rec;
	}
	return v;
}

static void function_stat_headers(struct seq_buf *s)
{
	seq_puts(s, "  Function                               "
		 "Hit    Time            Avg             s^2\n"
		 "  --------                               "
		 "---    ----            ---             ---\n");
}

/* data: the CPU. */
static void function_stat_file_show(struct seq_buf *s, long data)
{
	const struct ftrace_profile **v;
	unsigned long i, n;

	function_stat_headers(s);
	mutex_lock(&ftrace_profile_lock);
	n = ftrace_profile_stats[data].used;
	v = n ? sorted_records(&ftrace_profile_stats[data], n) : NULL;
	if (n && !v)
		seq_set_nomem(s);
	for (i = 0; v && i < n; i++)
		function_stat_show(s, v[i]);
	mutex_unlock(&ftrace_profile_lock);
	kfree(v);
}

static int function_profile_enabled_store(char *buf, struct file *file,
					  long data)
{
	unsigned long val;
	int ret = kstrtoul(buf, 10, &val);

	return ret ? ret : ftrace_profile_set_enabled(val);
}

/* trace_stat/functionN, made on the directory's first use. */
static void populate_trace_stat(struct inode *stat_dir)
{
	char name[16];
	long cpu;

	for (cpu = 0; cpu < trace_nr_cpus(); cpu++) {
		snprintf(name, sizeof(name), "function%ld", cpu);
		create_simple(stat_dir, name, function_stat_file_show, NULL,
			      cpu);
	}
}

void ftrace_profile_tracefs(struct inode *dir)
{
	long cpu;

	vfs_mkdir_lazy(dir, "trace_stat", populate_trace_stat, NULL);
	ftrace_profile_stats = kzalloc_cacheline(trace_nr_cpus() *
						 sizeof(*ftrace_profile_stats));
	if (!ftrace_profile_stats)
		panic("ftrace: no memory for the profiler's records");
	for (cpu = 0; cpu < trace_nr_cpus(); cpu++)
		ftrace_profile_alloc_cpu(&ftrace_profile_stats[cpu]);
	create_simple(dir, "function_profile_enabled", simple_show_int,
		      function_profile_enabled_store,
		      (long)&ftrace_profile_enabled);
}
