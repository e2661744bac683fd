/*
 * time.h: time from the RISC-V `time` CSR, whose rate the device tree's
 * timebase-frequency gives (kernel/time.c).
 */
#ifndef _TIME_H
#define _TIME_H

#include "types.h"

#define NSEC_PER_SEC	1000000000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_USEC	1000ULL

extern u32 timebase_freq;

void time_init(u32 timebase);
u64 ktime_get_ns(void);
void timer_arm_next_tick(void);

#endif
