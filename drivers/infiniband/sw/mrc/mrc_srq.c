// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Shared receive queue verbs.
 */
#include <linux/log2.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/mrc-abi.h>

#include "mrc.h"
#include "mrc_srq.h"

static u32 mrc_srq_slot_size(u32 max_sge)
{
	return roundup_pow_of_two(sizeof(struct mrc_recv_wqe) +
				  max_t(u32, max_sge, 1) *
				  sizeof(struct mrc_sge));
}

static int mrc_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
			  struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mrc_dev(ibsrq->device);
	struct mrc_srq *srq = to_mrc_srq(ibsrq);
	struct mrc_create_srq_resp resp = {};
	struct ib_ucontext *ucontext;
	struct ib_srq_attr *attr = &init->attr;
	u32 slot;
	int err;

	if (init->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	if (!attr->max_wr || attr->max_wr > MRC_MAX_SRQ_WR ||
	    attr->max_sge > MRC_MAX_SRQ_SGE)
		return -EINVAL;
	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EOPNOTSUPP;
	err = mrc_ring_ucontext(udata, sizeof(resp), &ucontext);
	if (err)
		return err;

	if (atomic_inc_return(&mdev->num_srqs) > MRC_MAX_SRQ) {
		err = -ENOMEM;
		goto err_count;
	}

	spin_lock_init(&srq->lock);
	srq->user = !!udata;
	slot = mrc_srq_slot_size(attr->max_sge);
	err = mrc_ring_create(&srq->rq, attr->max_wr, slot, ucontext,
			      &resp.rq);
	if (err)
		goto err_count;
	attr->max_wr = srq->rq.num_slots;
	attr->max_sge = min_t(u32, (slot - sizeof(struct mrc_recv_wqe)) /
			      sizeof(struct mrc_sge), MRC_MAX_SRQ_SGE);
	srq->max_sge = attr->max_sge;

	if (udata) {
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			goto err_ring;
	}
	return 0;

err_ring:
	mrc_ring_destroy(&srq->rq);
err_count:
	atomic_dec(&mdev->num_srqs);
	return err;
}

static int mrc_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
			  enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct mrc_srq *srq = to_mrc_srq(ibsrq);
	unsigned long flags;

	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EOPNOTSUPP;
	/* Resizing a ring userspace has mapped is not supported. */
	if (mask & IB_SRQ_MAX_WR)
		return -EOPNOTSUPP;
	if (mask & ~IB_SRQ_LIMIT)
		return -EINVAL;
	if (mask & IB_SRQ_LIMIT) {
		if (attr->srq_limit >= srq->rq.num_slots)
			return -EINVAL;
		spin_lock_irqsave(&srq->lock, flags);
		srq->limit = attr->srq_limit;
		spin_unlock_irqrestore(&srq->lock, flags);
	}
	return 0;
}

static int mrc_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct mrc_srq *srq = to_mrc_srq(ibsrq);

	attr->max_wr = srq->rq.num_slots;
	attr->max_sge = srq->max_sge;
	attr->srq_limit = READ_ONCE(srq->limit);
	return 0;
}

static int mrc_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct mrc_srq *srq = to_mrc_srq(ibsrq);

	mrc_ring_destroy(&srq->rq);
	atomic_dec(&to_mrc_dev(ibsrq->device)->num_srqs);
	return 0;
}

static int mrc_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
			     const struct ib_recv_wr **bad_wr)
{
	struct mrc_srq *srq = to_mrc_srq(ibsrq);
	unsigned long flags;
	int err = 0;

	if (srq->user) {
		*bad_wr = wr;
		return -EINVAL;
	}

	spin_lock_irqsave(&srq->lock, flags);
	err = mrc_ring_post_recvs(&srq->rq, srq->completed, srq->max_sge, &wr);
	spin_unlock_irqrestore(&srq->lock, flags);
	if (err)
		*bad_wr = wr;
	return err;
}

const struct ib_device_ops mrc_srq_ops = {
	.create_srq = mrc_create_srq,
	.destroy_srq = mrc_destroy_srq,
	.modify_srq = mrc_modify_srq,
	.post_srq_recv = mrc_post_srq_recv,
	.query_srq = mrc_query_srq,

	INIT_RDMA_OBJ_SIZE(ib_srq, mrc_srq, ibsrq),
};
