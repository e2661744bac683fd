/*
 * fuzz_glob.c: lib/glob.c against a slow, obvious matcher. The input
 * is PATTERN\nNAME; both are folded onto a small alphabet, so that
 * stars, classes and ranges keep meeting text they can match. Then
 * filter_parse_regex() + ftrace_match(), ftrace's shortcut, must agree
 * with glob_match() on the same pattern.
 */
#include "fuzz.h"
#include "../../lib/glob.c"

#define MAX_LEN		64
#define NR_BYTES	256

/* Glob syntax, a few letters, a byte above 0x7f (classes compare unsigned). */
static const char keep[] = "*?[]!^-\\abz\xe9";
static const char letters[] = "abz\xe9";

static void fold(char *s)
{
	for (; *s; s++)
		if (!strchr(keep, *s))
			*s = letters[(u8)*s % (sizeof(letters) - 1)];
}

/* The reference: the pattern as a list of tokens, each a byte set or '*'. */
struct token {
	bool star;
	bool set[NR_BYTES];
};

static void set_range(bool *set, u8 lo, u8 hi)
{
	int c;

	for (c = lo; c <= hi; c++)
		set[c] = true;
}

/*
 * A class after its '[': members, a-z ranges, a first ']' that is a
 * member, '-' before the ']' a member too. NULL if it never closes;
 * set is then left as it was.
 */
static const char *ref_class(const char *p, bool *out)
{
	bool inverted = *p == '!';	/* '^' is a member, as in Linux */
	bool first = true, set[NR_BYTES] = { false };
	u8 lo;
	int c;

	p += inverted;
	for (;; first = false) {
		lo = *p++;
		if (!lo)
			return NULL;
		if (lo == ']' && !first)
			break;
		if (p[0] == '-' && p[1] != ']') {
			if (!p[1])
				return NULL;
			set_range(set, lo, p[1]);
			p += 2;
		} else {
			set[lo] = true;
		}
	}
	for (c = 0; c < NR_BYTES; c++)
		out[c] = set[c] != inverted;
	return p;
}

static int ref_compile(const char *p, struct token *t)
{
	int n = 0;

	for (; *p; n++) {
		memset(&t[n], 0, sizeof(t[n]));
		if (*p == '*') {
			t[n].star = true;
			p++;
		} else if (*p == '?') {
			set_range(t[n].set, 1, NR_BYTES - 1);
			p++;
		} else if (*p == '[' && ref_class(p + 1, t[n].set)) {
			p = ref_class(p + 1, t[n].set);
		} else if (*p == '[') {
			t[n].set['['] = true;
			p++;
		} else {
			p += *p == '\\' && p[1];
			t[n].set[(u8)*p++] = true;
		}
	}
	return n;
}

/* match[i][j]: tokens i.. match name j.., filled from the ends back. */
static bool ref_match(const char *pat, const char *name)
{
	static struct token t[MAX_LEN];
	static bool match[MAX_LEN + 1][MAX_LEN + 1];
	int nt = ref_compile(pat, t), ns = strlen(name), i, j;

	for (i = nt; i >= 0; i--) {
		for (j = ns; j >= 0; j--) {
			if (i == nt)
				match[i][j] = j == ns;
			else if (t[i].star)
				match[i][j] = match[i + 1][j] ||
					      (j < ns && match[i][j + 1]);
			else
				match[i][j] = j < ns &&
					      t[i].set[(u8)name[j]] &&
					      match[i + 1][j + 1];
		}
	}
	return match[0][0];
}

/*
 * ftrace's split of pat, or of "!pat" when negated, must match what
 * the glob matches. The copy is exact-size: ASan sees any overrun.
 */
static void check_filter(const char *pat, bool negated, const char *name,
			 bool expect)
{
	size_t len = strlen(pat) + negated;
	char *buf = malloc(len + 1);
	struct ftrace_glob g;
	int not;

	snprintf(buf, len + 1, "%s%s", negated ? "!" : "", pat);
	g.type = filter_parse_regex(buf, len, &g.search, &not);
	g.len = strlen(g.search);
	FUZZ_CHECK(not == negated);
	FUZZ_CHECK(g.search >= buf && g.search <= buf + len);
	FUZZ_CHECK(ftrace_match(name, &g) == expect);
	free(buf);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_in in = { data, size };
	char *pat = fuzz_str(&in, '\n');
	char *name = fuzz_str(&in, '\n');
	bool expect;

	if (strlen(pat) < MAX_LEN && strlen(name) < MAX_LEN) {
		fold(pat);
		fold(name);
		expect = ref_match(pat, name);
		FUZZ_CHECK(glob_match(pat, name) == expect);
		/* a leading '!' would negate, not match itself */
		if (pat[0] != '!')
			check_filter(pat, false, name, expect);
		check_filter(pat, true, name, expect);
	}
	free(pat);
	free(name);
	return 0;
}
