// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer target: a requester and a responder built from the protocol
 * core (SACK tracker, receive window, EV set, RTO, NSCC), driven the way
 * mrc_req_rcv(), mrc_req_timer() and mrc_resp_handle() drive them, and fed
 * hostile packets through mrc_decode(). After every step it asserts the
 * core's invariants:
 *   - the send window: una <= lost_low <= next, at most nslots outstanding,
 *     the per-state counts match the slots, the in-flight list is the
 *     IN_FLIGHT slots in send order, no slot outside [una, next) is used;
 *   - every PSN is completed (cumulatively acknowledged) exactly once, only
 *     after it was sent, and in order;
 *   - the receive window: epsn's bit clear, ooo_count is the bits set, the
 *     highest PSN within the window, a NEW PSN was not received before and
 *     is after, its SACK bitmap survives the wire;
 *   - the EV set's usable counts match its EVs; the RTO stays within its
 *     bounds; the NSCC window within [mtu, max_cwnd].
 *
 * Input: an 8-byte configuration, then steps, each an opcode byte and its
 * arguments (missing bytes read as zero). See enum step below.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrc_wire.h"
#include "mrc_sack.h"
#include "mrc_ev.h"
#include "mrc_rto.h"
#include "mrc_nscc.h"
#include "core_fuzz.h"

enum step {
	STEP_SEND,		/* n: send up to n % 32 + 1 new PSNs */
	STEP_DELIVER,		/* off16, flags: a copy of una + off arrives */
	STEP_RAW,		/* len, bytes: any packet, decoded */
	STEP_FORGED_ACK,	/* fields: an ACK/NAK near the window, mutated */
	STEP_TIME,		/* delta16, shift: time passes */
	STEP_TIMER,		/* the requester's timer fires */
	STEP_RETRANSMIT,	/* the requester resends what is LOST */
	STEP_PROBE,		/* ok: the next probe and its result */
	STEP_PLANE,		/* plane, flag, on */
	STEP_DENY,		/* ev, allow */
	STEP_COUNT,
};

static struct sim sim;

/* ---- the requester ---- */

static u32 pick_ev(struct sim *s)
{
	int ev = mrc_ev_pick(&s->set, -1);

	FUZZ_ASSERT(ev < (int)s->set.n_evs);
	if (ev >= 0)
		FUZZ_ASSERT(mrc_ev_usable(&s->set, (u32)ev));
	return ev < 0 ? EV_NONE : (u32)ev;
}

static void send_new(struct sim *s, u32 n)
{
	u32 psn = MRC_TX_PSN_NONE, i;

	for (i = 0; i < n && !s->failed; i++) {
		u32 inflight = mrc_tx_in_flight(&s->tx) * MTU;

		if (!mrc_tx_can_send(&s->tx))
			break;
		if (s->cc_enabled && !mrc_nscc_can_send(&s->cc, inflight, MTU))
			break;
		psn = mrc_tx_send(&s->tx, pick_ev(s), s->now, 0);
		FUZZ_ASSERT(psn != MRC_TX_PSN_NONE && psn <= MRC_PSN_MASK);
		/* A slot is reused only once its PSN completed. */
		FUZZ_ASSERT(s->shadow[psn & s->tx.mask].state != 1);
		s->shadow[psn & s->tx.mask].psn = psn;
		s->shadow[psn & s->tx.mask].state = 1;
		s->sent++;
	}
	if (psn != MRC_TX_PSN_NONE)
		mrc_tx_ack_asked(&s->tx, psn);
}

static void retransmit(struct sim *s)
{
	u32 psn, n = 0;

	while (!s->failed && mrc_tx_next_to_retransmit(&s->tx, &psn)) {
		const struct mrc_tx_slot *slot = mrc_tx_slot(&s->tx, psn);

		FUZZ_ASSERT(slot && slot->state == MRC_TX_LOST);
		FUZZ_ASSERT(mrc_tx_resend(&s->tx, psn, pick_ev(s), s->now));
		mrc_tx_ack_asked(&s->tx, psn);
		FUZZ_ASSERT(++n <= s->nslots);
	}
}

static void ev_charge(struct sim *s, u32 ev, bool timeout)
{
	if (ev >= s->set.n_evs)
		return;
	if (timeout)
		mrc_ev_on_timeout(&s->set, ev, (u32)s->now);
	else
		mrc_ev_on_loss(&s->set, ev, (u32)s->now);
}

static void charge_losses(struct sim *s, const struct mrc_tx_ack_result *r)
{
	struct mrc_tx_lost due[8];
	u32 i, n, rounds = 0;

	for (i = 0; i < r->lost_reported; i++)
		if (!r->lost[i].deferred)
			ev_charge(s, r->lost[i].ev, false);
	do {
		n = mrc_tx_due_charges(&s->tx, s->now, due, 8);
		FUZZ_ASSERT(n <= 8);
		for (i = 0; i < n; i++)
			ev_charge(s, due[i].ev, false);
		FUZZ_ASSERT(++rounds <= MRC_TX_PENDING_CHARGES);
	} while (n == 8);
}

/* The ACK part of mrc_req_rcv(). */
static void requester_ack(struct sim *s, const struct mrc_pkt *pkt)
{
	struct mrc_tx_ack_result res;
	u32 old_una = s->tx.una, pending, i;
	bool trimmed = pkt->hdr.opcode == MRC_OP_NAK &&
		       pkt->ack.syndrome == MRC_NAK_TRIMMED;
	int ret;

	if (trimmed) {
		ret = mrc_tx_on_nak_trimmed_echo(&s->tx, pkt->ack.nak_psn,
						 pkt->ack.ts_echo);
		FUZZ_ASSERT(ret == MRC_TX_NAK_MARKED ||
			    ret == MRC_TX_NAK_IGNORED ||
			    ret == MRC_TX_NAK_CHARGE_CANCELLED);
		if (ret == MRC_TX_NAK_MARKED) {
			FUZZ_ASSERT(mrc_tx_slot(&s->tx, pkt->ack.nak_psn)->state ==
				    MRC_TX_LOST);
			if (s->cc_enabled)
				mrc_nscc_on_nack(&s->cc, s->now * NSEC_PER_USEC,
						 MTU);
		}
		check_tracker(s, false);
	}
	pending = mrc_tx_in_flight(&s->tx) + mrc_tx_lost_count(&s->tx);
	ret = mrc_tx_on_ack(&s->tx, pkt->ack.cum_psn, pkt->ack.sack,
			    pkt->ack.sack_words, pkt->ack.ev_echo, s->now, &res);
	if (ret != MRC_TX_ACK_OK) {
		FUZZ_ASSERT(ret == MRC_TX_ACK_STALE || ret == MRC_TX_ACK_INVALID);
		FUZZ_ASSERT(s->tx.una == old_una);
		FUZZ_ASSERT(res.acked_count == 0 && res.lost_count == 0);
		return;
	}
	/* Completions: exactly [old una, new una), each PSN once. */
	FUZZ_ASSERT(s->tx.una == pkt->ack.cum_psn);
	FUZZ_ASSERT(res.acked_count == mrc_psn_distance(old_una, s->tx.una));
	FUZZ_ASSERT(res.acked_count == 0 || res.acked_first == old_una);
	for (i = 0; i < res.acked_count; i++) {
		u32 psn = mrc_psn_add(old_una, i);
		struct shadow *sh = &s->shadow[psn & s->tx.mask];

		FUZZ_ASSERT(sh->state == 1 && sh->psn == psn);
		sh->state = 2;
	}
	s->completed += res.acked_count;
	check_lost(s, &res);

	pending -= mrc_tx_in_flight(&s->tx) + mrc_tx_lost_count(&s->tx);
	if (res.rtt_valid) {
		FUZZ_ASSERT(res.rtt <= s->now);
		mrc_rto_sample(&s->rto, res.rtt);
	}
	if (pending) {
		mrc_rto_on_progress(&s->rto);
		s->progress_us = s->now;
	}
	if (s->cc_enabled)
		mrc_nscc_on_ack(&s->cc, s->now * NSEC_PER_USEC,
				res.rtt_valid ? (res.rtt ? res.rtt : 1) *
						NSEC_PER_USEC : 0,
				pending * MTU,
				pkt->ack.flags & MRC_ACK_F_ECN_CE);
	if (pkt->hdr.opcode == MRC_OP_ACK)
		mrc_tx_on_delivered_echo(&s->tx, pkt->hdr.psn, pkt->ack.ts_echo);
	if (pkt->ack.ev_echo < s->set.n_evs)
		mrc_ev_on_ack(&s->set, pkt->ack.ev_echo, 1);
	charge_losses(s, &res);
	if (res.acked_count)
		s->retries = 0;
	if (pkt->hdr.opcode == MRC_OP_NAK && !trimmed &&
	    mrc_tx_slot(&s->tx, pkt->ack.nak_psn)) {
		if (pkt->ack.syndrome == MRC_NAK_RNR)
			mrc_tx_on_nak_rnr(&s->tx, pkt->ack.nak_psn);
		else
			s->failed = true;
	}
}

/* mrc_req_timer() with an RTO. */
static void requester_timer(struct sim *s)
{
	struct mrc_tx_ack_result res;
	u64 rto = mrc_rto_us(&s->rto), due, sent_at;
	u32 expired = 0, psn;

	if (mrc_tx_loss_due(&s->tx, &due) && s->now >= due) {
		mrc_tx_detect_losses(&s->tx, s->now, &res);
		check_lost(s, &res);
		charge_losses(s, &res);
	}
	if (s->now - (s->progress_us < s->now ? s->progress_us : s->now) >= rto) {
		if (mrc_tx_oldest_unacked(&s->tx, &psn, &sent_at) &&
		    s->now - sent_at >= rto) {
			FUZZ_ASSERT(sent_at <= s->now);
			ev_charge(s, mrc_tx_slot(&s->tx, psn)->ev, true);
		}
		expired = mrc_tx_on_timeout(&s->tx, s->now, rto);
	}
	if (expired && s->cc_enabled)
		mrc_nscc_on_timeout(&s->cc, s->now * NSEC_PER_USEC);
	if (expired) {
		mrc_rto_on_timeout(&s->rto);
		if (++s->retries > 7)
			s->failed = true;
	}
}

/* ---- the responder ---- */

/*
 * mrc_resp_handle()'s use of the receiver core (every request finds its
 * resources), then the core's answer, if any, encoded.
 */
static int responder_rcv(struct sim *s, const struct mrc_pkt *req,
			 u8 *out, size_t outlen)
{
	const struct mrc_rx_window *w = &s->rcv.win;
	u32 psn = req->hdr.psn, epsn = mrc_rx_epsn(w), flags = 0, last;
	bool was = mrc_rx_received(w, psn);
	bool in_window = mrc_psn_in_window(psn, epsn, MRC_RX_WINDOW);
	bool takes = mrc_psn_in_window(psn, epsn, s->rx_window);
	struct mrc_receiver_reply reply;
	struct mrc_receiver_verdict v;
	struct mrc_pkt ack;
	int n;

	if (req->hdr.flags & MRC_F_ACK_REQ)
		flags |= MRC_RECEIVER_F_ACK_REQ;
	if (req->trimmed)
		flags |= MRC_RECEIVER_F_TRIMMED;
	if (req->trimmed && s->no_trim_nak)
		flags |= MRC_RECEIVER_F_NO_TRIM_NAK;
	if (mrc_opcode_is(req->hdr.opcode, MRC_OPC_RD_ATOMIC))
		flags |= MRC_RECEIVER_F_RESPONDS;
	mrc_receiver_check(&s->rcv, psn, flags, &v, &reply);
	if (was) {
		FUZZ_ASSERT(v.action == MRC_RECEIVER_DUPLICATE && v.reply);
		/* Polled after every packet: replayed exactly behind epsn. */
		FUZZ_ASSERT(v.replay == ((flags & MRC_RECEIVER_F_RESPONDS) &&
					 !in_window));
	} else if (!takes) {
		FUZZ_ASSERT(v.action == MRC_RECEIVER_DROP && !v.reply);
		FUZZ_ASSERT(mrc_rx_epsn(w) == epsn);
		return 0;
	} else if (req->trimmed && s->no_trim_nak) {
		/* Unanswered, and not received: a loss to the sender. */
		FUZZ_ASSERT(v.action == MRC_RECEIVER_TRIMMED && !v.reply);
		FUZZ_ASSERT(!mrc_rx_received(w, psn) && mrc_rx_epsn(w) == epsn);
		return 0;
	} else if (req->trimmed) {
		FUZZ_ASSERT(v.action == MRC_RECEIVER_TRIMMED && v.reply);
		FUZZ_ASSERT(reply.syndrome == MRC_NAK_TRIMMED &&
			    reply.nak_psn == psn);
	} else {
		FUZZ_ASSERT(v.action == MRC_RECEIVER_DELIVER && !v.reply);
		FUZZ_ASSERT(mrc_rx_epsn(w) == epsn);
		mrc_receiver_accept(&s->rcv, psn, flags, &v, &reply);
		FUZZ_ASSERT(mrc_rx_received(w, psn) || mrc_rx_epsn(w) != epsn);
		FUZZ_ASSERT(!mrc_psn_before(mrc_rx_epsn(w), epsn));
		FUZZ_ASSERT(v.reply || (psn == epsn &&
					mrc_rx_epsn(w) == mrc_psn_add(psn, 1)));
		/* The glue's in-order actions sit on new PSNs. */
		FUZZ_ASSERT(mrc_receiver_mark(&s->rcv, psn));
	}
	while (mrc_receiver_poll_done(&s->rcv, &last))
		FUZZ_ASSERT(mrc_psn_before(last, mrc_rx_epsn(w)));
	check_rx(w);
	if (!v.reply)
		return 0;
	FUZZ_ASSERT(reply.cum_psn == mrc_rx_epsn(w));

	memset(&ack, 0, sizeof(ack));
	ack.hdr.opcode = reply.syndrome == MRC_SYN_ACK ? MRC_OP_ACK :
			 MRC_OP_NAK;
	ack.hdr.psn = psn;
	ack.ack.cum_psn = reply.cum_psn;
	ack.ack.ev_echo = req->hdr.ev;
	ack.ack.ts_echo = req->hdr.ts;
	ack.ack.syndrome = reply.syndrome;
	ack.ack.nak_psn = reply.nak_psn;
	ack.ack.sack_words = reply.nwords < MRC_SACK_MAX_WORDS ?
			     (u8)reply.nwords : MRC_SACK_MAX_WORDS;
	memcpy(ack.ack.sack, reply.sack,
	       ack.ack.sack_words * sizeof(ack.ack.sack[0]));
	n = mrc_encode(out, outlen, &ack);
	FUZZ_ASSERT(n > 0);
	return n;
}

/* ---- packets ---- */

static void packet_in(struct sim *s, const u8 *buf, size_t len, int depth);

static void dispatch(struct sim *s, const struct mrc_pkt *pkt, int depth)
{
	u8 reply[MRC_MAX_HDR_LEN];
	int n;
	u32 p;

	switch (pkt->hdr.opcode) {
	case MRC_OP_ACK:
	case MRC_OP_NAK:
		if (!s->failed)
			requester_ack(s, pkt);
		break;
	case MRC_OP_PROBE_REPLY:
		if (pkt->probe.ev < s->set.n_evs &&
		    s->set.evs[pkt->probe.ev].probe_pending)
			mrc_ev_probe_result(&s->set, pkt->probe.ev, true,
					    (u32)s->now);
		break;
	case MRC_OP_PLANE_STATE:
		if ((s32)(pkt->plane_state.seq - s->peer_plane_seq) <= 0)
			break;
		s->peer_plane_seq = pkt->plane_state.seq;
		for (p = 0; p < s->set.n_planes &&
			    p < pkt->plane_state.n_planes; p++)
			mrc_ev_plane_set(&s->set, (u8)p,
					 MRC_EV_PLANE_PEER_DENIED,
					 pkt->plane_state.down_mask & (1u << p),
					 (u32)s->now);
		break;
	case MRC_OP_PROBE:
	case MRC_OP_PLANE_STATE_ACK:
	case MRC_OP_UD_SEND:
	case MRC_OP_UD_SEND_IMM:
	case MRC_OP_READ_RESP:
	case MRC_OP_ATOMIC_RESP:
		break;
	default:
		/* A request: the responder's window, then its answer. */
		n = responder_rcv(s, pkt, reply, sizeof(reply));
		if (n > 0 && depth == 0)
			packet_in(s, reply, (size_t)n, depth + 1);
		break;
	}
}

static void packet_in(struct sim *s, const u8 *buf, size_t len, int depth)
{
	struct mrc_pkt pkt;
	u8 *exact = malloc(len ? len : 1);

	FUZZ_ASSERT(exact);
	memcpy(exact, buf, len);
	if (mrc_decode(exact, len, &pkt) == 0)
		dispatch(s, &pkt, depth);
	free(exact);
}

/* XORs up to 4 input bytes into @buf at input-chosen offsets. */
static void mutate(struct input *in, u8 *buf, size_t len)
{
	u8 n = in_u8(in) % 5, i;

	for (i = 0; i < n && len; i++) {
		u8 at = in_u8(in);

		buf[at % len] ^= in_u8(in);
	}
}

/* A copy of una + off, sent on the EV the tracker recorded, arrives. */
static void step_deliver(struct sim *s, struct input *in)
{
	u16 off = in_u16(in);
	u8 flags = in_u8(in), buf[MRC_MAX_DATA_HDR_LEN];
	u32 out = mrc_tx_outstanding(&s->tx), psn;
	const struct mrc_tx_slot *slot;
	struct mrc_pkt pkt;
	int n;

	/* Mostly PSNs in flight; sometimes anywhere near the window. */
	if (out && !(flags & 0x80))
		psn = mrc_psn_add(s->tx.una, off % out);
	else
		psn = mrc_psn_add(s->tx.una, (u32)(int16_t)off);
	slot = mrc_tx_slot(&s->tx, psn);

	memset(&pkt, 0, sizeof(pkt));
	pkt.hdr.opcode = MRC_OP_WRITE;
	pkt.hdr.flags = (flags & 1 ? MRC_F_TRIMMED : 0) |
			(flags & 2 ? MRC_F_ACK_REQ : 0);
	pkt.hdr.psn = psn;
	pkt.hdr.ev = slot ? slot->ev : in_u8(in);
	pkt.hdr.ts = slot ? (u32)slot->sent_at : in_u32(in);
	pkt.hdr.payload_len = 0;
	pkt.msgh.length = 0;
	n = mrc_encode(buf, sizeof(buf), &pkt);
	FUZZ_ASSERT(n > 0);
	if (flags & 4)
		mutate(in, buf, (size_t)n);
	packet_in(s, buf, (size_t)n, 0);
}

/* An ACK or NAK near the window with input fields, maybe bit-flipped. */
static void step_forged_ack(struct sim *s, struct input *in)
{
	struct mrc_pkt pkt;
	u8 buf[MRC_MAX_HDR_LEN];
	u8 kind = in_u8(in);
	u32 i;
	int n;

	memset(&pkt, 0, sizeof(pkt));
	pkt.hdr.opcode = kind & 1 ? MRC_OP_NAK : MRC_OP_ACK;
	pkt.hdr.psn = mrc_psn_add(s->tx.una, (u32)(int16_t)in_u16(in));
	pkt.ack.cum_psn = mrc_psn_add(s->tx.una, (u32)(int16_t)in_u16(in));
	pkt.ack.ev_echo = in_u8(in);
	pkt.ack.ts_echo = kind & 2 ? in_u32(in) : (u32)s->now;
	pkt.ack.flags = (kind >> 2) & MRC_ACK_F_ECN_CE;
	pkt.ack.sack_words = in_u8(in) % (MRC_SACK_MAX_WORDS + 1);
	for (i = 0; i < pkt.ack.sack_words; i++)
		pkt.ack.sack[i] = in_u64(in);
	if (pkt.hdr.opcode == MRC_OP_NAK) {
		pkt.ack.syndrome = 1 + in_u8(in) % MRC_NAK_MAX;
		pkt.ack.nak_psn = mrc_psn_add(s->tx.una,
					      (u32)(int16_t)in_u16(in));
		if (pkt.ack.syndrome == MRC_NAK_RNR)
			pkt.ack.rnr_timer = in_u8(in) % 32;
	}
	n = mrc_encode(buf, sizeof(buf), &pkt);
	FUZZ_ASSERT(n > 0);
	if (kind & 8)
		mutate(in, buf, (size_t)n);
	packet_in(s, buf, (size_t)n, 0);
}

static void step_raw(struct sim *s, struct input *in)
{
	u8 len = in_u8(in), buf[256];
	u32 i;

	for (i = 0; i < len; i++)
		buf[i] = in_u8(in);
	packet_in(s, buf, len, 0);
}

static bool setup(struct sim *s, struct input *in)
{
	struct mrc_ev_desc descs[MAX_EVS];
	struct mrc_ev_params evp;
	struct mrc_nscc_params ccp;
	u8 b0 = in_u8(in), b1 = in_u8(in), b5, b6, b7;
	u32 psn0 = (u32)in_u8(in) << 16 | in_u16(in), i, n_evs, n_planes;

	b5 = in_u8(in);
	b6 = in_u8(in);
	b7 = in_u8(in);
	memset(s, 0, sizeof(*s));
	n_evs = 1 + b0 % MAX_EVS;
	n_planes = 1 + (b1 & 3);
	if (n_planes > n_evs)
		n_planes = n_evs;
	s->nslots = 1u << (3 + b6 % 8);

	FUZZ_ASSERT(mrc_tx_init(&s->tx, s->slots, s->nslots, psn0));
	mrc_tx_set_reorder_tolerance(&s->tx, b5);
	mrc_receiver_init(&s->rcv, psn0);
	/* A responder window of 128 to 896 PSNs (MPR_DEST), or all of it. */
	s->rx_window = (b0 >> 4) & 7 ? 128 * ((b0 >> 4) & 7) : MRC_RX_WINDOW;
	mrc_receiver_set_window(&s->rcv, s->rx_window);
	s->no_trim_nak = b1 & 0x80;
	s->now = (u64)b7 << 24;

	mrc_ev_params_default(&evp);
	for (i = 0; i < n_evs; i++) {
		memset(&descs[i], 0, sizeof(descs[i]));
		descs[i].plane = (u8)(i * n_planes / n_evs);
		descs[i].path.udp_sport = (u16)(49152 + i);
	}
	if (mrc_ev_set_init(&s->set, s->evs, n_evs, (u8)n_planes, descs,
			    &evp))
		return false;

	s->rto_params.min_us = 1 + (b7 & 0x0f) * 100;
	s->rto_params.max_us = 4 * s->rto_params.min_us;
	s->rto_params.granularity_us = 4000;
	s->rto_params.initial_us = s->rto_params.min_us;
	mrc_rto_init(&s->rto, &s->rto_params);

	if (b1 & 0x10)
		mrc_tx_set_path_evidence(&s->tx, true, mrc_rto_us(&s->rto),
					 1 + (b7 >> 4));
	if (b1 & 0x20) {
		mrc_tx_set_charge_delay(&s->tx, 1 + (b5 >> 2));
		mrc_tx_set_charge_patience(&s->tx, mrc_rto_us(&s->rto));
	}
	if (b1 & 0x40) {
		mrc_nscc_params_default(&ccp);
		ccp.mtu = MTU;
		if (ccp.max_cwnd < MTU)
			ccp.max_cwnd = MTU;
		s->cc_enabled = mrc_nscc_init(&s->cc, &ccp) == 0;
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	struct sim *s = &sim;
	u32 steps = 0;

	if (!setup(s, &in))
		return 0;
	check_all(s, true);
	while (in.left && steps++ < 1024) {
		u8 op = in_u8(&in);
		u64 t;

		switch (op % STEP_COUNT) {
		case STEP_SEND:
			send_new(s, in_u8(&in) % 32 + 1);
			break;
		case STEP_DELIVER:
			step_deliver(s, &in);
			break;
		case STEP_RAW:
			step_raw(s, &in);
			break;
		case STEP_FORGED_ACK:
			step_forged_ack(s, &in);
			break;
		case STEP_TIME:
			t = in_u16(&in);
			s->now += t << (in_u8(&in) % 24);
			break;
		case STEP_TIMER:
			if (!s->failed)
				requester_timer(s);
			break;
		case STEP_RETRANSMIT:
			retransmit(s);
			break;
		case STEP_PROBE: {
			u8 ok = in_u8(&in);
			int ev = mrc_ev_next_probe(&s->set, (u32)s->now);

			FUZZ_ASSERT(ev < (int)s->set.n_evs);
			if (ev >= 0)
				mrc_ev_probe_result(&s->set, (u32)ev, ok & 1,
						    (u32)s->now);
			break;
		}
		case STEP_PLANE: {
			u8 plane = in_u8(&in), flag = in_u8(&in);

			mrc_ev_plane_set(&s->set, plane % (s->set.n_planes + 1),
					 flag & 1 ? MRC_EV_PLANE_DOWN :
						    MRC_EV_PLANE_PEER_DENIED,
					 flag & 2, (u32)s->now);
			break;
		}
		case STEP_DENY: {
			u8 ev = in_u8(&in), allow = in_u8(&in);

			if (ev % (MAX_EVS + 1) < s->set.n_evs) {
				if (allow & 1)
					mrc_ev_allow(&s->set, ev % (MAX_EVS + 1));
				else
					mrc_ev_deny(&s->set, ev % (MAX_EVS + 1));
			}
			break;
		}
		}
		check_all(s, false);
	}
	check_all(s, true);
	return 0;
}
