// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Receive side of the protocol: where a packet that the transport
 * (mrc_net.c) validated goes. See mrc_net.h for the context mrc_rcv() runs
 * in and the shape of the skb.
 */
#include <linux/skbuff.h>

#include "mrc.h"
#include "mrc_net.h"
#include "mrc_qp.h"
#include "mrc_stats.h"

static bool mrc_opcode_is_datagram(u8 opcode)
{
	return opcode == MRC_OP_UD_SEND || opcode == MRC_OP_UD_SEND_IMM;
}

/*
 * Datagrams go to UD and GSI QPs (mrc_ud.c), and only there. Requests go
 * to an RC QP's responder (mrc_resp.c), responses to its requester
 * (mrc_req.c); each checks the QP's state and peer under qp->lock. None
 * keeps @skb: it is freed here once they return.
 */
static void mrc_rcv_qp(struct mrc_qp *qp, struct sk_buff *skb,
		       const struct mrc_pkt *pkt,
		       const struct mrc_rx_meta *meta)
{
	if (mrc_qp_is_ud(qp) != mrc_opcode_is_datagram(pkt->hdr.opcode)) {
		mrc_stats_inc(to_mrc_dev(qp->ibqp.device),
			      MRC_CNT_RX_DROP_QP_STATE);
		kfree_skb(skb);
		return;
	}
	switch (pkt->hdr.opcode) {
	case MRC_OP_UD_SEND:
	case MRC_OP_UD_SEND_IMM:
		mrc_ud_rcv(qp, skb, pkt, meta);
		break;
	case MRC_OP_WRITE:
	case MRC_OP_WRITE_IMM:
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
	case MRC_OP_READ_REQ:
	case MRC_OP_ATOMIC_CMP_SWAP:
	case MRC_OP_ATOMIC_FETCH_ADD:
		mrc_resp_rcv(qp, skb, pkt, meta);
		break;
	case MRC_OP_ACK:
	case MRC_OP_NAK:
	case MRC_OP_READ_RESP:
	case MRC_OP_ATOMIC_RESP:
		mrc_req_rcv(qp, skb, pkt, meta);
		break;
	case MRC_OP_PROBE:
	case MRC_OP_PROBE_REPLY:
		if (mrc_qp_is_ud(qp)) {
			mrc_stats_inc(to_mrc_dev(qp->ibqp.device),
				      MRC_CNT_RX_DROP_QP_STATE);
			kfree_skb(skb);
			return;
		}
		mrc_qp_paths_rcv_probe(qp, pkt, meta);
		break;
	case MRC_OP_PLANE_STATE:
	case MRC_OP_PLANE_STATE_ACK:
		/* Not a datagram: a UD QP was turned away above. */
		mrc_qp_paths_rcv_plane_state(qp, pkt, meta);
		break;
	default:
		mrc_stats_inc(to_mrc_dev(qp->ibqp.device),
			      MRC_CNT_RX_DROP_QP_STATE);
		kfree_skb(skb);
		return;
	}
	consume_skb(skb);
}

void mrc_rcv(struct mrc_dev *mdev, struct sk_buff *skb,
	     const struct mrc_pkt *pkt, const struct mrc_rx_meta *meta)
{
	struct mrc_qp *qp;

	qp = mrc_qp_get(mdev, pkt->hdr.dqpn);
	if (!qp) {
		mrc_stats_inc(mdev, MRC_CNT_RX_DROP_NO_QP);
		kfree_skb(skb);
		return;
	}
	mrc_rcv_qp(qp, skb, pkt, meta);
	mrc_qp_put(qp);
}
