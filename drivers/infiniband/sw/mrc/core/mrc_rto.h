/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The retransmission timeout of one requester, adapted to the round trips
 * it measures: the estimator of RFC 6298 (smoothed RTT and RTT variation),
 * bounded, with exponential backoff on consecutive timeouts.
 *
 *   first sample R:   srtt = R, rttvar = R / 2
 *   later samples R:  rttvar += (|srtt - R| - rttvar) / 4
 *                     srtt   += (R - srtt) / 8
 *   base RTO        = clamp(srtt + max(granularity, 4 x rttvar), min, max)
 *   RTO             = min(base RTO x 2^backoff, max)
 *
 * Before the first sample the base RTO is the initial value the caller
 * gives (the QP's timeout attribute; Documentation/reliability.rst says how
 * the requester maps it). Each timeout doubles the RTO (backoff + 1); an
 * acknowledgment of new data ends the backoff. Samples of retransmitted
 * packets must not be fed (Karn's rule; the SACK tracker gives none).
 *
 * A requester that has used up its ordinary retries may go on into an
 * exponential stage (mrc_rto_enter_exp()): from the RTO in force then,
 * each timeout doubles it, bounded by exp_max_us rather than max_us, so
 * that a long outage is ridden out with ever fewer retransmissions.
 *
 * Protocol core: plain C, no clock, no locking. Times are microseconds of
 * the caller's monotonic clock; the caller serialises calls on one state.
 */
#ifndef MRC_RTO_H
#define MRC_RTO_H

#include "mrc_core_types.h"

/* Backoff stops doubling after this many consecutive timeouts. */
#define MRC_RTO_MAX_BACKOFF	16u
/* Largest sample or bound taken (2^30 us, about 18 minutes): sums fit. */
#define MRC_RTO_MAX_US		1073741824ull

/**
 * struct mrc_rto_params - bounds of the estimator
 * @min_us: the base RTO never goes below this (a floor against timeouts
 *	on ordinary jitter; at least 1)
 * @max_us: nor above this, backoff included (>= @min_us)
 * @granularity_us: the timer's resolution: the least margin over srtt
 * @initial_us: the base RTO until the first sample (clamped to the bounds)
 * @exp_max_us: the bound in the exponential stage (below @max_us means
 *	@max_us)
 */
struct mrc_rto_params {
	u64 min_us;
	u64 max_us;
	u64 granularity_us;
	u64 initial_us;
	u64 exp_max_us;
};

/**
 * struct mrc_rto - the estimator's state; read it with the accessors
 * @p: the bounds it was started with (clamped into range)
 * @srtt8: smoothed RTT, in 1/8 us
 * @rttvar4: RTT variation, in 1/4 us
 * @base_us: base RTO: from the samples, or the initial value
 * @backoff: consecutive timeouts since the last progress
 * @samples: samples taken
 * @has_sample: @srtt8 and @rttvar4 hold an estimate
 * @exp_us: the RTO of the exponential stage; 0 outside it
 */
struct mrc_rto {
	struct mrc_rto_params p;
	u64 srtt8;
	u64 rttvar4;
	u64 base_us;
	u32 backoff;
	u64 samples;
	bool has_sample;
	u64 exp_us;
};

/* Starts the estimator with no sample. */
void mrc_rto_init(struct mrc_rto *r, const struct mrc_rto_params *p);

/*
 * New bounds (e.g. the QP's timeout attribute changed): the estimate and
 * the backoff stay, the RTO is bounded anew.
 */
void mrc_rto_set_params(struct mrc_rto *r, const struct mrc_rto_params *p);

/* A round-trip sample of a packet sent once (Karn), in us. */
void mrc_rto_sample(struct mrc_rto *r, u64 rtt_us);

/* A retransmission timeout fired: the next RTO is twice as long. */
void mrc_rto_on_timeout(struct mrc_rto *r);

/*
 * The exponential stage starts: the RTO in force now is doubled by each
 * later timeout, up to exp_max_us. Progress ends the stage.
 */
void mrc_rto_enter_exp(struct mrc_rto *r);

/* Whether the exponential stage is on. */
static inline bool mrc_rto_in_exp(const struct mrc_rto *r)
{
	return r->exp_us != 0;
}

/* New data was acknowledged: the backoff, and any exponential stage, end. */
void mrc_rto_on_progress(struct mrc_rto *r);

/* The RTO to arm the timer with now, backoff included, in us. */
u64 mrc_rto_us(const struct mrc_rto *r);

/* The same without the backoff: what one round trip may take. */
static inline u64 mrc_rto_base_us(const struct mrc_rto *r)
{
	return r->base_us;
}

/*
 * What one round trip takes by the estimate alone, srtt + max(granularity,
 * 4 x rttvar), without the floor (@min_us, the application's timeout,
 * which may be thousands of round trips) and never above the base RTO.
 * Before the first sample: the base RTO. For waits that must track the
 * fabric rather than the application, such as a probe's.
 */
u64 mrc_rto_rtt_bound_us(const struct mrc_rto *r);

/* Smoothed RTT and RTT variation in us; 0 before the first sample. */
static inline u64 mrc_rto_srtt_us(const struct mrc_rto *r)
{
	return r->srtt8 >> 3;
}

static inline u64 mrc_rto_rttvar_us(const struct mrc_rto *r)
{
	return r->rttvar4 >> 2;
}

#endif /* MRC_RTO_H */
