// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The requester's state machine: see mrc_sender.h and
 * Documentation/protocol-core.rst.
 */
#include "mrc_sender.h"

#define MRC_SENDER_NS_PER_US	1000ull

static bool mrc_sender_pow2(u32 n)
{
	return n && !(n & (n - 1));
}

u64 mrc_sender_rto_us(const struct mrc_sender *s)
{
	return s->no_rto ? 0 : mrc_rto_us(&s->rto);
}

/*
 * The EV charge of a loss waits a smoothed RTT (at least two timer ticks)
 * for a late NAK(trimmed) or the copy itself, and on an EV still
 * delivering until the copy is an RTO old: on a sprayed QP a loss by the
 * count rule is weak evidence against its EV.
 */
static void mrc_sender_charge_delay(struct mrc_sender *s)
{
	u64 srtt = mrc_rto_srtt_us(&s->rto);
	u64 least = 2ull * s->p.timer_granularity_us;

	if (!s->evs)
		return;
	mrc_tx_set_charge_delay(&s->tx, srtt > least ? srtt : least);
	mrc_tx_set_charge_patience(&s->tx, mrc_sender_rto_us(s));
}

/*
 * Sprayed EVs overtake one another by whatever their queues differ, while
 * each keeps its own order: a loss needs evidence from its own EV, or an
 * RTO of age. Refreshed as the RTT moves. Without an RTO the count rule
 * stays: nothing else would find the losses of an EV that went dead.
 */
static void mrc_sender_path_evidence(struct mrc_sender *s)
{
	u64 srtt = mrc_rto_srtt_us(&s->rto);
	u64 least = s->p.timer_granularity_us;

	mrc_tx_set_path_evidence(&s->tx, !s->no_rto, mrc_sender_rto_us(s),
				 srtt > least ? srtt : least);
	mrc_sender_charge_delay(s);
}

int mrc_sender_init(struct mrc_sender *s, const struct mrc_sender_params *p,
		    struct mrc_tx_slot *slots, u32 nslots,
		    struct mrc_sender_msg *msgs, u32 nmsgs,
		    struct mrc_ev_set *evs, struct mrc_nscc *cc,
		    u32 initial_psn)
{
	memset(s, 0, sizeof(*s));
	if (!mrc_sender_pow2(nmsgs) || !p->mtu || !p->fixed_cwnd ||
	    !p->ack_interval || !p->timer_granularity_us)
		return -EINVAL;
	if (!mrc_tx_init(&s->tx, slots, nslots, initial_psn))
		return -EINVAL;
	if (p->psn_window)
		mrc_tx_set_window(&s->tx, p->psn_window);
	s->p = *p;
	mrc_rto_init(&s->rto, &p->rto);
	s->no_rto = !p->rto.initial_us;
	s->evs = evs;
	if (evs)
		s->planes_lost_seen = evs->planes_lost;
	s->cc = cc;
	s->msgs = msgs;
	s->msg_mask = nmsgs - 1;
	/*
	 * Sprayed packets overtake one another by about as many as there
	 * are paths: a hole is a loss only after twice that many later
	 * deliveries, or every path's jitter would retire paths.
	 */
	if (evs)
		mrc_tx_set_reorder_tolerance(&s->tx, 2 * evs->n_evs);
	if (evs && evs->n_evs > 1)
		mrc_sender_path_evidence(s);
	else
		mrc_sender_charge_delay(s);
	return 0;
}

static struct mrc_sender_msg *mrc_sender_msg(struct mrc_sender *s, u32 idx)
{
	return &s->msgs[idx & s->msg_mask];
}

void mrc_sender_set_rto(struct mrc_sender *s, const struct mrc_rto_params *p)
{
	s->p.rto = *p;
	s->no_rto = !p->initial_us;
	mrc_rto_set_params(&s->rto, p);
	if (s->tx.path_evidence || (s->evs && s->evs->n_evs > 1))
		mrc_sender_path_evidence(s);
	else
		mrc_sender_charge_delay(s);
}

int mrc_sender_post(struct mrc_sender *s, u32 npkts, u64 cookie)
{
	return mrc_sender_post_flags(s, npkts, cookie, 0);
}

int mrc_sender_post_flags(struct mrc_sender *s, u32 npkts, u64 cookie,
			  u32 flags)
{
	struct mrc_sender_msg *m;

	if (!npkts)
		return -EINVAL;
	if (s->posted - s->done > s->msg_mask)
		return -ENOSPC;
	m = mrc_sender_msg(s, s->posted);
	memset(m, 0, sizeof(*m));
	m->cookie = cookie;
	m->npkts = npkts;
	m->awaits_response = flags & MRC_SENDER_POST_RESPONSE;
	return (int)(s->posted++ & s->msg_mask);
}

/* The spray choice; @avoid: the EV that lost the PSN, or -1. */
static u32 mrc_sender_pick(struct mrc_sender *s, int avoid)
{
	int ev;

	if (!s->evs)
		return MRC_TX_NIL;
	if (avoid < 0 && s->cc_avoid_left) {
		s->cc_avoid_left--;
		avoid = (int)s->cc_avoid_ev;
	}
	if (s->single_path)
		ev = mrc_ev_pick_single(s->evs, s->single_key, avoid);
	else
		ev = mrc_ev_pick(s->evs, avoid);
	return ev < 0 ? MRC_TX_NIL : (u32)ev;
}

static bool mrc_sender_cwnd_open(const struct mrc_sender *s)
{
	if (!mrc_tx_can_send(&s->tx))
		return false;
	if (s->cc)
		return mrc_nscc_can_send(s->cc,
					 mrc_tx_in_flight(&s->tx) * s->p.mtu,
					 s->p.mtu);
	return mrc_tx_outstanding(&s->tx) < s->p.fixed_cwnd;
}

/*
 * NSCC may cut the window under packets that asked no ACK: one more
 * packet, asking, keeps the ACK clock going (mrc_tx_unasked_tail()).
 */
bool mrc_sender_window_open(const struct mrc_sender *s)
{
	if (mrc_sender_cwnd_open(s))
		return true;
	return s->cc && mrc_tx_can_send(&s->tx) && mrc_tx_unasked_tail(&s->tx);
}

static u8 mrc_sender_why(u8 cause)
{
	switch (cause) {
	case MRC_TX_CAUSE_TRIMMED:
		return MRC_SENDER_RETX_TRIM;
	case MRC_TX_CAUSE_TIMEOUT:
		return MRC_SENDER_RETX_TIMEOUT;
	case MRC_TX_CAUSE_REORDER:
		return MRC_SENDER_RETX_LOSS;
	case MRC_TX_CAUSE_PLANE_DOWN:
		return MRC_SENDER_RETX_PLANE_DOWN;
	default:
		return MRC_SENDER_RETX_RNR;
	}
}

static bool mrc_sender_ev_dead(const void *arg, u32 ev)
{
	const struct mrc_ev_set *set = arg;

	return ev < set->n_evs && set->plane_flags[set->evs[ev].plane];
}

/*
 * A plane stopped carrying traffic since the last look (our port, or the
 * peer's): what is in flight on its EVs dies in a queue or at a dead port.
 * Waiting for the RTO would stall every message behind it, so it goes
 * again now on the planes left. No EV is charged (the plane retired them
 * all), no retry is counted and NSCC hears nothing: a dead port says
 * nothing about queues. With no EV left to carry it, it stays for the RTO
 * (which backs off through the outage) and the restart when a path comes
 * back; the next look, once an EV is usable, takes back what is still on
 * a dead plane.
 */
static void mrc_sender_planes_check(struct mrc_sender *s)
{
	if (!s->evs || s->evs->planes_lost == s->planes_lost_seen ||
	    !mrc_ev_usable_count(s->evs))
		return;
	s->planes_lost_seen = s->evs->planes_lost;
	s->stats.plane_down_lost += mrc_tx_on_paths_down(&s->tx,
							mrc_sender_ev_dead,
							s->evs);
}

static bool mrc_sender_retransmit(struct mrc_sender *s, u64 now,
				  struct mrc_sender_tx *out)
{
	const struct mrc_tx_slot *slot;
	struct mrc_sender_msg *m;
	u32 psn;

	mrc_sender_planes_check(s);
	if (!mrc_tx_next_to_retransmit(&s->tx, &psn))
		return false;
	slot = mrc_tx_slot(&s->tx, psn);
	out->why = mrc_sender_why(slot->cause);
	/* Elsewhere than the path that lost it, when there is one. */
	out->ev = mrc_sender_pick(s, slot->ev < MRC_EV_MAX ? (int)slot->ev : -1);
	out->psn = psn;
	out->msg = slot->cookie & s->msg_mask;
	m = mrc_sender_msg(s, slot->cookie);
	out->pkt = s->pkts ? s->pkts[psn & s->tx.mask] :
			     mrc_psn_distance(m->first_psn, psn);
	out->ack_req = true;
	mrc_tx_resend(&s->tx, psn, out->ev, now);
	mrc_tx_ack_asked(&s->tx, psn);
	switch (out->why) {
	case MRC_SENDER_RETX_TRIM:
		s->stats.retx_trim++;
		break;
	case MRC_SENDER_RETX_TIMEOUT:
		s->stats.retx_timeout++;
		break;
	case MRC_SENDER_RETX_LOSS:
		s->stats.retx_loss++;
		break;
	case MRC_SENDER_RETX_PLANE_DOWN:
		s->stats.retx_plane_down++;
		break;
	}
	return true;
}

bool mrc_sender_next_retransmit(struct mrc_sender *s, u64 now,
				struct mrc_sender_tx *out)
{
	return !s->failed && mrc_sender_retransmit(s, now, out);
}

int mrc_sender_msg_of(const struct mrc_sender *s, u32 psn)
{
	const struct mrc_tx_slot *slot = mrc_tx_slot(&s->tx, psn);

	/*
	 * The cookie is the message's ring counter. After a failure every
	 * message is returned while its PSNs stay outstanding, and the ring
	 * entry may hold a later message by now.
	 */
	if (!slot || slot->cookie - s->done >= s->posted - s->done)
		return -1;
	return (int)(slot->cookie & s->msg_mask);
}

bool mrc_sender_next_request(struct mrc_sender *s, u64 now, u32 msg,
			     struct mrc_sender_tx *out)
{
	/* The ring counter of @msg: the tracker keeps counters as cookies. */
	u32 idx = s->done + ((msg - s->done) & s->msg_mask);
	struct mrc_sender_msg *m = mrc_sender_msg(s, idx);

	if (s->failed || idx - s->done >= s->posted - s->done || !m->sent ||
	    m->sent < m->npkts || m->acked < m->npkts ||
	    !mrc_sender_window_open(s))
		return false;
	/*
	 * Without a map a retransmission names the packet by its distance
	 * from the message's first PSN: the request must follow the
	 * message's last PSN, nothing of another message between them.
	 */
	if (!s->pkts && mrc_psn_add(m->first_psn, m->sent) != s->tx.next)
		return false;
	out->ev = mrc_sender_pick(s, -1);
	out->psn = mrc_tx_send(&s->tx, out->ev, now, idx);
	if (out->psn == MRC_TX_PSN_NONE)
		return false;
	out->msg = idx & s->msg_mask;
	out->pkt = m->sent;
	if (s->pkts)
		s->pkts[out->psn & s->tx.mask] = out->pkt;
	out->why = MRC_SENDER_NEW;
	/* Alone among the message's PSNs, it asks for its own ACK. */
	out->ack_req = true;
	mrc_tx_ack_asked(&s->tx, out->psn);
	m->npkts++;
	m->sent++;
	s->stats.sent++;
	return true;
}

void mrc_sender_on_response(struct mrc_sender *s, u64 now)
{
	(void)now;
	s->retries = 0;
}

void mrc_sender_response_done(struct mrc_sender *s, u32 msg)
{
	mrc_sender_msg(s, msg)->awaits_response = false;
}

bool mrc_sender_next(struct mrc_sender *s, u64 now, struct mrc_sender_tx *out)
{
	struct mrc_sender_msg *m;
	u32 k;

	if (s->failed)
		return false;
	if (mrc_sender_retransmit(s, now, out))
		return true;
	for (;;) {
		if (s->sending == s->posted)
			return false;
		m = mrc_sender_msg(s, s->sending);
		if (m->sent < m->npkts)
			break;
		s->sending++;
	}
	if (!mrc_sender_window_open(s))
		return false;
	out->ev = mrc_sender_pick(s, -1);
	out->psn = mrc_tx_send(&s->tx, out->ev, now, s->sending);
	if (out->psn == MRC_TX_PSN_NONE)
		return false;
	k = m->sent++;
	if (!k)
		m->first_psn = out->psn;
	if (s->pkts)
		s->pkts[out->psn & s->tx.mask] = k;
	out->msg = s->sending & s->msg_mask;
	out->pkt = k;
	out->why = MRC_SENDER_NEW;
	/*
	 * A message's last packet asks for an ACK, as does every
	 * ack_interval-th and one that fills the window (else, after an
	 * NSCC cut, nothing would ask until the RTO).
	 */
	out->ack_req = k + 1 == m->npkts || (k + 1) % s->p.ack_interval == 0 ||
		       !mrc_sender_cwnd_open(s);
	if (out->ack_req)
		mrc_tx_ack_asked(&s->tx, out->psn);
	s->stats.sent++;
	return true;
}

/* Charges a loss to @ev; counts the EV retired when it went out of use. */
static void mrc_sender_ev_charge(struct mrc_sender *s, u32 ev, u64 now,
				 bool timeout)
{
	u8 before;

	if (!s->evs || ev >= s->evs->n_evs)
		return;
	before = s->evs->evs[ev].state;
	if (timeout)
		mrc_ev_on_timeout(s->evs, ev, (u32)now);
	else
		mrc_ev_on_loss(s->evs, ev, (u32)now);
	if ((before == MRC_EV_GOOD || before == MRC_EV_UNKNOWN) &&
	    s->evs->evs[ev].state == MRC_EV_ASSUMED_BAD)
		s->stats.ev_retired++;
}

static void mrc_sender_charge_losses(struct mrc_sender *s,
				     const struct mrc_tx_ack_result *res,
				     u64 now)
{
	struct mrc_tx_lost due[8];
	u32 i, n;

	for (i = 0; i < res->lost_reported; i++)
		if (!res->lost[i].deferred)
			mrc_sender_ev_charge(s, res->lost[i].ev, now, false);
	do {
		n = mrc_tx_due_charges(&s->tx, now, due, 8);
		for (i = 0; i < n; i++)
			mrc_sender_ev_charge(s, due[i].ev, now, false);
	} while (n == 8);
}

static void mrc_sender_cc_count(struct mrc_sender *s, u32 actions)
{
	if (actions & MRC_NSCC_DECREASED)
		s->stats.cc_decreases++;
	if (actions & MRC_NSCC_QUICK_ADAPT)
		s->stats.cc_quick_adapts++;
	if (actions & MRC_NSCC_SWITCH_EV)
		s->stats.cc_ev_switches++;
}

static void mrc_sender_cc_switch(struct mrc_sender *s, u32 ev)
{
	if (!s->evs || ev >= s->evs->n_evs)
		return;
	s->cc_avoid_ev = ev;
	s->cc_avoid_left = s->evs->n_evs;
}

int mrc_sender_on_ack(struct mrc_sender *s, u64 now, u32 cum_psn,
		      const u64 *sack, unsigned int nwords, u32 ev_echo,
		      bool ecn)
{
	struct mrc_sender_ack ack = {
		.cum_psn = cum_psn,
		.sack = sack,
		.nwords = nwords,
		.ev_echo = ev_echo,
		.ecn = ecn,
	};

	return mrc_sender_on_ack_ex(s, now, &ack, NULL);
}

/* NSCC's RTT sample of @res, in us: the caller's share taken out. */
static u64 mrc_sender_cc_rtt_us(struct mrc_sender *s,
				const struct mrc_tx_ack_result *res)
{
	u64 rtt = res->rtt;

	if (!res->rtt_valid)
		return 0;
	if (s->cc_rtt)
		rtt = s->cc_rtt(s->cc_rtt_arg, res->rtt_psn, res->rtt_sent_at,
				res->rtt);
	return rtt ? rtt : 1;
}

int mrc_sender_on_ack_ex(struct mrc_sender *s, u64 now,
			 const struct mrc_sender_ack *ack,
			 struct mrc_sender_ack_result *out)
{
	u32 cum_psn = ack->cum_psn, ev_echo = ack->ev_echo;
	struct mrc_tx_ack_result res;
	u32 pending, i, actions;
	u64 delivered;
	int ret;

	if (out)
		memset(out, 0, sizeof(*out));
	if (s->failed)
		return MRC_TX_ACK_OK;
	pending = mrc_tx_in_flight(&s->tx) + mrc_tx_lost_count(&s->tx);
	ret = mrc_tx_on_ack(&s->tx, cum_psn, ack->sack, ack->nwords, ev_echo,
			    now, &res);
	if (ret != MRC_TX_ACK_OK) {
		if (ret == MRC_TX_ACK_INVALID)
			s->stats.acks_invalid++;
		return ret;
	}
	/* Delivered now: what left the in-flight and lost sets. */
	pending -= mrc_tx_in_flight(&s->tx) + mrc_tx_lost_count(&s->tx);
	if (res.rtt_valid) {
		mrc_rto_sample(&s->rto, res.rtt);
		if (s->tx.path_evidence)
			mrc_sender_path_evidence(s);
		else
			mrc_sender_charge_delay(s);
	}
	if (pending) {
		mrc_rto_on_progress(&s->rto);
		s->progress_us = now;
	}
	if (s->cc) {
		delivered = (u64)pending * s->p.mtu;
		actions = mrc_nscc_on_ack(s->cc, now * MRC_SENDER_NS_PER_US,
					  mrc_sender_cc_rtt_us(s, &res) *
					  MRC_SENDER_NS_PER_US,
					  delivered > 0xffffffffull ?
					  0xffffffffu : (u32)delivered,
					  ack->ecn);
		mrc_sender_cc_count(s, actions);
		if (actions & MRC_NSCC_SWITCH_EV)
			mrc_sender_cc_switch(s, ev_echo);
	}
	/* A late copy withdraws its charge before the due ones are made. */
	if (ack->has_echo &&
	    mrc_tx_on_delivered_echo(&s->tx, ack->echo_psn, ack->ts_echo))
		s->stats.charges_cancelled++;
	if (s->evs) {
		if (ev_echo < s->evs->n_evs)
			mrc_ev_on_ack(s->evs, ev_echo, 1);
		mrc_sender_charge_losses(s, &res, now);
	}
	for (i = 0; i < res.acked_count; i++) {
		u32 psn = mrc_psn_add(res.acked_first, i);

		mrc_sender_msg(s, mrc_tx_cookie(&s->tx, psn))->acked++;
	}
	if (res.acked_count)
		s->retries = 0;
	if (out) {
		out->delivered = pending;
		out->acked = res.acked_count;
		out->lost = res.lost_count;
	}
	return ret;
}

/*
 * The fabric trims: its congestion shows as trims, and EVs through
 * unequal queues overtake each other far beyond the reorder tolerance, so
 * a loss needs evidence from the EV itself. Called before the tracker
 * marks the PSN.
 */
static void mrc_sender_trim_evidence(struct mrc_sender *s)
{
	mrc_sender_path_evidence(s);
}

/* A trimmed PSN marked for retransmission: NSCC hears of it. */
static void mrc_sender_trim_cc(struct mrc_sender *s, u64 now, u32 psn)
{
	const struct mrc_tx_slot *slot;
	u32 actions;

	if (!s->cc)
		return;
	slot = mrc_tx_slot(&s->tx, psn);
	actions = mrc_nscc_on_nack(s->cc, now * MRC_SENDER_NS_PER_US, s->p.mtu);
	mrc_sender_cc_count(s, actions);
	if (actions & MRC_NSCC_SWITCH_EV && slot)
		mrc_sender_cc_switch(s, slot->ev);
}

void mrc_sender_on_trim(struct mrc_sender *s, u64 now, u32 psn)
{
	if (s->failed)
		return;
	mrc_sender_trim_evidence(s);
	if (mrc_tx_on_nak_trimmed(&s->tx, psn) == MRC_TX_NAK_MARKED)
		mrc_sender_trim_cc(s, now, psn);
}

int mrc_sender_on_trim_echo(struct mrc_sender *s, u64 now, u32 psn,
			    u32 ts_echo)
{
	int ret;

	if (s->failed)
		return MRC_TX_NAK_IGNORED;
	mrc_sender_trim_evidence(s);
	ret = mrc_tx_on_nak_trimmed_echo(&s->tx, psn, ts_echo);
	if (ret == MRC_TX_NAK_MARKED)
		mrc_sender_trim_cc(s, now, psn);
	else if (ret == MRC_TX_NAK_CHARGE_CANCELLED)
		s->stats.charges_cancelled++;
	return ret;
}

void mrc_sender_on_rnr(struct mrc_sender *s, u64 now, u32 psn)
{
	(void)now;
	if (s->failed)
		return;
	mrc_tx_on_nak_rnr(&s->tx, psn);
	s->retries = 0;
}

/* Losses held for the reordering window that came due at @now. */
static bool mrc_sender_held_losses(struct mrc_sender *s, u64 now)
{
	struct mrc_tx_ack_result res;
	u64 due;
	u32 lost;

	if (!mrc_tx_loss_due(&s->tx, &due) || now < due)
		return false;
	lost = mrc_tx_detect_losses(&s->tx, now, &res);
	if (s->evs)
		mrc_sender_charge_losses(s, &res, now);
	return lost != 0;
}

/*
 * The oldest message not yet finished fails; the rest flush, even one
 * acknowledged in full behind a READ still waiting for its response: no
 * success may complete after the error (IB's flush).
 */
static void mrc_sender_fail(struct mrc_sender *s)
{
	u8 status = MRC_SENDER_ST_OK;
	u32 i;

	for (i = s->done; i != s->posted; i++) {
		struct mrc_sender_msg *m = mrc_sender_msg(s, i);

		if (status != MRC_SENDER_ST_OK) {
			m->status = MRC_SENDER_ST_FLUSHED;
		} else if (m->acked < m->npkts || m->awaits_response) {
			m->status = MRC_SENDER_ST_RETRY_EXCEEDED;
			status = m->status;
		}
	}
	s->failed = true;
}

/*
 * The caller's timer must also cover probes while PSNs are outstanding:
 * no ACK may come to make it ask. Responses awaited alone are the
 * caller's to time.
 */
static bool mrc_sender_probe_wait(const struct mrc_sender *s, u64 now,
				  u64 *wait)
{
	u64 timeout;
	u32 wait32;

	if (!s->evs || !mrc_ev_probing(s->evs) || s->failed ||
	    !mrc_tx_outstanding(&s->tx))
		return false;
	timeout = mrc_sender_probe_timeout_us(s);
	if (timeout > 0x7fffffff)
		timeout = 0x7fffffff;
	if (!mrc_ev_probe_wait(s->evs, (u32)now, (u32)timeout, &wait32))
		return false;
	*wait = wait32;
	return true;
}

bool mrc_sender_on_timeout(struct mrc_sender *s, u64 now)
{
	return mrc_sender_on_timeout_ex(s, now, 0);
}

bool mrc_sender_on_timeout_ex(struct mrc_sender *s, u64 now, u32 responses)
{
	u64 rto = mrc_sender_rto_us(s), sent_at, wait, down_before;
	bool work = false;
	u32 expired = 0, psn;

	if (s->failed)
		return false;
	if (mrc_sender_held_losses(s, now))
		work = true;
	down_before = s->stats.plane_down_lost;
	mrc_sender_planes_check(s);
	if (s->stats.plane_down_lost != down_before)
		work = true;
	if (mrc_sender_probe_wait(s, now, &wait) && !wait)
		work = true;
	if (s->no_rto)
		return work;
	/*
	 * As RFC 6298 (5.3) restarts its timer on every ACK of new data,
	 * nothing times out while deliveries go on.
	 */
	if (now - (s->progress_us < now ? s->progress_us : now) >= rto) {
		if (mrc_tx_oldest_unacked(&s->tx, &psn, &sent_at) &&
		    now - sent_at >= rto)
			mrc_sender_ev_charge(s, mrc_tx_slot(&s->tx, psn)->ev,
					     now, true);
		expired = mrc_tx_on_timeout(&s->tx, now, rto);
		/* A SACK the peer took back: nothing else would resend it. */
		if (!expired)
			expired = mrc_tx_on_timeout_reneged(&s->tx);
	}
	/* Lost requests, not READ responses, are the window's business. */
	if (expired && s->cc)
		mrc_sender_cc_count(s, mrc_nscc_on_timeout(s->cc, now *
							   MRC_SENDER_NS_PER_US));
	expired += responses;
	if (!expired)
		return work;
	s->stats.timeouts++;
	/* Saturates: an endless exponential stage must not wrap to 0. */
	if (s->retries != (u32)-1)
		s->retries++;
	if (s->retries > s->p.retry_cnt) {
		if (s->p.exp_retry_cnt != MRC_SENDER_RETRY_FOREVER &&
		    s->retries - s->p.retry_cnt > s->p.exp_retry_cnt) {
			mrc_sender_fail(s);
			return false;
		}
		/* The RTO in force doubles from here on. */
		mrc_rto_enter_exp(&s->rto);
		s->stats.exp_timeouts++;
	}
	mrc_rto_on_timeout(&s->rto);
	return true;
}

u64 mrc_sender_probe_timeout_us(const struct mrc_sender *s)
{
	u64 rto = s->no_rto ? 0 : mrc_rto_rtt_bound_us(&s->rto);

	return rto > MRC_SENDER_PROBE_TIMEOUT_MIN_US ? rto :
	       MRC_SENDER_PROBE_TIMEOUT_MIN_US;
}

/*
 * EV @ev came back through probes, having gone bad at @bad_since. When
 * nothing was delivered since then, the connection stalled with it: what
 * is in flight went out while it could not get through, and the RTO,
 * backed off through the outage, may be seconds away. Resend it now, as
 * that RTO would, but blame no EV and count no retry (the retry limit
 * still holds: retries end only with progress), and time the next RTO
 * from now without backoff.
 */
static void mrc_sender_path_back(struct mrc_sender *s, u64 now, u32 bad_since)
{
	if ((s32)((u32)s->progress_us - bad_since) >= 0)
		return;
	mrc_tx_on_timeout(&s->tx, now, 0);
	s->stats.path_back_restarts++;
	mrc_rto_on_progress(&s->rto);
	s->progress_us = now;
}

bool mrc_sender_on_probe_reply(struct mrc_sender *s, u64 now, u32 ev, bool ok)
{
	const struct mrc_ev *e;
	bool counted;
	u32 bad_since;

	if (!s->evs)
		return false;
	e = mrc_ev_get(s->evs, ev);
	if (!e)
		return false;
	bad_since = e->changed_us;
	counted = mrc_ev_probe_result(s->evs, ev, ok, (u32)now);
	if (counted && e->state == MRC_EV_GOOD && !s->failed)
		mrc_sender_path_back(s, now, bad_since);
	return counted;
}

int mrc_sender_next_probe(struct mrc_sender *s, u64 now)
{
	u64 timeout = mrc_sender_probe_timeout_us(s);
	int ev;

	if (!s->evs || s->failed)
		return -1;
	/* The EV core keeps 32-bit times: a longer wait is a wrap away. */
	if (timeout > 0x7fffffff)
		timeout = 0x7fffffff;
	s->stats.probes_lost += mrc_ev_probe_expire(s->evs, (u32)now,
						    (u32)timeout);
	ev = mrc_ev_next_probe(s->evs, (u32)now);
	if (ev < 0)
		return -1;
	s->stats.probes++;
	return ev;
}

bool mrc_sender_next_timer(const struct mrc_sender *s, u64 now, u64 *due)
{
	u64 rto = mrc_sender_rto_us(s), sent_at, from, loss_due, wait;
	bool armed = false;
	u32 psn;

	if (s->failed)
		return false;
	/* Without an RTO only held losses set the timer. */
	if (s->no_rto) {
		armed = false;
	} else if (mrc_tx_oldest_unacked(&s->tx, &psn, &sent_at)) {
		from = sent_at > s->progress_us ? sent_at : s->progress_us;
		*due = from + rto;
		armed = true;
	} else if (mrc_tx_outstanding(&s->tx) && !mrc_tx_lost_count(&s->tx)) {
		/* Only SACKED PSNs: an RTO without progress resends una. */
		*due = s->progress_us + rto;
		armed = true;
	}
	if (mrc_tx_loss_due(&s->tx, &loss_due) &&
	    (!armed || loss_due < *due)) {
		*due = loss_due;
		armed = true;
	}
	if (mrc_sender_probe_wait(s, now, &wait) &&
	    (!armed || now + wait < *due)) {
		*due = now + wait;
		armed = true;
	}
	if (armed && *due < now)
		*due = now;
	return armed;
}

bool mrc_sender_poll_done(struct mrc_sender *s, struct mrc_sender_done *out)
{
	struct mrc_sender_msg *m;

	if (s->done == s->posted)
		return false;
	m = mrc_sender_msg(s, s->done);
	if (m->status == MRC_SENDER_ST_OK &&
	    (m->acked < m->npkts || m->awaits_response)) {
		if (!s->failed)
			return false;
		m->status = MRC_SENDER_ST_FLUSHED;
	}
	out->cookie = m->cookie;
	out->status = m->status;
	s->done++;
	if ((s32)(s->sending - s->done) < 0)
		s->sending = s->done;
	return true;
}
