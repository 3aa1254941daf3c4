// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * PSN and SACK tracking: the responder's receive window and the requester's
 * send window with selective retransmission. Protocol core; see mrc_sack.h
 * and Documentation/reliability.rst.
 */
#include "mrc_sack.h"

#define ALL_ONES	(~(u64)0)

/*
 * Build-time checks of the window constants (a negative array size fails
 * the build): the receive window is a power of two of whole words and, with
 * the duplicate range, well inside half the PSN space; so is the send one.
 */
static inline void mrc_sack_build_checks(void)
{
	(void)sizeof(char[1 - 2 * !!(MRC_RX_WINDOW & (MRC_RX_WINDOW - 1))]);
	(void)sizeof(char[1 - 2 * !!(MRC_RX_WINDOW % 64)]);
	(void)sizeof(char[1 - 2 * !(MRC_RX_WINDOW + MRC_RX_DUP_DISTANCE <
				   MRC_PSN_HALF)]);
	(void)sizeof(char[1 - 2 * !!(MRC_TX_MAX_SLOTS &
				     (MRC_TX_MAX_SLOTS - 1))]);
	(void)sizeof(char[1 - 2 * !(MRC_TX_MAX_SLOTS < MRC_PSN_HALF)]);
}

/* Leading zeros of a non-zero word. */
static inline u32 clz64(u64 v)
{
	return (u32)__builtin_clzll(v);
}

/*
 * @n most significant bits starting @off bits below the top, MSB-first:
 * bits (63 - off) down to (64 - off - n). 1 <= n, off + n <= 64.
 */
static inline u64 msb_range(u32 off, u32 n)
{
	return (ALL_ONES << (64 - n)) >> off;
}

/* ---------------------------------------------------------------------- */
/* Receiver                                                                */
/* ---------------------------------------------------------------------- */

static inline u32 rx_slot(u32 psn)
{
	return psn & (MRC_RX_WINDOW - 1);
}

static inline u64 rx_bit(u32 slot)
{
	return (u64)1 << (63 - slot % 64);
}

void mrc_rx_init(struct mrc_rx_window *w, u32 initial_psn)
{
	mrc_sack_build_checks();
	memset(w, 0, sizeof(*w));
	w->epsn = mrc_psn(initial_psn);
	w->highest = mrc_psn_add(w->epsn, MRC_PSN_MASK);
}

/*
 * Clears the run of set bits that starts at epsn's slot (whose bit the
 * caller has just set) and returns its length: how far epsn advances. Works
 * a word at a time: the run's length within a word is the count of leading
 * ones from the starting bit.
 */
static u32 rx_take_run(struct mrc_rx_window *w)
{
	u32 slot = rx_slot(w->epsn);
	u32 run = 0;

	while (run < MRC_RX_WINDOW) {
		u32 idx = slot / 64;
		u32 off = slot % 64;
		u64 rest = ~w->bitmap[idx] << off;
		u32 n = rest ? clz64(rest) : 64 - off;

		if (!n)
			break;
		w->bitmap[idx] &= ~msb_range(off, n);
		run += n;
		if (off + n < 64)
			break;
		slot = rx_slot(slot + n);
	}
	return run;
}

enum mrc_rx_verdict mrc_rx_accept(struct mrc_rx_window *w, u32 psn)
{
	u32 ahead, slot, run;
	u64 bit;

	psn = mrc_psn(psn);
	ahead = mrc_psn_distance(w->epsn, psn);
	if (ahead >= MRC_RX_WINDOW) {
		/* ahead != 0, so behind >= 1 */
		if (mrc_psn_distance(psn, w->epsn) <= MRC_RX_DUP_DISTANCE)
			return MRC_RX_DUPLICATE;
		return MRC_RX_OUT_OF_WINDOW;
	}

	slot = rx_slot(psn);
	bit = rx_bit(slot);
	if (w->bitmap[slot / 64] & bit)
		return MRC_RX_DUPLICATE;

	if (mrc_psn_after(psn, w->highest))
		w->highest = psn;
	w->bitmap[slot / 64] |= bit;
	if (ahead) {
		w->ooo_count++;
		return MRC_RX_NEW;
	}

	/* psn == epsn: the run includes it, the rest were held out of order */
	run = rx_take_run(w);
	w->ooo_count -= run - 1;
	w->epsn = mrc_psn_add(w->epsn, run);
	return MRC_RX_NEW;
}

bool mrc_rx_received(const struct mrc_rx_window *w, u32 psn)
{
	u32 ahead, slot;

	psn = mrc_psn(psn);
	ahead = mrc_psn_distance(w->epsn, psn);
	if (ahead < MRC_RX_WINDOW) {
		slot = rx_slot(psn);
		return (w->bitmap[slot / 64] & rx_bit(slot)) != 0;
	}
	return mrc_psn_distance(psn, w->epsn) <= MRC_RX_DUP_DISTANCE;
}

/* The 64 bits for slots slot .. slot + 63 (mod window), MSB-first. */
static u64 rx_bits64(const struct mrc_rx_window *w, u32 slot)
{
	u32 idx = slot / 64;
	u32 off = slot % 64;
	u64 v = w->bitmap[idx] << off;

	if (off)
		v |= w->bitmap[(idx + 1) % MRC_RX_WINDOW_WORDS] >> (64 - off);
	return v;
}

unsigned int mrc_rx_sack(const struct mrc_rx_window *w, u64 *words,
			 unsigned int max_words)
{
	u32 nbits, start, rem;
	unsigned int n, i;

	if (!w->ooo_count || !max_words)
		return 0;

	/* bits for epsn + 1 .. highest */
	nbits = mrc_psn_distance(w->epsn, w->highest);
	n = (nbits + 63) / 64;
	if (n > max_words)
		n = max_words;

	start = rx_slot(w->epsn + 1);
	for (i = 0; i < n; i++)
		words[i] = rx_bits64(w, rx_slot(start + 64 * i));

	/* Past highest the ring wraps onto slots of PSNs before it. */
	if (nbits < 64 * n) {
		rem = nbits - 64 * (n - 1);
		words[n - 1] &= ALL_ONES << (64 - rem);
	}
	return n;
}

/* ---------------------------------------------------------------------- */
/* Sender                                                                  */
/* ---------------------------------------------------------------------- */

static inline u32 tx_idx(const struct mrc_tx_tracker *t, u32 psn)
{
	return psn & t->mask;
}

/* The PSN in [una, una + nslots) that owns slot @idx. */
static inline u32 tx_idx_psn(const struct mrc_tx_tracker *t, u32 idx)
{
	return mrc_psn_add(t->una, (idx - t->una) & t->mask);
}

static inline bool tx_outstanding(const struct mrc_tx_tracker *t, u32 psn)
{
	return mrc_psn_distance(t->una, psn) <
	       mrc_psn_distance(t->una, t->next);
}

/* In-flight list: transmissions in send (sequence) order. */
static void tx_list_append(struct mrc_tx_tracker *t, u32 idx)
{
	struct mrc_tx_slot *s = &t->slots[idx];

	s->next = MRC_TX_NIL;
	s->prev = t->tail;
	if (t->tail != MRC_TX_NIL)
		t->slots[t->tail].next = idx;
	else
		t->head = idx;
	t->tail = idx;
	t->n_in_flight++;
}

static void tx_list_remove(struct mrc_tx_tracker *t, u32 idx)
{
	struct mrc_tx_slot *s = &t->slots[idx];

	if (s->prev != MRC_TX_NIL)
		t->slots[s->prev].next = s->next;
	else
		t->head = s->next;
	if (s->next != MRC_TX_NIL)
		t->slots[s->next].prev = s->prev;
	else
		t->tail = s->prev;
	s->prev = MRC_TX_NIL;
	s->next = MRC_TX_NIL;
	t->n_in_flight--;
}

/*
 * Min-heap of the largest delivered sequence numbers, at most
 * reorder_tolerance of them. Once it holds that many, its root is the
 * reorder_tolerance-th largest sequence number ever delivered, and a
 * transmission with a smaller sequence number has at least
 * reorder_tolerance later transmissions delivered: it is lost.
 */
static void tx_heap_sift_down(struct mrc_tx_tracker *t, u32 i)
{
	u64 *h = t->heap;
	u32 n = t->heap_len;

	for (;;) {
		u32 l = 2 * i + 1;
		u32 r = l + 1;
		u32 m = i;
		u64 tmp;

		if (l < n && h[l] < h[m])
			m = l;
		if (r < n && h[r] < h[m])
			m = r;
		if (m == i)
			return;
		tmp = h[i];
		h[i] = h[m];
		h[m] = tmp;
		i = m;
	}
}

/*
 * Replaces the root by @seq, larger than it. A delivery is nearly always
 * the newest transmission, which belongs at a leaf, so Floyd's order: the
 * hole left by the root goes down to a leaf along the smaller children,
 * one comparison a level where a sift-down makes two, and @seq climbs
 * back from there, rarely more than a level.
 */
static void tx_heap_replace_root(struct mrc_tx_tracker *t, u64 seq)
{
	u64 *h = t->heap;
	u32 n = t->heap_len;
	u32 i = 0, l;

	while ((l = 2 * i + 1) < n) {
		if (l + 1 < n && h[l + 1] < h[l])
			l++;
		h[i] = h[l];
		i = l;
	}
	while (i && h[(i - 1) / 2] > seq) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = seq;
}

static void tx_heap_push(struct mrc_tx_tracker *t, u64 seq)
{
	u64 *h = t->heap;
	u32 i;

	if (t->heap_len < t->reorder_tolerance) {
		i = t->heap_len++;
		while (i && h[(i - 1) / 2] > seq) {
			h[i] = h[(i - 1) / 2];
			i = (i - 1) / 2;
		}
		h[i] = seq;
		return;
	}
	if (seq <= h[0])
		return;
	tx_heap_replace_root(t, seq);
}

static void tx_heap_pop(struct mrc_tx_tracker *t)
{
	t->heap[0] = t->heap[--t->heap_len];
	tx_heap_sift_down(t, 0);
}

bool mrc_tx_init(struct mrc_tx_tracker *t, struct mrc_tx_slot *slots,
		 u32 nslots, u32 initial_psn)
{
	u32 i;

	memset(t, 0, sizeof(*t));
	if (!slots || !nslots || (nslots & (nslots - 1)) ||
	    nslots > MRC_TX_MAX_SLOTS)
		return false;

	for (i = 0; i < nslots; i++) {
		memset(&slots[i], 0, sizeof(slots[i]));
		slots[i].prev = MRC_TX_NIL;
		slots[i].next = MRC_TX_NIL;
	}
	t->slots = slots;
	t->nslots = nslots;
	t->mask = nslots - 1;
	t->window = nslots;
	t->una = mrc_psn(initial_psn);
	t->next = t->una;
	t->lost_low = t->una;
	t->head = MRC_TX_NIL;
	t->tail = MRC_TX_NIL;
	t->reorder_tolerance = MRC_TX_REORDER_DEFAULT;
	t->reorder_window_mult = 1;
	return true;
}

void mrc_tx_set_path_evidence(struct mrc_tx_tracker *t, bool on,
			      u64 reorder_time, u64 window_floor)
{
	t->path_evidence = on;
	t->reorder_time = reorder_time;
	t->reorder_window_floor = window_floor;
	if (!on)
		t->loss_due_valid = false;
}

u64 mrc_tx_reorder_window(const struct mrc_tx_tracker *t)
{
	u64 wnd = t->min_rtt_valid ? t->min_rtt / 4 : 0;

	if (wnd < t->reorder_window_floor)
		wnd = t->reorder_window_floor;
	wnd *= t->reorder_window_mult;
	if (t->reorder_time && wnd > t->reorder_time)
		wnd = t->reorder_time;
	return wnd;
}

void mrc_tx_set_charge_delay(struct mrc_tx_tracker *t, u64 delay)
{
	t->charge_delay = delay;
}

bool mrc_tx_loss_due(const struct mrc_tx_tracker *t, u64 *due)
{
	bool valid = t->loss_due_valid;
	u64 first = t->loss_due;
	u32 i;

	for (i = 0; i < t->n_charges; i++) {
		if (!valid || t->charges[i].due < first)
			first = t->charges[i].due;
		valid = true;
	}
	if (valid)
		*due = first;
	return valid;
}

/*
 * Keeps the EV charge of a loss on evidence for charge_delay; false when
 * there is no delay or no room (the caller charges it now).
 */
static bool tx_defer_charge(struct mrc_tx_tracker *t, u32 psn,
			    const struct mrc_tx_slot *s, u64 now)
{
	struct mrc_tx_charge *c;

	if (!t->charge_delay || t->n_charges >= MRC_TX_PENDING_CHARGES)
		return false;
	c = &t->charges[t->n_charges++];
	c->due = now + t->charge_delay;
	c->sent_at = s->sent_at;
	c->seq = s->seq;
	c->psn = psn;
	c->ev = s->ev;
	c->declared_ts = (u32)now;
	return true;
}

static void tx_drop_charge(struct mrc_tx_tracker *t, u32 i)
{
	t->charges[i] = t->charges[--t->n_charges];
}

/*
 * A NAK(trimmed) of @psn's copy stamped @ts: withdraws the pending charge
 * of that copy, sent no later than @ts and declared lost after it (its
 * retransmission, stamped later still, is not it).
 */
static bool tx_cancel_charge(struct mrc_tx_tracker *t, u32 psn, u32 ts)
{
	u32 i;

	for (i = 0; i < t->n_charges; i++) {
		const struct mrc_tx_charge *c = &t->charges[i];

		if (c->psn == psn && (s32)(ts - (u32)c->sent_at) >= 0 &&
		    (s32)(ts - c->declared_ts) < 0) {
			tx_drop_charge(t, i);
			return true;
		}
	}
	return false;
}

/* Withdraws the pending charges of copies of @psn sent before @s's. */
static void tx_cancel_earlier_charges(struct mrc_tx_tracker *t, u32 psn,
				      const struct mrc_tx_slot *s)
{
	u32 i = 0;

	while (i < t->n_charges) {
		if (t->charges[i].psn == psn &&
		    t->charges[i].sent_at < s->sent_at)
			tx_drop_charge(t, i);
		else
			i++;
	}
}

/* The pending charge of @s's current copy of @psn, if any, is withdrawn. */
static void tx_cancel_copy_charge(struct mrc_tx_tracker *t, u32 psn,
				  const struct mrc_tx_slot *s)
{
	u32 i;

	for (i = 0; i < t->n_charges; i++) {
		if (t->charges[i].psn == psn &&
		    t->charges[i].sent_at == s->sent_at) {
			tx_drop_charge(t, i);
			return;
		}
	}
}

void mrc_tx_set_charge_patience(struct mrc_tx_tracker *t, u64 patience)
{
	t->charge_patience = patience;
}

/*
 * A charge come due whose EV has delivered a transmission sent after the
 * copy (mrc_tx_set_charge_patience()) waits until the copy is
 * charge_patience old: true when it does, its due moved.
 */
static bool tx_charge_waits_on(struct mrc_tx_tracker *t,
			       struct mrc_tx_charge *c, u64 now)
{
	u64 last = c->sent_at + t->charge_patience;

	if (!t->charge_patience || c->ev >= MRC_TX_EV_TRACKED ||
	    t->ev_delivered[c->ev] <= c->seq + 1 || now >= last)
		return false;
	c->due = last;
	return true;
}

u32 mrc_tx_due_charges(struct mrc_tx_tracker *t, u64 now,
		       struct mrc_tx_lost *out, u32 max)
{
	u32 i = 0, n = 0;

	while (i < t->n_charges && n < max) {
		if (t->charges[i].due > now ||
		    tx_charge_waits_on(t, &t->charges[i], now)) {
			i++;
			continue;
		}
		out[n].psn = t->charges[i].psn;
		out[n].ev = t->charges[i].ev;
		out[n].deferred = false;
		n++;
		/* The last one moves into @i: look at @i again. */
		tx_drop_charge(t, i);
	}
	return n;
}

void mrc_tx_ack_asked(struct mrc_tx_tracker *t, u32 psn)
{
	psn = mrc_psn(psn);
	if (!tx_outstanding(t, psn))
		return;
	t->ack_asked_valid = true;
	t->ack_asked_psn = psn;
	t->ack_asked_seq = t->slots[tx_idx(t, psn)].seq;
}

bool mrc_tx_unasked_tail(const struct mrc_tx_tracker *t)
{
	const struct mrc_tx_slot *s;

	if (t->tail == MRC_TX_NIL)
		return false;
	if (!t->ack_asked_valid)
		return true;
	if (t->slots[t->tail].seq <= t->ack_asked_seq)
		return false;
	if (!tx_outstanding(t, t->ack_asked_psn))
		return true;
	s = &t->slots[tx_idx(t, t->ack_asked_psn)];
	return s->state != MRC_TX_IN_FLIGHT || s->seq != t->ack_asked_seq;
}

void mrc_tx_set_reorder_tolerance(struct mrc_tx_tracker *t, u32 tolerance)
{
	if (tolerance < 1)
		tolerance = 1;
	if (tolerance > MRC_TX_REORDER_MAX)
		tolerance = MRC_TX_REORDER_MAX;
	t->reorder_tolerance = tolerance;
	/* The largest @tolerance of the largest heap_len stay exact. */
	while (t->heap_len > tolerance)
		tx_heap_pop(t);
}

const struct mrc_tx_slot *mrc_tx_slot(const struct mrc_tx_tracker *t,
				      u32 psn)
{
	psn = mrc_psn(psn);
	if (!tx_outstanding(t, psn))
		return NULL;
	return &t->slots[tx_idx(t, psn)];
}

static void tx_transmit(struct mrc_tx_tracker *t, u32 idx, u32 ev, u64 now)
{
	struct mrc_tx_slot *s = &t->slots[idx];

	s->state = MRC_TX_IN_FLIGHT;
	s->cause = MRC_TX_CAUSE_NONE;
	s->held = 0;
	s->ev = ev;
	s->sent_at = now;
	s->seq = t->tx_seq++;
	tx_list_append(t, idx);
}

u32 mrc_tx_send(struct mrc_tx_tracker *t, u32 ev, u64 now, u32 cookie)
{
	u32 psn = t->next;
	u32 idx = tx_idx(t, psn);

	if (!mrc_tx_can_send(t))
		return MRC_TX_PSN_NONE;

	t->slots[idx].cookie = cookie;
	t->slots[idx].retx_count = 0;
	t->slots[idx].evidence_lost = 0;
	tx_transmit(t, idx, ev, now);
	t->next = mrc_psn_add(psn, 1);
	if (mrc_tx_outstanding(t) > t->peak_outstanding)
		t->peak_outstanding = mrc_tx_outstanding(t);
	return psn;
}

bool mrc_tx_resend(struct mrc_tx_tracker *t, u32 psn, u32 ev, u64 now)
{
	struct mrc_tx_slot *s;
	u32 idx;

	psn = mrc_psn(psn);
	if (!tx_outstanding(t, psn))
		return false;
	idx = tx_idx(t, psn);
	s = &t->slots[idx];
	if (s->state == MRC_TX_LOST)
		t->n_lost--;
	else if (s->state == MRC_TX_IN_FLIGHT)
		tx_list_remove(t, idx);
	else
		return false;

	if (s->retx_count < 0xffff)
		s->retx_count++;
	tx_transmit(t, idx, ev, now);
	return true;
}

static void tx_mark_lost(struct mrc_tx_tracker *t, u32 idx, u32 psn,
			 enum mrc_tx_loss_cause cause)
{
	struct mrc_tx_slot *s = &t->slots[idx];

	tx_list_remove(t, idx);
	s->state = MRC_TX_LOST;
	s->cause = (u8)cause;
	if (!t->n_lost++ || mrc_psn_before(psn, t->lost_low))
		t->lost_low = psn;
}

/*
 * A loss declared on path evidence proved spurious (its NAK(trimmed) or
 * the PSN itself came after all): the reordering window was too short.
 */
static void tx_window_missed(struct mrc_tx_tracker *t, struct mrc_tx_slot *s)
{
	if (!s->evidence_lost)
		return;
	s->evidence_lost = 0;
	if (t->reorder_window_mult < MRC_TX_REORDER_WINDOW_MULT_MAX)
		t->reorder_window_mult *= 2;
	t->evidence_losses = 0;
}

/* A loss declared on path evidence, once its window had passed. */
static void tx_evidence_loss(struct mrc_tx_tracker *t, struct mrc_tx_slot *s)
{
	s->evidence_lost = 1;
	if (++t->evidence_losses < MRC_TX_REORDER_WINDOW_DECAY)
		return;
	t->evidence_losses = 0;
	if (t->reorder_window_mult > 1)
		t->reorder_window_mult /= 2;
}

/* Per-ACK bookkeeping for the RTT sample. */
struct tx_ack_ctx {
	const struct mrc_tx_slot *newest;
	u32 newest_psn;
	struct mrc_tx_ack_result *res;
	u64 now;
};

/*
 * Slot @idx (IN_FLIGHT or LOST) has been delivered: take it out of the
 * in-flight list or the lost count and feed its sequence number to the
 * loss rule. The caller sets the new state.
 */
static void tx_delivered(struct mrc_tx_tracker *t, u32 idx,
			 struct tx_ack_ctx *ctx)
{
	struct mrc_tx_slot *s = &t->slots[idx];

	if (s->state == MRC_TX_IN_FLIGHT) {
		tx_list_remove(t, idx);
		/*
		 * Resent less than the least RTT ago: that copy cannot have
		 * made the round trip, an earlier one arrived (RFC 8985,
		 * 6.2), and the EV of the copy declared lost is not to blame.
		 */
		if (s->retx_count && t->min_rtt_valid &&
		    ctx->now >= s->sent_at && ctx->now - s->sent_at < t->min_rtt)
			tx_cancel_earlier_charges(t, tx_idx_psn(t, idx), s);
	} else {
		t->n_lost--;
		ctx->res->spurious_count++;
		tx_window_missed(t, s);
		/*
		 * Not resent yet, and never before: the copy declared lost
		 * is the one that arrived, so its EV lost nothing.
		 */
		if (!s->retx_count)
			tx_cancel_copy_charge(t, tx_idx_psn(t, idx), s);
	}
	tx_heap_push(t, s->seq);
	/*
	 * Path evidence only from a PSN sent once (Karn): for a resent one
	 * the ACK cannot say which copy arrived, and crediting the latest
	 * copy's EV would condemn everything sent before it there. After a
	 * timeout, whose originals arrive late, that retired EVs in a run.
	 */
	if (s->ev < MRC_TX_EV_TRACKED && !s->retx_count &&
	    s->seq >= t->ev_delivered[s->ev])
		t->ev_delivered[s->ev] = s->seq + 1;
	if (!ctx->newest || s->seq > ctx->newest->seq) {
		ctx->newest = s;
		ctx->newest_psn = tx_idx_psn(t, idx);
	}
}

/*
 * A SACK bitmap may only mention PSNs cum + 1 .. next - 1: @limit bits.
 * True when no bit at or beyond @limit is set.
 */
static bool tx_sack_fits(const u64 *words, unsigned int nwords, u32 limit)
{
	unsigned int i;

	for (i = 0; i < nwords; i++) {
		u64 allowed;

		if ((u64)i * 64 + 64 <= limit)
			continue;
		if ((u64)i * 64 >= limit)
			allowed = 0;
		else
			allowed = ALL_ONES << (64 - (limit - i * 64));
		if (words[i] & ~allowed)
			return false;
	}
	return true;
}

/*
 * The count rule holds for in-flight @s; in path-evidence mode, is it
 * older than reorder_time, or has its EV delivered something sent after
 * it, at least the reordering window @wnd ago? The window starts when
 * the loss rule first sees that evidence, not at @s's send time as in
 * RACK: what it waits for is the NAK the responder sent before the ACK
 * that brought the evidence, so only the return trip's reordering
 * counts. Timed from the send, the wait would shrink by the gap between
 * the two packets' departures, which on a trimming fabric is often more
 * than a window (the window clocks a queue pair's packets out, and the
 * spray puts the next one on the same EV several packets later). A loss
 * held back moves loss_due to when it comes due.
 */
enum tx_verdict {
	TX_NOT_LOST,
	TX_LOST,
	TX_LOST_ON_EVIDENCE,
};

static enum tx_verdict tx_loss_evidence(struct mrc_tx_tracker *t,
					struct mrc_tx_slot *s, u64 now,
					u64 wnd)
{
	u64 due;

	if (!t->path_evidence || s->ev >= MRC_TX_EV_TRACKED)
		return TX_LOST;
	if (t->reorder_time && now >= s->sent_at &&
	    now - s->sent_at >= t->reorder_time)
		return TX_LOST;
	if (t->ev_delivered[s->ev] <= s->seq + 1)
		return TX_NOT_LOST;
	if (!s->held) {
		s->held = 1;
		s->evidence_at = now;
	}
	due = s->evidence_at + wnd;
	if (now >= due)
		return TX_LOST_ON_EVIDENCE;
	if (!t->loss_due_valid || due < t->loss_due) {
		t->loss_due = due;
		t->loss_due_valid = true;
	}
	return TX_NOT_LOST;
}

/*
 * Loss rule, oldest transmission first: every in-flight transmission with
 * reorder_tolerance later ones delivered (and, in path-evidence mode, the
 * evidence of tx_loss_evidence()) is declared lost and reported in @res.
 */
static void tx_detect_losses(struct mrc_tx_tracker *t, u64 now,
			     struct mrc_tx_ack_result *res)
{
	u64 threshold, wnd = mrc_tx_reorder_window(t);
	u32 idx, next, psn;

	t->loss_due_valid = false;
	if (t->heap_len < t->reorder_tolerance)
		return;
	threshold = t->heap[0];
	for (idx = t->head; idx != MRC_TX_NIL &&
	     t->slots[idx].seq < threshold; idx = next) {
		enum tx_verdict v;
		bool deferred = false;

		next = t->slots[idx].next;
		v = tx_loss_evidence(t, &t->slots[idx], now, wnd);
		if (v == TX_NOT_LOST)
			continue;
		psn = tx_idx_psn(t, idx);
		if (v == TX_LOST_ON_EVIDENCE)
			tx_evidence_loss(t, &t->slots[idx]);
		/*
		 * Whatever the rule saw, a late NAK may still call it a trim
		 * (mrc_tx_set_charge_delay()).
		 */
		deferred = tx_defer_charge(t, psn, &t->slots[idx], now);
		if (res->lost_reported < MRC_TX_ACK_MAX_LOST) {
			res->lost[res->lost_reported].psn = psn;
			res->lost[res->lost_reported].ev = t->slots[idx].ev;
			res->lost[res->lost_reported].deferred = deferred;
			res->lost_reported++;
		}
		res->lost_count++;
		tx_mark_lost(t, idx, psn, MRC_TX_CAUSE_REORDER);
	}
}

u32 mrc_tx_detect_losses(struct mrc_tx_tracker *t, u64 now,
			 struct mrc_tx_ack_result *res)
{
	memset(res, 0, sizeof(*res));
	tx_detect_losses(t, now, res);
	return res->lost_count;
}

int mrc_tx_on_ack(struct mrc_tx_tracker *t, u32 cum_psn,
		  const u64 *sack_words, unsigned int nwords, u32 ev_echo,
		  u64 now, struct mrc_tx_ack_result *res)
{
	struct tx_ack_ctx ctx = { .newest = NULL, .res = res, .now = now };
	u32 adv, remaining, psn, idx;
	struct mrc_tx_slot *s;
	unsigned int i;

	memset(res, 0, sizeof(*res));
	cum_psn = mrc_psn(cum_psn);
	adv = mrc_psn_distance(t->una, cum_psn);
	if (adv > mrc_tx_outstanding(t))
		return mrc_psn_before(cum_psn, t->una) ? MRC_TX_ACK_STALE :
							 MRC_TX_ACK_INVALID;
	remaining = mrc_psn_distance(cum_psn, t->next);
	if (!sack_words)
		nwords = 0;
	if (!tx_sack_fits(sack_words, nwords, remaining ? remaining - 1 : 0))
		return MRC_TX_ACK_INVALID;

	t->last_ev_echo = ev_echo;

	/* Cumulative part: everything before cum_psn. */
	res->acked_first = t->una;
	res->acked_count = adv;
	for (psn = t->una; psn != cum_psn; psn = mrc_psn_add(psn, 1)) {
		idx = tx_idx(t, psn);
		s = &t->slots[idx];
		if (s->state == MRC_TX_SACKED)
			t->n_sacked--;
		else
			tx_delivered(t, idx, &ctx);
		s->state = MRC_TX_FREE;
	}
	t->una = cum_psn;
	/* Keep the hint inside [una, next] so serial comparisons stay valid. */
	if (mrc_psn_before(t->lost_low, t->una))
		t->lost_low = t->una;

	/* Selective part: bit i is PSN cum_psn + 1 + i. */
	for (i = 0; i < nwords; i++) {
		u64 v = sack_words[i];

		while (v) {
			u32 k = clz64(v);

			v &= ~((u64)1 << (63 - k));
			psn = mrc_psn_add(cum_psn, 1 + i * 64 + k);
			idx = tx_idx(t, psn);
			s = &t->slots[idx];
			if (s->state != MRC_TX_IN_FLIGHT &&
			    s->state != MRC_TX_LOST)
				continue;
			tx_delivered(t, idx, &ctx);
			s->state = MRC_TX_SACKED;
			t->n_sacked++;
			res->sacked_count++;
		}
	}

	if (ctx.newest && !ctx.newest->retx_count &&
	    now >= ctx.newest->sent_at) {
		res->rtt = now - ctx.newest->sent_at;
		res->rtt_valid = 1;
		res->rtt_psn = ctx.newest_psn;
		res->rtt_sent_at = ctx.newest->sent_at;
		if (!t->min_rtt_valid || res->rtt < t->min_rtt) {
			t->min_rtt = res->rtt;
			t->min_rtt_valid = true;
		}
	}

	tx_detect_losses(t, now, res);
	return MRC_TX_ACK_OK;
}

static int tx_on_nak(struct mrc_tx_tracker *t, u32 psn,
		     enum mrc_tx_loss_cause cause)
{
	u32 idx;

	psn = mrc_psn(psn);
	if (!tx_outstanding(t, psn))
		return MRC_TX_NAK_IGNORED;
	idx = tx_idx(t, psn);
	if (t->slots[idx].state != MRC_TX_IN_FLIGHT) {
		if (cause == MRC_TX_CAUSE_TRIMMED &&
		    t->slots[idx].state == MRC_TX_LOST)
			tx_window_missed(t, &t->slots[idx]);
		return MRC_TX_NAK_IGNORED;
	}
	tx_mark_lost(t, idx, psn, cause);
	return MRC_TX_NAK_MARKED;
}

int mrc_tx_on_nak_trimmed(struct mrc_tx_tracker *t, u32 psn)
{
	return tx_on_nak(t, psn, MRC_TX_CAUSE_TRIMMED);
}

int mrc_tx_on_nak_trimmed_echo(struct mrc_tx_tracker *t, u32 psn,
			       u32 ts_echo)
{
	struct mrc_tx_slot *s;
	bool cancelled;

	psn = mrc_psn(psn);
	/* Trimmed, not lost: the EV is not to blame. */
	cancelled = tx_cancel_charge(t, psn, ts_echo);
	if (!tx_outstanding(t, psn))
		return cancelled ? MRC_TX_NAK_CHARGE_CANCELLED :
				   MRC_TX_NAK_IGNORED;
	s = &t->slots[tx_idx(t, psn)];
	if ((s32)((u32)s->sent_at - ts_echo) > 0) {
		/* A copy the loss rule replaced: it came too soon? */
		tx_window_missed(t, s);
		return cancelled ? MRC_TX_NAK_CHARGE_CANCELLED :
				   MRC_TX_NAK_IGNORED;
	}
	if (cancelled) {
		/* Still waiting to go: its retransmission answers a trim. */
		if (s->state == MRC_TX_LOST)
			s->cause = MRC_TX_CAUSE_TRIMMED;
		tx_window_missed(t, s);
		return MRC_TX_NAK_CHARGE_CANCELLED;
	}
	return tx_on_nak(t, psn, MRC_TX_CAUSE_TRIMMED);
}

bool mrc_tx_on_delivered_echo(struct mrc_tx_tracker *t, u32 psn,
			      u32 ts_echo)
{
	return tx_cancel_charge(t, mrc_psn(psn), ts_echo);
}

int mrc_tx_on_nak_rnr(struct mrc_tx_tracker *t, u32 psn)
{
	return tx_on_nak(t, psn, MRC_TX_CAUSE_RNR);
}

bool mrc_tx_oldest_unacked(const struct mrc_tx_tracker *t, u32 *psn,
			   u64 *sent_at)
{
	if (t->head == MRC_TX_NIL)
		return false;
	*psn = tx_idx_psn(t, t->head);
	*sent_at = t->slots[t->head].sent_at;
	return true;
}

u32 mrc_tx_on_timeout(struct mrc_tx_tracker *t, u64 now, u64 rto)
{
	u32 count = 0;

	while (t->head != MRC_TX_NIL) {
		u32 idx = t->head;
		u64 sent_at = t->slots[idx].sent_at;

		if (now < sent_at || now - sent_at < rto)
			break;
		tx_mark_lost(t, idx, tx_idx_psn(t, idx), MRC_TX_CAUSE_TIMEOUT);
		count++;
	}
	return count;
}

u32 mrc_tx_on_timeout_reneged(struct mrc_tx_tracker *t)
{
	struct mrc_tx_slot *s;

	if (t->head != MRC_TX_NIL || t->una == t->next)
		return 0;
	s = &t->slots[tx_idx(t, t->una)];
	if (s->state != MRC_TX_SACKED)
		return 0;
	/* Not in the in-flight list: marked here, not by tx_mark_lost(). */
	t->n_sacked--;
	s->state = MRC_TX_LOST;
	s->cause = MRC_TX_CAUSE_TIMEOUT;
	s->evidence_lost = 0;
	t->n_lost++;
	t->lost_low = t->una;
	return 1;
}

u32 mrc_tx_on_paths_down(struct mrc_tx_tracker *t, mrc_tx_ev_dead_fn dead,
			 const void *arg)
{
	u32 idx, next, count = 0;

	for (idx = t->head; idx != MRC_TX_NIL; idx = next) {
		next = t->slots[idx].next;
		if (!dead(arg, t->slots[idx].ev))
			continue;
		tx_mark_lost(t, idx, tx_idx_psn(t, idx),
			     MRC_TX_CAUSE_PLANE_DOWN);
		count++;
	}
	return count;
}

bool mrc_tx_next_lost(const struct mrc_tx_tracker *t, u32 from, u32 *psn)
{
	u32 p;

	if (!t->n_lost)
		return false;
	from = mrc_psn(from);
	if (mrc_psn_before(from, t->una))
		from = t->una;
	for (p = from; tx_outstanding(t, p); p = mrc_psn_add(p, 1)) {
		if (t->slots[tx_idx(t, p)].state == MRC_TX_LOST) {
			*psn = p;
			return true;
		}
	}
	return false;
}

bool mrc_tx_next_to_retransmit(struct mrc_tx_tracker *t, u32 *psn)
{
	if (!mrc_tx_next_lost(t, t->lost_low, psn))
		return false;
	t->lost_low = *psn;
	return true;
}
