/*
 * sh_vars.c: a shell's variables, positional parameters and functions,
 * and the copy a subshell gets of them (what fork would give it). A
 * variable's value is its own kmalloc'd string; `local` saves what a
 * name held so that the function's return puts it back, as dash does
 * (dynamic scope: a called function sees its caller's locals).
 */
#include "kernel.h"
#include "mm.h"
#include "string.h"
#include "sched.h"
#include "vfs.h"
#include "sh.h"

struct sh_state *sh_current(void)
{
	return current->shell;
}

char *sh_strndup(const char *s, size_t n)
{
	char *d = kmalloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}

char *sh_strdup(const char *s)
{
	return sh_strndup(s, strlen(s));
}

static struct sh_var *find_var(struct sh_state *sh, const char *name,
			       size_t n)
{
	struct sh_var *v;

	for (v = sh->vars; v; v = v->next)
		if (!strncmp(v->name, name, n) && !v->name[n])
			return v;
	return NULL;
}

const char *sh_getvar(struct sh_state *sh, const char *name)
{
	struct sh_var *v = find_var(sh, name, strlen(name));

	return v ? v->value : NULL;
}

static struct sh_var *new_var(struct sh_state *sh, const char *name,
			      size_t n)
{
	struct sh_var *v = kzalloc(sizeof(*v));

	if (!v)
		return NULL;
	v->name = sh_strndup(name, n);
	if (!v->name) {
		kfree(v);
		return NULL;
	}
	v->next = sh->vars;
	sh->vars = v;
	return v;
}

int sh_setvar_n(struct sh_state *sh, const char *name, size_t n,
		const char *value)
{
	struct sh_var *v = find_var(sh, name, n);
	char *copy = value ? sh_strdup(value) : NULL;

	if (value && !copy)
		return -ENOMEM;
	if (!v)
		v = new_var(sh, name, n);
	if (!v) {
		kfree(copy);
		return -ENOMEM;
	}
	kfree(v->value);
	v->value = copy;
	return 0;
}

int sh_setvar(struct sh_state *sh, const char *name, const char *value)
{
	return sh_setvar_n(sh, name, strlen(name), value);
}

int sh_unsetvar(struct sh_state *sh, const char *name)
{
	struct sh_var **p, *v;

	for (p = &sh->vars; (v = *p); p = &v->next) {
		if (strcmp(v->name, name))
			continue;
		*p = v->next;
		kfree(v->name);
		kfree(v->value);
		kfree(v);
		break;
	}
	return 0;
}

int sh_export(struct sh_state *sh, const char *name)
{
	struct sh_var *v = find_var(sh, name, strlen(name));

	if (!v)
		v = new_var(sh, name, strlen(name));
	if (!v)
		return -ENOMEM;
	v->exported = true;
	return 0;
}

/* Save what name holds in the innermost call, once per call. */
int sh_local(struct sh_state *sh, const char *name)
{
	struct sh_saved_var *s;
	struct sh_var *v = find_var(sh, name, strlen(name));

	for (s = sh->locals; s; s = s->next)
		if (!strcmp(s->name, name))
			return 0;
	s = kzalloc(sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->name = sh_strdup(name);
	if (v && v->value)
		s->value = sh_strdup(v->value);
	if (!s->name || (v && v->value && !s->value)) {
		kfree(s->name);
		kfree(s);
		return -ENOMEM;
	}
	s->exported = v && v->exported;
	s->next = sh->locals;
	sh->locals = s;
	return 0;
}

/* A function returns: its locals get back what they held before. */
void sh_restore_locals(struct sh_state *sh, struct sh_saved_var *saved)
{
	struct sh_saved_var *s;
	struct sh_var *v;

	while ((s = saved)) {
		saved = s->next;
		sh_unsetvar(sh, s->name);
		if (s->value && !sh_setvar(sh, s->name, s->value)) {
			v = find_var(sh, s->name, strlen(s->name));
			v->exported = s->exported;
		}
		kfree(s->name);
		kfree(s->value);
		kfree(s);
	}
}

void sh_free_args(int argc, char **argv)
{
	int i;

	for (i = 0; argv && i < argc; i++)
		kfree(argv[i]);
	kfree(argv);
}

/* Copy argv into the positional parameters $1...$argc. */
int sh_set_args(struct sh_state *sh, int argc, char **argv)
{
	char **copy = kzalloc((argc + 1) * sizeof(*copy));
	int i;

	if (!copy)
		return -ENOMEM;
	for (i = 0; i < argc; i++) {
		copy[i] = sh_strdup(argv[i]);
		if (!copy[i]) {
			sh_free_args(i, copy);
			return -ENOMEM;
		}
	}
	sh_free_args(sh->argc, sh->argv);
	sh->argc = argc;
	sh->argv = copy;
	return 0;
}

struct sh_func *sh_find_func(struct sh_state *sh, const char *name)
{
	struct sh_func *f;

	for (f = sh->funcs; f; f = f->next)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

static void free_func(struct sh_func *f)
{
	sh_arena_put(f->body->arena);
	kfree(f->name);
	kfree(f);
}

int sh_unset_func(struct sh_state *sh, const char *name)
{
	struct sh_func **p, *f;

	for (p = &sh->funcs; (f = *p); p = &f->next) {
		if (!strcmp(f->name, name)) {
			*p = f->next;
			free_func(f);
			break;
		}
	}
	return 0;
}

/* The body stays in its parse's arena, which the function now holds. */
int sh_define_func(struct sh_state *sh, const char *name,
		   struct sh_node *body)
{
	struct sh_func *f = kzalloc(sizeof(*f));

	if (!f)
		return -ENOMEM;
	f->name = sh_strdup(name);
	if (!f->name) {
		kfree(f);
		return -ENOMEM;
	}
	f->body = body;
	sh_arena_get(body->arena);
	sh_unset_func(sh, name);
	f->next = sh->funcs;
	sh->funcs = f;
	return 0;
}

struct sh_state *sh_state_new(void)
{
	struct sh_state *sh = kzalloc(sizeof(*sh));

	if (!sh)
		return NULL;
	sh->arg0 = sh_strdup("sh");
	sh->pid = current->pid;
	if (!sh->arg0 || sh_setvar(sh, "IFS", " \t\n") ||
	    sh_setvar(sh, "PS1", "# ") || sh_setvar(sh, "PS2", "> ")) {
		sh_state_free(sh);
		return NULL;
	}
	return sh;
}

static int clone_vars(struct sh_state *sh, const struct sh_state *parent)
{
	const struct sh_var *v;
	struct sh_var *c;

	for (v = parent->vars; v; v = v->next) {
		c = new_var(sh, v->name, strlen(v->name));
		if (!c)
			return -ENOMEM;
		c->exported = v->exported;
		if (v->value && !(c->value = sh_strdup(v->value)))
			return -ENOMEM;
	}
	return 0;
}

static int clone_funcs(struct sh_state *sh, const struct sh_state *parent)
{
	const struct sh_func *f;

	for (f = parent->funcs; f; f = f->next)
		if (sh_define_func(sh, f->name, f->body))
			return -ENOMEM;
	return 0;
}

/*
 * A subshell's copy: variables, functions, parameters, options and the
 * directory; not the traps (POSIX resets them) or the jobs.
 */
struct sh_state *sh_state_clone(const struct sh_state *parent)
{
	struct sh_state *sh = kzalloc(sizeof(*sh));

	if (!sh)
		return NULL;
	sh->arg0 = sh_strdup(parent->arg0);
	sh->status = parent->status;
	sh->last_bg = parent->last_bg;
	sh->pid = parent->pid;
	sh->opt_e = parent->opt_e;
	sh->opt_x = parent->opt_x;
	sh->opt_u = parent->opt_u;
	vfs_set_pwd(&sh->cwd, parent->cwd);
	sh->func_depth = parent->func_depth;
	sh->task_depth = parent->task_depth + 1;
	if (!sh->arg0 || clone_vars(sh, parent) ||
	    clone_funcs(sh, parent) ||
	    sh_set_args(sh, parent->argc, parent->argv)) {
		sh_state_free(sh);
		return NULL;
	}
	return sh;
}

void sh_state_free(struct sh_state *sh)
{
	struct sh_func *f;
	int i;

	if (!sh)
		return;
	sh_restore_locals(sh, sh->locals);
	while (sh->vars)
		sh_unsetvar(sh, sh->vars->name);
	while ((f = sh->funcs)) {
		sh->funcs = f->next;
		free_func(f);
	}
	/* nothing would reap a job its shell leaves: it stops with it */
	for (i = 0; i < SH_MAX_JOBS; i++) {
		if (!sh->jobs[i].task)
			continue;
		kill_pid(sh->jobs[i].pid);
		sh_job_wait(sh, &sh->jobs[i]);
	}
	sh_free_args(sh->argc, sh->argv);
	vfs_set_pwd(&sh->cwd, NULL);
	kfree(sh->arg0);
	kfree(sh->trap_exit);
	kfree(sh->trap_int);
	kfree(sh);
}

int sh_argv_add(struct sh_argv *a, char *s)
{
	char **bigger;
	int cap;

	if (!s)
		return -ENOMEM;
	if (a->argc + 1 >= a->cap) {
		cap = a->cap ? a->cap * 2 : 8;
		bigger = kmalloc(cap * sizeof(*bigger));
		if (!bigger) {
			kfree(s);
			return -ENOMEM;
		}
		if (a->argc)
			memcpy(bigger, a->argv, a->argc * sizeof(*bigger));
		kfree(a->argv);
		a->argv = bigger;
		a->cap = cap;
	}
	a->argv[a->argc++] = s;
	a->argv[a->argc] = NULL;
	return 0;
}

void sh_argv_free(struct sh_argv *a)
{
	sh_free_args(a->argc, a->argv);
	a->argc = a->cap = 0;
	a->argv = NULL;
}
