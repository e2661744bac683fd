/*
 * types.h: fixed-width integer types for a freestanding kernel.
 * Under HOST_TEST the same names come from the host's <stdint.h>.
 */
#ifndef _TYPES_H
#define _TYPES_H

#ifdef HOST_TEST
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#else
typedef unsigned long size_t;
typedef long ssize_t;
typedef unsigned long uintptr_t;
typedef long intptr_t;
typedef _Bool bool;
#define true 1
#define false 0
#define NULL ((void *)0)
#define offsetof(t, m) __builtin_offsetof(t, m)
#endif

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long long s64;
typedef int pid_t;

#endif
