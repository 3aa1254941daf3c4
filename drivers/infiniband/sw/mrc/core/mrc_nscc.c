// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * NSCC sender congestion control. Protocol core; see mrc_nscc.h and
 * Documentation/congestion.rst.
 */
#include "mrc_nscc.h"

/* Proportional increase is computed on (target - delay) / target in 1/1024. */
#define PI_SHIFT		10
/*
 * The pending increase is applied once this many packets were acknowledged
 * since the last time, or once per base RTT, whichever comes first.
 */
#define ADJUST_PACKETS		8
/* Fast increase needs a queuing delay below target / FAST_DIVISOR. */
#define FAST_DIVISOR		8
/* Delay average: avg += (sample - avg) / 2^AVG_SHIFT. */
#define AVG_SHIFT		3

/* Largest sane values: far below what would overflow the u64 products. */
#define MAX_TIME_NS		(10ull * 1000 * 1000 * 1000)	/* 10 s */
#define MAX_WINDOW		0x40000000u			/* 1 GiB */
#define MIN_MTU			64u
#define MAX_MTU			65536u

void mrc_nscc_params_uet_reference(struct mrc_nscc_params *p)
{
	memset(p, 0, sizeof(*p));
	p->mtu = 4096;
	p->base_rtt = 12000;			/* 12 us */
	/* With trimming, the target is 3/4 of the base RTT. */
	p->target_delay = 9000;
	p->qa_threshold = 4 * p->target_delay;
	/* 1.5 x BDP at 100 Gb/s over 12 us (150000 bytes). */
	p->max_cwnd = 225000;
	p->fi = 5 * p->mtu;			/* per window acknowledged */
	p->pi = 3 * p->mtu;			/* 4 MTU x target / 12 us */
	p->eta = 3 * p->mtu / 20;		/* 0.15 MTU */
	p->fi_scale = 250;			/* 0.25 */
	p->gamma = 800;				/* 0.8 */
	p->max_md_jump = 500;			/* halve at most */
	p->qa_gate = 3;
	p->disable_qa = false;
}

void mrc_nscc_params_default(struct mrc_nscc_params *p)
{
	mrc_nscc_params_uet_reference(p);
	/*
	 * UET's 12 us is a NIC's own round trip. soft-MRC's adds the hosts'
	 * software path, unknown here: a configured base below the true one
	 * would read that time as a queue, so the smallest sample is used
	 * until a controller sets the fabric's.
	 */
	p->base_rtt = 0;
}

void mrc_nscc_params_lab(struct mrc_nscc_params *p)
{
	memset(p, 0, sizeof(*p));
	/* The lab fabric: veth at 1500 bytes, so 1024-byte IB MTU payloads. */
	p->mtu = 1024;
	/* Unloaded RTTs differ a thousandfold between emulation and NICs. */
	p->base_rtt = 0;
	/*
	 * Emulated round trips are tens of ms with as much jitter: a target
	 * below that would read scheduling noise as queues.
	 */
	p->target_delay = 10000000;		/* 10 ms */
	/* Swings of 40 ms happen at no load: quick adapt on a trim only. */
	p->qa_threshold = 10 * p->target_delay;
	/*
	 * 256 packets of 1024 bytes: the fixed window's bytes, so CC on
	 * never puts more in flight than CC off; more in one burst would
	 * overflow a receiving netdev's backlog under emulation.
	 */
	p->max_cwnd = 256 * 1024;
	p->fi = 5 * p->mtu;
	p->pi = 3 * p->mtu;
	p->eta = 3 * p->mtu / 20;
	p->fi_scale = 250;
	p->gamma = 800;
	p->max_md_jump = 500;
	p->qa_gate = 3;
	p->disable_qa = false;
}

int mrc_nscc_params_check(const struct mrc_nscc_params *p)
{
	if (p->mtu < MIN_MTU || p->mtu > MAX_MTU)
		return -EINVAL;
	if (p->max_cwnd < p->mtu || p->max_cwnd > MAX_WINDOW)
		return -EINVAL;
	if (p->base_rtt > MAX_TIME_NS)
		return -EINVAL;
	if (!p->target_delay || p->target_delay > MAX_TIME_NS)
		return -EINVAL;
	if (p->qa_threshold < p->target_delay || p->qa_threshold > MAX_TIME_NS)
		return -EINVAL;
	/* No increase beyond a whole window per window: bounds the products. */
	if (p->fi > p->max_cwnd || p->pi > p->max_cwnd || p->eta > p->max_cwnd)
		return -EINVAL;
	if (p->fi_scale > MRC_NSCC_MILLI || p->gamma > MRC_NSCC_MILLI)
		return -EINVAL;
	/* A decrease must leave something and must be able to happen. */
	if (!p->max_md_jump || p->max_md_jump >= MRC_NSCC_MILLI)
		return -EINVAL;
	if (p->qa_gate > 31)
		return -EINVAL;
	return 0;
}

int mrc_nscc_init(struct mrc_nscc *s, const struct mrc_nscc_params *p)
{
	int err = mrc_nscc_params_check(p);

	if (err)
		return err;
	memset(s, 0, sizeof(*s));
	s->p = *p;
	s->pi = p->pi ? p->pi : p->fi * 3 / 5;
	s->base_rtt = p->base_rtt;
	s->cwnd = p->max_cwnd;
	s->last_decision = MRC_NSCC_NONE;
	return 0;
}

static void clamp_cwnd(struct mrc_nscc *s)
{
	if (s->cwnd < s->p.mtu)
		s->cwnd = s->p.mtu;
	if (s->cwnd > s->p.max_cwnd)
		s->cwnd = s->p.max_cwnd;
}

/* Adds to the window, saturating at max_cwnd. */
static void grow(struct mrc_nscc *s, u64 bytes)
{
	if (bytes >= (u64)s->p.max_cwnd - s->cwnd)
		s->cwnd = s->p.max_cwnd;
	else
		s->cwnd += (u32)bytes;
}

static void start_clocks(struct mrc_nscc *s, u64 now)
{
	if (s->started)
		return;
	s->started = true;
	s->last_adjust = now;
	s->last_eta = now;
}

/* Time since @then, 0 if the clock went backwards. */
static u64 since(u64 now, u64 then)
{
	return now > then ? now - then : 0;
}

/* Queuing delay of one RTT sample; also keeps base_rtt and the average. */
static u64 sample_delay(struct mrc_nscc *s, u64 rtt)
{
	u64 delay;

	if (!rtt)
		return s->avg_delay;
	if (!s->base_rtt || rtt < s->base_rtt)
		s->base_rtt = rtt;
	delay = rtt - s->base_rtt;
	if (!s->avg_valid) {
		s->avg_delay = delay;
		s->avg_valid = true;
	} else if (delay >= s->avg_delay) {
		s->avg_delay += (delay - s->avg_delay) >> AVG_SHIFT;
	} else {
		s->avg_delay -= (s->avg_delay - delay) >> AVG_SHIFT;
	}
	return delay;
}

/*
 * Runs at the end of each quick-adapt period (base RTT + target delay):
 * if a NACK came or the delay is very high, and the flow delivered less
 * than max_cwnd >> qa_gate in the period, the window falls to what was
 * delivered. True when it ran.
 */
static bool quick_adapt(struct mrc_nscc *s, u64 now, u64 delay)
{
	bool ran = false;

	if (s->p.disable_qa)
		return false;
	if (s->qa_end && now <= s->qa_end)
		return false;
	if (s->qa_end && (s->qa_pending || delay > s->p.qa_threshold) &&
	    s->delivered < (u64)(s->p.max_cwnd >> s->p.qa_gate)) {
		/*
		 * ECN on the packets already in flight (at most the old
		 * window) describes the queue before the cut: ignore it.
		 */
		s->ignore_bytes = s->cwnd;
		s->ignored_bytes = 0;
		if (s->delivered < s->cwnd)
			s->cwnd = (u32)s->delivered;
		clamp_cwnd(s);
		s->qa_pending = false;
		s->inc_bytes = 0;
		s->acked_since_adjust = 0;
		s->fast_count = 0;
		s->n_qa++;
		ran = true;
	}
	s->delivered = 0;
	s->qa_end = now + s->base_rtt + s->p.target_delay;
	return ran;
}

static void multiplicative_decrease(struct mrc_nscc *s, u64 now, u64 delay)
{
	u64 d = s->avg_delay > delay ? s->avg_delay : delay;
	u64 target = s->p.target_delay;
	u64 cut;

	if (s->md_done && since(now, s->last_md) < s->base_rtt)
		return;
	if (d <= target)
		return;
	/* cut = gamma x (d - target) / d, at most max_md_jump. */
	cut = mrc_div64((u64)s->p.gamma * (d - target), d);
	if (cut > s->p.max_md_jump)
		cut = s->p.max_md_jump;
	s->cwnd = (u32)mrc_div64((u64)s->cwnd * (MRC_NSCC_MILLI - cut),
				 MRC_NSCC_MILLI);
	clamp_cwnd(s);
	s->last_md = now;
	s->md_done = true;
	s->n_md++;
}

/* No ECN, delay below target: grow in proportion to the headroom. */
static void proportional_increase(struct mrc_nscc *s, u32 acked, u64 delay)
{
	u64 target = s->p.target_delay;
	u64 headroom;

	/* A whole window at near-zero delay: the path is idle, grow fast. */
	if (delay * FAST_DIVISOR < target) {
		s->fast_count += acked;
		if (s->fast_count > s->cwnd) {
			grow(s, mrc_div64((u64)acked * s->p.fi_scale,
					  MRC_NSCC_MILLI));
			return;
		}
	} else {
		s->fast_count = 0;
	}
	headroom = mrc_div64((target - delay) << PI_SHIFT, target);
	/* pi, acked <= 2^30 and headroom <= 2^10: shift first, no overflow. */
	s->inc_bytes += (((u64)s->pi * acked) >> PI_SHIFT) * headroom;
}

/* Applies the pending increase, and eta once per base RTT. */
static void adjust(struct mrc_nscc *s, u64 now)
{
	if (s->acked_since_adjust <= (u64)ADJUST_PACKETS * s->p.mtu &&
	    since(now, s->last_adjust) <= s->base_rtt)
		return;
	grow(s, mrc_div64(s->inc_bytes, s->cwnd));
	s->inc_bytes = 0;
	s->acked_since_adjust = 0;
	s->last_adjust = now;
	if (since(now, s->last_eta) >= s->base_rtt) {
		grow(s, s->p.eta);
		s->last_eta = now;
	}
}

u32 mrc_nscc_on_ack(struct mrc_nscc *s, u64 now_ns, u64 rtt_ns,
		    u32 acked_bytes, bool ecn)
{
	u64 target = s->p.target_delay;
	u32 before = s->cwnd;
	u32 actions = 0;
	u64 delay;

	start_clocks(s, now_ns);
	/* More than a window at once is not a real ACK; keep products small. */
	if (acked_bytes > s->p.max_cwnd)
		acked_bytes = s->p.max_cwnd;
	delay = sample_delay(s, rtt_ns);
	s->delivered += acked_bytes;
	s->acked_since_adjust += acked_bytes;
	if (ecn) {
		actions |= MRC_NSCC_SWITCH_EV;
		s->n_switch++;
	}

	if (quick_adapt(s, now_ns, delay)) {
		s->last_decision = MRC_NSCC_QUICK_ADAPTED;
		return actions | MRC_NSCC_QUICK_ADAPT |
		       (s->cwnd < before ? MRC_NSCC_DECREASED : 0);
	}
	if (s->ignored_bytes < s->ignore_bytes) {
		s->ignored_bytes += acked_bytes;
		if (ecn) {
			s->last_decision = MRC_NSCC_QUICK_ADAPTED;
			return actions;
		}
	}

	if (!ecn && delay >= target) {
		s->last_decision = MRC_NSCC_FAIR_INCREASE;
		s->fast_count = 0;
		s->inc_bytes += (u64)s->p.fi * acked_bytes;
	} else if (!ecn) {
		s->last_decision = MRC_NSCC_PROPORTIONAL_INCREASE;
		proportional_increase(s, acked_bytes, delay);
	} else if (delay < target) {
		/* The queue is short: the mark is a hot spot on this path. */
		s->last_decision = MRC_NSCC_KEEP_SWITCH;
		s->fast_count = 0;
	} else {
		s->last_decision = MRC_NSCC_MULTIPLICATIVE_DECREASE;
		s->fast_count = 0;
		multiplicative_decrease(s, now_ns, delay);
	}
	clamp_cwnd(s);
	adjust(s, now_ns);
	clamp_cwnd(s);
	if (s->cwnd < before)
		actions |= MRC_NSCC_DECREASED;
	return actions;
}

u32 mrc_nscc_on_nack(struct mrc_nscc *s, u64 now_ns, u32 nacked_bytes)
{
	u32 before = s->cwnd;

	start_clocks(s, now_ns);
	s->ignored_bytes += nacked_bytes;
	s->fast_count = 0;
	if (!s->p.disable_qa) {
		s->qa_pending = true;
		/* A trim says the queue was full: use the average delay. */
		if (quick_adapt(s, now_ns, s->avg_delay)) {
			s->last_decision = MRC_NSCC_QUICK_ADAPTED;
			return MRC_NSCC_SWITCH_EV | MRC_NSCC_QUICK_ADAPT |
			       (s->cwnd < before ? MRC_NSCC_DECREASED : 0);
		}
	}
	/* Not at a period boundary: give back the trimmed bytes now. */
	s->cwnd = s->cwnd > nacked_bytes ? s->cwnd - nacked_bytes : 0;
	clamp_cwnd(s);
	return MRC_NSCC_SWITCH_EV | (s->cwnd < before ? MRC_NSCC_DECREASED : 0);
}

u32 mrc_nscc_on_timeout(struct mrc_nscc *s, u64 now_ns)
{
	u32 before = s->cwnd;

	start_clocks(s, now_ns);
	s->cwnd /= 2;
	clamp_cwnd(s);
	s->inc_bytes = 0;
	s->fast_count = 0;
	s->last_md = now_ns;
	s->md_done = true;
	return s->cwnd < before ? MRC_NSCC_DECREASED : 0;
}
