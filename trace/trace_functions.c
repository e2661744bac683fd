/*
 * trace_functions.c: the function tracer (Linux's
 * kernel/trace/trace_functions.c). function_trace_init registers the
 * trace array's ftrace_ops, whose hashes set_ftrace_filter and set_ftrace_notrace edit, with
 * function_trace_call: one 16-byte event per traced call, holding ip and
 * parent_ip. While it is the only ops, the trampoline writes that event
 * itself, in assembly, with no registers to save (its fast path, one
 * per trace clock). Option func_stack_trace adds a stack trace after
 * each event; func-no-repeats counts a call repeated at once instead
 * of recording it again. Also the filter commands FUNC:traceon, FUNC:traceoff,
 * FUNC:stacktrace.
 */
#include "kernel.h"
#include "string.h"
#include "kstrtox.h"
#include "mm.h"
#include "smp.h"
#include "trace_clock.h"
#include "trace.h"
#include "asm/asm-offsets.h"

_Static_assert(offsetof(struct ftrace_ops, func) == FTRACE_OPS_FUNC &&
	       offsetof(struct ftrace_ops, private) == FTRACE_OPS_PRIVATE &&
	       offsetof(struct ftrace_ops, fast_path) ==
	       FTRACE_OPS_FAST_PATH &&
	       offsetof(struct trace_array, buffer) == TRACE_ARRAY_BUFFER &&
	       offsetof(struct trace_array, function_pids) ==
	       TRACE_ARRAY_FUNCTION_PIDS &&
	       offsetof(struct cpu, id) == CPU_ID &&
	       offsetof(struct task, pid) == TASK_PID,
	       "asm-offsets: the function tracer's fast path");
_Static_assert(FAST_SR_SIE == SSTATUS_SIE &&
	       FAST_CTX_PID_SHIFT == TRACE_CTX_PID_SHIFT &&
	       FAST_CTX_PC_SHIFT == TRACE_CTX_PC_SHIFT &&
	       FAST_SR_SIE << FAST_CTX_IRQS_OFF_SHIFT ==
	       TRACE_FLAG_IRQS_OFF << TRACE_CTX_FLAGS_SHIFT &&
	       1 << FAST_CTX_NEED_RESCHED_SHIFT ==
	       TRACE_FLAG_NEED_RESCHED << TRACE_CTX_FLAGS_SHIFT &&
	       FAST_CTX_HARDIRQ ==
	       TRACE_FLAG_HARDIRQ << TRACE_CTX_FLAGS_SHIFT &&
	       FAST_CTX_IRQS_OFF ==
	       TRACE_FLAG_IRQS_OFF << TRACE_CTX_FLAGS_SHIFT &&
	       FAST_TRACE_FN == TRACE_FN && FAST_TS_SHIFT == TS_SHIFT &&
	       FAST_FN_EVENT_BYTES == 4 + sizeof(struct ftrace_entry),
	       "the function tracer's fast path builds the same event");

#define TRACE_FUNC_OPT_STACK	0x1
#define TRACE_FUNC_OPT_NO_REPEATS	0x2
#define FUNC_REPEATS_MAX	0xffff	/* Linux's count is a u16 */

static const struct tracer_opt func_opts[] = {
	{ "func_stack_trace", TRACE_FUNC_OPT_STACK },
	{ "func-no-repeats", TRACE_FUNC_OPT_NO_REPEATS },
	{ NULL, 0 },
};

static struct tracer_flags func_flags = { 0, func_opts };

/* Record one call (struct ftrace_entry). Preemption is off. */
static inline void trace_function(struct trace_array *tr, unsigned long ip,
				  unsigned long parent_ip, u32 trace_ctx)
{
	ring_buffer_write3(tr->buffer, trace_ctx | TRACE_FN, ip, parent_ip);
}

/*
 * No recursion guard: nothing here or in the ring buffer's write is
 * traced, so the only callbacks that can nest in this one are an
 * interrupt's, whose events the ring buffer takes in turn. A tail
 * call with no frame record (s0 keeps pointing at the trampoline's,
 * which names the traced function and its caller).
 */
static void
__function_trace_call(struct trace_array *tr, unsigned long ip,
		      unsigned long parent_ip)
{
	trace_function(tr, ip, parent_ip, tracing_gen_ctx_dec(1));
}

/* set_ftrace_pid is in force: the pid test comes first. */
static noinline void function_trace_call_pid(struct trace_array *tr,
					     unsigned long ip,
					     unsigned long parent_ip)
{
	if (!ftrace_pid_ignored(tr))
		__function_trace_call(tr, ip, parent_ip);
}

/*
 * The callback of every traced call the fast path does not take, with
 * preemption already off. With tracing_on 0 it stops after three
 * loads; a leaf or a tail call, it needs no frame of its own. Costs:
 * fn_test_cost (trace/trace_functions_test.c) measures them under
 * -icount.
 */
static void
function_trace_call(unsigned long ip, unsigned long parent_ip,
		    struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct trace_array *tr = op->private;

	if (unlikely(!ring_buffer_recording(tr->buffer)))
		return;
	if (unlikely(READ_ONCE(tr->function_pids)))
		function_trace_call_pid(tr, ip, parent_ip);
	else
		__function_trace_call(tr, ip, parent_ip);
}

/* func_stack_trace: the event, then where it was called from. */
static void function_stack_trace_call(unsigned long ip,
				      unsigned long parent_ip,
				      struct ftrace_ops *op,
				      struct ftrace_regs *fregs)
{
	struct trace_array *tr = op->private;
	unsigned long flags;
	u32 trace_ctx;
	int bit;

	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (unlikely(bit < 0))
		return;
	if (!ftrace_pid_ignored(tr)) {
		/* Keep the stack right after its event on this CPU. */
		trace_ctx = tracing_gen_ctx_dec(1);
		flags = raw_local_irq_save();
		trace_function(tr, ip, parent_ip, trace_ctx);
		__trace_stack(tr, trace_ctx, ip);
		raw_local_irq_restore(flags);
	}
	ftrace_test_recursion_unlock(bit);
}

/* func-no-repeats: the last call recorded on a CPU, and its repeats. */
struct trace_func_repeats {
	unsigned long ip;
	unsigned long parent_ip;
	unsigned long count;
	u64 ts_last_call;
};

/* The same call as the last one: count it instead (Linux's is_repeat_check). */
static bool is_repeat_check(struct trace_array *tr,
			    struct trace_func_repeats *last, unsigned long ip,
			    unsigned long parent_ip)
{
	if (last->ip != ip || last->parent_ip != parent_ip ||
	    last->count >= FUNC_REPEATS_MAX)
		return false;
	last->ts_last_call = trace_clock_read(tr->clock_id);
	last->count++;
	return true;
}

/* Another call: first the repeats of the last one, if any. */
static void process_repeats(struct trace_array *tr, unsigned long ip,
			    unsigned long parent_ip,
			    struct trace_func_repeats *last, u32 trace_ctx)
{
	if (last->count) {
		struct func_repeats_entry e = {
			{ trace_ctx | TRACE_FUNC_REPEATS }, last->ip,
			last->parent_ip, last->count, last->ts_last_call,
		};

		ring_buffer_write(tr->buffer, sizeof(e), &e);
		last->count = 0;
	}
	last->ip = ip;
	last->parent_ip = parent_ip;
}

/*
 * func-no-repeats (Linux's function_no_repeats_trace_call): a call
 * made again at once, from the same place, is counted; the count is
 * recorded, as one func_repeats event, before the next other call.
 * Interrupts are off while this CPU's record changes.
 */
static void __function_no_repeats_call(unsigned long ip,
				       unsigned long parent_ip,
				       struct ftrace_ops *op, bool stack)
{
	struct trace_array *tr = op->private;
	struct trace_func_repeats *last;
	unsigned long flags;
	u32 trace_ctx;
	int bit;

	if (unlikely(!ring_buffer_recording(tr->buffer)))
		return;
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (unlikely(bit < 0))
		return;
	if (!ftrace_pid_ignored(tr)) {
		trace_ctx = tracing_gen_ctx_dec(1);
		flags = raw_local_irq_save();
		last = &tr->last_func_repeats[smp_processor_id()];
		if (!is_repeat_check(tr, last, ip, parent_ip)) {
			process_repeats(tr, ip, parent_ip, last, trace_ctx);
			trace_function(tr, ip, parent_ip, trace_ctx);
			if (stack)
				__trace_stack(tr, trace_ctx, ip);
		}
		raw_local_irq_restore(flags);
	}
	ftrace_test_recursion_unlock(bit);
}

static void function_no_repeats_trace_call(unsigned long ip,
					   unsigned long parent_ip,
					   struct ftrace_ops *op,
					   struct ftrace_regs *fregs)
{
	__function_no_repeats_call(ip, parent_ip, op, false);
}

static void function_stack_no_repeats_trace_call(unsigned long ip,
						 unsigned long parent_ip,
						 struct ftrace_ops *op,
						 struct ftrace_regs *fregs)
{
	__function_no_repeats_call(ip, parent_ip, op, true);
}

static ftrace_func_t select_trace_function(u32 flags)
{
	if (flags & TRACE_FUNC_OPT_NO_REPEATS)
		return (flags & TRACE_FUNC_OPT_STACK) ?
		       function_stack_no_repeats_trace_call :
		       function_no_repeats_trace_call;
	return (flags & TRACE_FUNC_OPT_STACK) ? function_stack_trace_call :
						function_trace_call;
}

/*
 * Each CPU's record for func-no-repeats, made when the option is in
 * force (Linux's allocate_ftrace_func_repeats), freed once the tracer
 * or the option is off and no CPU is in the callback any more.
 */
static int alloc_func_repeats(struct trace_array *tr, u32 flags)
{
	if (!(flags & TRACE_FUNC_OPT_NO_REPEATS) || tr->last_func_repeats)
		return 0;
	tr->last_func_repeats = kzalloc(nr_cpu_ids *
					sizeof(struct trace_func_repeats));
	return tr->last_func_repeats ? 0 : -ENOMEM;
}

static void free_func_repeats(struct trace_array *tr)
{
	kfree(tr->last_func_repeats);
	tr->last_func_repeats = NULL;
}

#ifdef HAVE_FTRACE_FAST_PATH
/* ftrace_fast.S: the event written with the clock of each name. */
static void *const function_fast_paths[TRACE_CLOCK_NR] = {
	[TRACE_CLOCK_LOCAL] = ftrace_function_fast_local,
	[TRACE_CLOCK_GLOBAL] = ftrace_function_fast_global,
	[TRACE_CLOCK_COUNTER] = ftrace_function_fast_counter,
	[TRACE_CLOCK_INSTRET] = ftrace_function_fast_instret,
	[TRACE_CLOCK_PERF] = ftrace_function_fast_local,
	[TRACE_CLOCK_MONO] = ftrace_function_fast_global,
	[TRACE_CLOCK_MONO_RAW] = ftrace_function_fast_global,
	[TRACE_CLOCK_BOOT] = ftrace_function_fast_global,
	[TRACE_CLOCK_TAI] = ftrace_function_fast_global,
};
#endif

/*
 * The trampoline's fast path for function_trace_call, with the trace's
 * clock: chosen when tracing starts and again when the clock changes.
 * It writes to the top level's buffer (each CPU's writer, one load
 * away: cpus[].trace_buffer), so an instance goes the C way.
 */
void function_trace_update_fast_path(struct trace_array *tr)
{
	void *fast = NULL;

#ifdef HAVE_FTRACE_FAST_PATH
	if (tr->ops.func == function_trace_call && tr == &global_trace)
		fast = function_fast_paths[tr->clock_id];
#endif
	WRITE_ONCE(tr->ops.fast_path, fast);
}

static int function_trace_init(struct trace_array *tr)
{
	int ret = alloc_func_repeats(tr, func_flags.val);

	if (ret)
		return ret;
	tr->ops.func = select_trace_function(func_flags.val);
	tr->ops.private = tr;
	tr->ops.name = "function";
	function_trace_update_fast_path(tr);
	ret = register_ftrace_function(&tr->ops);
	if (ret)
		free_func_repeats(tr);
	return ret;
}

static void function_trace_reset(struct trace_array *tr)
{
	unregister_ftrace_function(&tr->ops);
	free_func_repeats(tr);
}

static struct tracer function_trace;

/*
 * func_stack_trace or func-no-repeats while running: re-register with
 * the callback they make.
 */
static int func_set_flag(struct trace_array *tr, u32 old_flags, u32 bit,
			 int set)
{
	u32 flags = set ? old_flags | bit : old_flags & ~bit;
	ftrace_func_t func = select_trace_function(flags);

	if (tr->current_trace != &function_trace || tr->ops.func == func)
		return 0;
	if (alloc_func_repeats(tr, flags))
		return -ENOMEM;
	unregister_ftrace_function(&tr->ops);
	if (!(flags & TRACE_FUNC_OPT_NO_REPEATS))
		free_func_repeats(tr);
	tr->ops.func = func;
	function_trace_update_fast_path(tr);
	return register_ftrace_function(&tr->ops);
}

static struct tracer function_trace = {
	.name = "function",
	.init = function_trace_init,
	.reset = function_trace_reset,
	.flags = &func_flags,
	.set_flag = func_set_flag,
	.allow_instances = true,
};
register_tracer_initcall(function_trace);

/* ---- FUNC:traceon, traceoff, stacktrace, dump, cpudump -------------------- */

static void ftrace_traceon(unsigned long ip, unsigned long parent_ip,
			   struct trace_array *tr, struct ftrace_probe_ops *ops,
			   long *count)
{
	if (!tracer_tracing_is_on(tr))
		tracer_tracing_on(tr);
}

static void ftrace_traceoff(unsigned long ip, unsigned long parent_ip,
			    struct trace_array *tr, struct ftrace_probe_ops *ops,
			    long *count)
{
	if (tracer_tracing_is_on(tr))
		tracer_tracing_off(tr);
}

/*
 * A counted traceon/traceoff spends a count only when it changes the
 * state: read the count, then the state; publish the state, then the
 * count, so another CPU that sees the new count also sees the state.
 */
static void update_traceon_count(struct trace_array *tr, long *count, bool on)
{
	long old = READ_ONCE(*count);

	if (old <= 0)
		return;
	rmb();
	if (on == tracer_tracing_is_on(tr))
		return;
	if (on)
		tracer_tracing_on(tr);
	else
		tracer_tracing_off(tr);
	wmb();
	WRITE_ONCE(*count, old - 1);
}

static void ftrace_traceon_count(unsigned long ip, unsigned long parent_ip,
				 struct trace_array *tr,
				 struct ftrace_probe_ops *ops, long *count)
{
	update_traceon_count(tr, count, true);
}

static void ftrace_traceoff_count(unsigned long ip, unsigned long parent_ip,
				  struct trace_array *tr,
				  struct ftrace_probe_ops *ops, long *count)
{
	update_traceon_count(tr, count, false);
}

static void ftrace_stacktrace(unsigned long ip, unsigned long parent_ip,
			      struct trace_array *tr,
			      struct ftrace_probe_ops *ops, long *count)
{
	if (tracer_tracing_is_on(tr))
		__trace_stack(tr, tracing_gen_ctx_dec(1), ip);
}

/* Take one from a count above 0, even when CPUs race for the last. */
bool probe_spend_count(long *count)
{
	long old;

	do {
		old = READ_ONCE(*count);
		if (old <= 0)
			return false;
	} while (!__atomic_compare_exchange_n(count, &old, old - 1, false,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_SEQ_CST));
	return true;
}

/* Each stack trace spends one count. */
static void ftrace_stacktrace_count(unsigned long ip, unsigned long parent_ip,
				    struct trace_array *tr,
				    struct ftrace_probe_ops *ops, long *count)
{
	if (tracer_tracing_is_on(tr) && probe_spend_count(count))
		__trace_stack(tr, tracing_gen_ctx_dec(1), ip);
}

static void ftrace_dump_probe(unsigned long ip, unsigned long parent_ip,
			      struct trace_array *tr,
			      struct ftrace_probe_ops *ops, long *count)
{
	if (probe_spend_count(count))
		ftrace_dump(true);
}

/* Only the buffer of the CPU the function ran on. */
static void ftrace_cpudump_probe(unsigned long ip, unsigned long parent_ip,
				 struct trace_array *tr,
				 struct ftrace_probe_ops *ops, long *count)
{
	if (probe_spend_count(count))
		ftrace_dump(false);
}

/* Counted and unlimited forms are separate probes, as in Linux. */
static struct ftrace_probe_ops traceon_probe_ops = {
	"traceon", ftrace_traceon, false, NULL };
static struct ftrace_probe_ops traceon_count_probe_ops = {
	"traceon", ftrace_traceon_count, true, NULL };
static struct ftrace_probe_ops traceoff_probe_ops = {
	"traceoff", ftrace_traceoff, false, NULL };
static struct ftrace_probe_ops traceoff_count_probe_ops = {
	"traceoff", ftrace_traceoff_count, true, NULL };
static struct ftrace_probe_ops stacktrace_probe_ops = {
	"stacktrace", ftrace_stacktrace, false, NULL };
static struct ftrace_probe_ops stacktrace_count_probe_ops = {
	"stacktrace", ftrace_stacktrace_count, true, NULL };
static struct ftrace_probe_ops dump_probe_ops = {
	"dump", ftrace_dump_probe, true, NULL };
static struct ftrace_probe_ops cpudump_probe_ops = {
	"cpudump", ftrace_cpudump_probe, true, NULL };

/* FUNC:cmd adds a probe, FUNC:cmd:N a counted one; '!' removes. */
int ftrace_trace_probe_callback(struct trace_array *tr,
				struct ftrace_probe_ops *ops,
				const char *glob, int len,
				const char *param, bool remove)
{
	unsigned long count = (unsigned long)-1;
	int ret;

	if (remove)
		return unregister_ftrace_function_probe_func(glob, len, tr, ops);
	if (param && *param) {
		ret = kstrtoul(param, 0, &count);
		if (ret)
			return ret;
	}
	ret = register_ftrace_function_probe(glob, len, tr, ops, count);
	return ret < 0 ? ret : 0;
}

static int ftrace_trace_onoff_callback(struct trace_array *tr,
				       const char *glob, int len,
				       const char *param, bool remove,
				       bool on)
{
	struct ftrace_probe_ops *ops;

	if (on)
		ops = param ? &traceon_count_probe_ops : &traceon_probe_ops;
	else
		ops = param ? &traceoff_count_probe_ops : &traceoff_probe_ops;
	return ftrace_trace_probe_callback(tr, ops, glob, len, param, remove);
}

static int ftrace_traceon_callback(struct trace_array *tr, const char *glob,
				   int len, const char *param, bool remove)
{
	return ftrace_trace_onoff_callback(tr, glob, len, param, remove, true);
}

static int ftrace_traceoff_callback(struct trace_array *tr, const char *glob,
				    int len, const char *param, bool remove)
{
	return ftrace_trace_onoff_callback(tr, glob, len, param, remove,
					   false);
}

static int ftrace_stacktrace_callback(struct trace_array *tr,
				      const char *glob, int len,
				      const char *param, bool remove)
{
	struct ftrace_probe_ops *ops = param ? &stacktrace_count_probe_ops :
					       &stacktrace_probe_ops;

	return ftrace_trace_probe_callback(tr, ops, glob, len, param, remove);
}

/* FUNC:dump and FUNC:cpudump dump once, whatever count is given. */
static int ftrace_dump_callback(struct trace_array *tr, const char *glob,
				int len, const char *param, bool remove)
{
	return ftrace_trace_probe_callback(tr, &dump_probe_ops, glob, len, "1",
					   remove);
}

static int ftrace_cpudump_callback(struct trace_array *tr, const char *glob,
				   int len, const char *param, bool remove)
{
	return ftrace_trace_probe_callback(tr, &cpudump_probe_ops, glob, len,
					   "1", remove);
}

static struct ftrace_func_command ftrace_traceon_cmd = {
	.name = "traceon", .func = ftrace_traceon_callback,
};
static struct ftrace_func_command ftrace_traceoff_cmd = {
	.name = "traceoff", .func = ftrace_traceoff_callback,
};
static struct ftrace_func_command ftrace_stacktrace_cmd = {
	.name = "stacktrace", .func = ftrace_stacktrace_callback,
};
static struct ftrace_func_command ftrace_dump_cmd = {
	.name = "dump", .func = ftrace_dump_callback,
};
static struct ftrace_func_command ftrace_cpudump_cmd = {
	.name = "cpudump", .func = ftrace_cpudump_callback,
};

int register_ftrace_commands(void)
{
	return register_ftrace_command(&ftrace_traceon_cmd) ?:
	       register_ftrace_command(&ftrace_traceoff_cmd) ?:
	       register_ftrace_command(&ftrace_stacktrace_cmd) ?:
	       register_ftrace_command(&ftrace_dump_cmd) ?:
	       register_ftrace_command(&ftrace_cpudump_cmd);
}
