/*
 * printk.c: kernel messages. Each line gets Linux's "[    s.uuuuuu] "
 * time prefix, goes into the dmesg ring, and reaches the console if its
 * level is below console_loglevel. Also panic and frame-pointer
 * backtraces, which must work from any context, so nothing here is traced.
 */
#include "kernel.h"
#include "printk.h"
#include "string.h"
#include "sched.h"
#include "time.h"
#include "kallsyms.h"
#include "mm.h"
#include "asm/csr.h"

#define LOG_SIZE	(64 * 1024)

int console_loglevel = 7;
static char log_buf[LOG_SIZE] __noinit;	/* read below log_len only */
static size_t log_len;		/* total bytes ever written */
static DEFINE_SPINLOCK(log_lock);

static void log_store(const char *s, size_t n)
{
	unsigned long flags = spin_lock_irqsave(&log_lock);

	while (n--)
		log_buf[log_len++ % LOG_SIZE] = *s++;
	spin_unlock_irqrestore(&log_lock, flags);
}

/* Copy the dmesg ring from byte pos on; returns bytes copied. */
size_t dmesg_read(char *buf, size_t size, size_t pos)
{
	size_t start = log_len > LOG_SIZE ? log_len - LOG_SIZE : 0;
	size_t n = 0;

	for (pos += start; pos < log_len && n < size; pos++)
		buf[n++] = log_buf[pos % LOG_SIZE];
	return n;
}

static int parse_level(const char **fmt)
{
	const char *f = *fmt;

	if (f[0] == '<' && f[1] >= '0' && f[1] <= '7' && f[2] == '>') {
		*fmt = f + 3;
		return f[1] - '0';
	}
	return 6;
}

int printk(const char *fmt, ...)
{
	char buf[512];
	int level = parse_level(&fmt);
	u64 ns = ktime_get_ns();
	size_t n;
	va_list ap;

	n = scnprintf(buf, sizeof(buf), "[%5llu.%06llu] ", ns / 1000000000ULL,
		      (ns / 1000) % 1000000);
	va_start(ap, fmt);
	n += vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	va_end(ap);
	n = min(n, sizeof(buf) - 1);
	log_store(buf, n);
	if (level < console_loglevel)
		console_write(buf, n);
	return (int)n;
}

/*
 * A return address names the call before it: look up ra - 1, so a call
 * that is a function's last instruction (to a noreturn function) is not
 * taken for the start of the next one (Linux's %pB).
 */
static void print_return_address(unsigned long ra)
{
	unsigned long size, off;
	const char *name = kallsyms_lookup(ra - 1, &size, &off);

	if (name)
		console_printf("[<%016lx>] %s+0x%lx/0x%lx\n", ra, name, off + 1,
			       size);
	else
		console_printf("[<%016lx>] 0x%lx\n", ra, ra);
}

static unwind_ret_fn frame_ret;

void unwind_register_frame_ret(unwind_ret_fn fn)
{
	WRITE_ONCE(frame_ret, fn);
}

/* The saved ra, unless a tracer registered how to see through its hooks. */
unsigned long unwind_frame_ret(unsigned long fp, unsigned long **next_retp)
{
	unwind_ret_fn fn = READ_ONCE(frame_ret);

	return fn ? fn(fp, next_retp) : ((unsigned long *)fp)[-1];
}

/*
 * Walk s0 frame records: ra at fp-8, the caller's fp at fp-16; the
 * real caller where function_graph hooked the return.
 */
void dump_backtrace(unsigned long fp, unsigned long pc)
{
	unsigned long *next_retp = NULL;
	int depth;

	console_printf("Call Trace:\n");
	console_printf("[<%016lx>] %pS\n", pc, (void *)pc);
	for (depth = 0; depth < 32 && fp; depth++) {
		unsigned long ra, next;

		if (fp & 7 || !kernel_stack_addr(fp - 16))
			break;
		ra = unwind_frame_ret(fp, &next_retp);
		next = ((unsigned long *)fp)[-2];
		print_return_address(ra);
		if (next <= fp)
			break;
		fp = next;
	}
}

void dump_stack(void)
{
	dump_backtrace((unsigned long)__builtin_frame_address(0),
		       (unsigned long)dump_stack);
}

__noreturn void panic(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	local_irq_disable();
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	console_printf("Kernel panic - not syncing: %s\n", buf);
	dump_stack();
	machine_poweroff(1);
}
