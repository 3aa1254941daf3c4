// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: contexts. A context belongs to one open verbs device, which
 * stays the program's (the context never closes it), and keeps count of
 * the objects made from it so that it is never destroyed under them.
 */
#include <stdlib.h>

#include "mrc_lib.h"

MRC_EXPORT
struct mrc_context *mrc_create_context(struct ibv_context *vcontext,
				       struct mrc_context_attr *context_attr)
{
	uint32_t used = 0, vendor_used = 0;
	struct mrc_context *ctx;
	int supported, err;

	if (!vcontext) {
		errno = EINVAL;
		return NULL;
	}
	if (context_attr) {
		used = context_attr->mrc_api_version_used;
		vendor_used = context_attr->mrc_vendor_api_version_used;
	}
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx) {
		errno = ENOMEM;
		return NULL;
	}
	err = mrc_check_version(used, MRC_API_CURRENT_VERSION,
				MRC_API_LAST_SUPPORTED_VERSION,
				&ctx->api_version);
	if (!err)
		err = mrc_check_version(vendor_used,
					MRC_VENDOR_API_CURRENT_VERSION,
					MRC_VENDOR_API_LAST_SUPPORTED_VERSION,
					&ctx->vendor_api_version);
	if (!err)
		err = mrc_fill_device_attr(vcontext, &ctx->dev_attr, &supported);
	if (!err && !supported)
		err = ENODEV;
	if (err) {
		free(ctx);
		errno = err;
		return NULL;
	}
	ctx->vctx = vcontext;
	ctx->modify_qp_mrc = mrc_provider_get(vcontext, &ctx->provider);
	pthread_mutex_init(&ctx->lock, NULL);
	pthread_rwlock_init(&ctx->qp_table_lock, NULL);
	return ctx;
}

MRC_EXPORT
int mrc_destroy_context(struct mrc_context *mrc_ctx)
{
	bool busy;

	if (!mrc_ctx)
		return mrc_fail(EINVAL);
	pthread_mutex_lock(&mrc_ctx->lock);
	busy = mrc_ctx->num_channels || mrc_ctx->num_cqs ||
	       mrc_ctx->num_hints || mrc_ctx->num_qps;
	pthread_mutex_unlock(&mrc_ctx->lock);
	if (busy)
		return mrc_fail(EBUSY);
	mrc_ctl_state_free(mrc_ctx->ctl);
	mrc_provider_put(mrc_ctx->provider);
	pthread_rwlock_destroy(&mrc_ctx->qp_table_lock);
	pthread_mutex_destroy(&mrc_ctx->lock);
	free(mrc_ctx);
	return 0;
}
