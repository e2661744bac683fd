/*
 * ramfs.c: directories whose regular files keep their bytes in memory
 * (inode->data), as Linux's ramfs does for /tmp. Files appear through
 * open's O_CREAT and live until the directory is removed.
 */
#include "kernel.h"
#include "vfs.h"
#include "mm.h"
#include "string.h"

#define RAMFS_MIN_CAPACITY	64

/* Truncating gives the bytes back, as Linux's truncate frees pages. */
static int ramfs_open(struct inode *inode, struct file *file)
{
	if ((file->flags & O_TRUNC) && (file->flags & O_ACCMODE) != O_RDONLY) {
		kfree(inode->data);
		inode->data = NULL;
		inode->size = 0;
		inode->capacity = 0;
	}
	return 0;
}

static ssize_t ramfs_read(struct file *file, char *buf, size_t n)
{
	struct inode *inode = file->inode;

	if (file->pos >= inode->size)
		return 0;
	n = min(n, inode->size - file->pos);
	memcpy(buf, inode->data + file->pos, n);
	file->pos += n;
	return n;
}

/* Make room for need bytes, doubling so that appends stay linear. */
static int reserve(struct inode *inode, size_t need)
{
	size_t cap = max(inode->capacity, (size_t)RAMFS_MIN_CAPACITY);
	char *data;

	if (need <= inode->capacity)
		return 0;
	while (cap < need)
		cap *= 2;
	data = kmalloc(cap);
	if (!data)
		return -ENOSPC;
	memcpy(data, inode->data, inode->size);
	kfree(inode->data);
	inode->data = data;
	inode->capacity = cap;
	return 0;
}

static ssize_t ramfs_write(struct file *file, const char *buf, size_t n)
{
	struct inode *inode = file->inode;
	int err;

	if (file->flags & O_APPEND)
		file->pos = inode->size;
	err = reserve(inode, file->pos + n);
	if (err)
		return err;
	if (file->pos > inode->size)
		memset(inode->data + inode->size, 0, file->pos - inode->size);
	memcpy(inode->data + file->pos, buf, n);
	file->pos += n;
	inode->size = max(inode->size, file->pos);
	return n;
}

static const struct file_operations ramfs_file_ops = {
	.open = ramfs_open,
	.read = ramfs_read,
	.write = ramfs_write,
};

static struct inode *ramfs_create(struct inode *dir, const char *name)
{
	return vfs_create(dir, name, S_IFREG | 0644, &ramfs_file_ops, NULL);
}

/* A directory in a ramfs directory is a ramfs directory. */
const struct inode_operations ramfs_dir_ops = {
	.create = ramfs_create,
	.mkdir = ramfs_mount,
};

struct inode *ramfs_mount(struct inode *parent, const char *name)
{
	struct inode *dir = vfs_mkdir(parent, name);

	if (dir)
		dir->iops = &ramfs_dir_ops;
	return dir;
}
