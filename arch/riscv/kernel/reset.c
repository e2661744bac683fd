/*
 * reset.c: power off through QEMU's sifive_test device, whose exit
 * status is the test verdict: 0x5555 passes (QEMU exits 0), and
 * 0x3333 | code << 16 fails (QEMU exits with code).
 */
#include "kernel.h"
#include "printk.h"
#include "fdt.h"
#include "asm/csr.h"
#include "asm/sbi.h"

#define TEST_PASS	0x5555
#define TEST_FAIL	0x3333

__noreturn void machine_poweroff(int code)
{
	local_irq_disable();
	if (boot_info.test_base) {
		volatile u32 *test = (volatile u32 *)boot_info.test_base;

		*test = code ? TEST_FAIL | (u32)code << 16 : TEST_PASS;
	}
	/* SBI system reset: shutdown, with a failure reason if code != 0 */
	sbi_ecall(0x53525354, 0, 0, code ? 1 : 0, 0, 0);
	for (;;)
		wfi();
}
