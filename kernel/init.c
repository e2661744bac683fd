/*
 * init.c: what runs after the hardware is up: the early and the late
 * initcalls the rooms above the core registered (include/init.h), and
 * the first thread, the boot program the kernel command line names:
 * the shell, a selftest run that powers off with the verdict (`-append
 * selftest`), or the function graph frame-pointer test, which must
 * panic (`-append fgraph_fp_test`).
 */
#include "kernel.h"
#include "init.h"
#include "fdt.h"
#include "printk.h"
#include "sched.h"
#include "string.h"
#include "stop_machine.h"

#define DEFAULT_BOOT_PROGRAM	"sh"

extern const initcall_t __start_initcall_early[], __stop_initcall_early[];
extern const initcall_t __start_initcall_late[], __stop_initcall_late[];
extern const struct boot_program __start_boot_programs[],
	__stop_boot_programs[];

static void do_initcalls(const initcall_t *start, const initcall_t *stop)
{
	const initcall_t *call;

	for (call = start; call < stop; call++)
		(*call)();
}

void early_initcalls(void)
{
	do_initcalls(__start_initcall_early, __stop_initcall_early);
}

static const struct boot_program *boot_program(void)
{
	const struct boot_program *p, *fallback = NULL;

	for (p = __start_boot_programs; p < __stop_boot_programs; p++) {
		if (cmdline_has(p->name))
			return p;
		if (!strcmp(p->name, DEFAULT_BOOT_PROGRAM))
			fallback = p;
	}
	return fallback;
}

void late_initcalls(void)
{
	const struct boot_program *p = boot_program();
	struct task *t = p ? kthread_create(p->fn, NULL, p->name) : NULL;

	if (!t)
		panic("cannot start the first thread");
	/* The other CPUs run: patching text from now on needs stoppers. */
	stop_machine_init();		/* a stopper thread per CPU */
	do_initcalls(__start_initcall_late, __stop_initcall_late);
	kthread_start(t);		/* pid 1, as init is on Linux */
}
