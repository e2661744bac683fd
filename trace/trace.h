/*
 * trace.h: the tracing core's index (Linux's kernel/trace/trace.h):
 * the trace array, tracers, the events in the ring buffer, options,
 * and the functions each trace/ file offers the others.
 */
#ifndef _TRACE_H
#define _TRACE_H

#include "kernel.h"
#include "list.h"
#include "sched.h"
#include "string.h"
#include "ftrace.h"
#include "ring_buffer.h"
#include "tracing.h"
#include "trace_event_ids.h"
#include "vfs.h"
#include "asm/csr.h"

/* ---- events --------------------------------------------------------- */

/* A trace event's record (trace_events.h), past Linux's ftrace types. */
#define TRACE_RAW_EVENT		__TRACE_LAST_TYPE

#define TRACE_FLAG_IRQS_OFF	0x1
#define TRACE_FLAG_NEED_RESCHED	0x2
#define TRACE_FLAG_HARDIRQ	0x4

/*
 * The first word of every event (Linux's struct trace_entry is 8 bytes:
 * type, flags, preempt_count and a 4-byte pid):
 *   bits 0-4 type, 5-7 flags, 8-11 preempt depth, 12-31 pid.
 */
struct trace_entry {
	u32 ctx;
};

#define TRACE_CTX_FLAGS_SHIFT	5
#define TRACE_CTX_PC_SHIFT	8
#define TRACE_CTX_PID_SHIFT	12
#define PID_MAX			(1 << (32 - TRACE_CTX_PID_SHIFT))

static inline unsigned int entry_type(const struct trace_entry *e)
{
	return e->ctx & 0x1f;
}

static inline unsigned int entry_flags(const struct trace_entry *e)
{
	return (e->ctx >> TRACE_CTX_FLAGS_SHIFT) & 0x7;
}

static inline unsigned int entry_preempt_count(const struct trace_entry *e)
{
	return (e->ctx >> TRACE_CTX_PC_SHIFT) & 0xf;
}

static inline int entry_pid(const struct trace_entry *e)
{
	return e->ctx >> TRACE_CTX_PID_SHIFT;
}

/* Linux's TRACE_FLAG_IRQS_OFF, _NEED_RESCHED and _HARDIRQ bits. */
static inline u8 entry_linux_flags(const struct trace_entry *e)
{
	unsigned int f = entry_flags(e);

	return (f & TRACE_FLAG_IRQS_OFF ? 0x01 : 0) |
	       (f & TRACE_FLAG_NEED_RESCHED ? 0x04 : 0) |
	       (f & TRACE_FLAG_HARDIRQ ? 0x08 : 0);
}

/*
 * The function tracer's event: with the 4-byte ring buffer header, 16
 * bytes (Linux's is 32). Kernel text lies below 4 GiB, so 32 bits hold
 * an address.
 */
struct ftrace_entry {
	struct trace_entry ent;
	u32 ip;
	u32 parent_ip;
};

#define FTRACE_STACK_ENTRIES	16

struct stack_entry {
	struct trace_entry ent;
	u32 size;			/* entries in caller[] */
	u32 caller[FTRACE_STACK_ENTRIES];
};

#define TRACE_MARKER_MAX	1024

/* trace_marker's text, always ending in a newline. */
struct print_entry {
	struct trace_entry ent;
	u32 ip;
	char buf[];
};

/*
 * A trace_marker_raw write (Linux's raw_data_entry): the id, then the
 * payload and zeros to the length Linux's event has (trace_marker.c).
 */
struct raw_data_entry {
	struct trace_entry ent;
	u32 id;
	u8 buf[];
};

/*
 * trace_printk's with a constant format (Linux's bprint_entry): the
 * format's address and its arguments as vbin_printf keeps them.
 */
struct bprint_entry {
	struct trace_entry ent;
	u32 ip;
	u32 fmt;
	u32 buf[];
};

/*
 * The wakeup tracers' wake-up and switch lines (Linux's
 * ctx_switch_entry, as TRACE_WAKE and TRACE_CTX, laid out as Linux's
 * past the common fields): the waker or the task switched out, the
 * task woken or switched in, the woken task's CPU, their prios and
 * states (an index in TASK_STATE_TO_CHAR_STR).
 */
struct ctx_switch_entry {
	struct trace_entry ent;
	u32 prev_pid;
	u32 next_pid;
	u32 next_cpu;
	u8 prev_prio;
	u8 prev_state;
	u8 next_prio;
	u8 next_state;
};

/* Linux's task_index_to_char: R, S, ... by __task_state_index. */
#define TASK_STATE_TO_CHAR_STR	"RSDTtXZPI"
#define TASK_STATE_INDEX_SLEEPING	1
#define TASK_STATE_INDEX_ZOMBIE		6

/* Event data is 4-byte aligned: GCC then accesses this as two words. */
typedef u64 u64_a4 __aligned(4);

/*
 * func-no-repeats: a call made count more times in a row (Linux's
 * func_repeats_entry), recorded before the next other call; last_ts is
 * the clock at the last of them.
 */
struct func_repeats_entry {
	struct trace_entry ent;
	u32 ip;
	u32 parent_ip;
	u32 count;
	u64_a4 last_ts;
};

/*
 * function_graph's events (Linux's ftrace_graph_ent_entry and
 * ftrace_graph_ret_entry, 32 and 52 bytes with their header): 16 and 24
 * bytes here. A return keeps the duration, in trace clock units, not
 * both times: its own time stamp is the return's time.
 */
struct ftrace_graph_ent_entry {
	struct trace_entry ent;
	u32 func;
	u32 depth;
};


struct ftrace_graph_ret_entry {
	struct trace_entry ent;
	u32 func;
	u32 depth;
	u64_a4 duration;
};

/*
 * A return of a task whose ret_stack has overrun: the count follows
 * (Linux's ftrace_graph_ret.overrun, in every return there). Only such
 * tasks' returns are this long.
 */
struct ftrace_graph_ret_overrun_entry {
	struct ftrace_graph_ret_entry ret;
	u32 overrun;
};

/* The task's overruns so far when a return of ent_size bytes was made. */
static inline u32 graph_ret_overrun(const struct ftrace_graph_ret_entry *ret,
				    unsigned int ent_size)
{
	if (ent_size < sizeof(struct ftrace_graph_ret_overrun_entry))
		return 0;
	return ((const struct ftrace_graph_ret_overrun_entry *)ret)->overrun;
}

/* The preempt depth and hardirq flag of a nonzero preempt_count. */
static inline u32 tracing_gen_ctx_pc(unsigned int pc)
{
	u32 ctx = min(pc & PREEMPT_MASK, 15U) << TRACE_CTX_PC_SHIFT;

	if (pc & HARDIRQ_MASK)
		ctx |= TRACE_FLAG_HARDIRQ << TRACE_CTX_FLAGS_SHIFT;
	return ctx;
}

/*
 * The context word of an event recorded now, without its type, by a
 * writer that saved sstatus in irqflags before it masked interrupts
 * (Linux's tracing_gen_ctx_flags). dec: preemption levels the tracing
 * path itself added (the trampoline raised preempt_count by one), so
 * the depth shows the traced code's. Mostly the count is 0 then, and
 * the word is the pid and two flags.
 */
static inline u32 __tracing_gen_ctx(struct task *t, unsigned long irqflags,
				    unsigned int dec)
{
	unsigned int pc = t->preempt_count - dec;
	u32 ctx = (u32)t->pid << TRACE_CTX_PID_SHIFT;

	if (!(irqflags & SSTATUS_SIE))
		ctx |= TRACE_FLAG_IRQS_OFF << TRACE_CTX_FLAGS_SHIFT;
	if (this_cpu()->need_resched)
		ctx |= TRACE_FLAG_NEED_RESCHED << TRACE_CTX_FLAGS_SHIFT;
	if (unlikely(pc))
		ctx |= tracing_gen_ctx_pc(pc);
	return ctx;
}

static inline u32 tracing_gen_ctx_flags(unsigned long irqflags)
{
	return __tracing_gen_ctx(current, irqflags, 0);
}

static inline u32 __tracing_gen_ctx_dec(struct task *t, unsigned int dec)
{
	return __tracing_gen_ctx(t, csr_read(sstatus), dec);
}

static inline u32 tracing_gen_ctx_dec(unsigned int dec)
{
	return __tracing_gen_ctx_dec(current, dec);
}

/* ---- options (trace_options, options/) -------------------------------- */

/*
 * Linux 6.1's TRACE_ITER_*, in its order, which trace_options lists
 * (docs/tracefs.md says what each does here).
 */
enum trace_iter_flags {
	TRACE_ITER_PRINT_PARENT		= 1 << 0,
	TRACE_ITER_SYM_OFFSET		= 1 << 1,
	TRACE_ITER_SYM_ADDR		= 1 << 2,
	TRACE_ITER_VERBOSE		= 1 << 3,
	TRACE_ITER_RAW			= 1 << 4,
	TRACE_ITER_HEX			= 1 << 5,
	TRACE_ITER_BIN			= 1 << 6,
	TRACE_ITER_BLOCK		= 1 << 7,
	TRACE_ITER_PRINTK		= 1 << 8,
	TRACE_ITER_ANNOTATE		= 1 << 9,
	TRACE_ITER_USERSTACKTRACE	= 1 << 10,
	TRACE_ITER_SYM_USEROBJ		= 1 << 11,
	TRACE_ITER_PRINTK_MSGONLY	= 1 << 12,
	TRACE_ITER_CONTEXT_INFO		= 1 << 13,
	TRACE_ITER_LATENCY_FMT		= 1 << 14,
	TRACE_ITER_RECORD_CMD		= 1 << 15,
	TRACE_ITER_RECORD_TGID		= 1 << 16,
	TRACE_ITER_OVERWRITE		= 1 << 17,
	TRACE_ITER_STOP_ON_FREE		= 1 << 18,
	TRACE_ITER_IRQ_INFO		= 1 << 19,
	TRACE_ITER_MARKERS		= 1 << 20,
	TRACE_ITER_EVENT_FORK		= 1 << 21,
	TRACE_ITER_PAUSE		= 1 << 22,
	TRACE_ITER_HASH_PTR		= 1 << 23,
	TRACE_ITER_FUNCTION		= 1 << 24,
	TRACE_ITER_FUNC_FORK		= 1 << 25,
	TRACE_ITER_DISPLAY_GRAPH	= 1 << 26,
	TRACE_ITER_STACKTRACE		= 1 << 27,
};

extern const char *const trace_options[];
extern const unsigned int trace_options_count;

/* A tracer's own options (Linux's struct tracer_opt / tracer_flags). */
struct tracer_opt {
	const char *name;
	u32 bit;
};

struct tracer_flags {
	u32 val;
	const struct tracer_opt *opts;	/* ends with a NULL name */
};

/* ---- tracers and the trace array --------------------------------------- */

struct trace_array;
struct trace_iterator;

/* What a tracer's print_line did with an entry (Linux's print_line_t). */
enum print_line_t {
	TRACE_TYPE_HANDLED,
	TRACE_TYPE_UNHANDLED,		/* print it the default way */
};

/*
 * A tracer. Only init and reset are required; the others, as in Linux,
 * let it keep state per open trace file (open, close), print its own
 * header and lines, and follow tracing_thresh. Unlike Linux's, open
 * may fail (-ENOMEM), and then so does the file's open.
 */
struct tracer {
	const char *name;
	int (*init)(struct trace_array *tr);
	void (*reset)(struct trace_array *tr);
	int (*open)(struct trace_iterator *iter);
	void (*close)(struct trace_iterator *iter);
	void (*print_header)(struct trace_iterator *iter);
	enum print_line_t (*print_line)(struct trace_iterator *iter);
	int (*update_thresh)(struct trace_array *tr);
	struct tracer_flags *flags;
	int (*set_flag)(struct trace_array *tr, u32 old_flags, u32 bit,
			int set);
	/* A core option (TRACE_ITER_*) is about to change: 0 lets it. */
	int (*flag_changed)(struct trace_array *tr, unsigned int mask,
			    int set);
	bool allow_instances;		/* may run in instances/NAME */
	bool use_max_tr;		/* swaps its max trace into max_buffer */
	bool print_max;			/* `trace` shows max_buffer */
	struct tracer *next;
};

/* Tracers are gathered from this section and registered at trace_init. */
#define register_tracer_initcall(t)					\
	static struct tracer *const __tracer_##t			\
		__section(".tracers") __used __aligned(8) = &(t)

struct trace_pid_list;

/*
 * What the latency tracers keep of the section in max_buffer (Linux
 * keeps it in the max buffer's struct trace_array_cpu), for the header
 * of its trace.
 */
struct trace_max_data {
	u64 time_start;			/* the section's start, clock units */
	unsigned long latency;		/* ns */
	unsigned long critical_start;	/* where it began and ended */
	unsigned long critical_end;
	int cpu;
	int pid;
	char comm[TASK_COMM_LEN];
	int nice;			/* the task's, for the header */
	unsigned int policy;
	unsigned int rt_priority;
};

/* The header's task: the one that ran the section, or was woken. */
static inline void trace_max_data_task(struct trace_max_data *data,
				       const struct task *t)
{
	memcpy(data->comm, t->comm, TASK_COMM_LEN);
	data->pid = t->pid;
	data->nice = task_nice(t);
	data->policy = t->policy;
	data->rt_priority = t->rt_priority;
}

/* What a per-CPU file of a trace array reads: the array and its CPU. */
struct trace_cpu_ref {
	struct trace_array *tr;
	int cpu;			/* or RING_BUFFER_ALL_CPUS */
};

struct trace_array {
	struct trace_buffer *buffer;	/* Linux: array_buffer.buffer */
	u64 time_start;			/* clock when last reset */
	struct tracer *current_trace;
	unsigned long trace_flags;	/* TRACE_ITER_* */
	int clock_id;
	unsigned long buffer_size;	/* bytes per CPU, as last set */
	struct ftrace_ops ops;		/* set_ftrace_filter's, for function */
	struct trace_pid_list *function_pids;	/* or trace_pid_every */
	/* func-no-repeats: each CPU's last call (trace_functions.c) */
	struct trace_func_repeats *last_func_repeats;
	struct trace_pid_list *event_pids;	/* set_event_pid, RCU */
	struct trace_pid_list *event_notrace_pids;	/* set_event_notrace_pid */
	struct trace_pid_list *function_no_pids;	/* set_ftrace_notrace_pid */
	struct list_head func_probes;	/* ftrace_func_probe, newest first */
	struct list_head mod_trace;	/* FUNC:mod:MODULE kept, filter */
	struct list_head mod_notrace;	/* and notrace (ftrace_mod.c) */
	int stop_count;			/* pause-on-trace readers */
	struct trace_buffer *max_buffer;	/* the snapshot, or NULL */
	int snapshot_readers;		/* open snapshot files that read it */
	unsigned int buffer_percent;	/* buffer_percent: no reader here
					 * waits on it (docs/tracefs.md) */
	/* An instance (trace_instance.c); the top level has no name. */
	const char *name;
	struct list_head list;		/* in trace_instances */
	struct inode *dir;		/* instances/NAME */
	int ref;			/* users that hold it (Linux's tr->ref) */
	struct trace_cpu_ref cpu_refs[NR_CPUS + 1];	/* [0]: all CPUs */
	struct list_head events;	/* an instance's own event files */
	void *option_files;		/* its options/ files of tracers */
	u8 trace_flags_index[32];	/* i at i: options/NAME's data */
	unsigned long max_latency;	/* tracing_max_latency, ns */
	spinlock_t max_lock;		/* the latency tracers' swaps */
	struct trace_max_data max_data;	/* of the trace in max_buffer */
	struct ftrace_pid_cache *pid_cache;	/* per CPU (trace_pid.c) */
	struct list_head err_log;	/* error_log (trace_error_log.c) */
	unsigned int n_err_log_entries;
	/* tracing_cpumask: every possible CPU by default, as Linux's */
	unsigned long tracing_cpumask;
};

extern struct trace_array global_trace;
extern struct mutex trace_types_lock;
extern unsigned long tracing_thresh;	/* ns; 0: off */

/* Words of a tracefs write, split in place at whitespace. */
static inline bool trace_isspace(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static inline char *trace_next_word(char **s)
{
	char *p = *s, *word;

	while (*p && trace_isspace(*p))
		p++;
	if (!*p)
		return NULL;
	word = p;
	while (*p && !trace_isspace(*p))
		p++;
	if (*p)
		*p++ = 0;
	*s = p;
	return word;
}

/* trace.c */
int register_tracer(struct tracer *type);
struct tracer *trace_types_list(void);
int tracing_set_tracer(struct trace_array *tr, const char *name);
void tracer_tracing_on(struct trace_array *tr);
void tracer_tracing_off(struct trace_array *tr);
bool tracer_tracing_is_on(struct trace_array *tr);
void tracing_reset_online_cpus(struct trace_array *tr);
int tracing_resize_ring_buffer(struct trace_array *tr, unsigned long size,
			       int cpu);
void tracing_graph_clock_follow(struct trace_array *tr);
int tracing_set_clock(struct trace_array *tr, const char *name);
int tracing_set_thresh(struct trace_array *tr, unsigned long usecs);
int trace_clock_at(int pos);
const char *trace_clock_name(int id);
int trace_clock_count(void);
u64 (*trace_clock_func(int id))(void);
bool trace_clock_in_ns(struct trace_array *tr);
u64 trace_clock_to_ns(struct trace_array *tr, u64 ts);
int set_tracer_flag(struct trace_array *tr, unsigned int mask, int enabled);
int trace_set_tracer_option(struct trace_array *tr, struct tracer *t,
			    const char *name, int set);
int trace_set_options(struct trace_array *tr, const char *option);
void tracing_stop_tr(struct trace_array *tr);
void tracing_start_tr(struct trace_array *tr);

/*
 * trace_functions_graph.c: the function_graph tracer. Its options,
 * with Linux's TRACE_GRAPH_PRINT_* bits, and its filters.
 */
enum {
	TRACE_GRAPH_PRINT_OVERRUN	= 0x1,
	TRACE_GRAPH_PRINT_CPU		= 0x2,
	TRACE_GRAPH_PRINT_OVERHEAD	= 0x4,
	TRACE_GRAPH_PRINT_PROC		= 0x8,
	TRACE_GRAPH_PRINT_DURATION	= 0x10,
	TRACE_GRAPH_PRINT_ABS_TIME	= 0x20,
	TRACE_GRAPH_PRINT_IRQS		= 0x80,
	TRACE_GRAPH_PRINT_TAIL		= 0x100,
	TRACE_GRAPH_SLEEP_TIME		= 0x200,
	TRACE_GRAPH_GRAPH_TIME		= 0x400,
};

extern unsigned int fgraph_max_depth;
void ftrace_graph_set_max_depth(unsigned long depth);
struct ftrace_hash *ftrace_graph_hash_copy(bool is_notrace);
void ftrace_graph_set_hash(struct ftrace_hash *hash, bool is_notrace);
void trace_graph_function(struct trace_array *tr, unsigned long ip, u32 ctx);

/* trace_graph_output.c: function_graph's text */
int graph_trace_open(struct trace_iterator *iter);
void graph_trace_close(struct trace_iterator *iter);
void print_graph_headers(struct trace_iterator *iter);
void print_graph_headers_flags(struct trace_iterator *iter, u32 flags);
enum print_line_t print_graph_function(struct trace_iterator *iter);
enum print_line_t print_graph_function_flags(struct trace_iterator *iter,
					     u32 flags);
void trace_print_graph_duration(u64 duration, struct seq_buf *s);

/* Linux's default: 1408 KiB per CPU (1410 once rounded to pages). */
#define TRACE_BUF_SIZE_DEFAULT	(1408UL << 10)

extern struct tracer nop_trace;

/* trace_instance.c: instances/NAME, each a trace array of its own */
struct trace_array *trace_array_of_inode(struct inode *inode);
struct trace_array *trace_array_get_by_name(const char *name);
void trace_array_put(struct trace_array *tr);
int trace_array_destroy(struct trace_array *tr);
void trace_instances_create_dir(struct inode *dir);
bool trace_ok_for_array(struct tracer *t, struct trace_array *tr);

/* trace_functions.c */
int register_ftrace_commands(void);
void function_trace_update_fast_path(struct trace_array *tr);

/* trace_snapshot.c: the snapshot buffer (Linux's max buffer) */
int tracing_alloc_snapshot_instance(struct trace_array *tr);
int tracing_free_snapshot(struct trace_array *tr);
int update_max_tr(struct trace_array *tr);
int update_max_tr_single(struct trace_array *tr, int cpu);
void tracing_snapshot_instance(struct trace_array *tr);
void tracing_snapshot(void);
struct trace_buffer *tracing_buffer_lock(struct trace_array *tr);
struct trace_buffer *tracing_buffer_trylock(struct trace_array *tr);
int register_snapshot_cmd(void);
int update_max_tr_irqsoff(struct trace_array *tr,
			  const struct trace_max_data *data);
int update_max_tr_latency(struct trace_array *tr,
			  const struct trace_max_data *data);

/* trace_latency_graph.c: the latency tracers' display-graph */
struct fgraph_ops;
int register_latency_function(struct trace_array *tr,
			      struct fgraph_ops *gops, bool graph);
void unregister_latency_function(struct trace_array *tr,
				 struct fgraph_ops *gops, bool graph);
int latency_display_graph(struct trace_array *tr, struct fgraph_ops *gops,
			  bool *graph, unsigned int mask, int set);
int latency_trace_open(struct trace_iterator *iter);
void latency_trace_close(struct trace_iterator *iter);
enum print_line_t latency_print_line(struct trace_iterator *iter);
void latency_print_header(struct trace_iterator *iter);

/*
 * Is delta (ns) a latency tracer's new maximum? With tracing_thresh
 * set, every section that long is one (Linux's report_latency).
 */
static inline bool report_latency(struct trace_array *tr, unsigned long delta)
{
	if (tracing_thresh)
		return delta >= tracing_thresh;
	return delta > READ_ONCE(tr->max_latency);
}
int tracing_snapshot_command(struct trace_array *tr, unsigned long val,
			     int cpu);

/* trace_stacktrace.c */
void __trace_stack(struct trace_array *tr, u32 trace_ctx, unsigned long ip);
void trace_event_stack(struct trace_array *tr, u32 trace_ctx);
void trace_event_caller(unsigned long *ip, unsigned long *parent_ip);
void trace_stack_from(struct trace_array *tr, u32 trace_ctx, unsigned long ip,
		      unsigned long from);

/* ftrace_profile.c: the function profiler, per CPU */
struct ftrace_profile {
	struct ftrace_profile *next;	/* in its hash chain */
	unsigned long ip;
	unsigned long counter;		/* hits */
	unsigned long long time;	/* entry to return, summed (clock units) */
	unsigned long long time_squared;
};

int ftrace_profile_set_enabled(bool enable);
void ftrace_profile_graph_time_control(bool enable);
const struct ftrace_profile *ftrace_profile_lookup(int cpu, unsigned long ip);
void ftrace_profile_tracefs(struct inode *dir);

/* trace_stack.c: the stack tracer */
#define STACK_TRACE_ENTRIES	500

/* The deepest stack seen: a return address and its depth per row. */
struct stack_trace_copy {
	unsigned long max_size;		/* stack_max_size */
	unsigned int nr_entries;
	unsigned long dump_trace[STACK_TRACE_ENTRIES];
	unsigned int index[STACK_TRACE_ENTRIES];	/* depth, in bytes */
};

extern struct ftrace_ops stack_trace_ops;
extern unsigned long stack_trace_max_size;
int stack_trace_sysctl(int enable);
void stack_trace_copy(struct stack_trace_copy *c);
void stack_trace_set_max(unsigned long size);
void stack_trace_init(struct inode *dir);

/* trace_cpumask.c: tracing_cpumask */
void tracing_cpumask_init(struct trace_array *tr, struct inode *dir);

/* trace_selftest.c: a selftest suite's init that skips while tracing */
struct kunit;
void tracing_selftest_need_defaults(struct kunit *t);

/* An event's first three words (the context word first) and its time. */
struct selftest_event {
	u64 ts;
	u32 word[3];
};

int tracing_selftest_consume(struct selftest_event *ev, int max);
u32 tracing_selftest_call_in_context(int c, long (*fn)(long));
#define SELFTEST_CONTEXTS	6
/* The context-word bit a tick may change between two reads of it. */
#define SELFTEST_CTX_VOLATILE	\
	(TRACE_FLAG_NEED_RESCHED << TRACE_CTX_FLAGS_SHIFT)

/* trace_error_log.c: error_log */
void tracing_log_err(struct trace_array *tr, const char *loc,
		     const char *cmd, const char *const *errs, u8 type, u16 pos);
void tracing_err_log_create_file(struct trace_array *tr, struct inode *dir);
void clear_tracing_err_log(struct trace_array *tr);

/* trace_printk.c */
void trace_seq_bprint(struct seq_buf *s, const struct bprint_entry *field,
		      unsigned int len);
void printk_formats_show(struct seq_buf *s, long data);

/* trace_marker.c */
ssize_t tracing_mark_write(struct trace_array *tr, const char *ubuf,
			   size_t cnt);
ssize_t tracing_mark_raw_write(struct trace_array *tr, const char *ubuf,
			       size_t cnt);
int trace_print_record(struct trace_array *tr, unsigned long ip,
		       const char *text, size_t len);

/* trace_cmdline.c: saved_cmdlines, pid to comm at read time */
void tracing_record_cmdline(struct task *t);
void tracing_start_cmdline_record(void);
void trace_find_cmdline(int pid, char comm[TASK_COMM_LEN]);
void trace_saved_cmdlines_show(struct seq_buf *seq, long data);
int trace_alloc_tgid_map(void);
void trace_saved_tgids_show(struct seq_buf *seq, long data);
void trace_saved_cmdlines_size_show(struct seq_buf *seq, long data);
int trace_saved_cmdlines_size_store(char *buf, struct file *file, long data);

/* trace_pid.c: set_ftrace_pid */
bool trace_pid_list_is_set(struct trace_pid_list *list, int pid);
int trace_pid_write(struct trace_array *tr, const char *buf, bool append);
int trace_pid_list_parse(struct trace_pid_list *old, const char *buf,
			 bool append, struct trace_pid_list **out);
void trace_pid_list_free(struct trace_pid_list *list);
void trace_filter_add_remove_task(struct trace_pid_list **dst,
				  struct task *parent, struct task *task);
unsigned int trace_pid_list_count(const struct trace_pid_list *list);
void trace_pid_list_show(struct trace_pid_list *list, struct seq_buf *s);
void trace_pid_show(struct trace_array *tr, struct seq_buf *s);
/* Each CPU's last task and its answer, on a line of its own. */
struct ftrace_pid_cache {
	int pid;			/* -1: ask the list */
	bool ok;
} ____cacheline_aligned;

int ftrace_pid_cache_alloc(struct trace_array *tr);
void ftrace_pid_cache_free(struct trace_array *tr);
bool ftrace_pid_cache_fill(struct trace_array *tr,
			   struct trace_pid_list *pids,
			   struct ftrace_pid_cache *c, int pid);
void ftrace_pid_follow_fork(struct trace_array *tr, bool enable);
void trace_event_follow_fork(struct trace_array *tr, bool enable);
int trace_notrace_pid_write(struct trace_array *tr, const char *buf,
			    bool append);
void trace_notrace_pid_show(struct trace_array *tr, struct seq_buf *s);
/* Is current filtered out by tr's set_ftrace_pid? Cached per CPU by pid. */
static inline bool ftrace_pid_ignored(struct trace_array *tr)
{
	struct trace_pid_list *pids = READ_ONCE(tr->function_pids);
	struct ftrace_pid_cache *c;

	if (likely(!pids))
		return false;
	c = &tr->pid_cache[this_cpu()->id];
	if (c->pid != current->pid)
		return !ftrace_pid_cache_fill(tr, pids, c, current->pid);
	return !c->ok;
}

/* ---- reading: trace, trace_pipe, per_cpu/cpuN/trace ------------------- */

#define RING_BUFFER_ALL_CPUS	-1

/* iter_flags, fixed when the file is opened (Linux's TRACE_FILE_*). */
#define TRACE_FILE_LAT_FMT	0x1
#define TRACE_FILE_ANNOTATE	0x2
#define TRACE_FILE_TIME_IN_NS	0x4

/* Linux's struct trace_iterator: one open trace or trace_pipe. */
struct trace_iterator {
	struct trace_array *tr;
	struct tracer *trace;		/* the tracer when opened */
	void *private;			/* the tracer's, from open to close */
	int cpu_file;			/* a CPU or RING_BUFFER_ALL_CPUS */
	bool consume;			/* trace_pipe */
	unsigned long iter_flags;
	unsigned long trace_flags;	/* the options when opened */
	/* The entry being printed, copied out of the buffer. */
	struct trace_entry *ent;
	unsigned int ent_size;		/* its bytes */
	void *ent_buf;
	int cpu;
	u64 ts;
	unsigned long lost_events;
	long idx;			/* entries read so far, from 0 */
	unsigned long started;		/* CPUs whose first entry was seen */
	struct seq_buf seq;		/* text not yet read */
	size_t seq_pos;
	unsigned long skipped_entries;	/* max trace: before its section */
	struct trace_array *max_of;	/* tr is a copy reading its max_buffer */
	struct ring_buffer_iter *buffer_iter[];	/* one per CPU */
};

/* trace_iter.c */
struct trace_entry *trace_find_next_entry(struct trace_iterator *iter,
					  int *ent_cpu, u64 *ent_ts);
bool trace_empty(struct trace_iterator *iter);
struct trace_entry *trace_iter_peek_cpu(struct trace_iterator *iter);
void trace_iter_skip_cpu(struct trace_iterator *iter);
void get_total_entries(struct trace_array *tr, unsigned long *total,
		       unsigned long *entries);
void ftrace_dump(bool all_cpus);

/* trace_output.c */
void print_trace_line(struct trace_iterator *iter);
bool trace_print_msg(struct trace_iterator *iter);
void trace_raw_data(struct trace_iterator *iter);
void trace_ctxwake_print(struct trace_iterator *iter);
void trace_print_header(struct trace_iterator *iter);
void trace_default_header(struct trace_iterator *iter);
void print_trace_header(struct trace_iterator *iter);
void trace_print_lat_fmt(struct seq_buf *s, struct trace_entry *entry);
char trace_find_mark(unsigned long long d);
void seq_print_ip_sym(struct seq_buf *s, unsigned long ip,
		      unsigned long sym_flags);

/* ftrace_probe.c: set_ftrace_filter commands (FUNC:cmd[:N]) */
struct ftrace_probe_ops {
	const char *name;		/* the command: traceon, ... */
	void (*func)(unsigned long ip, unsigned long parent_ip,
		     struct trace_array *tr, struct ftrace_probe_ops *ops,
		     long *count);
	bool counted;			/* FUNC:cmd:N; listed with count=N */
	/* The probe left its last function: called under the probe lock. */
	void (*free)(struct ftrace_probe_ops *ops);
};

struct ftrace_func_command {
	const char *name;
	int (*func)(struct trace_array *tr, const char *glob, int len,
		    const char *param, bool remove);
	struct ftrace_func_command *next;
};

int register_ftrace_command(struct ftrace_func_command *cmd);
int register_ftrace_function_probe(const char *glob, int len,
				   struct trace_array *tr,
				   struct ftrace_probe_ops *ops, long count);
int unregister_ftrace_function_probe_func(const char *glob, int len,
					  struct trace_array *tr,
					  struct ftrace_probe_ops *ops);
int ftrace_process_command(struct trace_array *tr, char *token);
int ftrace_trace_probe_callback(struct trace_array *tr,
				struct ftrace_probe_ops *ops,
				const char *glob, int len,
				const char *param, bool remove);
bool probe_spend_count(long *count);
void clear_ftrace_function_probes(struct trace_array *tr);
void ftrace_probes_show(struct trace_array *tr, struct seq_buf *s);

/* ftrace_mod.c: FUNC:mod:MODULE, kept for modules never loaded */
int ftrace_mod_command(struct list_head *head, struct ftrace_hash *hash,
		       const char *func, const char *module);
void ftrace_mod_clear(struct list_head *head);
void ftrace_mod_show(struct list_head *head, struct seq_buf *s);

/* tracefs.c, ftrace_files.c, trace_iter.c: the files of the tracefs tree */
void trace_create_files(struct inode *dir);
void init_tracer_tracefs(struct trace_array *tr, struct inode *dir);
struct inode *tracefs_mkdir_filled(struct trace_array *tr,
				   struct inode *parent, const char *name,
				   void (*populate)(struct inode *dir));
void ftrace_create_files(struct inode *dir);
void ftrace_create_tr_files(struct trace_array *tr, struct inode *dir);
struct inode *ftrace_create_filter_file(struct inode *dir, const char *name,
					struct ftrace_ops *ops);
extern const struct file_operations tracing_fops, tracing_pipe_fops;
extern const struct file_operations tracing_snapshot_fops;
/* per_cpu/cpuN/trace_pipe_raw (trace/trace_pipe_raw.c) */
extern const struct file_operations tracing_buffers_fops;

#endif
