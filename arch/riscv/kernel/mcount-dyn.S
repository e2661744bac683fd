/*
 * mcount-dyn.S: the trampolines of dynamic ftrace (seed 004):
 * ftrace_caller with its patchable ftrace_call and ftrace_graph_call,
 * ftrace_regs_caller (full pt_regs, for SAVE_REGS and IPMODIFY ops),
 * ftrace_stub, and function_graph's ftrace_graph_caller and
 * return_to_handler. ftrace_caller and return_to_handler first look for
 * a fast path (ftrace_fast.S), which does one tracer's work with
 * nothing saved. The -pg build (FTRACE=mcount) has its own
 * ftrace_caller for -pg's calling convention, no regs variant, no
 * fast paths, and _mcount; its block below compares the two schemes.
 *
 * FTRACE=patchable: sites reach them with `jal t0, ftrace_caller`:
 * t0 = the site + 4 (where to resume), ra = the traced function's own
 * return address (its prologue has not run yet), a0-a7 its arguments.
 *
 * ftrace_caller's frame (FTRACE_FRAME_SIZE = 96), two frame records so
 * a backtrace from a callback shows the traced function and its caller:
 *
 *   sp+88 .. sp+32   a7 .. a0        the traced function's arguments
 *   sp+24            ra              parent's return (graph hijacks it)
 *   sp+16            s0 (caller's)   \ record 1, fp1 = sp+32
 *   sp+8             t0 (resume pc)  \ record 2, fp2 = sp+16 = s0
 *   sp+0             fp1             /
 *
 * Cost with the stub installed: 52 instructions, all of them here, 4 of
 * them the look for a fast path; with an empty C callback (6
 * instructions) in the stub's place: bench: stub_insns_per_call 57
 */
#include "asm/ptrace.h"
#include "asm/ftrace.h"
#include "asm/asm-offsets.h"

	.section .text.ftrace, "ax"
	/*
	 * No compressed instructions: every patchable slot (ftrace_call,
	 * ftrace_graph_call, ...) must be one 4-byte, 4-aligned instruction.
	 */
	.option norvc

/*
 * The trampoline and its callback run with preemption disabled, as
 * Linux's do: the function_trace_op loaded here must still match the
 * function ftrace_call calls, and stop_machine (which patches both) can
 * then never run while a task is in between. Also what lets
 * unregister_ftrace_function wait for every CPU to leave a callback.
 * t1 and t2 are free: caller-saved and dead at a function's entry.
 */
	.macro PREEMPT_DISABLE
	ld	t1, CPU_CURR(tp)
	lw	t2, TASK_PREEMPT_COUNT(t1)
	addi	t2, t2, 1
	sw	t2, TASK_PREEMPT_COUNT(t1)
	.endm

	/* Re-enable; reschedule if that was asked for meanwhile. */
	.macro PREEMPT_ENABLE
	ld	t1, CPU_CURR(tp)
	lw	t2, TASK_PREEMPT_COUNT(t1)
	addi	t2, t2, -1
	sw	t2, TASK_PREEMPT_COUNT(t1)
	bnez	t2, 1f
	lbu	t2, CPU_NEED_RESCHED(tp)
	beqz	t2, 1f
	call	preempt_schedule_notrace
1:
	.endm

	.globl ftrace_stub
	.balign 4
ftrace_stub:
	ret

/*
 * fgraph's ops' function (trace/fgraph.c): a stub of its own, so that
 * registering that ops alone changes what ftrace_call calls, and so
 * function_trace_op, which ftrace_caller's fast path follows.
 */
	.globl ftrace_graph_stub
	.balign 4
ftrace_graph_stub:
	ret

#ifdef FTRACE_MODE_mcount
/*
 * FTRACE=mcount: the classic -pg scheme, against the patchable one.
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
 *   bench: stub_insns_per_call 57
 *   bench: mcount_stub_insns_per_call 33
 *   bench: function_insns_per_call 69.61
 *   bench: mcount_function_insns_per_call 107.27
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
	.globl _mcount
	.balign 4
/* What every site calls until ftrace_init turns it into a nop. */
_mcount:
	ret

	.globl ftrace_caller
	.balign 4
ftrace_caller:
	addi	sp, sp, -FTRACE_FRAME_SIZE
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, FTRACE_FRAME_SIZE
	PREEMPT_DISABLE
	mv	a1, a0				/* parent_ip */
	addi	a0, ra, -MCOUNT_INSN_SIZE	/* ip: the site */
	la	a2, function_trace_op
	ld	a2, 0(a2)
	li	a3, 0				/* no pt_regs */
	.globl ftrace_call
ftrace_call:
	jal	ra, ftrace_stub
	.globl ftrace_graph_call
ftrace_graph_call:
	nop
	PREEMPT_ENABLE
	ld	ra, 8(sp)
	ld	s0, 0(sp)
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
	ld	t1, -16(s0)		/* the traced function's s0 */
	ld	a1, -8(s0)		/* the site + 4 */
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	addi	a0, t1, -8
	addi	a1, a1, -MCOUNT_INSN_SIZE
	ld	a2, -16(t1)
	mv	a3, a0
	call	prepare_ftrace_return
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret

#else /* FTRACE=patchable (or none) */

	.macro SAVE_ARGS base
	sd	a0, \base+0(sp)
	sd	a1, \base+8(sp)
	sd	a2, \base+16(sp)
	sd	a3, \base+24(sp)
	sd	a4, \base+32(sp)
	sd	a5, \base+40(sp)
	sd	a6, \base+48(sp)
	sd	a7, \base+56(sp)
	.endm

	.macro RESTORE_ARGS base
	ld	a0, \base+0(sp)
	ld	a1, \base+8(sp)
	ld	a2, \base+16(sp)
	ld	a3, \base+24(sp)
	ld	a4, \base+32(sp)
	ld	a5, \base+40(sp)
	ld	a6, \base+48(sp)
	ld	a7, \base+56(sp)
	.endm

	.globl ftrace_caller
	.balign 4
ftrace_caller:
	/*
	 * One ops with a fast path, and ftrace_call calling its func (not
	 * ftrace_ops_list_func, which function_trace_op can outlive): run
	 * the fast path (ftrace_fast.S), with t1 = the ops.
	 */
	ld	t1, function_trace_op
	ld	t2, FTRACE_OPS_FAST_PATH(t1)
	beqz	t2, ftrace_caller_full
	ld	t3, FTRACE_OPS_FUNC(t1)
	ld	t4, saved_ftrace_func
	bne	t3, t4, ftrace_caller_full
	jr	t2
	/* The fast paths (ftrace_fast.S) come back here for the rest. */
	.globl ftrace_caller_full
ftrace_caller_full:
	addi	sp, sp, -FTRACE_FRAME_SIZE
	sd	s0, 16(sp)
	sd	ra, 24(sp)
	sd	t0, 8(sp)
	SAVE_ARGS 32
	addi	s0, sp, 32
	sd	s0, 0(sp)
	addi	s0, sp, 16
	PREEMPT_DISABLE
	addi	a0, t0, -MCOUNT_INSN_SIZE	/* ip: the site */
	mv	a1, ra				/* parent_ip */
	la	a2, function_trace_op
	ld	a2, 0(a2)
	li	a3, 0				/* no pt_regs */
	.globl ftrace_call
ftrace_call:
	jal	ra, ftrace_stub
	.globl ftrace_graph_call
ftrace_graph_call:
	nop
	PREEMPT_ENABLE
	RESTORE_ARGS 32
	ld	ra, 24(sp)
	ld	t0, 8(sp)
	ld	s0, 16(sp)
	addi	sp, sp, FTRACE_FRAME_SIZE
	jr	t0

/*
 * ftrace_regs_caller: the same, with every register in a pt_regs at
 * sp+32 (epc = the resume pc). A callback may change regs->epc to send
 * the call elsewhere (IPMODIFY, livepatch) or the argument registers.
 */
	.globl ftrace_regs_caller
	.balign 4
ftrace_regs_caller:
	addi	sp, sp, -FTRACE_REGS_FRAME_SIZE
	sd	x1, 32+PT_RA(sp)
	sd	x3, 32+24(sp)
	sd	x4, 32+32(sp)
	sd	x5, 32+PT_EPC(sp)
	sd	x5, 32+40(sp)
	sd	x6, 32+48(sp)
	sd	x7, 32+56(sp)
	sd	x8, 32+64(sp)
	sd	x9, 32+72(sp)
	sd	x10, 32+80(sp)
	sd	x11, 32+88(sp)
	sd	x12, 32+96(sp)
	sd	x13, 32+104(sp)
	sd	x14, 32+112(sp)
	sd	x15, 32+120(sp)
	sd	x16, 32+128(sp)
	sd	x17, 32+136(sp)
	sd	x18, 32+144(sp)
	sd	x19, 32+152(sp)
	sd	x20, 32+160(sp)
	sd	x21, 32+168(sp)
	sd	x22, 32+176(sp)
	sd	x23, 32+184(sp)
	sd	x24, 32+192(sp)
	sd	x25, 32+200(sp)
	sd	x26, 32+208(sp)
	sd	x27, 32+216(sp)
	sd	x28, 32+224(sp)
	sd	x29, 32+232(sp)
	sd	x30, 32+240(sp)
	sd	x31, 32+248(sp)
	addi	a0, sp, FTRACE_REGS_FRAME_SIZE
	sd	a0, 32+PT_SP(sp)
	sd	zero, 32+PT_STATUS(sp)
	sd	zero, 32+PT_BADADDR(sp)
	sd	zero, 32+PT_CAUSE(sp)
	sd	s0, 16(sp)
	sd	ra, 24(sp)
	sd	t0, 8(sp)
	addi	s0, sp, 32
	sd	s0, 0(sp)
	addi	s0, sp, 16
	PREEMPT_DISABLE
	addi	a0, t0, -MCOUNT_INSN_SIZE
	mv	a1, ra
	la	a2, function_trace_op
	ld	a2, 0(a2)
	addi	a3, sp, 32
	.globl ftrace_regs_call
ftrace_regs_call:
	jal	ra, ftrace_stub
	.globl ftrace_graph_regs_call
ftrace_graph_regs_call:
	nop
	PREEMPT_ENABLE
	ld	x1, 32+PT_RA(sp)
	ld	x5, 32+PT_EPC(sp)
	ld	x6, 32+48(sp)
	ld	x7, 32+56(sp)
	ld	x8, 32+64(sp)
	ld	x9, 32+72(sp)
	ld	x10, 32+80(sp)
	ld	x11, 32+88(sp)
	ld	x12, 32+96(sp)
	ld	x13, 32+104(sp)
	ld	x14, 32+112(sp)
	ld	x15, 32+120(sp)
	ld	x16, 32+128(sp)
	ld	x17, 32+136(sp)
	ld	x18, 32+144(sp)
	ld	x19, 32+152(sp)
	ld	x20, 32+160(sp)
	ld	x21, 32+168(sp)
	ld	x22, 32+176(sp)
	ld	x23, 32+184(sp)
	ld	x24, 32+192(sp)
	ld	x25, 32+200(sp)
	ld	x26, 32+208(sp)
	ld	x27, 32+216(sp)
	ld	x28, 32+224(sp)
	ld	x29, 32+232(sp)
	ld	x30, 32+240(sp)
	ld	x31, 32+248(sp)
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
	addi	a0, sp, 24
	ld	a1, 8(sp)
	addi	a1, a1, -MCOUNT_INSN_SIZE
	ld	a2, 16(sp)
	addi	a3, sp, FTRACE_FRAME_SIZE-8
	tail	prepare_ftrace_return

	.globl ftrace_graph_regs_caller
	.balign 4
ftrace_graph_regs_caller:
	addi	a0, sp, 32+PT_RA
	ld	a1, 8(sp)
	addi	a1, a1, -MCOUNT_INSN_SIZE
	ld	a2, 16(sp)
	addi	a3, sp, FTRACE_REGS_FRAME_SIZE-8
	tail	prepare_ftrace_return

#endif

/*
 * return_to_handler: where a hooked function returns. Keep the return
 * values, ask ftrace_return_to_handler(frame_pointer) for the real
 * return address, and go there. s0 is the caller's frame pointer again,
 * the value ftrace_graph_caller passed at entry.
 */
	.globl return_to_handler
	.balign 4
return_to_handler:
	/* The graph user's fast path, if it has one (ftrace_fast.S). */
	ld	t1, fgraph_fast_return
	beqz	t1, return_to_handler_full
	jr	t1
	.globl return_to_handler_full
return_to_handler_full:
	addi	sp, sp, -16
	sd	a0, 0(sp)
	sd	a1, 8(sp)
	mv	a0, s0
	call	ftrace_return_to_handler
	mv	ra, a0
	ld	a0, 0(sp)
	ld	a1, 8(sp)
	addi	sp, sp, 16
	jr	ra
