/*
 * ftrace.c (arch): ftrace-design.rst's arch interface for dynamic ftrace on
 * RISC-V. Each function checks that the instruction it replaces is the
 * one it expects before writing the new one, so a wrong record can
 * never overwrite unrelated code (ftrace_bug reports it instead).
 *
 *   site:          nop  <->  jal t0, ftrace_caller | ftrace_regs_caller
 *                  (far:     jal t0, a veneer to either, asm/ftrace_veneer.h)
 *                  (-pg:     jal ra, ftrace_caller)
 *   site - 8:      the ops ftrace_caller calls for it (not under -pg)
 *   ftrace_call:   jal ra, <ftrace_trace_function>
 *   graph call:    nop  <->  jal ra, ftrace_graph_caller
 */
#include "kernel.h"
#include "ftrace.h"
#include "mm.h"
#include "patch.h"
#include "rcu.h"
#include "sched.h"
#include "asm/insn.h"
#include "asm/csr.h"

/* Each trampoline's two patchable calls (-pg has no regs trampoline). */
struct ftrace_tramp {
	char *call;			/* jal ra, <ftrace_trace_function> */
	char *graph_call;		/* nop <-> jal ra, graph_caller */
	void (*graph_caller)(void);
};

static const struct ftrace_tramp tramps[] = {
	{ ftrace_call, ftrace_graph_call, ftrace_graph_caller },
#ifdef HAVE_DYNAMIC_FTRACE_WITH_REGS
	{ ftrace_regs_call, ftrace_graph_regs_call, ftrace_graph_regs_caller },
#endif
};

#ifdef FTRACE_PG_SITES
/* What a site holds straight from the compiler (and the linker). */
static int site_initial_insn(unsigned long ip, u32 *insn)
{
	return riscv_insn_jal(ip, MCOUNT_ADDR, FTRACE_SITE_LINK_REG, insn);
}
#endif

#define INSN_LOW_HALF	0x0000ffffU

/*
 * Live, the words a change from old to new goes through, new last.
 * A hart may fetch a 32-bit instruction as two halfwords: QEMU's TCG
 * reads the low one, then the high one, so a hart translating a word
 * while one store changes both halves can run half of each (a jal's
 * low half with a nop's high half jumps 0-60 KiB past the site:
 * ftrace_live_test.c, live_site_never_torn). So each store changes
 * one half, and a hart fences each before the next (ftrace_live.c).
 * On the way, the low half is a nop's: opcode, rd and funct3 are all
 * in it, and `addi x0, rs1, imm` is a nop whatever its high half
 * holds. A call to another target is a nop for a moment.
 */
static unsigned int live_path(u32 old, u32 new, u32 *path)
{
	u32 nop_old = (old & ~INSN_LOW_HALF) | RISCV_INSN_NOP;
	u32 nop_new = (new & ~INSN_LOW_HALF) | RISCV_INSN_NOP;
	u32 diff = old ^ new;
	unsigned int len = 0;

	if (!(diff & INSN_LOW_HALF) || !(diff & ~INSN_LOW_HALF)) {
		path[0] = new;
		return 1;
	}
	if (old != nop_old)
		path[len++] = nop_old;
	path[len++] = nop_new;
	if (new != nop_new)
		path[len++] = new;
	return len;
}

/*
 * The writes that take more than one store: someone must hear of
 * them (the debug hook, a live step), or the site is a -pg one only
 * 2-aligned, written as two halfwords, which stop_machine makes safe
 * (asm/ftrace.h); that build has no live mode.
 */
static noinline int ftrace_write_noted(unsigned long ip, u32 old, u32 new)
{
	u32 path[FTRACE_LIVE_PATH_MAX];

	if (ftrace_patch_hook)
		ftrace_patch_hook(ip, old, new);
	if (ip & 3)
		return patch_insn_write((void *)ip, &new, sizeof(new));
	if (ftrace_patch_live())
		return ftrace_live_write(ip, path, live_path(old, new, path));
	return patch_insn32((void *)ip, new);
}

/*
 * Replace old with new at ip, after checking ip holds old. Inline, the
 * rare cases out of line: a site's write is then a tail call of
 * patch_insn32, and patching every site pays no frame per site.
 */
static __always_inline int ftrace_modify_code(unsigned long ip, u32 old,
					      u32 new)
{
	if (riscv_insn_read(ip) != old)
		return -EINVAL;
	if (unlikely(ftrace_patch_hook || ftrace_patch_live() || (ip & 3)))
		return ftrace_write_noted(ip, old, new);
	return patch_insn32((void *)ip, new);
}

#ifdef HAVE_FTRACE_VENEERS
/*
 * A site out of jal's reach of addr calls the veneer to addr nearest
 * to it, in its own object's text (asm/ftrace_veneer.h); -ERANGE if
 * that is out of reach too, or addr is no trampoline.
 */
static noinline int far_site_call(unsigned long ip, unsigned long addr,
				  u32 *insn)
{
	unsigned long veneer;

	if (addr != FTRACE_ADDR && addr != FTRACE_REGS_ADDR)
		return -ERANGE;
	veneer = ftrace_veneer_near(ip, addr == FTRACE_REGS_ADDR);
	if (!veneer)
		return -ERANGE;
	return riscv_insn_jal(ip, veneer, FTRACE_SITE_LINK_REG, insn);
}
#else
/* -pg: ld relaxed every site into a jal (asm/ftrace.h). */
static int far_site_call(unsigned long ip, unsigned long addr, u32 *insn)
{
	return -ERANGE;
}
#endif

/* jal t0, addr; or, out of reach, jal t0 to a veneer that jumps there. */
static int site_call(unsigned long ip, unsigned long addr, u32 *insn)
{
	int ret = riscv_insn_jal(ip, addr, FTRACE_SITE_LINK_REG, insn);

	return ret == -ERANGE ? far_site_call(ip, addr, insn) : ret;
}

int ftrace_call_insn(unsigned long ip, unsigned long addr, u32 *insn)
{
	return site_call(ip, addr, insn);
}

/* The near site's call: the patch functions' inline fast path. */
static __always_inline int near_site_call(unsigned long ip,
					  unsigned long addr, u32 *insn)
{
	return riscv_insn_jal(ip, addr, FTRACE_SITE_LINK_REG, insn);
}

/*
 * A far site changes from a call of old_addr (0: a nop) to one of addr
 * (0: a nop). Out of line, so that patching a near site, which never
 * comes here, pays no call nor frame for it.
 */
static noinline int modify_far_site(unsigned long ip, unsigned long old_addr,
				    unsigned long addr)
{
	u32 old = RISCV_INSN_NOP, new = RISCV_INSN_NOP;
	int ret = old_addr ? site_call(ip, old_addr, &old) : 0;

	if (!ret && addr)
		ret = site_call(ip, addr, &new);
	return ret ? ret : ftrace_modify_code(ip, old, new);
}

static bool tramp_is_pristine(const struct ftrace_tramp *t)
{
	unsigned long call = (unsigned long)t->call;
	u32 expect;

	return !riscv_insn_jal(call, (unsigned long)ftrace_stub, RV_REG_RA,
			       &expect) &&
	       riscv_insn_read(call) == expect &&
	       riscv_insn_read((unsigned long)t->graph_call) == RISCV_INSN_NOP;
}

/* The trampolines must start out as the assembler wrote them. */
int ftrace_dyn_arch_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tramps); i++)
		if (!tramp_is_pristine(&tramps[i]))
			return -EINVAL;
	return 0;
}

/*
 * Boot: the compiler's form becomes the disabled form. Under -pg that
 * is written here. In the default build scripts/sorttable.py wrote it
 * into the image in place of GCC's two c.nop, as objtool --mnop does on
 * x86, so only its presence is checked: anything else is a wrong record.
 */
int ftrace_init_nop(struct dyn_ftrace *rec)
{
#ifdef FTRACE_PG_SITES
	u32 old;
	int ret = site_initial_insn(rec->ip, &old);

	return ret ? ret : ftrace_modify_code(rec->ip, old, RISCV_INSN_NOP);
#else
	return riscv_insn_read(rec->ip) == RISCV_INSN_NOP ? 0 : -EINVAL;
#endif
}

int ftrace_make_nop(struct dyn_ftrace *rec, unsigned long addr)
{
	u32 old;
	int ret = near_site_call(rec->ip, addr, &old);

	if (unlikely(ret == -ERANGE))
		return modify_far_site(rec->ip, addr, 0);
	return ret ? ret : ftrace_modify_code(rec->ip, old, RISCV_INSN_NOP);
}

int ftrace_make_call(struct dyn_ftrace *rec, unsigned long addr)
{
	u32 new;
	int ret = near_site_call(rec->ip, addr, &new);

	if (unlikely(ret == -ERANGE))
		return modify_far_site(rec->ip, 0, addr);
	return ret ? ret : ftrace_modify_code(rec->ip, RISCV_INSN_NOP, new);
}

#ifdef HAVE_DYNAMIC_FTRACE_WITH_CALL_OPS
/*
 * Point rec's ops literal at ops (asm/ftrace.h), before its call is
 * enabled, or while it stays one. A hart loads the old or the new ops,
 * each of which wants the site or tests its hash; the fence keeps a
 * site's later store from being seen first (live mode adds a fence.i
 * on every hart before a site's call appears: ftrace_live.c).
 */
int ftrace_rec_update_ops(struct dyn_ftrace *rec, struct ftrace_ops *ops)
{
	int ret = patch_text_literal((void *)ftrace_rec_ops_literal(rec->ip),
				     (unsigned long)ops);

	wmb();
	return ret;
}

/* Live, hooked, or a literal in the page before: one write, then the other. */
static noinline int make_call_ops_one_by_one(struct dyn_ftrace *rec,
					     unsigned long addr,
					     struct ftrace_ops *ops)
{
	int ret = ftrace_site_ops(rec->ip) != ops ?
		  ftrace_rec_update_ops(rec, ops) : 0;

	return ret ? ret : ftrace_make_call(rec, addr);
}

/* Live or hooked: each site on its own, as a live step or the hook wants. */
static noinline int make_calls_ops_one_by_one(struct dyn_ftrace *recs,
					      unsigned long n,
					      unsigned long addr,
					      struct ftrace_ops *ops,
					      unsigned long *done)
{
	int ret = 0;

	for (*done = 0; *done < n; (*done)++) {
		ret = make_call_ops_one_by_one(&recs[*done], addr, ops);
		if (ret)
			break;
	}
	return ret;
}

/* A site the batch cannot write: the batch so far is done first. */
static noinline int batch_one_by_one(struct text_poke_batch *b,
				     struct dyn_ftrace *rec,
				     unsigned long addr,
				     struct ftrace_ops *ops)
{
	text_poke_finish(b);
	return make_call_ops_one_by_one(rec, addr, ops);
}

/*
 * Disabled sites recs[0..n) get their ops literal and their call of
 * addr (nop -> function patches every site so), in one batch under
 * stop_machine: each is checked as ftrace_make_call checks, and each
 * page of text is mapped once for all its sites (text_poke_site).
 * Returns 0, or the error of recs[*done], the first site left as it
 * was; the sites before it are written.
 */
int ftrace_make_call_ops(struct dyn_ftrace *recs, unsigned long n,
			 unsigned long addr, struct ftrace_ops *ops,
			 unsigned long *done)
{
	struct text_poke_batch b = TEXT_POKE_BATCH_INIT;
	unsigned long i, ip;
	int ret = 0;
	u32 new;

	if (unlikely(ftrace_patch_hook || ftrace_patch_live()))
		return make_calls_ops_one_by_one(recs, n, addr, ops, done);
	preempt_disable();
	for (i = 0; i < n && !ret; i++) {
		ip = recs[i].ip;
		if (unlikely((ip & 7) ||
			     !(ip & (PAGE_SIZE - FTRACE_OPS_LITERAL_SIZE))))
			ret = batch_one_by_one(&b, &recs[i], addr, ops);
		else if (!(ret = site_call(ip, addr, &new)))
			ret = text_poke_site(&b, ip, RISCV_INSN_NOP, new,
					     (unsigned long)ops);
	}
	text_poke_finish(&b);
	preempt_enable();
	*done = ret ? i - 1 : i;
	return ret;
}
#endif

/* Between ftrace_caller and ftrace_regs_caller (live: through a nop). */
int ftrace_modify_call(struct dyn_ftrace *rec, unsigned long old_addr,
		       unsigned long addr)
{
	u32 old, new;
	int ret = near_site_call(rec->ip, old_addr, &old);

	if (!ret)
		ret = near_site_call(rec->ip, addr, &new);
	if (unlikely(ret == -ERANGE))
		return modify_far_site(rec->ip, old_addr, addr);
	return ret ? ret : ftrace_modify_code(rec->ip, old, new);
}

/* Point a `jal ra, X` in a trampoline at func. */
static int update_call(char *at, unsigned long func)
{
	unsigned long ip = (unsigned long)at;
	u32 old = riscv_insn_read(ip), new;
	int ret;

	if (!riscv_insn_is_jal(old) || riscv_insn_rd(old) != RV_REG_RA)
		return -EINVAL;
	ret = riscv_insn_jal(ip, func, RV_REG_RA, &new);
	return ret ? ret : ftrace_modify_code(ip, old, new);
}

/*
 * The trampolines load function_trace_op, then call through ftrace_call.
 * In live mode, before ftrace_call goes to a function that takes the op
 * (any but the list function), every hart that may have loaded an op
 * older than the one just set must have left its trampoline.
 */
int ftrace_update_ftrace_func(ftrace_func_t func)
{
	unsigned int i;
	int ret = 0;

	if (ftrace_patch_live() && func != ftrace_ops_list_func)
		synchronize_rcu();
	ftrace_live_step_begin();
	for (i = 0; i < ARRAY_SIZE(tramps) && !ret; i++)
		ret = update_call(tramps[i].call, (unsigned long)func);
	ftrace_live_step_end();
	return ret;
}

static int graph_call(const struct ftrace_tramp *t, bool enable)
{
	unsigned long ip = (unsigned long)t->graph_call;
	u32 call;
	int ret = riscv_insn_jal(ip, (unsigned long)t->graph_caller, RV_REG_RA,
				 &call);

	if (ret)
		return ret;
	return enable ? ftrace_modify_code(ip, RISCV_INSN_NOP, call) :
			ftrace_modify_code(ip, call, RISCV_INSN_NOP);
}

static int graph_calls(bool enable)
{
	unsigned int i;
	int ret = 0;

	ftrace_live_step_begin();
	for (i = 0; i < ARRAY_SIZE(tramps) && !ret; i++)
		ret = graph_call(&tramps[i], enable);
	ftrace_live_step_end();
	return ret;
}

int ftrace_enable_ftrace_graph_caller(void)
{
	return graph_calls(true);
}

int ftrace_disable_ftrace_graph_caller(void)
{
	return graph_calls(false);
}

/*
 * The batch is over: drop the alias. stop_machine flushes the icaches;
 * in live mode each step did already.
 */
void ftrace_arch_code_modify_post_process(void)
{
	patch_unmap();
}
