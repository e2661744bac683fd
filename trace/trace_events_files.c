/*
 * trace_events_files.c: the events' files in tracefs (Linux's
 * event_create_dir and friends in kernel/trace/trace_events.c):
 *
 *   available_events, set_event        SYS:EVENT per line
 *   events/enable, header_page, header_event
 *   events/SYS/enable, filter
 *   events/SYS/EVENT/format, trigger, filter, id, enable
 *
 * Files are made in the reverse of Linux's order, so that `ls` lists
 * them as Linux's readdir does (the newest first there); the ftrace
 * system's events have a format and an id only, as in Linux.
 */
#include "kernel.h"
#include "string.h"
#include "kstrtox.h"
#include "trace_events.h"

/* ---- format --------------------------------------------------------------- */

/* `char prev_comm[16]`: an array's brackets follow its name. */
static void print_field(struct seq_buf *s, const struct trace_event_field *f)
{
	const char *bracket = strchr(f->type, '[');

	if (bracket && f->filter_type != FILTER_DYN_STRING)
		seq_printf(s, "\tfield:%.*s %s%s;", (int)(bracket - f->type),
			   f->type, f->name, bracket);
	else
		seq_printf(s, "\tfield:%s %s;", f->type, f->name);
	seq_printf(s, "\toffset:%d;\tsize:%d;\tsigned:%d;\n", f->offset,
		   f->size, f->is_signed);
}

/*
 * Linux's common fields, struct trace_entry, as trace_pipe_raw and
 * trace.dat carry every event (trace_pipe_raw.c:raw_common); rvftrace's
 * ring buffer packs them into one word, which the reader unpacks. The
 * event's own fields follow at Linux's offsets.
 */
static void format_show(struct seq_buf *s, long data)
{
	struct trace_event_call *call = (void *)data;
	const struct trace_event_field *f;

	seq_printf(s, "name: %s\nID: %d\nformat:\n", call->name, call->id);
	seq_puts(s, "\tfield:unsigned short common_type;\toffset:0;"
		 "\tsize:2;\tsigned:0;\n"
		 "\tfield:unsigned char common_flags;\toffset:2;"
		 "\tsize:1;\tsigned:0;\n"
		 "\tfield:unsigned char common_preempt_count;\toffset:3;"
		 "\tsize:1;\tsigned:0;\n"
		 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n");
	for (f = call->class->fields; f->name; f++)
		print_field(s, f);
	seq_printf(s, "\nprint fmt: %s\n", call->class->print_fmt);
}

static void id_show(struct seq_buf *s, long data)
{
	seq_printf(s, "%d\n", ((struct trace_event_call *)data)->id);
}

/* ---- enable ------------------------------------------------------------------ */

/* Linux's event_enable_read: 1 only while it records, * in soft mode. */
static void enable_show(struct seq_buf *s, long data)
{
	unsigned long flags = READ_ONCE(((struct trace_event_call *)data)->flags);

	seq_printf(s, "%d%s\n", (flags & EVENT_FL_ENABLED) &&
		   !(flags & EVENT_FL_SOFT_DISABLED),
		   flags & EVENT_FL_SOFT_MODE ? "*" : "");
}

static int parse_enable(const char *buf, bool *on)
{
	unsigned long val;
	int ret = kstrtoul(buf, 10, &val);

	if (ret || val > 1)
		return -EINVAL;
	*on = val;
	return 0;
}

static int enable_store(char *buf, struct file *file, long data)
{
	bool on;
	int ret = parse_enable(buf, &on);

	return ret ? ret : trace_event_enable((void *)data, on);
}

/* Events of system (all when NULL) that can be turned on. */
static bool in_system(const struct trace_event_call *call, const char *system)
{
	return call->tp && (!system || !strcmp(call->system, system));
}

/* 0, 1, or X when some are on and some off (Linux's system_enable_read). */
static void events_enable_show(struct seq_buf *s, struct trace_array *tr,
			       const char *system)
{
	static const char set_to_char[4] = { '?', '0', '1', 'X' };
	struct trace_event_call *call;
	unsigned int set = 0;

	list_for_each_entry(call, trace_event_list(tr), list)
		if (in_system(call, system))
			set |= 1U << !!(READ_ONCE(call->flags) &
					 EVENT_FL_ENABLED);
	seq_printf(s, "%c\n", set_to_char[set]);
}

static int events_enable_store(char *buf, struct trace_array *tr,
			       const char *system)
{
	struct trace_event_call *call;
	int ret = 0;
	bool on;

	if (parse_enable(buf, &on))
		return -EINVAL;
	list_for_each_entry(call, trace_event_list(tr), list)
		if (in_system(call, system) && !ret)
			ret = trace_event_enable(call, on);
	return ret;
}

/* events/SYS/enable: data is the system's first event, in its array. */
static void system_enable_show(struct seq_buf *s, long data)
{
	struct trace_event_call *first = (void *)data;

	events_enable_show(s, first->tr, first->system);
}

static int system_enable_store(char *buf, struct file *file, long data)
{
	struct trace_event_call *first = (void *)data;

	return events_enable_store(buf, first->tr, first->system);
}

/* events/enable: data is the trace array. */
static void all_enable_show(struct seq_buf *s, long data)
{
	events_enable_show(s, (struct trace_array *)data, NULL);
}

static int all_enable_store(char *buf, struct file *file, long data)
{
	return events_enable_store(buf, (struct trace_array *)data, NULL);
}

/* ---- filter and trigger ---------------------------------------------------------- */

static void filter_show(struct seq_buf *s, long data)
{
	struct trace_event_call *call = (void *)data;

	mutex_lock(&event_mutex);
	seq_printf(s, "%s\n", call->filter_string ?: "none");
	mutex_unlock(&event_mutex);
}

static int filter_store(char *buf, struct file *file, long data)
{
	return apply_event_filter((void *)data, strim(buf));
}

static void system_filter_show(struct seq_buf *s, long data)
{
	seq_puts(s, "### global filter ###\n"
		 "# Use this to set filters for multiple events.\n"
		 "# Only events with the given fields will be affected.\n"
		 "# If no events are modified, an error message will be "
		 "displayed here\n");
}

/* data: the system's first event, which names the system and the array. */
static int system_filter_store(char *buf, struct file *file, long data)
{
	struct trace_event_call *first = (void *)data;

	return apply_subsystem_event_filter(first->tr, first->system,
					    strim(buf));
}

static void trigger_show(struct seq_buf *s, long data)
{
	event_trigger_show((void *)data, s);
}

static int trigger_store(char *buf, struct file *file, long data)
{
	return event_trigger_write((void *)data, buf);
}

/* ---- available_events, set_event ---------------------------------------------------- */

/*
 * Linux lists the newest event first; the table is oldest first.
 * set_event lists those on in its array.
 */
static void list_events(struct seq_buf *s, struct trace_array *tr,
			bool only_enabled)
{
	struct trace_event_call *call;

	list_for_each_entry_reverse(call, trace_event_list(tr), list)
		if (call->tp && (!only_enabled ||
				 (call->flags & EVENT_FL_ENABLED)))
			seq_printf(s, "%s:%s\n", call->system, call->name);
}

static void available_events_show(struct seq_buf *s, long data)
{
	list_events(s, &global_trace, false);
}

static void set_event_show(struct seq_buf *s, long data)
{
	list_events(s, (struct trace_array *)data, true);
}

/*
 * Linux's __ftrace_set_clr_event: SYS:EVENT, SYS: or SYS:* (a system),
 * *:EVENT, or a bare word naming an event or a system; -EINVAL if
 * nothing matches.
 */
static int set_clr_event(struct trace_array *tr, char *word, bool set)
{
	char *colon = strchr(word, ':'), *sys = NULL, *event = word;
	struct trace_event_call *call;
	int ret = -EINVAL;

	if (colon) {
		*colon = 0;
		sys = word;
		event = colon + 1;
		if (!*sys || !strcmp(sys, "*"))
			sys = NULL;
		if (!*event || !strcmp(event, "*"))
			event = NULL;
	}
	list_for_each_entry(call, trace_event_list(tr), list) {
		if (!call->tp)
			continue;
		if (!colon && strcmp(word, call->name) &&
		    strcmp(word, call->system))
			continue;
		if (colon && ((sys && strcmp(sys, call->system)) ||
			      (event && strcmp(event, call->name))))
			continue;
		ret = trace_event_enable(call, set);
		if (ret)
			break;
	}
	return ret;
}

static void clear_events(struct trace_array *tr)
{
	struct trace_event_call *call;

	list_for_each_entry(call, trace_event_list(tr), list)
		if (call->tp)
			trace_event_enable(call, false);
}

/*
 * `>` turns every event off first (Linux does at open with O_TRUNC;
 * here at the first write, which file->pos counts); then each word
 * turns its events on, or off with a leading `!`.
 */
static int set_event_store(char *buf, struct file *file, long data)
{
	struct trace_array *tr = (struct trace_array *)data;
	char *word;
	int ret = 0;

	if ((file->flags & O_TRUNC) && !file->pos)
		clear_events(tr);
	file->pos++;
	while (!ret && (word = trace_next_word(&buf)))
		ret = word[0] == '!' ? set_clr_event(tr, word + 1, false) :
				       set_clr_event(tr, word, true);
	return ret;
}

/* ---- the directories ------------------------------------------------------------------ */

static void create_event_dir(struct inode *sys_dir,
			     struct trace_event_call *call)
{
	struct inode *dir = vfs_mkdir(sys_dir, call->name);
	long data = (long)call;

	if (!dir)
		return;
	create_simple(dir, "format", format_show, NULL, data);
	if (call->tp) {
		create_simple(dir, "trigger", trigger_show, trigger_store,
			      data);
		create_simple(dir, "filter", filter_show, filter_store, data);
	}
	create_simple(dir, "id", id_show, NULL, data);
	if (call->tp)
		create_simple(dir, "enable", enable_show, enable_store, data);
}

/* Each system's directory, then its events, enable and filter. */
static void create_system_dirs(struct trace_array *tr, struct inode *events)
{
	struct list_head *list = trace_event_list(tr);
	struct trace_event_call *call, *first;
	struct inode *sys_dir;

	list_for_each_entry(first, list, list) {
		if (vfs_lookup(events, first->system))
			continue;
		sys_dir = vfs_mkdir(events, first->system);
		if (!sys_dir)
			return;
		call = first;
		list_for_each_entry_from(call, list, list)
			if (!strcmp(call->system, first->system))
				create_event_dir(sys_dir, call);
		if (!first->tp)
			continue;
		create_simple(sys_dir, "enable", system_enable_show,
			      system_enable_store, (long)first);
		create_simple(sys_dir, "filter", system_filter_show,
			      system_filter_store, (long)first);
	}
}

/* Linux's ring_buffer_print_page_header: the page rvftrace's shares. */
static void header_page_show(struct seq_buf *s, long data)
{
	seq_puts(s, "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		 "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		 "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		 "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n");
}

/* Linux's ring_buffer_print_entry_header: struct ring_buffer_event. */
static void header_event_show(struct seq_buf *s, long data)
{
	seq_puts(s, "# compressed entry header\n"
		 "\ttype_len    :    5 bits\n"
		 "\ttime_delta  :   27 bits\n"
		 "\tarray       :   32 bits\n\n"
		 "\tpadding     : type == 29\n"
		 "\ttime_extend : type == 30\n"
		 "\ttime_stamp : type == 31\n"
		 "\tdata max type_len  == 28\n");
}

/*
 * events/ and the hundreds of files under it: the top level's are made
 * on first use (tracefs_mkdir_filled), as Linux's eventfs makes them on
 * lookup; an instance's at mkdir.
 */
static void populate_events(struct inode *events)
{
	struct trace_array *tr = events->private;

	create_system_dirs(tr, events);
	create_simple(events, "header_event", header_event_show, NULL, 0);
	create_simple(events, "header_page", header_page_show, NULL, 0);
	create_simple(events, "enable", all_enable_show, all_enable_store,
		      (long)tr);
}

/* set_event and events/ of a trace array, the top level's too. */
void trace_events_create_tr_files(struct trace_array *tr, struct inode *dir)
{
	tracefs_mkdir_filled(tr, dir, "events", populate_events);
	create_simple(dir, "set_event", set_event_show, set_event_store,
		      (long)tr);
	trace_event_pid_create_files(tr, dir);
}

/* The files only the top level has. */
void trace_events_create_files(struct inode *dir)
{
	create_simple(dir, "available_events", available_events_show, NULL,
		      0);
}
