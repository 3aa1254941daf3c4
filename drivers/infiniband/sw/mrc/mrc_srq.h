/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Shared receive queues: a receive ring several QPs consume from.
 * srq->lock (spinlock, irqsave) guards the indices and the limit; it nests
 * inside qp->lock and outside cq->lock.
 */
#ifndef MRC_SRQ_H
#define MRC_SRQ_H

#include <rdma/ib_verbs.h>

#include "mrc_ring.h"

struct mrc_srq {
	struct ib_srq ibsrq;
	spinlock_t lock;	/* indices and limit */
	struct mrc_ring rq;
	bool user;
	u32 fetched;
	u32 completed;
	u32 max_sge;
	u32 limit;		/* armed low-water mark, 0 when disarmed */
};

static inline struct mrc_srq *to_mrc_srq(struct ib_srq *ibsrq)
{
	return container_of(ibsrq, struct mrc_srq, ibsrq);
}

#endif /* MRC_SRQ_H */
