/*
 * asm/ftrace.h: the arch half of dynamic ftrace (what Linux's
 * Documentation/trace/ftrace-design.rst asks of HAVE_DYNAMIC_FTRACE):
 * MCOUNT_ADDR, ftrace_call_adjust(), struct dyn_arch_ftrace, and what a
 * call site looks like.
 *
 * FTRACE=patchable (the default): a site is the first 4 bytes of every
 * traceable function, so a record's ip is the function's address:
 *
 *   compiled (-fpatchable-function-entry=2, RVC):  c.nop; c.nop
 *   disabled (after ftrace_init):                  nop           1 insn
 *   enabled:                                       jal t0, ftrace_caller
 *                                     (or          jal t0, ftrace_regs_caller)
 *
 * One 4-byte, 4-aligned instruction is both the whole disabled cost and
 * the unit of patching: a hart sees the old or the new instruction,
 * never half of each.
 *
 * Before the entry, the site's ops literal (Linux's
 * DYNAMIC_FTRACE_WITH_CALL_OPS, arm64 and RISC-V since 6.16):
 * -fpatchable-function-entry=6,4 with -falign-functions=8 puts four
 * c.nop, 8 bytes, 8-aligned, in front of each traced function. GCC's
 * table names their start, so a record's ip is that + 8:
 *
 *   ip - 8:  .8byte ops     the ftrace_ops this site calls (when enabled)
 *   ip:      nop | jal t0, ftrace_caller
 *
 * ftrace_caller loads it (one ld, from t0 - 12): a site that exactly
 * one ops wants holds that ops, and the trampoline runs its fast path
 * or calls its func directly, however many other ops are registered;
 * a site several ops want holds ftrace_list_ops, which goes through
 * ftrace_call (the list function while more than one ops is on). The
 * literal is written with one aligned 8-byte store before the call is
 * enabled, and is not an instruction: it needs no fence.i.
 *
 * FTRACE=mcount (-pg): a site is GCC's call of _mcount after the
 * prologue, so a record's ip is inside the function (ftrace_location()
 * finds it from the function's address):
 *
 *   compiled:   mv a0, ra;  auipc ra, 0; jalr ra     call _mcount, 8 bytes
 *   linked:     mv a0, ra;  jal ra, _mcount          relaxed by ld, 4 bytes
 *   disabled:   mv a0, ra;  nop                      2 insns
 *   enabled:    mv a0, ra;  jal ra, ftrace_caller
 *
 * Still one 4-byte instruction per change, but RVC prologues leave most
 * sites only 2-aligned, where it is written as two halfwords. That is
 * safe because sites change only in ftrace_init (one hart) or under
 * stop_machine (the other harts spin in the stopper, and a trap never
 * stops a hart between the halves of one instruction). The build checks
 * that ld relaxed every call (scripts/recordmcount.py --check).
 *
 * For the same reason the -pg build has no live patching (ftrace_patch=
 * live, trace/ftrace_live.c), which rests on 4-byte aligned sites.
 *
 * jal reaches +-1 MiB. A patchable site farther from the trampolines
 * calls its object's veneer instead (asm/ftrace_veneer.h), which jumps
 * on with auipc and jr:
 *
 *   enabled, far:   jal t0, ftrace_caller_veneer      still 1 insn
 *   the veneer:     auipc t1, hi; jr lo(t1)           to ftrace_caller
 *
 * scripts/checkelf.py fails the build if a function reaches neither.
 * The -pg build has no veneers: its text must stay within 1 MiB of
 * _mcount (checkelf.py), and ld then relaxes every call of _mcount
 * into one jal (recordmcount.py --check refuses an unrelaxed one, whose
 * auipc the patcher does not rewrite).
 */
#ifndef _ASM_FTRACE_H
#define _ASM_FTRACE_H

#include "asm/ptrace.h"
#include "asm/asm.h"

/*
 * FTRACE=static (-pg again): Linux without CONFIG_DYNAMIC_FTRACE. Every
 * site keeps its `jal ra, _mcount`, which runs at every call, and
 * _mcount (mcount-pg.S) tests ftrace_trace_function and the graph hooks
 * itself. Nothing is patched: no site, no trampoline slot.
 *
 *   always:     mv a0, ra;  jal ra, _mcount          2 insns, and
 *                                                    _mcount's tests
 */
#ifdef FTRACE_MODE_static
#define DYNAMIC_FTRACE		0	/* Linux's CONFIG_DYNAMIC_FTRACE */
#else
#define DYNAMIC_FTRACE		1
#endif
/* Both -pg builds: a site is the call of _mcount after the prologue. */
#if defined(FTRACE_MODE_mcount) || defined(FTRACE_MODE_static)
#define FTRACE_PG_SITES
#endif

#define MCOUNT_INSN_SIZE	4
/* The most stores a live change of one word takes (ftrace.c: live_path). */
#define FTRACE_LIVE_PATH_MAX	3
#ifdef FTRACE_PG_SITES
/* ftrace_caller's frame (mcount-pg.S): one frame record. */
#define FTRACE_FRAME_SIZE	16
#define FTRACE_LIVE_PATCHING	0
/* No ops literal: ftrace_caller calls through ftrace_call alone. */
#define FTRACE_OPS_LITERAL_SIZE	0
#else
#define FTRACE_LIVE_PATCHING	1
/* The site's ops literal, before its entry (see above). */
#define HAVE_DYNAMIC_FTRACE_WITH_CALL_OPS
/* Far sites call a veneer (asm/ftrace_veneer.h): a pair of them. */
#define HAVE_FTRACE_VENEERS
#define FTRACE_VENEER_SIZE	8	/* auipc, jr */
#define FTRACE_OPS_LITERAL_SIZE	8
/* Where ftrace_caller finds it: t0 is the site + 4. */
#define FTRACE_OPS_LITERAL_T0	(-(MCOUNT_INSN_SIZE + FTRACE_OPS_LITERAL_SIZE))
/*
 * ftrace_caller's frame (mcount-dyn.S draws it): two frame records,
 * then the traced function's arguments, or ftrace_regs_caller's
 * pt_regs.
 */
#define FTRACE_FRAME_FP1	0	/* record 2's fp: record 1's */
#define FTRACE_FRAME_T0		8	/* record 2's ra: the resume pc */
#define FTRACE_FRAME_S0		16	/* record 1's fp: the caller's s0 */
#define FTRACE_FRAME_RA		24	/* record 1's ra: the parent's */
#define FTRACE_FRAME_ARGS	32	/* a0..a7 */
#define FTRACE_FRAME_REGS	32	/* struct pt_regs */
#define FTRACE_FRAME_SIZE	96
#define FTRACE_REGS_FRAME_SIZE	(FTRACE_FRAME_REGS + PT_SIZE)
/*
 * A site sees the traced function's live argument registers, so
 * ftrace_regs_caller can hand them out as a pt_regs. -pg's call of
 * _mcount is an ordinary call after the prologue: they are dead there.
 */
#define HAVE_DYNAMIC_FTRACE_WITH_REGS
/*
 * ftrace_ops.fast_path, fgraph_ops.fast_entry and fast_return: the
 * trampolines' paths for one ops that do what its callbacks would,
 * with next to no registers saved (ftrace_fast.S). -pg's ftrace_caller
 * has none.
 */
#define HAVE_FTRACE_FAST_PATH
#endif

#ifndef __ASSEMBLY__
#include "types.h"
#include "asm/insn.h"

extern void _mcount(void);
extern char __ftrace_tramp_text_start[], __ftrace_tramp_text_end[];
extern char ftrace_caller[], ftrace_call[], ftrace_graph_call[];
struct ftrace_ops;
struct ftrace_regs;
/* A bare `ret`: what ftrace_call calls when nothing is traced. */
void ftrace_stub(unsigned long ip, unsigned long parent_ip,
		 struct ftrace_ops *op, struct ftrace_regs *fregs);
void ftrace_graph_stub(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs);
extern void ftrace_graph_caller(void);
extern void return_to_handler(void);

#define MCOUNT_ADDR	((unsigned long)_mcount)
#define FTRACE_ADDR	((unsigned long)ftrace_caller)

#ifdef FTRACE_PG_SITES
/* The site links through ra, as GCC's call of _mcount did. */
#define FTRACE_SITE_LINK_REG	RV_REG_RA
#else
/* t0 keeps ra (the traced function's return address) intact. */
#define FTRACE_SITE_LINK_REG	RV_REG_T0
#endif

#ifdef HAVE_DYNAMIC_FTRACE_WITH_REGS
/* ftrace_fast.S: the trampolines' fast paths (see HAVE_FTRACE_FAST_PATH) */
extern char ftrace_function_fast_local[], ftrace_function_fast_global[];
extern char ftrace_function_fast_counter[], ftrace_function_fast_instret[];
extern char ftrace_stack_fast[];
extern char ftrace_graph_entry_fast_local[], ftrace_graph_entry_fast_global[];
extern char ftrace_graph_entry_fast_counter[];
extern char ftrace_graph_entry_fast_instret[];
extern char ftrace_graph_return_fast_local[];
extern char ftrace_graph_return_fast_global[];
extern char ftrace_graph_return_fast_counter[];
extern char ftrace_graph_return_fast_instret[];
extern char ftrace_profile_entry_fast_local[];
extern char ftrace_profile_entry_fast_global[];
extern char ftrace_profile_entry_fast_counter[];
extern char ftrace_profile_entry_fast_instret[];
extern char ftrace_profile_return_fast_local[];
extern char ftrace_profile_return_fast_global[];
extern char ftrace_profile_return_fast_counter[];
extern char ftrace_profile_return_fast_instret[];

extern char ftrace_regs_caller[], ftrace_regs_call[];
extern char ftrace_graph_regs_call[];
extern void ftrace_graph_regs_caller(void);

#define FTRACE_REGS_ADDR	((unsigned long)ftrace_regs_caller)

/* Whether SAVE_REGS and IPMODIFY ops can be had (trace/ftrace.c). */
static inline bool ftrace_regs_supported(void)
{
	return true;
}
#else
/*
 * As in Linux without DYNAMIC_FTRACE_WITH_REGS: FTRACE_REGS_ADDR is
 * FTRACE_ADDR, and the core refuses SAVE_REGS and IPMODIFY ops.
 */
#define FTRACE_REGS_ADDR	FTRACE_ADDR

static inline bool ftrace_regs_supported(void)
{
	return false;
}
#endif

/* No extra state per record: the site's address says it all. */
struct dyn_arch_ftrace {
};

/* ftrace_veneer.c: the veneers of far sites (asm/ftrace_veneer.h) */
#ifdef HAVE_FTRACE_VENEERS
#define FTRACE_VENEERS	1
bool in_ftrace_veneer(unsigned long pc);
/* Where the veneer at addr jumps, or 0 if addr is no veneer. */
unsigned long ftrace_veneer_target(unsigned long addr);
unsigned long ftrace_veneer_near(unsigned long ip, bool regs);
#else
#define FTRACE_VENEERS	0

static inline unsigned long ftrace_veneer_near(unsigned long ip, bool regs)
{
	return 0;
}

static inline bool in_ftrace_veneer(unsigned long pc)
{
	return false;
}

static inline unsigned long ftrace_veneer_target(unsigned long addr)
{
	return 0;
}
#endif

/*
 * A task is never preempted inside a trampoline: it may have passed a
 * site that the update it would wait for turns off, and must not then
 * call back for it. From the trampoline's PREEMPT_DISABLE on, the
 * preempt count covers the callback too. A far site's veneer is on the
 * way in, and counts as the trampoline.
 */
static inline bool in_ftrace_trampoline(unsigned long pc)
{
	return (pc >= (unsigned long)__ftrace_tramp_text_start &&
		pc < (unsigned long)__ftrace_tramp_text_end) ||
	       in_ftrace_veneer(pc);
}

/* The instruction that makes the site at ip call addr (ftrace.c). */
int ftrace_call_insn(unsigned long ip, unsigned long addr, u32 *insn);

/*
 * For unwinders that meet ftrace_caller's frame record (the one whose
 * return address is the resume pc; mcount-dyn.S draws both frames): the
 * sp the traced function was called with, and its caller's s0. A
 * patchable site runs before the traced function's prologue, so both
 * are in ftrace_caller's frame; a -pg site runs after it, so they are
 * the traced function's s0 and what its prologue saved below that.
 */
#ifdef FTRACE_PG_SITES
static inline unsigned long ftrace_traced_entry_sp(unsigned long record_fp)
{
	return ((unsigned long *)record_fp)[-2];
}

static inline unsigned long ftrace_traced_caller_fp(unsigned long entry_sp)
{
	return ((unsigned long *)entry_sp)[-2];
}
#else
static inline unsigned long ftrace_traced_entry_sp(unsigned long record_fp)
{
	return record_fp - FRAME_RECORD_SIZE + FTRACE_FRAME_SIZE;
}

static inline unsigned long ftrace_traced_caller_fp(unsigned long entry_sp)
{
	return *(unsigned long *)(entry_sp - FTRACE_FRAME_SIZE +
				  FRAME_RECORD_SIZE);
}
#endif

/*
 * The record table holds each site's address, or (patchable) the start
 * of its ops literal, which the site follows.
 */
static inline unsigned long ftrace_call_adjust(unsigned long addr)
{
	return addr + FTRACE_OPS_LITERAL_SIZE;
}

static inline unsigned long ftrace_rec_ops_literal(unsigned long ip)
{
	return ip - FTRACE_OPS_LITERAL_SIZE;
}

/* The ops the site at ip names (patchable sites only). */
static inline struct ftrace_ops *ftrace_site_ops(unsigned long ip)
{
	return READ_ONCE(*(struct ftrace_ops **)ftrace_rec_ops_literal(ip));
}

#endif

#endif
