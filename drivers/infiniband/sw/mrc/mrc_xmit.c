// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * One packet of a connected QP: headers, payload room, transmission.
 */
#include <linux/ktime.h>
#include <linux/skbuff.h>
#include <net/inet_ecn.h>

#include "mrc.h"
#include "mrc_clock.h"
#include "mrc_net.h"
#include "mrc_qp.h"
#include "mrc_stats.h"
#include "mrc_xmit.h"

static void mrc_qp_addrs(struct mrc_qp *qp, struct mrc_net_addr *src,
			 struct mrc_net_addr *dst)
{
	mrc_net_addr_from_gid(&qp->path.sgid, src);
	mrc_net_addr_from_gid(&qp->path.dgid, dst);
}

/* What the sender needs of a built packet, kept in its control block. */
struct mrc_xmit_cb {
	u32 ev;
	u8 tos;		/* DSCP << 2 | ECN */
	bool probe;
};

static struct mrc_xmit_cb *mrc_xmit_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct mrc_xmit_cb) > sizeof(skb->cb));
	return (struct mrc_xmit_cb *)skb->cb;
}

bool mrc_qp_packet_is_probe(const struct sk_buff *skb, u32 *ev)
{
	const struct mrc_xmit_cb *cb = (const struct mrc_xmit_cb *)skb->cb;

	*ev = cb->ev;
	return cb->probe;
}

/*
 * The IP TOS byte (traffic class) of a packet of a connected QP, from the
 * device's settings, not from the QP's GRH traffic class: the DSCPs name
 * the fabric's classes, which the controller knows and the application
 * does not (Documentation/congestion.rst). Packets with payload are data:
 * a trimming switch may cut them to their headers, and they are
 * ECN-capable (ECT(0)) because the receiver echoes CE for congestion
 * control. The rest (ACK, NAK, probes, READ and atomic requests, atomic
 * responses, SENDs of no bytes) is control, headers only, which a trimming
 * switch could not shorten: the priority class, not ECN-capable.
 */
static u8 mrc_xmit_tos(struct mrc_dev *mdev, const struct mrc_pkt *pkt,
		       u32 payload_len)
{
	if (payload_len && mrc_opcode_is(pkt->hdr.opcode, MRC_OPC_DATA))
		return READ_ONCE(mdev->settings.data_dscp) << 2 |
		       INET_ECN_ECT_0;
	return READ_ONCE(mdev->settings.ctrl_dscp) << 2 | INET_ECN_NOT_ECT;
}

struct sk_buff *mrc_qp_new_packet(struct mrc_qp *qp, struct mrc_pkt *pkt,
				  u32 payload_len, u8 **payload, int ev)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_net_addr src, dst;
	struct sk_buff *skb;
	size_t hdr_len;
	u8 *data;

	pkt->hdr.sqpn = qp->ibqp.qp_num;
	pkt->hdr.dqpn = qp->dest_qpn;
	if (ev == MRC_QP_EV_ANY)
		ev = mrc_qp_paths_pick(qp, -1, (u32)mrc_now_us());
	pkt->hdr.ev = ev < 0 ? MRC_QP_EV_NONE : ev;
	pkt->hdr.ts = (u32)mrc_now_us();
	pkt->hdr.payload_len = payload_len;
	hdr_len = mrc_pkt_hdr_len(pkt);
	if (!hdr_len || payload_len > U16_MAX)
		goto bad_packet;

	mrc_qp_addrs(qp, &src, &dst);
	skb = mrc_net_alloc_skb(mdev, &src, &dst, hdr_len + payload_len);
	if (!skb)
		return NULL;
	data = skb_put(skb, hdr_len + payload_len);
	if (mrc_encode(data, hdr_len, pkt) != (int)hdr_len) {
		kfree_skb(skb);
		goto bad_packet;
	}
	*payload = data + hdr_len;
	mrc_xmit_cb(skb)->ev = pkt->hdr.ev;
	mrc_xmit_cb(skb)->tos = mrc_xmit_tos(mdev, pkt, payload_len);
	mrc_xmit_cb(skb)->probe = pkt->hdr.opcode == MRC_OP_PROBE;
	return skb;

bad_packet:
	/* Our own packet failed the codec's checks: a bug, not the peer's. */
	dev_warn_once(&mdev->ib_dev.dev, "unencodable %s packet on QP %u\n",
		      mrc_opcode_name(pkt->hdr.opcode), qp->ibqp.qp_num);
	return NULL;
}

int mrc_qp_send_packet(struct mrc_qp *qp, struct sk_buff *skb)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	u32 ev = mrc_xmit_cb(skb)->ev;

	/* The EV array and its paths do not change while packets go out. */
	if (ev < qp->paths.set.n_evs)
		return mrc_qp_paths_xmit(qp, skb, ev, mrc_xmit_cb(skb)->tos);
	kfree_skb(skb);
	mrc_stats_inc(mdev, MRC_CNT_TX_ERRORS);
	return -EHOSTUNREACH;
}
