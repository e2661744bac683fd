/*
 * trace_graph_output.c: the text of a function_graph trace, the print
 * half of Linux's trace_functions_graph.c, byte for byte as Linux 6.1:
 *
 *    0)               |  fib() {          an entry, its return later
 *    0)   0.300 us    |    fib();         an entry and its return: a leaf
 *    0) + 12.100 us   |  }                a return
 *
 * A return whose entry was lost (overwritten) names its function in a
 * comment after the brace, as funcgraph-tail does for every return.
 * The duration column marks + > 10 us, ! > 100 us, # > 1 ms, * > 10 ms,
 * @ > 100 ms, $ > 1 s. A leaf is found as Linux finds it: after an
 * entry, peek at the next event of the same CPU, and if it is that
 * call's return, print both as one line and skip the return.
 *
 * Per CPU, an open trace file remembers the last task (a banner shows
 * each switch), the depth (for comments), each depth's function (to
 * tell a return whose entry was overwritten) and, with funcgraph-irqs
 * off, the depth of the interrupt being hidden. The interrupt handler
 * do_irq lives in .irqentry.text, and its entry and return are framed
 * by ==========> and <========== lines, as on x86.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "printf.h"
#include "time.h"
#include "irq.h"
#include "fgraph.h"
#include "trace_events.h"

#define TRACE_GRAPH_INDENT		2
#define TRACE_GRAPH_PROCINFO_LENGTH	14

/* What the DURATION column holds when there is no duration. */
enum {
	FLAGS_FILL_FULL		= 1 << 28,
	FLAGS_FILL_START	= 2 << 28,
	FLAGS_FILL_END		= 3 << 28,
	FLAGS_FILL_MASK		= 3 << 28,
};

struct fgraph_cpu_data {
	int last_pid;			/* -1: none yet */
	int depth;			/* where a comment goes */
	int depth_irq;			/* -1: not hiding an interrupt */
	unsigned long enter_funcs[FTRACE_RETFUNC_DEPTH];
};

static u32 graph_flags(struct trace_iterator *iter)
{
	return iter->trace->flags->val;
}

static struct fgraph_cpu_data *cpu_data(struct trace_iterator *iter)
{
	return (struct fgraph_cpu_data *)iter->private + iter->cpu;
}

static bool context_info(struct trace_iterator *iter)
{
	return iter->trace_flags & TRACE_ITER_CONTEXT_INFO;
}

/* ---- the columns --------------------------------------------------------- */

/* Width of the CPU column: the digits of the highest CPU number. */
static int max_bytes_for_cpu(void)
{
	return snprintf(NULL, 0, "%d", trace_nr_cpus() - 1);
}

static void print_graph_cpu(struct seq_buf *s, int cpu)
{
	seq_printf(s, " %*d) ", max_bytes_for_cpu(), cpu);
}

/* COMM-PID, comm cut to 7 characters, centred in 14 columns. */
static void print_graph_proc(struct seq_buf *s, int pid)
{
	char comm[TASK_COMM_LEN], pid_str[12];
	int len, spaces = 0;

	trace_find_cmdline(pid, comm);
	comm[7] = 0;
	snprintf(pid_str, sizeof(pid_str), "%d", pid);
	len = strlen(comm) + strlen(pid_str) + 1;
	if (len < TRACE_GRAPH_PROCINFO_LENGTH)
		spaces = TRACE_GRAPH_PROCINFO_LENGTH - len;
	seq_printf(s, "%*s%s-%s%*s", spaces / 2, "", comm, pid_str,
		   spaces - spaces / 2, "");
}

static void print_graph_abs_time(u64 t, struct seq_buf *s)
{
	seq_printf(s, "%5lu.%06lu |  ", (unsigned long)(t / NSEC_PER_SEC),
		   (unsigned long)(t % NSEC_PER_SEC / 1000));
}

/* The banner of a task switch on this CPU. */
static void verif_pid(struct trace_iterator *iter, int pid)
{
	struct fgraph_cpu_data *data = cpu_data(iter);
	struct seq_buf *s = &iter->seq;
	int prev_pid = data->last_pid;

	if (prev_pid == pid)
		return;
	data->last_pid = pid;
	if (prev_pid == -1)
		return;
	seq_puts(s, " ------------------------------------------\n");
	print_graph_cpu(s, iter->cpu);
	print_graph_proc(s, prev_pid);
	seq_puts(s, " => ");
	print_graph_proc(s, pid);
	seq_puts(s, "\n ------------------------------------------\n\n");
}

/* The time, CPU and task columns that start a line, as enabled. */
static void print_graph_context(struct trace_iterator *iter, int pid,
				u32 flags)
{
	struct seq_buf *s = &iter->seq;

	if (!context_info(iter))
		return;
	if (flags & TRACE_GRAPH_PRINT_ABS_TIME)
		print_graph_abs_time(iter->ts, s);
	if (flags & TRACE_GRAPH_PRINT_CPU)
		print_graph_cpu(s, iter->cpu);
	if (flags & TRACE_GRAPH_PRINT_PROC) {
		print_graph_proc(s, pid);
		seq_puts(s, " | ");
	}
}

/*
 * usecs.nsecs in at most 7 digits (the nsecs cut, not rounded), then
 * " us " and spaces to a fixed width: Linux's trace_print_graph_duration.
 */
void trace_print_graph_duration(u64 duration, struct seq_buf *s)
{
	char usecs_str[24], nsecs_str[5];
	int len = snprintf(usecs_str, sizeof(usecs_str), "%llu",
			   duration / 1000);

	seq_puts(s, usecs_str);
	if (len < 7) {
		snprintf(nsecs_str, min(sizeof(nsecs_str), 8UL - len), "%03llu",
			 duration % 1000);
		seq_printf(s, ".%s", nsecs_str);
		len += strlen(nsecs_str) + 1;
	}
	seq_printf(s, " us %*s", len < 8 ? 8 - len : 0, "");
}

static void print_graph_duration(struct trace_iterator *iter, u64 duration,
				 u32 flags)
{
	struct seq_buf *s = &iter->seq;

	if (!(flags & TRACE_GRAPH_PRINT_DURATION) || !context_info(iter))
		return;
	switch (flags & FLAGS_FILL_MASK) {
	case FLAGS_FILL_FULL:
		seq_puts(s, "              |  ");
		return;
	case FLAGS_FILL_START:
		seq_puts(s, "  ");
		return;
	case FLAGS_FILL_END:
		seq_puts(s, " |");
		return;
	}
	if (flags & TRACE_GRAPH_PRINT_OVERHEAD)
		seq_printf(s, "%c ", trace_find_mark(duration));
	else
		seq_puts(s, "  ");
	trace_print_graph_duration(duration, s);
	seq_puts(s, "|  ");
}

/* The ==========> before the handler's entry, <========== after its return. */
static void print_graph_irq(struct trace_iterator *iter, unsigned long addr,
			    enum trace_type type, int pid, u32 flags)
{
	if (!in_irqentry_text(addr))
		return;
	print_graph_context(iter, pid, flags);
	print_graph_duration(iter, 0, flags | FLAGS_FILL_START);
	seq_puts(&iter->seq, type == TRACE_GRAPH_ENT ? "==========>" :
						      "<==========");
	print_graph_duration(iter, 0, flags | FLAGS_FILL_END);
	seq_puts(&iter->seq, "\n");
}

static void print_graph_prologue(struct trace_iterator *iter,
				 enum trace_type type, unsigned long addr,
				 u32 flags)
{
	int pid = entry_pid(iter->ent);

	verif_pid(iter, pid);
	if (type)
		print_graph_irq(iter, addr, type, pid, flags);
	print_graph_context(iter, pid, flags);
	/* latency-format: the flag columns, as Linux's print_graph_lat_fmt */
	if (context_info(iter) &&
	    (iter->trace_flags & TRACE_ITER_LATENCY_FMT)) {
		seq_puts(&iter->seq, " ");
		trace_print_lat_fmt(&iter->seq, iter->ent);
		seq_puts(&iter->seq, " | ");
	}
}

static void print_graph_indent(struct seq_buf *s, int depth)
{
	seq_printf(s, "%*s", depth * TRACE_GRAPH_INDENT, "");
}

/* ---- entries and returns ------------------------------------------------- */

/* This call's return, if it is the next event of the CPU: then skip it. */
static bool get_return_for_leaf(struct trace_iterator *iter,
				struct ftrace_graph_ent_entry *curr,
				struct ftrace_graph_ret_entry *ret)
{
	struct trace_entry *next = trace_iter_peek_cpu(iter);

	if (!next || entry_type(next) != TRACE_GRAPH_RET)
		return false;
	*ret = *(struct ftrace_graph_ret_entry *)next;
	if (entry_pid(&curr->ent) != entry_pid(&ret->ent) ||
	    curr->func != ret->func)
		return false;
	trace_iter_skip_cpu(iter);
	return true;
}

static void remember_func(struct fgraph_cpu_data *data, int depth,
			  unsigned long func)
{
	if (depth >= 0 && depth < FTRACE_RETFUNC_DEPTH)
		data->enter_funcs[depth] = func;
}

static void print_graph_entry_leaf(struct trace_iterator *iter,
				   struct ftrace_graph_ent_entry *entry,
				   struct ftrace_graph_ret_entry *ret,
				   u32 flags)
{
	struct fgraph_cpu_data *data = cpu_data(iter);
	int depth = entry->depth;

	/* Comments go one level in: here, level with the leaf. */
	data->depth = depth - 1;
	remember_func(data, depth, 0);
	print_graph_duration(iter, trace_clock_to_ns(iter->tr, ret->duration),
			     flags);
	print_graph_indent(&iter->seq, depth);
	seq_printf(&iter->seq, "%ps();\n", (void *)(unsigned long)entry->func);
	print_graph_irq(iter, ret->func, TRACE_GRAPH_RET, entry_pid(iter->ent),
			flags);
}

static void print_graph_entry_nested(struct trace_iterator *iter,
				     struct ftrace_graph_ent_entry *entry,
				     u32 flags)
{
	struct fgraph_cpu_data *data = cpu_data(iter);

	data->depth = entry->depth;
	remember_func(data, entry->depth, entry->func);
	print_graph_duration(iter, 0, flags | FLAGS_FILL_FULL);
	print_graph_indent(&iter->seq, entry->depth);
	seq_printf(&iter->seq, "%ps() {\n", (void *)(unsigned long)entry->func);
}

/*
 * funcgraph-irqs off: hide everything from the handler's entry to its
 * return (true: hidden).
 */
static bool check_irq_entry(struct trace_iterator *iter, u32 flags,
			    unsigned long addr, int depth)
{
	struct fgraph_cpu_data *data = cpu_data(iter);

	if (flags & TRACE_GRAPH_PRINT_IRQS)
		return false;
	if (data->depth_irq >= 0)
		return true;
	if (!in_irqentry_text(addr))
		return false;
	data->depth_irq = depth;
	return true;
}

/* Leaving the handler's depth (even if its return was lost) ends it. */
static bool check_irq_return(struct trace_iterator *iter, u32 flags,
			     int depth)
{
	struct fgraph_cpu_data *data = cpu_data(iter);

	if ((flags & TRACE_GRAPH_PRINT_IRQS) || data->depth_irq == -1)
		return false;
	if (data->depth_irq >= depth)
		data->depth_irq = -1;
	return true;
}

static void print_graph_entry(struct trace_iterator *iter, u32 flags)
{
	struct ftrace_graph_ent_entry entry =
		*(struct ftrace_graph_ent_entry *)iter->ent;
	struct ftrace_graph_ret_entry ret;

	if (check_irq_entry(iter, flags, entry.func, entry.depth))
		return;
	print_graph_prologue(iter, TRACE_GRAPH_ENT, entry.func, flags);
	if (get_return_for_leaf(iter, &entry, &ret))
		print_graph_entry_leaf(iter, &entry, &ret, flags);
	else
		print_graph_entry_nested(iter, &entry, flags);
}

/* Did the entry at this depth on this CPU, printed, call this function? */
static bool entry_matches(struct fgraph_cpu_data *data, int depth,
			  unsigned long func)
{
	bool match = true;

	if (depth >= 0 && depth < FTRACE_RETFUNC_DEPTH) {
		match = data->enter_funcs[depth] == func;
		data->enter_funcs[depth] = 0;
	}
	return match;
}

static void print_graph_return(struct trace_iterator *iter, u32 flags)
{
	struct ftrace_graph_ret_entry *ret =
		(struct ftrace_graph_ret_entry *)iter->ent;
	struct fgraph_cpu_data *data = cpu_data(iter);
	struct seq_buf *s = &iter->seq;
	int depth = ret->depth;
	bool func_match;

	if (check_irq_return(iter, flags, depth))
		return;
	/* Comments go one level in: here, level with the brace. */
	data->depth = depth - 1;
	func_match = entry_matches(data, depth, ret->func);
	print_graph_prologue(iter, 0, 0, flags);
	print_graph_duration(iter, trace_clock_to_ns(iter->tr, ret->duration),
			     flags);
	print_graph_indent(s, depth);
	/* A lost entry leaves the reader guessing: name the function. */
	if (func_match && !(flags & TRACE_GRAPH_PRINT_TAIL))
		seq_puts(s, "}\n");
	else
		seq_printf(s, "} /* %ps */\n",
			   (void *)(unsigned long)ret->func);
	if (flags & TRACE_GRAPH_PRINT_OVERRUN)
		seq_printf(s, " (Overruns: %u)\n",
			   graph_ret_overrun(ret, iter->ent_size));
	print_graph_irq(iter, ret->func, TRACE_GRAPH_RET, entry_pid(iter->ent),
			flags);
}

/*
 * trace_marker's or trace_printk's text, a trace event's line or a
 * wakeup tracer's wake-up or switch, as a C comment in the call tree,
 * as Linux shows them: between slash-star and star-slash.
 */
static void print_graph_comment(struct trace_iterator *iter, u32 flags)
{
	int depth = cpu_data(iter)->depth;
	struct seq_buf *s = &iter->seq;

	print_graph_prologue(iter, 0, 0, flags);
	print_graph_duration(iter, 0, flags | FLAGS_FILL_FULL);
	if (depth > 0)
		print_graph_indent(s, depth + 1);
	seq_puts(s, "/* ");
	if (entry_type(iter->ent) == TRACE_RAW_EVENT)
		trace_event_print(s, iter->ent);
	else if (entry_type(iter->ent) == TRACE_RAW_DATA)
		trace_raw_data(iter);
	else if (entry_type(iter->ent) == TRACE_CTX ||
		 entry_type(iter->ent) == TRACE_WAKE)
		trace_ctxwake_print(iter);
	else
		trace_print_msg(iter);
	if (!s->overflow && s->len && s->buf[s->len - 1] == '\n')
		s->len--;
	seq_puts(s, " */\n");
}

/*
 * One event as a line of the call graph, with these TRACE_GRAPH_PRINT_*
 * columns; other events print the default way. The latency tracers
 * pass their own flags (display-graph).
 */
enum print_line_t print_graph_function_flags(struct trace_iterator *iter,
					     u32 flags)
{
	switch (entry_type(iter->ent)) {
	case TRACE_GRAPH_ENT:
		print_graph_entry(iter, flags);
		return TRACE_TYPE_HANDLED;
	case TRACE_GRAPH_RET:
		print_graph_return(iter, flags);
		return TRACE_TYPE_HANDLED;
	case TRACE_PRINT:
	case TRACE_BPRINT:
	case TRACE_RAW_DATA:
	case TRACE_RAW_EVENT:
	case TRACE_CTX:
	case TRACE_WAKE:
		print_graph_comment(iter, flags);
		return TRACE_TYPE_HANDLED;
	default:
		return TRACE_TYPE_UNHANDLED;
	}
}

/* The tracer's print_line: its options choose the columns. */
enum print_line_t print_graph_function(struct trace_iterator *iter)
{
	return print_graph_function_flags(iter, graph_flags(iter));
}

/* ---- the header ---------------------------------------------------------- */

/* latency-format's flag columns, indented past the columns before them. */
static void print_graph_lat_header(struct seq_buf *s, u32 flags)
{
	int size = (flags & TRACE_GRAPH_PRINT_ABS_TIME ? 16 : 0) +
		   (flags & TRACE_GRAPH_PRINT_CPU ? 4 : 0) +
		   (flags & TRACE_GRAPH_PRINT_PROC ? 17 : 0);
	const char *sp = "                                     ";	/* 37 */

	seq_printf(s, "#%.*s  _-----=> irqs-off        \n", size, sp);
	seq_printf(s, "#%.*s / _----=> need-resched    \n", size, sp);
	seq_printf(s, "#%.*s| / _---=> hardirq/softirq \n", size, sp);
	seq_printf(s, "#%.*s|| / _--=> preempt-depth   \n", size, sp);
	seq_printf(s, "#%.*s||| /                      \n", size, sp);
}

/*
 * Linux's print_graph_headers_flags; with latency-format, the latency
 * header first, and nothing at all while the buffer is empty.
 */
void print_graph_headers_flags(struct trace_iterator *iter, u32 flags)
{
	struct seq_buf *s = &iter->seq;
	bool lat = iter->trace_flags & TRACE_ITER_LATENCY_FMT;

	if (!context_info(iter) || (lat && trace_empty(iter)))
		return;
	if (lat) {
		print_trace_header(iter);
		print_graph_lat_header(s, flags);
	}
	seq_puts(s, "#");
	if (flags & TRACE_GRAPH_PRINT_ABS_TIME)
		seq_puts(s, "     TIME       ");
	if (flags & TRACE_GRAPH_PRINT_CPU)
		seq_puts(s, " CPU");
	if (flags & TRACE_GRAPH_PRINT_PROC)
		seq_puts(s, "  TASK/PID       ");
	if (lat)
		seq_puts(s, "||||   ");
	if (flags & TRACE_GRAPH_PRINT_DURATION)
		seq_puts(s, "  DURATION   ");
	seq_puts(s, "               FUNCTION CALLS\n#");
	if (flags & TRACE_GRAPH_PRINT_ABS_TIME)
		seq_puts(s, "      |         ");
	if (flags & TRACE_GRAPH_PRINT_CPU)
		seq_puts(s, " |  ");
	if (flags & TRACE_GRAPH_PRINT_PROC)
		seq_puts(s, "   |    |        ");
	if (lat)
		seq_puts(s, "||||   ");
	if (flags & TRACE_GRAPH_PRINT_DURATION)
		seq_puts(s, "   |   |      ");
	seq_puts(s, "               |   |   |   |\n");
}

void print_graph_headers(struct trace_iterator *iter)
{
	print_graph_headers_flags(iter, graph_flags(iter));
}

/* ---- per open file ------------------------------------------------------- */

/* Without its per-CPU state no line could be drawn: -ENOMEM. */
int graph_trace_open(struct trace_iterator *iter)
{
	int cpu, nr = trace_nr_cpus();
	struct fgraph_cpu_data *data = kzalloc(nr * sizeof(*data));

	if (!data)
		return -ENOMEM;
	for (cpu = 0; cpu < nr; cpu++) {
		data[cpu].last_pid = -1;
		data[cpu].depth_irq = -1;
	}
	iter->private = data;
	return 0;
}

void graph_trace_close(struct trace_iterator *iter)
{
	kfree(iter->private);
	iter->private = NULL;
}
