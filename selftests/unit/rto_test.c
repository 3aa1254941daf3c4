// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests of the adaptive retransmission timeout (mrc_rto.c): the
 * initial value, the RFC 6298 estimator on its first and later samples,
 * the bounds, the granularity margin, exponential backoff and its end,
 * the exponential retry stage,
 * and a noisy RTT that must leave the RTO above nearly every sample.
 */
#include "ktap.h"
#include "mrc_rto.h"

static struct mrc_rto_params params(u64 min, u64 max, u64 gran, u64 init)
{
	struct mrc_rto_params p = {
		.min_us = min, .max_us = max, .granularity_us = gran,
		.initial_us = init,
	};

	return p;
}

static void initial_value_before_samples(void)
{
	struct mrc_rto_params p = params(1000, 1000000, 4000, 67108);
	struct mrc_rto r;

	mrc_rto_init(&r, &p);
	CHECK_EQ(mrc_rto_us(&r), 67108);
	CHECK_EQ(mrc_rto_srtt_us(&r), 0);
	CHECK(!r.has_sample);
	/* An initial value outside the bounds is clamped into them. */
	p.initial_us = 10;
	mrc_rto_init(&r, &p);
	CHECK_EQ(mrc_rto_us(&r), 1000);
	p.initial_us = 5000000;
	mrc_rto_init(&r, &p);
	CHECK_EQ(mrc_rto_us(&r), 1000000);
}

static void first_sample_rfc6298(void)
{
	struct mrc_rto_params p = params(1, 1000000, 1, 67108);
	struct mrc_rto r;

	mrc_rto_init(&r, &p);
	mrc_rto_sample(&r, 10000);
	/* srtt = R, rttvar = R/2, RTO = R + 4 R/2 = 3R. */
	CHECK_EQ(mrc_rto_srtt_us(&r), 10000);
	CHECK_EQ(mrc_rto_rttvar_us(&r), 5000);
	CHECK_EQ(mrc_rto_us(&r), 30000);
}

static void later_samples_rfc6298(void)
{
	struct mrc_rto_params p = params(1, 1000000, 1, 67108);
	struct mrc_rto r;

	mrc_rto_init(&r, &p);
	mrc_rto_sample(&r, 8000);	/* srtt 8000, rttvar 4000 */
	mrc_rto_sample(&r, 16000);
	/* rttvar = 3/4 4000 + 1/4 |8000 - 16000| = 5000 */
	CHECK_EQ(mrc_rto_rttvar_us(&r), 5000);
	/* srtt = 7/8 8000 + 1/8 16000 = 9000 */
	CHECK_EQ(mrc_rto_srtt_us(&r), 9000);
	CHECK_EQ(mrc_rto_us(&r), 9000 + 4 * 5000);
}

static void steady_rtt_converges(void)
{
	struct mrc_rto_params p = params(1, 1000000, 1, 67108);
	struct mrc_rto r;
	int i;

	mrc_rto_init(&r, &p);
	for (i = 0; i < 200; i++)
		mrc_rto_sample(&r, 2000);
	CHECK_EQ(mrc_rto_srtt_us(&r), 2000);
	CHECK(mrc_rto_rttvar_us(&r) <= 1);
	/* The variation decays to nothing: RTO is srtt plus at most a hair. */
	CHECK(mrc_rto_us(&r) >= 2000 && mrc_rto_us(&r) <= 2004);
	CHECK_EQ(r.samples, 200);
}

static void granularity_is_least_margin(void)
{
	struct mrc_rto_params p = params(1, 1000000, 4000, 67108);
	struct mrc_rto r;
	int i;

	mrc_rto_init(&r, &p);
	for (i = 0; i < 200; i++)
		mrc_rto_sample(&r, 2000);
	CHECK_EQ(mrc_rto_us(&r), 2000 + 4000);
}

static void bounds_hold(void)
{
	struct mrc_rto_params p = params(1000, 50000, 1, 67108);
	struct mrc_rto r;
	int i;

	mrc_rto_init(&r, &p);
	CHECK_EQ(mrc_rto_us(&r), 50000);	/* initial above max */
	for (i = 0; i < 100; i++)
		mrc_rto_sample(&r, 10);
	CHECK_EQ(mrc_rto_us(&r), 1000);
	for (i = 0; i < 100; i++)
		mrc_rto_sample(&r, 400000);
	CHECK_EQ(mrc_rto_us(&r), 50000);
	/* A sample beyond any sense saturates instead of overflowing. */
	mrc_rto_sample(&r, ~0ull);
	CHECK_EQ(mrc_rto_us(&r), 50000);
	CHECK(mrc_rto_srtt_us(&r) <= MRC_RTO_MAX_US);
	/* Inverted bounds: max is raised to min. */
	p = params(5000, 10, 1, 0);
	mrc_rto_init(&r, &p);
	CHECK_EQ(mrc_rto_us(&r), 5000);
	/* A zero minimum is taken as 1 us. */
	p = params(0, 100, 0, 0);
	mrc_rto_init(&r, &p);
	CHECK_EQ(mrc_rto_us(&r), 1);
}

static void backoff_doubles_and_caps(void)
{
	struct mrc_rto_params p = params(1000, 100000, 1, 5000);
	struct mrc_rto r;
	int i;

	mrc_rto_init(&r, &p);
	CHECK_EQ(mrc_rto_us(&r), 5000);
	mrc_rto_on_timeout(&r);
	CHECK_EQ(mrc_rto_us(&r), 10000);
	mrc_rto_on_timeout(&r);
	CHECK_EQ(mrc_rto_us(&r), 20000);
	for (i = 0; i < 100; i++)
		mrc_rto_on_timeout(&r);
	CHECK_EQ(mrc_rto_us(&r), 100000);
	CHECK_EQ(r.backoff, MRC_RTO_MAX_BACKOFF);
	/* A sample alone keeps the backoff (the path may still be dead)... */
	mrc_rto_sample(&r, 1000);
	CHECK_EQ(mrc_rto_us(&r), 100000);
	/* ... progress ends it. */
	mrc_rto_on_progress(&r);
	CHECK_EQ(mrc_rto_us(&r), 3000);
}

/*
 * The exponential stage doubles the RTO in force when it starts, past
 * max_us up to exp_max_us, and progress ends it; an exp_max_us below
 * max_us means max_us.
 */
static void exp_stage_doubles_to_its_bound(void)
{
	struct mrc_rto_params p = params(1000, 4000, 1, 1000);
	struct mrc_rto r;
	int i;

	p.exp_max_us = 64000;
	mrc_rto_init(&r, &p);
	mrc_rto_on_timeout(&r);
	mrc_rto_on_timeout(&r);
	mrc_rto_on_timeout(&r);
	CHECK_EQ(mrc_rto_us(&r), 4000);
	CHECK(!mrc_rto_in_exp(&r));
	mrc_rto_enter_exp(&r);
	CHECK(mrc_rto_in_exp(&r));
	CHECK_EQ(mrc_rto_us(&r), 4000);
	mrc_rto_on_timeout(&r);
	CHECK_EQ(mrc_rto_us(&r), 8000);
	/* Entering again changes nothing. */
	mrc_rto_enter_exp(&r);
	CHECK_EQ(mrc_rto_us(&r), 8000);
	mrc_rto_on_timeout(&r);
	CHECK_EQ(mrc_rto_us(&r), 16000);
	for (i = 0; i < 100; i++)
		mrc_rto_on_timeout(&r);
	CHECK_EQ(mrc_rto_us(&r), 64000);
	mrc_rto_on_progress(&r);
	CHECK(!mrc_rto_in_exp(&r));
	CHECK_EQ(mrc_rto_us(&r), 1000);

	p.exp_max_us = 10;
	mrc_rto_init(&r, &p);
	CHECK_EQ(r.p.exp_max_us, 4000);
	mrc_rto_enter_exp(&r);
	mrc_rto_on_timeout(&r);
	mrc_rto_on_timeout(&r);
	CHECK_EQ(mrc_rto_us(&r), 4000);
	/* A bound lowered under the stage's RTO takes it down at once. */
	p.exp_max_us = 1ull << 40;
	mrc_rto_set_params(&r, &p);
	CHECK_EQ(r.p.exp_max_us, MRC_RTO_MAX_US);
	p.max_us = 2000;
	p.exp_max_us = 3000;
	mrc_rto_set_params(&r, &p);
	CHECK_EQ(mrc_rto_us(&r), 3000);
}

/* New bounds keep the estimate and the backoff, and bound them anew. */
static void new_bounds_keep_estimate(void)
{
	struct mrc_rto_params p = params(1000, 1000000, 1, 67108);
	struct mrc_rto r;

	mrc_rto_init(&r, &p);
	mrc_rto_sample(&r, 20000);		/* RTO 60000 */
	mrc_rto_on_timeout(&r);
	CHECK_EQ(mrc_rto_us(&r), 120000);
	p.max_us = 50000;
	mrc_rto_set_params(&r, &p);
	CHECK_EQ(mrc_rto_srtt_us(&r), 20000);
	CHECK_EQ(r.backoff, 1);
	CHECK_EQ(mrc_rto_us(&r), 50000);
	p.max_us = 1000000;
	mrc_rto_set_params(&r, &p);
	CHECK_EQ(mrc_rto_us(&r), 120000);
	/* Without a sample, the new initial value applies. */
	mrc_rto_init(&r, &p);
	p.initial_us = 4000;
	mrc_rto_set_params(&r, &p);
	CHECK_EQ(mrc_rto_us(&r), 4000);
}

/* A tiny deterministic generator, so the test is reproducible. */
static u32 lcg(u32 *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/*
 * A fabric's microsecond round trips with a microsecond timer (the
 * requester's hrtimer): the RTO follows the RTT down to a few microseconds
 * over it, where a tick's granularity (4 ms at HZ=250) would have set it.
 */
static void microsecond_rtt_microsecond_rto(void)
{
	/* timeout attribute 1: T = 8 us, the RTO within [T, 4 T] */
	struct mrc_rto_params p = params(8, 32, 1, 8);
	struct mrc_rto r;
	u32 seed = 7;
	int i;

	mrc_rto_init(&r, &p);
	for (i = 0; i < 100; i++)
		mrc_rto_sample(&r, 9 + lcg(&seed) % 3);
	CHECK(mrc_rto_srtt_us(&r) >= 9 && mrc_rto_srtt_us(&r) <= 11);
	CHECK(mrc_rto_us(&r) >= mrc_rto_srtt_us(&r) + 1);
	CHECK(mrc_rto_us(&r) <= 2 * mrc_rto_srtt_us(&r));
	mrc_rto_on_timeout(&r);
	CHECK(mrc_rto_us(&r) <= 32);
}

static void noisy_rtt_few_spurious(void)
{
	struct mrc_rto_params p = params(1000, 4000000, 4000, 67108);
	struct mrc_rto r;
	u32 seed = 1, spurious = 0, i;

	mrc_rto_init(&r, &p);
	/* 5..25 ms, uniform: what the emulated lab looks like. */
	for (i = 0; i < 10000; i++) {
		u64 rtt = 5000 + lcg(&seed) % 20000;

		if (r.has_sample && rtt >= mrc_rto_us(&r))
			spurious++;
		mrc_rto_sample(&r, rtt);
	}
	printf("# noisy RTT 5-25 ms: srtt %llu us, rttvar %llu us, RTO %llu us, %u of 10000 samples above the RTO\n",
	       (unsigned long long)mrc_rto_srtt_us(&r),
	       (unsigned long long)mrc_rto_rttvar_us(&r),
	       (unsigned long long)mrc_rto_us(&r), spurious);
	CHECK(mrc_rto_srtt_us(&r) >= 12000 && mrc_rto_srtt_us(&r) <= 18000);
	CHECK(mrc_rto_us(&r) > 25000 - 5000);
	CHECK(spurious <= 100);
}

/*
 * The round trip's bound follows the estimate below the floor (the
 * application's timeout), never above the base RTO, and is the base RTO
 * before a sample; the backoff does not lengthen it.
 */
static void rtt_bound_ignores_floor_and_backoff(void)
{
	/* perftest's timeout 14: T = 67 ms; a 20 us fabric. */
	struct mrc_rto_params p = params(67108, 4 * 67108, 1, 67108);
	struct mrc_rto r;

	mrc_rto_init(&r, &p);
	CHECK_EQ(mrc_rto_rtt_bound_us(&r), 67108);
	mrc_rto_sample(&r, 20);
	/* srtt 20, rttvar 10: 20 + 40. */
	CHECK_EQ(mrc_rto_rtt_bound_us(&r), 60);
	CHECK_EQ(mrc_rto_base_us(&r), 67108);
	mrc_rto_on_timeout(&r);
	mrc_rto_on_timeout(&r);
	CHECK_EQ(mrc_rto_rtt_bound_us(&r), 60);
	/* The granularity is the least margin here too. */
	p.granularity_us = 4000;
	mrc_rto_set_params(&r, &p);
	CHECK_EQ(mrc_rto_rtt_bound_us(&r), 4020);
	/* Round trips longer than the base RTO's cap: the base RTO. */
	p = params(100, 1000, 1, 500);
	mrc_rto_init(&r, &p);
	mrc_rto_sample(&r, 5000);
	CHECK_EQ(mrc_rto_base_us(&r), 1000);
	CHECK_EQ(mrc_rto_rtt_bound_us(&r), 1000);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(initial_value_before_samples),
	KTAP_CASE(first_sample_rfc6298),
	KTAP_CASE(later_samples_rfc6298),
	KTAP_CASE(steady_rtt_converges),
	KTAP_CASE(granularity_is_least_margin),
	KTAP_CASE(microsecond_rtt_microsecond_rto),
	KTAP_CASE(bounds_hold),
	KTAP_CASE(backoff_doubles_and_caps),
	KTAP_CASE(exp_stage_doubles_to_its_bound),
	KTAP_CASE(new_bounds_keep_estimate),
	KTAP_CASE(noisy_rtt_few_spurious),
	KTAP_CASE(rtt_bound_ignores_floor_and_backoff),
};

KTAP_MAIN("rto", cases)
