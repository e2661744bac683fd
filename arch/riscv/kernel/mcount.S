/*
 * mcount.S: what both trampoline families share (as Linux's
 * arch/riscv/kernel/mcount.S holds ftrace_stub and return_to_handler
 * for every build): the stubs that ftrace_call calls when nothing is
 * traced, and return_to_handler, where a function that function_graph
 * hooked returns. The trampolines themselves are per build mode:
 * mcount-dyn.S (FTRACE=patchable, and none) or mcount-pg.S (-pg).
 */
#include "asm/asm.h"

	.section .text.ftrace, "ax"
	/*
	 * No compressed instructions: every patchable slot (ftrace_call,
	 * ftrace_graph_call, ...) must be one 4-byte, 4-aligned instruction.
	 */
	.option norvc

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

/* return_to_handler's frame: the traced function's return values. */
#define RET_FRAME_A0		0
#define RET_FRAME_A1		8
#define RET_FRAME_SIZE		16

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
	addi	sp, sp, -RET_FRAME_SIZE
	sd	a0, RET_FRAME_A0(sp)
	sd	a1, RET_FRAME_A1(sp)
	mv	a0, s0
	call	ftrace_return_to_handler
	mv	ra, a0
	ld	a0, RET_FRAME_A0(sp)
	ld	a1, RET_FRAME_A1(sp)
	addi	sp, sp, RET_FRAME_SIZE
	jr	ra
