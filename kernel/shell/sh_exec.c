/*
 * sh_exec.c: running the tree sh_parse.c builds (IEEE Std 1003.1, 2.9
 * Shell Commands). Simple commands run in the shell's own task, with
 * their redirections swapped into the task's file table for the time
 * they run; each stage of a pipeline, a ( subshell ), a command
 * substitution and a background job get a task of their own, made by
 * kernel_clone, with a copy of the shell's state, as fork would give.
 * Lists, loops and functions stop early through the flags of struct
 * sh_state (break, continue, return, exit, set -e) and on Ctrl-C.
 */
#include "kernel.h"
#include "mm.h"
#include "string.h"
#include "printf.h"
#include "sched.h"
#include "vfs.h"
#include "shell.h"
#include "glob.h"
#include "sh.h"

/* Room left on the task's stack below which nesting stops. */
#define SH_STACK_RESERVE	4096
/*
 * Subshells inside subshells (a function that calls itself through
 * $(...)): each is a task and its stack, so the depth is bounded well
 * before memory is, and the error unwinds quickly.
 */
#define SH_MAX_TASK_DEPTH	64

static int run_node(struct sh_state *sh, struct sh_node *n);

void sh_close_files(struct file *files[3])
{
	int i;

	for (i = 0; i < 3; i++) {
		if (files[i])
			vfs_close(files[i]);
		files[i] = NULL;
	}
}

static bool stack_low(void)
{
	unsigned long sp = (unsigned long)__builtin_frame_address(0);

	return sp - (unsigned long)current->stack < SH_STACK_RESERVE;
}

/* Ctrl-C: a trap on INT runs and the shell goes on; else it stops. */
bool sh_check_interrupt(struct sh_state *sh)
{
	char *trap;

	if (!READ_ONCE(current->sigpending))
		return false;
	if (!sh->trap_int)
		return true;
	current->sigpending = false;
	trap = sh_strdup(sh->trap_int);
	if (trap)
		sh_eval_string(sh, trap);
	kfree(trap);
	return READ_ONCE(current->sigpending);
}

/* Should a list stop before its next command? */
static bool stopping(struct sh_state *sh)
{
	return sh->exiting || sh->aborted || sh->returning || sh->breaks ||
	       sh_check_interrupt(sh);
}

static int set_status(struct sh_state *sh, int status)
{
	sh->status = status;
	return status;
}

/* set -e: a failed command, outside a condition, ends the shell. */
static int errexit(struct sh_state *sh, int status)
{
	if (status && sh->opt_e && !sh->errexit_off)
		sh->exiting = true;
	return set_status(sh, status);
}

/* --- redirections ------------------------------------------------------- */

/* A here-document's text as a file to read, in no directory. */
struct heredoc {
	char *text;
	size_t len;
};

static struct inode heredoc_inode;

static ssize_t heredoc_read(struct file *file, char *buf, size_t n)
{
	struct heredoc *h = file->private;

	n = min(n, h->len - file->pos);
	memcpy(buf, h->text + file->pos, n);
	file->pos += n;
	return n;
}

static int heredoc_release(struct inode *inode, struct file *file)
{
	struct heredoc *h = file->private;

	kfree(h->text);
	kfree(h);
	return 0;
}

static const struct file_operations heredoc_fops = {
	.read = heredoc_read,
	.release = heredoc_release,
};

static int open_heredoc(struct sh_state *sh, struct sh_redir *r,
			struct file **f)
{
	struct heredoc *h = kzalloc(sizeof(*h));
	int err;

	if (!h)
		return -ENOMEM;
	if (r->quoted)
		h->text = sh_strdup(r->body);
	else if (sh_expand_heredoc(sh, r->body, &h->text))
		err = 1;
	if (!h->text) {
		kfree(h);
		return -ENOMEM;
	}
	h->len = strlen(h->text);
	heredoc_inode.mode = S_IFREG | 0400;
	heredoc_inode.fops = &heredoc_fops;
	err = vfs_open_inode(&heredoc_inode, O_RDONLY, f);
	if (err) {
		kfree(h->text);
		kfree(h);
		return err;
	}
	(*f)->private = h;
	return 0;
}

static int open_flags(enum sh_redir_type type)
{
	switch (type) {
	case SH_R_IN:		return O_RDONLY;
	case SH_R_APPEND:	return O_WRONLY | O_CREAT | O_APPEND;
	case SH_R_RDWR:		return O_RDWR | O_CREAT;
	default:		return O_WRONLY | O_CREAT | O_TRUNC;
	}
}

/* n>&m, n<&m: a copy of m; n>&- closes n (here: /dev/null). */
static int dup_target(struct sh_state *sh, const char *t, struct file **f)
{
	if (!strcmp(t, "-"))
		return vfs_open(vfs_root(), "/dev/null", O_RDWR, f);
	if (t[0] < '0' || t[0] > '2' || t[1]) {
		sh_err("sh: %s: bad file descriptor\n", t);
		return 1;
	}
	*f = current->files[t[0] - '0'];
	if (*f)
		get_file(*f);
	return 0;
}

static int open_redir(struct sh_state *sh, struct sh_redir *r,
		      struct file **f)
{
	char *target;
	int err;

	if (r->type == SH_R_HEREDOC)
		return open_heredoc(sh, r, f);
	if (sh_expand_word(sh, r->target, false, &target))
		return 1;
	if (r->type == SH_R_DUP)
		err = dup_target(sh, target, f);
	else
		err = vfs_open(shell_cwd(), target, open_flags(r->type), f);
	if (err < 0)
		sh_err("sh: %s: %s\n", target, strerror_text(err));
	kfree(target);
	return err ? 1 : 0;
}

/*
 * Put the redirections into the task's file table; saved gets what
 * was there, for restore_redirs. Returns 0, or 1 having said why (and
 * with the table as it was).
 */
static int apply_redirs(struct sh_state *sh, struct sh_redir *r,
			struct file *saved[3])
{
	struct file *f;
	int i;

	for (i = 0; i < 3; i++)
		saved[i] = current->files[i];
	for (; r; r = r->next) {
		if (r->fd > 2) {
			sh_err("sh: %d: bad file descriptor\n", r->fd);
			goto undo;
		}
		f = NULL;
		if (open_redir(sh, r, &f))
			goto undo;
		if (current->files[r->fd] != saved[r->fd] &&
		    current->files[r->fd])
			vfs_close(current->files[r->fd]);
		current->files[r->fd] = f;
	}
	return 0;
undo:
	for (i = 0; i < 3; i++) {
		if (current->files[i] != saved[i] && current->files[i])
			vfs_close(current->files[i]);
		current->files[i] = saved[i];
	}
	return 1;
}

/* Close what apply_redirs opened: the first error closing, as bash says. */
static int restore_redirs(struct file *saved[3])
{
	int i, err = 0, e;

	for (i = 0; i < 3; i++) {
		if (current->files[i] != saved[i] && current->files[i]) {
			e = vfs_close(current->files[i]);
			if (!err)
				err = e;
		}
		current->files[i] = saved[i];
	}
	return err;
}

/* --- tasks -------------------------------------------------------------- */

/*
 * A foreground task is over: unless Ctrl-C ended it (130), the shell
 * goes on with its list, as a shell does whose child caught SIGINT.
 */
int sh_wait(struct task *t)
{
	int status = kthread_wait(t);

	if (status != 130)
		current->sigpending = false;
	return status;
}

/* What a task of the shell ends with: 130 if Ctrl-C stopped it. */
int sh_task_status(struct sh_state *sh, int status)
{
	if (sh->exiting)
		status = sh->status;
	return current->sigpending ? 130 : status;
}

static void child_main(void *arg)
{
	struct sh_node *n = arg;
	struct sh_state *sh = current->shell;
	int status = run_node(sh, n);

	if (sh->exiting)
		status = sh->status;
	sh_run_exit_trap(sh);
	status = sh_task_status(sh, status);
	sh_arena_put(n->arena);
	current->shell = NULL;
	sh_state_free(sh);
	sh_close_files(current->files);
	kthread_exit(status);
}

/* A task's name: the command a pipeline stage runs, as after exec. */
static const char *task_name(struct sh_node *n)
{
	const char *w;

	if (n->type != SH_CMD || !n->words)
		return "sh";
	for (w = n->words->text; *w; w++)
		if (strchr("'\"\\$`", *w))
			return "sh";
	return n->words->text;
}

/*
 * A task that runs n in a copy of sh, its file table files (whose
 * references it takes over). Not started yet: NULL if out of memory,
 * the files closed.
 */
struct task *sh_fork(struct sh_state *sh, struct sh_node *n,
		     struct file *files[3])
{
	struct sh_state *copy;
	struct kernel_clone_args args = {
		.fn = child_main, .arg = n, .name = task_name(n), .cpu = -1,
	};
	struct task *t = NULL;

	if (sh->task_depth >= SH_MAX_TASK_DEPTH) {
		sh_close_files(files);
		sh_err("sh: subshells nested too deeply\n");
		sh->exiting = true;
		return NULL;
	}
	copy = sh_state_clone(sh);
	if (copy)
		t = kernel_clone(&args);
	if (!t) {
		sh_state_free(copy);
		sh_close_files(files);
		sh_err("sh: can't fork: %s\n", strerror_text(ENOMEM));
		return NULL;
	}
	memcpy(t->files, files, sizeof(t->files));
	t->shell = copy;
	copy->interactive = false;
	sh_arena_get(n->arena);
	return t;
}

/* The task's standard files, each a new reference. */
void sh_inherit_files(struct file *files[3])
{
	int i;

	for (i = 0; i < 3; i++) {
		files[i] = current->files[i];
		if (files[i])
			get_file(files[i]);
	}
}

int sh_run_in_task(struct sh_state *sh, struct sh_node *n, const char *name,
		   struct file *files[3], int *status)
{
	struct task *t = sh_fork(sh, n, files);

	if (!t)
		return -ENOMEM;
	if (name)
		strlcpy(t->comm, name, sizeof(t->comm));
	kthread_start(t);
	*status = sh_wait(t);
	return 0;
}

static int run_subshell(struct sh_state *sh, struct sh_node *n)
{
	struct file *files[3];
	int status;

	sh_inherit_files(files);
	if (sh_run_in_task(sh, n->left, "sh", files, &status))
		return 2;
	return status;
}

/* The stages of a | b | c, left to right. */
static int pipeline_stages(struct sh_node *n, struct sh_node **stages,
			   int max)
{
	int count;

	if (n->type != SH_PIPE) {
		stages[0] = n;
		return 1;
	}
	count = pipeline_stages(n->left, stages, max - 1);
	if (count < 0 || count >= max)
		return -1;
	stages[count] = n->right;
	return count + 1;
}

#define SH_MAX_STAGES	16

/* Every stage a task, each stage's output the next one's input. */
static int run_pipeline(struct sh_state *sh, struct sh_node *n)
{
	struct sh_node *stages[SH_MAX_STAGES];
	struct task *tasks[SH_MAX_STAGES];
	struct file *files[3], *pipe[2], *next_in = NULL;
	int count = pipeline_stages(n, stages, SH_MAX_STAGES);
	int i, started = 0, status = 0, err;

	if (count < 0) {
		sh_err("sh: more than %d commands in a pipeline\n",
		       SH_MAX_STAGES);
		return 2;
	}
	for (i = 0; i < count; i++) {
		sh_inherit_files(files);
		if (i) {
			if (files[0])
				vfs_close(files[0]);
			files[0] = next_in;
			next_in = NULL;
		}
		if (i < count - 1) {
			err = create_pipe_files(pipe, 0);
			if (err) {
				sh_err("sh: pipe: %s\n", strerror_text(err));
				sh_close_files(files);
				break;
			}
			if (files[1])
				vfs_close(files[1]);
			files[1] = pipe[1];
			next_in = pipe[0];
		}
		tasks[i] = sh_fork(sh, stages[i], files);
		if (!tasks[i])
			break;
		kthread_start(tasks[i]);
		started++;
	}
	if (next_in)
		vfs_close(next_in);
	for (i = 0; i < started; i++)
		status = sh_wait(tasks[i]);
	return started == count ? status : 2;
}

/* $(...): text run in a task whose output comes back through a pipe. */
int sh_command_subst(struct sh_state *sh, const char *text, char **out)
{
	struct sh_arena *arena = sh_arena_new();
	struct sh_node *n = NULL;
	struct sh_lexer lx;
	struct file *files[3], *pipe[2];
	struct task *t;
	size_t len = 0, size = 256;
	char *buf, *bigger;
	ssize_t got;
	int err;

	*out = NULL;
	if (!arena)
		return -ENOMEM;
	sh_lexer_init(&lx, text, false, arena);
	err = sh_parse_program(&lx, &n);
	if (err) {
		sh_err("sh: %s\n", lx.error);
		sh_arena_put(arena);
		sh->subst_status = 2;
		return 1;
	}
	buf = kmalloc(size);
	if (!buf || create_pipe_files(pipe, 0)) {
		kfree(buf);
		sh_arena_put(arena);
		sh_err("sh: %s\n", strerror_text(ENOMEM));
		return 1;
	}
	sh_inherit_files(files);
	if (files[1])
		vfs_close(files[1]);
	files[1] = pipe[1];
	t = n ? sh_fork(sh, n, files) : NULL;
	if (!n)
		sh_close_files(files);
	if (t)
		kthread_start(t);
	while (t && (got = vfs_read(pipe[0], buf + len, size - 1 - len)) > 0) {
		len += got;
		if (len < size - 1)
			continue;
		bigger = kmalloc(size * 2);
		if (!bigger)
			break;
		memcpy(bigger, buf, len);
		kfree(buf);
		buf = bigger;
		size *= 2;
	}
	vfs_close(pipe[0]);
	buf[len] = 0;
	sh->subst_status = t ? sh_wait(t) : 0;
	sh_arena_put(arena);
	*out = buf;
	return 0;
}

/* --- simple commands ---------------------------------------------------- */

/* set -x: the command as it runs, on standard error. */
static void xtrace(struct sh_state *sh, struct sh_argv *a)
{
	int i;

	if (!sh->opt_x)
		return;
	sh_err("+");
	for (i = 0; i < a->argc; i++)
		sh_err(" %s", a->argv[i]);
	sh_err("\n");
}

/* NAME=value words: set in the shell (or for one command: see locals). */
static int assign(struct sh_state *sh, struct sh_word *w, bool save)
{
	const char *eq;
	char *value;
	int err = 0;

	for (; w && !err; w = w->next) {
		eq = strchr(w->text, '=');
		if (sh_expand_word(sh, eq + 1, false, &value))
			return 1;
		if (sh->opt_x)
			sh_err("+ %.*s=%s\n", (int)(eq - w->text), w->text,
			       value);
		if (save) {
			char *name = sh_strndup(w->text, eq - w->text);

			err = name ? sh_local(sh, name) : -ENOMEM;
			if (!err)
				err = sh_export(sh, name);
			kfree(name);
		}
		if (!err)
			err = sh_setvar_n(sh, w->text, eq - w->text, value);
		kfree(value);
	}
	if (err)
		sh_err("sh: %s\n", strerror_text(ENOMEM));
	return err ? 1 : 0;
}

static int call_function(struct sh_state *sh, struct sh_func *f, int argc,
			 char **argv)
{
	struct sh_saved_var *locals = sh->locals;
	struct sh_node *body = f->body;
	int saved_argc = sh->argc, status;
	char **saved_argv = sh->argv;

	sh->argc = 0;
	sh->argv = NULL;
	if (sh_set_args(sh, argc - 1, argv + 1)) {
		sh->argc = saved_argc;
		sh->argv = saved_argv;
		sh_err("sh: %s\n", strerror_text(ENOMEM));
		return 1;
	}
	sh->locals = NULL;
	sh->func_depth++;
	sh_arena_get(body->arena);
	status = run_node(sh, body);
	if (sh->returning) {
		sh->returning = false;
		status = sh->status;
	}
	sh_arena_put(body->arena);
	sh->func_depth--;
	sh_restore_locals(sh, sh->locals);
	sh->locals = locals;
	sh_free_args(sh->argc, sh->argv);
	sh->argc = saved_argc;
	sh->argv = saved_argv;
	return status;
}

/* A command's output that could not be written, as bash reports it. */
static int run_command(const struct shell_command *cmd, int argc,
		       char **argv)
{
	struct shell_out out = { .file = current->files[1] };
	int status = cmd->fn(&out, argc, argv);

	if (out.error && out.error != -EPIPE && out.error != -EINTR)
		sh_err("sh: write error: %s\n", strerror_text(out.error));
	if (out.error && !status)
		status = 1;
	return status;
}

static bool is_special_builtin(const char *name)
{
	static const char *const special[] = {
		"break", ":", "continue", ".", "eval", "exec", "exit",
		"export", "local", "readonly", "return", "set", "shift",
		"trap", "unset",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(special); i++)
		if (!strcmp(name, special[i]))
			return true;
	return false;
}

/* Run argv, whatever it names: a function, a command, a script file. */
int sh_run_argv(struct sh_state *sh, int argc, char **argv)
{
	const struct shell_command *cmd;
	struct sh_func *f;
	char *path;
	int status;

	f = strchr(argv[0], '/') ? NULL : sh_find_func(sh, argv[0]);
	if (f)
		return call_function(sh, f, argc, argv);
	cmd = strchr(argv[0], '/') ? NULL : shell_find_command(argv[0]);
	if (cmd)
		return run_command(cmd, argc, argv);
	path = sh_find_program(sh, argv[0]);
	if (IS_ERR(path)) {
		sh_err("sh: %s: %s\n", argv[0], PTR_ERR(path) == -ENOENT ?
		       "not found" : strerror_text(PTR_ERR(path)));
		return PTR_ERR(path) == -ENOENT ? 127 : 126;
	}
	status = sh_run_script_file(path, argc, argv);
	kfree(path);
	return status;
}

static int run_simple(struct sh_state *sh, struct sh_node *n)
{
	struct sh_argv a = { 0 };
	struct file *saved[3];
	bool special, temp;
	int status, err;

	sh->subst_status = 0;
	if (sh_expand_fields(sh, n->words, &a))
		return 2;
	if (!a.argc) {
		status = assign(sh, n->assigns, false);
		if (!status && apply_redirs(sh, n->redirs, saved))
			status = 1;
		else if (!status)
			restore_redirs(saved);
		return status ? status : sh->subst_status;
	}
	xtrace(sh, &a);
	special = is_special_builtin(a.argv[0]);
	temp = n->assigns && !special;
	if (temp) {
		struct sh_saved_var *outer = sh->locals;

		sh->locals = NULL;
		status = assign(sh, n->assigns, true);
		if (!status && !apply_redirs(sh, n->redirs, saved)) {
			status = sh_run_argv(sh, a.argc, a.argv);
			err = restore_redirs(saved);
		} else {
			status = 1;
			err = 0;
		}
		sh_restore_locals(sh, sh->locals);
		sh->locals = outer;
	} else if (assign(sh, n->assigns, false) ||
		   apply_redirs(sh, n->redirs, saved)) {
		status = 1;
		err = 0;
	} else if (!strcmp(a.argv[0], "exec") && a.argc == 1) {
		status = 0;	/* exec's redirections stay */
		err = 0;
	} else {
		status = sh_run_argv(sh, a.argc, a.argv);
		err = restore_redirs(saved);
	}
	if (err) {
		sh_err("sh: write error: %s\n", strerror_text(err));
		status = status ? status : 1;
	}
	sh_argv_free(&a);
	return status;
}

/* --- compound commands -------------------------------------------------- */

/* After a loop's body: leave it (true) for break, or go on. */
static bool loop_leaves(struct sh_state *sh)
{
	if (!sh->breaks)
		return sh->exiting || sh->aborted || sh->returning ||
		       sh_check_interrupt(sh);
	if (--sh->breaks || !sh->continuing)
		return true;
	sh->continuing = false;
	return false;
}

static int run_condition(struct sh_state *sh, struct sh_node *n)
{
	int status;

	sh->errexit_off++;
	status = run_node(sh, n);
	sh->errexit_off--;
	return status;
}

static int run_while(struct sh_state *sh, struct sh_node *n)
{
	int status = 0, cond;

	sh->loops++;
	for (;;) {
		cond = run_condition(sh, n->left);
		if (stopping(sh) || (cond == 0) != (n->type == SH_WHILE))
			break;
		status = run_node(sh, n->right);
		if (loop_leaves(sh))
			break;
	}
	sh->loops--;
	return status;
}

static int run_for(struct sh_state *sh, struct sh_node *n)
{
	struct sh_argv a = { 0 };
	int status = 0, i;

	if (n->for_in && sh_expand_fields(sh, n->words, &a))
		return 1;
	for (i = 0; !n->for_in && i < sh->argc; i++) {
		if (sh_argv_add(&a, sh_strdup(sh->argv[i]))) {
			sh_argv_free(&a);
			sh_err("sh: %s\n", strerror_text(ENOMEM));
			return 1;
		}
	}
	sh->loops++;
	for (i = 0; i < a.argc; i++) {
		if (sh_setvar(sh, n->name, a.argv[i])) {
			sh_err("sh: %s\n", strerror_text(ENOMEM));
			status = 1;
			break;
		}
		status = run_node(sh, n->right);
		if (loop_leaves(sh))
			break;
	}
	sh->loops--;
	sh_argv_free(&a);
	return status;
}

static bool case_item_matches(struct sh_state *sh, struct sh_case_item *item,
			      const char *word, int *err)
{
	struct sh_word *p;
	char *pat;
	bool match = false;

	for (p = item->patterns; p && !match && !*err; p = p->next) {
		*err = sh_expand_word(sh, p->text, true, &pat);
		if (!*err)
			match = glob_match(pat, word);
		kfree(pat);
	}
	return match;
}

static int run_case(struct sh_state *sh, struct sh_node *n)
{
	struct sh_case_item *item;
	char *word;
	int err = 0, status = 0;

	if (sh_expand_word(sh, n->words->text, false, &word))
		return 1;
	for (item = n->items; item && !err; item = item->next) {
		if (case_item_matches(sh, item, word, &err)) {
			status = item->body ? run_node(sh, item->body) : 0;
			break;
		}
	}
	kfree(word);
	return err ? 1 : status;
}

static int run_if(struct sh_state *sh, struct sh_node *n)
{
	int cond = run_condition(sh, n->left);

	if (stopping(sh))
		return cond;
	if (!cond)
		return run_node(sh, n->right);
	return n->els ? run_node(sh, n->els) : 0;
}

static int define_function(struct sh_state *sh, struct sh_node *n)
{
	if (sh_define_func(sh, n->name, n->left)) {
		sh_err("sh: %s\n", strerror_text(ENOMEM));
		return 1;
	}
	return 0;
}

/* A compound command's redirections hold while all of it runs. */
static int with_redirs(struct sh_state *sh, struct sh_node *n,
		       int (*fn)(struct sh_state *, struct sh_node *))
{
	struct file *saved[3];
	int status, err;

	if (!n->redirs)
		return fn(sh, n);
	if (apply_redirs(sh, n->redirs, saved))
		return 1;
	status = fn(sh, n);
	err = restore_redirs(saved);
	if (err)
		sh_err("sh: write error: %s\n", strerror_text(err));
	return err && !status ? 1 : status;
}

static int run_group(struct sh_state *sh, struct sh_node *n)
{
	return run_node(sh, n->left);
}

static int run_compound(struct sh_state *sh, struct sh_node *n)
{
	switch (n->type) {
	case SH_IF:		return run_if(sh, n);
	case SH_WHILE:
	case SH_UNTIL:		return run_while(sh, n);
	case SH_FOR:		return run_for(sh, n);
	case SH_CASE:		return run_case(sh, n);
	case SH_SUBSHELL:	return errexit(sh, run_subshell(sh, n));
	default:		return run_group(sh, n);
	}
}

static int run_list(struct sh_state *sh, struct sh_node *n)
{
	int status;

	switch (n->type) {
	case SH_SEQ:
		status = run_node(sh, n->left);
		return stopping(sh) ? status : run_node(sh, n->right);
	case SH_AND:
	case SH_OR:
		status = run_condition(sh, n->left);
		if (stopping(sh) || (status == 0) != (n->type == SH_AND))
			return status;
		return run_node(sh, n->right);
	case SH_NOT:
		return !run_condition(sh, n->left);
	default:	/* SH_BG */
		return sh_job_start(sh, n->left, n->name);
	}
}

static int dispatch(struct sh_state *sh, struct sh_node *n)
{
	switch (n->type) {
	case SH_CMD:
		return errexit(sh, run_simple(sh, n));
	case SH_PIPE:
		return errexit(sh, run_pipeline(sh, n));
	case SH_FUNC:
		return define_function(sh, n);
	case SH_SEQ:
	case SH_AND:
	case SH_OR:
	case SH_NOT:
	case SH_BG:
		return run_list(sh, n);
	default:
		return with_redirs(sh, n, run_compound);
	}
}

/* exit and return set the status themselves: what ran after keeps it. */
static int run_node(struct sh_state *sh, struct sh_node *n)
{
	int status;

	if (stack_low()) {
		sh_err("sh: commands nested too deeply\n");
		sh->exiting = !sh->interactive;
		return set_status(sh, 2);
	}
	if (stopping(sh))
		return sh->status;
	status = dispatch(sh, n);
	if (sh->exiting || sh->returning)
		return sh->status;
	return set_status(sh, status);
}

int sh_run(struct sh_state *sh, struct sh_node *n)
{
	return run_node(sh, n);
}

/*
 * Run text command by command, as a script or eval does: a syntax
 * error stops it there, with the line it was found on.
 */
int sh_eval_string(struct sh_state *sh, const char *text)
{
	struct sh_arena *arena = sh_arena_new();
	struct sh_lexer lx;
	struct sh_node *n;
	int err;

	if (!arena) {
		sh_err("sh: %s\n", strerror_text(ENOMEM));
		return set_status(sh, 1);
	}
	sh_lexer_init(&lx, text, false, arena);
	while (!stopping(sh) && !(err = sh_parse_command(&lx, &n)) && n)
		run_node(sh, n);
	if (err && !stopping(sh)) {
		if (sh->interactive)
			sh_err("sh: %s\n", lx.error);
		else
			sh_err("sh: line %d: %s\n", lx.lineno, lx.error);
		set_status(sh, 2);
		sh->exiting = !sh->interactive;
	}
	sh_arena_put(arena);
	return sh->status;
}

/* trap ... EXIT: once, when the shell ends; exit inside it sets the status. */
int sh_run_exit_trap(struct sh_state *sh)
{
	char *trap = sh->trap_exit;
	int status = sh->status;

	if (!trap)
		return status;
	sh->trap_exit = NULL;
	sh->exiting = false;
	sh->returning = false;
	sh->breaks = 0;
	sh_eval_string(sh, trap);
	kfree(trap);
	if (!sh->exiting)
		sh->status = status;
	sh->exiting = true;
	return sh->status;
}
