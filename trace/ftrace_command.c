/*
 * ftrace_command.c: the commands set_ftrace_filter takes as
 * [!]FUNC:cmd[:param] (Linux's register_ftrace_command and the split in
 * ftrace_process_regex): the list of them by name, and the parse of a
 * token into a call of one. Apart from the probes (ftrace_probe.c) so
 * that the parse builds on the host, for tests/fuzz/fuzz_ftrace_filter.c.
 */
#include "kernel.h"
#include "string.h"
#include "trace.h"

static struct ftrace_func_command *commands;

int register_ftrace_command(struct ftrace_func_command *cmd)
{
	struct ftrace_func_command *c;

	for (c = commands; c; c = c->next)
		if (!strcmp(c->name, cmd->name))
			return -EBUSY;
	cmd->next = commands;
	commands = cmd;
	return 0;
}

/*
 * A set_ftrace_filter token with a colon: [!]FUNC:cmd[:param]. An
 * unknown command is -EINVAL, as is an empty function.
 */
int ftrace_process_command(struct trace_array *tr, char *token)
{
	bool remove = token[0] == '!';
	char *func = token + remove, *cmd = strchr(func, ':'), *param;
	struct ftrace_func_command *c;

	*cmd++ = 0;
	param = strchr(cmd, ':');
	if (param)
		*param++ = 0;
	if (!*func)
		return -EINVAL;
	for (c = commands; c; c = c->next)
		if (!strcmp(c->name, cmd))
			return c->func(tr, func, strlen(func), param, remove);
	return -EINVAL;
}
