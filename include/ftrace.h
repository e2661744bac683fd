/*
 * ftrace.h: the dynamic function tracer's interface (trace/ftrace.c,
 * trace/ftrace_hash.c), with Linux's names: struct ftrace_ops and its
 * flags, register/unregister, filter and notrace hashes, the per-site
 * records (struct dyn_ftrace), the recursion guard, and the arch hooks
 * of ftrace-design.rst (arch/riscv/kernel/ftrace.c).
 */
#ifndef _FTRACE_H
#define _FTRACE_H

#include "kernel.h"
#include "sched.h"
#include "patch.h"
#include "asm/ftrace.h"

struct ftrace_ops;
/* A pt_regs when the ops asked for SAVE_REGS, else NULL. */
struct ftrace_regs;

typedef void (*ftrace_func_t)(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs);

enum {
	FTRACE_OPS_FL_ENABLED			= 1 << 0,
	FTRACE_OPS_FL_SAVE_REGS			= 1 << 1,
	FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED	= 1 << 2,
	FTRACE_OPS_FL_RECURSION			= 1 << 3,
	FTRACE_OPS_FL_IPMODIFY			= 1 << 4,
	FTRACE_OPS_FL_PERMANENT			= 1 << 5,
	FTRACE_OPS_FL_STUB			= 1 << 7,
};

/* One ip in a hash. */
struct ftrace_func_entry {
	struct ftrace_func_entry *next;
	unsigned long ip;
};

/* A set of sites: open hashing on the ip. */
struct ftrace_hash {
	unsigned int size_bits;
	unsigned long count;
	struct ftrace_func_entry **buckets;
};

struct ftrace_ops_hash {
	struct ftrace_hash *filter_hash;	/* empty: every function */
	struct ftrace_hash *notrace_hash;	/* wins over the filter */
};

struct ftrace_ops {
	ftrace_func_t func;
	struct ftrace_ops *next;
	unsigned long flags;
	void *private;
	const char *name;			/* for enabled_functions */
	ftrace_func_t saved_func;		/* behind the RECURSION wrapper */
	struct ftrace_ops_hash local_hash;
	struct ftrace_ops_hash *func_hash;
	/*
	 * An assembly fast path (arch/riscv/kernel/ftrace_fast.S) that the
	 * trampoline runs instead of saving registers and calling func,
	 * while this ops is the only one and ftrace_call calls its func;
	 * NULL for none. It may hand the call back to func.
	 */
	void *fast_path;
};

/* A patchable site (16 bytes): its address and what wants it. */
struct dyn_ftrace {
	unsigned long ip;
	unsigned long flags;
	struct dyn_arch_ftrace arch;
};

/*
 * rec->flags: the low bits count the ops that want the site; the high
 * bits say what the site holds now and what kind of call it needs.
 */
#define FTRACE_FL_ENABLED	(1UL << 31)	/* site calls a trampoline */
#define FTRACE_FL_REGS		(1UL << 30)	/* some ops wants pt_regs */
#define FTRACE_FL_REGS_EN	(1UL << 29)	/* site calls regs_caller */
#define FTRACE_FL_IPMODIFY	(1UL << 28)	/* an IPMODIFY ops owns it */
#define FTRACE_FL_DISABLED	(1UL << 27)	/* failed to verify: never write */
#define FTRACE_FL_CALL_OPS_EN	(1UL << 26)	/* literal: its only ops */
#define FTRACE_REF_MAX		((1UL << 26) - 1)
#define ftrace_rec_count(rec)	((rec)->flags & FTRACE_REF_MAX)

extern struct ftrace_ops *ftrace_ops_list;
extern struct ftrace_ops ftrace_list_end;
/* What a site's ops literal names when several ops want the site. */
extern struct ftrace_ops ftrace_list_ops;
extern struct ftrace_ops *function_trace_op;
extern ftrace_func_t ftrace_trace_function;
extern int ftrace_enabled;
extern struct mutex ftrace_lock;
extern struct mutex text_mutex;

int register_ftrace_function(struct ftrace_ops *ops);
int unregister_ftrace_function(struct ftrace_ops *ops);
int ftrace_set_filter(struct ftrace_ops *ops, const char *buf, int len,
		      int reset);
int ftrace_set_notrace(struct ftrace_ops *ops, const char *buf, int len,
		       int reset);
int ftrace_ops_set_hash(struct ftrace_ops *ops, struct ftrace_hash *hash,
			bool filter);
struct ftrace_hash *ftrace_ops_hash_copy(struct ftrace_ops *ops, bool filter);
int ftrace_set_filter_ip(struct ftrace_ops *ops, unsigned long ip,
			 int remove, int reset);
void ftrace_ops_list_func(unsigned long ip, unsigned long parent_ip,
			  struct ftrace_ops *op, struct ftrace_regs *fregs);
bool ftrace_ops_test(struct ftrace_ops *ops, unsigned long ip);
int ftrace_enable_sysctl(int enable);
void ftrace_free_ops_hashes(struct ftrace_ops *ops);
int ftrace_startup_graph(struct ftrace_ops *ops, bool start);

static inline struct pt_regs *ftrace_get_regs(struct ftrace_regs *fregs)
{
	return (struct pt_regs *)fregs;
}

/* Records, for tracefs and the patchsite command. */
struct dyn_ftrace *ftrace_lookup_ip(unsigned long ip);
unsigned long ftrace_location(unsigned long ip);
int ftrace_for_each_rec(int (*fn)(struct dyn_ftrace *rec, void *data),
			void *data);
unsigned long ftrace_nr_records(void);
/* Why a selftest that needs call sites skips in an FTRACE=none kernel. */
#define FTRACE_SKIP_NO_SITES	"FTRACE=none: the kernel has no call sites"
/* Why a selftest of site patching skips in an FTRACE=static kernel. */
#define FTRACE_SKIP_STATIC	"FTRACE=static: nothing is patched"
unsigned long ftrace_nr_pages(void);
unsigned long ftrace_update_time_insns(void);
u64 ftrace_take_longest_stop_insns(void);
void ftrace_rec_ops_names(struct dyn_ftrace *rec, char *buf, size_t size);
extern void (*ftrace_patch_hook)(unsigned long ip, u32 old, u32 new);

/* Hashes (trace/ftrace_hash.c). */
static inline unsigned long ftrace_hash_ip(unsigned long ip,
					   unsigned int bits)
{
	/* Sites are 4-aligned; mix the bits above that (golden ratio). */
	return ((ip >> 2) * 0x9E3779B97F4A7C15ULL) >> (64 - bits);
}

struct ftrace_hash *alloc_ftrace_hash(unsigned int size_bits);
struct ftrace_hash *ftrace_hash_copy(const struct ftrace_hash *src);
void free_ftrace_hash(struct ftrace_hash *hash);
int ftrace_hash_add(struct ftrace_hash *hash, unsigned long ip);
void ftrace_hash_remove(struct ftrace_hash *hash, unsigned long ip);
bool __ftrace_lookup_ip_in_hash(const struct ftrace_hash *hash,
				unsigned long ip);
int ftrace_hash_for_each(const struct ftrace_hash *hash,
			 int (*fn)(unsigned long ip, void *data), void *data);
static inline bool ftrace_hash_empty(const struct ftrace_hash *hash)
{
	return !hash || !hash->count;
}

/* Most notrace hashes are empty: that answer costs no call. */
static inline bool ftrace_lookup_ip_in_hash(const struct ftrace_hash *hash,
					    unsigned long ip)
{
	return !ftrace_hash_empty(hash) && __ftrace_lookup_ip_in_hash(hash, ip);
}
/* Apply a glob (`foo`, `foo*`, `*foo`, `*foo*`, `!foo`) to a hash. */
int ftrace_match_records(struct ftrace_hash *hash, const char *glob,
			 int len);

/*
 * Recursion protection, one bit per context (task, interrupt) in the
 * current task: a callback that calls a traced function comes back here
 * and is turned away instead of recursing. Unlike Linux's, it need not
 * disable preemption: the trampoline already did.
 *
 * An interrupt's first traced call, do_irq's own site, comes before its
 * hardirq count goes up: landing inside a task's callback, it finds the
 * task context's bit taken. As in Linux (include/linux/trace_recursion.h)
 * the transition bit lets one such call through, so interrupts are not
 * lost; a callback that truly recurses gets one level, never two.
 */
enum {
	TRACE_CTX_NORMAL,
	TRACE_CTX_IRQ,
	TRACE_CTX_TRANSITION,
	TRACE_CTX_MAX,
	/* ftrace_ops_list_func's own bits, apart from the callbacks' */
	TRACE_LIST_START = TRACE_CTX_MAX,
	/*
	 * function_graph's (trace_functions_graph.c): the task is inside
	 * a set_graph_function function, entered at the depth kept in the
	 * bits from TRACE_GRAPH_DEPTH_SHIFT, and from an interrupt or not;
	 * or inside a set_graph_notrace function. The overrun bit
	 * (fgraph.c) is set when the task's ret_stack overruns: its
	 * returns then take the C way, which records the count, until
	 * tracing starts again with the count at 0.
	 */
	TRACE_GRAPH_BIT = TRACE_LIST_START + TRACE_CTX_MAX,
	TRACE_GRAPH_NOTRACE_BIT,
	TRACE_IRQ_BIT,
	TRACE_GRAPH_OVERRUN_BIT,
	TRACE_GRAPH_DEPTH_SHIFT,
};

/* Linux's trace_test_and_set_recursion: the bit taken, or -1. */
static __always_inline int trace_test_and_set_recursion(struct task *t,
							int start)
{
	unsigned long val = t->trace_recursion;
	int bit = start + ((t->preempt_count & HARDIRQ_MASK) ?
			   TRACE_CTX_IRQ : TRACE_CTX_NORMAL);

	if (unlikely(val & (1UL << bit))) {
		bit = start + TRACE_CTX_TRANSITION;
		if (val & (1UL << bit))
			return -1;
	}
	t->trace_recursion = val | 1UL << bit;
	barrier();
	return bit;
}

static __always_inline void trace_clear_recursion(struct task *t, int bit)
{
	barrier();
	t->trace_recursion &= ~(1UL << bit);
}

/* For a caller that has current at hand already. */
static inline int __ftrace_test_recursion_trylock(struct task *t)
{
	return trace_test_and_set_recursion(t, 0);
}

static inline void __ftrace_test_recursion_unlock(struct task *t, int bit)
{
	trace_clear_recursion(t, bit);
}

static inline int ftrace_test_recursion_trylock(unsigned long ip,
						unsigned long parent_ip)
{
	return __ftrace_test_recursion_trylock(current);
}

static inline void ftrace_test_recursion_unlock(int bit)
{
	__ftrace_test_recursion_unlock(current, bit);
}

/* The arch half (arch/riscv/kernel/ftrace.c). */
int ftrace_dyn_arch_init(void);
int ftrace_init_nop(struct dyn_ftrace *rec);
int ftrace_make_nop(struct dyn_ftrace *rec, unsigned long addr);
int ftrace_make_call(struct dyn_ftrace *rec, unsigned long addr);
int ftrace_modify_call(struct dyn_ftrace *rec, unsigned long old_addr,
		       unsigned long addr);
int ftrace_rec_update_ops(struct dyn_ftrace *rec, struct ftrace_ops *ops);
int ftrace_make_call_ops(struct dyn_ftrace *recs, unsigned long n,
			 unsigned long addr, struct ftrace_ops *ops,
			 unsigned long *done);
/* Whether sites have ops literals (asm/ftrace.h); -pg's have none. */
#ifdef HAVE_DYNAMIC_FTRACE_WITH_CALL_OPS
#define FTRACE_CALL_OPS		1
#else
#define FTRACE_CALL_OPS		0
#endif
int ftrace_update_ftrace_func(ftrace_func_t func);
int ftrace_enable_ftrace_graph_caller(void);
int ftrace_disable_ftrace_graph_caller(void);
void ftrace_arch_code_modify_post_process(void);

/*
 * The patch mode (trace/ftrace_live.c): stop_machine, or live, where the
 * other harts run on through an update and each step of it ends with
 * every hart's fence.i.
 */
/* Inline: ftrace_init's loop over every site asks too (patch.h). */
static inline bool ftrace_patch_live(void)
{
	return text_patch_live_mode();
}

int ftrace_set_patch_mode(const char *name);
const char *ftrace_patch_mode_name(void);
void ftrace_patch_mode_init(void);
void ftrace_patch_mode_create_file(void);
void ftrace_live_step_begin(void);
void ftrace_live_step_end(void);
int ftrace_live_write(unsigned long ip, const u32 *path, unsigned int len);
unsigned long ftrace_live_steps(void);

/* fgraph (trace/fgraph.c) hooks the trampolines call. */
void prepare_ftrace_return(unsigned long *parent, unsigned long self_addr,
			   unsigned long frame_pointer, unsigned long *retp);
unsigned long ftrace_return_to_handler(unsigned long frame_pointer);
unsigned long ftrace_graph_ret_addr(struct task *task, unsigned long ret,
				    unsigned long *retp);
unsigned long ftrace_graph_frame_ret(unsigned long fp,
				    unsigned long **next_retp);
void update_function_graph_func(void);
extern bool ftrace_graph_active;

#endif
