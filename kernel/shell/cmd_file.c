/*
 * cmd_file.c: the shell's file commands: echo, cat, ls, cd and pwd,
 * and their cores for other commands (sh_echo, sh_cat, sh_read_file).
 * Messages follow GNU coreutils and bash, so that what a Linux user
 * knows reads the same here.
 */
#include "kernel.h"
#include "shell.h"
#include "name_list.h"
#include "vfs.h"
#include "mm.h"
#include "sched.h"
#include "string.h"

#define CAT_CHUNK	4096

/*
 * The whole line goes out in one write: tracefs parses writes whole.
 * The words came from one command line, so they and a newline fit;
 * static, as a line is too big for a stack and commands run one at a
 * time in the shell's thread.
 */
static int cmd_echo(struct shell_out *out, int argc, char **argv)
{
	static char line[SHELL_LINE_MAX + 2];
	bool newline = argc < 2 || strcmp(argv[1], "-n");
	size_t len = 0;
	int i;

	line[0] = 0;
	for (i = newline ? 1 : 2; i < argc; i++) {
		if (len)
			len = strlcat(line, " ", sizeof(line));
		len = strlcat(line, argv[i], sizeof(line));
	}
	if (newline)
		len = strlcat(line, "\n", sizeof(line));
	sh_write(out, line, min(len, sizeof(line) - 1));
	return 0;
}
SHELL_COMMAND("echo", cmd_echo, "[-n] [ARG...]: print the words (-n: no newline)");

/* GNU cat's check: `cat f >> f` would never end. */
static bool same_file(struct shell_out *out, struct file *f)
{
	return out->file && out->file->inode == f->inode;
}

/* Stream in chunks: a trace file can be megabytes, or never end. */
static ssize_t copy_out(struct shell_out *out, struct file *f, char *buf)
{
	ssize_t n = 0;

	while (!out->error && !current->sigpending) {
		n = vfs_read(f, buf, CAT_CHUNK);
		if (n <= 0)
			break;
		sh_write(out, buf, n);
	}
	return n == -EINTR ? 0 : n;
}

/* Returns 1 if it said what went wrong, as cat's exit status. */
static int cat_file(struct shell_out *out, const char *who, const char *path,
		    char *buf)
{
	struct file *f;
	ssize_t err = vfs_open(shell_cwd(), path, O_RDONLY, &f);
	bool same;

	if (err) {
		sh_err("%s: %s: %s\n", who, path, strerror_text(err));
		return 1;
	}
	same = same_file(out, f);
	if (same)
		sh_err("%s: %s: input file is output file\n", who, path);
	else if ((err = copy_out(out, f, buf)) < 0)
		sh_err("%s: %s: %s\n", who, path, strerror_text(err));
	vfs_close(f);
	return err || same;
}

int sh_cat(struct shell_out *out, const char *who, const char *path)
{
	char *buf = kmalloc(CAT_CHUNK);
	int status;

	if (!buf) {
		sh_err("%s: %s\n", who, strerror_text(ENOMEM));
		return 1;
	}
	status = cat_file(out, who, path, buf);
	kfree(buf);
	return status;
}

static int cmd_cat(struct shell_out *out, int argc, char **argv)
{
	int i, status = 0;

	if (argc < 2) {
		sh_err("usage: cat FILE...\n");
		return 1;
	}
	for (i = 1; i < argc && !current->sigpending && !out->error; i++)
		status |= sh_cat(out, "cat", argv[i]);
	return status;
}
SHELL_COMMAND("cat", cmd_cat, "FILE...: print the files");

/* Read f to its end into a buffer that doubles as it fills. */
static char *read_all(struct file *f)
{
	size_t len = 0, size = CAT_CHUNK;
	char *buf = kmalloc(size), *bigger;
	ssize_t n = 0;

	while (buf && (n = vfs_read(f, buf + len, size - 1 - len)) > 0) {
		len += n;
		if (len < size - 1)
			continue;
		bigger = kmalloc(size * 2);
		if (bigger)
			memcpy(bigger, buf, len);
		kfree(buf);
		buf = bigger;
		size *= 2;
	}
	if (!buf)
		return ERR_PTR(-ENOMEM);
	if (n < 0) {
		kfree(buf);
		return ERR_PTR(n);
	}
	buf[len] = 0;
	return buf;
}

char *sh_read_file(const char *path)
{
	struct file *f;
	int err = vfs_open(shell_cwd(), path, O_RDONLY, &f);
	char *text;

	if (err)
		return ERR_PTR(err);
	text = read_all(f);
	vfs_close(f);
	return text;
}

int sh_echo(const char *path, bool append, const char *text)
{
	struct shell_out out;
	int err = sh_open_output(path, append, &out);

	if (err)
		return err;
	sh_printf(&out, "%s\n", text);
	return sh_close_output(&out);
}

static void mode_string(unsigned int mode, char *s)
{
	static const char rwx[] = "rwxrwxrwx";
	int i;

	s[0] = S_ISDIR(mode) ? 'd' : '-';
	for (i = 0; i < 9; i++)
		s[i + 1] = mode & (0400 >> i) ? rwx[i] : '-';
	s[10] = 0;
}

static void print_entry(struct shell_out *out, struct inode *inode,
			const char *name, bool long_format)
{
	char mode[11];

	if (!long_format) {
		sh_printf(out, "%s\n", name);
		return;
	}
	mode_string(inode->mode, mode);
	sh_printf(out, "%s %8zu %s\n", mode, inode->size, name);
}

static int add_name(struct inode *child, void *data)
{
	name_list_add(data, child->name, "");
	return 0;
}

static void list_dir(struct shell_out *out, struct inode *dir,
		     bool long_format)
{
	struct name_list names;
	struct inode *child;
	int i;

	name_list_init(&names);
	vfs_for_each_child(dir, add_name, &names);
	for (i = 0; i < names.count; i++) {
		child = vfs_lookup(dir, names.names[i]);
		if (child)
			print_entry(out, child, names.names[i], long_format);
	}
	if (names.overflow)
		sh_err("ls: %s\n", strerror_text(ENOMEM));
	name_list_free(&names);
}

/* As GNU ls: the files named come first, then each directory named. */
static int ls_files(struct shell_out *out, int argc, char **argv,
		    bool long_format, bool *printed)
{
	struct inode *inode;
	int i, err, status = 0;

	for (i = 0; i < argc; i++) {
		err = vfs_walk(shell_cwd(), argv[i], &inode);
		if (err) {
			sh_err("ls: cannot access '%s': %s\n", argv[i],
			       strerror_text(err));
			status = 2;
		} else if (!S_ISDIR(inode->mode)) {
			print_entry(out, inode, argv[i], long_format);
			*printed = true;
		}
	}
	return status;
}

/* With several names, each directory gets a "name:" header. */
static void ls_dirs(struct shell_out *out, int argc, char **argv,
		    bool long_format, bool printed)
{
	struct inode *inode;
	int i;

	for (i = 0; i < argc; i++) {
		if (vfs_walk(shell_cwd(), argv[i], &inode) ||
		    !S_ISDIR(inode->mode))
			continue;
		if (printed)
			sh_puts(out, "\n");
		if (argc > 1)
			sh_printf(out, "%s:\n", argv[i]);
		list_dir(out, inode, long_format);
		printed = true;
	}
}

static int cmd_ls(struct shell_out *out, int argc, char **argv)
{
	static char *here[] = { "." };
	bool long_format = false, printed = false;
	int first = 1, status;

	for (; first < argc && argv[first][0] == '-' && argv[first][1]; first++) {
		if (strcmp(argv[first], "-l")) {
			sh_err("ls: invalid option '%s'\n", argv[first]);
			return 2;
		}
		long_format = true;
	}
	argc -= first;
	argv += first;
	if (!argc) {
		argc = 1;
		argv = here;
	}
	status = ls_files(out, argc, argv, long_format, &printed);
	ls_dirs(out, argc, argv, long_format, printed);
	return status;
}
SHELL_COMMAND("ls", cmd_ls, "[-l] [PATH...]: list directories (-l: mode and size)");

static int cmd_cd(struct shell_out *out, int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/";
	struct inode *dir;
	int err;

	if (argc > 2) {
		sh_err("sh: cd: too many arguments\n");
		return 1;
	}
	err = vfs_walk(shell_cwd(), path, &dir);
	if (!err && !S_ISDIR(dir->mode))
		err = -ENOTDIR;
	if (err) {
		sh_err("sh: cd: %s: %s\n", path, strerror_text(err));
		return 1;
	}
	shell_set_cwd(dir);
	return 0;
}
SHELL_COMMAND("cd", cmd_cd, "[DIR]: change the current directory (default /)");

static int cmd_pwd(struct shell_out *out, int argc, char **argv)
{
	char path[PATH_MAX];

	if (vfs_path(shell_cwd(), path, sizeof(path)) < 0)
		return 1;
	sh_printf(out, "%s\n", path);
	return 0;
}
SHELL_COMMAND("pwd", cmd_pwd, "print the current directory");
