/*
 * fuzz_readline.c: the shell's line editor (kernel/readline.c) with
 * its history, fed keystrokes from the input through a stub console.
 * What it echoes goes through a small terminal model (text, "\b",
 * "\n"), and when a line ends, the screen must show the prompt and
 * exactly the line returned: the echo never disagrees with the buffer.
 * The line must fit its buffer and hold only printable characters;
 * for input without escapes or Tab it must also be what a plain
 * typist's model (insert, erase, kill) gives.
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
#include "../../kernel/name_list.c"
#include "../../kernel/history.c"
#include "../../kernel/readline.c"

#define PROMPT		"rvftrace:/# "
#define ROW_MAX		1024

static struct fuzz_in keys;

/* The terminal: the row the cursor is on, and the one a '\n' ended. */
struct term_row {
	char text[ROW_MAX];
	size_t len, col;
};

static struct term_row row, last_row;

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
	(void)buf;
	(void)size;
	(void)addr;
	(void)with_offset;
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
		last_row = row;
		row.len = row.col = 0;
	} else if (c == '\b') {
		FUZZ_CHECK(row.col > 0);
		row.col--;
	} else if (c != '\a') {
		FUZZ_CHECK(c >= ' ' && c <= '~' && row.col < ROW_MAX);
		row.text[row.col++] = c;
		row.len = max(row.len, row.col);
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

/*
 * The row the line ended on shows the prompt and the line (and "^C"
 * if that ended it) up to the cursor, then only erased cells.
 */
static void check_screen(const char *line, int ret)
{
	char want[ROW_MAX];
	size_t i, n;

	n = rv_snprintf(want, sizeof(want), "%s%s%s", PROMPT, line,
			ret == -EINTR ? "^C" : "");
	FUZZ_CHECK(last_row.col == n && !memcmp(last_row.text, want, n));
	for (i = n; i < last_row.len; i++)
		FUZZ_CHECK(last_row.text[i] == ' ');
}

/*
 * A plain typist: printable keys insert (if they fit), DEL and
 * Backspace erase, Ctrl-U kills; Enter or Ctrl-C ends the line, but a
 * '\n' just after the '\r' that ended the line before is no key.
 * False for keys with ESC or Tab, which it does not model.
 */
static bool plain_model(const u8 *k, size_t n, bool after_enter,
			size_t size, char *out)
{
	size_t i, len = 0;

	for (i = after_enter && n && k[0] == '\n'; i < n; i++) {
		if (k[i] == 0x1b || k[i] == '\t')
			return false;
		if (k[i] == '\r' || k[i] == '\n' || k[i] == 0x03)
			break;
		if (k[i] >= ' ' && k[i] < 0x7f && len + 1 < size)
			out[len++] = k[i];
		else if ((k[i] == 0x7f || k[i] == '\b') && len)
			len--;
		else if (k[i] == 0x15)
			len = 0;
	}
	out[len] = 0;
	return true;
}

static void check_line(const u8 *typed, size_t n, bool after_enter,
		       size_t size, const char *line, int ret)
{
	char model[SHELL_LINE_MAX + 1];
	size_t i;

	FUZZ_CHECK(ret == -EINTR || (ret >= 0 && (size_t)ret == strlen(line)));
	FUZZ_CHECK(strlen(line) < size);
	for (i = 0; line[i]; i++)
		FUZZ_CHECK(line[i] >= ' ' && line[i] <= '~');
	check_screen(line, ret);
	if (plain_model(typed, n, after_enter, size, model))
		FUZZ_CHECK(!strcmp(model, line));
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
		check_line(start, keys.p - start, after_enter, line_size,
			   line, ret);
		after_enter = keys.p > start && keys.p[-1] == '\r';
		if (ret >= 0)
			history_add(line);
	} while (keys.n);
	free(line);
	return 0;
}
