/*
 * readline.c: the shell's line editor. Text is inserted and echoed:
 * printable ASCII, and bytes >= 0x80 as they come, so UTF-8 reaches
 * the command as a Linux shell passes it on. Backspace erases one
 * character (every byte of a UTF-8 one, as n_tty's eraser() does with
 * IUTF8); Ctrl-U kills the line; Ctrl-C abandons it; Ctrl-D on an
 * empty line is the end of input, as a tty's VEOF, and for a
 * program's read (readline_canon) it hands over a line typed so far
 * without a newline, as VEOF does mid-line; the up and down
 * arrows walk the history; Tab completes; escape sequences it does
 * not know are dropped whole. Any other control byte is kept, echoed
 * as ^X (a tty's ECHOCTL), and makes Enter refuse the line. So does a
 * line that outgrew its buffer: each byte past the end rings the bell
 * and is dropped (IMAXBEL, drivers/tty/n_tty.c), and the line is then
 * refused whole rather than run cut. Erasing echoes "\b \b".
 */
#include "kernel.h"
#include "readline.h"
#include "shell.h"
#include "printk.h"
#include "string.h"

#define CTRL(c)		((c) & 0x1f)
#define DEL		0x7f
#define ESC		0x1b
#define LINE_DONE	1	/* Enter */
#define LINE_FLUSHED	2	/* Ctrl-D after some text, for a program */

enum esc_state {
	ESC_NONE,
	ESC_START,		/* ESC seen */
	ESC_SEQ,		/* ESC [ or ESC O seen: a CSI or SS3 sequence */
};

struct line_editor {
	const char *prompt;
	char *buf;
	size_t len, size;
	bool overflow;		/* a byte did not fit: Enter refuses */
	bool eof_flushes;	/* Ctrl-D mid-line ends it, without '\n' */
	enum esc_state esc;
	int hist_pos;		/* 0: the line being typed, n: history_get(n) */
};

/*
 * The line being typed, kept while the history is shown. Only the
 * shell's thread reads lines, so one copy serves.
 */
static struct {
	char buf[SHELL_LINE_MAX + 1];
	size_t len;
	bool overflow;
} draft;

/* A terminal may end a line with \r\n: the \n then ends no second line. */
static bool after_cr;

static void bell(void)
{
	console_write("\a", 1);
}

static bool is_control(u8 c)
{
	return c < ' ';
}

static bool is_utf8_continuation(u8 c)
{
	return (c & 0xc0) == 0x80;
}

/* How many bytes a UTF-8 sequence starting with c holds (1: not a lead). */
static size_t utf8_sequence_len(u8 c)
{
	if (c >= 0xc0 && c < 0xe0)
		return 2;
	if (c >= 0xe0 && c < 0xf0)
		return 3;
	if (c >= 0xf0 && c < 0xf8)
		return 4;
	return 1;
}

/*
 * The bytes of the line's last character: a UTF-8 lead byte with the
 * continuation bytes it calls for, or else the last byte alone, which
 * a terminal shows as one character too (U+FFFD if it is no text).
 */
static size_t last_char_len(const struct line_editor *le)
{
	size_t n;

	for (n = 1; n <= le->len && n <= 4; n++) {
		u8 c = le->buf[le->len - n];

		if (!is_utf8_continuation(c))
			return utf8_sequence_len(c) >= n ? n : 1;
	}
	return 1;
}

static bool has_control(const struct line_editor *le)
{
	size_t i;

	for (i = 0; i < le->len; i++)
		if (is_control(le->buf[i]))
			return true;
	return false;
}

static void echo(const char *s, size_t n)
{
	char ctl[2] = { '^' };

	for (; n--; s++) {
		if (is_control(*s)) {
			ctl[1] = *s + '@';
			console_write(ctl, 2);
		} else {
			console_write(s, 1);
		}
	}
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
	echo(s, n);
	return true;
}

static void type_byte(struct line_editor *le, char c)
{
	if (!insert(le, &c, 1))
		le->overflow = true;
}

/*
 * Erase the last character: one column, or two for a control byte
 * (echoed as ^X). An empty line starts afresh, even after it overflowed.
 */
static void erase_char(struct line_editor *le)
{
	int columns = 1;

	if (le->len) {
		le->len -= last_char_len(le);
		if (is_control(le->buf[le->len]))
			columns = 2;
		le->buf[le->len] = 0;
		while (columns--)
			console_write("\b \b", 3);
	}
	if (!le->len)
		le->overflow = false;
}

static void erase_line(struct line_editor *le)
{
	while (le->len)
		erase_char(le);
	le->overflow = false;
}

static void replace_line(struct line_editor *le, const char *s, size_t n,
			 bool overflow)
{
	erase_line(le);
	insert(le, s, n);
	le->overflow = overflow;
}

static void history_up(struct line_editor *le)
{
	const char *older = history_get(le->hist_pos + 1);

	if (!older) {
		bell();
		return;
	}
	if (!le->hist_pos) {
		draft.len = min(le->len, sizeof(draft.buf) - 1);
		memcpy(draft.buf, le->buf, draft.len);
		draft.overflow = le->overflow || draft.len < le->len;
	}
	le->hist_pos++;
	replace_line(le, older, strlen(older), false);
}

static void history_down(struct line_editor *le)
{
	const char *newer;

	if (!le->hist_pos) {
		bell();
		return;
	}
	le->hist_pos--;
	newer = history_get(le->hist_pos);
	if (newer)
		replace_line(le, newer, strlen(newer), false);
	else
		replace_line(le, draft.buf, draft.len, draft.overflow);
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
	console_printf("\n%s", le->prompt);
	console_write(le->buf, le->len);
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

	if (le->overflow || has_control(le)) {
		bell();
		return;
	}
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

/* Returns 0 to go on, LINE_DONE, LINE_FLUSHED, -EINTR or -ENODATA. */
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
		erase_char(le);
		return 0;
	case CTRL('U'):
		erase_line(le);
		return 0;
	case CTRL('C'):
		console_write("^C\n", 3);
		return -EINTR;
	case CTRL('D'):
		if (!le->len)
			return -ENODATA;
		if (le->eof_flushes)
			return LINE_FLUSHED;
		break;
	case '\t':
		complete(le);
		return 0;
	case ESC:
		le->esc = ESC_START;
		return 0;
	}
	type_byte(le, ch);
	return 0;
}

static int edit_line(struct line_editor *le)
{
	int ret;

	le->buf[0] = 0;
	console_puts(le->prompt);
	do
		ret = handle_byte(le, console_getc());
	while (!ret);
	if (ret < 0)
		return ret;
	if (le->overflow)
		return -E2BIG;
	return has_control(le) ? -EINVAL : ret;
}

int readline(const char *prompt, char *line, size_t size)
{
	struct line_editor le = {
		.prompt = prompt, .buf = line, .size = size,
	};
	int ret = edit_line(&le);

	return ret < 0 ? ret : (int)le.len;
}

int readline_canon(char *line, size_t size, bool *eol)
{
	struct line_editor le = {
		.prompt = "", .buf = line, .size = size, .eof_flushes = true,
	};
	int ret = edit_line(&le);

	*eol = ret == LINE_DONE;
	return ret < 0 ? ret : (int)le.len;
}
