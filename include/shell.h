/*
 * shell.h: the console shell (kernel/shell.c), the first kernel thread.
 */
#ifndef _SHELL_H
#define _SHELL_H

void shell_main(void *arg);

#endif
