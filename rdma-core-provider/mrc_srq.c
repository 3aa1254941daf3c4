// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * soft-MRC libibverbs provider: shared receive queues.
 *
 * An SRQ is a receive ring we map at creation and post into without the
 * kernel, as a QP's receive queue. Only basic SRQs: XRC and tag matching
 * (create_srq_ex) keep the EOPNOTSUPP default. The ring cannot be resized,
 * since userspace has it mapped; the limit can be armed.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "mrc.h"
#include "mrc_fastpath.h"

struct mrc_srq {
	struct ibv_srq ibv_srq;
	/* Makes each post_srq_recv() the ring's only producer. */
	pthread_spinlock_t lock;
	struct mrc_rq rq;
};

/*
 * CREATE_SRQ response as the kernel writes it; see mrc_create_cq_resp_full
 * in mrc_cq.c for why the core fields are spelled out.
 */
struct mrc_create_srq_resp_full {
	__u32 srq_handle;
	__u32 max_wr;
	__u32 max_sge;
	__u32 srqn;
	struct mrc_create_srq_resp drv;
};

_Static_assert(offsetof(struct mrc_create_srq_resp_full, srq_handle) ==
	       offsetof(struct ib_uverbs_create_srq_resp, srq_handle) &&
	       offsetof(struct mrc_create_srq_resp_full, srqn) ==
	       offsetof(struct ib_uverbs_create_srq_resp, srqn),
	       "core CREATE_SRQ response fields moved");
_Static_assert(offsetof(struct mrc_create_srq_resp_full, drv) ==
	       sizeof(struct ib_uverbs_create_srq_resp),
	       "mrc tail does not start where CREATE_SRQ driver data does");

static struct mrc_srq *to_mrc_srq(struct ibv_srq *ibsrq)
{
	return mrc_container_of(ibsrq, struct mrc_srq, ibv_srq);
}

static void mrc_srq_free(struct mrc_srq *srq)
{
	pthread_spin_destroy(&srq->lock);
	free(srq);
}

static struct ibv_srq *mrc_create_srq(struct ibv_pd *pd,
				      struct ibv_srq_init_attr *attr)
{
	struct mrc_create_srq_resp_full resp = {};
	struct mrc_srq *srq;
	int err;

	srq = calloc(1, sizeof(*srq));
	if (!srq)
		return NULL;
	if (pthread_spin_init(&srq->lock, PTHREAD_PROCESS_PRIVATE)) {
		free(srq);
		errno = ENOMEM;
		return NULL;
	}

	/* On success attr->attr holds the max_wr and max_sge granted. */
	err = ibv_cmd_create_srq(pd, &srq->ibv_srq, attr, NULL, 0,
				 (struct ib_uverbs_create_srq_resp *)&resp,
				 sizeof(resp));
	if (err) {
		mrc_srq_free(srq);
		errno = err;
		return NULL;
	}

	err = mrc_uring_map(&srq->rq.ring, pd->context->cmd_fd, &resp.drv.rq,
			    attr->attr.max_wr,
			    mrc_recv_slot_min_size(attr->attr.max_sge),
			    MRC_URING_PRODUCER);
	if (err) {
		ibv_cmd_destroy_srq(&srq->ibv_srq);
		mrc_srq_free(srq);
		errno = err;
		return NULL;
	}
	srq->rq.max_wr = attr->attr.max_wr;
	srq->rq.max_sge = attr->attr.max_sge;
	return &srq->ibv_srq;
}

static int mrc_modify_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr,
			  int attr_mask)
{
	struct mrc_srq *srq = to_mrc_srq(ibsrq);
	struct verbs_cmd_modify_srq cmd = {};

	if (attr_mask & ~(IBV_SRQ_MAX_WR | IBV_SRQ_LIMIT))
		return EINVAL;
	/*
	 * A resize cannot move a ring the application has mapped; asking
	 * for the size it already has is no resize, and passes.
	 */
	if (attr_mask & IBV_SRQ_MAX_WR) {
		if (attr->max_wr != srq->rq.max_wr)
			return EINVAL;
		attr_mask &= ~IBV_SRQ_MAX_WR;
	}
	if (!attr_mask)
		return 0;

	return ibv_cmd_modify_srq(ibsrq, attr, attr_mask, &cmd, sizeof(cmd));
}

static int mrc_query_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr)
{
	struct verbs_cmd_query_srq cmd = {};

	return ibv_cmd_query_srq(ibsrq, attr, &cmd, sizeof(cmd));
}

static int mrc_destroy_srq(struct ibv_srq *ibsrq)
{
	struct mrc_srq *srq = to_mrc_srq(ibsrq);
	int ret;

	/* On failure the SRQ lives on and may still be posted to. */
	ret = ibv_cmd_destroy_srq(ibsrq);
	if (ret)
		return ret;

	mrc_uring_unmap(&srq->rq.ring);
	mrc_srq_free(srq);
	return 0;
}

static int mrc_post_srq_recv(struct ibv_srq *ibsrq, struct ibv_recv_wr *wr,
			     struct ibv_recv_wr **bad_wr)
{
	struct mrc_srq *srq = to_mrc_srq(ibsrq);
	uint32_t posted;
	int err;

	/* No doorbell: the kernel takes from the SRQ when a message needs it. */
	pthread_spin_lock(&srq->lock);
	err = mrc_rq_post(&srq->rq, wr, bad_wr, &posted);
	pthread_spin_unlock(&srq->lock);
	return err;
}

/* Set by alloc_context; verbs_set_ops() merges it with the other tables. */
const struct verbs_context_ops mrc_srq_context_ops = {
	.create_srq = mrc_create_srq,
	.destroy_srq = mrc_destroy_srq,
	.modify_srq = mrc_modify_srq,
	.post_srq_recv = mrc_post_srq_recv,
	.query_srq = mrc_query_srq,
};
