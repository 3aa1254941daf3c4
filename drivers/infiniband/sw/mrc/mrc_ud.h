/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Datagram QPs: UD, and GSI (QPN 1, ib_mad's QP for the CM and other
 * management datagrams). Documentation/datapath.rst, "Datagrams".
 *
 * A datagram is one UD_SEND or UD_SEND_IMM packet: no PSN tracking, no
 * acknowledgment, no retransmission. A send work request completes once
 * its packet is built (its bytes are copied); a lost datagram is the
 * application's problem, as in IB. A received datagram takes the next
 * receive WQE, which gets the 40-byte GRH area (for IPv4 the IPv4 header
 * in its last 20 bytes) and then the payload.
 *
 * Locking: everything here runs under qp->lock, as the RC data path does
 * (mrc_qp.h); packets are sent after it is released.
 */
#ifndef MRC_UD_H
#define MRC_UD_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>
#include <rdma/mrc-abi.h>

#include "mrc_task.h"

struct mrc_qp;
struct mrc_pkt;
struct mrc_rx_meta;
struct sk_buff;

/* The IB Q_Key of QP1; ib_mad sets it, senders to QP1 use it. */
#define MRC_GSI_QKEY		0x80010000u
/* A work request's Q_Key with this bit set means "the QP's own Q_Key". */
#define MRC_QKEY_USE_QP		0x80000000u

struct mrc_ud_state {
	struct mrc_task task;		/* sends what the send queue holds */
	struct mrc_sge *tx_sges;	/* [max_send_sge]: one slot's SGEs */
	struct mrc_sge *rx_sges;	/* [receive max_sge]: one WQE's SGEs */
	u32 rx_max_sge;
	u32 next_psn;			/* numbers datagrams, for traces only */
};

static inline bool mrc_qp_type_is_ud(enum ib_qp_type type)
{
	return type == IB_QPT_UD || type == IB_QPT_GSI;
}

/* Process context: set up and tear down a UD or GSI QP's datagram state. */
int mrc_ud_init(struct mrc_qp *qp);
void mrc_ud_cleanup(struct mrc_qp *qp);
/*
 * New send work requests, or the QP reached RTS. Any context but a hard
 * IRQ handler (mrc_task_kick()).
 */
void mrc_ud_kick(struct mrc_qp *qp);
/* post_send's doorbell: sends in the caller's task when it may. */
void mrc_ud_doorbell(struct mrc_qp *qp);
/*
 * Kernel post_send: the destination part of a UD slot from @wr (opcode
 * already written). -EINVAL for an opcode a datagram cannot carry.
 */
int mrc_ud_fill_wqe(struct mrc_send_wqe *wqe, const struct ib_send_wr *wr);
/* A UD_SEND or UD_SEND_IMM for this QP; softirq. Takes qp->lock. */
void mrc_ud_rcv(struct mrc_qp *qp, struct sk_buff *skb,
		const struct mrc_pkt *pkt, const struct mrc_rx_meta *meta);

#endif /* MRC_UD_H */
