// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The responder's state machine: see mrc_receiver.h and
 * Documentation/protocol-core.rst.
 */
#include "mrc_receiver.h"

static u64 mrc_receiver_bit(u32 psn)
{
	return 1ull << (63 - (psn % MRC_RX_WINDOW) % 64);
}

static u64 *mrc_receiver_word(struct mrc_receiver *r, u32 psn)
{
	return &r->last[(psn % MRC_RX_WINDOW) / 64];
}

void mrc_receiver_init(struct mrc_receiver *r, u32 initial_psn)
{
	memset(r, 0, sizeof(*r));
	mrc_rx_init(&r->win, initial_psn);
	r->scan = initial_psn & MRC_PSN_MASK;
	r->window = MRC_RX_WINDOW;
}

void mrc_receiver_set_window(struct mrc_receiver *r, u32 psns)
{
	r->window = psns && psns < MRC_RX_WINDOW ? psns : MRC_RX_WINDOW;
}

static void mrc_receiver_fill(struct mrc_receiver *r, u32 flags, u8 syndrome,
			      u32 nak_psn, struct mrc_receiver_reply *reply)
{
	r->stats.acks++;
	reply->syndrome = syndrome;
	reply->nak_psn = syndrome == MRC_SYN_ACK ? 0 : nak_psn;
	reply->ecn_ce = flags & MRC_RECEIVER_F_ECN_CE;
	reply->cum_psn = mrc_rx_epsn(&r->win);
	reply->nwords = mrc_rx_sack(&r->win, reply->sack,
				    MRC_RX_SACK_MAX_WORDS);
}

void mrc_receiver_check(struct mrc_receiver *r, u32 psn, u32 flags,
			struct mrc_receiver_verdict *v,
			struct mrc_receiver_reply *reply)
{
	u32 epsn = mrc_rx_epsn(&r->win);

	v->reply = false;
	v->replay = false;
	psn &= MRC_PSN_MASK;
	if (r->failed) {
		v->action = MRC_RECEIVER_DROP;
		r->stats.dropped++;
		return;
	}
	if (mrc_rx_received(&r->win, psn)) {
		v->action = MRC_RECEIVER_DUPLICATE;
		r->stats.duplicates++;
		/*
		 * Polled means executed: a READ's or an atomic's response
		 * was lost, not its request. One still ahead of the poll
		 * runs when its turn comes, and answers then.
		 */
		v->replay = (flags & MRC_RECEIVER_F_RESPONDS) &&
			    !mrc_psn_in_window(psn, r->scan, MRC_RX_WINDOW);
		v->reply = true;
		mrc_receiver_fill(r, flags, MRC_SYN_ACK, 0, reply);
		return;
	}
	/*
	 * The completion marks are a window-sized ring from scan: a PSN a
	 * window past an unpolled one would share its mark, so it waits
	 * (dropped, resent later) until the caller polls.
	 */
	if (!mrc_psn_in_window(psn, epsn, r->window) ||
	    !mrc_psn_in_window(psn, r->scan, MRC_RX_WINDOW)) {
		v->action = MRC_RECEIVER_DROP;
		r->stats.dropped++;
		return;
	}
	if (flags & MRC_RECEIVER_F_TRIMMED) {
		v->action = MRC_RECEIVER_TRIMMED;
		r->stats.trimmed++;
		if (flags & MRC_RECEIVER_F_NO_TRIM_NAK) {
			r->stats.trims_unanswered++;
			return;
		}
		v->reply = true;
		mrc_receiver_fill(r, flags, MRC_NAK_TRIMMED, psn, reply);
		return;
	}
	v->action = MRC_RECEIVER_DELIVER;
}

void mrc_receiver_accept(struct mrc_receiver *r, u32 psn, u32 flags,
			 struct mrc_receiver_verdict *v,
			 struct mrc_receiver_reply *reply)
{
	u32 epsn = mrc_rx_epsn(&r->win);

	psn &= MRC_PSN_MASK;
	v->action = MRC_RECEIVER_DELIVER;
	v->reply = false;
	v->replay = false;
	mrc_rx_accept(&r->win, psn);
	r->stats.delivered++;
	if (flags & MRC_RECEIVER_F_LAST)
		*mrc_receiver_word(r, psn) |= mrc_receiver_bit(psn);
	/*
	 * ACK what asks, what arrived out of order, and an in-order packet
	 * that closed a hole: nothing else would acknowledge the last of a
	 * sprayed burst to arrive.
	 */
	if (!(flags & MRC_RECEIVER_F_ACK_REQ) && psn == epsn &&
	    mrc_rx_epsn(&r->win) == mrc_psn_add(psn, 1))
		return;
	v->reply = true;
	mrc_receiver_fill(r, flags, MRC_SYN_ACK, 0, reply);
}

void mrc_receiver_on_packet(struct mrc_receiver *r, u32 psn, u32 flags,
			    struct mrc_receiver_verdict *v,
			    struct mrc_receiver_reply *reply)
{
	mrc_receiver_check(r, psn, flags, v, reply);
	if (v->action == MRC_RECEIVER_DELIVER)
		mrc_receiver_accept(r, psn, flags, v, reply);
}

void mrc_receiver_rnr(struct mrc_receiver *r, u32 psn, u32 flags,
		      struct mrc_receiver_reply *reply)
{
	r->stats.rnr++;
	mrc_receiver_fill(r, flags, MRC_NAK_RNR, psn & MRC_PSN_MASK, reply);
}

bool mrc_receiver_mark(struct mrc_receiver *r, u32 psn)
{
	psn &= MRC_PSN_MASK;
	if (!mrc_psn_in_window(psn, r->scan, MRC_RX_WINDOW))
		return false;
	*mrc_receiver_word(r, psn) |= mrc_receiver_bit(psn);
	return true;
}

bool mrc_receiver_poll_done(struct mrc_receiver *r, u32 *last_psn)
{
	u32 epsn = mrc_rx_epsn(&r->win);

	while (!r->failed && r->scan != epsn) {
		u32 psn = r->scan;
		u64 *w = mrc_receiver_word(r, psn), bit = mrc_receiver_bit(psn);

		r->scan = mrc_psn_add(psn, 1);
		if (*w & bit) {
			*w &= ~bit;
			*last_psn = psn;
			return true;
		}
	}
	return false;
}

void mrc_receiver_fail(struct mrc_receiver *r, u32 psn, u8 syndrome,
		       u32 flags, struct mrc_receiver_reply *reply)
{
	r->failed = true;
	r->stats.acks++;
	reply->syndrome = syndrome;
	reply->ecn_ce = flags & MRC_RECEIVER_F_ECN_CE;
	reply->nak_psn = psn & MRC_PSN_MASK;
	reply->cum_psn = psn & MRC_PSN_MASK;
	reply->nwords = 0;
}

void mrc_receiver_keep_atomics(struct mrc_receiver *r,
			       struct mrc_receiver_atomic *slots, u32 nslots)
{
	if (!slots || !nslots || (nslots & (nslots - 1))) {
		r->atomics = NULL;
		r->atomic_mask = 0;
		return;
	}
	memset(slots, 0, nslots * sizeof(*slots));
	r->atomics = slots;
	r->atomic_mask = nslots - 1;
}

bool mrc_receiver_atomic_result(const struct mrc_receiver *r, u32 msn,
				u64 *orig)
{
	const struct mrc_receiver_atomic *a;

	if (!r->atomics)
		return false;
	a = &r->atomics[msn & r->atomic_mask];
	if (!a->valid || a->msn != msn)
		return false;
	*orig = a->orig;
	return true;
}

void mrc_receiver_atomic_executed(struct mrc_receiver *r, u32 msn, u64 orig)
{
	struct mrc_receiver_atomic *a;

	if (!r->atomics)
		return;
	a = &r->atomics[msn & r->atomic_mask];
	a->valid = true;
	a->msn = msn;
	a->orig = orig;
}
