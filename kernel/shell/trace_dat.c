/*
 * trace_dat.c: the trace.dat writer of `trace-cmd record` and `extract`,
 * version 6 of trace-cmd's file format (trace-cmd.dat.v6(5)), which
 * trace-cmd 3.1 and KernelShark read. Version 6 rather than 7: it is
 * the simple one, sections in a fixed order and no compression or
 * section index, and 3.1 reads both.
 *
 *   "\x17\x08\x44tracing" "6\0", endian, long size, page size
 *   header_page, header_event          events/header_*
 *   ftrace formats                     events/ftrace/EVENT/format
 *   event systems' formats             events/SYSTEM/EVENT/format
 *   kallsyms                           as Linux's /proc/kallsyms
 *   printk formats                     printk_formats, if there is one
 *   cmdlines                           saved_cmdlines
 *   CPU count, options (each CPU's stats, the CPU count, the trace
 *   clock), "flyrecord"
 *   each CPU's offset and size, then its pages, page aligned
 *
 * Like trace-cmd it reads tracefs as a program would, so the file holds
 * what the files say; the CPU data is per_cpu/cpuN/trace_pipe_raw, read
 * to its end (which consumes it, as trace-cmd extract does).
 */
#include "kernel.h"
#include "kallsyms.h"
#include "mm.h"
#include "name_list.h"
#include "printf.h"
#include "shell.h"
#include "string.h"
#include "vfs.h"
#include "trace_dat.h"

#define TRACEFS			"/sys/kernel/tracing/"
#define TRACECMD_OPTION_CPUSTAT		2
#define TRACECMD_OPTION_TRACECLOCK	4
#define TRACECMD_OPTION_CPUCOUNT	8

struct dat_out {
	struct shell_out o;
	u64 pos;
};

/* One CPU's pages from trace_pipe_raw. */
struct cpu_data {
	u8 *buf;
	size_t len, size;
};

static void put(struct dat_out *d, const void *p, size_t n)
{
	sh_write(&d->o, p, n);
	d->pos += n;
}

/* Numbers are little endian, the machine's (the file says so). */
static void put_u16(struct dat_out *d, u16 v)
{
	put(d, &v, sizeof(v));
}

static void put_u32(struct dat_out *d, u32 v)
{
	put(d, &v, sizeof(v));
}

static void put_u64(struct dat_out *d, u64 v)
{
	put(d, &v, sizeof(v));
}

static void put_string(struct dat_out *d, const char *s)
{
	put(d, s, strlen(s) + 1);
}

/* A tracefs file's text after its size in 4 or 8 bytes; "" if absent. */
static int put_file(struct dat_out *d, const char *path, int size_bytes)
{
	char *text = sh_read_file(path);
	size_t len;

	if (IS_ERR(text) && PTR_ERR(text) != -ENOENT)
		return PTR_ERR(text);
	len = IS_ERR(text) ? 0 : strlen(text);
	if (size_bytes == 4)
		put_u32(d, len);
	else
		put_u64(d, len);
	if (len)
		put(d, text, len);
	if (!IS_ERR(text))
		kfree(text);
	return 0;
}

/* ---- formats ------------------------------------------------------------ */

static int add_name(struct inode *child, void *data)
{
	name_list_add(data, child->name, S_ISDIR(child->mode) ? "/" : "");
	return 0;
}

/* The subdirectories of dir, sorted, each with a '/' after it. */
int trace_dat_list_dirs(const char *dir, struct name_list *l)
{
	struct inode *inode;
	int err = vfs_walk(vfs_root(), dir, &inode);
	int i, n = 0;

	name_list_init(l);
	if (!err)
		err = vfs_for_each_child(inode, add_name, l);
	if (!err && l->overflow)
		err = -ENOMEM;
	for (i = 0; !err && i < l->count; i++)
		if (strchr(l->names[i], '/'))
			memmove(l->names[n++], l->names[i], NAME_LIST_WIDTH);
	l->count = n;
	if (err)
		name_list_free(l);
	return err;
}

/* u32 count, then each event's format with a u64 size. */
static int put_formats(struct dat_out *d, const char *system)
{
	char path[PATH_MAX];
	struct name_list events;
	int i, err;

	snprintf(path, sizeof(path), TRACEFS "events/%s", system);
	err = trace_dat_list_dirs(path, &events);
	if (err)
		return err;
	put_u32(d, events.count);
	for (i = 0; !err && i < events.count; i++) {
		snprintf(path, sizeof(path), TRACEFS "events/%s/%sformat",
			 system, events.names[i]);	/* NAME/format */
		err = put_file(d, path, 8);
	}
	name_list_free(&events);
	return err;
}

static bool has_name(const struct name_list *l, const char *name)
{
	int i;

	for (i = 0; i < l->count; i++)
		if (!strcmp(l->names[i], name))
			return true;
	return false;
}

/* Every system but ftrace: its name, then its formats. */
static int put_systems(struct dat_out *d)
{
	struct name_list systems;
	int i, err = trace_dat_list_dirs(TRACEFS "events", &systems);

	if (err)
		return err;
	for (i = 0; i < systems.count; i++)
		*strchr(systems.names[i], '/') = 0;
	put_u32(d, systems.count - !!has_name(&systems, "ftrace"));
	for (i = 0; !err && i < systems.count; i++) {
		if (!strcmp(systems.names[i], "ftrace"))
			continue;
		put_string(d, systems.names[i]);
		err = put_formats(d, systems.names[i]);
	}
	name_list_free(&systems);
	return err;
}

static int put_headers(struct dat_out *d)
{
	put_string(d, "header_page");
	return put_file(d, TRACEFS "events/header_page", 8) ?:
	       (put_string(d, "header_event"),
		put_file(d, TRACEFS "events/header_event", 8)) ?:
	       put_formats(d, "ftrace") ?:
	       put_systems(d);
}

/* ---- kallsyms ----------------------------------------------------------- */

/*
 * The kernel's symbols as Linux's /proc/kallsyms prints them, "ADDRESS
 * TYPE NAME" a line, which trace-cmd names functions by.
 */
static int put_kallsyms(struct dat_out *d)
{
	size_t len = 0, size = 1;
	char *text;
	u32 i;

	for (i = 0; i < kallsyms_num_syms; i++)
		size += kallsyms_sprint_line(NULL, 0, i);
	text = kmalloc(size);
	if (!text)
		return -ENOMEM;
	for (i = 0; i < kallsyms_num_syms; i++)
		len += kallsyms_sprint_line(text + len, size - len, i);
	put_u32(d, len);
	put(d, text, len);
	kfree(text);
	return 0;
}

/* ---- CPU data ----------------------------------------------------------- */

static int cpu_count(void)
{
	char path[PATH_MAX];
	int n;

	for (n = 0;; n++) {
		snprintf(path, sizeof(path), TRACEFS "per_cpu/cpu%d", n);
		if (!vfs_lookup(vfs_root(), path))
			return n;
	}
}

static int grow(struct cpu_data *c)
{
	size_t size = c->size ? c->size * 2 : 4 * PAGE_SIZE;
	u8 *bigger = kmalloc(size);

	if (!bigger)
		return -ENOMEM;
	if (c->len)
		memcpy(bigger, c->buf, c->len);
	kfree(c->buf);
	c->buf = bigger;
	c->size = size;
	return 0;
}

/* The CPU's pages until trace_pipe_raw has no more. */
static int read_cpu(int cpu, struct cpu_data *c)
{
	char path[PATH_MAX];
	struct file *f;
	ssize_t n = 0;
	int err;

	snprintf(path, sizeof(path), TRACEFS "per_cpu/cpu%d/trace_pipe_raw",
		 cpu);
	err = vfs_open(vfs_root(), path, O_RDONLY | O_NONBLOCK, &f);
	while (!err) {
		if (c->size - c->len < PAGE_SIZE && (err = grow(c)))
			break;
		n = vfs_read(f, (char *)c->buf + c->len, PAGE_SIZE);
		if (n <= 0)
			break;
		c->len += n;
	}
	if (!err)
		vfs_close(f);
	return err ?: (n == -EAGAIN ? 0 : n);
}

/* Options, then flyrecord: each CPU's offset and size, then the pages. */
static void put_cpus(struct dat_out *d, struct cpu_data *cpus, int n)
{
	static const u8 zeros[PAGE_SIZE];
	u64 offset;
	int cpu;

	put_string(d, "flyrecord");
	offset = ALIGN_UP(d->pos + 16 * n, PAGE_SIZE);
	for (cpu = 0; cpu < n; cpu++) {
		put_u64(d, cpus[cpu].len ? offset : 0);
		put_u64(d, cpus[cpu].len);
		offset += cpus[cpu].len;
	}
	put(d, zeros, ALIGN_UP(d->pos, PAGE_SIZE) - d->pos);
	for (cpu = 0; cpu < n; cpu++)
		put(d, cpus[cpu].buf, cpus[cpu].len);
}

/* "CPU: N" and per_cpu/cpuN/stats, NUL ended, as trace-cmd keeps them. */
static int put_cpu_stats(struct dat_out *d, int cpu)
{
	char path[PATH_MAX], head[16];
	char *stats;

	snprintf(path, sizeof(path), TRACEFS "per_cpu/cpu%d/stats", cpu);
	stats = sh_read_file(path);
	if (IS_ERR(stats))
		return PTR_ERR(stats);
	snprintf(head, sizeof(head), "CPU: %d\n", cpu);
	put_u16(d, TRACECMD_OPTION_CPUSTAT);
	put_u32(d, strlen(head) + strlen(stats) + 1);
	put(d, head, strlen(head));
	put_string(d, stats);
	kfree(stats);
	return 0;
}

static int put_options(struct dat_out *d, int cpus)
{
	int cpu, err = 0;

	put_string(d, "options  ");
	for (cpu = 0; cpu < cpus && !err; cpu++)
		err = put_cpu_stats(d, cpu);
	if (err)
		return err;
	put_u16(d, TRACECMD_OPTION_CPUCOUNT);
	put_u32(d, 4);
	put_u32(d, cpus);
	put_u16(d, TRACECMD_OPTION_TRACECLOCK);
	return put_file(d, TRACEFS "trace_clock", 4) ?:
	       (put_u16(d, 0), 0);
}

static int read_cpus(struct cpu_data *cpus, int n)
{
	int cpu, err = 0;

	for (cpu = 0; cpu < n && !err; cpu++)
		err = read_cpu(cpu, &cpus[cpu]);
	return err;
}

/* ---- the file ----------------------------------------------------------- */

static void put_initial(struct dat_out *d)
{
	put(d, TRACE_DAT_MAGIC, sizeof(TRACE_DAT_MAGIC) - 1);
	put_string(d, "6");
	put(d, (u8[]){ 0, sizeof(long) }, 2);	/* little endian, long */
	put_u32(d, PAGE_SIZE);
}

int trace_dat_write(const char *path)
{
	int n = cpu_count(), cpu, err;
	struct cpu_data *cpus = kzalloc(n * sizeof(*cpus));
	struct dat_out d = { .pos = 0 };

	if (!cpus)
		return -ENOMEM;
	err = read_cpus(cpus, n) ?: sh_open_output(path, false, &d.o);
	if (!err) {
		put_initial(&d);
		err = put_headers(&d) ?: put_kallsyms(&d) ?:
		      put_file(&d, TRACEFS "printk_formats", 4) ?:
		      put_file(&d, TRACEFS "saved_cmdlines", 8) ?:
		      (put_u32(&d, n), put_options(&d, n));
		if (!err)
			put_cpus(&d, cpus, n);
		err = sh_close_output(&d.o) ?: err;
	}
	for (cpu = 0; cpu < n; cpu++)
		kfree(cpus[cpu].buf);
	kfree(cpus);
	return err;
}
