/*
 * proc.c: procfs's task directories. /proc/PID exists for each task the
 * scheduler knows (a zombie too, as on Linux) and vanishes once it is
 * reaped: /proc's lookup and readdir ask the scheduler each time,
 * Linux's proc_pid_lookup and proc_pid_readdir (fs/proc/base.c).
 * /proc/self is the reader's own. Each holds comm and stat
 * (Documentation/filesystems/proc.rst, Table 1-4).
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "sched.h"
#include "vfs.h"
#include "kstrtox.h"
#include "init.h"
#include "spinlock.h"
#include "printf.h"
#include "printk.h"

/* What one task's files show, copied under the scheduler's lock. */
struct proc_task {
	int pid, ppid, pgrp, cpu, exit_code;
	int prio, nice;
	unsigned int rt_priority, policy;
	enum task_state state;
	char comm[TASK_COMM_LEN];
	u64 sum_ticks;
	bool found;
};

/* Serialises making and removing the task directories. */
static DEFINE_SPINLOCK(proc_lock);

static int copy_task(struct task *t, void *data)
{
	struct proc_task *pt = data;

	if (t->pid != pt->pid)
		return 0;
	pt->ppid = t->parent ? t->parent->pid : 0;
	pt->pgrp = t->pgrp;
	pt->cpu = t->cpu;
	pt->exit_code = t->exit_code;
	pt->prio = t->prio;
	pt->nice = task_nice(t);
	pt->rt_priority = t->rt_priority;
	pt->policy = t->policy;
	pt->state = t->state;
	memcpy(pt->comm, t->comm, sizeof(pt->comm));
	pt->sum_ticks = t->sum_ticks;
	pt->found = true;
	return 1;
}

/* Fill *pt for pid; false if no such task (the idle tasks' 0 is none). */
static bool proc_task_get(int pid, struct proc_task *pt)
{
	memset(pt, 0, sizeof(*pt));
	pt->pid = pid;
	if (pid > 0)
		for_each_task(copy_task, pt);
	return pt->found;
}

/* The pid a /proc/PID name stands for, or 0. */
static int name_pid(const char *name)
{
	unsigned int pid;

	if (name[0] < '1' || name[0] > '9' || kstrtouint(name, 10, &pid) ||
	    pid > ~0U >> 1)
		return 0;
	return pid;
}

static int dir_pid(struct inode *inode)
{
	return name_pid(inode->parent->name);
}

static void comm_show(struct seq_buf *s, const struct proc_task *pt)
{
	seq_printf(s, "%s\n", pt->comm);
}

static char task_state_char(enum task_state state)
{
	switch (state) {
	case TASK_RUNNING:
		return 'R';
	case TASK_SLEEPING:
		return 'S';
	default:
		return 'Z';
	}
}

/*
 * Linux's 52 fields of fs/proc/array.c:do_task_stat, in its order. Each
 * task is a kernel thread (flags PF_KTHREAD, no mm, no tty: tpgid -1,
 * rsslim RLIM_INFINITY, exit_signal SIGCHLD); utime is the ticks it
 * ran, at HZ 100 = USER_HZ; priority is prio - 100 (Linux's task_prio),
 * then nice, rt_priority and policy; wchan is 1 while it sleeps; what
 * this kernel has no counterpart for (faults, times of children, start
 * time, memory, signals) is 0.
 */
static void stat_show(struct seq_buf *s, const struct proc_task *pt)
{
	int i;

	seq_printf(s, "%d (%s) %c %d %d 0 0 -1 %u", pt->pid, pt->comm,
		   task_state_char(pt->state), pt->ppid, pt->pgrp, 0x00200000U);
	seq_printf(s, " 0 0 0 0 %llu 0 0 0 %d %d 1 0 0 0 0 %llu",
		   (unsigned long long)pt->sum_ticks, pt->prio - MAX_RT_PRIO,
		   pt->nice, ~0ULL);
	for (i = 0; i < 9; i++)		/* startcode .. sigcatch */
		seq_puts(s, " 0");
	seq_printf(s, " %d 0 0 17 %d %u %u", pt->state == TASK_SLEEPING,
		   pt->cpu, pt->rt_priority, pt->policy);
	for (i = 0; i < 10; i++)	/* delayacct_blkio_ticks .. env_end */
		seq_puts(s, " 0");
	seq_printf(s, " %d\n", pt->state == TASK_DEAD ? pt->exit_code : 0);
}

typedef void (*pid_show_t)(struct seq_buf *s, const struct proc_task *pt);

/* A task that is gone by the open shows nothing (Linux: ESRCH). */
static int pid_file_open(struct inode *inode, struct file *file)
{
	pid_show_t show = (pid_show_t)inode->private;
	struct seq_buf *s = kzalloc(sizeof(*s));
	struct proc_task pt;

	if (!s || seq_init(s, 128)) {
		kfree(s);
		return -ENOMEM;
	}
	if (!proc_task_get(dir_pid(inode), &pt)) {
		seq_free(s);
		kfree(s);
		return -ESRCH;
	}
	show(s, &pt);
	file->private = s;
	return 0;
}

static ssize_t pid_file_read(struct file *file, char *buf, size_t n)
{
	return seq_read(file->private, file, buf, n);
}

static ssize_t pid_file_write(struct file *file, const char *buf, size_t n)
{
	return -EACCES;
}

static int pid_file_release(struct inode *inode, struct file *file)
{
	seq_free(file->private);
	kfree(file->private);
	return 0;
}

static const struct file_operations pid_file_fops = {
	.open = pid_file_open,
	.read = pid_file_read,
	.write = pid_file_write,
	.release = pid_file_release,
};

/* /proc/PID and its files; NULL without memory. */
static struct inode *make_pid_dir(struct inode *proc, int pid)
{
	char name[16];
	struct inode *dir;

	snprintf(name, sizeof(name), "%d", pid);
	dir = vfs_mkdir(proc, name);
	if (!dir)
		return NULL;
	dir->mode = S_IFDIR | 0555;
	if (!vfs_create(dir, "comm", S_IFREG | 0444, &pid_file_fops,
			(void *)comm_show) ||
	    !vfs_create(dir, "stat", S_IFREG | 0444, &pid_file_fops,
			(void *)stat_show)) {
		vfs_remove(dir);
		return NULL;
	}
	return dir;
}

/* The live pids, for readdir to keep and add. */
struct pid_set {
	int *pids;
	bool *seen;
	int n, max;
};

static int add_pid(struct task *t, void *data)
{
	struct pid_set *set = data;

	if (t->pid > 0 && set->n < set->max)
		set->pids[set->n++] = t->pid;
	return 0;
}

static int count_task(struct task *t, void *data)
{
	(*(int *)data)++;
	return 0;
}

/* Keep what is not a task directory, and the directories of live tasks. */
static bool keep_entry(struct inode *child, const void *data)
{
	struct pid_set *set = (struct pid_set *)data;
	int pid = name_pid(child->name), i;

	if (!pid)
		return true;
	for (i = 0; i < set->n; i++)
		if (set->pids[i] == pid) {
			set->seen[i] = true;
			return true;
		}
	return false;
}

/* Bring /proc's task directories up to date before a listing. */
static int proc_root_readdir(struct inode *proc)
{
	struct pid_set set = { 0 };
	unsigned long flags;
	int i, err = 0;

	for_each_task(count_task, &set.max);
	set.max += 8;		/* tasks made meanwhile wait for the next */
	set.pids = kmalloc(set.max * sizeof(*set.pids));
	set.seen = kzalloc(set.max * sizeof(*set.seen));
	if (!set.pids || !set.seen) {
		err = -ENOMEM;
		goto out;
	}
	for_each_task(add_pid, &set);
	flags = spin_lock_irqsave(&proc_lock);
	vfs_prune(proc, keep_entry, &set);
	for (i = 0; i < set.n && !err; i++)
		if (!set.seen[i] && !make_pid_dir(proc, set.pids[i]))
			err = -ENOMEM;
	spin_unlock_irqrestore(&proc_lock, flags);
out:
	kfree(set.pids);
	kfree(set.seen);
	return err;
}

/* /proc/PID as the task stands now: made, kept or removed. */
static int lookup_pid(struct inode *proc, int pid, struct inode **child)
{
	struct proc_task pt;
	unsigned long flags;
	int err = 0;

	flags = spin_lock_irqsave(&proc_lock);
	if (!proc_task_get(pid, &pt)) {
		if (*child && !vfs_remove(*child))
			*child = NULL;
		err = -ENOENT;
	} else if (!*child) {
		*child = make_pid_dir(proc, pid);
		if (!*child)
			err = -ENOMEM;
	}
	spin_unlock_irqrestore(&proc_lock, flags);
	return err;
}

static int proc_root_lookup(struct inode *proc, const char *name,
			    struct inode **child)
{
	char self[16];
	int pid = name_pid(name);

	if (pid)
		return lookup_pid(proc, pid, child);
	if (!strcmp(name, "self")) {
		snprintf(self, sizeof(self), "%d", current->pid);
		return vfs_walk(proc, self, child);
	}
	return *child ? 0 : -ENOENT;
}

static const struct inode_operations proc_root_ops = {
	.lookup = proc_root_lookup,
	.readdir = proc_root_readdir,
};

/*
 * /proc answers for its tasks from now on. self is an empty directory
 * here, listed as Linux lists its symlink; walking through it reaches
 * the reader's /proc/PID.
 */
static void proc_init(void)
{
	struct inode *proc = vfs_lookup(NULL, "/proc");

	if (!proc || !vfs_mkdir(proc, "self"))
		panic("proc: no memory for /proc");
	proc->iops = &proc_root_ops;
}
late_initcall(proc_init);
