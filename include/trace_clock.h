/*
 * trace_clock.h: the clocks a trace can be stamped with
 * (trace/trace_clock.c), in the order tracefs's trace_clock file lists
 * them. A writer reads one through trace_clock_read() with the id
 * chosen when tracing starts: each is a few instructions inline, and
 * the trampolines' fast paths (arch/riscv/kernel/ftrace_fast.S) read
 * them the same way.
 */
#ifndef _TRACE_CLOCK_H
#define _TRACE_CLOCK_H

#include "types.h"
#include "asm/csr.h"

/*
 * The first four have fast paths of their own; the others read the
 * same sources, less often used. The kernel has one timebase, no
 * suspend, no NTP and no wall clock, so perf reads what local does,
 * and mono, mono_raw, boot and tai what global does (tai counts from
 * boot, not from 1970). uptime counts timer ticks (HZ), Linux's
 * jiffies. trace_clock lists them in Linux's order (trace/trace.c).
 */
enum trace_clock_id {
	TRACE_CLOCK_LOCAL,	/* the time CSR, in its ticks */
	TRACE_CLOCK_GLOBAL,	/* the same, never behind across harts */
	TRACE_CLOCK_COUNTER,	/* an atomic event counter */
	TRACE_CLOCK_INSTRET,	/* instructions retired by this hart */
	TRACE_CLOCK_UPTIME,	/* timer ticks since boot */
	TRACE_CLOCK_PERF,
	TRACE_CLOCK_MONO,
	TRACE_CLOCK_MONO_RAW,
	TRACE_CLOCK_BOOT,
	TRACE_CLOCK_TAI,
	TRACE_CLOCK_NR,		/* any other clock: a function to call */
};

/* uptime's divisor: time CSR ticks per timer tick (timebase / HZ). */
extern u32 trace_clock_uptime_div;

/* global's last value, counter's: the assembly reads them too. */
extern u64 trace_clock_global_last, trace_clock_counter_value;

/*
 * global: what the time CSR says, or later if any hart has read a
 * later value (the harts' time CSRs may differ by a tick). One atomic
 * maximum, where Linux's trace_clock_global takes a lock.
 */
static inline u64 __trace_clock_global(void)
{
	u64 now = rdtime(), last;

	__asm__ __volatile__("amomaxu.d %0, %2, %1"
			     : "=r"(last), "+A"(trace_clock_global_last)
			     : "r"(now));
	return now > last ? now : last;
}

static __always_inline u64 trace_clock_read(enum trace_clock_id id)
{
	/*
	 * No call in here, which would cost the callers registers, and the
	 * four clocks with fast paths first, before any jump table.
	 */
	switch (id) {
	case TRACE_CLOCK_GLOBAL:
		return __trace_clock_global();
	case TRACE_CLOCK_COUNTER:
		return __atomic_add_fetch(&trace_clock_counter_value, 1,
					  __ATOMIC_RELAXED);
	case TRACE_CLOCK_INSTRET:
		return rdinstret();
	default:
		if (likely(id == TRACE_CLOCK_LOCAL || id == TRACE_CLOCK_PERF))
			return rdtime();
		if (id == TRACE_CLOCK_UPTIME)
			return rdtime() / trace_clock_uptime_div;
		return __trace_clock_global();	/* the mono family */
	}
}

/* The same as functions, for callers that keep a function pointer. */
u64 trace_clock_local_ticks(void);
u64 trace_clock_global(void);
u64 trace_clock_counter(void);
u64 trace_clock_uptime(void);
u64 trace_clock_perf(void);
u64 trace_clock_mono(void);
u64 trace_clock_mono_raw(void);
u64 trace_clock_boot(void);
u64 trace_clock_tai(void);
u64 trace_clock_instret(void);
u64 trace_clock_ticks_to_ns(u64 ticks);
/* The id of a clock function, TRACE_CLOCK_NR for any other. */
enum trace_clock_id trace_clock_id_of(u64 (*clock)(void));

#endif
