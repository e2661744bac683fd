/*
 * fuzz_sh_parse.c: the shell's lexer and parser (kernel/shell/sh_lex.c,
 * sh_parse.c) on any text. Each parse must end (a tree, a syntax error
 * with a message, or "incomplete" only where more lines may follow),
 * and the reference is the parser itself over a prefix: text that
 * parses whole never has a prefix that is a syntax error when more
 * lines may follow, as a person typing it line by line would see it.
 * The arena is checked empty afterwards by ASan's leak checker.
 */
#include "fuzz.h"
#include <stdarg.h>
#include "../../lib/string.c"

void *kmalloc(size_t n)
{
	return malloc(n);
}

void *kzalloc(size_t n)
{
	return calloc(1, n);
}

void kfree(const void *p)
{
	free((void *)p);
}

#include "../../kernel/shell/sh_arena.c"
#include "../../kernel/shell/sh_lex.c"
#include "../../kernel/shell/sh_parse.c"

#define MAX_TEXT	2048

/* Parse all of text: 0, -EINVAL, -ENOMEM or SH_INCOMPLETE. */
static int parse_all(const char *text, bool more)
{
	struct sh_arena *a = sh_arena_new();
	struct sh_lexer lx;
	struct sh_node *n;
	int err;

	sh_lexer_init(&lx, text, more, a);
	err = sh_parse_program(&lx, &n);
	FUZZ_CHECK(!err || err == SH_INCOMPLETE || lx.error[0]);
	FUZZ_CHECK(more || err != SH_INCOMPLETE);
	sh_arena_put(a);
	return err;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	char text[MAX_TEXT + 1];
	size_t n = size < MAX_TEXT ? size : MAX_TEXT, cut;
	char saved;

	memcpy(text, data, n);
	text[n] = 0;
	if (strlen(text) != n)
		return 0;		/* no NULs: a line never holds one */
	if (parse_all(text, false))
		return 0;
	/* whole lines only: a cut inside a word can make another word */
	for (cut = 0; cut < n; cut++) {
		if (text[cut] != '\n')
			continue;
		saved = text[cut + 1];
		text[cut + 1] = 0;
		FUZZ_CHECK(parse_all(text, true) != -EINVAL);
		text[cut + 1] = saved;
	}
	return 0;
}
