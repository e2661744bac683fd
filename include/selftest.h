/*
 * selftest.h: in-kernel test suites, printed as KTAP (the format of
 * Linux's KUnit). A suite is a table of cases placed in the .selftests
 * section; kernel/selftest.c runs them from the `selftest` shell
 * command or from `-append selftest`.
 */
#ifndef _SELFTEST_H
#define _SELFTEST_H

#include "kernel.h"

struct kunit {
	const char *name;
	int failed;
	bool skipped;
	const char *skip_reason;
};

struct kunit_case {
	const char *name;
	void (*run)(struct kunit *t);
};

/*
 * init, if any, runs before each case (KUnit's suite->init) and may
 * KUNIT_SKIP it: a suite that needs some state says so once.
 */
struct kunit_suite {
	const char *name;
	const struct kunit_case *cases;
	unsigned long ncases;
	void (*init)(struct kunit *t);
};

#define KUNIT_CASE(fn) { #fn, fn }

#define SELFTEST_SUITE_INIT(sname, init_fn, ...)			\
	static const struct kunit_case sname##_cases[] = { __VA_ARGS__ }; \
	static const struct kunit_suite sname##_suite			\
		__section(".selftests") __used __aligned(8) = {	\
		#sname, sname##_cases, ARRAY_SIZE(sname##_cases), init_fn }

#define SELFTEST_SUITE(sname, ...) SELFTEST_SUITE_INIT(sname, NULL, __VA_ARGS__)

void kunit_fail(struct kunit *t, const char *file, int line,
		const char *fmt, ...) __printf(4, 5);

#define KUNIT_EXPECT_TRUE(t, c) do {					\
	if (!(c))							\
		kunit_fail(t, __FILE__, __LINE__, "expected %s", #c);	\
} while (0)

#define KUNIT_EXPECT_EQ(t, a, b) do {					\
	long long _a = (long long)(a), _b = (long long)(b);		\
	if (_a != _b)							\
		kunit_fail(t, __FILE__, __LINE__,			\
			   "%s == %lld, expected %lld", #a, _a, _b);	\
} while (0)

#define KUNIT_EXPECT_NE(t, a, b) do {					\
	long long _a = (long long)(a), _b = (long long)(b);		\
	if (_a == _b)							\
		kunit_fail(t, __FILE__, __LINE__,			\
			   "%s == %lld, expected otherwise", #a, _a);	\
} while (0)

#define KUNIT_EXPECT_STREQ(t, a, b) do {				\
	const char *_a = (a), *_b = (b);				\
	if (strcmp(_a, _b))						\
		kunit_fail(t, __FILE__, __LINE__,			\
			   "%s == \"%s\", expected \"%s\"", #a, _a, _b); \
} while (0)

/* Skip the rest of the case; `why` is printed after `# SKIP`. */
#define KUNIT_SKIP(t, why) do {						\
	(t)->skipped = true;						\
	(t)->skip_reason = (why);					\
	return;								\
} while (0)

/*
 * selftest_busy_until_irqs (trace/irqs_selftest.c) calls
 * ftrace_test_target1 on one CPU until nr_irqs interrupts have come,
 * and says how many came, how much count(cpu) grew meanwhile, and how
 * many calls it made: a tracer that loses no interrupt records each.
 */
struct irq_window {
	unsigned long irqs;
	unsigned long counted;
	unsigned long calls;
};

void selftest_busy_until_irqs(unsigned long nr_irqs,
			      unsigned long (*count)(int cpu),
			      struct irq_window *w);

/*
 * Tests of kernel messages: how many times s appears in the kernel log,
 * and a spin until it appears more than `seen` times (false if it has
 * not within timeout_ns).
 */
unsigned int kunit_dmesg_count(const char *s);
bool kunit_dmesg_wait(const char *s, unsigned int seen, u64 timeout_ns);

int selftest_run(const char *filter);
void selftest_set_bytes_in_use(size_t (*fn)(void));
/*
 * fn runs before each run of the selftests: the VFS fills what it
 * makes on first use (kernel/fs/vfs.c), which a case would count as
 * its leak.
 */
void selftest_set_prepare(void (*fn)(void));
/*
 * Make what is made on first use (the lazy tracefs directories) now, so
 * that a count of bytes in use taken after it sees no first use as a
 * leak: the selftests, and `stress`.
 */
void selftest_prepare(void);
const char *selftest_unknown(const char *filter, char *buf, size_t size);

#endif
