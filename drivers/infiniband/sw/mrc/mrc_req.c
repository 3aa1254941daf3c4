// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The requester of an RC QP: send work requests become packets, packets
 * are (re)transmitted until acknowledged, and work requests complete in
 * posting order (Documentation/datapath.rst).
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
#include "mrc_net.h"
#include "mrc_qp.h"
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
 * (Re)bounds the adaptive RTO from the timeout attribute T, keeping what
 * was learnt: the RTO stays within [T, 4 T], the range IB allows the
 * transport timer, backoff included. T is what the application says the
 * fabric may take, so the RTO starts there and never goes below it; the
 * estimate lengthens it where round trips are longer and vary more (the
 * emulated lab), and a dead peer is given up on after at most
 * (retry_cnt + 1) x 4 T.
 */
static void mrc_req_rto_bounds(struct mrc_qp *qp)
{
	struct mrc_req_state *req = &qp->req;
	u64 attr = mrc_req_timeout_attr_us(qp->timeout);
	struct mrc_rto_params p = {
		.min_us = attr,
		.max_us = MRC_REQ_RTO_MAX_FACTOR * attr,
		.granularity_us = mrc_req_least_wait_us(qp),
		.initial_us = attr,
	};

	mrc_rto_set_params(&req->rto, &p);
	req->rto_timeout = qp->timeout;
}

/* The RTO now, backoff included; 0 (timeout attribute 0) waits forever. */
static u64 mrc_req_rto_us(struct mrc_qp *qp)
{
	if (!qp->timeout)
		return 0;
	if (qp->timeout != qp->req.rto_timeout)
		mrc_req_rto_bounds(qp);
	return mrc_rto_us(&qp->req.rto);
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
	int err;

	/* First: the error path's mrc_req_cleanup() stops both. */
	mrc_task_init(&req->task, mrc_req_pass, MRC_REQ_BURST);
	hrtimer_setup(&req->timer, mrc_req_timer, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL_SOFT);
	req->entries = kvcalloc(qp->sq.num_slots, sizeof(*req->entries),
				GFP_KERNEL);
	req->slots = kvcalloc(MRC_REQ_WINDOW, sizeof(*req->slots), GFP_KERNEL);
	req->psn_map = kvcalloc(MRC_REQ_WINDOW, sizeof(*req->psn_map),
				GFP_KERNEL);
	if (!req->entries || !req->slots || !req->psn_map) {
		mrc_req_cleanup(qp);
		return -ENOMEM;
	}
	req->txq = mrc_txq_create(qp, mrc_req_kick, MRC_REQ_WINDOW, &err);
	if (!req->txq) {
		mrc_req_cleanup(qp);
		return err;
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
	/*
	 * Nothing transmits any more; a packet still queued kicks nobody
	 * (until here, the stopped task made its kick a no-op).
	 */
	if (req->txq) {
		mrc_txq_detach(req->txq);
		req->txq = NULL;
	}
	kvfree(req->entries);
	kvfree(req->slots);
	kvfree(req->psn_map);
	req->entries = NULL;
	req->slots = NULL;
	req->psn_map = NULL;
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

static void mrc_req_arm_timer(struct mrc_qp *qp)
{
	u64 rto = mrc_req_rto_us(qp);

	if (rto && !qp->req.stopping && !hrtimer_is_queued(&qp->req.timer))
		mrc_req_set_timer(qp, mrc_now_us(), rto);
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

/* The EV the tracker records for a pick: none usable is MRC_QP_EV_NONE. */
static u32 mrc_req_ev(int ev)
{
	return ev < 0 ? MRC_QP_EV_NONE : (u32)ev;
}

/*
 * The EV for a first transmission: the spray choice, skipping the EV
 * congestion control asked to leave (an ECN echo or a trim on it) for one
 * round of the set, so each of the others is tried before it comes back.
 */
static int mrc_req_pick(struct mrc_qp *qp, u64 now)
{
	struct mrc_req_state *req = &qp->req;
	int avoid = -1;

	if (req->cc_avoid_left) {
		req->cc_avoid_left--;
		avoid = req->cc_avoid_ev;
	}
	return mrc_qp_paths_pick(qp, avoid, now);
}

/* Congestion control asks to move off EV @ev. */
static void mrc_req_cc_switch_ev(struct mrc_qp *qp, u32 ev)
{
	if (!qp->paths.ready || ev >= qp->paths.set.n_evs)
		return;
	qp->req.cc_avoid_ev = ev;
	qp->req.cc_avoid_left = qp->paths.set.n_evs;
}

/*
 * Packet @k of @e asks for an ACK: the message's last, and every
 * MRC_ACK_INTERVAL-th, so that at most MRC_ACK_INTERVAL - 1 packets in a
 * row go without asking.
 */
static u8 mrc_req_ack_flag(const struct mrc_send_entry *e, u32 k)
{
	return k + 1 == e->npkts || k % MRC_ACK_INTERVAL == MRC_ACK_INTERVAL - 1 ?
	       MRC_F_ACK_REQ : 0;
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
	pkt.hdr.flags = flags | mrc_req_ack_flag(e, k);

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

static bool mrc_entry_done(struct mrc_send_entry *e)
{
	if (e->status != IB_WC_SUCCESS)
		return true;
	return e->pkts_acked == e->npkts && e->response_done;
}

/* Completes finished work requests in posting order. */
static void mrc_req_complete(struct mrc_qp *qp)
{
	struct mrc_send_entry *e;
	bool failed = false;
	struct ib_wc wc;

	while (qp->sq_completed != qp->sq_fetched) {
		e = mrc_entry(qp, qp->sq_completed);
		if (!mrc_entry_done(e))
			break;
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
	if (e->wqe.send_flags & IB_SEND_FENCE && e->pkts_sent == 0 &&
	    mrc_outstanding_rd_atomic(qp, index))
		return false;
	if (mrc_is_rd_atomic(e->opcode) && e->pkts_sent == 0 &&
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
 * once), a loss the SACKs showed, a timeout, or the end of an RNR wait.
 */
static enum mrc_counter mrc_req_retransmit_counter(u8 cause)
{
	switch (cause) {
	case MRC_TX_CAUSE_TRIMMED:
		return MRC_CNT_RETRANSMITS_TRIM;
	case MRC_TX_CAUSE_TIMEOUT:
		return MRC_CNT_RETRANSMITS_TIMEOUT;
	case MRC_TX_CAUSE_REORDER:
		return MRC_CNT_RETRANSMITS_LOSS;
	default:
		return MRC_CNT_RETRANSMITS_RNR;
	}
}

static void mrc_req_retransmit(struct mrc_qp *qp, struct sk_buff_head *out,
			       u64 now)
{
	struct mrc_req_state *req = &qp->req;
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_send_entry *e;
	struct mrc_req_psn *map;
	struct sk_buff *skb;
	u32 psn;

	while (mrc_tx_next_to_retransmit(&req->tracker, &psn)) {
		const struct mrc_tx_slot *slot = mrc_tx_slot(&req->tracker, psn);
		/* Elsewhere than the path that lost it, when there is one. */
		int ev = mrc_qp_paths_pick(qp, slot->ev, now);

		mrc_stats_inc(mdev, mrc_req_retransmit_counter(slot->cause));
		map = &req->psn_map[psn & (MRC_REQ_WINDOW - 1)];
		e = mrc_entry(qp, map->index);
		skb = mrc_req_build(qp, e, map->pkt, psn,
				    MRC_F_RETRANSMIT | MRC_F_ACK_REQ, ev);
		mrc_req_queue(qp, out, skb);
		mrc_tx_resend(&req->tracker, psn, mrc_req_ev(ev), now);
		mrc_tx_ack_asked(&req->tracker, psn);
		mrc_stats_inc(mdev, MRC_CNT_RETRANSMITS);
	}
}

/*
 * Bytes congestion control counts in flight: transmissions neither
 * delivered nor declared lost, each taken as a full packet (the window is
 * in MTUs of payload; a short last packet counts whole, which errs on the
 * side of sending less).
 */
static u32 mrc_req_inflight_bytes(struct mrc_qp *qp)
{
	return mrc_tx_in_flight(&qp->req.tracker) * qp->req.mtu;
}

/*
 * Whether the congestion window has room for a new PSN: NSCC's cwnd in
 * bytes when congestion control is on, else MRC_REQ_FIXED_CWND PSNs
 * outstanding; and the tracker has a slot (at most the responder's
 * window).
 */
static bool mrc_req_cwnd_open(struct mrc_qp *qp)
{
	struct mrc_req_state *req = &qp->req;

	if (!mrc_tx_can_send(&req->tracker))
		return false;
	if (req->cc_enabled)
		return mrc_nscc_can_send(&req->cc, mrc_req_inflight_bytes(qp),
					 req->mtu);
	return mrc_tx_outstanding(&req->tracker) < MRC_REQ_FIXED_CWND;
}

/*
 * Whether a new PSN may go out: the congestion window has room, or NSCC
 * cut the window under packets that went out without asking for an ACK
 * while none that asked is still in flight (mrc_tx_unasked_tail()).
 * Arriving in order, those would be acknowledged by nobody, and the
 * window would open only at the RTO: one packet more goes, asking for the
 * ACK (mrc_req_window_flags()), so ACKs clock the window again.
 */
static bool mrc_req_window_open(struct mrc_qp *qp)
{
	struct mrc_req_state *req = &qp->req;

	if (mrc_req_cwnd_open(qp))
		return true;
	return req->cc_enabled && mrc_tx_can_send(&req->tracker) &&
	       mrc_tx_unasked_tail(&req->tracker);
}

/*
 * A packet that fills the window asks for an ACK: with a window of fewer
 * than MRC_ACK_INTERVAL packets (NSCC after a cut) nothing else would, and
 * the window would open only at the next timeout.
 */
static u8 mrc_req_window_flags(struct mrc_qp *qp)
{
	return mrc_req_cwnd_open(qp) ? 0 : MRC_F_ACK_REQ;
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

	return mrc_txq_full(qp->req.txq, limit, skb_queue_len(out));
}

/* Returns true when it stopped for the burst limit with more to send. */
static bool mrc_req_send_new(struct mrc_qp *qp, struct sk_buff_head *out,
			     u64 now)
{
	struct mrc_req_state *req = &qp->req;
	struct mrc_send_entry *e;
	struct sk_buff *skb;
	u32 psn;
	int ev;
	u8 flags;

	while (qp->state == IB_QPS_RTS) {
		if (skb_queue_len(out) >= MRC_REQ_BURST)
			return true;
		if (req->send_index == qp->sq_fetched && !mrc_req_fetch(qp))
			break;
		if (qp->state != IB_QPS_RTS)
			break;
		e = mrc_entry(qp, req->send_index);
		if (e->status != IB_WC_SUCCESS || e->pkts_sent == e->npkts) {
			req->send_index++;
			continue;
		}
		if (!mrc_req_window_open(qp) || !mrc_req_may_start(qp, e) ||
		    mrc_req_local_queue_full(qp, out))
			break;

		ev = mrc_req_pick(qp, now);
		psn = mrc_tx_send(&req->tracker, mrc_req_ev(ev), now,
				  req->send_index);
		req->psn_map[psn & (MRC_REQ_WINDOW - 1)] =
			(struct mrc_req_psn){ req->send_index, e->pkts_sent };
		flags = mrc_req_window_flags(qp) |
			mrc_req_ack_flag(e, e->pkts_sent);
		skb = mrc_req_build(qp, e, e->pkts_sent, psn, flags, ev);
		if (flags & MRC_F_ACK_REQ)
			mrc_tx_ack_asked(&req->tracker, psn);
		if (e->opcode == MRC_OP_READ_REQ)
			e->read_psn = psn;
		e->pkts_sent++;
		if (e->pkts_sent == e->npkts)
			e->requested_at = now;
		/* Unsent for lack of memory, it is retransmitted on timeout. */
		mrc_req_queue(qp, out, skb);
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
 * PSN; it is sent among whatever else is in flight, so a PSN, not its
 * distance from a message's first one, says which packet it carries.
 */
static bool mrc_req_read_next(struct mrc_qp *qp, struct mrc_send_entry *e)
{
	u32 mtu = qp->req.mtu, nbits, first_missing, last;

	if (!mrc_is_rd_atomic(e->opcode) || e->status != IB_WC_SUCCESS ||
	    e->response_done || !e->pkts_sent ||
	    e->pkts_acked != e->npkts)
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
	struct sk_buff *skb;
	u32 i, psn;
	int ev;

	for (i = qp->sq_completed; i != req->send_index; i++) {
		e = mrc_entry(qp, i);
		if (!mrc_req_window_open(qp))
			break;
		if (!mrc_req_read_next(qp, e))
			continue;
		if (e->read_again)
			e->rerequests++;
		e->read_again = false;
		ev = mrc_req_pick(qp, now);
		psn = mrc_tx_send(&req->tracker, mrc_req_ev(ev), now, i);
		mrc_tx_ack_asked(&req->tracker, psn);
		req->psn_map[psn & (MRC_REQ_WINDOW - 1)] =
			(struct mrc_req_psn){ i, 0 };
		e->npkts++;
		e->pkts_sent++;
		e->requested_at = now;
		/*
		 * Alone in its message's PSNs, the request asks for its ACK:
		 * mrc_req_build() asks on the message's last packet only,
		 * and e->npkts has grown past this one.
		 */
		skb = mrc_req_build(qp, e, 0, psn, MRC_F_ACK_REQ, ev);
		if (e->opcode == MRC_OP_READ_REQ) {
			e->read_psn = psn;
			e->read_trims = 0;
		}
		mrc_req_queue(qp, out, skb);
	}
}

static void mrc_req_transmit(struct mrc_qp *qp, struct sk_buff_head *out)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(out))) {
		mrc_txq_own(qp->req.txq, skb);
		mrc_qp_send_packet(qp, skb);
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
		mrc_req_retransmit(qp, out, now);
		mrc_qp_paths_probe(qp, out, now,
				   max_t(u64, mrc_req_rto_us(qp), 1000));
		mrc_req_send_rd_again(qp, out, now);
		more = mrc_req_send_new(qp, out, now);
		mrc_req_complete(qp);
		if (!skb_queue_empty(out))
			mrc_req_arm_timer(qp);
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
	/*
	 * A user QP rings from a system call: send there and then, as a
	 * hardware doorbell would, instead of waking a worker for it (a
	 * context switch on every message of a latency-bound exchange).
	 * Kernel ULPs may post from any context and kick the work.
	 */
	if (qp->user && in_task() && !irqs_disabled())
		mrc_task_run(&qp->req.task);
	else
		mrc_task_kick(&qp->req.task);
}

/* Whether the requester has something to send now; caller holds qp->lock. */
static bool mrc_req_has_work(struct mrc_qp *qp)
{
	struct mrc_req_state *req = &qp->req;

	if (mrc_tx_lost_count(&req->tracker))
		return true;
	if (!mrc_req_window_open(qp))
		return false;
	/* A READ may ask for its next segment once its request is acked. */
	return req->send_index != qp->sq_fetched ||
	       mrc_ring_produced(&qp->sq, qp->sq_fetched) != 0 ||
	       mrc_outstanding_rd_atomic(qp, req->send_index);
}

/* ---- path (EV) feedback ---- */

/*
 * Charges a loss (@timeout: a timeout) to EV @ev and counts ev_retired
 * when that took it out of use: it was GOOD or UNKNOWN and is now
 * ASSUMED_BAD. A loss on an EV already retired (packets that were in
 * flight on it when it went bad), or one the ev_min_active floor forgave,
 * changes nothing and is not counted.
 */
static void mrc_req_ev_charge(struct mrc_qp *qp, u32 ev, u64 now,
			      bool timeout)
{
	struct mrc_ev_set *set = &qp->paths.set;
	u8 before;

	if (ev >= set->n_evs)
		return;
	before = set->evs[ev].state;
	if (timeout)
		mrc_ev_on_timeout(set, ev, (u32)now);
	else
		mrc_ev_on_loss(set, ev, (u32)now);
	if ((before == MRC_EV_GOOD || before == MRC_EV_UNKNOWN) &&
	    set->evs[ev].state == MRC_EV_ASSUMED_BAD)
		mrc_stats_inc(to_mrc_dev(qp->ibqp.device), MRC_CNT_EV_RETIRED);
}

/*
 * Every PSN the loss rule declared lost retires the EV that PSN went out
 * on (mrc_ev.h keeps the floor), except a loss whose charge waits for a
 * late NAK(trimmed) or arrival (mrc_tx_set_charge_delay()); and the
 * charges that waited long enough are made now.
 */
static void mrc_req_charge_losses(struct mrc_qp *qp,
				  const struct mrc_tx_ack_result *res, u64 now)
{
	struct mrc_tx_lost due[8];
	u32 i, n;

	for (i = 0; i < res->lost_reported; i++)
		if (!res->lost[i].deferred)
			mrc_req_ev_charge(qp, res->lost[i].ev, now, false);
	do {
		n = mrc_tx_due_charges(&qp->req.tracker, now, due,
				       ARRAY_SIZE(due));
		for (i = 0; i < n; i++)
			mrc_req_ev_charge(qp, due[i].ev, now, false);
	} while (n == ARRAY_SIZE(due));
}

/*
 * An ACK names the packet that made the responder send it and echoes its
 * send time: when that is the copy of a PSN whose EV charge waits
 * (mrc_tx_set_charge_delay()), the copy arrived after all, reordered, and
 * the charge is withdrawn. Before the charges that came due are made.
 */
static void mrc_req_delivered_echo(struct mrc_qp *qp,
				   const struct mrc_pkt *pkt)
{
	if (pkt->hdr.opcode == MRC_OP_ACK &&
	    mrc_tx_on_delivered_echo(&qp->req.tracker, pkt->hdr.psn,
				     pkt->ack.ts_echo))
		mrc_stats_inc(to_mrc_dev(qp->ibqp.device),
			      MRC_CNT_EV_CHARGES_CANCELLED);
}

/* A valid ACK: the EV it echoes delivered; then the losses it found. */
static void mrc_req_ev_feedback(struct mrc_qp *qp, const struct mrc_pkt *pkt,
				const struct mrc_tx_ack_result *res, u64 now)
{
	struct mrc_ev_set *set = &qp->paths.set;

	if (!qp->paths.ready)
		return;
	if (pkt->ack.ev_echo < set->n_evs)
		mrc_ev_on_ack(set, pkt->ack.ev_echo, 1);
	mrc_req_charge_losses(qp, res, now);
}

/* The timer is about to expire transmissions: blame the oldest's EV. */
static void mrc_req_timeout_ev(struct mrc_qp *qp, u64 now, u64 rto)
{
	u64 sent_at;
	u32 psn, ev;

	if (!qp->paths.ready ||
	    !mrc_tx_oldest_unacked(&qp->req.tracker, &psn, &sent_at) ||
	    now - sent_at < rto)
		return;
	ev = mrc_tx_slot(&qp->req.tracker, psn)->ev;
	mrc_req_ev_charge(qp, ev, now, true);
}

/* ---- congestion control ---- */

static void mrc_req_cc_count(struct mrc_qp *qp, u32 actions)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);

	if (actions & MRC_NSCC_DECREASED)
		mrc_stats_inc(mdev, MRC_CNT_CC_DECREASES);
	if (actions & MRC_NSCC_QUICK_ADAPT)
		mrc_stats_inc(mdev, MRC_CNT_CC_QUICK_ADAPTS);
	if (actions & MRC_NSCC_SWITCH_EV)
		mrc_stats_inc(mdev, MRC_CNT_CC_EV_SWITCHES);
}

/*
 * The RTT sample of @res for NSCC, in microseconds: from the packet's
 * departure from this host (mrc_departure.h) unless the QP's settings say
 * from its build, or when no departure was recorded for it (a packet
 * whose transmit completion comes after its ACK). The wait is smoothed
 * for debugfs either way.
 */
static u64 mrc_req_cc_rtt(struct mrc_qp *qp,
			  const struct mrc_tx_ack_result *res)
{
	struct mrc_req_state *req = &qp->req;
	u64 wait;

	if (!mrc_departure_wait(mrc_txq_departure(req->txq, res->rtt_psn),
				res->rtt_psn, res->rtt_sent_at, res->rtt,
				&wait))
		return res->rtt;
	req->local_wait_us = req->local_wait_us - req->local_wait_us / 8 +
			     wait / 8;
	return req->cc_rtt_from_build ? res->rtt : res->rtt - wait;
}

/*
 * Every valid ACK feeds NSCC: the @delivered PSNs it newly acknowledged
 * (cumulatively or selectively), in MTUs, the RTT sample @rtt in
 * microseconds (0: none, as for a retransmitted PSN: Karn) and the ECN
 * echo. An ECN echo moves new packets off the EV that carried the marked
 * packet.
 */
static void mrc_req_cc_ack(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			   u64 rtt, u32 delivered, u64 now)
{
	struct mrc_req_state *req = &qp->req;
	bool ecn = pkt->ack.flags & MRC_ACK_F_ECN_CE;
	u64 bytes = (u64)delivered * req->mtu;
	u32 actions;

	if (!req->cc_enabled)
		return;
	actions = mrc_nscc_on_ack(&req->cc, now * NSEC_PER_USEC,
				  rtt * NSEC_PER_USEC,
				  (u32)min_t(u64, bytes, U32_MAX), ecn);
	mrc_req_cc_count(qp, actions);
	if (actions & MRC_NSCC_SWITCH_EV)
		mrc_req_cc_switch_ev(qp, pkt->ack.ev_echo);
}

/* ---- timeouts ---- */

/*
 * READs and atomics whose requests were acknowledged but whose responses
 * stopped coming for an RTO are asked again (mrc_req_read_next()): same
 * MSN, new PSN; the responder answers a repeated atomic from its saved
 * result. Returns how many.
 */
static u32 mrc_req_rerequest(struct mrc_qp *qp, u64 now, u64 rto)
{
	struct mrc_send_entry *e;
	u32 i, n = 0;

	for (i = qp->sq_completed; i != qp->req.send_index; i++) {
		e = mrc_entry(qp, i);
		if (!mrc_is_rd_atomic(e->opcode) || e->response_done ||
		    e->status != IB_WC_SUCCESS || !e->pkts_sent ||
		    e->pkts_acked != e->npkts || e->read_again ||
		    now - e->requested_at < rto)
			continue;
		e->read_again = true;
		n++;
	}
	return n;
}

static bool mrc_req_outstanding(struct mrc_qp *qp)
{
	return qp->sq_completed != qp->req.send_index ||
	       mrc_tx_outstanding(&qp->req.tracker);
}

/*
 * The timer again after it fired: for when the oldest transmission in
 * flight reaches its RTO (the backed-off one if this was a timeout) and an
 * RTO has passed since the last progress, or a whole RTO from now when
 * only READ/atomic responses or an RNR wait are pending. Caller holds
 * qp->lock.
 */
static void mrc_req_rearm_timer(struct mrc_qp *qp, u64 now)
{
	u64 rto = mrc_req_rto_us(qp), sent_at, from, delay = rto, due;
	u32 psn;

	if (!rto)
		return;
	if (mrc_tx_oldest_unacked(&qp->req.tracker, &psn, &sent_at)) {
		from = max(sent_at, qp->req.progress_us);
		if (from <= now)
			delay = now - from < rto ? rto - (now - from) : 0;
	}
	/*
	 * Or sooner: for a loss held for the reordering window, or for the
	 * end of an RNR wait (the timer may fire for the former during it).
	 */
	if (mrc_tx_loss_due(&qp->req.tracker, &due))
		delay = min(delay, due > now ? due - now : 0);
	if (qp->req.rnr_until_us > now)
		delay = min(delay, qp->req.rnr_until_us - now);
	mrc_req_set_timer(qp, now, delay);
}

/*
 * The timer runs the SACK loss rule for losses it held back for the
 * reordering window (mrc_tx_set_path_evidence()): without it, a loss
 * found just before the QP went quiet would wait for the RTO. Losses it
 * declares now charge their EVs as an ACK's would, and deferred charges
 * come due here too. True when it declared some lost.
 */
static bool mrc_req_held_losses(struct mrc_qp *qp, u64 now)
{
	struct mrc_tx_ack_result res;
	u64 due;
	u32 lost;

	if (!mrc_tx_loss_due(&qp->req.tracker, &due) || now < due)
		return false;
	lost = mrc_tx_detect_losses(&qp->req.tracker, now, &res);
	if (qp->paths.ready)
		mrc_req_charge_losses(qp, &res, now);
	return lost != 0;
}

static enum hrtimer_restart mrc_req_timer(struct hrtimer *t)
{
	struct mrc_qp *qp = container_of(t, struct mrc_qp, req.timer);
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_req_state *req = &qp->req;
	u64 now = mrc_now_us(), rto;
	bool kick = false;
	u32 expired = 0;

	spin_lock_bh(&qp->lock);
	rto = mrc_req_rto_us(qp);
	if (req->stopping || !req->started ||
	    (qp->state != IB_QPS_RTS && qp->state != IB_QPS_SQD))
		goto out;
	if (!rto) {
		u64 due;

		/* No RTO (timeout 0): only held losses set the timer. */
		kick = mrc_req_held_losses(qp, now);
		if (mrc_tx_loss_due(&req->tracker, &due))
			mrc_req_timer_by(qp, now, due);
		goto out;
	}

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
	if (now > req->timer_due_us +
		  max_t(u64, rto / 4, 3 * jiffies_to_usecs(1))) {
		mrc_stats_inc(mdev, MRC_CNT_TIMER_LATE);
		mrc_req_set_timer(qp, now, jiffies_to_usecs(1));
		goto out;
	}
	/*
	 * As RFC 6298 (5.3) restarts its timer on every ACK of new data,
	 * nothing times out while deliveries go on: a PSN older than the RTO
	 * then waits behind the others (the emulated lab's queues), and a
	 * real loss among them shows in the SACKs.
	 */
	if (mrc_req_held_losses(qp, now))
		kick = true;
	if (now - min(req->progress_us, now) >= rto) {
		mrc_req_timeout_ev(qp, now, rto);
		expired = mrc_tx_on_timeout(&req->tracker, now, rto);
	}
	/* Lost requests, not READ responses, are the window's business. */
	if (expired && req->cc_enabled &&
	    mrc_nscc_on_timeout(&req->cc, now * NSEC_PER_USEC) &
	    MRC_NSCC_DECREASED)
		mrc_stats_inc(mdev, MRC_CNT_CC_DECREASES);
	expired += mrc_req_rerequest(qp, now, rto);
	if (expired) {
		mrc_stats_add(mdev, MRC_CNT_TIMEOUTS, 1);
		/* The next wait is twice as long, until progress. */
		mrc_rto_on_timeout(&req->rto);
		if (++req->retries > qp->retry_cnt) {
			struct mrc_send_entry *e = mrc_entry(qp,
							     qp->sq_completed);

			if (qp->sq_completed != qp->sq_fetched) {
				e->status = IB_WC_RETRY_EXC_ERR;
				mrc_req_complete(qp);
			} else {
				mrc_qp_error(qp);
			}
			goto out;
		}
		kick = true;
	}
	if (mrc_req_outstanding(qp) || req->rnr_until_us)
		mrc_req_rearm_timer(qp, now);
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

	req->cc_avoid_left = 0;
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

static void mrc_req_charge_delay(struct mrc_qp *qp);
static void mrc_req_path_evidence(struct mrc_qp *qp);

void mrc_req_start(struct mrc_qp *qp)
{
	struct mrc_req_state *req = &qp->req;

	mrc_req_free_read_maps(qp);
	mrc_tx_init(&req->tracker, req->slots, MRC_REQ_WINDOW, qp->sq_psn);
	/*
	 * Sprayed packets overtake one another by about as many as there
	 * are paths: a hole is a loss only after twice that many later
	 * deliveries, or every path's jitter would retire paths.
	 */
	if (qp->paths.ready)
		mrc_tx_set_reorder_tolerance(&req->tracker,
					     2 * qp->paths.set.n_evs);
	req->next_msn_recv = 0;
	req->next_msn_rdatomic = 0;
	req->next_msn_write = 0;
	req->mtu = mrc_qp_payload_mtu(qp);
	req->retries = 0;
	req->rnr_retries = 0;
	req->rnr_until_us = 0;
	req->send_index = qp->sq_fetched;
	memset(&req->rto, 0, sizeof(req->rto));
	req->progress_us = 0;
	mrc_req_rto_bounds(qp);
	mrc_req_cc_start(qp);
	/*
	 * A sprayed QP's EVs overtake each other by whatever their queues
	 * differ, trimming fabric or not, while each EV keeps its own order:
	 * a loss needs evidence from its own EV, or an RTO of age. Either
	 * way the charge delay is set.
	 */
	if (qp->paths.ready && qp->paths.set.n_evs > 1)
		mrc_req_path_evidence(qp);
	else
		mrc_req_charge_delay(qp);
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
		    is_read == read)
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
	/* Progress: no re-request, no retry counted, while data comes. */
	e->requested_at = mrc_now_us();
	qp->req.retries = 0;
	if (e->read_received == e->length) {
		e->response_done = true;
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
	e->response_done = true;
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
 * The least reordering window of path evidence (mrc_tx_reorder_window()):
 * the smoothed RTT, and at least the least wait (the resolution of the
 * timer that re-runs the loss rule, or the preset's floor). The
 * tracker's own window, a quarter of the least RTT (RACK's), fits a
 * fabric whose reordering is a fraction of its fastest round trip; a soft
 * device's return path also reorders by CPU scheduling (a NAK and an ACK
 * sent by different CPUs, queued in different backlogs), which grows with
 * load as the smoothed RTT does, not the least one, and a quarter of it
 * was seen too short in the incast. Path evidence is on only on a fabric
 * that trims, where congestion shows as trims and a real loss is a
 * failure that can wait one more round trip.
 */
static u64 mrc_req_reorder_floor_us(struct mrc_qp *qp)
{
	return max_t(u64, mrc_req_least_wait_us(qp),
		     mrc_rto_srtt_us(&qp->req.rto));
}

/*
 * How long the EV charge of a loss the rule declared waits for a late
 * NAK(trimmed) or for the copy's own late arrival
 * (mrc_tx_set_charge_delay()): a smoothed RTT, at least twice the least
 * wait. The retransmission goes at once; only the path verdict waits.
 */
static u64 mrc_req_charge_delay_us(struct mrc_qp *qp)
{
	return max_t(u64, 2 * mrc_req_least_wait_us(qp),
		     mrc_rto_srtt_us(&qp->req.rto));
}

/*
 * Deferred EV charges for every loss the rule declares, count rule
 * included, on a QP with paths: set at RTS, refreshed as the RTT moves.
 * On a sprayed QP a loss by the count rule is weak evidence against its
 * EV: a trim whose NAK comes late (a busy responder, an incast's return
 * path: seen 0.6 s after the copy left in the lab) or mere reordering
 * between EVs. The charge waits a smoothed RTT, and on an EV still
 * delivering until the copy is an RTO old (mrc_tx_set_charge_patience());
 * an EV that went dead delivers nothing and is charged one smoothed RTT
 * after the loss.
 */
static void mrc_req_charge_delay(struct mrc_qp *qp)
{
	if (!qp->paths.ready)
		return;
	mrc_tx_set_charge_delay(&qp->req.tracker, mrc_req_charge_delay_us(qp));
	mrc_tx_set_charge_patience(&qp->req.tracker, mrc_req_rto_us(qp));
}

/*
 * Path evidence (mrc_tx_set_path_evidence()) with an RTO of age for an EV
 * that delivers nothing, from the RTT estimates of now: set when path
 * evidence goes on, refreshed as the RTT moves. A QP without an RTO
 * (timeout attribute 0: wait forever) keeps the count rule, since nothing
 * else would ever find the losses of an EV that went dead.
 */
static void mrc_req_path_evidence(struct mrc_qp *qp)
{
	u64 rto = mrc_req_rto_us(qp);

	mrc_tx_set_path_evidence(&qp->req.tracker, rto != 0, rto,
				 mrc_req_reorder_floor_us(qp));
	mrc_req_charge_delay(qp);
}

/*
 * A NAK says a switch trimmed @psn: congestion, not a failed path. The PSN
 * is marked for retransmission at once (the next run sends it, on another
 * EV when there is one) and the EV is not charged. This runs before the
 * NAK's cumulative and selective part is applied, so that the PSN the
 * NAK names cannot be taken for a loss by the reorder rule of that same
 * NAK. Congestion control gives back the trimmed bytes or quick-adapts.
 */
static void mrc_req_trimmed(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			    u64 now)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_req_state *req = &qp->req;
	const struct mrc_tx_slot *slot;
	u32 psn = pkt->ack.nak_psn;
	u32 actions;

	mrc_stats_inc(mdev, MRC_CNT_TRIMS);
	/*
	 * The fabric trims: from now on its congestion shows as trims, and
	 * EVs through unequal queues overtake each other far beyond the
	 * reorder tolerance. A loss then needs evidence from the EV itself
	 * (mrc_tx_set_path_evidence()), or an RTO of age for an EV that
	 * delivers nothing.
	 */
	mrc_req_path_evidence(qp);
	switch (mrc_tx_on_nak_trimmed_echo(&req->tracker, psn,
					   pkt->ack.ts_echo)) {
	case MRC_TX_NAK_MARKED:
		break;
	case MRC_TX_NAK_CHARGE_CANCELLED:
		/* Declared lost before this NAK came: its EV is not charged. */
		mrc_stats_inc(mdev, MRC_CNT_EV_CHARGES_CANCELLED);
		return;
	default:
		return;
	}
	if (!req->cc_enabled)
		return;
	slot = mrc_tx_slot(&req->tracker, psn);
	actions = mrc_nscc_on_nack(&req->cc, now * NSEC_PER_USEC, req->mtu);
	mrc_req_cc_count(qp, actions);
	if (actions & MRC_NSCC_SWITCH_EV && slot)
		mrc_req_cc_switch_ev(qp, slot->ev);
}

static void mrc_req_nak(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			u64 now)
{
	struct mrc_req_state *req = &qp->req;
	u32 psn = pkt->ack.nak_psn;
	struct mrc_send_entry *e;

	if (!mrc_tx_slot(&req->tracker, psn))
		return;
	e = mrc_entry(qp, req->psn_map[psn & (MRC_REQ_WINDOW - 1)].index);

	switch (pkt->ack.syndrome) {
	case MRC_NAK_TRIMMED:
		/* Done before the ACK part: mrc_req_trimmed(). */
		break;
	case MRC_NAK_RNR:
		/*
		 * Every packet of a burst may be NAKed for the same empty
		 * queue: one wait, one retry. A wait is no timeout either.
		 */
		mrc_tx_on_nak_rnr(&req->tracker, psn);
		req->retries = 0;
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
	struct mrc_tx_ack_result res;
	u64 now = mrc_now_us(), cc_rtt;
	bool kick = false, trimmed;
	u32 i, pending;

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
		pending = mrc_tx_in_flight(&req->tracker) +
			  mrc_tx_lost_count(&req->tracker);
		if (mrc_tx_on_ack(&req->tracker, pkt->ack.cum_psn,
				  pkt->ack.sack, pkt->ack.sack_words,
				  pkt->ack.ev_echo, now, &res) != MRC_TX_ACK_OK)
			break;
		/* Delivered now: what left the in-flight and lost sets. */
		pending -= mrc_tx_in_flight(&req->tracker) +
			   mrc_tx_lost_count(&req->tracker);
		cc_rtt = 0;
		if (res.rtt_valid) {
			/* The RTO times the whole trip: its timer does. */
			mrc_rto_sample(&req->rto, res.rtt);
			if (req->tracker.path_evidence)
				mrc_req_path_evidence(qp);
			else
				mrc_req_charge_delay(qp);
			cc_rtt = max_t(u64, mrc_req_cc_rtt(qp, &res), 1);
		}
		if (pending) {
			mrc_rto_on_progress(&req->rto);
			req->progress_us = now;
		}
		mrc_req_cc_ack(qp, pkt, cc_rtt, pending, now);
		mrc_req_delivered_echo(qp, pkt);
		mrc_req_ev_feedback(qp, pkt, &res, now);
		for (i = 0; i < res.acked_count; i++) {
			u32 psn = mrc_psn_add(res.acked_first, i);

			mrc_entry(qp, req->psn_map[psn &
					(MRC_REQ_WINDOW - 1)].index)->pkts_acked++;
		}
		if (res.acked_count) {
			req->retries = 0;
			req->rnr_retries = 0;
		}
		/*
		 * A worker only when the ACK lets something go out: with
		 * NSCC, a selective ACK opens the window too.
		 */
		if (res.acked_count || res.lost_count ||
		    (req->cc_enabled && pending))
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
	if (mrc_req_outstanding(qp)) {
		u64 due;

		mrc_req_arm_timer(qp);
		if (mrc_tx_loss_due(&req->tracker, &due))
			mrc_req_timer_by(qp, now, due);
	}
out:
	spin_unlock_bh(&qp->lock);
	mrc_qp_notify(qp);
	if (kick)
		mrc_req_kick(qp);
}

/* ---- debugfs ---- */

static void mrc_req_show_qp(struct mrc_qp *qp, struct seq_file *m)
{
	struct mrc_req_state *req = &qp->req;

	spin_lock_bh(&qp->lock);
	if (req->started)
		seq_printf(m, "%s %u %s %u %u %llu %llu %llu %u %u %llu %llu\n",
			   dev_name(&qp->ibqp.device->dev), qp->ibqp.qp_num,
			   req->cc_enabled ? "nscc" : "fixed",
			   req->cc_enabled ? mrc_nscc_cwnd(&req->cc) :
					     MRC_REQ_FIXED_CWND * req->mtu,
			   mrc_req_inflight_bytes(qp),
			   mrc_rto_srtt_us(&req->rto),
			   mrc_rto_rttvar_us(&req->rto),
			   mrc_req_rto_us(qp), req->rto.backoff,
			   mrc_txq_queued(req->txq), req->txq->throttles,
			   req->local_wait_us);
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
