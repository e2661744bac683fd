/*
 * init.c: what runs after the hardware is up. The kernel command line
 * chooses between the interactive shell, a selftest run that powers
 * off with the verdict (`-append selftest`), and the function graph
 * frame-pointer test, which must panic (`-append fgraph_fp_test`).
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
#include "vfs.h"
#include "trace_init.h"
#include "fault_inject.h"
#include "fgraph.h"

void early_initcalls(void)
{
	vfs_init();			/* / and the ramfs at /tmp */
	fault_inject_init();		/* /sys/kernel/debug/fail* */
	ftrace_init();			/* every site becomes a nop */
}

/* `selftest` runs every suite, `selftest=a,b` the suites named. */
static void selftest_thread(void *arg)
{
	char filter[BOOTARGS_MAX], name[32];

	cmdline_value("selftest", filter, sizeof(filter));
	if (selftest_unknown(filter, name, sizeof(name))) {
		printk("selftest: %s: no such suite\n", name);
		machine_poweroff(2);
	}
	machine_poweroff(selftest_run(filter) ? 1 : 0);
}

void late_initcalls(void)
{
	struct task *t;

	if (cmdline_has("selftest"))
		t = kthread_create(selftest_thread, NULL, "selftest");
	else if (cmdline_has("fgraph_fp_test"))
		t = kthread_create(fgraph_fp_test, NULL, "fp_test");
	else
		t = kthread_create(shell_main, NULL, "sh");
	if (!t)
		panic("cannot start the first thread");
	/* The other CPUs run: patching text from now on needs stoppers. */
	stop_machine_init();		/* a stopper thread per CPU */
	trace_init();			/* ring buffer, tracers, tracefs */
	kthread_start(t);		/* pid 1, as init is on Linux */
}
