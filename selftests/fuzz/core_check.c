// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The invariants core_fuzz asserts after every step (core_fuzz.h). */
#include "core_fuzz.h"

/* @full: also every slot outside [una, next) is free (slower). */
void check_tracker(const struct sim *s, bool full)
{
	const struct mrc_tx_tracker *t = &s->tx;
	u32 out = mrc_tx_outstanding(t), i, n_if = 0, n_sk = 0, n_lo = 0;
	u32 cur, prev = MRC_TX_NIL, walked = 0;
	u64 last_seq = 0;

	FUZZ_ASSERT(t->una <= MRC_PSN_MASK && t->next <= MRC_PSN_MASK);
	FUZZ_ASSERT(out <= t->nslots);
	FUZZ_ASSERT(mrc_psn_distance(t->una, t->lost_low) <= out);
	FUZZ_ASSERT(t->heap_len <= t->reorder_tolerance &&
		    t->reorder_tolerance >= 1 &&
		    t->reorder_tolerance <= MRC_TX_REORDER_MAX);
	/* The loss rule's threshold is the root: a min-heap throughout. */
	for (i = 1; i < t->heap_len; i++)
		FUZZ_ASSERT(t->heap[(i - 1) / 2] <= t->heap[i]);
	FUZZ_ASSERT(t->n_charges <= MRC_TX_PENDING_CHARGES);
	FUZZ_ASSERT(t->reorder_window_mult >= 1 &&
		    t->reorder_window_mult <= MRC_TX_REORDER_WINDOW_MULT_MAX);

	for (i = 0; i < (full ? t->nslots : out); i++) {
		u32 psn = mrc_psn_add(t->una, i);
		const struct mrc_tx_slot *sl = &t->slots[psn & t->mask];

		if (i >= out) {
			FUZZ_ASSERT(sl->state == MRC_TX_FREE);
			continue;
		}
		if (full)
			FUZZ_ASSERT(mrc_tx_slot(t, psn) == sl);
		FUZZ_ASSERT(s->shadow[psn & t->mask].state == 1 &&
			    s->shadow[psn & t->mask].psn == psn);
		switch (sl->state) {
		case MRC_TX_IN_FLIGHT:
			n_if++;
			break;
		case MRC_TX_SACKED:
			n_sk++;
			break;
		case MRC_TX_LOST:
			n_lo++;
			FUZZ_ASSERT(sl->cause != MRC_TX_CAUSE_NONE);
			FUZZ_ASSERT(!mrc_psn_before(psn, t->lost_low));
			break;
		default:
			FUZZ_ASSERT(0);
		}
	}
	FUZZ_ASSERT(n_if == t->n_in_flight);
	FUZZ_ASSERT(n_sk == t->n_sacked);
	FUZZ_ASSERT(n_lo == t->n_lost);
	FUZZ_ASSERT(n_if + n_sk + n_lo == out);

	/* The in-flight list: every IN_FLIGHT slot once, in send order. */
	for (cur = t->head; cur != MRC_TX_NIL; cur = t->slots[cur].next) {
		FUZZ_ASSERT(cur < t->nslots);
		FUZZ_ASSERT(t->slots[cur].state == MRC_TX_IN_FLIGHT);
		FUZZ_ASSERT(t->slots[cur].prev == prev);
		FUZZ_ASSERT(walked == 0 || t->slots[cur].seq > last_seq);
		FUZZ_ASSERT(t->slots[cur].seq < t->tx_seq);
		last_seq = t->slots[cur].seq;
		prev = cur;
		FUZZ_ASSERT(++walked <= n_if);
	}
	FUZZ_ASSERT(walked == n_if);
	FUZZ_ASSERT(t->tail == prev);
}

/*
 * Whether the window's bitmap holds @psn, read directly (the core's
 * mrc_rx_received() is instrumented and slow to call per bit).
 */
static bool rx_bit(const struct mrc_rx_window *w, u32 psn)
{
	u32 slot = psn % MRC_RX_WINDOW;

	return w->bitmap[slot / 64] >> (63 - slot % 64) & 1;
}

void check_rx(const struct mrc_rx_window *w)
{
	u32 i, bits = 0, ahead;
	u64 words[MRC_RX_SACK_MAX_WORDS];
	unsigned int n;

	FUZZ_ASSERT(w->epsn <= MRC_PSN_MASK && w->highest <= MRC_PSN_MASK);
	for (i = 0; i < MRC_RX_WINDOW_WORDS; i++)
		bits += (u32)__builtin_popcountll(w->bitmap[i]);
	FUZZ_ASSERT(bits == w->ooo_count);
	FUZZ_ASSERT(!mrc_rx_received(w, w->epsn));
	ahead = mrc_psn_distance(w->epsn, mrc_psn_add(w->highest, 1));
	FUZZ_ASSERT(ahead <= MRC_RX_WINDOW);
	FUZZ_ASSERT(w->ooo_count <= ahead);
	FUZZ_ASSERT((w->ooo_count == 0) == (ahead == 0));
	FUZZ_ASSERT(mrc_rx_missing(w) == ahead - w->ooo_count);

	n = mrc_rx_sack(w, words, MRC_RX_SACK_MAX_WORDS);
	FUZZ_ASSERT(n <= MRC_RX_SACK_MAX_WORDS);
	FUZZ_ASSERT((n == 0) == (w->ooo_count == 0));
	for (i = 0; i < 64 * n; i++) {
		u32 psn = mrc_psn_add(w->epsn, 1 + i);
		bool bit = words[i / 64] & ((u64)1 << (63 - i % 64));

		FUZZ_ASSERT(bit == (i + 1 < ahead && rx_bit(w, psn)));
	}
}

static void check_ev(const struct mrc_ev_set *set)
{
	u32 i, usable = 0, p;
	u32 per_plane[MRC_EV_MAX_PLANES] = { 0 };

	for (i = 0; i < set->n_evs; i++) {
		const struct mrc_ev *e = &set->evs[i];

		FUZZ_ASSERT(e->state <= MRC_EV_UNKNOWN);
		FUZZ_ASSERT(e->plane < set->n_planes);
		if (mrc_ev_usable(set, i)) {
			usable++;
			per_plane[e->plane]++;
		}
	}
	FUZZ_ASSERT(usable == mrc_ev_usable_count(set));
	for (p = 0; p < set->n_planes; p++)
		if (!set->plane_flags[p])
			FUZZ_ASSERT(per_plane[p] == set->plane_usable[p]);
}

void check_all(const struct sim *s, bool full)
{
	u64 rto = mrc_rto_us(&s->rto);

	check_tracker(s, full);
	check_rx(&s->rcv.win);
	check_ev(&s->set);
	FUZZ_ASSERT(rto >= s->rto_params.min_us && rto <= s->rto_params.max_us);
	FUZZ_ASSERT(s->rto.backoff <= MRC_RTO_MAX_BACKOFF);
	if (s->cc_enabled)
		FUZZ_ASSERT(s->cc.cwnd >= s->cc.p.mtu &&
			    s->cc.cwnd <= s->cc.p.max_cwnd);
	FUZZ_ASSERT(s->completed + mrc_tx_outstanding(&s->tx) == s->sent);
}

void check_lost(const struct sim *s, const struct mrc_tx_ack_result *r)
{
	u32 i;

	FUZZ_ASSERT(r->lost_reported <= r->lost_count &&
		    r->lost_reported <= MRC_TX_ACK_MAX_LOST);
	for (i = 0; i < r->lost_reported; i++) {
		const struct mrc_tx_slot *slot;

		slot = mrc_tx_slot(&s->tx, r->lost[i].psn);
		FUZZ_ASSERT(slot);
		FUZZ_ASSERT(slot->state == MRC_TX_LOST);
	}
}
