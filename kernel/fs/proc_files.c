/*
 * proc_files.c: the files of /proc that describe the machine, each in
 * the format Linux 6.1 prints (fs/proc/, Documentation/filesystems/
 * proc.rst): kallsyms, interrupts, cpuinfo, meminfo; and /sys/devices/
 * system/cpu/online (Documentation/ABI/testing/sysfs-devices-system-cpu).
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "vfs.h"
#include "init.h"
#include "irq.h"
#include "smp.h"
#include "fdt.h"
#include "kallsyms.h"
#include "printk.h"

/* Width of the irq numbers, as Linux's show_interrupts makes it. */
#define IRQ_PREC	3

static void kallsyms_show(struct seq_buf *s, long data)
{
	char line[KSYM_NAME_LEN + 24];
	u32 i;

	for (i = 0; i < kallsyms_num_syms; i++) {
		kallsyms_sprint_line(line, sizeof(line), i);
		seq_puts(s, line);
	}
}

/* One line of counts: Linux's "%*d: " then "%10u " a CPU. */
static void irq_line_start(struct seq_buf *s, int irq)
{
	seq_printf(s, "%*d: ", IRQ_PREC, irq);
}

/*
 * kernel/irq/proc.c:show_interrupts, then arch/riscv/kernel/smp.c's
 * show_ipi_stats. Linux numbers its interrupts as it maps them; here
 * the PLIC's sources come first, in the order of their numbers, then
 * the timer. Linux 6.1's IPIs that this kernel never sends (CPU stop,
 * IRQ work, timer broadcast) count 0; its two function-call kinds are
 * Linux's one.
 */
static void interrupts_show(struct seq_buf *s, long data)
{
	static const char *const ipi_names[] = {
		"Rescheduling interrupts", "Function call interrupts",
		"CPU stop interrupts", "IRQ work interrupts",
		"Timer broadcast interrupts",
	};
	int cpu, virq = 0, i;
	u32 hw;

	seq_printf(s, "%*s", IRQ_PREC + 8, "");
	for_each_online_cpu(cpu)
		seq_printf(s, "CPU%-8d", cpu);
	seq_puts(s, "\n");
	for (hw = 1; hw < PLIC_MAX_IRQ; hw++) {
		if (!plic_irq_name(hw))
			continue;
		irq_line_start(s, ++virq);
		for_each_online_cpu(cpu)
			seq_printf(s, "%10u ", plic_irq_count(hw, cpu));
		seq_printf(s, " %8s %*u %-8s  %s\n", "SiFive PLIC", IRQ_PREC,
			   hw, "Edge", plic_irq_name(hw));
	}
	irq_line_start(s, ++virq);
	for_each_online_cpu(cpu)
		seq_printf(s, "%10u ", (unsigned int)cpus[cpu].ticks);
	seq_printf(s, " %8s %*u %-8s  %s\n", "RISC-V INTC", IRQ_PREC,
		   IRQ_S_TIMER, "Edge", "riscv-timer");
	for (i = 0; i < (int)ARRAY_SIZE(ipi_names); i++) {
		seq_printf(s, "%*s%u:", IRQ_PREC - 1, "IPI", i);
		for_each_online_cpu(cpu) {
			struct cpu *c = &cpus[cpu];
			unsigned int n = 0;

			if (i == IPI_RESCHEDULE)
				n = c->ipi_stats[IPI_RESCHEDULE];
			else if (i == IPI_CALL_FUNC)
				n = c->ipi_stats[IPI_CALL_FUNC] +
				    c->ipi_stats[IPI_CALL_EACH];
			seq_printf(s, "%10u ", n);
		}
		seq_printf(s, " %s\n", ipi_names[i]);
	}
}

/* The device tree's index of a CPU's hart. */
static int fdt_hart(int cpu)
{
	int i;

	for (i = 0; i < boot_info.nr_harts; i++)
		if (boot_info.hartids[i] == cpus[cpu].hartid)
			return i;
	return -1;
}

/*
 * arch/riscv/kernel/cpu.c:show_cpuinfo: isa as the device tree gives
 * it, mmu its mmu-type without "riscv,", each only if the tree has it.
 */
static void cpuinfo_show(struct seq_buf *s, long data)
{
	const char *mmu;
	int cpu, i;

	for_each_online_cpu(cpu) {
		i = fdt_hart(cpu);
		seq_printf(s, "processor\t: %d\nhart\t\t: %lu\n", cpu,
			   cpus[cpu].hartid);
		if (i >= 0 && boot_info.isa[i][0])
			seq_printf(s, "isa\t\t: %s\n", boot_info.isa[i]);
		mmu = i >= 0 ? boot_info.mmu[i] : "";
		if (!strncmp(mmu, "riscv,", 6))
			seq_printf(s, "mmu\t\t: %s\n", mmu + 6);
		seq_puts(s, "\n");
	}
}

/* fs/proc/meminfo.c:show_val_kb: the name padded to 16, then %8lu kB. */
static void show_val_kb(struct seq_buf *s, const char *name,
			unsigned long pages)
{
	seq_printf(s, "%-16s%8lu kB\n", name, pages * (PAGE_SIZE / 1024));
}

/* Every free page can be had: nothing here is cache to reclaim. */
static void meminfo_show(struct seq_buf *s, long data)
{
	unsigned long free = nr_free_pages();

	show_val_kb(s, "MemTotal:", nr_total_pages());
	show_val_kb(s, "MemFree:", free);
	show_val_kb(s, "MemAvailable:", free);
}

/* A CPU list as Linux's %*pbl prints it: "0-3", "0,2", "0". */
static void cpu_online_show(struct seq_buf *s, long data)
{
	const char *sep = "";
	int cpu = 0, end;

	while (cpu < nr_cpus) {
		if (!cpus[cpu].online) {
			cpu++;
			continue;
		}
		for (end = cpu; end + 1 < nr_cpus && cpus[end + 1].online;)
			end++;
		if (end > cpu)
			seq_printf(s, "%s%d-%d", sep, cpu, end);
		else
			seq_printf(s, "%s%d", sep, cpu);
		sep = ",";
		cpu = end + 1;
	}
	seq_puts(s, "\n");
}

static void proc_files_init(void)
{
	struct inode *proc = vfs_lookup(NULL, "/proc");
	struct inode *cpu = vfs_lookup(NULL, "/sys");

	cpu = cpu ? vfs_mkdir(cpu, "devices") : NULL;
	cpu = cpu ? vfs_mkdir(cpu, "system") : NULL;
	cpu = cpu ? vfs_mkdir(cpu, "cpu") : NULL;
	if (!proc || !cpu ||
	    !create_simple(proc, "kallsyms", kallsyms_show, NULL, 0) ||
	    !create_simple(proc, "interrupts", interrupts_show, NULL, 0) ||
	    !create_simple(proc, "cpuinfo", cpuinfo_show, NULL, 0) ||
	    !create_simple(proc, "meminfo", meminfo_show, NULL, 0) ||
	    !create_simple(cpu, "online", cpu_online_show, NULL, 0))
		panic("proc: no memory for /proc's files");
}
late_initcall(proc_files_init);
