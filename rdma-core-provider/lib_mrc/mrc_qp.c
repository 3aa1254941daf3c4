// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: MRC queue pairs.
 *
 * An MRC QP is an RC QP of the mrc device (every RC QP there sprays over
 * paths, retransmits selectively and runs NSCC) plus the MRC attributes the
 * library keeps and enforces. mrc_modify_qp() takes the verbs attributes
 * that are the program's to give (state, access, address vector, MTU, QP
 * numbers, PSNs) and supplies the rest itself: port 1, no READ or atomic
 * resources, the MRC timeout and linear retry count converted to the
 * verbs ones, and RNR retried without end (an MRC QP never fails on a
 * missing receive). Verbs attributes the API says are not MRC's are
 * ignored (Documentation/mrc-api.rst).
 */
#include <stdlib.h>
#include <string.h>

#include "mrc_lib.h"

/* Verbs attributes the API leaves out; the library sets its own. */
#define MRC_IBV_NOT_MRC							\
	(IBV_QP_PORT | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |		\
	 IBV_QP_RNR_RETRY | IBV_QP_MIN_RNR_TIMER |			\
	 IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_MAX_DEST_RD_ATOMIC |		\
	 IBV_QP_ALT_PATH | IBV_QP_PATH_MIG_STATE)

#define MRC_SEND_OPS	(IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM)

static unsigned int mrc_bucket(uint32_t qpn)
{
	return qpn % MRC_LIB_QP_BUCKETS;
}

/* The caller holds ctx->qp_table_lock, which keeps the QP from being freed. */
struct mrc_qp *mrc_qp_lookup_locked(struct mrc_context *ctx, uint32_t qpn)
{
	struct mrc_qp *qp;

	for (qp = ctx->qp_table[mrc_bucket(qpn)]; qp; qp = qp->hash_next)
		if (qp->qpn == qpn)
			break;
	return qp;
}

struct mrc_qp *mrc_qp_lookup(struct mrc_context *ctx, uint32_t qpn)
{
	struct mrc_qp *qp;

	pthread_rwlock_rdlock(&ctx->qp_table_lock);
	qp = mrc_qp_lookup_locked(ctx, qpn);
	pthread_rwlock_unlock(&ctx->qp_table_lock);
	return qp;
}

static void mrc_qp_table_add(struct mrc_context *ctx, struct mrc_qp *qp)
{
	unsigned int b = mrc_bucket(qp->qpn);

	pthread_rwlock_wrlock(&ctx->qp_table_lock);
	qp->hash_next = ctx->qp_table[b];
	ctx->qp_table[b] = qp;
	pthread_rwlock_unlock(&ctx->qp_table_lock);
}

static void mrc_qp_table_del(struct mrc_context *ctx, struct mrc_qp *qp)
{
	struct mrc_qp **link;

	pthread_rwlock_wrlock(&ctx->qp_table_lock);
	for (link = &ctx->qp_table[mrc_bucket(qp->qpn)]; *link != qp;
	     link = &(*link)->hash_next)
		;
	*link = qp->hash_next;
	pthread_rwlock_unlock(&ctx->qp_table_lock);
}

static int mrc_qp_init_check(struct mrc_context *ctx,
			     const struct mrc_qp_init_attr *a)
{
	if (!a->send_cq || !a->recv_cq || !a->pd ||
	    a->send_cq->ctx != ctx || a->recv_cq->ctx != ctx ||
	    a->pd->context != ctx->vctx)
		return EINVAL;
	if (a->protocol_version != MRC_PROTOCOL_VERSION_0 &&
	    a->protocol_version != MRC_PROTOCOL_VERSION_1)
		return EINVAL;
	/* A device version bit we do not claim (mrc_device_query.c). */
	if (a->protocol_version & ~ctx->dev_attr.mrc_protocol_version)
		return EPROTONOSUPPORT;
	if (a->send_ops_flags & ~(uint64_t)MRC_SEND_OPS)
		return EOPNOTSUPP;
	return 0;
}

MRC_EXPORT
struct mrc_qp *mrc_create_qp(struct mrc_context *mrc_ctx,
			     struct mrc_qp_init_attr *mrc_qp_attr)
{
	struct ibv_qp_init_attr ia;
	struct mrc_qp *qp;
	int err;

	if (!mrc_ctx || !mrc_qp_attr) {
		errno = EINVAL;
		return NULL;
	}
	err = mrc_qp_init_check(mrc_ctx, mrc_qp_attr);
	if (err) {
		errno = err;
		return NULL;
	}
	qp = calloc(1, sizeof(*qp));
	if (!qp) {
		errno = ENOMEM;
		return NULL;
	}
	memset(&ia, 0, sizeof(ia));
	ia.qp_context = qp;
	ia.send_cq = mrc_qp_attr->send_cq->cq;
	ia.recv_cq = mrc_qp_attr->recv_cq->cq;
	ia.cap = mrc_qp_attr->cap;
	ia.qp_type = IBV_QPT_RC;
	ia.sq_sig_all = mrc_qp_attr->sq_sig_all;
	qp->qp = ibv_create_qp(mrc_qp_attr->pd, &ia);
	if (!qp->qp) {
		err = errno ? errno : EIO;
		goto free_qp;
	}
	/* ibv_create_qp() wrote the granted sizes back. */
	err = mrc_wr_ring_init(&qp->send, ia.cap.max_send_wr);
	if (!err)
		err = mrc_wr_ring_init(&qp->recv, ia.cap.max_recv_wr);
	if (err)
		goto destroy_qp;
	pthread_spin_init(&qp->lock, PTHREAD_PROCESS_PRIVATE);
	qp->ctx = mrc_ctx;
	qp->qpn = qp->qp->qp_num;
	qp->init_attr = *mrc_qp_attr;
	qp->init_attr.cap = ia.cap;
	if (!qp->init_attr.send_ops_flags)
		qp->init_attr.send_ops_flags = MRC_SEND_OPS;
	qp->attr.mpr.mpr = MRC_LIB_MPR;
	qp->attr.mpr.mpr_dest = MRC_LIB_MPR;
	qp->attr.timeout = MRC_LIB_DEFAULT_TIMEOUT;
	qp->attr.retry.linear_cnt = MRC_LIB_DEFAULT_LINEAR;

	pthread_mutex_lock(&mrc_ctx->lock);
	mrc_ctx->num_qps++;
	mrc_qp_attr->send_cq->num_qps++;
	mrc_qp_attr->recv_cq->num_qps++;
	pthread_mutex_unlock(&mrc_ctx->lock);
	mrc_qp_table_add(mrc_ctx, qp);
	/* What the program passed now says what it got, as ibv_create_qp(). */
	mrc_qp_attr->cap = ia.cap;
	return qp;

destroy_qp:
	ibv_destroy_qp(qp->qp);
	mrc_wr_ring_free(&qp->send);
	mrc_wr_ring_free(&qp->recv);
free_qp:
	free(qp);
	errno = err;
	return NULL;
}

MRC_EXPORT
int mrc_destroy_qp(struct mrc_qp *qp)
{
	struct mrc_context *ctx;
	int err;

	if (!qp)
		return mrc_fail_errno(EINVAL);
	ctx = qp->ctx;
	/* Waits for the QP's async events to be acknowledged. */
	err = ibv_destroy_qp(qp->qp);
	if (err)
		return mrc_fail_errno(err);
	mrc_qp_table_del(ctx, qp);
	pthread_mutex_lock(&ctx->lock);
	ctx->num_qps--;
	qp->init_attr.send_cq->num_qps--;
	qp->init_attr.recv_cq->num_qps--;
	if (qp->hint)
		qp->hint->num_qps--;
	pthread_mutex_unlock(&ctx->lock);
	pthread_spin_destroy(&qp->lock);
	mrc_wr_ring_free(&qp->send);
	mrc_wr_ring_free(&qp->recv);
	free(qp);
	return 0;
}

MRC_EXPORT
int mrc_get_qpn(struct mrc_qp *qp, uint32_t *qpn)
{
	if (!qp || !qpn)
		return mrc_fail(EINVAL);
	*qpn = qp->qpn;
	return 0;
}

/*
 * The verbs attributes a transition needs and the program does not give
 * (the API's), filled in by the library.
 */
static void mrc_fill_transition(const struct mrc_qp_attr *staged,
				struct mrc_qp_transition t,
				struct ibv_qp_attr *a, int *mask)
{
	if (t.cur == IBV_QPS_RESET && t.next == IBV_QPS_INIT) {
		a->port_num = MRC_LIB_PORT;
		*mask |= IBV_QP_PORT;
		if (!(*mask & IBV_QP_PKEY_INDEX)) {
			a->pkey_index = 0;
			*mask |= IBV_QP_PKEY_INDEX;
		}
		if (!(*mask & IBV_QP_ACCESS_FLAGS)) {
			a->qp_access_flags = IBV_ACCESS_LOCAL_WRITE |
					     IBV_ACCESS_REMOTE_WRITE;
			*mask |= IBV_QP_ACCESS_FLAGS;
		}
	} else if (t.cur == IBV_QPS_INIT && t.next == IBV_QPS_RTR) {
		a->max_dest_rd_atomic = 0;
		a->min_rnr_timer = 0;
		*mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	} else if (t.cur == IBV_QPS_RTR && t.next == IBV_QPS_RTS) {
		a->max_rd_atomic = 0;
		a->timeout = mrc_timeout_to_ib(staged->timeout);
		a->retry_cnt = staged->retry.linear_cnt;
		a->rnr_retry = 7;	/* without end */
		*mask |= IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_TIMEOUT |
			 IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY;
	}
}

/*
 * The MRC attributes the kernel takes, at the transition it takes them at
 * (the EV profile at RESET to INIT; MPR_DEST at INIT to RTR; the rest with
 * the verbs timeout and retry count, RTR to RTS; the trim NAK switch
 * whenever it changes, from @held, what the kernel has). None is sent while each is at its default,
 * so that a kernel without them still runs every QP that does not ask for
 * them. The library's EV profile ids are the kernel's.
 */
static void mrc_fill_kernel_attr(const struct mrc_qp_attr *staged,
				 const struct mrc_qp_attr *held,
				 struct mrc_qp_transition t,
				 struct mrc_modify_qp_mrc *k)
{
	memset(k, 0, sizeof(*k));
	if ((staged->cap ^ held->cap) & MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED) {
		k->comp_mask |= MRC_MODIFY_QP_FLAGS;
		if (staged->cap & MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED)
			k->flags |= MRC_QP_F_NO_TRIM_NAK;
	}
	if (t.cur == IBV_QPS_RESET && t.next == IBV_QPS_INIT &&
	    staged->profile.ev_profile_id) {
		k->comp_mask |= MRC_MODIFY_QP_EV_PROFILE;
		k->ev_profile_id = (uint32_t)staged->profile.ev_profile_id;
	}
	/* MRC_LIB_MPR is the whole window here too. */
	if (t.cur == IBV_QPS_INIT && t.next == IBV_QPS_RTR &&
	    staged->mpr.mpr_dest != MRC_LIB_MPR) {
		k->comp_mask |= MRC_MODIFY_QP_MPR_DEST;
		k->mpr_dest = staged->mpr.mpr_dest;
	}
	if (t.cur != IBV_QPS_RTR || t.next != IBV_QPS_RTS)
		return;
	if (staged->retry.exp_cnt) {
		k->comp_mask |= MRC_MODIFY_QP_EXP_RETRY_CNT;
		k->exp_retry_cnt = staged->retry.exp_cnt;
	}
	/* MRC_LIB_MPR is the whole window, the kernel's default. */
	if (staged->mpr.mpr != MRC_LIB_MPR) {
		k->comp_mask |= MRC_MODIFY_QP_MPR;
		k->mpr = staged->mpr.mpr;
	}
}

MRC_EXPORT
int mrc_modify_qp(struct mrc_qp *qp, struct ibv_qp_attr *vattr, int vattr_mask,
		  struct mrc_qp_attr *mrc_attr, int mrc_attr_mask)
{
	struct mrc_modify_qp_mrc kattr;
	struct mrc_qp_transition t;
	struct mrc_qp_attr staged;
	struct ibv_qp_init_attr unused;
	struct ibv_qp_attr a, now;
	int mask, err;

	if (!qp || (vattr_mask && !vattr) || (mrc_attr_mask && !mrc_attr))
		return mrc_fail_errno(EINVAL);
	if (vattr_mask & ~(IBV_QP_RATE_LIMIT * 2 - 1))
		return mrc_fail_errno(EINVAL);
	err = ibv_query_qp(qp->qp, &now, IBV_QP_STATE, &unused);
	if (err)
		return mrc_fail_errno(err);
	t.cur = now.qp_state;
	if (vattr_mask & IBV_QP_CUR_STATE && vattr->cur_qp_state != t.cur)
		return mrc_fail_errno(EINVAL);
	t.next = vattr_mask & IBV_QP_STATE ? vattr->qp_state : t.cur;

	err = mrc_qp_attr_check(qp, mrc_attr, mrc_attr_mask, t);
	if (err)
		return mrc_fail_errno(err);
	staged = qp->attr;
	/* RESET lets go of the EV profile; the next INIT may name another. */
	if (t.next == IBV_QPS_RESET)
		staged.profile.ev_profile_id = 0;
	mrc_qp_attr_apply(&staged, mrc_attr, mrc_attr_mask);
	if (mrc_attr_mask & MRC_QP_MPR)
		staged.mpr.mpr = mrc_qp_mpr_granted(qp->ctx, mrc_attr->mpr.mpr);
	if (mrc_attr_mask & MRC_QP_MPR_DEST)
		staged.mpr.mpr_dest = mrc_qp_mpr_granted(qp->ctx,
							 mrc_attr->mpr.mpr_dest);

	mask = vattr_mask & ~MRC_IBV_NOT_MRC;
	memset(&a, 0, sizeof(a));
	if (mask) {
		a = *vattr;
		mrc_fill_transition(&staged, t, &a, &mask);
	}
	mrc_fill_kernel_attr(&staged, &qp->attr, t, &kattr);
	/*
	 * Without MRC attributes, the provider's own ibv_modify_qp(). The
	 * trim NAK switch alone goes with no verbs attribute: the kernel
	 * takes that in every state but RTR (verbs has no RTR to RTR).
	 */
	err = 0;
	if (kattr.comp_mask)
		err = qp->ctx->modify_qp_mrc(qp->qp, &a, mask, &kattr);
	else if (mask)
		err = ibv_modify_qp(qp->qp, &a, mask);
	if (err)
		return mrc_fail_errno(err);

	pthread_mutex_lock(&qp->ctx->lock);
	if (mrc_attr_mask & MRC_QP_HINT && staged.qp_hint != qp->hint) {
		if (qp->hint)
			qp->hint->num_qps--;
		qp->hint = staged.qp_hint;
		if (qp->hint)
			qp->hint->num_qps++;
	}
	pthread_mutex_unlock(&qp->ctx->lock);
	pthread_spin_lock(&qp->lock);
	qp->attr = staged;
	pthread_spin_unlock(&qp->lock);
	return 0;
}

MRC_EXPORT
int mrc_query_qp(struct mrc_qp *qp, struct ibv_qp_attr *vattr, int vattr_mask,
		 struct mrc_qp_attr *mrc_attr, int mrc_attr_mask,
		 struct mrc_qp_init_attr *init_attr)
{
	struct ibv_qp_init_attr unused;
	struct mrc_qp_attr now;
	int err;

	if (!qp || (vattr_mask && !vattr) || (mrc_attr_mask && !mrc_attr))
		return mrc_fail_errno(EINVAL);
	if (!mrc_qp_attr_mask_known(mrc_attr_mask))
		return mrc_fail_errno(EINVAL);
	if (vattr_mask) {
		err = ibv_query_qp(qp->qp, vattr, vattr_mask, &unused);
		if (err)
			return mrc_fail_errno(err);
	}
	if (mrc_attr_mask) {
		pthread_spin_lock(&qp->lock);
		now = qp->attr;
		pthread_spin_unlock(&qp->lock);
		mrc_qp_attr_apply(mrc_attr, &now, mrc_attr_mask);
		/* apply() grants the whole window; report what is in force. */
		if (mrc_attr_mask & MRC_QP_MPR)
			mrc_attr->mpr.mpr = now.mpr.mpr;
		if (mrc_attr_mask & MRC_QP_MPR_DEST)
			mrc_attr->mpr.mpr_dest = now.mpr.mpr_dest;
	}
	if (init_attr)
		*init_attr = qp->init_attr;
	return 0;
}
