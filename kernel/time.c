/*
 * time.c: nanoseconds from the `time` CSR, and the scheduler tick armed
 * through the SBI timer extension.
 */
#include "kernel.h"
#include "time.h"
#include "sched.h"
#include "asm/csr.h"
#include "asm/sbi.h"

u32 timebase_freq = 10000000;
static u64 ns_per_tick_q32;	/* ns per time-CSR tick, 32.32 fixed point */

void time_init(u32 timebase)
{
	if (timebase)
		timebase_freq = timebase;
	ns_per_tick_q32 = (NSEC_PER_SEC << 32) / timebase_freq;
}

notrace u64 ktime_get_ns(void)
{
	/* 128-bit product: t * ns_per_tick_q32 outgrows 64 bits in seconds */
	return ((unsigned __int128)rdtime() * ns_per_tick_q32) >> 32;
}

void timer_arm_next_tick(void)
{
	sbi_set_timer(rdtime() + timebase_freq / HZ);
}
