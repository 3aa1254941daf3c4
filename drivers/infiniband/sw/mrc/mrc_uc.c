// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unreliable Connected QPs (mrc_uc.h): the send task that cuts send slots
 * into data packets, and the receiver that reassembles in-order messages
 * and discards the rest.
 *
 * Context: the send task (mrc_task.h) runs on mrc_wq and takes qp->lock
 * with BHs disabled; mrc_uc_rcv() runs in softirq. Packets are sent after
 * the lock is released, as mrc_xmit.h requires.
 */
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "mrc.h"
#include "mrc_clock.h"
#include "mrc_cq.h"
#include "mrc_mr.h"
#include "mrc_net.h"
#include "mrc_psn.h"
#include "mrc_qp.h"
#include "mrc_srq.h"
#include "mrc_stats.h"
#include "mrc_txq.h"
#include "mrc_uc.h"
#include "mrc_xmit.h"

/* Packets one pass builds before it sends them ... */
#define MRC_UC_BURST		16
/* ... and one run sends before it yields the worker to others. */
#define MRC_UC_RUN_BUDGET	(4 * MRC_UC_BURST)

static bool mrc_uc_send_pass(struct mrc_task *task, u32 *budget);

int mrc_uc_init(struct mrc_qp *qp)
{
	struct mrc_uc_state *uc = &qp->uc;

	mrc_task_init(&uc->task, mrc_uc_send_pass, MRC_UC_RUN_BUDGET);
	uc->ev = -1;
	uc->rx_max_sge = qp->ibqp.srq ? to_mrc_srq(qp->ibqp.srq)->max_sge :
					qp->max_recv_sge;
	uc->tx_sges = kcalloc(max_t(u32, qp->max_send_sge, 1),
			      sizeof(*uc->tx_sges), GFP_KERNEL);
	uc->rx_sges = kcalloc(max_t(u32, uc->rx_max_sge, 1),
			      sizeof(*uc->rx_sges), GFP_KERNEL);
	if (!uc->tx_sges || !uc->rx_sges) {
		kfree(uc->tx_sges);
		kfree(uc->rx_sges);
		uc->tx_sges = NULL;
		uc->rx_sges = NULL;
		return -ENOMEM;
	}
	return 0;
}

void mrc_uc_cleanup(struct mrc_qp *qp)
{
	struct mrc_uc_state *uc = &qp->uc;

	mrc_task_stop(&uc->task);
	kfree(uc->tx_sges);
	kfree(uc->rx_sges);
	uc->tx_sges = NULL;
	uc->rx_sges = NULL;
}

void mrc_uc_kick(struct mrc_qp *qp)
{
	mrc_task_kick(&qp->uc.task);
}

bool mrc_uc_send_opcode_ok(u32 wr_opcode)
{
	switch (wr_opcode) {
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return true;
	default:
		return false;
	}
}

static u8 mrc_uc_wire_opcode(u32 wr_opcode)
{
	switch (wr_opcode) {
	case IB_WR_SEND:
		return MRC_OP_SEND;
	case IB_WR_SEND_WITH_IMM:
		return MRC_OP_SEND_IMM;
	case IB_WR_RDMA_WRITE:
		return MRC_OP_WRITE;
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return MRC_OP_WRITE_IMM;
	default:
		return 0;
	}
}

void mrc_uc_start(struct mrc_qp *qp)
{
	struct mrc_uc_state *uc = &qp->uc;

	/*
	 * One EV for the QP's life: UC has no reorder buffer, so a packet
	 * overtaken by the next one would cost its whole message.
	 */
	uc->ev = mrc_qp_paths_pick(qp, -1, (u32)mrc_now_us());
	uc->tx_psn = qp->sq_psn & MRC_PSN_MASK;
	uc->tx_busy = false;
}

void mrc_uc_rx_start(struct mrc_qp *qp)
{
	/* A WQE held before a RESET went with it, uncompleted. */
	qp->uc.rx_held = false;
	qp->uc.rx_active = false;
	qp->uc.rx_epsn = qp->rq_psn & MRC_PSN_MASK;
}

/* ---- sending ---- */

/*
 * Copies the oldest send slot into the QP's message and checks it; the
 * completion status (IB_WC_SUCCESS: it may go).
 */
static enum ib_wc_status mrc_uc_fetch(struct mrc_qp *qp,
				      const struct mrc_send_wqe *slot)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_uc_state *uc = &qp->uc;
	struct mrc_mr *mr;
	u64 len = 0;
	u32 i;
	int err;

	/* The ring may be userspace's: read the slot once. */
	memcpy(&uc->wqe, slot, sizeof(uc->wqe));
	uc->tx_opcode = mrc_uc_wire_opcode(uc->wqe.opcode);
	uc->tx_offset = 0;
	uc->tx_length = 0;
	if (!uc->tx_opcode)
		return IB_WC_LOC_QP_OP_ERR;
	if (uc->wqe.send_flags & IB_SEND_INLINE) {
		if (uc->wqe.inline_len > qp->max_inline_data)
			return IB_WC_LOC_LEN_ERR;
		uc->tx_length = uc->wqe.inline_len;
		return IB_WC_SUCCESS;
	}
	if (uc->wqe.num_sge > qp->max_send_sge)
		return IB_WC_LOC_LEN_ERR;
	memcpy(uc->tx_sges, slot->sge, uc->wqe.num_sge * sizeof(*uc->tx_sges));
	for (i = 0; i < uc->wqe.num_sge; i++) {
		len += uc->tx_sges[i].length;
		if (!uc->tx_sges[i].length)
			continue;
		mr = mrc_mr_get(mdev, uc->tx_sges[i].lkey);
		if (!mr)
			return IB_WC_LOC_PROT_ERR;
		err = mrc_mr_check(mr, qp->ibqp.pd, uc->tx_sges[i].addr,
				   uc->tx_sges[i].length, 0);
		mrc_mr_put(mr);
		if (err)
			return IB_WC_LOC_PROT_ERR;
	}
	if (len > MRC_MAX_MSG_LEN)
		return IB_WC_LOC_LEN_ERR;
	uc->tx_length = len;
	return IB_WC_SUCCESS;
}

/* Copies @len bytes at @offset of the message out of its buffers. */
static int mrc_uc_gather(struct mrc_qp *qp, const struct mrc_send_wqe *slot,
			 u32 offset, u8 *dst, u32 len)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_uc_state *uc = &qp->uc;
	struct mrc_mr *mr;
	u32 i, n;
	int err;

	if (uc->wqe.send_flags & IB_SEND_INLINE) {
		/* Bounded by inline_len, checked against the slot's room. */
		memcpy(dst, (const u8 *)slot->sge + offset, len);
		return 0;
	}
	for (i = 0; i < uc->wqe.num_sge && len; i++) {
		if (offset >= uc->tx_sges[i].length) {
			offset -= uc->tx_sges[i].length;
			continue;
		}
		n = min(len, uc->tx_sges[i].length - offset);
		mr = mrc_mr_get(mdev, uc->tx_sges[i].lkey);
		if (!mr)
			return -EINVAL;
		err = mrc_mr_copy_from(mr, uc->tx_sges[i].addr + offset, dst,
				       n);
		mrc_mr_put(mr);
		if (err)
			return err;
		dst += n;
		len -= n;
		offset = 0;
	}
	return len ? -EINVAL : 0;
}

/*
 * The next packet of the message; *@skb stays NULL when it is lost for
 * lack of memory, which UC, like a network out of buffers, shrugs off.
 */
static enum ib_wc_status mrc_uc_build(struct mrc_qp *qp,
				      const struct mrc_send_wqe *slot,
				      struct sk_buff **skb)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_uc_state *uc = &qp->uc;
	u32 len = min(mrc_qp_payload_mtu(qp), uc->tx_length - uc->tx_offset);
	struct mrc_pkt pkt = {};
	u8 *payload;

	pkt.hdr.opcode = uc->tx_opcode;
	pkt.hdr.psn = uc->tx_psn;
	pkt.msgh.msn = uc->tx_msn;
	pkt.msgh.offset = uc->tx_offset;
	pkt.msgh.length = uc->tx_length;
	pkt.raddr.va = uc->wqe.remote_addr;
	pkt.raddr.rkey = uc->wqe.rkey;
	pkt.imm = be32_to_cpu(uc->wqe.imm_data);
	if (uc->wqe.send_flags & IB_SEND_SOLICITED &&
	    uc->tx_opcode != MRC_OP_WRITE)
		pkt.hdr.flags = MRC_F_SOLICITED;

	/* The PSN is spent whether or not the packet leaves. */
	uc->tx_psn = mrc_psn_add(uc->tx_psn, 1);
	*skb = mrc_qp_new_packet(qp, &pkt, len, &payload, uc->ev);
	if (!*skb) {
		mrc_stats_inc(mdev, MRC_CNT_TX_ERRORS);
	} else if (len && mrc_uc_gather(qp, slot, uc->tx_offset, payload,
					len)) {
		/* The MR went away under the request after it was checked. */
		kfree_skb(*skb);
		*skb = NULL;
		return IB_WC_LOC_PROT_ERR;
	}
	uc->tx_offset += len;
	return IB_WC_SUCCESS;
}

/* Completes the oldest send slot; its slot goes back first. */
static void mrc_uc_send_done(struct mrc_qp *qp, enum ib_wc_status status)
{
	struct mrc_uc_state *uc = &qp->uc;
	struct ib_wc wc = {
		.wr_id = uc->wqe.wr_id,
		.status = status,
		.opcode = mrc_send_wc_opcode(uc->wqe.opcode),
		.byte_len = uc->tx_length,
		.qp = &qp->ibqp,
		.port_num = 1,
	};

	uc->tx_busy = false;
	qp->sq_completed++;
	qp->sq_fetched = qp->sq_completed;
	mrc_ring_publish_consumer(&qp->sq, qp->sq_completed);
	if (qp->sq_sig_all || uc->wqe.send_flags & IB_SEND_SIGNALED ||
	    status != IB_WC_SUCCESS)
		mrc_cq_post(to_mrc_cq(qp->ibqp.send_cq), &wc, false);
	if (status != IB_WC_SUCCESS)
		mrc_qp_error(qp);
}

/* One pass of the send task (mrc_task.h); the budget counts packets. */
static bool mrc_uc_send_pass(struct mrc_task *task, u32 *budget)
{
	struct mrc_qp *qp = container_of(task, struct mrc_qp, uc.task);
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	u32 limit = READ_ONCE(mdev->settings.txq_packets);
	struct mrc_uc_state *uc = &qp->uc;
	struct sk_buff_head out;
	enum ib_wc_status status;
	struct mrc_send_wqe *slot;
	struct sk_buff *skb;
	bool more = false;
	u32 n = 0, max = min_t(u32, *budget, MRC_UC_BURST);
	s64 avail;

	__skb_queue_head_init(&out);
	spin_lock_bh(&qp->lock);
	while (qp->state == IB_QPS_RTS) {
		if (n == max) {
			more = true;
			break;
		}
		/* Its local queues drained, the budget kicks us again. */
		if (mrc_txq_full(qp->txq, limit, n))
			break;
		if (!uc->tx_busy) {
			avail = mrc_ring_produced(&qp->sq, qp->sq_completed);
			if (avail < 0) {
				/* A lying producer index: trust nothing. */
				mrc_qp_error(qp);
				break;
			}
			if (!avail)
				break;
			slot = mrc_ring_slot(&qp->sq, qp->sq_completed);
			uc->tx_busy = true;
			uc->tx_msn++;
			status = mrc_uc_fetch(qp, slot);
			if (status != IB_WC_SUCCESS) {
				mrc_uc_send_done(qp, status);
				break;
			}
		}
		slot = mrc_ring_slot(&qp->sq, qp->sq_completed);
		status = mrc_uc_build(qp, slot, &skb);
		if (skb) {
			__skb_queue_tail(&out, skb);
			n++;
		}
		if (status != IB_WC_SUCCESS) {
			mrc_uc_send_done(qp, status);
			break;
		}
		if (uc->tx_offset >= uc->tx_length)
			mrc_uc_send_done(qp, IB_WC_SUCCESS);
	}
	spin_unlock_bh(&qp->lock);
	mrc_qp_notify(qp);

	while ((skb = __skb_dequeue(&out))) {
		mrc_txq_own(qp->txq, skb);
		mrc_qp_send_packet(qp, skb);
	}
	*budget -= min(n, *budget);
	return more;
}

/* ---- receiving ---- */

/* Copies receive WQE @wqe into the QP, which holds it from now on. */
static void mrc_uc_hold(struct mrc_qp *qp, const struct mrc_recv_wqe *wqe)
{
	struct mrc_uc_state *uc = &qp->uc;
	u32 i;

	/* The ring may be userspace's: read each field once. */
	uc->rx_wr_id = READ_ONCE(wqe->wr_id);
	uc->rx_num_sge = READ_ONCE(wqe->num_sge);
	uc->rx_bytes = 0;
	uc->rx_broken = uc->rx_num_sge > uc->rx_max_sge;
	if (uc->rx_broken)
		uc->rx_num_sge = 0;
	memcpy(uc->rx_sges, wqe->sge, uc->rx_num_sge * sizeof(*uc->rx_sges));
	for (i = 0; i < uc->rx_num_sge; i++)
		uc->rx_bytes += uc->rx_sges[i].length;
	uc->rx_held = true;
}

/*
 * Takes the next receive WQE into the QP; false when none is posted. Its
 * slot is handed back now: the WQE lives on in the QP until it completes.
 */
static bool mrc_uc_take_recv(struct mrc_qp *qp, bool *srq_event)
{
	struct mrc_srq *srq;
	unsigned long flags;
	s64 avail;

	if (!qp->ibqp.srq) {
		if (mrc_ring_produced(&qp->rq, qp->rq_completed) <= 0)
			return false;
		mrc_uc_hold(qp, mrc_ring_slot(&qp->rq, qp->rq_completed));
		qp->rq_completed++;
		qp->rq_fetched = qp->rq_completed;
		mrc_ring_publish_consumer(&qp->rq, qp->rq_completed);
		return true;
	}

	srq = to_mrc_srq(qp->ibqp.srq);
	spin_lock_irqsave(&srq->lock, flags);
	avail = mrc_ring_produced(&srq->rq, srq->fetched);
	if (avail > 0) {
		mrc_uc_hold(qp, mrc_ring_slot(&srq->rq, srq->fetched));
		srq->fetched++;
		srq->completed = srq->fetched;
		mrc_ring_publish_consumer(&srq->rq, srq->completed);
		if (srq->limit && avail - 1 < srq->limit) {
			srq->limit = 0;
			*srq_event = true;
		}
	}
	spin_unlock_irqrestore(&srq->lock, flags);
	return avail > 0;
}

void mrc_uc_flush(struct mrc_qp *qp)
{
	struct mrc_uc_state *uc = &qp->uc;
	struct ib_wc wc = {
		.wr_id = uc->rx_wr_id,
		.status = IB_WC_WR_FLUSH_ERR,
		.opcode = IB_WC_RECV,
		.qp = &qp->ibqp,
		.port_num = 1,
	};

	uc->rx_active = false;
	if (!uc->rx_held)
		return;
	/* Out of its ring already: the oldest receive, flushed first. */
	uc->rx_held = false;
	mrc_cq_post(to_mrc_cq(qp->ibqp.recv_cq), &wc, true);
}

/* Places @len payload bytes at @offset of the held receive WQE. */
static int mrc_uc_place_recv(struct mrc_qp *qp, const struct sk_buff *skb,
			     int skb_off, u32 offset, u32 len)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_uc_state *uc = &qp->uc;
	const struct mrc_sge *sge;
	struct mrc_mr *mr;
	u32 i, n;
	int err;

	for (i = 0; i < uc->rx_num_sge && len; i++) {
		sge = &uc->rx_sges[i];
		if (offset >= sge->length) {
			offset -= sge->length;
			continue;
		}
		n = min(len, sge->length - offset);
		mr = mrc_mr_get(mdev, sge->lkey);
		if (!mr)
			return -EINVAL;
		err = mrc_mr_check(mr, qp->ibqp.pd, sge->addr + offset, n,
				   IB_ACCESS_LOCAL_WRITE);
		if (!err)
			err = mrc_mr_copy_skb_to(mr, sge->addr + offset, skb,
						 skb_off, n);
		mrc_mr_put(mr);
		if (err)
			return err;
		skb_off += n;
		len -= n;
		offset = 0;
	}
	return len ? -EINVAL : 0;
}

/* Writes a WRITE's payload; the responder's rights are checked per packet. */
static int mrc_uc_place_write(struct mrc_qp *qp, const struct sk_buff *skb,
			      const struct mrc_pkt *pkt)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	u32 len = pkt->hdr.payload_len;
	u64 va = pkt->raddr.va + pkt->msgh.offset;
	struct mrc_mr *mr;
	int err;

	if (!(qp->access_flags & IB_ACCESS_REMOTE_WRITE))
		return -EACCES;
	if (!len)
		return 0;
	if (va < pkt->raddr.va)
		return -EINVAL;
	mr = mrc_mr_get(mdev, pkt->raddr.rkey);
	if (!mr)
		return -EINVAL;
	err = mrc_mr_check(mr, qp->ibqp.pd, va, len, IB_ACCESS_REMOTE_WRITE);
	if (!err)
		err = mrc_mr_copy_skb_to(mr, va, skb, pkt->payload_off, len);
	mrc_mr_put(mr);
	return err;
}

static void mrc_uc_srq_event(struct ib_srq *ibsrq)
{
	struct ib_event event = {
		.device = ibsrq->device,
		.element.srq = ibsrq,
		.event = IB_EVENT_SRQ_LIMIT_REACHED,
	};

	if (ibsrq->event_handler)
		ibsrq->event_handler(&event, ibsrq->srq_context);
}

/* The held receive WQE completes: the message is whole, or it failed. */
static void mrc_uc_recv_done(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			     enum ib_wc_status status)
{
	struct mrc_uc_state *uc = &qp->uc;
	struct ib_wc wc = {
		.wr_id = uc->rx_wr_id,
		.status = status,
		.opcode = IB_WC_RECV,
		.qp = &qp->ibqp,
		.port_num = 1,
		.src_qp = qp->dest_qpn,
	};

	uc->rx_held = false;
	uc->rx_active = false;
	if (status == IB_WC_SUCCESS) {
		wc.byte_len = uc->rx_length;
		if (pkt->hdr.opcode == MRC_OP_WRITE_IMM)
			wc.opcode = IB_WC_RECV_RDMA_WITH_IMM;
		if (pkt->hdr.opcode != MRC_OP_SEND) {
			wc.wc_flags = IB_WC_WITH_IMM;
			wc.ex.imm_data = cpu_to_be32(pkt->imm);
		}
	}
	mrc_cq_post(to_mrc_cq(qp->ibqp.recv_cq), &wc,
		    pkt->hdr.flags & MRC_F_SOLICITED ||
		    status != IB_WC_SUCCESS);
	/* A receive buffer the consumer got wrong ends the QP, as on RC. */
	if (status != IB_WC_SUCCESS)
		mrc_qp_error(qp);
}

static bool mrc_uc_state_ok(struct mrc_qp *qp)
{
	return qp->state == IB_QPS_RTR || qp->state == IB_QPS_RTS ||
	       qp->state == IB_QPS_SQD;
}

static bool mrc_uc_opcode_ok(u8 opcode)
{
	return opcode == MRC_OP_SEND || opcode == MRC_OP_SEND_IMM ||
	       opcode == MRC_OP_WRITE || opcode == MRC_OP_WRITE_IMM;
}

/*
 * The first packet of a message: a receive WQE for those that consume
 * one. False when the message cannot be taken and is discarded whole.
 */
static bool mrc_uc_begin(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			 bool *srq_event)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_uc_state *uc = &qp->uc;

	if (mrc_opcode_is(pkt->hdr.opcode, MRC_OPC_CONSUMES_RECV) &&
	    !uc->rx_held && !mrc_uc_take_recv(qp, srq_event)) {
		mrc_stats_inc(mdev, MRC_CNT_RX_DROP_NO_RECV);
		return false;
	}
	uc->rx_active = true;
	uc->rx_opcode = pkt->hdr.opcode;
	uc->rx_msn = pkt->msgh.msn;
	uc->rx_offset = 0;
	uc->rx_length = pkt->msgh.length;
	return true;
}

void mrc_uc_rcv(struct mrc_qp *qp, struct sk_buff *skb,
		const struct mrc_pkt *pkt, const struct mrc_rx_meta *meta)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_uc_state *uc = &qp->uc;
	u32 len = pkt->hdr.payload_len;
	bool srq_event = false, in_seq;
	enum mrc_counter drop;
	int err;

	spin_lock(&qp->lock);
	drop = MRC_CNT_RX_DROP_QP_STATE;
	if (!mrc_uc_state_ok(qp) || !mrc_uc_opcode_ok(pkt->hdr.opcode))
		goto drop;
	drop = MRC_CNT_RX_DROP_BAD_SOURCE_QP;
	if (!mrc_qp_from_peer(qp, pkt, meta))
		goto drop;

	in_seq = pkt->hdr.psn == uc->rx_epsn;
	uc->rx_epsn = mrc_psn_add(pkt->hdr.psn, 1);
	if (uc->rx_active &&
	    (!in_seq || pkt->hdr.opcode != uc->rx_opcode ||
	     pkt->msgh.msn != uc->rx_msn ||
	     pkt->msgh.offset != uc->rx_offset ||
	     pkt->msgh.length != uc->rx_length)) {
		/* A packet of it is missing: none of it completes. */
		uc->rx_active = false;
		mrc_stats_inc(mdev, MRC_CNT_UC_MSGS_DROPPED);
	}
	drop = MRC_CNT_UC_PKTS_DISCARDED;
	if (!uc->rx_active) {
		/* Only a first packet starts a message again. */
		if (pkt->msgh.offset || !mrc_uc_begin(qp, pkt, &srq_event))
			goto drop;
	}
	if (pkt->trimmed) {
		uc->rx_active = false;
		mrc_stats_inc(mdev, MRC_CNT_TRIMS);
		mrc_stats_inc(mdev, MRC_CNT_UC_MSGS_DROPPED);
		goto drop;
	}

	if (pkt->hdr.opcode == MRC_OP_SEND ||
	    pkt->hdr.opcode == MRC_OP_SEND_IMM) {
		if (uc->rx_broken || uc->rx_length > uc->rx_bytes) {
			mrc_uc_recv_done(qp, pkt, IB_WC_LOC_LEN_ERR);
			goto out;
		}
		if (mrc_uc_place_recv(qp, skb, pkt->payload_off,
				      pkt->msgh.offset, len)) {
			mrc_uc_recv_done(qp, pkt, IB_WC_LOC_PROT_ERR);
			goto out;
		}
	} else {
		err = mrc_uc_place_write(qp, skb, pkt);
		if (err) {
			/* Nobody to tell on UC: the message is discarded. */
			uc->rx_active = false;
			mrc_stats_inc(mdev, MRC_CNT_UC_MSGS_DROPPED);
			goto drop;
		}
	}
	uc->rx_offset += len;
	if (uc->rx_offset < uc->rx_length)
		goto out;
	if (mrc_opcode_is(pkt->hdr.opcode, MRC_OPC_CONSUMES_RECV))
		mrc_uc_recv_done(qp, pkt, IB_WC_SUCCESS);
	uc->rx_active = false;
out:
	spin_unlock(&qp->lock);
	mrc_qp_notify(qp);
	if (srq_event)
		mrc_uc_srq_event(qp->ibqp.srq);
	return;

drop:
	spin_unlock(&qp->lock);
	mrc_stats_inc(mdev, drop);
	if (srq_event)
		mrc_uc_srq_event(qp->ibqp.srq);
}
