// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: QP hints. soft-MRC has no resource shared by the QPs to one
 * peer that a hint could size ahead (each QP's windows and rings are its
 * own), so a hint is validated, kept, reported and counted against
 * max_qp_hint; a QP names it at RESET->INIT and it cannot be destroyed
 * while a QP does. No vendor configuration is defined: non-zero bytes are
 * refused with EOPNOTSUPP.
 */
#include <stdlib.h>
#include <string.h>

#include "mrc_lib.h"

#define MRC_QP_HINT_KNOWN_MASK						\
	((int)(MRC_QP_HINT_NUM_QPS_PER_PEER | MRC_QP_HINT_NUM_SEND_PEERS |	\
	       MRC_QP_HINT_NUM_REMOTE_RECV_PEERS | MRC_QP_HINT_VENDOR_CFG))

static bool mrc_vendor_cfg_is_zero(const uint8_t *cfg)
{
	for (int i = 0; i < MRC_MAX_VENDOR_CFG_SIZE; i++)
		if (cfg[i])
			return false;
	return true;
}

static int mrc_qp_hint_check(const struct mrc_qp_hint_attr *attr, int mask)
{
	if (mask & ~MRC_QP_HINT_KNOWN_MASK)
		return EINVAL;
	if ((mask & MRC_QP_HINT_NUM_QPS_PER_PEER && attr->num_qps_per_peer < 0) ||
	    (mask & MRC_QP_HINT_NUM_SEND_PEERS && attr->num_send_peers < 0) ||
	    (mask & MRC_QP_HINT_NUM_REMOTE_RECV_PEERS &&
	     attr->num_remote_recv_peers < 0))
		return EINVAL;
	if (mask & MRC_QP_HINT_VENDOR_CFG && !mrc_vendor_cfg_is_zero(attr->vendor_cfg))
		return EOPNOTSUPP;
	return 0;
}

static void mrc_qp_hint_copy(struct mrc_qp_hint_attr *to,
			     const struct mrc_qp_hint_attr *from, int mask)
{
	if (mask & MRC_QP_HINT_NUM_QPS_PER_PEER)
		to->num_qps_per_peer = from->num_qps_per_peer;
	if (mask & MRC_QP_HINT_NUM_SEND_PEERS)
		to->num_send_peers = from->num_send_peers;
	if (mask & MRC_QP_HINT_NUM_REMOTE_RECV_PEERS)
		to->num_remote_recv_peers = from->num_remote_recv_peers;
	if (mask & MRC_QP_HINT_VENDOR_CFG)
		memcpy(to->vendor_cfg, from->vendor_cfg, sizeof(to->vendor_cfg));
}

MRC_EXPORT
struct mrc_qp_hint *mrc_create_qp_hint(struct mrc_context *mrc_ctx,
				       struct mrc_qp_hint_init_attr *init_attr)
{
	struct mrc_qp_hint *hint;
	int err;

	if (!mrc_ctx || !init_attr) {
		errno = EINVAL;
		return NULL;
	}
	err = mrc_qp_hint_check(&init_attr->attr, MRC_QP_HINT_KNOWN_MASK);
	if (err) {
		errno = err;
		return NULL;
	}
	hint = calloc(1, sizeof(*hint));
	if (!hint) {
		errno = ENOMEM;
		return NULL;
	}
	hint->ctx = mrc_ctx;
	hint->attr = init_attr->attr;
	pthread_mutex_lock(&mrc_ctx->lock);
	if (mrc_ctx->num_hints >= mrc_ctx->dev_attr.qp_attr.max_qp_hint) {
		pthread_mutex_unlock(&mrc_ctx->lock);
		free(hint);
		errno = ENOMEM;
		return NULL;
	}
	mrc_ctx->num_hints++;
	pthread_mutex_unlock(&mrc_ctx->lock);
	return hint;
}

MRC_EXPORT
int mrc_destroy_qp_hint(struct mrc_qp_hint *qp_hint)
{
	struct mrc_context *ctx;

	if (!qp_hint)
		return mrc_fail(EINVAL);
	ctx = qp_hint->ctx;
	pthread_mutex_lock(&ctx->lock);
	if (qp_hint->num_qps) {
		pthread_mutex_unlock(&ctx->lock);
		return mrc_fail(EBUSY);
	}
	ctx->num_hints--;
	pthread_mutex_unlock(&ctx->lock);
	free(qp_hint);
	return 0;
}

MRC_EXPORT
int mrc_query_qp_hint(struct mrc_qp_hint *qp_hint,
		      struct mrc_qp_hint_attr *qp_hint_attr,
		      int qp_hint_attr_mask)
{
	if (!qp_hint || !qp_hint_attr ||
	    qp_hint_attr_mask & ~MRC_QP_HINT_KNOWN_MASK)
		return mrc_fail(EINVAL);
	pthread_mutex_lock(&qp_hint->ctx->lock);
	mrc_qp_hint_copy(qp_hint_attr, &qp_hint->attr, qp_hint_attr_mask);
	pthread_mutex_unlock(&qp_hint->ctx->lock);
	return 0;
}

MRC_EXPORT
int mrc_modify_qp_hint(struct mrc_qp_hint *qp_hint,
		       struct mrc_qp_hint_attr *qp_hint_attr,
		       int qp_hint_attr_mask)
{
	int err;

	if (!qp_hint || !qp_hint_attr)
		return mrc_fail(EINVAL);
	err = mrc_qp_hint_check(qp_hint_attr, qp_hint_attr_mask);
	if (err)
		return mrc_fail(err);
	pthread_mutex_lock(&qp_hint->ctx->lock);
	mrc_qp_hint_copy(&qp_hint->attr, qp_hint_attr, qp_hint_attr_mask);
	pthread_mutex_unlock(&qp_hint->ctx->lock);
	return 0;
}
