/*
 * shell.c: the console shell, the first kernel thread. It reads lines
 * with readline, asks for more ("> ") while a command is open (a quote,
 * an if without its fi, a here-document), then runs what was typed
 * through the shell language (sh_parse.c, sh_exec.c). Ctrl-C stops the
 * console's process group, which the shell and what it runs share;
 * the shell then drops the typed-ahead input up to the Ctrl-C, as a
 * tty flushes its input on an interrupt. `exit` starts a fresh shell,
 * as init respawns a console's getty; a nested `sh` ends there. With
 * rdinit=/path on the command line, that script runs first.
 */
#include "kernel.h"
#include "shell.h"
#include "readline.h"
#include "name_list.h"
#include "vfs.h"
#include "sched.h"
#include "printk.h"
#include "string.h"
#include "mm.h"
#include "init.h"
#include "asm/csr.h"
#include "fdt.h"
#include "sh.h"

#define CTRL_C		0x03

struct inode *shell_cwd(void)
{
	struct sh_state *sh = current->shell;

	return sh && sh->cwd ? sh->cwd : vfs_root();
}

void shell_set_cwd(struct inode *dir)
{
	struct sh_state *sh = current->shell;

	if (sh)
		vfs_set_pwd(&sh->cwd, dir);
}

const struct shell_command *shell_find_command(const char *name)
{
	const struct shell_command *cmd;

	for_each_shell_command(cmd)
		if (!strcmp(cmd->name, name))
			return cmd;
	return NULL;
}

/* Drop input typed before the Ctrl-C that interrupted a command. */
static void discard_interrupted_input(void)
{
	int c;

	do
		c = console_trygetc();
	while (c >= 0 && c != CTRL_C);
	/* Echoed here unless the command read it (readline echoes it). */
	if (c == CTRL_C)
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

/* What was typed so far of a command that may span lines. */
struct typed {
	char *text;
	size_t len, size;
};

static bool typed_add(struct typed *t, const char *line)
{
	size_t n = strlen(line), size = t->size;
	char *bigger;

	while (t->len + n + 2 > size)
		size = size ? size * 2 : SHELL_LINE_MAX + 2;
	if (size != t->size) {
		bigger = kmalloc(size);
		if (!bigger) {
			sh_err("sh: %s\n", strerror_text(ENOMEM));
			return false;
		}
		memcpy(bigger, t->text, t->len);
		kfree(t->text);
		t->text = bigger;
		t->size = size;
	}
	memcpy(t->text + t->len, line, n);
	t->len += n;
	t->text[t->len++] = '\n';
	t->text[t->len] = 0;
	return true;
}

/*
 * Parse all that was typed: run it when it is whole; false when a
 * command is still open and another line is wanted.
 */
static bool run_typed(struct sh_state *sh, const char *text)
{
	struct sh_arena *arena = sh_arena_new();
	struct sh_lexer lx;
	struct sh_node *n;
	int err;

	if (!arena) {
		sh_err("sh: %s\n", strerror_text(ENOMEM));
		return true;
	}
	sh_lexer_init(&lx, text, true, arena);
	err = sh_parse_program(&lx, &n);
	if (err == SH_INCOMPLETE) {
		sh_arena_put(arena);
		return false;
	}
	if (err) {
		sh_err("sh: %s\n", lx.error);
		sh->status = 2;
	} else if (n) {
		sh_run(sh, n);
	}
	sh_arena_put(arena);
	return true;
}

/*
 * The console shell first takes what the last command left of the line
 * it read (typed ahead, as bash reads it from the tty), shown after the
 * prompt as if typed; else it edits a new line.
 */
static int read_command_line(const char *prompt, char *line,
			     bool console_shell)
{
	int len = console_shell ? sh_console_unread(line, SHELL_LINE_MAX + 1)
				: 0;

	if (!len)
		return readline(prompt, line, SHELL_LINE_MAX + 1);
	console_puts(prompt);
	console_puts(line);
	console_write("\n", 1);
	return len;
}

/* Read and run lines until exit (or Ctrl-D, for a nested shell). */
static void interactive_loop(struct sh_state *sh, bool console_shell)
{
	struct typed t = { 0 };
	char prompt[PATH_MAX + 16], *line = kmalloc(SHELL_LINE_MAX + 1);
	int len;

	while (line && !sh->exiting) {
		current->sigpending = false;
		sh->aborted = false;
		sh_jobs_reap(sh, true);
		if (t.len)
			strlcpy(prompt, sh_getvar(sh, "PS2") ?: "> ",
				sizeof(prompt));
		else
			make_prompt(prompt, sizeof(prompt));
		len = read_command_line(prompt, line, console_shell);
		if (len == -ENODATA) {
			if (!console_shell)
				break;
			/* ignored, as bash's ignoreeof: a new row for a prompt */
			console_write("\n", 1);
		}
		if (line_refused(len)) {
			t.len = 0;
			continue;
		}
		history_add(line);
		if (!typed_add(&t, line) || run_typed(sh, t.text))
			t.len = 0;
		if (current->sigpending)
			discard_interrupted_input();
	}
	sh_run_exit_trap(sh);
	kfree(line);
	kfree(t.text);
}

static struct sh_state *new_interactive_state(void)
{
	struct sh_state *sh;

	while (!(sh = sh_state_new()))
		msleep(100);	/* without a shell nothing can free memory */
	sh->interactive = true;
	return sh;
}

static void nested_main(void *arg)
{
	int *status = arg;
	struct sh_state *sh = current->shell;

	interactive_loop(sh, false);
	*status = sh->status;
	current->shell = NULL;
	sh_state_free(sh);
}

int sh_interactive(void)
{
	struct sh_state *sh = sh_state_new();
	int status = 0;
	struct task *t = sh ? kthread_create(nested_main, &status, "sh") :
			 NULL;

	if (!t) {
		sh_state_free(sh);
		sh_err("sh: can't fork: %s\n", strerror_text(ENOMEM));
		return 2;
	}
	sh->interactive = true;
	sh->pid = t->pid;
	sh->cwd = shell_cwd();
	t->shell = sh;
	kthread_start(t);
	kthread_wait(t);
	return status;
}

/* rdinit=/path runs that script first, as Linux runs it as init. */
static void run_rdinit(void)
{
	char path[PATH_MAX];
	char *argv[] = { path, NULL };
	int status;

	if (!cmdline_value("rdinit", path, sizeof(path)))
		return;
	status = sh_run_script_file(path, 1, argv);
	if (status)
		sh_err("sh: %s: exit status %d\n", path, status);
}

static void shell_main(void *arg)
{
	struct sh_state *sh;

	current->pgrp = current->pid;
	console_set_owner(current);
	run_rdinit();
	boot_instret = rdinstret();
	for (;;) {
		sh = new_interactive_state();
		current->shell = sh;
		interactive_loop(sh, true);
		current->shell = NULL;
		sh_state_free(sh);
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
