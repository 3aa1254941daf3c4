// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The single-path choice (spraying off); see mrc_ev_single.h.
 */
#include "mrc_ev_single.h"

/* Odd multipliers near 2^32 / phi and its square: good bit diffusion. */
#define MRC_EV_SINGLE_MUL1	0x9e3779b1u
#define MRC_EV_SINGLE_MUL2	0x85ebca77u

static u32 mrc_ev_single_mix(u32 x)
{
	x ^= x >> 16;
	x *= MRC_EV_SINGLE_MUL1;
	x ^= x >> 15;
	x *= MRC_EV_SINGLE_MUL2;
	x ^= x >> 16;
	return x;
}

u32 mrc_ev_single_key(u32 qpn, u32 dest_qpn)
{
	return mrc_ev_single_mix(mrc_ev_single_mix(qpn) ^ dest_qpn);
}

/* @key scaled to 0 .. @n - 1 by its high bits (no modulo bias). */
static u32 mrc_ev_single_scale(u32 key, u32 n)
{
	return (u32)(((u64)key * n) >> 32);
}

static bool mrc_ev_single_candidate(const struct mrc_ev_set *set, u32 ev,
				    int avoid)
{
	return (int)ev != avoid && mrc_ev_usable(set, ev);
}

int mrc_ev_pick_single(struct mrc_ev_set *set, u32 key, int avoid)
{
	u32 n = set->n_evs, others = 0, nth, ev;

	if (!n)
		return -EHOSTUNREACH;
	ev = mrc_ev_single_scale(key, n);
	if (mrc_ev_single_candidate(set, ev, avoid))
		goto found;

	/* Its EV is out: the key's choice among the usable others. */
	for (ev = 0; ev < n; ev++)
		others += mrc_ev_single_candidate(set, ev, avoid);
	if (others) {
		nth = mrc_ev_single_scale(mrc_ev_single_mix(key), others);
		for (ev = 0; ev < n; ev++)
			if (mrc_ev_single_candidate(set, ev, avoid) && !nth--)
				goto found;
	}
	/* Nothing but @avoid: better the suspect path than none. */
	if (avoid >= 0 && (u32)avoid < n && mrc_ev_usable(set, (u32)avoid)) {
		ev = (u32)avoid;
		goto found;
	}
	return -EHOSTUNREACH;
found:
	set->evs[ev].sent++;
	return (int)ev;
}
