/*
 * awk_test.c: lib/awk.c in the kernel, where a program's nesting
 * becomes recursion on a kernel thread's stack: for each way of
 * nesting (parentheses, operator chains, unary operators, if, blocks),
 * the deepest program awk_parse accepts must parse and run within a
 * budget of the stack, and the next deeper one be refused. Also a
 * small program's output, through the kernel's own formatting.
 */
#include "kernel.h"
#include "selftest.h"
#include "awk.h"
#include "sched.h"
#include "mm.h"
#include "asm/csr.h"
#include "string.h"

#define PAINT		0xa5
/* the shell, the command and an interrupt need the rest */
#define STACK_BUDGET	(THREAD_SIZE * 3 / 8)
#define PROGRAM_MAX	2048

static char output[256];

static void collect(void *ctx, const char *text, size_t len)
{
	strlcat(output, text, sizeof(output));
}

static bool never(void)
{
	return false;
}

/* Parse and run program on one line: 0, or -EINVAL if it was refused. */
static int run(const char *program, const char *line)
{
	const char *error;
	struct awk *a;
	int err;

	output[0] = 0;
	a = awk_parse(program, " ", collect, NULL, never, &error);
	if (!a)
		return -EINVAL;
	err = awk_begin(a);
	if (!err)
		err = awk_line(a, line, strlen(line));
	if (!err)
		err = awk_end(a);
	awk_free(a);
	return err;
}

static void prints(struct kunit *t)
{
	KUNIT_EXPECT_EQ(t, run("{ n += $2 } END { printf \"%s %d %5s|\\n\", $1, n * 3, \"x\" }",
			       "fib 14"), 0);
	KUNIT_EXPECT_STREQ(t, output, "fib 42     x|\n");
	KUNIT_EXPECT_EQ(t, run("$NF ~ /^<-fib$/ { print NR, NF }",
			       "fib-29 [000] 1.0: fib <-fib"), 0);
	KUNIT_EXPECT_STREQ(t, output, "1 5\n");
}

static void paint_stack(u8 *frame)
{
	u8 *low = (u8 *)current->stack + 64;

	memset(low, PAINT, frame - 512 - low);
}

static size_t stack_used(u8 *frame)
{
	u8 *p = (u8 *)current->stack + 64;

	while (*p == PAINT)
		p++;
	return frame - p;
}

/* head, then middle n times, then "1", then tail n times, then end. */
static void build(char *buf, int n, const char *head, const char *middle,
		  const char *tail, const char *end)
{
	int i;

	strlcpy(buf, head, PROGRAM_MAX);
	for (i = 0; i < n; i++)
		strlcat(buf, middle, PROGRAM_MAX);
	strlcat(buf, "1", PROGRAM_MAX);
	for (i = 0; i < n; i++)
		strlcat(buf, tail, PROGRAM_MAX);
	strlcat(buf, end, PROGRAM_MAX);
}

/* Nest deeper until refused; the deepest accepted within the budget. */
static void check_nesting(struct kunit *t, const char *head,
			  const char *middle, const char *tail, const char *end)
{
	u8 *frame = __builtin_frame_address(0);
	char *program = kmalloc(PROGRAM_MAX);
	unsigned long flags;
	size_t used;
	int n, err;

	KUNIT_EXPECT_TRUE(t, program != NULL);
	if (!program)
		return;
	for (n = 1; n < 200; n++) {
		build(program, n, head, middle, tail, end);
		/* no interrupt frame on the stack while it is measured */
		flags = local_irq_save();
		paint_stack(frame);
		err = run(program, "x");
		used = stack_used(frame);
		local_irq_restore(flags);
		if (err == -EINVAL)
			break;
		KUNIT_EXPECT_TRUE(t, used < STACK_BUDGET);
	}
	KUNIT_EXPECT_TRUE(t, n > 3 && n < 200);
	kfree(program);
}

static void nesting_fits_the_stack(struct kunit *t)
{
	check_nesting(t, "BEGIN { print ", "(", ")", " }");
	check_nesting(t, "BEGIN { print ", "", "+1", " }");
	check_nesting(t, "BEGIN { print ", "!", "", " }");
	check_nesting(t, "BEGIN { x ", "= x ", "", " }");
	check_nesting(t, "BEGIN { ", "if (1) ", "", " }");
	check_nesting(t, "BEGIN ", "{ ", " }", "");
	check_nesting(t, "BEGIN { print ", "$", "", " }");
}

/* Whatever a program is, parsing and running it leave no memory behind. */
static void no_leaks(struct kunit *t)
{
	size_t before = kmalloc_bytes_in_use();

	run("{ a = $1 $1; b = a; a = \"\"; print b } END { print a, NR }", "xy");
	run("{ print 1/0 }", "x");
	run("{ print \"unterminated }", "x");
	run("{ x = ; }", "x");
	KUNIT_EXPECT_EQ(t, kmalloc_bytes_in_use(), before);
}

SELFTEST_SUITE(awk,
	KUNIT_CASE(prints),
	KUNIT_CASE(nesting_fits_the_stack),
	KUNIT_CASE(no_leaks));
