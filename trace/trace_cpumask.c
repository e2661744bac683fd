/*
 * trace_cpumask.c: tracing_cpumask, the CPUs whose events are recorded
 * (Linux's kernel/trace/trace.c:tracing_cpumask_write). A CPU left out
 * records nothing, of any tracer or event: its ring buffer refuses the
 * writes, as Linux's ring_buffer_record_disable_cpu makes it. The fast
 * paths pay nothing while every CPU is in (ring_buffer_set_cpus_off).
 * Each trace array has its own mask, which stops only its own buffer.
 */
#include "kernel.h"
#include "bitmap.h"
#include "smp.h"
#include "vfs.h"
#include "trace.h"

static DEFINE_MUTEX(cpumask_lock);

static unsigned long online_mask(void)
{
	/* nr_cpus <= NR_CPUS, 64: a shift by 64 would be undefined */
	return nr_cpus >= (int)BITS_PER_LONG ? ~0UL : (1UL << nr_cpus) - 1;
}

/* Linux's "%*pb" with nr_cpu_ids bits: hex, a digit per 4 CPUs. */
static void tracing_cpumask_show(struct seq_buf *s, long data)
{
	seq_printf(s, "%0*lx\n", (nr_cpus + 3) / 4,
		   READ_ONCE(((struct trace_array *)data)->tracing_cpumask) &
		   online_mask());
}

/* NR_CPUS bits may be set, as Linux's nr_cpumask_bits: EOVERFLOW past. */
static int tracing_cpumask_store(char *buf, struct file *file, long data)
{
	struct trace_array *tr = (struct trace_array *)data;
	unsigned long mask;
	int ret = bitmap_parse(buf, NR_CPUS, &mask);

	if (ret)
		return ret;
	mutex_lock(&cpumask_lock);
	WRITE_ONCE(tr->tracing_cpumask, mask);
	ring_buffer_set_cpus_off(tr->buffer, online_mask() & ~mask);
	mutex_unlock(&cpumask_lock);
	return 0;
}

void tracing_cpumask_init(struct trace_array *tr, struct inode *dir)
{
	create_simple(dir, "tracing_cpumask", tracing_cpumask_show,
		      tracing_cpumask_store, (long)tr);
}
