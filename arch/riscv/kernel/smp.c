/*
 * smp.c: bringing up the other harts through the SBI HSM extension, and
 * inter-processor interrupts through the SBI IPI extension. A message is
 * a bit in the target's ipi_pending word, set atomically before the IPI.
 */
#include "kernel.h"
#include "smp.h"
#include "sched.h"
#include "mm.h"
#include "printk.h"
#include "string.h"
#include "fdt.h"
#include "irq.h"
#include "time.h"
#include "asm/csr.h"
#include "asm/sbi.h"
#include "trace/events/ipi.h"

/* The boot CPU's struct until the allocator can give cpus[] its size. */
static struct cpu boot_cpu;
struct cpu *cpus = &boot_cpu;
int nr_cpu_ids = 1;
int nr_cpus = 1;
static DEFINE_SPINLOCK(call_lock);

/* on_each_cpu's call, one at a time (each_lock): who runs it, who did. */
static DEFINE_SPINLOCK(each_lock);
static void (*each_fn)(void *);
static void *each_data;
static unsigned long each_wanted, each_done;	/* CPU masks */
static int each_caller;

extern char secondary_entry[];
void cpu_idle(void) __noreturn;

/* The harts of the online CPUs in cpumask, for SBI calls. */
unsigned long hart_mask(unsigned long cpumask)
{
	unsigned long mask = 0;
	int i;

	for_each_online_cpu(i)
		if (cpumask & (1UL << i))
			mask |= 1UL << cpus[i].hartid;
	return mask;
}

unsigned long online_hart_mask(void)
{
	return hart_mask(~0UL);
}

static const char *const ipi_reasons[] = {
	[IPI_RESCHEDULE] = "Rescheduling interrupts",
	[IPI_CALL_FUNC] = "Function call interrupts",
	[IPI_CALL_EACH] = "Function call interrupts",
};

/* What ipi_entry names: the first message pending. */
static const char *ipi_reason(unsigned long pending)
{
	int msg;

	for (msg = 0; msg < (int)ARRAY_SIZE(ipi_reasons); msg++)
		if (pending & (1UL << msg))
			return ipi_reasons[msg];
	return "spurious";
}

void smp_send_ipi(int cpu, int msg)
{
	trace_ipi_raise(1UL << cpu, ipi_reasons[msg]);
	__atomic_fetch_or(&cpus[cpu].ipi_pending, 1UL << msg, __ATOMIC_SEQ_CST);
	sbi_send_ipi(1UL << cpus[cpu].hartid, 0);
}

void handle_ipi(void)
{
	struct cpu *c = this_cpu();
	unsigned long pending = __atomic_exchange_n(&c->ipi_pending, 0,
						    __ATOMIC_SEQ_CST);
	const char *reason = ipi_reason(pending);
	int msg;

	for (msg = 0; msg < IPI_MAX; msg++)
		if (pending & (1UL << msg))
			c->ipi_stats[msg]++;
	trace_ipi_entry(reason);
	if (pending & (1UL << IPI_RESCHEDULE))
		c->need_resched = true;
	if (pending & (1UL << IPI_CALL_FUNC)) {
		void (*fn)(void *) = c->ipi_func;

		fn(c->ipi_data);
		__atomic_store_n(&c->ipi_done, 1, __ATOMIC_RELEASE);
	}
	if (pending & (1UL << IPI_CALL_EACH)) {
		each_fn(each_data);
		/* The last to answer wakes the caller from its wfi. */
		if (__atomic_or_fetch(&each_done, 1UL << c->id,
				      __ATOMIC_RELEASE) == each_wanted)
			sbi_send_ipi(1UL << cpus[each_caller].hartid, 0);
	}
	trace_ipi_exit(reason);
}

unsigned int stall_timeout_ms = 5000;

/* The milliseconds waited when a report is due, else 0. */
u64 stall_watch_ms(struct stall_watch *w)
{
	u64 now = ktime_get_ns(), period = stall_timeout_ms * NSEC_PER_MSEC;

	if (!w->start) {
		w->start = now;
		w->next = now + period;
		return 0;
	}
	if (now < w->next)
		return 0;
	w->next = now + period;
	return (now - w->start) / NSEC_PER_MSEC;
}

/*
 * A call cannot be abandoned: the target would run it later, on the
 * caller's dead data. So the caller names the target, as Linux's CSD
 * lock check does, and goes on waiting.
 */
static void report_late_call(int cpu, struct stall_watch *w)
{
	u64 ms = stall_watch_ms(w);

	if (ms)
		pr_err("smp: CPU %d (hart %lu) has not run a function call "
		       "from CPU %d after %llu ms\n", cpu, cpus[cpu].hartid,
		       smp_processor_id(), ms);
}

/*
 * Run fn(data) on cpu in interrupt context and wait for it. While
 * waiting, serve IPIs sent to this CPU, so two CPUs calling each other
 * cannot deadlock.
 */
int smp_call_function_single(int cpu, void (*fn)(void *), void *data)
{
	/* Interrupts off first: a preempted caller could change CPUs. */
	unsigned long flags = local_irq_save();
	struct cpu *c = &cpus[cpu];
	struct stall_watch w = { 0, 0 };

	if (cpu == smp_processor_id()) {
		fn(data);
		local_irq_restore(flags);
		return 0;
	}
	if (cpu < 0 || cpu >= nr_cpus || !c->online) {
		local_irq_restore(flags);
		return -ENODEV;
	}
	while (!spin_trylock(&call_lock)) {
		handle_ipi();
		cpu_relax();
	}
	c->ipi_func = fn;
	c->ipi_data = data;
	c->ipi_done = 0;
	smp_send_ipi(cpu, IPI_CALL_FUNC);
	while (!__atomic_load_n(&c->ipi_done, __ATOMIC_ACQUIRE)) {
		handle_ipi();
		report_late_call(cpu, &w);
		cpu_relax();
	}
	spin_unlock(&call_lock);
	local_irq_restore(flags);
	return 0;
}

/* Run fn(data) on every other online CPU, one after the other. */
void smp_call_function_many(void (*fn)(void *), void *data)
{
	int i;

	for_each_online_cpu(i)
		if (i != smp_processor_id())
			smp_call_function_single(i, fn, data);
}

static void report_late_each(struct stall_watch *w)
{
	unsigned long late = each_wanted & ~READ_ONCE(each_done);
	u64 ms = stall_watch_ms(w);
	int cpu;

	if (!ms)
		return;
	for_each_online_cpu(cpu)
		if (late & (1UL << cpu))
			pr_err("smp: CPU %d (hart %lu) has not run a call on "
			       "each CPU from CPU %d after %llu ms\n", cpu,
			       cpus[cpu].hartid, each_caller, ms);
}

/* Sleep until the last CPU answers; interrupts off so none is missed. */
static void wait_for_each(void)
{
	struct stall_watch w = { 0, 0 };

	while (__atomic_load_n(&each_done, __ATOMIC_ACQUIRE) != each_wanted) {
		report_late_each(&w);
		/* Raw: the wait is no irqs-off latency, as idle's is not. */
		raw_local_irq_disable();
		if (__atomic_load_n(&each_done, __ATOMIC_ACQUIRE) !=
		    each_wanted)
			wfi();
		raw_local_irq_enable();
	}
}

/*
 * Linux's on_each_cpu(fn, data, 1): fn on every online CPU, the other
 * ones in an interrupt and all at once; returns when each has run it.
 * With interrupts on, so that two callers serve each other's IPIs.
 */
void on_each_cpu(void (*fn)(void *), void *data)
{
	int cpu;

	spin_lock(&each_lock);
	each_fn = fn;
	each_data = data;
	each_caller = smp_processor_id();
	each_wanted = 0;
	for_each_online_cpu(cpu)
		if (cpu != each_caller)
			each_wanted |= 1UL << cpu;
	__atomic_store_n(&each_done, 0, __ATOMIC_SEQ_CST);
	for_each_online_cpu(cpu)
		if (cpu != each_caller)
			smp_send_ipi(cpu, IPI_CALL_EACH);
	fn(data);
	wait_for_each();
	spin_unlock(&each_lock);
}

static int cpu_for_hart(unsigned long hartid)
{
	int i;

	for (i = 0; i < nr_cpus; i++)
		if (cpus[i].hartid == hartid)
			return i;
	return -1;
}

/*
 * cpus[] for every hart of the device tree, each on lines of its own:
 * the boot CPU's struct moves in as CPU 0, and tp follows it. Before
 * any other CPU or interrupt exists, so no one else holds its address.
 * Without the memory, the kernel runs on the boot CPU alone.
 */
void smp_alloc_cpus(int nr_harts)
{
	int n = nr_harts < 1 ? 1 : min(nr_harts, NR_CPUS);
	struct cpu *array = kzalloc_cacheline(n * sizeof(*array));

	if (!array) {
		pr_err("smp: no memory for %d CPUs: running on one\n", n);
		return;
	}
	array[0] = boot_cpu;
	__asm__ __volatile__("mv tp, %0" :: "r"(array) : "memory");
	cpus = array;
	nr_cpu_ids = n;
}

/* A secondary hart arrives here from head.S with its idle stack. */
void secondary_start(unsigned long hartid)
{
	struct cpu *c = &cpus[cpu_for_hart(hartid)];

	__asm__ __volatile__("mv tp, %0" :: "r"(c));
	mmu_enable();
	trap_init();
	plic_init_hart();
	sched_init_cpu();
	timer_arm_next_tick();
	__atomic_store_n(&c->online, true, __ATOMIC_RELEASE);
	local_irq_enable();
	cpu_idle();
}

/* The stack of the hart being started, for head.S's misrouted path. */
unsigned long secondary_boot_sp;

static void boot_one(int id, unsigned long hartid)
{
	struct task *idle = kzalloc(sizeof(*idle));
	void *stack = alloc_pages(THREAD_SIZE / PAGE_SIZE);
	long err;

	if (!idle || !stack)
		panic("no memory for CPU %d's idle task", id);
	idle->stack = stack;
	cpus[id].idle = idle;
	__atomic_store_n(&secondary_boot_sp, (unsigned long)stack + THREAD_SIZE,
			 __ATOMIC_RELEASE);
	err = sbi_hart_start(hartid, (unsigned long)secondary_entry,
			     secondary_boot_sp);
	if (err) {
		pr_err("smp: hart %lu failed to start (%ld)\n", hartid, err);
		secondary_boot_sp = 0;
		return;
	}
	while (!__atomic_load_n(&cpus[id].online, __ATOMIC_ACQUIRE))
		cpu_relax();
	secondary_boot_sp = 0;
}

void smp_boot_secondaries(void)
{
	unsigned long boot_hart = this_cpu()->hartid;
	int i, id = 1;

	for (i = 0; i < boot_info.nr_harts && id < nr_cpu_ids; i++) {
		if (boot_info.hartids[i] == boot_hart)
			continue;
		cpus[id].id = id;
		cpus[id].hartid = boot_info.hartids[i];
		nr_cpus = id + 1;
		boot_one(id++, boot_info.hartids[i]);
	}
}
