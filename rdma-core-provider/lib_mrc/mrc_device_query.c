// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: whether a verbs device is an mrc device, and what it offers MRC
 * queue pairs.
 *
 * mrc_protocol_version is 0: soft-MRC's wire format is its own
 * (Documentation/wire-format.rst), not the OCP MRC 1.0 protocol, so no
 * version bit is claimed and a QP asking for one is refused.
 */
#include <string.h>

#include "mrc_lib.h"

int mrc_fill_device_attr(struct ibv_context *vctx,
			 struct mrc_device_attr *attr, int *supported)
{
	struct ibv_device_attr dev;
	int err;

	if (!vctx || !attr || !supported)
		return EINVAL;
	err = ibv_query_device(vctx, &dev);
	if (err)
		return err;
	memset(attr, 0, sizeof(*attr));
	*supported = dev.vendor_id == MRC_LIB_VENDOR_ID &&
		     dev.vendor_part_id == MRC_LIB_VENDOR_PART_ID;
	if (!*supported)
		return 0;

	attr->mrc_protocol_version = MRC_PROTOCOL_VERSION_0;
	/* Both bounded by a queue's depth: the send queue, the receives. */
	attr->wimm_attr.max_wimm = dev.max_qp_wr > UINT16_MAX ?
				   UINT16_MAX : dev.max_qp_wr;
	attr->wimm_attr.max_wimm_dest = attr->wimm_attr.max_wimm;
	attr->mpr_attr.max_mpr = MRC_LIB_MPR;
	/*
	 * Through the provider's entry the kernel takes any MPR up to its
	 * window (one PSN unit at a time); without it, only the window.
	 */
	attr->mpr_attr.mpr_resolution = mrc_kernel_takes_attrs(vctx) ?
					1 : MRC_LIB_MPR;
	attr->qp_attr.max_qp_hint = MRC_LIB_MAX_QP_HINTS;
	/* A trimmed packet is NAKed at once (Documentation/reliability.rst). */
	attr->cap = MRC_DEVICE_CAP_TRIM_NACK;
	return 0;
}

bool mrc_kernel_takes_attrs(struct ibv_context *vctx)
{
	void *handle;
	bool has = mrc_provider_get(vctx, &handle) != NULL;

	mrc_provider_put(handle);
	return has;
}

MRC_EXPORT
int mrc_query_device(struct ibv_context *context, struct mrc_device_attr *attr,
		     int *supported)
{
	int err = mrc_fill_device_attr(context, attr, supported);

	return err ? mrc_fail(err) : 0;
}

MRC_EXPORT
int mrc_query_device_ex(struct ibv_context *context,
			struct mrc_context *mcontext,
			struct mrc_device_attr *attr, int *supported)
{
	if (mcontext && mcontext->vctx != context)
		return mrc_fail(EINVAL);
	return mrc_query_device(context, attr, supported);
}
