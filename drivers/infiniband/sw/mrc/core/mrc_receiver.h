/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The responder's protocol decisions for one QP: whether an arriving
 * request PSN is new, a duplicate or out of the window, and whether a
 * duplicate's response is replayed; whether to answer it with an ACK (and
 * its cumulative and selective content, and the ECN echo), a NAK(trimmed)
 * or an RNR NAK; which messages are complete, and which PSNs the in-order
 * point has passed, in PSN order; and the fatal NAK after which nothing is
 * answered. It wraps the receive window of mrc_sack.h. Documentation/protocol-core.rst
 * describes the event model.
 *
 * Protocol core: plain C, no allocation, no clock, no locking, no globals;
 * the caller embeds the state and serialises calls on it.
 */
#ifndef MRC_RECEIVER_H
#define MRC_RECEIVER_H

#include "mrc_core_types.h"
#include "mrc_sack.h"
#include "mrc_wire.h"

/* Flags of an arriving request packet. */
#define MRC_RECEIVER_F_ACK_REQ		0x1u	/* the sender asks for an ACK */
#define MRC_RECEIVER_F_LAST		0x2u	/* last packet of its message */
#define MRC_RECEIVER_F_TRIMMED		0x4u	/* a switch cut its payload */
#define MRC_RECEIVER_F_ECN_CE		0x8u	/* it arrived marked CE */
/* A READ request or an atomic: its response can be replayed. */
#define MRC_RECEIVER_F_RESPONDS		0x10u
/*
 * The QP's peer takes no NAK(trimmed) (the OCP API's
 * MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED): a trim is answered by nothing,
 * and the sender finds the hole in later ACKs' SACKs, as for a drop.
 */
#define MRC_RECEIVER_F_NO_TRIM_NAK	0x20u

enum mrc_receiver_action {
	/* New: the caller executes (places) the packet. */
	MRC_RECEIVER_DELIVER,
	/* Already received: not executed again. */
	MRC_RECEIVER_DUPLICATE,
	/*
	 * Trimmed: not received; NAK it so the sender resends at once
	 * (unless MRC_RECEIVER_F_NO_TRIM_NAK: then no answer).
	 */
	MRC_RECEIVER_TRIMMED,
	/*
	 * Out of the window, a window or more past a completion not yet
	 * polled (mrc_receiver_poll_done()), or after mrc_receiver_fail():
	 * dropped, no answer.
	 */
	MRC_RECEIVER_DROP,
};

/*
 * The answer to send, when mrc_receiver_verdict.reply is set: an ACK
 * (@syndrome MRC_SYN_ACK) or a NAK of @nak_psn with its syndrome
 * (mrc_wire.h), the cumulative PSN and the SACK words (mrc_rx_sack()
 * convention; the wire carries the first MRC_SACK_MAX_WORDS), and whether
 * the request's CE mark is echoed.
 */
struct mrc_receiver_reply {
	u8 syndrome;
	bool ecn_ce;
	u32 nak_psn;
	u32 cum_psn;
	u32 nwords;
	u64 sack[MRC_RX_SACK_MAX_WORDS];
};

struct mrc_receiver_verdict {
	u8 action;	/* enum mrc_receiver_action */
	bool reply;
	/*
	 * A DUPLICATE READ request or atomic (MRC_RECEIVER_F_RESPONDS) that
	 * mrc_receiver_poll_done() has passed, so it was executed: the
	 * requester lost its response, which the caller sends again.
	 */
	bool replay;
};

struct mrc_receiver_stats {
	u64 delivered;
	u64 duplicates;
	u64 trimmed;
	u64 trims_unanswered;	/* of trimmed: MRC_RECEIVER_F_NO_TRIM_NAK */
	u64 dropped;
	u64 rnr;
	u64 acks;
};

/*
 * The result of an executed atomic, kept by MSN so that a repeated request
 * (its PSN again, or a new PSN with its MSN) is answered without executing
 * it twice.
 */
struct mrc_receiver_atomic {
	u64 orig;
	u32 msn;
	bool valid;
};

struct mrc_receiver {
	struct mrc_rx_window win;
	/*
	 * Marks of PSNs for mrc_receiver_poll_done() (a message's last
	 * packet, or mrc_receiver_mark()), indexed as the window's bitmap.
	 */
	u64 last[MRC_RX_WINDOW_WORDS];
	/* PSNs from here to epsn are yet to be scanned for completions. */
	u32 scan;
	/* New PSNs are taken up to this many from epsn (MPR_DEST). */
	u32 window;
	/* mrc_receiver_fail() was called: nothing is answered any more. */
	bool failed;
	/* The caller's mrc_receiver_keep_atomics() array, by MSN. */
	struct mrc_receiver_atomic *atomics;
	u32 atomic_mask;
	struct mrc_receiver_stats stats;
};

void mrc_receiver_init(struct mrc_receiver *r, u32 initial_psn);

/*
 * After mrc_receiver_init(): take new PSNs only up to @psns from the
 * expected one (the OCP API's MPR_DEST, a reordering window smaller than
 * the one the receiver has); those further ahead are dropped, unanswered,
 * as beyond the window. 0, or more than MRC_RX_WINDOW: all of it.
 */
void mrc_receiver_set_window(struct mrc_receiver *r, u32 psns);

/*
 * A request packet @psn with MRC_RECEIVER_F_* @flags arrived: classifies
 * and, when new, accepts it (mrc_receiver_check(), then
 * mrc_receiver_accept()). Fills @reply when @v->reply says an answer goes
 * back: a duplicate, a trim, a packet that asks, one out of order, or one
 * that closed a hole.
 */
void mrc_receiver_on_packet(struct mrc_receiver *r, u32 psn, u32 flags,
			    struct mrc_receiver_verdict *v,
			    struct mrc_receiver_reply *reply);

/*
 * The first half of mrc_receiver_on_packet(), for a caller that must see
 * that a packet is new before it looks for resources (a posted receive):
 * DUPLICATE, TRIMMED and DROP are final, as from mrc_receiver_on_packet().
 * DELIVER changes nothing yet: the caller then calls mrc_receiver_accept()
 * with the same @psn and @flags, or mrc_receiver_rnr(), or nothing (the
 * packet is dropped, unanswered, and resent by the sender later).
 */
void mrc_receiver_check(struct mrc_receiver *r, u32 psn, u32 flags,
			struct mrc_receiver_verdict *v,
			struct mrc_receiver_reply *reply);

/* Records @psn that mrc_receiver_check() found new, and decides its ACK. */
void mrc_receiver_accept(struct mrc_receiver *r, u32 psn, u32 flags,
			 struct mrc_receiver_verdict *v,
			 struct mrc_receiver_reply *reply);

/*
 * @psn, found new, cannot be taken now (its receive is not posted): it
 * stays unreceived and @reply is an RNR NAK of it, so the sender resends
 * it later without blaming its path.
 */
void mrc_receiver_rnr(struct mrc_receiver *r, u32 psn, u32 flags,
		      struct mrc_receiver_reply *reply);

/*
 * The caller acts on @psn, received, when the in-order point passes it:
 * mrc_receiver_poll_done() reports it then, in PSN order with the messages
 * completed. False when @psn is not between the oldest PSN not yet polled
 * and a window past it.
 */
bool mrc_receiver_mark(struct mrc_receiver *r, u32 psn);

/*
 * The next marked PSN the in-order point has passed (every PSN up to it
 * received), in order: the last packet of a completed message, or a PSN
 * of mrc_receiver_mark(). False when none, or after mrc_receiver_fail().
 */
bool mrc_receiver_poll_done(struct mrc_receiver *r, u32 *last_psn);

/*
 * The message of @psn fails with NAK @syndrome: @reply is that NAK, whose
 * cumulative PSN is @psn itself (nothing from it on is acknowledged) and
 * which carries no SACK; @flags are those of the packet being handled,
 * whose CE mark it echoes. From now on the receiver drops everything and
 * answers nothing until mrc_receiver_init().
 */
void mrc_receiver_fail(struct mrc_receiver *r, u32 psn, u8 syndrome,
		       u32 flags, struct mrc_receiver_reply *reply);

/*
 * After mrc_receiver_init(): keep the results of the last @nslots atomics
 * (a power of two, else none are kept) in @slots, which are cleared.
 */
void mrc_receiver_keep_atomics(struct mrc_receiver *r,
			       struct mrc_receiver_atomic *slots, u32 nslots);

/*
 * The atomic of @msn was executed already: its original value in *@orig,
 * to answer without executing it again. False when it was not, or its
 * result is no longer kept.
 */
bool mrc_receiver_atomic_result(const struct mrc_receiver *r, u32 msn,
				u64 *orig);

/* The atomic of @msn was executed and read @orig. */
void mrc_receiver_atomic_executed(struct mrc_receiver *r, u32 msn, u64 orig);

static inline u32 mrc_receiver_epsn(const struct mrc_receiver *r)
{
	return mrc_rx_epsn(&r->win);
}

static inline bool mrc_receiver_failed(const struct mrc_receiver *r)
{
	return r->failed;
}

#endif /* MRC_RECEIVER_H */
