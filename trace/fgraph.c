/*
 * fgraph.c: the function graph core (Linux's kernel/trace/fgraph.c and
 * Documentation/trace/ftrace-design.rst). At a traced
 * function's entry, ftrace_graph_caller calls prepare_ftrace_return,
 * which pushes the real return address on the current task's ret_stack
 * and puts return_to_handler in its place; when the function returns
 * there, ftrace_return_to_handler pops it, reports the return, and hands
 * the real address back. Both optional checks of ftrace-design.rst
 * are here: the frame pointer seen at entry must be the one seen at return, and each
 * entry records where the return address lives (retp) so a backtrace
 * through hooked frames can show the real callers. Other ftrace users'
 * sites reach the entry too: it then checks the graph's own hashes
 * (ftrace_graph_entry_test), and returns run non-preemptible as entries
 * do.
 */
#include "kernel.h"
#include "init.h"
#include "string.h"
#include "mm.h"
#include "printk.h"
#include "ftrace.h"
#include "fgraph.h"
#include "trace_clock.h"
#include "stop_machine.h"
#include "sched.h"
#include "trace/events/sched.h"
#include "asm/csr.h"
#include "asm/asm-offsets.h"

_Static_assert(offsetof(struct task, ret_stack) == TASK_RET_STACK &&
	       offsetof(struct task, curr_ret_stack) == TASK_CURR_RET_STACK &&
	       offsetof(struct task, curr_ret_depth) == TASK_CURR_RET_DEPTH &&
	       offsetof(struct task, tracing_graph_pause) ==
	       TASK_GRAPH_PAUSE &&
	       offsetof(struct task, trace_recursion) ==
	       TASK_TRACE_RECURSION &&
	       offsetof(struct ftrace_ret_stack, ret) == RS_RET &&
	       offsetof(struct ftrace_ret_stack, func) == RS_FUNC &&
	       offsetof(struct ftrace_ret_stack, calltime) == RS_CALLTIME &&
	       offsetof(struct ftrace_ret_stack, fp) == RS_FP &&
	       offsetof(struct ftrace_ret_stack, retp) == RS_RETP &&
	       sizeof(struct ftrace_ret_stack) == 40 &&
	       FTRACE_RETFUNC_DEPTH == FAST_RETFUNC_DEPTH &&
	       offsetof(struct cpu, trace_buffer) == CPU_TRACE_BUFFER,
	       "asm-offsets: fgraph's fast paths");

#define RET_STACK_BYTES	(FTRACE_RETFUNC_DEPTH * sizeof(struct ftrace_ret_stack))

bool ftrace_graph_active;
static struct fgraph_ops *graph_ops_current;
static unsigned long unbalanced;
/*
 * calltime and rettime: the trace's clock, so durations are in its
 * units, read inline (local, the time CSR, by default).
 */
enum trace_clock_id graph_clock_id;

static inline u64 fgraph_clock(void)
{
	enum trace_clock_id id = READ_ONCE(graph_clock_id);

	return likely(id == TRACE_CLOCK_LOCAL) ? rdtime() :
						 trace_clock_read(id);
}

/* One of trace_clock's clocks (tracing_set_clock's). */
void ftrace_graph_set_clock(u64 (*clock)(void))
{
	WRITE_ONCE(graph_clock_id, trace_clock_id_of(clock));
	fgraph_update_fast_paths();
}

/*
 * Its own ops, so the sites it needs are counted like anyone's. Its
 * function is a one-instruction stub (mcount.S): the work is done
 * at ftrace_graph_call, or by the user's fast entry.
 */
static struct ftrace_ops graph_ops = {
	.func = ftrace_graph_stub,
	.flags = FTRACE_OPS_FL_STUB,
	.name = "fgraph",
};

/* return_to_handler's fast path (ftrace_fast.S), NULL for none. */
void *fgraph_fast_return;
static DEFINE_SPINLOCK(fast_paths_lock);

/*
 * The user's fast paths for the trace clock, while graph tracing is on.
 * Whoever changes what they depend on calls this after: the lock makes
 * the last call see every change. A CPU in a fast path runs with
 * interrupts masked, so the stop_machine that unregistering runs waits
 * it out, as it does the C callbacks.
 */
void fgraph_update_fast_paths(void)
{
	unsigned long flags = spin_lock_irqsave(&fast_paths_lock);
	struct fgraph_ops *gops = READ_ONCE(graph_ops_current);
	enum trace_clock_id id = READ_ONCE(graph_clock_id);
	void *entry = NULL, *ret = NULL;

	if (gops && READ_ONCE(ftrace_graph_active) && id < TRACE_CLOCK_NR) {
		if (READ_ONCE(gops->fast_entry))
			entry = gops->fast_entry[id];
		if (gops->fast_return)
			ret = gops->fast_return[id];
	}
	WRITE_ONCE(graph_ops.fast_path, entry);
	WRITE_ONCE(fgraph_fast_return, ret);
	spin_unlock_irqrestore(&fast_paths_lock, flags);
}

/*
 * The entry and return paths run at every hooked call: their helpers
 * are inlined into prepare_ftrace_return and ftrace_return_to_handler,
 * so each path is one C function (see `bench` for what they cost).
 */
static __always_inline int ftrace_push_return_trace(struct task *t,
						    unsigned long ret,
						    unsigned long func,
						    unsigned long frame_pointer,
						    unsigned long *retp)
{
	struct ftrace_ret_stack *rs;
	int index;

	if (unlikely(!t->ret_stack))
		return -EBUSY;
	if (unlikely(t->curr_ret_stack >= FTRACE_RETFUNC_DEPTH - 1)) {
		t->trace_overrun++;
		t->trace_recursion |= 1UL << TRACE_GRAPH_OVERRUN_BIT;
		return -EBUSY;
	}
	/* Claim the slot first: an interrupt may push above it meanwhile. */
	index = ++t->curr_ret_stack;
	barrier();
	rs = &t->ret_stack[index];
	rs->ret = ret;
	rs->func = func;
	rs->calltime = fgraph_clock();
	rs->fp = frame_pointer;
	rs->retp = retp;
	return 0;
}

int ftrace_graph_entry_stub(struct ftrace_graph_ent *trace)
{
	return 0;
}

/*
 * What every hooked entry calls. Another ops' sites call the
 * trampoline too, and so ftrace_graph_call: while one is enabled, the
 * entry must check graph_ops' own filter and notrace hashes first.
 * FTRACE=static's _mcount reads it, and ftrace_graph_return, at every
 * call (mcount-pg.S): the graph is on once either is no stub.
 */
trace_func_graph_ent_t ftrace_graph_entry = ftrace_graph_entry_stub;
#if !DYNAMIC_FTRACE
void *ftrace_graph_return = ftrace_stub;
#endif

static int ftrace_graph_entry_test(struct ftrace_graph_ent *trace)
{
	if (!ftrace_ops_test(&graph_ops, trace->func))
		return 0;
	return graph_ops_current->entryfunc(trace);
}

/*
 * Linux's update_function_graph_func: the user's entryfunc directly
 * (the fast path) while graph_ops is the only enabled ops, so that
 * every enabled site is one of its own; ftrace_graph_entry_test once
 * another is. Called inside the stop_machine that changes the sites,
 * so no hooked entry ever sees a site of another ops with the fast
 * path still in place.
 */
#if DYNAMIC_FTRACE
void update_function_graph_func(void)
{
	struct ftrace_ops *op;
	bool alone = true;

	for (op = ftrace_ops_list; op != &ftrace_list_end; op = op->next)
		if (op != &graph_ops)
			alone = false;
	if (!graph_ops_current)
		ftrace_graph_entry = ftrace_graph_entry_stub;
	else if (alone)
		ftrace_graph_entry = graph_ops_current->entryfunc;
	else
		ftrace_graph_entry = ftrace_graph_entry_test;
}
#else
/*
 * FTRACE=static: every function reaches the graph entry once the hooks
 * are set, so the entry always checks graph_ops' hashes; _mcount sees
 * the hooks change at once (Linux sets them in register_ftrace_graph).
 * Unregistering clears ftrace_graph_active first, and so the hooks.
 */
void update_function_graph_func(void)
{
	struct fgraph_ops *gops = ftrace_graph_active ? graph_ops_current :
							 NULL;

	WRITE_ONCE(ftrace_graph_entry, gops ? ftrace_graph_entry_test :
					      ftrace_graph_entry_stub);
	WRITE_ONCE(ftrace_graph_return, gops ? (void *)gops->retfunc :
					       (void *)ftrace_stub);
}
#endif

static __always_inline int function_graph_enter(struct task *t,
						unsigned long ret,
						unsigned long func,
						unsigned long frame_pointer,
						unsigned long *retp)
{
	struct ftrace_graph_ent trace = { func, ++t->curr_ret_depth };

	if (ftrace_push_return_trace(t, ret, func, frame_pointer, retp))
		goto out;
	if (!ftrace_graph_entry(&trace))
		goto out_ret;
	return 0;
out_ret:
	t->curr_ret_stack--;
out:
	t->curr_ret_depth--;
	return -EBUSY;
}

void prepare_ftrace_return(unsigned long *parent, unsigned long self_addr,
			   unsigned long frame_pointer, unsigned long *retp)
{
	struct task *t = current;

	if (unlikely(!ftrace_graph_active || t->tracing_graph_pause))
		return;
	if (!function_graph_enter(t, *parent, self_addr, frame_pointer, retp))
		*parent = (unsigned long)return_to_handler;
}

/*
 * HAVE_FUNCTION_GRAPH_FP_TEST: the caller's frame pointer at return must
 * be what it was at entry, or the stack was corrupted (or a compiler
 * broke the frame chain). Nowhere safe to return to: panic, naming it.
 */
static noinline void bad_frame_pointer(struct ftrace_ret_stack *rs,
				       unsigned long frame_pointer)
{
	if (READ_ONCE(ftrace_graph_fp_test_count)) {
		ftrace_graph_fp_mismatches++;
		return;
	}
	ftrace_graph_stop();
	panic("Bad frame pointer: expected %lx, received %lx\n"
	      "  from func %ps return to %lx", rs->fp, frame_pointer,
	      (void *)rs->func, rs->ret);
}

/*
 * Set by selftest fgraph only, around a return it corrupted on purpose:
 * count the mismatch instead of panicking, so the suite itself shows the
 * check works (the `fgraph_fp_test` boot shows the panic).
 */
bool ftrace_graph_fp_test_count;
unsigned long ftrace_graph_fp_mismatches;

static noinline __noreturn void empty_ret_stack(struct task *t)
{
	unbalanced++;
	panic("ftrace: return with an empty ret_stack in %s-%d", t->comm,
	      t->pid);
}

static __always_inline void
ftrace_pop_return_trace(struct task *t, struct ftrace_graph_ret *trace,
			unsigned long *ret, unsigned long frame_pointer)
{
	int index = t->curr_ret_stack;
	struct ftrace_ret_stack *rs;

	if (unlikely(index < 0 || !t->ret_stack))
		empty_ret_stack(t);
	rs = &t->ret_stack[index];
	if (unlikely(rs->fp != frame_pointer))
		bad_frame_pointer(rs, frame_pointer);
	*ret = rs->ret;
	trace->func = rs->func;
	trace->calltime = rs->calltime;
	trace->overrun = t->trace_overrun;
	trace->depth = t->curr_ret_depth--;
	barrier();
}

/*
 * Graph tracing stopped while this task had hooked frames, and the last
 * of them has returned: give the ret_stack back, as unregistering does
 * for the tasks that had none (Linux keeps it until the task exits).
 * The exchange makes this and drop_ret_stack free it once between them;
 * interrupts off, so no stop_machine round sees it taken but not freed
 * (mm_bytes_less_ret_stacks).
 */
static noinline void ret_stack_done(struct task *t)
{
	unsigned long flags = raw_local_irq_save();

	kfree(__atomic_exchange_n(&t->ret_stack, NULL, __ATOMIC_ACQ_REL));
	raw_local_irq_restore(flags);
}

/*
 * return_to_handler comes here for the real return address. The
 * callback runs non-preemptible, as include/ftrace.h promises and as
 * the entry's does in the trampoline: unregister_ftrace_graph's
 * stop_machine then also waits out every return in progress. The depth
 * goes down at the pop: an interrupt before the callback has written
 * the return is drawn at the returning function's level (as in Linux;
 * at entry, one between the push and the write is drawn a level deeper,
 * before the call).
 */
unsigned long ftrace_return_to_handler(unsigned long frame_pointer)
{
	struct task *t = current;
	struct ftrace_graph_ret trace;
	struct fgraph_ops *gops;
	unsigned long ret;

	ftrace_pop_return_trace(t, &trace, &ret, frame_pointer);
	trace.rettime = fgraph_clock();
	t->preempt_count++;
	barrier();
	gops = READ_ONCE(graph_ops_current);
	if (gops)
		gops->retfunc(&trace);
	barrier();
	/* As the trampoline's PREEMPT_ENABLE: reschedule untraced. */
	if (!--t->preempt_count && unlikely(this_cpu()->need_resched))
		preempt_schedule_notrace();
	/* Only now free the slot: the callback may itself be traced. */
	barrier();
	if (unlikely(--t->curr_ret_stack < 0 && !ftrace_graph_active))
		ret_stack_done(t);
	return ret;
}

/*
 * HAVE_FUNCTION_GRAPH_RET_ADDR_PTR: an unwinder that finds
 * return_to_handler at retp asks here for the address it replaced. A
 * function that tail-calls another leaves both hooked with one retp,
 * the second holding return_to_handler as its return: the real one is
 * the first's (as Linux's ftrace_graph_ret_addr looks past them).
 */
unsigned long ftrace_graph_ret_addr(struct task *task, unsigned long ret,
				    unsigned long *retp)
{
	unsigned long handler = (unsigned long)return_to_handler;
	int i;

	if (ret != handler || !task->ret_stack)
		return ret;
	for (i = task->curr_ret_stack; i >= 0; i--)
		if (task->ret_stack[i].retp == retp &&
		    task->ret_stack[i].ret != handler)
			return task->ret_stack[i].ret;
	return ret;
}

/*
 * One step of a frame-pointer unwind of the current task: the return
 * address of the frame record at fp, the real one where it is hooked.
 * A hooked return lives where the prologue saved ra, fp - 8, but for
 * ftrace_caller's record of a traced function's caller: that prologue
 * has not run yet, the trampoline holds ra, and a hook that replaced
 * it already (in a function that tail-called this one) recorded the
 * slot the prologue will use, the traced function's entry sp - 8. The
 * record before it returns to the traced function's resume pc (its
 * site + MCOUNT_INSN_SIZE): *next_retp carries the slot from that one
 * to the next. Start it at NULL.
 */
unsigned long ftrace_graph_frame_ret(unsigned long fp,
				    unsigned long **next_retp)
{
	unsigned long *frame = (unsigned long *)fp;
	unsigned long *retp = *next_retp ? *next_retp : &frame[-1];
	unsigned long ra = frame[-1];

	*next_retp = ftrace_lookup_ip(ra - MCOUNT_INSN_SIZE) ?
		     (unsigned long *)ftrace_traced_entry_sp(fp) - 1 : NULL;
	return ftrace_graph_ret_addr(current, ra, retp);
}

/* Backtraces (kernel/printk.c) see the callers fgraph hooked. */
static void fgraph_unwind_init(void)
{
	unwind_register_frame_ret(ftrace_graph_frame_ret);
}
early_initcall(fgraph_unwind_init);

struct ftrace_ret_stack *ftrace_graph_get_ret_stack(struct task *t, int idx)
{
	int index = t->curr_ret_stack - idx;

	return t->ret_stack && index >= 0 ? &t->ret_stack[index] : NULL;
}

unsigned long fgraph_unbalanced_returns(void)
{
	return unbalanced;
}

/* ---- sleep-time ------------------------------------------------------------ */

/*
 * sleep-time off: a task's time off the CPU is left out of the calls it
 * is inside. When it runs again, each of its hooked calls starts later
 * by that long (Linux's ftrace_graph_probe_sched_switch). The task
 * switched in is not running, so its ret_stack holds still; one no
 * hooked frame uses may be freed meanwhile, and then none is looked at.
 */
static void ftrace_graph_probe_sched_switch(void *data, bool preempt,
					    struct task *prev,
					    struct task *next)
{
	u64 now = fgraph_clock(), slept;
	struct ftrace_ret_stack *rs = READ_ONCE(next->ret_stack);
	int index;

	prev->ftrace_timestamp = now;
	if (!next->ftrace_timestamp || !rs)
		return;
	slept = now - next->ftrace_timestamp;
	for (index = next->curr_ret_stack; index >= 0; index--)
		rs[index].calltime += slept;
}

static int clear_ftrace_timestamp(struct task *t, void *data)
{
	t->ftrace_timestamp = 0;
	return 0;
}

/*
 * function_graph's sleep-time option: on (the default), a call's time
 * includes the time its task slept; off, the probe above runs at every
 * switch. Times left from an earlier time off are forgotten first.
 */
void ftrace_graph_sleep_time_control(bool enable)
{
	if (enable) {
		unregister_trace_sched_switch(ftrace_graph_probe_sched_switch,
					      NULL);
		return;
	}
	for_each_task(clear_ftrace_timestamp, NULL);
	register_trace_sched_switch(ftrace_graph_probe_sched_switch, NULL);
}

/* ---- ret_stack per task ------------------------------------------------ */

/*
 * Give t the ret_stack rs unless it has one: a task just created is on
 * the task list before its creator calls graph_on_create, so
 * give_ret_stack may give it one first. False: rs is still the caller's.
 */
static bool graph_init_task(struct task *t, struct ftrace_ret_stack *rs)
{
	struct ftrace_ret_stack *none = NULL;

	t->curr_ret_stack = -1;
	t->curr_ret_depth = -1;
	t->trace_overrun = 0;
	t->tracing_graph_pause = 0;
	t->ftrace_timestamp = 0;
	/*
	 * The fields before the stack, as Linux's smp_wmb(): GCC 12 makes
	 * a bare lr.d/sc.d of __ATOMIC_RELEASE here, no fence
	 * (tests/host/test_ret_stack_publish.py).
	 */
	wmb();
	return __atomic_compare_exchange_n(&t->ret_stack, &none, rs, false,
					   __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

static void graph_on_create(struct task *t)
{
	struct ftrace_ret_stack *rs = kmalloc(RET_STACK_BYTES);

	if (rs && !graph_init_task(t, rs))
		kfree(rs);
}

static void graph_on_free(struct task *t)
{
	kfree(t->ret_stack);
	t->ret_stack = NULL;
}

struct alloc_ctx {
	struct ftrace_ret_stack **pool;
	int used, size;
};

static int count_tasks(struct task *t, void *data)
{
	(*(int *)data)++;
	return 0;
}

static int give_ret_stack(struct task *t, void *data)
{
	struct alloc_ctx *c = data;

	if (!t->ret_stack && c->used < c->size &&
	    graph_init_task(t, c->pool[c->used]))
		c->used++;
	return 0;
}

/*
 * Every task gets a ret_stack before any site can hook it. Allocate
 * outside the task-list lock (kmalloc may not sleep under it), with a
 * margin for tasks created meanwhile; those also get one from the hook.
 */
static int alloc_retstack_tasklist(void)
{
	struct alloc_ctx c = { 0 };
	int n = 0, i;

	for_each_task(count_tasks, &n);
	c.size = n + 8;
	c.pool = kzalloc(c.size * sizeof(*c.pool));
	if (!c.pool)
		return -ENOMEM;
	for (i = 0; i < c.size; i++)
		if (!(c.pool[i] = kmalloc(RET_STACK_BYTES)))
			break;
	c.size = i;
	if (c.size < n + 8) {
		for (i = 0; i < c.size; i++)
			kfree(c.pool[i]);
		kfree(c.pool);
		return -ENOMEM;
	}
	for_each_task(give_ret_stack, &c);
	for (i = c.used; i < c.size; i++)
		kfree(c.pool[i]);
	kfree(c.pool);
	return 0;
}

static int drop_ret_stack(struct task *t, void *data)
{
	/* Hooked frames keep it until the last returns (ret_stack_done). */
	if (t->curr_ret_stack < 0)
		kfree(__atomic_exchange_n(&t->ret_stack, NULL,
					  __ATOMIC_ACQ_REL));
	return 0;
}

/*
 * No ret_stack for new tasks any more, and back the ones no hooked
 * frame uses: also those the hook gave tasks created while a start
 * failed.
 */
static void free_ret_stacks(void)
{
	sched_register_task_hook(NULL, graph_on_free);
	for_each_task(drop_ret_stack, NULL);
}

int register_ftrace_graph(struct fgraph_ops *gops)
{
	int ret;

	if (graph_ops_current)
		return -EBUSY;
	sched_register_task_hook(graph_on_create, graph_on_free);
	ret = alloc_retstack_tasklist();
	if (!ret) {
		graph_ops_current = gops;
		graph_ops.func_hash = gops->func_hash ? gops->func_hash :
							 &graph_ops.local_hash;
		ftrace_graph_active = true;
		ret = ftrace_startup_graph(&graph_ops, true);
		if (!ret)
			fgraph_update_fast_paths();
	}
	if (ret) {
		ftrace_graph_active = false;
		graph_ops_current = NULL;
		free_ret_stacks();
	}
	return ret;
}

void unregister_ftrace_graph(struct fgraph_ops *gops)
{
	if (graph_ops_current != gops)
		return;
	ftrace_graph_active = false;
	fgraph_update_fast_paths();
	ftrace_startup_graph(&graph_ops, false);
	graph_ops_current = NULL;
	free_ret_stacks();
}

static int add_ret_stack(struct task *t, void *data)
{
	if (t->ret_stack)
		*(size_t *)data += kmalloc_footprint(t->ret_stack);
	return 0;
}

static int count_bytes_less_ret_stacks(void *data)
{
	size_t held = 0;

	for_each_task(add_ret_stack, &held);
	*(size_t *)data = mm_bytes_in_use() - held;
	return 0;
}

/*
 * mm_bytes_in_use() less the ret_stacks tasks hold, what a leak check
 * compares. A task asleep under a hooked frame when graph tracing
 * stopped frees its ret_stack only when it wakes (ret_stack_done),
 * whenever that is: counted, it would read as a leak before and as
 * memory given back after. Taken in a stop_machine round, so no CPU
 * can free one while the tasks are counted.
 */
size_t mm_bytes_less_ret_stacks(void)
{
	size_t bytes;

	stop_machine(count_bytes_less_ret_stacks, &bytes);
	return bytes;
}

/* After a fatal inconsistency: hook nothing more. */
void ftrace_graph_stop(void)
{
	ftrace_graph_active = false;
	fgraph_update_fast_paths();
}
