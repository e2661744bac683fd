/*
 * trace_cmdline.c: the pid-to-comm map behind each line's TASK column
 * (Linux's saved_cmdlines). Events store only the pid. As Linux does
 * from its sched_switch probe, a task's comm is saved when it is
 * switched in, and every task's when tracing starts, so the hot path
 * does nothing for it and a task that has exited still shows by name.
 * Unknown pids print as <...>. saved_cmdlines lists the map,
 * saved_cmdlines_size gives and sets its size.
 *
 * saved_tgids (Linux's tgid_map) lists the pids switched in while the
 * record-tgid option is on, each with its thread group id. Every task
 * here is its own thread group, so that id is the pid, and one bit a
 * pid is the whole map; it is made when record-tgid is first set, as
 * Linux's is, and kept after.
 */
#include "kernel.h"
#include "string.h"
#include "spinlock.h"
#include "mm.h"
#include "kstrtox.h"
#include "trace.h"

#define SAVED_CMDLINES_DEFAULT	128
#define SAVED_CMDLINES_MAX	32768	/* Linux's PID_MAX_DEFAULT */

struct saved_cmdline {
	int pid;
	char comm[TASK_COMM_LEN];
};

static struct saved_cmdline saved_cmdlines_boot[SAVED_CMDLINES_DEFAULT] = {
	[0 ... SAVED_CMDLINES_DEFAULT - 1] = { -1, "" },
};
/* The map and its size change together, under cmdline_lock. */
static struct saved_cmdline *saved_cmdlines = saved_cmdlines_boot;
static unsigned int cmdline_num = SAVED_CMDLINES_DEFAULT;
static DEFINE_SPINLOCK(cmdline_lock);

static unsigned long *tgid_map;		/* a bit a pid, PID_MAX of them */

/* From the scheduler: never wait for the lock, the next switch will do. */
void tracing_record_cmdline(struct task *t)
{
	struct saved_cmdline *s;

	if (!t->pid || !spin_trylock(&cmdline_lock))
		return;
	s = &saved_cmdlines[t->pid % cmdline_num];
	s->pid = t->pid;
	memcpy(s->comm, t->comm, TASK_COMM_LEN);
	spin_unlock(&cmdline_lock);
}

/* An atomic or: another CPU may set a bit of the same word. */
static void tracing_record_tgid(struct task *t)
{
	unsigned long *map = READ_ONCE(tgid_map);

	if (map && t->pid)
		__atomic_fetch_or(&map[t->pid / BITS_PER_LONG],
				  1UL << (t->pid % BITS_PER_LONG),
				  __ATOMIC_RELAXED);
}

static void record_switch(struct task *prev, struct task *next)
{
	if (global_trace.trace_flags & TRACE_ITER_RECORD_CMD)
		tracing_record_cmdline(next);
	if (global_trace.trace_flags & TRACE_ITER_RECORD_TGID)
		tracing_record_tgid(next);
}

static int record_one(struct task *t, void *data)
{
	tracing_record_cmdline(t);
	return 0;
}

/* The tasks that exist now, then every task as it is switched in. */
void tracing_start_cmdline_record(void)
{
	for_each_task(record_one, NULL);
	sched_register_switch_hook(record_switch);
}

void trace_find_cmdline(int pid, char comm[TASK_COMM_LEN])
{
	struct saved_cmdline *s;
	unsigned long flags;

	if (!pid) {
		strlcpy(comm, "<idle>", TASK_COMM_LEN);
		return;
	}
	flags = spin_lock_irqsave(&cmdline_lock);
	s = &saved_cmdlines[pid % cmdline_num];
	strlcpy(comm, s->pid == pid ? s->comm : "<...>", TASK_COMM_LEN);
	spin_unlock_irqrestore(&cmdline_lock, flags);
}

/* saved_cmdlines: "pid comm", one a line, in the map's order. */
void trace_saved_cmdlines_show(struct seq_buf *seq, long data)
{
	unsigned long flags = spin_lock_irqsave(&cmdline_lock);
	unsigned int i;

	for (i = 0; i < cmdline_num; i++)
		if (saved_cmdlines[i].pid > 0)
			seq_printf(seq, "%d %s\n", saved_cmdlines[i].pid,
				   saved_cmdlines[i].comm);
	spin_unlock_irqrestore(&cmdline_lock, flags);
}

void trace_saved_cmdlines_size_show(struct seq_buf *seq, long data)
{
	seq_printf(seq, "%u\n", READ_ONCE(cmdline_num));
}

/*
 * A map of a new size, empty, as Linux's allocate_cmdlines_buffer
 * makes: the names saved so far are gone.
 */
int trace_saved_cmdlines_size_store(char *buf, struct file *file, long data)
{
	struct saved_cmdline *map, *old;
	unsigned long val, flags;
	unsigned int i;
	int ret = kstrtoul(buf, 10, &val);

	if (ret)
		return ret;
	if (!val || val > SAVED_CMDLINES_MAX)
		return -EINVAL;
	map = kmalloc(val * sizeof(*map));
	if (!map)
		return -ENOMEM;
	for (i = 0; i < val; i++)
		map[i] = (struct saved_cmdline){ -1, "" };
	flags = spin_lock_irqsave(&cmdline_lock);
	old = saved_cmdlines;
	saved_cmdlines = map;
	cmdline_num = val;
	spin_unlock_irqrestore(&cmdline_lock, flags);
	if (old != saved_cmdlines_boot)
		kfree(old);
	return 0;
}

/*
 * Before record-tgid is first set (Linux's trace_alloc_tgid_map), under
 * trace_types_lock: zeroed before the switch hook can see it.
 */
int trace_alloc_tgid_map(void)
{
	unsigned long *map;

	if (tgid_map)
		return 0;
	map = kzalloc(BITS_TO_LONGS(PID_MAX) * sizeof(long));
	if (!map)
		return -ENOMEM;
	__atomic_store_n(&tgid_map, map, __ATOMIC_RELEASE);
	return 0;
}

/* saved_tgids: "PID TGID", one a line, by pid (Linux's saved_tgids_show). */
void trace_saved_tgids_show(struct seq_buf *seq, long data)
{
	unsigned long *map = READ_ONCE(tgid_map);
	int pid;

	for (pid = 1; map && pid < PID_MAX; pid++) {
		if (!map[pid / BITS_PER_LONG]) {
			pid |= BITS_PER_LONG - 1;	/* the word is empty */
			continue;
		}
		if (map[pid / BITS_PER_LONG] & 1UL << (pid % BITS_PER_LONG))
			seq_printf(seq, "%d %d\n", pid, pid);
	}
}
