/*
 * workloads.c: what `run` starts: fib, deep, sort, crc32, pingpong,
 * irqsoff_demo, wakeup_demo, and klpdemo from kernel/demo/klp_demo.c. Each is traced like any kernel
 * code and each step is a real function (noinline, and noclone so that
 * GCC's .isra/.constprop copies do not rename it), so the tracer sees
 * every call. Long loops poll current->sigpending, so Ctrl-C stops
 * them.
 */
#include "kernel.h"
#include "workloads.h"
#include "shell.h"
#include "sched.h"
#include "spinlock.h"
#include "kstrtox.h"
#include "mm.h"
#include "string.h"

#define __workload	noinline __attribute__((noclone))

#define FIB_DEFAULT	10
#define FIB_MAX		30
#define DEEP_DEFAULT	60
#define DEEP_MAX	200		/* 32 bytes of stack a level */
#define SORT_DEFAULT	1000
#define SORT_MAX	1000000
#define SORT_SEED	2463534242U
#define CRC32_DEFAULT	64		/* KiB */
#define CRC32_MAX	16384
#define CRC32_POLY	0xedb88320U	/* IEEE 802.3, bit-reversed */
#define PINGPONG_DEFAULT 1000
#define PINGPONG_MAX	10000000

static bool interrupted(void)
{
	return READ_ONCE(current->sigpending);
}

int workload_count_arg(int argc, char **argv, unsigned long def,
		       unsigned long min, unsigned long max, unsigned long *val)
{
	*val = def;
	if (argc > 2) {
		sh_err("run: %s: too many arguments\n", argv[0]);
		return 1;
	}
	if (argc == 2 && kstrtoul(argv[1], 10, val)) {
		sh_err("run: %s: invalid number '%s'\n", argv[0], argv[1]);
		return 1;
	}
	if (*val < min || *val > max) {
		sh_err("run: %s: %lu is out of range (%lu to %lu)\n", argv[0],
		       *val, min, max);
		return 1;
	}
	return 0;
}

unsigned long fib_calls;

/*
 * Naive on purpose: fib(n) makes 2 * fib(n + 1) - 1 calls, 177 for
 * fib(10). Counting after the calls keeps them out of tail position, so
 * GCC cannot turn the recursion into a loop.
 */
__workload unsigned long fib(unsigned long n)
{
	unsigned long r = n;

	if (n >= 2 && !interrupted())
		r = fib(n - 1) + fib(n - 2);
	fib_calls++;
	return r;
}

/*
 * One call a level, n levels below the first: deeper than
 * function_graph's ret_stack (50), it shows funcgraph-overrun. The
 * empty asm on the result keeps GCC from turning the recursion into a
 * loop.
 */
static __workload unsigned long deep(unsigned long n)
{
	unsigned long r = n ? deep(n - 1) + 1 : 0;

	__asm__("" : "+r"(r));
	return r;
}

static int deep_main(struct shell_out *out, int argc, char **argv)
{
	unsigned long n;
	int err = workload_count_arg(argc, argv, DEEP_DEFAULT, 0, DEEP_MAX,
				     &n);

	if (err)
		return err;
	sh_printf(out, "deep(%lu) = %lu\n", n, deep(n));
	return 0;
}

static int fib_main(struct shell_out *out, int argc, char **argv)
{
	unsigned long n, r;
	int err = workload_count_arg(argc, argv, FIB_DEFAULT, 0, FIB_MAX, &n);

	if (err)
		return err;
	fib_calls = 0;
	r = fib(n);
	if (interrupted())
		return -EINTR;
	sh_printf(out, "fib(%lu) = %lu\n", n, r);
	return 0;
}

/* xorshift32: the same numbers every run, so runs compare. */
__workload void fill_random(u32 *v, size_t n, u32 seed)
{
	u32 x = seed ? seed : 1;
	size_t i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		v[i] = x;
	}
}

/* Let v[root] sink until the heap v[0..n) holds again. */
static __workload void sift_down(u32 *v, size_t root, size_t n)
{
	size_t child;
	u32 tmp;

	for (; (child = 2 * root + 1) < n; root = child) {
		if (child + 1 < n && v[child + 1] > v[child])
			child++;
		if (v[root] >= v[child])
			return;
		tmp = v[root];
		v[root] = v[child];
		v[child] = tmp;
	}
}

/* Heap sort, ascending; -EINTR if Ctrl-C stopped it. */
__workload int sort(u32 *v, size_t n)
{
	size_t i;
	u32 tmp;

	for (i = n / 2; i-- > 0;)
		sift_down(v, i, n);
	for (i = n; i-- > 1;) {
		if (interrupted())
			return -EINTR;
		tmp = v[0];
		v[0] = v[i];
		v[i] = tmp;
		sift_down(v, 0, i);
	}
	return 0;
}

__workload bool is_sorted(const u32 *v, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i - 1] > v[i])
			return false;
	return true;
}

static int sort_main(struct shell_out *out, int argc, char **argv)
{
	unsigned long n;
	u32 *v;
	int err = workload_count_arg(argc, argv, SORT_DEFAULT, 1, SORT_MAX, &n);

	if (err)
		return err;
	v = kmalloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	fill_random(v, n, SORT_SEED);
	err = sort(v, n);
	if (!err && !is_sorted(v, n)) {
		sh_err("run: sort: the result is not sorted\n");
		err = 1;
	}
	if (!err)
		sh_printf(out, "sort: %lu numbers sorted, from %u to %u\n", n,
			  v[0], v[n - 1]);
	kfree(v);
	return err;
}

static u32 crc32_table[256];

static __workload void crc32_make_table(void)
{
	u32 c;
	int i, bit;

	for (i = 0; i < 256; i++) {
		for (c = i, bit = 0; bit < 8; bit++)
			c = c & 1 ? (c >> 1) ^ CRC32_POLY : c >> 1;
		crc32_table[i] = c;
	}
}

/*
 * CRC-32 as zlib's crc32(): crc is the CRC of what came before (0 at
 * the start), so a buffer may go in pieces. Building the table twice
 * at once is harmless: both write the same values.
 */
__workload u32 crc32_le(u32 crc, const u8 *buf, size_t len)
{
	if (!crc32_table[1])
		crc32_make_table();
	crc = ~crc;
	while (len--)
		crc = crc32_table[(crc ^ *buf++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

__workload void crc32_fill_pattern(u8 *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (u8)(i ^ (i >> 8));
}

static int crc32_main(struct shell_out *out, int argc, char **argv)
{
	unsigned long kib, i;
	u32 crc = 0;
	u8 *buf;
	int err = workload_count_arg(argc, argv, CRC32_DEFAULT, 1, CRC32_MAX, &kib);

	if (err)
		return err;
	buf = kmalloc(kib * 1024);
	if (!buf)
		return -ENOMEM;
	crc32_fill_pattern(buf, kib * 1024);
	for (i = 0; i < kib && !interrupted(); i++)
		crc = crc32_le(crc, buf + i * 1024, 1024);
	kfree(buf);
	if (interrupted())
		return -EINTR;
	sh_printf(out, "crc32 of %lu KiB: 0x%08x\n", kib, crc);
	return 0;
}

/*
 * pingpong: two threads on two CPUs hand a turn back and forth through
 * sleep_on and wake_up, so a trace shows wakeups crossing CPUs.
 */
struct pingpong {
	spinlock_t lock;
	unsigned long rounds, done;	/* round trips asked for, made */
	bool pong_turn;
	bool stop;
	struct task *runner;		/* the owner of Ctrl-C */
	int cpu[2];			/* where ping [0] and pong [1] ran */
};

static bool game_over(struct pingpong *pp)
{
	return pp->done == pp->rounds || READ_ONCE(pp->runner->sigpending);
}

static __workload void pass_turn(struct pingpong *pp, bool is_pong)
{
	if (is_pong)
		pp->done++;
	pp->pong_turn = !is_pong;
	wake_up(pp);
}

/*
 * Wait for this player's turn and play it; false once the game is over.
 * The lock is dropped every round, so interrupts (Ctrl-C, the tick) get
 * in even when both players share one CPU.
 */
static bool take_turn(struct pingpong *pp, bool is_pong)
{
	unsigned long flags = spin_lock_irqsave(&pp->lock);
	bool playing;

	while (pp->pong_turn != is_pong && !pp->stop)
		sleep_on(pp, &pp->lock);
	if (!is_pong && !pp->stop && game_over(pp))
		pp->stop = true;
	playing = !pp->stop;
	if (playing)
		pass_turn(pp, is_pong);
	spin_unlock_irqrestore(&pp->lock, flags);
	return playing;
}

static void play(struct pingpong *pp, bool is_pong)
{
	pp->cpu[is_pong] = smp_processor_id();
	while (take_turn(pp, is_pong))
		;
	wake_up(pp);		/* the other player may wait for a turn */
}

static __workload void ping(void *arg)
{
	play(arg, false);
}

static __workload void pong(void *arg)
{
	play(arg, true);
}

/* The first two online CPUs; both 0 when it is the only one. */
static void pick_cpus(int cpu[2])
{
	int i;

	cpu[0] = cpu[1] = 0;
	for_each_online_cpu(i) {
		if (i != cpu[0]) {
			cpu[1] = i;
			break;
		}
	}
}

static int play_game(struct pingpong *pp, const int cpu[2])
{
	struct task *p1 = kthread_create_on_cpu(ping, pp, "ping", cpu[0]);
	struct task *p2 = kthread_create_on_cpu(pong, pp, "pong", cpu[1]);

	if (!p1 || !p2)
		pp->stop = true;	/* the one created exits at once */
	if (p1)
		kthread_start(p1);
	if (p2)
		kthread_start(p2);
	if (p1)
		kthread_wait(p1);
	if (p2)
		kthread_wait(p2);
	return p1 && p2 ? 0 : -ENOMEM;
}

static int pingpong_main(struct shell_out *out, int argc, char **argv)
{
	struct pingpong pp = { .lock = SPIN_LOCK_UNLOCKED, .runner = current };
	int cpu[2], err;

	err = workload_count_arg(argc, argv, PINGPONG_DEFAULT, 1, PINGPONG_MAX,
			&pp.rounds);
	if (err)
		return err;
	pick_cpus(cpu);
	err = play_game(&pp, cpu);
	if (err)
		return err;
	sh_printf(out, "ping on cpu %d, pong on cpu %d%s: %lu round trips\n",
		  pp.cpu[0], pp.cpu[1], cpu[0] == cpu[1] ? " (one CPU)" : "",
		  pp.done);
	return interrupted() ? -EINTR : 0;
}

#define IRQSOFF_DEFAULT	2000		/* us */
#define IRQSOFF_MAX	100000

/*
 * Spin until the time CSR, which the `local` trace clock reads, has
 * advanced by ticks: a known length by the latency tracers' clock.
 */
static __workload void irqsoff_spin_until(u64 end)
{
	while ((s64)(rdtime() - end) < 0)
		cpu_relax();
}

/*
 * Two calls deep, so that the display-graph option has a call with a
 * call inside to draw ({ and }).
 */
static __workload void irqsoff_spin(u64 ticks)
{
	irqsoff_spin_until(rdtime() + ticks);
}

/*
 * Interrupts off for US microseconds by the trace clock: what the
 * irqsoff tracer must find and report (tests/console/test_latency.py).
 */
static int irqsoff_demo_main(struct shell_out *out, int argc, char **argv)
{
	unsigned long us, flags;
	int err;

	err = workload_count_arg(argc, argv, IRQSOFF_DEFAULT, 1, IRQSOFF_MAX,
				 &us);
	if (err)
		return err;
	flags = local_irq_save();
	irqsoff_spin((u64)us * timebase_freq / 1000000);
	local_irq_restore(flags);
	sh_printf(out, "interrupts off for %lu us\n", us);
	return 0;
}

#define WAKEUP_DEFAULT	20		/* sleeps */
#define WAKEUP_MAX	10000

/*
 * Sleep a tick and wake, ROUNDS times, with a little work between: each
 * wake-up is one the wakeup tracers time, from the tick that wakes the
 * task to the switch that runs it (tests/console/test_wakeup.py; run it
 * under `nice -n -5` or `chrt -f 10`).
 */
static int wakeup_demo_main(struct shell_out *out, int argc, char **argv)
{
	unsigned long rounds, i;
	int err;

	err = workload_count_arg(argc, argv, WAKEUP_DEFAULT, 1, WAKEUP_MAX,
				 &rounds);
	if (err)
		return err;
	for (i = 0; i < rounds && !interrupted(); i++) {
		fib(5);
		msleep(1);
	}
	sh_printf(out, "slept and woke %lu times\n", i);
	return interrupted() ? -EINTR : 0;
}

WORKLOAD("fib", "[N]: naive recursive Fibonacci (N: 0 to 30, default 10)",
	 fib_main);
WORKLOAD("deep",
	 "[N]: a function that calls itself N deep (up to 200, default 60)",
	 deep_main);
WORKLOAD("sort",
	 "[N]: heap sort N random numbers (up to 1000000, default 1000)",
	 sort_main);
WORKLOAD("crc32",
	 "[KIB]: CRC-32 of a KIB KiB buffer (up to 16384, default 64)",
	 crc32_main);
WORKLOAD("pingpong",
	 "[ROUNDS]: two threads on two CPUs wake each other (default 1000)",
	 pingpong_main);
WORKLOAD("klpdemo",
	 "[ROUNDS]: call a livepatched function on every CPU while the patch flips (default 10)",
	 klpdemo_main);
WORKLOAD("irqsoff_demo",
	 "[US]: interrupts off for US microseconds (up to 100000, default 2000)",
	 irqsoff_demo_main);
WORKLOAD("wakeup_demo",
	 "[ROUNDS]: sleep a tick and wake ROUNDS times (up to 10000, default 20)",
	 wakeup_demo_main);
