/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * PSN and SACK tracking for MRC queue pairs: which request PSNs a responder
 * has received (struct mrc_rx_window), and which PSNs a requester has
 * outstanding, has had selectively acknowledged, or must retransmit
 * (struct mrc_tx_tracker).
 *
 * Packets of one QP are sprayed over many paths (entropy values, EVs), so
 * arriving out of order is normal and reliability is selective: the
 * responder acknowledges cumulatively up to its expected PSN and reports
 * what it holds beyond that as a SACK bitmap; the requester retransmits
 * exactly the PSNs it has evidence were lost. Documentation/reliability.rst
 * describes the rules.
 *
 * Protocol core: plain C, no allocation, no locking. The caller owns the
 * storage (embed struct mrc_rx_window; pass an array of slots to the
 * tracker) and serialises calls on one object. All PSNs are 24-bit and
 * compared with the serial arithmetic of mrc_psn.h.
 */
#ifndef MRC_SACK_H
#define MRC_SACK_H

#include "mrc_core_types.h"
#include "mrc_psn.h"

/* ---------------------------------------------------------------------- */
/* Receiver (responder) side                                               */
/* ---------------------------------------------------------------------- */

/*
 * The responder holds PSNs [epsn, epsn + MRC_RX_WINDOW) in a bitmap, so a
 * request may arrive up to MRC_RX_WINDOW - 1 PSNs ahead of the oldest one
 * still missing. A power of two, far below 2^23. A requester's send window
 * must not exceed it (see mrc_tx_init()).
 */
#define MRC_RX_WINDOW		1024u
#define MRC_RX_WINDOW_WORDS	(MRC_RX_WINDOW / 64)

/*
 * How far behind epsn a PSN is still recognised as a duplicate (re-ACKed,
 * never re-executed) rather than dropped as out of window. It covers every
 * PSN a requester can legitimately retransmit: a requester's window is at
 * most MRC_TX_MAX_SLOTS PSNs and always contains the responder's epsn.
 */
#define MRC_RX_DUP_DISTANCE	0x400000u	/* 2^22 */

/* Most 64-bit SACK words a window can need: bits for epsn+1 .. epsn+W-1. */
#define MRC_RX_SACK_MAX_WORDS	((MRC_RX_WINDOW - 1 + 63) / 64)

enum mrc_rx_verdict {
	/* First arrival: recorded; the caller processes the packet. */
	MRC_RX_NEW,
	/* Already received: re-ACK it, do not execute it again. */
	MRC_RX_DUPLICATE,
	/* Too far ahead or too far behind: drop it, state unchanged. */
	MRC_RX_OUT_OF_WINDOW,
};

struct mrc_rx_window {
	/* Expected PSN: every PSN before it has arrived; it itself has not. */
	u32 epsn;
	/* Highest PSN received; epsn - 1 when nothing is held beyond epsn. */
	u32 highest;
	/* PSNs received beyond epsn (bits set in @bitmap). */
	u32 ooo_count;
	/*
	 * Bit for PSN p: slot s = p % MRC_RX_WINDOW lives in bitmap[s / 64]
	 * at bit (63 - s % 64), the same most-significant-first order as the
	 * SACK wire format. Only PSNs in [epsn, epsn + MRC_RX_WINDOW) have
	 * bits, and the bit of epsn is always clear.
	 */
	u64 bitmap[MRC_RX_WINDOW_WORDS];
};

void mrc_rx_init(struct mrc_rx_window *w, u32 initial_psn);

/*
 * Classifies an arriving PSN and, when it is NEW, records it and advances
 * epsn over every PSN now contiguous. With ahead = psn - epsn and
 * behind = epsn - psn (both mod 2^24):
 *   ahead < MRC_RX_WINDOW, bit clear            NEW
 *   ahead < MRC_RX_WINDOW, bit set              DUPLICATE
 *   1 <= behind <= MRC_RX_DUP_DISTANCE          DUPLICATE
 *   anything else                               OUT_OF_WINDOW
 */
enum mrc_rx_verdict mrc_rx_accept(struct mrc_rx_window *w, u32 psn);

/* True when @psn has arrived (or lies in the duplicate range behind epsn). */
bool mrc_rx_received(const struct mrc_rx_window *w, u32 psn);

/*
 * Fills @words with the SACK bitmap and returns how many words it used: 0
 * when nothing is held out of order, else enough words to reach the highest
 * PSN received, at most @max_words (a shorter bitmap simply reports less).
 * Bit i means PSN epsn + 1 + i was received; it lives in words[i / 64] at
 * bit (63 - i % 64), so words[0]'s most significant bit is PSN epsn + 1.
 * Bits past the highest PSN received are zero. Words are in host order; the
 * wire glue converts them to big-endian.
 */
unsigned int mrc_rx_sack(const struct mrc_rx_window *w, u64 *words,
			 unsigned int max_words);

static inline u32 mrc_rx_epsn(const struct mrc_rx_window *w)
{
	return w->epsn;
}

/* Highest PSN received so far (epsn - 1 when nothing is out of order). */
static inline u32 mrc_rx_highest(const struct mrc_rx_window *w)
{
	return w->highest;
}

/* PSNs held beyond epsn. */
static inline u32 mrc_rx_out_of_order(const struct mrc_rx_window *w)
{
	return w->ooo_count;
}

/*
 * PSNs in [epsn, highest] that have not arrived: the gaps a NAK or a loss
 * heuristic would look at. 0 when everything is in order.
 */
static inline u32 mrc_rx_missing(const struct mrc_rx_window *w)
{
	return mrc_psn_distance(w->epsn, mrc_psn_add(w->highest, 1)) -
	       w->ooo_count;
}

/* ---------------------------------------------------------------------- */
/* Sender (requester) side                                                 */
/* ---------------------------------------------------------------------- */

/* Largest send window (slot array) the tracker accepts: a power of two. */
#define MRC_TX_MAX_SLOTS	0x400000u	/* 2^22 */

/*
 * Loss rule: a transmission still in flight is declared lost once at least
 * reorder_tolerance transmissions sent after it have been delivered (SACKed
 * or cumulatively acknowledged). See mrc_tx_set_reorder_tolerance().
 */
#define MRC_TX_REORDER_DEFAULT	3
#define MRC_TX_REORDER_MAX	128

/*
 * The reordering window of path evidence doubles, up to this many times
 * its base, each time a loss it let through proves spurious, and halves
 * after this many losses on evidence that did not (RFC 8985's reo_wnd_mult).
 */
#define MRC_TX_REORDER_WINDOW_MULT_MAX	64
#define MRC_TX_REORDER_WINDOW_DECAY	16

/*
 * EVs below this have their newest delivered transmission tracked, for the
 * path-evidence mode of the loss rule (mrc_tx_set_path_evidence()).
 */
#define MRC_TX_EV_TRACKED	256u

/*
 * Losses declared on path evidence whose EV verdict waits for a late
 * NAK(trimmed) (mrc_tx_set_charge_delay()); beyond this many at once, the
 * next one is charged at once.
 */
#define MRC_TX_PENDING_CHARGES	256u

/* Returned by mrc_tx_send() when the window is full. */
#define MRC_TX_PSN_NONE		0xffffffffu

enum mrc_tx_slot_state {
	/* Not in [una, next): acknowledged, or never used. */
	MRC_TX_FREE,
	/* Sent (or resent) and not yet acknowledged nor declared lost. */
	MRC_TX_IN_FLIGHT,
	/* Selectively acknowledged; waits for the cumulative ACK. */
	MRC_TX_SACKED,
	/* Needs retransmission; mrc_tx_slot.cause says why. */
	MRC_TX_LOST,
};

enum mrc_tx_loss_cause {
	MRC_TX_CAUSE_NONE,
	/* Enough later transmissions were delivered: lost on its EV. */
	MRC_TX_CAUSE_REORDER,
	/* Unacknowledged for longer than the RTO. */
	MRC_TX_CAUSE_TIMEOUT,
	/* A switch trimmed it and the responder NAKed: not an EV loss. */
	MRC_TX_CAUSE_TRIMMED,
	/* The responder had no receive for it (RNR NAK): not an EV loss. */
	MRC_TX_CAUSE_RNR,
	/* Its EV's plane went down while it was in flight. */
	MRC_TX_CAUSE_PLANE_DOWN,
};

/*
 * One per PSN of the send window; slot index is psn & (nslots - 1). The
 * caller allocates the array; the tracker owns its contents but never
 * touches @cookie except to store it.
 */
struct mrc_tx_slot {
	/* Caller's clock at the last (re)transmission. */
	u64 sent_at;
	/* Transmission sequence number of the last (re)transmission. */
	u64 seq;
	/* EV of the last (re)transmission. */
	u32 ev;
	/* Opaque to the tracker: e.g. the WQE or packet descriptor index. */
	u32 cookie;
	/* In-flight transmissions in send order (slot indices). */
	u32 prev;
	u32 next;
	/*
	 * Path-evidence mode: the caller's clock when the loss rule first
	 * found this transmission's EV had delivered a later one; valid
	 * while @held is set (cleared by every (re)transmission).
	 */
	u64 evidence_at;
	/* Retransmissions so far (saturates at 0xffff). */
	u16 retx_count;
	u8 state;	/* enum mrc_tx_slot_state */
	u8 cause;	/* enum mrc_tx_loss_cause, when LOST */
	u8 held;	/* @evidence_at is set: a loss waiting out the window */
	/*
	 * Declared lost on path evidence (kept across retransmissions): a
	 * NAK(trimmed) of the copy, or its delivery, arriving later says the
	 * reordering window was too short.
	 */
	u8 evidence_lost;
};

/*
 * A loss declared in path-evidence mode whose EV has not been charged yet:
 * its PSN, the EV, the low 32 bits of the send time of the copy declared
 * lost and of the time it was declared lost (a NAK(trimmed) echoing a
 * time in between is for that copy: the caller stamps a packet when it
 * leaves, a little after it told the tracker), and when the charge comes
 * due.
 */
struct mrc_tx_charge {
	u64 due;
	/* The copy declared lost: its send time and sequence number. */
	u64 sent_at;
	u64 seq;
	u32 psn;
	u32 ev;
	u32 declared_ts;
};

struct mrc_tx_tracker {
	struct mrc_tx_slot *slots;
	u32 nslots;
	u32 mask;
	/* [una, next) spans fewer PSNs than this (mrc_tx_set_window()). */
	u32 window;
	/* The most PSNs [una, next) ever spanned: what the window allowed. */
	u32 peak_outstanding;
	/* Oldest unacknowledged PSN; una == next when nothing is outstanding. */
	u32 una;
	/* Next PSN to send. */
	u32 next;
	u32 reorder_tolerance;
	u32 n_in_flight;
	u32 n_sacked;
	u32 n_lost;
	/* In [una, next]; no LOST PSN lies before it (a search hint). */
	u32 lost_low;
	/* Oldest and newest in-flight transmissions; MRC_TX_NIL when none. */
	u32 head;
	u32 tail;
	/* Last ev_echo seen in a valid ACK. */
	u32 last_ev_echo;
	/* Sequence number the next (re)transmission gets; never wraps. */
	u64 tx_seq;
	/*
	 * Min-heap of the reorder_tolerance largest sequence numbers ever
	 * delivered; once full, its root is the loss threshold.
	 */
	u32 heap_len;
	u64 heap[MRC_TX_REORDER_MAX];
	/*
	 * Path-evidence mode (mrc_tx_set_path_evidence()): when set, the
	 * loss rule also wants a later transmission delivered on the same
	 * EV at least the reordering window ago, or the transmission older
	 * than reorder_time (0: no age bound).
	 */
	bool path_evidence;
	u64 reorder_time;
	/* Least reordering window (mrc_tx_reorder_window()). */
	u64 reorder_window_floor;
	/* The window's multiplier, and losses on evidence since it moved. */
	u32 reorder_window_mult;
	u32 evidence_losses;
	/* Smallest RTT sample an ACK gave; valid when min_rtt_valid. */
	u64 min_rtt;
	bool min_rtt_valid;
	/*
	 * Earliest time a loss the last run of the loss rule held back for
	 * the reordering window comes due; valid when loss_due_valid.
	 */
	bool loss_due_valid;
	u64 loss_due;
	/* Per EV, sequence number of its newest delivered transmission + 1. */
	u64 ev_delivered[MRC_TX_EV_TRACKED];
	/*
	 * Deferred EV charges (mrc_tx_set_charge_delay()), unordered; 0
	 * delay: losses are charged at once and the array stays empty.
	 */
	u64 charge_delay;
	u64 charge_patience;
	u32 n_charges;
	struct mrc_tx_charge charges[MRC_TX_PENDING_CHARGES];
	/*
	 * The newest transmission that asked the responder for an ACK
	 * (mrc_tx_ack_asked()): its PSN and sequence number.
	 */
	bool ack_asked_valid;
	u32 ack_asked_psn;
	u64 ack_asked_seq;
};

#define MRC_TX_NIL		0xffffffffu

/*
 * Initialises @t over @slots (@nslots: a power of two, at most
 * MRC_TX_MAX_SLOTS, and at most the peer's receive window, MRC_RX_WINDOW for
 * an mrc responder). Returns false, leaving @t unusable, if @nslots is bad.
 */
bool mrc_tx_init(struct mrc_tx_tracker *t, struct mrc_tx_slot *slots,
		 u32 nslots, u32 initial_psn);

/*
 * Sets the loss rule's reorder tolerance, clamped to
 * [1, MRC_TX_REORDER_MAX]. Lowering it takes effect at once; raising it
 * makes detection more conservative until enough new deliveries are seen.
 */
void mrc_tx_set_reorder_tolerance(struct mrc_tx_tracker *t, u32 tolerance);

/*
 * Path-evidence mode of the loss rule, for fabrics that trim instead of
 * dropping: there, an EV's packets stay in order (one path, FIFO queues)
 * and congestion shows as trims, but EVs through unequal queues overtake
 * each other by far more than any reorder tolerance. With @on, a
 * transmission the count rule would declare lost is declared lost only
 * when a transmission sent after it on the same EV was delivered (its EV
 * did lose it) and that evidence is at least the reordering window old
 * (mrc_tx_reorder_window()), or once the transmission is older than
 * @reorder_time (caller's clock units; 0: never by age), which still
 * catches an EV that delivers nothing at all. EVs at or above
 * MRC_TX_EV_TRACKED keep the count rule. Only a delivered PSN that was
 * sent once is evidence against its EV (Karn): the ACK of a resent one
 * may be for a copy on another EV.
 *
 * The window is RACK's (RFC 8985) reordering window, for the reordering
 * that path evidence cannot see: the responder's NAK of a trimmed packet
 * and its ACK of a later packet on the same EV, sent in that order, may
 * come back in the other order (sprayed on different return paths,
 * handled by different CPUs). Held for the window, the trimmed PSN is
 * still in flight when its NAK arrives: one trim, one retransmission, and
 * no EV blamed. @window_floor is the least window, in the caller's clock
 * units (see mrc_tx_reorder_window()).
 */
void mrc_tx_set_path_evidence(struct mrc_tx_tracker *t, bool on,
			      u64 reorder_time, u64 window_floor);

/*
 * The reordering window of path-evidence mode: a quarter of the smallest
 * RTT seen (RACK's default: reordering on a path is a fraction of its
 * round trip), at least the floor the caller gave, times a multiplier,
 * and no more than reorder_time when that is set (by then the age rule
 * decides anyway). As RACK's reo_wnd_mult does on a DSACK, the multiplier
 * doubles (up to MRC_TX_REORDER_WINDOW_MULT_MAX) when a loss the window
 * let through proves spurious: the NAK(trimmed) of the PSN, or the PSN
 * itself, arrives after the loss rule declared it lost on evidence. It
 * halves again after MRC_TX_REORDER_WINDOW_DECAY losses on evidence.
 */
u64 mrc_tx_reorder_window(const struct mrc_tx_tracker *t);

/*
 * Whether the last run of the loss rule held back a loss for the
 * reordering window, or a deferred EV charge waits
 * (mrc_tx_set_charge_delay()), and the earliest time (*@due) one comes
 * due. A caller whose QP may go quiet arms a timer for then and calls
 * mrc_tx_detect_losses() and mrc_tx_due_charges(): no later ACK may come
 * to run the rule again.
 */
bool mrc_tx_loss_due(const struct mrc_tx_tracker *t, u64 *due);

struct mrc_tx_lost;

/*
 * Deferred EV charges. On a trimming fabric a loss declared on path
 * evidence is most often a trimmed PSN whose NAK(trimmed) is merely late:
 * the return trip reordered it behind the ACK that brought the evidence
 * by more than the reordering window. Its retransmission must go at once
 * (the data is needed), but the verdict on its EV can wait: with @delay
 * (caller's clock units; 0, the default, charges at once) every loss the
 * rule declares in path-evidence mode (on evidence, or by age) is
 * reported with mrc_tx_lost.deferred set and kept as a pending charge for
 * @delay. A NAK(trimmed) of the copy declared lost arriving meanwhile
 * (mrc_tx_on_nak_trimmed_echo() returns MRC_TX_NAK_CHARGE_CANCELLED)
 * withdraws the charge: the EV delivered the header, it was congested,
 * not failing. Otherwise mrc_tx_due_charges() hands it to the caller once
 * due: an EV that delivers nothing is still charged, @delay later. Losses
 * by the count rule alone (path evidence off) and timeouts are never
 * deferred. More than MRC_TX_PENDING_CHARGES at once are charged at once.
 */
void mrc_tx_set_charge_delay(struct mrc_tx_tracker *t, u64 delay);

/*
 * How long a deferred charge may wait for the NAK(trimmed) of a copy on
 * an EV that is evidently alive: once the charge delay has passed, a
 * charge whose EV has delivered a transmission sent after the copy (sent
 * once, as for path evidence) waits on until the copy is @patience old
 * (the caller's RTO: a NAK later than that is as good as none). A busy
 * responder, or a return path queued behind an incast, brings NAKs back
 * several smoothed RTTs late; an EV that has gone dead delivers nothing
 * after the copy and is charged after the charge delay alone. 0, the
 * default: no waiting on.
 */
void mrc_tx_set_charge_patience(struct mrc_tx_tracker *t, u64 patience);

/*
 * Takes the deferred charges due at @now: up to @max of them into @out
 * (psn and ev; deferred clear), oldest due first is not guaranteed.
 * Returns how many were taken; call again while it returns @max.
 */
u32 mrc_tx_due_charges(struct mrc_tx_tracker *t, u64 now,
		       struct mrc_tx_lost *out, u32 max);

/* Deferred charges still pending. */
static inline u32 mrc_tx_pending_charges(const struct mrc_tx_tracker *t)
{
	return t->n_charges;
}

/*
 * The transmission of @psn just (re)sent asks the responder for an ACK:
 * remember it. Call after mrc_tx_send() or mrc_tx_resend() of @psn.
 */
void mrc_tx_ack_asked(struct mrc_tx_tracker *t, u32 psn);

/*
 * Whether transmissions in flight may be acknowledged by nobody: the
 * newest in flight went out after the newest transmission that asked for
 * an ACK, and that one is no longer in flight (delivered or declared
 * lost), so no ACK is due for a request. A responder acknowledges what
 * arrives out of order or fills a hole, and what asks; arriving in order,
 * that tail would get no ACK. A sender whose window closed on it must
 * send one more packet that asks, or wait for its RTO. Transmissions in
 * flight older than a delivered request are holes: their arrival is
 * acknowledged.
 */
bool mrc_tx_unasked_tail(const struct mrc_tx_tracker *t);

static inline bool mrc_tx_can_send(const struct mrc_tx_tracker *t)
{
	return mrc_psn_distance(t->una, t->next) < t->window;
}

/*
 * A PSN window smaller than the slots (an MRC QP's MPR): at most @window
 * PSNs outstanding, clamped to [1, nslots]. PSNs already beyond it stay
 * outstanding; nothing new goes until they are acknowledged.
 */
static inline void mrc_tx_set_window(struct mrc_tx_tracker *t, u32 window)
{
	t->window = window < 1 ? 1 : window > t->nslots ? t->nslots : window;
}

/* PSNs in [una, next). */
static inline u32 mrc_tx_outstanding(const struct mrc_tx_tracker *t)
{
	return mrc_psn_distance(t->una, t->next);
}

static inline u32 mrc_tx_una(const struct mrc_tx_tracker *t)
{
	return t->una;
}

static inline u32 mrc_tx_next_psn(const struct mrc_tx_tracker *t)
{
	return t->next;
}

/* Transmissions sent and neither delivered nor declared lost. */
static inline u32 mrc_tx_in_flight(const struct mrc_tx_tracker *t)
{
	return t->n_in_flight;
}

/* PSNs waiting for retransmission (state LOST). */
static inline u32 mrc_tx_lost_count(const struct mrc_tx_tracker *t)
{
	return t->n_lost;
}

/*
 * The slot of @psn when it is in [una, next), else NULL. Read-only: change
 * slots only through the functions below. After mrc_tx_on_ack() the slots
 * of the newly acknowledged PSNs are FREE but keep their cookie, ev and
 * retx_count until the next mrc_tx_send(); read them with mrc_tx_cookie().
 */
const struct mrc_tx_slot *mrc_tx_slot(const struct mrc_tx_tracker *t,
				      u32 psn);

static inline u32 mrc_tx_cookie(const struct mrc_tx_tracker *t, u32 psn)
{
	return t->slots[psn & t->mask].cookie;
}

/*
 * Assigns the next PSN to a first transmission on @ev at time @now and
 * returns it, or MRC_TX_PSN_NONE when the window is full.
 */
u32 mrc_tx_send(struct mrc_tx_tracker *t, u32 ev, u64 now, u32 cookie);

/*
 * Records a retransmission of @psn on @ev at @now: the slot becomes
 * IN_FLIGHT again with a new send time and sequence number and
 * retx_count + 1. Allowed for LOST and IN_FLIGHT PSNs in [una, next);
 * returns false (and changes nothing) otherwise, e.g. for a SACKed PSN.
 */
bool mrc_tx_resend(struct mrc_tx_tracker *t, u32 psn, u32 ev, u64 now);

enum mrc_tx_ack_status {
	MRC_TX_ACK_OK = 0,
	/* cum_psn before una: an older ACK overtaken by a newer one. */
	MRC_TX_ACK_STALE = -1,
	/* cum_psn after next, or a SACK bit at or beyond next. */
	MRC_TX_ACK_INVALID = -2,
};

/* Lost PSNs reported in one mrc_tx_ack_result; see mrc_tx_next_lost(). */
#define MRC_TX_ACK_MAX_LOST	32

struct mrc_tx_lost {
	u32 psn;
	/* The EV the lost transmission went out on. */
	u32 ev;
	/*
	 * Declared on path evidence with a charge delay set: do not charge
	 * the EV now; mrc_tx_due_charges() returns it when due, unless a
	 * late NAK(trimmed) withdrew it (mrc_tx_set_charge_delay()).
	 */
	bool deferred;
};

struct mrc_tx_ack_result {
	/* Newly cumulatively acknowledged: [acked_first, +acked_count). */
	u32 acked_first;
	u32 acked_count;
	/* PSNs newly marked SACKED by this ACK's bitmap. */
	u32 sacked_count;
	/* PSNs this ACK declared lost (cause REORDER) ... */
	u32 lost_count;
	/* ... the first lost_reported of them, in send order, in @lost. */
	u32 lost_reported;
	/* PSNs that were LOST but this ACK shows delivered (spurious). */
	u32 spurious_count;
	/*
	 * RTT sample from the most recently sent transmission this ACK newly
	 * delivered: now - sent_at. Only when that PSN was never
	 * retransmitted (Karn), else rtt_valid is 0.
	 */
	u64 rtt;
	u8 rtt_valid;
	/* That transmission, when rtt_valid: its PSN and send time. */
	u32 rtt_psn;
	u64 rtt_sent_at;
	struct mrc_tx_lost lost[MRC_TX_ACK_MAX_LOST];
};

/*
 * Processes an ACK: @cum_psn is the responder's epsn, @sack_words/@nwords
 * its SACK bitmap (mrc_rx_sack() convention, host order), @ev_echo the EV
 * it echoes (stored as last_ev_echo, otherwise not interpreted). The ACK
 * must satisfy una <= cum_psn <= next and set no bit for a PSN at or beyond
 * next; otherwise nothing changes and STALE or INVALID is returned. A valid
 * ACK acknowledges [una, cum_psn), marks SACKed PSNs, then applies the loss
 * rule. @res is always filled (zeroed on error).
 */
int mrc_tx_on_ack(struct mrc_tx_tracker *t, u32 cum_psn,
		  const u64 *sack_words, unsigned int nwords, u32 ev_echo,
		  u64 now, struct mrc_tx_ack_result *res);

/*
 * Runs the loss rule at @now without an ACK (a timer armed for
 * mrc_tx_loss_due()): losses held for the reordering window whose window
 * has passed are declared lost (cause REORDER), reported in @res as an
 * ACK would (only its lost fields are set; it is zeroed first). Returns
 * res->lost_count.
 */
u32 mrc_tx_detect_losses(struct mrc_tx_tracker *t, u64 now,
			 struct mrc_tx_ack_result *res);

enum mrc_tx_nak_status {
	/* Marked LOST with cause TRIMMED. */
	MRC_TX_NAK_MARKED = 0,
	/* Outside [una, next), or not IN_FLIGHT: nothing to do. */
	MRC_TX_NAK_IGNORED = 1,
	/*
	 * A late NAK for a copy declared lost on path evidence: its deferred
	 * EV charge is withdrawn (mrc_tx_set_charge_delay()). Nothing to
	 * retransmit: the loss rule already did, or will (cause TRIMMED
	 * then, when the PSN still waits as LOST).
	 */
	MRC_TX_NAK_CHARGE_CANCELLED = 2,
};

/*
 * The responder NAKed @psn because a switch trimmed its payload: the PSN
 * needs retransmission now, but the EV delivered the header, so this is
 * congestion, not a path failure (cause MRC_TX_CAUSE_TRIMMED).
 */
int mrc_tx_on_nak_trimmed(struct mrc_tx_tracker *t, u32 psn);

/*
 * As mrc_tx_on_nak_trimmed(), for a NAK that echoes @ts_echo, the low 32
 * bits of the caller's clock when the trimmed copy was sent. A NAK for a
 * copy sent before the PSN's current transmission is stale: that
 * transmission already replaces the trimmed copy (the loss rule declared
 * it lost first), and a second retransmission would arrive twice.
 * Returns MRC_TX_NAK_IGNORED for it, or MRC_TX_NAK_CHARGE_CANCELLED when
 * it withdrew a deferred charge (also after the PSN was acknowledged).
 */
int mrc_tx_on_nak_trimmed_echo(struct mrc_tx_tracker *t, u32 psn,
			       u32 ts_echo);

/*
 * The responder acknowledged the arrival of a copy of @psn stamped
 * @ts_echo (an ACK it sent for that packet: its PSN and echoed time). If
 * that is the copy a pending charge is for (mrc_tx_set_charge_delay()),
 * the loss was reordering, not loss, and the charge is withdrawn: true.
 * Only the echo tells which copy came; the cumulative and selective parts
 * of an ACK do not once the PSN was resent (Karn).
 */
bool mrc_tx_on_delivered_echo(struct mrc_tx_tracker *t, u32 psn,
			      u32 ts_echo);

/* The same for an RNR NAK (cause MRC_TX_CAUSE_RNR): the path delivered. */
int mrc_tx_on_nak_rnr(struct mrc_tx_tracker *t, u32 psn);

/*
 * The oldest in-flight transmission (earliest sent, hence the one an RTO
 * timer should be armed for): its PSN and send time. False when nothing is
 * in flight (LOST PSNs wait for the caller, SACKed ones for the ACK).
 */
bool mrc_tx_oldest_unacked(const struct mrc_tx_tracker *t, u32 *psn,
			   u64 *sent_at);

/*
 * Declares LOST (cause TIMEOUT) every in-flight transmission with
 * now - sent_at >= rto; returns how many. Retry limits are the caller's
 * policy: compare each slot's retx_count with the QP's retry_cnt.
 */
u32 mrc_tx_on_timeout(struct mrc_tx_tracker *t, u64 now, u64 rto);

/*
 * On an RTO with nothing in flight: when the oldest outstanding PSN is
 * SACKED, the peer reneged on it (its cumulative PSN stopped there after
 * a SACK had covered it), and nothing would ever time out or resend it.
 * Declares it LOST (cause TIMEOUT); returns 1, else 0. RFC 6675 drops its
 * SACK scoreboard on an RTO for the same reason.
 */
u32 mrc_tx_on_timeout_reneged(struct mrc_tx_tracker *t);

/* mrc_tx_on_paths_down()'s question: can @ev no longer deliver? */
typedef bool (*mrc_tx_ev_dead_fn)(const void *arg, u32 ev);

/*
 * Declares LOST (cause PLANE_DOWN) every in-flight transmission whose EV
 * @dead says went down under it; returns how many. Its EV is not charged
 * (its plane already retired it) and no retry is counted: the caller
 * resends them at once.
 */
u32 mrc_tx_on_paths_down(struct mrc_tx_tracker *t, mrc_tx_ev_dead_fn dead,
			 const void *arg);

/*
 * Iterates LOST PSNs in PSN order: the first LOST PSN at or after @from
 * (serially; a @from before una starts at una), in *@psn. False when none.
 */
bool mrc_tx_next_lost(const struct mrc_tx_tracker *t, u32 from, u32 *psn);

/*
 * The lowest LOST PSN, in *@psn: the next one to retransmit. Calling
 * mrc_tx_resend() on it and asking again walks all of them in PSN order.
 */
bool mrc_tx_next_to_retransmit(struct mrc_tx_tracker *t, u32 *psn);

#endif /* MRC_SACK_H */
