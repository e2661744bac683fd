/*
 * cmd_sys.c: the shell's system commands: ps, cpus, free, uptime,
 * dmesg, selftest and poweroff. Task and CPU state is copied under the
 * scheduler's lock first and printed after, since printing may sleep.
 */
#include "kernel.h"
#include "shell.h"
#include "sched.h"
#include "smp.h"
#include "mm.h"
#include "time.h"
#include "printk.h"
#include "selftest.h"
#include "string.h"

#define DMESG_CHUNK	512

struct task_info {
	int pid, cpu;
	char state;
	char comm[TASK_COMM_LEN];
};

struct task_snapshot {
	struct task_info *tasks;
	int count, capacity;
};

static int count_task(struct task *t, void *data)
{
	(*(int *)data)++;
	return 0;
}

static char state_letter(enum task_state state)
{
	return state == TASK_RUNNING ? 'R' : state == TASK_SLEEPING ? 'S' : 'Z';
}

static int copy_task(struct task *t, void *data)
{
	struct task_snapshot *snap = data;
	struct task_info *info;

	if (snap->count == snap->capacity)
		return 1;
	info = &snap->tasks[snap->count++];
	info->pid = t->pid;
	info->cpu = t->cpu;
	info->state = state_letter(t->state);
	strlcpy(info->comm, t->comm, sizeof(info->comm));
	return 0;
}

/* Tasks started between counting and copying wait for the next ps. */
static int take_snapshot(struct task_snapshot *snap)
{
	int count = 0;

	for_each_task(count_task, &count);
	snap->tasks = kmalloc(count * sizeof(*snap->tasks));
	if (!snap->tasks)
		return -ENOMEM;
	snap->count = 0;
	snap->capacity = count;
	for_each_task(copy_task, snap);
	return 0;
}

static int cmd_ps(struct shell_out *out, int argc, char **argv)
{
	struct task_snapshot snap;
	int i;

	if (take_snapshot(&snap)) {
		sh_err("ps: %s\n", strerror_text(ENOMEM));
		return 1;
	}
	sh_printf(out, "  PID CPU STAT COMMAND\n");
	for (i = 0; i < snap.count; i++)
		sh_printf(out, "%5d %3d %-4c %s\n", snap.tasks[i].pid,
			  snap.tasks[i].cpu, snap.tasks[i].state,
			  snap.tasks[i].comm);
	kfree(snap.tasks);
	return 0;
}
SHELL_COMMAND("ps", cmd_ps, "list the tasks (idle tasks are swapper/N, pid 0)");

/* Under the scheduler's lock no CPU switches, so curr is alive. */
static int copy_current_comm(struct task *t, void *data)
{
	char (*comms)[TASK_COMM_LEN] = data;
	int i;

	for (i = 0; i < nr_cpus; i++)
		if (cpus[i].curr == t)
			strlcpy(comms[i], t->comm, TASK_COMM_LEN);
	return 0;
}

static int cmd_cpus(struct shell_out *out, int argc, char **argv)
{
	char (*comms)[TASK_COMM_LEN] = kzalloc(nr_cpus * sizeof(*comms));
	struct cpu *c;
	int i;

	if (!comms) {
		sh_err("cpus: %s\n", strerror_text(ENOMEM));
		return 1;
	}
	for_each_task(copy_current_comm, comms);
	sh_printf(out, "CPU HART ONLINE      TICKS       IRQS CURRENT\n");
	for (i = 0; i < nr_cpus; i++) {
		c = &cpus[i];
		sh_printf(out, "%3d %4lu %-6s %10llu %10llu %s\n", i, c->hartid,
			  c->online ? "yes" : "no", c->ticks, c->irqs, comms[i]);
	}
	kfree(comms);
	return 0;
}
SHELL_COMMAND("cpus", cmd_cpus, "list the CPUs: hart, ticks, interrupts, current task");

static int cmd_free(struct shell_out *out, int argc, char **argv)
{
	unsigned long total = nr_total_pages() * (PAGE_SIZE / 1024);
	unsigned long free = nr_free_pages() * (PAGE_SIZE / 1024);

	sh_printf(out, "%18s %11s %11s\n", "total", "used", "free");
	sh_printf(out, "Mem:  %12lu %11lu %11lu\n", total, total - free, free);
	return 0;
}
SHELL_COMMAND("free", cmd_free, "memory in KiB: total, used, free");

static int cmd_uptime(struct shell_out *out, int argc, char **argv)
{
	u64 ms = ktime_get_ns() / 1000000;

	sh_printf(out, "up %llu.%02llu seconds\n", ms / 1000, ms % 1000 / 10);
	return 0;
}
SHELL_COMMAND("uptime", cmd_uptime, "seconds since boot");

static int cmd_dmesg(struct shell_out *out, int argc, char **argv)
{
	char buf[DMESG_CHUNK];
	size_t pos = 0, n;

	while ((n = dmesg_read(buf, sizeof(buf), pos)) && !out->error) {
		sh_write(out, buf, n);
		pos += n;
	}
	return 0;
}
SHELL_COMMAND("dmesg", cmd_dmesg, "print the kernel log");

static int cmd_selftest(struct shell_out *out, int argc, char **argv)
{
	char name[32];

	if (argc > 2) {
		sh_err("usage: selftest [SUITE[,SUITE...]]\n");
		return 1;
	}
	if (argc > 1 && selftest_unknown(argv[1], name, sizeof(name))) {
		sh_err("selftest: %s: no such suite\n", name);
		return 1;
	}
	return selftest_run(argc > 1 ? argv[1] : NULL) ? 1 : 0;
}
SHELL_COMMAND("selftest", cmd_selftest,
	      "[SUITE[,SUITE...]]: run the in-kernel tests (KTAP)");

static int cmd_poweroff(struct shell_out *out, int argc, char **argv)
{
	machine_poweroff(0);
}
SHELL_COMMAND("poweroff", cmd_poweroff, "power the machine off");
