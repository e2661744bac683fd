/*
 * ftrace_files.c: the tracefs files of dynamic ftrace (Linux's
 * ftrace_init_tracefs): set_ftrace_filter and set_ftrace_notrace,
 * function_graph's set_graph_function and set_graph_notrace,
 * available_filter_functions, enabled_functions, dyn_ftrace_total_info,
 * set_ftrace_pid, and /proc/sys/kernel/ftrace_enabled; and, for other
 * ops, filter files like set_ftrace_filter (the stack tracer's
 * stack_trace_filter).
 *
 * A filter file gathers a write's words into a copy of the hash and
 * installs it at close (Linux's ftrace_regex_write/_release). Only
 * set_ftrace_filter takes FUNC:cmd commands; it and set_ftrace_notrace
 * take FUNC:mod:MODULE (ftrace_mod.c). Opening with O_TRUNC (`>`)
 * starts from an empty hash, else (`>>`) from the current one. A word
 * ended by whitespace is applied at once, so a bad one fails the write
 * (-EINVAL) and the words before it stay; a word at the very end of the
 * data is applied at close, where an error cannot be reported. The hash
 * is installed at close whatever failed, as in Linux: after `>` and a
 * bad word, the file reads empty.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "kallsyms.h"
#include "kstrtox.h"
#include "printk.h"
#include "trace.h"

#define TOKEN_MAX	(KSYM_NAME_LEN + 64)

/*
 * The hash a filter file edits, and how it reads when empty: one of an
 * ops' two (global_trace's, or the stack tracer's for
 * stack_trace_filter), or one of function_graph's.
 */
struct ftrace_filter_file {
	bool graph;			/* function_graph's, else ops' */
	bool is_notrace;		/* the notrace hash, else the filter */
	bool commands;			/* FUNC:cmd words and their listing */
	const char *empty;
	struct ftrace_ops *ops;
	struct list_head *mods;		/* FUNC:mod:MODULE kept, if taken */
	struct trace_array *tr;		/* whose probes FUNC:cmd sets */
};

#define ALL_ENABLED	"#### all functions enabled ####\n"
#define NONE_DISABLED	"#### no functions disabled ####\n"

/*
 * Templates: each file gets a copy, which names its trace array, its
 * ops and module words.
 */
static const struct ftrace_filter_file set_ftrace_filter = {
	false, false, true, ALL_ENABLED, NULL, NULL, NULL };
static const struct ftrace_filter_file set_ftrace_notrace = {
	false, true, false, NONE_DISABLED, NULL, NULL, NULL };
static const struct ftrace_filter_file set_graph_function = {
	true, false, false, ALL_ENABLED, NULL, NULL, NULL };
static const struct ftrace_filter_file set_graph_notrace = {
	true, true, false, NONE_DISABLED, NULL, NULL, NULL };

struct ftrace_regex_iter {
	const struct ftrace_filter_file *ff;
	struct ftrace_hash *hash;	/* being built, when writing */
	struct seq_buf seq;		/* the listing, when reading */
	char token[TOKEN_MAX];		/* a word not yet ended */
	size_t tlen;
};

/* A copy of the file's hash to edit; NULL when out of memory. */
static struct ftrace_hash *ff_copy(const struct ftrace_filter_file *ff)
{
	if (ff->graph)
		return ftrace_graph_hash_copy(ff->is_notrace);
	return ftrace_ops_hash_copy(ff->ops, !ff->is_notrace);
}

/* At close, where an error cannot be reported any more. */
static void ff_install(const struct ftrace_filter_file *ff,
		       struct ftrace_hash *hash)
{
	if (ff->graph)
		ftrace_graph_set_hash(hash, ff->is_notrace);
	else
		ftrace_ops_set_hash(ff->ops, hash, !ff->is_notrace);
}

struct hash_show {
	struct seq_buf *s;
	struct ftrace_hash *hash;
};

static int show_rec_in_hash(struct dyn_ftrace *rec, void *data)
{
	struct hash_show *h = data;

	if (ftrace_lookup_ip_in_hash(h->hash, rec->ip))
		seq_printf(h->s, "%ps\n", (void *)rec->ip);
	return 0;
}

/* The functions of the hash in address order, the kept :mod:, the probes. */
static void ftrace_regex_show(struct seq_buf *s,
			      const struct ftrace_filter_file *ff)
{
	struct ftrace_hash *hash = ff_copy(ff);
	struct hash_show h = { s, hash };

	if (!hash) {
		seq_set_nomem(s);
		return;
	}
	if (ftrace_hash_empty(hash))
		seq_puts(s, ff->empty);
	else
		ftrace_for_each_rec(show_rec_in_hash, &h);
	free_ftrace_hash(hash);
	if (ff->mods)
		ftrace_mod_show(ff->mods, s);
	if (ff->commands)
		ftrace_probes_show(ff->tr, s);
}

static int ftrace_regex_open(struct inode *inode, struct file *file)
{
	struct ftrace_regex_iter *iter = kzalloc(sizeof(*iter));
	const struct ftrace_filter_file *ff = inode->private;
	int acc = file->flags & O_ACCMODE;

	if (!iter)
		return -ENOMEM;
	iter->ff = ff;
	if (acc != O_WRONLY && !seq_init(&iter->seq, 256))
		ftrace_regex_show(&iter->seq, ff);
	if (acc != O_RDONLY && (file->flags & O_TRUNC) && ff->mods)
		ftrace_mod_clear(ff->mods);
	if (acc != O_RDONLY)
		iter->hash = (file->flags & O_TRUNC) ? alloc_ftrace_hash(4) :
			     ff_copy(ff);
	if ((acc != O_WRONLY && !iter->seq.buf) ||
	    (acc != O_RDONLY && !iter->hash)) {
		seq_free(&iter->seq);
		free_ftrace_hash(iter->hash);
		kfree(iter);
		return -ENOMEM;
	}
	file->private = iter;
	return 0;
}

static ssize_t ftrace_regex_read(struct file *file, char *buf, size_t n)
{
	struct ftrace_regex_iter *iter = file->private;

	return seq_read(&iter->seq, file, buf, n);
}

/* FUNC:mod[:MODULE], split at its first two colons like a command. */
static bool is_mod_word(char *token, char **module)
{
	char *cmd = strchr(token, ':') + 1;

	if (strncmp(cmd, "mod", 3) || (cmd[3] && cmd[3] != ':'))
		return false;
	cmd[-1] = 0;
	*module = cmd[3] ? cmd + 4 : NULL;
	return true;
}

/*
 * One word: a glob for the hash, FUNC:mod:MODULE, or (set_ftrace_filter)
 * FUNC:cmd[:N].
 */
static int ftrace_process_regex(struct ftrace_regex_iter *iter)
{
	char *module;
	int ret;

	iter->token[iter->tlen] = 0;
	iter->tlen = 0;
	if (!strchr(iter->token, ':')) {
		ret = ftrace_match_records(iter->hash, iter->token,
					   strlen(iter->token));
		return ret < 0 ? ret : 0;
	}
	if (iter->ff->mods && is_mod_word(iter->token, &module))
		return ftrace_mod_command(iter->ff->mods, iter->hash,
					  iter->token, module);
	return iter->ff->commands ?
	       ftrace_process_command(iter->ff->tr, iter->token) : -EINVAL;
}

static ssize_t ftrace_regex_write(struct file *file, const char *buf,
				  size_t n)
{
	struct ftrace_regex_iter *iter = file->private;
	size_t i;
	int ret;

	/* A NUL ends a word too, as in Linux's trace_get_user(). */
	for (i = 0; i < n; i++) {
		if (buf[i] && !trace_isspace(buf[i])) {
			if (iter->tlen >= TOKEN_MAX - 1) {
				iter->tlen = 0;
				return -EINVAL;
			}
			iter->token[iter->tlen++] = buf[i];
		} else if (iter->tlen) {
			ret = ftrace_process_regex(iter);
			if (ret)
				return ret;
		}
	}
	return n;
}

static int ftrace_regex_release(struct inode *inode, struct file *file)
{
	struct ftrace_regex_iter *iter = file->private;

	if (iter->tlen)
		ftrace_process_regex(iter);	/* too late to fail the write */
	if (iter->hash)
		ff_install(iter->ff, iter->hash);
	seq_free(&iter->seq);
	kfree(iter);
	return 0;
}

/* Each filter file's private is its own copy of a template. */
static void ftrace_filter_evict(struct inode *inode)
{
	kfree(inode->private);
}

static const struct file_operations ftrace_filter_fops = {
	.open = ftrace_regex_open,
	.read = ftrace_regex_read,
	.write = ftrace_regex_write,
	.release = ftrace_regex_release,
	.evict = ftrace_filter_evict,
};

/* template's copy for tr (NULL: function_graph's, which has no ops). */
static void create_filter_file(struct inode *dir, const char *name,
			       const struct ftrace_filter_file *template,
			       struct trace_array *tr)
{
	struct ftrace_filter_file *ff = kmalloc(sizeof(*ff));

	if (!ff) {
		vfs_note_alloc_failure();
		return;
	}
	*ff = *template;
	if (tr) {
		ff->ops = &tr->ops;
		ff->mods = template->is_notrace ? &tr->mod_notrace :
						  &tr->mod_trace;
		ff->tr = tr;
	}
	if (!vfs_create(dir, name, S_IFREG | 0644, &ftrace_filter_fops, ff))
		kfree(ff);
}

/* A set_ftrace_filter for another ops (Linux's stack_trace_filter). */
struct inode *ftrace_create_filter_file(struct inode *dir, const char *name,
					struct ftrace_ops *ops)
{
	struct ftrace_filter_file *ff = kmalloc(sizeof(*ff));
	struct inode *inode;

	if (!ff)
		return NULL;
	*ff = (struct ftrace_filter_file){ false, false, false, ALL_ENABLED,
					   ops, NULL, NULL };
	inode = vfs_create(dir, name, S_IFREG | 0644, &ftrace_filter_fops, ff);
	if (!inode)
		kfree(ff);
	return inode;
}

/* ---- listings -------------------------------------------------------------- */

static int show_avail(struct dyn_ftrace *rec, void *data)
{
	if (!(rec->flags & FTRACE_FL_DISABLED))
		seq_printf(data, "%ps\n", (void *)rec->ip);
	return 0;
}

static void available_filter_functions_show(struct seq_buf *s, long data)
{
	ftrace_for_each_rec(show_avail, s);
}

/* Each site that calls a trampoline now: users, and R(egs) I(pmodify). */
static int show_enabled(struct dyn_ftrace *rec, void *data)
{
	if (rec->flags & FTRACE_FL_ENABLED)
		seq_printf(data, "%ps (%lu)%s%s%s\n", (void *)rec->ip,
			   ftrace_rec_count(rec),
			   rec->flags & FTRACE_FL_REGS ? " R" : "  ",
			   rec->flags & FTRACE_FL_IPMODIFY ? " I" : "  ", "  ");
	return 0;
}

static void enabled_functions_show(struct seq_buf *s, long data)
{
	mutex_lock(&ftrace_lock);
	ftrace_for_each_rec(show_enabled, s);
	mutex_unlock(&ftrace_lock);
}

/* Records, the pages they take, and how many allocations held them. */
static void dyn_ftrace_total_info_show(struct seq_buf *s, long data)
{
	seq_printf(s, "%lu pages:%lu groups: 1\n", ftrace_nr_records(),
		   ftrace_nr_pages());
}

/* ---- set_ftrace_pid, set_ftrace_notrace_pid ------------------------------ */

/* The file's list: inode->private is true for set_ftrace_notrace_pid. */
static int pid_file_write(struct inode *inode, const char *buf, bool append)
{
	struct trace_array *tr = trace_array_of_inode(inode);

	if (inode->private)
		return trace_notrace_pid_write(tr, buf, append);
	return trace_pid_write(tr, buf, append);
}

/*
 * `>` empties the list at open (Linux's ftrace_pid_open), so a failed
 * write leaves `no pid`; every write adds to the list, or fails whole.
 */
static int ftrace_pid_open(struct inode *inode, struct file *file)
{
	struct seq_buf *seq = kzalloc(sizeof(*seq));
	int ret;

	if (!seq || seq_init(seq, 64)) {
		kfree(seq);
		return -ENOMEM;
	}
	if ((file->flags & O_ACCMODE) != O_RDONLY && (file->flags & O_TRUNC)) {
		ret = pid_file_write(inode, "", false);
		if (ret) {
			seq_free(seq);
			kfree(seq);
			return ret;
		}
	}
	if (inode->private)
		trace_notrace_pid_show(trace_array_of_inode(inode), seq);
	else
		trace_pid_show(trace_array_of_inode(inode), seq);
	file->private = seq;
	return 0;
}

static ssize_t ftrace_pid_read(struct file *file, char *buf, size_t n)
{
	return seq_read(file->private, file, buf, n);
}

static ssize_t ftrace_pid_write(struct file *file, const char *buf, size_t n)
{
	char *copy = kmalloc(n + 1);
	int ret;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, n);
	copy[n] = 0;
	ret = pid_file_write(file->inode, copy, true);
	kfree(copy);
	return ret ? ret : (ssize_t)n;
}

static int ftrace_pid_release(struct inode *inode, struct file *file)
{
	seq_free(file->private);
	kfree(file->private);
	return 0;
}

static const struct file_operations ftrace_pid_fops = {
	.open = ftrace_pid_open,
	.read = ftrace_pid_read,
	.write = ftrace_pid_write,
	.release = ftrace_pid_release,
};

/* ---- /proc/sys/kernel/ftrace_enabled ----------------------------------------- */

/* -EBUSY when turning off under a PERMANENT ops (ftrace_enable_sysctl). */
static int ftrace_enabled_store(char *buf, struct file *file, long data)
{
	int val, ret = kstrtoint(strim(buf), 10, &val);

	return ret ? ret : ftrace_enable_sysctl(val);
}

/* The function tracer's files of a trace array, the top level's too. */
void ftrace_create_tr_files(struct trace_array *tr, struct inode *dir)
{
	create_filter_file(dir, "set_ftrace_filter", &set_ftrace_filter, tr);
	create_filter_file(dir, "set_ftrace_notrace", &set_ftrace_notrace, tr);
	vfs_create(dir, "set_ftrace_pid", S_IFREG | 0644, &ftrace_pid_fops,
		   NULL);
	vfs_create(dir, "set_ftrace_notrace_pid", S_IFREG | 0644,
		   &ftrace_pid_fops, (void *)1);
}

void ftrace_create_files(struct inode *dir)
{
	create_filter_file(dir, "set_graph_function", &set_graph_function,
			   NULL);
	create_filter_file(dir, "set_graph_notrace", &set_graph_notrace, NULL);
	create_simple(dir, "available_filter_functions",
		      available_filter_functions_show, NULL, 0);
	create_simple(dir, "enabled_functions", enabled_functions_show, NULL,
		      0);
	create_simple(dir, "dyn_ftrace_total_info", dyn_ftrace_total_info_show,
		      NULL, 0);
	create_simple(vfs_lookup(NULL, "/proc/sys/kernel"), "ftrace_enabled",
		      simple_show_int, ftrace_enabled_store,
		      (long)&ftrace_enabled);
	ftrace_patch_mode_create_file();
}
