/*
 * fuzz.h: what the libFuzzer targets share: reading typed values off
 * the input (zeros once it runs out, so every input is a valid one),
 * and FUZZ_CHECK, which stops the run on a broken property so that
 * libFuzzer saves the input that broke it.
 */
#ifndef _FUZZ_H
#define _FUZZ_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "types.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

#define FUZZ_CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: property broken: %s\n",		\
			__FILE__, __LINE__, #cond);			\
		abort();						\
	}								\
} while (0)

struct fuzz_in {
	const u8 *p;
	size_t n;
};

static inline u8 fuzz_u8(struct fuzz_in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

/* Little-endian, so a short input still varies the low bits. */
static inline u64 fuzz_u64(struct fuzz_in *in, int bytes)
{
	u64 v = 0;
	int i;

	for (i = 0; i < bytes; i++)
		v |= (u64)fuzz_u8(in) << (8 * i);
	return v;
}

/* One of n choices (n > 0). */
static inline unsigned int fuzz_pick(struct fuzz_in *in, unsigned int n)
{
	return fuzz_u8(in) % n;
}

/*
 * The next bytes up to the separator sep (dropped) or the end, as a
 * malloc'd string of exactly that length plus its NUL, so that ASan
 * sees a read past it. A NUL byte in the input ends the string too.
 */
static inline char *fuzz_str(struct fuzz_in *in, int sep)
{
	size_t len = 0;
	char *s;

	while (len < in->n && in->p[len] != sep && in->p[len])
		len++;
	s = malloc(len + 1);
	memcpy(s, in->p, len);
	s[len] = 0;
	in->p += len + (len < in->n);
	in->n -= len + (len < in->n);
	return s;
}

#endif
