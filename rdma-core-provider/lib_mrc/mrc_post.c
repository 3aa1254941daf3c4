// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: posting work requests.
 *
 * Sends are RDMA WRITE and WRITE with immediate only; any other opcode is
 * refused with EOPNOTSUPP. A WRITE with immediate beyond the QP's max_wimm
 * in flight is refused with EAGAIN: it may be posted again once earlier
 * ones complete. As with ibv_post_send(), the requests before the refused
 * one are posted and *bad_wr names it.
 *
 * Each request's wr_id is recorded in the QP's ring and the device carries
 * a tag in its place (restored in the program's request before returning).
 */
#include "mrc_lib.h"

#define MRC_SEND_FLAGS							\
	(IBV_SEND_SIGNALED | IBV_SEND_SOLICITED | IBV_SEND_INLINE |	\
	 IBV_SEND_FENCE)

static int mrc_send_check(const struct mrc_qp *qp, const struct ibv_send_wr *wr,
			  uint32_t room, uint32_t wimm_in_flight)
{
	bool wimm = wr->opcode == IBV_WR_RDMA_WRITE_WITH_IMM;

	if (wr->opcode != IBV_WR_RDMA_WRITE && !wimm)
		return EOPNOTSUPP;
	if (wr->send_flags & ~MRC_SEND_FLAGS || wr->num_sge < 0 ||
	    (wr->num_sge && !wr->sg_list))
		return EINVAL;
	if (!room)
		return ENOMEM;
	if (wimm && qp->attr.wimm.max_wimm &&
	    wimm_in_flight >= qp->attr.wimm.max_wimm)
		return EAGAIN;
	return 0;
}

MRC_EXPORT
int mrc_post_send(struct mrc_qp *qp, struct ibv_send_wr *wr,
		  struct ibv_send_wr **bad_wr)
{
	struct ibv_send_wr *w, *last = NULL, *refused = NULL, *dev_bad = NULL;
	uint32_t room, wimm;
	int err = 0, dev_err = 0;

	if (!qp || !wr || !bad_wr)
		return mrc_fail_errno(EINVAL);

	pthread_spin_lock(&qp->lock);
	room = mrc_wr_ring_free_slots(&qp->send);
	wimm = qp->send.wimm_in_flight;
	for (w = wr; w; last = w, w = w->next) {
		err = mrc_send_check(qp, w, room, wimm);
		if (err) {
			refused = w;
			break;
		}
		room--;
		if (w->opcode == IBV_WR_RDMA_WRITE_WITH_IMM)
			wimm++;
	}
	if (last) {
		/* Post the accepted prefix alone, tagged. */
		struct ibv_send_wr *after = last->next;

		last->next = NULL;
		for (w = wr; w; w = w->next) {
			uint32_t i = mrc_wr_ring_push(&qp->send, w->wr_id,
						      w->opcode == IBV_WR_RDMA_WRITE_WITH_IMM);
			w->wr_id = mrc_tag(MRC_TAG_SEND, i);
		}
		dev_err = ibv_post_send(qp->qp, wr, &dev_bad);
		/* Give the program its wr_ids back, and forget what failed. */
		for (w = wr; w; w = w->next) {
			uint32_t i = (uint32_t)w->wr_id;

			if (dev_err && w == dev_bad)
				mrc_wr_ring_unpush(&qp->send, i);
			w->wr_id = qp->send.slots[i & (qp->send.num_slots - 1)].wr_id;
		}
		last->next = after;
	}
	pthread_spin_unlock(&qp->lock);

	if (dev_err) {
		*bad_wr = dev_bad;
		return mrc_fail_errno(dev_err);
	}
	if (err) {
		*bad_wr = refused;
		return mrc_fail_errno(err);
	}
	return 0;
}

MRC_EXPORT
int mrc_post_recv(struct mrc_qp *qp, struct ibv_recv_wr *wr,
		  struct ibv_recv_wr **bad_wr)
{
	struct ibv_recv_wr *w, *last = NULL, *refused = NULL, *dev_bad = NULL;
	int err = 0, dev_err = 0;
	uint32_t room;

	if (!qp || !wr || !bad_wr)
		return mrc_fail(EINVAL);

	pthread_spin_lock(&qp->lock);
	room = mrc_wr_ring_free_slots(&qp->recv);
	for (w = wr; w; last = w, w = w->next) {
		if (w->num_sge < 0 || (w->num_sge && !w->sg_list))
			err = EINVAL;
		else if (!room)
			err = ENOMEM;
		if (err) {
			refused = w;
			break;
		}
		room--;
	}
	if (last) {
		struct ibv_recv_wr *after = last->next;

		last->next = NULL;
		for (w = wr; w; w = w->next)
			w->wr_id = mrc_tag(MRC_TAG_RECV,
					   mrc_wr_ring_push(&qp->recv, w->wr_id, false));
		dev_err = ibv_post_recv(qp->qp, wr, &dev_bad);
		for (w = wr; w; w = w->next) {
			uint32_t i = (uint32_t)w->wr_id;

			if (dev_err && w == dev_bad)
				mrc_wr_ring_unpush(&qp->recv, i);
			w->wr_id = qp->recv.slots[i & (qp->recv.num_slots - 1)].wr_id;
		}
		last->next = after;
	}
	pthread_spin_unlock(&qp->lock);

	if (dev_err) {
		*bad_wr = dev_bad;
		return mrc_fail(dev_err);
	}
	if (err) {
		*bad_wr = refused;
		return mrc_fail(err);
	}
	return 0;
}
