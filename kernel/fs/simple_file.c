/*
 * simple_file.c: files whose whole text a show() writes at open and
 * whose every write one store() gets as a NUL-terminated string, for
 * tracefs, /proc/sys and debugfs (Linux's simple attributes and
 * single_open seq_files in one helper).
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "vfs.h"
#include "kstrtox.h"

struct simple_file {
	void (*show)(struct seq_buf *s, long data);
	int (*store)(char *buf, struct file *file, long data);
	long data;
};

static int simple_open(struct inode *inode, struct file *file)
{
	const struct simple_file *sf = inode->private;
	struct seq_buf *s;

	if ((file->flags & O_ACCMODE) == O_WRONLY)
		return 0;
	s = kzalloc(sizeof(*s));
	if (!s || seq_init(s, 256)) {
		kfree(s);
		return -ENOMEM;
	}
	if (sf->show)
		sf->show(s, sf->data);
	file->private = s;
	return 0;
}

static ssize_t simple_read(struct file *file, char *buf, size_t n)
{
	struct simple_file *sf = file->inode->private;

	if (!sf->show)
		return -EINVAL;
	return seq_read(file->private, file, buf, n);
}

/* Each write is one value; no store() means the file takes none. */
static ssize_t simple_write(struct file *file, const char *buf, size_t n)
{
	struct simple_file *sf = file->inode->private;
	char *copy;
	int ret;

	if (!sf->store)
		return -EINVAL;
	copy = kmalloc(n + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, n);
	copy[n] = 0;
	ret = sf->store(copy, file, sf->data);
	kfree(copy);
	return ret < 0 ? ret : (ssize_t)n;
}

static int simple_release(struct inode *inode, struct file *file)
{
	if (file->private) {
		seq_free(file->private);
		kfree(file->private);
	}
	return 0;
}

static void simple_evict(struct inode *inode)
{
	kfree(inode->private);
}

static const struct file_operations simple_fops = {
	.open = simple_open,
	.read = simple_read,
	.write = simple_write,
	.release = simple_release,
	.evict = simple_evict,
};

/*
 * 0644, or 0444 without store(); root may write either, and a write to
 * one without store() fails with EINVAL, Linux's answer.
 */
struct inode *create_simple(struct inode *dir, const char *name,
			    void (*show)(struct seq_buf *, long),
			    int (*store)(char *, struct file *, long),
			    long data)
{
	struct simple_file *sf = kmalloc(sizeof(*sf));
	struct inode *inode;

	if (!sf) {
		vfs_note_alloc_failure();
		return NULL;
	}
	*sf = (struct simple_file){ show, store, data };
	inode = vfs_create(dir, name, S_IFREG | (store ? 0644 : 0444),
			   &simple_fops, sf);
	if (!inode)
		kfree(sf);
	return inode;
}

void simple_show_int(struct seq_buf *s, long data)
{
	seq_printf(s, "%d\n", READ_ONCE(*(int *)data));
}

int simple_store_ulong(char *buf, struct file *file, long data)
{
	void (*set)(unsigned long val) = (void (*)(unsigned long))data;
	unsigned long val;
	int ret = kstrtoul(buf, 10, &val);

	if (!ret)
		set(val);
	return ret;
}
