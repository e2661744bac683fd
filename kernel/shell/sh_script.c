/*
 * sh_script.c: shell scripts. `sh FILE [ARGS]`, `sh -c 'TEXT' [ARG0
 * [ARGS]]`, text piped into `sh`, and a file that starts with
 * `#!/bin/sh` and has an execute bit, run by its name (found through
 * PATH when the name has no /, as execvp does). Each runs in a new task
 * with a shell of its own, which gets the caller's exported variables
 * and directory, as exec'ing /bin/sh would.
 */
#include "kernel.h"
#include "mm.h"
#include "string.h"
#include "printf.h"
#include "sched.h"
#include "vfs.h"
#include "shell.h"
#include "sh.h"

#define DEFAULT_PATH	"/bin:/sbin:/usr/bin:/usr/sbin"

/* name's file if it exists, is a regular file and may be executed. */
static char *program_at(const char *path)
{
	struct inode *inode;
	int err = vfs_walk(shell_cwd(), path, &inode);

	if (!err && S_ISDIR(inode->mode))
		err = -EACCES;
	else if (!err && !(inode->mode & S_IXUGO))
		err = -EACCES;
	return err ? ERR_PTR(err) : sh_strdup(path) ?: ERR_PTR(-ENOMEM);
}

char *sh_find_program(struct sh_state *sh, const char *name)
{
	const char *path = sh_getvar(sh, "PATH"), *p, *colon;
	char *found, full[PATH_MAX];
	size_t n;

	if (strchr(name, '/'))
		return program_at(name);
	for (p = path ? path : DEFAULT_PATH; *p; p = colon + !!*colon) {
		colon = strchr(p, ':');
		if (!colon)
			colon = p + strlen(p);
		n = colon - p;
		snprintf(full, sizeof(full), "%.*s%s%s", (int)n, p,
			 n ? "/" : "", name);
		found = program_at(full);
		if (!IS_ERR(found) || PTR_ERR(found) == -ENOMEM)
			return found;
	}
	return ERR_PTR(-ENOENT);
}

/*
 * `command -v` and `which`: print what name runs, a built-in (or, with
 * functions, a shell function) by its name and a program by its path.
 * Returns 0, or 1 if nothing by that name runs.
 */
int sh_print_command_path(struct shell_out *out, const char *name,
			  bool functions)
{
	struct sh_state *sh = sh_current();
	char *path;

	if ((functions && sh_find_func(sh, name)) || shell_find_command(name)) {
		sh_printf(out, "%s\n", name);
		return 0;
	}
	path = sh_find_program(sh, name);
	if (IS_ERR(path))
		return 1;
	sh_printf(out, "%s\n", path);
	kfree(path);
	return 0;
}

struct script {
	char *text;
	int status;
};

static void script_main(void *arg)
{
	struct script *s = arg;
	struct sh_state *sh = current->shell;

	sh_eval_string(sh, s->text);
	sh_run_exit_trap(sh);
	s->status = sh_task_status(sh, sh->status);
	current->shell = NULL;
	sh_state_free(sh);
	sh_close_files(current->files);
}

/* A new shell for a script: the caller's exports and directory. */
static struct sh_state *script_shell(const char *arg0, int argc, char **argv)
{
	struct sh_state *caller = sh_current(), *sh = sh_state_new();
	struct sh_var *v;

	if (!sh)
		return NULL;
	kfree(sh->arg0);
	sh->arg0 = sh_strdup(arg0);
	if (!sh->arg0 || sh_set_args(sh, argc, argv))
		goto fail;
	if (!caller)
		return sh;
	sh->cwd = caller->cwd;
	for (v = caller->vars; v; v = v->next)
		if (v->exported && (sh_setvar(sh, v->name, v->value ?: "") ||
				    sh_export(sh, v->name)))
			goto fail;
	return sh;
fail:
	sh_state_free(sh);
	return NULL;
}

/* Run text as a script named arg0 in a new task; its exit status. */
static int run_script(char *text, const char *arg0, int argc, char **argv)
{
	struct script s = { .text = text };
	struct sh_state *sh = script_shell(arg0, argc, argv);
	struct task *t = sh ? kthread_create(script_main, &s, "sh") : NULL;

	if (!t) {
		sh_state_free(sh);
		sh_err("sh: can't fork: %s\n", strerror_text(ENOMEM));
		return 2;
	}
	sh->pid = t->pid;
	sh_inherit_files(t->files);
	t->shell = sh;
	kthread_start(t);
	sh_wait(t);
	return s.status;
}

/* A #! line must name a shell: the text after it is what sh runs. */
static bool interpreter_ok(const char *text, const char *path)
{
	const char *p = text + 2, *end, *base;
	size_t n;

	if (text[0] != '#' || text[1] != '!')
		return true;
	while (*p == ' ' || *p == '\t')
		p++;
	end = p;
	while (*end && *end != ' ' && *end != '\t' && *end != '\n')
		end++;
	for (base = end; base > p && base[-1] != '/'; base--)
		;
	n = end - base;
	if ((n == 2 && !strncmp(base, "sh", 2)) ||
	    (n == 3 && !strncmp(base, "ash", 3)) ||
	    (n == 4 && (!strncmp(base, "dash", 4) || !strncmp(base, "bash", 4))))
		return true;
	sh_err("sh: %s: %.*s: not found\n", path, (int)(end - p), p);
	return false;
}

int sh_run_script_file(const char *path, int argc, char **argv)
{
	char *text = sh_read_file(path);
	int status;

	if (IS_ERR(text)) {
		sh_err("sh: %s: %s\n", path, strerror_text(PTR_ERR(text)));
		return 127;
	}
	status = interpreter_ok(text, path) ?
		 run_script(text, path, argc - 1, argv + 1) : 127;
	kfree(text);
	return status;
}

/* Standard input, for `... | sh` (sh_read_all reads it to its end). */
static ssize_t read_stdin_chunk(void *unused, char *buf, size_t n)
{
	return sh_read_stdin(buf, n);
}

static int cmd_sh(struct shell_out *out, int argc, char **argv)
{
	char *text;
	int status;

	if (argc >= 2 && !strcmp(argv[1], "-c")) {
		if (argc < 3) {
			sh_err("sh: -c requires an argument\n");
			return 2;
		}
		return run_script(argv[2], argc > 3 ? argv[3] : "sh",
				  argc > 4 ? argc - 4 : 0, argv + 4);
	}
	if (argc >= 2)
		return sh_run_script_file(argv[1], argc - 1, argv + 1);
	if (!current->files[0])
		return sh_interactive();
	text = sh_read_all(read_stdin_chunk, NULL);
	if (PTR_ERR(text) == -EINTR)	/* Ctrl-C: nothing to run */
		return 130;
	if (IS_ERR(text)) {
		sh_err("sh: %s\n", strerror_text(PTR_ERR(text)));
		return 2;
	}
	status = run_script(text, "sh", 0, NULL);
	kfree(text);
	return status;
}
SHELL_COMMAND("sh", cmd_sh, "[-c TEXT [ARG0 ARGS] | FILE [ARGS]]: run a shell script");
