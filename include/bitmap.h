/*
 * bitmap.h: the text form of a CPU mask (lib/bitmap.c), for
 * tracing_cpumask.
 */
#ifndef _BITMAP_H
#define _BITMAP_H

/*
 * Parse buf, a hex mask as Linux's bitmap_parse takes it, into *maskp:
 * 0, -EINVAL for a character that is no hex digit or separator,
 * -EOVERFLOW for a chunk over 8 digits, more chunks than nbits needs,
 * or a bit at nbits or above (nbits at most BITS_PER_LONG). *maskp is
 * untouched on an error.
 */
int bitmap_parse(const char *buf, unsigned int nbits, unsigned long *maskp);

#endif
