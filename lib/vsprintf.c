/*
 * vsprintf.c: the kernel's one formatter. Every console line, tracefs
 * read and trace line goes through vsnprintf.
 */
#include "kernel.h"
#include "string.h"
#include "printf.h"

struct out {
	char *buf;
	size_t size;
	size_t len;
};

#define F_LEFT	1
#define F_ZERO	2
#define F_PLUS	4
#define F_SPACE	8
#define F_ALT	16

struct spec {
	int flags;
	int width;
	int prec;
	int base;
	bool upper;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

/* Put len characters of s, padded with spaces to the field width. */
static void put_field(struct out *o, const char *s, int len,
		      const struct spec *sp)
{
	int i;

	if (!(sp->flags & F_LEFT))
		pad(o, ' ', sp->width - len);
	for (i = 0; i < len; i++)
		put(o, s[i]);
	if (sp->flags & F_LEFT)
		pad(o, ' ', sp->width - len);
}

static void put_str(struct out *o, const char *s, const struct spec *sp)
{
	size_t max = sp->prec >= 0 ? (size_t)sp->prec : (size_t)-1;

	put_field(o, s, (int)strnlen(s, max), sp);
}

/*
 * Put v after prefix (a sign or "0x"), with zeros up to the precision,
 * padded to the width with zeros after the prefix for the '0' flag, or
 * with spaces on the left or right. C ignores '0' when there is a
 * precision or a '-'.
 */
static void put_num(struct out *o, u64 v, const char *prefix,
		    const struct spec *sp)
{
	const char *digits = sp->upper ? "0123456789ABCDEF" :
					 "0123456789abcdef";
	bool zero_pad = (sp->flags & (F_ZERO | F_LEFT)) == F_ZERO &&
			sp->prec < 0;
	int n = 0, prec = sp->prec < 0 ? 1 : sp->prec, width = sp->width;
	char tmp[24];

	for (; v; v /= sp->base)
		tmp[n++] = digits[v % sp->base];
	/* '#' with octal: the first digit must be a 0 */
	if ((sp->flags & F_ALT) && sp->base == 8 && prec <= n)
		prec = n + 1;
	if (prec < n)
		prec = n;
	width -= prec + (int)strlen(prefix);
	if (!(sp->flags & F_LEFT) && !zero_pad)
		pad(o, ' ', width);
	while (*prefix)
		put(o, *prefix++);
	if (zero_pad)
		pad(o, '0', width);
	pad(o, '0', prec - n);
	while (n)
		put(o, tmp[--n]);
	if (sp->flags & F_LEFT)
		pad(o, ' ', width);
}

static void put_signed(struct out *o, s64 v, const struct spec *sp)
{
	const char *sign = v < 0 ? "-" : (sp->flags & F_PLUS) ? "+" :
			   (sp->flags & F_SPACE) ? " " : "";

	put_num(o, v < 0 ? -(u64)v : (u64)v, sign, sp);
}

/* '#' puts "0x" before a hex number other than 0 (octal's is a digit). */
static void put_unsigned(struct out *o, u64 v, const struct spec *sp)
{
	bool hex_prefix = (sp->flags & F_ALT) && sp->base == 16 && v;

	put_num(o, v, !hex_prefix ? "" : sp->upper ? "0X" : "0x", sp);
}

/*
 * %p is the address in hex, 0x0 for NULL; %pS is name+0xoff/0xsize
 * and %ps just the name, or also hex where kallsyms knows no symbol.
 */
static const char *put_pointer(struct out *o, const char *f,
			       struct spec *sp, void *p)
{
	bool symbol = *f == 'S' || *f == 's';
	char sym[128];

	sp->base = 16;
	if (symbol && sprint_symbol(sym, sizeof(sym), (unsigned long)p,
				    *f == 'S'))
		put_str(o, sym, sp);
	else
		put_num(o, (unsigned long)p, "0x", sp);
	return symbol ? f + 1 : f;
}

static const char *parse_int(const char *f, int *v, va_list *ap)
{
	if (*f == '*') {
		*v = va_arg(*ap, int);
		return f + 1;
	}
	*v = 0;
	while (*f >= '0' && *f <= '9')
		*v = *v * 10 + (*f++ - '0');
	return f;
}

static const char *parse_spec(const char *f, struct spec *sp, va_list *ap)
{
	for (sp->flags = 0;; f++) {
		if (*f == '-')
			sp->flags |= F_LEFT;
		else if (*f == '0')
			sp->flags |= F_ZERO;
		else if (*f == '+')
			sp->flags |= F_PLUS;
		else if (*f == ' ')
			sp->flags |= F_SPACE;
		else if (*f == '#')
			sp->flags |= F_ALT;
		else
			break;
	}
	f = parse_int(f, &sp->width, ap);
	if (sp->width < 0) {
		sp->flags |= F_LEFT;
		sp->width = -sp->width;
	}
	sp->prec = -1;
	if (*f == '.') {
		f = parse_int(f + 1, &sp->prec, ap);
		if (sp->prec < 0)
			sp->prec = -1;
	}
	sp->base = 10;
	sp->upper = false;
	return f;
}

/*
 * The length modifier, as a size: -2 hh, -1 h, 0 none, 1 l, 2 ll.
 * z, t and j are long (rv64 and the test hosts are LP64).
 */
static const char *parse_length(const char *f, int *lmod)
{
	*lmod = 0;
	if (*f == 'l') {
		*lmod = 1;
		if (*++f == 'l')
			*lmod = 2, f++;
	} else if (*f == 'z' || *f == 't' || *f == 'j') {
		*lmod = 1, f++;
	} else if (*f == 'h') {
		*lmod = -1;
		if (*++f == 'h')
			*lmod = -2, f++;
	}
	return f;
}

static s64 get_signed(int lmod, va_list *ap)
{
	if (lmod >= 2)
		return va_arg(*ap, long long);
	if (lmod == 1)
		return va_arg(*ap, long);
	if (lmod == -1)
		return (s16)va_arg(*ap, int);
	if (lmod == -2)
		return (s8)va_arg(*ap, int);
	return va_arg(*ap, int);
}

static u64 get_unsigned(int lmod, va_list *ap)
{
	if (lmod >= 2)
		return va_arg(*ap, unsigned long long);
	if (lmod == 1)
		return va_arg(*ap, unsigned long);
	if (lmod == -1)
		return (u16)va_arg(*ap, unsigned int);
	if (lmod == -2)
		return (u8)va_arg(*ap, unsigned int);
	return va_arg(*ap, unsigned int);
}

/* Put one conversion, f just past its '%'; returns what follows it. */
static const char *convert(struct out *o, const char *f, va_list *ap)
{
	struct spec sp;
	int lmod;
	char c;

	f = parse_spec(f, &sp, ap);
	f = parse_length(f, &lmod);
	switch (*f) {
	case 'd':
	case 'i':
		put_signed(o, get_signed(lmod, ap), &sp);
		break;
	case 'u':
		put_unsigned(o, get_unsigned(lmod, ap), &sp);
		break;
	case 'o':
		sp.base = 8;
		put_unsigned(o, get_unsigned(lmod, ap), &sp);
		break;
	case 'X':
		sp.upper = true;
		/* fall through */
	case 'x':
		sp.base = 16;
		put_unsigned(o, get_unsigned(lmod, ap), &sp);
		break;
	case 'c':
		c = (char)va_arg(*ap, int);
		put_field(o, &c, 1, &sp);
		break;
	case 's': {
		const char *s = va_arg(*ap, const char *);

		put_str(o, s ? s : "(null)", &sp);
		break;
	}
	case 'p':
		return put_pointer(o, f + 1, &sp, va_arg(*ap, void *));
	case '%':
		put(o, '%');
		break;
	case 0:			/* a '%' ending the format */
		return f;
	default:
		put(o, '%');
		put(o, *f);
	}
	return f + 1;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };
	va_list args;

	va_copy(args, ap);
	while (*fmt) {
		if (*fmt == '%')
			fmt = convert(&o, fmt + 1, &args);
		else
			put(&o, *fmt++);
	}
	va_end(args);
	if (size)
		buf[o.len < size ? o.len : size - 1] = 0;
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* Like snprintf, but returns what was really stored (never past size). */
int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!size)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n < (int)size ? n : (int)size - 1;
}
