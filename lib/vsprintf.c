/*
 * vsprintf.c: the kernel's one formatter. Every console line, tracefs
 * read and trace line goes through vsnprintf. vbin_printf and
 * bstr_printf split it in two, as Linux's lib/vsprintf.c does for
 * trace_printk: the arguments are kept in binary now, the text is
 * made from them when the trace is read.
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

/*
 * Where a conversion's arguments come from: the caller's va_list
 * (ap), also kept in bin when keep is set (vbin_printf); or, with no
 * ap, read back from bin (bstr_printf). pos counts the bytes of bin
 * used, or needed past its size.
 */
struct args {
	va_list *ap;
	u8 *bin;
	size_t pos, size;
	bool keep;
};

/*
 * The next n-byte value's place in bin, or NULL past its end. Linux's
 * layout: each value aligned to its size, an 8-byte one to 4 only.
 */
static u8 *bin_slot(struct args *a, size_t n)
{
	u8 *slot;

	a->pos = ALIGN_UP(a->pos, n < 4 ? n : 4);
	slot = a->bin && a->pos + n <= a->size ? a->bin + a->pos : NULL;
	a->pos += n;
	return slot;
}

/* An integer argument of n bytes (1, 2, 4 or 8), zero-extended. */
static u64 arg_int(struct args *a, size_t n)
{
	u64 v = 0;
	u8 *slot;

	if (a->ap)
		v = n == 8 ? va_arg(*a->ap, u64) : va_arg(*a->ap, unsigned int);
	slot = !a->ap || a->keep ? bin_slot(a, n) : NULL;
	if (slot && a->ap)
		memcpy(slot, &v, n);		/* little-endian: the low bytes */
	else if (slot)
		memcpy(&v, slot, n);
	return n == 8 ? v : v & ((1ULL << (8 * n)) - 1);
}

/*
 * A %s argument. vbin_printf copies the string itself, NUL and all,
 * if it fits; read back, one that is not whole within bin is "".
 */
static const char *arg_str(struct args *a)
{
	const char *s;
	size_t len;

	if (a->ap) {
		s = va_arg(*a->ap, const char *);
		if (a->keep) {
			len = strlen(s ? s : "(null)") + 1;
			if (a->bin && a->pos + len <= a->size)
				memcpy(a->bin + a->pos, s ? s : "(null)", len);
			a->pos += len;
		}
		return s;
	}
	if (a->pos >= a->size)
		return "";
	s = (const char *)a->bin + a->pos;
	len = strnlen(s, a->size - a->pos);
	a->pos += len + 1;
	return a->pos <= a->size ? s : "";
}

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

static const char *parse_int(const char *f, int *v, struct args *a)
{
	if (*f == '*') {
		*v = (int)arg_int(a, 4);
		return f + 1;
	}
	*v = 0;
	while (*f >= '0' && *f <= '9')
		*v = *v * 10 + (*f++ - '0');
	return f;
}

static const char *parse_spec(const char *f, struct spec *sp, struct args *a)
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
	f = parse_int(f, &sp->width, a);
	if (sp->width < 0) {
		sp->flags |= F_LEFT;
		sp->width = -sp->width;
	}
	sp->prec = -1;
	if (*f == '.') {
		f = parse_int(f + 1, &sp->prec, a);
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

/* The bytes of an argument of length modifier lmod. */
static size_t arg_bytes(int lmod)
{
	return lmod >= 1 ? 8 : lmod == -1 ? 2 : lmod == -2 ? 1 : 4;
}

static s64 get_signed(int lmod, struct args *a)
{
	u64 v = arg_int(a, arg_bytes(lmod));

	if (lmod >= 1)
		return (s64)v;
	if (lmod == -1)
		return (s16)v;
	if (lmod == -2)
		return (s8)v;
	return (s32)v;
}

static u64 get_unsigned(int lmod, struct args *a)
{
	return arg_int(a, arg_bytes(lmod));
}

/* Put one conversion, f just past its '%'; returns what follows it. */
static const char *convert(struct out *o, const char *f, struct args *a)
{
	struct spec sp;
	void *p;
	int lmod;
	char c;

	f = parse_spec(f, &sp, a);
	f = parse_length(f, &lmod);
	switch (*f) {
	case 'd':
	case 'i':
		put_signed(o, get_signed(lmod, a), &sp);
		break;
	case 'u':
		put_unsigned(o, get_unsigned(lmod, a), &sp);
		break;
	case 'o':
		sp.base = 8;
		put_unsigned(o, get_unsigned(lmod, a), &sp);
		break;
	case 'X':
		sp.upper = true;
		/* fall through */
	case 'x':
		sp.base = 16;
		put_unsigned(o, get_unsigned(lmod, a), &sp);
		break;
	case 'c':
		c = (char)arg_int(a, 1);
		put_field(o, &c, 1, &sp);
		break;
	case 's': {
		const char *s = arg_str(a);

		put_str(o, s ? s : "(null)", &sp);
		break;
	}
	case 'p':
		p = (void *)(unsigned long)arg_int(a, 8);
		if (a->keep)		/* kept: no symbol to look up now */
			return f[1] == 'S' || f[1] == 's' ? f + 2 : f + 1;
		return put_pointer(o, f + 1, &sp, p);
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

/* The text of fmt into buf (size bytes, NUL-terminated): its length. */
static int format(char *buf, size_t size, const char *fmt, struct args *a)
{
	struct out o = { buf, size, 0 };

	while (*fmt) {
		if (*fmt == '%')
			fmt = convert(&o, fmt + 1, a);
		else
			put(&o, *fmt++);
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = 0;
	return (int)o.len;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	va_list args;
	struct args a = { .ap = &args };
	int len;

	va_copy(args, ap);
	len = format(buf, size, fmt, &a);
	va_end(args);
	return len;
}

/*
 * Keep fmt's arguments in bin_buf (size words), strings copied in:
 * returns the words they take, which may be more than size; what does
 * not fit is left out.
 */
int vbin_printf(u32 *bin_buf, size_t size, const char *fmt, va_list ap)
{
	va_list args;
	struct args a = { &args, (u8 *)bin_buf, 0, size * 4, true };

	va_copy(args, ap);
	format(NULL, 0, fmt, &a);
	va_end(args);
	return (int)(ALIGN_UP(a.pos, 4) / 4);
}

/*
 * The text of fmt with the arguments vbin_printf kept in bin_buf, of
 * bin_size words (Linux's bstr_printf trusts the buffer; the ring
 * buffer's event says how long it is, so here it is bounded).
 */
int bstr_printf(char *buf, size_t size, const char *fmt, const u32 *bin_buf,
		size_t bin_size)
{
	struct args a = { NULL, (u8 *)bin_buf, 0, bin_size * 4, false };

	return format(buf, size, fmt, &a);
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
