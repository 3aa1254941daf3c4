/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Queue pairs: the verbs object, its work queues and its state machine.
 *
 * Work queues are rings userspace (or, for a kernel QP, mrc_post_send() and
 * mrc_post_recv()) produces into. The kernel keeps two indices per queue:
 * *_fetched, the next slot it will copy out (it never reads a slot twice, so
 * a producer rewriting a slot cannot change a request under us), and
 * *_completed, published as the ring's consumer index when a request
 * completes; the slots in between are owned by the kernel.
 *
 * qp->lock (spinlock) guards the state, the stored attributes, the queue
 * indices and the requester and responder state. Its context is softirq:
 * every holder has bottom halves off, and no hard IRQ handler takes it.
 * The data path, which sends packets, takes it with spin_lock_bh() or, in
 * softirq, spin_lock(): the IP output path must not run with hard IRQs
 * disabled (mrc_xmit.h). The verbs take it with irqsave only because a
 * kernel ULP may call them with IRQs disabled (under its own irqsave lock);
 * that is the same context, as IRQs off implies BHs off. Kernel ULPs may
 * therefore post from process or softirq context, with or without IRQs
 * disabled, but not from a hard IRQ handler, which could interrupt a
 * holder on its own CPU.
 * Completions are posted to CQs with qp->lock held; lock order:
 * qp->lock -> srq->lock -> cq->lock. No ULP callback runs under any of
 * them: completion handlers run from mrc_qp_notify() and QP, SRQ and CQ
 * events are raised after the lock is dropped (mrc_cq.h).
 *
 * Lifetime: a QP is in mdev->qps from creation until destroy, where it is
 * removed first. Lookups (the receive path, netlink, debugfs, the plane
 * work) take a reference with mrc_qp_get() under the table's lock, so that
 * the erase in destroy orders them: a lookup before it holds a reference,
 * which destroy waits for; one after it finds nothing. RCU cannot be used:
 * ib_core frees the QP as soon as destroy_qp returns, with no grace period,
 * and a synchronize_rcu() per destroy would cost milliseconds per QP when a
 * process tearing down thousands of QPs exits. The lock is a short irqsave
 * leaf, taken once per received packet.
 */
#ifndef MRC_QP_H
#define MRC_QP_H

#include <linux/completion.h>
#include <linux/refcount.h>
#include <rdma/ib_verbs.h>

#include "mrc_req.h"
#include "mrc_resp.h"
#include "mrc_ring.h"
#include "mrc_uc.h"
#include "mrc_ud.h"
#include "mrc_qp_paths.h"

struct mrc_cq;
struct mrc_srq;
struct mrc_pkt;
struct mrc_rx_meta;
struct mrc_txq;

/* Where a connected QP sends: from the GID it was given, to its peer's. */
struct mrc_qp_path {
	union ib_gid sgid;
	union ib_gid dgid;
	u32 flow_label;
	u8 traffic_class;
	u8 hop_limit;
};

struct mrc_qp {
	struct ib_qp ibqp;
	refcount_t refs;		/* mdev->qps' one, plus readers' */
	struct completion unreferenced;

	spinlock_t lock;	/* state, attributes, indices */
	enum ib_qp_state state;
	bool user;
	bool sq_sig_all;

	struct mrc_ring sq;
	u32 sq_fetched;
	u32 sq_completed;
	u32 max_send_sge;
	u32 max_inline_data;

	struct mrc_ring rq;		/* unused with an SRQ */
	u32 rq_fetched;
	u32 rq_completed;
	u32 max_recv_sge;

	/* Connection attributes, valid from the states that need them. */
	struct mrc_qp_path path;
	u32 dest_qpn;
	u32 sq_psn;
	u32 rq_psn;
	enum ib_mtu path_mtu;
	int access_flags;
	u8 timeout;
	u8 retry_cnt;
	/* RC: timeouts after retry_cnt's (struct mrc_modify_qp_mrc). */
	u8 exp_retry_cnt;
	/* RC: the requester's PSN window in MRC_MPR_PSNS; 0: all of it. */
	u8 mpr;
	/* RC: the responder's reordering window, the same way (MPR_DEST). */
	u8 mpr_dest;
	/* RC: the peer takes no NAK(trimmed) (MRC_QP_F_NO_TRIM_NAK). */
	bool no_trim_nak;
	u8 rnr_retry;
	u8 min_rnr_timer;
	u8 max_rd_atomic;
	u8 max_dest_rd_atomic;
	u32 qkey;			/* UD and GSI */

	/* RC: requester and responder. UD and GSI: the datagram state. */
	struct mrc_req_state req;	/* mrc_req.c */
	struct mrc_resp_state resp;	/* mrc_resp.c */
	struct mrc_ud_state ud;		/* mrc_ud.c */
	struct mrc_uc_state uc;		/* mrc_uc.c */
	/*
	 * RC: the local transmit budget (mrc_txq.h) that the requester and
	 * the READ responder share; packets leaving it wake both. UC: its
	 * send task's.
	 */
	struct mrc_txq *txq;

	/* RC: the EVs it sprays over; UC: its one EV among them. */
	struct mrc_qp_paths paths;
};

static inline struct mrc_qp *to_mrc_qp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct mrc_qp, ibqp);
}

/* A datagram QP (UD or GSI), which has no requester nor responder. */
static inline bool mrc_qp_is_ud(const struct mrc_qp *qp)
{
	return mrc_qp_type_is_ud(qp->ibqp.qp_type);
}

/* A UC QP: connected, but with neither requester nor responder. */
static inline bool mrc_qp_is_uc(const struct mrc_qp *qp)
{
	return qp->ibqp.qp_type == IB_QPT_UC;
}

/*
 * Moves the QP to the error state and flushes both work queues; the caller
 * holds qp->lock. The data path calls it on a fatal error.
 */
void mrc_qp_error(struct mrc_qp *qp);
/*
 * A received packet comes from the QP's peer: its source QPN and both IP
 * addresses are those the QP was connected with.
 */
bool mrc_qp_from_peer(struct mrc_qp *qp, const struct mrc_pkt *pkt,
		      const struct mrc_rx_meta *meta);
/* The completion opcode of a send work request's opcode. */
enum ib_wc_opcode mrc_send_wc_opcode(u32 wr_opcode);
/* Payload bytes per packet: the path MTU capped by the port's active MTU. */
u32 mrc_qp_payload_mtu(struct mrc_qp *qp);

/*
 * Runs the completion handlers of the QP's CQs that became due while
 * qp->lock was held; called after dropping it (mrc_cq.h).
 */
void mrc_qp_notify(struct mrc_qp *qp);

/* The QP with @qpn and a reference on it, or NULL. Any context. */
struct mrc_qp *mrc_qp_get(struct mrc_dev *mdev, u32 qpn);
void mrc_qp_put(struct mrc_qp *qp);

#endif /* MRC_QP_H */
