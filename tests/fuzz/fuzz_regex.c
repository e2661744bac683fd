/*
 * fuzz_regex.c: lib/regex.c against the host's POSIX regcomp and
 * regexec (glibc), the reference grep and sed have on Linux. The input
 * is a flags byte (ERE, case folding, NOTBOL), then PATTERN\nTEXT,
 * folded onto the operators and a few letters so that they keep
 * meeting text they can match. Both must accept the same patterns,
 * and on each text find the same leftmost-longest match.
 *
 * What is left out, and why: a pattern that nests deeper than ours
 * allows or runs out of our step budget (REGEX_ESPACE; glibc has more
 * room); letters after a backslash that glibc takes as its word
 * operators (\w \b \< ...), which ours does not have; with case
 * folding, a lower-case letter after a backslash, which glibc leaves
 * unfolded against folded text, so that it never matches;
 * repetitions that cost glibc too much time or memory; and the match
 * (not the compile) of a back-reference to a group under repetition:
 * glibc's answer there depends on the path its matcher took, e.g.
 * \(c*\)*x\1\1 case-folded on "cxC" is (0,3) for it, a match that
 * no value of \1 gives.
 */
#include "fuzz.h"
/* Ours, and libc's through it, before kernel.h's macros can touch libc's. */
#include "regex.h"
#include "../../lib/regex.c"

#define MAX_LEN		48

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

static const char pattern_keep[] = ".[]^$*+?{}()|\\-,:=0123";
static const char pattern_letters[] = "acxA";
static const char text_keep[] = "-0123";
static const char text_letters[] = "acxAC";

static void fold_onto(char *s, const char *keep, const char *letters, size_t n)
{
	for (; *s; s++)
		if (!strchr(keep, *s))
			*s = letters[(u8)*s % n];
}

/* "[:x" becomes "[:alpha" and the like, so that classes get named. */
static void name_classes(char *s)
{
	static const char *const names[] = { "alpha", "digit", "upper", "space" };
	char *p;

	for (p = strstr(s, "[:x"); p; p = strstr(p + 2, "[:x")) {
		const char *name = names[strlen(p) % 4];

		if (strlen(p + 2) >= strlen(name))
			memcpy(p + 2, name, strlen(name));
	}
}

/*
 * glibc copies a repeated tree per operator and per count: nested
 * repetitions ((a*+)*+)*+ take it ages, and a{,22020} gigabytes.
 */
static bool costly_repeats(const char *pat)
{
	int ops = 0, run = 0, digits = 0;

	for (; *pat; pat++) {
		ops += *pat && strchr("*+?}", *pat);
		run = *pat && strchr("*+?}", *pat) ? run + 1 : 0;
		digits = isdigit((u8)*pat) ? digits + 1 : 0;
		if (ops > 4 || run > 2 || digits > 2)
			return true;
	}
	return false;
}

static bool glibc_quirk(const char *pat, bool icase)
{
	const char *p;

	if (costly_repeats(pat))
		return true;

	for (p = strchr(pat, '\\'); icase && p; p = strchr(p + 2, '\\'))
		if (islower((u8)p[1]))
			return true;
		else if (!p[1])
			break;
	return false;
}

/* A \N and a repetition right after a group's close. */
static bool backref_to_repeated_group(const char *pat)
{
	const char *p;
	bool backref = false, repeated = false;

	for (p = pat; *p; p++) {
		if (*p == '\\' && p[1] >= '1' && p[1] <= '9')
			backref = true;
		if (*p == ')' && p[1] && (strchr("*+?{", p[1]) ||
		    (p[1] == '\\' && p[2] && strchr("{+?", p[2]))))
			repeated = true;
	}
	return backref && repeated;
}

static void compare(const char *pat, const char *text, u8 mode)
{
	int flags = (mode & 1 ? REGEX_EXTENDED : 0) | (mode & 2 ? REGEX_ICASE : 0);
	int cflags = (mode & 1 ? REG_EXTENDED : 0) | (mode & 2 ? REG_ICASE : 0);
	bool notbol = mode & 4;
	struct regex_match m;
	struct regex re;
	regmatch_t pm;
	regex_t ref;
	int ours = regex_compile(&re, pat, flags), theirs;

	if (ours == REGEX_ESPACE)
		return;
	theirs = regcomp(&ref, pat, cflags);
	FUZZ_CHECK(!ours == !theirs);
	if (!theirs)
		theirs = regexec(&ref, text, 1, &pm, notbol ? REG_NOTBOL : 0);
	if (!ours) {
		ours = regex_exec(&re, text, strlen(text), 1, &m,
				  notbol ? REGEX_NOTBOL : 0);
		regex_free(&re);
	}
	if (ours != REGEX_ESPACE && !backref_to_repeated_group(pat)) {
		FUZZ_CHECK(!ours == !theirs);
		FUZZ_CHECK(ours || (m.start == pm.rm_so && m.end == pm.rm_eo));
	}
	if (theirs == 0 || theirs == REG_NOMATCH)
		regfree(&ref);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_in in = { data, size };
	u8 mode = fuzz_u8(&in);
	char *pat = fuzz_str(&in, '\n');
	char *text = fuzz_str(&in, '\n');

	if (strlen(pat) <= MAX_LEN && strlen(text) <= MAX_LEN) {
		fold_onto(pat, pattern_keep, pattern_letters, 4);
		name_classes(pat);
		fold_onto(text, text_keep, text_letters, 5);
		if (!glibc_quirk(pat, mode & 2))
			compare(pat, text, mode);
	}
	free(pat);
	free(text);
	return 0;
}
