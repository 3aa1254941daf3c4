// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The requester of an RC QP: send work requests become packets, packets
 * are (re)transmitted until acknowledged, and work requests complete in
 * posting order (Documentation/datapath.rst). What to send or resend,
 * on which EV, when the timer is due and what completes or fails is the
 * sender core's decision (core/mrc_sender.h, req->sender); this file
 * turns its answers into packets and completions (protocol-core.rst,
 * "Status").
 *
 * Context: the send task (mrc_task.h) runs on mrc_wq, and a user QP's
 * doorbell runs it in the posting task; ACKs and responses arrive
 * in softirq (mrc_req_rcv()); the retransmission timer is an hrtimer that
 * expires in softirq (HRTIMER_MODE_REL_SOFT), so its resolution is the
 * clock's, microseconds, not a jiffy, and its callback runs in the same
 * context as the ACK path's.
 * All of them take qp->lock with BHs disabled. Only the ones that build
 * data packets (mrc_req_pass()) transmit, after releasing the lock, and
 * only one of them at a time per QP (the task's one runner); the ACK path
 * and the timer never transmit, they kick the send task.
 *
 * Lock order: qp->lock, then nothing of ours but what it already nests
 * (mrc_qp.h); mdev->settings_lock is taken only without qp->lock
 * (mrc_req_prepare()).
 */
#include <linux/bitmap.h>
#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "mrc.h"
#include "mrc_clock.h"
#include "mrc_compat.h"
#include "mrc_cq.h"
#include "mrc_departure.h"
#include "mrc_mr.h"
#include "mrc_mw.h"
#include "mrc_net.h"
#include "mrc_qp.h"
#include "mrc_sender_wire.h"
#include "mrc_stats.h"
#include "mrc_task.h"
#include "mrc_txq.h"
#include "mrc_xmit.h"

static bool mrc_req_pass(struct mrc_task *task, u32 *budget);
static enum hrtimer_restart mrc_req_timer(struct hrtimer *t);

/*
 * The retransmission timer's resolution: the RTO's least margin over the
 * smoothed RTT and the least reordering window. A microsecond with high
 * resolution timers; a tick without them.
 */
static u64 mrc_req_timer_granularity_us(void)
{
	return max_t(u64, div_u64(hrtimer_resolution, NSEC_PER_USEC), 1);
}

/* The least margin a wait for a late packet gets (mrc_settings.h). */
static u64 mrc_req_least_wait_us(struct mrc_qp *qp)
{
	return max_t(u64, mrc_req_timer_granularity_us(),
		     qp->req.least_wait_us);
}

/* The IB RNR timer encoding, in microseconds. */
static const u32 mrc_rnr_timer_us[32] = {
	655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960,
	1280, 1920, 2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720, 40960,
	61440, 81920, 122880, 163840, 245760, 327680, 491520,
};

/* The IB transport timer of the timeout attribute: 4.096 us * 2^timeout. */
static u64 mrc_req_timeout_attr_us(u8 timeout)
{
	return max_t(u64, div_u64(4096ULL << min_t(u8, timeout, 31), 1000), 1);
}

/*
 * The adaptive RTO's bounds from the timeout attribute T: the RTO stays
 * within [T, 4 T], the range IB allows the transport timer, backoff
 * included. T is what the application says the fabric may take, so the
 * RTO starts there and never goes below it; the estimate lengthens it
 * where round trips are longer and vary more (the emulated lab), and a
 * dead peer is given up on after at most (retry_cnt + 1) x 4 T, unless
 * the QP has an exponential retry stage (exp_retry_cnt): its RTOs double
 * on from there up to MRC_REQ_RTO_EXP_MAX_FACTOR x T. T = 0 (timeout
 * attribute 0) waits forever: no RTO.
 */
static struct mrc_rto_params mrc_req_rto_params(struct mrc_qp *qp)
{
	u64 attr = qp->timeout ? mrc_req_timeout_attr_us(qp->timeout) : 0;

	return (struct mrc_rto_params){
		.min_us = attr,
		.max_us = MRC_REQ_RTO_MAX_FACTOR * attr,
		.granularity_us = mrc_req_least_wait_us(qp),
		.initial_us = attr,
		.exp_max_us = MRC_REQ_RTO_EXP_MAX_FACTOR * attr,
	};
}

/*
 * The RTO now, backoff included; 0 (timeout attribute 0) waits forever.
 * The attribute may change in RTS: the sender gets the new bounds and
 * keeps what it learnt.
 */
static u64 mrc_req_rto_us(struct mrc_qp *qp)
{
	struct mrc_req_state *req = &qp->req;

	if (qp->timeout != req->rto_timeout) {
		struct mrc_rto_params p = mrc_req_rto_params(qp);

		mrc_sender_set_rto(&req->sender, &p);
		req->rto_timeout = qp->timeout;
	}
	return mrc_sender_rto_us(&req->sender);
}

static struct mrc_send_entry *mrc_entry(struct mrc_qp *qp, u32 index)
{
	return &qp->req.entries[index & (qp->sq.num_slots - 1)];
}

static bool mrc_is_rd_atomic(u8 opcode)
{
	return mrc_opcode_is(opcode, MRC_OPC_RD_ATOMIC);
}

int mrc_req_init(struct mrc_qp *qp)
{
	struct mrc_req_state *req = &qp->req;

	/* First: the error path's mrc_req_cleanup() stops both. */
	mrc_task_init(&req->task, mrc_req_pass, MRC_REQ_BURST);
	hrtimer_setup(&req->timer, mrc_req_timer, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL_SOFT);
	req->entries = kvcalloc(qp->sq.num_slots, sizeof(*req->entries),
				GFP_KERNEL);
	req->slots = kvcalloc(MRC_REQ_WINDOW, sizeof(*req->slots), GFP_KERNEL);
	req->pkts = kvcalloc(MRC_REQ_WINDOW, sizeof(*req->pkts), GFP_KERNEL);
	req->msgs = kvcalloc(qp->sq.num_slots, sizeof(*req->msgs), GFP_KERNEL);
	if (!req->entries || !req->slots || !req->pkts || !req->msgs) {
		mrc_req_cleanup(qp);
		return -ENOMEM;
	}
	return 0;
}

static void mrc_req_free_read_maps(struct mrc_qp *qp)
{
	u32 i;

	for (i = 0; i < qp->sq.num_slots; i++) {
		bitmap_free(qp->req.entries[i].read_map);
		qp->req.entries[i].read_map = NULL;
	}
}

void mrc_req_cleanup(struct mrc_qp *qp)
{
	struct mrc_req_state *req = &qp->req;

	if (req->entries) {
		spin_lock_bh(&qp->lock);
		req->stopping = true;
		spin_unlock_bh(&qp->lock);
		/*
		 * The task may re-arm the timer and the timer kick the task;
		 * with stopping set the task re-arms nothing, and once stopped
		 * it takes no kick. hrtimer_cancel() waits for a callback that
		 * is running.
		 */
		hrtimer_cancel(&req->timer);
		mrc_task_stop(&req->task);
		hrtimer_cancel(&req->timer);
		mrc_req_free_read_maps(qp);
	}
	kvfree(req->entries);
	kvfree(req->slots);
	kvfree(req->pkts);
	kvfree(req->msgs);
	req->entries = NULL;
	req->slots = NULL;
	req->pkts = NULL;
	req->msgs = NULL;
}

void mrc_req_kick(struct mrc_qp *qp)
{
	mrc_task_kick(&qp->req.task);
}

/* Sets the timer @delay_us from @now, remembering when it is due. */
static void mrc_req_set_timer(struct mrc_qp *qp, u64 now, u64 delay_us)
{
	if (qp->req.stopping)
		return;
	/* Never 0: a callback re-arming itself runs again in a later pass. */
	delay_us = max(delay_us, mrc_req_timer_granularity_us());
	qp->req.timer_due_us = now + delay_us;
	hrtimer_start(&qp->req.timer, ns_to_ktime(delay_us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_SOFT);
}

/*
 * Makes the timer fire no later than @due (a loss the SACK tracker holds
 * for its reordering window comes due then): sooner than it is set for,
 * or at all when it is not pending.
 */
static void mrc_req_timer_by(struct mrc_qp *qp, u64 now, u64 due)
{
	struct mrc_req_state *req = &qp->req;

	if (req->stopping ||
	    (hrtimer_is_queued(&req->timer) && req->timer_due_us <= due))
		return;
	mrc_req_set_timer(qp, now, due > now ? due - now : 0);
}

static bool mrc_req_outstanding(struct mrc_qp *qp);

/*
 * Makes the timer fire when the sender needs it (the oldest
 * transmission's RTO, a loss held for the reordering window, a probe),
 * or an RTO from now while only READ/atomic responses are awaited, or at
 * the end of an RNR wait: no later than that, or (@fired: the timer just
 * ran) then. A timer that just @kicked the send task leaves what is due
 * now to it: a probe stays due until the task has sent it, and re-firing
 * at once would spin until then. The task re-arms sooner when it sends.
 * Caller holds qp->lock.
 */
static void mrc_req_arm_timer(struct mrc_qp *qp, u64 now, bool fired,
			      bool kicked)
{
	struct mrc_req_state *req = &qp->req;
	u64 rto = mrc_req_rto_us(qp), due = 0;
	bool armed;

	armed = mrc_sender_next_timer(&req->sender, now, &due);
	if (!armed && rto && mrc_req_outstanding(qp)) {
		due = now + rto;
		armed = true;
	}
	if (req->rnr_until_us > now && (!armed || req->rnr_until_us < due)) {
		due = req->rnr_until_us;
		armed = true;
	}
	if (!armed)
		return;
	if (kicked && due <= now)
		due = now + jiffies_to_usecs(1);
	if (fired)
		mrc_req_set_timer(qp, now, due > now ? due - now : 0);
	else
		mrc_req_timer_by(qp, now, due);
}

/* ---- turning a send queue slot into an entry ---- */

static u8 mrc_wire_opcode(u32 wr_opcode)
{
	switch (wr_opcode) {
	case IB_WR_RDMA_WRITE:
		return MRC_OP_WRITE;
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return MRC_OP_WRITE_IMM;
	case IB_WR_SEND:
		return MRC_OP_SEND;
	case IB_WR_SEND_WITH_IMM:
		return MRC_OP_SEND_IMM;
	case IB_WR_SEND_WITH_INV:
		return MRC_OP_SEND_INV;
	case IB_WR_RDMA_READ:
		return MRC_OP_READ_REQ;
	case IB_WR_ATOMIC_CMP_AND_SWP:
		return MRC_OP_ATOMIC_CMP_SWAP;
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return MRC_OP_ATOMIC_FETCH_ADD;
	default:
		return 0;
	}
}

/*
 * Every local buffer must resolve, belong to the QP's PD, lie inside its
 * MR and allow what the operation does to it, before any PSN is spent.
 */
static int mrc_check_local_sges(struct mrc_qp *qp, struct mrc_send_entry *e)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	int access = mrc_is_rd_atomic(e->opcode) ? IB_ACCESS_LOCAL_WRITE : 0;
	struct mrc_mr *mr;
	u32 i;
	int err;

	for (i = 0; i < e->wqe.num_sge; i++) {
		if (!e->sge[i].length)
			continue;
		mr = mrc_mr_get(mdev, e->sge[i].lkey);
		if (!mr)
			return -EINVAL;
		err = mrc_mr_check(mr, qp->ibqp.pd, e->sge[i].addr,
				   e->sge[i].length, access);
		mrc_mr_put(mr);
		if (err)
			return err;
	}
	return 0;
}

/* Copies the next send queue slot into its entry; false when none. */
static bool mrc_req_fetch(struct mrc_qp *qp)
{
	struct mrc_req_state *req = &qp->req;
	s64 avail = mrc_ring_produced(&qp->sq, qp->sq_fetched);
	struct mrc_send_wqe *slot;
	struct mrc_send_entry *e;
	u64 length = 0;
	u32 i;

	if (avail < 0) {
		/* The producer index lies: nothing in the ring can be trusted. */
		mrc_qp_error(qp);
		return false;
	}
	if (!avail)
		return false;

	slot = mrc_ring_slot(&qp->sq, qp->sq_fetched);
	e = mrc_entry(qp, qp->sq_fetched);
	bitmap_free(e->read_map);
	memset(e, 0, sizeof(*e));
	memcpy(&e->wqe, slot, sizeof(e->wqe));
	e->status = IB_WC_SUCCESS;
	e->opcode = mrc_wire_opcode(e->wqe.opcode);
	qp->sq_fetched++;

	switch (e->wqe.opcode) {
	case IB_WR_REG_MR:
		/* No user verb posts it; a forged one names no MR of ours. */
		if (qp->user)
			e->status = IB_WC_LOC_QP_OP_ERR;
		e->local = true;
		return true;
	case IB_WR_BIND_MW:
		/* Kernel ULPs have no bind work request (post_send). */
		if (!qp->user || mrc_qp_is_ud(qp))
			e->status = IB_WC_LOC_QP_OP_ERR;
		e->local = true;
		return true;
	case IB_WR_LOCAL_INV:
		e->local = true;
		return true;
	}
	if (!e->opcode) {
		e->status = IB_WC_LOC_QP_OP_ERR;
		return true;
	}
	if (e->wqe.send_flags & IB_SEND_INLINE) {
		if (e->wqe.inline_len > qp->max_inline_data ||
		    mrc_is_rd_atomic(e->opcode)) {
			e->status = IB_WC_LOC_LEN_ERR;
			return true;
		}
		memcpy(e->inline_data, slot->sge, e->wqe.inline_len);
		e->wqe.num_sge = 0;
		length = e->wqe.inline_len;
	} else {
		if (e->wqe.num_sge > qp->max_send_sge) {
			e->status = IB_WC_LOC_LEN_ERR;
			return true;
		}
		memcpy(e->sge, slot->sge, e->wqe.num_sge * sizeof(e->sge[0]));
		for (i = 0; i < e->wqe.num_sge; i++)
			length += e->sge[i].length;
	}
	if (length > MRC_MAX_MSG_LEN ||
	    (e->opcode != MRC_OP_READ_REQ && mrc_is_rd_atomic(e->opcode) &&
	     length != MRC_ATOMIC_OPERAND_LEN)) {
		e->status = IB_WC_LOC_LEN_ERR;
		return true;
	}
	e->length = length;
	if (mrc_check_local_sges(qp, e)) {
		e->status = IB_WC_LOC_PROT_ERR;
		return true;
	}

	if (mrc_opcode_is(e->opcode, MRC_OPC_CONSUMES_RECV))
		e->msn = req->next_msn_recv++;
	else if (mrc_is_rd_atomic(e->opcode))
		e->msn = req->next_msn_rdatomic++;
	else
		e->msn = req->next_msn_write++;

	if (mrc_is_rd_atomic(e->opcode)) {
		e->npkts = 1;
		e->read_end = min(e->length, MRC_READ_SEGMENT_PKTS * req->mtu);
		e->read_ask_end = e->read_end;
		if (e->opcode == MRC_OP_READ_REQ && e->length) {
			e->read_map = bitmap_zalloc(DIV_ROUND_UP(e->length,
								 req->mtu),
						    GFP_ATOMIC);
			if (!e->read_map) {
				e->status = IB_WC_LOC_QP_OP_ERR;
				return true;
			}
		} else if (e->opcode == MRC_OP_READ_REQ) {
			e->response_done = true;
		}
	} else {
		e->npkts = max_t(u32, 1, DIV_ROUND_UP(e->length, req->mtu));
		e->response_done = true;
	}
	return true;
}

/* ---- memory management work requests ---- */

/*
 * REG_MR: the MR's staged mapping becomes live with the request's key and
 * rights. An MR of another PD is a protection error; one that is not FREE,
 * a key of another index, bad rights or a mapping shorter than the MR
 * claims fail the registration (IB_WC_MW_BIND_ERR, the status verbs give
 * memory registration failures).
 */
static u8 mrc_req_reg_mr(struct mrc_qp *qp, struct mrc_send_entry *e)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_mr *mr;
	u8 status = IB_WC_SUCCESS;

	mr = mrc_mr_get_fast(mdev, e->wqe.remote_addr);
	if (!mr)
		return IB_WC_LOC_PROT_ERR;
	if (mr->pd != qp->ibqp.pd)
		status = IB_WC_LOC_PROT_ERR;
	else if (mrc_mr_fast_reg(mr, e->wqe.rkey, (int)e->wqe.compare_add))
		status = IB_WC_MW_BIND_ERR;
	mrc_mr_put(mr);
	return status;
}

/*
 * LOCAL_INV: a key that names no MR or memory window of the QP's PD is a
 * protection error, one that names a region that cannot be invalidated
 * (not fast-registered, or being registered; a type 1 window) fails as a
 * registration does.
 */
static u8 mrc_req_local_inv(struct mrc_qp *qp, struct mrc_send_entry *e)
{
	int err;

	if (mrc_key_is_mw(e->wqe.rkey))
		err = mrc_mw_invalidate(qp, e->wqe.rkey, false, true);
	else
		err = mrc_mr_invalidate(to_mrc_dev(qp->ibqp.device),
					qp->ibqp.pd, e->wqe.rkey);

	if (err == -EPERM)
		return IB_WC_LOC_PROT_ERR;
	return err ? IB_WC_MW_BIND_ERR : IB_WC_SUCCESS;
}

/*
 * Executes the local operation at send_index, in send queue order; false
 * while it must wait. A LOCAL_INV waits until every earlier request has
 * completed (the local invalidate fence of IBA 10.6.5.1): an earlier SEND
 * or WRITE may still need its buffers for a retransmission. REG_MR goes at
 * once: nothing earlier can be using a region that is not yet valid; so
 * does BIND_MW: a window is for the peer's requests, never this QP's own.
 */
static void mrc_req_complete(struct mrc_qp *qp);

static bool mrc_req_local_op(struct mrc_qp *qp, struct mrc_send_entry *e)
{
	if (e->wqe.opcode == IB_WR_LOCAL_INV) {
		/* What finished without the network (a REG_MR) first. */
		if (qp->sq_completed != qp->req.send_index)
			mrc_req_complete(qp);
		if (qp->sq_completed != qp->req.send_index ||
		    qp->state != IB_QPS_RTS)
			return false;
		e->status = mrc_req_local_inv(qp, e);
	} else if (e->wqe.opcode == IB_WR_BIND_MW) {
		e->status = mrc_mw_bind(qp, &e->wqe) ? IB_WC_MW_BIND_ERR :
						       IB_WC_SUCCESS;
	} else {
		e->status = mrc_req_reg_mr(qp, e);
	}
	e->local_done = true;
	return true;
}

/* ---- building packets ---- */

/* Copies @len bytes at @offset of the message out of the local buffers. */
static int mrc_req_gather(struct mrc_qp *qp, struct mrc_send_entry *e,
			  u32 offset, u8 *dst, u32 len)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_mr *mr;
	u32 i, n;
	int err;

	if (e->wqe.send_flags & IB_SEND_INLINE) {
		memcpy(dst, e->inline_data + offset, len);
		return 0;
	}
	for (i = 0; i < e->wqe.num_sge && len; i++) {
		if (offset >= e->sge[i].length) {
			offset -= e->sge[i].length;
			continue;
		}
		n = min(len, e->sge[i].length - offset);
		mr = mrc_mr_get(mdev, e->sge[i].lkey);
		if (!mr)
			return -EINVAL;
		err = mrc_mr_copy_from(mr, e->sge[i].addr + offset, dst, n);
		mrc_mr_put(mr);
		if (err)
			return err;
		dst += n;
		len -= n;
		offset = 0;
	}
	return len ? -EINVAL : 0;
}

/* The EV of a transmission for the packet: none usable is negative. */
static int mrc_req_ev(const struct mrc_sender_tx *tx)
{
	return tx->ev == MRC_TX_NIL ? -1 : (int)tx->ev;
}

/* The core message of a posted entry. */
static struct mrc_sender_msg *mrc_req_msg(struct mrc_qp *qp,
					  const struct mrc_send_entry *e)
{
	return mrc_sender_msg_at(&qp->req.sender, e->msg);
}

/* The entry a transmission of the sender carries a packet of. */
static struct mrc_send_entry *mrc_req_tx_entry(struct mrc_qp *qp,
					       const struct mrc_sender_tx *tx)
{
	return mrc_entry(qp, (u32)mrc_sender_msg_at(&qp->req.sender,
						    tx->msg)->cookie);
}

static struct sk_buff *mrc_req_build(struct mrc_qp *qp,
				     struct mrc_send_entry *e, u32 k, u32 psn,
				     u8 flags, int ev)
{
	struct mrc_pkt pkt = {};
	u32 offset = 0, len = 0;
	struct sk_buff *skb;
	u8 *payload;

	pkt.hdr.opcode = e->opcode;
	pkt.hdr.psn = psn;
	pkt.msgh.msn = e->msn;
	pkt.msgh.length = e->length;
	pkt.raddr.va = e->wqe.remote_addr;
	pkt.raddr.rkey = e->wqe.rkey;
	pkt.imm = be32_to_cpu(e->wqe.imm_data);
	if (e->opcode == MRC_OP_SEND_INV)
		pkt.inv_rkey = e->wqe.rkey;

	switch (e->opcode) {
	case MRC_OP_READ_REQ:
		/* The segment asked for now; a retransmission asks the same. */
		pkt.msgh.offset = e->read_offset;
		pkt.msgh.length = e->read_ask_end - e->read_offset;
		break;
	case MRC_OP_ATOMIC_CMP_SWAP:
		pkt.atomic.swap_or_add = e->wqe.swap;
		pkt.atomic.compare = e->wqe.compare_add;
		break;
	case MRC_OP_ATOMIC_FETCH_ADD:
		pkt.atomic.swap_or_add = e->wqe.compare_add;
		break;
	default:
		offset = k * qp->req.mtu;
		len = min(qp->req.mtu, e->length - offset);
		pkt.msgh.offset = offset;
		if (e->wqe.send_flags & IB_SEND_SOLICITED &&
		    e->opcode != MRC_OP_WRITE)
			flags |= MRC_F_SOLICITED;
		break;
	}
	pkt.hdr.flags = flags;

	skb = mrc_qp_new_packet(qp, &pkt, len, &payload, ev);
	if (!skb)
		return NULL;
	if (len && mrc_req_gather(qp, e, offset, payload, len)) {
		/* The MR went away under the request after it was checked. */
		kfree_skb(skb);
		e->status = IB_WC_LOC_PROT_ERR;
		return ERR_PTR(-EINVAL);
	}
	return skb;
}

/* ---- completing ---- */

/*
 * Whether the oldest entry @e is finished: failed here (its buffers, a
 * NAK), or finished by the sender (acknowledged, its response in, or its
 * retries exhausted), which then lets go of it.
 */
static bool mrc_entry_done(struct mrc_qp *qp, struct mrc_send_entry *e)
{
	struct mrc_sender_done done;

	if (e->status != IB_WC_SUCCESS)
		return true;
	if (e->local)
		return e->local_done;
	if (!e->posted || !mrc_sender_poll_done(&qp->req.sender, &done))
		return false;
	/* Posted in send queue order, finished in the same order. */
	if (done.status == MRC_SENDER_ST_RETRY_EXCEEDED)
		e->status = IB_WC_RETRY_EXC_ERR;
	else if (done.status == MRC_SENDER_ST_FLUSHED)
		e->status = IB_WC_WR_FLUSH_ERR;
	return true;
}

/* Completes finished work requests in posting order. */
static void mrc_req_complete(struct mrc_qp *qp)
{
	struct mrc_send_entry *e;
	bool failed = false;
	struct ib_wc wc;

	while (qp->sq_completed != qp->sq_fetched) {
		e = mrc_entry(qp, qp->sq_completed);
		if (!mrc_entry_done(qp, e))
			break;
		if (e->posted && mrc_is_rd_atomic(e->opcode))
			qp->req.rd_atomic_posted--;
		failed = e->status != IB_WC_SUCCESS;
		qp->sq_completed++;
		if (qp->req.send_index < qp->sq_completed)
			qp->req.send_index = qp->sq_completed;
		/*
		 * The slot goes back before the completion is seen, so an
		 * application that polls and posts at once finds room.
		 */
		mrc_ring_publish_consumer(&qp->sq, qp->sq_completed);
		if (qp->sq_sig_all || e->wqe.send_flags & IB_SEND_SIGNALED ||
		    failed) {
			memset(&wc, 0, sizeof(wc));
			wc.wr_id = e->wqe.wr_id;
			wc.status = e->status;
			wc.opcode = mrc_send_wc_opcode(e->wqe.opcode);
			wc.byte_len = e->length;
			wc.qp = &qp->ibqp;
			wc.port_num = 1;
			mrc_cq_post(to_mrc_cq(qp->ibqp.send_cq), &wc, false);
		}
		bitmap_free(e->read_map);
		e->read_map = NULL;
		if (failed)
			break;
	}
	/* The first error completes its request; the rest are flushed. */
	if (failed)
		mrc_qp_error(qp);
}

/* ---- sending ---- */

static u32 mrc_outstanding_rd_atomic(struct mrc_qp *qp, u32 upto)
{
	u32 i, n = 0;

	for (i = qp->sq_completed; i != upto; i++)
		if (mrc_is_rd_atomic(mrc_entry(qp, i)->opcode))
			n++;
	return n;
}

static bool mrc_req_may_start(struct mrc_qp *qp, struct mrc_send_entry *e)
{
	u32 index = qp->req.send_index;

	/* A fenced request waits for every earlier READ and atomic. */
	if (e->wqe.send_flags & IB_SEND_FENCE &&
	    mrc_outstanding_rd_atomic(qp, index))
		return false;
	if (mrc_is_rd_atomic(e->opcode) &&
	    mrc_outstanding_rd_atomic(qp, index) >=
	    max_t(u32, qp->max_rd_atomic, 1))
		return false;
	return true;
}

static void mrc_req_queue(struct mrc_qp *qp, struct sk_buff_head *out,
			  struct sk_buff *skb)
{
	if (!IS_ERR_OR_NULL(skb))
		__skb_queue_tail(out, skb);
}

/*
 * Why a PSN is sent again, counted apart: a trim (congestion, answered at
 * once), a loss the SACKs showed, a timeout, the end of an RNR wait, or a
 * plane that went down under it.
 */
static void mrc_req_count_retransmit(struct mrc_qp *qp, u8 why)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	enum mrc_counter cnt;

	switch (why) {
	case MRC_SENDER_RETX_TRIM:
		cnt = MRC_CNT_RETRANSMITS_TRIM;
		break;
	case MRC_SENDER_RETX_TIMEOUT:
		cnt = MRC_CNT_RETRANSMITS_TIMEOUT;
		break;
	case MRC_SENDER_RETX_LOSS:
		cnt = MRC_CNT_RETRANSMITS_LOSS;
		break;
	case MRC_SENDER_RETX_PLANE_DOWN:
		cnt = MRC_CNT_RETRANSMITS_PLANE;
		break;
	default:
		cnt = MRC_CNT_RETRANSMITS_RNR;
		break;
	}
	mrc_stats_inc(mdev, cnt);
	mrc_stats_inc(mdev, MRC_CNT_RETRANSMITS);
}

/* Adds to counter @cnt what the sender counted in @now since @seen. */
static void mrc_req_take(struct mrc_dev *mdev, enum mrc_counter cnt, u64 now,
			 u64 *seen)
{
	if (now != *seen)
		mrc_stats_add(mdev, cnt, now - *seen);
	*seen = now;
}

/*
 * The device counters of what the sender counted since the last look:
 * timeouts, EVs retired, EV charges withdrawn, NSCC's answers, probes
 * given up on, stalls a returning path ended.
 */
static void mrc_req_take_stats(struct mrc_qp *qp)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	const struct mrc_sender_stats *now = &qp->req.sender.stats;
	struct mrc_sender_stats *seen = &qp->req.counted;

	mrc_req_take(mdev, MRC_CNT_TIMEOUTS, now->timeouts, &seen->timeouts);
	mrc_req_take(mdev, MRC_CNT_EXP_TIMEOUTS, now->exp_timeouts,
		     &seen->exp_timeouts);
	mrc_req_take(mdev, MRC_CNT_EV_RETIRED, now->ev_retired,
		     &seen->ev_retired);
	mrc_req_take(mdev, MRC_CNT_EV_CHARGES_CANCELLED,
		     now->charges_cancelled, &seen->charges_cancelled);
	mrc_req_take(mdev, MRC_CNT_CC_DECREASES, now->cc_decreases,
		     &seen->cc_decreases);
	mrc_req_take(mdev, MRC_CNT_CC_QUICK_ADAPTS, now->cc_quick_adapts,
		     &seen->cc_quick_adapts);
	mrc_req_take(mdev, MRC_CNT_CC_EV_SWITCHES, now->cc_ev_switches,
		     &seen->cc_ev_switches);
	mrc_req_take(mdev, MRC_CNT_PROBES_LOST, now->probes_lost,
		     &seen->probes_lost);
	mrc_req_take(mdev, MRC_CNT_PATH_BACK_RESTARTS, now->path_back_restarts,
		     &seen->path_back_restarts);
}

/*
 * Before the sender picks EVs: the EV set catches up with the planes and
 * the peer's denials, and spraying may have been turned off (mrcctl dev
 * DEV set spray off: one EV per QP by a hash of both QPNs, as ECMP places
 * a flow; read on every run, so it takes effect at once on live QPs).
 */
static void mrc_req_paths_refresh(struct mrc_qp *qp, u64 now)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);

	if (!qp->paths.ready)
		return;
	mrc_qp_paths_refresh(qp, (u32)now);
	mrc_sender_set_single_path(&qp->req.sender,
				   READ_ONCE(mdev->settings.single_path),
				   mrc_ev_single_key(qp->ibqp.qp_num,
						     qp->dest_qpn));
}

/* Builds transmission @tx of the sender onto @out; the skb or an error. */
static struct sk_buff *mrc_req_send_tx(struct mrc_qp *qp,
				       struct sk_buff_head *out,
				       const struct mrc_sender_tx *tx)
{
	struct mrc_send_entry *e = mrc_req_tx_entry(qp, tx);
	u8 flags = tx->ack_req ? MRC_F_ACK_REQ : 0;
	struct sk_buff *skb;

	if (tx->why != MRC_SENDER_NEW) {
		mrc_req_count_retransmit(qp, tx->why);
		flags |= MRC_F_RETRANSMIT;
	}
	/* A failed entry's packets go nowhere; it completes in its turn. */
	if (e->status != IB_WC_SUCCESS)
		return NULL;
	skb = mrc_req_build(qp, e, tx->pkt, tx->psn, flags, mrc_req_ev(tx));
	/* Unsent for lack of memory, it is retransmitted on timeout. */
	mrc_req_queue(qp, out, skb);
	return skb;
}

static void mrc_req_retransmit(struct mrc_qp *qp, struct sk_buff_head *out,
			       u64 now)
{
	struct mrc_sender_tx tx;

	/* Elsewhere than the path that lost it, when there is one. */
	while (mrc_sender_next_retransmit(&qp->req.sender, now, &tx))
		mrc_req_send_tx(qp, out, &tx);
}

/*
 * The probes the sender asks for, if any: it chooses the EVs and gives up
 * on probes unanswered for too long (mrc_sender_next_probe()); the PROBEs
 * are built onto @out, every one due now (a plane back has all its EVs
 * due at once; at most one per EV). The timeout attribute's bounds are
 * brought up to date first, since the probe timeout follows the RTO.
 */
static void mrc_req_probe(struct mrc_qp *qp, struct sk_buff_head *out,
			  u64 now)
{
	int ev;

	mrc_req_rto_us(qp);
	while ((ev = mrc_sender_next_probe(&qp->req.sender, now)) >= 0)
		mrc_qp_paths_send_probe(qp, out, (u32)ev, (u32)now);
}

/*
 * Bytes congestion control counts in flight: transmissions neither
 * delivered nor declared lost, each taken as a full packet.
 */
static u32 mrc_req_inflight_bytes(struct mrc_qp *qp)
{
	return mrc_tx_in_flight(&qp->req.sender.tx) * qp->req.mtu;
}

/*
 * Whether the QP has as many packets in this host's own transmit queues
 * as the device allows (mrc_txq.h), counting those built in this run and
 * not yet handed down (@out). A packet leaving then kicks the send work.
 */
static bool mrc_req_local_queue_full(struct mrc_qp *qp,
				     const struct sk_buff_head *out)
{
	u32 limit = READ_ONCE(to_mrc_dev(qp->ibqp.device)->settings.txq_packets);

	return mrc_txq_full(qp->txq, limit, skb_queue_len(out));
}

/* Whether every message posted to the sender has had all its PSNs sent. */
static bool mrc_req_all_sent(struct mrc_qp *qp)
{
	const struct mrc_sender *s = &qp->req.sender;
	const struct mrc_sender_msg *m;

	if (s->posted == s->done)
		return true;
	m = &s->msgs[(s->posted - 1) & s->msg_mask];
	return m->sent == m->npkts;
}

/*
 * Posts the entry at send_index to the sender: once everything posted
 * before has gone out, and when its fence and the READ/atomic limit let
 * it start. False when it may not.
 */
static bool mrc_req_post(struct mrc_qp *qp, struct mrc_send_entry *e)
{
	struct mrc_req_state *req = &qp->req;
	u32 flags = 0;
	int msg;

	if (!mrc_req_may_start(qp, e))
		return false;
	if (mrc_is_rd_atomic(e->opcode) && !e->response_done)
		flags = MRC_SENDER_POST_RESPONSE;
	msg = mrc_sender_post_flags(&req->sender, e->npkts, req->send_index,
				    flags);
	if (msg < 0)
		return false;
	e->posted = true;
	e->msg = msg;
	if (mrc_is_rd_atomic(e->opcode))
		req->rd_atomic_posted++;
	return true;
}

/* Returns true when it stopped for the burst limit with more to send. */
static bool mrc_req_send_new(struct mrc_qp *qp, struct sk_buff_head *out,
			     u64 now)
{
	struct mrc_req_state *req = &qp->req;
	struct mrc_send_entry *e;
	struct mrc_sender_tx tx;
	struct sk_buff *skb;

	while (qp->state == IB_QPS_RTS) {
		if (skb_queue_len(out) >= MRC_REQ_BURST)
			return true;
		if (mrc_req_all_sent(qp)) {
			if (req->send_index == qp->sq_fetched &&
			    !mrc_req_fetch(qp))
				break;
			if (qp->state != IB_QPS_RTS)
				break;
			e = mrc_entry(qp, req->send_index);
			if (e->status == IB_WC_SUCCESS && e->local) {
				if (!mrc_req_local_op(qp, e))
					break;
				req->send_index++;
				continue;
			}
			if (e->status == IB_WC_SUCCESS && !mrc_req_post(qp, e))
				break;
			req->send_index++;
			if (e->status != IB_WC_SUCCESS)
				continue;
		}
		if (mrc_req_local_queue_full(qp, out) ||
		    !mrc_sender_next(&req->sender, now, &tx))
			break;
		skb = mrc_req_send_tx(qp, out, &tx);
		e = mrc_req_tx_entry(qp, &tx);
		if (tx.why == MRC_SENDER_NEW && e->opcode == MRC_OP_READ_REQ)
			e->read_psn = tx.psn;
		if (tx.why == MRC_SENDER_NEW && tx.pkt + 1 == e->npkts)
			e->requested_at = now;
		if (IS_ERR(skb)) {
			mrc_req_complete(qp);
			break;
		}
	}
	return false;
}

/*
 * A READ whose requests are all acknowledged may ask again: for the next
 * segment once the current one has arrived, or, when the timer says its
 * responses stopped coming, for the rest of the current segment. An
 * atomic the timer flags is asked again whole. Each request takes a new
 * PSN (mrc_sender_next_request()); it is sent among whatever else is in
 * flight, so a PSN, not its distance from a message's first one, says
 * which packet it carries.
 */
static bool mrc_req_read_next(struct mrc_qp *qp, struct mrc_send_entry *e)
{
	u32 mtu = qp->req.mtu, nbits, first_missing, last;
	struct mrc_sender_msg *m;

	if (!mrc_is_rd_atomic(e->opcode) || e->status != IB_WC_SUCCESS ||
	    e->response_done || !e->posted)
		return false;
	m = mrc_req_msg(qp, e);
	if (!m->sent || m->acked != m->npkts)
		return false;
	if (e->opcode != MRC_OP_READ_REQ)
		return e->read_again;

	nbits = DIV_ROUND_UP(e->length, mtu);
	first_missing = find_first_zero_bit(e->read_map, nbits) * mtu;
	if (first_missing >= e->read_end) {
		/* The segment is complete: the next one. */
		e->read_offset = e->read_end;
		e->read_end = min(e->length, e->read_offset +
					     MRC_READ_SEGMENT_PKTS * mtu);
		e->read_ask_end = e->read_end;
		return true;
	}
	if (!e->read_again)
		return false;
	/* The rest: from the first packet missing to the last one. */
	e->read_offset = first_missing;
	last = DIV_ROUND_UP(e->read_end, mtu) - 1;
	while (last > first_missing / mtu && test_bit(last, e->read_map))
		last--;
	e->read_ask_end = min(e->read_end, (last + 1) * mtu);
	return true;
}

static void mrc_req_send_rd_again(struct mrc_qp *qp, struct sk_buff_head *out,
				  u64 now)
{
	struct mrc_req_state *req = &qp->req;
	struct mrc_send_entry *e;
	struct mrc_sender_tx tx;
	u32 i;

	/* Every pass: not a walk of the send queue for WRITEs and SENDs. */
	if (!req->rd_atomic_posted)
		return;
	for (i = qp->sq_completed; i != req->send_index; i++) {
		e = mrc_entry(qp, i);
		if (!mrc_sender_window_open(&req->sender))
			break;
		if (!mrc_req_read_next(qp, e) ||
		    !mrc_sender_next_request(&req->sender, now, e->msg, &tx))
			continue;
		if (e->read_again)
			e->rerequests++;
		e->read_again = false;
		e->read_answered = false;
		e->requested_at = now;
		if (e->opcode == MRC_OP_READ_REQ) {
			e->read_psn = tx.psn;
			e->read_trims = 0;
		}
		mrc_req_send_tx(qp, out, &tx);
	}
}

/*
 * A probe that could not even leave (its plane's port not up yet, no
 * route yet after a link came back) failed now, not after a probe
 * timeout: the next one follows after the probe interval, which the
 * timer covers.
 */
static void mrc_req_probe_unsent(struct mrc_qp *qp, u32 ev)
{
	u64 now = mrc_now_us();

	spin_lock_bh(&qp->lock);
	if (qp->req.started && !qp->req.stopping &&
	    mrc_sender_on_probe_reply(&qp->req.sender, now, ev, false))
		mrc_req_arm_timer(qp, now, false, false);
	spin_unlock_bh(&qp->lock);
}

static void mrc_req_transmit(struct mrc_qp *qp, struct sk_buff_head *out)
{
	struct sk_buff *skb;
	bool probe;
	u32 ev;

	while ((skb = __skb_dequeue(out))) {
		probe = mrc_qp_packet_is_probe(skb, &ev);
		mrc_txq_own(qp->txq, skb);
		if (mrc_qp_send_packet(qp, skb) && probe)
			mrc_req_probe_unsent(qp, ev);
	}
}

/*
 * Builds what may go out now onto @out; caller holds qp->lock. True when
 * it stopped for the burst limit with more to send.
 */
static bool mrc_req_fill(struct mrc_qp *qp, struct sk_buff_head *out)
{
	u64 now = mrc_now_us();
	bool more = false;

	/* During an RNR wait nothing is sent, retransmissions included. */
	if (!qp->req.stopping && qp->req.started &&
	    now >= qp->req.rnr_until_us &&
	    (qp->state == IB_QPS_RTS || qp->state == IB_QPS_SQD)) {
		mrc_req_paths_refresh(qp, now);
		mrc_req_retransmit(qp, out, now);
		mrc_req_probe(qp, out, now);
		mrc_req_send_rd_again(qp, out, now);
		more = mrc_req_send_new(qp, out, now);
		mrc_req_complete(qp);
		mrc_req_take_stats(qp);
		if (!skb_queue_empty(out))
			mrc_req_arm_timer(qp, now, false, false);
	}
	return more;
}

/*
 * One pass of the send task (mrc_task.h): builds what may go out now under
 * qp->lock and hands it to the IP layer after dropping it; true when it
 * stopped for the burst limit with more to send. The budget counts
 * packets.
 *
 * Packets are built in PSN order under the lock but transmitted without
 * it: two contexts doing that at once (the doorbell in a user task and the
 * send work on another CPU) would interleave their batches and reorder the
 * QP's packets, which the responder sees as holes and the requester, after
 * enough of them, as losses. The task has one runner at a time; a kick
 * while it runs makes it look again, and after a burst's worth it hands
 * over to the work, so a posting task is not kept sending for others.
 */
static bool mrc_req_pass(struct mrc_task *task, u32 *budget)
{
	struct mrc_qp *qp = container_of(task, struct mrc_qp, req.task);
	struct sk_buff_head out;
	bool more;

	__skb_queue_head_init(&out);
	spin_lock_bh(&qp->lock);
	more = mrc_req_fill(qp, &out);
	spin_unlock_bh(&qp->lock);
	*budget -= min_t(unsigned int, skb_queue_len(&out), *budget);
	mrc_qp_notify(qp);
	mrc_req_transmit(qp, &out);
	return more;
}

void mrc_req_doorbell(struct mrc_qp *qp)
{
	mrc_task_doorbell(&qp->req.task, qp->user);
}

/* Whether the requester has something to send now; caller holds qp->lock. */
static bool mrc_req_has_work(struct mrc_qp *qp)
{
	struct mrc_req_state *req = &qp->req;

	if (mrc_tx_lost_count(&req->sender.tx))
		return true;
	if (!mrc_sender_window_open(&req->sender))
		return false;
	/* A READ may ask for its next segment once its request is acked. */
	return !mrc_req_all_sent(qp) || req->send_index != qp->sq_fetched ||
	       mrc_ring_produced(&qp->sq, qp->sq_fetched) != 0 ||
	       (req->rd_atomic_posted &&
		mrc_outstanding_rd_atomic(qp, req->send_index));
}

/*
 * NSCC's RTT sample of the PSN @psn sent at @sent_at, @rtt after, in
 * microseconds: from the packet's departure from this host
 * (mrc_departure.h) unless the QP's settings say from its build, or when
 * no departure was recorded for it (a packet whose transmit completion
 * comes after its ACK). The wait is smoothed for debugfs either way. The
 * sender's hook (mrc_sender_cc_rtt_fn), under qp->lock.
 */
static u64 mrc_req_cc_rtt(void *arg, u32 psn, u64 sent_at, u64 rtt)
{
	struct mrc_qp *qp = arg;
	struct mrc_req_state *req = &qp->req;
	u64 wait;

	if (!mrc_departure_wait(mrc_txq_departure(qp->txq, psn), psn,
				sent_at, rtt, &wait))
		return rtt;
	req->local_wait_us = req->local_wait_us - req->local_wait_us / 8 +
			     wait / 8;
	return req->cc_rtt_from_build ? rtt : rtt - wait;
}

/* ---- timeouts ---- */

/*
 * READs and atomics whose requests were acknowledged but whose responses
 * stopped coming for an RTO are asked again (mrc_req_read_next()): same
 * MSN, new PSN; the responder answers a repeated atomic from its saved
 * result. Returns how many.
 *
 * The responder answers them one after another, oldest first: a request
 * with no response yet (a READ's first segment or a later one, an atomic)
 * waits its turn there while responses to others come, however long the
 * queue ahead of it takes to send. Its RTO runs from the last response of
 * the QP, not from the request.
 */
static u32 mrc_req_rerequest(struct mrc_qp *qp, u64 now, u64 rto)
{
	struct mrc_send_entry *e;
	struct mrc_sender_msg *m;
	u64 since;
	u32 i, n = 0;

	for (i = qp->sq_completed; i != qp->req.send_index; i++) {
		e = mrc_entry(qp, i);
		if (!mrc_is_rd_atomic(e->opcode) || e->response_done ||
		    e->status != IB_WC_SUCCESS || !e->posted || e->read_again)
			continue;
		since = e->requested_at;
		if (!e->read_answered && qp->req.response_at_us > since)
			since = qp->req.response_at_us;
		if (now - since < rto)
			continue;
		m = mrc_req_msg(qp, e);
		if (!m->sent || m->acked != m->npkts)
			continue;
		e->read_again = true;
		n++;
	}
	return n;
}

static bool mrc_req_outstanding(struct mrc_qp *qp)
{
	return qp->sq_completed != qp->req.send_index ||
	       mrc_tx_outstanding(&qp->req.sender.tx);
}

static enum hrtimer_restart mrc_req_timer(struct hrtimer *t)
{
	struct mrc_qp *qp = container_of(t, struct mrc_qp, req.timer);
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_req_state *req = &qp->req;
	u64 now = mrc_now_us(), rto;
	bool kick = false;
	u32 responses = 0;

	spin_lock_bh(&qp->lock);
	if (req->stopping || !req->started ||
	    (qp->state != IB_QPS_RTS && qp->state != IB_QPS_SQD))
		goto out;
	rto = mrc_req_rto_us(qp);

	/* An RNR wait ending is not a timeout. */
	if (req->rnr_until_us && now >= req->rnr_until_us) {
		req->rnr_until_us = 0;
		kick = true;
	}
	/*
	 * A timer that fires far later than it was due says this host did
	 * not run us (an overloaded emulator, a softirq storm): the ACKs may
	 * be waiting in our own receive queues. Look again a tick later,
	 * once they are processed, rather than blame the network.
	 */
	if (rto && now > req->timer_due_us +
		       max_t(u64, rto / 4, 3 * jiffies_to_usecs(1))) {
		mrc_stats_inc(mdev, MRC_CNT_TIMER_LATE);
		mrc_req_set_timer(qp, now, jiffies_to_usecs(1));
		goto out;
	}
	/*
	 * The sender decides what expired (held losses, an RTO without
	 * progress, PSNs the peer reneged on), whom to blame and whether the
	 * retries ran out; READ and atomic responses that stopped coming,
	 * which only this side sees, count as a timeout too.
	 */
	if (rto)
		responses = mrc_req_rerequest(qp, now, rto);
	if (mrc_sender_on_timeout_ex(&req->sender, now, responses))
		kick = true;
	mrc_req_take_stats(qp);
	if (req->sender.failed) {
		/* The oldest request fails with retry-exceeded. */
		mrc_req_complete(qp);
		mrc_qp_error(qp);
		goto out;
	}
	mrc_req_arm_timer(qp, now, true, kick);
out:
	spin_unlock_bh(&qp->lock);
	mrc_qp_notify(qp);
	if (kick)
		mrc_req_kick(qp);
	return HRTIMER_NORESTART;
}

void mrc_req_prepare(struct mrc_qp *qp)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_nscc_params params;
	bool enabled, from_build;
	u32 least_wait;

	spin_lock_bh(&mdev->settings_lock);
	enabled = mdev->settings.cc_enabled;
	from_build = mdev->settings.cc_rtt_from_build;
	params = mdev->settings.cc;
	least_wait = mdev->settings.least_wait_us;
	spin_unlock_bh(&mdev->settings_lock);

	spin_lock_bh(&qp->lock);
	qp->req.cc_enabled = enabled;
	qp->req.cc_rtt_from_build = from_build;
	qp->req.cc_params = params;
	qp->req.least_wait_us = least_wait;
	spin_unlock_bh(&qp->lock);
}

/*
 * NSCC from the settings copied at RTR, its window in units of the QP's
 * payload MTU. A profile NSCC refuses leaves the QP on the fixed window.
 */
static void mrc_req_cc_start(struct mrc_qp *qp)
{
	struct mrc_req_state *req = &qp->req;
	struct mrc_nscc_params params = req->cc_params;

	if (!req->cc_enabled)
		return;
	params.mtu = req->mtu;
	if (params.max_cwnd < params.mtu)
		params.max_cwnd = params.mtu;
	if (mrc_nscc_init(&req->cc, &params)) {
		dev_warn_ratelimited(&qp->ibqp.device->dev,
				     "QP %u: CC profile refused; fixed window\n",
				     qp->ibqp.qp_num);
		req->cc_enabled = false;
	}
}

void mrc_req_start(struct mrc_qp *qp)
{
	struct mrc_req_state *req = &qp->req;
	struct mrc_sender_params p = {
		.retry_cnt = qp->retry_cnt,
		.exp_retry_cnt = qp->exp_retry_cnt,
		.psn_window = qp->mpr * MRC_MPR_PSNS,
		.fixed_cwnd = MRC_REQ_FIXED_CWND,
		.ack_interval = MRC_ACK_INTERVAL,
		/*
		 * The least wait (mrc_settings.h: the timer's resolution, or
		 * the preset's floor) is the timer's resolution as far as the
		 * sender knows: the least reordering window, half the least
		 * EV charge delay and the RTO's least margin.
		 */
		.timer_granularity_us = mrc_req_least_wait_us(qp),
	};
	int err;

	mrc_req_free_read_maps(qp);
	req->next_msn_recv = 0;
	req->next_msn_rdatomic = 0;
	req->next_msn_write = 0;
	req->mtu = mrc_qp_payload_mtu(qp);
	req->rnr_retries = 0;
	req->rnr_until_us = 0;
	req->send_index = qp->sq_fetched;
	req->rd_atomic_posted = 0;
	memset(&req->counted, 0, sizeof(req->counted));
	mrc_req_cc_start(qp);
	p.mtu = req->mtu;
	p.rto = mrc_req_rto_params(qp);
	req->rto_timeout = qp->timeout;
	/*
	 * With paths, the sender sets the reorder tolerance, path evidence
	 * on a sprayed QP and the EV charge delay (protocol-core.rst).
	 */
	err = mrc_sender_init(&req->sender, &p, req->slots, MRC_REQ_WINDOW,
			      req->msgs, qp->sq.num_slots,
			      qp->paths.ready ? &qp->paths.set : NULL,
			      req->cc_enabled ? &req->cc : NULL, qp->sq_psn);
	if (err) {
		/* Sizes fixed at create: not reached. */
		mrc_qp_error(qp);
		return;
	}
	/*
	 * A READ's next request takes a PSN among the packets of whatever
	 * else is in flight: the packet a PSN carries is recorded, not
	 * derived from its distance to the message's first PSN.
	 */
	mrc_sender_set_pkt_map(&req->sender, req->pkts);
	req->sender.cc_rtt = mrc_req_cc_rtt;
	req->sender.cc_rtt_arg = qp;
	req->started = true;
}

/* ---- responses ---- */

/* The outstanding READ (@read) or atomic (!@read) with @msn. */
static struct mrc_send_entry *mrc_find_rd_atomic(struct mrc_qp *qp, u32 msn,
						 bool read)
{
	struct mrc_send_entry *e;
	bool is_read;
	u32 i;

	for (i = qp->sq_completed; i != qp->req.send_index; i++) {
		e = mrc_entry(qp, i);
		is_read = e->opcode == MRC_OP_READ_REQ;
		if (e->msn == msn && mrc_is_rd_atomic(e->opcode) &&
		    e->posted && is_read == read)
			return e;
	}
	return NULL;
}

/* Scatters response bytes at @offset of the READ into its local buffers. */
static int mrc_req_place(struct mrc_qp *qp, struct mrc_send_entry *e,
			 u32 offset, const struct sk_buff *skb, int skb_off,
			 u32 len)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_mr *mr;
	u32 i, n;
	int err;

	for (i = 0; i < e->wqe.num_sge && len; i++) {
		if (offset >= e->sge[i].length) {
			offset -= e->sge[i].length;
			continue;
		}
		n = min(len, e->sge[i].length - offset);
		mr = mrc_mr_get(mdev, e->sge[i].lkey);
		if (!mr)
			return -EINVAL;
		err = mrc_mr_check(mr, qp->ibqp.pd, e->sge[i].addr + offset, n,
				   IB_ACCESS_LOCAL_WRITE);
		if (!err)
			err = mrc_mr_copy_skb_to(mr, e->sge[i].addr + offset,
						 skb, skb_off, n);
		mrc_mr_put(mr);
		if (err)
			return err;
		skb_off += n;
		len -= n;
		offset = 0;
	}
	return len ? -EINVAL : 0;
}

/*
 * Whether every response of the READ's last request has come, placed or
 * trimmed, and some came trimmed: then the responder is done with that
 * request and what is missing can be asked again at once (the trimmed
 * packets' headers say so, as a NAK(trimmed) does for a request), not
 * after an RTO without responses.
 */
static bool mrc_req_read_trims_done(struct mrc_qp *qp,
				    struct mrc_send_entry *e)
{
	u32 mtu = qp->req.mtu, i, missing = 0;

	if (!e->read_trims)
		return false;
	for (i = e->read_offset / mtu; i < DIV_ROUND_UP(e->read_ask_end, mtu);
	     i++)
		if (!test_bit(i, e->read_map))
			missing++;
	return missing && missing <= e->read_trims;
}

static void mrc_req_read_resp(struct mrc_qp *qp, struct sk_buff *skb,
			      const struct mrc_pkt *pkt)
{
	struct mrc_send_entry *e;
	u32 offset = pkt->msgh.offset, len = pkt->payload_present, index;
	bool asked;

	e = mrc_find_rd_atomic(qp, pkt->msgh.msn, true);
	if (!e || e->response_done || e->status != IB_WC_SUCCESS)
		return;
	/*
	 * Responses come in whole MTUs of the read, in any order; msgh.length
	 * is the end of the segment asked for.
	 */
	if (pkt->msgh.length > e->length || offset >= e->length ||
	    offset % qp->req.mtu)
		return;
	index = offset / qp->req.mtu;
	if (test_bit(index, e->read_map))
		return;
	/* A response to the last request, for a packet it asked for. */
	asked = pkt->hdr.psn == e->read_psn && offset >= e->read_offset &&
		  offset < e->read_ask_end;
	if (pkt->trimmed) {
		mrc_stats_inc(to_mrc_dev(qp->ibqp.device), MRC_CNT_TRIMS);
		if (asked)
			e->read_trims++;
		goto check_trims;
	}
	if (len != min(qp->req.mtu, e->length - offset))
		return;
	if (mrc_req_place(qp, e, offset, skb, pkt->payload_off, len)) {
		e->status = IB_WC_LOC_PROT_ERR;
		return;
	}
	set_bit(index, e->read_map);
	e->read_received += len;
	e->read_answered = true;
	/* Progress: no re-request, no retry counted, while data comes. */
	e->requested_at = mrc_now_us();
	qp->req.response_at_us = e->requested_at;
	mrc_sender_on_response(&qp->req.sender, e->requested_at);
	if (e->read_received == e->length) {
		e->response_done = true;
		mrc_sender_response_done(&qp->req.sender, e->msg);
		return;
	}
check_trims:
	if (asked && mrc_req_read_trims_done(qp, e))
		e->read_again = true;
}

static void mrc_req_atomic_resp(struct mrc_qp *qp, const struct mrc_pkt *pkt)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_send_entry *e;
	struct mrc_mr *mr;
	u64 orig = pkt->orig;
	int err = -EINVAL;

	e = mrc_find_rd_atomic(qp, pkt->msgh.msn, false);
	if (!e || e->response_done || e->status != IB_WC_SUCCESS)
		return;
	/* The original value lands in the local buffer in host order. */
	mr = mrc_mr_get(mdev, e->sge[0].lkey);
	if (mr) {
		err = mrc_mr_check(mr, qp->ibqp.pd, e->sge[0].addr, 8,
				   IB_ACCESS_LOCAL_WRITE);
		if (!err)
			err = mrc_mr_copy_to(mr, e->sge[0].addr, &orig, 8);
		mrc_mr_put(mr);
	}
	if (err)
		e->status = IB_WC_LOC_PROT_ERR;
	qp->req.response_at_us = mrc_now_us();
	e->response_done = true;
	mrc_sender_response_done(&qp->req.sender, e->msg);
}

static enum ib_wc_status mrc_nak_status(u8 syndrome)
{
	switch (syndrome) {
	case MRC_NAK_REMOTE_ACCESS_ERROR:
		return IB_WC_REM_ACCESS_ERR;
	case MRC_NAK_INVALID_REQUEST:
		return IB_WC_REM_INV_REQ_ERR;
	default:
		return IB_WC_REM_OP_ERR;
	}
}

/*
 * A NAK says a switch trimmed @psn: congestion, not a failed path. The
 * sender marks the PSN for retransmission at once (the next run sends it,
 * on another EV when there is one), charges no EV and tells NSCC. This
 * runs before the NAK's cumulative and selective part is applied, so that
 * the PSN the NAK names cannot be taken for a loss by the reorder rule of
 * that same NAK.
 */
static void mrc_req_trimmed(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			    u64 now)
{
	mrc_stats_inc(to_mrc_dev(qp->ibqp.device), MRC_CNT_TRIMS);
	mrc_sender_on_trim_echo(&qp->req.sender, now, pkt->ack.nak_psn,
				pkt->ack.ts_echo);
}

static void mrc_req_nak(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			u64 now)
{
	struct mrc_req_state *req = &qp->req;
	u32 psn = pkt->ack.nak_psn;
	struct mrc_send_entry *e;
	int msg;

	msg = mrc_sender_msg_of(&req->sender, psn);
	if (msg < 0)
		return;
	e = mrc_entry(qp, (u32)mrc_sender_msg_at(&req->sender, msg)->cookie);

	switch (pkt->ack.syndrome) {
	case MRC_NAK_TRIMMED:
		/* Done before the ACK part: mrc_req_trimmed(). */
		break;
	case MRC_NAK_RNR:
		/*
		 * Every packet of a burst may be NAKed for the same empty
		 * queue: one wait, one retry. A wait is no timeout either.
		 */
		mrc_sender_on_rnr(&req->sender, now, psn);
		if (now < req->rnr_until_us)
			break;
		/* 7 retries means retry forever. */
		if (qp->rnr_retry != 7 && ++req->rnr_retries > qp->rnr_retry) {
			e->status = IB_WC_RNR_RETRY_EXC_ERR;
			break;
		}
		req->rnr_until_us = now +
				    mrc_rnr_timer_us[pkt->ack.rnr_timer & 31];
		mrc_req_set_timer(qp, now,
				  mrc_rnr_timer_us[pkt->ack.rnr_timer & 31]);
		break;
	default:
		e->status = mrc_nak_status(pkt->ack.syndrome);
		break;
	}
}

void mrc_req_rcv(struct mrc_qp *qp, struct sk_buff *skb,
		 const struct mrc_pkt *pkt, const struct mrc_rx_meta *meta)
{
	struct mrc_req_state *req = &qp->req;
	struct mrc_sender_ack_result res;
	struct mrc_sender_ack ack;
	u64 now = mrc_now_us();
	bool kick = false, trimmed;

	spin_lock_bh(&qp->lock);
	if (!req->started || req->stopping ||
	    (qp->state != IB_QPS_RTS && qp->state != IB_QPS_SQD))
		goto out;
	if (!mrc_qp_from_peer(qp, pkt, meta)) {
		mrc_stats_inc(to_mrc_dev(qp->ibqp.device),
			      MRC_CNT_RX_DROP_BAD_SOURCE_QP);
		goto out;
	}

	switch (pkt->hdr.opcode) {
	case MRC_OP_ACK:
	case MRC_OP_NAK:
		trimmed = pkt->hdr.opcode == MRC_OP_NAK &&
			  pkt->ack.syndrome == MRC_NAK_TRIMMED;
		if (trimmed) {
			mrc_req_trimmed(qp, pkt, now);
			kick = true;
		}
		mrc_sender_ack_from_pkt(pkt, &ack);
		if (mrc_sender_on_ack_ex(&req->sender, now, &ack, &res) !=
		    MRC_TX_ACK_OK)
			break;
		if (res.acked)
			req->rnr_retries = 0;
		/*
		 * A worker only when the ACK lets something go out: with
		 * NSCC, a selective ACK opens the window too.
		 */
		if (res.acked || res.lost || (req->cc_enabled && res.delivered))
			kick = kick || mrc_req_has_work(qp);
		if (pkt->hdr.opcode == MRC_OP_NAK && !trimmed) {
			mrc_req_nak(qp, pkt, now);
			kick = true;
		}
		break;
	/* A finished READ or atomic may let a held-back request go. */
	case MRC_OP_READ_RESP:
		mrc_req_read_resp(qp, skb, pkt);
		kick = true;
		break;
	case MRC_OP_ATOMIC_RESP:
		mrc_req_atomic_resp(qp, pkt);
		kick = true;
		break;
	default:
		break;
	}
	mrc_req_complete(qp);
	mrc_req_take_stats(qp);
	mrc_req_arm_timer(qp, now, false, false);
out:
	spin_unlock_bh(&qp->lock);
	mrc_qp_notify(qp);
	if (kick)
		mrc_req_kick(qp);
}

void mrc_req_rcv_probe_reply(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			     const struct mrc_rx_meta *meta)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	u64 now = mrc_now_us();
	bool kick = false;

	spin_lock_bh(&qp->lock);
	if (!qp->paths.ready || !mrc_qp_from_peer(qp, pkt, meta)) {
		mrc_stats_inc(mdev, MRC_CNT_RX_DROP_BAD_SOURCE_QP);
	} else if (qp->req.started &&
		   mrc_sender_on_probe_reply(&qp->req.sender, now,
					     pkt->probe.ev, true)) {
		/* Only a reply to a probe still awaited counts. */
		mrc_stats_inc(mdev, MRC_CNT_PROBES_ANSWERED);
		/*
		 * A confirming probe is due now, or the path is back and
		 * what the outage held is to be resent: no later event may
		 * come to send it.
		 */
		mrc_req_take_stats(qp);
		kick = true;
	}
	spin_unlock_bh(&qp->lock);
	if (kick)
		mrc_req_kick(qp);
}

/* ---- debugfs ---- */

static void mrc_req_show_qp(struct mrc_qp *qp, struct seq_file *m)
{
	struct mrc_req_state *req = &qp->req;

	spin_lock_bh(&qp->lock);
	if (req->started)
		seq_printf(m, "%s %u %s %u %u %llu %llu %llu %u %u %llu %llu %u %u %u\n",
			   dev_name(&qp->ibqp.device->dev), qp->ibqp.qp_num,
			   req->cc_enabled ? "nscc" : "fixed",
			   req->cc_enabled ? mrc_nscc_cwnd(&req->cc) :
					     MRC_REQ_FIXED_CWND * req->mtu,
			   mrc_req_inflight_bytes(qp),
			   mrc_rto_srtt_us(&req->sender.rto),
			   mrc_rto_rttvar_us(&req->sender.rto),
			   mrc_req_rto_us(qp), req->sender.rto.backoff,
			   mrc_txq_queued(qp->txq), qp->txq->throttles,
			   req->local_wait_us, req->sender.tx.window,
			   req->sender.tx.peak_outstanding,
			   qp->resp.rcv.window);
	spin_unlock_bh(&qp->lock);
}

void mrc_req_show(struct mrc_dev *mdev, struct seq_file *m)
{
	struct mrc_qp *qp;
	unsigned long qpn;
	void *entry;

	xa_for_each(&mdev->qps, qpn, entry) {
		qp = mrc_qp_get(mdev, qpn);
		if (!qp)
			continue;
		if (!mrc_qp_is_ud(qp))
			mrc_req_show_qp(qp, m);
		mrc_qp_put(qp);
	}
}
