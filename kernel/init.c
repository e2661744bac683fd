/*
 * init.c: what runs after the hardware is up. The kernel command line
 * chooses between the interactive shell, a selftest run that powers
 * off with the verdict (`-append selftest`), and the tracing cost
 * measurement (`-append bench`).
 */
#include "kernel.h"
#include "init.h"
#include "fdt.h"
#include "printk.h"
#include "sched.h"
#include "selftest.h"
#include "shell.h"
#include "ftrace.h"
#include "stop_machine.h"

void early_initcalls(void)
{
	ftrace_init();			/* every site becomes a nop */
}

static void selftest_thread(void *arg)
{
	(void)arg;
	machine_poweroff(selftest_run(NULL) ? 1 : 0);
}

static void bench_thread(void *arg)
{
	(void)arg;
	ftrace_bench();
	machine_poweroff(0);
}

void late_initcalls(void)
{
	struct task *t;

	stop_machine_init();		/* a stopper thread per CPU */
	if (cmdline_has("selftest"))
		t = kthread_create(selftest_thread, NULL, "selftest");
	else if (cmdline_has("bench"))
		t = kthread_create(bench_thread, NULL, "bench");
	else
		t = kthread_create(shell_main, NULL, "sh");
	if (!t)
		panic("cannot start the first thread");
	kthread_start(t);
}
