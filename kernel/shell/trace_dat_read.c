/*
 * trace_dat_read.c: `trace-cmd report [FILE]` in the guest, a reader of
 * the version 6 trace.dat that trace_dat.c writes (trace-cmd.dat.v6(5)).
 * It reads the whole file, takes the event formats (the fields'
 * offsets and sizes), the symbols and the saved comms from it, then
 * walks each CPU's pages and prints the events of all CPUs in time
 * order, a line each, as the host's `trace-cmd report -N` prints the
 * tracers' events: function, funcgraph_entry, funcgraph_exit, print,
 * bprint (its format found by address in the printk section) and
 * raw_data by their print fmt, other events as `report -R` does, field=value.
 *
 * The file is outside input: every length is checked against the end,
 * and a file that does not parse is EINVAL, not a crash.
 */
#include "kernel.h"
#include "mm.h"
#include "printf.h"
#include "shell.h"
#include "string.h"
#include "kstrtox.h"
#include "ctype.h"
#include "vfs.h"
#include "trace_dat.h"

#define MAX_FIELDS	16
#define FIELD_NAME	32
#define RB_TYPE_PADDING		29
#define RB_TYPE_TIME_EXTEND	30
#define RB_TYPE_TIME_STAMP	31
#define RB_COMMIT_MASK		0xfffff	/* the flags above it: lost events */
#define BPRINT_TEXT_MAX		1024	/* Linux's TRACE_BUF_SIZE */

struct dat_field {
	char name[FIELD_NAME];
	u32 offset, size;
	bool is_signed, is_string, is_data_loc;
};

struct dat_event {
	int id;
	char name[FIELD_NAME];
	int nr_fields;
	struct dat_field fields[MAX_FIELDS];	/* after the common four */
};

struct dat_sym {
	u64 addr;
	const char *name;
};

struct dat_cpu {
	const u8 *data, *end;		/* its pages */
	const u8 *page, *p;		/* the page and the next event */
	const u8 *page_end;
	u64 ts;				/* of the event at p, once peeked */
	const u8 *rec;			/* its record, NULL: none left */
	u32 len;
};

struct dat_reader {
	u8 *buf;
	size_t size;
	const u8 *p, *end;		/* the parsing cursor */
	bool bad;
	u32 page_size;
	struct dat_event *events;
	int nr_events, max_events;
	struct dat_sym *syms;
	int nr_syms;
	struct dat_sym *printk;		/* trace_printk's formats */
	int nr_printk;
	u32 *words;			/* one bprint's arguments */
	char *text;			/* and its text */
	char *cmdlines;			/* "pid comm" lines, NULs for '\n' */
	int nr_cpus;
	struct dat_cpu *cpus;
};

/* ---- the cursor --------------------------------------------------------- */

static const u8 *take(struct dat_reader *r, size_t n)
{
	const u8 *p = r->p;

	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = true;
		return NULL;
	}
	r->p += n;
	return p;
}

static u64 take_num(struct dat_reader *r, size_t n)
{
	const u8 *p = take(r, n);
	u64 v = 0;

	if (p)
		memcpy(&v, p, n);	/* little endian, as the machine */
	return v;
}

/* A NUL-ended string at the cursor. */
static const char *take_string(struct dat_reader *r)
{
	const u8 *nul = r->bad ? NULL : memchr(r->p, 0, r->end - r->p);

	return nul ? (const char *)take(r, nul - r->p + 1) : (r->bad = true,
							       NULL);
}

static bool take_word(struct dat_reader *r, const char *word)
{
	const char *s = take_string(r);

	if (s && strcmp(s, word))
		r->bad = true;
	return !r->bad;
}

/* ---- formats ------------------------------------------------------------ */

/* The number s begins with, in base 10 or 16; false if none. */
static bool parse_num(const char *s, unsigned int base, u64 *v)
{
	const char *start = s;
	int d;

	for (*v = 0;; s++) {
		d = isdigit(*s) ? *s - '0' :
		    base == 16 && isxdigit(*s) ? (*s | 0x20) - 'a' + 10 : -1;
		if (d < 0)
			return s > start;
		*v = *v * base + d;
	}
}

/* "\tfield:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" */
static bool parse_field(const char *line, struct dat_field *f)
{
	const char *semi = strchr(line, ';'), *name = semi, *off, *sz, *sg;
	u64 offset, size;

	while (name && name > line && name[-1] != ' ')
		name--;
	off = semi ? strstr(semi, "offset:") : NULL;
	sz = off ? strstr(off, "size:") : NULL;
	sg = sz ? strstr(sz, "signed:") : NULL;
	if (!sg || !parse_num(off + 7, 10, &offset) ||
	    !parse_num(sz + 5, 10, &size) || offset > 0xffff || size > 0xffff)
		return false;
	memset(f, 0, sizeof(*f));
	strlcpy(f->name, name, min((size_t)(semi - name + 1), sizeof(f->name)));
	if (strchr(f->name, '['))
		*strchr(f->name, '[') = 0;
	f->offset = offset;
	f->size = size;
	f->is_signed = sg[7] == '1';
	f->is_data_loc = !!strstr(line, "__data_loc");
	f->is_string = strstr(line, "char ") && strchr(line, '[');
	return true;
}

/* A format file's name, ID and fields past the four common ones. */
static int parse_format(struct dat_event *e, char *text)
{
	char *rest = text, *line;
	unsigned long id;

	memset(e, 0, sizeof(*e));
	e->id = -1;
	while ((line = str_next_line(&rest))) {
		if (str_has_prefix(line, "name: "))
			strlcpy(e->name, line + 6, sizeof(e->name));
		else if (str_has_prefix(line, "ID: ") &&
			 !kstrtoul(line + 4, 10, &id))
			e->id = id;
		else if (strstr(line, "field:") && !strstr(line, "common_") &&
			 e->nr_fields < MAX_FIELDS &&
			 parse_field(line, &e->fields[e->nr_fields]))
			e->nr_fields++;
	}
	return e->id < 0 || !e->name[0] ? -EINVAL : 0;
}

static int grow_events(struct dat_reader *r)
{
	int max = r->max_events ? r->max_events * 2 : 8;
	struct dat_event *bigger = kmalloc(max * sizeof(*bigger));

	if (!bigger)
		return -ENOMEM;
	if (r->nr_events)
		memcpy(bigger, r->events, r->nr_events * sizeof(*bigger));
	kfree(r->events);
	r->events = bigger;
	r->max_events = max;
	return 0;
}

/* One format with its u64 size, copied out to parse. */
static int read_format(struct dat_reader *r)
{
	u64 size = take_num(r, 8);
	const u8 *text = take(r, size);
	char *copy;
	int err;

	if (!text || (r->nr_events == r->max_events && grow_events(r)))
		return r->bad ? -EINVAL : -ENOMEM;
	copy = kmalloc(size + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, text, size);
	copy[size] = 0;
	err = parse_format(&r->events[r->nr_events], copy);
	kfree(copy);
	if (!err)
		r->nr_events++;
	return err;
}

static int read_formats(struct dat_reader *r, u32 count)
{
	int err = 0;

	while (count-- && !err)
		err = read_format(r);
	return err;
}

static int read_systems(struct dat_reader *r)
{
	u32 systems = take_num(r, 4);
	int err = 0;

	while (systems-- && !err && take_string(r))
		err = read_formats(r, take_num(r, 4));
	return r->bad ? -EINVAL : err;
}

static const struct dat_event *find_event(const struct dat_reader *r, int id)
{
	int i;

	for (i = 0; i < r->nr_events; i++)
		if (r->events[i].id == id)
			return &r->events[i];
	return NULL;
}

/* ---- kallsyms and comms ------------------------------------------------- */

/* A text section (its 4-byte size, then lines): the text, its lines. */
static char *take_lines(struct dat_reader *r, char **end, int *lines)
{
	u32 size = take_num(r, 4);
	char *text = (char *)take(r, size), *p;

	if (!text)
		return NULL;
	*end = text + size;
	*lines = 0;
	for (p = text; p < *end; p++)
		*lines += *p == '\n';
	return text;
}

/* "ADDRESS TYPE NAME" lines into an array, sorted as the file is. */
static int read_kallsyms(struct dat_reader *r)
{
	char *end, *p, *nl, *text;
	u64 addr;
	int n;

	text = take_lines(r, &end, &n);
	if (!text)
		return -EINVAL;
	r->syms = kmalloc((n + 1) * sizeof(*r->syms));
	if (!r->syms)
		return -ENOMEM;
	for (p = text; p < end && (nl = memchr(p, '\n', end - p)); p = nl + 1) {
		*nl = 0;
		if (nl - p > 19 && parse_num(p, 16, &addr)) {
			r->syms[r->nr_syms].addr = addr;
			r->syms[r->nr_syms++].name = p + 19;
		}
	}
	return 0;
}

/* The symbol at or before addr, as %ps names it; NULL if none. */
static const char *sym_name(const struct dat_reader *r, u64 addr)
{
	int lo = 0, hi = r->nr_syms;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (r->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? r->syms[lo - 1].name : NULL;
}

/* A printk format's text in place, its escapes undone. */
static char *unescape(char *s, char *end)
{
	char *from, *to = s;

	for (from = s; from < end; from++) {
		if (*from == '\\' && from + 1 < end &&
		    strchr("nt\"", from[1])) {
			from++;
			*to++ = *from == 'n' ? '\n' : *from == 't' ? '\t' : '"';
		} else {
			*to++ = *from;
		}
	}
	*to = 0;
	return s;
}

/* printk_formats' lines: `0xADDR : "FORMAT"`. */
static int read_printk(struct dat_reader *r)
{
	char *end, *p, *nl, *text;
	u64 addr;
	int n;

	text = take_lines(r, &end, &n);
	if (!text)
		return -EINVAL;
	r->printk = kmalloc((n + 1) * sizeof(*r->printk));
	r->words = kmalloc(BPRINT_TEXT_MAX);
	r->text = kmalloc(BPRINT_TEXT_MAX);
	if (!r->printk || !r->words || !r->text)
		return -ENOMEM;
	for (p = text; p < end && (nl = memchr(p, '\n', end - p)); p = nl + 1) {
		char *quote = memchr(p, '"', nl - p);

		if (quote && nl[-1] == '"' && nl - 1 > quote &&
		    !strncmp(p, "0x", 2) && parse_num(p + 2, 16, &addr)) {
			r->printk[r->nr_printk].addr = addr;
			r->printk[r->nr_printk++].name =
				unescape(quote + 1, nl - 1);
		}
	}
	return 0;
}

static const char *printk_format(const struct dat_reader *r, u64 addr)
{
	int i;

	for (i = 0; i < r->nr_printk; i++)
		if (r->printk[i].addr == addr)
			return r->printk[i].name;
	return NULL;
}

static int read_cmdlines(struct dat_reader *r)
{
	u64 size = take_num(r, 8);
	const u8 *text = take(r, size);

	if (!text)
		return -EINVAL;
	r->cmdlines = kmalloc(size + 1);
	if (!r->cmdlines)
		return -ENOMEM;
	memcpy(r->cmdlines, text, size);
	r->cmdlines[size] = 0;
	return 0;
}

/* As trace-cmd: pid 0 is <idle>, a pid without a saved comm <...>. */
static void find_comm(const struct dat_reader *r, int pid, char *comm,
		      size_t size)
{
	const char *line = r->cmdlines;
	u64 p;

	strlcpy(comm, pid ? "<...>" : "<idle>", size);
	while (pid && line && *line) {
		const char *nl = strchr(line, '\n'), *space = strchr(line, ' ');

		if (space && (!nl || space < nl) &&
		    parse_num(line, 10, &p) && p == (u64)pid) {
			strlcpy(comm, space + 1,
				min(size, (size_t)((nl ?: space + strlen(space))
						   - space)));
			return;
		}
		line = nl ? nl + 1 : NULL;
	}
}

/* ---- the header --------------------------------------------------------- */

static int read_options(struct dat_reader *r)
{
	u16 id;

	if (!take_word(r, "options  "))
		return -EINVAL;
	while ((id = take_num(r, 2)) && !r->bad)
		take(r, take_num(r, 4));
	return take_word(r, "flyrecord") ? 0 : -EINVAL;
}

static int read_flyrecord(struct dat_reader *r)
{
	int cpu;

	r->cpus = kzalloc(r->nr_cpus * sizeof(*r->cpus));
	if (!r->cpus)
		return -ENOMEM;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		u64 offset = take_num(r, 8), size = take_num(r, 8);

		if (offset > r->size || size > r->size - offset ||
		    size % r->page_size)
			return -EINVAL;
		r->cpus[cpu].data = r->buf + offset;
		r->cpus[cpu].end = r->buf + offset + size;
	}
	return r->bad ? -EINVAL : 0;
}

static int read_header(struct dat_reader *r)
{
	const u8 *magic = take(r, sizeof(TRACE_DAT_MAGIC) - 1);
	int err;

	if (!magic || memcmp(magic, TRACE_DAT_MAGIC, sizeof(TRACE_DAT_MAGIC) - 1)
	    || !take_word(r, "6") || take_num(r, 1) != 0 ||
	    take_num(r, 1) != 8)
		return -EINVAL;
	r->page_size = take_num(r, 4);
	if (r->page_size < 64 || r->page_size > 65536)
		return -EINVAL;
	take_word(r, "header_page");
	take(r, take_num(r, 8));
	take_word(r, "header_event");
	take(r, take_num(r, 8));
	err = read_formats(r, take_num(r, 4)) ?: read_systems(r) ?:
	      read_kallsyms(r);
	if (err)
		return err;
	err = read_printk(r) ?: read_cmdlines(r);
	if (err)
		return err;
	r->nr_cpus = take_num(r, 4);
	if (r->bad || r->nr_cpus < 1 || r->nr_cpus > 64)
		return -EINVAL;
	return read_options(r) ?: read_flyrecord(r);
}

/* ---- the pages ---------------------------------------------------------- */

static bool next_page(struct dat_reader *r, struct dat_cpu *c)
{
	u64 commit;

	c->page = c->page ? c->page + r->page_size : c->data;
	if (c->page >= c->end)
		return false;
	memcpy(&c->ts, c->page, 8);
	memcpy(&commit, c->page + 8, 8);
	c->p = c->page + 16;
	c->page_end = c->p + min((u64)(commit & RB_COMMIT_MASK),
				 (u64)r->page_size - 16);
	return true;
}

/*
 * The CPU's next record and its time (kernel/trace/ring_buffer.c's
 * event header: type_len 1..28 data words, 0 the length in the next
 * word, 30 a time extend); padding ends the page.
 */
static void peek(struct dat_reader *r, struct dat_cpu *c)
{
	u32 h, type_len, word;

	c->rec = NULL;
	while (c->page || next_page(r, c)) {
		if (c->page_end - c->p < 4) {
			if (!next_page(r, c))
				return;
			continue;
		}
		memcpy(&h, c->p, 4);
		type_len = h & 31;
		word = 0;
		if (c->page_end - c->p >= 8)
			memcpy(&word, c->p + 4, 4);
		if (type_len == RB_TYPE_PADDING || type_len == RB_TYPE_TIME_STAMP ||
		    (type_len >= RB_TYPE_TIME_EXTEND && c->page_end - c->p < 8)) {
			c->p = c->page_end;
			continue;
		}
		if (type_len == RB_TYPE_TIME_EXTEND) {
			c->ts += ((u64)word << 27) + (h >> 5);
			c->p += 8;
			continue;
		}
		c->len = type_len ? type_len * 4 : word - 4;
		c->rec = c->p + (type_len ? 4 : 8);
		if ((!type_len && word < 4) || c->page_end - c->rec < c->len) {
			c->p = c->page_end;
			c->rec = NULL;
			continue;
		}
		c->ts += h >> 5;
		return;
	}
}

static void consume(struct dat_cpu *c)
{
	c->p = c->rec + c->len;
}

/* ---- printing ----------------------------------------------------------- */

static u64 field_num(const u8 *rec, u32 len, const struct dat_field *f)
{
	u64 v = 0;

	if (f->offset + f->size <= len && f->size <= 8)
		memcpy(&v, rec + f->offset, f->size);
	if (f->is_signed && f->size < 8 && (v >> (f->size * 8 - 1)) & 1)
		v |= ~0ULL << (f->size * 8);
	return v;
}

static const struct dat_field *field(const struct dat_event *e,
				     const char *name)
{
	int i;

	for (i = 0; i < e->nr_fields; i++)
		if (!strcmp(e->fields[i].name, name))
			return &e->fields[i];
	return NULL;
}

static u64 num(const struct dat_event *e, const u8 *rec, u32 len,
	       const char *name)
{
	const struct dat_field *f = field(e, name);

	return f ? field_num(rec, len, f) : 0;
}

static void print_sym(struct shell_out *out, const struct dat_reader *r,
		      u64 addr)
{
	const char *name = sym_name(r, addr);

	if (name)
		sh_puts(out, name);
	else
		sh_printf(out, "0x%llx", addr);
}

/* A string field: inline array, or __data_loc's offset and length. */
static void print_string(struct shell_out *out, const u8 *rec, u32 len,
			 const struct dat_field *f)
{
	u32 off = f->offset, size = f->size, loc;

	if (f->is_data_loc) {
		loc = field_num(rec, len, f);
		off = loc & 0xffff;
		size = loc >> 16;
	}
	if (off > len)
		return;
	size = min(size, len - off);
	sh_printf(out, "%.*s", (int)strnlen((const char *)rec + off, size),
		  rec + off);
}

/* Every field, as trace-cmd report -R. */
static void print_fields(struct shell_out *out, const struct dat_event *e,
			 const u8 *rec, u32 len)
{
	const struct dat_field *f;

	for (f = e->fields; f < e->fields + e->nr_fields; f++) {
		sh_printf(out, " %s=", f->name);
		if (f->is_string || f->is_data_loc)
			print_string(out, rec, len, f);
		else if (f->is_signed)
			sh_printf(out, "%lld", (long long)field_num(rec, len, f));
		else
			sh_printf(out, "%llu", field_num(rec, len, f));
	}
}

/*
 * trace_printk's text: the format the printk section gives for the
 * event's fmt, with vbin_printf's words from buf to the event's end;
 * an unknown format prints the caller alone.
 */
static void print_bprint(struct shell_out *out, const struct dat_reader *r,
			 const struct dat_event *e, const u8 *rec, u32 len)
{
	const char *fmt = printk_format(r, num(e, rec, len, "fmt"));
	u32 off = field(e, "buf")->offset;
	size_t n = off < len ? min(len - off, (u32)BPRINT_TEXT_MAX) : 0;

	print_sym(out, r, num(e, rec, len, "ip"));
	sh_puts(out, ": ");
	if (!fmt)
		return;
	memcpy(r->words, rec + off, n);	/* the file's words may be unaligned */
	n = bstr_printf(r->text, BPRINT_TEXT_MAX, fmt, r->words, n / 4);
	n = min(n, (size_t)BPRINT_TEXT_MAX - 1);
	if (n && r->text[n - 1] == '\n')	/* the line's end, as trace-cmd */
		r->text[n - 1] = 0;
	sh_puts(out, r->text);
}

/* The tracers' events by their print fmt (trace/trace_entries.c). */
static void print_info(struct shell_out *out, const struct dat_reader *r,
		       const struct dat_event *e, const u8 *rec, u32 len)
{
	const char *name = e->name;
	u32 off;

	if (!strcmp(name, "function")) {
		sh_puts(out, " ");
		print_sym(out, r, num(e, rec, len, "ip"));
		sh_puts(out, " <-- ");
		print_sym(out, r, num(e, rec, len, "parent_ip"));
	} else if (!strcmp(name, "funcgraph_entry")) {
		sh_puts(out, "--> ");
		print_sym(out, r, num(e, rec, len, "func"));
		sh_printf(out, " (%d)", (int)num(e, rec, len, "depth"));
	} else if (!strcmp(name, "funcgraph_exit")) {
		sh_puts(out, "<-- ");
		print_sym(out, r, num(e, rec, len, "func"));
		sh_printf(out, " (%d) (start: %llx  end: %llx) over: %d",
			  (int)num(e, rec, len, "depth"),
			  num(e, rec, len, "calltime"),
			  num(e, rec, len, "rettime"),
			  (int)num(e, rec, len, "depth"));
	} else if (!strcmp(name, "print") && field(e, "buf")) {
		print_sym(out, r, num(e, rec, len, "ip"));
		sh_puts(out, ": ");
		print_string(out, rec, len, field(e, "buf"));
	} else if (!strcmp(name, "bprint") && field(e, "buf")) {
		print_bprint(out, r, e, rec, len);
	} else if (!strcmp(name, "raw_data") && field(e, "buf")) {
		off = field(e, "buf")->offset;
		sh_printf(out, "id:%04x %08x", (u32)num(e, rec, len, "id"),
			  off < len ? rec[off] : 0);	/* char is unsigned */
	} else {
		print_fields(out, e, rec, len);
	}
}

/* "COMM-PID [CPU] SECS.USECS: NAME: INFO", trace-cmd report's columns. */
static void print_event(struct shell_out *out, const struct dat_reader *r,
			int cpu, const struct dat_cpu *c)
{
	const struct dat_event *e;
	u64 us = (c->ts + 500) / 1000;
	char comm[32];			/* a saved comm: 16 at most */
	u16 type;
	int pid;

	if (c->len < 8)
		return;
	memcpy(&type, c->rec, 2);
	memcpy(&pid, c->rec + 4, 4);
	find_comm(r, pid, comm, sizeof(comm));
	sh_printf(out, "%16s-%-5d [%03d] %5llu.%06llu: ", comm, pid, cpu,
		  us / 1000000, us % 1000000);
	e = find_event(r, type);
	if (!e) {
		sh_printf(out, "[UNKNOWN TYPE %u]\n", type);
		return;
	}
	sh_printf(out, "%s:%*s ", e->name, max(0, 20 - (int)strlen(e->name)),
		  "");
	print_info(out, r, e, c->rec, c->len);
	sh_puts(out, "\n");
}

/* All CPUs' events, the earliest first, as trace-cmd merges them. */
static void print_events(struct shell_out *out, struct dat_reader *r)
{
	struct dat_cpu *first;
	int cpu, first_cpu;

	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		peek(r, &r->cpus[cpu]);
	for (;;) {
		first = NULL;
		first_cpu = 0;
		for (cpu = 0; cpu < r->nr_cpus; cpu++)
			if (r->cpus[cpu].rec &&
			    (!first || r->cpus[cpu].ts < first->ts)) {
				first = &r->cpus[cpu];
				first_cpu = cpu;
			}
		if (!first || sh_interrupted())
			return;
		print_event(out, r, first_cpu, first);
		consume(first);
		peek(r, first);
	}
}

/* ---- the file ----------------------------------------------------------- */

/* The file into r->buf, which doubles as it fills. */
static int read_whole(const char *path, struct dat_reader *r)
{
	size_t room = 0;
	struct file *f = NULL;
	ssize_t n = 0;
	u8 *bigger;
	int err = vfs_open(shell_cwd(), path, O_RDONLY, &f);

	while (!err) {
		if (r->size == room) {
			room = room ? room * 2 : PAGE_SIZE;
			bigger = kmalloc(room);
			if (!bigger) {
				err = -ENOMEM;
				break;
			}
			if (r->size)
				memcpy(bigger, r->buf, r->size);
			kfree(r->buf);
			r->buf = bigger;
		}
		n = vfs_read(f, (char *)r->buf + r->size, room - r->size);
		if (n <= 0)
			break;
		r->size += n;
	}
	if (f)
		vfs_close(f);
	return err ?: n;
}

int trace_dat_report(struct shell_out *out, const char *path)
{
	struct dat_reader r = { 0 };
	int err = read_whole(path, &r);

	if (!err) {
		r.p = r.buf;
		r.end = r.buf + r.size;
		err = read_header(&r);
	}
	if (!err) {
		sh_printf(out, "cpus=%d\n", r.nr_cpus);
		print_events(out, &r);
	}
	kfree(r.cpus);
	kfree(r.cmdlines);
	kfree(r.text);
	kfree(r.words);
	kfree(r.printk);
	kfree(r.syms);
	kfree(r.events);
	kfree(r.buf);
	return err;
}
