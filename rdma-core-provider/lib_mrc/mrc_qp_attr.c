// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: the MRC attributes of a QP, checked against the API's ranges
 * and against what soft-MRC can honour today.
 *
 * EINVAL: out of the API's range, an unknown bit, or an attribute at a
 * transition it does not belong to. EOPNOTSUPP: inside the range but not
 * something soft-MRC does yet; Documentation/mrc-api.rst lists each one.
 * Nothing here calls into libibverbs.
 */
#include <string.h>

#include "mrc_ctl_lib.h"

#define MRC_QP_ATTR_KNOWN_MASK						\
	((int)(MRC_QP_MAX_WIMM | MRC_QP_MAX_WIMM_DEST | MRC_QP_MPR |	\
	       MRC_QP_MPR_DEST | MRC_QP_TIMEOUT | MRC_QP_EV_PROFILE_ID |	\
	       MRC_QP_CC_PROFILE_ID | MRC_QP_HINT | MRC_QP_RETRY_CNT |	\
	       MRC_QP_CAP | MRC_QP_VENDOR_CFG))

#define MRC_QP_CAP_KNOWN						\
	(MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED | MRC_QP_CAP_DYNAMIC_MPR |	\
	 MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED)

/*
 * SVC_TIME_DEST_UNSUPPORTED is accepted as a no-op: soft-MRC's responder
 * never reports a service time, so a peer that cannot take one loses
 * nothing. TRIM_NACK_DEST_UNSUPPORTED goes to the kernel (its responder
 * then answers the QP's trimmed packets with nothing), through the
 * provider's MRC entry.
 */
#define MRC_QP_CAP_HONOURED						\
	(MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED |				\
	 MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED)

static bool mrc_bytes_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static bool mrc_before_rts(enum ibv_qp_state s)
{
	return s == IBV_QPS_RESET || s == IBV_QPS_INIT || s == IBV_QPS_RTR;
}

bool mrc_qp_attr_mask_known(int mask)
{
	return !(mask & ~MRC_QP_ATTR_KNOWN_MASK);
}

int mrc_qp_attr_check(const struct mrc_qp *qp, const struct mrc_qp_attr *attr,
		      int mask, struct mrc_qp_transition t)
{
	const struct mrc_device_attr *dev = &qp->ctx->dev_attr;
	bool to_init = t.cur == IBV_QPS_RESET && t.next == IBV_QPS_INIT;

	if (!mrc_qp_attr_mask_known(mask))
		return EINVAL;
	if (!mask)
		return 0;

	/* The API's ranges. */
	if (mask & MRC_QP_TIMEOUT && attr->timeout > MRC_LIB_MAX_TIMEOUT)
		return EINVAL;
	if (mask & MRC_QP_RETRY_CNT &&
	    (attr->retry.linear_cnt > MRC_LIB_MAX_LINEAR ||
	     attr->retry.exp_cnt > MRC_LIB_MAX_EXP))
		return EINVAL;
	if ((mask & MRC_QP_MPR && attr->mpr.mpr > dev->mpr_attr.max_mpr) ||
	    (mask & MRC_QP_MPR_DEST && attr->mpr.mpr_dest > dev->mpr_attr.max_mpr))
		return EINVAL;
	if ((mask & MRC_QP_MAX_WIMM &&
	     attr->wimm.max_wimm > dev->wimm_attr.max_wimm) ||
	    (mask & MRC_QP_MAX_WIMM_DEST &&
	     attr->wimm.max_wimm_dest > dev->wimm_attr.max_wimm_dest))
		return EINVAL;
	if (mask & MRC_QP_CAP && attr->cap & ~MRC_QP_CAP_KNOWN)
		return EINVAL;
	if (mask & MRC_QP_HINT && attr->qp_hint && attr->qp_hint->ctx != qp->ctx)
		return EINVAL;

	/* When: profiles and hint choose resources, so only at creation. */
	if (mask & (MRC_QP_EV_PROFILE_ID | MRC_QP_CC_PROFILE_ID | MRC_QP_HINT) &&
	    !to_init)
		return EINVAL;
	/* The kernel takes these once, on the way to RTS. */
	if (mask & (MRC_QP_TIMEOUT | MRC_QP_RETRY_CNT) && !mrc_before_rts(t.cur))
		return EINVAL;
	if (mask & MRC_QP_MPR && !mrc_before_rts(t.cur) &&
	    mrc_qp_mpr_granted(qp->ctx, attr->mpr.mpr) != qp->attr.mpr.mpr)
		return EINVAL;
	/* The responder takes its window at INIT to RTR. */
	if (mask & MRC_QP_MPR_DEST && t.cur != IBV_QPS_RESET &&
	    t.cur != IBV_QPS_INIT &&
	    mrc_qp_mpr_granted(qp->ctx, attr->mpr.mpr_dest) !=
	    qp->attr.mpr.mpr_dest)
		return EINVAL;

	/* In range, but not in soft-MRC yet. */
	if (mask & MRC_QP_RETRY_CNT && attr->retry.exp_cnt &&
	    !qp->ctx->modify_qp_mrc)
		return EOPNOTSUPP;
	/*
	 * A device runs one CC profile (MRC_CTL_LIB_CC_ID, the controller
	 * API's): naming it is naming what every QP gets, any other id names
	 * no CC profile.
	 */
	if (mask & MRC_QP_CC_PROFILE_ID && attr->profile.cc_profile_id &&
	    attr->profile.cc_profile_id != MRC_CTL_LIB_CC_ID)
		return EINVAL;
	/*
	 * An EV profile is the controller's (mrc_ctl_modify_ev_profile()),
	 * by the same id in the kernel: one outside the ids a profile can
	 * have is no profile, and the kernel is not asked.
	 */
	if (mask & MRC_QP_EV_PROFILE_ID && attr->profile.ev_profile_id &&
	    (attr->profile.ev_profile_id < MRC_CTL_LIB_ID_MIN ||
	     attr->profile.ev_profile_id > MRC_CTL_LIB_ID_MAX))
		return EINVAL;
	if (mask & MRC_QP_EV_PROFILE_ID && attr->profile.ev_profile_id &&
	    !qp->ctx->modify_qp_mrc)
		return EOPNOTSUPP;
	if (mask & MRC_QP_CAP && attr->cap & ~MRC_QP_CAP_HONOURED)
		return EOPNOTSUPP;
	if (mask & MRC_QP_CAP &&
	    (attr->cap ^ qp->attr.cap) & MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED &&
	    !qp->ctx->modify_qp_mrc)
		return EOPNOTSUPP;
	if (mask & MRC_QP_VENDOR_CFG &&
	    !mrc_bytes_zero(attr->vendor_cfg, sizeof(attr->vendor_cfg)))
		return EOPNOTSUPP;
	return 0;
}

/*
 * The MPR a request is granted: 0 means the whole window; through the
 * provider's entry any other value is the requester's PSN window, and
 * without it the kernel has only the whole window (one granule).
 */
uint32_t mrc_qp_mpr_granted(const struct mrc_context *ctx, uint32_t mpr)
{
	return mpr && ctx->modify_qp_mrc ? mpr : MRC_LIB_MPR;
}

/* Records what was set; the caller grants MPR and MPR_DEST. */
void mrc_qp_attr_apply(struct mrc_qp_attr *to, const struct mrc_qp_attr *from,
		       int mask)
{
	if (mask & MRC_QP_MPR)
		to->mpr.mpr = from->mpr.mpr;
	if (mask & MRC_QP_MPR_DEST)
		to->mpr.mpr_dest = from->mpr.mpr_dest;
	if (mask & MRC_QP_MAX_WIMM)
		to->wimm.max_wimm = from->wimm.max_wimm;
	if (mask & MRC_QP_MAX_WIMM_DEST)
		to->wimm.max_wimm_dest = from->wimm.max_wimm_dest;
	if (mask & MRC_QP_TIMEOUT)
		to->timeout = from->timeout;
	if (mask & MRC_QP_EV_PROFILE_ID)
		to->profile.ev_profile_id = from->profile.ev_profile_id;
	if (mask & MRC_QP_CC_PROFILE_ID)
		to->profile.cc_profile_id = from->profile.cc_profile_id;
	if (mask & MRC_QP_RETRY_CNT)
		to->retry = from->retry;
	if (mask & MRC_QP_HINT)
		to->qp_hint = from->qp_hint;
	if (mask & MRC_QP_CAP)
		to->cap = from->cap;
	if (mask & MRC_QP_VENDOR_CFG)
		memcpy(to->vendor_cfg, from->vendor_cfg, sizeof(to->vendor_cfg));
}

/*
 * MRC counts the ACK timeout in 1.024 us << t, verbs (and our kernel) in
 * 4.096 us << t, where 0 means never: t - 2, with MRC's three shortest
 * timeouts (about 1, 2 and 4 us) rounded up to the shortest finite verbs
 * one (8.192 us).
 */
uint8_t mrc_timeout_to_ib(uint8_t mrc_timeout)
{
	return mrc_timeout > 2 ? mrc_timeout - 2 : 1;
}
