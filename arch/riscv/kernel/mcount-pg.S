/*
 * mcount-pg.S: the trampolines of the -pg builds (FTRACE=mcount and
 * static): _mcount, which every site calls until ftrace_init makes it a
 * nop (static: always, and it tests what to call), ftrace_caller for
 * -pg's calling convention, and ftrace_graph_caller. No regs variant,
 * no fast paths. The patchable build's are in mcount-dyn.S;
 * both share mcount.S. The two schemes side by side:
 *
 *                 patchable                     -pg (mcount)
 *   site          4 bytes, the function's       `mv a0, ra` + a 4-byte
 *                 first instruction             call after the prologue
 *   links         t0 (ra still the parent's)    ra (a0 = the parent's ra)
 *   live there    a0-a7, ra: saved and          only s-regs, sp, gp, tp:
 *                 restored, handed out as       it is an ordinary call,
 *                 pt_regs (SAVE_REGS, IPMODIFY) so nothing to save and
 *                                               no pt_regs to offer
 *   graph hijack  the ra that ftrace_caller     the ra that the prologue
 *                 saved and will restore        saved at s0 - 8
 *   disabled      1 insn (nop)                  2 insns (mv, nop) and
 *                                               6 more: the call makes
 *                                               a leaf save ra and keep
 *                                               its argument in s1
 *   enabled       52 insns here (with the stub) 28 insns here
 *                 or a fast path                or the C callback
 *
 * `make bench`, per call of bench_target (a 6-instruction leaf),
 * patchable against -pg. Disabled, over FTRACE=none:
 *   bench: disabled_insns_per_entry 1
 *   bench: mcount_disabled_insns_per_entry 8
 * An empty callback (6 instructions), then the function tracer, over
 * the same build disabled:
 *   bench: stub_insns_per_call 59
 *   bench: mcount_stub_insns_per_call 33
 *   bench: function_insns_per_call 64.5
 *   bench: mcount_function_insns_per_call 115.15
 * -pg costs more when off, and when on than the fast path does.
 *
 * Entry: ra = the site + 4 (back into the traced function), a0 = the
 * traced function's return address (parent_ip), s0 = its frame pointer,
 * its frame already holding ra at s0 - 8 and its caller's s0 at s0 - 16.
 * ftrace_caller's own frame is one frame record (FTRACE_FRAME_SIZE =
 * 16), so a backtrace from a callback goes on into the traced function:
 *
 *   sp+8    ra   the site + 4     \ record, s0 = sp+16
 *   sp+0    s0   the traced function's frame pointer
 */
#include "asm/asm.h"
#include "asm/ftrace.h"

	.section .text.ftrace, "ax"
	/* Every patchable slot is one 4-byte, 4-aligned instruction. */
	.option norvc

	.globl _mcount
	.balign 4
#if DYNAMIC_FTRACE
/* What every site calls until ftrace_init turns it into a nop. */
_mcount:
	ret
#else
/*
 * FTRACE=static: what every site calls at every call, as Linux's
 * _mcount without CONFIG_DYNAMIC_FTRACE (arch/riscv/kernel/mcount.S):
 * on to ftrace_caller if the function tracer's ftrace_trace_function
 * is not ftrace_stub, or function_graph's ftrace_graph_return not
 * ftrace_stub, or its ftrace_graph_entry not ftrace_graph_entry_stub;
 * else back at once: 14 instructions when nothing is traced; with the
 * site's 2 and the 6 the call makes GCC add around it,
 *   bench: static_disabled_insns_per_entry 22
 */
_mcount:
	lla	t0, ftrace_stub
	ld	t1, ftrace_trace_function
	bne	t1, t0, ftrace_caller
	ld	t1, ftrace_graph_return
	bne	t1, t0, ftrace_caller
	ld	t1, ftrace_graph_entry
	lla	t0, ftrace_graph_entry_stub
	bne	t1, t0, ftrace_caller
	ret

/*
 * ftrace_caller's two calls, in place of the dynamic build's patchable
 * slots: ftrace_trace_function as it is now (ftrace_stub, if only the
 * graph is on), then ftrace_graph_caller if the graph hooks are set,
 * tested again since the function may have changed them meanwhile.
 */
	.macro FTRACE_STATIC_CALLS
	ld	a2, function_trace_op
	li	a3, 0
	ld	t1, ftrace_trace_function
	jalr	t1
	lla	t0, ftrace_stub
	ld	t1, ftrace_graph_return
	bne	t1, t0, 1f
	ld	t1, ftrace_graph_entry
	lla	t0, ftrace_graph_entry_stub
	beq	t1, t0, 2f
1:	call	ftrace_graph_caller
2:
	.endm
#endif

	.globl ftrace_caller
	.balign 4
ftrace_caller:
	addi	sp, sp, -FTRACE_FRAME_SIZE
	sd	ra, FRAME_RECORD_RA(sp)
	sd	s0, FRAME_RECORD_FP(sp)
	addi	s0, sp, FTRACE_FRAME_SIZE
	PREEMPT_DISABLE
	mv	a1, a0				/* parent_ip */
	addi	a0, ra, -MCOUNT_INSN_SIZE	/* ip: the site */
#if DYNAMIC_FTRACE
	FTRACE_CALL_SLOTS
#else
	FTRACE_STATIC_CALLS
#endif
	PREEMPT_ENABLE
	ld	ra, FRAME_RECORD_RA(sp)
	ld	s0, FRAME_RECORD_FP(sp)
	addi	sp, sp, FTRACE_FRAME_SIZE
	ret

/*
 * ftrace_graph_caller: called from ftrace_graph_call, s0 still
 * ftrace_caller's. prepare_ftrace_return(parent, self_addr,
 * frame_pointer, retp) with parent = retp = where the traced function's
 * prologue saved ra (its s0 - 8), and frame_pointer = its caller's s0,
 * which return_to_handler sees again after the epilogue restored it.
 */
	.globl ftrace_graph_caller
	.balign 4
ftrace_graph_caller:
	ld	t1, FRAME_SAVED_FP(s0)		/* the traced function's s0 */
	ld	a1, FRAME_SAVED_RA(s0)		/* the site + 4 */
	addi	sp, sp, -FRAME_RECORD_SIZE
	sd	ra, FRAME_RECORD_RA(sp)
	sd	s0, FRAME_RECORD_FP(sp)
	addi	s0, sp, FRAME_RECORD_SIZE
	addi	a0, t1, FRAME_SAVED_RA
	addi	a1, a1, -MCOUNT_INSN_SIZE
	ld	a2, FRAME_SAVED_FP(t1)
	mv	a3, a0
	call	prepare_ftrace_return
	ld	ra, FRAME_RECORD_RA(sp)
	ld	s0, FRAME_RECORD_FP(sp)
	addi	sp, sp, FRAME_RECORD_SIZE
	ret
