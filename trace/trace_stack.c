/*
 * trace_stack.c: the stack tracer (Linux's kernel/trace/trace_stack.c).
 * An ftrace_ops whose callback runs at every traced function's entry,
 * measures how deep the task's kernel stack is there, and at a new
 * maximum records the call chain with each function's share of the
 * stack. Files: stack_max_size, stack_trace, stack_trace_filter, and
 * /proc/sys/kernel/stack_tracer_enabled, which registers the ops, as
 * `stacktrace` on the kernel command line does at boot.
 *
 * Linux finds each return address of the chain by searching the stack
 * for its value; rvftrace reads them from the frame records instead
 * (ra at fp-8, the caller's fp at fp-16), which says exactly where each
 * frame begins. Depths count down from the stack top (Linux's
 * THREAD_SIZE minus sp) and leave the tracer's own frames out:
 *
 *   top      +-------------------+
 *            | ...               |
 *   fp_D     +-------------------+  D's fp (the sp D was called with)
 *            | D's frame         |  row D: Size fp_D - fp_C
 *   fp_C     +-------------------+  row D: Depth top - fp_C
 *            | C's frame         |  row C: Size fp_C - entry_sp
 *   entry_sp +-------------------+  rows C and T: Depth top - entry_sp
 *            | ftrace_caller, 96 |  the tracer's own: not counted
 *            | stack_trace_call  |
 *
 * Row 0 is the traced function T, at its site (shown at its resume pc,
 * ip + 4, as Linux shows ip + MCOUNT_INSN_SIZE): its frame does not
 * exist yet, so its Size is 0. (With -pg the site follows T's prologue;
 * T's frame is left out all the same, so both builds measure alike.)
 * The last row, ret_from_fork, runs at the very top with no frame of
 * its own: Depth and Size 0.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "kstrtox.h"
#include "printk.h"
#include "sched.h"
#include "fdt.h"
#include "fgraph.h"
#include "trace.h"
#include "asm/ptrace.h"
#include "asm/asm-offsets.h"

_Static_assert(offsetof(struct task, stack) == TASK_STACK &&
	       THREAD_SIZE_ASM == THREAD_SIZE,
	       "asm-offsets: the stack tracer's fast path");

/* Frames to climb from stack_trace_call to the trampoline's record. */
#define TRACER_FRAMES_MAX	8

static unsigned long stack_dump_trace[STACK_TRACE_ENTRIES];
static unsigned int stack_trace_index[STACK_TRACE_ENTRIES];
static unsigned int stack_trace_nr_entries;
/* Read by the trampoline's fast path too (arch/riscv/kernel/ftrace_fast.S). */
unsigned long stack_trace_max_size;
static DEFINE_SPINLOCK(stack_trace_max_lock);

/*
 * Nonzero while this CPU is in the tracer: calls from it are not
 * checked. One per CPU, each on a line of its own (stack_trace_init).
 */
struct stack_tracer_cpu {
	int disabled;
} ____cacheline_aligned;

static struct stack_tracer_cpu *stack_tracer_cpus;
static DEFINE_MUTEX(stack_sysctl_mutex);
static int stack_tracer_enabled;

/* A frame record the walk may read: aligned and on the task's stack. */
static bool frame_on_stack(unsigned long fp, unsigned long bottom,
			   unsigned long top)
{
	return !(fp & 7) && fp - 16 >= bottom && fp <= top;
}

/*
 * The sp the traced function was entered with. ftrace_regs_caller saved
 * it in pt_regs; ftrace_caller's frame is found by its record of the
 * traced function (ra = its resume pc), a frame or two above this one,
 * and read as asm/ftrace.h says.
 */
static unsigned long traced_entry_sp(unsigned long resume,
				     struct ftrace_regs *fregs,
				     unsigned long bottom, unsigned long top)
{
	unsigned long fp = (unsigned long)__builtin_frame_address(0);
	int i;

	if (fregs)
		return ftrace_get_regs(fregs)->sp;
	for (i = 0; i < TRACER_FRAMES_MAX; i++) {
		if (!frame_on_stack(fp, bottom, top))
			return 0;
		if (((unsigned long *)fp)[-1] == resume)
			return ftrace_traced_entry_sp(fp);
		fp = ((unsigned long *)fp)[-2];
	}
	return 0;
}

/* One row: a return address and the depth at which it was called. */
static void add_row(unsigned int *n, unsigned long ra, unsigned long depth)
{
	stack_dump_trace[*n] = ra;
	stack_trace_index[*n] = depth;
	(*n)++;
}

/*
 * The chain above the traced function: its caller (parent_ip, called
 * at entry_sp), then each frame record from the caller's on: the record
 * at fp holds the return address into the function that called at fp.
 * Where function_graph hooked a return, the real one: parent_ip too,
 * which a hooked caller that tail-called the traced function replaced,
 * recording the slot the traced function's prologue will save it to.
 */
static unsigned int save_chain(unsigned long resume, unsigned long parent_ip,
			       unsigned long entry_sp, unsigned long fp,
			       unsigned long top)
{
	unsigned long bottom = (unsigned long)current->stack, ra;
	unsigned int n = 0;

	add_row(&n, resume, top - entry_sp);
	parent_ip = ftrace_graph_ret_addr(current, parent_ip,
					  (unsigned long *)entry_sp - 1);
	add_row(&n, parent_ip, top - entry_sp);
	while (n < STACK_TRACE_ENTRIES && fp > entry_sp &&
	       frame_on_stack(fp, bottom, top)) {
		unsigned long *frame = (unsigned long *)fp;

		ra = ftrace_graph_ret_addr(current, frame[-1], &frame[-1]);
		if (!kernel_text_addr(ra))
			break;
		add_row(&n, ra, top - fp);
		if (frame[-2] <= fp)
			break;
		fp = frame[-2];
	}
	return n;
}

/* The caller's fp, as the trampoline (or -pg's prologue) saved it. */
static unsigned long caller_fp(unsigned long entry_sp,
			       struct ftrace_regs *fregs)
{
	if (fregs)
		return ftrace_get_regs(fregs)->s0;
	return ftrace_traced_caller_fp(entry_sp);
}

/*
 * A new maximum, unless another CPU just beat it: record it. Out of
 * line, so the common path (not deeper) saves no registers for it.
 */
static noinline void check_stack(unsigned long resume, unsigned long parent_ip,
				 unsigned long entry_sp, unsigned long top,
				 struct ftrace_regs *fregs)
{
	unsigned long flags = spin_lock_irqsave(&stack_trace_max_lock);

	if (top - entry_sp > stack_trace_max_size) {
		stack_trace_max_size = top - entry_sp;
		stack_trace_nr_entries =
			save_chain(resume, parent_ip, entry_sp,
				   caller_fp(entry_sp, fregs), top);
	}
	spin_unlock_irqrestore(&stack_trace_max_lock, flags);
}

/*
 * At every traced function's entry. The trampoline disabled preemption,
 * so this CPU's counter is ours; an interrupt that calls a traced
 * function meanwhile finds it raised and returns, as does anything the
 * tracer itself calls: the tracer never recurses.
 */
static void stack_trace_call(unsigned long ip, unsigned long parent_ip,
			     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	int *disabled = &stack_tracer_cpus[smp_processor_id()].disabled;
	unsigned long resume = ip + MCOUNT_INSN_SIZE, entry_sp, top;
	struct task *t = current;

	if (++*disabled != 1 || !t->stack)
		goto out;
	top = task_stack_top(t);
	entry_sp = traced_entry_sp(resume, fregs, (unsigned long)t->stack,
				   top);
	if (entry_sp && entry_sp <= top &&
	    top - entry_sp > READ_ONCE(stack_trace_max_size))
		check_stack(resume, parent_ip, entry_sp, top, fregs);
out:
	--*disabled;
}

/*
 * While it is the only ops, the trampoline itself compares the depth
 * with the maximum, and calls stack_trace_call only for a new one.
 */
struct ftrace_ops stack_trace_ops = {
	.func = stack_trace_call,
	.name = "stack_trace",
#ifdef HAVE_FTRACE_FAST_PATH
	.fast_path = ftrace_stack_fast,
#endif
};

/* /proc/sys/kernel/stack_tracer_enabled: any int, nonzero is on. */
int stack_trace_sysctl(int enable)
{
	int ret = 0;

	mutex_lock(&stack_sysctl_mutex);
	if (!!enable != !!stack_tracer_enabled)
		ret = enable ? register_ftrace_function(&stack_trace_ops) :
			       unregister_ftrace_function(&stack_trace_ops);
	if (!ret)
		stack_tracer_enabled = enable;
	mutex_unlock(&stack_sysctl_mutex);
	return ret;
}

/* A consistent copy of the deepest stack seen so far. */
void stack_trace_copy(struct stack_trace_copy *c)
{
	unsigned long flags = spin_lock_irqsave(&stack_trace_max_lock);

	c->max_size = stack_trace_max_size;
	c->nr_entries = stack_trace_nr_entries;
	memcpy(c->dump_trace, stack_dump_trace,
	       c->nr_entries * sizeof(c->dump_trace[0]));
	memcpy(c->index, stack_trace_index,
	       c->nr_entries * sizeof(c->index[0]));
	spin_unlock_irqrestore(&stack_trace_max_lock, flags);
}

/* Any value: the next deeper stack replaces the table (0 starts over). */
void stack_trace_set_max(unsigned long size)
{
	unsigned long flags = spin_lock_irqsave(&stack_trace_max_lock);

	stack_trace_max_size = size;
	spin_unlock_irqrestore(&stack_trace_max_lock, flags);
}

/* ---- files ------------------------------------------------------------- */

static void stack_max_size_show(struct seq_buf *s, long data)
{
	seq_printf(s, "%ld\n", READ_ONCE(stack_trace_max_size));
}

static void print_disabled(struct seq_buf *s)
{
	seq_puts(s, "#\n"
		 "#  Stack tracer disabled\n"
		 "#\n"
		 "# To enable the stack tracer, either add 'stacktrace' to the\n"
		 "# kernel command line\n"
		 "# or 'echo 1 > /proc/sys/kernel/stack_tracer_enabled'\n"
		 "#\n");
}

/* Linux's t_show: each row's Size is its Depth less the next row's. */
static void print_max_stack(struct seq_buf *s,
			    const struct stack_trace_copy *c)
{
	unsigned int i, size;

	seq_printf(s, "        Depth    Size   Location    (%u entries)\n"
		   "        -----    ----   --------\n", c->nr_entries);
	if (!stack_tracer_enabled && !c->max_size)
		print_disabled(s);
	for (i = 0; i < c->nr_entries; i++) {
		size = c->index[i] - (i + 1 < c->nr_entries ? c->index[i + 1] :
							       0);
		seq_printf(s, "%3u) %8u   %5u   %pS\n", i, c->index[i], size,
			   (void *)c->dump_trace[i]);
	}
}

static void stack_trace_show(struct seq_buf *s, long data)
{
	struct stack_trace_copy *c = kmalloc(sizeof(*c));

	if (!c) {
		seq_set_nomem(s);
		return;
	}
	stack_trace_copy(c);
	print_max_stack(s, c);
	kfree(c);
}

static int stack_tracer_enabled_store(char *buf, struct file *file,
				      long data)
{
	int val, ret = kstrtoint(strim(buf), 10, &val);

	return ret ? ret : stack_trace_sysctl(val);
}

/* Linux's stack_trace_init: the files, and `stacktrace` at boot. */
void stack_trace_init(struct inode *dir)
{
	stack_tracer_cpus = kzalloc_cacheline(trace_nr_cpus() *
					      sizeof(*stack_tracer_cpus));
	if (!stack_tracer_cpus)
		panic("stack tracer: no memory for %d CPUs", trace_nr_cpus());
	create_simple(dir, "stack_max_size", stack_max_size_show,
		      simple_store_ulong, (long)stack_trace_set_max);
	create_simple(dir, "stack_trace", stack_trace_show, NULL, 0);
	ftrace_create_filter_file(dir, "stack_trace_filter", &stack_trace_ops);
	create_simple(vfs_lookup(NULL, "/proc/sys/kernel"),
		      "stack_tracer_enabled", simple_show_int,
		      stack_tracer_enabled_store, (long)&stack_tracer_enabled);
	if (cmdline_has("stacktrace"))
		stack_trace_sysctl(1);
}
