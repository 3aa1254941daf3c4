/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Completion queues. The kernel produces completions into a ring; a user
 * CQ's ring is consumed by the provider in userspace, a kernel CQ's by
 * mrc_poll_cq().
 *
 * cq->lock (spinlock, irqsave) guards the producer side, the notification
 * state and which ring the CQ has (a resize switches rings under it);
 * completions are posted from process context, softirq and timers alike,
 * usually under qp->lock.
 *
 * The consumer's handlers (comp_handler, the CQ_ERR event) never run under
 * a lock of ours: a kernel ULP may post, poll or re-arm from them, which
 * takes qp->lock and cq->lock. mrc_cq_post() only records which handlers
 * are due (cq->due); whoever posted calls mrc_cq_notify() once it holds no
 * lock, and that call runs them. Two notifiers racing run each handler
 * once: the first to take cq->lock takes the due bits.
 */
#ifndef MRC_CQ_H
#define MRC_CQ_H

#include <rdma/ib_verbs.h>

#include "mrc_ring.h"

struct mrc_cq {
	struct ib_cq ibcq;
	spinlock_t lock;	/* producer side, notify state, ring */
	struct mrc_ring ring;
	bool user;
	u32 produced;		/* our producer index */
	u32 consumed;		/* kernel CQs: our consumer index */
	u8 notify;		/* armed IB_CQ_SOLICITED or IB_CQ_NEXT_COMP */
	bool overflowed;
	u8 due;			/* handlers owed, for mrc_cq_notify() */
};

static inline struct mrc_cq *to_mrc_cq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct mrc_cq, ibcq);
}

/*
 * Posts one completion; -ENOSPC (and a CQ error event) when full. Any
 * lock may be held; the handlers it makes due run at mrc_cq_notify().
 */
int mrc_cq_post(struct mrc_cq *cq, const struct ib_wc *wc, bool solicited);
/* Runs the handlers that are due. No lock of ours may be held. */
void mrc_cq_notify(struct mrc_cq *cq);

/* Module load: 0, or an error if the cq_selftest parameter is set and fails. */
int mrc_cq_selftest(void);

#endif /* MRC_CQ_H */
