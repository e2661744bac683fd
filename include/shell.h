/*
 * shell.h: the console shell (kernel/shell/shell.c), the first kernel thread,
 * its command table and the one output path every command writes to.
 */
#ifndef _SHELL_H
#define _SHELL_H

#include "kernel.h"

struct file;
struct inode;

/* Bytes in a command line: at least a Linux tty's (N_TTY_BUF_SIZE). */
#define SHELL_LINE_MAX	4096

/*
 * A command's standard output: the console, or the file (a redirect's,
 * a pipe) in the task's file table. The first failed write is kept in
 * error and ends output; the shell reports it as bash does ("sh: write
 * error: ..."), except a pipe whose reader has gone (EPIPE), which
 * ends the command quietly, as SIGPIPE does.
 */
struct shell_out {
	struct file *file;	/* NULL: the console */
	int error;
};

/*
 * Read up to n bytes of the running command's standard input (the
 * console, a file opened with <, a pipe or a here-document): the
 * bytes read, 0 at end of file, or a negative errno (-EINTR once
 * Ctrl-C was pressed).
 */
ssize_t sh_read_stdin(char *buf, size_t n);
/* Has Ctrl-C (or kill) asked the running command to stop? */
bool sh_interrupted(void);
/*
 * What a command left unread of the console line it read (as n_tty keeps
 * it for the next reader): copied into line without its newline, for the
 * shell to run as if typed; its length, 0 if none.
 */
size_t sh_console_unread(char *line, size_t size);

/*
 * A redirect's file: opened as `> path` (append: `>> path`) opens it,
 * relative to the shell's directory; closed where release may still
 * refuse what was written (a filter file applies its words there).
 * sh_close_output returns the first error of writing or closing.
 */
int sh_open_output(const char *path, bool append, struct shell_out *out);
int sh_close_output(struct shell_out *out);

void sh_write(struct shell_out *out, const char *buf, size_t n);
void sh_puts(struct shell_out *out, const char *s);
void sh_printf(struct shell_out *out, const char *fmt, ...) __printf(2, 3);
/* Standard error: the task's (2> redirects it), else the console. */
void sh_err(const char *fmt, ...) __printf(1, 2);

/*
 * A command: fn gets the words of its line (argv[0] is its name) and
 * returns 0 or an exit status. SHELL_COMMAND places one in the
 * .shell_cmds section, so any file can add a command.
 */
struct shell_command {
	const char *name;
	int (*fn)(struct shell_out *out, int argc, char **argv);
	const char *help;
};

#define SHELL_COMMAND(cname, cfn, chelp)				\
	static const struct shell_command __shell_cmd_##cfn		\
		__section(".shell_cmds") __used __aligned(8) = {	\
		cname, cfn, chelp }

extern const struct shell_command __start_shell_cmds[], __stop_shell_cmds[];

#define for_each_shell_command(c) \
	for ((c) = __start_shell_cmds; (c) < __stop_shell_cmds; (c)++)

const struct shell_command *shell_find_command(const char *name);

/*
 * For commands that drive files as a user would (kernel/shell/cmd_file.c):
 * sh_echo does what `echo TEXT > PATH` (or `>>`) does, one write of
 * TEXT and a newline, and returns its error; sh_cat prints a file to
 * out as `cat` does, errors prefixed with who; sh_read_file returns a
 * file's whole text, NUL-terminated, to be kfree'd, or an ERR_PTR;
 * sh_read_all does the same for any source rd reads from.
 */
int sh_echo(const char *path, bool append, const char *text);
int sh_cat(struct shell_out *out, const char *who, const char *path);
char *sh_read_file(const char *path);
char *sh_read_all(ssize_t (*rd)(void *src, char *buf, size_t n), void *src);
/* A mode as ls -l shows it ("drwxr-xr-x"): s has room for 11 bytes. */
void sh_mode_string(unsigned int mode, char *s);

/* The shell's current directory, which relative paths start from. */
struct inode *shell_cwd(void);
void shell_set_cwd(struct inode *dir);

/* A nested interactive shell on the console, until exit or Ctrl-D. */
int sh_interactive(void);

#endif
