/*
 * vfs.c: the tree of inodes, path lookup and open files. A file's bytes
 * come from its inode's file_operations, so ramfs and tracefs differ
 * only in those. The tree's links and the open counts are under one
 * spinlock; file operations run without it and may sleep.
 */
#include "kernel.h"
#include "init.h"
#include "vfs.h"
#include "mm.h"
#include "string.h"
#include "printk.h"
#include "spinlock.h"
#include "sched.h"
#include "selftest.h"

static struct inode *root;
static DEFINE_SPINLOCK(tree_lock);
/* Directories fill one at a time, and by one task (see vfs_mkdir_lazy). */
static DEFINE_MUTEX(populate_lock);
static struct task *populating;
static struct inode *lazy_dirs;		/* every one, under tree_lock */

struct inode *vfs_root(void)
{
	return root;
}

/* name: len bytes (under NAME_MAX), the name field is zeroed. */
static struct inode *alloc_inode(const char *name, size_t len,
				 unsigned int mode)
{
	struct inode *inode = kzalloc(sizeof(*inode));

	if (!inode)
		return NULL;
	memcpy(inode->name, name, len);
	inode->name_len = len;
	inode->mode = mode;
	INIT_LIST_HEAD(&inode->children);
	INIT_LIST_HEAD(&inode->sibling);
	return inode;
}

/* name's length, or NAME_MAX (never valid) if it holds a '/': one pass. */
static size_t name_len(const char *name)
{
	size_t len;

	for (len = 0; len < NAME_MAX && name[len]; len++)
		if (name[len] == '/')
			return NAME_MAX;
	return len;
}

/* len: name_len's; "." and ".." name no new inode either. */
static bool valid_name(const char *name, size_t len)
{
	return len && len < NAME_MAX &&
	       (name[0] != '.' || (strcmp(name, ".") && strcmp(name, "..")));
}

/*
 * Called with tree_lock held. The lengths first: boot creates about a
 * hundred files, most of them in one directory, and of those, few have
 * the same length.
 */
static struct inode *find_child(struct inode *dir, const char *name,
				size_t len)
{
	struct inode *child;

	list_for_each_entry(child, &dir->children, sibling)
		if (child->name_len == len && !memcmp(child->name, name, len))
			return child;
	return NULL;
}

/* Link inode under parent unless the name is taken; frees it if so. */
static struct inode *link_child(struct inode *parent, struct inode *inode,
				size_t len)
{
	unsigned long flags = spin_lock_irqsave(&tree_lock);
	bool taken = find_child(parent, inode->name, len);

	if (!taken) {
		inode->parent = parent;
		list_add_tail(&inode->sibling, &parent->children);
	}
	spin_unlock_irqrestore(&tree_lock, flags);
	if (!taken)
		return inode;
	kfree(inode);
	return NULL;
}

unsigned long vfs_nr_alloc_failures;

static struct inode *add_inode(struct inode *parent, const char *name,
			       unsigned int mode)
{
	struct inode *inode;
	size_t len = name_len(name);	/* once, for three uses */

	if (!parent || !S_ISDIR(parent->mode) || !valid_name(name, len))
		return NULL;
	inode = alloc_inode(name, len, mode & ~parent->umask);
	if (!inode) {
		vfs_note_alloc_failure();
		return NULL;
	}
	if (S_ISDIR(mode))
		inode->umask = parent->umask;
	return link_child(parent, inode, len);
}

struct inode *vfs_mkdir(struct inode *parent, const char *name)
{
	return add_inode(parent, name, S_IFDIR | 0755);
}

/*
 * Boot makes hundreds of tracefs files that few sessions read (the
 * events' directories, options/): Linux's eventfs makes events/ on
 * lookup for the same reason (fs/tracefs/event_inode.c). Here any
 * directory can be filled on first use. Others wait on populate_lock
 * until it is full; the task filling it may look inside meanwhile.
 */
struct inode *vfs_mkdir_lazy(struct inode *parent, const char *name,
			     void (*populate)(struct inode *dir),
			     void *private)
{
	struct inode *dir = vfs_mkdir(parent, name);
	unsigned long flags;

	if (!dir)
		return NULL;
	dir->private = private;
	flags = spin_lock_irqsave(&tree_lock);
	dir->populate = populate;
	dir->lazy_next = lazy_dirs;
	lazy_dirs = dir;
	spin_unlock_irqrestore(&tree_lock, flags);
	return dir;
}

void vfs_dir_populate(struct inode *dir)
{
	if (!READ_ONCE(dir->populate) || READ_ONCE(populating) == current)
		return;
	mutex_lock(&populate_lock);
	if (dir->populate) {
		populating = current;
		dir->populate(dir);
		populating = NULL;
		/* its children were linked under tree_lock, which orders them */
		WRITE_ONCE(dir->populate, NULL);
	}
	mutex_unlock(&populate_lock);
}

/*
 * Before a selftest run: what a case makes on first use would count
 * as its leak, so every lazy directory is filled first. New ones go in
 * front of the list, so the walk starts again until none is left.
 */
static void vfs_populate_all(void)
{
	struct inode *dir;
	bool again = true;

	while (again) {
		again = false;
		for (dir = READ_ONCE(lazy_dirs); dir; dir = dir->lazy_next)
			if (READ_ONCE(dir->populate)) {
				vfs_dir_populate(dir);
				again = true;
			}
	}
}

struct inode *vfs_create(struct inode *parent, const char *name,
			 unsigned int mode, const struct file_operations *fops,
			 void *private)
{
	struct inode *inode;

	if (!(mode & S_IFMT))
		mode |= S_IFREG;
	inode = add_inode(parent, name, mode);
	if (inode) {
		inode->fops = fops;
		inode->private = private;
	}
	return inode;
}

/*
 * Called with tree_lock held: is any file under inode open, or any
 * directory there a working directory?
 */
static bool subtree_busy(struct inode *inode)
{
	struct inode *child;

	if (inode->open_count || inode->pin_count)
		return true;
	list_for_each_entry(child, &inode->children, sibling)
		if (subtree_busy(child))
			return true;
	return false;
}

static void free_subtree(struct inode *inode)
{
	struct inode *child, *next;

	list_for_each_entry_safe(child, next, &inode->children, sibling)
		free_subtree(child);
	if (inode->fops && inode->fops->evict)
		inode->fops->evict(inode);
	kfree(inode->data);
	kfree(inode);
}

/*
 * Remove inode and everything under it, unless a file there is open or
 * a directory there is a working directory.
 */
int vfs_remove(struct inode *inode)
{
	unsigned long flags;
	bool busy;

	if (inode == root)
		return -EBUSY;
	flags = spin_lock_irqsave(&tree_lock);
	busy = subtree_busy(inode);
	if (!busy)
		list_del(&inode->sibling);
	spin_unlock_irqrestore(&tree_lock, flags);
	if (busy)
		return -EBUSY;
	free_subtree(inode);
	return 0;
}

/*
 * Make *pwd dir, holding dir and letting the old one go, as Linux's
 * set_fs_pwd does: a working directory is not freed under its user,
 * even when the host removes it from a shared folder.
 */
void vfs_set_pwd(struct inode **pwd, struct inode *dir)
{
	unsigned long flags = spin_lock_irqsave(&tree_lock);

	if (*pwd)
		(*pwd)->pin_count--;
	if (dir)
		dir->pin_count++;
	*pwd = dir;
	spin_unlock_irqrestore(&tree_lock, flags);
}

/*
 * Remove the children of dir that keep() rejects, with what is under
 * them, unless something there is held (subtree_busy): a directory
 * cached from the host forgets what the host no longer has.
 */
void vfs_prune(struct inode *dir,
	       bool (*keep)(struct inode *child, const void *data),
	       const void *data)
{
	struct inode *child, *next;
	unsigned long flags;
	LIST_HEAD(gone);

	flags = spin_lock_irqsave(&tree_lock);
	list_for_each_entry_safe(child, next, &dir->children, sibling)
		if (!keep(child, data) && !subtree_busy(child)) {
			list_del(&child->sibling);
			list_add_tail(&child->sibling, &gone);
		}
	spin_unlock_irqrestore(&tree_lock, flags);
	list_for_each_entry_safe(child, next, &gone, sibling)
		free_subtree(child);
}

/*
 * Move inode into dir as name, replacing nothing: the name must be
 * free (-EEXIST), and a directory cannot go under itself (-EINVAL).
 */
int vfs_rename(struct inode *inode, struct inode *dir, const char *name)
{
	size_t len = name_len(name);
	unsigned long flags;
	struct inode *p;
	int err = 0;

	if (!valid_name(name, len))
		return -EINVAL;
	flags = spin_lock_irqsave(&tree_lock);
	for (p = dir; p && p != inode; p = p->parent)
		;
	if (p || inode == root)
		err = -EINVAL;
	else if (find_child(dir, name, len))
		err = -EEXIST;
	if (!err) {
		list_del(&inode->sibling);
		memset(inode->name, 0, sizeof(inode->name));
		memcpy(inode->name, name, len);
		inode->name_len = len;
		inode->parent = dir;
		list_add_tail(&inode->sibling, &dir->children);
	}
	spin_unlock_irqrestore(&tree_lock, flags);
	return err;
}

int vfs_for_each_child(struct inode *dir,
		       int (*fn)(struct inode *child, void *data), void *data)
{
	unsigned long flags;
	struct inode *child;
	int ret = dir->iops && dir->iops->readdir ? dir->iops->readdir(dir) : 0;

	if (ret)
		return ret;
	vfs_dir_populate(dir);
	flags = spin_lock_irqsave(&tree_lock);
	list_for_each_entry(child, &dir->children, sibling)
		if ((ret = fn(child, data)))
			break;
	spin_unlock_irqrestore(&tree_lock, flags);
	return ret;
}

/* The absolute path of inode; returns its length or -ENAMETOOLONG. */
int vfs_path(struct inode *inode, char *buf, size_t size)
{
	size_t len = 0, n;
	int ret;

	if (!inode->parent)
		return strlcpy(buf, "/", size) < size ? 1 : -ENAMETOOLONG;
	if (inode->parent != root) {
		ret = vfs_path(inode->parent, buf, size);
		if (ret < 0)
			return ret;
		len = ret;
	}
	n = strlen(inode->name);
	if (len + 1 + n >= size)
		return -ENAMETOOLONG;
	buf[len] = '/';
	memcpy(buf + len + 1, inode->name, n + 1);
	return len + 1 + n;
}

/* The next component of a path: skips slashes, returns its length. */
static const char *next_component(const char *p, size_t *len)
{
	while (*p == '/')
		p++;
	*len = 0;
	while (p[*len] && p[*len] != '/')
		(*len)++;
	return p;
}

/* A directory that caches another's entries: ask whether name is there. */
static int lookup_child(struct inode **dir, const char *name, size_t len,
			struct inode *child)
{
	char buf[NAME_MAX];
	int err;

	memcpy(buf, name, len);
	buf[len] = 0;
	err = (*dir)->iops->lookup(*dir, buf, &child);
	if (!err)
		*dir = child;
	return err;
}

static int walk_component(struct inode **dir, const char *name, size_t len)
{
	unsigned long flags;
	struct inode *child;

	if (!S_ISDIR((*dir)->mode))
		return -ENOTDIR;
	if (len >= NAME_MAX)
		return -ENAMETOOLONG;
	if (len == 1 && name[0] == '.')
		return 0;
	if (len == 2 && !strncmp(name, "..", 2)) {
		if ((*dir)->parent)
			*dir = (*dir)->parent;
		return 0;
	}
	vfs_dir_populate(*dir);
	flags = spin_lock_irqsave(&tree_lock);
	child = find_child(*dir, name, len);
	spin_unlock_irqrestore(&tree_lock, flags);
	if ((*dir)->iops && (*dir)->iops->lookup)
		return lookup_child(dir, name, len, child);
	if (!child)
		return -ENOENT;
	*dir = child->mounted ? child->mounted : child;
	return 0;
}

/*
 * Resolve path (absolute, or relative to cwd; NULL cwd means the root).
 * Errors as Linux gives them: -ENOENT for a missing name, -ENOTDIR for
 * a file used as a directory (also "file/"), -ENAMETOOLONG.
 */
int vfs_walk(struct inode *cwd, const char *path, struct inode **out)
{
	struct inode *inode = (path[0] == '/' || !cwd) ? root : cwd;
	size_t plen = strnlen(path, PATH_MAX), len;
	int err;

	if (!plen)
		return -ENOENT;
	if (plen >= PATH_MAX)
		return -ENAMETOOLONG;
	for (path = next_component(path, &len); len;
	     path = next_component(path + len, &len)) {
		err = walk_component(&inode, path, len);
		if (err)
			return err;
	}
	if (path[-1] == '/' && !S_ISDIR(inode->mode))
		return -ENOTDIR;
	*out = inode;
	return 0;
}

struct inode *vfs_lookup(struct inode *cwd, const char *path)
{
	struct inode *inode;

	return vfs_walk(cwd, path, &inode) ? NULL : inode;
}

/* O_CREAT of a missing file: the parent directory's create makes it. */
static int create_at(struct inode *cwd, const char *path, struct inode **out)
{
	char dirpath[PATH_MAX];
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
	struct inode *dir = cwd;
	int err;

	if (!*name)
		return -EISDIR;
	if (slash) {
		strlcpy(dirpath, path, min((size_t)(name - path), sizeof(dirpath)));
		err = vfs_walk(cwd, slash == path ? "/" : dirpath, &dir);
		if (err)
			return err;
	}
	if (!dir->iops || !dir->iops->create)
		return -EACCES;
	*out = dir->iops->create(dir, name);
	if (IS_ERR(*out))
		return PTR_ERR(*out);
	return *out ? 0 : -ENOSPC;
}

/*
 * Root may open any file for reading and writing, whatever its mode
 * (Linux's CAP_DAC_OVERRIDE): a file without the operation fails the
 * read or the write itself, with -EINVAL as Linux's vfs_read says.
 */
static int may_open(struct inode *inode, int flags)
{
	int acc = flags & O_ACCMODE;

	if (acc == O_ACCMODE)
		return -EINVAL;
	if (S_ISDIR(inode->mode))
		return acc == O_RDONLY ? 0 : -EISDIR;
	return 0;
}

static void count_open(struct inode *inode, int delta)
{
	unsigned long flags = spin_lock_irqsave(&tree_lock);

	inode->open_count += delta;
	spin_unlock_irqrestore(&tree_lock, flags);
}

/* An open file of inode, which need not be in the tree (a pipe's). */
int vfs_open_inode(struct inode *inode, int flags, struct file **out)
{
	struct file *f = kzalloc(sizeof(*f));
	int err = 0;

	if (!f)
		return -ENOMEM;
	f->inode = inode;
	f->flags = flags;
	f->count = 1;
	count_open(inode, 1);
	if (inode->fops && inode->fops->open)
		err = inode->fops->open(inode, f);
	if (err) {
		count_open(inode, -1);
		kfree(f);
		return err;
	}
	*out = f;
	return 0;
}

int vfs_open(struct inode *cwd, const char *path, int flags,
	     struct file **out)
{
	struct inode *inode;
	int err = vfs_walk(cwd, path, &inode);

	if (err == -ENOENT && (flags & O_CREAT))
		err = create_at(cwd, path, &inode);
	if (!err)
		err = may_open(inode, flags);
	return err ? err : vfs_open_inode(inode, flags, out);
}

/* One more holder of f: each vfs_close drops one, the last closes it. */
struct file *get_file(struct file *f)
{
	__atomic_add_fetch(&f->count, 1, __ATOMIC_RELAXED);
	return f;
}

ssize_t vfs_read(struct file *f, char *buf, size_t n)
{
	if ((f->flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	if (S_ISDIR(f->inode->mode))
		return -EISDIR;
	if (!f->inode->fops || !f->inode->fops->read)
		return -EINVAL;
	return n ? f->inode->fops->read(f, buf, n) : 0;
}

ssize_t vfs_write(struct file *f, const char *buf, size_t n)
{
	if ((f->flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (!f->inode->fops || !f->inode->fops->write)
		return -EINVAL;
	return f->inode->fops->write(f, buf, n);
}

/*
 * Drop a holder of f; the last closes it and returns what the file's
 * release said (f is gone either way).
 */
int vfs_close(struct file *f)
{
	struct inode *inode = f->inode;
	int err = 0;

	if (__atomic_sub_fetch(&f->count, 1, __ATOMIC_ACQ_REL))
		return 0;
	if (inode->fops && inode->fops->release)
		err = inode->fops->release(inode, f);
	count_open(inode, -1);
	kfree(f);
	return err;
}

/*
 * What `echo -n TEXT > path` does (flags O_TRUNC, or O_APPEND for >>):
 * open, one write of the whole text, close. The first error wins.
 */
int vfs_write_file(const char *path, int flags, const char *text)
{
	struct file *f;
	ssize_t n;
	int err = vfs_open(NULL, path, O_WRONLY | flags, &f);

	if (err)
		return err;
	n = vfs_write(f, text, strlen(text));
	err = vfs_close(f);
	return n < 0 ? n : err;
}

static struct inode *mkdir_path(const char *path)
{
	struct inode *dir = root, *next;
	char name[NAME_MAX];
	size_t len;

	for (path = next_component(path, &len); len;
	     path = next_component(path + len, &len)) {
		strlcpy(name, path, min(len + 1, sizeof(name)));
		next = vfs_lookup(dir, name);
		dir = next ? next : vfs_mkdir(dir, name);
		if (!dir)
			return NULL;
	}
	return dir;
}

/*
 * Show target at parent/name too, as a bind mount does: a path through
 * name goes on in target. `..` in there is target's own parent, the
 * one difference from Linux's automount of tracefs on debugfs.
 */
static struct inode *vfs_bind(struct inode *parent, const char *name,
			      struct inode *target)
{
	struct inode *mnt = target ? vfs_mkdir(parent, name) : NULL;

	if (mnt)
		mnt->mounted = target;
	return mnt;
}

/* /dev/null: reads find nothing, writes vanish. */
static ssize_t null_read(struct file *file, char *buf, size_t n)
{
	return 0;
}

static ssize_t null_write(struct file *file, const char *buf, size_t n)
{
	return n;
}

static const struct file_operations null_fops = {
	.read = null_read,
	.write = null_write,
};

/*
 * The root, a ramfs as Linux's rootfs (the initramfs unpacks there),
 * the mount points, which tracefs, debugfs and the sysctls fill later
 * (tracefs shows at /sys/kernel/debug/tracing too, its old place), and
 * /dev/null.
 */
static void vfs_init(void)
{
	selftest_set_prepare(vfs_populate_all);
	root = alloc_inode("", 0, S_IFDIR | 0755);
	if (root)
		root->iops = &ramfs_dir_ops;
	if (!root || !ramfs_mount(root, "tmp") ||
	    !mkdir_path("/sys/kernel/tracing") ||
	    !mkdir_path("/sys/kernel/debug") ||
	    !vfs_bind(vfs_lookup(NULL, "/sys/kernel/debug"), "tracing",
		      vfs_lookup(NULL, "/sys/kernel/tracing")) ||
	    !mkdir_path("/proc/sys/kernel") ||
	    !vfs_create(mkdir_path("/dev"), "null", S_IFREG | 0666, &null_fops,
			NULL))
		panic("vfs: no memory for the mount points");
}
early_initcall(vfs_init);
