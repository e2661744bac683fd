/*
 * trace_cmd_list.c: `trace-cmd list`, what the tracefs offers, as
 * trace-cmd 3.1.6 lists it (tracecmd/trace-list.c): -e events, -t (or
 * -p) tracers, -o options, -f functions, -B instances, -C clocks, -s
 * event systems, all of them but -B and -C with no flag. -e and -f take
 * a regular expression (basic, case ignored) when the next word is not
 * a flag; -e's may be SYSTEM:EVENT, and with -F, -l or -R it shows each
 * event's format, filter or trigger. Plugins (-P, -O) are trace-cmd's
 * own, on the host: there are none here.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "printf.h"
#include "regex.h"
#include "shell.h"
#include "name_list.h"
#include "trace_dat.h"

#define TRACEFS		"/sys/kernel/tracing/"

enum {
	SHOW_EVENT_FORMAT	= 1 << 0,
	SHOW_EVENT_FILTER	= 1 << 1,
	SHOW_EVENT_TRIGGER	= 1 << 2,
	SHOW_EVENT_FULL		= 1 << 3,
};

struct list_request {
	bool events, tracers, options, funcs, buffers, clocks, systems;
	bool all;
	const char *eventre, *funcre;
	int flags;
};

static int list_usage(void)
{
	sh_err("usage:\n"
	       " trace-cmd list [-e [regex]][-t][-o][-f [regex]][-B][-C][-s]\n"
	       "          -e list available events\n"
	       "            -F show event format\n"
	       "            --full show the print fmt with -F\n"
	       "            -R show event triggers\n"
	       "            -l show event filters\n"
	       "          -t list available tracers\n"
	       "          -o list available options\n"
	       "          -f [regex] list available functions to filter on\n"
	       "          -B list defined buffer instances\n"
	       "          -C list the defined clocks (and active one)\n"
	       "          -s list event systems\n");
	return 1;
}

/* One flag; arg is the next word if it is not a flag. */
static int parse_flag(struct list_request *r, const char *flag,
		      const char *arg)
{
	if (!strcmp(flag, "--full")) {
		r->flags |= SHOW_EVENT_FULL;
		return 0;
	}
	r->all = r->all && strchr("FRl", flag[1]);
	switch (flag[1]) {
	case 'e': r->events = true; r->eventre = arg; return 0;
	case 'f': r->funcs = true; r->funcre = arg; return 0;
	case 't': case 'p': r->tracers = true; return 0;
	case 'o': r->options = true; return 0;
	case 'B': r->buffers = true; return 0;
	case 'C': r->clocks = true; return 0;
	case 's': r->systems = true; return 0;
	case 'F': r->flags |= SHOW_EVENT_FORMAT; return 0;
	case 'R': r->flags |= SHOW_EVENT_TRIGGER; return 0;
	case 'l': r->flags |= SHOW_EVENT_FILTER; return 0;
	}
	if (flag[1] == '-')
		sh_err("list: invalid option -- '%s'\n", flag);
	else if (flag[1] != 'h')
		sh_err("list: invalid option -- '%c'\n", flag[1]);
	return -EINVAL;
}

static int parse_request(struct list_request *r, int argc, char **argv)
{
	int i;

	memset(r, 0, sizeof(*r));
	r->all = true;
	for (i = 2; i < argc; i++) {
		const char *next = i + 1 < argc && argv[i + 1][0] != '-' ?
				   argv[i + 1] : NULL;

		if (argv[i][0] == '-' && parse_flag(r, argv[i], next))
			return -EINVAL;
	}
	return 0;
}

static int compile(struct regex *re, const char *pattern)
{
	int err = regex_compile(re, pattern, REGEX_ICASE);

	if (err)
		sh_err("trace-cmd: invalid regex '%s': %s\n", pattern,
		       regex_error(err));
	return err ? -EINVAL : 0;
}

static bool matches(struct regex *re, const char *s, size_t len)
{
	return regex_exec(re, s, len, 0, NULL, 0) == 0;
}

/* A tracefs file, or only its lines that re matches. */
static int show_file_re(struct shell_out *out, const char *file,
			const char *pattern)
{
	char path[PATH_MAX], *text, *line, *end, *next;
	struct regex re;

	snprintf(path, sizeof(path), TRACEFS "%s", file);
	if (!pattern || !*pattern)
		return sh_cat(out, "trace-cmd", path);
	if (compile(&re, pattern))
		return 1;
	text = sh_read_file(path);
	if (IS_ERR(text)) {
		regex_free(&re);
		sh_err("trace-cmd: %s\n  reading %s\n",
		       strerror_text(PTR_ERR(text)), path);
		return 1;
	}
	for (line = text; *line; line = next) {
		end = strchr(line, '\n');
		next = end ? end + 1 : line + strlen(line);
		if (!end)
			end = next;
		if (matches(&re, line, end - line))
			sh_printf(out, "%.*s\n", (int)(end - line), line);
	}
	kfree(text);
	regex_free(&re);
	return 0;
}

/* Prints an event file with the event's name first, as -l and -R do. */
static int show_event_file(struct shell_out *out, const char *system,
			   const char *event, const char *file)
{
	char path[PATH_MAX];
	int status;

	snprintf(path, sizeof(path), TRACEFS "events/%s/%s/%s", system,
		 event, file);
	sh_printf(out, "%s:%s\n", system, event);
	status = sh_cat(out, "trace-cmd", path);
	sh_puts(out, "\n");
	return status;
}

/* -F: "system: SYS", then the format up to its print fmt (or all). */
static int show_event_format(struct shell_out *out, const char *system,
			     const char *event, bool full)
{
	char path[PATH_MAX], *text, *cut;

	snprintf(path, sizeof(path), TRACEFS "events/%s/%s/format", system,
		 event);
	text = sh_read_file(path);
	if (IS_ERR(text))
		return 1;
	cut = full ? NULL : strstr(text, "\nprint fmt");
	if (cut)
		cut[1] = 0;
	sh_printf(out, "system: %s\n%s", system, text);
	kfree(text);
	return 0;
}

static int show_event(struct shell_out *out, const char *system,
		      const char *event, int flags)
{
	if (flags & SHOW_EVENT_FORMAT)
		return show_event_format(out, system, event,
					 flags & SHOW_EVENT_FULL);
	if (flags & SHOW_EVENT_FILTER)
		return show_event_file(out, system, event, "filter");
	if (flags & SHOW_EVENT_TRIGGER)
		return show_event_file(out, system, event, "trigger");
	sh_printf(out, "%s:%s\n", system, event);
	return 0;
}

/* Names of the subdirectories of events/ or events/SYSTEM. */
static int event_dirs(const char *system, struct name_list *l)
{
	char path[PATH_MAX];
	int i, err;

	snprintf(path, sizeof(path), TRACEFS "events/%s", system);
	err = trace_dat_list_dirs(path, l);
	for (i = 0; !err && i < l->count; i++)
		*strchr(l->names[i], '/') = 0;
	return err;
}

/* The events of system whose names re matches (all if re is NULL). */
static int show_system(struct shell_out *out, const char *system,
		       struct regex *re, int flags)
{
	struct name_list events;
	int i, status = 0;

	if (event_dirs(system, &events))
		return 1;
	for (i = 0; i < events.count; i++) {
		const char *event = events.names[i];

		if (!re || matches(re, event, strlen(event)))
			status |= show_event(out, system, event, flags);
	}
	name_list_free(&events);
	return status;
}

/*
 * SYSRE[:EVENTRE]: the events of the systems SYSRE matches (those
 * EVENTRE matches, if given); without a colon, also the events of
 * other systems whose own names SYSRE matches.
 */
static int show_events_re(struct shell_out *out, struct regex *sys_re,
			  struct regex *event_re, bool just_systems, int flags)
{
	struct name_list systems;
	int i, status = 0;

	if (event_dirs("", &systems))
		return 1;
	for (i = 0; i < systems.count; i++) {
		const char *system = systems.names[i];

		if (matches(sys_re, system, strlen(system)))
			status |= show_system(out, system, event_re, flags);
		else if (!just_systems)
			status |= show_system(out, system, sys_re, flags);
	}
	name_list_free(&systems);
	return status;
}

static int show_events(struct shell_out *out, const struct list_request *r)
{
	struct regex sys_re, event_re;
	char sys_pattern[NAME_LIST_WIDTH];
	const char *colon;
	int status;

	if (r->flags && !r->eventre) {
		sh_err("trace-cmd: When specifying event files, an event must be named\n");
		return 1;
	}
	if (!r->eventre || !*r->eventre)
		return sh_cat(out, "trace-cmd", TRACEFS "available_events");
	colon = strchr(r->eventre, ':');
	strlcpy(sys_pattern, r->eventre, colon ?
		min((size_t)(colon - r->eventre + 1), sizeof(sys_pattern)) :
		sizeof(sys_pattern));
	if (compile(&sys_re, sys_pattern))
		return 1;
	if (colon && colon[1] && compile(&event_re, colon + 1)) {
		regex_free(&sys_re);
		return 1;
	}
	status = show_events_re(out, &sys_re,
				colon && colon[1] ? &event_re : NULL,
				colon != NULL, r->flags);
	if (colon && colon[1])
		regex_free(&event_re);
	regex_free(&sys_re);
	return status;
}

static int show_systems(struct shell_out *out)
{
	struct name_list systems;
	int i;

	if (event_dirs("", &systems))
		return 1;
	for (i = 0; i < systems.count; i++)
		sh_printf(out, "%s\n", systems.names[i]);
	sh_puts(out, "\n");
	name_list_free(&systems);
	return 0;
}

static int show_buffers(struct shell_out *out)
{
	struct name_list instances;
	int i;

	if (trace_dat_list_dirs(TRACEFS "instances", &instances)) {
		sh_err("trace-cmd: Can not read instance directory\n");
		return 1;
	}
	for (i = 0; i < instances.count; i++)
		sh_printf(out, "%.*s\n", (int)strlen(instances.names[i]) - 1,
			  instances.names[i]);
	if (!instances.count)
		sh_puts(out, "No buffer instances defined\n");
	name_list_free(&instances);
	return 0;
}

static int show_all(struct shell_out *out)
{
	int status;

	sh_puts(out, "event systems:\n");
	status = show_systems(out);
	sh_puts(out, "events:\n");
	status |= show_file_re(out, "available_events", NULL);
	sh_puts(out, "\ntracers:\n");
	status |= show_file_re(out, "available_tracers", NULL);
	sh_puts(out, "\noptions:\n");
	return status | show_file_re(out, "trace_options", NULL);
}

/* In trace-cmd's order, whatever the order of the flags. */
int trace_cmd_list(struct shell_out *out, int argc, char **argv)
{
	struct list_request r;
	int status = 0;

	if (parse_request(&r, argc, argv))
		return list_usage();
	if (r.events)
		status |= show_events(out, &r);
	if (r.tracers)
		status |= show_file_re(out, "available_tracers", NULL);
	if (r.options)
		status |= show_file_re(out, "trace_options", NULL);
	if (r.funcs)
		status |= show_file_re(out, "available_filter_functions",
				       r.funcre);
	if (r.buffers)
		status |= show_buffers(out);
	if (r.clocks)
		status |= show_file_re(out, "trace_clock", NULL);
	if (r.systems)
		status |= show_systems(out);
	if (r.all)
		status |= show_all(out);
	return status;
}
