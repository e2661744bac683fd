/*
 * shell.c: the console shell. It reads a line, splits it into words
 * (lib/cmdline.c), opens a `>` or `>>` redirect and runs the command
 * from the .shell_cmds table with its output going there. Ctrl-C marks
 * the console's owner: a command polls current->sigpending, and the
 * shell then drops the typed-ahead input up to the Ctrl-C, as a tty
 * flushes its input on an interrupt.
 */
#include "kernel.h"
#include "shell.h"
#include "readline.h"
#include "name_list.h"
#include "cmdline.h"
#include "vfs.h"
#include "sched.h"
#include "printk.h"
#include "string.h"
#include "init.h"
#include "asm/csr.h"

#define CTRL_C		0x03

static struct inode *cwd;

struct inode *shell_cwd(void)
{
	return cwd ? cwd : vfs_root();
}

void shell_set_cwd(struct inode *dir)
{
	vfs_set_pwd(&cwd, dir);
}

const struct shell_command *shell_find_command(const char *name)
{
	const struct shell_command *cmd;

	for_each_shell_command(cmd)
		if (!strcmp(cmd->name, name))
			return cmd;
	return NULL;
}

static int open_redirect(const struct cmdline *cl, struct shell_out *out)
{
	int err;

	if (!cl->redirect)
		return 0;
	err = sh_open_output(cl->redirect, cl->append, out);
	if (err)
		sh_err("sh: %s: %s\n", cl->redirect, strerror_text(err));
	return err;
}

static void finish_output(struct shell_out *out)
{
	if (sh_close_output(out))
		sh_err("sh: write error: %s\n", strerror_text(out->error));
}

/* As bash does, the redirect is opened even for an unknown command. */
static void run_line(char *line)
{
	struct shell_out out = { NULL, 0 };
	const struct shell_command *cmd = NULL;
	struct cmdline cl;

	if (parse_cmdline(line, &cl)) {
		sh_err("sh: %s\n", cl.error);
		return;
	}
	if (open_redirect(&cl, &out))
		return;
	if (cl.argc) {
		cmd = shell_find_command(cl.argv[0]);
		if (cmd)
			cmd->fn(&out, cl.argc, cl.argv);
		else
			sh_err("sh: %s: command not found\n", cl.argv[0]);
	}
	finish_output(&out);
}

/* Drop input typed before the Ctrl-C that interrupted a command. */
static void discard_interrupted_input(void)
{
	int c;

	do
		c = console_trygetc();
	while (c >= 0 && c != CTRL_C);
	console_write("^C\n", 3);
}

static void make_prompt(char *prompt, size_t size)
{
	char path[PATH_MAX];

	if (vfs_path(shell_cwd(), path, sizeof(path)) < 0)
		strlcpy(path, "?", sizeof(path));
	snprintf(prompt, size, "rvftrace:%s# ", path);
}

/* A line readline refused is run in no part. */
static bool line_refused(int err)
{
	if (err == -E2BIG)
		sh_err("sh: line longer than %d bytes: not run\n",
		       SHELL_LINE_MAX);
	else if (err == -EINVAL)
		sh_err("sh: control character in the line: not run\n");
	return err < 0;
}

static void shell_main(void *arg)
{
	/* Static: a whole line is a quarter of the thread's stack. */
	static char line[SHELL_LINE_MAX + 1];
	char prompt[PATH_MAX + 16];

	console_set_owner(current);
	boot_instret = rdinstret();
	for (;;) {
		current->sigpending = false;
		make_prompt(prompt, sizeof(prompt));
		if (line_refused(readline(prompt, line, sizeof(line))))
			continue;
		history_add(line);
		run_line(line);
		if (current->sigpending)
			discard_interrupted_input();
	}
}

static int cmd_help(struct shell_out *out, int argc, char **argv)
{
	const struct shell_command *cmd;
	struct name_list names;
	int i;

	name_list_init(&names);
	for_each_shell_command(cmd)
		name_list_add(&names, cmd->name, "");
	for (i = 0; i < names.count; i++) {
		cmd = shell_find_command(names.names[i]);
		sh_printf(out, "%-9s %s\n", cmd->name, cmd->help);
	}
	name_list_free(&names);
	return 0;
}
SHELL_COMMAND("help", cmd_help, "list the commands");
BOOT_PROGRAM("sh", shell_main);
