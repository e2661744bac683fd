/*
 * sh_builtin.c: the builtins that change the shell itself, POSIX's
 * special builtins (exit, return, break, continue, set, shift, export,
 * unset, local, eval, ., exec, trap, :) and read, command, true and
 * false. They are commands like any other (SHELL_COMMAND) and reach
 * the shell they run in through sh_current(). Messages are busybox
 * ash's.
 */
#include "kernel.h"
#include "mm.h"
#include "string.h"
#include "kstrtox.h"
#include "sched.h"
#include "vfs.h"
#include "shell.h"
#include "sh.h"

static int cmd_colon(struct shell_out *out, int argc, char **argv)
{
	return 0;
}
SHELL_COMMAND(":", cmd_colon, "do nothing, successfully");

static int cmd_true(struct shell_out *out, int argc, char **argv)
{
	return 0;
}
SHELL_COMMAND("true", cmd_true, "exit with status 0");

static int cmd_false(struct shell_out *out, int argc, char **argv)
{
	return 1;
}
SHELL_COMMAND("false", cmd_false, "exit with status 1");

/* An optional count or status: def without one, -1 (said) if bad. */
static int number_arg(const char *who, int argc, char **argv, int def)
{
	int n;

	if (argc < 2)
		return def;
	if (kstrtoint(argv[1], 10, &n) || n < 0) {
		sh_err("sh: %s: Illegal number: %s\n", who, argv[1]);
		return -1;
	}
	return n;
}

static int cmd_exit(struct shell_out *out, int argc, char **argv)
{
	struct sh_state *sh = sh_current();
	int n = number_arg("exit", argc, argv, sh->status);

	sh->status = n < 0 ? 2 : n & 255;
	sh->exiting = true;
	return sh->status;
}
SHELL_COMMAND("exit", cmd_exit, "[N]: leave the shell (the console's starts over)");

static int cmd_return(struct shell_out *out, int argc, char **argv)
{
	struct sh_state *sh = sh_current();
	int n = number_arg("return", argc, argv, sh->status);

	sh->status = n < 0 ? 2 : n & 255;
	sh->returning = true;
	return sh->status;
}
SHELL_COMMAND("return", cmd_return, "[N]: return from a function or a . script");

static int leave_loops(int argc, char **argv, bool cont)
{
	struct sh_state *sh = sh_current();
	int n = number_arg(argv[0], argc, argv, 1);

	if (n <= 0) {
		if (!n)
			sh_err("sh: %s: Illegal number: 0\n", argv[0]);
		return 2;
	}
	if (!sh->loops)
		return 0;
	sh->breaks = min(n, sh->loops);
	sh->continuing = cont;
	return 0;
}

static int cmd_break(struct shell_out *out, int argc, char **argv)
{
	return leave_loops(argc, argv, false);
}
SHELL_COMMAND("break", cmd_break, "[N]: leave N loops");

static int cmd_continue(struct shell_out *out, int argc, char **argv)
{
	return leave_loops(argc, argv, true);
}
SHELL_COMMAND("continue", cmd_continue, "[N]: go on with the Nth enclosing loop");

/* A value as `set` and `export -p` print it, in single quotes. */
static void print_quoted(struct shell_out *out, const char *v)
{
	sh_puts(out, "'");
	for (; *v; v++) {
		if (*v == '\'')
			sh_puts(out, "'\\''");
		else
			sh_write(out, v, 1);
	}
	sh_puts(out, "'");
}

static void print_vars(struct shell_out *out, bool exported_only)
{
	struct sh_var *v;

	for (v = sh_current()->vars; v; v = v->next) {
		if (exported_only && !v->exported)
			continue;
		if (!v->value && !exported_only)
			continue;
		sh_printf(out, "%s%s", exported_only ? "export " : "",
			  v->name);
		if (v->value) {
			sh_puts(out, "=");
			print_quoted(out, v->value);
		}
		sh_puts(out, "\n");
	}
}

static bool set_option(struct sh_state *sh, char c, bool on)
{
	switch (c) {
	case 'e':	sh->opt_e = on; return true;
	case 'x':	sh->opt_x = on; return true;
	case 'u':	sh->opt_u = on; return true;
	default:	return false;
	}
}

static bool set_long_option(struct sh_state *sh, const char *name, bool on)
{
	if (!strcmp(name, "errexit"))
		return set_option(sh, 'e', on);
	if (!strcmp(name, "xtrace"))
		return set_option(sh, 'x', on);
	if (!strcmp(name, "nounset"))
		return set_option(sh, 'u', on);
	return false;
}

static int cmd_set(struct shell_out *out, int argc, char **argv)
{
	struct sh_state *sh = sh_current();
	int i;
	const char *p;

	if (argc == 1) {
		print_vars(out, false);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		p = argv[i];
		if (!strcmp(p, "--")) {
			i++;
			break;
		}
		if ((p[0] != '-' && p[0] != '+') || !p[1])
			break;
		if (p[1] == 'o' && !p[2]) {
			if (i + 1 >= argc ||
			    !set_long_option(sh, argv[i + 1], p[0] == '-')) {
				sh_err("sh: set: -o %s: invalid option\n",
				       i + 1 < argc ? argv[i + 1] : "");
				return 2;
			}
			i++;
			continue;
		}
		for (p++; *p; p++) {
			if (!set_option(sh, *p, argv[i][0] == '-')) {
				sh_err("sh: set: illegal option -%c\n", *p);
				return 2;
			}
		}
	}
	if (i < argc || !strcmp(argv[i - 1], "--")) {
		if (sh_set_args(sh, argc - i, argv + i)) {
			sh_err("sh: %s\n", strerror_text(ENOMEM));
			return 1;
		}
	}
	return 0;
}
SHELL_COMMAND("set", cmd_set, "[-eux] [-o OPT] [-- ARGS]: options, positional parameters");

static int cmd_shift(struct shell_out *out, int argc, char **argv)
{
	struct sh_state *sh = sh_current();
	int n = number_arg("shift", argc, argv, 1);

	if (n < 0)
		return 2;
	if (n > sh->argc) {
		sh_err("sh: shift: can't shift that many\n");
		return 1;
	}
	if (sh_set_args(sh, sh->argc - n, sh->argv + n)) {
		sh_err("sh: %s\n", strerror_text(ENOMEM));
		return 1;
	}
	return 0;
}
SHELL_COMMAND("shift", cmd_shift, "[N]: drop the first N positional parameters");

/* NAME or NAME=value, for export and local. */
static int name_and_value(const char *who, const char *arg, size_t *n)
{
	const char *eq = strchr(arg, '=');

	*n = eq ? (size_t)(eq - arg) : strlen(arg);
	if (!sh_is_name(arg, *n)) {
		sh_err("sh: %s: %s: bad variable name\n", who, arg);
		return 1;
	}
	return 0;
}

static int declare(const char *who, int argc, char **argv,
		   int (*mark)(struct sh_state *, const char *))
{
	struct sh_state *sh = sh_current();
	int i, status = 0, err;
	char *name;
	size_t n;

	for (i = 1; i < argc; i++) {
		if (name_and_value(who, argv[i], &n)) {
			status = 1;
			continue;
		}
		name = sh_strndup(argv[i], n);
		err = name ? mark(sh, name) : -ENOMEM;
		if (!err && argv[i][n])
			err = sh_setvar(sh, name, argv[i] + n + 1);
		kfree(name);
		if (err) {
			sh_err("sh: %s\n", strerror_text(ENOMEM));
			return 1;
		}
	}
	return status;
}

static int cmd_export(struct shell_out *out, int argc, char **argv)
{
	if (argc == 1 || (argc == 2 && !strcmp(argv[1], "-p"))) {
		print_vars(out, true);
		return 0;
	}
	return declare("export", argc, argv, sh_export);
}
SHELL_COMMAND("export", cmd_export, "NAME[=VALUE]...: pass variables to scripts and commands");

static int cmd_local(struct shell_out *out, int argc, char **argv)
{
	if (!sh_current()->func_depth) {
		sh_err("sh: local: not in a function\n");
		return 1;
	}
	return declare("local", argc, argv, sh_local);
}
SHELL_COMMAND("local", cmd_local, "NAME[=VALUE]...: variables of the running function");

static int cmd_unset(struct shell_out *out, int argc, char **argv)
{
	struct sh_state *sh = sh_current();
	bool funcs = argc > 1 && !strcmp(argv[1], "-f");
	int i = argc > 1 && (funcs || !strcmp(argv[1], "-v")) ? 2 : 1;

	for (; i < argc; i++) {
		if (funcs)
			sh_unset_func(sh, argv[i]);
		else
			sh_unsetvar(sh, argv[i]);
	}
	return 0;
}
SHELL_COMMAND("unset", cmd_unset, "[-f|-v] NAME...: remove variables or functions");

/* The words joined with spaces, as eval and trap take them. */
static char *join_args(int argc, char **argv)
{
	size_t len = 1;
	char *s;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = kmalloc(len);
	if (!s)
		return NULL;
	s[0] = 0;
	for (i = 0; i < argc; i++) {
		if (i)
			strlcat(s, " ", len);
		strlcat(s, argv[i], len);
	}
	return s;
}

static int cmd_eval(struct shell_out *out, int argc, char **argv)
{
	struct sh_state *sh = sh_current();
	char *text = join_args(argc - 1, argv + 1);
	int status;

	if (!text) {
		sh_err("sh: %s\n", strerror_text(ENOMEM));
		return 1;
	}
	sh->status = 0;
	status = sh_eval_string(sh, text);
	kfree(text);
	return status;
}
SHELL_COMMAND("eval", cmd_eval, "ARGS...: run the words as shell commands");

/* ., as in dash: a name without / is looked for along PATH, then here. */
static char *dot_file_text(struct sh_state *sh, const char *name)
{
	char *path, *text;

	path = strchr(name, '/') ? ERR_PTR(-ENOENT) : sh_find_program(sh, name);
	if (IS_ERR(path))
		return sh_read_file(name);
	text = sh_read_file(path);
	kfree(path);
	return text;
}

static int cmd_dot(struct shell_out *out, int argc, char **argv)
{
	struct sh_state *sh = sh_current();
	int saved_argc = sh->argc, status;
	char **saved_argv = sh->argv, *text;

	if (argc < 2) {
		sh_err("sh: .: filename argument required\n");
		return 2;
	}
	text = dot_file_text(sh, argv[1]);
	if (IS_ERR(text)) {
		sh_err("sh: .: can't open '%s'\n", argv[1]);
		return 2;
	}
	if (argc > 2) {
		sh->argc = 0;
		sh->argv = NULL;
		if (sh_set_args(sh, argc - 2, argv + 2)) {
			sh->argc = saved_argc;
			sh->argv = saved_argv;
			kfree(text);
			return 1;
		}
	}
	sh->status = 0;
	sh->func_depth++;
	status = sh_eval_string(sh, text);
	sh->func_depth--;
	if (sh->returning) {
		sh->returning = false;
		status = sh->status;
	}
	if (argc > 2) {
		sh_free_args(sh->argc, sh->argv);
		sh->argc = saved_argc;
		sh->argv = saved_argv;
	}
	kfree(text);
	return status;
}
SHELL_COMMAND(".", cmd_dot, "FILE [ARGS]: run a script in this shell");

static int cmd_source(struct shell_out *out, int argc, char **argv)
{
	return cmd_dot(out, argc, argv);
}
SHELL_COMMAND("source", cmd_source, "FILE [ARGS]: the same as .");

/* exec with only redirections keeps them (sh_exec.c); no command runs. */
static int cmd_exec(struct shell_out *out, int argc, char **argv)
{
	sh_err("sh: exec: %s: only redirections are supported\n", argv[1]);
	return 126;
}
SHELL_COMMAND("exec", cmd_exec, "[REDIRECTIONS]: make them the shell's own");

static char **trap_slot(struct sh_state *sh, const char *cond)
{
	if (!strcmp(cond, "EXIT") || !strcmp(cond, "0"))
		return &sh->trap_exit;
	if (!strcmp(cond, "INT") || !strcmp(cond, "SIGINT") ||
	    !strcmp(cond, "2"))
		return &sh->trap_int;
	return NULL;
}

static void print_traps(struct shell_out *out, struct sh_state *sh)
{
	if (sh->trap_exit) {
		sh_puts(out, "trap -- ");
		print_quoted(out, sh->trap_exit);
		sh_puts(out, " EXIT\n");
	}
	if (sh->trap_int) {
		sh_puts(out, "trap -- ");
		print_quoted(out, sh->trap_int);
		sh_puts(out, " INT\n");
	}
}

/* trap ACTION COND...: ACTION '-' resets, '' ignores (an empty trap). */
static int cmd_trap(struct shell_out *out, int argc, char **argv)
{
	struct sh_state *sh = sh_current();
	int i = 1, status = 0;
	char **slot, *action;
	const char *what;

	if (argc == 1) {
		print_traps(out, sh);
		return 0;
	}
	if (!strcmp(argv[i], "--"))
		i++;
	if (argc - i < 2) {
		sh_err("usage: trap ACTION EXIT|INT...\n");
		return 2;
	}
	what = argv[i];
	for (i++; i < argc; i++) {
		slot = trap_slot(sh, argv[i]);
		if (!slot) {
			sh_err("sh: trap: %s: invalid signal specification\n",
			       argv[i]);
			status = 1;
			continue;
		}
		action = strcmp(what, "-") ? sh_strdup(what) : NULL;
		kfree(*slot);
		*slot = action;
	}
	return status;
}
SHELL_COMMAND("trap", cmd_trap, "[ACTION COND...]: run ACTION on EXIT or INT (Ctrl-C)");

/* One line of standard input: a byte at a time from a file or pipe. */
static ssize_t read_line(char *buf, size_t size, bool raw)
{
	size_t len = 0;
	ssize_t n;
	char c;

	if (!current->files[0]) {
		n = sh_read_stdin(buf, size - 1);
		if (n <= 0)
			return n;
		len = n;
	} else {
		while (len + 1 < size && (n = sh_read_stdin(&c, 1)) == 1) {
			if (c == '\n' && !(raw || !len || buf[len - 1] != '\\'))
				len--;	/* a backslash-newline goes on */
			else if (c == '\n')
				break;
			else
				buf[len++] = c;
		}
		if (n < 0)
			return n;
		if (!n && !len)
			return 0;
		buf[len++] = '\n';
	}
	buf[len - 1] = 0;
	return len;
}

/* read's backslashes: each escapes the next byte, and goes. */
static void remove_backslashes(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1])
			s++;
		*w++ = *s;
	}
	*w = 0;
}

static bool in_ifs(const char *ifs, char c)
{
	return c && strchr(ifs, c);
}

/* Split line on IFS into the names; the last gets the rest. */
static int assign_fields(struct sh_state *sh, char *line, int argc,
			 char **names)
{
	const char *ifs = sh_getvar(sh, "IFS") ?: " \t\n";
	char *p = line, *end;
	int i, err = 0;

	for (i = 0; i < argc && !err; i++) {
		while (in_ifs(ifs, *p) && strchr(" \t\n", *p))
			p++;
		end = p;
		if (i == argc - 1) {
			end = p + strlen(p);
			while (end > p && in_ifs(ifs, end[-1]) &&
			       strchr(" \t\n", end[-1]))
				end--;
		} else {
			while (*end && !in_ifs(ifs, *end))
				end++;
		}
		err = sh_setvar_n(sh, names[i], strlen(names[i]), "");
		if (!err) {
			char saved = *end;

			*end = 0;
			err = sh_setvar(sh, names[i], p);
			*end = saved;
		}
		p = *end ? end + 1 : end;
	}
	return err;
}

static int cmd_read(struct shell_out *out, int argc, char **argv)
{
	struct sh_state *sh = sh_current();
	bool raw = false;
	char *line, *reply[] = { "REPLY" };
	ssize_t n;
	int i = 1, err;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-r"))
			raw = true;
		else if (!strcmp(argv[i], "-p") && i + 1 < argc)
			sh_err("%s", argv[++i]);
		else
			break;
	}
	line = kmalloc(SHELL_LINE_MAX + 2);
	if (!line) {
		sh_err("sh: %s\n", strerror_text(ENOMEM));
		return 1;
	}
	n = read_line(line, SHELL_LINE_MAX + 2, raw);
	if (n > 0 && !raw)
		remove_backslashes(line);
	err = n > 0 ? assign_fields(sh, line, i < argc ? argc - i : 1,
				    i < argc ? argv + i : reply) : 0;
	kfree(line);
	if (err)
		sh_err("sh: %s\n", strerror_text(ENOMEM));
	return n > 0 && !err ? 0 : 1;
}
SHELL_COMMAND("read", cmd_read, "[-r] [-p PROMPT] [NAME...]: read a line into variables");

static int cmd_command(struct shell_out *out, int argc, char **argv)
{
	const struct shell_command *cmd;
	int i, status = 0;

	if (argc < 2 || strcmp(argv[1], "-v")) {
		if (argc < 2)
			return 0;
		cmd = shell_find_command(argv[1]);
		if (!cmd) {
			sh_err("sh: %s: not found\n", argv[1]);
			return 127;
		}
		return cmd->fn(out, argc - 1, argv + 1);
	}
	for (i = 2; i < argc; i++)
		status |= sh_print_command_path(out, argv[i], true);
	return status;
}
SHELL_COMMAND("command", cmd_command, "[-v] NAME [ARGS]: run or find a command, not a function");
