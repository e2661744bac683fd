/*
 * fault_inject_debugfs.c: the knobs of the allocation failure schedules
 * (kernel/fault_inject.c), /sys/kernel/debug/{failslab,fail_page_alloc}/
 * {probability,interval,times}, as Linux's fault_create_debugfs_attr
 * (lib/fault-inject.c) makes them. Files live above the core: the
 * allocators that consult a schedule know nothing of them.
 */
#include "kernel.h"
#include "init.h"
#include "string.h"
#include "kstrtox.h"
#include "printk.h"
#include "vfs.h"
#include "fault_inject.h"

static void probability_show(struct seq_buf *s, long data)
{
	seq_printf(s, "%lu\n", ((struct fault_attr *)data)->probability);
}

static int probability_store(char *buf, struct file *file, long data)
{
	struct fault_attr *attr = (struct fault_attr *)data;
	unsigned long val;
	int ret = kstrtoul(strim(buf), 10, &val);

	if (ret || val > 100)
		return -EINVAL;
	fault_attr_set(attr, val, attr->interval, attr->times);
	return 0;
}

static void interval_show(struct seq_buf *s, long data)
{
	seq_printf(s, "%lu\n", ((struct fault_attr *)data)->interval);
}

static int interval_store(char *buf, struct file *file, long data)
{
	struct fault_attr *attr = (struct fault_attr *)data;
	unsigned long val;
	int ret = kstrtoul(strim(buf), 10, &val);

	if (ret)
		return ret;
	fault_attr_set(attr, attr->probability, val, attr->times);
	return 0;
}

static void times_show(struct seq_buf *s, long data)
{
	seq_printf(s, "%ld\n", READ_ONCE(((struct fault_attr *)data)->times));
}

static int times_store(char *buf, struct file *file, long data)
{
	struct fault_attr *attr = (struct fault_attr *)data;
	long val;
	int ret = kstrtol(strim(buf), 10, &val);

	if (ret || val < -1)
		return -EINVAL;
	fault_attr_set(attr, attr->probability, attr->interval, val);
	return 0;
}

/* The knobs of the fault_attr in dir->private, made on first use. */
static void fault_attr_populate(struct inode *dir)
{
	long data = (long)dir->private;

	if (!create_simple(dir, "probability", probability_show,
			   probability_store, data) ||
	    !create_simple(dir, "interval", interval_show, interval_store,
			   data) ||
	    !create_simple(dir, "times", times_show, times_store, data))
		pr_err("fault_inject: cannot create /sys/kernel/debug/%s\n",
		       dir->name);
}

/* Linux's fault_create_debugfs_attr; kernel/fs/vfs.c:vfs_mkdir_lazy. */
static void fault_create_debugfs_attr(const char *name, struct inode *parent,
				      struct fault_attr *attr)
{
	if (!vfs_mkdir_lazy(parent, name, fault_attr_populate, attr))
		pr_err("fault_inject: cannot create /sys/kernel/debug/%s\n",
		       name);
}

static void fault_inject_debugfs_init(void)
{
	struct inode *debug = vfs_lookup(NULL, "/sys/kernel/debug");

	fault_create_debugfs_attr("failslab", debug, &failslab);
	fault_create_debugfs_attr("fail_page_alloc", debug, &fail_page_alloc);
}
late_initcall(fault_inject_debugfs_init);
