/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Building and sending one packet of a connected QP, for the requester and
 * the responder alike. Process or softirq context, never with hard IRQs
 * disabled: the IP output path re-enables bottom halves, which must not
 * happen under spin_lock_irqsave(). The data path therefore takes qp->lock
 * with spin_lock_bh() (or plain spin_lock() in softirq), or builds packets
 * under the lock and sends them after releasing it.
 */
#ifndef MRC_XMIT_H
#define MRC_XMIT_H

#include <linux/skbuff.h>

#include "mrc_wire.h"

struct mrc_qp;

/* @ev for mrc_qp_new_packet(): pick one now. */
#define MRC_QP_EV_ANY		(-1)
/* The header's EV when no path is usable: the packet is not sent. */
#define MRC_QP_EV_NONE		0xffffu

/*
 * Fills the base header fields every packet of @qp shares (source and
 * destination QPN, EV, timestamp, declared payload length @payload_len),
 * allocates an skb, encodes the headers of @pkt into it and reserves
 * @payload_len bytes after them, returned in *@payload. NULL when out of
 * memory or when @pkt does not encode (a bug: it is logged once).
 * The packet goes on EV @ev, an index mrc_qp_paths_pick() returned (or
 * negative: none usable), or MRC_QP_EV_ANY to pick one; the caller holds
 * qp->lock.
 */
struct sk_buff *mrc_qp_new_packet(struct mrc_qp *qp, struct mrc_pkt *pkt,
				  u32 payload_len, u8 **payload, int ev);

/*
 * Sends @skb on the EV it was built for; always consumes it. A packet
 * built with no usable EV is dropped (-EHOSTUNREACH): the requester's
 * timer retransmits it.
 */
int mrc_qp_send_packet(struct mrc_qp *qp, struct sk_buff *skb);

/*
 * Whether @skb, built by mrc_qp_new_packet() and not yet sent, is a PROBE;
 * its EV in *@ev when it is.
 */
bool mrc_qp_packet_is_probe(const struct sk_buff *skb, u32 *ev);

#endif /* MRC_XMIT_H */
