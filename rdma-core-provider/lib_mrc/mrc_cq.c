// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: completion channels and completion queues.
 *
 * An MRC CQ is a verbs CQ whose cq_context is the mrc_cq. Polling hands
 * every completion back with the program's wr_id: the device carries a tag
 * naming the QP's ring and index (mrc_post.c), and a send completion also
 * retires the WRITE with immediate requests before it from the WIMM count.
 */
#include <stdlib.h>
#include <string.h>

#include "mrc_lib.h"

MRC_EXPORT
int mrc_create_comp_channel(struct mrc_context *mrc_ctx,
			    struct mrc_comp_channel **channel)
{
	struct mrc_comp_channel *ch;

	if (!mrc_ctx || !channel)
		return mrc_fail(EINVAL);
	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return mrc_fail(ENOMEM);
	ch->channel = ibv_create_comp_channel(mrc_ctx->vctx);
	if (!ch->channel) {
		int err = errno ? errno : EIO;

		free(ch);
		return mrc_fail(err);
	}
	ch->ctx = mrc_ctx;
	pthread_mutex_lock(&mrc_ctx->lock);
	mrc_ctx->num_channels++;
	pthread_mutex_unlock(&mrc_ctx->lock);
	*channel = ch;
	return 0;
}

MRC_EXPORT
int mrc_get_comp_channel_fd(struct mrc_comp_channel *channel, int *fd)
{
	if (!channel || !fd)
		return mrc_fail(EINVAL);
	pthread_mutex_lock(&channel->ctx->lock);
	*fd = channel->ev_cq ? mrc_ctl_ev_cq_fd(channel->ev_cq) :
			       channel->channel->fd;
	pthread_mutex_unlock(&channel->ctx->lock);
	return 0;
}

MRC_EXPORT
int mrc_destroy_comp_channel(struct mrc_comp_channel *channel)
{
	struct mrc_context *ctx;
	int err;

	if (!channel)
		return mrc_fail_errno(EINVAL);
	ctx = channel->ctx;
	pthread_mutex_lock(&ctx->lock);
	if (channel->num_cqs) {
		pthread_mutex_unlock(&ctx->lock);
		return mrc_fail_errno(EBUSY);
	}
	err = ibv_destroy_comp_channel(channel->channel);
	if (!err)
		ctx->num_channels--;
	pthread_mutex_unlock(&ctx->lock);
	if (err)
		return mrc_fail_errno(err);
	free(channel);
	return 0;
}

MRC_EXPORT
struct mrc_cq *mrc_create_cq(struct mrc_context *mrc_ctx, int cqe,
			     void *cq_context, struct mrc_comp_channel *channel,
			     int comp_vector)
{
	struct mrc_cq *cq;

	if (!mrc_ctx || cqe < 1 || (channel && channel->ctx != mrc_ctx) ||
	    comp_vector < 0 || comp_vector >= mrc_ctx->vctx->num_comp_vectors) {
		errno = EINVAL;
		return NULL;
	}
	cq = calloc(1, sizeof(*cq));
	if (!cq) {
		errno = ENOMEM;
		return NULL;
	}
	cq->cq = ibv_create_cq(mrc_ctx->vctx, cqe, cq,
			       channel ? channel->channel : NULL, comp_vector);
	if (!cq->cq) {
		int err = errno ? errno : EIO;

		free(cq);
		errno = err;
		return NULL;
	}
	cq->ctx = mrc_ctx;
	cq->channel = channel;
	cq->cq_context = cq_context;
	pthread_mutex_lock(&mrc_ctx->lock);
	/* An EV event CQ's channel has its socket's fd: it serves no other. */
	if (channel && channel->ev_cq) {
		pthread_mutex_unlock(&mrc_ctx->lock);
		ibv_destroy_cq(cq->cq);
		free(cq);
		errno = EBUSY;
		return NULL;
	}
	mrc_ctx->num_cqs++;
	if (channel)
		channel->num_cqs++;
	cq->next = mrc_ctx->cqs;
	mrc_ctx->cqs = cq;
	pthread_mutex_unlock(&mrc_ctx->lock);
	return cq;
}

MRC_EXPORT
int mrc_destroy_cq(struct mrc_cq *cq)
{
	struct mrc_context *ctx;
	struct mrc_cq **link;
	int err;

	if (!cq)
		return mrc_fail_errno(EINVAL);
	if (cq->evq)
		return mrc_ctl_ev_cq_destroy(cq);
	ctx = cq->ctx;
	pthread_mutex_lock(&ctx->lock);
	if (cq->num_qps) {
		pthread_mutex_unlock(&ctx->lock);
		return mrc_fail_errno(EBUSY);
	}
	pthread_mutex_unlock(&ctx->lock);
	/* Waits for the CQ's events to be acknowledged: not under our lock. */
	err = ibv_destroy_cq(cq->cq);
	if (err)
		return mrc_fail_errno(err);
	pthread_mutex_lock(&ctx->lock);
	for (link = &ctx->cqs; *link != cq; link = &(*link)->next)
		;
	*link = cq->next;
	ctx->num_cqs--;
	if (cq->channel)
		cq->channel->num_cqs--;
	pthread_mutex_unlock(&ctx->lock);
	free(cq);
	return 0;
}

/*
 * The program's view of one completion; false when it is to be dropped: its
 * QP was destroyed meanwhile, or the tag is not one of ours. The table lock
 * keeps a QP that another thread destroys from being freed under us.
 */
static bool mrc_translate_wc(struct mrc_context *ctx, struct ibv_wc *wc)
{
	struct mrc_wr_ring *ring = NULL;
	bool ok = false;
	struct mrc_qp *qp;
	uint64_t wr_id;

	pthread_rwlock_rdlock(&ctx->qp_table_lock);
	qp = mrc_qp_lookup_locked(ctx, wc->qp_num);
	if (qp && (wc->wr_id & MRC_TAG_KIND) == MRC_TAG_SEND)
		ring = &qp->send;
	else if (qp && (wc->wr_id & MRC_TAG_KIND) == MRC_TAG_RECV)
		ring = &qp->recv;
	if (ring) {
		pthread_spin_lock(&qp->lock);
		ok = mrc_wr_ring_complete(ring, (uint32_t)wc->wr_id, &wr_id);
		pthread_spin_unlock(&qp->lock);
	}
	pthread_rwlock_unlock(&ctx->qp_table_lock);
	if (ok)
		wc->wr_id = wr_id;
	return ok;
}

MRC_EXPORT
int mrc_poll_cq(struct mrc_cq *cq, int num_entries, struct ibv_wc *wc)
{
	int kept = 0;

	/* An EV event CQ is polled with mrc_ctl_poll_ev_event(). */
	if (!cq || !wc || num_entries < 0 || cq->evq)
		return mrc_fail(EINVAL);
	while (kept < num_entries) {
		int want = num_entries - kept, n, i, got = 0;

		n = ibv_poll_cq(cq->cq, want, wc + kept);
		if (n < 0)
			return mrc_fail(EIO);
		for (i = 0; i < n; i++) {
			if (!mrc_translate_wc(cq->ctx, &wc[kept + i]))
				continue;
			if (i != got)
				wc[kept + got] = wc[kept + i];
			got++;
		}
		kept += got;
		/* Fewer than asked: the CQ is empty, as ibv_poll_cq() says. */
		if (n < want)
			break;
	}
	return kept;
}

MRC_EXPORT
int mrc_req_notify_cq(struct mrc_cq *cq, int solicited_only)
{
	int err;

	if (!cq)
		return mrc_fail_errno(EINVAL);
	/* Its socket is readable while events wait: nothing to arm. */
	if (cq->evq)
		return 0;
	err = ibv_req_notify_cq(cq->cq, solicited_only);
	return err ? mrc_fail_errno(err) : 0;
}

MRC_EXPORT
int mrc_get_cq_event(struct mrc_comp_channel *channel, struct mrc_cq **cq,
		     void **cq_context)
{
	struct mrc_cq *ev_cq;
	struct ibv_cq *vcq;
	void *vctx;

	if (!channel || !cq || !cq_context)
		return mrc_fail(EINVAL);
	pthread_mutex_lock(&channel->ctx->lock);
	ev_cq = channel->ev_cq;
	pthread_mutex_unlock(&channel->ctx->lock);
	/* Destroying the event CQ while waiting on it is the caller's bug. */
	if (ev_cq) {
		if (mrc_ctl_ev_cq_wait(ev_cq))
			return -1;
		*cq = ev_cq;
		*cq_context = ev_cq->cq_context;
		return 0;
	}
	if (ibv_get_cq_event(channel->channel, &vcq, &vctx))
		return -1;
	*cq = vctx;
	*cq_context = (*cq)->cq_context;
	return 0;
}

MRC_EXPORT
void mrc_ack_cq_events(struct mrc_cq *cq, unsigned int nevents)
{
	if (cq && nevents && !cq->evq)
		ibv_ack_cq_events(cq->cq, nevents);
}
