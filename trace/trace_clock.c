/*
 * trace_clock.c: timestamps for trace events (include/trace_clock.h).
 * `local` reads the hart's time CSR (all harts share one timebase on
 * QEMU virt, so it is also monotonic across them); `global`
 * additionally never goes backwards as seen by any reader; `counter`
 * just counts; `uptime` counts timer ticks; `perf` is `local`, and
 * `mono`, `mono_raw`, `boot` and `tai` are `global` (one timebase, no
 * suspend, no NTP, no wall clock); `instret` counts retired
 * instructions, which under QEMU's -icount makes a trace reproducible
 * byte for byte.
 *
 * local and global store raw time CSR ticks: one instruction to read,
 * nanoseconds only when a trace is printed (trace_clock_ticks_to_ns).
 */
#include "kernel.h"
#include "time.h"
#include "sched.h"
#include "init.h"
#include "trace_clock.h"

u64 trace_clock_global_last;
u64 trace_clock_counter_value;

u64 trace_clock_ticks_to_ns(u64 ticks)
{
	u64 ns_per_tick_q32 = (NSEC_PER_SEC << 32) / timebase_freq;

	return ((unsigned __int128)ticks * ns_per_tick_q32) >> 32;
}

u32 trace_clock_uptime_div;

/* uptime is Linux's jiffies, from the time CSR: HZ timer ticks a second. */
static void trace_clock_init(void)
{
	trace_clock_uptime_div = timebase_freq / HZ;
}
early_initcall(trace_clock_init);

#define DEFINE_TRACE_CLOCK(name, id)		\
	u64 name(void)				\
	{					\
		return trace_clock_read(id);	\
	}

DEFINE_TRACE_CLOCK(trace_clock_local_ticks, TRACE_CLOCK_LOCAL)
DEFINE_TRACE_CLOCK(trace_clock_global, TRACE_CLOCK_GLOBAL)
DEFINE_TRACE_CLOCK(trace_clock_counter, TRACE_CLOCK_COUNTER)
DEFINE_TRACE_CLOCK(trace_clock_uptime, TRACE_CLOCK_UPTIME)
DEFINE_TRACE_CLOCK(trace_clock_perf, TRACE_CLOCK_PERF)
DEFINE_TRACE_CLOCK(trace_clock_mono, TRACE_CLOCK_MONO)
DEFINE_TRACE_CLOCK(trace_clock_mono_raw, TRACE_CLOCK_MONO_RAW)
DEFINE_TRACE_CLOCK(trace_clock_boot, TRACE_CLOCK_BOOT)
DEFINE_TRACE_CLOCK(trace_clock_tai, TRACE_CLOCK_TAI)
DEFINE_TRACE_CLOCK(trace_clock_instret, TRACE_CLOCK_INSTRET)

static u64 (*const clock_funcs[TRACE_CLOCK_NR])(void) = {
	[TRACE_CLOCK_LOCAL] = trace_clock_local_ticks,
	[TRACE_CLOCK_GLOBAL] = trace_clock_global,
	[TRACE_CLOCK_COUNTER] = trace_clock_counter,
	[TRACE_CLOCK_UPTIME] = trace_clock_uptime,
	[TRACE_CLOCK_PERF] = trace_clock_perf,
	[TRACE_CLOCK_MONO] = trace_clock_mono,
	[TRACE_CLOCK_MONO_RAW] = trace_clock_mono_raw,
	[TRACE_CLOCK_BOOT] = trace_clock_boot,
	[TRACE_CLOCK_TAI] = trace_clock_tai,
	[TRACE_CLOCK_INSTRET] = trace_clock_instret,
};

enum trace_clock_id trace_clock_id_of(u64 (*clock)(void))
{
	int id;

	for (id = 0; id < TRACE_CLOCK_NR; id++)
		if (clock == clock_funcs[id])
			return id;
	return TRACE_CLOCK_NR;
}
