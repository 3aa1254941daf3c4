/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The responder of an RC QP (Documentation/datapath.rst): it accepts
 * request packets into the receive window, places their payload as they
 * arrive, executes READs and atomics and completes receives at the
 * in-order point, and acknowledges. Everything here is guarded by qp->lock.
 */
#ifndef MRC_RESP_H
#define MRC_RESP_H

#include <linux/list.h>
#include <linux/types.h>
#include <rdma/mrc-abi.h>

#include "mrc_param.h"
#include "mrc_receiver.h"
#include "mrc_task.h"

struct mrc_qp;
struct sk_buff;
struct mrc_pkt;
struct mrc_rx_meta;

/*
 * READs and atomics a responder holds at once: those waiting for the
 * in-order point (at most max_dest_rd_atomic) plus READs still sending
 * their responses.
 */
#define MRC_RESP_RD_SLOTS	(2 * MRC_MAX_RD_ATOMIC)
/* Atomic results kept for replay, by MSN: a power of two. */
#define MRC_RESP_ATOMIC_SLOTS	MRC_MAX_RD_ATOMIC

/* What happens when the in-order point passes a PSN (one per PSN). */
enum mrc_resp_action_type {
	MRC_RESP_ACT_NONE,
	MRC_RESP_ACT_RECV,	/* @arg: RSN whose message is all placed */
	MRC_RESP_ACT_RD_ATOMIC,	/* @arg: index in rd[] to execute */
	MRC_RESP_ACT_NAK,	/* fatal NAK @syndrome; @arg: RSN if @recv */
};

struct mrc_resp_action {
	u8 type;		/* enum mrc_resp_action_type */
	u8 syndrome;
	u8 recv;
	u32 arg;
};

/*
 * A receive WQE copied out of the receive queue (or SRQ), with the state
 * of the message that consumes it. Followed by its SGEs.
 */
struct mrc_resp_recv {
	u64 wr_id;
	u64 sge_bytes;		/* bytes its SGEs hold */
	u32 num_sge;
	u32 length;		/* message length, from its first packet */
	u32 placed;		/* payload bytes of the message placed */
	u32 last_psn;		/* highest PSN of the message seen */
	u32 imm;
	u32 inv_rkey;		/* SEND_INV: our rkey it invalidates */
	u8 status;		/* enum ib_wc_status to complete with */
	u8 opcode;		/* MRC_OP_*, 0 until the first packet */
	bool solicited;
	bool ready;		/* the in-order point passed the message */
	struct mrc_sge sge[];
};

/* A READ or atomic request, pending or (READ) sending its responses. */
struct mrc_resp_rd {
	struct list_head node;	/* on rd_free or rd_sending */
	u64 va;
	u64 swap_or_add;
	u64 compare;
	u32 rkey;
	u32 msn;
	u32 psn;
	u32 offset;		/* READ: next byte to send */
	u32 end;		/* READ: end of the requested range */
	u8 opcode;
};

struct mrc_resp_state {
	/* The protocol's decisions: window, answers, in-order point. */
	struct mrc_receiver rcv;
	/* What to do when the in-order point passes a marked PSN. */
	struct mrc_resp_action *actions;	/* [MRC_RX_WINDOW], by PSN */

	/* Receives: RSN n lives at recvs + (n & recv_mask) * recv_stride. */
	u8 *recvs;
	u32 recv_stride;
	u32 recv_mask;
	u32 max_sge;
	u32 rsn_done;		/* receives completed since RTR */
	u32 rsn_fetched;	/* receive WQEs copied since RTR */

	struct mrc_resp_rd *rd;			/* [MRC_RESP_RD_SLOTS] */
	struct list_head rd_free;
	struct list_head rd_sending;		/* READs answering, by MSN */
	u32 rd_pending;		/* waiting for the in-order point */
	/* The receiver core's atomic results: [MRC_RESP_ATOMIC_SLOTS]. */
	struct mrc_receiver_atomic *atomics;

	struct mrc_task task;	/* sends what READs have left */
};

/* Process context: allocate and free a QP's responder state. */
int mrc_resp_init(struct mrc_qp *qp);
void mrc_resp_cleanup(struct mrc_qp *qp);
/*
 * The QP entered RTR: start the receiver at rq_psn. Caller holds qp->lock.
 */
void mrc_resp_start(struct mrc_qp *qp);

/*
 * READ responses may go on (the QP's local queues drained): runs the READ
 * task. Any context but hard IRQ.
 */
void mrc_resp_kick_reads(struct mrc_qp *qp);
/*
 * The QP's receive queue is being flushed (error state): complete with
 * IB_WC_WR_FLUSH_ERR what the responder took from an SRQ. Caller holds
 * qp->lock.
 */
void mrc_resp_flush(struct mrc_qp *qp);
/*
 * A request packet (WRITE*, SEND*, READ_REQ, ATOMIC_*); softirq. Takes
 * qp->lock. The caller keeps @skb and frees it afterwards.
 */
void mrc_resp_rcv(struct mrc_qp *qp, struct sk_buff *skb,
		  const struct mrc_pkt *pkt, const struct mrc_rx_meta *meta);

#endif /* MRC_RESP_H */
