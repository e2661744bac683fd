/*
 * csr.h: one static inline per supervisor CSR access, and the bits we use.
 */
#ifndef _ASM_CSR_H
#define _ASM_CSR_H

#include "types.h"

#define SSTATUS_SIE	(1UL << 1)
#define SSTATUS_SPIE	(1UL << 5)
#define SSTATUS_SPP	(1UL << 8)
#define SSTATUS_SUM	(1UL << 18)

#define SIE_SSIE	(1UL << 1)
#define SIE_STIE	(1UL << 5)
#define SIE_SEIE	(1UL << 9)

#define CAUSE_IRQ	(1UL << 63)
#define IRQ_S_SOFT	1
#define IRQ_S_TIMER	5
#define IRQ_S_EXT	9

#define EXC_INST_MISALIGNED	0
#define EXC_INST_ACCESS		1
#define EXC_ILLEGAL		2
#define EXC_BREAKPOINT		3
#define EXC_LOAD_ACCESS		5
#define EXC_STORE_ACCESS	7
#define EXC_ECALL_S		9
#define EXC_INST_PAGE		12
#define EXC_LOAD_PAGE		13
#define EXC_STORE_PAGE		15

#define csr_read(csr) ({						\
	unsigned long __v;						\
	__asm__ __volatile__("csrr %0, " #csr : "=r"(__v) :: "memory");	\
	__v; })
#define csr_write(csr, v)						\
	__asm__ __volatile__("csrw " #csr ", %0" :: "rK"(v) : "memory")
#define csr_set(csr, v)							\
	__asm__ __volatile__("csrs " #csr ", %0" :: "rK"(v) : "memory")
#define csr_clear(csr, v)						\
	__asm__ __volatile__("csrc " #csr ", %0" :: "rK"(v) : "memory")
#define csr_read_clear(csr, v) ({					\
	unsigned long __v;						\
	__asm__ __volatile__("csrrc %0, " #csr ", %1"			\
			     : "=r"(__v) : "rK"(v) : "memory");	\
	__v; })

/*
 * The raw forms: no latency tracer hook (include/irqflags.h adds it).
 * The tracer's own hot paths use these, as Linux's use raw_local_irq_*.
 */
static inline void raw_local_irq_enable(void)
{
	csr_set(sstatus, SSTATUS_SIE);
}

static inline void raw_local_irq_disable(void)
{
	csr_clear(sstatus, SSTATUS_SIE);
}

static inline unsigned long raw_local_irq_save(void)
{
	return csr_read_clear(sstatus, SSTATUS_SIE) & SSTATUS_SIE;
}

static inline unsigned long local_save_flags(void)
{
	return csr_read(sstatus) & SSTATUS_SIE;
}

static inline void raw_local_irq_restore(unsigned long flags)
{
	csr_set(sstatus, flags & SSTATUS_SIE);
}

static inline bool irqs_disabled(void)
{
	return !(csr_read(sstatus) & SSTATUS_SIE);
}

/* Under -icount shift=0 these count executed guest instructions. */
static inline u64 rdinstret(void)
{
	u64 v;

	__asm__ __volatile__("rdinstret %0" : "=r"(v));
	return v;
}

static inline u64 rdtime(void)
{
	u64 v;

	__asm__ __volatile__("rdtime %0" : "=r"(v));
	return v;
}

static inline u64 rdcycle(void)
{
	u64 v;

	__asm__ __volatile__("rdcycle %0" : "=r"(v));
	return v;
}

static inline void wfi(void)
{
	__asm__ __volatile__("wfi" ::: "memory");
}

static inline void local_flush_tlb_all(void)
{
	__asm__ __volatile__("sfence.vma" ::: "memory");
}

static inline void local_flush_tlb_page(unsigned long va)
{
	__asm__ __volatile__("sfence.vma %0" :: "r"(va) : "memory");
}

#define mb()	__asm__ __volatile__("fence rw, rw" ::: "memory")
#define rmb()	__asm__ __volatile__("fence r, r" ::: "memory")
#define wmb()	__asm__ __volatile__("fence w, w" ::: "memory")

#include "irqflags.h"

#endif
