// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The protocol core's work per packet, for callgrind (scripts/bench-core)
 * and, run natively, a unit test that this work is real.
 *
 * One RC connection carries RDMA WRITEs of 64 KiB at 100 Gb/s through a
 * sender core and a receiver core, every header encoded and decoded. The
 * packets are sprayed over 16 EVs whose delays differ, so they arrive out
 * of order and the ACKs carry SACKs; each EV stays in order (one path,
 * FIFO queues). The EVs meet at an 80 Gb/s last hop whose queue marks CE
 * past a threshold, so NSCC's window moves: it grows, is cut and switches
 * EVs. Nothing is lost. A seeded generator makes every run the same.
 *
 * Each operation of the data path is one core_op_* function, kept out of
 * line, and is called the way the module calls the core (mrc_req.c,
 * mrc_resp.c, mrc_xmit.c): its inclusive cost under callgrind, divided by
 * the packets sent, is the operation's cost per packet. scripts/bench-core
 * zeroes callgrind's counts on entry to core_run_measured() and dumps them
 * on its exit, after a warm-up that lets the RTO, NSCC and the EV states
 * settle.
 *
 * The KTAP cases check that the work was real: every header decodes to
 * what was encoded, every message completes once and in order on both
 * sides, the tracker holds after every ACK exactly what that ACK said,
 * nothing is resent, NSCC's window moves within its bounds and every EV
 * carries its share.
 *
 *   core_cost [--packets N] [--warmup N]	(multiples of 16)
 */
#include "ktap.h"
#include "mrc_sender.h"
#include "mrc_sender_wire.h"
#include "mrc_receiver.h"
#include "mrc_wire.h"

/* Out of line and never merged with a twin: callgrind sees each one. */
#ifdef __clang__
#define CORE_OP __attribute__((noinline))
#else
#define CORE_OP __attribute__((noipa))
#endif

#define COST_MTU		4096u
#define COST_MSG_PKTS		16u	/* 64 KiB WRITEs */
#define COST_EVS		16u	/* MRC_QP_DEFAULT_EVS_PER_PLANE, one plane */
#define COST_SLOTS		1024u	/* MRC_REQ_WINDOW */
#define COST_MSGS		64u
#define COST_ACK_INTERVAL	8u	/* MRC_ACK_INTERVAL */
#define COST_QPN_SND		0x11u
#define COST_QPN_RCV		0x22u
#define COST_PSN0		0xfff000u	/* the PSN wraps early on */

/* Times in ns. 4 KiB at 100 Gb/s from the sender, at 80 Gb/s last hop. */
#define COST_SEND_NS		328u
#define COST_BOTTLENECK_NS	410u
#define COST_PATH_NS		1000u	/* to the last hop, EV 0 */
#define COST_PATH_STEP_NS	100u	/* each EV this much longer */
#define COST_JITTER_NS		200u
#define COST_LAST_HOP_NS	1000u
#define COST_ACK_NS		2000u
/* CE past this much queueing: about NSCC's target delay (9 us). */
#define COST_ECN_QUEUE_NS	8000u

#define COST_DEFAULT_PACKETS	100000u
#define COST_DEFAULT_WARMUP	10000u
#define COST_EVENTS		4096u

enum cost_kind {
	COST_AT_LAST_HOP,	/* a data packet reaches the bottleneck queue */
	COST_AT_RECEIVER,	/* ... and the receiver */
	COST_AT_SENDER,		/* an ACK reaches the sender */
};

struct cost_event {
	u64 t;
	u64 order;
	u8 kind;
	bool ce;
	u8 len;
	u8 hdr[MRC_MAX_HDR_LEN];
};

/* What the sender put in a packet's header, to compare after decoding. */
struct cost_sent {
	u32 ev;
	u32 msn;
	u32 offset;
	bool ack_req;
};

struct cost_conn {
	/* Sender */
	struct mrc_sender snd;
	struct mrc_tx_slot slots[COST_SLOTS];
	struct mrc_sender_msg msgs[COST_MSGS];
	struct mrc_ev_set set;
	struct mrc_ev evs[COST_EVS];
	struct mrc_nscc cc;
	struct cost_sent sent[COST_SLOTS];
	u32 msn_next;
	u32 msn_done;

	/* Receiver */
	struct mrc_receiver rcv;
	u32 rcv_msgs_done;

	/* The fabric */
	u64 now;
	u64 link_free;
	u64 last_hop_free;
	u64 ev_arrival[COST_EVS];
	u64 rng;
	u64 order;
	struct cost_event heap[COST_EVENTS];
	u32 n_events;

	/* Counts for the figures and the checks */
	u64 to_post;		/* packets still to post in this phase */
	u64 sent_new;
	u64 acks;
	u64 delivered;
	u64 duplicates;
	u64 ce_marked;
	u64 data_mismatch;
	u64 ack_mismatch;
	u64 sack_mismatch;
	u64 order_errors;
	u64 cwnd_out_of_bounds;
	u32 cwnd_min;
	u32 cwnd_max;
	/* After each ACK: NSCC's decision, and the window summed. */
	u64 decisions[MRC_NSCC_QUICK_ADAPTED + 1];
	u64 cwnd_sum;
	u64 overflow;
	/* Something may have opened the sender's window: try it again. */
	bool kick;
};

static struct cost_conn C;
static u64 opt_packets = COST_DEFAULT_PACKETS;
static u64 opt_warmup = COST_DEFAULT_WARMUP;
static bool ran;

static u64 cost_rand(void)
{
	/* xorshift64*: the whole run follows from the seed. */
	C.rng ^= C.rng >> 12;
	C.rng ^= C.rng << 25;
	C.rng ^= C.rng >> 27;
	return C.rng * 0x2545f4914f6cdd1dull;
}

static bool cost_less(u32 a, u32 b)
{
	return C.heap[a].t < C.heap[b].t ||
	       (C.heap[a].t == C.heap[b].t && C.heap[a].order < C.heap[b].order);
}

static void cost_swap(u32 a, u32 b)
{
	struct cost_event t = C.heap[a];

	C.heap[a] = C.heap[b];
	C.heap[b] = t;
}

static void cost_push(u64 t, u8 kind, bool ce, const u8 *hdr, u32 len)
{
	struct cost_event *e;
	u32 i;

	if (C.n_events == COST_EVENTS || len > sizeof(e->hdr)) {
		C.overflow++;
		return;
	}
	i = C.n_events++;
	e = &C.heap[i];
	e->t = t;
	e->order = C.order++;
	e->kind = kind;
	e->ce = ce;
	e->len = (u8)len;
	memcpy(e->hdr, hdr, len);
	while (i && cost_less(i, (i - 1) / 2)) {
		cost_swap(i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void cost_pop(struct cost_event *out)
{
	u32 i = 0;

	*out = C.heap[0];
	C.heap[0] = C.heap[--C.n_events];
	for (;;) {
		u32 l = 2 * i + 1, r = l + 1, m = i;

		if (l < C.n_events && cost_less(l, m))
			m = l;
		if (r < C.n_events && cost_less(r, m))
			m = r;
		if (m == i)
			break;
		cost_swap(i, m);
		i = m;
	}
}

static u64 cost_now_us(void)
{
	return C.now / 1000;
}

/* ---- the operations measured ---- */

/* The next PSN and the EV it is sprayed on (mrc_req_send_new()). */
CORE_OP bool core_op_send(struct mrc_sender *s, u64 now_us,
			  struct mrc_sender_tx *tx)
{
	return mrc_sender_next(s, now_us, tx);
}

/* A WRITE packet's headers (mrc_qp_new_packet()); their length. */
CORE_OP int core_op_build_data(u8 *buf, const struct mrc_sender_tx *tx,
			       u32 msn, u32 npkts, u32 ts)
{
	struct mrc_pkt pkt = {};
	size_t len;

	pkt.hdr.opcode = MRC_OP_WRITE;
	pkt.hdr.flags = tx->ack_req ? MRC_F_ACK_REQ : 0;
	pkt.hdr.dqpn = COST_QPN_RCV;
	pkt.hdr.sqpn = COST_QPN_SND;
	pkt.hdr.psn = tx->psn;
	pkt.hdr.ev = tx->ev;
	pkt.hdr.ts = ts;
	pkt.hdr.payload_len = COST_MTU;
	pkt.msgh.msn = msn;
	pkt.msgh.offset = tx->pkt * COST_MTU;
	pkt.msgh.length = npkts * COST_MTU;
	pkt.raddr.va = 0x7f0000000000ull + (u64)msn * npkts * COST_MTU;
	pkt.raddr.rkey = 0x1234;
	len = mrc_pkt_hdr_len(&pkt);
	return mrc_encode(buf, len, &pkt);
}

/* Any packet's headers, as they arrive (mrc_net.c). */
CORE_OP int core_op_parse_data(const u8 *buf, size_t len, struct mrc_pkt *pkt)
{
	return mrc_decode(buf, len, pkt);
}

/* The receiver's verdict and ACK decision (mrc_resp.c). */
CORE_OP void core_op_receive(struct mrc_receiver *r, u32 psn, u32 flags,
			     struct mrc_receiver_verdict *v,
			     struct mrc_receiver_reply *reply)
{
	mrc_receiver_check(r, psn, flags, v, reply);
	if (v->action == MRC_RECEIVER_DELIVER)
		mrc_receiver_accept(r, psn, flags, v, reply);
}

/* The ACK's headers (mrc_resp_queue_reply(), mrc_qp_new_packet()). */
CORE_OP int core_op_build_ack(u8 *buf, const struct mrc_receiver_reply *reply,
			      const struct mrc_pkt *trigger, u32 msn, u32 ts)
{
	struct mrc_pkt ack = {};
	size_t len;

	ack.hdr.opcode = reply->syndrome == MRC_SYN_ACK ? MRC_OP_ACK :
			 MRC_OP_NAK;
	ack.hdr.dqpn = COST_QPN_SND;
	ack.hdr.sqpn = COST_QPN_RCV;
	ack.hdr.psn = trigger->hdr.psn;
	ack.hdr.ts = ts;
	ack.ack.ev_echo = trigger->hdr.ev;
	ack.ack.ts_echo = trigger->hdr.ts;
	if (reply->ecn_ce)
		ack.ack.flags = MRC_ACK_F_ECN_CE;
	ack.ack.cum_psn = reply->cum_psn;
	ack.ack.msn = msn;
	ack.ack.syndrome = reply->syndrome;
	ack.ack.nak_psn = reply->nak_psn;
	ack.ack.sack_words = reply->nwords < MRC_SACK_MAX_WORDS ?
			     reply->nwords : MRC_SACK_MAX_WORDS;
	memcpy(ack.ack.sack, reply->sack,
	       ack.ack.sack_words * sizeof(ack.ack.sack[0]));
	len = mrc_pkt_hdr_len(&ack);
	return mrc_encode(buf, len, &ack);
}

CORE_OP int core_op_parse_ack(const u8 *buf, size_t len, struct mrc_pkt *pkt)
{
	return mrc_decode(buf, len, pkt);
}

/* The sender takes an ACK: SACK update, RTO, NSCC, EVs (mrc_req_rcv()). */
CORE_OP int core_op_ack(struct mrc_sender *s, u64 now_us,
			const struct mrc_pkt *pkt,
			struct mrc_sender_ack_result *res)
{
	struct mrc_sender_ack ack;

	mrc_sender_ack_from_pkt(pkt, &ack);
	return mrc_sender_on_ack_ex(s, now_us, &ack, res);
}

/* After every ACK the module re-arms its timer (mrc_req_arm_timer()). */
CORE_OP bool core_op_timer(const struct mrc_sender *s, u64 now_us, u64 *due)
{
	return mrc_sender_next_timer(s, now_us, due);
}

/* Finished messages on both sides, new ones posted (mrc_req_complete()). */
CORE_OP u32 core_op_complete_sender(struct mrc_sender *s,
				    struct mrc_sender_done *done, u32 max)
{
	u32 n = 0;

	while (n < max && mrc_sender_poll_done(s, &done[n]))
		n++;
	return n;
}

CORE_OP int core_op_post(struct mrc_sender *s, u64 cookie)
{
	return mrc_sender_post(s, COST_MSG_PKTS, cookie);
}

CORE_OP bool core_op_complete_receiver(struct mrc_receiver *r, u32 *psn)
{
	return mrc_receiver_poll_done(r, psn);
}

/* ---- the connection and its fabric ---- */

static void cost_setup(void)
{
	struct mrc_ev_desc descs[COST_EVS] = {};
	struct mrc_sender_params sp = {
		.retry_cnt = 7,
		.fixed_cwnd = 256,
		.mtu = COST_MTU,
		.ack_interval = COST_ACK_INTERVAL,
		.timer_granularity_us = 1,
		/* The module's for the timeout attribute 14 (67 ms). */
		.rto = {
			.min_us = 67109,
			.max_us = 8 * 67109,
			.granularity_us = 1,
			.initial_us = 67109,
		},
	};
	struct mrc_nscc_params np;
	struct mrc_ev_params ep;
	u32 i;

	memset(&C, 0, sizeof(C));
	C.rng = 0x6d72632d636f7374ull;
	C.cwnd_min = ~0u;
	for (i = 0; i < COST_EVS; i++)
		descs[i].path.udp_sport = (u16)(0xc000 + i);
	mrc_ev_params_default(&ep);
	if (mrc_ev_set_init(&C.set, C.evs, COST_EVS, 1, descs, &ep))
		C.overflow++;
	mrc_nscc_params_default(&np);
	np.mtu = COST_MTU;
	if (mrc_nscc_init(&C.cc, &np))
		C.overflow++;
	if (mrc_sender_init(&C.snd, &sp, C.slots, COST_SLOTS, C.msgs,
			    COST_MSGS, &C.set, &C.cc, COST_PSN0))
		C.overflow++;
	mrc_receiver_init(&C.rcv, COST_PSN0);
}

/* Posts messages while the ring has room and the phase wants packets. */
static void cost_post(void)
{
	while (C.to_post >= COST_MSG_PKTS &&
	       mrc_sender_pending(&C.snd) < COST_MSGS) {
		if (core_op_post(&C.snd, C.msn_next) < 0)
			break;
		C.msn_next++;
		C.to_post -= COST_MSG_PKTS;
		C.kick = true;
	}
}

static void cost_complete(void)
{
	struct mrc_sender_done done[8];
	u32 n, i, psn;

	do {
		n = core_op_complete_sender(&C.snd, done, 8);
		for (i = 0; i < n; i++) {
			if (done[i].cookie != C.msn_done ||
			    done[i].status != MRC_SENDER_ST_OK)
				C.order_errors++;
			C.msn_done++;
		}
	} while (n == 8);
	while (core_op_complete_receiver(&C.rcv, &psn)) {
		/* The last PSN of each message, in order. */
		if (psn != mrc_psn_add(COST_PSN0, (C.rcv_msgs_done + 1) *
						  COST_MSG_PKTS - 1))
			C.order_errors++;
		C.rcv_msgs_done++;
	}
	cost_post();
}

/* One packet out on the link, if the windows let one go. */
static bool cost_send_one(void)
{
	struct mrc_sender_tx tx;
	struct mrc_sender_msg *m;
	u8 buf[MRC_MAX_HDR_LEN];
	u64 at;
	int len;
	u32 ev;

	if (!core_op_send(&C.snd, cost_now_us(), &tx))
		return false;
	m = mrc_sender_msg_at(&C.snd, tx.msg);
	C.sent[tx.psn % COST_SLOTS] = (struct cost_sent){
		.ev = tx.ev,
		.msn = (u32)m->cookie,
		.offset = tx.pkt * COST_MTU,
		.ack_req = tx.ack_req,
	};
	len = core_op_build_data(buf, &tx, (u32)m->cookie, m->npkts,
				 (u32)cost_now_us());
	if (len <= 0 || tx.why != MRC_SENDER_NEW || tx.ev >= COST_EVS) {
		C.data_mismatch++;
		return false;
	}
	C.sent_new++;
	/* Each EV is one path: its packets keep their order. */
	ev = tx.ev;
	at = C.now + COST_PATH_NS + ev * COST_PATH_STEP_NS +
	     cost_rand() % (COST_JITTER_NS + 1);
	if (at <= C.ev_arrival[ev])
		at = C.ev_arrival[ev] + 1;
	C.ev_arrival[ev] = at;
	cost_push(at, COST_AT_LAST_HOP, false, buf, (u32)len);
	return true;
}

/* The last hop: a FIFO at the bottleneck rate, CE past the threshold. */
static void cost_last_hop(const struct cost_event *e)
{
	u64 start = C.last_hop_free > C.now ? C.last_hop_free : C.now;
	bool ce = start - C.now > COST_ECN_QUEUE_NS;

	C.last_hop_free = start + COST_BOTTLENECK_NS;
	C.ce_marked += ce;
	cost_push(C.last_hop_free + COST_LAST_HOP_NS, COST_AT_RECEIVER, ce,
		  e->hdr, e->len);
}

static u32 cost_popcount(const u64 *w, u32 n)
{
	u32 bits = 0, i;

	for (i = 0; i < n; i++)
		bits += (u32)__builtin_popcountll(w[i]);
	return bits;
}

static void cost_at_receiver(const struct cost_event *e)
{
	/* The payload follows the headers on the wire; its bytes are not read. */
	static u8 wire[MRC_MAX_DATA_HDR_LEN + COST_MTU];
	struct mrc_receiver_verdict v;
	struct mrc_receiver_reply reply;
	const struct cost_sent *sent;
	struct mrc_pkt pkt;
	u8 buf[MRC_MAX_HDR_LEN];
	u32 flags;
	int len;

	memcpy(wire, e->hdr, e->len);
	if (core_op_parse_data(wire, e->len + COST_MTU, &pkt)) {
		C.data_mismatch++;
		return;
	}
	sent = &C.sent[pkt.hdr.psn % COST_SLOTS];
	if (pkt.hdr.opcode != MRC_OP_WRITE || pkt.hdr.ev != sent->ev ||
	    pkt.hdr.dqpn != COST_QPN_RCV || pkt.hdr.sqpn != COST_QPN_SND ||
	    pkt.msgh.msn != sent->msn || pkt.msgh.offset != sent->offset ||
	    pkt.msgh.length != COST_MSG_PKTS * COST_MTU ||
	    pkt.payload_present != COST_MTU || pkt.trimmed ||
	    !!(pkt.hdr.flags & MRC_F_ACK_REQ) != sent->ack_req)
		C.data_mismatch++;

	flags = pkt.hdr.flags & MRC_F_ACK_REQ ? MRC_RECEIVER_F_ACK_REQ : 0;
	if (pkt.msgh.offset + pkt.hdr.payload_len == pkt.msgh.length)
		flags |= MRC_RECEIVER_F_LAST;
	if (e->ce)
		flags |= MRC_RECEIVER_F_ECN_CE;
	core_op_receive(&C.rcv, pkt.hdr.psn, flags, &v, &reply);
	if (v.action == MRC_RECEIVER_DELIVER)
		C.delivered++;
	else
		C.duplicates++;
	if (v.reply) {
		len = core_op_build_ack(buf, &reply, &pkt, C.rcv_msgs_done,
					(u32)cost_now_us());
		if (len <= 0 || cost_popcount(reply.sack, reply.nwords) !=
				C.rcv.win.ooo_count) {
			C.ack_mismatch++;
			return;
		}
		cost_push(C.now + COST_ACK_NS, COST_AT_SENDER, false, buf,
			  (u32)len);
	}
	cost_complete();
}

static void cost_at_sender(const struct cost_event *e)
{
	struct mrc_sender_ack_result res;
	struct mrc_pkt pkt;
	u32 cwnd;
	u64 due;

	if (core_op_parse_ack(e->hdr, e->len, &pkt) ||
	    pkt.hdr.opcode != MRC_OP_ACK || pkt.hdr.dqpn != COST_QPN_SND) {
		C.ack_mismatch++;
		return;
	}
	if (core_op_ack(&C.snd, cost_now_us(), &pkt, &res) != MRC_TX_ACK_OK)
		C.ack_mismatch++;
	C.acks++;
	/*
	 * ACKs come back in order on one path, each with the receiver's
	 * whole state: the tracker must hold exactly what it said.
	 */
	if (mrc_tx_una(&C.snd.tx) != pkt.ack.cum_psn ||
	    C.snd.tx.n_sacked != cost_popcount(pkt.ack.sack,
					       pkt.ack.sack_words))
		C.sack_mismatch++;
	cwnd = mrc_nscc_cwnd(&C.cc);
	if (cwnd < COST_MTU || cwnd > C.cc.p.max_cwnd)
		C.cwnd_out_of_bounds++;
	if (cwnd < C.cwnd_min)
		C.cwnd_min = cwnd;
	if (cwnd > C.cwnd_max)
		C.cwnd_max = cwnd;
	if (C.cc.last_decision <= MRC_NSCC_QUICK_ADAPTED)
		C.decisions[C.cc.last_decision]++;
	C.cwnd_sum += cwnd;
	core_op_timer(&C.snd, cost_now_us(), &due);
	C.kick = true;
	cost_complete();
}

/*
 * Runs the fabric until @packets more new packets are out (0: until
 * everything sent is acknowledged and completed).
 */
static void cost_loop(u64 packets)
{
	u64 goal = C.sent_new + packets;
	struct cost_event e;
	bool blocked = false;

	C.to_post += packets;
	cost_post();
	for (;;) {
		if (packets && C.sent_new >= goal)
			return;
		if (!blocked && C.link_free <= C.now) {
			if (cost_send_one()) {
				C.link_free = C.now + COST_SEND_NS;
				continue;
			}
			/* Only an event can open the window again. */
			blocked = true;
		}
		if (!C.n_events) {
			if (blocked || C.overflow)
				return;
			C.now = C.link_free;
			continue;
		}
		if (!blocked && C.link_free < C.heap[0].t) {
			C.now = C.link_free;
			continue;
		}
		cost_pop(&e);
		C.now = e.t;
		switch (e.kind) {
		case COST_AT_LAST_HOP:
			cost_last_hop(&e);
			break;
		case COST_AT_RECEIVER:
			cost_at_receiver(&e);
			break;
		default:
			cost_at_sender(&e);
			break;
		}
		if (C.kick)
			blocked = false;
		C.kick = false;
	}
}

/* callgrind collects only in here (scripts/bench-core). */
CORE_OP void core_run_measured(u64 packets)
{
	cost_loop(packets);
}

/* The figures' denominators, for scripts/bench-core. */
static u64 m_packets, m_acks, m_delivered;

static void cost_run(void)
{
	u64 sent, acks, delivered;

	if (ran)
		return;
	ran = true;
	cost_setup();
	cost_loop(opt_warmup);
	sent = C.sent_new;
	acks = C.acks;
	delivered = C.delivered;
	core_run_measured(opt_packets);
	m_packets = C.sent_new - sent;
	m_acks = C.acks - acks;
	m_delivered = C.delivered - delivered;
	/* Everything in flight arrives and is acknowledged. */
	cost_loop(0);
	printf("# core_cost: measured packets=%llu acks=%llu delivered=%llu\n",
	       (unsigned long long)m_packets, (unsigned long long)m_acks,
	       (unsigned long long)m_delivered);
	printf("# core_cost: ce_marked=%llu cwnd_min=%u cwnd_max=%u "
	       "cc_decreases=%llu cc_ev_switches=%llu\n",
	       (unsigned long long)C.ce_marked, C.cwnd_min, C.cwnd_max,
	       (unsigned long long)C.snd.stats.cc_decreases,
	       (unsigned long long)C.snd.stats.cc_ev_switches);
	printf("# core_cost: nscc decisions: proportional_increase=%llu "
	       "fair_increase=%llu keep_switch=%llu "
	       "multiplicative_decrease=%llu; mean cwnd %llu\n",
	       (unsigned long long)C.decisions[MRC_NSCC_PROPORTIONAL_INCREASE],
	       (unsigned long long)C.decisions[MRC_NSCC_FAIR_INCREASE],
	       (unsigned long long)C.decisions[MRC_NSCC_KEEP_SWITCH],
	       (unsigned long long)C.decisions[MRC_NSCC_MULTIPLICATIVE_DECREASE],
	       (unsigned long long)(C.acks ? C.cwnd_sum / C.acks : 0));
}

/* ---- the checks that the work was real ---- */

/* Every message completes once, in order, on both sides; nothing is left. */
static void every_message_completes_in_order(void)
{
	u64 total = opt_warmup + opt_packets;

	cost_run();
	CHECK_EQ(C.overflow, 0);
	CHECK_EQ(C.sent_new, total);
	CHECK_EQ(m_packets, opt_packets);
	CHECK_EQ(C.msn_done, total / COST_MSG_PKTS);
	CHECK_EQ(C.rcv_msgs_done, total / COST_MSG_PKTS);
	CHECK_EQ(C.order_errors, 0);
	CHECK_EQ(mrc_sender_pending(&C.snd), 0);
	CHECK_EQ(mrc_tx_outstanding(&C.snd.tx), 0);
	CHECK_EQ(mrc_tx_in_flight(&C.snd.tx), 0);
	CHECK_EQ(mrc_tx_una(&C.snd.tx), mrc_psn_add(COST_PSN0, (u32)total));
	CHECK_EQ(mrc_receiver_epsn(&C.rcv), mrc_psn_add(COST_PSN0, (u32)total));
}

/* Each PSN was received once: nothing lost, nothing sent twice. */
static void every_packet_delivered_once(void)
{
	cost_run();
	CHECK_EQ(C.delivered, opt_warmup + opt_packets);
	CHECK_EQ(C.duplicates, 0);
	CHECK_EQ(C.snd.stats.retx_loss + C.snd.stats.retx_timeout +
		 C.snd.stats.retx_trim, 0);
	CHECK_EQ(C.snd.stats.ev_retired, 0);
	CHECK_EQ(C.rcv.stats.dropped, 0);
}

/* What each decode returned is what was encoded. */
static void headers_decode_as_encoded(void)
{
	cost_run();
	CHECK_EQ(C.data_mismatch, 0);
	CHECK_EQ(C.ack_mismatch, 0);
}

/*
 * The packets arrived out of order, so ACKs carried SACKs, and after
 * every ACK the tracker's cumulative point and SACKed PSNs were the
 * receiver's as that ACK reported them.
 */
static void sack_state_follows_every_ack(void)
{
	cost_run();
	CHECK_EQ(C.sack_mismatch, 0);
	/* Spraying reorders: more ACKs than one per ack_interval packets. */
	CHECK(C.acks > (opt_warmup + opt_packets) / COST_ACK_INTERVAL);
	CHECK(C.rcv.stats.acks == C.acks);
}

/* NSCC worked: the window moved, and stayed within its bounds. */
static void nscc_window_moves_within_bounds(void)
{
	cost_run();
	CHECK_EQ(C.cwnd_out_of_bounds, 0);
	CHECK(C.ce_marked > 0);
	CHECK(C.snd.stats.cc_decreases > 0);
	CHECK(C.cwnd_min < C.cwnd_max);
}

/* Every EV carried its share of the spray, within a factor of two. */
static void spray_uses_every_ev(void)
{
	u64 mean = (opt_warmup + opt_packets) / COST_EVS;
	u32 i;

	cost_run();
	for (i = 0; i < COST_EVS; i++) {
		CHECK(C.evs[i].sent > mean / 2);
		CHECK(C.evs[i].sent < mean * 2);
		CHECK_EQ(C.evs[i].state, MRC_EV_GOOD);
	}
}

static const struct ktap_case cases[] = {
	KTAP_CASE(every_message_completes_in_order),
	KTAP_CASE(every_packet_delivered_once),
	KTAP_CASE(headers_decode_as_encoded),
	KTAP_CASE(sack_state_follows_every_ack),
	KTAP_CASE(nscc_window_moves_within_bounds),
	KTAP_CASE(spray_uses_every_ev),
};

static bool cost_arg(const char *s, u64 *out)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	if (!*s || *end || !v || v % COST_MSG_PKTS || v > 1u << 30)
		return false;
	*out = v;
	return true;
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		u64 *opt = NULL;

		if (!strcmp(argv[i], "--packets"))
			opt = &opt_packets;
		else if (!strcmp(argv[i], "--warmup"))
			opt = &opt_warmup;
		if (!opt || i + 1 == argc || !cost_arg(argv[++i], opt)) {
			fprintf(stderr, "usage: core_cost [--packets N] "
				"[--warmup N] (multiples of %u)\n",
				COST_MSG_PKTS);
			return 2;
		}
	}
	return ktap_run("core_cost", cases,
			(int)(sizeof(cases) / sizeof(cases[0])));
}
