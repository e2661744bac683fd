/*
 * fuzz_sed.c: lib/sed.c's script parser. The input is a script,
 * folded onto sed's commands, addresses and a few letters. Whatever
 * it is, parsing must end in a script or in a message, never a crash
 * or a leak (ASan). A script that parses is checked against itself
 * as the reference: written out again in a canonical form, it must
 * parse to the same commands, which then print the same form; and it
 * runs on a few lines.
 */
#include "fuzz.h"
#include "regex.h"
#include "../../lib/regex.c"
#include "../../lib/sed.c"

#define MAX_LEN		96

void *kmalloc(size_t size)
{
	return malloc(size);
}

void *kzalloc(size_t size)
{
	return calloc(1, size);
}

void kfree(const void *p)
{
	free((void *)p);
}

static const char keep[] = "sdpq=!,$/\\|;\n &{}[]^.*+?()gI0123456789";
static const char letters[] = "abcnx";

static void fold(char *s)
{
	for (; *s; s++)
		if (!strchr(keep, *s))
			*s = letters[(u8)*s % (sizeof(letters) - 1)];
}

/* A delimiter the text does not hold, or 0. */
static char delimiter_for(const char *text)
{
	const char *c;

	for (c = "/|,#%@~\x01\x02"; *c; c++)
		if (!strchr(text, *c))
			return *c;
	return 0;
}

/* Append text between delimiters; false if no delimiter will do. */
static bool put_delimited(char *out, size_t size, const char *text,
			  const char *text2)
{
	char both[2 * MAX_LEN + 2];
	char d;

	snprintf(both, sizeof(both), "%s%s", text, text2 ? text2 : "");
	d = delimiter_for(both);
	if (!d)
		return false;
	if (text2)
		snprintf(out + strlen(out), size - strlen(out), "s%c%s%c%s%c",
			 d, text, d, text2, d);
	else
		snprintf(out + strlen(out), size - strlen(out), "\\%c%s%c",
			 d, text, d);
	return true;
}

static bool put_addr(char *out, size_t size, const struct sed_addr *a)
{
	if (a->type == SED_ADDR_LINE)
		snprintf(out + strlen(out), size - strlen(out), "%lu", a->line);
	else if (a->type == SED_ADDR_LAST)
		strcat(out, "$");
	else if (a->type == SED_ADDR_RE)
		return put_delimited(out, size, a->text, NULL);
	return true;
}

static bool put_command(char *out, size_t size, const struct sed_cmd *c)
{
	if (!put_addr(out, size, &c->a1))
		return false;
	if (c->a2.type != SED_ADDR_NONE) {
		strcat(out, ",");
		if (!put_addr(out, size, &c->a2))
			return false;
	}
	if (c->negate)
		strcat(out, "!");
	if (c->name != 's') {
		snprintf(out + strlen(out), size - strlen(out), "%c", c->name);
		if (c->name == 'q' && c->exit_code)
			snprintf(out + strlen(out), size - strlen(out), "%d",
				 c->exit_code);
		return true;
	}
	if (!put_delimited(out, size, c->pattern, c->replacement))
		return false;
	snprintf(out + strlen(out), size - strlen(out), "%s%s%s",
		 c->global ? "g" : "", c->print ? "p" : "",
		 c->icase ? "I" : "");
	if (c->nth)
		snprintf(out + strlen(out), size - strlen(out), "%lu", c->nth);
	return true;
}

/* The script in canonical form, or NULL if it cannot be written. */
static char *unparse(const struct sed_script *s)
{
	size_t size = 16 * MAX_LEN;
	char *out = calloc(1, size);
	int i;

	for (i = 0; i < s->ncmds; i++) {
		if (!put_command(out, size, &s->cmds[i])) {
			free(out);
			return NULL;
		}
		strcat(out, "\n");
	}
	return out;
}

static void print_nothing(void *ctx, const char *text, size_t len)
{
	FUZZ_CHECK(strlen(text) == len);
}

static void run(struct sed_script *s)
{
	static const char *const lines[] = { "a fib b", "", "nothing", "xxx" };
	struct sed_space ps = { 0 };
	unsigned long i;

	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		FUZZ_CHECK(!sed_space_set(&ps, lines[i], strlen(lines[i])));
		if (sed_run(s, &ps, i + 1, i + 1 == ARRAY_SIZE(lines),
			    print_nothing, NULL))
			break;
	}
	free(ps.buf);
}

static void check_round_trip(struct sed_script *s, int flags)
{
	struct sed_script again;
	char *form = unparse(s), *form2;

	if (!form)
		return;
	sed_init(&again, flags);
	FUZZ_CHECK(!sed_parse(&again, form));
	FUZZ_CHECK(again.ncmds == s->ncmds);
	form2 = unparse(&again);
	FUZZ_CHECK(form2 && !strcmp(form, form2));
	sed_free(&again);
	free(form);
	free(form2);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_in in = { data, size };
	int flags = fuzz_u8(&in) & 1 ? REGEX_EXTENDED : 0;
	char *text = fuzz_str(&in, 0);
	struct sed_script s;

	if (strlen(text) <= MAX_LEN) {
		fold(text);
		sed_init(&s, flags);
		if (!sed_parse(&s, text)) {
			check_round_trip(&s, flags);
			run(&s);
		} else {
			FUZZ_CHECK(s.error[0]);
		}
		sed_free(&s);
	}
	free(text);
	return 0;
}
