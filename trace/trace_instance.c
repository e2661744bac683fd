/*
 * trace_instance.c: instances/NAME (Linux's trace_array_create and
 * instance_mkdir in kernel/trace/trace.c). `mkdir instances/foo` makes
 * a trace array of its own: per-CPU ring buffers, a tracer (those that
 * allow instances: function and nop), its own ftrace_ops with its own
 * filter hashes (the function tracer finds the array through the ops'
 * private), options, and a copy of each event that writes into its
 * buffer. `rmdir` takes it all down, unless a file of it is open or
 * something in the kernel holds it (tr->ref).
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "printk.h"
#include "trace_events.h"

static LIST_HEAD(trace_instances);
static DEFINE_MUTEX(instance_lock);
static struct inode *instances_dir;

/* The array of a tracefs file: the instance it lies under, or the top. */
struct trace_array *trace_array_of_inode(struct inode *inode)
{
	struct inode *d;

	for (d = inode->parent; d && instances_dir; d = d->parent)
		if (d->parent == instances_dir)
			return d->private;
	return &global_trace;
}

/* Linux's trace_ok_for_array: the top level runs every tracer. */
bool trace_ok_for_array(struct tracer *t, struct trace_array *tr)
{
	return tr == &global_trace || t->allow_instances;
}

static struct trace_array *find_instance(const char *name)
{
	struct trace_array *tr;

	list_for_each_entry(tr, &trace_instances, list)
		if (!strcmp(tr->name, name))
			return tr;
	return NULL;
}

/* What trace_array_create made, in the reverse order. */
static void trace_array_free(struct trace_array *tr)
{
	clear_ftrace_function_probes(tr);
	trace_array_remove_events(tr);
	clear_tracing_err_log(tr);
	ftrace_mod_clear(&tr->mod_trace);
	ftrace_mod_clear(&tr->mod_notrace);
	ftrace_free_ops_hashes(&tr->ops);
	if (tr->max_buffer)
		tracing_free_snapshot(tr);
	if (tr->buffer)
		ring_buffer_free(tr->buffer);
	ftrace_pid_cache_free(tr);
	kfree(tr->option_files);
	kfree(tr->name);
	kfree(tr);
}

/*
 * The top level's options less the fork ones, the default buffer size,
 * clock and tracer (Linux's trace_array_create). Called under
 * instance_lock, the name free. A file that could not be made fails it
 * all: the VFS counts them (another maker's failure meanwhile fails it
 * too, which only happens when memory is short anyway).
 */
static struct trace_array *trace_array_create(const char *name)
{
	unsigned long failures = vfs_alloc_failures();
	struct trace_array *tr = kzalloc(sizeof(*tr));

	if (!tr)
		return NULL;
	INIT_LIST_HEAD(&tr->events);
	INIT_LIST_HEAD(&tr->func_probes);
	INIT_LIST_HEAD(&tr->mod_trace);
	INIT_LIST_HEAD(&tr->mod_notrace);
	INIT_LIST_HEAD(&tr->err_log);
	tr->name = kstrdup(name);
	tr->buffer = ring_buffer_alloc(TRACE_BUF_SIZE_DEFAULT, trace_nr_cpus());
	if (!tr->name || !tr->buffer || ftrace_pid_cache_alloc(tr) ||
	    trace_array_add_events(tr)) {
		trace_array_free(tr);
		return NULL;
	}
	tr->buffer_size = TRACE_BUF_SIZE_DEFAULT;
	tr->tracing_cpumask = ~0UL;
	tr->trace_flags = global_trace.trace_flags &
			  ~(TRACE_ITER_EVENT_FORK | TRACE_ITER_FUNC_FORK);
	tr->current_trace = &nop_trace;
	tr->buffer_percent = 50;
	tr->max_lock = (spinlock_t)SPIN_LOCK_UNLOCKED;
	tr->time_start = ring_buffer_time_stamp(tr->buffer);
	tr->ref = 1;			/* its directory's */
	tr->dir = vfs_mkdir(instances_dir, name);
	if (!tr->dir) {
		trace_array_free(tr);
		return NULL;
	}
	tr->dir->private = tr;
	init_tracer_tracefs(tr, tr->dir);
	/* Unless someone opened a file of it already: then it stays. */
	if (vfs_alloc_failures() != failures && !vfs_remove(tr->dir)) {
		trace_array_free(tr);
		return NULL;
	}
	list_add_tail(&tr->list, &trace_instances);
	return tr;
}

/*
 * Refused while something holds it or a file of it is open (the VFS
 * checks that as it unlinks the directory, so no file opens after).
 * Its tracer stops before its buffers go.
 */
static int __remove_instance(struct trace_array *tr)
{
	int ret;

	if (tr->ref > 1)
		return -EBUSY;
	ret = vfs_remove(tr->dir);
	if (ret)
		return ret;
	list_del(&tr->list);
	tracing_set_tracer(tr, "nop");
	/* The fork options' probes hold tr: off, as Linux's ZEROED_TRACE_FLAGS. */
	set_tracer_flag(tr, TRACE_ITER_EVENT_FORK, 0);
	set_tracer_flag(tr, TRACE_ITER_FUNC_FORK, 0);
	trace_pid_write(tr, "", false);
	trace_array_free(tr);
	return 0;
}

/* Linux's trace_array_get_by_name: found or made, and held. */
struct trace_array *trace_array_get_by_name(const char *name)
{
	struct trace_array *tr;

	mutex_lock(&instance_lock);
	tr = find_instance(name);
	if (!tr)
		tr = trace_array_create(name);
	if (tr)
		tr->ref++;
	mutex_unlock(&instance_lock);
	return tr;
}

void trace_array_put(struct trace_array *tr)
{
	mutex_lock(&instance_lock);
	WARN_ON(tr->ref <= 1);
	tr->ref--;
	mutex_unlock(&instance_lock);
}

/* Remove an instance as rmdir does; its holder puts it first. */
int trace_array_destroy(struct trace_array *tr)
{
	int ret;

	mutex_lock(&instance_lock);
	ret = __remove_instance(tr);
	mutex_unlock(&instance_lock);
	return ret;
}

static struct inode *instance_mkdir(struct inode *dir, const char *name)
{
	struct trace_array *tr;

	mutex_lock(&instance_lock);
	tr = find_instance(name) ? ERR_PTR(-EEXIST) : trace_array_create(name);
	mutex_unlock(&instance_lock);
	if (IS_ERR(tr))
		return (struct inode *)tr;
	return tr ? tr->dir : NULL;
}

static int instance_rmdir(struct inode *dir, struct inode *child)
{
	return trace_array_destroy(child->private);
}

static const struct inode_operations instance_dir_ops = {
	.mkdir = instance_mkdir,
	.rmdir = instance_rmdir,
};

/* Only instances/ takes new directories; elsewhere EPERM, as Linux's. */
static struct inode *tracefs_refuse_mkdir(struct inode *dir, const char *name)
{
	return ERR_PTR(-EPERM);
}

static const struct inode_operations tracefs_dir_ops = {
	.mkdir = tracefs_refuse_mkdir,
};

void trace_instances_create_dir(struct inode *dir)
{
	dir->iops = &tracefs_dir_ops;
	instances_dir = vfs_mkdir(dir, "instances");
	if (instances_dir)
		instances_dir->iops = &instance_dir_ops;
}
