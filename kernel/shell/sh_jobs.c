/*
 * sh_jobs.c: background jobs (`cmd &`), and the builtins that manage
 * them: wait, jobs, kill. A job is a task running a copy of the shell,
 * in a process group of its own so that Ctrl-C, which stops the
 * console's foreground group, leaves it running; its standard input
 * is /dev/null, as POSIX wants without job control. A finished job is
 * reported ("Done") at the next prompt and its task reaped.
 */
#include "kernel.h"
#include "mm.h"
#include "string.h"
#include "sched.h"
#include "vfs.h"
#include "kstrtox.h"
#include "shell.h"
#include "sh.h"

int sh_job_start(struct sh_state *sh, struct sh_node *n, const char *text)
{
	struct sh_job *job = NULL;
	struct file *files[3];
	struct task *t;
	int i;

	sh_jobs_reap(sh, sh->interactive);
	for (i = 0; i < SH_MAX_JOBS && !job; i++)
		if (!sh->jobs[i].task)
			job = &sh->jobs[i];
	if (!job) {
		sh_err("sh: more than %d jobs\n", SH_MAX_JOBS);
		return 1;
	}
	sh_inherit_files(files);
	if (files[0])
		vfs_close(files[0]);
	if (vfs_open(vfs_root(), "/dev/null", O_RDONLY, &files[0]))
		files[0] = NULL;
	t = sh_fork(sh, n, files);
	if (!t)
		return 1;
	job->text = sh_strdup(text ? strim((char *)text) : "");
	job->task = t;
	job->pid = t->pid;
	t->pgrp = t->pid;
	kthread_start(t);
	sh->last_bg = t->pid;
	if (sh->interactive)
		sh_err("[%d] %d\n", (int)(job - sh->jobs) + 1, t->pid);
	return 0;
}

int sh_job_wait(struct sh_state *sh, struct sh_job *job)
{
	int status = kthread_wait(job->task);

	kfree(job->text);
	memset(job, 0, sizeof(*job));
	return status;
}

static bool job_done(const struct sh_job *job)
{
	return READ_ONCE(job->task->state) == TASK_DEAD;
}

void sh_jobs_reap(struct sh_state *sh, bool report)
{
	struct sh_job *job;
	int i;

	for (i = 0; i < SH_MAX_JOBS; i++) {
		job = &sh->jobs[i];
		if (!job->task || !job_done(job))
			continue;
		if (report)
			sh_err("[%d]+  Done                    %s\n", i + 1,
			       job->text ? job->text : "");
		sh_job_wait(sh, job);
	}
}

/* Ctrl-C ends a wait, as in bash, but not the job waited for. */
static int wait_job(struct sh_state *sh, struct sh_job *job)
{
	while (!job_done(job) && !current->sigpending)
		msleep(10);
	return job_done(job) ? sh_job_wait(sh, job) : 130;
}

static struct sh_job *find_job(struct sh_state *sh, const char *arg)
{
	unsigned int n;
	int i;

	if (arg[0] == '%') {
		if (kstrtouint(arg + 1, 10, &n) || !n || n > SH_MAX_JOBS ||
		    !sh->jobs[n - 1].task)
			return NULL;
		return &sh->jobs[n - 1];
	}
	if (kstrtouint(arg, 10, &n))
		return NULL;
	for (i = 0; i < SH_MAX_JOBS; i++)
		if (sh->jobs[i].task && sh->jobs[i].pid == (int)n)
			return &sh->jobs[i];
	return NULL;
}

static int cmd_wait(struct shell_out *out, int argc, char **argv)
{
	struct sh_state *sh = sh_current();
	struct sh_job *job;
	int i, status = 0;

	if (!sh)
		return 1;
	if (argc < 2) {
		for (i = 0; i < SH_MAX_JOBS && !current->sigpending; i++)
			if (sh->jobs[i].task)
				wait_job(sh, &sh->jobs[i]);
		return current->sigpending ? 130 : 0;
	}
	for (i = 1; i < argc; i++) {
		job = find_job(sh, argv[i]);
		if (!job) {
			sh_err("sh: wait: pid %s is not a child of this shell\n",
			       argv[i]);
			status = 127;
			continue;
		}
		status = wait_job(sh, job);
	}
	return status;
}
SHELL_COMMAND("wait", cmd_wait, "[PID|%N...]: wait for background jobs");

static int cmd_jobs(struct shell_out *out, int argc, char **argv)
{
	struct sh_state *sh = sh_current();
	struct sh_job *job;
	int i;

	for (i = 0; sh && i < SH_MAX_JOBS; i++) {
		job = &sh->jobs[i];
		if (job->task)
			sh_printf(out, "[%d]   %-22s %s\n", i + 1,
				  job_done(job) ? "Done" : "Running",
				  job->text ? job->text : "");
	}
	return 0;
}
SHELL_COMMAND("jobs", cmd_jobs, "list the background jobs");

/* Every signal stops a kernel thread the same way: -9, -TERM, -s INT. */
static int cmd_kill(struct shell_out *out, int argc, char **argv)
{
	struct sh_state *sh = sh_current();
	struct sh_job *job;
	unsigned int pid;
	int i = 1, status = 0;

	if (i < argc && !strcmp(argv[i], "-s"))
		i += 2;
	else if (i < argc && argv[i][0] == '-' && argv[i][1])
		i++;
	if (i >= argc) {
		sh_err("usage: kill [-SIGNAL] PID|%%N...\n");
		return 2;
	}
	for (; i < argc; i++) {
		job = sh && argv[i][0] == '%' ? find_job(sh, argv[i]) : NULL;
		if (job)
			pid = job->pid;
		else if (kstrtouint(argv[i], 10, &pid)) {
			sh_err("kill: invalid number '%s'\n", argv[i]);
			status = 1;
			continue;
		}
		if (kill_pid(pid)) {
			sh_err("kill: can't kill pid %u: No such process\n", pid);
			status = 1;
		}
	}
	return status;
}
SHELL_COMMAND("kill", cmd_kill, "[-SIGNAL] PID|%N...: stop a task");
