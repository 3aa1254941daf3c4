// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Receive side of the protocol: where a packet that the transport
 * (mrc_net.c) validated goes. See mrc_net.h for the context mrc_rcv() runs
 * in and the shape of the skb.
 */
#include <linux/skbuff.h>

#include "mrc.h"
#include "mrc_ep.h"
#include "mrc_net.h"
#include "mrc_qp.h"
#include "mrc_stats.h"

/*
 * Datagrams go to UD and GSI QPs (mrc_ud.c), and only there. Requests go
 * to an RC QP's responder (mrc_resp.c) or a UC QP's receiver (mrc_uc.c),
 * responses to an RC QP's requester (mrc_req.c); each checks the QP's
 * state and peer under qp->lock. None keeps @skb: it is freed here once
 * they return.
 */
static void mrc_rcv_qp(struct mrc_qp *qp, struct sk_buff *skb,
		       const struct mrc_pkt *pkt,
		       const struct mrc_rx_meta *meta)
{
	u8 opcode = pkt->hdr.opcode;

	if (mrc_qp_is_ud(qp) != mrc_opcode_is(opcode, MRC_OPC_DATAGRAM)) {
		mrc_stats_inc(to_mrc_dev(qp->ibqp.device),
			      MRC_CNT_RX_DROP_QP_STATE);
		kfree_skb(skb);
		return;
	}
	switch (mrc_opcode_class(opcode) & (MRC_OPC_DATAGRAM | MRC_OPC_REQUEST |
					     MRC_OPC_RESPONSE | MRC_OPC_PATH)) {
	case MRC_OPC_DATAGRAM:
		mrc_ud_rcv(qp, skb, pkt, meta);
		break;
	case MRC_OPC_REQUEST:
		if (mrc_qp_is_uc(qp))
			mrc_uc_rcv(qp, skb, pkt, meta);
		else
			mrc_resp_rcv(qp, skb, pkt, meta);
		break;
	case MRC_OPC_RESPONSE:
		/* A UC QP sends no request that is answered. */
		if (mrc_qp_is_uc(qp))
			goto drop;
		mrc_req_rcv(qp, skb, pkt, meta);
		break;
	case MRC_OPC_PATH:
		/* Not a datagram: a UD QP was turned away above. */
		if (opcode == MRC_OP_PROBE)
			mrc_qp_paths_rcv_probe(qp, pkt, meta);
		else if (opcode == MRC_OP_PROBE_REPLY && mrc_qp_is_uc(qp))
			goto drop;
		else if (opcode == MRC_OP_PROBE_REPLY)
			mrc_req_rcv_probe_reply(qp, pkt, meta);
		else
			mrc_qp_paths_rcv_plane_state(qp, pkt, meta);
		break;
	default:
		goto drop;
	}
	consume_skb(skb);
	return;

drop:
	mrc_stats_inc(to_mrc_dev(qp->ibqp.device), MRC_CNT_RX_DROP_QP_STATE);
	kfree_skb(skb);
}

void mrc_rcv(struct mrc_dev *mdev, struct sk_buff *skb,
	     const struct mrc_pkt *pkt, const struct mrc_rx_meta *meta)
{
	struct mrc_qp *qp;

	if (mrc_opcode_is(pkt->hdr.opcode, MRC_OPC_DEVICE)) {
		mrc_ep_rcv(mdev, skb, pkt, meta);
		return;
	}
	qp = mrc_qp_get(mdev, pkt->hdr.dqpn);
	if (!qp) {
		mrc_stats_inc(mdev, MRC_CNT_RX_DROP_NO_QP);
		kfree_skb(skb);
		return;
	}
	mrc_rcv_qp(qp, skb, pkt, meta);
	mrc_qp_put(qp);
}
