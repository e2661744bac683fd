/*
 * stop_machine.h: run a function while every other CPU spins with
 * interrupts off (kernel/stop_machine.c), the rendezvous that dynamic
 * ftrace patches text under.
 */
#ifndef _STOP_MACHINE_H
#define _STOP_MACHINE_H

int stop_machine(int (*fn)(void *), void *data);
void stop_machine_init(void);
bool stop_machine_running(void);
void synchronize_sched(void);
unsigned long stop_machine_rounds(void);

#endif
