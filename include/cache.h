/*
 * cache.h: cache-line alignment, as Linux's include/linux/cache.h. What
 * one CPU writes and others read gets a line of its own, so that a write
 * to a neighbour does not take the line away from the readers (false
 * sharing). The harts of QEMU virt, like most RISC-V cores, use 64-byte
 * lines.
 */
#ifndef _CACHE_H
#define _CACHE_H

#include "kernel.h"

#define L1_CACHE_BYTES		64
#define SMP_CACHE_BYTES		L1_CACHE_BYTES

/* Starts on a line; a struct's size rounds up to whole lines. */
#define ____cacheline_aligned	__aligned(SMP_CACHE_BYTES)

/*
 * A variable alone on its line: linker.ld puts the section on lines of
 * its own, and each variable in it starts a line.
 */
#define __cacheline_aligned	____cacheline_aligned \
				__section(".data..cacheline_aligned")

#endif
