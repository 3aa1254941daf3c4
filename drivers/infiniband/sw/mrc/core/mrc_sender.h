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
};

struct mrc_sender_params {
	/* Timeouts without progress before the oldest message fails. */
	u32 retry_cnt;
	/* PSNs outstanding when NSCC is off. */
	u32 fixed_cwnd;
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
	struct mrc_rto_params rto;
};

/* Why a transmission mrc_sender_next() hands out is sent. */
enum mrc_sender_why {
	MRC_SENDER_NEW,
	MRC_SENDER_RETX_LOSS,		/* the SACKs showed it lost */
	MRC_SENDER_RETX_TIMEOUT,	/* the RTO expired */
	MRC_SENDER_RETX_TRIM,		/* NAK(trimmed): congestion */
	MRC_SENDER_RETX_RNR,
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
	u64 ev_retired;
	u64 acks_invalid;
};

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
	/* After a failure nothing is sent; every later message is flushed. */
	bool failed;
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

/* A NAK(trimmed) of @psn: retransmit it now, blame no EV. */
void mrc_sender_on_trim(struct mrc_sender *s, u64 now, u32 psn);

/* An RNR NAK of @psn: retransmit later, blame no EV, count no retry. */
void mrc_sender_on_rnr(struct mrc_sender *s, u64 now, u32 psn);

/*
 * The timer fired at @now (mrc_sender_next_timer()): held losses come
 * due, and, after an RTO without progress, everything in flight expires,
 * the oldest's EV is blamed and a retry is counted; past retry_cnt the
 * oldest message fails and the sender stops. True when something now
 * waits to be sent.
 */
bool mrc_sender_on_timeout(struct mrc_sender *s, u64 now);

/* A probe of EV @ev came back (@ok) or was given up on. */
void mrc_sender_on_probe_reply(struct mrc_sender *s, u64 now, u32 ev,
			       bool ok);

/* The EV to probe now, or -1 (mrc_ev_next_probe()). */
int mrc_sender_next_probe(struct mrc_sender *s, u64 now);

/* When the timer must fire next (absolute); false: no timer needed. */
bool mrc_sender_next_timer(const struct mrc_sender *s, u64 now, u64 *due);

/* The oldest finished message, removed from the ring; false: none. */
bool mrc_sender_poll_done(struct mrc_sender *s, struct mrc_sender_done *out);

/* Messages posted and not yet returned by mrc_sender_poll_done(). */
static inline u32 mrc_sender_pending(const struct mrc_sender *s)
{
	return s->posted - s->done;
}

#endif /* MRC_SENDER_H */
