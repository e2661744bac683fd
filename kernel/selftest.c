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

static bool suite_selected(const struct kunit_suite *s, const char *filter)
{
	return !filter || !*filter || !strcmp(filter, s->name);
}

static int count_selected(const char *filter)
{
	const struct kunit_suite *s;
	int n = 0;

	for (s = __start_selftests; s < __stop_selftests; s++)
		n += suite_selected(s, filter);
	return n;
}

/* Run one case; a case that leaks memory fails (usertests' leak check). */
static void run_case(const struct kunit_case *c, int num, struct totals *st)
{
	struct kunit t = { .name = c->name };
	long before = mm_bytes_in_use();

	c->run(&t);
	if (!t.skipped && (long)mm_bytes_in_use() > before)
		kunit_fail(&t, __FILE__, __LINE__, "leaked %ld bytes",
			   (long)mm_bytes_in_use() - before);
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
		run_case(&s->cases[i], (int)i + 1, &st);
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

	console_printf("KTAP version 1\n1..%d\n", count_selected(filter));
	for (s = __start_selftests; s < __stop_selftests; s++)
		if (suite_selected(s, filter))
			run_suite(s, ++num, &all);
	console_printf("# Totals: pass:%d fail:%d skip:%d total:%d\n",
		       all.pass, all.fail, all.skip,
		       all.pass + all.fail + all.skip);
	return all.fail;
}
