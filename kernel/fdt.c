/*
 * fdt.c: a flattened device tree walker. It reads the memory node, the
 * harts under /cpus, timebase-frequency, /chosen/bootargs and the
 * initrd's bounds (linux,initrd-start and -end), the UART, PLIC, test
 * and virtio-mmio devices, into struct boot_info. Nothing of this is
 * hard-coded: QEMU's -m, -smp and -append all arrive through here.
 * Every read is checked against the header's block sizes, so a corrupt
 * blob fails with -EINVAL instead of walking off into memory.
 */
#include "kernel.h"
#include "string.h"
#include "fdt.h"

#define FDT_MAGIC	0xd00dfeed
#define FDT_BEGIN_NODE	1
#define FDT_END_NODE	2
#define FDT_PROP	3
#define FDT_NOP		4
#define FDT_END		9
#define MAX_DEPTH	8

struct fdt_header {
	u32 magic, totalsize, off_dt_struct, off_dt_strings;
	u32 off_mem_rsvmap, version, last_comp_version;
	u32 boot_cpuid_phys, size_dt_strings, size_dt_struct;
};

/* What one node said, gathered until its END_NODE. */
struct node {
	const char *name;
	bool chosen;			/* /chosen itself */
	u8 devices;			/* enum device bits its compatible names */
	const char *device_type;
	const u8 *reg;
	u32 reg_len;
	u32 irq;
	const char *isa, *mmu_type;	/* a cpu's riscv,isa and mmu-type */
	bool disabled;
	u32 addr_cells, size_cells;	/* for its children */
};

struct boot_info boot_info;

/* The properties read, by name; a blob names each by its offset. */
enum prop_id {
	PROP_OTHER, PROP_COMPATIBLE, PROP_DEVICE_TYPE, PROP_REG,
	PROP_RISCV_ISA, PROP_MMU_TYPE, PROP_INTERRUPTS, PROP_STATUS,
	PROP_ADDRESS_CELLS, PROP_SIZE_CELLS, PROP_TIMEBASE, PROP_BOOTARGS,
	PROP_INITRD_START, PROP_INITRD_END, NR_PROP_IDS
};

static const char *const prop_names[NR_PROP_IDS] = {
	[PROP_COMPATIBLE] = "compatible",
	[PROP_DEVICE_TYPE] = "device_type",
	[PROP_REG] = "reg",
	[PROP_RISCV_ISA] = "riscv,isa",
	[PROP_MMU_TYPE] = "mmu-type",
	[PROP_INTERRUPTS] = "interrupts",
	[PROP_STATUS] = "status",
	[PROP_ADDRESS_CELLS] = "#address-cells",
	[PROP_SIZE_CELLS] = "#size-cells",
	[PROP_TIMEBASE] = "timebase-frequency",
	[PROP_BOOTARGS] = "bootargs",
	[PROP_INITRD_START] = "linux,initrd-start",
	[PROP_INITRD_END] = "linux,initrd-end",
};

/* The devices a node's compatible list may name. */
enum device {
	DEV_UART = 1, DEV_PLIC = 2, DEV_TEST = 4, DEV_VIRTIO_MMIO = 8,
};

static const struct {
	const char *name;
	u8 device;
} compatibles[] = {
	{ "ns16550a", DEV_UART },
	{ "riscv,plic0", DEV_PLIC },
	{ "sifive,plic-1.0.0", DEV_PLIC },
	{ "sifive,test0", DEV_TEST },
	{ "virtio,mmio", DEV_VIRTIO_MMIO },
};

/*
 * Names already classified, by their offset in the strings block: dtc
 * and QEMU store each name once, so a blob's hundred properties need
 * some thirty string compares instead of one or more each. A slot
 * holds the offset plus one, so the zeroed cache matches nothing.
 */
#define NAME_CACHE_SLOTS	64

struct name_cache {
	u32 off_plus1[NAME_CACHE_SLOTS];
	u8 id[NAME_CACHE_SLOTS];
};

/* The structure block being walked, and the strings block it names. */
struct cursor {
	const u8 *p, *end;
	const char *strings;
	u32 strings_size;
	bool strings_end;		/* the block ends in a NUL */
	struct name_cache names;
};

static u32 be32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

static u64 read_cells(const u8 *p, int n)
{
	u64 v = 0;

	for (; n--; p += 4)
		v = v << 32 | be32(p);
	return v;
}

/* A property value is a string only if it ends inside its own length. */
static bool is_string(const void *val, u32 len)
{
	return len && ((const char *)val)[len - 1] == 0;
}

/* The devices a compatible string list names (val ends in a NUL). */
static u8 compatible_devices(const char *s, u32 len)
{
	const char *end = s + len;
	u8 devices = 0;
	size_t i;

	for (; s < end; s += strlen(s) + 1)
		for (i = 0; i < ARRAY_SIZE(compatibles); i++)
			if (s[0] == compatibles[i].name[0] &&
			    !strcmp(s, compatibles[i].name))
				devices |= compatibles[i].device;
	return devices;
}

static enum prop_id classify(const char *name)
{
	int id;

	for (id = PROP_OTHER + 1; id < NR_PROP_IDS; id++)
		if (name[0] == prop_names[id][0] && !strcmp(name, prop_names[id]))
			return id;
	return PROP_OTHER;
}

static enum prop_id prop_id(struct cursor *c, u32 nameoff)
{
	unsigned int slot = (nameoff ^ nameoff >> 6) % NAME_CACHE_SLOTS;

	if (c->names.off_plus1[slot] != nameoff + 1) {
		c->names.off_plus1[slot] = nameoff + 1;
		c->names.id[slot] = classify(c->strings + nameoff);
	}
	return c->names.id[slot];
}

/* The initrd's bounds are one or two cells, as QEMU writes either. */
static bool cells_len(u32 len)
{
	return len == 4 || len == 8;
}

static void prop(struct boot_info *bi, struct node *n, enum prop_id id,
		 const void *val, u32 len)
{
	switch (id) {
	case PROP_COMPATIBLE:
		if (is_string(val, len))
			n->devices = compatible_devices(val, len);
		break;
	case PROP_DEVICE_TYPE:
		if (is_string(val, len))
			n->device_type = val;
		break;
	case PROP_REG:
		n->reg = val;
		n->reg_len = len;
		break;
	case PROP_RISCV_ISA:
		if (is_string(val, len))
			n->isa = val;
		break;
	case PROP_MMU_TYPE:
		if (is_string(val, len))
			n->mmu_type = val;
		break;
	case PROP_INTERRUPTS:
		if (len >= 4)
			n->irq = be32(val);
		break;
	case PROP_STATUS:
		if (is_string(val, len))
			n->disabled = strcmp(val, "okay") && strcmp(val, "ok");
		break;
	case PROP_ADDRESS_CELLS:
		if (len == 4)
			n->addr_cells = be32(val);
		break;
	case PROP_SIZE_CELLS:
		if (len == 4)
			n->size_cells = be32(val);
		break;
	case PROP_TIMEBASE:
		if (len == 4)
			bi->timebase = be32(val);
		break;
	case PROP_BOOTARGS:
		if (n->chosen && is_string(val, len))
			strlcpy(bi->bootargs, val, sizeof(bi->bootargs));
		break;
	case PROP_INITRD_START:
		if (n->chosen && cells_len(len))
			bi->initrd_start = read_cells(val, len / 4);
		break;
	case PROP_INITRD_END:
		if (n->chosen && cells_len(len))
			bi->initrd_end = read_cells(val, len / 4);
		break;
	default:
		break;
	}
}

/* Does the node's reg hold at least an address and n_sizes sizes? */
static bool reg_fits(const struct node *n, int ac, int sc, int n_sizes)
{
	if (!n->reg || ac < 1 || ac > 2 || sc < 0 || sc > 2)
		return false;
	return n->reg_len >= (u32)(ac + n_sizes * sc) * 4;
}

/* A cpu node: its hart id, and what /proc/cpuinfo shows of it. */
static void add_hart(struct boot_info *bi, const struct node *n, u64 hartid)
{
	int i = bi->nr_harts++;

	bi->hartids[i] = hartid;
	strlcpy(bi->isa[i], n->isa ? n->isa : "", sizeof(bi->isa[i]));
	strlcpy(bi->mmu[i], n->mmu_type ? n->mmu_type : "", sizeof(bi->mmu[i]));
}

/* A node is complete: keep what the kernel needs of it. */
static void node_done(struct boot_info *bi, const struct node *n,
		      const struct node *parent)
{
	int ac = (int)parent->addr_cells, sc = (int)parent->size_cells;
	u64 addr;

	if (!reg_fits(n, ac, sc, 0))
		return;
	addr = read_cells(n->reg, ac);
	if (n->device_type && !strcmp(n->device_type, "memory")) {
		if (reg_fits(n, ac, sc, 1)) {
			bi->mem_base = addr;
			bi->mem_size = read_cells(n->reg + ac * 4, sc);
		}
	} else if (n->device_type && !strcmp(n->device_type, "cpu")) {
		if (!n->disabled && bi->nr_harts < NR_CPUS)
			add_hart(bi, n, addr);
	} else if ((n->devices & DEV_UART) && !bi->uart_base) {
		bi->uart_base = addr;
		bi->uart_irq = n->irq;
	} else if (n->devices & DEV_PLIC) {
		bi->plic_base = addr;
	} else if (n->devices & DEV_TEST) {
		bi->test_base = addr;
	} else if ((n->devices & DEV_VIRTIO_MMIO) &&
		   bi->nr_virtio_mmio < VIRTIO_MMIO_MAX) {
		bi->virtio_mmio[bi->nr_virtio_mmio].base = addr;
		bi->virtio_mmio[bi->nr_virtio_mmio++].irq = n->irq;
	}
}

/* Step over n bytes padded to 4; false if they run past the block. */
static bool advance(struct cursor *c, size_t n)
{
	n = ALIGN_UP(n, 4);
	if (n > (size_t)(c->end - c->p))
		return false;
	c->p += n;
	return true;
}

/* Depth 1 is the root node, so its child /chosen is at depth 2. */
static int begin_node(struct cursor *c, struct node *n, int depth)
{
	size_t len = strnlen((const char *)c->p, c->end - c->p);

	if (len == (size_t)(c->end - c->p))
		return -EINVAL;		/* the name runs off the block */
	memset(n, 0, sizeof(*n));
	n->name = (const char *)c->p;
	n->addr_cells = 2;
	n->size_cells = 1;
	n->chosen = depth == 2 && !strcmp(n->name, "chosen");
	return advance(c, len + 1) ? 0 : -EINVAL;
}

/* A property: its value lies in the block, its name in the strings. */
static int property(struct cursor *c, struct node *stack, int depth,
		    struct boot_info *bi)
{
	u32 len, nameoff;
	const u8 *val;

	if (c->end - c->p < 8)
		return -EINVAL;
	len = be32(c->p);
	nameoff = be32(c->p + 4);
	val = c->p + 8;
	if (nameoff >= c->strings_size ||
	    (!c->strings_end &&
	     strnlen(c->strings + nameoff, c->strings_size - nameoff) ==
	     c->strings_size - nameoff))
		return -EINVAL;
	if (!advance(c, 8) || !advance(c, len))
		return -EINVAL;
	prop(bi, &stack[depth], prop_id(c, nameoff), val, len);
	return 0;
}

static int walk(struct cursor *c, struct boot_info *bi)
{
	struct node stack[MAX_DEPTH + 1];
	int depth = 0, err = 0;

	memset(stack, 0, sizeof(stack));
	stack[0].addr_cells = 2;
	stack[0].size_cells = 1;
	while (!err && c->end - c->p >= 4) {
		u32 tok = be32(c->p);

		c->p += 4;
		if (tok == FDT_BEGIN_NODE) {
			if (++depth > MAX_DEPTH)
				return -EINVAL;
			err = begin_node(c, &stack[depth], depth);
		} else if (tok == FDT_END_NODE) {
			if (depth < 1)
				return -EINVAL;
			node_done(bi, &stack[depth], &stack[depth - 1]);
			depth--;
		} else if (tok == FDT_PROP) {
			err = property(c, stack, depth, bi);
		} else if (tok == FDT_END) {
			return 0;
		} else if (tok != FDT_NOP) {
			return -EINVAL;
		}
	}
	return -EINVAL;		/* no FDT_END inside the block */
}

/* Both blocks must lie inside totalsize; u64 sums cannot wrap. */
static bool block_fits(u32 off, u32 size, u32 total)
{
	return (u64)off + size <= total;
}

/*
 * A header field. The blob need not be 4-aligned (a test may place it
 * anywhere), so no struct fdt_header is ever dereferenced.
 */
#define fdt_hdr(dtb, field) \
	be32((const u8 *)(dtb) + offsetof(struct fdt_header, field))

int fdt_parse(const void *dtb, struct boot_info *bi)
{
	struct cursor c;
	u32 total, off_struct;

	memset(bi, 0, sizeof(*bi));
	/* The header must fit before reading fields past totalsize. */
	if (!dtb || fdt_hdr(dtb, magic) != FDT_MAGIC ||
	    fdt_hdr(dtb, totalsize) < sizeof(struct fdt_header))
		return -EINVAL;
	total = fdt_hdr(dtb, totalsize);
	off_struct = fdt_hdr(dtb, off_dt_struct);
	/* size_dt_struct, which bounds the walk, exists from version 17. */
	if (fdt_hdr(dtb, version) < 17 || off_struct % 4 ||
	    !block_fits(off_struct, fdt_hdr(dtb, size_dt_struct), total) ||
	    !block_fits(fdt_hdr(dtb, off_dt_strings),
			fdt_hdr(dtb, size_dt_strings), total))
		return -EINVAL;
	c.p = (const u8 *)dtb + off_struct;
	c.end = c.p + fdt_hdr(dtb, size_dt_struct);
	c.strings = (const char *)dtb + fdt_hdr(dtb, off_dt_strings);
	c.strings_size = fdt_hdr(dtb, size_dt_strings);
	/* Then every name in it ends in it: no need to look at each. */
	c.strings_end = c.strings_size && !c.strings[c.strings_size - 1];
	memset(&c.names, 0, sizeof(c.names));
	return walk(&c, bi);
}

/* The command-line word named word (`word` or `word=...`), or NULL. */
static const char *cmdline_find(const char *word)
{
	const char *s = boot_info.bootargs;
	size_t n = strlen(word);

	while (*s) {
		while (*s == ' ')
			s++;
		if (!strncmp(s, word, n) && (s[n] == ' ' || s[n] == 0 ||
					     s[n] == '='))
			return s;
		while (*s && *s != ' ')
			s++;
	}
	return NULL;
}

/* Is word one of the space-separated words of the kernel command line? */
bool cmdline_has(const char *word)
{
	return cmdline_find(word) != NULL;
}

/*
 * Copy the value of `word=value` into buf (cut to size), or "" when the
 * word has none; returns false when the word is absent.
 */
bool cmdline_value(const char *word, char *buf, size_t size)
{
	const char *s = cmdline_find(word);
	size_t n = 0;

	if (!s)
		return false;
	s += strlen(word);
	if (*s == '=')
		for (s++; s[n] && s[n] != ' ' && n + 1 < size; n++)
			buf[n] = s[n];
	buf[n] = 0;
	return true;
}
