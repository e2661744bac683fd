/*
 * regex_test.c: lib/regex.c in the kernel, where it differs from the
 * host build that tests/host/test_regex.c checks: the C library's
 * character classes are the kernel's own (include/ctype.h), memory is
 * kmalloc's, and a kernel thread has THREAD_SIZE of stack, which the
 * deepest pattern and the longest line must leave mostly unused.
 */
#include "kernel.h"
#include "selftest.h"
#include "regex.h"
#include "sched.h"
#include "mm.h"
#include "asm/csr.h"
#include "string.h"

#define PAINT		0xa5
/* the shell, the command and an interrupt need the rest */
#define STACK_BUDGET	(THREAD_SIZE * 3 / 8)

static int match(const char *pat, int flags, const char *text,
		 struct regex_match *m)
{
	struct regex re;
	int err = regex_compile(&re, pat, flags);

	if (err)
		return -err;
	err = regex_exec(&re, text, strlen(text), 2, m, 0);
	regex_free(&re);
	return err;
}

static void classes_and_case(struct kunit *t)
{
	struct regex_match m[2];

	/* BRE's + is itself; ERE's repeats */
	KUNIT_EXPECT_EQ(t, match("[[:alpha:]_][[:alnum:]_]*+0x", 0,
				 "  do_fork+0x1c/0x40", m), 0);
	KUNIT_EXPECT_EQ(t, m[0].start, 2);
	KUNIT_EXPECT_EQ(t, m[0].end, 12);
	KUNIT_EXPECT_EQ(t, match("[[:alpha:]_][[:alnum:]_]*+0x", REGEX_EXTENDED,
				 "  do_fork+0x1c/0x40", m), REGEX_NOMATCH);
	KUNIT_EXPECT_EQ(t, match("[[:space:]][[:digit:]]+\\.[[:digit:]]{6}:",
				 REGEX_EXTENDED, "  [000] ..... 12.345678: fib",
				 m), 0);
	KUNIT_EXPECT_EQ(t, m[0].start, 13);
	KUNIT_EXPECT_EQ(t, match("FIB <-\\(fib_main\\)", REGEX_ICASE,
				 "fib <-fib_main", m), 0);
	KUNIT_EXPECT_EQ(t, m[1].start, 6);
	KUNIT_EXPECT_EQ(t, match("[[:upper:]]", 0, "abc", m), REGEX_NOMATCH);
}

/*
 * Paint the unused stack below the caller's frame (leaving room for
 * this call), to see afterwards how deep the calls in between went.
 */
static u8 *paint_stack(u8 *frame)
{
	u8 *low = (u8 *)current->stack + 64;

	memset(low, PAINT, frame - 512 - low);
	return low;
}

/* How far below frame the painted stack was written. */
static size_t stack_used(u8 *frame, u8 *painted)
{
	while (*painted == PAINT)
		painted++;
	return frame - painted;
}

/*
 * The deepest nesting allowed, matched on a line longer than the
 * whole stack: the recursion is the pattern's, never the text's.
 */
static void stack_stays_small(struct kunit *t)
{
	/* 8 groups and 8 stars: as deep as NEST_MAX allows */
	static const char deep[] = "((((((((a*)*)*)*)*)*)*)*)b";
	size_t len = 3 * THREAD_SIZE;
	char *line = kmalloc(len + 2);
	struct regex_match m[2];
	u8 *frame = __builtin_frame_address(0), *painted;
	unsigned long flags;
	size_t used;
	int err;

	KUNIT_EXPECT_TRUE(t, line != NULL);
	if (!line)
		return;
	memset(line, 'a', len);
	line[len] = 'b';
	line[len + 1] = 0;
	/* no interrupt frame on the stack while it is measured */
	flags = local_irq_save();
	painted = paint_stack(frame);
	err = match(deep, REGEX_EXTENDED, line, m);
	used = stack_used(frame, painted);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(t, err, 0);
	KUNIT_EXPECT_EQ(t, m[0].end, (int)len + 1);
	KUNIT_EXPECT_EQ(t, match("(((((((((a*)*)*)*)*)*)*)*)*)b", REGEX_EXTENDED,
				 line, m), -REGEX_ESPACE);
	KUNIT_EXPECT_EQ(t, match("\\(a\\|b\\)*b$", 0, line, m), 0);
	KUNIT_EXPECT_TRUE(t, used < STACK_BUDGET);
	kfree(line);
}

/* Whatever a pattern is, compiling it and matching leave no memory behind. */
static void no_leaks(struct kunit *t)
{
	size_t before = kmalloc_bytes_in_use();
	struct regex_match m[2];

	match("\\(a*\\)*b\\1", 0, "aab", m);
	match("[[:nope:]]", 0, "a", m);
	match("(((((((((((((((((((a)))))))))))))))))))", REGEX_EXTENDED, "a", m);
	match("x{1,300}", REGEX_EXTENDED, "xxxx", m);
	KUNIT_EXPECT_EQ(t, kmalloc_bytes_in_use(), before);
}

SELFTEST_SUITE(regex,
	KUNIT_CASE(classes_and_case),
	KUNIT_CASE(stack_stays_small),
	KUNIT_CASE(no_leaks));
