/*
 * fdt_test.c: selftests of what the device tree told the kernel at boot
 * (boot_info): it must agree with the CPUs and memory actually in use.
 * tests/host/test_fdt.c covers the parser itself against damaged blobs.
 */
#include "kernel.h"
#include "selftest.h"
#include "fdt.h"
#include "mm.h"
#include "smp.h"
#include "string.h"

static void every_hart_is_a_cpu(struct kunit *t)
{
	int i, cpu, found;

	KUNIT_EXPECT_EQ(t, boot_info.nr_harts, nr_cpus);
	for (i = 0; i < boot_info.nr_harts; i++) {
		found = 0;
		for_each_online_cpu(cpu)
			found += cpus[cpu].hartid == boot_info.hartids[i];
		KUNIT_EXPECT_EQ(t, found, 1);
	}
}

/* The page allocator manages exactly the RAM after the kernel image. */
static void memory_matches_allocator(struct kunit *t)
{
	u64 ram_end = boot_info.mem_base + boot_info.mem_size;
	u64 first_page = ALIGN_UP((u64)(unsigned long)_end, PAGE_SIZE);

	KUNIT_EXPECT_TRUE(t, boot_info.mem_size >= (16ULL << 20));
	KUNIT_EXPECT_EQ(t, boot_info.mem_size % (1ULL << 20), 0);
	KUNIT_EXPECT_TRUE(t, boot_info.mem_base <= (unsigned long)_text);
	KUNIT_EXPECT_TRUE(t, first_page < ram_end);
	KUNIT_EXPECT_EQ(t, nr_total_pages(),
			(ram_end - first_page) / PAGE_SIZE);
}

static void devices_found(struct kunit *t)
{
	KUNIT_EXPECT_NE(t, boot_info.timebase, 0);
	KUNIT_EXPECT_NE(t, boot_info.uart_base, 0);
	KUNIT_EXPECT_NE(t, boot_info.uart_irq, 0);
	KUNIT_EXPECT_NE(t, boot_info.plic_base, 0);
	KUNIT_EXPECT_NE(t, boot_info.test_base, 0);
}

/* cmdline_has matches whole words, or a word's name before its '='. */
static void cmdline_words(struct kunit *t)
{
	char saved[BOOTARGS_MAX];

	strlcpy(saved, boot_info.bootargs, sizeof(saved));
	strlcpy(boot_info.bootargs, " selftest  ftrace=function x",
		sizeof(boot_info.bootargs));
	KUNIT_EXPECT_TRUE(t, cmdline_has("selftest"));
	KUNIT_EXPECT_TRUE(t, cmdline_has("ftrace"));
	KUNIT_EXPECT_TRUE(t, cmdline_has("x"));
	KUNIT_EXPECT_TRUE(t, !cmdline_has("self"));
	KUNIT_EXPECT_TRUE(t, !cmdline_has("function"));
	strlcpy(boot_info.bootargs, saved, sizeof(boot_info.bootargs));
}

/* cmdline_value gives a word's value, cut to the buffer, or "". */
static void cmdline_values(struct kunit *t)
{
	char saved[BOOTARGS_MAX], v[8];

	strlcpy(saved, boot_info.bootargs, sizeof(saved));
	strlcpy(boot_info.bootargs, "selftest=ftrace,fgraph x verylong=abcdefghij",
		sizeof(boot_info.bootargs));
	KUNIT_EXPECT_TRUE(t, cmdline_value("x", v, sizeof(v)));
	KUNIT_EXPECT_STREQ(t, v, "");
	KUNIT_EXPECT_TRUE(t, cmdline_value("verylong", v, sizeof(v)));
	KUNIT_EXPECT_STREQ(t, v, "abcdefg");
	KUNIT_EXPECT_TRUE(t, !cmdline_value("self", v, sizeof(v)));
	KUNIT_EXPECT_TRUE(t, cmdline_value("selftest", v, sizeof(v)));
	KUNIT_EXPECT_STREQ(t, v, "ftrace,");
	strlcpy(boot_info.bootargs, saved, sizeof(boot_info.bootargs));
}

SELFTEST_SUITE(fdt,
	KUNIT_CASE(every_hart_is_a_cpu),
	KUNIT_CASE(memory_matches_allocator),
	KUNIT_CASE(devices_found),
	KUNIT_CASE(cmdline_words),
	KUNIT_CASE(cmdline_values));
