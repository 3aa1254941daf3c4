/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * soft-MRC provider: the ibv_wr_* posting API (struct ibv_qp_ex), a second
 * front end on the send WQE steps of mrc_fastpath.h.
 *
 * As in mrc_fastpath.c, nothing here locks or makes a system call: the QP
 * (mrc_qp.c) supplies ibv_wr_start(), ibv_wr_complete() and ibv_wr_abort(),
 * which hold its send queue lock from start to complete or abort, check
 * the QP's state and ring the doorbell, around mrc_wr_batch_*() below.
 */
#ifndef MRC_PROVIDER_WR_H
#define MRC_PROVIDER_WR_H

#include <stdint.h>

#include <infiniband/verbs.h>

#include "mrc_fastpath.h"

/*
 * The send queue behind an ibv_qp_ex whose ops mrc_wr_init() set. Defined
 * by the QP's owner (mrc_qp.c), which knows where the two live; the unit
 * tests define their own.
 */
struct mrc_sq *mrc_qp_ex_sq(struct ibv_qp_ex *qpx);

/*
 * Whether a QP of this type can be created with these send_ops_flags:
 * 0, EOPNOTSUPP for an operation mrc does not have (TSO, atomic write,
 * flush, and any flag unknown here), or
 * EINVAL for one its type cannot carry (RDMA and atomics on UD).
 */
int mrc_wr_check_send_ops(enum ibv_qp_type qp_type, uint64_t send_ops_flags);

/*
 * Sets qpx's WR builders and setters (all but wr_start, wr_complete and
 * wr_abort) and the operations sq's batches may use.
 */
void mrc_wr_init(struct ibv_qp_ex *qpx, struct mrc_sq *sq,
		 uint64_t send_ops_flags);

/* ibv_wr_start(): a batch begins at the ring's index. */
void mrc_wr_batch_start(struct mrc_sq *sq);

/*
 * ibv_wr_complete(): finishes the last WQE and publishes the batch, or,
 * if any call of the batch failed, gives its slots back and returns that
 * first error. *posted counts the WQEs published, which decides the
 * doorbell.
 */
int mrc_wr_batch_end(struct mrc_sq *sq, uint32_t *posted);

/* ibv_wr_abort(), or a complete refused: nothing of the batch is posted. */
void mrc_wr_batch_abort(struct mrc_sq *sq);

#endif /* MRC_PROVIDER_WR_H */
