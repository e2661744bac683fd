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

static void put_str(struct out *o, const char *s, const struct spec *sp)
{
	int len = (int)strnlen(s, sp->prec >= 0 ? (size_t)sp->prec : (size_t)-1);
	int i;

	if (!(sp->flags & F_LEFT))
		pad(o, ' ', sp->width - len);
	for (i = 0; i < len; i++)
		put(o, s[i]);
	if (sp->flags & F_LEFT)
		pad(o, ' ', sp->width - len);
}

static void put_num(struct out *o, u64 v, bool neg, const struct spec *sp)
{
	const char *digits = sp->upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, prec = sp->prec, width = sp->width;
	char sign = neg ? '-' : (sp->flags & F_PLUS) ? '+' :
		    (sp->flags & F_SPACE) ? ' ' : 0;

	do {
		tmp[n++] = digits[v % sp->base];
		v /= sp->base;
	} while (v);
	if (prec == 0 && n == 1 && tmp[0] == '0')
		n = 0;
	if (prec < n)
		prec = n;
	width -= prec + (sign ? 1 : 0);
	if ((sp->flags & F_ALT) && sp->base == 16)
		width -= 2;
	if (!(sp->flags & (F_LEFT | F_ZERO)) || sp->prec >= 0)
		if (!(sp->flags & F_LEFT))
			pad(o, ' ', width), width = 0;
	if (sign)
		put(o, sign);
	if ((sp->flags & F_ALT) && sp->base == 16) {
		put(o, '0');
		put(o, sp->upper ? 'X' : 'x');
	}
	if (!(sp->flags & F_LEFT))
		pad(o, '0', width), width = 0;
	pad(o, '0', prec - n);
	while (n)
		put(o, tmp[--n]);
	pad(o, ' ', width);
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
	return f;
}

/* Read an integer argument of the size the length modifier says. */
static u64 get_arg(int lmod, bool is_signed, va_list *ap, bool *neg)
{
	s64 s;
	u64 u;

	*neg = false;
	if (!is_signed) {
		u = lmod >= 2 ? va_arg(*ap, unsigned long long) :
		    lmod == 1 ? va_arg(*ap, unsigned long) :
		    va_arg(*ap, unsigned int);
		if (lmod == -1)
			u = (u16)u;
		else if (lmod == -2)
			u = (u8)u;
		return u;
	}
	s = lmod >= 2 ? va_arg(*ap, long long) :
	    lmod == 1 ? va_arg(*ap, long) : va_arg(*ap, int);
	if (lmod == -1)
		s = (s16)s;
	else if (lmod == -2)
		s = (s8)s;
	if (s < 0) {
		*neg = true;
		return -(u64)s;
	}
	return s;
}

static const char *parse_length(const char *f, int *lmod)
{
	*lmod = 0;
	if (*f == 'l') {
		*lmod = 1;
		if (*++f == 'l')
			*lmod = 2, f++;
	} else if (*f == 'z') {
		*lmod = 1, f++;
	} else if (*f == 'h') {
		*lmod = -1;
		if (*++f == 'h')
			*lmod = -2, f++;
	}
	return f;
}

static const char *put_pointer(struct out *o, const char *f,
			       struct spec *sp, void *p)
{
	char sym[128];

	if ((*f == 'S' || *f == 's') &&
	    sprint_symbol(sym, sizeof(sym), (unsigned long)p, *f == 'S')) {
		put_str(o, sym, sp);
		return f + 1;
	}
	if (*f == 'S' || *f == 's')
		f++;
	sp->base = 16;
	sp->upper = false;
	sp->flags |= F_ALT;
	put_num(o, (unsigned long)p, false, sp);
	return f;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };
	struct spec sp;
	va_list args;
	int lmod;
	bool neg;
	u64 v;

	va_copy(args, ap);
	while (*fmt) {
		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}
		fmt = parse_spec(fmt + 1, &sp, &args);
		fmt = parse_length(fmt, &lmod);
		sp.base = 10;
		sp.upper = false;
		switch (*fmt) {
		case 'd':
		case 'i':
			v = get_arg(lmod, true, &args, &neg);
			put_num(&o, v, neg, &sp);
			break;
		case 'X':
			sp.upper = true;
			/* fall through */
		case 'x':
		case 'u':
		case 'o':
			sp.base = *fmt == 'u' ? 10 : *fmt == 'o' ? 8 : 16;
			v = get_arg(lmod, false, &args, &neg);
			put_num(&o, v, false, &sp);
			break;
		case 'c': {
			char c[2] = { (char)va_arg(args, int), 0 };

			sp.prec = 1;
			put_str(&o, c, &sp);
			break;
		}
		case 's': {
			const char *s = va_arg(args, const char *);

			put_str(&o, s ? s : "(null)", &sp);
			break;
		}
		case 'p':
			fmt = put_pointer(&o, fmt + 1, &sp, va_arg(args, void *));
			continue;
		case '%':
			put(&o, '%');
			break;
		case 0:
			fmt--;
			break;
		default:
			put(&o, '%');
			put(&o, *fmt);
		}
		fmt++;
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
