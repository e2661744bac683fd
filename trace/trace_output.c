/*
 * trace_output.c: the text of a trace (Linux's trace_output.c and the
 * header printers of trace.c): the context columns of each line
 * (TASK-PID, CPU, the irqs-off / need-resched / hardirq / preempt-depth
 * flags, the time stamp), the events themselves, and the headers, all
 * byte for byte as Linux 6.1 prints them, options included.
 */
#include "kernel.h"
#include "string.h"
#include "kallsyms.h"
#include "trace_events.h"

/* ---- symbols ------------------------------------------------------------- */

static void trace_seq_print_sym(struct seq_buf *s, unsigned long address,
				bool offset)
{
	char str[KSYM_NAME_LEN + 32];

	if (sprint_symbol(str, sizeof(str), address, offset))
		seq_puts(s, str);
	else
		seq_printf(s, "0x%08lx", address);
}

void seq_print_ip_sym(struct seq_buf *s, unsigned long ip,
		      unsigned long sym_flags)
{
	if (!ip) {
		seq_puts(s, "0");
		return;
	}
	trace_seq_print_sym(s, ip, sym_flags & TRACE_ITER_SYM_OFFSET);
	if (sym_flags & TRACE_ITER_SYM_ADDR)
		seq_printf(s, " <%016lx>", ip);
}

/* ---- the context columns -------------------------------------------------- */

/* Linux's ns2usecs: rounded, not cut. */
static u64 ns2usecs(u64 ns)
{
	return (ns + 500) / 1000;
}

/* irqs-off, need-resched, hardirq/softirq, preempt-depth, migrate-disable */
void trace_print_lat_fmt(struct seq_buf *s, struct trace_entry *entry)
{
	unsigned int flags = entry_flags(entry);
	unsigned int pc = entry_preempt_count(entry);

	seq_printf(s, "%c%c%c", flags & TRACE_FLAG_IRQS_OFF ? 'd' : '.',
		   flags & TRACE_FLAG_NEED_RESCHED ? 'n' : '.',
		   flags & TRACE_FLAG_HARDIRQ ? 'h' : '.');
	if (pc)
		seq_printf(s, "%x.", pc);
	else
		seq_puts(s, "..");
}

static void trace_print_context(struct trace_iterator *iter)
{
	struct seq_buf *s = &iter->seq;
	int pid = entry_pid(iter->ent);
	char comm[TASK_COMM_LEN];

	trace_find_cmdline(pid, comm);
	seq_printf(s, "%16s-%-7d ", comm, pid);
	/* Every thread here is its own thread group: tgid is the pid. */
	if (iter->trace_flags & TRACE_ITER_RECORD_TGID) {
		if (pid)
			seq_printf(s, "(%7d) ", pid);
		else
			seq_puts(s, "(-------) ");
	}
	seq_printf(s, "[%03d] ", iter->cpu);
	if (iter->trace_flags & TRACE_ITER_IRQ_INFO)
		trace_print_lat_fmt(s, iter->ent);
	if (iter->iter_flags & TRACE_FILE_TIME_IN_NS) {
		u64 t = ns2usecs(iter->ts);

		seq_printf(s, " %5lu.%06lu: ", (unsigned long)(t / 1000000),
			   (unsigned long)(t % 1000000));
	} else {
		seq_printf(s, " %12llu: ", iter->ts);
	}
}

/*
 * The mark of a duration or delay d (ns), as latency-format's delay
 * column and function_graph's duration column show it.
 */
char trace_find_mark(unsigned long long d)
{
	static const struct {
		unsigned long long val;
		char sym;
	} mark[] = {
		{ 1000000000ULL, '$' }, { 100000000ULL, '@' },
		{ 10000000ULL, '*' }, { 1000000ULL, '#' },
		{ 100000ULL, '!' }, { 10000ULL, '+' },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mark); i++)
		if (d > mark[i].val)
			return mark[i].sym;
	return ' ';
}

/*
 * latency-format's time since the buffer was reset and the delay mark,
 * or with verbose both times in ms (Linux's lat_print_timestamp).
 */
static void lat_print_timestamp(struct trace_iterator *iter, u64 next_ts)
{
	bool verbose = iter->trace_flags & TRACE_ITER_VERBOSE;
	u64 abs_ts = iter->ts - trace_clock_to_ns(iter->tr,
						  iter->tr->time_start);
	u64 rel_ts = next_ts - iter->ts;
	struct seq_buf *s = &iter->seq;

	if (iter->iter_flags & TRACE_FILE_TIME_IN_NS) {
		abs_ts = ns2usecs(abs_ts);
		rel_ts = ns2usecs(rel_ts);
		if (verbose)
			seq_printf(s, "[%08llx] %llu.%03llums (+%llu.%03llums): ",
				   ns2usecs(iter->ts), abs_ts / 1000,
				   abs_ts % 1000, rel_ts / 1000, rel_ts % 1000);
		else
			seq_printf(s, " %4lluus%c: ", abs_ts,
				   trace_find_mark(rel_ts * 1000));
	} else if (verbose) {
		seq_printf(s, "[%016llx] %llu (+%llu): ", iter->ts, abs_ts,
			   rel_ts);
	} else {
		seq_printf(s, " %4llu: ", abs_ts);
	}
}

/*
 * latency-format's context: task, CPU and flags, or with verbose the
 * raw flags, preempt depth and the event's index.
 */
static void trace_print_lat_context(struct trace_iterator *iter)
{
	struct seq_buf *s = &iter->seq;
	struct trace_entry *entry = iter->ent;
	int pid = entry_pid(entry), cpu = iter->cpu;
	char comm[TASK_COMM_LEN];
	u64 next_ts;

	if (!trace_find_next_entry(iter, NULL, &next_ts))
		next_ts = iter->ts;
	trace_find_cmdline(pid, comm);
	if (iter->trace_flags & TRACE_ITER_VERBOSE) {
		seq_printf(s, "%16s %7d %3d %d %08x %08lx ", comm, pid, cpu,
			   entry_linux_flags(entry),
			   entry_preempt_count(entry) & 0xf, iter->idx);
	} else {
		seq_printf(s, "%8.8s-%-7d %3d", comm, pid, cpu);
		trace_print_lat_fmt(s, entry);
	}
	lat_print_timestamp(iter, next_ts);
}

/* ---- events ----------------------------------------------------------- */

static void trace_fn_trace(struct trace_iterator *iter)
{
	struct ftrace_entry *field = (struct ftrace_entry *)iter->ent;
	struct seq_buf *s = &iter->seq;

	seq_print_ip_sym(s, field->ip, iter->trace_flags);
	if ((iter->trace_flags & TRACE_ITER_PRINT_PARENT) && field->parent_ip) {
		seq_puts(s, " <-");
		seq_print_ip_sym(s, field->parent_ip, iter->trace_flags);
	}
	seq_puts(s, "\n");
}

/* A time stamp as the context column shows it (Linux's trace_print_time). */
static void trace_print_time(struct trace_iterator *iter, u64 ts)
{
	if (iter->iter_flags & TRACE_FILE_TIME_IN_NS) {
		u64 t = ns2usecs(ts);

		seq_printf(&iter->seq, " %5lu.%06lu",
			   (unsigned long)(t / 1000000),
			   (unsigned long)(t % 1000000));
	} else {
		seq_printf(&iter->seq, " %12llu", ts);
	}
}

/* Linux's trace_func_repeats_print: the call, its count and last time. */
static void trace_func_repeats_print(struct trace_iterator *iter)
{
	struct func_repeats_entry *field = (struct func_repeats_entry *)iter->ent;
	struct seq_buf *s = &iter->seq;

	seq_print_ip_sym(s, field->ip, iter->trace_flags);
	if ((iter->trace_flags & TRACE_ITER_PRINT_PARENT) && field->parent_ip) {
		seq_puts(s, " <-");
		seq_print_ip_sym(s, field->parent_ip, iter->trace_flags);
	}
	seq_printf(s, " (repeats: %u, last_ts:", field->count);
	trace_print_time(iter, trace_clock_to_ns(iter->tr, field->last_ts));
	seq_puts(s, ")\n");
}

static void trace_stack_print(struct trace_iterator *iter)
{
	struct stack_entry *field = (struct stack_entry *)iter->ent;
	struct seq_buf *s = &iter->seq;
	u32 i;

	seq_puts(s, "<stack trace>\n");
	for (i = 0; i < field->size && i < FTRACE_STACK_ENTRIES; i++) {
		seq_puts(s, " => ");
		seq_print_ip_sym(s, field->caller[i], iter->trace_flags);
		seq_puts(s, "\n");
	}
}

static void trace_print_print(struct trace_iterator *iter)
{
	struct print_entry *field = (struct print_entry *)iter->ent;

	seq_print_ip_sym(&iter->seq, field->ip, iter->trace_flags);
	seq_printf(&iter->seq, ": %s", field->buf);
}

/* Linux's trace_bprint_print: as a print event shows. */
static void trace_bprint_print(struct trace_iterator *iter)
{
	struct bprint_entry *field = (struct bprint_entry *)iter->ent;

	seq_print_ip_sym(&iter->seq, field->ip, iter->trace_flags);
	seq_puts(&iter->seq, ": ");
	trace_seq_bprint(&iter->seq, field, iter->ent_size);
}

/* Linux's trace_raw_data: the id, then every byte of the event. */
void trace_raw_data(struct trace_iterator *iter)
{
	struct raw_data_entry *field = (struct raw_data_entry *)iter->ent;
	unsigned int i;

	seq_printf(&iter->seq, "# %x buf:", field->id);
	for (i = sizeof(*field); i < iter->ent_size; i++)
		seq_printf(&iter->seq, " %02x", field->buf[i - sizeof(*field)]);
	seq_puts(&iter->seq, "\n");
}

/*
 * The wakeup tracers' lines (Linux's trace_ctxwake_print): waker or
 * task switched out, `  +` for a wake-up or `==>` for a switch, the
 * woken task's CPU, the task woken or switched in, each as
 * PID:PRIO:STATE.
 */
void trace_ctxwake_print(struct trace_iterator *iter)
{
	struct ctx_switch_entry *field = (struct ctx_switch_entry *)iter->ent;
	const char *delim = entry_type(iter->ent) == TRACE_CTX ? "==>" : "  +";
	char comm[TASK_COMM_LEN];

	trace_find_cmdline(field->next_pid, comm);
	seq_printf(&iter->seq, " %7d:%3d:%c %s [%03d] %7d:%3d:%c %s\n",
		   field->prev_pid, field->prev_prio,
		   TASK_STATE_TO_CHAR_STR[field->prev_state], delim,
		   field->next_cpu, field->next_pid, field->next_prio,
		   TASK_STATE_TO_CHAR_STR[field->next_state], comm);
}

static void print_event(struct trace_iterator *iter)
{
	switch (entry_type(iter->ent)) {
	case TRACE_FN:
		trace_fn_trace(iter);
		break;
	case TRACE_CTX:
	case TRACE_WAKE:
		trace_ctxwake_print(iter);
		break;
	case TRACE_STACK:
		trace_stack_print(iter);
		break;
	case TRACE_FUNC_REPEATS:
		trace_func_repeats_print(iter);
		break;
	case TRACE_PRINT:
		trace_print_print(iter);
		break;
	case TRACE_BPRINT:
		trace_bprint_print(iter);
		break;
	case TRACE_RAW_DATA:
		trace_raw_data(iter);
		break;
	case TRACE_RAW_EVENT:
		trace_event_print(&iter->seq, iter->ent);
		break;
	default:
		seq_printf(&iter->seq, "Unknown type %u\n",
			   entry_type(iter->ent));
	}
}

/*
 * After an overrun, say where each CPU's events start, except for the
 * very first ones (Linux's test_cpu_buff_start).
 */
static void test_cpu_buff_start(struct trace_iterator *iter)
{
	if (!(iter->trace_flags & TRACE_ITER_ANNOTATE) ||
	    !(iter->iter_flags & TRACE_FILE_ANNOTATE) ||
	    (iter->started & (1UL << iter->cpu)))
		return;
	iter->started |= 1UL << iter->cpu;
	if (iter->idx > 1)
		seq_printf(&iter->seq, "##### CPU %u buffer started ####\n",
			   iter->cpu);
}

/* Linux's trace_bprint_raw: `: IP : TEXT`. */
static void trace_bprint_raw(struct trace_iterator *iter)
{
	struct bprint_entry *field = (struct bprint_entry *)iter->ent;

	seq_printf(&iter->seq, ": %x : ", field->ip);
	trace_seq_bprint(&iter->seq, field, iter->ent_size);
}

/*
 * Option hex (Linux's print_hex_fmt): each field as its bytes in hex,
 * most significant first, and a space; the function event's ip and
 * parent as Linux's unsigned longs. Other events have no hex form: the
 * context alone.
 */
static void print_hex_fmt(struct trace_iterator *iter)
{
	struct ftrace_entry *fn = (struct ftrace_entry *)iter->ent;
	struct seq_buf *s = &iter->seq;

	if (iter->trace_flags & TRACE_ITER_CONTEXT_INFO)
		seq_printf(s, "%08x %08x %016llx ", entry_pid(iter->ent),
			   iter->cpu, iter->ts);
	if (entry_type(iter->ent) == TRACE_FN)
		seq_printf(s, "%016lx %016lx ", (unsigned long)fn->ip,
			   (unsigned long)fn->parent_ip);
	seq_puts(s, "\n");
}

/*
 * Option bin (Linux's print_bin_fmt): the same fields as bytes, as the
 * CPU stores them, with no separator and no newline.
 */
static void print_bin_fmt(struct trace_iterator *iter)
{
	struct ftrace_entry *fn = (struct ftrace_entry *)iter->ent;
	struct seq_buf *s = &iter->seq;

	if (iter->trace_flags & TRACE_ITER_CONTEXT_INFO) {
		int pid = entry_pid(iter->ent), cpu = iter->cpu;

		seq_putmem(s, &pid, sizeof(pid));
		seq_putmem(s, &cpu, sizeof(cpu));
		seq_putmem(s, &iter->ts, sizeof(iter->ts));
	}
	if (entry_type(iter->ent) == TRACE_FN) {
		unsigned long ip = fn->ip, parent_ip = fn->parent_ip;

		seq_putmem(s, &ip, sizeof(ip));
		seq_putmem(s, &parent_ip, sizeof(parent_ip));
	}
}

/*
 * Linux's trace_func_repeats_raw: ip and parent in decimal, the count,
 * and how long before this event the last repeat was (ns).
 */
static void trace_func_repeats_raw(struct trace_iterator *iter)
{
	struct func_repeats_entry *field = (struct func_repeats_entry *)iter->ent;

	seq_printf(&iter->seq, "%u %u %u %llu\n", field->ip, field->parent_ip,
		   field->count,
		   iter->ts - trace_clock_to_ns(iter->tr, field->last_ts));
}

/*
 * Linux's trace_ctxwake_raw: the fields as numbers, the states as
 * letters, a wake-up's first one `+`.
 */
static void trace_ctxwake_raw(struct trace_iterator *iter)
{
	struct ctx_switch_entry *field = (struct ctx_switch_entry *)iter->ent;

	seq_printf(&iter->seq, "%d %d %c %d %d %d %c\n", field->prev_pid,
		   field->prev_prio, entry_type(iter->ent) == TRACE_WAKE ? '+' :
		   TASK_STATE_TO_CHAR_STR[field->prev_state], field->next_cpu,
		   field->next_pid, field->next_prio,
		   TASK_STATE_TO_CHAR_STR[field->next_state]);
}

/*
 * Option raw (Linux's print_raw_fmt): pid, CPU and time stamp as
 * numbers, then the event's fields (a stack trace prints as usual).
 */
static bool print_raw_fmt(struct trace_iterator *iter)
{
	struct seq_buf *s = &iter->seq;
	struct ftrace_entry *fn = (struct ftrace_entry *)iter->ent;
	struct print_entry *print = (struct print_entry *)iter->ent;

	if (entry_type(iter->ent) == TRACE_STACK)
		return false;
	if (iter->trace_flags & TRACE_ITER_CONTEXT_INFO)
		seq_printf(s, "%d %d %llu ", entry_pid(iter->ent), iter->cpu,
			   iter->ts);
	if (entry_type(iter->ent) == TRACE_FN)
		seq_printf(s, "%x %x\n", fn->ip, fn->parent_ip);
	else if (entry_type(iter->ent) == TRACE_FUNC_REPEATS)
		trace_func_repeats_raw(iter);
	else if (entry_type(iter->ent) == TRACE_PRINT)
		seq_printf(s, "# %x %s", print->ip, print->buf);
	else if (entry_type(iter->ent) == TRACE_BPRINT)
		trace_bprint_raw(iter);
	else if (entry_type(iter->ent) == TRACE_RAW_DATA)
		trace_raw_data(iter);
	else if (entry_type(iter->ent) == TRACE_CTX ||
		 entry_type(iter->ent) == TRACE_WAKE)
		trace_ctxwake_raw(iter);
	else
		seq_printf(s, "%u ?\n", entry_type(iter->ent));
	return true;
}

/*
 * The text of a print or bprint event alone (Linux's
 * trace_print_printk_msg_only and trace_print_bprintk_msg_only).
 */
bool trace_print_msg(struct trace_iterator *iter)
{
	switch (entry_type(iter->ent)) {
	case TRACE_PRINT:
		seq_puts(&iter->seq, ((struct print_entry *)iter->ent)->buf);
		return true;
	case TRACE_BPRINT:
		trace_seq_bprint(&iter->seq, (void *)iter->ent, iter->ent_size);
		return true;
	default:
		return false;
	}
}

/* printk-msg-only, with trace_printk: a print event's text alone. */
static bool print_msg_only(struct trace_iterator *iter)
{
	unsigned long need = TRACE_ITER_PRINTK | TRACE_ITER_PRINTK_MSGONLY;

	return (iter->trace_flags & need) == need && trace_print_msg(iter);
}

/* An event's text: the tracer's own, or the context columns and event. */
void print_trace_line(struct trace_iterator *iter)
{
	bool context = iter->trace_flags & TRACE_ITER_CONTEXT_INFO;

	if (iter->lost_events == (unsigned long)-1)
		seq_printf(&iter->seq, "CPU:%d [LOST EVENTS]\n", iter->cpu);
	else if (iter->lost_events)
		seq_printf(&iter->seq, "CPU:%d [LOST %lu EVENTS]\n",
			   iter->cpu, iter->lost_events);
	if (iter->trace->print_line &&
	    iter->trace->print_line(iter) == TRACE_TYPE_HANDLED)
		return;
	if (print_msg_only(iter))
		return;
	if (iter->trace_flags & TRACE_ITER_BIN) {
		print_bin_fmt(iter);
		return;
	}
	if (iter->trace_flags & TRACE_ITER_HEX) {
		print_hex_fmt(iter);
		return;
	}
	if ((iter->trace_flags & TRACE_ITER_RAW) && print_raw_fmt(iter))
		return;
	if (iter->iter_flags & TRACE_FILE_LAT_FMT) {
		if (context)
			trace_print_lat_context(iter);
	} else {
		test_cpu_buff_start(iter);
		if (context)
			trace_print_context(iter);
	}
	print_event(iter);
}

/* ---- headers ----------------------------------------------------------- */

static void print_event_info(struct trace_iterator *iter)
{
	unsigned long total, entries;

	get_total_entries(iter->tr, &total, &entries);
	seq_printf(&iter->seq, "# entries-in-buffer/entries-written: %lu/%lu"
		   "   #P:%d\n#\n", entries, total, trace_nr_cpus());
}

static void print_func_help_header(struct trace_iterator *iter)
{
	bool tgid = iter->trace_flags & TRACE_ITER_RECORD_TGID;

	print_event_info(iter);
	seq_printf(&iter->seq,
		   "#           TASK-PID    %s CPU#     TIMESTAMP  FUNCTION\n"
		   "#              | |      %s   |         |         |\n",
		   tgid ? "   TGID   " : "", tgid ? "     |    " : "");
}

static void print_func_help_header_irq(struct trace_iterator *iter)
{
	bool tgid = iter->trace_flags & TRACE_ITER_RECORD_TGID;
	const char *sp = "            ";
	int prec = tgid ? 12 : 2;

	print_event_info(iter);
	seq_printf(&iter->seq,
		   "#                            %.*s  _-----=> irqs-off/BH-disabled\n"
		   "#                            %.*s / _----=> need-resched\n"
		   "#                            %.*s| / _---=> hardirq/softirq\n"
		   "#                            %.*s|| / _--=> preempt-depth\n"
		   "#                            %.*s||| / _-=> migrate-disable\n"
		   "#                            %.*s|||| /     delay\n"
		   "#           TASK-PID  %.*s CPU#  |||||  TIMESTAMP  FUNCTION\n"
		   "#              | |    %.*s   |   |||||     |         |\n",
		   prec, sp, prec, sp, prec, sp, prec, sp, prec, sp, prec, sp,
		   prec, "     TGID   ", prec, "       |    ");
}

/*
 * latency-format's preamble (Linux's print_trace_header), which
 * function_graph's prints too. Under a latency tracer it tells of the
 * max trace: its length, CPU and task, and where it began and ended.
 */
void print_trace_header(struct trace_iterator *iter)
{
	const struct trace_max_data *data = &iter->tr->max_data;
	bool max = iter->trace->print_max;
	struct seq_buf *s = &iter->seq;
	unsigned long total, entries;

	get_total_entries(iter->tr, &total, &entries);
	if (iter->skipped_entries)
		total = entries = entries - iter->skipped_entries;
	seq_printf(s, "# %s latency trace v1.1.5 on rvftrace\n"
		   "# -----------------------------------"
		   "---------------------------------\n"
		   "# latency: %lu us, #%lu/%lu, CPU#%d | (M:preempt VP:0, KP:0,"
		   " SP:0 HP:0 #P:%d)\n"
		   "#    -----------------\n"
		   "#    | task: %.16s-%d (uid:0 nice:%d policy:%u rt_prio:%u)\n"
		   "#    -----------------\n", iter->trace->name,
		   max ? data->latency / 1000 : 0, entries, total,
		   max ? data->cpu : iter->cpu_file < 0 ? 0 : iter->cpu_file,
		   trace_nr_cpus(), max ? data->comm : "", max ? data->pid : 0,
		   max ? data->nice : 0, max ? data->policy : 0,
		   max ? data->rt_priority : 0);
	if (max && data->critical_start) {
		seq_puts(s, "#  => started at: ");
		seq_print_ip_sym(s, data->critical_start, iter->trace_flags);
		seq_puts(s, "\n#  => ended at:   ");
		seq_print_ip_sym(s, data->critical_end, iter->trace_flags);
		seq_puts(s, "\n#\n");
	}
	seq_puts(s, "#\n");
}

static void print_lat_header(struct trace_iterator *iter)
{
	print_trace_header(iter);
	if (iter->trace_flags & TRACE_ITER_VERBOSE)
		return;
	seq_puts(&iter->seq,
		 "#                    _------=> CPU#            \n"
		 "#                   / _-----=> irqs-off/BH-disabled\n"
		 "#                  | / _----=> need-resched    \n"
		 "#                  || / _---=> hardirq/softirq \n"
		 "#                  ||| / _--=> preempt-depth   \n"
		 "#                  |||| / _-=> migrate-disable \n"
		 "#                  ||||| /     delay           \n"
		 "#  cmd     pid     |||||| time  |   caller     \n"
		 "#     \\   /        ||||||  \\    |    /       \n");
}

/* The column headers of the default event lines; verbose has none. */
void trace_default_header(struct trace_iterator *iter)
{
	if (!(iter->trace_flags & TRACE_ITER_CONTEXT_INFO))
		return;
	if (iter->iter_flags & TRACE_FILE_LAT_FMT) {
		if (!trace_empty(iter))
			print_lat_header(iter);
	} else if (iter->trace_flags & TRACE_ITER_VERBOSE) {
		return;
	} else if (iter->trace_flags & TRACE_ITER_IRQ_INFO) {
		print_func_help_header_irq(iter);
	} else {
		print_func_help_header(iter);
	}
}

/* What `trace` shows before the events (Linux's s_show for no entry). */
void trace_print_header(struct trace_iterator *iter)
{
	seq_printf(&iter->seq, "# tracer: %s\n#\n", iter->trace->name);
	if (iter->trace->print_header)
		iter->trace->print_header(iter);
	else
		trace_default_header(iter);
}
