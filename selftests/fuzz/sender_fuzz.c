// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer target: the sender core (mrc_sender.c) and the receiver core
 * (mrc_receiver.c) as their callers drive them, each through its public
 * API only, on a script of events the input chooses: posts, transmissions
 * into a lossy, reordering, duplicating network, the receiver's honest
 * replies, forged ACKs (any cumulative PSN, SACK words, EV echo, ECN),
 * NAK(trimmed) and RNR of any PSN, timeouts at any time, probe replies,
 * polls at any moment, and any bytes through mrc_decode() into either
 * core; and what the kernel requester added: READ/atomic messages that
 * wait for a response (progress, completion, a duplicate, lateness the
 * caller's timer reports, or never), their re-requests on new PSNs
 * (mrc_sender_next_request()), replies echoing their copy (on time or
 * late: mrc_sender_on_ack_ex(), mrc_sender_on_trim_echo()), RTO bounds
 * changing at run time or the RTO off, and a packet map or none; and the
 * requester's own order of questions (retransmissions alone through
 * mrc_sender_next_retransmit(), then new PSNs while
 * mrc_sender_window_open() says so), mrc_sender_msg_of() of any PSN,
 * NSCC's RTT hook (mrc_sender_cc_rtt_fn) and probes that time out. After
 * every event it asserts what the headers promise:
 *   sender:   a new PSN is the next in sequence (never one twice), in
 *             posting order or for the message re-requested, and a
 *             message's last packet and every request ask for an ACK; a
 *             request only of a message sent in full and acknowledged;
 *             a retransmission is a PSN sent before and not yet
 *             cumulatively acknowledged, with the message and packet
 *             number it first had; nothing goes out beyond the send
 *             window or after a failure; completions come once each, in
 *             posting order, OK only for a message sent in full, its
 *             response come if it awaited one (and, while no ACK was
 *             forged, every PSN of it delivered); retry exhaustion gives
 *             exactly one RETRY_EXCEEDED, to the oldest message not yet
 *             finished, then only FLUSHED; an ACK's result is what
 *             changed; the counters are the transmissions and invalid
 *             ACKs seen; unless the RTO is off the timer is armed while
 *             anything is in flight or only selectively acknowledged,
 *             and never in the past; the window is open exactly when
 *             the tracker has room (and, without NSCC, fewer PSNs out
 *             than the fixed window), a PSN waits for retransmission
 *             exactly when mrc_sender_next_retransmit() hands one out,
 *             and once none waits mrc_sender_next() gives a new PSN
 *             exactly when the window is open and a message has one
 *             to send; mrc_sender_msg_of() names the live message of
 *             an outstanding PSN (the window's edges, its middle, any
 *             the input picks) and nothing else; the RTT hook
 *             hears of a PSN this ACK delivered, sent once, with its
 *             send time and now - that; a probe goes to a retired EV
 *             on a usable plane, due and not pending, while none such
 *             is left unprobed, and every probe unanswered for the
 *             probe timeout, and only those, fails (probes_lost); a
 *             probe reply counts exactly when its probe was pending;
 *             and, at the end of every input,
 *             when the peer falls silent (the RTO turned on if it was
 *             off) and the timer fires when due, every message comes back
 *             after exactly the retries left (no timer while messages
 *             wait is a hung QP);
 *   receiver: the verdict is the window's (NEW in the window delivers,
 *             each PSN at most once), epsn moves over delivered PSNs
 *             only, a reply's cumulative PSN is epsn and its SACK the
 *             exact set delivered ahead of it, completions are the
 *             delivered last packets below epsn, once each, in PSN order.
 *
 * Input: an 8-byte configuration, then steps, each an opcode byte and its
 * arguments (missing bytes read as zero). See enum step below.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrc_wire.h"
#include "mrc_sender.h"
#include "mrc_receiver.h"
#include "fuzz_input.h"

#define MAX_EVS		8u
#define MAX_SLOTS	64u
#define MAX_MSGS	16u
/* Shadow bounds: far beyond what a max_len input can post or send. */
#define MAX_POSTS	8192u
#define MAX_PSNS	32768u
/* Offsets from the receiver's initial PSN it may deliver (epsn + window). */
#define RCV_SPAN	65536u
#define NET_SLOTS	64u
#define REPLY_SLOTS	16u

enum step {
	STEP_POST,		/* n: a message of n % 16 + 1 packets */
	STEP_SEND,		/* n: up to n % 32 + 1 transmissions */
	STEP_DELIVER,		/* idx, how: a packet of the network arrives */
	STEP_REPLY,		/* idx, keep: a receiver reply arrives */
	STEP_FORGED_ACK,	/* mode, cum, nwords, words, ev, ecn */
	STEP_TRIM,		/* delta8: NAK(trimmed) of una + delta */
	STEP_RNR,		/* delta8: RNR NAK of una + delta */
	STEP_TIME,		/* delta16, shift: time passes */
	STEP_TIMER,		/* at: the timer fires (when due, or now) */
	STEP_PROBE,		/* ev, how: the last probe's reply, or any EV's */
	STEP_RAW,		/* len, bytes: any packet, decoded */
	STEP_POLL_SENDER,	/* every finished message */
	STEP_POLL_RECEIVER,	/* n: up to n completions */
	/* READ/atomic messages, answered by a response the caller tracks. */
	STEP_POST_RESPONSE,	/* n: as STEP_POST, awaiting a response */
	STEP_RESPONSE,		/* idx, how: a response progresses, ends, is late */
	STEP_NEXT_REQUEST,	/* idx: a message asks again on a new PSN */
	STEP_SET_RTO,		/* b: new RTO bounds; b % 8 == 0: no RTO */
	STEP_REPLY_ECHO,	/* idx, keep, late: a reply echoing its copy */
	/* The requester's questions, in its order (mrc_req_fill()). */
	STEP_SEND_SPLIT,	/* n: retransmissions, then up to n new PSNs */
	STEP_MSG_OF,		/* delta8: mrc_sender_msg_of(una + delta) */
	STEP_PLANE,		/* b: a plane's flag set or cleared */
	STEP_COUNT,
};

struct net_pkt {
	u32 psn;
	u32 flags;	/* MRC_RECEIVER_F_* */
	u32 ev;
	u32 ts;		/* low 32 bits of the send time */
};

/* A message's response, as the caller (mrc_req.c) sees it. */
enum {
	RESP_NONE,	/* no response expected (a WRITE or SEND) */
	RESP_AWAITED,
	RESP_DONE,	/* mrc_sender_response_done() was called */
};

struct harness {
	u64 now;
	/* The furthest now + a delay of the sender's ever reached. */
	u64 horizon;
	u32 init_psn;
	u32 n_evs;
	u32 nslots;
	u32 nmsgs;
	u32 ack_interval;
	struct mrc_sender_params p;

	struct mrc_sender snd;
	struct mrc_tx_slot slots[MAX_SLOTS];
	struct mrc_sender_msg msgs[MAX_MSGS];
	struct mrc_ev_set set;
	struct mrc_ev evs[MAX_EVS];
	struct mrc_nscc cc;
	struct mrc_receiver rcv;

	/* Sender shadow: messages by post number, PSNs by offset. */
	u32 posted;
	u32 polled;
	u32 cur_msg;		/* the message new PSNs come from */
	u32 new_psns;		/* new PSNs handed out */
	bool forged;		/* an ACK not from the receiver reached it */
	bool failed;		/* the sender reported it failed */
	u32 pending_at_fail;
	/* The last EV the sender asked to probe. */
	u32 probe_ev;
	/* Probes the sender asked for and gave up on, as the harness saw. */
	u32 probes;
	u32 probes_lost;
	/* NSCC's RTT hook: 0 none, else how it answers (cc_rtt_hook()). */
	u8 cc_rtt_mode;
	u32 cc_rtt_calls;
	/* una before the ACK being processed (the hook's PSN is past it). */
	u32 ack_una;
	u32 retry_exceeded;
	u32 flushed;
	/* The message that must fail when the sender fails (post number). */
	u32 expect_fail;
	bool pkt_map;
	/* The sender's counters as the harness saw the events. */
	u32 retx[MRC_SENDER_RETX_PLANE_DOWN + 1];
	u32 acks_invalid;

	/* Network: packets on the way (a ring; overwritten ones are lost). */
	struct net_pkt net[NET_SLOTS];
	u32 net_n;
	u32 net_head;
	struct mrc_receiver_reply replies[REPLY_SLOTS];
	u32 reply_ev[REPLY_SLOTS];
	u32 reply_n;
	u32 reply_head;
	/* The copy each reply answers (PSN, send time). */
	u32 reply_psn[REPLY_SLOTS];
	u32 reply_ts[REPLY_SLOTS];
	u32 pkts[MAX_SLOTS];

	/* The receiver's scan: offsets below are reported or not last. */
	u32 rcv_scan;
	/* Bytes of delivered[] and last[] an input may have set. */
	u32 rcv_dirty;

	/*
	 * From here on, not cleared per input (it would cost more than the
	 * run): each entry is written before it is read, the bitmaps are
	 * cleared up to rcv_dirty.
	 */
	u16 msg_npkts[MAX_POSTS];
	u16 msg_sent[MAX_POSTS];
	u32 msg_first[MAX_POSTS];
	/* Offsets of a message's first and last PSN (requests go later). */
	u32 msg_first_off[MAX_POSTS];
	u32 msg_last_off[MAX_POSTS];
	u8 msg_resp[MAX_POSTS];
	/* The caller found the response late (for the next timer). */
	u8 msg_late[MAX_POSTS];
	u16 psn_msg[MAX_PSNS];
	u16 psn_pkt[MAX_PSNS];
	/* A PSN's first send time, and whether it went again since. */
	u64 psn_sent_at[MAX_PSNS];
	u8 psn_resent[MAX_PSNS];
	/* Receiver shadow, by offset from init_psn. */
	u8 delivered[RCV_SPAN / 8];
	u8 last[RCV_SPAN / 8];
};

static struct harness H;

/*
 * The invariant checks run after every step and walk whole windows: left
 * out of the coverage instrumentation (still sanitized), their branches
 * neither steer the fuzzer nor cost most of its time (as core_check.c).
 */
#define CHECK_FN __attribute__((no_sanitize("coverage")))

CHECK_FN static bool bit_get(const u8 *map, u32 off)
{
	return off < RCV_SPAN && (map[off / 8] >> (off % 8)) & 1;
}

static void bit_set(u8 *map, u32 off)
{
	FUZZ_ASSERT(off < RCV_SPAN);
	map[off / 8] |= (u8)(1u << (off % 8));
	if (H.rcv_dirty <= off / 8)
		H.rcv_dirty = off / 8 + 1;
}

static u32 rcv_off(u32 psn)
{
	return mrc_psn_distance(H.init_psn, psn);
}

/* ------------------------------------------------------------------ */
/* Receiver                                                           */
/* ------------------------------------------------------------------ */

CHECK_FN static void check_reply(const struct mrc_receiver_reply *r)
{
	u32 i, epsn = mrc_receiver_epsn(&H.rcv), base = rcv_off(epsn) + 1;
	/* Past this bit nothing was delivered: the SACK must be clear. */
	u32 end = H.rcv_dirty * 8 > base ? H.rcv_dirty * 8 - base : 0;

	FUZZ_ASSERT(r->cum_psn == epsn);
	FUZZ_ASSERT(r->nwords <= MRC_RX_SACK_MAX_WORDS);
	if (end > MRC_RX_WINDOW - 1)
		end = MRC_RX_WINDOW - 1;
	/* Bit i is PSN cum + 1 + i: set exactly when it was delivered. */
	for (i = 0; i < end; i++) {
		bool set = i < r->nwords * 64 &&
			   (r->sack[i / 64] >> (63 - i % 64)) & 1;

		FUZZ_ASSERT(set == bit_get(H.delivered, base + i));
	}
	for (; i < r->nwords * 64; i++)
		FUZZ_ASSERT(!((r->sack[i / 64] >> (63 - i % 64)) & 1));
}

/* @psn with @flags arrives at the receiver; its reply, if any, in @reply. */
static bool receiver_in(u32 psn, u32 flags, struct mrc_receiver_reply *reply)
{
	u32 before = mrc_receiver_epsn(&H.rcv), after, off, p;
	u32 ahead, behind;
	struct mrc_receiver_verdict v;
	bool was, in_window, dup_range;

	psn &= MRC_PSN_MASK;
	off = rcv_off(psn);
	was = bit_get(H.delivered, off);
	ahead = mrc_psn_distance(before, psn);
	behind = mrc_psn_distance(psn, before);
	/* The marks' ring starts at the oldest completion not yet polled. */
	in_window = ahead < MRC_RX_WINDOW &&
		    off - H.rcv_scan < MRC_RX_WINDOW;
	dup_range = behind >= 1 && behind <= MRC_RX_DUP_DISTANCE;
	memset(reply, 0xa5, sizeof(*reply));
	mrc_receiver_on_packet(&H.rcv, psn, flags, &v, reply);
	after = mrc_receiver_epsn(&H.rcv);

	switch (v.action) {
	case MRC_RECEIVER_DELIVER:
		/* New, in the window, not trimmed: executed exactly once. */
		FUZZ_ASSERT(in_window && !was && !(flags & MRC_RECEIVER_F_TRIMMED));
		bit_set(H.delivered, off);
		if (flags & MRC_RECEIVER_F_LAST)
			bit_set(H.last, off);
		break;
	case MRC_RECEIVER_DUPLICATE:
		/* Received before, or behind epsn (before init: never sent). */
		FUZZ_ASSERT(was || dup_range);
		FUZZ_ASSERT(!dup_range || off >= rcv_off(before) || was);
		break;
	case MRC_RECEIVER_TRIMMED:
		FUZZ_ASSERT((flags & MRC_RECEIVER_F_TRIMMED) && in_window && !was);
		FUZZ_ASSERT(v.reply && reply->syndrome == MRC_NAK_TRIMMED &&
			    reply->nak_psn == psn);
		break;
	case MRC_RECEIVER_DROP:
		FUZZ_ASSERT(!in_window && !dup_range && !v.reply);
		break;
	default:
		FUZZ_ASSERT(0);
	}
	/* What the window says must be what the verdict was. */
	if (in_window && !was)
		FUZZ_ASSERT(v.action == ((flags & MRC_RECEIVER_F_TRIMMED) ?
					 MRC_RECEIVER_TRIMMED :
					 MRC_RECEIVER_DELIVER));
	if (v.action != MRC_RECEIVER_TRIMMED && v.reply)
		FUZZ_ASSERT(reply->syndrome == MRC_SYN_ACK);
	/* Answers that the header promises. */
	if (v.action == MRC_RECEIVER_DUPLICATE ||
	    v.action == MRC_RECEIVER_TRIMMED ||
	    (v.action == MRC_RECEIVER_DELIVER &&
	     ((flags & MRC_RECEIVER_F_ACK_REQ) || psn != before)))
		FUZZ_ASSERT(v.reply);
	/* epsn moves forward over delivered PSNs only, to a missing one. */
	FUZZ_ASSERT(rcv_off(after) >= rcv_off(before) ||
		    rcv_off(before) >= RCV_SPAN);
	for (p = before; p != after; p = mrc_psn_add(p, 1))
		FUZZ_ASSERT(bit_get(H.delivered, rcv_off(p)));
	FUZZ_ASSERT(!bit_get(H.delivered, rcv_off(after)));
	if (v.action != MRC_RECEIVER_DELIVER)
		FUZZ_ASSERT(after == before);
	if (v.reply)
		check_reply(reply);
	return v.reply;
}

static void poll_receiver(u32 max)
{
	u32 epsn_off = rcv_off(mrc_receiver_epsn(&H.rcv)), last, off;

	while (max--) {
		if (!mrc_receiver_poll_done(&H.rcv, &last)) {
			/* Nothing left: every last packet below epsn reported. */
			for (off = H.rcv_scan; off < epsn_off; off++)
				FUZZ_ASSERT(!bit_get(H.last, off));
			H.rcv_scan = epsn_off;
			return;
		}
		off = rcv_off(last);
		/* A delivered last packet, below epsn, after the previous. */
		FUZZ_ASSERT(off >= H.rcv_scan && off < epsn_off);
		FUZZ_ASSERT(bit_get(H.last, off));
		while (H.rcv_scan < off)
			FUZZ_ASSERT(!bit_get(H.last, H.rcv_scan++));
		H.rcv_scan = off + 1;
	}
}

/* ------------------------------------------------------------------ */
/* Sender                                                             */
/* ------------------------------------------------------------------ */

static u32 snd_off(u32 psn)
{
	return mrc_psn_distance(H.init_psn, psn);
}

CHECK_FN static u64 timer_bound(void)
{
	u64 b = mrc_rto_us(&H.snd.rto), w = mrc_tx_reorder_window(&H.snd.tx);

	if (b < w)
		b = w;
	if (b < H.snd.tx.charge_patience)
		b = H.snd.tx.charge_patience;
	if (b < H.snd.tx.charge_delay)
		b = H.snd.tx.charge_delay;
	/* The timer also covers the next probe and probe timeout. */
	if (H.n_evs) {
		w = (u64)H.set.params.probe_interval_us <<
		    H.set.params.probe_max_backoff;
		if (b < w)
			b = w;
		w = mrc_sender_probe_timeout_us(&H.snd);
		if (b < w)
			b = w;
	}
	return b;
}

CHECK_FN static void horizon_update(void)
{
	if (H.horizon < H.now + timer_bound())
		H.horizon = H.now + timer_bound();
}

/* Whether a message posted to the sender has a packet not yet sent. */
CHECK_FN static bool unsent_packet(void)
{
	u32 k;

	for (k = H.polled; k != H.posted; k++)
		if (H.msg_sent[k] < H.msg_npkts[k])
			return true;
	return false;
}

/*
 * mrc_sender_window_open(): the tracker's room, and without NSCC the
 * fixed window over what is outstanding (NSCC may keep it open for one
 * more packet that asks an ACK, never past the tracker).
 */
CHECK_FN static void check_window(void)
{
	const struct mrc_tx_tracker *t = &H.snd.tx;
	bool open = mrc_sender_window_open(&H.snd);
	u32 out = mrc_tx_outstanding(t);

	FUZZ_ASSERT(!open || out < H.nslots);
	if (!H.snd.cc)
		FUZZ_ASSERT(open == (out < H.nslots && out < H.p.fixed_cwnd));
}

/*
 * mrc_sender_msg_of(): the message of every outstanding PSN, as it went
 * out, while that message is live (not yet returned by
 * mrc_sender_poll_done(): after a failure the ring moves on while the
 * PSNs stay outstanding); mrc_sender_msg_at() leads to its entry. -1 for
 * anything else.
 */
CHECK_FN static void check_msg_of(u32 psn)
{
	u32 una = snd_off(H.snd.tx.una), off = snd_off(psn);
	int msg = mrc_sender_msg_of(&H.snd, psn);

	if (off >= una && off < H.new_psns && H.psn_msg[off] >= H.polled) {
		u32 k = H.psn_msg[off];

		FUZZ_ASSERT(msg == (int)(k & (H.nmsgs - 1)));
		FUZZ_ASSERT(mrc_sender_msg_at(&H.snd, (u32)msg)->cookie == k);
	} else {
		FUZZ_ASSERT(msg == -1);
	}
}

/*
 * After every step, msg_of at the window's edges and in its middle
 * (STEP_MSG_OF asks of any PSN near una).
 */
CHECK_FN static void check_msg_of_edges(void)
{
	const struct mrc_tx_tracker *t = &H.snd.tx;
	u32 out = mrc_tx_outstanding(t);

	check_msg_of(mrc_psn_add(t->una, MRC_PSN_MASK));
	check_msg_of(t->una);
	check_msg_of(mrc_psn_add(t->una, out / 2));
	check_msg_of(mrc_psn_add(t->next, MRC_PSN_MASK));
	check_msg_of(t->next);
}

/*
 * The requester asks for a probe after every event (mrc_sender_next_probe()):
 * first every probe pending for the probe timeout or longer fails, and
 * no other; then a retired EV, on a usable plane, due and not pending,
 * is probed, and -1 means none is left.
 */
CHECK_FN static void check_probe(void)
{
	const struct mrc_ev_set *set = &H.set;
	u64 timeout = mrc_sender_probe_timeout_us(&H.snd);
	u32 i, pending = 0, expire = 0, now = (u32)H.now;
	bool was[MAX_EVS];
	int ev;

	u64 base = H.snd.no_rto ? 0 : mrc_rto_base_us(&H.snd.rto);

	/* An RTO, but never the backed-off one. */
	FUZZ_ASSERT(timeout == (base > MRC_SENDER_PROBE_TIMEOUT_MIN_US ?
				base : MRC_SENDER_PROBE_TIMEOUT_MIN_US));
	for (i = 0; i < H.n_evs; i++) {
		const struct mrc_ev *e = &set->evs[i];

		was[i] = e->probe_pending;
		/* Only a retired EV waits for a probe's reply. */
		FUZZ_ASSERT(!e->probe_pending ||
			    e->state == MRC_EV_ASSUMED_BAD);
		pending += e->probe_pending;
		expire += e->probe_pending &&
			  now - e->probe_sent_us >= timeout;
	}
	if (H.n_evs)
		FUZZ_ASSERT(set->probes_pending == pending);
	ev = mrc_sender_next_probe(&H.snd, H.now);
	if (H.snd.failed || !H.n_evs) {
		FUZZ_ASSERT(ev == -1);
		return;
	}
	H.probes_lost += expire;
	FUZZ_ASSERT(H.snd.stats.probes_lost == H.probes_lost);
	FUZZ_ASSERT(ev == -1 || (u32)ev < H.n_evs);
	for (i = 0; i < H.n_evs; i++) {
		const struct mrc_ev *e = &set->evs[i];
		bool due = e->state == MRC_EV_ASSUMED_BAD && !e->probe_pending &&
			   !set->plane_flags[e->plane] &&
			   (s32)(now - e->probe_due_us) >= 0;

		if ((int)i == ev) {
			FUZZ_ASSERT(!was[i] && e->probe_pending &&
				    e->state == MRC_EV_ASSUMED_BAD &&
				    !set->plane_flags[e->plane] &&
				    e->probe_sent_us == now);
			continue;
		}
		/* Pending still: it had not waited the timeout. */
		if (e->probe_pending)
			FUZZ_ASSERT(was[i] && now - e->probe_sent_us < timeout);
		/* Nothing due is left unprobed. */
		FUZZ_ASSERT(ev >= 0 || !due);
	}
	if (ev >= 0) {
		H.probes++;
		H.probe_ev = (u32)ev;
	}
	FUZZ_ASSERT(H.snd.stats.probes == H.probes);
}

/*
 * Once the sender has seen every plane loss, nothing it has in flight is
 * on a plane that cannot carry it: the loss took those back, and no later
 * pick chooses such an EV.
 */
static void check_no_flight_on_dead_planes(void)
{
	const struct mrc_tx_tracker *t = &H.snd.tx;
	u32 idx;

	if (!H.snd.evs || H.snd.planes_lost_seen != H.set.planes_lost)
		return;
	for (idx = t->head; idx != MRC_TX_NIL; idx = t->slots[idx].next) {
		u32 ev = t->slots[idx].ev;

		FUZZ_ASSERT(ev >= H.set.n_evs ||
			    !H.set.plane_flags[H.set.evs[ev].plane]);
	}
}

CHECK_FN static void check_sender(void)
{
	const struct mrc_tx_tracker *t = &H.snd.tx;
	u32 una = snd_off(t->una), next = snd_off(t->next), k;
	u64 due;

	horizon_update();
	FUZZ_ASSERT(next == H.new_psns);
	FUZZ_ASSERT(una <= next && next - una <= H.nslots);
	FUZZ_ASSERT(mrc_tx_outstanding(t) == next - una);
	FUZZ_ASSERT(mrc_tx_in_flight(t) + mrc_tx_lost_count(t) <= next - una);
	FUZZ_ASSERT(mrc_sender_pending(&H.snd) == H.posted - H.polled);
	/* The counters are the events the harness saw. */
	FUZZ_ASSERT(H.snd.stats.sent == H.new_psns);
	FUZZ_ASSERT(H.snd.stats.retx_loss == H.retx[MRC_SENDER_RETX_LOSS]);
	FUZZ_ASSERT(H.snd.stats.retx_timeout ==
		    H.retx[MRC_SENDER_RETX_TIMEOUT]);
	FUZZ_ASSERT(H.snd.stats.retx_trim == H.retx[MRC_SENDER_RETX_TRIM]);
	FUZZ_ASSERT(H.snd.stats.retx_plane_down ==
		    H.retx[MRC_SENDER_RETX_PLANE_DOWN]);
	check_no_flight_on_dead_planes();
	FUZZ_ASSERT(H.snd.stats.acks_invalid == H.acks_invalid);
	/* Consecutive retries are timeouts, and within the limit. */
	FUZZ_ASSERT(H.snd.retries <= H.snd.stats.timeouts);
	FUZZ_ASSERT(H.snd.failed || H.snd.retries <= H.p.retry_cnt);
	FUZZ_ASSERT(H.snd.failed == H.failed);
	/* A message's ring entry: what went out, never more acknowledged. */
	for (k = H.polled; k != H.posted; k++) {
		const struct mrc_sender_msg *m =
			mrc_sender_msg_at(&H.snd, k & (H.nmsgs - 1));

		FUZZ_ASSERT(m->cookie == k && m->npkts == H.msg_npkts[k]);
		FUZZ_ASSERT(m->sent == H.msg_sent[k]);
		FUZZ_ASSERT(m->acked <= m->sent);
		FUZZ_ASSERT(m->awaits_response ==
			    (H.msg_resp[k] == RESP_AWAITED));
	}
	if (H.snd.failed) {
		struct mrc_sender_tx tx;

		FUZZ_ASSERT(!mrc_sender_next_timer(&H.snd, H.now, &due));
		FUZZ_ASSERT(!mrc_sender_next(&H.snd, H.now, &tx));
		FUZZ_ASSERT(!mrc_sender_next_retransmit(&H.snd, H.now, &tx));
		check_msg_of_edges();
		check_probe();
		return;
	}
	if (mrc_sender_next_timer(&H.snd, H.now, &due)) {
		FUZZ_ASSERT(due >= H.now);
		/*
		 * No later than the furthest any delay the sender worked
		 * with (RTO, reordering window, EV charge delay and
		 * patience) reached.
		 */
		FUZZ_ASSERT(due <= H.horizon);
	} else {
		/*
		 * Something in flight, or only selectively acknowledged
		 * PSNs, and no timer: the sender would hang. Without an
		 * RTO only held losses arm it (the caller waits for ever).
		 */
		FUZZ_ASSERT(H.snd.no_rto || !mrc_tx_in_flight(t));
		FUZZ_ASSERT(H.snd.no_rto || !mrc_tx_outstanding(t) ||
			    mrc_tx_lost_count(t));
	}
	check_window();
	check_msg_of_edges();
	/* As a caller asks after every event; STEP_PROBE answers it. */
	check_probe();
}

static void net_put(const struct net_pkt *pkt)
{
	u32 i = (H.net_head + H.net_n) % NET_SLOTS;

	H.net[i] = *pkt;
	if (H.net_n < NET_SLOTS)
		H.net_n++;
	else
		H.net_head = (H.net_head + 1) % NET_SLOTS;
}

#define NO_MSG	0xffffffffu

/*
 * Checks @tx, handed out with una at @una, and puts it on the network.
 * @request: the post number mrc_sender_next_request() was asked for, or
 * NO_MSG for mrc_sender_next().
 */
static void record_tx(const struct mrc_sender_tx *tx, u32 una, u32 request)
{
	struct net_pkt pkt;
	u32 off, k;

	FUZZ_ASSERT(tx->psn <= MRC_PSN_MASK);
	FUZZ_ASSERT(mrc_psn_distance(una, tx->psn) < H.nslots);
	FUZZ_ASSERT(tx->ev == MRC_TX_NIL || (H.n_evs && tx->ev < H.n_evs));
	FUZZ_ASSERT(tx->msg < H.nmsgs);
	off = snd_off(tx->psn);
	if (tx->why == MRC_SENDER_NEW) {
		/* Never the same PSN twice as new: the next in sequence. */
		FUZZ_ASSERT(off == H.new_psns && off < MAX_PSNS);
		if (request == NO_MSG) {
			while (H.cur_msg < H.posted &&
			       H.msg_sent[H.cur_msg] == H.msg_npkts[H.cur_msg])
				H.cur_msg++;
			k = H.cur_msg;
			FUZZ_ASSERT(k < H.posted && k >= H.polled);
		} else {
			/* One more packet of that message, asking an ACK. */
			k = request;
			FUZZ_ASSERT(tx->ack_req);
			H.msg_npkts[k]++;
		}
		FUZZ_ASSERT(tx->msg == (k & (H.nmsgs - 1)));
		FUZZ_ASSERT(tx->pkt == H.msg_sent[k]);
		if (!tx->pkt) {
			H.msg_first[k] = tx->psn;
			H.msg_first_off[k] = off;
		}
		H.msg_last_off[k] = off;
		H.msg_sent[k]++;
		/* A message's last packet always asks (mrc_sender.h). */
		if (H.msg_sent[k] == H.msg_npkts[k] ||
		    H.msg_sent[k] % H.ack_interval == 0)
			FUZZ_ASSERT(tx->ack_req);
		H.psn_msg[off] = (u16)k;
		H.psn_pkt[off] = (u16)tx->pkt;
		H.psn_sent_at[off] = H.now;
		H.psn_resent[off] = 0;
		H.new_psns++;
	} else {
		FUZZ_ASSERT(request == NO_MSG);
		FUZZ_ASSERT(tx->why <= MRC_SENDER_RETX_PLANE_DOWN);
		H.retx[tx->why]++;
		/* Sent before, not cumulatively acknowledged, same place. */
		FUZZ_ASSERT(off < H.new_psns &&
			    off >= snd_off(una));
		k = H.psn_msg[off];
		FUZZ_ASSERT(k >= H.polled);
		FUZZ_ASSERT(tx->msg == (k & (H.nmsgs - 1)));
		FUZZ_ASSERT(tx->pkt == H.psn_pkt[off]);
		FUZZ_ASSERT(tx->ack_req);
		H.psn_resent[off] = 1;
	}
	pkt.psn = tx->psn;
	pkt.ev = tx->ev;
	pkt.ts = (u32)H.now;
	pkt.flags = (tx->ack_req ? MRC_RECEIVER_F_ACK_REQ : 0) |
		    (tx->pkt + 1 == H.msg_npkts[k] ? MRC_RECEIVER_F_LAST : 0);
	net_put(&pkt);
}

static bool send_one(void)
{
	u32 una = H.snd.tx.una;
	struct mrc_sender_tx tx;
	bool failed = H.snd.failed;

	memset(&tx, 0x5a, sizeof(tx));
	if (!mrc_sender_next(&H.snd, H.now, &tx))
		return false;
	FUZZ_ASSERT(!failed);
	record_tx(&tx, una, NO_MSG);
	return true;
}

/*
 * What the sender's next look takes back at once: the PSNs in flight on a
 * plane that stopped carrying traffic since it last looked, once an EV is
 * usable to resend them on.
 */
static u32 plane_losses_due(void)
{
	const struct mrc_tx_tracker *t = &H.snd.tx;
	u32 idx, n = 0;

	if (!H.snd.evs || H.snd.failed ||
	    H.snd.planes_lost_seen == H.set.planes_lost ||
	    !mrc_ev_usable_count(&H.set))
		return 0;
	for (idx = t->head; idx != MRC_TX_NIL; idx = t->slots[idx].next) {
		u32 ev = t->slots[idx].ev;

		if (ev < H.set.n_evs && H.set.plane_flags[H.set.evs[ev].plane])
			n++;
	}
	return n;
}

/*
 * The requester's order (mrc_req_fill()): every retransmission through
 * mrc_sender_next_retransmit() first, then new PSNs while the window is
 * open. A PSN waits for retransmission exactly while one is handed out;
 * once none waits, mrc_sender_next() hands out a new PSN exactly when the
 * window is open and a message has a packet left to send.
 */
static void send_split(u32 n)
{
	const struct mrc_tx_tracker *t = &H.snd.tx;
	struct mrc_sender_tx tx;
	bool failed = H.snd.failed, open, more;
	u32 una, lost;

	for (;;) {
		una = t->una;
		lost = mrc_tx_lost_count(t) + plane_losses_due();
		memset(&tx, 0x5a, sizeof(tx));
		if (!mrc_sender_next_retransmit(&H.snd, H.now, &tx)) {
			FUZZ_ASSERT(failed || !lost);
			break;
		}
		FUZZ_ASSERT(!failed && lost);
		FUZZ_ASSERT(tx.why != MRC_SENDER_NEW);
		/* No longer waiting: sent again. */
		FUZZ_ASSERT(mrc_tx_lost_count(t) == lost - 1);
		FUZZ_ASSERT(mrc_tx_slot(t, tx.psn)->state == MRC_TX_IN_FLIGHT);
		record_tx(&tx, una, NO_MSG);
	}
	while (n-- && H.new_psns + 1 < MAX_PSNS) {
		una = t->una;
		open = mrc_sender_window_open(&H.snd);
		more = unsent_packet();
		memset(&tx, 0x5a, sizeof(tx));
		if (!mrc_sender_next(&H.snd, H.now, &tx)) {
			FUZZ_ASSERT(failed || !open || !more);
			break;
		}
		FUZZ_ASSERT(!failed && open && more);
		FUZZ_ASSERT(tx.why == MRC_SENDER_NEW);
		record_tx(&tx, una, NO_MSG);
	}
}

/*
 * Message @k asks again (a READ's next segment or re-request). Only a
 * message sent in full and cumulatively acknowledged may; without a
 * packet map, not while another message is partly sent.
 */
static bool next_request(u32 k)
{
	const struct mrc_sender_msg *m = &H.msgs[k & (H.nmsgs - 1)];
	u32 una = H.snd.tx.una, acked = m->acked, j;
	bool failed = H.snd.failed, partly = false;
	bool open = mrc_sender_window_open(&H.snd);
	struct mrc_sender_tx tx;

	for (j = H.polled; j != H.posted; j++)
		if (j != k && H.msg_sent[j] && H.msg_sent[j] < H.msg_npkts[j])
			partly = true;
	memset(&tx, 0x5a, sizeof(tx));
	if (!mrc_sender_next_request(&H.snd, H.now, k & (H.nmsgs - 1), &tx))
		return false;
	FUZZ_ASSERT(!failed && open && k >= H.polled && k < H.posted);
	FUZZ_ASSERT(H.msg_sent[k] == H.msg_npkts[k] && acked == H.msg_npkts[k]);
	FUZZ_ASSERT(H.pkt_map || !partly);
	FUZZ_ASSERT(tx.why == MRC_SENDER_NEW);
	record_tx(&tx, una, k);
	return true;
}

static void poll_sender(void)
{
	struct mrc_sender_done d;
	u32 k, off;

	while (mrc_sender_poll_done(&H.snd, &d)) {
		k = H.polled;
		FUZZ_ASSERT(k < H.posted);
		/* Once each, in posting order. */
		FUZZ_ASSERT(d.cookie == k);
		switch (d.status) {
		case MRC_SENDER_ST_OK:
			FUZZ_ASSERT(!H.retry_exceeded && !H.flushed);
			FUZZ_ASSERT(!H.failed || k < H.expect_fail);
			FUZZ_ASSERT(H.msg_sent[k] == H.msg_npkts[k]);
			/* A READ or atomic: only once its response came. */
			FUZZ_ASSERT(H.msg_resp[k] != RESP_AWAITED);
			if (!H.forged)
				for (off = H.msg_first_off[k];
				     off <= H.msg_last_off[k]; off++)
					FUZZ_ASSERT(H.psn_msg[off] != k ||
						    bit_get(H.delivered,
							    rcv_off(mrc_psn_add(H.init_psn, off))));
			break;
		case MRC_SENDER_ST_RETRY_EXCEEDED:
			FUZZ_ASSERT(H.snd.failed);
			FUZZ_ASSERT(!H.retry_exceeded++ && !H.flushed);
			/* The oldest message unfinished when the retries ran out. */
			FUZZ_ASSERT(k == H.expect_fail);
			break;
		case MRC_SENDER_ST_FLUSHED:
			FUZZ_ASSERT(H.snd.failed);
			FUZZ_ASSERT(H.retry_exceeded || !H.pending_at_fail);
			FUZZ_ASSERT(k > H.expect_fail);
			H.flushed++;
			break;
		default:
			FUZZ_ASSERT(0);
		}
		H.polled++;
	}
	if (H.snd.failed) {
		/* A failed sender gives every message back. */
		FUZZ_ASSERT(H.polled == H.posted);
		FUZZ_ASSERT(H.retry_exceeded == (H.pending_at_fail ? 1u : 0u));
	}
}

/*
 * NSCC's RTT hook, as the requester's (mrc_req_cc_rtt()): it hears of a
 * PSN this ACK delivered, sent once (a resent one gives no sample), with
 * its send time and the time since; its answer, the fabric's share, is
 * all of it, half, or nothing (the sender takes 1 us then).
 */
static u64 cc_rtt_hook(void *arg, u32 psn, u64 sent_at, u64 rtt)
{
	u32 off = snd_off(psn);

	FUZZ_ASSERT(arg == &H);
	FUZZ_ASSERT(H.snd.cc && H.cc_rtt_mode);
	FUZZ_ASSERT(off < H.new_psns && off >= snd_off(H.ack_una));
	FUZZ_ASSERT(!H.psn_resent[off] && sent_at == H.psn_sent_at[off]);
	FUZZ_ASSERT(sent_at <= H.now && rtt == H.now - sent_at);
	H.cc_rtt_calls++;
	switch (H.cc_rtt_mode) {
	case 1:
		return rtt;
	case 2:
		return rtt / 2;
	default:
		return 0;
	}
}

/*
 * An ACK, with the echo of its copy when @echo; mrc_sender_on_ack_ex()'s
 * result must say what changed: the PSNs that left the in-flight and
 * lost sets, the cumulative PSN's advance, no more losses than PSNs.
 */
static void sender_ack_ex(u32 cum, const u64 *sack, u32 nwords, u32 ev,
			  bool ecn, const struct mrc_sender_ack *echo)
{
	const struct mrc_tx_tracker *t = &H.snd.tx;
	struct mrc_sender_ack ack = {
		.cum_psn = cum, .sack = sack, .nwords = nwords,
		.ev_echo = ev, .ecn = ecn,
	};
	u32 una = t->una, outstanding = mrc_tx_outstanding(t);
	u32 pending = mrc_tx_in_flight(t) + mrc_tx_lost_count(t), now_pending;
	bool failed = H.snd.failed;
	struct mrc_sender_ack_result res;
	int ret;

	if (echo) {
		ack.has_echo = true;
		ack.echo_psn = echo->echo_psn;
		ack.ts_echo = echo->ts_echo;
	}
	memset(&res, 0x5a, sizeof(res));
	H.ack_una = una;
	H.cc_rtt_calls = 0;
	ret = mrc_sender_on_ack_ex(&H.snd, H.now, &ack, &res);
	/* One sample per ACK at most, and only from an ACK that counted. */
	FUZZ_ASSERT(H.cc_rtt_calls <= 1);
	FUZZ_ASSERT(!H.cc_rtt_calls || (ret == MRC_TX_ACK_OK && !failed));
	FUZZ_ASSERT(ret == MRC_TX_ACK_OK || ret == MRC_TX_ACK_STALE ||
		    ret == MRC_TX_ACK_INVALID);
	if (ret == MRC_TX_ACK_INVALID)
		H.acks_invalid++;
	now_pending = mrc_tx_in_flight(t) + mrc_tx_lost_count(t);
	if (ret != MRC_TX_ACK_OK || failed) {
		/* Nothing changed, and the result says so. */
		FUZZ_ASSERT(!res.delivered && !res.acked && !res.lost);
		FUZZ_ASSERT(t->una == una && now_pending == pending);
		return;
	}
	FUZZ_ASSERT(res.acked == mrc_psn_distance(una, t->una));
	FUZZ_ASSERT(res.acked <= outstanding);
	FUZZ_ASSERT(now_pending <= pending &&
		    res.delivered == pending - now_pending);
	FUZZ_ASSERT(res.lost <= outstanding);
}

static void sender_ack(u32 cum, const u64 *sack, u32 nwords, u32 ev, bool ecn)
{
	sender_ack_ex(cum, sack, nwords, ev, ecn, NULL);
}

/* Live messages whose response the caller found late (then cleared). */
static u32 late_responses(void)
{
	u32 k, n = 0;

	for (k = H.polled; k != H.posted; k++) {
		if (H.msg_late[k] && H.msg_resp[k] == RESP_AWAITED)
			n++;
		H.msg_late[k] = 0;
	}
	return n;
}

static void sender_timeout(u32 responses)
{
	bool was = H.snd.failed;
	u32 pending = H.posted - H.polled, k, oldest = H.posted;

	/* Which message must fail if this timeout exhausts the retries. */
	for (k = H.polled; k != H.posted; k++)
		if (H.msgs[k & (H.nmsgs - 1)].acked < H.msg_npkts[k] ||
		    H.msg_resp[k] == RESP_AWAITED) {
			oldest = k;
			break;
		}
	mrc_sender_on_timeout_ex(&H.snd, H.now, responses);
	if (!was && H.snd.failed) {
		H.failed = true;
		H.expect_fail = oldest;
		H.pending_at_fail = pending;
		/* Something was in flight: some message was not finished. */
		FUZZ_ASSERT(pending && oldest != H.posted);
	}
}

/* ------------------------------------------------------------------ */
/* Steps                                                              */
/* ------------------------------------------------------------------ */

static void step_deliver(struct input *in)
{
	u8 idx = in_u8(in), how = in_u8(in);
	struct mrc_receiver_reply reply;
	struct net_pkt pkt;
	u32 i, j;

	if (!H.net_n)
		return;
	i = (H.net_head + idx % H.net_n) % NET_SLOTS;
	pkt = H.net[i];
	if (!(how & 1)) {
		/* Taken off the network (else a duplicate stays behind). */
		for (j = idx % H.net_n; j + 1 < H.net_n; j++)
			H.net[(H.net_head + j) % NET_SLOTS] =
				H.net[(H.net_head + j + 1) % NET_SLOTS];
		H.net_n--;
	}
	if (how & 2)
		pkt.flags |= MRC_RECEIVER_F_TRIMMED;
	if (how & 4)
		pkt.flags ^= MRC_RECEIVER_F_ACK_REQ;
	if (receiver_in(pkt.psn, pkt.flags, &reply) && !(how & 8)) {
		i = (H.reply_head + H.reply_n) % REPLY_SLOTS;
		H.replies[i] = reply;
		H.reply_ev[i] = pkt.ev;
		H.reply_psn[i] = pkt.psn;
		H.reply_ts[i] = pkt.ts;
		if (H.reply_n < REPLY_SLOTS)
			H.reply_n++;
		else
			H.reply_head = (H.reply_head + 1) % REPLY_SLOTS;
	}
}

/*
 * A reply reaches the sender; @echo: with the echo of the copy that
 * caused it (mrc_sender_on_ack_ex(), mrc_sender_on_trim_echo()), its send
 * time moved back by @late (a copy older than the one it answers).
 */
static void step_reply(struct input *in, bool echo)
{
	u8 idx = in_u8(in), keep = in_u8(in), late = echo ? in_u8(in) : 0;
	const struct mrc_receiver_reply *r;
	struct mrc_sender_ack ack;
	u32 nwords, i;
	int ret;

	if (!H.reply_n)
		return;
	i = (H.reply_head + idx % H.reply_n) % REPLY_SLOTS;
	r = &H.replies[i];
	ack.echo_psn = H.reply_psn[i];
	ack.ts_echo = H.reply_ts[i] - (late & 1 ? late : 0);
	if (r->syndrome == MRC_NAK_TRIMMED && echo) {
		ret = mrc_sender_on_trim_echo(&H.snd, H.now, r->nak_psn,
					      ack.ts_echo);
		FUZZ_ASSERT(ret == MRC_TX_NAK_MARKED ||
			    ret == MRC_TX_NAK_IGNORED ||
			    ret == MRC_TX_NAK_CHARGE_CANCELLED);
		FUZZ_ASSERT(!H.snd.failed || ret == MRC_TX_NAK_IGNORED);
	} else if (r->syndrome == MRC_NAK_TRIMMED) {
		mrc_sender_on_trim(&H.snd, H.now, r->nak_psn);
	}
	/* The wire carries MRC_SACK_MAX_WORDS; the glue cuts the rest. */
	nwords = r->nwords < MRC_SACK_MAX_WORDS ? r->nwords :
		 MRC_SACK_MAX_WORDS;
	sender_ack_ex(r->cum_psn, r->sack, keep & 2 ? r->nwords : nwords,
		      H.reply_ev[i], keep & 4, echo ? &ack : NULL);
	if (!(keep & 1) && idx % H.reply_n == 0) {
		H.reply_head = (H.reply_head + 1) % REPLY_SLOTS;
		H.reply_n--;
	}
}

static void step_forged_ack(struct input *in)
{
	u8 mode = in_u8(in), nwords = in_u8(in), ev = in_u8(in);
	u32 cum = in_u32(in), i;
	u64 sack[MRC_RX_SACK_MAX_WORDS];

	nwords %= MRC_RX_SACK_MAX_WORDS + 2;
	for (i = 0; i < MRC_RX_SACK_MAX_WORDS; i++)
		sack[i] = i < nwords && i < 4 ? in_u64(in) :
			  (mode & 0x80 ? ~0ull : 0);
	switch (mode & 3) {
	case 0:		/* near una */
		cum = mrc_psn_add(H.snd.tx.una, (u32)(s32)(int8_t)cum);
		break;
	case 1:		/* near next */
		cum = mrc_psn_add(H.snd.tx.next, (u32)(s32)(int8_t)cum);
		break;
	case 2:		/* at the receiver's epsn */
		cum = mrc_receiver_epsn(&H.rcv);
		break;
	default:	/* anything, even beyond 24 bits */
		break;
	}
	H.forged = true;
	sender_ack(cum, sack, nwords > MRC_RX_SACK_MAX_WORDS ?
		   MRC_RX_SACK_MAX_WORDS : nwords,
		   mode & 4 ? ev : ev % (H.n_evs + 1), mode & 8);
}

/*
 * A probe's reply (or the caller giving up on it): of the last EV probed,
 * or any. It counts exactly when that EV's probe was pending, and then
 * that probe is over.
 */
static void probe_reply(u32 ev, bool ok)
{
	bool pending = ev < H.n_evs && H.evs[ev].probe_pending;
	u64 restarts = H.snd.stats.path_back_restarts;
	u32 retries = H.snd.retries;
	bool taken = mrc_sender_on_probe_reply(&H.snd, H.now, ev, ok);

	FUZZ_ASSERT(taken == pending);
	FUZZ_ASSERT(!taken || !H.evs[ev].probe_pending);
	/*
	 * Only a taken success that brought the EV back restarts, once:
	 * nothing is left in flight, the RTO has no backoff, no retry was
	 * counted.
	 */
	FUZZ_ASSERT(H.snd.stats.path_back_restarts - restarts <= 1);
	if (H.snd.stats.path_back_restarts != restarts) {
		FUZZ_ASSERT(taken && ok && H.evs[ev].state == MRC_EV_GOOD);
		FUZZ_ASSERT(!mrc_tx_in_flight(&H.snd.tx));
		FUZZ_ASSERT(!H.snd.rto.backoff);
		FUZZ_ASSERT(H.snd.progress_us == H.now);
	}
	FUZZ_ASSERT(H.snd.retries == retries);
}

static void step_probe(struct input *in)
{
	u8 ev = in_u8(in), ok = in_u8(in);

	probe_reply(ok & 2 ? ev : ok & 4 ? ev % (H.n_evs + 1) : H.probe_ev,
		    ok & 1);
}

static void step_raw(struct input *in)
{
	u8 len = in_u8(in), buf[256], *exact;
	struct mrc_receiver_reply reply;
	struct mrc_pkt pkt;
	u32 flags, i;

	for (i = 0; i < len; i++)
		buf[i] = in_u8(in);
	/* The decoder reads exactly len bytes: ASan sees any overread. */
	exact = malloc(len ? len : 1);
	FUZZ_ASSERT(exact);
	memcpy(exact, buf, len);
	if (mrc_decode(exact, len, &pkt) != 0) {
		free(exact);
		return;
	}
	free(exact);
	switch (pkt.hdr.opcode) {
	case MRC_OP_ACK:
	case MRC_OP_NAK:
		H.forged = true;
		if (pkt.hdr.opcode == MRC_OP_NAK &&
		    pkt.ack.syndrome == MRC_NAK_RNR) {
			mrc_sender_on_rnr(&H.snd, H.now, pkt.ack.nak_psn);
			break;
		}
		if (pkt.hdr.opcode == MRC_OP_NAK &&
		    pkt.ack.syndrome == MRC_NAK_TRIMMED)
			mrc_sender_on_trim(&H.snd, H.now, pkt.ack.nak_psn);
		sender_ack(pkt.ack.cum_psn, pkt.ack.sack, pkt.ack.sack_words,
			   pkt.ack.ev_echo, pkt.ack.flags & 1);
		break;
	case MRC_OP_PROBE_REPLY:
		probe_reply(pkt.probe.ev, true);
		break;
	case MRC_OP_WRITE:
	case MRC_OP_WRITE_IMM:
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
	case MRC_OP_READ_REQ:
	case MRC_OP_ATOMIC_CMP_SWAP:
	case MRC_OP_ATOMIC_FETCH_ADD:
		flags = (pkt.hdr.flags & MRC_F_ACK_REQ ?
			 MRC_RECEIVER_F_ACK_REQ : 0) |
			(pkt.hdr.flags & MRC_F_TRIMMED ?
			 MRC_RECEIVER_F_TRIMMED : 0) |
			(pkt.hdr.flags & MRC_F_SOLICITED ||
			 pkt.hdr.opcode >= MRC_OP_READ_REQ ?
			 MRC_RECEIVER_F_LAST : 0);
		receiver_in(pkt.hdr.psn, flags, &reply);
		break;
	default:
		break;
	}
}

static void step_timer(struct input *in)
{
	u8 at = in_u8(in);
	u64 due;

	if ((at & 1) && mrc_sender_next_timer(&H.snd, H.now, &due))
		H.now = due;
	/* The caller's timer also found these responses late. */
	sender_timeout(at & 2 ? late_responses() : 0);
}

/*
 * A response of a live message: @how % 4 is 0 progress, 1 the whole
 * response (again, a duplicate, when it came before), 2 late for the
 * next timer, 3 nothing (a response that never comes).
 */
static void step_response(struct input *in)
{
	u8 idx = in_u8(in), how = in_u8(in);
	u32 k;

	if (H.posted == H.polled)
		return;
	k = H.polled + idx % (H.posted - H.polled);
	if (H.msg_resp[k] == RESP_NONE)
		return;
	switch (how % 4) {
	case 0:
		if (H.msg_resp[k] == RESP_AWAITED)
			mrc_sender_on_response(&H.snd, H.now);
		break;
	case 1:
		/* A response answers a request that went out in full. */
		if (H.msg_sent[k] != H.msg_npkts[k])
			break;
		mrc_sender_response_done(&H.snd, k & (H.nmsgs - 1));
		H.msg_resp[k] = RESP_DONE;
		break;
	case 2:
		H.msg_late[k] = 1;
		break;
	}
}

/*
 * A plane (b & 1) stops or starts carrying traffic for one reason
 * (b >> 1 & 3: down, the peer's denial, the peer's port down; 3: none);
 * b & 0x80: set, else cleared.
 */
static void step_plane(u8 b)
{
	static const u8 flags[] = {
		MRC_EV_PLANE_DOWN, MRC_EV_PLANE_PEER_DENIED,
		MRC_EV_PLANE_PEER_PORT_DOWN, 0,
	};
	u32 lost = H.set.planes_lost;
	u8 before = (b & 1) < H.set.n_planes ? H.set.plane_flags[b & 1] : 0;
	u8 after;

	after = mrc_ev_plane_set(&H.set, b & 1, flags[b >> 1 & 3], b & 0x80,
				 (u32)H.now);
	/* Counted when, and only when, the plane stopped carrying traffic. */
	FUZZ_ASSERT(H.set.planes_lost - lost == (!before && after));
}

/* The timeout attribute changes (in RTS): new bounds, or no RTO. */
static void step_set_rto(u8 b)
{
	struct mrc_rto_params p = {
		.min_us = 100u << (b >> 3 & 3),
		.max_us = b & 0x20 ? 100000 : 2000u << (b >> 6),
		.granularity_us = 1,
		.initial_us = b % 8 ? 250u << (b % 8) : 0,
	};

	mrc_sender_set_rto(&H.snd, &p);
	FUZZ_ASSERT(H.snd.no_rto == !p.initial_us);
	FUZZ_ASSERT(!mrc_sender_rto_us(&H.snd) == !p.initial_us);
}

static void step(struct input *in)
{
	u8 op = in_u8(in) % STEP_COUNT, n;
	u32 i;

	horizon_update();
	switch (op) {
	case STEP_POST:
	case STEP_POST_RESPONSE:
		n = in_u8(in);
		if (H.posted == MAX_POSTS)
			break;
		i = n % 16 + 1;
		if ((op == STEP_POST ? mrc_sender_post(&H.snd, i, H.posted) :
		     mrc_sender_post_flags(&H.snd, i, H.posted,
					   MRC_SENDER_POST_RESPONSE)) >= 0) {
			FUZZ_ASSERT(H.posted - H.polled < H.nmsgs);
			H.msg_npkts[H.posted] = (u16)i;
			H.msg_sent[H.posted] = 0;
			H.msg_resp[H.posted] = op == STEP_POST ? RESP_NONE :
					       RESP_AWAITED;
			H.msg_late[H.posted] = 0;
			H.msg_first_off[H.posted] = 0;
			H.msg_last_off[H.posted] = 0;
			H.posted++;
		} else {
			FUZZ_ASSERT(H.posted - H.polled == H.nmsgs);
		}
		break;
	case STEP_RESPONSE:
		step_response(in);
		break;
	case STEP_NEXT_REQUEST:
		n = in_u8(in);
		if (H.posted != H.polled && H.new_psns + 1 < MAX_PSNS)
			next_request(H.polled + n % (H.posted - H.polled));
		break;
	case STEP_SET_RTO:
		step_set_rto(in_u8(in));
		break;
	case STEP_REPLY_ECHO:
		step_reply(in, true);
		break;
	case STEP_SEND:
		n = in_u8(in) % 32 + 1;
		while (n-- && H.new_psns + 1 < MAX_PSNS && send_one())
			;
		break;
	case STEP_DELIVER:
		step_deliver(in);
		break;
	case STEP_REPLY:
		step_reply(in, false);
		break;
	case STEP_FORGED_ACK:
		step_forged_ack(in);
		break;
	case STEP_TRIM:
		mrc_sender_on_trim(&H.snd, H.now,
				   mrc_psn_add(H.snd.tx.una,
					       (u32)(s32)(int8_t)in_u8(in)));
		break;
	case STEP_RNR:
		mrc_sender_on_rnr(&H.snd, H.now,
				  mrc_psn_add(H.snd.tx.una,
					      (u32)(s32)(int8_t)in_u8(in)));
		break;
	case STEP_TIME: {
		u64 t = in_u16(in);

		H.now += t << (in_u8(in) % 24);
		break;
	}
	case STEP_TIMER:
		step_timer(in);
		break;
	case STEP_PROBE:
		step_probe(in);
		break;
	case STEP_SEND_SPLIT:
		send_split(in_u8(in) % 32 + 1);
		break;
	case STEP_MSG_OF:
		check_msg_of(mrc_psn_add(H.snd.tx.una,
					 (u32)(s32)(int8_t)in_u8(in)));
		break;
	case STEP_RAW:
		step_raw(in);
		break;
	case STEP_POLL_SENDER:
		poll_sender();
		break;
	case STEP_POLL_RECEIVER:
		poll_receiver(in_u8(in) % 8 + 1);
		break;
	case STEP_PLANE:
		step_plane(in_u8(in));
		break;
	}
	check_sender();
}

static bool setup(struct input *in)
{
	struct mrc_ev_desc descs[MAX_EVS];
	struct mrc_ev_params evp;
	struct mrc_nscc_params ccp;
	u8 b0 = in_u8(in), b1 = in_u8(in), b5, b6, b7;
	u32 i;

	H.init_psn = in_u8(in) << 16;
	H.init_psn |= in_u16(in);
	b5 = in_u8(in);
	b6 = in_u8(in);
	b7 = in_u8(in);
	H.n_evs = b0 % (MAX_EVS + 1);
	H.nslots = 8u << ((b1 >> 4) & 3);
	H.nmsgs = 2u << ((b1 >> 6) & 3);
	H.ack_interval = b6 % 8 + 1;
	H.pkt_map = b6 & 8;
	H.p = (struct mrc_sender_params){
		.retry_cnt = (b1 >> 1) & 7,
		.fixed_cwnd = b5 % 64 + 1,
		.mtu = 4096,
		.ack_interval = H.ack_interval,
		.timer_granularity_us = b7 & 0x80 ? 4000 : 1,
		.rto = { .min_us = 100u << (b7 & 3), .max_us = 100000,
			 .granularity_us = 1, .initial_us = 1000 },
	};
	memset(descs, 0, sizeof(descs));
	for (i = 0; i < MAX_EVS; i++) {
		descs[i].path.udp_sport = (u16)(49152 + i);
		descs[i].plane = (u8)(i % 2);
	}
	if (H.n_evs) {
		mrc_ev_params_default(&evp);
		evp.min_active = (b7 >> 2) & 3;
		if (mrc_ev_set_init(&H.set, H.evs, H.n_evs, b7 & 0x10 ? 2 : 1,
				    descs, &evp))
			return false;
	}
	/* Timeout attribute 0: no RTO from the start. */
	if (b6 & 0x80)
		H.p.rto.initial_us = 0;
	if (b1 & 1) {
		mrc_nscc_params_default(&ccp);
		FUZZ_ASSERT(mrc_nscc_init(&H.cc, &ccp) == 0);
	}
	FUZZ_ASSERT(mrc_sender_init(&H.snd, &H.p, H.slots, H.nslots, H.msgs,
				    H.nmsgs, H.n_evs ? &H.set : NULL,
				    b1 & 1 ? &H.cc : NULL, H.init_psn) == 0);
	if (H.pkt_map)
		mrc_sender_set_pkt_map(&H.snd, H.pkts);
	/* With NSCC, its RTT through the caller's hook (or none). */
	H.cc_rtt_mode = b1 & 1 ? b5 >> 6 : 0;
	if (H.cc_rtt_mode) {
		H.snd.cc_rtt = cc_rtt_hook;
		H.snd.cc_rtt_arg = &H;
	}
	if (b6 & 0x10)
		mrc_sender_set_single_path(&H.snd, true, b6 >> 5);
	mrc_receiver_init(&H.rcv, H.init_psn);
	H.now = 1000;
	return true;
}

/* Live messages still waiting for their response. */
static u32 awaited_responses(void)
{
	u32 k, n = 0;

	for (k = H.polled; k != H.posted; k++)
		n += H.msg_resp[k] == RESP_AWAITED;
	return n;
}

/*
 * The peer goes silent: the sender, firing its timer when due and sending
 * what it may, must give every message back, the oldest unfinished as
 * RETRY_EXCEEDED, after exactly the retries it had left. Responses that
 * never come count as the caller's requester counts them: its own timer
 * (an RTO from now, when the sender wants none) finds them late and asks
 * again (mrc_sender_next_request()). A sender with messages to finish and
 * no timer, or one that never runs out of retries, hangs its QP. Without
 * an RTO the caller would wait for ever: the timeout attribute changes
 * first.
 */
#define PEER_DIES_ROUNDS	65536u

static void peer_dies(void)
{
	static const struct mrc_rto_params rto = {
		.min_us = 100, .max_us = 100000, .granularity_us = 1,
		.initial_us = 1000,
	};
	u32 rounds, n, k, left, counted = 0, responses;
	u64 due, timeouts;

	if (H.snd.no_rto && !H.snd.failed)
		mrc_sender_set_rto(&H.snd, &rto);
	check_sender();
	left = H.p.retry_cnt + 1 - H.snd.retries;
	/*
	 * The timer also fires for probes (each bad EV's, backing off), so
	 * a round need not be a timeout; a hang still hits the bound.
	 */
	for (rounds = 0; rounds < PEER_DIES_ROUNDS; rounds++) {
		for (n = 0; n < 2 * MAX_SLOTS && H.new_psns + 1 < MAX_PSNS &&
			    send_one(); n++)
			;
		poll_sender();
		if (H.snd.failed || H.posted == H.polled ||
		    H.new_psns + 1 >= MAX_PSNS)
			break;
		responses = 0;
		if (mrc_sender_next_timer(&H.snd, H.now, &due)) {
			FUZZ_ASSERT(due >= H.now);
			H.now = due;
		} else {
			/* Only the caller's responses keep it waiting. */
			responses = awaited_responses();
			FUZZ_ASSERT(responses);
			H.now += mrc_sender_rto_us(&H.snd);
		}
		timeouts = H.snd.stats.timeouts;
		sender_timeout(responses);
		if (H.snd.stats.timeouts != timeouts) {
			FUZZ_ASSERT(H.snd.stats.timeouts == timeouts + 1);
			counted++;
		}
		/* Nothing progresses: the retries run out exactly. */
		FUZZ_ASSERT(H.snd.failed == (counted == left));
		FUZZ_ASSERT(counted <= left);
		if (responses)
			for (k = H.polled; k != H.posted &&
			     H.new_psns + 1 < MAX_PSNS; k++)
				if (H.msg_resp[k] == RESP_AWAITED)
					next_request(k);
		check_sender();
	}
	FUZZ_ASSERT(rounds < PEER_DIES_ROUNDS);
	poll_sender();
	if (H.new_psns + 1 < MAX_PSNS)
		FUZZ_ASSERT(H.polled == H.posted);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };

	memset(H.delivered, 0, H.rcv_dirty);
	memset(H.last, 0, H.rcv_dirty);
	memset(&H, 0, offsetof(struct harness, msg_npkts));
	if (!setup(&in))
		return 0;
	check_sender();
	while (in.left)
		step(&in);
	/* The end: whatever finished is given back, and checked. */
	poll_sender();
	poll_receiver(MAX_POSTS);
	peer_dies();
	return 0;
}
