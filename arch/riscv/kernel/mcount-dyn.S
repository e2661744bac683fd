/*
 * mcount-dyn.S: the trampolines of dynamic ftrace for patchable sites
 * (FTRACE=patchable, the default, and none), as Linux's
 * arch/riscv/kernel/mcount-dyn.S: ftrace_caller with its patchable
 * ftrace_call and ftrace_graph_call, ftrace_regs_caller (full pt_regs,
 * for SAVE_REGS and IPMODIFY ops), and function_graph's
 * ftrace_graph_caller and ftrace_graph_regs_caller. ftrace_caller
 * first looks for a fast path (ftrace_fast.S), which does one tracer's
 * work with nothing saved. The -pg build has its own, in mcount-pg.S
 * (which compares the two schemes); both share mcount.S.
 *
 * Sites reach them with `jal t0, ftrace_caller`: t0 = the site + 4
 * (where to resume), ra = the traced function's own return address
 * (its prologue has not run yet), a0-a7 its arguments.
 *
 * ftrace_caller's frame (FTRACE_FRAME_SIZE = 96; the FTRACE_FRAME_*
 * offsets are in asm/ftrace.h), two frame records so a backtrace from
 * a callback shows the traced function and its caller:
 *
 *   sp+88 .. sp+32   a7 .. a0        the traced function's arguments
 *   sp+24            ra              parent's return (graph hijacks it)
 *   sp+16            s0 (caller's)   \ record 1, fp1 = sp+32
 *   sp+8             t0 (resume pc)  \ record 2, fp2 = sp+16 = s0
 *   sp+0             fp1             /
 *
 * ftrace_regs_caller's is the same with a whole pt_regs from sp+32.
 *
 * What a call costs: `make bench` (stub_insns_per_call: an empty C
 * callback on one site; function_2ops_insns_per_call: the function
 * tracer's fast path on one site while another ops has another).
 */
#include "asm/asm.h"
#include "asm/ftrace.h"

	.section .text.ftrace, "ax"
	/* gdb reads .debug_frame; the link discards .eh_frame */
	.cfi_sections .debug_frame
	/*
	 * No compressed instructions: every patchable slot (ftrace_call,
	 * ftrace_graph_call, ...) must be one 4-byte, 4-aligned instruction.
	 */
	.option norvc

/* The traced function's arguments, a0..a7 as an array at sp + base. */
	.macro SAVE_ARGS base
	.irp n, 0, 1, 2, 3, 4, 5, 6, 7
	sd	a\n, \base + \n * SZREG(sp)
	.endr
	.endm

	.macro RESTORE_ARGS base
	.irp n, 0, 1, 2, 3, 4, 5, 6, 7
	ld	a\n, \base + \n * SZREG(sp)
	.endr
	.endm

/*
 * The two frame records, their fps chained (see the drawing above),
 * s0 left at record 2 for the callback's backtrace.
 */
	.macro SAVE_FRAME_RECORDS
	sd	s0, FTRACE_FRAME_S0(sp)
	sd	ra, FTRACE_FRAME_RA(sp)
	sd	t0, FTRACE_FRAME_T0(sp)
	addi	s0, sp, FTRACE_FRAME_S0 + FRAME_RECORD_SIZE
	sd	s0, FTRACE_FRAME_FP1(sp)
	addi	s0, sp, FTRACE_FRAME_FP1 + FRAME_RECORD_SIZE
	.endm

/*
 * The trampoline and its callback run with preemption disabled, as
 * Linux's do: the function_trace_op loaded here must still match the
 * function ftrace_call calls, and stop_machine (which patches both) can
 * then never run while a task is in between. Also what lets
 * unregister_ftrace_function wait for every CPU to leave a callback.
 * PREEMPT_DISABLE and PREEMPT_ENABLE are in asm/asm.h.
 */
	.globl ftrace_caller
	.balign 4
ftrace_caller:
	/*
	 * Call frame information, for debuggers (gdb's `bt`): this frame
	 * returns through t0 into the traced function, whose prologue has
	 * not run, so its caller's return address is still in ra.
	 */
	.cfi_startproc
	.cfi_return_column t0
	/*
	 * The site's ops, from its literal (asm/ftrace.h): one load. A
	 * site that only this ops wants runs its fast path (ftrace_fast.S),
	 * with t1 = the ops, however many other ops are registered.
	 * ftrace_list_ops has none.
	 */
	ld	t1, FTRACE_OPS_LITERAL_T0(t0)
	ld	t2, FTRACE_OPS_FAST_PATH(t1)
	beqz	t2, ftrace_caller_full
	jr	t2
	/* The fast paths (ftrace_fast.S) come back here for the rest. */
	.globl ftrace_caller_full
ftrace_caller_full:
	addi	sp, sp, -FTRACE_FRAME_SIZE
	.cfi_def_cfa_offset FTRACE_FRAME_SIZE
	SAVE_ARGS FTRACE_FRAME_ARGS
	SAVE_FRAME_RECORDS
	.cfi_rel_offset s0, FTRACE_FRAME_S0
	.cfi_rel_offset ra, FTRACE_FRAME_RA
	.cfi_rel_offset t0, FTRACE_FRAME_T0
	PREEMPT_DISABLE
	addi	a0, t0, -MCOUNT_INSN_SIZE	/* ip: the site */
	mv	a1, ra				/* parent_ip */
	/*
	 * The site's own ops: its func, called directly. A site several
	 * ops want: ftrace_call, which the three steps of
	 * ftrace_modify_all_code point at the list function.
	 */
	ld	a2, FTRACE_OPS_LITERAL_T0(t0)
	lla	t1, ftrace_list_ops
	beq	a2, t1, 3f
	ld	t1, FTRACE_OPS_FUNC(a2)
	li	a3, 0
	jalr	t1
	j	4f
3:	FTRACE_CALL_SLOT
4:	FTRACE_GRAPH_CALL_SLOT
	PREEMPT_ENABLE
	RESTORE_ARGS FTRACE_FRAME_ARGS
	ld	ra, FTRACE_FRAME_RA(sp)
	ld	t0, FTRACE_FRAME_T0(sp)
	ld	s0, FTRACE_FRAME_S0(sp)
	addi	sp, sp, FTRACE_FRAME_SIZE
	.cfi_def_cfa_offset 0
	.cfi_restore s0
	.cfi_restore ra
	.cfi_restore t0
	jr	t0
	.cfi_endproc

/*
 * ftrace_regs_caller: the same, with every register in a pt_regs at
 * sp + FTRACE_FRAME_REGS (epc = the resume pc). A callback may change
 * regs->epc to send the call elsewhere (IPMODIFY, livepatch) or the
 * argument registers.
 */
	.globl ftrace_regs_caller
	.balign 4
ftrace_regs_caller:
	addi	sp, sp, -FTRACE_REGS_FRAME_SIZE
	sd	x1, FTRACE_FRAME_REGS + PT_RA(sp)
	sd	x3, FTRACE_FRAME_REGS + PT_GP(sp)
	sd	x4, FTRACE_FRAME_REGS + PT_TP(sp)
	sd	x5, FTRACE_FRAME_REGS + PT_EPC(sp)
	sd	x5, FTRACE_FRAME_REGS + PT_T0(sp)
	save_from_x6_to_x31 FTRACE_FRAME_REGS
	addi	a0, sp, FTRACE_REGS_FRAME_SIZE
	sd	a0, FTRACE_FRAME_REGS + PT_SP(sp)
	sd	zero, FTRACE_FRAME_REGS + PT_STATUS(sp)
	sd	zero, FTRACE_FRAME_REGS + PT_BADADDR(sp)
	sd	zero, FTRACE_FRAME_REGS + PT_CAUSE(sp)
	SAVE_FRAME_RECORDS
	PREEMPT_DISABLE
	addi	a0, t0, -MCOUNT_INSN_SIZE
	mv	a1, ra
	la	a2, function_trace_op
	ld	a2, 0(a2)
	addi	a3, sp, FTRACE_FRAME_REGS
	.globl ftrace_regs_call
ftrace_regs_call:
	jal	ra, ftrace_stub
	.globl ftrace_graph_regs_call
ftrace_graph_regs_call:
	nop
	PREEMPT_ENABLE
	ld	x1, FTRACE_FRAME_REGS + PT_RA(sp)
	ld	x5, FTRACE_FRAME_REGS + PT_EPC(sp)
	restore_from_x6_to_x31 FTRACE_FRAME_REGS
	addi	sp, sp, FTRACE_REGS_FRAME_SIZE
	jr	t0

/*
 * ftrace_graph_caller: called from ftrace_graph_call once function_graph
 * is on. prepare_ftrace_return(parent, self_addr, frame_pointer, retp):
 * parent points at the saved ra that ftrace_caller will restore, so
 * swapping it for return_to_handler hijacks the traced function's
 * return; frame_pointer is the caller's s0 (checked again at return);
 * retp is where the traced function's prologue will store ra (its
 * CFA - 8), which is what a backtrace later reads. A tail call: sp is
 * still ftrace_caller's, and prepare_ftrace_return returns straight to
 * it, its own frame record chained to ftrace_caller's.
 */
	.globl ftrace_graph_caller
	.balign 4
ftrace_graph_caller:
	addi	a0, sp, FTRACE_FRAME_RA
	ld	a1, FTRACE_FRAME_T0(sp)
	addi	a1, a1, -MCOUNT_INSN_SIZE
	ld	a2, FTRACE_FRAME_S0(sp)
	addi	a3, sp, FTRACE_FRAME_SIZE + FRAME_SAVED_RA
	tail	prepare_ftrace_return

	.globl ftrace_graph_regs_caller
	.balign 4
ftrace_graph_regs_caller:
	addi	a0, sp, FTRACE_FRAME_REGS + PT_RA
	ld	a1, FTRACE_FRAME_T0(sp)
	addi	a1, a1, -MCOUNT_INSN_SIZE
	ld	a2, FTRACE_FRAME_S0(sp)
	addi	a3, sp, FTRACE_REGS_FRAME_SIZE + FRAME_SAVED_RA
	tail	prepare_ftrace_return
