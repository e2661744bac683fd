/*
 * ftrace_probe.c: function probes, the machinery behind the commands
 * written to set_ftrace_filter as FUNC:cmd[:N] (Linux's
 * register_ftrace_function_probe in kernel/trace/ftrace.c).
 *
 * Each probe type (traceon, traceoff:N, ...) of a trace array is one
 * struct ftrace_func_probe with its own ftrace_ops: its filter hash is
 * the set of functions the command was given, its callback
 * function_trace_probe_call, so the sites are counted and patched like
 * any other ops'. Counted probes keep one count per function, in an
 * array sorted by ip that the callback searches.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "kallsyms.h"
#include "stop_machine.h"
#include "trace.h"

struct probe_count {
	unsigned long ip;
	long count;
};

struct ftrace_func_probe {
	struct ftrace_probe_ops *probe_ops;
	struct ftrace_ops ops;
	struct trace_array *tr;
	struct list_head list;
	struct probe_count *counts;	/* sorted by ip; NULL if unlimited */
	unsigned long nr_counts;
};

static DEFINE_MUTEX(probe_lock);

static long *probe_count_find(struct ftrace_func_probe *probe,
			      unsigned long ip)
{
	unsigned long lo = 0, hi = READ_ONCE(probe->nr_counts);
	struct probe_count *c;

	rmb();			/* the size first: see update_counts */
	c = READ_ONCE(probe->counts);

	while (c && lo < hi) {
		unsigned long mid = (lo + hi) / 2;

		if (c[mid].ip == ip)
			return &c[mid].count;
		if (c[mid].ip < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void function_trace_probe_call(unsigned long ip, unsigned long parent_ip,
				      struct ftrace_ops *op,
				      struct ftrace_regs *fregs)
{
	struct ftrace_func_probe *probe = op->private;
	long *count;
	int bit;

	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;
	count = probe->probe_ops->counted ? probe_count_find(probe, ip) : NULL;
	if (!probe->probe_ops->counted || count)
		probe->probe_ops->func(ip, parent_ip, probe->tr,
				       probe->probe_ops, count);
	ftrace_test_recursion_unlock(bit);
}

static struct ftrace_func_probe *find_probe(struct trace_array *tr,
					    struct ftrace_probe_ops *ops)
{
	struct ftrace_func_probe *probe;

	list_for_each_entry(probe, &tr->func_probes, list)
		if (probe->probe_ops == ops)
			return probe;
	return NULL;
}

static struct ftrace_func_probe *new_probe(struct trace_array *tr,
					   struct ftrace_probe_ops *ops)
{
	struct ftrace_func_probe *probe = kzalloc(sizeof(*probe));

	if (!probe)
		return NULL;
	probe->probe_ops = ops;
	probe->tr = tr;
	probe->ops.func = function_trace_probe_call;
	probe->ops.private = probe;
	probe->ops.name = ops->name;
	INIT_LIST_HEAD(&probe->list);
	return probe;
}

struct count_merge {
	struct probe_count *dst;
	unsigned long n;
	struct ftrace_func_probe *probe;
	long count;
};

static int add_count(struct dyn_ftrace *rec, void *data)
{
	struct count_merge *m = data;
	long *old = probe_count_find(m->probe, rec->ip);

	m->dst[m->n].ip = rec->ip;
	m->dst[m->n++].count = old ? *old : m->count;
	return 0;
}

struct rec_filter {
	struct ftrace_hash *hash;
	int (*fn)(struct dyn_ftrace *rec, void *data);
	void *data;
};

static int rec_in_hash(struct dyn_ftrace *rec, void *data)
{
	struct rec_filter *f = data;

	return ftrace_lookup_ip_in_hash(f->hash, rec->ip) ?
	       f->fn(rec, f->data) : 0;
}

/* Call fn for each record in hash, in address order. */
static int for_each_rec_in(struct ftrace_hash *hash,
			   int (*fn)(struct dyn_ftrace *rec, void *data),
			   void *data)
{
	struct rec_filter f = { hash, fn, data };

	return ftrace_for_each_rec(rec_in_hash, &f);
}

/*
 * The counts for the functions of hash: old ones keep their count, new
 * ones start at count. Swapped in before the hash that uses them; the
 * old array goes once no CPU can be in the callback.
 */
static int update_counts(struct ftrace_func_probe *probe,
			 struct ftrace_hash *hash, long count)
{
	struct count_merge m = { NULL, 0, probe, count };
	struct probe_count *old = probe->counts;

	if (!probe->probe_ops->counted)
		return 0;
	m.dst = kmalloc(sizeof(*m.dst) * (hash->count + 1));
	if (!m.dst)
		return -ENOMEM;
	for_each_rec_in(hash, add_count, &m);
	WRITE_ONCE(probe->nr_counts, 0);
	synchronize_sched();
	WRITE_ONCE(probe->counts, m.dst);
	wmb();
	WRITE_ONCE(probe->nr_counts, m.n);
	kfree(old);
	return 0;
}

static int merge_ip(unsigned long ip, void *data)
{
	return ftrace_hash_add(data, ip);
}

/*
 * Add the probe to every function glob names; returns how many. If it
 * is on all of them already, -EINVAL, as Linux 6.1 answers.
 */
int register_ftrace_function_probe(const char *glob, int len,
				   struct trace_array *tr,
				   struct ftrace_probe_ops *ops, long count)
{
	struct ftrace_hash *matches = alloc_ftrace_hash(4), *hash = NULL;
	struct ftrace_func_probe *probe;
	unsigned long old_count;
	int ret;

	mutex_lock(&probe_lock);
	probe = find_probe(tr, ops);
	if (!probe)
		probe = new_probe(tr, ops);
	ret = matches && probe ? ftrace_match_records(matches, glob, len) :
				 -ENOMEM;
	if (ret > 0) {
		hash = ftrace_ops_hash_copy(&probe->ops, true);
		old_count = hash ? hash->count : 0;
		if (!hash || ftrace_hash_for_each(matches, merge_ip, hash))
			ret = -ENOMEM;
		else if (hash->count == old_count)
			ret = -EINVAL;	/* nothing new: Linux 6.1 refuses it */
		else if (update_counts(probe, hash, count))
			ret = -ENOMEM;
	}
	if (ret > 0) {
		int err = ftrace_ops_set_hash(&probe->ops, hash, true);

		hash = NULL;
		if (!err && list_empty(&probe->list)) {
			err = register_ftrace_function(&probe->ops);
			if (!err)
				list_add(&probe->list, &tr->func_probes);
		}
		if (err)
			ret = err;
	}
	if (probe && list_empty(&probe->list)) {
		ftrace_free_ops_hashes(&probe->ops);
		kfree(probe->counts);
		kfree(probe);
	}
	free_ftrace_hash(hash);
	free_ftrace_hash(matches);
	mutex_unlock(&probe_lock);
	return ret;
}

static void free_probe(struct ftrace_func_probe *probe)
{
	struct ftrace_probe_ops *probe_ops = probe->probe_ops;

	unregister_ftrace_function(&probe->ops);
	list_del(&probe->list);
	ftrace_free_ops_hashes(&probe->ops);
	kfree(probe->counts);
	kfree(probe);
	if (probe_ops->free)
		probe_ops->free(probe_ops);
}

struct probe_remove {
	struct ftrace_hash *hash;
	int removed;
};

static int remove_ip(unsigned long ip, void *data)
{
	struct probe_remove *r = data;

	if (ftrace_lookup_ip_in_hash(r->hash, ip)) {
		ftrace_hash_remove(r->hash, ip);
		r->removed++;
	}
	return 0;
}

/*
 * `!FUNC:cmd[:N]`: take the probe off the functions glob names. No such
 * probe: -ENODEV; none of its functions match: -EINVAL; no memory for
 * the new hash: -ENOMEM, and the probe stays as it was.
 */
int unregister_ftrace_function_probe_func(const char *glob, int len,
					  struct trace_array *tr,
					  struct ftrace_probe_ops *ops)
{
	struct ftrace_hash *matches = alloc_ftrace_hash(4);
	struct probe_remove r = { NULL, 0 };
	struct ftrace_func_probe *probe;
	int ret;

	mutex_lock(&probe_lock);
	probe = find_probe(tr, ops);
	if (!probe)
		ret = -ENODEV;
	else
		ret = matches ? ftrace_match_records(matches, glob, len) :
				-ENOMEM;
	if (ret > 0) {
		r.hash = ftrace_ops_hash_copy(&probe->ops, true);
		if (r.hash)
			ftrace_hash_for_each(matches, remove_ip, &r);
		ret = !r.hash ? -ENOMEM : r.removed ? 0 : -EINVAL;
	}
	if (!ret && ftrace_hash_empty(r.hash)) {
		free_probe(probe);
	} else if (!ret) {
		ret = ftrace_ops_set_hash(&probe->ops, r.hash, true);
		r.hash = NULL;
	}
	free_ftrace_hash(r.hash);
	free_ftrace_hash(matches);
	mutex_unlock(&probe_lock);
	return ret;
}

/*
 * Every probe of tr, as its array goes (Linux's
 * clear_ftrace_function_probes).
 */
void clear_ftrace_function_probes(struct trace_array *tr)
{
	struct ftrace_func_probe *probe, *next;

	mutex_lock(&probe_lock);
	list_for_each_entry_safe(probe, next, &tr->func_probes, list)
		free_probe(probe);
	mutex_unlock(&probe_lock);
}

struct probe_show {
	struct seq_buf *s;
	struct ftrace_func_probe *probe;
};

static int show_probe_rec(struct dyn_ftrace *rec, void *data)
{
	struct probe_show *p = data;
	long *count = probe_count_find(p->probe, rec->ip);

	seq_printf(p->s, "%ps:%s", (void *)rec->ip, p->probe->probe_ops->name);
	if (p->probe->probe_ops->counted && count)
		seq_printf(p->s, ":count=%ld\n", *count);
	else
		seq_puts(p->s, ":unlimited\n");
	return 0;
}

/* The probes as set_ftrace_filter lists them, newest probe first. */
void ftrace_probes_show(struct trace_array *tr, struct seq_buf *s)
{
	struct ftrace_func_probe *probe;
	struct ftrace_hash *hash;
	struct probe_show p = { s, NULL };

	mutex_lock(&probe_lock);
	list_for_each_entry(probe, &tr->func_probes, list) {
		hash = ftrace_ops_hash_copy(&probe->ops, true);
		p.probe = probe;
		if (hash)
			for_each_rec_in(hash, show_probe_rec, &p);
		else
			seq_set_nomem(s);
		free_ftrace_hash(hash);
	}
	mutex_unlock(&probe_lock);
}
