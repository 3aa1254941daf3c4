/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unreliable Connected QPs (Documentation/datapath.rst, "Unreliable
 * Connected"). A UC QP sends SEND, SEND_IMM, WRITE and WRITE_IMM messages
 * as the same data packets RC sends (MSGH on every packet, RADDR on
 * WRITEs), one PSN per packet, but keeps no copy, waits for no ACK and
 * retransmits nothing: a send work request completes once the last packet
 * of its message has been built. All its packets take one EV, so that
 * they normally arrive in order.
 *
 * The receiver never answers. It takes a message's packets in PSN order;
 * any gap (a lost or reordered packet, a wrong offset) discards the rest of
 * the message, and it waits for the first packet of a later one. Only a
 * message that arrived whole completes. A receive WQE is taken on the
 * first packet of a SEND or WRITE_IMM and held across discarded messages,
 * as IBTA asks, until a whole message fills it.
 *
 * Locking: everything here runs under qp->lock (mrc_qp.h); packets are
 * sent after it is released.
 */
#ifndef MRC_UC_H
#define MRC_UC_H

#include <linux/types.h>
#include <rdma/mrc-abi.h>

#include "mrc_task.h"

struct mrc_qp;
struct mrc_pkt;
struct mrc_rx_meta;
struct sk_buff;

struct mrc_uc_state {
	/* Sender: the message being cut into packets, a copy of its slot. */
	struct mrc_task task;
	struct mrc_send_wqe wqe;
	struct mrc_sge *tx_sges;	/* [max_send_sge] */
	bool tx_busy;			/* @wqe is being sent */
	u8 tx_opcode;			/* its wire opcode */
	u32 tx_offset;			/* next byte to send */
	u32 tx_length;
	u32 tx_msn;
	u32 tx_psn;
	int ev;				/* the one EV, picked at RTS */

	/* Receiver: the message being received, if any. */
	bool rx_active;
	u8 rx_opcode;
	u32 rx_epsn;			/* the PSN that continues it */
	u32 rx_msn;
	u32 rx_offset;
	u32 rx_length;
	/* The receive WQE taken for a SEND or WRITE_IMM, while held. */
	bool rx_held;
	bool rx_broken;			/* more SGEs than the queue allows */
	u64 rx_wr_id;
	u32 rx_num_sge;
	u64 rx_bytes;
	u32 rx_max_sge;
	struct mrc_sge *rx_sges;	/* [rx_max_sge] */
};

/* Process context: set up and tear down a UC QP's state. */
int mrc_uc_init(struct mrc_qp *qp);
void mrc_uc_cleanup(struct mrc_qp *qp);
/* RTR to RTS (qp->lock held): the EV and the first PSN. */
void mrc_uc_start(struct mrc_qp *qp);
/* RESET to INIT or RTR (qp->lock held): a fresh receiver. */
void mrc_uc_rx_start(struct mrc_qp *qp);
/* New send work requests, or room in the local queues; any context. */
void mrc_uc_kick(struct mrc_qp *qp);
/* The opcodes a UC QP carries, for the kernel post_send. */
bool mrc_uc_send_opcode_ok(u32 wr_opcode);
/* ERR: a held receive WQE of an SRQ is flushed here (qp->lock held). */
void mrc_uc_flush(struct mrc_qp *qp);
/* A data packet for this QP; softirq. Takes qp->lock. */
void mrc_uc_rcv(struct mrc_qp *qp, struct sk_buff *skb,
		const struct mrc_pkt *pkt, const struct mrc_rx_meta *meta);

#endif /* MRC_UC_H */
