/*
 * test_kallsyms.c: kernel/kallsyms.c over the table scripts/kallsyms.py
 * makes from tests/host/kallsyms.nm, a fake `nm -n -S` listing shaped
 * like the kernel's: assembly labels without sizes, aliases, weak and
 * duplicate names, linker.ld's markers, and symbols the table must drop.
 */
#include "test.h"
#include "kallsyms_table.c"
#include "../../kernel/kallsyms.c"

#define TEXT		0x80200000UL
#define HELPER		0x80200016UL	/* t, size 0x20 */
#define WEAK_FN		0x80200036UL	/* W, size 2, then 2 bytes of padding */
#define MAIN		0x8020003aUL	/* T, size 0x12 */
#define BOARD_HOOK	0x8020004cUL	/* T, size 0x10, W arch_hook */
#define TAIL_LABEL	0x8020006cUL	/* T, unsized, last in text */
#define ETEXT		0x80201000UL
#define MSG		0x80201000UL	/* R, size 6 */
#define COUNTER		0x80202000UL	/* D, size 4 */
#define BOOT_STACK	0x80202010UL	/* b, unsized, _bss's alias */
#define KALLSYMS	0x80204000UL

/* kallsyms_lookup's name, or "(null)", with offset and size. */
static const char *lookup(unsigned long addr, unsigned long *offset,
			  unsigned long *size)
{
	const char *name = kallsyms_lookup(addr, size, offset);

	return name ? name : "(null)";
}

TEST(table_keeps_code_and_data_in_the_image)
{
	EXPECT_EQ(kallsyms_num_syms, 26);
	EXPECT_EQ(kallsyms_base, TEXT);
	EXPECT_EQ(kallsyms_text_size, ETEXT - TEXT);
}

TEST(lookup_first_byte)
{
	unsigned long off = 1, size = 0;

	EXPECT_STR(lookup(HELPER, &off, &size), "helper");
	EXPECT_EQ(off, 0);
	EXPECT_EQ(size, 0x20);
}

TEST(lookup_last_byte)
{
	unsigned long off = 0, size = 0;

	EXPECT_STR(lookup(HELPER + 0x1f, &off, &size), "helper");
	EXPECT_EQ(off, 0x1f);
	EXPECT_EQ(size, 0x20);
}

TEST(lookup_one_past_is_the_next_symbol)
{
	unsigned long off = 1, size = 0;

	EXPECT_STR(lookup(HELPER + 0x20, &off, &size), "weak_fn");
	EXPECT_EQ(off, 0);
	EXPECT_EQ(size, MAIN - WEAK_FN);
}

/*
 * As Linux's kallsyms: code reaches up to the next symbol, so a return
 * address just past a noreturn call that ends a function (and the next
 * function's ops literal, in its padding) still names the function.
 */
TEST(padding_after_code_is_the_function_before)
{
	unsigned long off = 0, size = 0;

	EXPECT_STR(lookup(WEAK_FN + 2, &off, &size), "weak_fn");
	EXPECT_EQ(off, 2);
	EXPECT_EQ(size, 4);
}

TEST(padding_after_data_is_null)
{
	EXPECT(!kallsyms_lookup(MSG + 6, NULL, NULL));
	EXPECT(!kallsyms_lookup(COUNTER + 4, NULL, NULL));
}

TEST(lookup_outside_the_image_is_null)
{
	EXPECT(!kallsyms_lookup(0, NULL, NULL));
	EXPECT(!kallsyms_lookup(TEXT - 1, NULL, NULL));
	EXPECT(!kallsyms_lookup(KALLSYMS, NULL, NULL));
	EXPECT(!kallsyms_lookup(~0UL, NULL, NULL));
}

TEST(unsized_label_reaches_the_next_symbol)
{
	unsigned long off = 0, size = 0;

	EXPECT_STR(lookup(TEXT + 0x11, &off, &size), "_start");
	EXPECT_EQ(off, 0x11);
	EXPECT_EQ(size, 0x12);
	EXPECT_STR(lookup(ETEXT - 1, &off, &size), "tail_label");
	EXPECT_EQ(size, ETEXT - TAIL_LABEL);
}

TEST(alias_picks_the_best_name)
{
	/* Over nm's order: sized, then strong, then fewer underscores. */
	EXPECT_STR(lookup(MSG, NULL, NULL), "msg");
	EXPECT_STR(lookup(BOARD_HOOK, NULL, NULL), "board_hook");
	EXPECT_STR(lookup(BOOT_STACK, NULL, NULL), "boot_stack");
	EXPECT_STR(lookup(TEXT, NULL, NULL), "_start");
}

TEST(lookup_data)
{
	unsigned long off = 0, size = 0;

	EXPECT_STR(lookup(COUNTER + 2, &off, &size), "counter");
	EXPECT_EQ(off, 2);
	EXPECT_EQ(size, 4);
	EXPECT_STR(lookup(0x80201008UL + 0x17, &off, &size), "kallsyms_suite");
	EXPECT_EQ(off, 0x17);
}

TEST(lookup_name_finds_every_kind)
{
	EXPECT_EQ(kallsyms_lookup_name("helper"), HELPER);
	EXPECT_EQ(kallsyms_lookup_name("main"), MAIN);
	EXPECT_EQ(kallsyms_lookup_name("arch_hook"), BOARD_HOOK);
	EXPECT_EQ(kallsyms_lookup_name("_text"), TEXT);
	EXPECT_EQ(kallsyms_lookup_name("_etext"), ETEXT);
	EXPECT_EQ(kallsyms_lookup_name("__bss_start"), BOOT_STACK);
	EXPECT_EQ(kallsyms_lookup_name("stack_top"), 0x80203014UL);
}

TEST(lookup_name_of_a_duplicate_is_the_lowest)
{
	EXPECT_EQ(kallsyms_lookup_name("put"), 0x8020005cUL);
}

TEST(lookup_name_unknown_is_zero)
{
	EXPECT_EQ(kallsyms_lookup_name("no_such_symbol"), 0);
	EXPECT_EQ(kallsyms_lookup_name(""), 0);
	EXPECT_EQ(kallsyms_lookup_name("mai"), 0);
	EXPECT_EQ(kallsyms_lookup_name("main_"), 0);
	EXPECT_EQ(kallsyms_lookup_name("undefined_fn"), 0);
	EXPECT_EQ(kallsyms_lookup_name("weak_undefined"), 0);
	EXPECT_EQ(kallsyms_lookup_name("abs_const"), 0);
	EXPECT_EQ(kallsyms_lookup_name(".L0"), 0);
	EXPECT_EQ(kallsyms_lookup_name("$x"), 0);
	EXPECT_EQ(kallsyms_lookup_name("_kallsyms"), 0);
	EXPECT_EQ(kallsyms_lookup_name("kallsyms_offsets"), 0);
	EXPECT_EQ(kallsyms_lookup_name("_end"), 0);
}

TEST(sprint_symbol_with_offset)
{
	char buf[64];

	EXPECT_EQ(sprint_symbol(buf, sizeof(buf), HELPER + 0x1c, true), 16);
	EXPECT_STR(buf, "helper+0x1c/0x20");
	EXPECT_EQ(sprint_symbol(buf, sizeof(buf), MAIN, true), 13);
	EXPECT_STR(buf, "main+0x0/0x12");
}

TEST(sprint_symbol_without_offset)
{
	char buf[64];

	EXPECT_EQ(sprint_symbol(buf, sizeof(buf), HELPER + 0x1c, false), 6);
	EXPECT_STR(buf, "helper");
}

TEST(sprint_symbol_unknown_is_zero)
{
	char buf[8] = "keep";

	EXPECT_EQ(sprint_symbol(buf, sizeof(buf), TEXT - 4, true), 0);
	EXPECT_EQ(sprint_symbol(buf, sizeof(buf), KALLSYMS, false), 0);
	EXPECT_STR(buf, "keep");
}

TEST(sprint_symbol_truncates)
{
	char buf[8];

	EXPECT_EQ(sprint_symbol(buf, sizeof(buf), HELPER + 4, true), 7);
	EXPECT_STR(buf, "helper+");
	EXPECT_EQ(sprint_symbol(buf, 0, HELPER, true), 0);
}

struct walk {
	char names[16][16];
	unsigned long addrs[16];
	int n;
	int stop_at;
};

static int record(void *data, const char *name, unsigned long addr,
		  unsigned long size)
{
	struct walk *w = data;

	snprintf(w->names[w->n], sizeof(w->names[0]), "%s", name);
	w->addrs[w->n] = addr;
	return ++w->n == w->stop_at ? 42 : 0;
}

TEST(for_each_walks_functions_in_order)
{
	static const char *const expected[] = {
		"_start", "inner_label", "asm_func", "helper", "weak_fn",
		"main", "board_hook", "put", "put", "tail_label",
	};
	struct walk w = { .stop_at = -1 };
	int i;

	EXPECT_EQ(kallsyms_for_each(record, &w), 0);
	EXPECT_EQ(w.n, 10);
	for (i = 0; i < w.n && i < 10; i++)
		EXPECT_STR(w.names[i], expected[i]);
	for (i = 1; i < w.n; i++)
		EXPECT(w.addrs[i - 1] < w.addrs[i]);
}

TEST(for_each_stops_on_nonzero)
{
	struct walk w = { .stop_at = 3 };

	EXPECT_EQ(kallsyms_for_each(record, &w), 42);
	EXPECT_EQ(w.n, 3);
}

TEST(is_text_covers_text_only)
{
	EXPECT(kallsyms_is_text(TEXT));
	EXPECT(kallsyms_is_text(ETEXT - 1));
	EXPECT(!kallsyms_is_text(ETEXT));
	EXPECT(!kallsyms_is_text(TEXT - 1));
	EXPECT(!kallsyms_is_text(COUNTER));
	EXPECT(!kallsyms_is_text(0));
}
