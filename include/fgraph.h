/*
 * fgraph.h: the function graph core (trace/fgraph.c): a per-task stack
 * of hooked return addresses so both entry and return of a function
 * are seen (Linux's kernel/trace/fgraph.c).
 */
#ifndef _FGRAPH_H
#define _FGRAPH_H

#include "kernel.h"
#include "sched.h"
#include "ftrace.h"

#define FTRACE_RETFUNC_DEPTH	50

/* One hooked call: where it really returns, and what entry saw. */
struct ftrace_ret_stack {
	unsigned long ret;
	unsigned long func;
	u64 calltime;
	unsigned long fp;
	unsigned long *retp;
};

struct ftrace_graph_ent {
	unsigned long func;
	int depth;
};

struct ftrace_graph_ret {
	unsigned long func;
	int depth;
	unsigned long overrun;
	u64 calltime;
	u64 rettime;
};

typedef int (*trace_func_graph_ent_t)(struct ftrace_graph_ent *trace);
typedef void (*trace_func_graph_ret_t)(struct ftrace_graph_ret *trace);

/*
 * A graph user. func_hash chooses the sites it hooks (NULL: all of
 * them); function_graph passes set_ftrace_filter's, as Linux's graph_ops
 * shares global_ops's.
 */
struct fgraph_ops {
	trace_func_graph_ent_t entryfunc;
	trace_func_graph_ret_t retfunc;
	struct ftrace_ops_hash *func_hash;
	/*
	 * The same two in assembly (arch/riscv/kernel/ftrace_fast.S), one
	 * per trace clock, or NULL: the trampoline's fast path at entry,
	 * return_to_handler's at return. A user clears fast_entry while
	 * its entries need what only entryfunc does (filters), and calls
	 * fgraph_update_fast_paths().
	 */
	void *const *fast_entry;
	void *const *fast_return;
};

int register_ftrace_graph(struct fgraph_ops *gops);
void fgraph_update_fast_paths(void);
void unregister_ftrace_graph(struct fgraph_ops *gops);
void ftrace_graph_stop(void);
size_t mm_bytes_less_ret_stacks(void);
void ftrace_graph_set_clock(u64 (*clock)(void));
/* sleep-time off: leave sleeps out of the calls' times (fgraph.c). */
void ftrace_graph_sleep_time_control(bool enable);
struct ftrace_ret_stack *ftrace_graph_get_ret_stack(struct task *t, int idx);
unsigned long fgraph_unbalanced_returns(void);
extern bool ftrace_graph_fp_test_count;
extern unsigned long ftrace_graph_fp_mismatches;

static inline void pause_graph_tracing(void)
{
	current->tracing_graph_pause++;
}

static inline void unpause_graph_tracing(void)
{
	current->tracing_graph_pause--;
}

#endif
