/*
 * kernel.h: the few macros every file uses (container_of, notrace, ...).
 */
#ifndef _KERNEL_H
#define _KERNEL_H

#include "types.h"
#include "errno.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a)	(((x) + (a) - 1) & ~((typeof(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((typeof(x))(a) - 1))
#define BITS_PER_LONG	(8 * sizeof(long))
#define BITS_TO_LONGS(n) (((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))
#define container_of(p, t, m) ((t *)((char *)(p) - offsetof(t, m)))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define READ_ONCE(x)	(*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile typeof(x) *)&(x) = (v))
#define barrier()	__asm__ __volatile__("" ::: "memory")
/*
 * Publish a pointer to a newly set-up object: a release store (fence
 * rw,w before it on RISC-V), so no CPU that loads the pointer sees the
 * object's older contents. Readers use READ_ONCE, since RISC-V keeps
 * address-dependent loads in order (Linux's rcu_dereference).
 */
#define rcu_assign_pointer(p, v) __atomic_store_n(&(p), (v), __ATOMIC_RELEASE)
#define __used		__attribute__((used))
#define __packed	__attribute__((packed))
#define __aligned(n)	__attribute__((aligned(n)))
#define __section(s)	__attribute__((section(s)))
/*
 * Storage always written before it is read: left out of the .bss that
 * boot zeroes (linker.ld), as a big buffer costs boot an instruction
 * per 6 bytes there.
 */
#define __noinit	__section(".noinit")
#define noinline	__attribute__((noinline))
#ifndef __always_inline		/* the host tests' libc has one */
#define __always_inline	inline __attribute__((always_inline))
#endif
#define __noreturn	__attribute__((noreturn))
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define __maybe_unused	__attribute__((unused))

/*
 * notrace: this function gets no patchable entry (and no _mcount call in
 * the -pg build), for code the tracer itself runs through.
 */
#define notrace __attribute__((patchable_function_entry(0, 0), \
			       no_instrument_function))

#define IS_ERR_VALUE(x)	((unsigned long)(x) >= (unsigned long)-4095)
#define ERR_PTR(e)	((void *)(long)(e))
#define PTR_ERR(p)	((long)(p))
#define IS_ERR(p)	IS_ERR_VALUE((unsigned long)(p))
#define IS_ERR_OR_NULL(p) (!(p) || IS_ERR(p))

#endif
