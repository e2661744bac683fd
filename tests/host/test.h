/*
 * test.h: a tiny KTAP-printing harness for host unit tests.
 * Each TEST(id) becomes one `ok N - name` / `not ok N - name` line;
 * tests/run_all.py counts them. EXPECT_* report the failing line.
 */
#ifndef _HOST_TEST_H
#define _HOST_TEST_H

#include <stdio.h>
#include <string.h>

struct host_test {
	const char *name;
	void (*fn)(int *failed);
};

#define MAX_HOST_TESTS 256
static struct host_test host_tests[MAX_HOST_TESTS];
static int host_ntests;

#define TEST(id)							\
	static void test_##id(int *failed);				\
	__attribute__((constructor)) static void reg_##id(void)		\
	{								\
		host_tests[host_ntests].name = #id;			\
		host_tests[host_ntests++].fn = test_##id;		\
	}								\
	static void test_##id(int *failed)

#define EXPECT(cond) do {						\
	if (!(cond)) {							\
		printf("    # %s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
		*failed = 1;						\
	}								\
} while (0)

#define EXPECT_EQ(a, b) do {						\
	long long _a = (long long)(a), _b = (long long)(b);		\
	if (_a != _b) {							\
		printf("    # %s:%d: %s == %lld, expected %lld\n",	\
		       __FILE__, __LINE__, #a, _a, _b);			\
		*failed = 1;						\
	}								\
} while (0)

#define EXPECT_STR(a, b) do {						\
	const char *_a = (a), *_b = (b);				\
	if (strcmp(_a, _b)) {						\
		printf("    # %s:%d: %s == \"%s\", expected \"%s\"\n",	\
		       __FILE__, __LINE__, #a, _a, _b);			\
		*failed = 1;						\
	}								\
} while (0)

int main(void)
{
	int i, bad = 0;

	printf("KTAP version 1\n1..%d\n", host_ntests);
	for (i = 0; i < host_ntests; i++) {
		int failed = 0;

		host_tests[i].fn(&failed);
		printf("%sok %d - %s\n", failed ? "not " : "", i + 1,
		       host_tests[i].name);
		bad += failed;
	}
	return bad ? 1 : 0;
}

#endif
