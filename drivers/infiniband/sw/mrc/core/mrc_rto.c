// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Adaptive retransmission timeout. Protocol core; see mrc_rto.h and
 * Documentation/reliability.rst.
 */
#include "mrc_rto.h"

static u64 rto_clamp(const struct mrc_rto *r, u64 us)
{
	if (us < r->p.min_us)
		return r->p.min_us;
	if (us > r->p.max_us)
		return r->p.max_us;
	return us;
}

/* srtt + max(granularity, 4 x rttvar), unbounded; with a sample only. */
static u64 rto_estimate(const struct mrc_rto *r)
{
	u64 margin = r->rttvar4;		/* 4 x rttvar */

	if (margin < r->p.granularity_us)
		margin = r->p.granularity_us;
	return (r->srtt8 >> 3) + margin;
}

/* The base RTO of the estimate, or the initial value before a sample. */
static void rto_update_base(struct mrc_rto *r)
{
	if (!r->has_sample) {
		r->base_us = rto_clamp(r, r->p.initial_us);
		return;
	}
	r->base_us = rto_clamp(r, rto_estimate(r));
}

void mrc_rto_set_params(struct mrc_rto *r, const struct mrc_rto_params *p)
{
	r->p = *p;
	if (r->p.min_us < 1)
		r->p.min_us = 1;
	if (r->p.min_us > MRC_RTO_MAX_US)
		r->p.min_us = MRC_RTO_MAX_US;
	if (r->p.max_us > MRC_RTO_MAX_US)
		r->p.max_us = MRC_RTO_MAX_US;
	if (r->p.max_us < r->p.min_us)
		r->p.max_us = r->p.min_us;
	if (r->p.granularity_us > MRC_RTO_MAX_US)
		r->p.granularity_us = MRC_RTO_MAX_US;
	if (r->p.exp_max_us > MRC_RTO_MAX_US)
		r->p.exp_max_us = MRC_RTO_MAX_US;
	if (r->p.exp_max_us < r->p.max_us)
		r->p.exp_max_us = r->p.max_us;
	if (r->exp_us > r->p.exp_max_us)
		r->exp_us = r->p.exp_max_us;
	rto_update_base(r);
}

void mrc_rto_init(struct mrc_rto *r, const struct mrc_rto_params *p)
{
	memset(r, 0, sizeof(*r));
	mrc_rto_set_params(r, p);
}

void mrc_rto_sample(struct mrc_rto *r, u64 rtt_us)
{
	u64 srtt, err;

	if (rtt_us > MRC_RTO_MAX_US)
		rtt_us = MRC_RTO_MAX_US;
	if (!r->has_sample) {
		r->srtt8 = rtt_us << 3;
		r->rttvar4 = (rtt_us / 2) << 2;
		r->has_sample = true;
	} else {
		/* In the scaled units: rttvar4 += |err| - rttvar4 / 4. */
		srtt = r->srtt8 >> 3;
		err = srtt > rtt_us ? srtt - rtt_us : rtt_us - srtt;
		r->rttvar4 = r->rttvar4 - (r->rttvar4 >> 2) + err;
		/* srtt8 += R - srtt8 / 8. */
		r->srtt8 = r->srtt8 - (r->srtt8 >> 3) + rtt_us;
	}
	r->samples++;
	rto_update_base(r);
}

void mrc_rto_on_timeout(struct mrc_rto *r)
{
	if (r->backoff < MRC_RTO_MAX_BACKOFF)
		r->backoff++;
	/* exp_us <= 2^30: doubling it does not overflow. */
	if (r->exp_us)
		r->exp_us = r->exp_us * 2 < r->p.exp_max_us ? r->exp_us * 2 :
			    r->p.exp_max_us;
}

void mrc_rto_enter_exp(struct mrc_rto *r)
{
	if (!r->exp_us)
		r->exp_us = mrc_rto_us(r);
}

void mrc_rto_on_progress(struct mrc_rto *r)
{
	r->backoff = 0;
	r->exp_us = 0;
}

u64 mrc_rto_rtt_bound_us(const struct mrc_rto *r)
{
	u64 est;

	if (!r->has_sample)
		return r->base_us;
	est = rto_estimate(r);
	return est < r->base_us ? est : r->base_us;
}

u64 mrc_rto_us(const struct mrc_rto *r)
{
	if (r->exp_us)
		return r->exp_us;
	/* base_us <= 2^30 and backoff <= 16: no overflow. */
	return rto_clamp(r, r->base_us << r->backoff);
}
