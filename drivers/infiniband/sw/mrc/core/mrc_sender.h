/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The requester's protocol decisions as one state machine: which PSN goes
 * out next and on which EV, what an ACK, a NAK(trimmed), a timeout or a
 * probe reply changes, when the timer is due, and which messages complete
 * or fail, in posting order. It composes the SACK tracker (mrc_sack.h),
 * the EV set (mrc_ev.h), the RTO (mrc_rto.h) and, optionally, NSCC
 * (mrc_nscc.h). Documentation/protocol-core.rst describes the event model.
 *
 * Protocol core: plain C, no allocation, no clock, no locking, no globals.
 * The caller owns every array (tracker slots, message ring, EVs), passes
 * the time (microseconds of its monotonic clock) into every event and
 * serialises calls on one sender. Nothing here is random: the same events
 * at the same times give the same answers, so a discrete-event simulator
 * can run thousands of senders side by side and replay any of them.
 */
#ifndef MRC_SENDER_H
#define MRC_SENDER_H

#include "mrc_core_types.h"
#include "mrc_sack.h"
#include "mrc_rto.h"
#include "mrc_ev.h"
#include "mrc_nscc.h"
#include "mrc_ev_single.h"

/* The message failed: retries exhausted (IB_WC_RETRY_EXC_ERR's meaning). */
#define MRC_SENDER_ST_OK		0
#define MRC_SENDER_ST_RETRY_EXCEEDED	1
/* Posted after (or behind) a failed message: never sent in full. */
#define MRC_SENDER_ST_FLUSHED		2

/* A message of the ring: @npkts PSNs from @first_psn once started. */
struct mrc_sender_msg {
	u64 cookie;
	u32 first_psn;
	u32 npkts;
	u32 sent;
	u32 acked;
	u8 status;
	/*
	 * A READ or atomic: finished only once its response has come too
	 * (mrc_sender_response_done()), and failed by a timeout before that.
	 */
	bool awaits_response;
};

/* mrc_sender_post_flags(): the message is answered by a response. */
#define MRC_SENDER_POST_RESPONSE	0x1

/* mrc_sender_params.exp_retry_cnt: the exponential stage never ends. */
#define MRC_SENDER_RETRY_FOREVER	25u

struct mrc_sender_params {
	/* Timeouts without progress before the oldest message fails. */
	u32 retry_cnt;
	/*
	 * After those, this many more, each doubling the RTO up to
	 * rto.exp_max_us (mrc_rto_enter_exp()); MRC_SENDER_RETRY_FOREVER:
	 * no limit, the message waits until the caller gives up on the QP.
	 */
	u32 exp_retry_cnt;
	/* PSNs outstanding when NSCC is off. */
	u32 fixed_cwnd;
	/*
	 * PSNs outstanding at most, NSCC or not (an MRC QP's MPR x 128);
	 * 0: as many as the tracker has slots.
	 */
	u32 psn_window;
	/* Payload bytes of a full packet (NSCC counts in bytes). */
	u32 mtu;
	/* Every this many packets of a message ask for an ACK (and its last). */
	u32 ack_interval;
	/*
	 * Resolution of the caller's timer, in us (a jiffy for timer_list,
	 * 1 for an hrtimer): the least reordering window and half the least
	 * EV charge delay, since no timer can act on a shorter one.
	 */
	u32 timer_granularity_us;
	/* initial_us 0: no RTO at all; only the SACKs find losses. */
	struct mrc_rto_params rto;
};

/* Why a transmission mrc_sender_next() hands out is sent. */
enum mrc_sender_why {
	MRC_SENDER_NEW,
	MRC_SENDER_RETX_LOSS,		/* the SACKs showed it lost */
	MRC_SENDER_RETX_TIMEOUT,	/* the RTO expired */
	MRC_SENDER_RETX_TRIM,		/* NAK(trimmed): congestion */
	MRC_SENDER_RETX_RNR,
	MRC_SENDER_RETX_PLANE_DOWN,	/* its EV's plane went down under it */
};

/* One transmission to make now, already recorded as sent. */
struct mrc_sender_tx {
	u32 psn;
	/* EV to send on; MRC_TX_NIL when no EV is usable (send anyway). */
	u32 ev;
	/* Message ring index and packet number within the message. */
	u32 msg;
	u32 pkt;
	u8 why;		/* enum mrc_sender_why */
	bool ack_req;
};

/* A finished message, in posting order. */
struct mrc_sender_done {
	u64 cookie;
	u8 status;	/* MRC_SENDER_ST_* */
};

struct mrc_sender_stats {
	u64 sent;
	u64 retx_loss;
	u64 retx_timeout;
	u64 retx_trim;
	u64 timeouts;
	/* Those of them in the exponential stage. */
	u64 exp_timeouts;
	u64 ev_retired;
	u64 acks_invalid;
	/* EV charges withdrawn: the copy or its NAK(trimmed) came late. */
	u64 charges_cancelled;
	/* NSCC's answers (MRC_NSCC_DECREASED, _QUICK_ADAPT, _SWITCH_EV). */
	u64 cc_decreases;
	u64 cc_quick_adapts;
	u64 cc_ev_switches;
	/* Probes asked for, and those given up on (no reply in time). */
	u64 probes;
	u64 probes_lost;
	/*
	 * A path came back to a connection stalled since it went bad: what
	 * was in flight was resent at once (mrc_sender_on_probe_reply()).
	 */
	u64 path_back_restarts;
	/*
	 * PSNs in flight on a plane that went down (ours, or the peer's
	 * port), declared lost at once, and their retransmissions.
	 */
	u64 plane_down_lost;
	u64 retx_plane_down;
};

/* One ACK, or the ACK part of a NAK (mrc_sender_on_ack_ex()). */
struct mrc_sender_ack {
	u32 cum_psn;
	/* SACK words (mrc_rx_sack() convention). */
	const u64 *sack;
	unsigned int nwords;
	u32 ev_echo;
	/* The packet that caused it arrived CE-marked. */
	bool ecn;
	/*
	 * An ACK names the copy that caused it: its PSN and the low 32 bits
	 * of its send time. A copy whose EV charge waits arrived after all.
	 */
	bool has_echo;
	u32 echo_psn;
	u32 ts_echo;
};

/* What one ACK changed. */
struct mrc_sender_ack_result {
	u32 delivered;	/* PSNs delivered, cumulatively or selectively */
	u32 acked;	/* PSNs cumulatively acknowledged */
	u32 lost;	/* PSNs it declared lost */
};

/*
 * NSCC's RTT sample from the tracker's (@rtt of @psn, sent at @sent_at):
 * a caller that knows how long the packet waited in its own queues before
 * it left gives the fabric's share. Plain arithmetic, no side effect the
 * sender depends on.
 */
typedef u64 (*mrc_sender_cc_rtt_fn)(void *arg, u32 psn, u64 sent_at,
				    u64 rtt);

struct mrc_sender {
	struct mrc_sender_params p;
	struct mrc_tx_tracker tx;
	struct mrc_rto rto;
	/* Caller's EV set (initialised by it); NULL: no EV choice. */
	struct mrc_ev_set *evs;
	/* Caller's NSCC state; NULL: a fixed window of p.fixed_cwnd PSNs. */
	struct mrc_nscc *cc;
	/* Message ring (power of two): [done, posted) live, [done, sending]. */
	struct mrc_sender_msg *msgs;
	u32 msg_mask;
	u32 done;
	u32 sending;
	u32 posted;
	/* NSCC asked to leave this EV for @cc_avoid_left picks. */
	u32 cc_avoid_ev;
	u32 cc_avoid_left;
	/* Consecutive timeouts without progress. */
	u32 retries;
	/* Time of the last progress (a PSN delivered). */
	u64 progress_us;
	/* The EV set's planes_lost when the sender last looked. */
	u32 planes_lost_seen;
	/* After a failure nothing is sent; every later message is flushed. */
	bool failed;
	/* p.rto.initial_us was 0: no RTO. */
	bool no_rto;
	/* One EV by a connection's key (mrc_ev_single.h), not spraying. */
	bool single_path;
	u32 single_key;
	/*
	 * Caller's, one per tracker slot (mrc_sender_set_pkt_map()): the
	 * packet number each PSN carries. NULL: a message's PSNs are kept
	 * consecutive and the number is the distance from its first.
	 */
	u32 *pkts;
	/* NULL: NSCC gets the tracker's RTT sample as it is. */
	mrc_sender_cc_rtt_fn cc_rtt;
	void *cc_rtt_arg;
	struct mrc_sender_stats stats;
};

/*
 * Starts @s over caller-owned @slots (@nslots, as mrc_tx_init()) and
 * @msgs (@nmsgs, a power of two). @evs and @cc may be NULL. -EINVAL on a
 * bad size or parameter.
 */
int mrc_sender_init(struct mrc_sender *s, const struct mrc_sender_params *p,
		    struct mrc_tx_slot *slots, u32 nslots,
		    struct mrc_sender_msg *msgs, u32 nmsgs,
		    struct mrc_ev_set *evs, struct mrc_nscc *cc,
		    u32 initial_psn);

/* Posts a message of @npkts (>= 1) packets; its ring index, or -ENOSPC. */
int mrc_sender_post(struct mrc_sender *s, u32 npkts, u64 cookie);

/* The same with MRC_SENDER_POST_* @flags. */
int mrc_sender_post_flags(struct mrc_sender *s, u32 npkts, u64 cookie,
			  u32 flags);

/*
 * New RTO bounds (the caller's timeout attribute changed), keeping the
 * estimate; initial_us 0 turns the RTO off.
 */
void mrc_sender_set_rto(struct mrc_sender *s, const struct mrc_rto_params *p);

/* The RTO now, backoff included; 0 when there is none. */
u64 mrc_sender_rto_us(const struct mrc_sender *s);

/* Spray (@on false) or keep to the one EV of @key. */
static inline void mrc_sender_set_single_path(struct mrc_sender *s, bool on,
					      u32 key)
{
	s->single_path = on;
	s->single_key = key;
}

/*
 * Records in @pkts (one per tracker slot, caller-owned) which packet of
 * its message each PSN carries, so that mrc_sender_next_request() may
 * take a PSN among another message's packets and retransmissions still
 * name the right packet. Call before the first transmission.
 */
static inline void mrc_sender_set_pkt_map(struct mrc_sender *s, u32 *pkts)
{
	s->pkts = pkts;
}

/*
 * The ring index of the message @psn (outstanding) belongs to; -1 when
 * @psn is not outstanding or its message was already returned by
 * mrc_sender_poll_done() (after a failure).
 */
int mrc_sender_msg_of(const struct mrc_sender *s, u32 psn);

/* Message @msg (a ring index). */
static inline struct mrc_sender_msg *
mrc_sender_msg_at(struct mrc_sender *s, u32 msg)
{
	return &s->msgs[msg & s->msg_mask];
}

/* Whether a new PSN may go now (the windows), retransmissions aside. */
bool mrc_sender_window_open(const struct mrc_sender *s);

/* Only a retransmission (mrc_sender_next()'s first choice), or false. */
bool mrc_sender_next_retransmit(struct mrc_sender *s, u64 now,
				struct mrc_sender_tx *out);

/*
 * A READ or atomic whose requests are all acknowledged asks again (the
 * next READ segment, or what its responses left missing): one more packet
 * of message @msg on a new PSN, asking for an ACK, when the window allows.
 * Without a packet map, only on the PSN after the message's last: a
 * message's PSNs must stay consecutive, so once anything else went out
 * after it, it may ask again only with a map (mrc_sender_set_pkt_map()).
 */
bool mrc_sender_next_request(struct mrc_sender *s, u64 now, u32 msg,
			     struct mrc_sender_tx *out);

/* A response of message @msg progressed: no retry is counted. */
void mrc_sender_on_response(struct mrc_sender *s, u64 now);

/* Message @msg's response is complete: it finishes once acknowledged. */
void mrc_sender_response_done(struct mrc_sender *s, u32 msg);

/*
 * The next transmission to make at @now: a PSN waiting for retransmission
 * first (on another EV than the one that lost it), else a new PSN when the
 * window and the congestion window allow. False when nothing may go now.
 */
bool mrc_sender_next(struct mrc_sender *s, u64 now,
		     struct mrc_sender_tx *out);

/*
 * An ACK (or the ACK part of a NAK): cumulative @cum_psn, SACK @sack of
 * @nwords (mrc_rx_sack() convention), the EV it echoes, and whether the
 * packet that caused it arrived CE-marked. Returns the tracker's
 * MRC_TX_ACK_* status; an invalid ACK changes nothing.
 */
int mrc_sender_on_ack(struct mrc_sender *s, u64 now, u32 cum_psn,
		      const u64 *sack, unsigned int nwords, u32 ev_echo,
		      bool ecn);

/* The same with the echo of the copy that caused it; @res may be NULL. */
int mrc_sender_on_ack_ex(struct mrc_sender *s, u64 now,
			 const struct mrc_sender_ack *ack,
			 struct mrc_sender_ack_result *res);

/* A NAK(trimmed) of @psn: retransmit it now, blame no EV. */
void mrc_sender_on_trim(struct mrc_sender *s, u64 now, u32 psn);

/*
 * The same for a NAK echoing the trimmed copy's send time @ts_echo: a NAK
 * for a copy older than the PSN's last transmission is stale. Returns the
 * tracker's MRC_TX_NAK_* (MRC_TX_NAK_CHARGE_CANCELLED: an EV charge was
 * withdrawn).
 */
int mrc_sender_on_trim_echo(struct mrc_sender *s, u64 now, u32 psn,
			    u32 ts_echo);

/* An RNR NAK of @psn: retransmit later, blame no EV, count no retry. */
void mrc_sender_on_rnr(struct mrc_sender *s, u64 now, u32 psn);

/*
 * The timer fired at @now (mrc_sender_next_timer()): held losses come
 * due, and, after an RTO without progress, everything in flight expires,
 * the oldest's EV is blamed and a retry is counted; past retry_cnt the
 * oldest message fails and the sender stops. True when something now
 * waits to be sent, a due probe included.
 */
bool mrc_sender_on_timeout(struct mrc_sender *s, u64 now);

/*
 * The same when the caller also found @responses READ or atomic responses
 * that stopped coming for an RTO (it asks them again): they count as a
 * timeout too (backoff, a retry) when nothing in flight expired.
 */
bool mrc_sender_on_timeout_ex(struct mrc_sender *s, u64 now, u32 responses);

/*
 * A probe waits this long for its reply at least, or the measured round
 * trip's bound (mrc_rto_rtt_bound_us(): srtt + 4 x rttvar, the RTO's
 * margin included) when that is longer; then it failed
 * (mrc_sender_next_probe()). Not the RTO: its floor is the application's
 * timeout (67 ms for perftest's, seconds for rdma_cm's), and a probe of a
 * path that died silently would wait that long each time, while one
 * round trip tells whether the path carries packets again. Nor the
 * backed-off RTO: the outage that backs it off must not slow down the
 * probes that find its end (their interval backs off on its own). The
 * floor is for hosts, whose answer may wait for a scheduler: a late reply
 * is not taken, and the EV waits for the next probe.
 */
#define MRC_SENDER_PROBE_TIMEOUT_MIN_US	1000u

/* How long a probe sent now waits for its reply. */
u64 mrc_sender_probe_timeout_us(const struct mrc_sender *s);

/*
 * A probe of EV @ev came back (@ok), or the caller gave up on it. True
 * when it answered a probe still pending (it counted); false for a reply
 * nobody waits for (a duplicate, a forgery, one after the timeout). When
 * it brings the EV back and nothing was delivered since the EV went bad,
 * everything in flight is resent now and the RTO restarts from now
 * without backoff (no retry counted, no EV blamed). Either way the
 * caller sends what waits: a confirming probe may be due at once.
 */
bool mrc_sender_on_probe_reply(struct mrc_sender *s, u64 now, u32 ev,
			       bool ok);

/*
 * The EV to probe now, or -1 (mrc_ev_next_probe()): first, every probe
 * unanswered for mrc_sender_probe_timeout_us() failed (stats.probes_lost).
 * The caller sends a PROBE on the EV returned and reports its reply with
 * mrc_sender_on_probe_reply(); it asks after every event. While PSNs are
 * outstanding, mrc_sender_next_timer() covers the next probe and the next
 * probe timeout, so a connection whose every path went bad is probed
 * back even when nothing else happens. Nothing after a failure.
 */
int mrc_sender_next_probe(struct mrc_sender *s, u64 now);

/*
 * When the timer must fire next (absolute): the RTO, a held loss, or,
 * while PSNs are outstanding, a probe coming due or timing out. False:
 * no timer needed.
 */
bool mrc_sender_next_timer(const struct mrc_sender *s, u64 now, u64 *due);

/* The oldest finished message, removed from the ring; false: none. */
bool mrc_sender_poll_done(struct mrc_sender *s, struct mrc_sender_done *out);

/* Messages posted and not yet returned by mrc_sender_poll_done(). */
static inline u32 mrc_sender_pending(const struct mrc_sender *s)
{
	return s->posted - s->done;
}

#endif /* MRC_SENDER_H */
