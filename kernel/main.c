/*
 * main.c: start_kernel, the boot hart's path from OpenSBI to the shell,
 * as a list of init calls.
 */
#include "kernel.h"
#include "printk.h"
#include "fdt.h"
#include "mm.h"
#include "sched.h"
#include "smp.h"
#include "time.h"
#include "irq.h"
#include "virtio.h"
#include "init.h"
#include "asm/csr.h"
#include "asm/ftrace.h"

u64 boot_instret;	/* instructions retired when the prompt first shows */
u64 kernel_start_instret;	/* and at _start, head.S's first instruction */

static void banner(void)
{
	printk(KERN_NOTICE "rvftrace: RISC-V kernel with %s ftrace\n",
	       DYNAMIC_FTRACE ? "dynamic" : "static");
	printk("rvftrace: hart %lu boots, %d hart(s), %llu MiB RAM at %#llx, "
	       "timebase %u Hz\n", this_cpu()->hartid, boot_info.nr_harts,
	       boot_info.mem_size >> 20, boot_info.mem_base,
	       boot_info.timebase);
	printk("rvftrace: command line: %s\n", boot_info.bootargs);
}

static void devices_init(void)
{
	plic_init(boot_info.plic_base);
	plic_init_hart();
	plic_enable(boot_info.uart_irq, uart_handle_irq, "ttyS0");
	uart_enable_rx_irq();
	virtio_mmio_init();
}

void start_kernel(unsigned long hartid, const void *dtb)
{
	cpus[0].hartid = hartid;
	cpus[0].online = true;
	__asm__ __volatile__("mv tp, %0" :: "r"(cpus));
	sched_init();			/* the boot context is CPU 0's idle */
	if (fdt_parse(dtb, &boot_info) || !boot_info.uart_base)
		machine_poweroff(3);	/* no console to say anything on */
	uart_init(boot_info.uart_base);
	time_init(boot_info.timebase);
	banner();
	page_alloc_init((unsigned long)_end,
			boot_info.mem_base + boot_info.mem_size);
	if (boot_info.initrd_end > boot_info.initrd_start &&
	    !page_alloc_reserve(boot_info.initrd_start, boot_info.initrd_end))
		boot_info.initrd_end = boot_info.initrd_start = 0;
	smp_alloc_cpus(boot_info.nr_harts);	/* per-CPU data for each hart */
	mmu_init(boot_info.mem_base, boot_info.mem_size);
	mmu_enable();			/* text is read+execute from here on */
	trap_init();
	devices_init();
	early_initcalls();		/* ftrace_init and friends */
	smp_boot_secondaries();
	printk("smp: %d CPU(s) online\n", nr_cpus);
	timer_arm_next_tick();
	local_irq_enable();
	late_initcalls();		/* the shell, or the selftests */
	cpu_idle();
}
