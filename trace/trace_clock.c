/*
 * trace_clock.c: timestamps for trace events. `local` reads the hart's
 * time CSR (all harts share one timebase on QEMU virt, so it is also
 * monotonic across them); `global` additionally never goes backwards
 * as seen by any reader; `counter` just counts; `instret` counts retired
 * instructions, which under QEMU's -icount makes a trace reproducible
 * byte for byte.
 */
#include "kernel.h"
#include "time.h"
#include "trace_clock.h"
#include "asm/csr.h"

static u64 global_last;
static u64 counter;

/*
 * What the ring buffer stores for the `local` clock: raw time CSR ticks
 * cost one instruction to read (ring_buffer.c reads them inline) and
 * become nanoseconds only when a trace is printed.
 */
u64 trace_clock_local_ticks(void)
{
	return rdtime();
}

u64 trace_clock_ticks_to_ns(u64 ticks)
{
	u64 ns_per_tick_q32 = (NSEC_PER_SEC << 32) / timebase_freq;

	return ((unsigned __int128)ticks * ns_per_tick_q32) >> 32;
}

u64 trace_clock_global(void)
{
	u64 now = ktime_get_ns(), last = __atomic_load_n(&global_last,
							  __ATOMIC_RELAXED);

	while (now > last && !__atomic_compare_exchange_n(&global_last, &last,
							  now, false,
							  __ATOMIC_RELAXED,
							  __ATOMIC_RELAXED))
		;
	return now > last ? now : last;
}

u64 trace_clock_counter(void)
{
	return __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
}

u64 trace_clock_instret(void)
{
	return rdinstret();
}
