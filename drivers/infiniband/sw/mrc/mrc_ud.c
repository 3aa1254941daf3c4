// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Datagram QPs (mrc_ud.h): the send work that turns UD send slots into
 * UD_SEND packets, and the receive of UD_SEND packets into receive WQEs.
 *
 * Context: the send task (mrc_task.h) runs on mrc_wq and takes qp->lock
 * with BHs disabled; mrc_ud_rcv() runs in softirq. Both send or complete what they
 * must after releasing the lock, as mrc_xmit.h requires.
 */
#include <linux/hash.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/ip.h>
#include <rdma/ib_verbs.h>

#include "mrc.h"
#include "mrc_clock.h"
#include "mrc_ah.h"
#include "mrc_cq.h"
#include "mrc_mr.h"
#include "mrc_net.h"
#include "mrc_qp.h"
#include "mrc_srq.h"
#include "mrc_stats.h"
#include "mrc_task.h"
#include "mrc_ud.h"
#include "mrc_xmit.h"

/* Datagrams one pass of the send task builds before it sends them ... */
#define MRC_UD_BURST		16
/* ... and one run sends before it yields the worker to others. */
#define MRC_UD_RUN_BUDGET	(4 * MRC_UD_BURST)
/* The GRH area at the start of every UD receive buffer (IB). */
#define MRC_UD_GRH_LEN		40
/*
 * RoCE has no SL. A UD receive completion's SL says, as RoCE NICs report
 * it, what fills the GRH area: bit 3 set for a UDP-encapsulated (RoCE v2)
 * packet, bits 2:0 the L3 header (1 IPv6, 2 IPv4). UCX's UD transport
 * reads it to find the destination address in the GRH area, and drops a
 * datagram whose address it cannot find there.
 */
#define MRC_UD_WC_SL_ROCE_V2	0x8
#define MRC_UD_WC_SL_IPV6	0x1
#define MRC_UD_WC_SL_IPV4	0x2

/* A datagram built under qp->lock, sent after it. */
struct mrc_ud_tx {
	struct sk_buff *skb;
	struct mrc_av av;
};

static bool mrc_ud_send_pass(struct mrc_task *task, u32 *budget);

int mrc_ud_init(struct mrc_qp *qp)
{
	struct mrc_ud_state *ud = &qp->ud;

	mrc_task_init(&ud->task, mrc_ud_send_pass, MRC_UD_RUN_BUDGET);
	ud->rx_max_sge = qp->ibqp.srq ? to_mrc_srq(qp->ibqp.srq)->max_sge :
					qp->max_recv_sge;
	ud->tx_sges = kcalloc(max_t(u32, qp->max_send_sge, 1),
			      sizeof(*ud->tx_sges), GFP_KERNEL);
	ud->rx_sges = kcalloc(max_t(u32, ud->rx_max_sge, 1),
			      sizeof(*ud->rx_sges), GFP_KERNEL);
	if (!ud->tx_sges || !ud->rx_sges) {
		kfree(ud->tx_sges);
		kfree(ud->rx_sges);
		ud->tx_sges = NULL;
		ud->rx_sges = NULL;
		return -ENOMEM;
	}
	return 0;
}

void mrc_ud_cleanup(struct mrc_qp *qp)
{
	struct mrc_ud_state *ud = &qp->ud;

	mrc_task_stop(&ud->task);
	kfree(ud->tx_sges);
	kfree(ud->rx_sges);
	ud->tx_sges = NULL;
	ud->rx_sges = NULL;
}

void mrc_ud_kick(struct mrc_qp *qp)
{
	mrc_task_kick(&qp->ud.task);
}

void mrc_ud_doorbell(struct mrc_qp *qp)
{
	mrc_task_doorbell(&qp->ud.task, qp->user);
}

int mrc_ud_fill_wqe(struct mrc_send_wqe *wqe, const struct ib_send_wr *wr)
{
	const struct ib_ud_wr *ud = ud_wr(wr);

	if (wr->opcode != IB_WR_SEND && wr->opcode != IB_WR_SEND_WITH_IMM)
		return -EINVAL;
	if (!ud->ah)
		return -EINVAL;
	wqe->ah_handle = to_mrc_ah(ud->ah)->handle;
	wqe->remote_qpn = ud->remote_qpn;
	wqe->remote_qkey = ud->remote_qkey;
	return 0;
}

/* One source port per QP: its datagrams take one path. */
static u16 mrc_ud_sport(struct mrc_qp *qp)
{
	return 0xc000 | (hash_32(qp->ibqp.qp_num, 14) & 0x3fff);
}

/* A datagram's payload: the port's MTU, at most what the wire allows. */
static u32 mrc_ud_mtu(struct mrc_qp *qp)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);

	return min_t(u32, ib_mtu_enum_to_int(mrc_active_mtu(mdev->ndev)),
		     MRC_UD_MAX_PAYLOAD);
}

/* Copies the SGEs' bytes into @dst; the SGEs were summed to @len. */
static int mrc_ud_gather(struct mrc_qp *qp, const struct mrc_sge *sges,
			 u32 num_sge, u8 *dst)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_mr *mr;
	u32 i;
	int err;

	for (i = 0; i < num_sge; i++) {
		if (!sges[i].length)
			continue;
		mr = mrc_mr_get(mdev, sges[i].lkey);
		if (!mr)
			return -EINVAL;
		err = mrc_mr_check(mr, qp->ibqp.pd, sges[i].addr,
				   sges[i].length, 0);
		if (!err)
			err = mrc_mr_copy_from(mr, sges[i].addr, dst,
					       sges[i].length);
		mrc_mr_put(mr);
		if (err)
			return err;
		dst += sges[i].length;
	}
	return 0;
}

/*
 * Builds the datagram of the send slot @slot into @tx (tx->skb stays NULL
 * when it is lost for lack of memory). Returns the completion status.
 */
static enum ib_wc_status mrc_ud_build(struct mrc_qp *qp,
				      const struct mrc_send_wqe *slot,
				      const struct mrc_send_wqe *wqe,
				      struct mrc_ud_tx *tx, u32 *byte_len)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_pkt pkt = {};
	u32 i, num_sge = 0;
	u64 len = 0;
	size_t hdr_len;
	u8 *data;

	tx->skb = NULL;
	if (wqe->opcode == IB_WR_SEND)
		pkt.hdr.opcode = MRC_OP_UD_SEND;
	else if (wqe->opcode == IB_WR_SEND_WITH_IMM)
		pkt.hdr.opcode = MRC_OP_UD_SEND_IMM;
	else
		return IB_WC_LOC_QP_OP_ERR;

	if (wqe->send_flags & IB_SEND_INLINE) {
		len = wqe->inline_len;
		if (len > qp->max_inline_data)
			return IB_WC_LOC_LEN_ERR;
	} else {
		num_sge = wqe->num_sge;
		if (num_sge > qp->max_send_sge)
			return IB_WC_LOC_LEN_ERR;
		/* The ring may be userspace's: read the SGEs once. */
		memcpy(qp->ud.tx_sges, slot->sge,
		       num_sge * sizeof(*qp->ud.tx_sges));
		for (i = 0; i < num_sge; i++)
			len += qp->ud.tx_sges[i].length;
	}
	if (len > mrc_ud_mtu(qp))
		return IB_WC_LOC_LEN_ERR;
	*byte_len = len;
	if (wqe->remote_qpn & ~MRC_QPN_MASK ||
	    mrc_ah_lookup(mdev, wqe->ah_handle, qp->ibqp.pd, &tx->av))
		return IB_WC_LOC_QP_OP_ERR;

	pkt.hdr.flags = wqe->send_flags & IB_SEND_SOLICITED ?
			MRC_F_SOLICITED : 0;
	pkt.hdr.dqpn = wqe->remote_qpn;
	pkt.hdr.sqpn = qp->ibqp.qp_num;
	pkt.hdr.psn = qp->ud.next_psn++ & MRC_PSN_MASK;
	pkt.hdr.ev = mrc_ud_sport(qp);
	pkt.hdr.ts = (u32)mrc_now_us();
	pkt.hdr.payload_len = len;
	pkt.qkey = wqe->remote_qkey & MRC_QKEY_USE_QP ? qp->qkey :
							 wqe->remote_qkey;
	pkt.imm = be32_to_cpu(wqe->imm_data);
	hdr_len = mrc_pkt_hdr_len(&pkt);

	tx->skb = mrc_net_alloc_skb(mdev, &tx->av.saddr, &tx->av.daddr,
				    hdr_len + len);
	if (!tx->skb) {
		/* Lost, as in a network out of buffers: UD does not care. */
		mrc_stats_inc(mdev, MRC_CNT_TX_ERRORS);
		return IB_WC_SUCCESS;
	}
	data = skb_put(tx->skb, hdr_len + len);
	if (mrc_encode(data, hdr_len, &pkt) != (int)hdr_len)
		goto err_free;
	if (wqe->send_flags & IB_SEND_INLINE) {
		memcpy(data + hdr_len, slot->sge, len);
	} else if (mrc_ud_gather(qp, qp->ud.tx_sges, num_sge,
				 data + hdr_len)) {
		kfree_skb(tx->skb);
		tx->skb = NULL;
		return IB_WC_LOC_PROT_ERR;
	}
	return IB_WC_SUCCESS;

err_free:
	kfree_skb(tx->skb);
	tx->skb = NULL;
	return IB_WC_LOC_QP_OP_ERR;
}

/* Completes the oldest send slot; its slot goes back first. */
static void mrc_ud_send_done(struct mrc_qp *qp, const struct mrc_send_wqe *wqe,
			     enum ib_wc_status status, u32 byte_len)
{
	struct ib_wc wc = {
		.wr_id = wqe->wr_id,
		.status = status,
		.opcode = IB_WC_SEND,
		.byte_len = byte_len,
		.qp = &qp->ibqp,
		.port_num = 1,
	};

	qp->sq_completed++;
	qp->sq_fetched = qp->sq_completed;
	mrc_ring_publish_consumer(&qp->sq, qp->sq_completed);
	if (qp->sq_sig_all || wqe->send_flags & IB_SEND_SIGNALED ||
	    status != IB_WC_SUCCESS)
		mrc_cq_post(to_mrc_cq(qp->ibqp.send_cq), &wc, false);
}

/* One pass of the send task (mrc_task.h); the budget counts datagrams. */
static bool mrc_ud_send_pass(struct mrc_task *task, u32 *budget)
{
	struct mrc_qp *qp = container_of(task, struct mrc_qp, ud.task);
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_ud_tx tx[MRC_UD_BURST];
	enum ib_wc_status status;
	struct mrc_send_wqe wqe, *slot;
	u16 sport = mrc_ud_sport(qp);
	int limit = min_t(unsigned int, *budget, MRC_UD_BURST);
	bool more = false;
	u32 byte_len;
	int n = 0, i;
	s64 avail;

	spin_lock_bh(&qp->lock);
	while (qp->state == IB_QPS_RTS) {
		if (n == limit) {
			more = true;
			break;
		}
		avail = mrc_ring_produced(&qp->sq, qp->sq_completed);
		if (avail < 0) {
			/* A lying producer index: nothing can be trusted. */
			mrc_qp_error(qp);
			break;
		}
		if (!avail)
			break;
		slot = mrc_ring_slot(&qp->sq, qp->sq_completed);
		memcpy(&wqe, slot, sizeof(wqe));
		byte_len = 0;
		status = mrc_ud_build(qp, slot, &wqe, &tx[n], &byte_len);
		if (tx[n].skb)
			n++;
		mrc_ud_send_done(qp, &wqe, status, byte_len);
		/* A local error ends the QP, as on RC; the rest is flushed. */
		if (status != IB_WC_SUCCESS) {
			mrc_qp_error(qp);
			break;
		}
	}
	spin_unlock_bh(&qp->lock);
	mrc_qp_notify(qp);

	for (i = 0; i < n; i++)
		mrc_net_xmit(mdev, tx[i].skb, &tx[i].av.saddr,
			     &tx[i].av.daddr, sport, tx[i].av.traffic_class);
	*budget -= min_t(unsigned int, n, *budget);
	return more;
}

/* ---- receive ---- */

/* The GRH area of a received datagram, from its outer IP header. */
static void mrc_ud_grh(const struct sk_buff *skb,
		       const struct mrc_rx_meta *meta, u8 *grh,
		       enum rdma_network_type *net_type)
{
	memset(grh, 0, MRC_UD_GRH_LEN);
	if (meta->saddr.family == AF_INET) {
		struct iphdr *iph = (struct iphdr *)(grh + MRC_UD_GRH_LEN -
						     sizeof(*iph));

		/*
		 * RoCEv2 puts the IPv4 header in the last 20 bytes;
		 * consumers check its checksum to tell it from an IPv6 one.
		 * Options, if any, are not carried.
		 */
		memcpy(iph, ip_hdr(skb), sizeof(*iph));
		iph->ihl = sizeof(*iph) / 4;
		iph->check = 0;
		iph->check = ip_fast_csum(iph, iph->ihl);
		*net_type = RDMA_NETWORK_IPV4;
	} else {
		memcpy(grh, ipv6_hdr(skb), sizeof(struct ipv6hdr));
		*net_type = RDMA_NETWORK_IPV6;
	}
}

/* Where the next byte of a receive goes. */
struct mrc_ud_cursor {
	const struct mrc_sge *sge;
	u32 sges_left;
	u32 off;		/* within *sge */
};

/*
 * Places @len bytes, from @buf or else from @skb at @skb_off, at the
 * cursor; each SGE must be a local-write MR of the QP's PD.
 */
static int mrc_ud_place(struct mrc_qp *qp, struct mrc_ud_cursor *c,
			const u8 *buf, const struct sk_buff *skb, int skb_off,
			u32 len)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_mr *mr;
	u64 addr;
	u32 n;
	int err;

	while (len) {
		if (!c->sges_left)
			return -EINVAL;
		if (c->off == c->sge->length) {
			c->sge++;
			c->sges_left--;
			c->off = 0;
			continue;
		}
		n = min(len, c->sge->length - c->off);
		addr = c->sge->addr + c->off;
		mr = mrc_mr_get(mdev, c->sge->lkey);
		if (!mr)
			return -EINVAL;
		err = mrc_mr_check(mr, qp->ibqp.pd, addr, n,
				   IB_ACCESS_LOCAL_WRITE);
		if (!err && buf)
			err = mrc_mr_copy_to(mr, addr, buf, n);
		else if (!err)
			err = mrc_mr_copy_skb_to(mr, addr, skb, skb_off, n);
		mrc_mr_put(mr);
		if (err)
			return err;
		if (buf)
			buf += n;
		skb_off += n;
		c->off += n;
		len -= n;
	}
	return 0;
}

/* A receive WQE read out of its ring, not yet consumed. */
struct mrc_ud_recv {
	u64 wr_id;
	u32 num_sge;
	u64 bytes;		/* its SGEs hold this much */
	bool broken;		/* more SGEs than the queue allows */
};

static void mrc_ud_peek(struct mrc_qp *qp, const void *slot,
			struct mrc_ud_recv *r)
{
	const struct mrc_recv_wqe *wqe = slot;
	u32 i;

	memset(r, 0, sizeof(*r));
	/* The ring may be userspace's: read each field once. */
	r->wr_id = READ_ONCE(wqe->wr_id);
	r->num_sge = READ_ONCE(wqe->num_sge);
	if (r->num_sge > qp->ud.rx_max_sge) {
		r->broken = true;
		r->num_sge = 0;
		return;
	}
	memcpy(qp->ud.rx_sges, wqe->sge, r->num_sge * sizeof(struct mrc_sge));
	for (i = 0; i < r->num_sge; i++)
		r->bytes += qp->ud.rx_sges[i].length;
}

/*
 * Takes the next receive WQE for a datagram of @need bytes (GRH
 * included). -EAGAIN: none posted; -EMSGSIZE: too small, left posted.
 * A broken WQE is taken, to complete with an error.
 */
static int mrc_ud_take_recv(struct mrc_qp *qp, u64 need,
			    struct mrc_ud_recv *r, bool *srq_event)
{
	struct mrc_srq *srq;
	unsigned long flags;
	s64 avail;

	if (!qp->ibqp.srq) {
		avail = mrc_ring_produced(&qp->rq, qp->rq_completed);
		if (avail <= 0)
			return -EAGAIN;
		mrc_ud_peek(qp, mrc_ring_slot(&qp->rq, qp->rq_completed), r);
		if (!r->broken && r->bytes < need)
			return -EMSGSIZE;
		/* Handed back before the completion is posted. */
		qp->rq_completed++;
		qp->rq_fetched = qp->rq_completed;
		mrc_ring_publish_consumer(&qp->rq, qp->rq_completed);
		return 0;
	}

	srq = to_mrc_srq(qp->ibqp.srq);
	spin_lock_irqsave(&srq->lock, flags);
	avail = mrc_ring_produced(&srq->rq, srq->fetched);
	if (avail <= 0) {
		spin_unlock_irqrestore(&srq->lock, flags);
		return -EAGAIN;
	}
	mrc_ud_peek(qp, mrc_ring_slot(&srq->rq, srq->fetched), r);
	if (!r->broken && r->bytes < need) {
		spin_unlock_irqrestore(&srq->lock, flags);
		return -EMSGSIZE;
	}
	srq->fetched++;
	srq->completed = srq->fetched;
	mrc_ring_publish_consumer(&srq->rq, srq->completed);
	if (srq->limit && avail - 1 < srq->limit) {
		srq->limit = 0;
		*srq_event = true;
	}
	spin_unlock_irqrestore(&srq->lock, flags);
	return 0;
}

static void mrc_ud_srq_event(struct ib_srq *ibsrq)
{
	struct ib_event event = {
		.device = ibsrq->device,
		.element.srq = ibsrq,
		.event = IB_EVENT_SRQ_LIMIT_REACHED,
	};

	if (ibsrq->event_handler)
		ibsrq->event_handler(&event, ibsrq->srq_context);
}

static bool mrc_ud_state_ok(struct mrc_qp *qp)
{
	return qp->state == IB_QPS_RTR || qp->state == IB_QPS_RTS ||
	       qp->state == IB_QPS_SQD;
}

void mrc_ud_rcv(struct mrc_qp *qp, struct sk_buff *skb,
		const struct mrc_pkt *pkt, const struct mrc_rx_meta *meta)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	u32 len = pkt->hdr.payload_len;
	enum rdma_network_type net_type;
	struct mrc_ud_cursor cursor;
	u8 grh[MRC_UD_GRH_LEN];
	enum mrc_counter drop;
	bool srq_event = false;
	struct mrc_ud_recv r;
	struct ib_wc wc = {};
	int err;

	spin_lock(&qp->lock);
	drop = MRC_CNT_RX_DROP_QP_STATE;
	if (!mrc_ud_state_ok(qp))
		goto drop;
	drop = MRC_CNT_RX_DROP_UD_TRIMMED;
	if (pkt->trimmed)
		goto drop;
	/* GSI's Q_Key is fixed by IB; ib_mad sets it like any other. */
	drop = MRC_CNT_RX_DROP_BAD_QKEY;
	if (pkt->qkey != qp->qkey)
		goto drop;

	err = mrc_ud_take_recv(qp, MRC_UD_GRH_LEN + len, &r, &srq_event);
	if (err) {
		drop = err == -EAGAIN ? MRC_CNT_RX_DROP_NO_RECV :
					MRC_CNT_RX_DROP_RECV_TOO_SMALL;
		goto drop;
	}

	wc.wr_id = r.wr_id;
	wc.opcode = IB_WC_RECV;
	wc.qp = &qp->ibqp;
	wc.port_num = 1;
	wc.status = IB_WC_SUCCESS;
	if (r.broken) {
		wc.status = IB_WC_LOC_LEN_ERR;
	} else {
		mrc_ud_grh(skb, meta, grh, &net_type);
		cursor.sge = qp->ud.rx_sges;
		cursor.sges_left = r.num_sge;
		cursor.off = 0;
		if (mrc_ud_place(qp, &cursor, grh, NULL, 0, sizeof(grh)) ||
		    mrc_ud_place(qp, &cursor, NULL, skb, pkt->payload_off,
				 len))
			wc.status = IB_WC_LOC_PROT_ERR;
	}
	if (wc.status == IB_WC_SUCCESS) {
		wc.byte_len = MRC_UD_GRH_LEN + len;
		wc.src_qp = pkt->hdr.sqpn;
		wc.wc_flags = IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
		wc.network_hdr_type = net_type;
		wc.sl = MRC_UD_WC_SL_ROCE_V2 |
			(net_type == RDMA_NETWORK_IPV4 ? MRC_UD_WC_SL_IPV4 :
							  MRC_UD_WC_SL_IPV6);
		if (pkt->hdr.opcode == MRC_OP_UD_SEND_IMM) {
			wc.wc_flags |= IB_WC_WITH_IMM;
			wc.ex.imm_data = cpu_to_be32(pkt->imm);
		}
	}
	mrc_cq_post(to_mrc_cq(qp->ibqp.recv_cq), &wc,
		    pkt->hdr.flags & MRC_F_SOLICITED ||
		    wc.status != IB_WC_SUCCESS);
	/* A receive buffer the consumer got wrong ends the QP. */
	if (wc.status != IB_WC_SUCCESS)
		mrc_qp_error(qp);
	spin_unlock(&qp->lock);
	mrc_qp_notify(qp);
	if (srq_event)
		mrc_ud_srq_event(qp->ibqp.srq);
	return;

drop:
	spin_unlock(&qp->lock);
	mrc_stats_inc(mdev, drop);
}
