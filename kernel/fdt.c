/*
 * fdt.c: a flattened device tree walker. It reads the memory node, the
 * harts under /cpus, timebase-frequency, /chosen/bootargs and the UART,
 * PLIC and test devices, into struct boot_info. Nothing of this is
 * hard-coded: QEMU's -m, -smp and -append all arrive through here.
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
	int compat_len;
	const char *device_type;
	const u32 *reg;
	int reg_len;
	u32 irq;
	bool disabled;
	int addr_cells, size_cells;	/* for its children */
};

struct boot_info boot_info;

static u32 be32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

static u64 read_cells(const u32 *p, int n)
{
	u64 v = 0;

	while (n--)
		v = v << 32 | be32(p++);
	return v;
}

static bool compatible_with(const struct node *n, const char *want)
{
	const char *s = n->compatible;

	while (s && s < n->compatible + n->compat_len) {
		if (!strcmp(s, want))
			return true;
		s += strlen(s) + 1;
	}
	return false;
}

static void prop(struct node *n, const char *name, const void *val, int len)
{
	if (!strcmp(name, "compatible")) {
		n->compatible = val;
		n->compat_len = len;
	} else if (!strcmp(name, "device_type")) {
		n->device_type = val;
	} else if (!strcmp(name, "reg")) {
		n->reg = val;
		n->reg_len = len;
	} else if (!strcmp(name, "interrupts") && len >= 4) {
		n->irq = be32(val);
	} else if (!strcmp(name, "status")) {
		n->disabled = strcmp(val, "okay") && strcmp(val, "ok");
	} else if (!strcmp(name, "#address-cells")) {
		n->addr_cells = be32(val);
	} else if (!strcmp(name, "#size-cells")) {
		n->size_cells = be32(val);
	}
}

static void chosen_prop(struct boot_info *bi, const char *name,
			const char *val)
{
	if (!strcmp(name, "bootargs"))
		strlcpy(bi->bootargs, val, sizeof(bi->bootargs));
}

/* A node is complete: keep what the kernel needs of it. */
static void node_done(struct boot_info *bi, const struct node *n,
		      const struct node *parent)
{
	int ac = parent->addr_cells, sc = parent->size_cells;
	u64 addr = n->reg ? read_cells(n->reg, ac) : 0;

	if (n->device_type && !strcmp(n->device_type, "memory") && n->reg) {
		bi->mem_base = addr;
		bi->mem_size = read_cells(n->reg + ac, sc);
	} else if (n->device_type && !strcmp(n->device_type, "cpu") &&
		   n->reg && !n->disabled && bi->nr_harts < NR_CPUS) {
		bi->hartids[bi->nr_harts++] = addr;
	} else if (compatible_with(n, "ns16550a") && !bi->uart_base) {
		bi->uart_base = addr;
		bi->uart_irq = n->irq;
	} else if (compatible_with(n, "riscv,plic0") ||
		   compatible_with(n, "sifive,plic-1.0.0")) {
		bi->plic_base = addr;
	} else if (compatible_with(n, "sifive,test0")) {
		bi->test_base = addr;
	}
}

static int walk(const u8 *blob, const struct fdt_header *h,
		struct boot_info *bi)
{
	const u8 *p = blob + be32(&h->off_dt_struct);
	const u8 *end = p + be32(&h->size_dt_struct);
	const char *strings = (const char *)blob + be32(&h->off_dt_strings);
	struct node stack[MAX_DEPTH + 1];
	int depth = 0;

	memset(stack, 0, sizeof(stack));
	stack[0].addr_cells = 2;
	stack[0].size_cells = 1;
	while (p < end) {
		u32 tok = be32(p);

		p += 4;
		if (tok == FDT_BEGIN_NODE) {
			if (++depth > MAX_DEPTH)
				return -EINVAL;
			memset(&stack[depth], 0, sizeof(stack[depth]));
			stack[depth].name = (const char *)p;
			stack[depth].addr_cells = 2;
			stack[depth].size_cells = 1;
			p += ALIGN_UP(strlen((const char *)p) + 1, 4);
		} else if (tok == FDT_END_NODE) {
			if (depth < 1)
				return -EINVAL;
			node_done(bi, &stack[depth], &stack[depth - 1]);
			depth--;
		} else if (tok == FDT_PROP) {
			u32 len = be32(p), nameoff = be32(p + 4);
			const char *name = strings + nameoff;

			prop(&stack[depth], name, p + 8, len);
			if (depth == 2 && !strcmp(stack[2].name, "chosen"))
				chosen_prop(bi, name, (const char *)p + 8);
			if (!strcmp(name, "timebase-frequency") && len == 4)
				bi->timebase = be32(p + 8);
			p += 8 + ALIGN_UP(len, 4);
		} else if (tok == FDT_END) {
			return 0;
		} else if (tok != FDT_NOP) {
			return -EINVAL;
		}
	}
	return -EINVAL;
}

int fdt_parse(const void *dtb, struct boot_info *bi)
{
	const struct fdt_header *h = dtb;

	memset(bi, 0, sizeof(*bi));
	if (!dtb || be32(&h->magic) != FDT_MAGIC)
		return -EINVAL;
	return walk(dtb, h, bi);
}

/* Is word one of the space-separated words of the kernel command line? */
bool cmdline_has(const char *word)
{
	const char *s = boot_info.bootargs;
	size_t n = strlen(word);

	while (*s) {
		while (*s == ' ')
			s++;
		if (!strncmp(s, word, n) && (s[n] == ' ' || s[n] == 0 ||
					     s[n] == '='))
			return true;
		while (*s && *s != ' ')
			s++;
	}
	return false;
}
