/*
 * cmd_sched.c: nice and chrt, as busybox's: run a shell command with
 * another nice value or scheduling policy. The shell task takes the
 * priority while the command runs, so what the command starts (a `run`
 * workload's thread) inherits it, then gets its own back.
 */
#include "kernel.h"
#include "kstrtox.h"
#include "sched.h"
#include "shell.h"
#include "string.h"
#include "sh.h"

/* busybox's bounds for nice's adjustment: INT_MIN / 2 .. INT_MAX / 2 */
#define NICE_ADJ_MIN	(-(1L << 30))
#define NICE_ADJ_MAX	((1L << 30) - 1)

/* busybox's xatoi_range: a number in min..max, else say why. */
static bool number_in_range(const char *cmd, const char *s, long min,
			    long max, long *val)
{
	if (kstrtol(s, 10, val)) {
		sh_err("%s: invalid number '%s'\n", cmd, s);
		return false;
	}
	if (*val < min || *val > max) {
		sh_err("%s: number %s is not in %ld..%ld range\n", cmd, s,
		       min, max);
		return false;
	}
	return true;
}

/* Run argv with current's policy and nice set, then restore them. */
static int run_with(int policy, int rt_priority, long nice, int argc,
		    char **argv)
{
	struct task *me = current;
	int old_policy = me->policy, old_rt = me->rt_priority;
	long old_nice = task_nice(me);
	int status;

	set_user_nice(me, nice);
	sched_setscheduler(me, policy, rt_priority);
	status = sh_run_argv(sh_current(), argc, argv);
	sched_setscheduler(me, old_policy, old_rt);
	set_user_nice(me, old_nice);
	return status;
}

/*
 * `nice [-n N | -N] [CMD ARGS]`: CMD at the current nice plus N
 * (default 10), clamped to -20..19; alone, the current nice value.
 */
static int nice_usage(void)
{
	sh_err("usage: nice [-n ADJUST] [PROG ARGS]\n");
	return 1;
}

static int cmd_nice(struct shell_out *out, int argc, char **argv)
{
	const char *adj = "10";
	long n;
	int i = 1;

	if (argc < 2) {
		sh_printf(out, "%d\n", task_nice(current));
		return 0;
	}
	if (argv[1][0] == '-') {
		adj = argv[i++] + 1;
		if (!strcmp(adj, "n"))
			adj = i < argc ? argv[i++] : "";
		else if (*adj == 'n')
			adj++;
	}
	if (!*adj)
		return nice_usage();
	if (!number_in_range("nice", adj, NICE_ADJ_MIN, NICE_ADJ_MAX, &n))
		return 1;
	if (i == argc)
		return nice_usage();
	return run_with(current->policy, current->rt_priority,
			task_nice(current) + n, argc - i, argv + i);
}
SHELL_COMMAND("nice", cmd_nice, "[-n N] [CMD ARGS]: run CMD at nice + N (10)");

/*
 * `chrt -f PRIO CMD [ARGS]` (SCHED_FIFO, 1..99) or `chrt -o 0 CMD`
 * (SCHED_NORMAL). busybox's default, SCHED_RR, is not built, nor -p.
 */
static int cmd_chrt(struct shell_out *out, int argc, char **argv)
{
	int policy;
	long prio;

	if (argc < 4 || (strcmp(argv[1], "-f") && strcmp(argv[1], "-o"))) {
		sh_err("usage: chrt -f|-o PRIO PROG ARGS\n");
		return 1;
	}
	policy = argv[1][1] == 'f' ? SCHED_FIFO : SCHED_NORMAL;
	if (!number_in_range("chrt", argv[2], policy == SCHED_FIFO,
			     policy == SCHED_FIFO ? MAX_RT_PRIO - 1 : 0, &prio))
		return 1;
	return run_with(policy, prio, task_nice(current), argc - 3, argv + 3);
}
SHELL_COMMAND("chrt", cmd_chrt, "-f PRIO | -o 0 CMD [ARGS]: run CMD as SCHED_FIFO PRIO or normal");
