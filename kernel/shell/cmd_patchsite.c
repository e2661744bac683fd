/*
 * cmd_patchsite.c: live views of what dynamic ftrace patched. `patchsite
 * FUNC` shows a function's site (bytes, disassembly, the veneer a far
 * site calls, record flags and refcount, the ops that want it); `patchsite ftrace_call` (or
 * ftrace_regs_call, ftrace_graph_call, ftrace_graph_regs_call) shows
 * what a trampoline calls now; `patchsite sched_switch` (any
 * tracepoint) shows the static key's sites, c.nop or c.j. `ftrace_debug on` logs every
 * instruction the patcher writes, with its stop_machine round or, in
 * live mode, its step.
 */
#include "kernel.h"
#include "string.h"
#include "shell.h"
#include "ftrace.h"
#include "kallsyms.h"
#include "printk.h"
#include "stop_machine.h"
#include "trace_clock.h"
#include "time.h"
#include "asm/insn.h"
#include "printf.h"
#include "tracepoint.h"

#if DYNAMIC_FTRACE
static const struct {
	const char *name;
	char *addr;
} trampoline_slots[] = {
	{ "ftrace_call", ftrace_call },
	{ "ftrace_graph_call", ftrace_graph_call },
#ifdef HAVE_DYNAMIC_FTRACE_WITH_REGS
	{ "ftrace_regs_call", ftrace_regs_call },
	{ "ftrace_graph_regs_call", ftrace_graph_regs_call },
#endif
};

static void show_insn(struct shell_out *out, unsigned long ip);

/* ftrace_call and the others: the calls the patcher rewrites. */
static bool show_trampoline_slot(struct shell_out *out, const char *name)
{
	unsigned long addr;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(trampoline_slots); i++) {
		if (strcmp(name, trampoline_slots[i].name))
			continue;
		addr = (unsigned long)trampoline_slots[i].addr;
		sh_printf(out, "%s: %#lx (%pS)\n", name, addr, (void *)addr);
		show_insn(out, addr);
		return true;
	}
	return false;
}
#else
/* FTRACE=static has no slot to patch: _mcount reads what to call. */
static bool show_trampoline_slot(struct shell_out *out, const char *name)
{
	return false;
}
#endif

/*
 * A far site's veneer (asm/ftrace_veneer.h): where it is, its two
 * instructions, and the trampoline they jump to.
 */
static void show_veneer(struct shell_out *out, unsigned long veneer)
{
	char auipc[64], jr[64];

	riscv_disasm((const void *)veneer, veneer, auipc, sizeof(auipc));
	riscv_disasm((const void *)(veneer + 4), veneer + 4, jr, sizeof(jr));
	sh_printf(out, "  veneer: %#lx (%pS): %s; %s <%ps>\n", veneer,
		  (void *)veneer, auipc, jr, (void *)ftrace_veneer_target(veneer));
}

/* One instruction: its bytes, its text, and where a jal goes. */
static void show_insn(struct shell_out *out, unsigned long ip)
{
	const u8 *b = (const u8 *)ip;
	u32 insn = riscv_insn_read(ip);
	unsigned long to = riscv_insn_jal_target(ip, insn);
	char text[64];

	riscv_disasm(b, ip, text, sizeof(text));
	sh_printf(out, "  bytes:  %02x %02x %02x %02x\n", b[0], b[1], b[2],
		  b[3]);
	sh_printf(out, "  insn:   %s", text);
	if (riscv_insn_is_jal(insn))
		sh_printf(out, " <%ps>", (void *)to);
	sh_puts(out, "\n");
	if (riscv_insn_is_jal(insn) && ftrace_veneer_target(to))
		show_veneer(out, to);
}

static void show_rec_flags(struct shell_out *out, struct dyn_ftrace *rec)
{
	static const struct {
		unsigned long flag;
		const char *name;
	} names[] = {
		{ FTRACE_FL_ENABLED, " enabled" },
		{ FTRACE_FL_REGS, " regs" },
		{ FTRACE_FL_REGS_EN, " regs-en" },
		{ FTRACE_FL_IPMODIFY, " ipmodify" },
		{ FTRACE_FL_DISABLED, " disabled(failed-verify)" },
		{ FTRACE_FL_CALL_OPS_EN, " call-ops" },
	};
	size_t i;

	sh_printf(out, "  record: refcount %lu flags %#lx", ftrace_rec_count(rec),
		  rec->flags & ~FTRACE_REF_MAX);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (rec->flags & names[i].flag)
			sh_puts(out, names[i].name);
	sh_puts(out, "\n");
}

static int show_site(struct shell_out *out, const char *name,
		     unsigned long addr)
{
	struct dyn_ftrace *rec = ftrace_lookup_ip(ftrace_location(addr));
	char ops[128];

	if (!rec) {
		sh_err("patchsite: %s: not a traceable function\n", name);
		return 1;
	}
	sh_printf(out, "%s: site %#lx (%pS)\n", name, rec->ip, (void *)rec->ip);
	show_insn(out, rec->ip);
	show_rec_flags(out, rec);
	ftrace_rec_ops_names(rec, ops, sizeof(ops));
	sh_printf(out, "  ops:    %s\n", ops[0] ? ops : "-");
	return 0;
}

/* A static key's site: one halfword, c.nop off, c.j to the probes on. */
static void show_jump_site(struct shell_out *out, const struct jump_entry *e)
{
	const u8 *b = (const u8 *)e->code;
	char text[64];

	riscv_disasm(b, e->code, text, sizeof(text));
	sh_printf(out, "  site:   %#lx (%pS)\n", e->code, (void *)e->code);
	sh_printf(out, "  bytes:  %02x %02x\n", b[0], b[1]);
	sh_printf(out, "  insn:   %s", text);
	if (b[0] != (RISCV_INSN_C_NOP & 0xff) || b[1])
		sh_printf(out, " <%pS>", (void *)e->target);
	sh_puts(out, "\n");
}

static int nr_probes(const struct tracepoint *tp)
{
	const struct tracepoint_func *f = READ_ONCE(tp->funcs);
	int n = 0;

	while (f && f[n].func)
		n++;
	return n;
}

static void show_tracepoint(struct shell_out *out, struct tracepoint *tp)
{
	const struct jump_entry *e = NULL;

	sh_printf(out, "%s: tracepoint, key %s, %d probe%s\n", tp->name,
		  static_key_enabled(&tp->key) ? "enabled" : "disabled",
		  nr_probes(tp), nr_probes(tp) == 1 ? "" : "s");
	while ((e = jump_label_find(&tp->key, e)))
		show_jump_site(out, e);
}

static int cmd_patchsite(struct shell_out *out, int argc, char **argv)
{
	struct tracepoint *tp;
	unsigned long addr;

	if (argc != 2) {
		sh_err("usage: patchsite FUNCTION | TRACEPOINT | ftrace_call | "
		       "ftrace_graph_call\n");
		return 2;
	}
	if (show_trampoline_slot(out, argv[1]))
		return 0;
	tp = tracepoint_find(argv[1]);
	if (tp) {
		show_tracepoint(out, tp);
		return 0;
	}
	addr = kallsyms_lookup_name(argv[1]);
	if (!addr) {
		sh_err("patchsite: %s: no such function\n", argv[1]);
		return 1;
	}
	return show_site(out, argv[1], addr);
}
SHELL_COMMAND("patchsite", cmd_patchsite,
	      "show a function's ftrace site, a tracepoint's, or a trampoline's call");

/* An instruction's text, with the function a jal goes to. */
static void insn_text(u32 insn, unsigned long ip, char *buf, size_t size)
{
	int n = riscv_disasm(&insn, ip, buf, size) ? (int)strlen(buf) : 0;

	if (riscv_insn_is_jal(insn))
		scnprintf(buf + n, size - n, " <%ps>",
			  (void *)riscv_insn_jal_target(ip, insn));
}

/*
 * Runs inside stop_machine, or a live step with preemption off: the
 * console is polled, so it can print. A live step's time is the trace
 * clock's, to set against the other harts' events in the trace.
 */
static void log_patch(unsigned long ip, u32 old, u32 new)
{
	u64 ns = trace_clock_ticks_to_ns(trace_clock_local_ticks());
	char a[96], b[96];

	insn_text(old, ip, a, sizeof(a));
	insn_text(new, ip, b, sizeof(b));
	if (ftrace_patch_live())
		console_printf("ftrace_debug: %llu.%06llu live step %lu cpu %d "
			       "%pS: %08x %s -> %08x %s\n", ns / NSEC_PER_SEC,
			       ns % NSEC_PER_SEC / 1000, ftrace_live_steps(),
			       smp_processor_id(), (void *)ip, old, a, new, b);
	else
		console_printf("ftrace_debug: round %lu %pS: %08x %s -> %08x "
			       "%s\n", stop_machine_rounds() + 1, (void *)ip,
			       old, a, new, b);
}

static int cmd_ftrace_debug(struct shell_out *out, int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "on")) {
		ftrace_patch_hook = log_patch;
	} else if (argc == 2 && !strcmp(argv[1], "off")) {
		ftrace_patch_hook = NULL;
	} else if (argc == 1) {
		sh_printf(out, "%s\n", ftrace_patch_hook ? "on" : "off");
	} else {
		sh_err("usage: ftrace_debug [on|off]\n");
		return 2;
	}
	return 0;
}
SHELL_COMMAND("ftrace_debug", cmd_ftrace_debug,
	      "log every instruction the ftrace patcher writes");
