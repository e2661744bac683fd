/*
 * trace_error_log.c: error_log (Linux's tracing_log_err in
 * kernel/trace/trace.c). A tracefs file that refuses a command can say
 * why and where: the last TRACING_LOG_ERRS_MAX errors, each with its
 * time, where it came from, the command and a caret under the fault:
 *
 *   [    0.628728] event filter parse error: error: Field not found
 *     Command: nosuch == 1
 *                     ^
 *
 * `echo > error_log` empties it. Each trace array has its own log, as
 * in Linux: an instance's event filter logs into the instance's.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "time.h"
#include "trace.h"

#define TRACING_LOG_ERRS_MAX	16
#define CMD_PREFIX		"  Command: "

struct tracing_log_err {
	struct list_head list;
	u64 ts;
	const char *loc, *err;	/* static text */
	char *cmd;
	u16 pos;
};

static DEFINE_MUTEX(err_log_mutex);

static void err_free(struct trace_array *tr, struct tracing_log_err *e)
{
	list_del(&e->list);
	kfree(e->cmd);
	kfree(e);
	tr->n_err_log_entries--;
}

static void err_free_oldest(struct trace_array *tr)
{
	err_free(tr, list_first_entry(&tr->err_log, struct tracing_log_err,
				      list));
}

/*
 * Linux's signature: errs[type] is the error's text, pos the column of
 * cmd the caret points at. Without memory the error is not logged.
 */
void tracing_log_err(struct trace_array *tr, const char *loc,
		     const char *cmd, const char *const *errs, u8 type, u16 pos)
{
	struct tracing_log_err *e = kzalloc(sizeof(*e));

	if (e)
		e->cmd = kstrdup(cmd);
	if (!e || !e->cmd) {
		kfree(e);
		return;
	}
	e->ts = ktime_get_ns();
	e->loc = loc;
	e->err = errs[type];
	e->pos = pos;
	mutex_lock(&err_log_mutex);
	list_add_tail(&e->list, &tr->err_log);
	if (++tr->n_err_log_entries > TRACING_LOG_ERRS_MAX)
		err_free_oldest(tr);
	mutex_unlock(&err_log_mutex);
}

/* Every entry of tr's log goes (`echo > error_log`, or rmdir). */
void clear_tracing_err_log(struct trace_array *tr)
{
	mutex_lock(&err_log_mutex);
	while (!list_empty(&tr->err_log))
		err_free_oldest(tr);
	mutex_unlock(&err_log_mutex);
}

static void error_log_show(struct seq_buf *s, long data)
{
	struct trace_array *tr = (struct trace_array *)data;
	struct tracing_log_err *e;

	mutex_lock(&err_log_mutex);
	list_for_each_entry(e, &tr->err_log, list)
		seq_printf(s, "[%5llu.%06llu] %s: error: %s\n" CMD_PREFIX
			   "%s\n%*s^\n", e->ts / NSEC_PER_SEC,
			   e->ts % NSEC_PER_SEC / 1000, e->loc, e->err, e->cmd,
			   (int)strlen(CMD_PREFIX) + e->pos, "");
	mutex_unlock(&err_log_mutex);
}

/* Opened with O_TRUNC (`echo > error_log`): empty it; other text is ignored. */
static int error_log_store(char *buf, struct file *file, long data)
{
	if (file->flags & O_TRUNC)
		clear_tracing_err_log((struct trace_array *)data);
	return 0;
}

void tracing_err_log_create_file(struct trace_array *tr, struct inode *dir)
{
	create_simple(dir, "error_log", error_log_show, error_log_store,
		      (long)tr);
}
