// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The responder of an RC QP (Documentation/datapath.rst).
 *
 * The receiver core (core/mrc_receiver.h) makes the protocol's decisions:
 * whether a request packet is new, a duplicate (and whether its READ or
 * atomic response is replayed), trimmed or out of the window; what each
 * answer says (ACK, SACK, NAK(trimmed), RNR NAK, ECN echo) and whether one
 * goes back; when the in-order point passes a PSN; and the fatal NAK. This
 * file keeps the resources: skbs, qp->lock, memory, receive WQEs, READ and
 * atomic execution, and counters.
 *
 * A new packet is handled at once as far as its order does not matter:
 * WRITE payload lands in the target MR and SEND payload in the receive
 * buffer of its RSN, whatever arrived before it. What must happen in
 * message order is recorded as an action on a PSN (actions[], one slot per
 * PSN of the window), marked in the receiver core, and done when the core
 * reports that the in-order point passed that PSN: completing a receive
 * (on its message's last PSN), executing a READ or an atomic, and NAKing
 * an error found in a message. An error therefore reaches the requester
 * only after everything before it was placed, and no ACK ever covers a PSN
 * that failed: the fatal NAK's cumulative PSN is the failed one, the core
 * answers nothing after it, and the QP is in the error state before
 * anything else goes out.
 *
 * Receive WQEs are copied out of the receive queue, or the SRQ, in RSN
 * order into recvs[] when a message first needs one; a SEND for a receive
 * that is not posted is NAKed RNR and not accepted into the window. Every
 * SEND packet checks its message against the receive (length, keys) the
 * same way, so a message that fails touches no receive buffer.
 *
 * READ responses go out at the in-order point, a few from the receive path
 * and the rest from a work item, one MTU-aligned packet at a time; atomics
 * execute there too, and their results are kept by MSN so that a repeated
 * request is answered without executing it twice.
 *
 * Context: mrc_resp_rcv() runs in softirq and the READ task on mrc_wq in
 * process context; both take qp->lock with BHs disabled and send what they
 * built after releasing it. MR references are held for one packet at most.
 */
#include <linux/mm.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/inet_ecn.h>
#include <rdma/ib_verbs.h>

#include "mrc.h"
#include "mrc_cq.h"
#include "mrc_mr.h"
#include "mrc_mw.h"
#include "mrc_net.h"
#include "mrc_qp.h"
#include "mrc_srq.h"
#include "mrc_stats.h"
#include "mrc_task.h"
#include "mrc_txq.h"
#include "mrc_xmit.h"

/* READ response packets sent from the receive path; the work does more. */
#define MRC_RESP_INLINE_READ_PKTS	16
/* READ response packets the work sends per hold of qp->lock ... */
#define MRC_RESP_READ_BATCH		64
/* ... and per run, before it yields the worker to others (mrc_task.h). */
#define MRC_RESP_WORK_BUDGET		(4 * MRC_RESP_READ_BATCH)

/* What one call (a packet, or a round of the work) leaves to do unlocked. */
struct mrc_resp_ctx {
	struct mrc_qp *qp;
	struct mrc_dev *mdev;
	const struct mrc_pkt *pkt;	/* the packet; NULL in the work */
	const struct mrc_rx_meta *meta;
	u32 flags;			/* the packet's MRC_RECEIVER_F_* */
	struct sk_buff_head txq;	/* sent after qp->lock is released */
	enum ib_event_type qp_event;
	bool has_qp_event;
	bool srq_event;
	bool more_reads;		/* READ responses left for the work */
};

static bool mrc_resp_read_pass(struct mrc_task *task, u32 *budget);

static void mrc_resp_ctx_init(struct mrc_resp_ctx *ctx, struct mrc_qp *qp,
			      const struct mrc_pkt *pkt,
			      const struct mrc_rx_meta *meta)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->qp = qp;
	ctx->mdev = to_mrc_dev(qp->ibqp.device);
	ctx->pkt = pkt;
	ctx->meta = meta;
	__skb_queue_head_init(&ctx->txq);
}

static bool mrc_resp_state_ok(struct mrc_qp *qp)
{
	return qp->state == IB_QPS_RTR || qp->state == IB_QPS_RTS ||
	       qp->state == IB_QPS_SQD;
}

static bool mrc_resp_needs_recv(u8 opcode)
{
	return mrc_opcode_is(opcode, MRC_OPC_CONSUMES_RECV);
}

static bool mrc_resp_is_rd_atomic(u8 opcode)
{
	return mrc_opcode_is(opcode, MRC_OPC_RD_ATOMIC);
}

static struct mrc_resp_recv *mrc_resp_recv(struct mrc_resp_state *resp,
					   u32 rsn)
{
	return (struct mrc_resp_recv *)(resp->recvs +
					(size_t)(rsn & resp->recv_mask) *
					resp->recv_stride);
}

static void mrc_resp_reset_rd(struct mrc_resp_state *resp)
{
	u32 i;

	INIT_LIST_HEAD(&resp->rd_free);
	INIT_LIST_HEAD(&resp->rd_sending);
	for (i = 0; i < MRC_RESP_RD_SLOTS; i++)
		list_add_tail(&resp->rd[i].node, &resp->rd_free);
	resp->rd_pending = 0;
}

/* ---- setup ---- */

int mrc_resp_init(struct mrc_qp *qp)
{
	struct mrc_resp_state *resp = &qp->resp;
	u32 nrecv;

	mrc_task_init(&resp->task, mrc_resp_read_pass, MRC_RESP_WORK_BUDGET);
	if (qp->ibqp.srq) {
		/* An RSN is taken only within a window's worth of messages. */
		nrecv = MRC_RX_WINDOW;
		resp->max_sge = to_mrc_srq(qp->ibqp.srq)->max_sge;
	} else {
		nrecv = qp->rq.num_slots;
		resp->max_sge = qp->max_recv_sge;
	}
	resp->recv_mask = nrecv - 1;
	resp->recv_stride = sizeof(struct mrc_resp_recv) +
			    resp->max_sge * sizeof(struct mrc_sge);

	resp->recvs = kvcalloc(nrecv, resp->recv_stride, GFP_KERNEL);
	resp->actions = kvcalloc(MRC_RX_WINDOW, sizeof(*resp->actions),
				 GFP_KERNEL);
	resp->rd = kvcalloc(MRC_RESP_RD_SLOTS, sizeof(*resp->rd), GFP_KERNEL);
	resp->atomics = kvcalloc(MRC_RESP_ATOMIC_SLOTS,
				 sizeof(*resp->atomics), GFP_KERNEL);
	if (!resp->recvs || !resp->actions || !resp->rd || !resp->atomics) {
		mrc_resp_cleanup(qp);
		return -ENOMEM;
	}
	mrc_resp_reset_rd(resp);
	mrc_receiver_init(&resp->rcv, 0);
	mrc_receiver_keep_atomics(&resp->rcv, resp->atomics,
				  MRC_RESP_ATOMIC_SLOTS);
	return 0;
}

void mrc_resp_cleanup(struct mrc_qp *qp)
{
	struct mrc_resp_state *resp = &qp->resp;

	mrc_task_stop(&resp->task);

	kvfree(resp->recvs);
	kvfree(resp->actions);
	kvfree(resp->rd);
	kvfree(resp->atomics);
	resp->recvs = NULL;
	resp->actions = NULL;
	resp->rd = NULL;
	resp->atomics = NULL;
}

void mrc_resp_start(struct mrc_qp *qp)
{
	struct mrc_resp_state *resp = &qp->resp;

	mrc_receiver_init(&resp->rcv, qp->rq_psn);
	mrc_receiver_set_window(&resp->rcv, qp->mpr_dest * MRC_MPR_PSNS);
	mrc_receiver_keep_atomics(&resp->rcv, resp->atomics,
				  MRC_RESP_ATOMIC_SLOTS);
	memset(resp->actions, 0, MRC_RX_WINDOW * sizeof(*resp->actions));
	mrc_resp_reset_rd(resp);
	resp->rsn_done = 0;
	resp->rsn_fetched = 0;
	/* RSN 0 is the receive at rq_completed. */
	qp->rq_fetched = qp->rq_completed;
}

/* ---- sending ---- */

static void mrc_resp_queue(struct mrc_resp_ctx *ctx, struct mrc_pkt *pkt,
			   u32 payload_len, u8 **payload)
{
	struct sk_buff *skb;
	u8 *unused;

	skb = mrc_qp_new_packet(ctx->qp, pkt, payload_len,
				payload ? payload : &unused, MRC_QP_EV_ANY);
	if (skb)
		__skb_queue_tail(&ctx->txq, skb);
}

/* The receiver core's answer, echoing the packet being handled. */
static void mrc_resp_queue_reply(struct mrc_resp_ctx *ctx,
				 const struct mrc_receiver_reply *reply)
{
	const struct mrc_pkt *trigger = ctx->pkt;
	struct mrc_pkt ack = {};

	ack.hdr.opcode = reply->syndrome == MRC_SYN_ACK ? MRC_OP_ACK :
			 MRC_OP_NAK;
	ack.hdr.psn = trigger ? trigger->hdr.psn : reply->nak_psn;
	if (trigger) {
		ack.ack.ev_echo = trigger->hdr.ev;
		ack.ack.ts_echo = trigger->hdr.ts;
	}
	if (reply->ecn_ce)
		ack.ack.flags = MRC_ACK_F_ECN_CE;
	ack.ack.cum_psn = reply->cum_psn;
	ack.ack.msn = ctx->qp->resp.rsn_done;
	ack.ack.syndrome = reply->syndrome;
	if (reply->syndrome == MRC_NAK_RNR)
		ack.ack.rnr_timer = ctx->qp->min_rnr_timer;
	ack.ack.nak_psn = reply->nak_psn;
	/* The wire holds the first words; the rest is reported later. */
	ack.ack.sack_words = min_t(u32, reply->nwords, MRC_SACK_MAX_WORDS);
	memcpy(ack.ack.sack, reply->sack,
	       ack.ack.sack_words * sizeof(ack.ack.sack[0]));
	mrc_resp_queue(ctx, &ack, 0, NULL);
}

static void mrc_resp_queue_atomic_resp(struct mrc_resp_ctx *ctx, u32 msn,
				       u32 psn, u64 orig)
{
	struct mrc_pkt pkt = {};

	pkt.hdr.opcode = MRC_OP_ATOMIC_RESP;
	pkt.hdr.psn = psn;
	pkt.msgh.msn = msn;
	pkt.msgh.length = MRC_ATOMIC_OPERAND_LEN;
	pkt.orig = orig;
	mrc_resp_queue(ctx, &pkt, 0, NULL);
}

static void mrc_resp_qp_event(struct mrc_qp *qp, enum ib_event_type type)
{
	struct ib_event event = {
		.device = qp->ibqp.device,
		.element.qp = &qp->ibqp,
		.event = type,
	};

	if (qp->ibqp.event_handler)
		qp->ibqp.event_handler(&event, qp->ibqp.qp_context);
}

static void mrc_resp_srq_event(struct ib_srq *ibsrq)
{
	struct ib_event event = {
		.device = ibsrq->device,
		.element.srq = ibsrq,
		.event = IB_EVENT_SRQ_LIMIT_REACHED,
	};

	if (ibsrq->event_handler)
		ibsrq->event_handler(&event, ibsrq->srq_context);
}

static void mrc_resp_kick(struct mrc_qp *qp)
{
	mrc_task_kick(&qp->resp.task);
}

void mrc_resp_kick_reads(struct mrc_qp *qp)
{
	mrc_resp_kick(qp);
}

/* After qp->lock: transmit, raise events, hand READs to the work. */
static void mrc_resp_finish(struct mrc_resp_ctx *ctx)
{
	struct sk_buff *skb;

	mrc_qp_notify(ctx->qp);
	while ((skb = __skb_dequeue(&ctx->txq)))
		mrc_qp_send_packet(ctx->qp, skb);
	if (ctx->srq_event)
		mrc_resp_srq_event(ctx->qp->ibqp.srq);
	if (ctx->has_qp_event)
		mrc_resp_qp_event(ctx->qp, ctx->qp_event);
	if (ctx->more_reads)
		mrc_resp_kick(ctx->qp);
}

/* ---- receive WQEs ---- */

static void mrc_resp_copy_wqe(struct mrc_resp_state *resp,
			      struct mrc_resp_recv *e, const void *slot)
{
	const struct mrc_recv_wqe *wqe = slot;
	/* The ring may be userspace's: read each field once. */
	u32 num_sge = READ_ONCE(wqe->num_sge);
	u32 i;

	memset(e, 0, sizeof(*e));
	e->wr_id = READ_ONCE(wqe->wr_id);
	e->status = IB_WC_SUCCESS;
	if (num_sge > resp->max_sge) {
		e->status = IB_WC_LOC_QP_OP_ERR;
		return;
	}
	memcpy(e->sge, wqe->sge, num_sge * sizeof(e->sge[0]));
	e->num_sge = num_sge;
	for (i = 0; i < num_sge; i++)
		e->sge_bytes += e->sge[i].length;
}

/* Copies the next receive WQE of the QP; -EAGAIN when none is posted. */
static int mrc_resp_fetch(struct mrc_resp_ctx *ctx)
{
	struct mrc_qp *qp = ctx->qp;
	struct mrc_resp_state *resp = &qp->resp;
	struct mrc_resp_recv *e = mrc_resp_recv(resp, resp->rsn_fetched);
	struct mrc_srq *srq;
	unsigned long flags;
	s64 avail;

	if (!qp->ibqp.srq) {
		/* A lying producer index posts nothing: RNR until reset. */
		avail = mrc_ring_produced(&qp->rq, qp->rq_fetched);
		if (avail <= 0)
			return -EAGAIN;
		mrc_resp_copy_wqe(resp, e, mrc_ring_slot(&qp->rq,
							 qp->rq_fetched));
		qp->rq_fetched++;
	} else {
		srq = to_mrc_srq(qp->ibqp.srq);
		spin_lock_irqsave(&srq->lock, flags);
		avail = mrc_ring_produced(&srq->rq, srq->fetched);
		if (avail <= 0) {
			spin_unlock_irqrestore(&srq->lock, flags);
			return -EAGAIN;
		}
		mrc_resp_copy_wqe(resp, e, mrc_ring_slot(&srq->rq,
							 srq->fetched));
		/* Copied: the slot goes back to the producer at once. */
		srq->fetched++;
		srq->completed = srq->fetched;
		mrc_ring_publish_consumer(&srq->rq, srq->completed);
		if (srq->limit && avail - 1 < srq->limit) {
			srq->limit = 0;
			ctx->srq_event = true;
		}
		spin_unlock_irqrestore(&srq->lock, flags);
	}
	resp->rsn_fetched++;
	return 0;
}

/*
 * The receive of message @rsn, fetching WQEs up to it. -EAGAIN: it is not
 * posted yet (RNR); -EINVAL: no message may have this RSN now.
 */
static int mrc_resp_get_recv(struct mrc_resp_ctx *ctx, u32 rsn,
			     struct mrc_resp_recv **recv)
{
	struct mrc_resp_state *resp = &ctx->qp->resp;
	u32 ahead = rsn - resp->rsn_done;
	int err;

	if (ahead > resp->recv_mask) {
		/* Completed already, or beyond what can be outstanding. */
		if (ahead >= BIT(31) || ctx->qp->ibqp.srq)
			return -EINVAL;
		return -EAGAIN;
	}
	while (ahead >= resp->rsn_fetched - resp->rsn_done) {
		err = mrc_resp_fetch(ctx);
		if (err)
			return err;
	}
	*recv = mrc_resp_recv(resp, rsn);
	return 0;
}

static void mrc_resp_post_recv_wc(struct mrc_qp *qp, struct mrc_resp_recv *e,
				  u8 status)
{
	struct ib_wc wc = {
		.wr_id = e->wr_id,
		.status = status,
		.opcode = e->opcode == MRC_OP_WRITE_IMM ?
			  IB_WC_RECV_RDMA_WITH_IMM : IB_WC_RECV,
		.qp = &qp->ibqp,
		.src_qp = qp->dest_qpn,
		.port_num = 1,
	};

	if (status == IB_WC_SUCCESS) {
		/* For WRITE_IMM too: the bytes the WRITE carried. */
		wc.byte_len = e->length;
		if (e->opcode == MRC_OP_SEND_INV) {
			wc.wc_flags = IB_WC_WITH_INVALIDATE;
			wc.ex.invalidate_rkey = e->inv_rkey;
		} else if (e->opcode != MRC_OP_SEND) {
			wc.wc_flags = IB_WC_WITH_IMM;
			wc.ex.imm_data = cpu_to_be32(e->imm);
		}
	}
	/* An error completion raises a solicited event too. */
	mrc_cq_post(to_mrc_cq(qp->ibqp.recv_cq), &wc,
		    e->solicited || status != IB_WC_SUCCESS);
}

/*
 * Completes the oldest outstanding receive. Its slot goes back to the
 * producer first (its WQE is in recvs[]), so that a consumer who sees the
 * completion finds the room for a new receive too.
 */
static void mrc_resp_recv_done(struct mrc_qp *qp, struct mrc_resp_recv *e,
			       u8 status)
{
	qp->resp.rsn_done++;
	if (!qp->ibqp.srq) {
		qp->rq_completed++;
		mrc_ring_publish_consumer(&qp->rq, qp->rq_completed);
	}
	mrc_resp_post_recv_wc(qp, e, status);
}

/* Completes, in RSN order, the receives the in-order point has passed. */
static void mrc_resp_complete_recvs(struct mrc_qp *qp)
{
	struct mrc_resp_state *resp = &qp->resp;
	struct mrc_resp_recv *e;

	while (resp->rsn_done != resp->rsn_fetched) {
		e = mrc_resp_recv(resp, resp->rsn_done);
		if (!e->ready)
			break;
		mrc_resp_recv_done(qp, e, e->status);
	}
}

void mrc_resp_flush(struct mrc_qp *qp)
{
	struct mrc_resp_state *resp = &qp->resp;

	if (!resp->recvs)
		return;
	/* Receives from an SRQ are ours alone: complete them here. */
	while (qp->ibqp.srq && resp->rsn_done != resp->rsn_fetched) {
		struct mrc_resp_recv *e = mrc_resp_recv(resp, resp->rsn_done);
		struct ib_wc wc = {
			.wr_id = e->wr_id,
			.status = IB_WC_WR_FLUSH_ERR,
			.opcode = IB_WC_RECV,
			.qp = &qp->ibqp,
			.port_num = 1,
		};

		mrc_cq_post(to_mrc_cq(qp->ibqp.recv_cq), &wc, true);
		resp->rsn_done++;
	}
	/* Those of the QP's own queue are flushed with the ring. */
	resp->rsn_done = resp->rsn_fetched;
	list_splice_init(&resp->rd_sending, &resp->rd_free);
}

/* ---- in-order actions ---- */

static bool mrc_resp_set_action(struct mrc_resp_ctx *ctx, u32 psn, u8 type,
				u8 syndrome, bool recv, u32 arg)
{
	struct mrc_resp_state *resp = &ctx->qp->resp;
	struct mrc_resp_action *a = &resp->actions[psn & (MRC_RX_WINDOW - 1)];

	/*
	 * The PSN being handled, or a later one of its message: never one
	 * the in-order point was polled past, nor a window beyond it.
	 */
	if (!mrc_receiver_mark(&resp->rcv, psn))
		return false;
	if (a->type != MRC_RESP_ACT_NONE) {
		/* Only an error displaces what was there. */
		if (type != MRC_RESP_ACT_NAK || a->type == MRC_RESP_ACT_NAK)
			return true;
		if (a->type == MRC_RESP_ACT_RD_ATOMIC) {
			list_add(&resp->rd[a->arg].node, &resp->rd_free);
			resp->rd_pending--;
		}
	}
	a->type = type;
	a->syndrome = syndrome;
	a->recv = recv;
	a->arg = arg;
	return true;
}

/* A fatal error in the message of @psn: NAK it when its turn comes. */
static void mrc_resp_nak_later(struct mrc_resp_ctx *ctx, u32 psn,
			       u8 syndrome, bool recv, u32 rsn)
{
	mrc_resp_set_action(ctx, psn, MRC_RESP_ACT_NAK, syndrome, recv, rsn);
}

/*
 * At the in-order point of a failed message: complete its receive with the
 * error, NAK it, and move the QP to the error state.
 */
static void mrc_resp_fatal(struct mrc_resp_ctx *ctx, u32 psn, u8 syndrome,
			   bool recv, u32 rsn)
{
	struct mrc_qp *qp = ctx->qp;
	struct mrc_resp_state *resp = &qp->resp;
	struct mrc_receiver_reply reply;
	struct mrc_resp_recv *e;

	if (recv && rsn == resp->rsn_done && rsn != resp->rsn_fetched) {
		e = mrc_resp_recv(resp, rsn);
		if (e->status != IB_WC_SUCCESS)
			mrc_resp_recv_done(qp, e, e->status);
	}
	mrc_receiver_fail(&resp->rcv, psn, syndrome, ctx->flags, &reply);
	mrc_resp_queue_reply(ctx, &reply);
	if (syndrome == MRC_NAK_REMOTE_ACCESS_ERROR) {
		ctx->qp_event = IB_EVENT_QP_ACCESS_ERR;
		ctx->has_qp_event = true;
	} else if (syndrome == MRC_NAK_INVALID_REQUEST) {
		ctx->qp_event = IB_EVENT_QP_REQ_ERR;
		ctx->has_qp_event = true;
	}
	mrc_qp_error(qp);
}

/*
 * The MR of @rkey with a reference, when [@va, @va + @len) of it may be
 * accessed remotely with @access by this QP; else NULL. An rkey may name
 * a memory window: then the window's range and rights decide, and the
 * MR's own remote rights do not matter.
 */
static struct mrc_mr *mrc_resp_rkey(struct mrc_resp_ctx *ctx, u32 rkey,
				    u64 va, u64 len, int access)
{
	struct mrc_qp *qp = ctx->qp;
	struct mrc_mr *mr;

	if (!(qp->access_flags & access) || va + len < va)
		return NULL;
	if (mrc_key_is_mw(rkey))
		return mrc_mw_get_mr(qp, rkey, va, len, access);
	mr = mrc_mr_get(ctx->mdev, rkey);
	if (mr && mrc_mr_check(mr, qp->ibqp.pd, va, len, access)) {
		mrc_mr_put(mr);
		mr = NULL;
	}
	return mr;
}

/* SEND_WITH_INV's invalidation of an MR or a memory window (mrc_mw.h). */
static int mrc_resp_invalidate(struct mrc_resp_ctx *ctx, u32 rkey, bool apply)
{
	struct mrc_qp *qp = ctx->qp;

	if (mrc_key_is_mw(rkey))
		return mrc_mw_invalidate(qp, rkey, true, apply);
	if (apply)
		return mrc_mr_invalidate(ctx->mdev, qp->ibqp.pd, rkey);
	return mrc_mr_may_invalidate(ctx->mdev, qp->ibqp.pd, rkey);
}

/*
 * The in-order point passed the last PSN @psn of the message of receive
 * @rsn. A SEND_INV invalidates its rkey now, before the receive completes,
 * so that the ULP seeing the completion finds the region invalid. Its
 * rkey was checked on the message's first packet; if the region changed
 * since (the ULP invalidated or re-registered it meanwhile), the message
 * fails as it would have then.
 */
static void mrc_resp_recv_ready(struct mrc_resp_ctx *ctx, u32 psn, u32 rsn)
{
	struct mrc_resp_state *resp = &ctx->qp->resp;
	struct mrc_resp_recv *e;

	if (rsn - resp->rsn_done >= resp->rsn_fetched - resp->rsn_done)
		return;
	e = mrc_resp_recv(resp, rsn);
	if (e->opcode == MRC_OP_SEND_INV && e->status == IB_WC_SUCCESS &&
	    mrc_resp_invalidate(ctx, e->inv_rkey, true)) {
		e->status = IB_WC_REM_INV_REQ_ERR;
		mrc_resp_fatal(ctx, psn, MRC_NAK_INVALID_REQUEST, true, rsn);
		return;
	}
	e->ready = true;
	mrc_resp_complete_recvs(ctx->qp);
}

/* Payload bytes of the next READ response packet: up to an MTU boundary. */
static u32 mrc_resp_read_chunk(struct mrc_resp_rd *rd, u32 mtu)
{
	return min(rd->end - rd->offset, mtu - rd->offset % mtu);
}

/* One READ_RESP packet of @rd. */
static int mrc_resp_read_packet(struct mrc_resp_ctx *ctx,
				struct mrc_resp_rd *rd, u32 mtu)
{
	u32 len = mrc_resp_read_chunk(rd, mtu);
	struct mrc_pkt pkt = {};
	struct sk_buff *skb;
	struct mrc_mr *mr;
	u8 *payload;
	int err = 0;

	pkt.hdr.opcode = MRC_OP_READ_RESP;
	pkt.hdr.psn = rd->psn;
	pkt.msgh.msn = rd->msn;
	pkt.msgh.offset = rd->offset;
	pkt.msgh.length = rd->end;
	skb = mrc_qp_new_packet(ctx->qp, &pkt, len, &payload, MRC_QP_EV_ANY);
	if (!skb)
		return -ENOMEM;
	if (len) {
		/* Checked at the in-order point, but the MR may be gone. */
		mr = mrc_resp_rkey(ctx, rd->rkey, rd->va + rd->offset, len,
				   IB_ACCESS_REMOTE_READ);
		if (!mr) {
			err = -EACCES;
		} else {
			err = mrc_mr_copy_from(mr, rd->va + rd->offset,
					       payload, len);
			mrc_mr_put(mr);
		}
	}
	if (err) {
		kfree_skb(skb);
		return err;
	}
	mrc_txq_own(ctx->qp->txq, skb);
	__skb_queue_tail(&ctx->txq, skb);
	rd->offset += len;
	return 0;
}

/*
 * Sends up to @budget READ response packets, oldest READ first; true when
 * some are left and may go now. A READ that cannot go on (its MR went away
 * after the check, no memory) is dropped without an error: the requester
 * asks again with a new READ_REQ, which then fails or succeeds at its
 * in-order point.
 *
 * The QP's local transmit budget (mrc_txq.h) bounds what sits in this
 * host's queues: a burst of responses beyond it would only be dropped by a
 * full device or backlog queue and asked for again. When it is full, the
 * packet whose leaving drains it kicks the READ task.
 */
static bool mrc_resp_send_reads(struct mrc_resp_ctx *ctx, u32 budget)
{
	struct mrc_qp *qp = ctx->qp;
	struct mrc_resp_state *resp = &qp->resp;
	u32 limit = READ_ONCE(to_mrc_dev(qp->ibqp.device)->settings.txq_packets);
	u32 mtu = mrc_qp_payload_mtu(qp);
	struct mrc_resp_rd *rd;

	/* Never 0 nor more than a packet holds, whatever the attributes. */
	if (mtu < 256 || mtu > 4096)
		mtu = 256;
	while (budget && !list_empty(&resp->rd_sending)) {
		if (mrc_txq_full(qp->txq, limit, 0))
			return false;
		rd = list_first_entry(&resp->rd_sending, struct mrc_resp_rd,
				      node);
		if (mrc_resp_read_packet(ctx, rd, mtu) || rd->offset == rd->end)
			list_move(&rd->node, &resp->rd_free);
		budget--;
	}
	return !list_empty(&resp->rd_sending);
}

/*
 * Queues the READ request @rd to be answered. rd_sending holds one entry
 * per READ, oldest READ (by MSN) first. The requester completes in order,
 * so the oldest READ holds back every later completion: when it asks again
 * for packets it lost, that request must not wait behind the responses to
 * every later READ. There it would wait far longer than its RTO and ask
 * again, each request one more copy at the back of the queue, until the
 * responder sent little but copies. A request asks only for what the
 * requester lacks (the rest of a segment, or the next segment), so the
 * newest request of a READ (by PSN) takes over its entry's place; an
 * older one (replayed, or overtaken on another path) is dropped. Returns
 * the entry left out of the queue, for the caller to free, or NULL.
 */
static struct mrc_resp_rd *mrc_resp_queue_read(struct mrc_resp_state *resp,
					       struct mrc_resp_rd *rd)
{
	struct mrc_resp_rd *q;

	list_for_each_entry(q, &resp->rd_sending, node) {
		if (q->msn == rd->msn) {
			if (!mrc_psn_after(rd->psn, q->psn))
				return rd;
			list_replace(&q->node, &rd->node);
			return q;
		}
		/* MSNs compare as serial numbers: they wrap. */
		if ((s32)(rd->msn - q->msn) < 0) {
			list_add_tail(&rd->node, &q->node);
			return NULL;
		}
	}
	list_add_tail(&rd->node, &resp->rd_sending);
	return NULL;
}

/* A READ at its in-order point: 0 or the NAK syndrome. */
static u8 mrc_resp_read_start(struct mrc_resp_ctx *ctx, struct mrc_resp_rd *rd)
{
	struct mrc_resp_state *resp = &ctx->qp->resp;
	u32 len = rd->end - rd->offset;
	struct mrc_resp_rd *left;
	struct mrc_mr *mr;

	if (rd->va + rd->end < rd->va) {
		list_add(&rd->node, &resp->rd_free);
		return MRC_NAK_REMOTE_ACCESS_ERROR;
	}
	/* An empty READ needs no key; the wire has a packet for it. */
	if (len) {
		mr = mrc_resp_rkey(ctx, rd->rkey, rd->va + rd->offset, len,
				   IB_ACCESS_REMOTE_READ);
		if (!mr) {
			list_add(&rd->node, &resp->rd_free);
			return MRC_NAK_REMOTE_ACCESS_ERROR;
		}
		mrc_mr_put(mr);
	}
	/* An empty READ asked again has nothing left to send. */
	if (!len && rd->offset)
		left = rd;
	else
		left = mrc_resp_queue_read(resp, rd);
	if (left)
		list_add(&left->node, &resp->rd_free);
	return 0;
}

/* Executes an atomic: 0 and *@orig, or the NAK syndrome. */
static u8 mrc_resp_atomic_exec(struct mrc_resp_ctx *ctx,
			       struct mrc_resp_rd *rd, u64 *orig)
{
	bool cmp_swap = rd->opcode == MRC_OP_ATOMIC_CMP_SWAP;
	struct mrc_mr *mr;
	int err;

	mr = mrc_resp_rkey(ctx, rd->rkey, rd->va, MRC_ATOMIC_OPERAND_LEN,
			   IB_ACCESS_REMOTE_ATOMIC);
	if (!mr)
		return MRC_NAK_REMOTE_ACCESS_ERROR;
	err = mrc_mr_atomic(mr, rd->va, cmp_swap,
			    cmp_swap ? rd->compare : rd->swap_or_add,
			    rd->swap_or_add, orig);
	mrc_mr_put(mr);
	if (err == -EINVAL)
		return MRC_NAK_INVALID_REQUEST;
	return err ? MRC_NAK_REMOTE_ACCESS_ERROR : 0;
}

/*
 * An atomic at its in-order point: executed unless its MSN already was
 * (a repeated request), then answered. 0 or the NAK syndrome.
 */
static u8 mrc_resp_atomic(struct mrc_resp_ctx *ctx, struct mrc_resp_rd *rd)
{
	struct mrc_resp_state *resp = &ctx->qp->resp;
	u64 orig;
	u8 syndrome = 0;

	if (!mrc_receiver_atomic_result(&resp->rcv, rd->msn, &orig)) {
		syndrome = mrc_resp_atomic_exec(ctx, rd, &orig);
		if (syndrome)
			goto out;
		mrc_receiver_atomic_executed(&resp->rcv, rd->msn, orig);
	}
	mrc_resp_queue_atomic_resp(ctx, rd->msn, rd->psn, orig);
out:
	list_add(&rd->node, &resp->rd_free);
	return syndrome;
}

static void mrc_resp_rd_execute(struct mrc_resp_ctx *ctx, u32 index)
{
	struct mrc_resp_state *resp = &ctx->qp->resp;
	struct mrc_resp_rd *rd = &resp->rd[index];
	u32 psn = rd->psn;
	u8 syndrome;

	resp->rd_pending--;
	if (rd->opcode == MRC_OP_READ_REQ)
		syndrome = mrc_resp_read_start(ctx, rd);
	else
		syndrome = mrc_resp_atomic(ctx, rd);
	if (syndrome)
		mrc_resp_fatal(ctx, psn, syndrome, false, 0);
}

/* Does the actions of the PSNs the in-order point has passed, in order. */
static void mrc_resp_advance(struct mrc_resp_ctx *ctx)
{
	struct mrc_resp_state *resp = &ctx->qp->resp;
	struct mrc_resp_action *slot, a;
	u32 psn;

	/* After a fatal NAK the core reports nothing more. */
	while (mrc_receiver_poll_done(&resp->rcv, &psn)) {
		slot = &resp->actions[psn & (MRC_RX_WINDOW - 1)];
		if (slot->type == MRC_RESP_ACT_NONE)
			continue;
		a = *slot;
		slot->type = MRC_RESP_ACT_NONE;
		switch (a.type) {
		case MRC_RESP_ACT_RECV:
			mrc_resp_recv_ready(ctx, psn, a.arg);
			break;
		case MRC_RESP_ACT_RD_ATOMIC:
			mrc_resp_rd_execute(ctx, a.arg);
			break;
		case MRC_RESP_ACT_NAK:
			mrc_resp_fatal(ctx, psn, a.syndrome, a.recv, a.arg);
			break;
		}
	}
}

/* ---- new packets ---- */

/* WRITE and WRITE_IMM payload: 0 or the NAK syndrome. */
static u8 mrc_resp_write(struct mrc_resp_ctx *ctx, struct sk_buff *skb)
{
	const struct mrc_pkt *pkt = ctx->pkt;
	struct mrc_mr *mr;
	int err = 0;

	/* An empty WRITE names no memory (and needs no valid key). */
	if (!pkt->msgh.length)
		return 0;
	/* The whole message, so that its packets all pass or all fail. */
	mr = mrc_resp_rkey(ctx, pkt->raddr.rkey, pkt->raddr.va,
			   pkt->msgh.length, IB_ACCESS_REMOTE_WRITE);
	if (!mr)
		return MRC_NAK_REMOTE_ACCESS_ERROR;
	if (pkt->hdr.payload_len)
		err = mrc_mr_copy_skb_to(mr, pkt->raddr.va + pkt->msgh.offset,
					 skb, pkt->payload_off,
					 pkt->hdr.payload_len);
	mrc_mr_put(mr);
	return err ? MRC_NAK_REMOTE_ACCESS_ERROR : 0;
}

/* Whether the receive can take the message: IB_WC_SUCCESS or the error. */
static u8 mrc_resp_check_recv(struct mrc_resp_ctx *ctx,
			      struct mrc_resp_recv *e)
{
	struct mrc_qp *qp = ctx->qp;
	u64 left = e->length, n;
	struct mrc_mr *mr;
	u32 i;
	int err;

	if (e->length > e->sge_bytes)
		return IB_WC_LOC_LEN_ERR;
	for (i = 0; i < e->num_sge && left; i++) {
		n = min_t(u64, left, e->sge[i].length);
		if (!n)
			continue;
		mr = mrc_mr_get(ctx->mdev, e->sge[i].lkey);
		if (!mr)
			return IB_WC_LOC_PROT_ERR;
		err = mrc_mr_check(mr, qp->ibqp.pd, e->sge[i].addr, n,
				   IB_ACCESS_LOCAL_WRITE);
		mrc_mr_put(mr);
		if (err)
			return IB_WC_LOC_PROT_ERR;
		left -= n;
	}
	return IB_WC_SUCCESS;
}

/* Places a SEND packet's payload at its offset in the receive's buffers. */
static int mrc_resp_scatter(struct mrc_resp_ctx *ctx, struct mrc_resp_recv *e,
			    struct sk_buff *skb)
{
	const struct mrc_pkt *pkt = ctx->pkt;
	u32 offset = pkt->msgh.offset, len = pkt->hdr.payload_len, n, i;
	int skb_off = pkt->payload_off;
	struct mrc_mr *mr;
	u64 addr;
	int err;

	for (i = 0; i < e->num_sge && len; i++) {
		if (offset >= e->sge[i].length) {
			offset -= e->sge[i].length;
			continue;
		}
		n = min(len, e->sge[i].length - offset);
		addr = e->sge[i].addr + offset;
		if (addr < e->sge[i].addr)
			return -ERANGE;
		mr = mrc_mr_get(ctx->mdev, e->sge[i].lkey);
		if (!mr)
			return -EINVAL;
		err = mrc_mr_check(mr, ctx->qp->ibqp.pd, addr, n,
				   IB_ACCESS_LOCAL_WRITE);
		if (!err)
			err = mrc_mr_copy_skb_to(mr, addr, skb, skb_off, n);
		mrc_mr_put(mr);
		if (err)
			return err;
		skb_off += n;
		len -= n;
		offset = 0;
	}
	return len ? -ERANGE : 0;
}

/* A new packet of a message that consumes receive @e (RSN = its MSN). */
static void mrc_resp_recv_packet(struct mrc_resp_ctx *ctx,
				 struct mrc_resp_recv *e, struct sk_buff *skb)
{
	const struct mrc_pkt *pkt = ctx->pkt;
	u32 rsn = pkt->msgh.msn, psn = pkt->hdr.psn;
	u8 opcode = pkt->hdr.opcode;

	if (!e->opcode) {
		e->opcode = opcode;
		e->length = pkt->msgh.length;
		e->imm = pkt->imm;
		e->inv_rkey = pkt->inv_rkey;
		e->solicited = pkt->hdr.flags & MRC_F_SOLICITED;
		e->last_psn = psn;
		if (e->status == IB_WC_SUCCESS && opcode != MRC_OP_WRITE_IMM)
			e->status = mrc_resp_check_recv(ctx, e);
		/* A region we could not invalidate fails the message whole. */
		if (e->status == IB_WC_SUCCESS && opcode == MRC_OP_SEND_INV &&
		    mrc_resp_invalidate(ctx, e->inv_rkey, false)) {
			e->status = IB_WC_REM_INV_REQ_ERR;
		}
	} else if (e->opcode != opcode || e->length != pkt->msgh.length ||
		   e->inv_rkey != pkt->inv_rkey) {
		/* Two different messages claim one receive. */
		mrc_resp_nak_later(ctx, psn, MRC_NAK_INVALID_REQUEST, false, 0);
		return;
	} else if (mrc_psn_after(psn, e->last_psn)) {
		e->last_psn = psn;
	}

	if (e->status == IB_WC_SUCCESS && opcode != MRC_OP_WRITE_IMM &&
	    pkt->hdr.payload_len && mrc_resp_scatter(ctx, e, skb))
		e->status = IB_WC_LOC_PROT_ERR;
	if (e->status != IB_WC_SUCCESS) {
		mrc_resp_nak_later(ctx, psn,
				   e->status == IB_WC_LOC_LEN_ERR ||
				   e->status == IB_WC_REM_INV_REQ_ERR ?
				   MRC_NAK_INVALID_REQUEST :
				   MRC_NAK_REMOTE_OP_ERROR, true, rsn);
		return;
	}
	/* Every PSN is new once, so the count reaches the length once. */
	e->placed += pkt->hdr.payload_len;
	if (e->placed == e->length)
		mrc_resp_set_action(ctx, e->last_psn, MRC_RESP_ACT_RECV, 0,
				    false, rsn);
}

/* A new READ_REQ or atomic: it waits for the in-order point. */
static void mrc_resp_rd_packet(struct mrc_resp_ctx *ctx)
{
	struct mrc_resp_state *resp = &ctx->qp->resp;
	const struct mrc_pkt *pkt = ctx->pkt;
	struct mrc_resp_rd *rd;

	if (resp->rd_pending >= ctx->qp->max_dest_rd_atomic) {
		mrc_resp_nak_later(ctx, pkt->hdr.psn, MRC_NAK_INVALID_REQUEST,
				   false, 0);
		return;
	}
	rd = list_first_entry(&resp->rd_free, struct mrc_resp_rd, node);
	list_del(&rd->node);
	rd->opcode = pkt->hdr.opcode;
	rd->va = pkt->raddr.va;
	rd->rkey = pkt->raddr.rkey;
	rd->swap_or_add = pkt->atomic.swap_or_add;
	rd->compare = pkt->atomic.compare;
	rd->msn = pkt->msgh.msn;
	rd->psn = pkt->hdr.psn;
	/* READ_REQ: offset + length <= 2^31, checked by the codec. */
	rd->offset = pkt->msgh.offset;
	rd->end = pkt->msgh.offset + pkt->msgh.length;
	if (!mrc_resp_set_action(ctx, rd->psn, MRC_RESP_ACT_RD_ATOMIC, 0,
				 false, rd - resp->rd)) {
		list_add(&rd->node, &resp->rd_free);
		return;
	}
	resp->rd_pending++;
}

/* ---- duplicates ---- */

/*
 * A READ_REQ the receiver core replays (its in-order point has passed):
 * the requester lost the responses, so they go out again (a READ is
 * idempotent). Not when the READ is still queued with this request or a
 * newer one (mrc_resp_queue_read()), nor, silently, when the MR is gone:
 * a new READ_REQ would fail properly.
 */
static void mrc_resp_read_again(struct mrc_resp_ctx *ctx)
{
	struct mrc_resp_state *resp = &ctx->qp->resp;
	const struct mrc_pkt *pkt = ctx->pkt;
	struct mrc_resp_rd *rd;

	if (list_empty(&resp->rd_free))
		return;
	rd = list_first_entry(&resp->rd_free, struct mrc_resp_rd, node);
	list_del(&rd->node);
	rd->opcode = MRC_OP_READ_REQ;
	rd->va = pkt->raddr.va;
	rd->rkey = pkt->raddr.rkey;
	rd->msn = pkt->msgh.msn;
	rd->psn = pkt->hdr.psn;
	rd->offset = pkt->msgh.offset;
	rd->end = pkt->msgh.offset + pkt->msgh.length;
	mrc_resp_read_start(ctx, rd);
}

/* An atomic seen before and executed: its saved result, if still kept. */
static void mrc_resp_atomic_again(struct mrc_resp_ctx *ctx)
{
	const struct mrc_pkt *pkt = ctx->pkt;
	u64 orig;

	if (mrc_receiver_atomic_result(&ctx->qp->resp.rcv, pkt->msgh.msn,
				       &orig))
		mrc_resp_queue_atomic_resp(ctx, pkt->msgh.msn, pkt->hdr.psn,
					   orig);
}

/* ---- the receive path ---- */

/* The receiver core's view of the packet being handled. */
static u32 mrc_resp_flags(const struct mrc_resp_ctx *ctx)
{
	const struct mrc_pkt *pkt = ctx->pkt;
	u32 flags = 0;

	if (pkt->hdr.flags & MRC_F_ACK_REQ)
		flags |= MRC_RECEIVER_F_ACK_REQ;
	if (pkt->trimmed)
		flags |= MRC_RECEIVER_F_TRIMMED;
	if (pkt->trimmed && ctx->qp->no_trim_nak)
		flags |= MRC_RECEIVER_F_NO_TRIM_NAK;
	if (ctx->meta && ctx->meta->ecn == INET_ECN_CE)
		flags |= MRC_RECEIVER_F_ECN_CE;
	if (mrc_resp_is_rd_atomic(pkt->hdr.opcode))
		flags |= MRC_RECEIVER_F_RESPONDS;
	return flags;
}

/* From the QP's peer, to the QP's address, from the peer's QP. */
static void mrc_resp_handle(struct mrc_resp_ctx *ctx, struct sk_buff *skb)
{
	struct mrc_qp *qp = ctx->qp;
	struct mrc_resp_state *resp = &qp->resp;
	const struct mrc_pkt *pkt = ctx->pkt;
	u32 psn = pkt->hdr.psn, epsn = mrc_receiver_epsn(&resp->rcv);
	u8 opcode = pkt->hdr.opcode, syndrome;
	struct mrc_receiver_reply reply;
	struct mrc_receiver_verdict v;
	struct mrc_resp_recv *e = NULL;
	int recv_err = 0;

	if (!mrc_resp_state_ok(qp)) {
		mrc_stats_inc(ctx->mdev, MRC_CNT_RX_DROP_QP_STATE);
		return;
	}
	if (!mrc_qp_from_peer(qp, pkt, ctx->meta)) {
		mrc_stats_inc(ctx->mdev, MRC_CNT_RX_DROP_BAD_SOURCE_QP);
		return;
	}
	if (pkt->trimmed)
		mrc_stats_inc(ctx->mdev, MRC_CNT_TRIMS);

	ctx->flags = mrc_resp_flags(ctx);
	mrc_receiver_check(&resp->rcv, psn, ctx->flags, &v, &reply);
	if (v.action != MRC_RECEIVER_DELIVER) {
		if (v.action == MRC_RECEIVER_DUPLICATE)
			mrc_stats_inc(ctx->mdev, MRC_CNT_DUPLICATES);
		else if (v.action == MRC_RECEIVER_DROP)
			mrc_stats_inc(ctx->mdev, MRC_CNT_RX_DROP_OUT_OF_WINDOW);
		else if (v.action == MRC_RECEIVER_TRIMMED && !v.reply)
			mrc_stats_inc(ctx->mdev, MRC_CNT_TRIMS_UNANSWERED);
		if (v.replay && opcode == MRC_OP_READ_REQ)
			mrc_resp_read_again(ctx);
		else if (v.replay)
			mrc_resp_atomic_again(ctx);
		if (v.reply)
			mrc_resp_queue_reply(ctx, &reply);
		return;
	}

	/*
	 * New, but our resources may refuse it, leaving the PSN unreceived
	 * for the requester to send again: a SEND when its receive is
	 * posted (RNR NAK), a READ or atomic when we have room for it.
	 */
	if (mrc_resp_needs_recv(opcode)) {
		recv_err = mrc_resp_get_recv(ctx, pkt->msgh.msn, &e);
		if (recv_err == -EAGAIN) {
			mrc_receiver_rnr(&resp->rcv, psn, ctx->flags, &reply);
			mrc_resp_queue_reply(ctx, &reply);
			return;
		}
	}
	if (mrc_resp_is_rd_atomic(opcode) && list_empty(&resp->rd_free)) {
		mrc_stats_inc(ctx->mdev, MRC_CNT_RX_DROP_QP_STATE);
		return;
	}

	mrc_receiver_accept(&resp->rcv, psn, ctx->flags, &v, &reply);
	if (psn != epsn)
		mrc_stats_inc(ctx->mdev, MRC_CNT_OUT_OF_ORDER);

	switch (mrc_opcode_class(opcode) &
		(MRC_OPC_REQUEST | MRC_OPC_RD_ATOMIC)) {
	case MRC_OPC_REQUEST:
		if (recv_err) {
			mrc_resp_nak_later(ctx, psn, MRC_NAK_INVALID_REQUEST,
					   false, 0);
			break;
		}
		/* A broken receive WQE fails the message before its WRITE. */
		syndrome = 0;
		if (opcode == MRC_OP_WRITE ||
		    (opcode == MRC_OP_WRITE_IMM && e->status == IB_WC_SUCCESS))
			syndrome = mrc_resp_write(ctx, skb);
		if (syndrome) {
			mrc_resp_nak_later(ctx, psn, syndrome, false, 0);
			break;
		}
		if (e)
			mrc_resp_recv_packet(ctx, e, skb);
		break;
	case MRC_OPC_REQUEST | MRC_OPC_RD_ATOMIC:
		mrc_resp_rd_packet(ctx);
		break;
	default:
		/* Not a request: the dispatcher never sends one here. */
		mrc_resp_nak_later(ctx, psn, MRC_NAK_INVALID_REQUEST, false, 0);
		break;
	}

	mrc_resp_advance(ctx);
	/* The core's ACK, unless a fatal NAK went out instead. */
	if (v.reply && !mrc_receiver_failed(&resp->rcv))
		mrc_resp_queue_reply(ctx, &reply);
}

void mrc_resp_rcv(struct mrc_qp *qp, struct sk_buff *skb,
		  const struct mrc_pkt *pkt, const struct mrc_rx_meta *meta)
{
	struct mrc_resp_ctx ctx;

	mrc_resp_ctx_init(&ctx, qp, pkt, meta);
	spin_lock_bh(&qp->lock);
	mrc_resp_handle(&ctx, skb);
	if (!mrc_receiver_failed(&qp->resp.rcv) && mrc_resp_state_ok(qp) &&
	    !list_empty(&qp->resp.rd_sending))
		ctx.more_reads = mrc_resp_send_reads(&ctx,
						     MRC_RESP_INLINE_READ_PKTS);
	spin_unlock_bh(&qp->lock);
	mrc_resp_finish(&ctx);
}

/* ---- the READ work ---- */

/*
 * One pass of the READ task (mrc_task.h), on mrc_wq: a batch of READ
 * response packets; the budget counts packets.
 */
static bool mrc_resp_read_pass(struct mrc_task *task, u32 *budget)
{
	struct mrc_qp *qp = container_of(task, struct mrc_qp, resp.task);
	struct mrc_resp_state *resp = &qp->resp;
	struct mrc_resp_ctx ctx;
	bool more = false;

	mrc_resp_ctx_init(&ctx, qp, NULL, NULL);
	spin_lock_bh(&qp->lock);
	if (!mrc_resp_state_ok(qp))
		list_splice_init(&resp->rd_sending, &resp->rd_free);
	else
		more = mrc_resp_send_reads(&ctx, min_t(u32, *budget,
						       MRC_RESP_READ_BATCH));
	spin_unlock_bh(&qp->lock);
	*budget -= min_t(unsigned int, skb_queue_len(&ctx.txq), *budget);
	mrc_resp_finish(&ctx);
	return more;
}
