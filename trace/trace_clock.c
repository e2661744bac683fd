/*
 * trace_clock.c: timestamps for trace events (include/trace_clock.h).
 * `local` reads the hart's time CSR (all harts share one timebase on
 * QEMU virt, so it is also monotonic across them); `global`
 * additionally never goes backwards as seen by any reader; `counter`
 * just counts; `instret` counts retired instructions, which under
 * QEMU's -icount makes a trace reproducible byte for byte.
 *
 * local and global store raw time CSR ticks: one instruction to read,
 * nanoseconds only when a trace is printed (trace_clock_ticks_to_ns).
 */
#include "kernel.h"
#include "time.h"
#include "trace_clock.h"

u64 trace_clock_global_last;
u64 trace_clock_counter_value;

u64 trace_clock_local_ticks(void)
{
	return trace_clock_read(TRACE_CLOCK_LOCAL);
}

u64 trace_clock_ticks_to_ns(u64 ticks)
{
	u64 ns_per_tick_q32 = (NSEC_PER_SEC << 32) / timebase_freq;

	return ((unsigned __int128)ticks * ns_per_tick_q32) >> 32;
}

u64 trace_clock_global(void)
{
	return trace_clock_read(TRACE_CLOCK_GLOBAL);
}

u64 trace_clock_counter(void)
{
	return trace_clock_read(TRACE_CLOCK_COUNTER);
}

u64 trace_clock_instret(void)
{
	return trace_clock_read(TRACE_CLOCK_INSTRET);
}

enum trace_clock_id trace_clock_id_of(u64 (*clock)(void))
{
	if (clock == trace_clock_local_ticks)
		return TRACE_CLOCK_LOCAL;
	if (clock == trace_clock_global)
		return TRACE_CLOCK_GLOBAL;
	if (clock == trace_clock_counter)
		return TRACE_CLOCK_COUNTER;
	if (clock == trace_clock_instret)
		return TRACE_CLOCK_INSTRET;
	return TRACE_CLOCK_NR;
}
