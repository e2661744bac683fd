/*
 * uart.c: the ns16550a console. Output is polled (so an oops always gets
 * out); input arrives by the RX interrupt (through the PLIC) into a ring
 * that console_getc() sleeps on. Ctrl-C marks the console owner's process
 * group (kill_pgrp), as a tty signals its foreground process group.
 * A full ring throttles input, as a Linux tty does: the RX interrupt is
 * masked, so further bytes wait in the UART (and QEMU's stdin behind
 * it) until a reader makes room. None are dropped, and a Ctrl-C behind
 * them is seen when they are read.
 */
#include "kernel.h"
#include "printk.h"
#include "string.h"
#include "sched.h"
#include "spinlock.h"
#include "asm/csr.h"

#define UART_RBR	0	/* receive buffer */
#define UART_THR	0	/* transmit holding */
#define UART_IER	1	/* interrupt enable */
#define UART_FCR	2	/* FIFO control */
#define UART_LCR	3	/* line control */
#define UART_LSR	5	/* line status */
#define LSR_DR		0x01	/* data ready */
#define LSR_THRE	0x20	/* transmit holding empty */
#define IER_RDI		0x01	/* receive data interrupt */

#define RX_RING		4096	/* a tty's read buffer, N_TTY_BUF_SIZE */

static volatile u8 *uart;
static DEFINE_SPINLOCK(tx_lock);
static DEFINE_SPINLOCK(rx_lock);
static char rx_ring[RX_RING];
static unsigned int rx_head, rx_tail;
static bool rx_throttled;
static struct task *console_owner;
static int tx_owner = -1;
static int tx_depth;

void uart_init(unsigned long base)
{
	uart = (volatile u8 *)base;
	uart[UART_IER] = 0;
	uart[UART_FCR] = 0x07;	/* enable and clear FIFOs */
	uart[UART_LCR] = 0x03;	/* 8N1 */
}

void uart_enable_rx_irq(void)
{
	uart[UART_IER] = IER_RDI;
}

void early_putc(char c)
{
	while (!(uart[UART_LSR] & LSR_THRE))
		;
	uart[UART_THR] = c;
}

/*
 * One writer at a time, so lines from different CPUs do not interleave;
 * re-entrant on the same CPU (an oops inside console output still prints).
 */
void console_lock(void)
{
	unsigned long flags = local_irq_save();
	int cpu = smp_processor_id();

	if (tx_owner != cpu) {
		spin_lock(&tx_lock);
		tx_owner = cpu;
	}
	tx_depth++;
	local_irq_restore(flags);
}

void console_unlock(void)
{
	unsigned long flags = local_irq_save();

	if (--tx_depth == 0) {
		tx_owner = -1;
		spin_unlock(&tx_lock);
	}
	local_irq_restore(flags);
}

void console_putc(char c)
{
	if (c == '\n')
		early_putc('\r');
	early_putc(c);
}

void console_write(const char *s, size_t n)
{
	console_lock();
	while (n--)
		console_putc(*s++);
	console_unlock();
}

void console_puts(const char *s)
{
	console_write(s, strlen(s));
}

int console_printf(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	console_write(buf, min((size_t)n, sizeof(buf) - 1));
	return n;
}

void console_set_owner(struct task *t)
{
	console_owner = t;
}

static bool rx_full(void)
{
	return (rx_head + 1) % RX_RING == rx_tail;
}

static void rx_push(char c)
{
	if (c == 3 && console_owner) {
		if (console_owner->pgrp)
			kill_pgrp(console_owner->pgrp);
		else
			kill_pid(console_owner->pid);
	}
	rx_ring[rx_head] = c;
	rx_head = (rx_head + 1) % RX_RING;
}

/* Caller holds rx_lock. */
static int rx_pop(void)
{
	int c = (u8)rx_ring[rx_tail];

	rx_tail = (rx_tail + 1) % RX_RING;
	if (rx_throttled) {
		rx_throttled = false;
		uart[UART_IER] = IER_RDI;
	}
	return c;
}

void uart_handle_irq(void)
{
	spin_lock(&rx_lock);
	while (!rx_full() && (uart[UART_LSR] & LSR_DR))
		rx_push((char)uart[UART_RBR]);
	if (rx_full()) {
		rx_throttled = true;
		uart[UART_IER] = 0;
	}
	spin_unlock(&rx_lock);
	wake_up(rx_ring);
}

/* Next input byte, or -EAGAIN if none has arrived. */
int console_trygetc(void)
{
	unsigned long flags = spin_lock_irqsave(&rx_lock);
	int c = -EAGAIN;

	if (rx_head != rx_tail)
		c = rx_pop();
	spin_unlock_irqrestore(&rx_lock, flags);
	return c;
}

/* Next input byte, sleeping until one arrives. */
int console_getc(void)
{
	unsigned long flags = spin_lock_irqsave(&rx_lock);
	int c;

	while (rx_head == rx_tail)
		sleep_on(rx_ring, &rx_lock);
	c = rx_pop();
	spin_unlock_irqrestore(&rx_lock, flags);
	return c;
}
