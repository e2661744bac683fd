/*
 * initramfs.c: the archive QEMU's -initrd put in RAM, unpacked into the
 * root filesystem at boot, as Linux's init/initramfs.c does: the device
 * tree's /chosen/linux,initrd-start and -end say where it is (start_kernel
 * keeps those pages from the allocator until now), each directory is
 * made, each file written with its mode, and the pages are given back.
 * A bad archive stops the unpacking with a message saying why and
 * where; what came before it stays.
 */
#include "kernel.h"
#include "init.h"
#include "fdt.h"
#include "mm.h"
#include "vfs.h"
#include "cpio.h"
#include "printk.h"
#include "string.h"

/* Make each missing directory of path (all of it, or up to its last /). */
static int make_dirs(const char *path, bool last_too)
{
	char part[PATH_MAX];
	struct inode *dir = vfs_root(), *next;
	const char *p = path, *slash;
	size_t n;

	while (*p) {
		slash = strchr(p, '/');
		if (!slash && !last_too)
			break;
		n = slash ? (size_t)(slash - p) : strlen(p);
		if (n && n < sizeof(part)) {
			memcpy(part, p, n);
			part[n] = 0;
			next = vfs_lookup(dir, part);
			if (!next && dir->iops && dir->iops->mkdir)
				next = dir->iops->mkdir(dir, part);
			if (!next || !S_ISDIR(next->mode))
				return -ENOTDIR;
			dir = next;
		}
		p += n + !!slash;
	}
	return 0;
}

static int write_file(const char *path, const struct cpio_entry *e)
{
	struct inode *inode;
	struct file *f;
	ssize_t n = 0;
	int err = make_dirs(path, false);

	if (!err)
		err = vfs_open(vfs_root(), path, O_WRONLY | O_CREAT | O_TRUNC, &f);
	if (err)
		return err;
	if (e->size)
		n = vfs_write(f, e->data, e->size);
	err = vfs_close(f);
	if (n < 0 || (size_t)n != e->size)
		return n < 0 ? n : -ENOSPC;
	if (!err && !vfs_walk(vfs_root(), path, &inode))
		inode->mode = S_IFREG | (e->mode & 07777);
	return err;
}

static int unpack_entry(const struct cpio_entry *e)
{
	const char *path = e->name;

	while (path[0] == '.' && path[1] == '/')
		path += 2;
	while (*path == '/')
		path++;
	if (!*path || !strcmp(path, "."))
		return 0;
	switch (e->mode & S_IFMT) {
	case S_IFDIR:
		return make_dirs(path, true);
	case S_IFREG:
		return write_file(path, e);
	default:
		printk("initramfs: %s: skipped, only files and directories are unpacked\n",
		       path);
		return 0;
	}
}

static void unpack(const char *buf, size_t len)
{
	struct cpio_reader r = { .buf = buf, .len = len };
	struct cpio_entry e;
	int n = 0, ret, err;

	while ((ret = cpio_next(&r, &e)) > 0) {
		err = unpack_entry(&e);
		if (err)
			printk("initramfs: %s: %s\n", e.name, strerror_text(err));
		else
			n++;
	}
	if (ret < 0)
		printk("initramfs: bad archive at byte %zu: %s\n", r.pos,
		       r.error);
	printk("initramfs: %d entries unpacked\n", n);
}

static void populate_rootfs(void)
{
	u64 start = boot_info.initrd_start, end = boot_info.initrd_end;

	if (end <= start)
		return;
	unpack((const char *)start, end - start);
	free_pages((void *)ALIGN_DOWN(start, PAGE_SIZE),
		   (ALIGN_UP(end, PAGE_SIZE) - ALIGN_DOWN(start, PAGE_SIZE)) /
		   PAGE_SIZE);
}
late_initcall(populate_rootfs);
