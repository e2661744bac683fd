/*
 * shell.c: the console shell: read a line, run a command.
 */
#include "kernel.h"
#include "printk.h"
#include "shell.h"
#include "string.h"
#include "sched.h"
#include "selftest.h"

static int read_line(char *buf, int size)
{
	int n = 0, c;

	while ((c = console_getc()) != '\r' && c != '\n') {
		if (n < size - 1) {
			buf[n++] = (char)c;
			console_putc((char)c);
		}
	}
	console_putc('\n');
	buf[n] = 0;
	return n;
}

void shell_main(void *arg)
{
	char line[256];

	(void)arg;
	console_set_owner(current);
	for (;;) {
		console_puts("rvftrace:/# ");
		read_line(line, sizeof(line));
		if (!strcmp(line, "poweroff"))
			machine_poweroff(0);
		else if (!strcmp(line, "selftest"))
			selftest_run(NULL);
		else if (line[0])
			console_printf("sh: %s: command not found\n", line);
	}
}
