/*
 * fuzz_awk.c: lib/awk.c's parser and interpreter. The input is a
 * program, folded onto awk's keywords, operators and a few names.
 * Whatever it is, it must parse to a program or to a message, never
 * crash or leak (ASan); a program runs on a few lines, loops cut short
 * through stop(), and must print the same twice over: nothing in it
 * may depend on memory it did not set.
 */
#include "fuzz.h"
#include "regex.h"
#include "../../lib/regex.c"
#include "../../lib/awk.c"

#define MAX_LEN		128
#define MAX_STEPS	2000

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

static const char *const words[] = {
	"BEGIN", "END", "print", "printf", "if", "else", "while", "for",
	"next", "length", "NR", "NF", "FS", "OFS", "$0", "$1", "$NF",
};
static const char keep[] = "{}()$;,\n+-*/%!~<>=&|\"/^.[]0123456789 ";
static const char letters[] = "abx";

static char output[8192];
static size_t output_len;
static int steps;

static void collect(void *ctx, const char *text, size_t len)
{
	FUZZ_CHECK(strlen(text) == len);
	len = len < sizeof(output) - output_len ? len : 0;
	memcpy(output + output_len, text, len);
	output_len += len;
}

static bool stop(void)
{
	return ++steps > MAX_STEPS;
}

/* Bytes 0x80 and up become keywords; others the operators or letters. */
static char *unfold(const char *in)
{
	char *out = malloc(8 * strlen(in) + 1), *w = out;

	for (; *in; in++) {
		if ((u8)*in >= 0x80) {
			w += sprintf(w, " %s ", words[(u8)*in % ARRAY_SIZE(words)]);
		} else {
			*w++ = strchr(keep, *in) ? *in :
			       letters[(u8)*in % (sizeof(letters) - 1)];
		}
	}
	*w = 0;
	return out;
}

static void run(const char *program)
{
	static const char *const lines[] = { "a b 1", "", "x:10:y", "ab ab 2" };
	const char *error;
	struct awk *a;
	size_t i;
	int err;

	output_len = 0;
	steps = 0;
	a = awk_parse(program, " ", collect, NULL, stop, &error);
	if (!a) {
		FUZZ_CHECK(error && error[0]);
		return;
	}
	err = awk_begin(a);
	for (i = 0; !err && i < ARRAY_SIZE(lines) && awk_reads_input(a); i++)
		err = awk_line(a, lines[i], strlen(lines[i]));
	if (!err)
		err = awk_end(a);
	FUZZ_CHECK(!err || awk_error(a)[0]);
	awk_free(a);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_in in = { data, size };
	char *text = fuzz_str(&in, 0), *program, first[sizeof(output)];
	size_t first_len;

	if (strlen(text) <= MAX_LEN) {
		program = unfold(text);
		run(program);
		first_len = output_len;
		memcpy(first, output, output_len);
		run(program);
		FUZZ_CHECK(output_len == first_len &&
			   !memcmp(first, output, first_len));
		free(program);
	}
	free(text);
	return 0;
}
