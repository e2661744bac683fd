/*
 * fuzz_trace_dat.c: the trace.dat writer (kernel/shell/trace_dat.c) read
 * back by the guest's reader (kernel/shell/trace_dat_read.c), against a
 * reference. The input's first byte picks a mode:
 *
 * - round trip: function events drawn from the input (CPUs, pids, time
 *   steps, some past 27 bits, which need a TIME_EXTEND; addresses in a
 *   small symbol table) are laid out in trace_pipe_raw pages by a
 *   reference encoder written here from Linux's ring buffer rules; the
 *   writer makes a file of them and the tracefs texts, and the reader's
 *   report must be exactly the lines worked out here;
 * - raw: the rest of the input is a trace.dat as it came: the reader
 *   must refuse it or print it, reading nothing outside it.
 *
 * The writer and the reader see tracefs and the shell through the small
 * model below: files are strings, output goes to a buffer.
 */
#include <stdarg.h>
#include <stdbool.h>
#include "fuzz.h"
#include "../../lib/string.c"
#include "../../lib/kstrtox.c"
/* bstr_printf for bprint events; the kernel's formatter has libc's names. */
#define vsnprintf rv_vsnprintf
#define snprintf rv_snprintf
#define scnprintf rv_scnprintf
#define put vsprintf_put
#include "../../lib/vsprintf.c"
#undef vsnprintf
#undef snprintf
#undef scnprintf
#undef put
#include "../../kernel/shell/name_list.c"
#include "../../kernel/shell/trace_dat.c"
#include "../../kernel/shell/trace_dat_read.c"

#define MAX_CPUS	3
#define MAX_EVENTS	150	/* more than a page of one CPU */
#define NR_SYMS		6
#define FILE_MAX	(64 << 10)	/* a round trip: 20 KiB at most */

const unsigned long kallsyms_base = 0x80200000;
const u32 kallsyms_num_syms = NR_SYMS;
const u32 kallsyms_offsets[NR_SYMS] = { 0, 0x40, 0x100, 0x104, 0x400, 0x1000 };
const u32 kallsyms_name_offsets[NR_SYMS] = { 0, 6, 12, 16, 25, 33 };
const char kallsyms_types[NR_SYMS] = "TTtTtT";
const char kallsyms_names[] = "_text\0start\0fib\0fib_main\0do_irq\0_etext";

/* kernel/kallsyms.c's /proc/kallsyms line, from the table above. */
int kallsyms_sprint_line(char *buf, size_t size, u32 i)
{
	return snprintf(buf, size, "%016lx %c %s\n",
			kallsyms_base + kallsyms_offsets[i], kallsyms_types[i],
			kallsyms_names + kallsyms_name_offsets[i]);
}

static const char function_format[] =
	"name: function\nID: 1\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;"
	"\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip\n";

struct event {
	int seq, cpu, pid;
	u64 ts, ip, parent;
};

static u8 file_buf[FILE_MAX];

/* The model: tracefs, the CPUs' pages, the file, the report. */
static struct {
	int nr_cpus;
	u8 *pages[MAX_CPUS];
	size_t pages_len[MAX_CPUS], pages_read[MAX_CPUS];
	char cmdlines[256];
	u8 *file;		/* file_buf */
	size_t file_len;
	char *report;
	size_t report_len, report_size;
	struct inode dirs[4];	/* events, ftrace, function, sched */
} m;

void *kmalloc(size_t size)
{
	return malloc(size ? size : 1);
}

void *kzalloc(size_t size)
{
	return calloc(1, size ? size : 1);
}

void kfree(const void *p)
{
	free((void *)p);
}

/* ---- tracefs, as the writer reads it ------------------------------------ */

static const char *model_text(const char *path)
{
	const char *name = path + strlen("/sys/kernel/tracing/");

	if (!strcmp(name, "events/header_page"))
		return "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n";
	if (!strcmp(name, "events/header_event"))
		return "# compressed entry header\n";
	if (!strcmp(name, "events/ftrace/function/format"))
		return function_format;
	if (!strcmp(name, "saved_cmdlines"))
		return m.cmdlines;
	if (!strcmp(name, "trace_clock"))
		return "[local] global\n";
	if (!strncmp(name, "per_cpu/cpu", 11) && strstr(name, "/stats"))
		return "entries: 0\n";
	return NULL;
}

char *sh_read_file(const char *path)
{
	const char *text = model_text(path);

	return text ? strdup(text) : ERR_PTR(-ENOENT);
}

struct inode *vfs_root(void)
{
	return &m.dirs[0];
}

struct inode *vfs_lookup(struct inode *cwd, const char *path)
{
	int cpu;

	return sscanf(path, "/sys/kernel/tracing/per_cpu/cpu%d", &cpu) == 1 &&
	       cpu < m.nr_cpus ? &m.dirs[0] : NULL;
}

int vfs_walk(struct inode *cwd, const char *path, struct inode **out)
{
	*out = !strcmp(path, "/sys/kernel/tracing/events") ? &m.dirs[0] :
	       !strcmp(path, "/sys/kernel/tracing/events/ftrace") ? &m.dirs[1] :
	       &m.dirs[3];
	return 0;
}

/* events/ holds ftrace/ and files; ftrace/ holds function/. */
int vfs_for_each_child(struct inode *dir,
		       int (*fn)(struct inode *child, void *data), void *data)
{
	static struct inode file = { .name = "header_page", .mode = S_IFREG };
	int ret = 0;

	if (dir == &m.dirs[0])
		ret = fn(&m.dirs[1], data) ?: fn(&file, data);
	else if (dir == &m.dirs[1])
		ret = fn(&m.dirs[2], data);
	return ret;
}

/* trace_pipe_raw (private: the CPU plus one) or the file read back. */
int vfs_open(struct inode *cwd, const char *path, int flags,
	     struct file **out)
{
	struct file *f = calloc(1, sizeof(*f));
	int cpu;

	if (sscanf(path, "/sys/kernel/tracing/per_cpu/cpu%d/trace_pipe_raw",
		   &cpu) == 1)
		f->private = (void *)(long)(cpu + 1);
	*out = f;
	return 0;
}

ssize_t vfs_read(struct file *f, char *buf, size_t n)
{
	long cpu = (long)f->private - 1;
	size_t left;

	if (cpu < 0) {
		left = min(n, m.file_len - f->pos);
		memcpy(buf, m.file + f->pos, left);
		f->pos += left;
		return left;
	}
	if (m.pages_read[cpu] == m.pages_len[cpu])
		return -EAGAIN;
	memcpy(buf, m.pages[cpu] + m.pages_read[cpu], PAGE_SIZE);
	m.pages_read[cpu] += PAGE_SIZE;
	return PAGE_SIZE;
}

int vfs_close(struct file *f)
{
	free(f);
	return 0;
}

struct inode *shell_cwd(void)
{
	return &m.dirs[0];
}

bool sh_interrupted(void)
{
	return false;
}

/* ---- the shell's output: the file, or the report ------------------------ */

int sh_open_output(const char *path, bool append, struct shell_out *out)
{
	out->error = 0;
	out->file = NULL;
	m.file_len = 0;
	return 0;
}

void sh_write(struct shell_out *out, const char *buf, size_t n)
{
	if (out) {
		FUZZ_CHECK(m.file_len + n <= FILE_MAX);
		memcpy(m.file + m.file_len, buf, n);
		m.file_len += n;
		return;
	}
	if (m.report_len + n + 1 > m.report_size) {
		m.report_size = 2 * (m.report_len + n + 1);
		m.report = realloc(m.report, m.report_size);
	}
	memcpy(m.report + m.report_len, buf, n);
	m.report_len += n;
	m.report[m.report_len] = 0;
}

int sh_close_output(struct shell_out *out)
{
	return out->error;
}

void sh_puts(struct shell_out *out, const char *s)
{
	sh_write(NULL, s, strlen(s));
}

void sh_printf(struct shell_out *out, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sh_puts(out, buf);
}

/* ---- the reference ------------------------------------------------------ */

static void put32(u8 *page, u32 *off, u32 v)
{
	memcpy(page + 16 + *off, &v, 4);
	*off += 4;
}

/* Linux's pages of one CPU's events: function entries, 24 bytes. */
static void encode_cpu(int cpu, const struct event *ev, int n)
{
	u32 off = 0, i;
	u64 last = 0, delta, commit;
	u8 *page = NULL;
	u16 type = 1;

	for (i = 0; i < (u32)n; i++)
		off += ev[i].cpu == cpu;
	m.pages[cpu] = calloc(off / 100 + 1, PAGE_SIZE);  /* 113 fit a page */
	m.pages_len[cpu] = 0;
	for (i = 0; i < (u32)n; i++) {
		if (ev[i].cpu != cpu)
			continue;
		if (!page || off + 8 + 28 > PAGE_SIZE - 16) {
			page = m.pages[cpu] + m.pages_len[cpu];
			m.pages_len[cpu] += PAGE_SIZE;
			memcpy(page, &ev[i].ts, 8);
			last = ev[i].ts;
			off = 0;
		}
		delta = ev[i].ts - last;
		if (delta >> 27) {
			put32(page, &off, 30 | (u32)(delta & 0x7ffffff) << 5);
			put32(page, &off, delta >> 27);
			delta = 0;
		}
		put32(page, &off, 6 | (u32)delta << 5);
		memcpy(page + 16 + off, &type, 2);
		memset(page + 16 + off + 2, 0, 2);
		memcpy(page + 16 + off + 4, &ev[i].pid, 4);
		memcpy(page + 16 + off + 8, &ev[i].ip, 8);
		memcpy(page + 16 + off + 16, &ev[i].parent, 8);
		off += 24;
		commit = off;
		memcpy(page + 8, &commit, 8);
		last = ev[i].ts;
	}
}

static const char *ref_sym(u64 addr)
{
	int i;

	for (i = NR_SYMS - 1; i >= 0; i--)
		if (kallsyms_base + kallsyms_offsets[i] <= addr)
			return kallsyms_names + kallsyms_name_offsets[i];
	return NULL;
}

static void ref_addr(char *buf, size_t size, u64 addr)
{
	if (ref_sym(addr))
		snprintf(buf, size, "%s", ref_sym(addr));
	else
		snprintf(buf, size, "0x%llx", (unsigned long long)addr);
}

/* A bprint format's %ps, as the small table names the address. */
size_t sprint_symbol(char *buf, size_t size, unsigned long addr,
		     bool with_offset)
{
	ref_addr(buf, size, addr);
	return strlen(buf);
}

static const char *ref_comm(int pid)
{
	return !pid ? "<idle>" : pid % 3 == 0 ? "saved" : "<...>";
}

/* The events in time order, the lower CPU first at equal times. */
static int by_time(const void *a, const void *b)
{
	const struct event *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->cpu != y->cpu ? x->cpu - y->cpu : x->seq - y->seq;
}

static char *expected(struct event *ev, int n)
{
	char *out = malloc(64 + n * 160), *p = out, ip[40], parent[40];
	int i;

	qsort(ev, n, sizeof(*ev), by_time);
	p += sprintf(p, "cpus=%d\n", m.nr_cpus);
	for (i = 0; i < n; i++) {
		u64 us = (ev[i].ts + 500) / 1000;

		ref_addr(ip, sizeof(ip), ev[i].ip);
		ref_addr(parent, sizeof(parent), ev[i].parent);
		p += sprintf(p, "%16s-%-5d [%03d] %5llu.%06llu: function:%12s"
			     "  %s <-- %s\n", ref_comm(ev[i].pid), ev[i].pid,
			     ev[i].cpu, (unsigned long long)us / 1000000,
			     (unsigned long long)us % 1000000, "", ip, parent);
	}
	return out;
}

static u64 draw_addr(struct fuzz_in *in)
{
	return kallsyms_base - 0x10 + fuzz_u64(in, 2);
}

static void round_trip(struct fuzz_in *in)
{
	struct event ev[MAX_EVENTS];
	u64 ts[MAX_CPUS] = { 0 };
	int n = 0, cpu, pid, len;
	char *want;

	m.nr_cpus = 1 + fuzz_pick(in, MAX_CPUS);
	for (pid = 3, len = 0; pid < 60; pid += 3)
		len += snprintf(m.cmdlines + len, sizeof(m.cmdlines) - len,
				"%d saved\n", pid);
	while (in->n && n < MAX_EVENTS) {
		cpu = fuzz_pick(in, m.nr_cpus);
		ts[cpu] += fuzz_pick(in, 8) == 0 ? fuzz_u64(in, 5) :
			   fuzz_u64(in, 2);
		ev[n] = (struct event){ n, cpu, fuzz_pick(in, 40), ts[cpu],
					draw_addr(in), draw_addr(in) };
		n++;
	}
	for (cpu = 0; cpu < m.nr_cpus; cpu++)
		encode_cpu(cpu, ev, n);
	FUZZ_CHECK(trace_dat_write("trace.dat") == 0);
	FUZZ_CHECK(trace_dat_report(NULL, "trace.dat") == 0);
	want = expected(ev, n);
	if (strcmp(m.report, want))
		fprintf(stderr, "got:\n%s\nwant:\n%s\n", m.report, want);
	FUZZ_CHECK(!strcmp(m.report, want));
	free(want);
}

static void raw(struct fuzz_in *in)
{
	int err;

	memcpy(m.file, in->p, in->n);
	m.file_len = in->n;
	err = trace_dat_report(NULL, "trace.dat");
	FUZZ_CHECK(err == 0 || err == -EINVAL);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_in in = { data, size };
	int cpu;

	if (size > FILE_MAX)
		return 0;
	memset(&m, 0, sizeof(m));
	m.dirs[0].mode = m.dirs[1].mode = m.dirs[2].mode = S_IFDIR;
	strcpy(m.dirs[1].name, "ftrace");
	strcpy(m.dirs[2].name, "function");
	m.file = file_buf;
	if (fuzz_u8(&in) & 1)
		raw(&in);
	else
		round_trip(&in);
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		free(m.pages[cpu]);
	free(m.report);
	return 0;
}
