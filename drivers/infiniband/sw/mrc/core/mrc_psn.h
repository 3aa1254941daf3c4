/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Packet sequence numbers. PSNs are 24-bit, as in RoCEv2, and wrap; they are
 * compared as serial numbers (RFC 1982 style): a is "before" b when the
 * forward distance from a to b is non-zero and less than half the space.
 * Every sequence comparison in the transport goes through these helpers so
 * that wrap-around is handled in exactly one place.
 */
#ifndef MRC_PSN_H
#define MRC_PSN_H

#include "mrc_core_types.h"

#define MRC_PSN_BITS	24
#define MRC_PSN_MASK	((1u << MRC_PSN_BITS) - 1)
#define MRC_PSN_HALF	(1u << (MRC_PSN_BITS - 1))

static inline u32 mrc_psn(u32 value)
{
	return value & MRC_PSN_MASK;
}

static inline u32 mrc_psn_add(u32 psn, u32 n)
{
	return mrc_psn(psn + n);
}

/* Forward distance from @from to @to, in [0, 2^24). */
static inline u32 mrc_psn_distance(u32 from, u32 to)
{
	return mrc_psn(to - from);
}

/*
 * Signed distance in (-2^23, 2^23]: positive when @b is after @a. Exactly
 * half the space apart is ambiguous; it counts as "after" so the result is
 * a total function, and windows are always kept smaller than that.
 */
static inline s32 mrc_psn_diff(u32 a, u32 b)
{
	u32 d = mrc_psn_distance(a, b);

	return d > MRC_PSN_HALF ? (s32)d - (s32)(1u << MRC_PSN_BITS) : (s32)d;
}

static inline bool mrc_psn_before(u32 a, u32 b)
{
	return mrc_psn_diff(a, b) > 0;
}

static inline bool mrc_psn_after(u32 a, u32 b)
{
	return mrc_psn_before(b, a);
}

/* True when @psn lies in the @size PSNs that start at @base. */
static inline bool mrc_psn_in_window(u32 psn, u32 base, u32 size)
{
	return mrc_psn_distance(base, psn) < size;
}

#endif /* MRC_PSN_H */
