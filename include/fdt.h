/*
 * fdt.h: what the kernel learns from the flattened device tree that
 * OpenSBI passes in a1 (kernel/fdt.c).
 */
#ifndef _FDT_H
#define _FDT_H

#include "types.h"
#include "smp.h"

#define BOOTARGS_MAX	256
#define VIRTIO_MMIO_MAX	8	/* QEMU virt's slots at 0x10001000.. */

struct virtio_mmio_slot {
	unsigned long base;
	u32 irq;
};

struct boot_info {
	u64 mem_base, mem_size;
	int nr_harts;
	unsigned long hartids[NR_CPUS];
	char isa[NR_CPUS][64];		/* each hart's riscv,isa */
	char mmu[NR_CPUS][16];		/* and mmu-type ("riscv,sv39") */
	u32 timebase;
	char bootargs[BOOTARGS_MAX];
	unsigned long uart_base;
	u32 uart_irq;
	unsigned long plic_base;
	unsigned long test_base;	/* sifive,test0: poweroff with status */
	int nr_virtio_mmio;		/* "virtio,mmio" nodes, in tree order */
	struct virtio_mmio_slot virtio_mmio[VIRTIO_MMIO_MAX];
	u64 initrd_start, initrd_end;	/* /chosen/linux,initrd-*: -initrd */
};

extern struct boot_info boot_info;

int fdt_parse(const void *dtb, struct boot_info *bi);
bool cmdline_has(const char *word);
bool cmdline_value(const char *word, char *buf, size_t size);

#endif
