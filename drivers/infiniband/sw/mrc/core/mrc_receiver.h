/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The responder's protocol decisions for one QP: whether an arriving
 * request PSN is new, a duplicate or out of the window; whether to answer
 * it with an ACK (and its cumulative and selective content) or a
 * NAK(trimmed); and which messages are complete, in PSN order. It wraps
 * the receive window of mrc_sack.h. Documentation/protocol-core.rst
 * describes the event model.
 *
 * Protocol core: plain C, no allocation, no clock, no locking, no globals;
 * the caller embeds the state and serialises calls on it.
 */
#ifndef MRC_RECEIVER_H
#define MRC_RECEIVER_H

#include "mrc_core_types.h"
#include "mrc_sack.h"

/* Flags of an arriving request packet. */
#define MRC_RECEIVER_F_ACK_REQ		0x1u	/* the sender asks for an ACK */
#define MRC_RECEIVER_F_LAST		0x2u	/* last packet of its message */
#define MRC_RECEIVER_F_TRIMMED		0x4u	/* a switch cut its payload */

enum mrc_receiver_action {
	/* New: the caller executes (places) the packet. */
	MRC_RECEIVER_DELIVER,
	/* Already received: not executed again. */
	MRC_RECEIVER_DUPLICATE,
	/* Trimmed: not received; NAK it so the sender resends at once. */
	MRC_RECEIVER_TRIMMED,
	/*
	 * Out of the window, or a window or more past a completion not yet
	 * polled (mrc_receiver_poll_done()): dropped, no answer.
	 */
	MRC_RECEIVER_DROP,
};

/* The answer to send, when mrc_receiver_verdict.reply is set. */
struct mrc_receiver_reply {
	bool nak_trimmed;
	u32 nak_psn;
	u32 cum_psn;
	u32 nwords;
	u64 sack[MRC_RX_SACK_MAX_WORDS];
};

struct mrc_receiver_verdict {
	u8 action;	/* enum mrc_receiver_action */
	bool reply;
};

struct mrc_receiver_stats {
	u64 delivered;
	u64 duplicates;
	u64 trimmed;
	u64 dropped;
	u64 acks;
};

struct mrc_receiver {
	struct mrc_rx_window win;
	/*
	 * Last-packet-of-message marks for PSNs in the window, indexed as
	 * the window's bitmap: a message completes when epsn passes it.
	 */
	u64 last[MRC_RX_WINDOW_WORDS];
	/* PSNs from here to epsn are yet to be scanned for completions. */
	u32 scan;
	struct mrc_receiver_stats stats;
};

void mrc_receiver_init(struct mrc_receiver *r, u32 initial_psn);

/*
 * A request packet @psn with MRC_RECEIVER_F_* @flags arrived. Fills
 * @reply when @v->reply says an answer goes back: a duplicate, a trim, a
 * packet that asks, one out of order, or one that closed a hole.
 */
void mrc_receiver_on_packet(struct mrc_receiver *r, u32 psn, u32 flags,
			    struct mrc_receiver_verdict *v,
			    struct mrc_receiver_reply *reply);

/*
 * The next message completed (every PSN up to its last received), in
 * order: the PSN of its last packet. False when none.
 */
bool mrc_receiver_poll_done(struct mrc_receiver *r, u32 *last_psn);

static inline u32 mrc_receiver_epsn(const struct mrc_receiver *r)
{
	return mrc_rx_epsn(&r->win);
}

#endif /* MRC_RECEIVER_H */
