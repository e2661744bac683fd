/*
 * cmd_run.c: `run WORKLOAD [ARGS]` starts a workload (one the demos
 * registered with WORKLOAD, include/workloads.h) as a kernel thread
 * named after it and waits for it. The thread is in its caller's
 * process group, so the Ctrl-C that stops the foreground job marks it
 * too (kill_pgrp), and a workload in a background job runs on.
 */
#include "kernel.h"
#include "shell.h"
#include "workloads.h"
#include "sched.h"
#include "string.h"

struct job {
	const struct workload *workload;
	struct shell_out *out;
	int argc;
	char **argv;
	int result;
	bool interrupted;
};

extern const struct workload __start_workloads[], __stop_workloads[];

const struct workload *workload_find(const char *name)
{
	const struct workload *w;

	for (w = __start_workloads; w < __stop_workloads; w++)
		if (!strcmp(w->name, name))
			return w;
	return NULL;
}

const struct workload *workload_get(size_t i)
{
	return i < (size_t)(__stop_workloads - __start_workloads) ?
	       &__start_workloads[i] : NULL;
}

static void job_thread(void *arg)
{
	struct job *job = arg;

	job->result = job->workload->main(job->out, job->argc, job->argv);
	job->interrupted = current->sigpending;
}

static void list_workloads(void)
{
	const struct workload *w;
	size_t i;

	sh_err("workloads:\n");
	for (i = 0; (w = workload_get(i)); i++)
		sh_err("  %-9s %s\n", w->name, w->usage);
}

static int start_and_wait(struct job *job)
{
	struct task *t = kthread_create(job_thread, job, job->workload->name);

	if (!t)
		return -ENOMEM;
	kthread_start(t);
	kthread_wait(t);
	return 0;
}

/* A Ctrl-C that stopped the workload also reaches the shell. */
static int cmd_run(struct shell_out *out, int argc, char **argv)
{
	struct job job = {
		.out = out, .argc = argc - 1, .argv = argv + 1,
	};
	int err;

	if (argc < 2) {
		sh_err("usage: run WORKLOAD [ARGS]\n");
		list_workloads();
		return 2;
	}
	job.workload = workload_find(argv[1]);
	if (!job.workload) {
		sh_err("run: %s: no such workload\n", argv[1]);
		list_workloads();
		return 2;
	}
	err = start_and_wait(&job);
	if (!err)
		err = job.result;
	if (job.interrupted || err == -EINTR)
		current->sigpending = true;
	else if (err < 0)
		sh_err("run: %s: %s\n", argv[1], strerror_text(err));
	return err ? 1 : 0;
}
SHELL_COMMAND("run", cmd_run, "WORKLOAD [ARGS]: run a workload as a kernel thread (run: list)");
