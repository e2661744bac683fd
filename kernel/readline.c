/*
 * readline.c: the shell's line editor. Printable ASCII is inserted and
 * echoed; Backspace erases; Ctrl-U kills the line; Ctrl-C abandons it;
 * the up and down arrows walk the history; Tab completes. Everything
 * else (other control bytes, bytes >= 0x80, unknown escape sequences)
 * is ignored, so line noise cannot corrupt the line. Erasing echoes
 * "\b \b", which every terminal understands.
 */
#include "kernel.h"
#include "readline.h"
#include "shell.h"
#include "printk.h"
#include "string.h"

#define CTRL(c)		((c) & 0x1f)
#define DEL		0x7f
#define ESC		0x1b
#define LINE_DONE	1

enum esc_state {
	ESC_NONE,
	ESC_START,		/* ESC seen */
	ESC_SEQ,		/* ESC [ or ESC O seen: a CSI or SS3 sequence */
};

struct line_editor {
	const char *prompt;
	char *buf;
	size_t len, size;
	enum esc_state esc;
	int hist_pos;		/* 0: the line being typed, n: history_get(n) */
	char draft[SHELL_LINE_MAX + 1];	/* the line being typed, meanwhile */
};

/* A terminal may end a line with \r\n: the \n then ends no second line. */
static bool after_cr;

static void bell(void)
{
	console_write("\a", 1);
}

/* Append s to the line; refused whole, with a bell, if it does not fit. */
static bool insert(struct line_editor *le, const char *s, size_t n)
{
	if (le->len + n >= le->size) {
		bell();
		return false;
	}
	memcpy(le->buf + le->len, s, n);
	le->len += n;
	le->buf[le->len] = 0;
	console_write(s, n);
	return true;
}

static void erase(struct line_editor *le, size_t n)
{
	n = min(n, le->len);
	le->len -= n;
	le->buf[le->len] = 0;
	while (n--)
		console_write("\b \b", 3);
}

static void replace_line(struct line_editor *le, const char *s)
{
	erase(le, le->len);
	insert(le, s, strlen(s));
}

static void history_up(struct line_editor *le)
{
	const char *older = history_get(le->hist_pos + 1);

	if (!older) {
		bell();
		return;
	}
	if (!le->hist_pos)
		strlcpy(le->draft, le->buf, sizeof(le->draft));
	le->hist_pos++;
	replace_line(le, older);
}

static void history_down(struct line_editor *le)
{
	if (!le->hist_pos) {
		bell();
		return;
	}
	le->hist_pos--;
	replace_line(le, le->hist_pos ? history_get(le->hist_pos) : le->draft);
}

/* How many leading characters all candidates share. */
static size_t common_prefix(const struct name_list *l)
{
	size_t n = strlen(l->names[0]);
	int i;

	for (i = 1; i < l->count; i++)
		while (n && strncmp(l->names[0], l->names[i], n))
			n--;
	return n;
}

static void list_candidates(struct line_editor *le, const struct name_list *l)
{
	int i;

	console_write("\n", 1);
	for (i = 0; i < l->count; i++)
		console_printf("%s%s", i ? "  " : "", l->names[i]);
	console_printf("\n%s%s", le->prompt, le->buf);
}

/*
 * One candidate: complete it (a space ends a finished word). Several:
 * complete what they share, or list them when they share no more.
 */
static void complete(struct line_editor *le)
{
	struct completion c;
	const struct name_list *l = &c.candidates;
	size_t shared;

	completion_find(le->buf, &c);
	if (!l->count) {
		bell();
	} else if (l->count == 1) {
		shared = strlen(l->names[0]);
		if (insert(le, l->names[0] + c.stem_len, shared - c.stem_len) &&
		    l->names[0][shared - 1] != '/')
			insert(le, " ", 1);
	} else {
		shared = common_prefix(l);
		if (shared > c.stem_len)
			insert(le, l->names[0] + c.stem_len, shared - c.stem_len);
		else
			list_candidates(le, l);
	}
	completion_free(&c);
}

/* Inside an escape sequence: true if c belonged to it. */
static bool handle_escape(struct line_editor *le, int c)
{
	if (le->esc == ESC_START) {
		le->esc = (c == '[' || c == 'O') ? ESC_SEQ : ESC_NONE;
		return le->esc == ESC_SEQ || (c >= ' ' && c < DEL);	/* Alt+key */
	}
	if (c >= 0x20 && c <= 0x3f)	/* parameter or intermediate byte */
		return true;
	le->esc = ESC_NONE;
	if (c == 'A')
		history_up(le);
	else if (c == 'B')
		history_down(le);
	return c >= 0x40 && c <= 0x7e;	/* a final byte ends it */
}

/* Returns 0 to go on, LINE_DONE, or -EINTR. */
static int handle_byte(struct line_editor *le, int c)
{
	char ch = (char)c;
	bool was_cr = after_cr;

	after_cr = c == '\r';
	if (le->esc != ESC_NONE && handle_escape(le, c))
		return 0;
	switch (c) {
	case '\n':
		if (was_cr)
			return 0;
		/* fall through */
	case '\r':
		console_write("\n", 1);
		return LINE_DONE;
	case DEL:
	case '\b':
		erase(le, 1);
		return 0;
	case CTRL('U'):
		erase(le, le->len);
		return 0;
	case CTRL('C'):
		console_write("^C\n", 3);
		return -EINTR;
	case '\t':
		complete(le);
		return 0;
	case ESC:
		le->esc = ESC_START;
		return 0;
	}
	if (c >= ' ' && c < DEL)
		insert(le, &ch, 1);
	return 0;
}

int readline(const char *prompt, char *line, size_t size)
{
	struct line_editor le = {
		.prompt = prompt, .buf = line, .size = size,
	};
	int ret;

	line[0] = 0;
	console_puts(prompt);
	do
		ret = handle_byte(&le, console_getc());
	while (!ret);
	return ret == LINE_DONE ? (int)le.len : ret;
}
