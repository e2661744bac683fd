/*
 * test_fdt.c: kernel/fdt.c on the host, against the device tree QEMU
 * gives the kernel and against corrupted copies of it. The fixture was
 * dumped with
 *   qemu-system-riscv64 -machine virt,dumpdtb=FILE -smp 4 -m 256M \
 *     -bios default -kernel build/kernel.elf -append 'selftest foo=1'
 * and cut to its header's totalsize. Each blob under test ends right at
 * an unmapped page, so a read past its end crashes the test.
 */
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include "test.h"
#include "../../lib/string.c"
#include "../../kernel/fdt.c"

#define FIXTURE "tests/host/fixtures/qemu-virt-smp4-256m.dtb"
#define HDR_LEN		40
#define HDR_TOTALSIZE	4
#define HDR_OFF_STRUCT	8
#define HDR_OFF_STRINGS	12
#define HDR_VERSION	20
#define HDR_SIZE_STRINGS 32
#define HDR_SIZE_STRUCT	36

static u8 fixture[8192];
static size_t fixture_len;

/* The fixture, read from the file at the first call. */
static const u8 *dtb(void)
{
	FILE *f;

	if (fixture_len)
		return fixture;
	f = fopen(FIXTURE, "rb");
	if (!f) {
		perror(FIXTURE);
		exit(2);
	}
	fixture_len = fread(fixture, 1, sizeof(fixture), f);
	fclose(f);
	return fixture;
}

/* A copy of len bytes of blob placed so that its last byte ends a page. */
static u8 *guarded_copy(const u8 *blob, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t span = ALIGN_UP(len, page);
	u8 *map = mmap(NULL, span + page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (map == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	mprotect(map + span, page, PROT_NONE);
	memcpy(map + span - len, blob, len);
	return map + span - len;
}

static void free_guarded(u8 *p, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t span = ALIGN_UP(len, page);

	munmap(p + len - span, span + page);
}

static u32 get32(const u8 *blob, size_t off)
{
	return be32(blob + off);
}

static void put32(u8 *blob, size_t off, u32 v)
{
	blob[off] = v >> 24;
	blob[off + 1] = v >> 16;
	blob[off + 2] = v >> 8;
	blob[off + 3] = v;
}

/* Parse a modified copy of the fixture, cut to its (new) totalsize. */
static int parse_copy(const u8 *blob, struct boot_info *bi)
{
	size_t len = get32(blob, HDR_TOTALSIZE);
	u8 *copy = guarded_copy(blob, len);
	int ret = fdt_parse(copy, bi);

	free_guarded(copy, len);
	return ret;
}

/* A fresh copy of the fixture to damage. */
static u8 *fixture_copy(void)
{
	static u8 work[sizeof(fixture)];
	const u8 *blob = dtb();		/* sets fixture_len */

	memcpy(work, blob, fixture_len);
	return work;
}

TEST(parses_qemu_virt)
{
	struct boot_info bi;
	int i;

	EXPECT_EQ(parse_copy(fixture_copy(), &bi), 0);
	EXPECT_EQ(bi.nr_harts, 4);
	for (i = 0; i < 4; i++)
		EXPECT(bi.hartids[i] < 4);
	EXPECT_EQ(bi.hartids[0] + bi.hartids[1] + bi.hartids[2] +
		  bi.hartids[3], 0 + 1 + 2 + 3);
	EXPECT_EQ(bi.mem_base, 0x80000000ULL);
	EXPECT_EQ(bi.mem_size, 256ULL << 20);
	EXPECT_EQ(bi.timebase, 10000000);
	EXPECT_STR(bi.bootargs, "selftest foo=1");
	EXPECT_EQ(bi.uart_base, 0x10000000);
	EXPECT_EQ(bi.uart_irq, 10);
	EXPECT_EQ(bi.plic_base, 0xc000000);
	EXPECT_EQ(bi.test_base, 0x100000);
	/* virt's virtio-mmio slot n: at 0x10000000 + n * 4 KiB, irq n */
	EXPECT_EQ(bi.nr_virtio_mmio, 8);
	for (i = 0; i < bi.nr_virtio_mmio; i++) {
		EXPECT_EQ(bi.virtio_mmio[i].base & 0xfff, 0);
		EXPECT_EQ(bi.virtio_mmio[i].irq,
			  (bi.virtio_mmio[i].base - 0x10000000) >> 12);
		EXPECT(bi.virtio_mmio[i].irq >= 1 && bi.virtio_mmio[i].irq <= 8);
	}
}

TEST(cmdline_words)
{
	EXPECT_EQ(fdt_parse(fixture_copy(), &boot_info), 0);
	EXPECT(cmdline_has("selftest"));
	EXPECT(cmdline_has("foo"));
	EXPECT(cmdline_has("foo=1"));
	EXPECT(!cmdline_has("self"));
	EXPECT(!cmdline_has("test"));
	EXPECT(!cmdline_has("bar"));
}

TEST(rejects_null_and_bad_magic)
{
	struct boot_info bi;
	u8 *blob = fixture_copy();

	EXPECT_EQ(fdt_parse(NULL, &bi), -EINVAL);
	blob[0] ^= 0xff;
	EXPECT_EQ(parse_copy(blob, &bi), -EINVAL);
	EXPECT_EQ(bi.nr_harts, 0);
}

TEST(rejects_blocks_outside_totalsize)
{
	struct boot_info bi;
	u8 *blob = fixture_copy();
	u32 off_struct = get32(dtb(), HDR_OFF_STRUCT);

	put32(blob, HDR_TOTALSIZE, off_struct + 16);
	EXPECT_EQ(parse_copy(blob, &bi), -EINVAL);
	blob = fixture_copy();
	put32(blob, HDR_SIZE_STRUCT, 0xfffffff0);
	EXPECT_EQ(parse_copy(blob, &bi), -EINVAL);
	blob = fixture_copy();
	put32(blob, HDR_OFF_STRINGS, 0xffffff00);
	EXPECT_EQ(parse_copy(blob, &bi), -EINVAL);
	blob = fixture_copy();
	put32(blob, HDR_TOTALSIZE, 8);
	EXPECT_EQ(parse_copy(blob, &bi), -EINVAL);
}

/*
 * The fixture rearranged as header, strings, then only the first cut
 * bytes of the structure block, so that block ends the blob.
 */
static u8 *cut_struct_last(u32 cut)
{
	static u8 blob[sizeof(fixture)];
	u32 off_strings = get32(dtb(), HDR_OFF_STRINGS);
	u32 size_strings = get32(dtb(), HDR_SIZE_STRINGS);
	u32 off_struct = ALIGN_UP(HDR_LEN + size_strings, 4);

	memset(blob, 0, sizeof(blob));
	memcpy(blob, dtb(), HDR_LEN);
	memcpy(blob + HDR_LEN, dtb() + off_strings, size_strings);
	memcpy(blob + off_struct, dtb() + get32(dtb(), HDR_OFF_STRUCT),
	       cut);
	put32(blob, HDR_OFF_STRINGS, HDR_LEN);
	put32(blob, HDR_OFF_STRUCT, off_struct);
	put32(blob, HDR_SIZE_STRUCT, cut);
	put32(blob, HDR_TOTALSIZE, off_struct + cut);
	return blob;
}

TEST(rearranged_blob_still_parses)
{
	struct boot_info bi;

	EXPECT_EQ(parse_copy(cut_struct_last(get32(dtb(), HDR_SIZE_STRUCT)),
			     &bi), 0);
	EXPECT_EQ(bi.nr_harts, 4);
}

/* Every cut of the structure block before its FDT_END is an error. */
TEST(rejects_every_truncation)
{
	u32 size, cut;
	struct boot_info bi;
	int wrong = 0;

	size = get32(dtb(), HDR_SIZE_STRUCT);
	for (cut = 0; cut < size; cut++)
		wrong += parse_copy(cut_struct_last(cut), &bi) != -EINVAL;
	EXPECT_EQ(wrong, 0);
}

TEST(rejects_unknown_token)
{
	struct boot_info bi;
	u8 *blob = fixture_copy();

	put32(blob, get32(dtb(), HDR_OFF_STRUCT), 0x12345678);
	EXPECT_EQ(parse_copy(blob, &bi), -EINVAL);
}

/* The first property's header: its length and its name's offset. */
static size_t first_prop(const u8 *blob)
{
	size_t off = get32(blob, HDR_OFF_STRUCT);

	while (get32(blob, off) != FDT_PROP)
		off += 4;
	return off;
}

TEST(rejects_bad_property)
{
	struct boot_info bi;
	u8 *blob = fixture_copy();
	size_t prop_off = first_prop(dtb());

	put32(blob, prop_off + 4, 0xffffffff);		/* length */
	EXPECT_EQ(parse_copy(blob, &bi), -EINVAL);
	blob = fixture_copy();
	put32(blob, prop_off + 4, 0xfffffffd);	/* wraps when padded */
	EXPECT_EQ(parse_copy(blob, &bi), -EINVAL);
	blob = fixture_copy();
	put32(blob, prop_off + 8, 0x7fffffff);		/* name offset */
	EXPECT_EQ(parse_copy(blob, &bi), -EINVAL);
}

TEST(rejects_unterminated_name)
{
	struct boot_info bi;
	u8 *blob = fixture_copy();
	u32 off_strings = get32(dtb(), HDR_OFF_STRINGS);
	u32 size_strings = get32(dtb(), HDR_SIZE_STRINGS);

	/* The strings block ends the fixture: drop its final NUL. */
	EXPECT_EQ(off_strings + size_strings, fixture_len);
	put32(blob, HDR_SIZE_STRINGS, size_strings - 1);
	put32(blob, HDR_TOTALSIZE, fixture_len - 1);
	EXPECT_EQ(parse_copy(blob, &bi), -EINVAL);
}

TEST(rejects_deep_nesting)
{
	u8 blob[HDR_LEN + 12 * 8 + 4];
	struct boot_info bi;
	size_t off = HDR_LEN;
	int i;

	memset(blob, 0, sizeof(blob));
	put32(blob, 0, FDT_MAGIC);
	put32(blob, HDR_TOTALSIZE, sizeof(blob));
	put32(blob, HDR_OFF_STRUCT, HDR_LEN);
	put32(blob, HDR_OFF_STRINGS, sizeof(blob));
	put32(blob, HDR_VERSION, 17);
	put32(blob, HDR_SIZE_STRUCT, sizeof(blob) - HDR_LEN);
	for (i = 0; i < 12; i++, off += 8)
		put32(blob, off, FDT_BEGIN_NODE);	/* and an empty name */
	put32(blob, off, FDT_END);
	EXPECT_EQ(parse_copy(blob, &bi), -EINVAL);
}

/* A fixed-seed generator, so a failure reproduces. */
static u32 next_random(u32 *state)
{
	*state = *state * 1103515245 + 12345;
	return *state >> 8;
}

/*
 * Random byte damage past the header (whose totalsize says how much to
 * copy): any answer but a crash or an overrun is fine.
 */
TEST(survives_random_damage)
{
	struct boot_info bi;
	u32 seed = 1, round;
	int ok = 0, einval = 0;

	for (round = 0; round < 20000; round++) {
		u8 *blob = fixture_copy();
		int n = 1 + next_random(&seed) % 8, ret;

		while (n--) {
			size_t at = next_random(&seed) %
				    (fixture_len - HDR_LEN);

			blob[HDR_LEN + at] = (u8)next_random(&seed);
		}
		ret = parse_copy(blob, &bi);
		ok += ret == 0;
		einval += ret == -EINVAL;
	}
	EXPECT_EQ(ok + einval, 20000);
	EXPECT(einval > 0);
}
