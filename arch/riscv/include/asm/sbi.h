/*
 * sbi.h: calls into OpenSBI (the SBI spec's base, TIME, IPI, RFENCE,
 * HSM and SRST extensions).
 */
#ifndef _ASM_SBI_H
#define _ASM_SBI_H

#include "types.h"

struct sbiret {
	long error;
	long value;
};

#define SBI_EXT_BASE	0x10
#define SBI_EXT_TIME	0x54494D45
#define SBI_EXT_IPI	0x735049
#define SBI_EXT_RFENCE	0x52464E43
#define SBI_EXT_HSM	0x48534D
#define SBI_EXT_SRST	0x53525354

#define SBI_HSM_STARTED	0

struct sbiret sbi_ecall(long ext, long fid, unsigned long a0,
			unsigned long a1, unsigned long a2, unsigned long a3);
void sbi_set_timer(u64 stime);
void sbi_send_ipi(unsigned long hart_mask, unsigned long hart_base);
void sbi_remote_fence_i(unsigned long hart_mask, unsigned long hart_base);
void sbi_remote_sfence_vma(unsigned long hart_mask, unsigned long hart_base,
			   unsigned long start, unsigned long size);
long sbi_hart_start(unsigned long hartid, unsigned long addr,
		    unsigned long opaque);

#endif
