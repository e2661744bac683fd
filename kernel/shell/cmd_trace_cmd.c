/*
 * cmd_trace_cmd.c: `trace-cmd`, the front end Linux users type instead of
 * echo and cat: start, stop, show, list, clear, reset, stat, record and
 * extract, snapshot, with trace-cmd's options and messages. It has no way into the
 * tracer of its own: every subcommand writes and reads the tracefs files,
 * through sh_echo and sh_read_file, as a user at the shell would, so
 * tracefs checks and refuses its input as it does theirs.
 *
 * `record` and `extract` write a trace.dat (trace_dat.c) from
 * trace_pipe_raw, which empties the ring buffer as trace-cmd's do;
 * `report` reads one back (trace_dat_read.c).
 * `record` runs a shell command or workload, not a program, and leaves
 * the tracer set; options changed with -O are put back by `reset`,
 * which also empties the filters and turns the events off.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "printf.h"
#include "shell.h"
#include "cmdline.h"
#include "vfs.h"
#include "trace_dat.h"
#include "getopt.h"

#define TRACEFS		"/sys/kernel/tracing/"
#define OPTION_MAX	64	/* an option's name */
#define SAVED_OPTIONS	32	/* more than there are options */

/* The words of -l, -n, -g or -O, in the order given. */
struct word_list {
	const char *words[CMDLINE_MAX_ARGS];
	int count;
};

/* What start and record set up, and record's command. */
struct trace_setup {
	const char *tracer;
	struct word_list ftrace_filter, ftrace_notrace, graph_function,
			 options, events;
	const char *output;	/* record's trace.dat */
	int argc;		/* the words after the options */
	char **argv;
};

/* An option as it was before the first -O that changed it. */
struct saved_option {
	char name[OPTION_MAX];
	bool was_set;
};

static struct saved_option saved_options[SAVED_OPTIONS];
static int nr_saved_options;

static const char *const usage_lines[] = {
	"usage: trace-cmd COMMAND [OPTIONS]",
	"  start [-p TRACER] [-e EVENT]... [-l FUNC]... [-n FUNC]... [-g FUNC]...",
	"        [-O OPTION]...",
	"                      set up a tracer or events and start them",
	"  record [...] [-o FILE] [--] COMMAND [ARGS]",
	"                      the same, tracing only while COMMAND runs, then",
	"                      write FILE (trace.dat)",
	"  extract [-o FILE]   write what the buffers hold to FILE (trace.dat)",
	"  report [[-i] FILE]  print the events of FILE (trace.dat)",
	"  stop                stop recording (tracing_on 0)",
	"  show [-p]           print the trace (-p: trace_pipe, until Ctrl-C)",
	"  list [-e [RE]] [-t] [-o] [-f [RE]] [-B] [-C] [-s]",
	"                      events, tracers, options, functions, instances,",
	"                      clocks, event systems (all but -B -C if none)",
	"  clear               empty the ring buffer",
	"  reset               nop tracer, no filters, options back, tracing on",
	"  stat [-o]           what is set up (-o: and every option)",
	"  snapshot [-s] [-r] [-f] [-c CPU] [-B BUF]",
	"                      take, clear or free the snapshot, or show it",
};

static int usage(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(usage_lines); i++)
		sh_err("%s\n", usage_lines[i]);
	return 1;
}

/* ---- tracefs ------------------------------------------------------------ */

/* `echo value > TRACEFS/file`, saying what failed as trace-cmd's die() does. */
static int tc_write(const char *file, const char *value)
{
	char path[PATH_MAX];
	int err;

	snprintf(path, sizeof(path), TRACEFS "%s", file);
	err = sh_echo(path, false, value);
	if (err)
		sh_err("trace-cmd: %s\n  writing '%s' to '%s'\n",
		       strerror_text(err), value, path);
	return err;
}

/* A file's text with the trailing newline cut, or NULL (kfree it). */
static char *tc_read(const char *file)
{
	char path[PATH_MAX], *text;
	size_t len;

	snprintf(path, sizeof(path), TRACEFS "%s", file);
	text = sh_read_file(path);
	if (IS_ERR(text))
		return NULL;
	len = strlen(text);
	if (len && text[len - 1] == '\n')
		text[len - 1] = 0;
	return text;
}

/*
 * All the words in one write, as `echo a b c > file` makes them. They
 * came from one command line, so they fit; static, as cmd_echo's.
 */
static int tc_write_words(const char *file, const struct word_list *l)
{
	static char line[SHELL_LINE_MAX + 1];
	int i;

	line[0] = 0;
	for (i = 0; i < l->count; i++) {
		if (i)
			strlcat(line, " ", sizeof(line));
		strlcat(line, l->words[i], sizeof(line));
	}
	return tc_write(file, line);
}

/* ---- options (-O) ------------------------------------------------------- */

static bool option_saved(const char *name)
{
	int i;

	for (i = 0; i < nr_saved_options; i++)
		if (!strcmp(saved_options[i].name, name))
			return true;
	return false;
}

/* Remember what options/NAME holds before NAME first changes. */
static void save_option(const char *option)
{
	const char *name = str_has_prefix(option, "no") ? option + 2 : option;
	char file[PATH_MAX], *value;
	struct saved_option *s;

	if (option_saved(name) || nr_saved_options == SAVED_OPTIONS)
		return;
	snprintf(file, sizeof(file), "options/%s", name);
	value = tc_read(file);
	if (!value)
		return;		/* no such option: trace_options says so */
	s = &saved_options[nr_saved_options];
	strlcpy(s->name, name, sizeof(s->name));
	s->was_set = !strcmp(value, "1");
	nr_saved_options++;
	kfree(value);
}

/* After the tracer is set: trace_options takes only its options then. */
static int set_options(const struct word_list *options)
{
	int i, err = 0;

	for (i = 0; i < options->count && !err; i++) {
		save_option(options->words[i]);
		err = tc_write("trace_options", options->words[i]);
	}
	return err;
}

/* Through options/NAME, which takes any tracer's option at any time. */
static int restore_options(void)
{
	char file[PATH_MAX];
	int err = 0;

	while (nr_saved_options && !err) {
		struct saved_option *s = &saved_options[nr_saved_options - 1];

		snprintf(file, sizeof(file), "options/%s", s->name);
		err = tc_write(file, s->was_set ? "1" : "0");
		nr_saved_options--;
	}
	return err;
}

/* ---- start, record: parsing --------------------------------------------- */

static struct word_list *option_list(struct trace_setup *t, char opt)
{
	switch (opt) {
	case 'l':
		return &t->ftrace_filter;
	case 'n':
		return &t->ftrace_notrace;
	case 'g':
		return &t->graph_function;
	case 'e':
		return &t->events;
	default:
		return &t->options;
	}
}

/*
 * getopt's rules for "+p:e:l:n:g:O:o:": `-l fib` or `-lfib`; the options
 * end at `--` or at the first word that is not one, where record's
 * command begins.
 */
static int parse_setup(int argc, char **argv, struct trace_setup *t)
{
	struct word_list *l;
	const char *arg;
	int i;

	memset(t, 0, sizeof(*t));
	for (i = 2; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		char opt = argv[i][1];

		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strchr("pelngOo", opt)) {
			sh_err("trace-cmd: invalid option -- '%c'\n", opt);
			return -EINVAL;
		}
		arg = argv[i][2] ? argv[i] + 2 : i + 1 < argc ? argv[++i] : NULL;
		if (!arg) {
			sh_err("trace-cmd: option requires an argument -- '%c'\n",
			       opt);
			return -EINVAL;
		}
		if (opt == 'p' || opt == 'o') {
			*(opt == 'p' ? &t->tracer : &t->output) = arg;
			continue;
		}
		l = option_list(t, opt);
		l->words[l->count++] = arg;
	}
	t->argc = argc - i;
	t->argv = argv + i;
	if (!t->tracer && !t->events.count) {
		sh_err("trace-cmd %s: no tracer (-p) or event (-e) given\n",
		       argv[1]);
		return -EINVAL;
	}
	if (!t->tracer)
		t->tracer = "nop";
	return 0;
}

/*
 * Quiet first, then what the tracer is to trace, then the tracer, its
 * options, and an empty buffer. Setting current_tracer last but one
 * means the tracer starts with its filters already in place.
 */
static int set_up(const struct trace_setup *t)
{
	return tc_write("tracing_on", "0") ?:
	       tc_write_words("set_ftrace_filter", &t->ftrace_filter) ?:
	       tc_write_words("set_ftrace_notrace", &t->ftrace_notrace) ?:
	       tc_write_words("set_graph_function", &t->graph_function) ?:
	       tc_write_words("set_event", &t->events) ?:
	       tc_write("current_tracer", t->tracer) ?:
	       set_options(&t->options) ?:
	       tc_write("trace", "");
}

/* ---- the subcommands ---------------------------------------------------- */

static int tc_start(struct shell_out *out, int argc, char **argv)
{
	struct trace_setup t;

	if (parse_setup(argc, argv, &t))
		return usage();
	if (t.argc || t.output) {
		sh_err("trace-cmd start: unexpected argument '%s'\n",
		       t.argc ? t.argv[0] : "-o");
		return usage();
	}
	return set_up(&t) || tc_write("tracing_on", "1");
}

/* trace-cmd record's summary: each CPU buffer's stats. */
static void print_stats(struct shell_out *out)
{
	char file[PATH_MAX], *stats;
	int cpu;

	for (cpu = 0;; cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		stats = tc_read(file);
		if (!stats)
			break;
		sh_printf(out, "CPU: %d\n%s\n", cpu, stats);
		kfree(stats);
	}
}

/* trace-cmd's message when the file cannot be written. */
static int write_dat(const char *path)
{
	int err = trace_dat_write(path ?: "trace.dat");

	if (err)
		sh_err("trace-cmd: %s\n  writing '%s'\n", strerror_text(err),
		       path ?: "trace.dat");
	return err ? 1 : 0;
}

static int tc_record(struct shell_out *out, int argc, char **argv)
{
	const struct shell_command *cmd;
	struct trace_setup t;
	int status;

	if (parse_setup(argc, argv, &t))
		return usage();
	if (!t.argc) {
		sh_err("trace-cmd record: no command to run\n");
		return usage();
	}
	cmd = shell_find_command(t.argv[0]);
	if (!cmd) {
		sh_err("trace-cmd record: %s: command not found\n", t.argv[0]);
		return 1;
	}
	if (set_up(&t) || tc_write("tracing_on", "1"))
		return 1;
	status = cmd->fn(out, t.argc, t.argv);
	if (tc_write("tracing_on", "0"))
		return 1;
	print_stats(out);
	return write_dat(t.output) ?: status;
}

/* report [[-i] FILE]: a trace.dat's events (trace_dat_read.c). */
static int tc_report(struct shell_out *out, int argc, char **argv)
{
	const char *path = "trace.dat";
	int err;

	if (argc == 4 && !strcmp(argv[2], "-i"))
		path = argv[3];
	else if (argc == 3 && argv[2][0] != '-')
		path = argv[2];
	else if (argc != 2)
		return usage();
	err = trace_dat_report(out, path);
	if (err)
		sh_err("trace-cmd: %s\n  reading '%s'\n", strerror_text(err),
		       path);
	return err ? 1 : 0;
}

/* extract [-o FILE]: the buffers as they are, tracing left as it is. */
static int tc_extract(struct shell_out *out, int argc, char **argv)
{
	const char *path = NULL;

	if (argc == 4 && !strcmp(argv[2], "-o"))
		path = argv[3];
	else if (argc == 3 && !strncmp(argv[2], "-o", 2) && argv[2][2])
		path = argv[2] + 2;
	else if (argc != 2)
		return usage();
	return write_dat(path);
}

static int tc_stop(struct shell_out *out, int argc, char **argv)
{
	return tc_write("tracing_on", "0") ? 1 : 0;
}

/* show: the trace; show -p: trace_pipe, which waits for more. */
static int tc_show(struct shell_out *out, int argc, char **argv)
{
	bool pipe = argc == 3 && !strcmp(argv[2], "-p");

	if (argc > 2 && !pipe) {
		sh_err("trace-cmd show: unexpected argument '%s'\n", argv[2]);
		return usage();
	}
	return sh_cat(out, "trace-cmd",
		      pipe ? TRACEFS "trace_pipe" : TRACEFS "trace");
}

static int tc_clear(struct shell_out *out, int argc, char **argv)
{
	return tc_write("trace", "") ? 1 : 0;
}

static int tc_reset(struct shell_out *out, int argc, char **argv)
{
	return tc_write("tracing_on", "0") ||
	       tc_write("current_tracer", "nop") ||
	       tc_write("set_ftrace_filter", "") ||
	       tc_write("set_ftrace_notrace", "") ||
	       tc_write("set_graph_function", "") ||
	       tc_write("set_graph_notrace", "") ||
	       tc_write("set_ftrace_pid", "") ||
	       tc_write("set_event", "") ||
	       restore_options() ||
	       tc_write("trace", "") ||
	       tc_write("tracing_on", "1");
}

/* ---- stat: trace-cmd's report, file by file ----------------------------- */

/* "\nDESCRIPTIONvalue" when the file holds something else than def. */
static void stat_file(struct shell_out *out, const char *file,
		      const char *def, const char *description)
{
	char *value = tc_read(file);

	if (value && value[0] && strcmp(value, def))
		sh_printf(out, "\n%s%s\n", description, value);
	kfree(value);
}

/* A filter file's lines, indented, "#" lines (none set) left out. */
static void stat_functions(struct shell_out *out, const char *file,
			   const char *title)
{
	char *text = tc_read(file), *rest = text, *line;
	bool first = true;

	while ((line = str_next_line(&rest))) {
		if (line[0] == '#')
			continue;
		if (first)
			sh_printf(out, "\n%s:\n", title);
		sh_printf(out, "   %s\n", line);
		first = false;
	}
	kfree(text);
}

/* One size for all CPUs, or "X" and each CPU's. */
static void stat_buffers(struct shell_out *out)
{
	char *size = tc_read("buffer_size_kb"), *total, file[PATH_MAX];
	char *cpu_size;
	int cpu;

	if (size && strcmp(size, "X"))
		sh_printf(out, "\nBuffer size in kilobytes (per cpu):\n   %s\n",
			  size);
	for (cpu = 0; size && !strcmp(size, "X"); cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/buffer_size_kb", cpu);
		cpu_size = tc_read(file);
		if (!cpu_size)
			break;
		sh_printf(out, "%sCPU %d buffer size (kb): %s\n", cpu ? "" : "\n",
			  cpu, cpu_size);
		kfree(cpu_size);
	}
	kfree(size);
	total = tc_read("buffer_total_size_kb");
	if (total)
		sh_printf(out, "\nBuffer total size in kilobytes:\n   %s\n", total);
	kfree(total);
}

/* trace_clock reads "local [global] ...": shown unless local. */
static void stat_clock(struct shell_out *out)
{
	char *clocks = tc_read("trace_clock");
	char *open = clocks ? strchr(clocks, '[') : NULL;
	char *close = open ? strchr(open, ']') : NULL;

	if (close) {
		*close = 0;
		if (strcmp(open + 1, "local"))
			sh_printf(out, "\nClock: %s\n", open + 1);
	}
	kfree(clocks);
}

static void stat_options(struct shell_out *out)
{
	char *text = tc_read("trace_options"), *rest = text, *line;

	sh_puts(out, "\nOptions:\n");
	while ((line = str_next_line(&rest)))
		sh_printf(out, "   %s\n", line);
	kfree(text);
}

static void stat_tracing_on(struct shell_out *out)
{
	char *on = tc_read("tracing_on");

	if (on)
		sh_printf(out, "\nTracing is %s\n\n",
			  strcmp(on, "0") ? "enabled" : "disabled");
	kfree(on);
}

/* trace-cmd stat's sections, in its order, for what rvftrace has. */
static int tc_stat(struct shell_out *out, int argc, char **argv)
{
	bool all_options = argc == 3 && !strcmp(argv[2], "-o");

	if (argc > 3 || (argc == 3 && !all_options))
		return usage();
	stat_file(out, "current_tracer", "nop", "Tracer: ");
	stat_functions(out, "set_ftrace_filter", "Function Filter");
	stat_functions(out, "set_ftrace_notrace", "Function No Trace");
	stat_functions(out, "set_graph_function", "Function Graph Filter");
	stat_functions(out, "set_graph_notrace", "Function Graph No Trace");
	stat_buffers(out);
	stat_clock(out);
	stat_file(out, "set_ftrace_pid", "no pid",
		  "Filtered function tracer PIDs:\n");
	if (all_options)
		stat_options(out);
	stat_tracing_on(out);
	return 0;
}

/* ---- snapshot ------------------------------------------------------------ */

/*
 * snapshot [-s] [-r] [-f] [-c CPU] [-B BUF], as trace-cmd 3.1's: `1`
 * (take), `2` (clear) and `0` (free) to the snapshot file, of one CPU
 * with -c and of an instance with -B; with none of -s -r -f, the file.
 */
static int tc_snapshot(struct shell_out *out, int argc, char **argv)
{
	struct getopt g = { .who = "trace-cmd", .ind = 2 };
	bool take = false, clear = false, free_it = false;
	const char *cpu = NULL, *buf = NULL;
	char file[PATH_MAX], path[PATH_MAX];
	int c, len = 0;

	while ((c = getopt_next(&g, argc, argv, "srfc:B:")) != -1) {
		if (c == 's')
			take = true;
		else if (c == 'r')
			clear = true;
		else if (c == 'f')
			free_it = true;
		else if (c == 'c')
			cpu = g.arg;
		else if (c == 'B')
			buf = g.arg;
		else
			return usage();
	}
	if (g.ind < argc)
		return usage();
	if (buf)
		len += snprintf(file + len, sizeof(file) - len,
				"instances/%s/", buf);
	if (cpu)
		len += snprintf(file + len, sizeof(file) - len,
				"per_cpu/cpu%s/", cpu);
	snprintf(file + len, sizeof(file) - len, "snapshot");
	if ((take && tc_write(file, "1")) || (clear && tc_write(file, "2")) ||
	    (free_it && tc_write(file, "0")))
		return 1;
	if (take || clear || free_it)
		return 0;
	snprintf(path, sizeof(path), TRACEFS "%s", file);
	return sh_cat(out, "trace-cmd", path);
}

/* ---- the command -------------------------------------------------------- */

static const struct {
	const char *name;
	int (*fn)(struct shell_out *out, int argc, char **argv);
	bool takes_args;
} subcommands[] = {
	{ "start", tc_start, true },
	{ "record", tc_record, true },
	{ "stop", tc_stop, false },
	{ "show", tc_show, true },
	{ "list", trace_cmd_list, true },
	{ "clear", tc_clear, false },
	{ "reset", tc_reset, false },
	{ "stat", tc_stat, true },
	{ "extract", tc_extract, true },
	{ "report", tc_report, true },
	{ "snapshot", tc_snapshot, true },
};

static int cmd_trace_cmd(struct shell_out *out, int argc, char **argv)
{
	size_t i;

	if (argc < 2)
		return usage();
	for (i = 0; i < ARRAY_SIZE(subcommands); i++) {
		if (strcmp(argv[1], subcommands[i].name))
			continue;
		if (argc > 2 && !subcommands[i].takes_args) {
			sh_err("trace-cmd %s: unexpected argument '%s'\n",
			       argv[1], argv[2]);
			return usage();
		}
		return subcommands[i].fn(out, argc, argv);
	}
	sh_err("trace-cmd: unknown command '%s'\n", argv[1]);
	return usage();
}
SHELL_COMMAND("trace-cmd", cmd_trace_cmd,
	      "start|record|extract|report|stop|show|list|clear|reset|stat|snapshot: trace-cmd's front end to tracefs");
