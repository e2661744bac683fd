/*
 * mem.c: /dev/zero and /dev/kmsg, as Linux's drivers/char/mem.c and
 * printk's devkmsg: /dev/zero reads as endless zero bytes and takes
 * any write; a write to /dev/kmsg is a line of the kernel log, and a
 * read gives the log from the start, as dmesg shows it.
 */
#include "kernel.h"
#include "init.h"
#include "vfs.h"
#include "printk.h"
#include "string.h"

static ssize_t zero_read(struct file *file, char *buf, size_t n)
{
	memset(buf, 0, n);
	return n;
}

static ssize_t zero_write(struct file *file, const char *buf, size_t n)
{
	return n;
}

static const struct file_operations zero_fops = {
	.read = zero_read,
	.write = zero_write,
};

static ssize_t kmsg_read(struct file *file, char *buf, size_t n)
{
	size_t got = dmesg_read(buf, n, file->pos);

	file->pos += got;
	return got;
}

/* Each write is one message; a missing newline is added. */
static ssize_t kmsg_write(struct file *file, const char *buf, size_t n)
{
	size_t len = n && buf[n - 1] == '\n' ? n - 1 : n;

	printk("%.*s\n", (int)len, buf);
	return n;
}

static const struct file_operations kmsg_fops = {
	.read = kmsg_read,
	.write = kmsg_write,
};

static void mem_devices_init(void)
{
	struct inode *dev = vfs_lookup(vfs_root(), "/dev");

	if (!dev || !vfs_create(dev, "zero", S_IFREG | 0666, &zero_fops, NULL) ||
	    !vfs_create(dev, "kmsg", S_IFREG | 0644, &kmsg_fops, NULL))
		panic("mem: no memory for /dev/zero and /dev/kmsg");
}
late_initcall(mem_devices_init);
