/*
 * fuzz_readline.c: the shell's line editor (kernel/shell/readline.c) with
 * its history, fed keystrokes from the input through a stub console.
 * What it echoes goes through a small terminal model, and when a line
 * ends, the screen must show the prompt and exactly the line the
 * editor holds: the echo never disagrees with the buffer. The model
 * shows each character in one column: a UTF-8 lead byte with the
 * continuation bytes that follow it (as many as it calls for), any
 * other byte alone; a raw control byte never reaches it. A line that
 * comes back must fit its buffer and hold no control byte; for input
 * without escapes or Tab it must also be what a plain typist's model
 * (insert, erase a character, kill) gives, refused (-E2BIG, -EINVAL)
 * exactly when the model says so.
 */
#include <stdarg.h>
#include "fuzz.h"

/* The kernel's formatter (for console_printf) under its own names. */
#define vsnprintf rv_vsnprintf
#define snprintf rv_snprintf
#define scnprintf rv_scnprintf
#include "../../lib/vsprintf.c"
#undef vsnprintf
#undef snprintf
#undef scnprintf
#include "../../lib/string.c"
#include "../../kernel/shell/name_list.c"
#include "../../kernel/shell/history.c"
#include "../../kernel/shell/readline.c"

#define PROMPT		"rvftrace:/# "
/* Room for a line of control bytes, each echoed as ^X. */
#define ROW_MAX		(2 * SHELL_LINE_MAX + 64)
#define CHAR_MAX_BYTES	4

static struct fuzz_in keys;

/* One column: a character's bytes, and how many more it calls for. */
struct cell {
	u8 bytes[CHAR_MAX_BYTES];
	u8 len, missing;
};

/* A terminal row: its cells up to the cursor and beyond. */
struct term_row {
	struct cell cells[ROW_MAX];
	size_t len, col;
};

/* The row the cursor is on, the one a '\n' ended, and a scratch one. */
static struct term_row row, last_row, want_row;

static u8 utf8_missing(u8 c)
{
	if (c >= 0xc0 && c < 0xe0)
		return 1;
	if (c >= 0xe0 && c < 0xf0)
		return 2;
	return c >= 0xf0 && c < 0xf8 ? 3 : 0;
}

/* A continuation byte joins the character just before the cursor. */
static void row_put(struct term_row *r, u8 c)
{
	struct cell *before = r->col ? &r->cells[r->col - 1] : NULL;

	if ((c & 0xc0) == 0x80 && before && before->missing) {
		before->bytes[before->len++] = c;
		before->missing--;
		return;
	}
	FUZZ_CHECK(c >= ' ' && c != 0x7f && r->col < ROW_MAX);
	r->cells[r->col] = (struct cell){ { c }, 1, utf8_missing(c) };
	r->col++;
	r->len = max(r->len, r->col);
}

static bool cell_is(const struct cell *cell, const struct cell *want)
{
	return cell->len == want->len &&
	       !memcmp(cell->bytes, want->bytes, cell->len);
}

void *kmalloc(size_t size)
{
	return malloc(size);
}

void kfree(const void *p)
{
	free((void *)p);
}

/* vsprintf.c's %pS needs kallsyms; the editor prints no symbols. */
size_t sprint_symbol(char *buf, size_t size, unsigned long addr,
		     bool with_offset)
{
	abort();
}

/* Out of keys, the line ends as if Enter were pressed. */
int console_getc(void)
{
	return keys.n ? fuzz_u8(&keys) : '\r';
}

static void term_putc(char c)
{
	if (c == '\n') {
		memcpy(last_row.cells, row.cells,
		       row.len * sizeof(row.cells[0]));
		last_row.len = row.len;
		last_row.col = row.col;
		row.len = row.col = 0;
	} else if (c == '\b') {
		FUZZ_CHECK(row.col > 0);
		row.col--;
	} else if (c != '\a') {
		row_put(&row, c);
	}
}

void console_write(const char *s, size_t n)
{
	while (n--)
		term_putc(*s++);
}

void console_puts(const char *s)
{
	console_write(s, strlen(s));
}

int console_printf(const char *fmt, ...)
{
	static char buf[ROW_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = rv_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	FUZZ_CHECK(n < (int)sizeof(buf));
	console_puts(buf);
	return n;
}

/* Completion as complete.c does it, over a fixed set of names. */
void completion_find(const char *line, struct completion *c)
{
	static const char *const names[] = {
		"cat", "cd", "cpus", "echo", "ftrace_debug", "ls", "run",
		"trace", "trace_pipe", "tracing/", "tmp/", "set_ftrace_filter",
	};
	const char *word = strrchr(line, ' ') ? strrchr(line, ' ') + 1 : line;
	const char *stem = strrchr(word, '/') ? strrchr(word, '/') + 1 : word;
	size_t i;

	name_list_init(&c->candidates);
	c->stem_len = strlen(stem);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (str_has_prefix(names[i], stem))
			name_list_add(&c->candidates, names[i], "");
}

void completion_free(struct completion *c)
{
	name_list_free(&c->candidates);
}

/* want_row: the prompt, then the line as echoed (^X for a control byte). */
static void render(const char *line, size_t len, int ret)
{
	const char *p;
	size_t i;

	want_row.len = want_row.col = 0;
	for (p = PROMPT; *p; p++)
		row_put(&want_row, *p);
	for (i = 0; i < len; i++) {
		if ((u8)line[i] < ' ') {
			row_put(&want_row, '^');
			row_put(&want_row, line[i] + '@');
		} else {
			row_put(&want_row, line[i]);
		}
	}
	if (ret == -EINTR) {
		row_put(&want_row, '^');
		row_put(&want_row, 'C');
	}
}

/*
 * The row the line ended on shows the prompt and the line (and "^C"
 * if that ended it) up to the cursor, then only erased cells; or, with
 * prefix, begins with them (a refused line's bytes may hold a NUL).
 */
static void check_screen(const char *line, size_t len, int ret, bool prefix)
{
	static const struct cell blank = { { ' ' }, 1, 0 };
	size_t i;

	render(line, len, prefix ? 0 : ret);
	FUZZ_CHECK(prefix ? last_row.col >= want_row.col :
		   last_row.col == want_row.col);
	for (i = 0; i < want_row.col; i++)
		FUZZ_CHECK(cell_is(&last_row.cells[i], &want_row.cells[i]));
	for (i = last_row.col; !prefix && i < last_row.len; i++)
		FUZZ_CHECK(cell_is(&last_row.cells[i], &blank));
}

/* The typist's line, and what readline should return for it. */
struct model {
	char line[SHELL_LINE_MAX + 1];
	size_t len;
	bool overflow;
};

/* Erase the last character, found from the start of the line. */
static void model_erase(struct model *m)
{
	size_t i = 0, last = 0, missing;

	while (i < m->len) {
		last = i;
		missing = utf8_missing(m->line[i++]);
		while (missing-- && i < m->len && (m->line[i] & 0xc0) == 0x80)
			i++;
	}
	m->len = last;
	if (!m->len)
		m->overflow = false;
}

static int model_result(const struct model *m)
{
	size_t i;

	if (m->overflow)
		return -E2BIG;
	for (i = 0; i < m->len; i++)
		if ((u8)m->line[i] < ' ')
			return -EINVAL;
	return m->len;
}

/*
 * A plain typist: other keys insert (a byte that does not fit sets
 * overflow), DEL and Backspace erase a character, Ctrl-U kills; Enter
 * or Ctrl-C ends the line, and so does Ctrl-D on an empty line (the end
 * of input); but a '\n' just after the '\r' that ended
 * the line before is no key. Returns what readline should, or 1 for
 * keys with ESC or Tab, which it does not model.
 */
static int plain_model(const u8 *k, size_t n, bool after_enter,
		       size_t size, struct model *m)
{
	size_t i;

	m->len = 0;
	m->overflow = false;
	for (i = after_enter && n && k[0] == '\n'; i < n; i++) {
		if (k[i] == 0x1b || k[i] == '\t')
			return 1;
		if (k[i] == '\r' || k[i] == '\n')
			return model_result(m);
		if (k[i] == 0x03)
			return -EINTR;
		if (k[i] == 0x04 && !m->len)
			return -ENODATA;
		if (k[i] == 0x7f || k[i] == '\b')
			model_erase(m);
		else if (k[i] == 0x15)
			*m = (struct model){ .len = 0 };
		else if (m->len + 1 < size)
			m->line[m->len++] = k[i];
		else
			m->overflow = true;
	}
	return model_result(m);	/* out of keys: Enter */
}

static void check_line(const u8 *typed, size_t n, bool after_enter,
		       size_t size, const char *line, int ret)
{
	static struct model m;
	int want = plain_model(typed, n, after_enter, size, &m);
	size_t i, len = strlen(line);

	FUZZ_CHECK(ret >= 0 || ret == -EINTR || ret == -E2BIG ||
		   ret == -EINVAL || ret == -ENODATA);
	FUZZ_CHECK(len < size);
	if (ret >= 0) {
		FUZZ_CHECK((size_t)ret == len);
		for (i = 0; i < len; i++)
			FUZZ_CHECK((u8)line[i] >= ' ' && line[i] != 0x7f);
	}
	if (want != 1) {
		FUZZ_CHECK(ret == want);
		FUZZ_CHECK(!memcmp(line, m.line, m.len) && !line[m.len]);
		check_screen(m.line, m.len, ret, false);
	} else {
		check_screen(line, len, ret, ret < 0);
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	char *line;
	size_t line_size;
	const u8 *start;
	bool after_enter = false;
	u8 first;
	int ret;

	keys = (struct fuzz_in){ data, size };
	first = fuzz_u8(&keys);
	line_size = first < 0x80 ? SHELL_LINE_MAX + 1 : 1 + first % 32;
	line = malloc(line_size);
	memset(history, 0, sizeof(history));
	history_count = 0;
	after_cr = false;
	row.len = row.col = 0;
	do {
		start = keys.p;
		ret = readline(PROMPT, line, line_size);
		if (ret == -ENODATA)	/* the shell ends the row itself */
			console_write("\n", 1);
		check_line(start, keys.p - start, after_enter, line_size,
			   line, ret);
		after_enter = keys.p > start && keys.p[-1] == '\r';
		if (ret >= 0)
			history_add(line);
	} while (keys.n);
	free(line);
	return 0;
}
