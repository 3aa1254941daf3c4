// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests of NSCC congestion control (mrc_nscc.c): parameter checks, the
 * decision table cell by cell, multiplicative decrease at most once per
 * RTT, quick adapt (NACK, high delay, gate, disabled), window bounds, and a
 * simulated N-flow bottleneck that must converge to fair shares with the
 * queue near the target delay.
 */
#include "ktap.h"
#include "mrc_nscc.h"

#define US		1000ull		/* ns */
#define MS		(1000 * US)

/* The cases are written against UET's reference point. */
static struct mrc_nscc_params defaults(void)
{
	struct mrc_nscc_params p;

	mrc_nscc_params_uet_reference(&p);
	return p;
}

/* A state at half its ceiling, with the clocks and QA period started at 0. */
static void half_open(struct mrc_nscc *s, const struct mrc_nscc_params *p)
{
	CHECK_EQ(mrc_nscc_init(s, p), 0);
	s->cwnd = p->max_cwnd / 2;
	/* Starts the QA period, sets base_rtt to its exact value. */
	mrc_nscc_on_ack(s, 0, p->base_rtt, 0, false);
}

/* Acknowledges @bytes in MTU-sized ACKs, all at one delay, from @*now. */
static u32 ack_bytes(struct mrc_nscc *s, u64 *now, u64 step, u64 delay,
		     u64 bytes, bool ecn)
{
	u32 actions = 0;

	while (bytes) {
		u32 n = bytes < s->p.mtu ? (u32)bytes : s->p.mtu;

		*now += step;
		actions |= mrc_nscc_on_ack(s, *now, s->p.base_rtt + delay, n,
					   ecn);
		bytes -= n;
	}
	return actions;
}

static void params_uet_reference_is_valid(void)
{
	struct mrc_nscc_params p = defaults();
	struct mrc_nscc s;

	CHECK_EQ(mrc_nscc_params_check(&p), 0);
	CHECK_EQ(mrc_nscc_init(&s, &p), 0);
	CHECK_EQ(mrc_nscc_cwnd(&s), p.max_cwnd);
	CHECK(p.target_delay < p.qa_threshold);
}

/*
 * The default, for NICs: valid, learns its base RTT, steers to a queue of
 * microseconds, and its ceiling covers a 100 Gb/s port's bandwidth-delay
 * product over UET's 12 us.
 */
static void params_nic_default_is_valid(void)
{
	struct mrc_nscc_params p;
	struct mrc_nscc s;

	mrc_nscc_params_default(&p);
	CHECK_EQ(mrc_nscc_params_check(&p), 0);
	CHECK_EQ(mrc_nscc_init(&s, &p), 0);
	CHECK_EQ(p.base_rtt, 0);
	CHECK(p.target_delay <= 20 * US);
	CHECK(p.qa_threshold <= 100 * US);
	CHECK(p.target_delay < p.qa_threshold);
	CHECK(p.max_cwnd >= 100 / 8 * 12 * 1000);
	CHECK_EQ(p.mtu, 4096);
}

/*
 * The lab profile: valid, learns its base RTT, and a ceiling at least the
 * fixed window's bytes at the lab MTU (256 x 1024), so turning CC on never
 * caps a flow below what it had without.
 */
static void params_lab_is_valid(void)
{
	struct mrc_nscc_params p;
	struct mrc_nscc s;

	mrc_nscc_params_lab(&p);
	CHECK_EQ(mrc_nscc_params_check(&p), 0);
	CHECK_EQ(mrc_nscc_init(&s, &p), 0);
	CHECK_EQ(p.base_rtt, 0);
	CHECK(p.max_cwnd >= 256u * 1024u);
	CHECK(p.target_delay < p.qa_threshold);
	CHECK_EQ(mrc_nscc_cwnd(&s), p.max_cwnd);
}

static void params_out_of_range_rejected(void)
{
	struct mrc_nscc_params p;
	struct mrc_nscc s;

#define REJECT(field, value)						\
	do {								\
		p = defaults();						\
		p.field = value;					\
		CHECK_EQ(mrc_nscc_params_check(&p), -EINVAL);		\
		CHECK_EQ(mrc_nscc_init(&s, &p), -EINVAL);		\
	} while (0)

	REJECT(mtu, 0);
	REJECT(mtu, 1u << 20);
	REJECT(max_cwnd, 1000);		/* below one MTU */
	REJECT(max_cwnd, 1u << 31);
	REJECT(target_delay, 0);
	REJECT(qa_threshold, 1000);	/* below target */
	REJECT(base_rtt, 100ull * 1000 * MS);
	REJECT(gamma, 1001);
	REJECT(fi_scale, 1001);
	REJECT(max_md_jump, 0);
	REJECT(max_md_jump, 1000);
	REJECT(qa_gate, 32);
	REJECT(eta, 1u << 30);
	REJECT(fi, 1u << 20);		/* more than max_cwnd */
	REJECT(pi, 1u << 20);
#undef REJECT
	p = defaults();
	p.base_rtt = 0;			/* learn it */
	CHECK_EQ(mrc_nscc_params_check(&p), 0);
}

/* No ECN, delay below target: grows, less the closer to target. */
static void cell_no_ecn_below_target_proportional(void)
{
	struct mrc_nscc_params p = defaults();
	struct mrc_nscc near, far;
	u64 t1 = 0, t2 = 0;
	u32 w0 = p.max_cwnd / 2;
	u32 a;

	half_open(&far, &p);
	half_open(&near, &p);
	/* Step of 40 ns: one window is acked well inside one base RTT. */
	a = ack_bytes(&far, &t1, 40, p.target_delay / 4, w0, false);
	CHECK_EQ(far.last_decision, MRC_NSCC_PROPORTIONAL_INCREASE);
	CHECK_EQ(a & (MRC_NSCC_SWITCH_EV | MRC_NSCC_DECREASED), 0);
	ack_bytes(&near, &t2, 40, p.target_delay * 7 / 8, w0, false);
	CHECK_EQ(near.last_decision, MRC_NSCC_PROPORTIONAL_INCREASE);
	/* Per window: pi x (target - delay) / target, +-1 MTU of rounding. */
	CHECK(far.cwnd > w0 + p.pi * 3 / 4 - p.mtu);
	CHECK(far.cwnd < w0 + p.pi * 3 / 4 + p.mtu);
	CHECK(near.cwnd > w0);
	CHECK(near.cwnd < far.cwnd);
}

/* No ECN, delay at or above target: fair (additive) increase of fi. */
static void cell_no_ecn_above_target_fair(void)
{
	struct mrc_nscc_params p = defaults();
	struct mrc_nscc s;
	u32 w0 = p.max_cwnd / 2;
	u64 t = 0;

	half_open(&s, &p);
	ack_bytes(&s, &t, 40, p.target_delay, w0, false);
	CHECK_EQ(s.last_decision, MRC_NSCC_FAIR_INCREASE);
	CHECK(s.cwnd > w0 + p.fi - p.mtu);
	CHECK(s.cwnd < w0 + p.fi + p.mtu);
}

/* ECN, delay below target: the window stays, the EV must change. */
static void cell_ecn_below_target_keep_and_switch(void)
{
	struct mrc_nscc_params p = defaults();
	struct mrc_nscc s;
	u32 w0 = p.max_cwnd / 2;
	u64 t = 0;
	u32 a;

	half_open(&s, &p);
	a = ack_bytes(&s, &t, 40, p.target_delay / 2, 4 * p.mtu, true);
	CHECK_EQ(s.last_decision, MRC_NSCC_KEEP_SWITCH);
	CHECK(a & MRC_NSCC_SWITCH_EV);
	CHECK_EQ(a & MRC_NSCC_DECREASED, 0);
	CHECK_EQ(s.cwnd, w0);
	CHECK_EQ(s.n_switch, 4);
}

/* ECN, delay above target: cwnd x (1 - gamma (d - target) / d). */
static void cell_ecn_above_target_decrease(void)
{
	struct mrc_nscc_params p = defaults();
	struct mrc_nscc s;
	u64 d = p.target_delay * 3 / 2;
	u32 w0 = p.max_cwnd / 2;
	u32 a;

	CHECK_EQ(mrc_nscc_init(&s, &p), 0);
	s.cwnd = w0;
	/* The first sample seeds the delay average with d. */
	a = mrc_nscc_on_ack(&s, 1000, p.base_rtt + d, p.mtu, true);
	CHECK_EQ(s.last_decision, MRC_NSCC_MULTIPLICATIVE_DECREASE);
	CHECK(a & MRC_NSCC_SWITCH_EV);
	CHECK(a & MRC_NSCC_DECREASED);
	/* gamma 0.8 x (0.5 / 1.5) = 0.266 */
	CHECK_EQ(s.cwnd, (u64)w0 * (1000 - 800 * (d - p.target_delay) / d) /
		 1000);

	/* A huge delay is capped at max_md_jump (halving). */
	CHECK_EQ(mrc_nscc_init(&s, &p), 0);
	s.cwnd = w0;
	mrc_nscc_on_ack(&s, 1000, p.base_rtt + 20 * p.target_delay, p.mtu,
			true);
	CHECK_EQ(s.cwnd, w0 / 2);
}

static void md_at_most_once_per_rtt(void)
{
	struct mrc_nscc_params p = defaults();
	struct mrc_nscc s;
	u64 d = 2 * p.target_delay;
	u64 t = 1000;
	u32 after_first;

	CHECK_EQ(mrc_nscc_init(&s, &p), 0);
	mrc_nscc_on_ack(&s, t, p.base_rtt + d, p.mtu, true);
	after_first = s.cwnd;
	CHECK(after_first < p.max_cwnd);
	/* More marks within one base RTT: no further cut. */
	for (int i = 0; i < 10; i++) {
		t += p.base_rtt / 20;
		mrc_nscc_on_ack(&s, t, p.base_rtt + d, p.mtu, true);
		CHECK_EQ(s.last_decision, MRC_NSCC_MULTIPLICATIVE_DECREASE);
	}
	CHECK(s.cwnd == after_first);
	CHECK_EQ(s.n_md, 1);
	/* One base RTT after the first cut, the next mark cuts again. */
	t = 1000 + p.base_rtt;
	mrc_nscc_on_ack(&s, t, p.base_rtt + d, p.mtu, true);
	CHECK(s.cwnd < after_first);
	CHECK_EQ(s.n_md, 2);
}

/* A NACK at a period boundary: the window falls to what was delivered. */
static void quick_adapt_on_nack(void)
{
	struct mrc_nscc_params p = defaults();
	struct mrc_nscc s;
	u64 period = p.base_rtt + p.target_delay;
	u64 t = 0;
	u32 a;

	half_open(&s, &p);
	/* 3 packets delivered in the period, at a modest delay. */
	ack_bytes(&s, &t, 100, p.target_delay / 2, 3 * p.mtu, false);
	a = mrc_nscc_on_nack(&s, period + 1, p.mtu);
	CHECK(a & MRC_NSCC_QUICK_ADAPT);
	CHECK(a & MRC_NSCC_DECREASED);
	CHECK(a & MRC_NSCC_SWITCH_EV);
	CHECK_EQ(s.cwnd, 3 * p.mtu);
	CHECK_EQ(s.n_qa, 1);

	/* Within a period a NACK only returns the trimmed bytes ... */
	half_open(&s, &p);
	t = 0;
	ack_bytes(&s, &t, 100, p.target_delay / 2, 3 * p.mtu, false);
	a = mrc_nscc_on_nack(&s, period / 2, p.mtu);
	CHECK_EQ(a & MRC_NSCC_QUICK_ADAPT, 0);
	CHECK_EQ(s.cwnd, p.max_cwnd / 2 - p.mtu);
	/* ... and quick adapt runs at the next boundary, on an ACK. */
	a = mrc_nscc_on_ack(&s, period + 1, p.base_rtt, p.mtu, false);
	CHECK(a & MRC_NSCC_QUICK_ADAPT);
	CHECK_EQ(s.cwnd, 4 * p.mtu);
}

static void quick_adapt_on_high_delay(void)
{
	struct mrc_nscc_params p = defaults();
	struct mrc_nscc s;
	u64 period = p.base_rtt + p.target_delay;
	u64 t = 0;
	u32 a;

	half_open(&s, &p);
	ack_bytes(&s, &t, 100, p.target_delay / 2, 5 * p.mtu, false);
	/* A delay just at the threshold does not trigger it. */
	a = mrc_nscc_on_ack(&s, period + 1, p.base_rtt + p.qa_threshold,
			    p.mtu, false);
	CHECK_EQ(a & MRC_NSCC_QUICK_ADAPT, 0);
	CHECK_EQ(s.n_qa, 0);
	/* Above it, at the next boundary: cwnd = delivered in the period. */
	t = period + 1;
	ack_bytes(&s, &t, 100, p.target_delay / 2, 2 * p.mtu, false);
	a = mrc_nscc_on_ack(&s, 2 * period + 10, p.base_rtt +
			    p.qa_threshold + 1, p.mtu, false);
	CHECK(a & MRC_NSCC_QUICK_ADAPT);
	CHECK_EQ(s.cwnd, 3 * p.mtu);
	CHECK_EQ(s.last_decision, MRC_NSCC_QUICK_ADAPTED);
	/* ECN on the bytes that were in flight at the cut is ignored. */
	t = 2 * period + 10;
	a = ack_bytes(&s, &t, 100, 2 * p.target_delay, 4 * p.mtu, true);
	CHECK(a & MRC_NSCC_SWITCH_EV);
	CHECK_EQ(s.cwnd, 3 * p.mtu);
	CHECK_EQ(s.n_md, 0);
}

static void quick_adapt_gate_and_disable(void)
{
	struct mrc_nscc_params p = defaults();
	struct mrc_nscc s;
	u64 period = p.base_rtt + p.target_delay;
	u64 t = 0;
	u32 a;

	/* Delivered >= max_cwnd >> qa_gate: a fast flow keeps its window. */
	half_open(&s, &p);
	ack_bytes(&s, &t, 10, p.target_delay / 2,
		  (p.max_cwnd >> p.qa_gate) + p.mtu, false);
	a = mrc_nscc_on_nack(&s, period + 1, p.mtu);
	CHECK_EQ(a & MRC_NSCC_QUICK_ADAPT, 0);
	CHECK_EQ(s.n_qa, 0);

	/* disable_qa: neither a NACK nor a huge delay runs it. */
	p.disable_qa = true;
	half_open(&s, &p);
	t = 0;
	ack_bytes(&s, &t, 100, p.target_delay / 2, p.mtu, false);
	a = mrc_nscc_on_nack(&s, period + 1, p.mtu);
	CHECK_EQ(a & MRC_NSCC_QUICK_ADAPT, 0);
	CHECK_EQ(s.cwnd, p.max_cwnd / 2 - p.mtu);
	a = mrc_nscc_on_ack(&s, 3 * period, p.base_rtt + 100 * p.qa_threshold,
			    p.mtu, false);
	CHECK_EQ(a & MRC_NSCC_QUICK_ADAPT, 0);
	CHECK_EQ(s.n_qa, 0);
	CHECK(s.cwnd >= p.max_cwnd / 2 - p.mtu);
}

static void window_bounds(void)
{
	struct mrc_nscc_params p = defaults();
	struct mrc_nscc s;
	u64 t = 0;

	/* Repeated cuts stop at one MTU. */
	CHECK_EQ(mrc_nscc_init(&s, &p), 0);
	for (int i = 0; i < 200; i++) {
		t += p.base_rtt;
		mrc_nscc_on_ack(&s, t, p.base_rtt + 3 * p.target_delay, 64,
				true);
		CHECK(s.cwnd >= p.mtu);
	}
	CHECK_EQ(s.cwnd, p.mtu);
	mrc_nscc_on_nack(&s, t + 1, 1u << 20);
	CHECK_EQ(s.cwnd, p.mtu);
	mrc_nscc_on_timeout(&s, t + 2);
	CHECK_EQ(s.cwnd, p.mtu);

	/* Unbounded growth stops at max_cwnd. */
	half_open(&s, &p);
	t = 0;
	for (int i = 0; i < 100; i++) {
		ack_bytes(&s, &t, 200, p.target_delay, p.max_cwnd, false);
		CHECK(s.cwnd <= p.max_cwnd);
	}
	CHECK_EQ(s.cwnd, p.max_cwnd);

	/* can_send: one packet always, then the window. */
	CHECK(mrc_nscc_can_send(&s, 0, 10 * p.max_cwnd));
	CHECK(mrc_nscc_can_send(&s, p.max_cwnd - p.mtu, p.mtu));
	CHECK(!mrc_nscc_can_send(&s, p.max_cwnd - p.mtu + 1, p.mtu));
}

/* A whole window at near-zero delay: multiplicative growth by fi_scale. */
static void fast_increase_on_idle_path(void)
{
	struct mrc_nscc_params p = defaults();
	struct mrc_nscc s;
	u32 w0 = 8 * p.mtu;
	u64 t = 0;

	half_open(&s, &p);
	s.cwnd = w0;
	ack_bytes(&s, &t, 100, 0, w0, false);
	CHECK(s.cwnd < w0 + p.pi + p.mtu);	/* still proportional */
	u32 w1 = s.cwnd;

	ack_bytes(&s, &t, 100, 0, 4 * p.mtu, false);
	/* fi_scale (1/4) of every byte past the first window. */
	CHECK(s.cwnd >= w1 + p.mtu);
}

/* The timeout halves the window and counts as this RTT's decrease. */
static void timeout_halves(void)
{
	struct mrc_nscc_params p = defaults();
	struct mrc_nscc s;

	half_open(&s, &p);
	CHECK(mrc_nscc_on_timeout(&s, 100) & MRC_NSCC_DECREASED);
	CHECK_EQ(s.cwnd, p.max_cwnd / 4);
	mrc_nscc_on_ack(&s, 200, p.base_rtt + 2 * p.target_delay, p.mtu, true);
	CHECK_EQ(s.cwnd, p.max_cwnd / 4);
}

/* ---------------------------------------------------------------------- */
/* Simulated bottleneck                                                    */
/* ---------------------------------------------------------------------- */

/*
 * N window-limited senders, each with a NIC at the bottleneck rate, share
 * one FIFO port of rate C. Packets are MTU-sized. Propagation is half the
 * base RTT each way, the same for every flow, so the FIFO order is the
 * order of sending and each packet's departure is known when it is sent.
 * The port marks CE with a probability rising from 0 at KMIN to 1 at KMAX
 * bytes queued (RED-like, as in the UET profiles). Flow i starts at
 * i x stagger, at its initial (maximum) window.
 */
#define SIM_MAX_FLOWS	16
#define SIM_STEP	20ull				/* ns */
#define SIM_RING	1024				/* > max window / MTU */

/* Bottleneck: 100 Gb/s = 12.5 bytes/ns. */
static u64 service_ns(u64 bytes)
{
	return bytes * 2 / 25;
}

static u64 queue_bytes_at(u64 entry, u64 last_departure)
{
	return last_departure > entry ? (last_departure - entry) * 25 / 2 : 0;
}

struct sim_pkt {
	u64 sent;
	u64 ack_at;
	bool ce;
};

struct sim_flow {
	struct mrc_nscc cc;
	struct sim_pkt ring[SIM_RING];
	u32 head, tail;			/* packets in flight: [tail, head) */
	u64 nic_free;
	u64 measured_bytes;
};

struct sim_result {
	double jain;
	u64 mean_qdelay;		/* ns, over packets sent after measure */
	u64 utilisation;		/* percent, after measure */
	u64 drained_at;			/* first time the queue < 2 x target */
	u64 peak_qdelay;
	u64 qa, md, switches;
};

static u64 sim_rng;

static u32 sim_rand_milli(void)
{
	sim_rng ^= sim_rng << 13;
	sim_rng ^= sim_rng >> 7;
	sim_rng ^= sim_rng << 17;
	return (u32)(sim_rng % 1000);
}

static struct sim_result simulate_rtt(const struct mrc_nscc_params *p,
				      u64 base_rtt, int n, u64 stagger,
				      u64 measure, u64 end)
{
	static struct sim_flow flows[SIM_MAX_FLOWS];
	const u64 prop = base_rtt / 2;
	/* Marking from half to one and a half times the target queue. */
	const u64 kmin = p->target_delay * 25 / 2 / 2;
	const u64 kmax = p->target_delay * 25 / 2 * 3 / 2;
	u64 last_departure = 0;
	u64 qdelay_sum = 0, qdelay_samples = 0;
	u64 total = 0, sum_sq = 0;
	struct sim_result r = { 0 };

	sim_rng = 0x2545f4914f6cdd1dull;
	for (int i = 0; i < n; i++) {
		CHECK_EQ(mrc_nscc_init(&flows[i].cc, p), 0);
		flows[i].head = flows[i].tail = 0;
		flows[i].nic_free = i * stagger;
		flows[i].measured_bytes = 0;
	}

	for (u64 now = 0; now < end; now += SIM_STEP) {
		for (int i = 0; i < n; i++) {
			struct sim_flow *f = &flows[i];

			/* ACKs due now, in order (FIFO, equal paths). */
			while (f->tail != f->head &&
			       f->ring[f->tail % SIM_RING].ack_at <= now) {
				struct sim_pkt *k = &f->ring[f->tail % SIM_RING];

				if (mrc_nscc_on_ack(&f->cc, now, now - k->sent,
						    p->mtu, k->ce) &
				    MRC_NSCC_SWITCH_EV)
					r.switches++;
				if (now >= measure)
					f->measured_bytes += p->mtu;
				f->tail++;
			}
			/* Sends while the window and the NIC allow. */
			while (now >= f->nic_free &&
			       mrc_nscc_can_send(&f->cc,
						 (f->head - f->tail) * p->mtu,
						 p->mtu) &&
			       f->head - f->tail < SIM_RING) {
				struct sim_pkt *k = &f->ring[f->head % SIM_RING];
				u64 entry = now + prop;
				u64 q = queue_bytes_at(entry, last_departure);
				u64 start = last_departure > entry ?
					    last_departure : entry;

				k->sent = now;
				k->ce = q >= kmax || (q > kmin &&
					sim_rand_milli() < (q - kmin) * 1000 /
							   (kmax - kmin));
				last_departure = start + service_ns(p->mtu);
				k->ack_at = last_departure + prop;
				f->head++;
				f->nic_free = now + service_ns(p->mtu);
				if (start - entry > r.peak_qdelay)
					r.peak_qdelay = start - entry;
				if (!r.drained_at && r.peak_qdelay &&
				    start - entry < 2 * p->target_delay &&
				    r.peak_qdelay > 2 * p->target_delay)
					r.drained_at = now;
				if (now >= measure) {
					qdelay_sum += start - entry;
					qdelay_samples++;
				}
			}
		}
	}

	for (int i = 0; i < n; i++) {
		u64 x = flows[i].measured_bytes;

		total += x;
		sum_sq += x * x / 1024;
		r.qa += flows[i].cc.n_qa;
		r.md += flows[i].cc.n_md;
	}
	r.jain = sum_sq ? (double)total * total / 1024 / ((double)n * sum_sq)
			: 0;
	r.mean_qdelay = qdelay_samples ? qdelay_sum / qdelay_samples : 0;
	r.utilisation = total * 100 / ((end - measure) * 25 / 2);
	printf("# %d flows: jain %.4f, mean queuing delay %llu ns (target "
	       "%llu), peak %llu ns, utilisation %llu%%, %llu MD, %llu QA, "
	       "%llu EV switches\n", n, r.jain,
	       (unsigned long long)r.mean_qdelay,
	       (unsigned long long)p->target_delay,
	       (unsigned long long)r.peak_qdelay,
	       (unsigned long long)r.utilisation, (unsigned long long)r.md,
	       (unsigned long long)r.qa, (unsigned long long)r.switches);
	return r;
}

/* The simulation on a fabric whose unloaded RTT is the profile's. */
static struct sim_result simulate(const struct mrc_nscc_params *p, int n,
				  u64 stagger, u64 measure, u64 end)
{
	return simulate_rtt(p, p->base_rtt, n, stagger, measure, end);
}

/* Flows joining one by one end with fair shares and the target queue. */
static void simulated_bottleneck_converges_fair(void)
{
	struct mrc_nscc_params p = defaults();
	struct sim_result r = simulate(&p, 4, 2 * MS, 15 * MS, 30 * MS);

	CHECK(r.jain >= 0.95);
	CHECK(r.mean_qdelay >= p.target_delay / 2);
	CHECK(r.mean_qdelay <= 2 * p.target_delay);
	CHECK(r.utilisation >= 90);
}

/*
 * The same bottleneck with the NIC default, which learns the base RTT
 * (12 us here) from its samples instead of being told it.
 */
static void simulated_bottleneck_nic_default(void)
{
	struct mrc_nscc_params p;
	struct sim_result r;

	mrc_nscc_params_default(&p);
	r = simulate_rtt(&p, 12 * US, 4, 2 * MS, 15 * MS, 30 * MS);
	CHECK(r.jain >= 0.95);
	CHECK(r.mean_qdelay <= 2 * p.target_delay);
	CHECK(r.utilisation >= 90);
}

/*
 * 16 flows start at once at their maximum window: the queue jumps far past
 * qa_threshold. Quick adapt brings it back to the target sooner than the
 * multiplicative decrease alone (the initial burst itself must drain
 * either way, so the gain is the round trips after it), and the flows
 * still end fair.
 */
static void simulated_incast_quick_adapt(void)
{
	struct mrc_nscc_params p = defaults();
	struct sim_result with, without;

	with = simulate(&p, 16, 0, 5 * MS, 10 * MS);
	p.disable_qa = true;
	without = simulate(&p, 16, 0, 5 * MS, 10 * MS);
	printf("# queue back under 2 x target after %llu ns with quick "
	       "adapt, %llu ns without\n",
	       (unsigned long long)with.drained_at,
	       (unsigned long long)without.drained_at);
	CHECK(with.peak_qdelay > p.qa_threshold);
	CHECK(with.qa >= 16);
	CHECK_EQ(without.qa, 0);
	CHECK(with.drained_at > 0);
	CHECK(without.drained_at == 0 || with.drained_at < without.drained_at);
	CHECK(with.jain >= 0.95);
	CHECK(with.mean_qdelay <= 2 * p.target_delay);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(params_uet_reference_is_valid),
	KTAP_CASE(params_nic_default_is_valid),
	KTAP_CASE(params_lab_is_valid),
	KTAP_CASE(params_out_of_range_rejected),
	KTAP_CASE(cell_no_ecn_below_target_proportional),
	KTAP_CASE(cell_no_ecn_above_target_fair),
	KTAP_CASE(cell_ecn_below_target_keep_and_switch),
	KTAP_CASE(cell_ecn_above_target_decrease),
	KTAP_CASE(md_at_most_once_per_rtt),
	KTAP_CASE(quick_adapt_on_nack),
	KTAP_CASE(quick_adapt_on_high_delay),
	KTAP_CASE(quick_adapt_gate_and_disable),
	KTAP_CASE(window_bounds),
	KTAP_CASE(fast_increase_on_idle_path),
	KTAP_CASE(timeout_halves),
	KTAP_CASE(simulated_bottleneck_converges_fair),
	KTAP_CASE(simulated_bottleneck_nic_default),
	KTAP_CASE(simulated_incast_quick_adapt),
};

KTAP_MAIN("nscc", cases)
