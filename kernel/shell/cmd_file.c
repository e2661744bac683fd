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

/* echo -e's backslash escapes; \c ends all output (returns false). */
static bool unescape_echo(char *s, size_t *len)
{
	static const char from[] = "abefnrtv\\", to[] = "\a\b\x1b\f\n\r\t\v\\";
	char *r = s, *w = s, *p;
	int n, v;

	for (; *r; r++) {
		if (*r != '\\' || !r[1]) {
			*w++ = *r;
			continue;
		}
		r++;
		if (*r == 'c') {
			*len = w - s;
			return false;
		}
		if (*r == '0') {
			for (v = 0, n = 0; n < 3 && r[1] >= '0' && r[1] <= '7'; n++)
				v = v * 8 + *++r - '0';
			*w++ = v;
		} else if ((p = strchr(from, *r))) {
			*w++ = to[p - from];
		} else {
			*w++ = '\\';
			*w++ = *r;
		}
	}
	*len = w - s;
	return true;
}

/* busybox echo's options: any mix of -n, -e, -E before the words. */
static int echo_options(int argc, char **argv, bool *newline, bool *escapes)
{
	int i;
	const char *p;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		for (p = argv[i] + 1; *p && strchr("neE", *p); p++)
			;
		if (*p)
			break;
		for (p = argv[i] + 1; *p; p++) {
			if (*p == 'n')
				*newline = false;
			else
				*escapes = *p == 'e';
		}
	}
	return i;
}

/*
 * The whole line goes out in one write: tracefs parses writes whole.
 * A short line is built on the stack, so that echo into a tracefs file
 * fails only where the file does, never for want of its own buffer.
 */
static int cmd_echo(struct shell_out *out, int argc, char **argv)
{
	bool newline = true, escapes = false, go_on = true;
	int i, first = echo_options(argc, argv, &newline, &escapes);
	size_t size = 2, len = 0, n;
	char small[256], *line = small;

	for (i = first; i < argc; i++)
		size += strlen(argv[i]) + 1;
	if (size > sizeof(small))
		line = kmalloc(size);
	if (!line) {
		sh_err("echo: %s\n", strerror_text(ENOMEM));
		return 1;
	}
	for (i = first; i < argc && go_on; i++) {
		if (i > first)
			line[len++] = ' ';
		n = strlen(argv[i]);
		memcpy(line + len, argv[i], n + 1);
		if (escapes)
			go_on = unescape_echo(line + len, &n);
		len += n;
	}
	if (newline && go_on)
		line[len++] = '\n';
	sh_write(out, line, len);
	if (line != small)
		kfree(line);
	return 0;
}
SHELL_COMMAND("echo", cmd_echo, "[-neE] [ARG...]: print the words (-n: no newline, -e: escapes)");

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

/* Standard input to out, for cat and cat -. */
static int cat_stdin(struct shell_out *out)
{
	char *buf = kmalloc(CAT_CHUNK);
	ssize_t n = -ENOMEM;

	while (buf && !out->error && (n = sh_read_stdin(buf, CAT_CHUNK)) > 0)
		sh_write(out, buf, n);
	kfree(buf);
	if (n < 0 && n != -EINTR) {
		sh_err("cat: -: %s\n", strerror_text(n));
		return 1;
	}
	return 0;
}

static int cmd_cat(struct shell_out *out, int argc, char **argv)
{
	int i, status = 0;

	if (argc < 2)
		return cat_stdin(out);
	for (i = 1; i < argc && !current->sigpending && !out->error; i++)
		status |= strcmp(argv[i], "-") ? sh_cat(out, "cat", argv[i]) :
			  cat_stdin(out);
	return status;
}
SHELL_COMMAND("cat", cmd_cat, "[FILE...]: print the files (-: standard input)");

/* Read to the end with rd into a buffer that doubles as it fills. */
char *sh_read_all(ssize_t (*rd)(void *src, char *buf, size_t n), void *src)
{
	size_t len = 0, size = CAT_CHUNK;
	char *buf = kmalloc(size), *bigger;
	ssize_t n = 0;

	while (buf && (n = rd(src, buf + len, size - 1 - len)) > 0) {
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

static ssize_t read_file_chunk(void *f, char *buf, size_t n)
{
	return vfs_read(f, buf, n);
}

char *sh_read_file(const char *path)
{
	struct file *f;
	int err = vfs_open(shell_cwd(), path, O_RDONLY, &f);
	char *text;

	if (err)
		return ERR_PTR(err);
	text = sh_read_all(read_file_chunk, f);
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

void sh_mode_string(unsigned int mode, char *s)
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
	sh_mode_string(inode->mode, mode);
	sh_printf(out, "%s %8zu %s\n", mode, inode->size, name);
}

static int add_name(struct inode *child, void *data)
{
	name_list_add(data, child->name, "");
	return 0;
}

/* As ls: names that start with '.' only with -a, which adds . and .. */
static void list_dir(struct shell_out *out, struct inode *dir,
		     bool long_format, bool all)
{
	struct name_list names;
	struct inode *child;
	int i;

	name_list_init(&names);
	vfs_for_each_child(dir, add_name, &names);
	if (all) {
		print_entry(out, dir, ".", long_format);
		print_entry(out, dir->parent ? dir->parent : dir, "..",
			    long_format);
	}
	for (i = 0; i < names.count; i++) {
		child = vfs_lookup(dir, names.names[i]);
		if (child && (all || names.names[i][0] != '.'))
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
		    bool long_format, bool all, bool printed)
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
		list_dir(out, inode, long_format, all);
		printed = true;
	}
}

static int cmd_ls(struct shell_out *out, int argc, char **argv)
{
	static char *here[] = { "." };
	bool long_format = false, all = false, printed = false;
	int first = 1, status;
	const char *p;

	for (; first < argc && argv[first][0] == '-' && argv[first][1]; first++) {
		for (p = argv[first] + 1; *p; p++) {
			if (*p != 'l' && *p != 'a') {
				sh_err("ls: invalid option -- '%c'\n", *p);
				return 2;
			}
			long_format |= *p == 'l';
			all |= *p == 'a';
		}
	}
	argc -= first;
	argv += first;
	if (!argc) {
		argc = 1;
		argv = here;
	}
	status = ls_files(out, argc, argv, long_format, &printed);
	ls_dirs(out, argc, argv, long_format, all, printed);
	return status;
}
SHELL_COMMAND("ls", cmd_ls, "[-la] [PATH...]: list directories (-l: mode and size, -a: all)");

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
