/*
 * fuzz_vsprintf.c: lib/vsprintf.c against the host's vsnprintf. The
 * input never is a format: it picks one conversion from a fixed
 * grammar (flags, width, precision, length, conversion), only in the
 * combinations C defines, then the value, string or '*' arguments,
 * the text around it and the buffer size. Both formatters must return
 * the same length and store the same bytes, and the kernel's must stay
 * inside a buffer of exactly that size and inside a %.Ns string's N.
 * trace_printk's two halves, vbin_printf then bstr_printf, must make
 * the same text too, where the string argument is a C string (Linux's
 * vbin_printf copies it whole, as this one does).
 */
#include <stdarg.h>
#include "fuzz.h"

/* The kernel's formatter has libc's names: give it others here. */
#define vsnprintf rv_vsnprintf
#define snprintf rv_snprintf
#define scnprintf rv_scnprintf
#include "../../lib/vsprintf.c"
#undef vsnprintf
#undef snprintf
#undef scnprintf

#define FMT_MAX		64
#define BUF_MAX		600
#define STR_MAX		40

const char *__asan_default_options(void);

/*
 * The host's vsnprintf is the reference, not under test, and ASan's
 * check of its arguments wants a NUL after a %.Ns string's N bytes,
 * which C does not.
 */
const char *__asan_default_options(void)
{
	return "check_printf=0";
}

/* %p is the one thing here that prints no symbol. */
size_t sprint_symbol(char *buf, size_t size, unsigned long addr,
		     bool with_offset)
{
	return 0;
}

enum arg_kind { ARG_INT, ARG_LONG, ARG_LLONG, ARG_STR, ARG_NONE };

struct conv {
	char fmt[FMT_MAX];
	enum arg_kind kind;
	bool star_width, star_prec;
	int prec;		/* one written in digits, else -1 */
};

static void append(char *fmt, const char *s)
{
	strncat(fmt, s, FMT_MAX - strlen(fmt) - 1);
}

/* Each flag C allows with this conversion, when the input asks. */
static void pick_flags(struct fuzz_in *in, struct conv *c, char conv)
{
	u8 bits = fuzz_u8(in);
	bool numeric = strchr("diouxX", conv);

	if (bits & 1)
		append(c->fmt, "-");
	if ((bits & 2) && numeric)
		append(c->fmt, "0");
	if ((bits & 4) && numeric)
		append(c->fmt, "+");
	if ((bits & 8) && numeric)
		append(c->fmt, " ");
	if ((bits & 16) && strchr("oxX", conv))
		append(c->fmt, "#");
}

/*
 * None, digits or '*', for the width and then the precision. Returns
 * the value written in digits, or -1.
 */
static int pick_field(struct fuzz_in *in, struct conv *c, bool prec,
		      bool *star)
{
	char digits[16];
	u8 how = fuzz_u8(in);

	*star = false;
	if (how % 4 == 0)
		return -1;
	if (prec)
		append(c->fmt, ".");
	if (how % 4 == 1) {
		*star = true;
		append(c->fmt, "*");
		return -1;
	}
	if (how % 4 == 3)	/* a lone '.' is precision 0 */
		return 0;
	rv_snprintf(digits, sizeof(digits), "%u", how >> 2);
	append(c->fmt, digits);
	return how >> 2;
}

/* Length modifiers: any for integers, none for %c and %s. */
static enum arg_kind pick_length(struct fuzz_in *in, struct conv *c)
{
	static const struct {
		const char *mod;
		enum arg_kind kind;
	} lengths[] = {
		{ "", ARG_INT }, { "hh", ARG_INT }, { "h", ARG_INT },
		{ "l", ARG_LONG }, { "ll", ARG_LLONG }, { "z", ARG_LONG },
		{ "t", ARG_LONG }, { "j", ARG_LONG },
	};
	unsigned int i = fuzz_pick(in, ARRAY_SIZE(lengths));

	append(c->fmt, lengths[i].mod);
	return lengths[i].kind;
}

static void pick_conv(struct fuzz_in *in, struct conv *c)
{
	static const char convs[] = "diouxXcs%";
	char conv = convs[fuzz_pick(in, sizeof(convs) - 1)];

	c->fmt[0] = 0;
	c->star_width = c->star_prec = false;
	c->prec = -1;
	append(c->fmt, "%");
	if (conv == '%') {	/* C defines only the bare %% */
		append(c->fmt, "%");
		c->kind = ARG_NONE;
		return;
	}
	pick_flags(in, c, conv);
	pick_field(in, c, false, &c->star_width);
	if (conv != 'c')
		c->prec = pick_field(in, c, true, &c->star_prec);
	c->kind = conv == 's' ? ARG_STR :
		  conv == 'c' ? ARG_INT : pick_length(in, c);
	append(c->fmt, (char[]){ conv, 0 });
}

/* Text around the conversion: printable, any '%' doubled. */
static void wrap_text(struct fuzz_in *in, char *fmt)
{
	char conv[FMT_MAX];
	int i, n = fuzz_pick(in, 4);
	char c;

	strcpy(conv, fmt);
	fmt[0] = 0;
	for (i = 0; i < n; i++) {
		c = ' ' + fuzz_pick(in, 95);
		append(fmt, c == '%' ? "%%" : (char[]){ c, 0 });
	}
	append(fmt, conv);
	if (fuzz_u8(in) & 1)
		append(fmt, " |");
}

/* Is the %s argument, if any, a C string (pick_string)? */
static bool c_string_arg;

/* The text of fmt through vbin_printf and bstr_printf: its length. */
static int through_binary(char *buf, size_t size, const char *fmt,
			  va_list ap)
{
	static u32 bin[BUF_MAX];
	int words = vbin_printf(bin, BUF_MAX, fmt, ap);

	FUZZ_CHECK(words <= BUF_MAX);
	return bstr_printf(buf, size, fmt, bin, words);
}

/*
 * Both formatters on one argument list: same length, same bytes; and
 * through binary, for a C string, the same again.
 */
static void __printf(2, 3) compare(size_t size, const char *fmt, ...)
{
	static char host[BUF_MAX];
	char *ours = size ? malloc(size) : NULL;
	char *back = size && c_string_arg ? malloc(size) : NULL;
	va_list ap, ap2, ap3;
	int n_ours, n_host, n_back = 0;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	va_copy(ap3, ap);
	n_ours = rv_vsnprintf(ours, size, fmt, ap);
	n_host = vsnprintf(size ? host : NULL, size, fmt, ap2);
	if (c_string_arg)
		n_back = through_binary(back, size, fmt, ap3);
	va_end(ap3);
	va_end(ap2);
	va_end(ap);
	if (n_ours != n_host || (size && strcmp(ours, host)))
		fprintf(stderr, "\"%s\" size %zu: \"%s\" (%d), "
			"host \"%s\" (%d)\n", fmt, size, size ? ours : "",
			n_ours, size ? host : "", n_host);
	FUZZ_CHECK(n_ours == n_host);
	FUZZ_CHECK(!size || !memcmp(ours, host, min((size_t)n_host + 1, size)));
	if (c_string_arg) {
		FUZZ_CHECK(n_back == n_host);
		FUZZ_CHECK(!size ||
			   !memcmp(back, host, min((size_t)n_host + 1, size)));
	}
	free(back);
	free(ours);
}

/*
 * A %s argument. Shorter than its precision, it is a C string; longer,
 * it is just the precision's bytes, with no NUL: C allows that.
 */
static char *pick_string(struct fuzz_in *in, int prec)
{
	size_t i, len = fuzz_pick(in, STR_MAX);
	bool bounded = prec >= 0 && (size_t)prec < len;
	char *s = malloc(bounded ? (size_t)prec : len + 1);

	for (i = 0; i < (bounded ? (size_t)prec : len); i++)
		s[i] = fuzz_u8(in) ?: 'x';
	if (!bounded)
		s[len] = 0;
	c_string_arg = !bounded;
	return s;
}

/* The arguments in order: [width] [precision] value. */
#define CALL(size, fmt, ...) do {					\
	if (c.star_width && c.star_prec)				\
		compare(size, fmt, w, p, ##__VA_ARGS__);		\
	else if (c.star_width)						\
		compare(size, fmt, w, ##__VA_ARGS__);			\
	else if (c.star_prec)						\
		compare(size, fmt, p, ##__VA_ARGS__);			\
	else								\
		compare(size, fmt, ##__VA_ARGS__);			\
} while (0)

/* A '*' width or precision: small mostly, negative at times. */
static int pick_star(struct fuzz_in *in)
{
	s16 v = fuzz_u64(in, 2);

	return v % 512;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct conv c;
	size_t buf_size;
	int w, p;
	u64 v;
	char *s;

	c_string_arg = true;
	pick_conv(&in, &c);
	wrap_text(&in, c.fmt);
	buf_size = fuzz_pick(&in, 0xff) * (fuzz_u8(&in) & 1 ? 1 : 2) + 1;
	buf_size = fuzz_u8(&in) == 0xff ? 0 : min(buf_size, (size_t)BUF_MAX);
	w = pick_star(&in);
	p = pick_star(&in);
	v = fuzz_u64(&in, 8);
	switch (c.kind) {
	case ARG_INT:
		CALL(buf_size, c.fmt, (int)v);
		break;
	case ARG_LONG:
		CALL(buf_size, c.fmt, (long)v);
		break;
	case ARG_LLONG:
		CALL(buf_size, c.fmt, (long long)v);
		break;
	case ARG_STR:
		s = pick_string(&in, c.star_prec ? p : c.prec);
		CALL(buf_size, c.fmt, s);
		free(s);
		break;
	case ARG_NONE:		/* C ignores arguments the format skips */
		CALL(buf_size, c.fmt, 0);
	}
	return 0;
}
