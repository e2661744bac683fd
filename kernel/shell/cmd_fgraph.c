/*
 * cmd_fgraph.c: the `fgraph` shell command, what the function graph
 * core (trace/fgraph.c) holds per task and whether it ever lost track
 * of a return.
 */
#include "kernel.h"
#include "shell.h"
#include "fgraph.h"

/* `fgraph`: what the core holds per task, and whether it ever lost track. */
static int cmd_fgraph(struct shell_out *out, int argc, char **argv)
{
	sh_printf(out, "ret_stack: %d entries of %zu bytes per task\n",
		  FTRACE_RETFUNC_DEPTH, sizeof(struct ftrace_ret_stack));
	sh_printf(out, "unbalanced returns: %lu\n",
		  fgraph_unbalanced_returns());
	return 0;
}
SHELL_COMMAND("fgraph", cmd_fgraph,
	      "the function graph core: ret_stack size, unbalanced returns");
