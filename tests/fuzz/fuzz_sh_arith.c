/*
 * fuzz_sh_arith.c: the shell's $((...)) (kernel/shell/sh_arith.c)
 * against the host's sh, the reference POSIX names: each input byte
 * picks a token (small constants, octal and hex ones, a variable x=5,
 * every operator, parentheses), the tokens joined with blanks make the
 * expression, and `sh -c 'x=5; echo $((EXPR))'` must print the same
 * number, or fail where ours fails. Small constants and short
 * expressions keep clear of overflow, where C leaves shells free.
 * Starting sh costs milliseconds, so one input in SAMPLE (by a hash of
 * its bytes) asks it; the others check only that evaluation is sound
 * under the sanitizers.
 */
#include <signal.h>
#include "fuzz.h"
#include "../../lib/string.c"
#include "../../kernel/shell/sh_arith.c"

#define MAX_TOKENS	12
#define SAMPLE		256

static const char *const tokens[] = {
	"0", "1", "2", "3", "7", "9", "12", "077", "0x1f", "x",
	"+", "-", "*", "/", "%", "<<", ">>", "<", "<=", ">", ">=", "==",
	"!=", "&", "^", "|", "&&", "||", "!", "~", "(", ")", "?", ":",
};

static const char *get(void *ctx, const char *name)
{
	return strcmp(name, "x") ? NULL : "5";
}

static int set(void *ctx, const char *name, long v)
{
	return -EINVAL;		/* no token assigns */
}

/*
 * The host shell's answer: 0 and *v, or -1 when it says it failed.
 * libFuzzer's -timeout ticks SIGALRM without SA_RESTART: one that came
 * while fgets waited for sh would end the read (EINTR) and look like
 * sh's failure, so the tick waits until sh has answered.
 */
static int reference(const char *expr, long *v)
{
	char cmd[512], out[64];
	sigset_t alarm, saved;
	FILE *p;
	int status;

	snprintf(cmd, sizeof(cmd), "sh -c 'x=5; echo $((%s))' 2>/dev/null",
		 expr);
	sigemptyset(&alarm);
	sigaddset(&alarm, SIGALRM);
	sigprocmask(SIG_BLOCK, &alarm, &saved);
	p = popen(cmd, "r");
	FUZZ_CHECK(p);
	out[0] = 0;
	if (!fgets(out, sizeof(out), p))
		out[0] = 0;
	status = pclose(p);
	sigprocmask(SIG_SETMASK, &saved, NULL);
	if (status || !out[0])
		return -1;
	*v = strtol(out, NULL, 10);
	return 0;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	const struct sh_arith_vars vars = { get, set, NULL };
	char expr[MAX_TOKENS * 6] = "";
	const char *why;
	long ours, ref;
	unsigned int hash;
	size_t i;
	int err;

	if (!size || size > MAX_TOKENS)
		return 0;
	for (i = 0; i < size; i++) {
		strcat(expr, tokens[data[i] % ARRAY_SIZE(tokens)]);
		strcat(expr, " ");
	}
	err = sh_arith(expr, &vars, &ours, &why);
	for (i = 0, hash = 0; i < size; i++)
		hash = hash * 31 + data[i];
	if (hash % SAMPLE)
		return 0;
	if (reference(expr, &ref)) {
		FUZZ_CHECK(err);
		return 0;
	}
	if (err)
		fprintf(stderr, "ours failed (%s), sh says %ld: %s\n", why, ref,
			expr);
	FUZZ_CHECK(!err);
	if (ours != ref)
		fprintf(stderr, "%s= %ld here, %ld in sh\n", expr, ours, ref);
	FUZZ_CHECK(ours == ref);
	return 0;
}
