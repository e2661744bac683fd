/*
 * trap.c: the C side of the trap vector: interrupts go to do_irq
 * (kernel/irq.c, traced like any kernel code), exceptions are all
 * kernel bugs here and end in an oops.
 */
#include "kernel.h"
#include "printk.h"
#include "sched.h"
#include "smp.h"
#include "time.h"
#include "irq.h"
#include "asm/csr.h"
#include "asm/ptrace.h"
#include "mm.h"
#include "asm/ftrace.h"

static const char *const exc_names[] = {
	[EXC_INST_MISALIGNED] = "Instruction address misaligned",
	[EXC_INST_ACCESS] = "Instruction access fault",
	[EXC_ILLEGAL] = "Illegal instruction",
	[EXC_BREAKPOINT] = "Breakpoint",
	[EXC_LOAD_ACCESS] = "Load access fault",
	[EXC_STORE_ACCESS] = "Store/AMO access fault",
	[EXC_ECALL_S] = "Environment call from S-mode",
	[EXC_INST_PAGE] = "Instruction page fault",
	[EXC_LOAD_PAGE] = "Load page fault",
	[EXC_STORE_PAGE] = "Store/AMO page fault",
};

static const char *const reg_names[] = {
	"ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1",
	"a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6",
	"s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

void show_regs(struct pt_regs *regs)
{
	unsigned long *gpr = pt_regs_gpr(regs);
	int i;

	console_printf("epc : %016lx ra : %016lx sp : %016lx\n",
		       regs->epc, regs->ra, regs->sp);
	for (i = 2; i < 31; i++)
		console_printf(" %-3s: %016lx%s", reg_names[i], gpr[i],
			       i % 3 == 1 ? "\n" : "");
	console_printf("\nstatus: %016lx badaddr: %016lx cause: %016lx\n",
		       regs->status, regs->badaddr, regs->cause);
}

static const char *fault_kind(unsigned long cause, unsigned long addr)
{
	if (cause == EXC_STORE_PAGE && kernel_text_addr(addr))
		return "write to read-only kernel text";
	if (cause == EXC_STORE_PAGE || cause == EXC_STORE_ACCESS)
		return "write";
	if (cause == EXC_INST_PAGE || cause == EXC_INST_ACCESS)
		return "execute";
	return "read";
}

static __noreturn void die(struct pt_regs *regs)
{
	unsigned long cause = regs->cause;
	const char *name = cause < ARRAY_SIZE(exc_names) && exc_names[cause] ?
			   exc_names[cause] : "Unknown exception";

	console_lock();
	console_printf("Unable to handle kernel %s at address %016lx\n",
		       fault_kind(cause, regs->badaddr), regs->badaddr);
	console_printf("Oops - %s [#1]\n", name);
	console_printf("CPU: %d PID: %d Comm: %s\n", smp_processor_id(),
		       current ? current->pid : 0,
		       current ? current->comm : "?");
	console_printf("epc : %pS\n ra : %pS\n", (void *)regs->epc,
		       (void *)regs->ra);
	show_regs(regs);
	dump_backtrace(regs->s0, regs->epc);
	console_printf("---[ end trace ]---\n");
	machine_poweroff(2);
}

void handle_trap(struct pt_regs *regs)
{
	unsigned long cause = regs->cause;

	if (!(cause & CAUSE_IRQ))
		die(regs);
	do_irq(cause & ~CAUSE_IRQ);
	/* Preempt on the way out if the interrupted code allowed it. */
	if (this_cpu()->need_resched && (regs->status & SSTATUS_SPIE) &&
	    current->preempt_count == 0 && !in_ftrace_trampoline(regs->epc)) {
		preempt_schedule_irq();
		/*
		 * The task switched to goes back through sret, which unmasks
		 * interrupts where no hook sees it: tell the irqsoff tracer
		 * here, as Linux's ret_from_exception does.
		 */
		if (static_branch_unlikely(&trace_irqflags_key))
			trace_hardirqs_on(regs->epc);
	}
}

void trap_init(void)
{
	extern char handle_exception[];

	csr_write(stvec, (unsigned long)handle_exception);
	csr_write(sie, SIE_SEIE | SIE_STIE | SIE_SSIE);
}
