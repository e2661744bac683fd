/*
 * sbi.c: the supervisor binary interface, an `ecall` into OpenSBI.
 */
#include "kernel.h"
#include "patch.h"
#include "asm/sbi.h"

struct sbiret sbi_ecall(long ext, long fid, unsigned long a0,
			unsigned long a1, unsigned long a2, unsigned long a3)
{
	register unsigned long r0 __asm__("a0") = a0;
	register unsigned long r1 __asm__("a1") = a1;
	register unsigned long r2 __asm__("a2") = a2;
	register unsigned long r3 __asm__("a3") = a3;
	register long r6 __asm__("a6") = fid;
	register long r7 __asm__("a7") = ext;
	struct sbiret ret;

	__asm__ __volatile__("ecall"
			     : "+r"(r0), "+r"(r1)
			     : "r"(r2), "r"(r3), "r"(r6), "r"(r7)
			     : "memory");
	ret.error = r0;
	ret.value = r1;
	return ret;
}

void sbi_set_timer(u64 stime)
{
	sbi_ecall(SBI_EXT_TIME, 0, stime, 0, 0, 0);
}

void sbi_send_ipi(unsigned long hart_mask, unsigned long hart_base)
{
	sbi_ecall(SBI_EXT_IPI, 0, hart_mask, hart_base, 0, 0);
}

/* Returns once every hart in the mask has executed fence.i. */
void sbi_remote_fence_i(unsigned long hart_mask, unsigned long hart_base)
{
	u64 gen = text_gen_read();

	if (!sbi_ecall(SBI_EXT_RFENCE, 0, hart_mask, hart_base, 0, 0).error)
		icache_fenced_harts(hart_mask << hart_base, gen);
}

void sbi_remote_sfence_vma(unsigned long hart_mask, unsigned long hart_base,
			   unsigned long start, unsigned long size)
{
	sbi_ecall(SBI_EXT_RFENCE, 1, hart_mask, hart_base, start, size);
}

long sbi_hart_start(unsigned long hartid, unsigned long addr,
		    unsigned long opaque)
{
	return sbi_ecall(SBI_EXT_HSM, 0, hartid, addr, opaque, 0).error;
}
