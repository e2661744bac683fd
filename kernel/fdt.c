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
	const char *compatible;		/* a string list */
	u32 compat_len;
	const char *device_type;
	const u8 *reg;
	u32 reg_len;
	u32 irq;
	const char *isa, *mmu_type;	/* a cpu's riscv,isa and mmu-type */
	bool disabled;
	u32 addr_cells, size_cells;	/* for its children */
};

struct boot_info boot_info;

/* The structure block being walked, and the strings block it names. */
struct cursor {
	const u8 *p, *end;
	const char *strings;
	u32 strings_size;
	bool strings_end;		/* the block ends in a NUL */
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

/* Without a compatible, s is NULL: even NULL + 0 is undefined in C. */
static bool compatible_with(const struct node *n, const char *want)
{
	const char *s = n->compatible, *end;

	if (!s)
		return false;
	end = s + n->compat_len;
	while (s < end) {
		if (s[0] == want[0] && !strcmp(s, want))
			return true;
		s += strlen(s) + 1;
	}
	return false;
}

/*
 * A name is compared only with the wanted names of its first letter:
 * boot spent a tenth of its instructions comparing each with all.
 */
static void prop(struct node *n, const char *name, const void *val, u32 len)
{
	switch (name[0]) {
	case 'c':
		if (!strcmp(name, "compatible") && is_string(val, len)) {
			n->compatible = val;
			n->compat_len = len;
		}
		break;
	case 'd':
		if (!strcmp(name, "device_type") && is_string(val, len))
			n->device_type = val;
		break;
	case 'r':
		if (!strcmp(name, "reg")) {
			n->reg = val;
			n->reg_len = len;
		} else if (!strcmp(name, "riscv,isa") && is_string(val, len)) {
			n->isa = val;
		}
		break;
	case 'm':
		if (!strcmp(name, "mmu-type") && is_string(val, len))
			n->mmu_type = val;
		break;
	case 'i':
		if (!strcmp(name, "interrupts") && len >= 4)
			n->irq = be32(val);
		break;
	case 's':
		if (!strcmp(name, "status") && is_string(val, len))
			n->disabled = strcmp(val, "okay") && strcmp(val, "ok");
		break;
	case '#':
		if (!strcmp(name, "#address-cells") && len == 4)
			n->addr_cells = be32(val);
		else if (!strcmp(name, "#size-cells") && len == 4)
			n->size_cells = be32(val);
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
	} else if (compatible_with(n, "ns16550a") && !bi->uart_base) {
		bi->uart_base = addr;
		bi->uart_irq = n->irq;
	} else if (compatible_with(n, "riscv,plic0") ||
		   compatible_with(n, "sifive,plic-1.0.0")) {
		bi->plic_base = addr;
	} else if (compatible_with(n, "sifive,test0")) {
		bi->test_base = addr;
	} else if (compatible_with(n, "virtio,mmio") &&
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

static int begin_node(struct cursor *c, struct node *n)
{
	size_t len = strnlen((const char *)c->p, c->end - c->p);

	if (len == (size_t)(c->end - c->p))
		return -EINVAL;		/* the name runs off the block */
	memset(n, 0, sizeof(*n));
	n->name = (const char *)c->p;
	n->addr_cells = 2;
	n->size_cells = 1;
	return advance(c, len + 1) ? 0 : -EINVAL;
}

/* The initrd's bounds are one or two cells, as QEMU writes either. */
static void chosen_prop(struct boot_info *bi, const char *name,
			const u8 *val, u32 len)
{
	if (!strcmp(name, "bootargs") && is_string(val, len))
		strlcpy(bi->bootargs, (const char *)val, sizeof(bi->bootargs));
	else if (!strcmp(name, "linux,initrd-start") && (len == 4 || len == 8))
		bi->initrd_start = read_cells(val, len / 4);
	else if (!strcmp(name, "linux,initrd-end") && (len == 4 || len == 8))
		bi->initrd_end = read_cells(val, len / 4);
}

/* A property: its value lies in the block, its name in the strings. */
static int property(struct cursor *c, struct node *stack, int depth,
		    struct boot_info *bi)
{
	u32 len, nameoff;
	const char *name;
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
	name = c->strings + nameoff;
	prop(&stack[depth], name, val, len);
	/* Depth 1 is the root node, so its child /chosen is at depth 2. */
	if (depth == 2 && !strcmp(stack[2].name, "chosen"))
		chosen_prop(bi, name, val, len);
	if (name[0] == 't' && !strcmp(name, "timebase-frequency") && len == 4)
		bi->timebase = be32(val);
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
			err = begin_node(c, &stack[depth]);
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
