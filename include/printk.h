/*
 * printk.h: kernel messages (kernel/printk.c) and the console
 * (kernel/uart.c). Levels follow Linux: "<3>" error ... "<7>" debug.
 */
#ifndef _PRINTK_H
#define _PRINTK_H

#include "kernel.h"
#include "printf.h"

struct task;

#define KERN_EMERG	"<0>"
#define KERN_ALERT	"<1>"
#define KERN_CRIT	"<2>"
#define KERN_ERR	"<3>"
#define KERN_WARNING	"<4>"
#define KERN_NOTICE	"<5>"
#define KERN_INFO	"<6>"
#define KERN_DEBUG	"<7>"

extern int console_loglevel;

int printk(const char *fmt, ...) __printf(1, 2);
#define pr_err(...)	printk(KERN_ERR __VA_ARGS__)
#define pr_warn(...)	printk(KERN_WARNING __VA_ARGS__)
#define pr_info(...)	printk(KERN_INFO __VA_ARGS__)
#define pr_debug(...)	printk(KERN_DEBUG __VA_ARGS__)
size_t dmesg_read(char *buf, size_t size, size_t pos);

/* The console: ns16550a UART, polled output, interrupt-driven input. */
void uart_init(unsigned long base);
void uart_enable_rx_irq(void);
void uart_handle_irq(void);
void console_putc(char c);
void console_write(const char *s, size_t n);
void console_puts(const char *s);
int console_printf(const char *fmt, ...) __printf(1, 2);
int console_getc(void);		/* sleeps until a byte arrives */
int console_trygetc(void);	/* -EAGAIN if no byte is there */
void console_set_owner(struct task *t);
void console_lock(void);
void console_unlock(void);
void early_putc(char c);

__noreturn void panic(const char *fmt, ...) __printf(1, 2);
__noreturn void machine_poweroff(int code);
void dump_stack(void);
void dump_backtrace(unsigned long fp, unsigned long pc);

/*
 * One step of a frame-pointer unwind: the return address of the frame
 * record at fp. function_graph swaps return addresses for its
 * return_to_handler, so it registers how to find the real one (Linux's
 * unwinder calls ftrace_graph_ret_addr; here the core calls no tracer
 * by name). *next_retp carries the hook's state from one step to the
 * next: start it at NULL.
 */
typedef unsigned long (*unwind_ret_fn)(unsigned long fp,
				       unsigned long **next_retp);
void unwind_register_frame_ret(unwind_ret_fn fn);
unsigned long unwind_frame_ret(unsigned long fp, unsigned long **next_retp);

#define BUG_ON(c) do {							\
	if (unlikely(c))						\
		panic("BUG at %s:%d: %s", __FILE__, __LINE__, #c);	\
} while (0)
#define WARN_ON(c) ({							\
	bool __w = !!(c);						\
	if (unlikely(__w))						\
		printk(KERN_WARNING "WARNING at %s:%d: %s\n",		\
		       __FILE__, __LINE__, #c);				\
	__w; })

#endif
