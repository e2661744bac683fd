/*
 * selftest.c: the in-kernel test runner. Suites live in the .selftests
 * section (include/selftest.h); their results print as KTAP, one
 * subtest block per suite, as Linux's KUnit does. Not traced: tracer
 * tests count calls and must not count the runner's own.
 */
#include "kernel.h"
#include "selftest.h"
#include "printk.h"
#include "string.h"
#include "mm.h"
#include "time.h"
#include "fdt.h"
#include "init.h"
#include "smp.h"

extern const struct kunit_suite __start_selftests[], __stop_selftests[];

struct totals {
	int pass, fail, skip;
};

void kunit_fail(struct kunit *t, const char *file, int line,
		const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	console_printf("    # %s: %s:%d: %s\n", t->name, file, line, msg);
	t->failed++;
}

/*
 * Read in chunks that overlap by strlen(s) - 1 bytes: a match is
 * counted in the chunk it starts in, and never twice.
 */
unsigned int kunit_dmesg_count(const char *s)
{
	char buf[512];
	size_t len = strlen(s), pos = 0, n;
	unsigned int count = 0;
	const char *p;

	while ((n = dmesg_read(buf, sizeof(buf) - 1, pos)) >= len) {
		buf[n] = '\0';
		for (p = buf; (p = strstr(p, s)); p++)
			count++;
		if (n < sizeof(buf) - 1)
			break;
		pos += n - len + 1;
	}
	return count;
}

bool kunit_dmesg_wait(const char *s, unsigned int seen, u64 timeout_ns)
{
	u64 end = ktime_get_ns() + timeout_ns;

	while (kunit_dmesg_count(s) <= seen)
		if (ktime_get_ns() > end)
			return false;
	return true;
}

/* Is name one of filter's comma-separated words? */
static bool in_list(const char *filter, const char *name)
{
	size_t n = strlen(name);

	for (; *filter; filter++) {
		if (!strncmp(filter, name, n) &&
		    (filter[n] == ',' || filter[n] == 0))
			return true;
		while (*filter && *filter != ',')
			filter++;
		if (!*filter)
			break;
	}
	return false;
}

/* filter: NULL or "" for every suite, else a comma-separated list. */
static bool suite_selected(const struct kunit_suite *s, const char *filter)
{
	return !filter || !*filter || in_list(filter, s->name);
}

/* The first word of filter that names no suite, copied to buf, or NULL. */
const char *selftest_unknown(const char *filter, char *buf, size_t size)
{
	const struct kunit_suite *s;
	size_t n;

	for (; filter && *filter; filter += n + (filter[n] == ',')) {
		for (n = 0; filter[n] && filter[n] != ','; n++)
			;
		strlcpy(buf, filter, min(n + 1, size));
		for (s = __start_selftests; s < __stop_selftests; s++)
			if (!strcmp(s->name, buf))
				break;
		if (s == __stop_selftests)
			return buf;
	}
	return NULL;
}

static int count_selected(const char *filter)
{
	const struct kunit_suite *s;
	int n = 0;

	for (s = __start_selftests; s < __stop_selftests; s++)
		n += suite_selected(s, filter);
	return n;
}

/*
 * What a case's leak check compares. fgraph discounts the ret_stacks
 * tasks hold (trace/fgraph.c, mm_bytes_less_ret_stacks): a task asleep
 * under a hooked frame gives its own back only when it wakes.
 */
static size_t (*bytes_in_use)(void) = mm_bytes_in_use;

void selftest_set_bytes_in_use(size_t (*fn)(void))
{
	bytes_in_use = fn;
}

static void (*prepare)(void);

void selftest_set_prepare(void (*fn)(void))
{
	prepare = fn;
}

void selftest_prepare(void)
{
	if (prepare)
		prepare();
}

/* Run one case; a case that leaks memory fails (usertests' leak check). */
static void run_case(const struct kunit_suite *s, unsigned long i,
		     struct totals *st)
{
	const struct kunit_case *c = &s->cases[i];
	int num = (int)i + 1;
	struct kunit t = { .name = c->name };
	long before = bytes_in_use();
	long leaked;

	if (s->init)
		s->init(&t);
	if (!t.skipped)
		c->run(&t);
	leaked = t.skipped ? 0 : (long)bytes_in_use() - before;
	if (leaked > 0)
		kunit_fail(&t, __FILE__, __LINE__, "leaked %ld bytes", leaked);
	if (t.skipped) {
		console_printf("    ok %d - %s # SKIP %s\n", num, c->name,
			       t.skip_reason);
		st->skip++;
	} else {
		console_printf("    %sok %d - %s\n", t.failed ? "not " : "",
			       num, c->name);
		if (t.failed)
			st->fail++;
		else
			st->pass++;
	}
}

static int run_suite(const struct kunit_suite *s, int num, struct totals *all)
{
	struct totals st = { 0, 0, 0 };
	unsigned long i;

	console_printf("    KTAP version 1\n    # Subtest: %s\n    1..%lu\n",
		       s->name, s->ncases);
	for (i = 0; i < s->ncases; i++)
		run_case(s, i, &st);
	console_printf("# %s: pass:%d fail:%d skip:%d total:%lu\n", s->name,
		       st.pass, st.fail, st.skip, s->ncases);
	console_printf("%sok %d - %s\n", st.fail ? "not " : "", num, s->name);
	all->pass += st.pass;
	all->fail += st.fail;
	all->skip += st.skip;
	return st.fail;
}

/* Run the suites named by filter (all if NULL); returns failed cases. */
int selftest_run(const char *filter)
{
	const struct kunit_suite *s;
	struct totals all = { 0, 0, 0 };
	int num = 0;

	selftest_prepare();
	console_printf("KTAP version 1\n1..%d\n", count_selected(filter));
	for (s = __start_selftests; s < __stop_selftests; s++)
		if (suite_selected(s, filter))
			run_suite(s, ++num, &all);
	console_printf("# Totals: pass:%d fail:%d skip:%d total:%d\n",
		       all.pass, all.fail, all.skip,
		       all.pass + all.fail + all.skip);
	return all.fail;
}

/* `-append selftest` runs every suite, `selftest=a,b` the suites named. */
static void selftest_thread(void *arg)
{
	char filter[BOOTARGS_MAX], name[32];

	cmdline_value("selftest", filter, sizeof(filter));
	if (selftest_unknown(filter, name, sizeof(name))) {
		printk("selftest: %s: no such suite\n", name);
		machine_poweroff(2);
	}
	machine_poweroff(selftest_run(filter) ? 1 : 0);
}
BOOT_PROGRAM("selftest", selftest_thread);
