/*
 * complete.c: Tab completion candidates: command names for the first
 * word of a line, directory entries for the words after it, and
 * function names (from available_filter_functions, as a user would
 * look them up) where a function name is what the line wants:
 *
 *   echo ... > set_ftrace_filter fi<TAB>   an echo into a filter file
 *   echo > set_graph_function !so<TAB>     (a leading ! is kept)
 *   trace-cmd start -p function -l fi<TAB> after trace-cmd's -l, -n, -g
 *
 * The line editor only adds at the end of the line, so the redirect
 * comes before the words there: `echo fib > set_ftrace_filter` and
 * `echo > set_ftrace_filter fib` are the same command.
 */
#include "kernel.h"
#include "readline.h"
#include "shell.h"
#include "cmdline.h"
#include "vfs.h"
#include "mm.h"
#include "string.h"

#define AVAILABLE_FUNCTIONS	"/sys/kernel/tracing/available_filter_functions"

/* The tracefs files whose words are function names. */
static const char *const filter_files[] = {
	"set_ftrace_filter", "set_ftrace_notrace", "set_graph_function",
	"set_graph_notrace",
};

struct dir_match {
	const char *stem;
	struct name_list *list;
};

static void complete_command(const char *word, struct completion *c)
{
	const struct shell_command *cmd;

	for_each_shell_command(cmd)
		if (str_has_prefix(cmd->name, word))
			name_list_add(&c->candidates, cmd->name, "");
	c->stem_len = strlen(word);
}

static int add_if_match(struct inode *child, void *data)
{
	struct dir_match *m = data;

	if (str_has_prefix(child->name, m->stem))
		name_list_add(m->list, child->name,
			      S_ISDIR(child->mode) ? "/" : "");
	return 0;
}

/* word is "DIR/STEM" or "STEM": entries of DIR (or the cwd) matching STEM. */
static void complete_path(const char *word, struct completion *c)
{
	const char *slash = strrchr(word, '/');
	struct dir_match m = { slash ? slash + 1 : word, &c->candidates };
	struct inode *dir = shell_cwd();
	char dirpath[PATH_MAX];

	if (slash) {
		strlcpy(dirpath, word, min((size_t)(slash - word + 2),
					   sizeof(dirpath)));
		dir = vfs_lookup(shell_cwd(), dirpath);
	}
	c->stem_len = strlen(m.stem);
	if (dir && S_ISDIR(dir->mode))
		vfs_for_each_child(dir, add_if_match, &m);
}

static bool is_filter_file(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t i;

	for (i = 0; i < ARRAY_SIZE(filter_files); i++)
		if (!strcmp(slash ? slash + 1 : path, filter_files[i]))
			return true;
	return false;
}

/*
 * Does the line up to the word being completed want a function name?
 * Only the shell's thread completes, so the copy parsed is static.
 */
static bool wants_function(const char *line, size_t before_word)
{
	static char buf[SHELL_LINE_MAX + 1];
	struct cmdline cl;
	const char *last;

	strlcpy(buf, line, min(before_word + 1, sizeof(buf)));
	if (parse_cmdline(buf, &cl) || !cl.argc)
		return false;	/* a redirect's file comes next, or bad syntax */
	last = cl.argv[cl.argc - 1];
	if (!strcmp(cl.argv[0], "echo"))
		return cl.redirect && is_filter_file(cl.redirect);
	return !strcmp(cl.argv[0], "trace-cmd") &&
	       (!strcmp(last, "-l") || !strcmp(last, "-n") ||
		!strcmp(last, "-g"));
}

/* The functions starting with stem; none for an empty stem (hundreds). */
static void complete_function(const char *word, struct completion *c)
{
	const char *stem = word[0] == '!' ? word + 1 : word;
	char *names = *stem ? sh_read_file(AVAILABLE_FUNCTIONS) : NULL;
	char *rest = names, *line;

	c->stem_len = strlen(stem);
	if (IS_ERR_OR_NULL(names))
		return;
	while ((line = str_next_line(&rest)))
		if (str_has_prefix(line, stem))
			name_list_add(&c->candidates, line, "");
	kfree(names);
}

void completion_find(const char *line, struct completion *c)
{
	const char *space = strrchr(line, ' ');
	const char *word = space ? space + 1 : line;
	const char *p = line;

	name_list_init(&c->candidates);
	while (p < word && *p == ' ')
		p++;
	if (p == word)
		complete_command(word, c);
	else if (wants_function(line, word - line))
		complete_function(word, c);
	else
		complete_path(word, c);
}

void completion_free(struct completion *c)
{
	name_list_free(&c->candidates);
}
