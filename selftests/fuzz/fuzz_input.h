/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What every fuzz target shares: a fatal invariant check, and a reader
 * that takes big-endian integers from the fuzzer's bytes (zeros once they
 * run out, so every input is a complete run).
 */
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "mrc_core_types.h"

#define FUZZ_ASSERT(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: invariant broken: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

struct input {
	const u8 *p;
	size_t left;
};

static inline u8 in_u8(struct input *in)
{
	u8 v = 0;

	if (in->left) {
		v = *in->p++;
		in->left--;
	}
	return v;
}

static inline u16 in_u16(struct input *in)
{
	return (u16)(in_u8(in) << 8 | in_u8(in));
}

static inline u32 in_u32(struct input *in)
{
	return (u32)in_u16(in) << 16 | in_u16(in);
}

static inline u64 in_u64(struct input *in)
{
	return (u64)in_u32(in) << 32 | in_u32(in);
}

#endif /* FUZZ_INPUT_H */
