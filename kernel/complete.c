/*
 * complete.c: Tab completion candidates: command names for the first
 * word of a line, directory entries for the words after it.
 */
#include "kernel.h"
#include "readline.h"
#include "shell.h"
#include "vfs.h"
#include "string.h"

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
	else
		complete_path(word, c);
}

void completion_free(struct completion *c)
{
	name_list_free(&c->candidates);
}
