/*
 * trace_clock.h: the clocks a trace can be stamped with
 * (trace/trace_clock.c), as listed in tracefs's trace_clock file.
 */
#ifndef _TRACE_CLOCK_H
#define _TRACE_CLOCK_H

#include "types.h"

u64 trace_clock_local_ticks(void); /* the time CSR itself, for `local` */
u64 trace_clock_ticks_to_ns(u64 ticks);
u64 trace_clock_global(void);	/* ns, never behind across harts */
u64 trace_clock_counter(void);	/* an atomic event counter */
u64 trace_clock_instret(void);	/* instructions retired by this hart */

#endif
