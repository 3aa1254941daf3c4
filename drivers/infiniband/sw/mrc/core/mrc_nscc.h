/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Sender congestion control with the semantics of UET 1.0 NSCC (the CC
 * profile "uet-1.0-nscc"): a byte window driven by two signals per ACK,
 * the queuing delay (RTT minus base RTT) against a target, and the ECN echo.
 *
 *                 delay < target            delay >= target
 *   no ECN        proportional increase     fair increase
 *   ECN           keep window, switch EV    multiplicative decrease
 *                                           (at most once per base RTT)
 *
 * Quick adapt: on a NACK (a trimmed packet) or a delay above qa_threshold,
 * at most once per (base RTT + target delay), the window falls to the bytes
 * really delivered in the last such period. Every ECN echo also asks the
 * caller to move to another entropy value (path).
 * Documentation/congestion.rst has the formulas and the defaults.
 *
 * Protocol core: plain C, integer arithmetic only, no clock: the caller
 * passes the time in nanoseconds (any monotonic clock) and serialises calls
 * on one state. One state per requester (QP); it is a few dozen bytes.
 */
#ifndef MRC_NSCC_H
#define MRC_NSCC_H

#include "mrc_core_types.h"

/* Fractions in the parameters are in thousandths. */
#define MRC_NSCC_MILLI		1000u

/*
 * A CC profile. All sizes in bytes, all times in nanoseconds. Fill it with
 * mrc_nscc_params_default() then change fields; mrc_nscc_params_check()
 * says whether it is usable.
 */
struct mrc_nscc_params {
	/*
	 * Unloaded round trip. The state starts from it and lowers it to
	 * the smallest RTT it measures; 0 means "learn it from the first
	 * sample".
	 */
	u64 base_rtt;
	/* Queuing delay the window steers to. */
	u64 target_delay;
	/* A queuing delay above this triggers quick adapt. */
	u64 qa_threshold;
	/* Packet size the window is counted in: the window floor. */
	u32 mtu;
	/* Window ceiling (typically 1.5 x bandwidth-delay product). */
	u32 max_cwnd;
	/* Additive increase, bytes, once per base RTT while not in ECN. */
	u32 eta;
	/* Fair increase: bytes added per window of bytes acknowledged. */
	u32 fi;
	/*
	 * Fast increase (delay near zero for a whole window): the window
	 * grows by fi_scale/1000 of every byte acknowledged.
	 */
	u32 fi_scale;
	/*
	 * Proportional increase at zero delay: bytes added per window
	 * acknowledged, scaled by (target - delay) / target. A soft-MRC
	 * parameter (the UET profile derives it from the link); 0 derives
	 * it from fi.
	 */
	u32 pi;
	/* Multiplicative decrease strength, thousandths. */
	u32 gamma;
	/* Most one decrease may remove, thousandths of the window. */
	u32 max_md_jump;
	/*
	 * Quick adapt runs only when the delivered bytes are below
	 * max_cwnd >> qa_gate (a flow already near line rate keeps its
	 * window).
	 */
	u32 qa_gate;
	bool disable_qa;
};

/* Bits of the actions an event returns. */
enum mrc_nscc_action {
	/* The ACK carried ECN: send the next packets on another EV. */
	MRC_NSCC_SWITCH_EV	= 1u << 0,
	/* The window was cut (multiplicative decrease or quick adapt). */
	MRC_NSCC_DECREASED	= 1u << 1,
	/* Quick adapt ran. */
	MRC_NSCC_QUICK_ADAPT	= 1u << 2,
};

/* Which cell of the decision table the last ACK fell in (for tests, stats). */
enum mrc_nscc_decision {
	MRC_NSCC_NONE,
	MRC_NSCC_PROPORTIONAL_INCREASE,
	MRC_NSCC_FAIR_INCREASE,
	MRC_NSCC_KEEP_SWITCH,
	MRC_NSCC_MULTIPLICATIVE_DECREASE,
	/* Quick adapt ran or the ACK fell in its ignore window. */
	MRC_NSCC_QUICK_ADAPTED,
};

struct mrc_nscc {
	struct mrc_nscc_params p;
	/* Window, bytes: p.mtu <= cwnd <= p.max_cwnd. */
	u32 cwnd;
	u32 pi;				/* p.pi, or derived */
	u64 base_rtt;			/* smallest RTT seen; 0: none yet */
	u64 avg_delay;			/* EWMA (1/8) of the queuing delay */
	bool avg_valid;			/* avg_delay holds a sample */
	bool started;			/* an event has set the clocks */
	/* Pending increase, window-bytes x bytes: applied / cwnd. */
	u64 inc_bytes;
	u64 acked_since_adjust;		/* bytes since the last adjustment */
	u64 last_adjust;		/* time of the last adjustment */
	u64 last_eta;			/* time eta was last added */
	u64 last_md;			/* time of the last decrease */
	bool md_done;			/* last_md is valid */
	/* Fast increase: bytes acknowledged at near-zero delay in a row. */
	u64 fast_count;
	/* Quick adapt period. */
	u64 qa_end;			/* 0: no period started yet */
	u64 delivered;			/* bytes acknowledged in this period */
	bool qa_pending;		/* a NACK asks for quick adapt */
	/* After quick adapt, ECN on this many bytes is old news. */
	u64 ignore_bytes;
	u64 ignored_bytes;
	enum mrc_nscc_decision last_decision;
	/* Counters (cumulative). */
	u64 n_md;
	u64 n_qa;
	u64 n_switch;
};

/*
 * Default profile, for NICs (Documentation/congestion.rst says why each
 * value): UET's reference point with the base RTT learnt.
 */
void mrc_nscc_params_default(struct mrc_nscc_params *p);

/*
 * The emulated lab's profile (the device preset "lab", mrc_settings.h):
 * 1024-byte MTU, base RTT learnt, 10 ms target delay, a 256 KiB ceiling.
 */
void mrc_nscc_params_lab(struct mrc_nscc_params *p);

/* UET's reference point: 100 Gb/s, 12 us RTT, 4 KiB MTU, trimming on. */
void mrc_nscc_params_uet_reference(struct mrc_nscc_params *p);

/* 0 when usable, else -EINVAL (out-of-range field). */
int mrc_nscc_params_check(const struct mrc_nscc_params *p);

/* Starts a flow at the initial window (max_cwnd). -EINVAL on bad params. */
int mrc_nscc_init(struct mrc_nscc *s, const struct mrc_nscc_params *p);

/*
 * An ACK newly acknowledging @acked_bytes. @rtt_ns is the round trip of
 * the packet it acknowledges, 0 when there is no valid sample (a
 * retransmission: Karn). @ecn: the packet arrived CE-marked. Returns
 * MRC_NSCC_* action bits.
 */
u32 mrc_nscc_on_ack(struct mrc_nscc *s, u64 now_ns, u64 rtt_ns,
		    u32 acked_bytes, bool ecn);

/*
 * A NACK for a trimmed packet of @nacked_bytes (the caller retransmits it
 * at once). Returns action bits.
 */
u32 mrc_nscc_on_nack(struct mrc_nscc *s, u64 now_ns, u32 nacked_bytes);

/*
 * A retransmission timeout. With trimming, congestion shows as NACKs, so a
 * timeout is mostly a failed path (the caller retires the EV); the window
 * is only halved.
 */
u32 mrc_nscc_on_timeout(struct mrc_nscc *s, u64 now_ns);

static inline u32 mrc_nscc_cwnd(const struct mrc_nscc *s)
{
	return s->cwnd;
}

/* May a packet of @len bytes leave with @inflight_bytes unacknowledged? */
static inline bool mrc_nscc_can_send(const struct mrc_nscc *s,
				     u32 inflight_bytes, u32 len)
{
	/* One packet may always be in flight, however large. */
	return inflight_bytes == 0 ||
	       (u64)inflight_bytes + len <= s->cwnd;
}

#endif /* MRC_NSCC_H */
