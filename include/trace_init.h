/*
 * trace_init.h: the one entry into the tracing core from outside trace/
 * (trace/trace.c): ring buffers, tracers and /sys/kernel/tracing, once
 * every CPU is online.
 */
#ifndef _TRACE_INIT_H
#define _TRACE_INIT_H

void trace_init(void);

#endif
