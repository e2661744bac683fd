/*
 * cmd_fileops.c: the commands that change the file tree: mkdir, rmdir,
 * rm, touch, cp, mv, chmod, mktemp, and stat to look at a file. Only
 * ramfs directories (/ and /tmp) take new names or lose them; tracefs
 * and the others refuse (Permission denied). Messages are busybox's.
 */
#include "kernel.h"
#include "mm.h"
#include "string.h"
#include "printf.h"
#include "kstrtox.h"
#include "time.h"
#include "vfs.h"
#include "shell.h"

/* path's directory and last name; name points into path. */
static int split_path(const char *path, struct inode **dir, const char **name)
{
	char parent[PATH_MAX];
	const char *slash = strrchr(path, '/');

	*name = slash ? slash + 1 : path;
	if (!slash) {
		*dir = shell_cwd();
		return 0;
	}
	strlcpy(parent, path, min((size_t)(slash - path + 1), sizeof(parent)));
	return vfs_walk(shell_cwd(), slash == path ? "/" : parent, dir);
}

static int make_dir(const char *path, bool parents)
{
	struct inode *dir, *made;
	const char *name;
	int err = split_path(path, &dir, &name);

	if (err == -ENOENT && parents) {
		char parent[PATH_MAX];

		strlcpy(parent, path, min((size_t)(name - path), sizeof(parent)));
		err = make_dir(parent, true);
		if (!err)
			err = split_path(path, &dir, &name);
	}
	if (err)
		return err;
	if (!*name || vfs_lookup(dir, name))
		return parents ? 0 : -EEXIST;
	if (!dir->iops || !dir->iops->mkdir)
		return -EACCES;
	made = dir->iops->mkdir(dir, name);
	if (IS_ERR(made))
		return PTR_ERR(made);
	return made ? 0 : -ENOMEM;
}

static int cmd_mkdir(struct shell_out *out, int argc, char **argv)
{
	bool parents = argc > 1 && !strcmp(argv[1], "-p");
	int i, err, status = 0;

	for (i = 1 + parents; i < argc; i++) {
		err = make_dir(argv[i], parents);
		if (err) {
			sh_err("mkdir: can't create directory '%s': %s\n",
			       argv[i], strerror_text(err));
			status = 1;
		}
	}
	return status;
}
SHELL_COMMAND("mkdir", cmd_mkdir, "[-p] DIR...: make directories");

/*
 * Only a writable directory (ramfs, the host's folder) gives up its
 * entries; one that lives elsewhere removes there first.
 */
static int remove_inode(struct inode *inode)
{
	struct inode *dir = inode->parent;
	int err;

	if (!dir || !dir->iops || !dir->iops->create)
		return -EACCES;
	if (dir->iops->unlink) {
		err = dir->iops->unlink(dir, inode);
		if (err)
			return err;
	}
	return vfs_remove(inode);
}

/* A directory whose children are removed whole (tracefs's instances/). */
static bool has_rmdir(struct inode *dir)
{
	return dir && dir->iops && dir->iops->rmdir;
}

static bool dir_empty(struct inode *dir)
{
	vfs_dir_populate(dir);
	return list_empty(&dir->children);
}

static int cmd_rmdir(struct shell_out *out, int argc, char **argv)
{
	struct inode *inode;
	int i, err, status = 0;

	for (i = 1; i < argc; i++) {
		err = vfs_walk(shell_cwd(), argv[i], &inode);
		if (!err && !S_ISDIR(inode->mode))
			err = -ENOTDIR;
		else if (!err && has_rmdir(inode->parent))
			err = inode->parent->iops->rmdir(inode->parent, inode);
		else if (!err && !dir_empty(inode))
			err = -ENOTEMPTY;
		else if (!err)
			err = remove_inode(inode);
		if (err) {
			sh_err("rmdir: '%s': %s\n", argv[i], strerror_text(err));
			status = 1;
		}
	}
	return status;
}
SHELL_COMMAND("rmdir", cmd_rmdir, "DIR...: remove empty directories");

static int cmd_rm(struct shell_out *out, int argc, char **argv)
{
	bool force = false, recursive = false;
	struct inode *inode;
	int i = 1, err, status = 0;
	const char *p;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++)
		for (p = argv[i] + 1; *p; p++) {
			force |= *p == 'f';
			recursive |= *p == 'r' || *p == 'R';
		}
	for (; i < argc; i++) {
		err = vfs_walk(shell_cwd(), argv[i], &inode);
		if (err == -ENOENT && force)
			continue;
		if (!err && S_ISDIR(inode->mode) && !recursive) {
			sh_err("rm: '%s' is a directory\n", argv[i]);
			status = 1;
			continue;
		}
		if (!err)
			err = remove_inode(inode);
		if (err) {
			sh_err("rm: can't remove '%s': %s\n", argv[i],
			       strerror_text(err));
			status = 1;
		}
	}
	return status;
}
SHELL_COMMAND("rm", cmd_rm, "[-rf] FILE...: remove files (-r: directories)");

static int cmd_touch(struct shell_out *out, int argc, char **argv)
{
	struct file *f;
	int i, err, status = 0;

	for (i = 1; i < argc; i++) {
		err = vfs_walk(shell_cwd(), argv[i], &(struct inode *){ NULL });
		if (err == -ENOENT) {
			err = vfs_open(shell_cwd(), argv[i], O_WRONLY | O_CREAT, &f);
			if (!err)
				err = vfs_close(f);
		}
		if (err) {
			sh_err("touch: %s: %s\n", argv[i], strerror_text(err));
			status = 1;
		}
	}
	return status;
}
SHELL_COMMAND("touch", cmd_touch, "FILE...: make empty files");

/* Where a copy or move of src goes: into dst, or dst/basename(src). */
static void target_path(const char *src, const char *dst, char *buf,
			size_t size)
{
	struct inode *inode;
	const char *base = strrchr(src, '/');

	if (!vfs_walk(shell_cwd(), dst, &inode) && S_ISDIR(inode->mode))
		snprintf(buf, size, "%s/%s", dst, base ? base + 1 : src);
	else
		strlcpy(buf, dst, size);
}

/* Byte for byte, in pages: a binary file (a trace.dat) too. */
static int copy_file(const char *src, const char *dst)
{
	struct shell_out o;
	struct file *in;
	ssize_t n = 0;
	char *buf;
	int err = vfs_open(shell_cwd(), src, O_RDONLY, &in);

	if (err)
		return err;
	buf = kmalloc(PAGE_SIZE);
	err = buf ? sh_open_output(dst, false, &o) : -ENOMEM;
	while (!err && !o.error && (n = vfs_read(in, buf, PAGE_SIZE)) > 0)
		sh_write(&o, buf, n);
	if (buf && !err)
		err = sh_close_output(&o) ?: (n < 0 ? n : 0);
	kfree(buf);
	vfs_close(in);
	return err;
}

/* SRC... DEST: several sources need a directory. */
static int two_or_more(const char *who, int argc, char **argv, int first)
{
	struct inode *inode;

	if (argc - first < 2) {
		sh_err("usage: %s SRC... DEST\n", who);
		return 2;
	}
	if (argc - first > 2 &&
	    (vfs_walk(shell_cwd(), argv[argc - 1], &inode) ||
	     !S_ISDIR(inode->mode))) {
		sh_err("%s: '%s' is not a directory\n", who, argv[argc - 1]);
		return 1;
	}
	return 0;
}

static int cmd_cp(struct shell_out *out, int argc, char **argv)
{
	char dst[PATH_MAX];
	int i, err, status = two_or_more("cp", argc, argv, 1);

	for (i = 1; !status && i < argc - 1; i++) {
		target_path(argv[i], argv[argc - 1], dst, sizeof(dst));
		err = copy_file(argv[i], dst);
		if (err) {
			sh_err("cp: can't copy '%s' to '%s': %s\n", argv[i], dst,
			       strerror_text(err));
			status = 1;
		}
	}
	return status;
}
SHELL_COMMAND("cp", cmd_cp, "SRC... DEST: copy files");

/*
 * A file in or into a directory that lives elsewhere (the host's
 * folder) is copied and the original removed; a directory is not.
 */
static int move_across(struct inode *inode, const char *src,
		       const char *dst)
{
	int err;

	if (S_ISDIR(inode->mode))
		return -EXDEV;
	err = copy_file(src, dst);
	return err ?: remove_inode(inode);
}

/* Within the ramfs a move renames; out of it, it copies and removes. */
static int move(const char *src, const char *dst)
{
	struct inode *inode, *dir, *old;
	const char *name;
	int err = vfs_walk(shell_cwd(), src, &inode);

	if (!err)
		err = split_path(dst, &dir, &name);
	if (err)
		return err;
	if (!inode->parent || !inode->parent->iops ||
	    !dir->iops || !dir->iops->create)
		return -EACCES;
	old = vfs_lookup(dir, name);
	if (old == inode)
		return 0;
	if (inode->parent->iops->lookup || dir->iops->lookup)
		return move_across(inode, src, dst);
	if (old && (S_ISDIR(old->mode) || remove_inode(old)))
		return -EEXIST;
	return vfs_rename(inode, dir, name);
}

static int cmd_mv(struct shell_out *out, int argc, char **argv)
{
	char dst[PATH_MAX];
	int i, err, status = two_or_more("mv", argc, argv, 1);

	for (i = 1; !status && i < argc - 1; i++) {
		target_path(argv[i], argv[argc - 1], dst, sizeof(dst));
		err = move(argv[i], dst);
		if (err) {
			sh_err("mv: can't rename '%s': %s\n", argv[i],
			       strerror_text(err));
			status = 1;
		}
	}
	return status;
}
SHELL_COMMAND("mv", cmd_mv, "SRC... DEST: move or rename files");

/* Octal, or [ugoa]*[+-=][rwx]+ as chmod(1) takes it. */
static int new_mode(const char *spec, unsigned int mode, unsigned int *out)
{
	unsigned int who = 0, bits = 0, v;
	char op;

	if (!kstrtouint(spec, 8, &v) && v <= 07777) {
		*out = (mode & S_IFMT) | v;
		return 0;
	}
	for (; *spec && strchr("ugoa", *spec); spec++)
		who |= *spec == 'u' ? 0700 : *spec == 'g' ? 070 :
		       *spec == 'o' ? 07 : 0777;
	op = *spec++;
	if (!op || !strchr("+-=", op))
		return -EINVAL;
	for (; *spec; spec++) {
		if (!strchr("rwx", *spec))
			return -EINVAL;
		bits |= *spec == 'r' ? 0444 : *spec == 'w' ? 0222 : 0111;
	}
	bits &= who ? who : 0777;
	if (op == '+')
		mode |= bits;
	else if (op == '-')
		mode &= ~bits;
	else
		mode = (mode & ~(who ? who : 0777)) | bits;
	*out = mode;
	return 0;
}

static int cmd_chmod(struct shell_out *out, int argc, char **argv)
{
	struct inode *inode;
	unsigned int mode;
	int i, err, status = 0;

	if (argc < 3) {
		sh_err("usage: chmod MODE FILE...\n");
		return 2;
	}
	for (i = 2; i < argc; i++) {
		err = vfs_walk(shell_cwd(), argv[i], &inode);
		if (!err)
			err = new_mode(argv[1], inode->mode, &mode);
		if (err == -EINVAL) {
			sh_err("chmod: invalid mode '%s'\n", argv[1]);
			return 1;
		}
		if (err) {
			sh_err("chmod: %s: %s\n", argv[i], strerror_text(err));
			status = 1;
			continue;
		}
		inode->mode = mode;
	}
	return status;
}
SHELL_COMMAND("chmod", cmd_chmod, "MODE FILE...: change permissions (755, +x, u-w)");

/* X's at the end of template become letters from the clock. */
static void fill_template(char *s)
{
	static const char letters[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	u64 r = ktime_get_ns() * 6364136223846793005ULL + 1442695040888963407ULL;
	size_t n = strlen(s);

	while (n && s[n - 1] == 'X') {
		s[--n] = letters[(r >> 33) % (sizeof(letters) - 1)];
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
	}
}

static int cmd_mktemp(struct shell_out *out, int argc, char **argv)
{
	bool dir = argc > 1 && !strcmp(argv[1], "-d");
	const char *tmpl = argc > 1 + dir ? argv[1 + dir] : "/tmp/tmp.XXXXXXXXXX";
	char path[PATH_MAX];
	struct file *f;
	int err, tries;

	for (tries = 0; tries < 100; tries++) {
		strlcpy(path, tmpl, sizeof(path));
		fill_template(path);
		if (!vfs_walk(shell_cwd(), path, &(struct inode *){ NULL }))
			continue;
		err = dir ? make_dir(path, false) :
		      vfs_open(shell_cwd(), path, O_WRONLY | O_CREAT, &f);
		if (!err && !dir)
			err = vfs_close(f);
		if (err) {
			sh_err("mktemp: failed to create %s from template %s: %s\n",
			       dir ? "directory" : "file", tmpl, strerror_text(err));
			return 1;
		}
		sh_printf(out, "%s\n", path);
		return 0;
	}
	sh_err("mktemp: %s: %s\n", tmpl, strerror_text(EEXIST));
	return 1;
}
SHELL_COMMAND("mktemp", cmd_mktemp, "[-d] [TEMPLATE]: make a new file (or directory) and print its name");

static const char *type_name(unsigned int mode)
{
	if (S_ISDIR(mode))
		return "directory";
	if ((mode & S_IFMT) == S_IFIFO)
		return "fifo";
	return "regular file";
}

/* stat -c FORMAT: %n name, %s size, %a octal mode, %A letters, %F type. */
static void stat_format(struct shell_out *out, const char *fmt,
			const char *name, struct inode *inode)
{
	char letters[11];

	sh_mode_string(inode->mode, letters);
	for (; *fmt; fmt++) {
		if (*fmt != '%' || !fmt[1]) {
			sh_write(out, fmt, 1);
			continue;
		}
		switch (*++fmt) {
		case 'n': sh_puts(out, name); break;
		case 's': sh_printf(out, "%zu", inode->size); break;
		case 'a': sh_printf(out, "%o", inode->mode & 07777); break;
		case 'A': sh_puts(out, letters); break;
		case 'F': sh_puts(out, type_name(inode->mode)); break;
		case 'u': case 'g': sh_puts(out, "0"); break;
		case 'U': case 'G': sh_puts(out, "root"); break;
		default: sh_printf(out, "%%%c", *fmt); break;
		}
	}
	sh_puts(out, "\n");
}

static int cmd_stat(struct shell_out *out, int argc, char **argv)
{
	const char *fmt = NULL;
	struct inode *inode;
	int i = 1, err, status = 0;

	if (argc > 2 && !strcmp(argv[1], "-c")) {
		fmt = argv[2];
		i = 3;
	}
	for (; i < argc; i++) {
		err = vfs_walk(shell_cwd(), argv[i], &inode);
		if (err) {
			sh_err("stat: can't stat '%s': %s\n", argv[i],
			       strerror_text(err));
			status = 1;
			continue;
		}
		if (fmt) {
			stat_format(out, fmt, argv[i], inode);
			continue;
		}
		sh_printf(out, "  File: %s\n", argv[i]);
		stat_format(out, "  Size: %s\tType: %F", argv[i], inode);
		stat_format(out, "Access: (0%a/%A)  Uid: (    0/    root)   Gid: (    0/    root)",
			    argv[i], inode);
	}
	return status;
}
SHELL_COMMAND("stat", cmd_stat, "[-c FORMAT] FILE...: a file's type, size and mode");
