/*
 * fuzz_ftrace_filter.c: what a write to set_ftrace_filter,
 * set_ftrace_notrace, set_graph_function or set_graph_notrace goes
 * through (trace/ftrace_files.c): the text, in writes cut anywhere,
 * split into words, each a glob or (set_ftrace_filter only) a command
 * [!]FUNC:cmd[:N] split by ftrace_process_command()
 * (trace/ftrace_command.c), or (set_ftrace_filter and
 * set_ftrace_notrace) FUNC:mod[:MODULE]. The globs, commands and mod
 * words must reach the matcher, the command functions and
 * ftrace_mod_command(), stubbed here to record them, in order and
 * exactly as a plain split of the whole text says; the first bad word
 * fails its write, and the hash is installed at close, in the file's
 * own place, whatever failed (as Linux's ftrace_regex_release does).
 * Then ftrace_enabled's number, which must be taken exactly when
 * kstrtoint() takes it once trimmed.
 */
#include <stdarg.h>
#include "fuzz.h"
#include "../../lib/string.c"
#include "../../lib/kstrtox.c"
#include "../../trace/ftrace_hash.c"
#include "../../trace/trace_pid.c"
#include "stub_trace_pid.h"
#include "../../trace/ftrace_command.c"
#include "../../trace/ftrace_files.c"

#define TEXT_MAX	4096
/* Each call's line is at most its word and 32 bytes more. */
#define LOG_MAX		(TEXT_MAX * 34)
#define BLANKS		" \t\n\r"

/* A list of calls, one line each. */
struct call_log {
	char text[LOG_MAX];
	size_t len;
};

/* What reached the stubs, and what got installed. */
static struct call_log calls;
static struct ftrace_hash *installed;
static const char *installed_as;	/* which of the four hashes */
static int sysctl_value;
static bool sysctl_called;

static __printf(2, 3) void record(struct call_log *log, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log->len += vsnprintf(log->text + log->len, LOG_MAX - log->len, fmt,
			      ap);
	va_end(ap);
	FUZZ_CHECK(log->len < LOG_MAX);
}

/* ---- the kernel around ftrace_files.c, reduced to what it must do ---- */

struct trace_array global_trace;
struct mutex ftrace_lock;
int ftrace_enabled = 1;

void *kmalloc(size_t size)
{
	return malloc(size);
}

void *kzalloc(size_t size)
{
	return calloc(1, size);
}

void kfree(const void *p)
{
	free((void *)p);
}

void mutex_lock(struct mutex *m)
{
}

void mutex_unlock(struct mutex *m)
{
}

void synchronize_sched(void)
{
}

/* The files are only written here: no listing is ever made. */
int seq_init(struct seq_buf *s, size_t size)
{
	abort();
}

void seq_free(struct seq_buf *s)
{
	FUZZ_CHECK(!s->buf);
}

void seq_printf(struct seq_buf *s, const char *fmt, ...)
{
	abort();
}

void seq_puts(struct seq_buf *s, const char *str)
{
	abort();
}

ssize_t seq_read(struct seq_buf *s, struct file *f, char *buf, size_t n)
{
	abort();
}

void ftrace_probes_show(struct trace_array *tr, struct seq_buf *s)
{
	abort();
}

void ftrace_mod_show(struct list_head *head, struct seq_buf *s)
{
	abort();
}

/* Only the files that take FUNC:mod:MODULE drop the kept ones at `>`. */
void ftrace_mod_clear(struct list_head *head)
{
	FUZZ_CHECK(head == &global_trace.mod_trace ||
		   head == &global_trace.mod_notrace);
}

int ftrace_mod_command(struct list_head *head, struct ftrace_hash *hash,
		       const char *func, const char *module)
{
	FUZZ_CHECK(head == &global_trace.mod_trace ||
		   head == &global_trace.mod_notrace);
	record(&calls, "mod %s %s\n", func, module ? module : "(none)");
	return 0;
}

int ftrace_for_each_rec(int (*fn)(struct dyn_ftrace *rec, void *data),
			void *data)
{
	abort();
}

unsigned long ftrace_nr_records(void)
{
	abort();
}

unsigned long vfs_nr_alloc_failures;

unsigned long ftrace_nr_pages(void)
{
	abort();
}

struct inode *vfs_lookup(struct inode *cwd, const char *path)
{
	abort();
}

struct inode *vfs_create(struct inode *parent, const char *name,
			 unsigned int mode,
			 const struct file_operations *fops, void *private)
{
	abort();
}

struct inode *create_simple(struct inode *dir, const char *name,
			    void (*show)(struct seq_buf *s, long data),
			    int (*store)(char *buf, struct file *file,
					 long data),
			    long data)
{
	abort();
}

struct ftrace_hash *ftrace_ops_hash_copy(struct ftrace_ops *ops, bool filter)
{
	return alloc_ftrace_hash(4);
}

static void install(struct ftrace_hash *hash, const char *as)
{
	FUZZ_CHECK(!installed);
	installed = hash;
	installed_as = as;
}

int ftrace_ops_set_hash(struct ftrace_ops *ops, struct ftrace_hash *hash,
			bool filter)
{
	FUZZ_CHECK(ops == &global_trace.ops);
	install(hash, filter ? "filter" : "notrace");
	return 0;
}

struct ftrace_hash *ftrace_graph_hash_copy(bool is_notrace)
{
	return alloc_ftrace_hash(4);
}

void ftrace_graph_set_hash(struct ftrace_hash *hash, bool is_notrace)
{
	install(hash, is_notrace ? "graph_notrace" : "graph");
}

int ftrace_enable_sysctl(int enable)
{
	sysctl_called = true;
	sysctl_value = enable;
	return 0;
}

/* A glob "matches" the one site its text hashes to; with a 'Z', none. */
static unsigned long glob_ip(const char *glob, int len)
{
	unsigned long h = 5381;

	while (len--)
		h = h * 33 + (u8)*glob++;
	return h << 2;
}

int ftrace_match_records(struct ftrace_hash *hash, const char *glob, int len)
{
	record(&calls, "glob %.*s\n", len, glob);
	if (memchr(glob, 'Z', len))
		return -EINVAL;
	return ftrace_hash_add(hash, glob_ip(glob, len)) ?: 1;
}

static int cmd_func(struct trace_array *tr, const char *glob, int len,
		    const char *param, bool remove, const char *name)
{
	FUZZ_CHECK(tr == &global_trace && (int)strlen(glob) == len);
	record(&calls, "cmd %s %s %s %s\n", name, glob,
	       param ? param : "(none)", remove ? "remove" : "add");
	return 0;
}

static int traceoff_func(struct trace_array *tr, const char *glob, int len,
			 const char *param, bool remove)
{
	return cmd_func(tr, glob, len, param, remove, "traceoff");
}

static int stacktrace_func(struct trace_array *tr, const char *glob, int len,
			   const char *param, bool remove)
{
	return cmd_func(tr, glob, len, param, remove, "stacktrace");
}

static struct ftrace_func_command traceoff_cmd = {
	.name = "traceoff", .func = traceoff_func,
};
static struct ftrace_func_command stacktrace_cmd = {
	.name = "stacktrace", .func = stacktrace_func,
};

/* ---- the reference --------------------------------------------------- */

struct expect {
	struct call_log calls;
	bool failed;		/* a word was bad */
	bool write_failed;	/* one that a blank ended, or too long */
};

/* [!]FUNC:cmd[:param], split at the first two colons. */
static int ref_command(char *w, struct expect *e)
{
	bool remove = w[0] == '!';
	char *func = w + remove, *cmd = strchr(func, ':'), *param;

	*cmd++ = 0;
	param = strchr(cmd, ':');
	if (param)
		*param++ = 0;
	if (!*func || (strcmp(cmd, "traceoff") && strcmp(cmd, "stacktrace")))
		return -EINVAL;
	record(&e->calls, "cmd %s %s %s %s\n", cmd, func,
	       param ? param : "(none)", remove ? "remove" : "add");
	return 0;
}

/* FUNC:mod[:MODULE]: true if the word is one, and then its call. */
static bool ref_mod(char *w, struct expect *e)
{
	char *cmd = strchr(w, ':') + 1, *module = strchr(cmd, ':');

	if (module)
		*module++ = 0;
	if (strcmp(cmd, "mod"))
		return false;
	cmd[-1] = 0;
	record(&e->calls, "mod %s %s\n", w, module ? module : "(none)");
	return true;
}

/* One word: what it must call, and false if it must fail the write. */
static bool ref_word(char *w, bool filter, bool mods, struct expect *e)
{
	char *copy;
	bool is_mod;

	if (strlen(w) >= TOKEN_MAX)
		return false;
	if (strchr(w, ':')) {
		copy = strdup(w);
		is_mod = mods && ref_mod(copy, e);
		free(copy);
		return is_mod || (filter && !ref_command(w, e));
	}
	record(&e->calls, "glob %s\n", w);
	return !strchr(w, 'Z');
}

static void ref_text(const char *text, bool filter, bool mods,
		     struct expect *e)
{
	char *copy = strdup(text), *w, *save;
	size_t end;

	e->calls.len = 0;
	e->calls.text[0] = 0;
	e->failed = e->write_failed = false;
	for (w = strtok_r(copy, BLANKS, &save); w && !e->failed;
	     w = strtok_r(NULL, BLANKS, &save)) {
		end = w - copy + strlen(w);
		e->failed = !ref_word(w, filter, mods, e);
		/* the last word, applied at close, cannot fail a write */
		e->write_failed = e->failed &&
				  (text[end] || end - (w - copy) >= TOKEN_MAX);
	}
	free(copy);
}

/* ---- the runs ---------------------------------------------------------- */

/*
 * Open, the writes, close. Each chunk is a length byte and that many
 * bytes; writing stops at the first error, as `echo` would.
 */
static void check_filter(struct fuzz_in *in,
			 const struct ftrace_filter_file *ff, const char *as)
{
	static char text[TEXT_MAX];
	static struct expect e;
	struct inode inode = { .private = (void *)ff };
	struct file file = { .inode = &inode, .flags = O_WRONLY | O_TRUNC };
	size_t len = 0, n;
	bool failed = false;
	int i;

	calls.len = 0;
	calls.text[0] = 0;
	installed = NULL;
	FUZZ_CHECK(ftrace_filter_fops.open(&inode, &file) == 0);
	while (in->n && !failed) {
		n = fuzz_u8(in);
		n = min(n, min(in->n, sizeof(text) - 1 - len));
		memcpy(text + len, in->p, n);
		failed = ftrace_filter_fops.write(&file, text + len, n) < 0;
		len += n;
		in->p += n;
		in->n -= n;
		if (!n)
			break;
	}
	ftrace_filter_fops.release(&inode, &file);
	for (i = 0; i < (int)len; i++)	/* NULs separate words too */
		text[i] = text[i] ?: ' ';
	text[len] = 0;
	ref_text(text, ff->commands, ff->mods, &e);
	FUZZ_CHECK(!strcmp(calls.text, e.calls.text));
	FUZZ_CHECK(failed == e.write_failed);
	FUZZ_CHECK(installed && !strcmp(installed_as, as));
	free_ftrace_hash(installed);
}

/* ftrace_enabled takes one int, blanks around it allowed. */
static void check_enabled(struct fuzz_in *in)
{
	char *text = fuzz_str(in, 0), *copy = strdup(text);
	int want, err = kstrtoint(strim(copy), 10, &want);

	sysctl_called = false;
	FUZZ_CHECK(ftrace_enabled_store(text, NULL, 0) == err);
	FUZZ_CHECK(sysctl_called == !err && (err || sysctl_value == want));
	free(text);
	free(copy);
}

/*
 * The top level's copy of a filter file's template, as
 * ftrace_files.c:create_filter_file makes it for global_trace.
 */
static const struct ftrace_filter_file *
top_level(const struct ftrace_filter_file *template)
{
	static struct ftrace_filter_file ff;

	ff = *template;
	ff.ops = &global_trace.ops;
	ff.mods = template->is_notrace ? &global_trace.mod_notrace :
					 &global_trace.mod_trace;
	ff.tr = &global_trace;
	return &ff;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_in in = { data, size };
	static bool registered;

	if (!registered) {
		FUZZ_CHECK(!ftrace_pid_cache_alloc(&global_trace));
		FUZZ_CHECK(!register_ftrace_command(&traceoff_cmd));
		FUZZ_CHECK(!register_ftrace_command(&stacktrace_cmd));
		FUZZ_CHECK(register_ftrace_command(&traceoff_cmd) == -EBUSY);
		registered = true;
	}
	switch (fuzz_pick(&in, 5)) {
	case 0:
		check_filter(&in, top_level(&set_ftrace_filter), "filter");
		break;
	case 1:
		check_filter(&in, top_level(&set_ftrace_notrace), "notrace");
		break;
	case 2:
		check_enabled(&in);
		break;
	case 3:
		check_filter(&in, &set_graph_function, "graph");
		break;
	default:
		check_filter(&in, &set_graph_notrace, "graph_notrace");
	}
	return 0;
}
