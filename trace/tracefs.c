/*
 * tracefs.c: /sys/kernel/tracing (Linux's tracer_init_tracefs). Most
 * files are simple files (kernel/fs/simple_file.c): a show() that writes
 * the whole text at open, and a store() that gets each write as one
 * NUL-terminated string. Errors are Linux's: a bad value is -EINVAL
 * and changes nothing.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "kstrtox.h"
#include "printk.h"
#include "trace_events.h"

/* ---- tracers, tracing_on, trace_clock ------------------------------------ */

/*
 * A file of a trace array has it as data: the top level's
 * (global_trace) or an instance's (trace_instance.c).
 */
static struct trace_array *data_tr(long data)
{
	return (struct trace_array *)data;
}

/* An instance lists only the tracers it may run (Linux's too). */
static void available_tracers_show(struct seq_buf *s, long data)
{
	struct tracer *t;
	const char *sep = "";

	for (t = trace_types_list(); t; t = t->next) {
		if (!trace_ok_for_array(t, data_tr(data)))
			continue;
		seq_printf(s, "%s%s", sep, t->name);
		sep = " ";
	}
	seq_puts(s, "\n");
}

static void current_tracer_show(struct seq_buf *s, long data)
{
	seq_printf(s, "%s\n", data_tr(data)->current_trace->name);
}

static int current_tracer_store(char *buf, struct file *file, long data)
{
	return tracing_set_tracer(data_tr(data), strim(buf));
}

static void tracing_on_show(struct seq_buf *s, long data)
{
	seq_printf(s, "%d\n", tracer_tracing_is_on(data_tr(data)));
}

/* Any number: nonzero is on (Linux's rb_simple_write). */
static int tracing_on_store(char *buf, struct file *file, long data)
{
	unsigned long val;
	int ret = kstrtoul(buf, 10, &val);

	if (ret)
		return ret;
	if (val)
		tracer_tracing_on(data_tr(data));
	else
		tracer_tracing_off(data_tr(data));
	return 0;
}

static void trace_clock_show(struct seq_buf *s, long data)
{
	int i, id, cur = data_tr(data)->clock_id;

	for (i = 0; i < trace_clock_count(); i++) {
		id = trace_clock_at(i);
		seq_printf(s, "%s%s%s%s", i ? " " : "", id == cur ? "[" : "",
			   trace_clock_name(id), id == cur ? "]" : "");
	}
	seq_puts(s, "\n");
}

static int trace_clock_store(char *buf, struct file *file, long data)
{
	return tracing_set_clock(data_tr(data), strim(buf));
}

/* ---- tracing_thresh, max_graph_depth ------------------------------------- */

/* In us, as written (Linux's tracing_nsecs_read). */
static void tracing_thresh_show(struct seq_buf *s, long data)
{
	seq_printf(s, "%lu\n", tracing_thresh / 1000);
}

static int tracing_thresh_store(char *buf, struct file *file, long data)
{
	unsigned long usecs;
	int ret = kstrtoul(buf, 10, &usecs);

	return ret ? ret : tracing_set_thresh(&global_trace, usecs);
}

/*
 * A latency tracer's maximum in this array, in us (Linux's
 * tracing_max_lat_read).
 */
static void tracing_max_latency_show(struct seq_buf *s, long data)
{
	seq_printf(s, "%lu\n", READ_ONCE(data_tr(data)->max_latency) / 1000);
}

static int tracing_max_latency_store(char *buf, struct file *file, long data)
{
	unsigned long usecs;
	int ret = kstrtoul(buf, 10, &usecs);

	if (!ret)
		WRITE_ONCE(data_tr(data)->max_latency, usecs * NSEC_PER_USEC);
	return ret;
}

static void max_graph_depth_show(struct seq_buf *s, long data)
{
	seq_printf(s, "%u\n", fgraph_max_depth);
}

/* ---- buffer sizes and per-CPU stats -------------------------------------- */

static unsigned long cpu_size_kb(struct trace_array *tr, int cpu)
{
	return ring_buffer_size(tr->buffer, cpu) >> 10;
}

static struct trace_cpu_ref *data_ref(long data)
{
	return (struct trace_cpu_ref *)data;
}

/* data: a trace_cpu_ref; all CPUs read "X" if they differ. */
static void buffer_size_show(struct seq_buf *s, long data)
{
	struct trace_cpu_ref *ref = data_ref(data);
	bool all = ref->cpu == RING_BUFFER_ALL_CPUS;
	unsigned long kb = cpu_size_kb(ref->tr, all ? 0 : ref->cpu);
	int cpu;

	for (cpu = 0; all && cpu < trace_nr_cpus(); cpu++)
		if (cpu_size_kb(ref->tr, cpu) != kb) {
			seq_puts(s, "X\n");
			return;
		}
	seq_printf(s, "%lu\n", kb);
}

static int buffer_size_store(char *buf, struct file *file, long data)
{
	unsigned long val;
	int ret = kstrtoul(buf, 10, &val);

	if (ret)
		return ret;
	if (!val)
		return -EINVAL;
	if (val > (~0UL >> 11))
		return -ENOMEM;
	return tracing_resize_ring_buffer(data_ref(data)->tr, val << 10,
					  data_ref(data)->cpu);
}

static void buffer_total_size_show(struct seq_buf *s, long data)
{
	unsigned long kb = 0;
	int cpu;

	for (cpu = 0; cpu < trace_nr_cpus(); cpu++)
		kb += cpu_size_kb(data_tr(data), cpu);
	seq_printf(s, "%lu\n", kb);
}

static void print_ts(struct seq_buf *s, struct trace_array *tr,
		     const char *what, u64 t)
{
	t = trace_clock_to_ns(tr, t);
	if (trace_clock_in_ns(tr)) {
		t /= 1000;
		seq_printf(s, "%s: %5llu.%06llu\n", what, t / 1000000,
			   t % 1000000);
	} else {
		seq_printf(s, "%s: %llu\n", what, t);
	}
}

/* per_cpu/cpuN/stats, Linux's fields and format. */
static void stats_show(struct seq_buf *s, long data)
{
	struct trace_array *tr = data_ref(data)->tr;
	struct trace_buffer *buffer = tr->buffer;
	int cpu = data_ref(data)->cpu;

	seq_printf(s, "entries: %lu\n", ring_buffer_entries_cpu(buffer, cpu));
	seq_printf(s, "overrun: %lu\n", ring_buffer_overrun_cpu(buffer, cpu));
	seq_printf(s, "commit overrun: %lu\n",
		   ring_buffer_commit_overrun_cpu(buffer, cpu));
	seq_printf(s, "bytes: %lu\n", ring_buffer_bytes_cpu(buffer, cpu));
	print_ts(s, tr, "oldest event ts",
		 ring_buffer_oldest_event_ts(buffer, cpu));
	print_ts(s, tr, "now ts", ring_buffer_time_stamp(buffer));
	seq_printf(s, "dropped events: %lu\n",
		   ring_buffer_dropped_events_cpu(buffer, cpu));
	seq_printf(s, "read events: %lu\n",
		   ring_buffer_read_events_cpu(buffer, cpu));
}

/* ---- free_buffer ----------------------------------------------------------- */

/* What is written does not matter: `echo` must not fail. */
static ssize_t free_buffer_write(struct file *file, const char *buf, size_t n)
{
	return n;
}

/*
 * At any close, even of a read that failed, the buffer shrinks to its
 * least (two pages a CPU), and with disable_on_free tracing stops
 * first (Linux's tracing_free_buffer_release).
 */
static int free_buffer_release(struct inode *inode, struct file *file)
{
	struct trace_array *tr = trace_array_of_inode(inode);

	if (tr->trace_flags & TRACE_ITER_STOP_ON_FREE)
		tracer_tracing_off(tr);
	return tracing_resize_ring_buffer(tr, 0, RING_BUFFER_ALL_CPUS);
}

static const struct file_operations free_buffer_fops = {
	.write = free_buffer_write,
	.release = free_buffer_release,
};

/* ---- buffer_percent, timestamp_mode -------------------------------------- */

static void buffer_percent_show(struct seq_buf *s, long data)
{
	seq_printf(s, "%u\n", READ_ONCE(data_tr(data)->buffer_percent));
}

/* 0 to 100; 0 is kept as 1, as Linux's buffer_percent_write does. */
static int buffer_percent_store(char *buf, struct file *file, long data)
{
	unsigned long val;
	int ret = kstrtoul(buf, 10, &val);

	if (ret)
		return ret;
	if (val > 100)
		return -EINVAL;
	WRITE_ONCE(data_tr(data)->buffer_percent, val ? val : 1);
	return 0;
}

/* Events carry time deltas, with an absolute stamp where one is needed. */
static void timestamp_mode_show(struct seq_buf *s, long data)
{
	seq_puts(s, "[delta] absolute\n");
}

/* ---- options ------------------------------------------------------------- */

static void trace_options_show(struct seq_buf *s, long data)
{
	struct trace_array *tr = data_tr(data);
	struct tracer *t = tr->current_trace;
	const struct tracer_opt *opt;
	unsigned int i;

	for (i = 0; i < trace_options_count; i++)
		seq_printf(s, "%s%s\n", tr->trace_flags & (1U << i) ?
			   "" : "no", trace_options[i]);
	for (opt = t->flags ? t->flags->opts : NULL; opt && opt->name; opt++)
		seq_printf(s, "%s%s\n", t->flags->val & opt->bit ? "" : "no",
			   opt->name);
}

static int trace_options_store(char *buf, struct file *file, long data)
{
	return trace_set_options(data_tr(data), strim(buf));
}

/* options/NAME reads 0 or 1 and takes only those (Linux's). */
static int option_value(char *buf, int *set)
{
	unsigned long val;
	int ret = kstrtoul(buf, 10, &val);

	if (ret)
		return ret;
	if (val > 1)
		return -EINVAL;
	*set = val;
	return 0;
}

/*
 * data: &tr->trace_flags_index[i], which holds i, so that it leads back
 * to both the option and its trace array (Linux's get_tr_index).
 */
static struct trace_array *option_tr(long data, unsigned int *bit)
{
	const u8 *index = (const u8 *)data;

	*bit = 1U << *index;
	return container_of(index - *index, struct trace_array,
			    trace_flags_index);
}

static void core_option_show(struct seq_buf *s, long data)
{
	unsigned int bit;
	struct trace_array *tr = option_tr(data, &bit);

	seq_printf(s, "%d\n", !!(tr->trace_flags & bit));
}

static int core_option_store(char *buf, struct file *file, long data)
{
	unsigned int bit;
	struct trace_array *tr = option_tr(data, &bit);
	int set, ret = option_value(buf, &set);

	return ret ? ret : set_tracer_flag(tr, bit, set);
}

/* A tracer's option in a trace array's options/: data points at one. */
struct tracer_option_file {
	struct trace_array *tr;
	struct tracer *tracer;
	const struct tracer_opt *opt;
};

static void tracer_option_show(struct seq_buf *s, long data)
{
	struct tracer_option_file *of = (struct tracer_option_file *)data;

	seq_printf(s, "%d\n", !!(of->tracer->flags->val & of->opt->bit));
}

static int tracer_option_store(char *buf, struct file *file, long data)
{
	struct tracer_option_file *of = (struct tracer_option_file *)data;
	int set, ret = option_value(buf, &set);

	return ret ? ret : trace_set_tracer_option(of->tr, of->tracer,
						   of->opt->name, set);
}

static unsigned int tracer_nr_opts(struct tracer *t)
{
	const struct tracer_opt *opt;
	unsigned int n = 0;

	for (opt = t->flags ? t->flags->opts : NULL; opt && opt->name; opt++)
		n++;
	return n;
}

/*
 * The options of each tracer the array may run, in one allocation
 * that tr->option_files keeps (an instance frees it with its files).
 */
static void create_tracer_options(struct trace_array *tr, struct inode *opts)
{
	const struct tracer_opt *opt;
	struct tracer_option_file *of;
	unsigned int n = 0;
	struct tracer *t;

	for (t = trace_types_list(); t; t = t->next)
		if (trace_ok_for_array(t, tr))
			n += tracer_nr_opts(t);
	of = kmalloc(n * sizeof(*of));
	if (!of) {
		vfs_note_alloc_failure();
		return;
	}
	tr->option_files = of;
	for (t = trace_types_list(); t; t = t->next) {
		if (!trace_ok_for_array(t, tr) || !t->flags)
			continue;
		for (opt = t->flags->opts; opt->name; opt++, of++) {
			*of = (struct tracer_option_file){ tr, t, opt };
			create_simple(opts, opt->name, tracer_option_show,
				      tracer_option_store, (long)of);
		}
	}
}

/*
 * A directory of a trace array that populate fills: the top level's on
 * its first use (kernel/fs/vfs.c:vfs_mkdir_lazy, as Linux's eventfs
 * makes events/ on lookup), an instance's at once, since a lazy
 * directory is never removed. Either way populate finds tr in
 * dir->private.
 */
struct inode *tracefs_mkdir_filled(struct trace_array *tr,
				   struct inode *parent, const char *name,
				   void (*populate)(struct inode *dir))
{
	struct inode *d;

	if (tr == &global_trace)
		return vfs_mkdir_lazy(parent, name, populate, tr);
	d = vfs_mkdir(parent, name);
	if (d) {
		d->private = tr;
		populate(d);
	}
	return d;
}

static void populate_options(struct inode *opts)
{
	struct trace_array *tr = opts->private;
	unsigned int i;

	for (i = 0; i < trace_options_count; i++) {
		tr->trace_flags_index[i] = i;
		create_simple(opts, trace_options[i], core_option_show,
			      core_option_store,
			      (long)&tr->trace_flags_index[i]);
	}
	create_tracer_options(tr, opts);
}

/* ---- trace_marker, README ------------------------------------------------- */

static int trace_marker_store(char *buf, struct file *file, long data)
{
	ssize_t ret = tracing_mark_write(data_tr(data), buf, strlen(buf));

	return ret < 0 ? ret : 0;
}

static ssize_t tracing_mark_raw_fop_write(struct file *file, const char *buf,
					  size_t n)
{
	return tracing_mark_raw_write(trace_array_of_inode(file->inode), buf,
				      n);
}

/* Each write is one event, so not a simple file, which joins them. */
static const struct file_operations tracing_mark_raw_fops = {
	.write = tracing_mark_raw_fop_write,
};

static const char readme_msg[] =
	"tracing mini-HOWTO:\n\n"
	"# echo 0 > tracing_on : quick way to stop recording\n"
	"# echo 1 > tracing_on : and to start it again\n\n"
	" Important files:\n"
	"  trace\t\t\t- The static contents of the buffer\n"
	"\t\t\t  To clear the buffer write into this file: echo > trace\n"
	"  trace_pipe\t\t- A consuming read of the buffer; waits for data\n"
	"  current_tracer\t- function_graph, function or nop\n"
	"  available_tracers\t- list of configured tracers for current_tracer\n"
	"  tracing_on\t\t- 0 stops recording, 1 starts it again\n"
	"  buffer_size_kb\t- view and modify size of per cpu buffer\n"
	"  buffer_total_size_kb  - view total size of all cpu buffers\n\n"
	"  trace_clock\t\t- change the clock used to order events\n"
	"       local:   Per cpu clock, in nanoseconds\n"
	"      global:   Synced across CPUs, never goes back\n"
	"     counter:   Not a clock, but just an increment\n"
	"      uptime:   Jiffy counter from time of boot\n"
	"        perf:   Same clock that perf events use (here: local)\n"
	"  mono, mono_raw, boot, tai: as global (one timebase, no suspend)\n"
	"     instret:   Instructions retired by the CPU (exact under -icount)\n\n"
	"  trace_marker\t\t- Writes into this file go into the buffer\n"
	"  trace_options\t\t- Set format or modify tracers (noXXX to clear)\n"
	"  options/\t\t- The same options, one file each, 0 or 1\n"
	"  snapshot\t\t- Like 'trace' but shows the content of the static\n"
	"\t\t\t  snapshot buffer. Read the contents for more\n"
	"\t\t\t  information\n"
	"  per_cpu/cpuN/\t\t- trace, trace_pipe, trace_pipe_raw, snapshot, stats and buffer_size_kb of one CPU\n\n"
	"  set_ftrace_filter\t- echo function name in here to only trace these\n"
	"\t\t\t  functions\n"
	"\t     accepts: func_full_name or glob-matching-pattern\n"
	"\t              (foo, foo*, *foo, *foo*; !foo removes foo)\n"
	"\t     example: echo 'fib sort*' > set_ftrace_filter\n"
	"\t     commands: echo 'FUNC:traceoff[:count]' >> set_ftrace_filter\n"
	"\t               traceon, traceoff, snapshot, stacktrace, dump, cpudump\n"
	"\t     modules: FUNC:mod:MODULE (kept: no module ever loads here)\n"
	"\t     a count limits how often the command fires; remove a counted\n"
	"\t     command with '!FUNC:cmd:0'\n"
	"\t     events: echo 'FUNC:enable_event:SYS:EVENT[:count]' (or\n"
	"\t             disable_event) >> set_ftrace_filter\n"
	"  set_ftrace_notrace\t- echo function name in here to never trace.\n"
	"  set_ftrace_pid\t- Write pid(s) to only function trace those pids\n"
	"\t\t    (function)\n"
	"  available_filter_functions - list of functions that can be filtered on\n"
	"  enabled_functions\t- list of functions traced now, with how many\n"
	"\t\t\t  users each one has\n"
	"  dyn_ftrace_total_info\t- traceable functions and the pages of records\n"
	"  set_graph_function\t- Trace the nested calls of a function (function_graph)\n"
	"  set_graph_notrace\t- Do not trace the nested calls of a function (function_graph)\n"
	"  max_graph_depth\t- Trace a limited depth of nested calls, 0 is unlimited\n"
	"  tracing_thresh\t- function_graph: only calls that took this many us;\n"
	"\t\t\t  latency tracers: every section this long is a new max\n"
	"  tracing_max_latency\t- the longest section a latency tracer saw, in us\n"
	"\t\t\t  (irqsoff, preemptoff, preemptirqsoff); echo 0 resets it\n"
	"  function_profile_enabled - 1 counts each function's hits and time,\n"
	"\t\t\t  per CPU, into trace_stat/functionN\n"
	"  stack_trace\t\t- Shows the max stack trace when active\n"
	"  stack_max_size\t- Shows current max stack size that was traced\n"
	"\t\t\t  Write into this file to reset the max size (trigger a\n"
	"\t\t\t  new trace)\n"
	"  stack_trace_filter\t- Like set_ftrace_filter but limits what\n"
	"\t\t\t  stack_trace traces\n"
	"  available_events\t- list of events that can be enabled\n"
	"  set_event\t\t- enables events by name written into it\n"
	"\t     accepts: SYS:EVENT, SYS:* (or SYS:), *:EVENT, EVENT; !NAME\n"
	"\t              disables\n"
	"  events/\t\t- Directory containing all trace event subsystems:\n"
	"      enable\t\t- Write 0/1 to enable/disable tracing of all events\n"
	"  events/SYS/EVENT/\t- enable, format, id, filter and trigger\n"
	"      filter\t\t- an expression on the event's fields, 0 clears:\n"
	"\t\t\t  ==, !=, <, <=, >, >=, & on numbers; ==, !=, ~ (glob)\n"
	"\t\t\t  on strings; &&, ||, ! and parentheses\n"
	"      trigger\t\t- traceon, traceoff, snapshot, stacktrace,\n"
	"\t\t\t  enable_event, disable_event, each [:count]\n"
	"\t\t\t  [if filter]; !cmd removes\n"
	"  error_log\t\t- why the last refused writes failed, and where\n";

static void readme_show(struct seq_buf *s, long data)
{
	seq_puts(s, readme_msg);
}

/* ---- the tree ------------------------------------------------------------ */

static void populate_per_cpu(struct inode *per_cpu)
{
	struct trace_array *tr = per_cpu->private;
	struct inode *d;
	char name[16];
	long cpu;

	for (cpu = 0; cpu < trace_nr_cpus(); cpu++) {
		snprintf(name, sizeof(name), "cpu%ld", cpu);
		d = vfs_mkdir(per_cpu, name);
		if (!d)
			return;
		vfs_create(d, "trace", S_IFREG | 0644, &tracing_fops,
			   (void *)(cpu + 1));
		vfs_create(d, "trace_pipe", S_IFREG | 0444, &tracing_pipe_fops,
			   (void *)(cpu + 1));
		vfs_create(d, "snapshot", S_IFREG | 0644,
			   &tracing_snapshot_fops, (void *)(cpu + 1));
		vfs_create(d, "trace_pipe_raw", S_IFREG | 0444,
			   &tracing_buffers_fops, (void *)(cpu + 1));
		create_simple(d, "stats", stats_show, NULL,
			      (long)&tr->cpu_refs[cpu + 1]);
		create_simple(d, "buffer_size_kb", buffer_size_show,
			      buffer_size_store, (long)&tr->cpu_refs[cpu + 1]);
	}
}

/*
 * The files each trace array has, the top level's and each instance's
 * (Linux's init_tracer_tracefs). A file finds its array through data
 * or, for those with their own operations, through its directory
 * (trace_array_of_inode).
 */
void init_tracer_tracefs(struct trace_array *tr, struct inode *dir)
{
	long data = (long)tr;
	struct inode *marker;
	int cpu;

	tr->cpu_refs[0] = (struct trace_cpu_ref){ tr, RING_BUFFER_ALL_CPUS };
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		tr->cpu_refs[cpu + 1] = (struct trace_cpu_ref){ tr, cpu };
	/* Linux's TRACE_MODE_WRITE 0640 and TRACE_MODE_READ 0440, dirs 0750 */
	dir->umask = 0007;
	create_simple(dir, "available_tracers", available_tracers_show,
		      NULL, data);
	create_simple(dir, "current_tracer", current_tracer_show,
		      current_tracer_store, data);
	vfs_create(dir, "trace", S_IFREG | 0644, &tracing_fops, NULL);
	vfs_create(dir, "trace_pipe", S_IFREG | 0444, &tracing_pipe_fops,
		   NULL);
	vfs_create(dir, "snapshot", S_IFREG | 0644, &tracing_snapshot_fops,
		   NULL);
	create_simple(dir, "tracing_on", tracing_on_show, tracing_on_store,
		      data);
	create_simple(dir, "buffer_size_kb", buffer_size_show,
		      buffer_size_store, (long)&tr->cpu_refs[0]);
	create_simple(dir, "buffer_total_size_kb", buffer_total_size_show,
		      NULL, data);
	create_simple(dir, "trace_clock", trace_clock_show, trace_clock_store,
		      data);
	marker = create_simple(dir, "trace_marker", NULL, trace_marker_store,
			       data);
	if (marker)
		marker->mode = S_IFREG | 0220;	/* write-only, as Linux's */
	vfs_create(dir, "trace_marker_raw", S_IFREG | 0220,
		   &tracing_mark_raw_fops, NULL);
	create_simple(dir, "trace_options", trace_options_show,
		      trace_options_store, data);
	vfs_create(dir, "free_buffer", S_IFREG | 0200, &free_buffer_fops, NULL);
	create_simple(dir, "buffer_percent", buffer_percent_show,
		      buffer_percent_store, data);
	create_simple(dir, "timestamp_mode", timestamp_mode_show, NULL, 0);
	tracing_err_log_create_file(tr, dir);
	tracing_cpumask_init(tr, dir);
	create_simple(dir, "tracing_max_latency", tracing_max_latency_show,
		      tracing_max_latency_store, data);
	tracefs_mkdir_filled(tr, dir, "options", populate_options);
	tracefs_mkdir_filled(tr, dir, "per_cpu", populate_per_cpu);
	ftrace_create_tr_files(tr, dir);
	trace_events_create_tr_files(tr, dir);
}

/* The top level: its array's files, and those only it has. */
void trace_create_files(struct inode *dir)
{
	if (!dir)
		panic("tracing: no /sys/kernel/tracing");
	init_tracer_tracefs(&global_trace, dir);
	create_simple(dir, "README", readme_show, NULL, 0);
	create_simple(dir, "tracing_thresh", tracing_thresh_show,
		      tracing_thresh_store, 0);
	create_simple(dir, "max_graph_depth", max_graph_depth_show,
		      simple_store_ulong, (long)ftrace_graph_set_max_depth);
	create_simple(dir, "printk_formats", printk_formats_show, NULL, 0);
	create_simple(dir, "saved_tgids", trace_saved_tgids_show, NULL, 0);
	create_simple(dir, "saved_cmdlines", trace_saved_cmdlines_show, NULL,
		      0);
	create_simple(dir, "saved_cmdlines_size",
		      trace_saved_cmdlines_size_show,
		      trace_saved_cmdlines_size_store, 0);
	ftrace_create_files(dir);
	trace_events_create_files(dir);
	ftrace_profile_tracefs(dir);
	stack_trace_init(dir);
	trace_instances_create_dir(dir);
}
