/*
 * vfs.h: a small virtual file system of directories and files, each file
 * with its own operations (kernel/fs/vfs.c). ramfs (/tmp) keeps bytes in
 * memory; tracefs (/sys/kernel/tracing) generates them.
 *
 * Conventions: functions returning an int give 0 or a negative errno;
 * vfs_lookup, vfs_mkdir and vfs_create return NULL on failure, as
 * Linux's tracefs_create_file does (vfs_walk says why a lookup failed).
 */
#ifndef _VFS_H
#define _VFS_H

#include "kernel.h"
#include "list.h"

#define NAME_MAX	64
#define PATH_MAX	256

#define O_RDONLY	0x0
#define O_WRONLY	0x1
#define O_RDWR		0x2
#define O_ACCMODE	0x3
#define O_CREAT		0x40
#define O_TRUNC		0x200
#define O_APPEND	0x400
#define O_NONBLOCK	0x800

#define S_IFMT		0170000
#define S_IFDIR		0040000
#define S_IFREG		0100000
#define S_IFIFO		0010000
#define S_ISDIR(m)	(((m) & S_IFMT) == S_IFDIR)
#define S_IXUSR		0100
#define S_IXUGO		0111
#define S_IRUGO		0444
#define S_IWUGO		0222

struct inode;
struct file;

/*
 * A file's operations. read and write work at file->pos, advance it and
 * return the bytes moved or a negative errno; open sees file->flags
 * (O_TRUNC, O_APPEND) and may fail; release runs at close and may fail
 * (Linux's set_ftrace_filter checks some input only at close).
 */
struct file_operations {
	int (*open)(struct inode *inode, struct file *file);
	ssize_t (*read)(struct file *file, char *buf, size_t n);
	ssize_t (*write)(struct file *file, const char *buf, size_t n);
	int (*release)(struct inode *inode, struct file *file);
	/* The inode goes: free its private (Linux's evict_inode). */
	void (*evict)(struct inode *inode);
};

/*
 * A directory's operations: create makes a regular file for open's
 * O_CREAT (NULL or an ERR_PTR if it cannot), mkdir a directory like
 * dir. A directory without them refuses new files and directories, and
 * removals (-EACCES).
 *
 * A directory whose entries live elsewhere (9P's, on the host) has
 * lookup and readdir too, and the tree below it is a cache. lookup
 * asks whether name is there now: it gets the cached child (or NULL)
 * in *child and leaves the fresh one there, or returns an errno.
 * readdir brings the children up to date before they are listed, and
 * unlink removes child where it lives, before the VFS forgets it.
 */
struct inode_operations {
	struct inode *(*create)(struct inode *dir, const char *name);
	struct inode *(*mkdir)(struct inode *dir, const char *name);
	int (*lookup)(struct inode *dir, const char *name,
		      struct inode **child);
	int (*readdir)(struct inode *dir);
	int (*unlink)(struct inode *dir, struct inode *child);
	/* Remove child, a directory, and all it holds (tracefs instances). */
	int (*rmdir)(struct inode *dir, struct inode *child);
};

struct inode {
	char name[NAME_MAX];
	unsigned int mode;		/* S_IFDIR or S_IFREG | permission bits */
	u8 name_len;			/* strlen(name): find_child's first test */
	struct inode *parent;
	struct list_head children;	/* of a directory */
	struct list_head sibling;
	const struct file_operations *fops;
	const struct inode_operations *iops;	/* of a directory */
	unsigned int umask;		/* of a directory: the permission bits
					 * whatever is made in it loses, as a
					 * mount's umask= (tracefs: 0007) */
	struct inode *mounted;		/* of a directory: the directory a
					 * path through it reaches instead
					 * (a bind mount, vfs_bind) */
	void *private;			/* for the file's operations */
	char *data;			/* ramfs contents */
	size_t size, capacity;
	int open_count;			/* open files; vfs_remove refuses */
	int pin_count;			/* working directories: the same */
	/* of a directory made by vfs_mkdir_lazy: fills it, NULL once run */
	void (*populate)(struct inode *dir);
	struct inode *lazy_next;	/* the next such directory */
};

struct file {
	struct inode *inode;
	int flags;			/* O_* */
	size_t pos;
	void *private;			/* per-open state */
	int count;			/* holders: get_file, vfs_close */
};

struct inode *vfs_root(void);
struct inode *vfs_lookup(struct inode *cwd, const char *path);
int vfs_walk(struct inode *cwd, const char *path, struct inode **out);
struct inode *vfs_mkdir(struct inode *parent, const char *name);
/*
 * A directory whose entries populate(dir) makes on its first use: the
 * first path through it, listing or emptiness check (vfs_dir_populate).
 * private is the directory's, for populate. It is never removed.
 */
struct inode *vfs_mkdir_lazy(struct inode *parent, const char *name,
			     void (*populate)(struct inode *dir),
			     void *private);
void vfs_dir_populate(struct inode *dir);
struct inode *vfs_create(struct inode *parent, const char *name,
			 unsigned int mode, const struct file_operations *fops,
			 void *private);
int vfs_remove(struct inode *inode);
/*
 * Files and directories not made for want of memory, since boot: a
 * maker of many (a tracefs instance) compares the count before and
 * after. Inline, so that they add no traced functions.
 */
extern unsigned long vfs_nr_alloc_failures;

static inline void vfs_note_alloc_failure(void)
{
	__atomic_add_fetch(&vfs_nr_alloc_failures, 1, __ATOMIC_RELAXED);
}

static inline unsigned long vfs_alloc_failures(void)
{
	return __atomic_load_n(&vfs_nr_alloc_failures, __ATOMIC_RELAXED);
}
void vfs_set_pwd(struct inode **pwd, struct inode *dir);
void vfs_prune(struct inode *dir,
	       bool (*keep)(struct inode *child, const void *data),
	       const void *data);
int vfs_rename(struct inode *inode, struct inode *dir, const char *name);
int vfs_path(struct inode *inode, char *buf, size_t size);
/*
 * fn runs under the tree's spinlock: it must not sleep. A directory
 * with readdir is brought up to date first.
 */
int vfs_for_each_child(struct inode *dir,
		       int (*fn)(struct inode *child, void *data), void *data);

int vfs_open(struct inode *cwd, const char *path, int flags,
	     struct file **out);
int vfs_open_inode(struct inode *inode, int flags, struct file **out);
struct file *get_file(struct file *f);
ssize_t vfs_read(struct file *f, char *buf, size_t n);
ssize_t vfs_write(struct file *f, const char *buf, size_t n);
int vfs_close(struct file *f);
int vfs_write_file(const char *path, int flags, const char *text);

/*
 * A helper for generated files: fill a buffer once at open (or at the
 * first read) and serve reads from it, as Linux's seq_file does. The
 * buffer starts at size bytes and doubles as text is added; overflow
 * says an allocation failed (or seq_set_nomem that the text could not
 * be made), and then seq_read fails with -ENOMEM.
 */
struct seq_buf {
	char *buf;
	size_t len, size;
	bool overflow;
};

int seq_init(struct seq_buf *s, size_t size);
void seq_free(struct seq_buf *s);
void seq_printf(struct seq_buf *s, const char *fmt, ...) __printf(2, 3);
void seq_puts(struct seq_buf *s, const char *str);
void seq_putmem(struct seq_buf *s, const void *mem, size_t len);
void seq_bprintf(struct seq_buf *s, const char *fmt, const u32 *bin,
		 size_t bin_words);
void seq_set_nomem(struct seq_buf *s);
ssize_t seq_read(struct seq_buf *s, struct file *f, char *buf, size_t n);

/*
 * A simple file (kernel/fs/simple_file.c): show() writes its whole text
 * at open, store() gets each write as one NUL-terminated string and
 * returns 0 or a negative errno. Either may be NULL: a file without
 * store() refuses writes with -EINVAL. data is passed to both.
 */
struct inode *create_simple(struct inode *dir, const char *name,
			    void (*show)(struct seq_buf *s, long data),
			    int (*store)(char *buf, struct file *file, long data),
			    long data);
/* A show() for a file that holds an int: data is its address. */
void simple_show_int(struct seq_buf *s, long data);
/*
 * A store() that parses a decimal unsigned long and passes it to data,
 * a void (*)(unsigned long).
 */
int simple_store_ulong(char *buf, struct file *file, long data);

/* A pipe (kernel/fs/pipe.c): res[0] reads what res[1] writes. */
int create_pipe_files(struct file *res[2], int flags);

/*
 * ramfs (kernel/fs/ramfs.c): a directory whose files live in memory;
 * ramfs_dir_ops makes an existing directory one (the root, as Linux's
 * rootfs).
 */
struct inode *ramfs_mount(struct inode *parent, const char *name);
extern const struct inode_operations ramfs_dir_ops;

#endif
