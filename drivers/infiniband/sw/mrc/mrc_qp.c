// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Queue pair verbs: creation, the IB state machine, attributes, posting,
 * and flushing work requests when a QP enters the error state.
 */
#include <linux/log2.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_addr.h>
#include <net/ipv6.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/mrc-abi.h>

#include "mrc.h"
#include "mrc_ah.h"
#include "mrc_cq.h"
#include "mrc_mr.h"
#include "mrc_mw.h"
#include "mrc_net.h"
#include "mrc_psn.h"
#include "mrc_qp.h"
#include "mrc_qp_paths.h"
#include "mrc_srq.h"
#include "mrc_txq.h"

#define MRC_SEND_WQE_HDR	sizeof(struct mrc_send_wqe)
#define MRC_RECV_WQE_HDR	sizeof(struct mrc_recv_wqe)

/*
 * Under the table's lock, not RCU: ib_core frees the QP as soon as
 * destroy_qp returns, with no grace period, so the reference must be taken
 * while the entry cannot be erased (mrc_qp.h, Lifetime).
 */
struct mrc_qp *mrc_qp_get(struct mrc_dev *mdev, u32 qpn)
{
	unsigned long flags;
	struct mrc_qp *qp;

	xa_lock_irqsave(&mdev->qps, flags);
	qp = xa_load(&mdev->qps, qpn);
	if (qp && !refcount_inc_not_zero(&qp->refs))
		qp = NULL;
	xa_unlock_irqrestore(&mdev->qps, flags);
	return qp;
}

void mrc_qp_put(struct mrc_qp *qp)
{
	if (refcount_dec_and_test(&qp->refs))
		complete(&qp->unreferenced);
}

void mrc_qp_notify(struct mrc_qp *qp)
{
	mrc_cq_notify(to_mrc_cq(qp->ibqp.send_cq));
	if (qp->ibqp.recv_cq != qp->ibqp.send_cq)
		mrc_cq_notify(to_mrc_cq(qp->ibqp.recv_cq));
}

static bool mrc_qp_has_rq(struct mrc_qp *qp)
{
	return !qp->ibqp.srq;
}

static int mrc_check_qp_caps(struct ib_qp_init_attr *init)
{
	struct ib_qp_cap *cap = &init->cap;

	if (cap->max_send_wr > MRC_MAX_QP_WR ||
	    cap->max_send_sge > MRC_MAX_SGE ||
	    cap->max_inline_data > MRC_MAX_INLINE_DATA)
		return -EINVAL;
	if (!init->srq && (cap->max_recv_wr > MRC_MAX_QP_WR ||
			   cap->max_recv_sge > MRC_MAX_SGE))
		return -EINVAL;
	return 0;
}

/* One slot holds the WQE header and either its SGEs or its inline data. */
static u32 mrc_send_slot_size(const struct ib_qp_cap *cap)
{
	u32 body = max_t(u32, cap->max_send_sge * sizeof(struct mrc_sge),
			 cap->max_inline_data);

	return roundup_pow_of_two(MRC_SEND_WQE_HDR + max_t(u32, body, 1));
}

static u32 mrc_recv_slot_size(const struct ib_qp_cap *cap)
{
	return roundup_pow_of_two(MRC_RECV_WQE_HDR +
				  max_t(u32, cap->max_recv_sge, 1) *
				  sizeof(struct mrc_sge));
}

/*
 * The QP's packets have drained from its local queues: both of its senders
 * may go on (the READ responder's task is idle unless READs are pending).
 */
static void mrc_qp_local_queue_drained(struct mrc_qp *qp)
{
	mrc_req_kick(qp);
	mrc_resp_kick_reads(qp);
}

/*
 * RC QPs get a requester and a responder, with one local transmit budget
 * for both; UC QPs their paths, a budget and the UC engine; datagram QPs
 * none of these.
 */
static int mrc_qp_init_engines(struct mrc_qp *qp)
{
	int err;

	if (mrc_qp_is_ud(qp))
		return mrc_ud_init(qp);
	err = mrc_qp_paths_alloc(qp);
	if (err)
		return err;
	qp->txq = mrc_txq_create(qp, mrc_qp_is_uc(qp) ? mrc_uc_kick :
				 mrc_qp_local_queue_drained,
				 MRC_REQ_WINDOW, &err);
	if (!qp->txq)
		goto err_paths;
	if (mrc_qp_is_uc(qp)) {
		err = mrc_uc_init(qp);
		if (err)
			goto err_txq;
		return 0;
	}
	err = mrc_req_init(qp);
	if (err)
		goto err_txq;
	err = mrc_resp_init(qp);
	if (err)
		goto err_req;
	return 0;

err_req:
	mrc_req_cleanup(qp);
err_txq:
	mrc_txq_detach(qp->txq);
	qp->txq = NULL;
err_paths:
	mrc_qp_paths_free(qp);
	return err;
}

static void mrc_qp_cleanup_engines(struct mrc_qp *qp)
{
	if (mrc_qp_is_ud(qp)) {
		mrc_ud_cleanup(qp);
		return;
	}
	if (mrc_qp_is_uc(qp)) {
		mrc_uc_cleanup(qp);
	} else {
		mrc_req_cleanup(qp);
		mrc_resp_cleanup(qp);
	}
	/*
	 * Nothing transmits any more; a packet still queued kicks nobody
	 * (until here, the stopped tasks made its kicks no-ops).
	 */
	mrc_txq_detach(qp->txq);
	qp->txq = NULL;
	mrc_qp_paths_free(qp);
}

static int mrc_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
			 struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mrc_dev(ibqp->device);
	struct mrc_qp *qp = to_mrc_qp(ibqp);
	struct mrc_create_qp_resp resp = {};
	struct ib_ucontext *ucontext;
	struct ib_qp_cap *cap = &init->cap;
	u32 slot, qpn;
	int err;

	switch (init->qp_type) {
	case IB_QPT_RC:
	case IB_QPT_UC:
	case IB_QPT_UD:
		break;
	case IB_QPT_GSI:
		/* ib_mad's QP1, one per port; never a user's. */
		if (udata || init->port_num != 1)
			return -EINVAL;
		break;
	default:
		return -EOPNOTSUPP;
	}
	if (init->create_flags)
		return -EOPNOTSUPP;
	err = mrc_check_qp_caps(init);
	if (err)
		return err;
	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EOPNOTSUPP;

	err = mrc_ring_ucontext(udata, sizeof(resp), &ucontext);
	if (err)
		return err;

	if (atomic_inc_return(&mdev->num_qps) > MRC_MAX_QP) {
		err = -ENOMEM;
		goto err_count;
	}

	spin_lock_init(&qp->lock);
	refcount_set(&qp->refs, 1);
	init_completion(&qp->unreferenced);
	qp->state = IB_QPS_RESET;
	qp->user = !!udata;
	qp->sq_sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;

	slot = mrc_send_slot_size(cap);
	err = mrc_ring_create(&qp->sq, max_t(u32, cap->max_send_wr, 1), slot,
			      ucontext, &resp.sq);
	if (err)
		goto err_count;
	/* Report what the rounded-up slot really holds. */
	cap->max_send_wr = qp->sq.num_slots;
	cap->max_send_sge = min_t(u32, (slot - MRC_SEND_WQE_HDR) /
				  sizeof(struct mrc_sge), MRC_MAX_SGE);
	cap->max_inline_data = min_t(u32, slot - MRC_SEND_WQE_HDR,
				     MRC_MAX_INLINE_DATA);
	qp->max_send_sge = cap->max_send_sge;
	qp->max_inline_data = cap->max_inline_data;

	if (mrc_qp_has_rq(qp)) {
		slot = mrc_recv_slot_size(cap);
		err = mrc_ring_create(&qp->rq, max_t(u32, cap->max_recv_wr, 1),
				      slot, ucontext, &resp.rq);
		if (err)
			goto err_sq;
		cap->max_recv_wr = qp->rq.num_slots;
		cap->max_recv_sge = min_t(u32, (slot - MRC_RECV_WQE_HDR) /
					  sizeof(struct mrc_sge), MRC_MAX_SGE);
		qp->max_recv_sge = cap->max_recv_sge;
	} else {
		cap->max_recv_wr = 0;
		cap->max_recv_sge = 0;
	}

	err = mrc_qp_init_engines(qp);
	if (err)
		goto err_rq;

	/* Reserve the QPN now; the QP becomes visible once complete. */
	if (init->qp_type == IB_QPT_GSI) {
		qpn = MRC_GSI_QPN;
		err = xa_insert_irq(&mdev->qps, qpn, NULL, GFP_KERNEL);
	} else {
		err = xa_alloc_cyclic_irq(&mdev->qps, &qpn, NULL,
					  XA_LIMIT(MRC_MIN_QPN, MRC_MAX_QPN),
					  &mdev->next_qpn, GFP_KERNEL);
	}
	if (err < 0)
		goto err_engines;
	ibqp->qp_num = qpn;

	if (udata) {
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			goto err_qpn;
	}
	xa_store_irq(&mdev->qps, qpn, qp, GFP_KERNEL);
	return 0;

err_qpn:
	xa_erase_irq(&mdev->qps, qpn);
err_engines:
	mrc_qp_cleanup_engines(qp);
err_rq:
	mrc_ring_destroy(&qp->rq);
err_sq:
	mrc_ring_destroy(&qp->sq);
err_count:
	atomic_dec(&mdev->num_qps);
	return err;
}

enum ib_wc_opcode mrc_send_wc_opcode(u32 wr_opcode)
{
	switch (wr_opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return IB_WC_RDMA_WRITE;
	case IB_WR_RDMA_READ:
		return IB_WC_RDMA_READ;
	case IB_WR_ATOMIC_CMP_AND_SWP:
		return IB_WC_COMP_SWAP;
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return IB_WC_FETCH_ADD;
	case IB_WR_REG_MR:
		return IB_WC_REG_MR;
	case IB_WR_LOCAL_INV:
		return IB_WC_LOCAL_INV;
	case IB_WR_BIND_MW:
		return IB_WC_BIND_MW;
	default:
		return IB_WC_SEND;
	}
}

static void mrc_flush_one(struct mrc_qp *qp, struct ib_cq *ibcq, u64 wr_id,
			  enum ib_wc_opcode opcode)
{
	struct ib_wc wc = {
		.wr_id = wr_id,
		.status = IB_WC_WR_FLUSH_ERR,
		.opcode = opcode,
		.qp = &qp->ibqp,
		.port_num = 1,
	};

	mrc_cq_post(to_mrc_cq(ibcq), &wc, false);
}

/*
 * Completes every posted request of a queue with a flush error, as the
 * verbs spec requires of a QP in the error state, signaled or not. A
 * producer index that claims more than the ring holds flushes what the
 * ring can hold: the requests beyond it cannot exist.
 */
static void mrc_flush_sq(struct mrc_qp *qp)
{
	s64 pending = mrc_ring_produced(&qp->sq, qp->sq_completed);
	struct mrc_send_wqe *wqe;

	if (pending < 0)
		pending = qp->sq.num_slots;
	while (pending-- > 0) {
		wqe = mrc_ring_slot(&qp->sq, qp->sq_completed);
		mrc_flush_one(qp, qp->ibqp.send_cq, READ_ONCE(wqe->wr_id),
			      mrc_send_wc_opcode(READ_ONCE(wqe->opcode)));
		qp->sq_completed++;
	}
	qp->sq_fetched = qp->sq_completed;
	mrc_ring_publish_consumer(&qp->sq, qp->sq_completed);
}

static void mrc_flush_rq(struct mrc_qp *qp)
{
	s64 pending;
	struct mrc_recv_wqe *wqe;

	/* What the responder took from an SRQ is flushed there. */
	if (mrc_qp_is_uc(qp))
		mrc_uc_flush(qp);
	else
		mrc_resp_flush(qp);
	if (!mrc_qp_has_rq(qp))
		return;
	pending = mrc_ring_produced(&qp->rq, qp->rq_completed);
	if (pending < 0)
		pending = qp->rq.num_slots;
	while (pending-- > 0) {
		wqe = mrc_ring_slot(&qp->rq, qp->rq_completed);
		mrc_flush_one(qp, qp->ibqp.recv_cq, READ_ONCE(wqe->wr_id),
			      IB_WC_RECV);
		qp->rq_completed++;
	}
	qp->rq_fetched = qp->rq_completed;
	mrc_ring_publish_consumer(&qp->rq, qp->rq_completed);
}

/* RESET empties the work queues without completions. */
static void mrc_qp_reset_queues(struct mrc_qp *qp)
{
	/* Acquire: everything posted so far is discarded, nothing later. */
	qp->sq_completed = smp_load_acquire(&qp->sq.indices->producer);
	qp->sq_fetched = qp->sq_completed;
	mrc_ring_publish_consumer(&qp->sq, qp->sq_completed);
	if (mrc_qp_has_rq(qp)) {
		/* Acquire, as for the send queue. */
		qp->rq_completed = smp_load_acquire(&qp->rq.indices->producer);
		qp->rq_fetched = qp->rq_completed;
		mrc_ring_publish_consumer(&qp->rq, qp->rq_completed);
	}
}

bool mrc_qp_from_peer(struct mrc_qp *qp, const struct mrc_pkt *pkt,
		      const struct mrc_rx_meta *meta)
{
	struct mrc_net_addr addr;

	if (pkt->hdr.sqpn != qp->dest_qpn)
		return false;
	mrc_net_addr_from_gid(&qp->path.dgid, &addr);
	if (!mrc_net_addr_equal(&addr, &meta->saddr))
		return false;
	mrc_net_addr_from_gid(&qp->path.sgid, &addr);
	return mrc_net_addr_equal(&addr, &meta->daddr);
}

void mrc_qp_error(struct mrc_qp *qp)
{
	if (qp->state == IB_QPS_ERR)
		return;
	qp->state = IB_QPS_ERR;
	mrc_flush_sq(qp);
	mrc_flush_rq(qp);
}

u32 mrc_qp_payload_mtu(struct mrc_qp *qp)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	enum ib_mtu mtu = min(qp->path_mtu, mrc_active_mtu(mdev->ndev));

	return ib_mtu_enum_to_int(mtu);
}

static void mrc_qp_event(struct mrc_qp *qp, enum ib_event_type type)
{
	struct ib_event event = {
		.device = qp->ibqp.device,
		.element.qp = &qp->ibqp,
		.event = type,
	};

	if (qp->ibqp.event_handler)
		qp->ibqp.event_handler(&event, qp->ibqp.qp_context);
}

static int mrc_check_av(struct mrc_dev *mdev, const struct rdma_ah_attr *av)
{
	const struct ib_gid_attr *sgid_attr = av->grh.sgid_attr;

	if (av->type != RDMA_AH_ATTR_TYPE_ROCE ||
	    !(rdma_ah_get_ah_flags(av) & IB_AH_GRH) || !sgid_attr)
		return -EINVAL;
	if (rdma_ah_get_port_num(av) != 1)
		return -EINVAL;
	/* MRC rides on UDP/IP: only RoCEv2-type GIDs name an address. */
	if (sgid_attr->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return -EINVAL;
	if (rdma_is_multicast_addr((struct in6_addr *)av->grh.dgid.raw) ||
	    ipv6_addr_any((struct in6_addr *)av->grh.dgid.raw))
		return -EINVAL;
	return 0;
}

#define MRC_QP_ACCESS_FLAGS \
	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
	 IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC)

/* ib_modify_qp_is_ok() allows IB_QP_QKEY for UD and GSI QPs only. */
#define MRC_QP_UNSUPPORTED_MASK \
	(IB_QP_CAP | IB_QP_ALT_PATH | IB_QP_PATH_MIG_STATE)

/* UC carries no READ nor atomic requests: nothing else to allow. */
#define MRC_UC_ACCESS_FLAGS \
	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE)

static int mrc_check_qp_attr(struct mrc_dev *mdev, struct mrc_qp *qp,
			     struct ib_qp_attr *attr, int mask)
{
	if (mask & ~IB_QP_ATTR_STANDARD_BITS || mask & MRC_QP_UNSUPPORTED_MASK)
		return -EOPNOTSUPP;
	if (mask & IB_QP_PORT && attr->port_num != 1)
		return -EINVAL;
	if (mask & IB_QP_PKEY_INDEX &&
	    attr->pkey_index >= MRC_PORT_PKEY_TABLE_LEN)
		return -EINVAL;
	if (mask & IB_QP_ACCESS_FLAGS &&
	    attr->qp_access_flags & ~(mrc_qp_is_uc(qp) ? MRC_UC_ACCESS_FLAGS :
						      MRC_QP_ACCESS_FLAGS))
		return -EINVAL;
	if (mask & IB_QP_AV && mrc_check_av(mdev, &attr->ah_attr))
		return -EINVAL;
	if (mask & IB_QP_PATH_MTU &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096))
		return -EINVAL;
	if (mask & IB_QP_TIMEOUT && attr->timeout > 31)
		return -EINVAL;
	if (mask & IB_QP_RETRY_CNT && attr->retry_cnt > 7)
		return -EINVAL;
	if (mask & IB_QP_RNR_RETRY && attr->rnr_retry > 7)
		return -EINVAL;
	if (mask & IB_QP_MIN_RNR_TIMER && attr->min_rnr_timer > 31)
		return -EINVAL;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC &&
	    attr->max_rd_atomic > MRC_MAX_RD_ATOMIC)
		return -EINVAL;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC &&
	    attr->max_dest_rd_atomic > MRC_MAX_RD_ATOMIC)
		return -EINVAL;
	if (mask & IB_QP_DEST_QPN && attr->dest_qp_num > MRC_MAX_QPN)
		return -EINVAL;
	/* PSNs are 24 bits; wider values are refused, not truncated. */
	if (mask & IB_QP_SQ_PSN && attr->sq_psn > MRC_PSN_MASK)
		return -EINVAL;
	if (mask & IB_QP_RQ_PSN && attr->rq_psn > MRC_PSN_MASK)
		return -EINVAL;
	return 0;
}

static void mrc_apply_qp_attr(struct mrc_qp *qp, struct ib_qp_attr *attr,
			      int mask)
{
	if (mask & IB_QP_ACCESS_FLAGS)
		qp->access_flags = attr->qp_access_flags;
	if (mask & IB_QP_AV) {
		const struct ib_global_route *grh = rdma_ah_read_grh(&attr->ah_attr);

		qp->path.sgid = grh->sgid_attr->gid;
		qp->path.dgid = grh->dgid;
		qp->path.flow_label = grh->flow_label;
		qp->path.traffic_class = grh->traffic_class;
		qp->path.hop_limit = grh->hop_limit;
	}
	if (mask & IB_QP_PATH_MTU)
		qp->path_mtu = attr->path_mtu;
	if (mask & IB_QP_TIMEOUT)
		qp->timeout = attr->timeout;
	if (mask & IB_QP_RETRY_CNT)
		qp->retry_cnt = attr->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		qp->rnr_retry = attr->rnr_retry;
	if (mask & IB_QP_MIN_RNR_TIMER)
		qp->min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		qp->max_rd_atomic = attr->max_rd_atomic;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		qp->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IB_QP_DEST_QPN)
		qp->dest_qpn = attr->dest_qp_num;
	if (mask & IB_QP_SQ_PSN)
		qp->sq_psn = attr->sq_psn;
	if (mask & IB_QP_RQ_PSN)
		qp->rq_psn = attr->rq_psn;
	if (mask & IB_QP_QKEY)
		qp->qkey = attr->qkey;
}

/* Something to send: wake the QP type's send engine. */
static void mrc_qp_kick(struct mrc_qp *qp)
{
	if (mrc_qp_is_ud(qp))
		mrc_ud_kick(qp);
	else if (mrc_qp_is_uc(qp))
		mrc_uc_kick(qp);
	else
		mrc_req_kick(qp);
}

/*
 * Posted work: a user QP's send engine may send it at once in the
 * caller's task (mrc_req_doorbell(), mrc_ud_doorbell()); a UC QP's
 * worker sends it.
 */
static void mrc_qp_doorbell(struct mrc_qp *qp)
{
	if (mrc_qp_is_ud(qp))
		mrc_ud_doorbell(qp);
	else if (mrc_qp_is_uc(qp))
		mrc_uc_kick(qp);
	else
		mrc_req_doorbell(qp);
}

#define MRC_MODIFY_QP_KNOWN \
	(MRC_MODIFY_QP_EXP_RETRY_CNT | MRC_MODIFY_QP_MPR | \
	 MRC_MODIFY_QP_EV_PROFILE | MRC_MODIFY_QP_FLAGS | \
	 MRC_MODIFY_QP_MPR_DEST)
#define MRC_MODIFY_QP_FLAGS_KNOWN	MRC_QP_F_NO_TRIM_NAK
/* What the requester takes at RTR to RTS. */
#define MRC_MODIFY_QP_BEFORE_RTS \
	(MRC_MODIFY_QP_EXP_RETRY_CNT | MRC_MODIFY_QP_MPR)

/*
 * The driver data of MODIFY_QP (struct mrc_modify_qp_mrc), copied and
 * checked in what does not depend on the QP's state; @mrc is all zero
 * when there is none.
 */
static int mrc_modify_qp_udata(struct mrc_qp *qp, struct ib_udata *udata,
			       struct mrc_modify_qp_mrc *mrc)
{
	size_t len;

	memset(mrc, 0, sizeof(*mrc));
	if (!udata || !udata->inlen)
		return 0;
	len = min_t(size_t, udata->inlen, sizeof(*mrc));
	if (udata->inlen > sizeof(*mrc) &&
	    !ib_is_udata_cleared(udata, sizeof(*mrc),
				 udata->inlen - sizeof(*mrc)))
		return -EOPNOTSUPP;
	if (ib_copy_from_udata(mrc, udata, len))
		return -EFAULT;
	if (mrc->comp_mask & ~MRC_MODIFY_QP_KNOWN)
		return -EOPNOTSUPP;
	/* Named by a request too short to hold the id: an older provider. */
	if (mrc->comp_mask & MRC_MODIFY_QP_EV_PROFILE &&
	    len < offsetofend(struct mrc_modify_qp_mrc, ev_profile_id))
		return -EINVAL;
	if (mrc->comp_mask & MRC_MODIFY_QP_MPR_DEST &&
	    len < offsetofend(struct mrc_modify_qp_mrc, mpr_dest))
		return -EINVAL;
	if (mrc->comp_mask & MRC_MODIFY_QP_FLAGS &&
	    mrc->flags & ~MRC_MODIFY_QP_FLAGS_KNOWN)
		return -EOPNOTSUPP;
	/* Without the mask bit, flags is what it was: reserved. */
	if ((!(mrc->comp_mask & MRC_MODIFY_QP_FLAGS) && mrc->flags) ||
	    (!(mrc->comp_mask & MRC_MODIFY_QP_MPR_DEST) && mrc->mpr_dest) ||
	    memchr_inv(mrc->reserved2, 0, sizeof(mrc->reserved2)))
		return -EINVAL;
	if (mrc->comp_mask && qp->ibqp.qp_type != IB_QPT_RC)
		return -EINVAL;
	if (mrc->comp_mask & MRC_MODIFY_QP_EXP_RETRY_CNT &&
	    mrc->exp_retry_cnt > MRC_EXP_RETRY_FOREVER)
		return -EINVAL;
	if (mrc->comp_mask & MRC_MODIFY_QP_MPR &&
	    mrc->mpr * MRC_MPR_PSNS > MRC_REQ_WINDOW)
		return -EINVAL;
	if (mrc->comp_mask & MRC_MODIFY_QP_MPR_DEST &&
	    mrc->mpr_dest * MRC_MPR_PSNS > MRC_RX_WINDOW)
		return -EINVAL;
	return 0;
}

/*
 * The MRC attributes the requester takes at RTR to RTS may change only
 * before, and an EV profile is named only at RESET to INIT (the paths are
 * built from it at RTR): the caller holds qp->lock and gives the state
 * the QP is in and the one it goes to.
 */
static int mrc_check_modify_mrc(const struct mrc_modify_qp_mrc *mrc,
				enum ib_qp_state cur, enum ib_qp_state next)
{
	if (mrc->comp_mask & MRC_MODIFY_QP_BEFORE_RTS &&
	    cur != IB_QPS_RESET && cur != IB_QPS_INIT && cur != IB_QPS_RTR)
		return -EINVAL;
	if (mrc->comp_mask & MRC_MODIFY_QP_EV_PROFILE &&
	    (cur != IB_QPS_RESET || next != IB_QPS_INIT))
		return -EINVAL;
	/* The responder takes it at INIT to RTR. */
	if (mrc->comp_mask & MRC_MODIFY_QP_MPR_DEST &&
	    cur != IB_QPS_RESET && cur != IB_QPS_INIT)
		return -EINVAL;
	return 0;
}

/*
 * Caller holds qp->lock. @bound is the profile mrc_profile_bind() gave
 * for the request's ev_profile_id (NULL for 0); what the QP held before
 * is handed back in it, to unbind after the lock.
 */
static void mrc_apply_modify_mrc(struct mrc_qp *qp,
				 const struct mrc_modify_qp_mrc *mrc,
				 struct mrc_profile **bound)
{
	if (mrc->comp_mask & MRC_MODIFY_QP_EXP_RETRY_CNT)
		qp->exp_retry_cnt = mrc->exp_retry_cnt;
	if (mrc->comp_mask & MRC_MODIFY_QP_MPR)
		qp->mpr = mrc->mpr;
	if (mrc->comp_mask & MRC_MODIFY_QP_EV_PROFILE)
		swap(qp->paths.bound, *bound);
	if (mrc->comp_mask & MRC_MODIFY_QP_FLAGS)
		qp->no_trim_nak = mrc->flags & MRC_QP_F_NO_TRIM_NAK;
	if (mrc->comp_mask & MRC_MODIFY_QP_MPR_DEST)
		qp->mpr_dest = mrc->mpr_dest;
}

static int mrc_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			 int mask, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mrc_dev(ibqp->device);
	struct mrc_qp *qp = to_mrc_qp(ibqp);
	struct mrc_modify_qp_mrc mrc;
	struct mrc_profile *bound = NULL;
	enum ib_qp_state cur, next;
	bool sq_drained = false, kick = false;
	unsigned long flags;
	int err;

	err = mrc_modify_qp_udata(qp, udata, &mrc);
	if (err)
		return err;
	err = mrc_check_qp_attr(mdev, qp, attr, mask);
	if (err)
		return err;

	/*
	 * RESET to INIT naming an EV profile: bound now (it takes the
	 * profile table's mutex), kept only if the transition happens.
	 */
	if (mrc.comp_mask & MRC_MODIFY_QP_EV_PROFILE && mrc.ev_profile_id) {
		if (!(mask & IB_QP_STATE) || attr->qp_state != IB_QPS_INIT ||
		    READ_ONCE(qp->state) != IB_QPS_RESET)
			return -EINVAL;
		bound = mrc_profile_bind(mdev, mrc.ev_profile_id);
		if (!bound)
			return -EINVAL;
	}

	/*
	 * INIT to RTR with an address: the paths towards the peer, built
	 * here because it allocates; the requester sends nothing before RTS.
	 */
	if (!mrc_qp_is_ud(qp) && mask & IB_QP_STATE &&
	    attr->qp_state == IB_QPS_RTR && mask & IB_QP_AV &&
	    READ_ONCE(qp->state) == IB_QPS_INIT) {
		err = mrc_qp_paths_build(qp,
					 &rdma_ah_read_grh(&attr->ah_attr)->dgid);
		if (err)
			return err;
		if (!mrc_qp_is_uc(qp))
			mrc_req_prepare(qp);
	}

	spin_lock_irqsave(&qp->lock, flags);
	/* The current state, if the caller gives it, must be the real one. */
	cur = qp->state;
	if (mask & IB_QP_CUR_STATE && attr->cur_qp_state != cur) {
		err = -EINVAL;
		goto out;
	}
	next = mask & IB_QP_STATE ? attr->qp_state : cur;
	if (!ib_modify_qp_is_ok(cur, next, ibqp->qp_type, mask)) {
		err = -EINVAL;
		goto out;
	}
	err = mrc_check_modify_mrc(&mrc, cur, next);
	if (err)
		goto out;

	mrc_apply_qp_attr(qp, attr, mask);
	mrc_apply_modify_mrc(qp, &mrc, &bound);
	if (mask & IB_QP_STATE && next != qp->state) {
		if (cur == IB_QPS_RTR && next == IB_QPS_RTS) {
			if (mrc_qp_is_uc(qp))
				mrc_uc_start(qp);
			else if (!mrc_qp_is_ud(qp))
				mrc_req_start(qp);
			kick = true;
		}
		if (next == IB_QPS_RTR && mrc_qp_is_uc(qp))
			mrc_uc_rx_start(qp);
		else if (next == IB_QPS_RTR && !mrc_qp_is_ud(qp))
			mrc_resp_start(qp);
		qp->state = next;
		if (next == IB_QPS_RESET) {
			mrc_qp_reset_queues(qp);
			/* The next RESET to INIT names a profile anew. */
			swap(qp->paths.bound, bound);
		} else if (next == IB_QPS_ERR) {
			mrc_flush_sq(qp);
			mrc_flush_rq(qp);
		} else if (next == IB_QPS_SQD) {
			/* Nothing is in flight yet, so the SQ is drained. */
			sq_drained = mask & IB_QP_EN_SQD_ASYNC_NOTIFY &&
				     attr->en_sqd_async_notify;
		}
	}
out:
	spin_unlock_irqrestore(&qp->lock, flags);
	/* The QP's old profile, or the one it did not take. */
	mrc_profile_unbind(bound);
	mrc_qp_notify(qp);

	if (sq_drained)
		mrc_qp_event(qp, IB_EVENT_SQ_DRAINED);
	if (kick)
		mrc_qp_kick(qp);
	return err;
}

static int mrc_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			int mask, struct ib_qp_init_attr *init)
{
	struct mrc_qp *qp = to_mrc_qp(ibqp);
	unsigned long flags;

	memset(attr, 0, sizeof(*attr));
	memset(init, 0, sizeof(*init));

	spin_lock_irqsave(&qp->lock, flags);
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->path_mtu = qp->path_mtu;
	attr->path_mig_state = IB_MIG_MIGRATED;
	attr->qp_access_flags = qp->access_flags;
	attr->rq_psn = qp->rq_psn;
	attr->sq_psn = qp->sq_psn;
	attr->dest_qp_num = qp->dest_qpn;
	attr->timeout = qp->timeout;
	attr->retry_cnt = qp->retry_cnt;
	attr->rnr_retry = qp->rnr_retry;
	attr->min_rnr_timer = qp->min_rnr_timer;
	attr->max_rd_atomic = qp->max_rd_atomic;
	attr->max_dest_rd_atomic = qp->max_dest_rd_atomic;
	attr->qkey = qp->qkey;
	attr->port_num = 1;
	attr->sq_draining = 0;

	attr->ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(&attr->ah_attr, 1);
	rdma_ah_set_grh(&attr->ah_attr, &qp->path.dgid, qp->path.flow_label,
			0, qp->path.hop_limit, qp->path.traffic_class);
	spin_unlock_irqrestore(&qp->lock, flags);

	attr->cap.max_send_wr = qp->sq.num_slots;
	attr->cap.max_send_sge = qp->max_send_sge;
	attr->cap.max_inline_data = qp->max_inline_data;
	if (mrc_qp_has_rq(qp)) {
		attr->cap.max_recv_wr = qp->rq.num_slots;
		attr->cap.max_recv_sge = qp->max_recv_sge;
	}
	init->cap = attr->cap;
	init->qp_type = ibqp->qp_type;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->srq = ibqp->srq;
	init->sq_sig_type = qp->sq_sig_all ? IB_SIGNAL_ALL_WR :
					     IB_SIGNAL_REQ_WR;
	return 0;
}

static int mrc_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mrc_dev(ibqp->device);
	struct mrc_qp *qp = to_mrc_qp(ibqp);

	/* No new lookups; wait for the receive path's references. */
	xa_erase_irq(&mdev->qps, ibqp->qp_num);
	mrc_qp_put(qp);
	wait_for_completion(&qp->unreferenced);

	mrc_qp_cleanup_engines(qp);
	/* Its engines have stopped: no bind can tie a window to it now. */
	mrc_mw_qp_destroyed(qp);
	mrc_ring_destroy(&qp->rq);
	mrc_ring_destroy(&qp->sq);
	atomic_dec(&mdev->num_qps);
	return 0;
}

static bool mrc_rc_send_opcode_ok(enum ib_wr_opcode opcode)
{
	switch (opcode) {
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
	case IB_WR_SEND_WITH_INV:
	case IB_WR_REG_MR:
	case IB_WR_LOCAL_INV:
		return true;
	default:
		return false;
	}
}

/* Kernel QPs: copies one work request into the next send slot. */
static int mrc_post_one_send(struct mrc_qp *qp, const struct ib_send_wr *wr,
			     u32 index)
{
	struct mrc_send_wqe *wqe = mrc_ring_slot(&qp->sq, index);
	u32 i, inline_len = 0;

	if (mrc_qp_is_uc(qp) ? !mrc_uc_send_opcode_ok(wr->opcode) :
	    !mrc_qp_is_ud(qp) && !mrc_rc_send_opcode_ok(wr->opcode))
		return -EINVAL;
	if (wr->send_flags & IB_SEND_INLINE) {
		for (i = 0; i < wr->num_sge; i++)
			inline_len += wr->sg_list[i].length;
		if (inline_len > qp->max_inline_data)
			return -EINVAL;
	} else if (wr->num_sge > qp->max_send_sge) {
		return -EINVAL;
	}

	memset(wqe, 0, MRC_SEND_WQE_HDR);
	wqe->wr_id = wr->wr_id;
	wqe->opcode = wr->opcode;
	wqe->send_flags = wr->send_flags;
	wqe->imm_data = wr->ex.imm_data;
	switch (wr->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		wqe->remote_addr = rdma_wr(wr)->remote_addr;
		wqe->rkey = rdma_wr(wr)->rkey;
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		wqe->remote_addr = atomic_wr(wr)->remote_addr;
		wqe->rkey = atomic_wr(wr)->rkey;
		wqe->compare_add = atomic_wr(wr)->compare_add;
		wqe->swap = atomic_wr(wr)->swap;
		break;
	case IB_WR_SEND_WITH_INV:
	case IB_WR_LOCAL_INV:
		wqe->rkey = wr->ex.invalidate_rkey;
		break;
	case IB_WR_REG_MR:
		/*
		 * Kernel QPs only (the requester refuses it from a user
		 * ring): the MR by its table index, the new key, the rights.
		 */
		wqe->remote_addr = to_mrc_mr(reg_wr(wr)->mr)->index;
		wqe->rkey = reg_wr(wr)->key;
		wqe->compare_add = (u32)reg_wr(wr)->access;
		return 0;
	default:
		break;
	}
	/*
	 * A datagram needs its destination, except in ERR, where the request
	 * is only flushed: ib_drain_sq() posts an RDMA WRITE to any QP type
	 * and waits for its flush completion.
	 */
	if (mrc_qp_is_ud(qp) && qp->state != IB_QPS_ERR &&
	    mrc_ud_fill_wqe(wqe, wr))
		return -EINVAL;

	if (wr->send_flags & IB_SEND_INLINE) {
		u8 *dst = (u8 *)wqe->sge;

		/* Kernel SGE addresses are kernel virtual addresses. */
		for (i = 0; i < wr->num_sge; i++) {
			memcpy(dst, (void *)(uintptr_t)wr->sg_list[i].addr,
			       wr->sg_list[i].length);
			dst += wr->sg_list[i].length;
		}
		wqe->inline_len = inline_len;
	} else {
		for (i = 0; i < wr->num_sge; i++) {
			wqe->sge[i].addr = wr->sg_list[i].addr;
			wqe->sge[i].length = wr->sg_list[i].length;
			wqe->sge[i].lkey = wr->sg_list[i].lkey;
		}
		wqe->num_sge = wr->num_sge;
	}
	return 0;
}

static int mrc_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
			 const struct ib_send_wr **bad_wr)
{
	struct mrc_qp *qp = to_mrc_qp(ibqp);
	unsigned long flags;
	bool kick = false;
	u32 produced;
	int err = 0;

	spin_lock_irqsave(&qp->lock, flags);
	if (qp->user) {
		/* A doorbell: the requests are already in the mapped ring. */
		if (qp->state == IB_QPS_ERR)
			mrc_flush_sq(qp);
		else if (qp->state == IB_QPS_RTS)
			kick = true;
		goto out;
	}
	if (qp->state < IB_QPS_RTS) {
		err = -EINVAL;
		*bad_wr = wr;
		goto out;
	}

	produced = qp->sq.indices->producer;
	for (; wr; wr = wr->next) {
		if (produced - qp->sq_completed >= qp->sq.num_slots) {
			err = -ENOMEM;
			break;
		}
		err = mrc_post_one_send(qp, wr, produced);
		if (err)
			break;
		mrc_ring_publish_producer(&qp->sq, ++produced);
	}
	if (err)
		*bad_wr = wr;
	if (qp->state == IB_QPS_ERR)
		mrc_flush_sq(qp);
	else
		kick = true;
out:
	spin_unlock_irqrestore(&qp->lock, flags);
	mrc_qp_notify(qp);
	if (kick)
		mrc_qp_doorbell(qp);
	return err;
}

static int mrc_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
			 const struct ib_recv_wr **bad_wr)
{
	struct mrc_qp *qp = to_mrc_qp(ibqp);
	unsigned long flags;
	int err = 0;

	if (!mrc_qp_has_rq(qp)) {
		*bad_wr = wr;
		return -EINVAL;
	}
	if (qp->user) {
		/*
		 * The receive doorbell: userspace rings it only for a QP it
		 * believes in ERR, whose new receives must be flushed.
		 */
		if (wr) {
			*bad_wr = wr;
			return -EINVAL;
		}
		spin_lock_irqsave(&qp->lock, flags);
		if (qp->state == IB_QPS_ERR)
			mrc_flush_rq(qp);
		spin_unlock_irqrestore(&qp->lock, flags);
		mrc_qp_notify(qp);
		return 0;
	}

	spin_lock_irqsave(&qp->lock, flags);
	if (qp->state == IB_QPS_RESET) {
		err = -EINVAL;
		*bad_wr = wr;
		goto out;
	}
	err = mrc_ring_post_recvs(&qp->rq, qp->rq_completed, qp->max_recv_sge,
				  &wr);
	if (err)
		*bad_wr = wr;
	if (qp->state == IB_QPS_ERR)
		mrc_flush_rq(qp);
out:
	spin_unlock_irqrestore(&qp->lock, flags);
	mrc_qp_notify(qp);
	return err;
}

const struct ib_device_ops mrc_qp_ops = {
	.create_qp = mrc_create_qp,
	.destroy_qp = mrc_destroy_qp,
	.modify_qp = mrc_modify_qp,
	.post_recv = mrc_post_recv,
	.post_send = mrc_post_send,
	.query_qp = mrc_query_qp,

	INIT_RDMA_OBJ_SIZE(ib_qp, mrc_qp, ibqp),
};
