// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: CC profiles over the kernel's one CC profile per device
 * (CC_GET, CC_SET; Documentation/congestion.rst). Profile id 1 is that
 * profile: it always exists and is always ONLINE (every QP that reaches
 * RTR copies it); a change applies to QPs that reach RTR afterwards
 * (MRC_CTL_OPT_CAP_CC_PROFILE_MODIFY_ONLINE). Its algorithm is
 * "uet-1.0-nscc" while NSCC is on, NULL while it is off.
 *
 * struct mrc_ctl_cc_nscc_cfg against the kernel's parameters: times (ns)
 * and sizes (bytes) as they are; eta and fi are bytes, rounded to the
 * nearest; fi_scale, gamma and max_md_jump are fractions, kept in
 * thousandths (rounded to the nearest). The kernel adjusts once per base
 * RTT and per window of bytes: adjust_bytes_threshold and
 * adjust_period_threshold are not settable (0, "the device's choice", is
 * accepted; anything else is EOPNOTSUPP) and read back 0. The kernel checks
 * the result as a whole (EINVAL, its message naming the parameter).
 */
#include <math.h>
#include <string.h>

#include "mrc_ctl_lib.h"

#define MRC_CTL_CC_MASK (MRC_CTL_CC_PROFILE_STATE |			\
			 MRC_CTL_CC_PROFILE_CUR_STATE |			\
			 MRC_CTL_CC_PROFILE_ALGORITHM |			\
			 MRC_CTL_CC_PROFILE_CONFIG |			\
			 MRC_CTL_CC_PROFILE_VENDOR_CFG)

static const char mrc_ctl_nscc[] = "uet-1.0-nscc";

/* @v rounded to an integer in 0..UINT32_MAX; EINVAL if it is not one. */
static int mrc_ctl_float_u32(float v, float scale, uint32_t *out)
{
	double d = (double)v * scale;

	if (!isfinite(d) || d < 0 || d > (double)UINT32_MAX)
		return EINVAL;
	*out = (uint32_t)lround(d);
	return 0;
}

/* The kernel's CC nest for @cfg; every OCP parameter is given. */
int mrc_ctl_cc_to_nl(const struct mrc_ctl_cc_nscc_cfg *cfg,
		     struct mrc_nl_cc *cc)
{
	int err;

	memset(cc, 0, sizeof(*cc));
	if (cfg->disable_qa > 1)
		return EINVAL;
	if (cfg->adjust_bytes_threshold || cfg->adjust_period_threshold)
		return EOPNOTSUPP;
	err = mrc_ctl_float_u32(cfg->eta, 1, &cc->eta);
	if (!err)
		err = mrc_ctl_float_u32(cfg->fi, 1, &cc->fi);
	if (!err)
		err = mrc_ctl_float_u32(cfg->fi_scale, 1000, &cc->fi_scale);
	if (!err)
		err = mrc_ctl_float_u32(cfg->gamma, 1000, &cc->gamma);
	if (!err)
		err = mrc_ctl_float_u32(cfg->max_md_jump, 1000,
					&cc->max_md_jump);
	if (err)
		return err;
	cc->base_rtt = cfg->base_rtt;
	cc->target_delay = cfg->target_delay;
	cc->qa_threshold = cfg->qa_threshold;
	cc->max_cwnd = cfg->max_cwnd;
	cc->qa_gate = cfg->qa_gate;
	cc->disable_qa = cfg->disable_qa;
	cc->has = 1u << MRC_NL_CC_BASE_RTT | 1u << MRC_NL_CC_TARGET_DELAY |
		  1u << MRC_NL_CC_QA_THRESHOLD | 1u << MRC_NL_CC_MAX_CWND |
		  1u << MRC_NL_CC_ETA | 1u << MRC_NL_CC_FI |
		  1u << MRC_NL_CC_FI_SCALE | 1u << MRC_NL_CC_GAMMA |
		  1u << MRC_NL_CC_MAX_MD_JUMP | 1u << MRC_NL_CC_QA_GATE |
		  1u << MRC_NL_CC_DISABLE_QA;
	return 0;
}

static uint32_t mrc_ctl_u32_clamp(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

void mrc_ctl_cc_from_nl(const struct mrc_nl_cc *cc,
			struct mrc_ctl_cc_nscc_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->disable_qa = cc->disable_qa;
	/* The kernel bounds these times at 10 s: they fit in 32 bits. */
	cfg->base_rtt = mrc_ctl_u32_clamp(cc->base_rtt);
	cfg->target_delay = mrc_ctl_u32_clamp(cc->target_delay);
	cfg->qa_threshold = mrc_ctl_u32_clamp(cc->qa_threshold);
	cfg->eta = (float)cc->eta;
	cfg->fi = (float)cc->fi;
	cfg->fi_scale = (float)cc->fi_scale / 1000;
	cfg->gamma = (float)cc->gamma / 1000;
	cfg->max_md_jump = (float)cc->max_md_jump / 1000;
	cfg->max_cwnd = cc->max_cwnd;
	cfg->qa_gate = cc->qa_gate > UINT8_MAX ? UINT8_MAX : cc->qa_gate;
}

/* 0 for the device's profile; EINVAL or ENOENT for another id. */
static int mrc_ctl_cc_id(uint64_t id)
{
	if (id < MRC_CTL_LIB_ID_MIN || id > MRC_CTL_LIB_ID_MAX)
		return EINVAL;
	return id == MRC_CTL_LIB_CC_ID ? 0 : ENOENT;
}

static int mrc_ctl_cc_modify(struct mrc_ctl_state *st,
			     const struct mrc_ctl_cc_profile_attr *attr,
			     int mask)
{
	struct mrc_nl_cc cc = { 0 };
	int enabled = -1, err;

	if ((mask & MRC_CTL_CC_PROFILE_STATE) &&
	    attr->profile_state != MRC_CTL_PROFILE_ONLINE)
		/* The device's profile is always in use. */
		return attr->profile_state == MRC_CTL_PROFILE_INIT ||
		       attr->profile_state == MRC_CTL_PROFILE_OFFLINE ?
		       EBUSY : EINVAL;
	if (mask & MRC_CTL_CC_PROFILE_ALGORITHM) {
		if (!attr->algorithm)
			enabled = 0;
		else if (!strcmp(attr->algorithm, mrc_ctl_nscc))
			enabled = 1;
		else
			return EINVAL;
	}
	if (mask & MRC_CTL_CC_PROFILE_CONFIG) {
		if (!attr->cc_config || !enabled)
			return EINVAL;
		err = mrc_ctl_cc_to_nl(attr->cc_config, &cc);
		if (err)
			return err;
	}
	if ((mask & MRC_CTL_CC_PROFILE_VENDOR_CFG) &&
	    !mrc_ctl_bytes_zero(attr->vendor_cfg, sizeof(attr->vendor_cfg)))
		return EOPNOTSUPP;
	if (!cc.has && enabled < 0)
		return 0;
	return mrc_nl_cc_set(st->nl, st->dev, &cc, enabled, false);
}

MRC_EXPORT
int mrc_ctl_modify_cc_profile(struct mrc_context *mrc_ctx,
			      uint64_t cc_profile_id,
			      struct mrc_ctl_cc_profile_attr *attr,
			      int attr_mask)
{
	struct mrc_ctl_state *st;
	int err;

	if (!attr || (attr_mask & ~MRC_CTL_CC_MASK) ||
	    (attr_mask & MRC_CTL_CC_PROFILE_CUR_STATE))
		return mrc_fail(EINVAL);
	err = mrc_ctl_cc_id(cc_profile_id);
	if (err)
		return mrc_fail(err);
	err = mrc_ctl_enter(mrc_ctx, &st);
	if (err)
		return mrc_fail(err);
	err = mrc_ctl_cc_modify(st, attr, attr_mask);
	mrc_ctl_leave(st);
	return err ? mrc_fail(err) : 0;
}

MRC_EXPORT
int mrc_ctl_query_cc_profile(struct mrc_context *mrc_ctx,
			     uint64_t cc_profile_id,
			     struct mrc_ctl_cc_profile_attr *attr,
			     int attr_mask)
{
	struct mrc_nl_cc_state cc;
	struct mrc_ctl_state *st;
	int err;

	if (!attr || (attr_mask & ~MRC_CTL_CC_MASK))
		return mrc_fail(EINVAL);
	err = mrc_ctl_cc_id(cc_profile_id);
	if (err)
		return mrc_fail(err);
	err = mrc_ctl_enter(mrc_ctx, &st);
	if (err)
		return mrc_fail(err);
	err = mrc_nl_cc_get(st->nl, st->dev, &cc);
	if (err)
		goto out;
	if (attr_mask & MRC_CTL_CC_PROFILE_STATE)
		attr->profile_state = MRC_CTL_PROFILE_ONLINE;
	if (attr_mask & MRC_CTL_CC_PROFILE_CUR_STATE)
		attr->cur_profile_state = MRC_CTL_PROFILE_ONLINE;
	if (attr_mask & MRC_CTL_CC_PROFILE_ALGORITHM)
		attr->algorithm = cc.enabled ? mrc_ctl_nscc : NULL;
	if (attr_mask & MRC_CTL_CC_PROFILE_CONFIG) {
		/* The context's copy: valid until its next CC query. */
		mrc_ctl_cc_from_nl(&cc.cc, &st->cc_cfg);
		attr->cc_config = &st->cc_cfg;
	}
	if (attr_mask & MRC_CTL_CC_PROFILE_VENDOR_CFG)
		memset(attr->vendor_cfg, 0, sizeof(attr->vendor_cfg));
out:
	mrc_ctl_leave(st);
	return err ? mrc_fail(err) : 0;
}
