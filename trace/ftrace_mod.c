/*
 * ftrace_mod.c: FUNC:mod:MODULE in set_ftrace_filter and
 * set_ftrace_notrace (Linux's ftrace_mod_callback and cache_mod in
 * kernel/trace/ftrace.c). Linux applies it to the functions of a loaded
 * module and keeps it for one not loaded yet, to apply at load. This
 * kernel has no modules, so every such word is kept, listed as Linux
 * lists it (FUNC:mod:MODULE, newest first), and never applies; `>`
 * drops them all at open, `!FUNC:mod:MODULE` (or `!*:mod:MODULE`, every
 * FUNC) the ones it names. `MODULE` written as `!NAME` means every
 * function outside NAME: here, every function the glob matches.
 */
#include "kernel.h"
#include "string.h"
#include "mm.h"
#include "trace.h"

struct ftrace_mod_load {
	struct list_head list;
	const char *module;		/* stored after func */
	char func[];
};

static DEFINE_MUTEX(ftrace_mod_lock);

static void free_ftrace_mod(struct ftrace_mod_load *m)
{
	list_del(&m->list);
	kfree(m);
}

void ftrace_mod_clear(struct list_head *head)
{
	struct ftrace_mod_load *m, *n;

	mutex_lock(&ftrace_mod_lock);
	list_for_each_entry_safe(m, n, head, list)
		free_ftrace_mod(m);
	mutex_unlock(&ftrace_mod_lock);
}

static int ftrace_add_mod(struct list_head *head, const char *func,
			  const char *module)
{
	size_t flen = strlen(func) + 1, mlen = strlen(module) + 1;
	struct ftrace_mod_load *m = kmalloc(sizeof(*m) + flen + mlen);

	if (!m)
		return -ENOMEM;
	memcpy(m->func, func, flen);
	memcpy(m->func + flen, module, mlen);
	m->module = m->func + flen;
	list_add(&m->list, head);
	return 0;
}

/* `!FUNC:mod:MODULE`: -EINVAL unless it named a kept one. */
static int ftrace_remove_mod(struct list_head *head, const char *func,
			     const char *module)
{
	struct ftrace_mod_load *m, *n;
	int ret = -EINVAL;

	list_for_each_entry_safe(m, n, head, list) {
		if (strcmp(m->module, module))
			continue;
		if (!strcmp(func, "*") || !strcmp(m->func, func)) {
			free_ftrace_mod(m);
			ret = 0;
		}
	}
	return ret;
}

/*
 * One FUNC:mod:MODULE word; hash is the one the file's write builds.
 * Without a module the word is a plain glob, as match_records() takes
 * a NULL module.
 */
int ftrace_mod_command(struct list_head *head, struct ftrace_hash *hash,
		       const char *func, const char *module)
{
	int ret;

	if (!module || module[0] == '!') {
		ret = ftrace_match_records(hash, func, strlen(func));
		return ret < 0 ? ret : 0;
	}
	mutex_lock(&ftrace_mod_lock);
	if (func[0] == '!')
		ret = ftrace_remove_mod(head, func + 1, module);
	else
		ret = ftrace_add_mod(head, func, module);
	mutex_unlock(&ftrace_mod_lock);
	return ret;
}

void ftrace_mod_show(struct list_head *head, struct seq_buf *s)
{
	struct ftrace_mod_load *m;

	mutex_lock(&ftrace_mod_lock);
	list_for_each_entry(m, head, list)
		seq_printf(s, "%s:mod:%s\n", m->func, m->module);
	mutex_unlock(&ftrace_mod_lock);
}
