/*
 * fuzz_trace_pid.c: the parser behind set_ftrace_pid, trace_pid_write()
 * (trace/trace_pid.c), on a sequence of writes, each replacing the
 * list or adding to it, some with an allocation failing. A write of
 * pids below PID_MAX (decimal, 0x hex or 0 octal) must leave exactly
 * the reference set (the old one too when appending), sorted, with no
 * room overrun; any other write must fail and change nothing. Nothing
 * may leak.
 */
#include "fuzz.h"
#include "../../lib/string.c"
#include "../../lib/kstrtox.c"
#include "../../trace/trace_pid.c"
#include "stub_trace_pid.h"

#define MAX_PIDS	256

static int fail_after = -1;	/* allocations left before one fails */
static int live_blocks;

void *kmalloc(size_t size)
{
	if (fail_after == 0)
		return NULL;
	if (fail_after > 0)
		fail_after--;
	live_blocks++;
	return malloc(size);
}

void kfree(const void *p)
{
	if (p)
		live_blocks--;
	free((void *)p);
}

/* No callback runs on the host: nothing to wait for. */
void synchronize_sched(void)
{
}

/* trace_pid_show()'s output is not under test. */
void seq_printf(struct seq_buf *s, const char *fmt, ...)
{
}

void seq_puts(struct seq_buf *s, const char *str)
{
}

struct ref_set {
	int pids[MAX_PIDS];
	int nr;
};

static bool ref_has(const struct ref_set *r, int pid)
{
	int i;

	for (i = 0; i < r->nr; i++)
		if (r->pids[i] == pid)
			return true;
	return false;
}

/* A digit's value in any base up to 16; 16 for anything else. */
static unsigned int ref_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
		return (c | 0x20) - 'a' + 10;
	return 16;
}

/*
 * kstrtouint's grammar with base 0: an optional '+', then "0x" and hex
 * digits, a '0' and octal ones, or decimal ones.
 */
static bool ref_pid(const char *w, int *pid)
{
	unsigned int base = 10, d;
	unsigned long v = 0;

	w += *w == '+';
	if (w[0] == '0' && (w[1] | 0x20) == 'x' && ref_digit(w[2]) < 16) {
		base = 16;
		w += 2;
	} else if (w[0] == '0') {
		base = 8;
	}
	if (!*w)
		return false;
	for (; *w; w++) {
		d = ref_digit(*w);
		if (d >= base)
			return false;
		v = min(v * base + d, (unsigned long)PID_MAX);
	}
	*pid = v;
	return v < PID_MAX;
}

/* The set a write must leave, or false if it must fail. */
static bool ref_write(const char *text, bool append, struct ref_set *r)
{
	char *copy = strdup(text), *w, *save;
	struct ref_set next = { .nr = 0 };
	bool ok = true;
	int pid;

	if (append)
		next = *r;
	for (w = strtok_r(copy, " \t\n\r", &save); w && ok;
	     w = strtok_r(NULL, " \t\n\r", &save)) {
		ok = ref_pid(w, &pid);
		if (ok && !ref_has(&next, pid) && next.nr < MAX_PIDS)
			next.pids[next.nr++] = pid;
	}
	free(copy);
	if (ok)
		*r = next;
	return ok;
}

static void check_list(const struct trace_array *tr, const struct ref_set *r)
{
	const struct trace_pid_list *l = tr->function_pids;
	int i;

	FUZZ_CHECK(!l == !r->nr);	/* an empty list is no list */
	if (!l)
		return;
	FUZZ_CHECK((int)l->nr == r->nr);
	for (i = 1; i < r->nr; i++)
		FUZZ_CHECK(l->pids[i - 1] < l->pids[i]);
	for (i = 0; i < r->nr; i++)
		FUZZ_CHECK(trace_pid_list_is_set(tr->function_pids,
						 r->pids[i]));
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct trace_array tr = { .function_pids = NULL };
	struct ref_set r = { .nr = 0 }, before;
	bool append, fail, valid;
	char *text;
	int ret;
	static struct trace_array cache_owner;

	/* One array's cache, made once, serves every input's array. */
	if (!cache_owner.pid_cache)
		FUZZ_CHECK(!ftrace_pid_cache_alloc(&cache_owner));
	tr.pid_cache = cache_owner.pid_cache;

	while (in.n) {
		u8 how = fuzz_u8(&in);

		append = how & 1;
		fail = how >= 0xf0;	/* kmalloc of the list or the copy */
		text = fuzz_str(&in, ';');
		before = r;
		valid = ref_write(text, append, &r);
		if (r.nr >= MAX_PIDS) {	/* too many to keep track of */
			r = before;
			free(text);
			continue;
		}
		fail_after = fail ? how & 1 : -1;
		ret = trace_pid_write(&tr, text, append);
		fail_after = -1;
		FUZZ_CHECK(ret == (fail ? -ENOMEM : valid ? 0 : -EINVAL));
		if (ret)
			r = before;
		check_list(&tr, &r);
		free(text);
	}
	kfree(tr.function_pids);
	FUZZ_CHECK(live_blocks == 0);
	return 0;
}
