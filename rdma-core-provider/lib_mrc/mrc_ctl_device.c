// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: the controller API's version and device queries, from the
 * kernel's DEV_GET and PROFILE_GET (Documentation/mrc-api.rst, "The
 * controller API").
 */
#include <string.h>

#include "mrc_ctl_lib.h"

MRC_EXPORT
void mrc_ctl_query_version(uint32_t *current_version,
			   uint32_t *last_supported_version,
			   uint32_t *vendor_version,
			   uint32_t *last_supported_vendor_version)
{
	if (current_version)
		*current_version = MRC_CTL_API_CURRENT_VERSION;
	if (last_supported_version)
		*last_supported_version = MRC_CTL_API_LAST_SUPPORTED_VERSION;
	if (vendor_version)
		*vendor_version = MRC_CTL_VENDOR_API_CURRENT_VERSION;
	if (last_supported_vendor_version)
		*last_supported_vendor_version =
			MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION;
}

static const char *mrc_ctl_algorithms[] = { "uet-1.0-nscc", NULL };

/* The answer for an mrc device whose DEV_GET and profiles are @d, @find. */
static void mrc_ctl_fill_device(const struct mrc_nl_dev *d,
				const struct mrc_nl_profile_find *find,
				struct mrc_ctl_device_attr *attr)
{
	uint32_t planes = d->num_planes > MRC_NL_MAX_PLANES ?
			  MRC_NL_MAX_PLANES : d->num_planes;
	uint32_t max_count = MRC_NL_MAX_EVS * (uint32_t)MRC_CTL_LIB_ID_MAX;

	memset(attr, 0, sizeof(*attr));
	attr->mrc_ctl_protocol_version = MRC_CTL_PROTOCOL_VERSION_0;
	attr->ev.ev_max_fmt_profiles = MRC_CTL_LIB_ID_MAX;
	attr->ev.ev_max_profiles = MRC_CTL_LIB_ID_MAX;
	attr->ev.ev_max_count = max_count;
	attr->ev.ev_free_count = find->total_evs < max_count ?
				 max_count - find->total_evs : 0;
	attr->ev.ev_max_count_profile = MRC_NL_MAX_EVS;
	attr->ev.ev_count_align = 1;
	attr->ev.ev_max_width = 128;	/* an SRv6 address */
	attr->ev.ev_fmt_mode_mask = MRC_CTL_EV_FMT_MODE_SRV6 |
				    MRC_CTL_EV_FMT_MODE_UDP;
	attr->ev.ev_mode_mask = MRC_CTL_EV_MODE_EXP | MRC_CTL_EV_MODE_GEN;
	attr->ev.ev_op_max_entries = MRC_NL_MAX_EVS;
	attr->cc.cc_max_profiles = 1;
	attr->cc.algorithms = mrc_ctl_algorithms;
	/* Port N is plane N - 1; bit 0 is no port. */
	attr->phy_port_mask = ((1u << planes) - 1) << 1;
	/*
	 * A change applies to QPs that reach RTR afterwards; EV probes are
	 * the kernel's EP_PROBE.
	 */
	attr->opt_attr = MRC_CTL_OPT_CAP_CC_PROFILE_MODIFY_ONLINE |
			 MRC_CTL_OPT_CAP_EP_OP_EV_PROBE;
}

static int mrc_ctl_query(struct mrc_nl *nl, const char *dev,
			 struct mrc_ctl_device_attr *attr)
{
	struct mrc_nl_profile_find find = { 0 };
	struct mrc_nl_dev d;
	int err;

	err = mrc_nl_dev_get(nl, dev, &d);
	if (!err)
		err = mrc_nl_talk(nl, mrc_nl_req_profile_dump(nl, dev),
				  mrc_nl_parse_profile, &find);
	if (!err) {
		mrc_ctl_fill_device(&d, &find, attr);
		/*
		 * A kernel with the events group sends EV events; their
		 * drop_count is a lower bound (mrc_ctl_ev_event.c), so not
		 * EV_EVENT_PRECISE_DROP_CNT.
		 */
		if (nl->has_events)
			attr->opt_attr |= MRC_CTL_OPT_CAP_EV_EVENT;
	}
	return err;
}

/* With a context's socket, or one of its own for the query alone. */
static int mrc_ctl_query_any(struct ibv_context *context,
			     struct mrc_context *mcontext,
			     struct mrc_ctl_device_attr *attr)
{
	struct mrc_ctl_state *st;
	struct mrc_nl *nl;
	const char *name;
	int err;

	if (mcontext) {
		err = mrc_ctl_enter(mcontext, &st);
		if (err)
			return err;
		err = mrc_ctl_query(st->nl, st->dev, attr);
		mrc_ctl_leave(st);
		return err;
	}
	if (!mrc_ctl_capable())
		return EPERM;
	name = ibv_get_device_name(context->device);
	if (!name)
		return ENODEV;
	err = mrc_nl_open(&nl);
	if (err)
		return err == ENOENT ? ENODEV : err;
	err = mrc_ctl_query(nl, name, attr);
	mrc_nl_close(nl);
	return err;
}

MRC_EXPORT
int mrc_ctl_query_device_ex(struct ibv_context *context,
			    struct mrc_context *mcontext,
			    struct mrc_ctl_device_attr *ctl_attr,
			    int *supported)
{
	struct mrc_device_attr dev_attr;
	int err;

	if (!context || !ctl_attr || !supported ||
	    (mcontext && mcontext->vctx != context))
		return mrc_fail(EINVAL);
	err = mrc_fill_device_attr(context, &dev_attr, supported);
	if (err)
		return mrc_fail(err);
	if (!*supported) {
		memset(ctl_attr, 0, sizeof(*ctl_attr));
		return 0;
	}
	err = mrc_ctl_query_any(context, mcontext, ctl_attr);
	return err ? mrc_fail(err) : 0;
}

MRC_EXPORT
int mrc_ctl_query_device(struct ibv_context *context,
			 struct mrc_ctl_device_attr *ctl_attr)
{
	int supported;

	if (mrc_ctl_query_device_ex(context, NULL, ctl_attr, &supported))
		return -1;
	return supported ? 0 : mrc_fail(ENODEV);
}
