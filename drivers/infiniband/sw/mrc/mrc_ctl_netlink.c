// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The controller's generic netlink family "mrc" (include/uapi/rdma/mrc-ctl.h):
 * EV profiles in and out, denying single EVs, the device settings
 * (spraying, DSCPs, the CC profile), every connection's EV states and the
 * device's planes, and the controller's connectionless probes.
 * Documentation/controller.rst lists the messages; mrcctl (tools/mrcctl)
 * speaks them.
 *
 * Every request names its device; the handler holds a registration
 * reference on it (mrc_ib_device_get_by_name()) for its duration, so
 * unregistration waits for it. Dumps look the device up again on every
 * call. Changes need CAP_NET_ADMIN over the caller's network namespace,
 * and a device is visible only where ib_core lets that namespace see it.
 */
#include <linux/module.h>
#include <net/genetlink.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>
#include <rdma/mrc-ctl.h>

#include "mrc.h"
#include "mrc_compat.h"
#include "mrc_ctl_events.h"
#include "mrc_devices.h"
#include "mrc_qp.h"

static struct genl_family mrc_ctl_family;

static const struct nla_policy mrc_ctl_ev_policy[MRC_CTL_EV_A_MAX + 1] = {
	[MRC_CTL_EV_A_INDEX] = { .type = NLA_U32 },
	[MRC_CTL_EV_A_PLANE] = NLA_POLICY_MAX(NLA_U32, MRC_EV_PROFILE_MAX_PLANES - 1),
	[MRC_CTL_EV_A_UDP_SPORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[MRC_CTL_EV_A_SRV6] = NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[MRC_CTL_EV_A_STATE] = NLA_POLICY_MAX(NLA_U8, MRC_CTL_EV_DENIED),
};

static const struct nla_policy mrc_ctl_field_policy[MRC_CTL_FIELD_A_MAX + 1] = {
	[MRC_CTL_FIELD_A_WIDTH] = NLA_POLICY_RANGE(NLA_U32, 1, 32),
	[MRC_CTL_FIELD_A_INIT] = { .type = NLA_U32 },
	[MRC_CTL_FIELD_A_MIN_VAL] = { .type = NLA_U32 },
	[MRC_CTL_FIELD_A_MAX_VAL] = { .type = NLA_U32 },
	[MRC_CTL_FIELD_A_MASK] = { .type = NLA_U32 },
};

static const struct nla_policy mrc_ctl_cc_policy[MRC_CTL_CC_A_MAX + 1] = {
	[MRC_CTL_CC_A_BASE_RTT] = { .type = NLA_U64 },
	[MRC_CTL_CC_A_TARGET_DELAY] = { .type = NLA_U64 },
	[MRC_CTL_CC_A_QA_THRESHOLD] = { .type = NLA_U64 },
	[MRC_CTL_CC_A_MTU] = { .type = NLA_U32 },
	[MRC_CTL_CC_A_MAX_CWND] = { .type = NLA_U32 },
	[MRC_CTL_CC_A_ETA] = { .type = NLA_U32 },
	[MRC_CTL_CC_A_FI] = { .type = NLA_U32 },
	[MRC_CTL_CC_A_FI_SCALE] = { .type = NLA_U32 },
	[MRC_CTL_CC_A_PI] = { .type = NLA_U32 },
	[MRC_CTL_CC_A_GAMMA] = { .type = NLA_U32 },
	[MRC_CTL_CC_A_MAX_MD_JUMP] = { .type = NLA_U32 },
	[MRC_CTL_CC_A_QA_GATE] = { .type = NLA_U32 },
	[MRC_CTL_CC_A_DISABLE_QA] = NLA_POLICY_MAX(NLA_U8, 1),
};

/* Every state an EV_EVENT can report. */
#define MRC_CTL_EV_EVENT_MASK_ALL					\
	(BIT(MRC_CTL_EV_UNKNOWN) | BIT(MRC_CTL_EV_GOOD) |		\
	 BIT(MRC_CTL_EV_ASSUMED_BAD) | BIT(MRC_CTL_EV_DENIED))
static const struct nla_policy mrc_ctl_ep_policy[MRC_CTL_EP_A_MAX + 1] = {
	[MRC_CTL_EP_A_REQ_ID] = { .type = NLA_U16 },
	[MRC_CTL_EP_A_SGID] = NLA_POLICY_EXACT_LEN(sizeof(union ib_gid)),
	[MRC_CTL_EP_A_DGID] = NLA_POLICY_EXACT_LEN(sizeof(union ib_gid)),
	[MRC_CTL_EP_A_EV] = NLA_POLICY_NESTED(mrc_ctl_ev_policy),
	/* Range-checked by the handler, which says what the range is. */
	[MRC_CTL_EP_A_DSCP] = { .type = NLA_U8 },
	[MRC_CTL_EP_A_TIMEOUT] = { .type = NLA_U64 },
	[MRC_CTL_EP_A_PORT_STATUS] = { .type = NLA_U32 },
};

static const struct nla_policy mrc_ctl_policy[MRC_CTL_A_MAX + 1] = {
	[MRC_CTL_A_DEV] = { .type = NLA_NUL_STRING,
			    .len = IB_DEVICE_NAME_MAX - 1 },
	[MRC_CTL_A_PROFILE_ID] = NLA_POLICY_RANGE(NLA_U32,
						  MRC_CTL_PROFILE_ID_MIN,
						  MRC_CTL_PROFILE_ID_MAX),
	[MRC_CTL_A_FORMAT] = NLA_POLICY_RANGE(NLA_U8, MRC_CTL_EV_FMT_UDP,
					      MRC_CTL_EV_FMT_SRV6),
	[MRC_CTL_A_MODE] = NLA_POLICY_RANGE(NLA_U8, MRC_CTL_EV_MODE_EXPLICIT,
					    MRC_CTL_EV_MODE_GENERATED),
	[MRC_CTL_A_MIN_ACTIVE] = { .type = NLA_U32 },
	[MRC_CTL_A_PEER] = NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[MRC_CTL_A_DEFAULT] = { .type = NLA_FLAG },
	[MRC_CTL_A_REPLACE] = { .type = NLA_FLAG },
	[MRC_CTL_A_PLANE_MASK] = NLA_POLICY_MASK(NLA_U32,
						 BIT(MRC_EV_PROFILE_MAX_PLANES) - 1),
	[MRC_CTL_A_EVS] = NLA_POLICY_NESTED_ARRAY(mrc_ctl_ev_policy),
	[MRC_CTL_A_EV] = NLA_POLICY_NESTED(mrc_ctl_ev_policy),
	[MRC_CTL_A_FIELDS] = NLA_POLICY_NESTED_ARRAY(mrc_ctl_field_policy),
	[MRC_CTL_A_SINGLE_PATH] = NLA_POLICY_MAX(NLA_U8, 1),
	/* Range-checked by the handler, which says what the range is. */
	[MRC_CTL_A_DATA_DSCP] = { .type = NLA_U8 },
	[MRC_CTL_A_CTRL_DSCP] = { .type = NLA_U8 },
	[MRC_CTL_A_TXQ_PACKETS] = NLA_POLICY_MAX(NLA_U32, MRC_TXQ_PACKETS_MAX),
	[MRC_CTL_A_CC_RTT_FROM_BUILD] = NLA_POLICY_MAX(NLA_U8, 1),
	[MRC_CTL_A_CC_ENABLED] = NLA_POLICY_MAX(NLA_U8, 1),
	[MRC_CTL_A_CC] = NLA_POLICY_NESTED(mrc_ctl_cc_policy),
	[MRC_CTL_A_CC_RESET] = { .type = NLA_FLAG },
	/* Looked up by the handler, which names the presets it knows. */
	[MRC_CTL_A_PRESET] = { .type = NLA_NUL_STRING,
			       .len = MRC_CTL_PRESET_NAME_MAX - 1 },
	[MRC_CTL_A_EVENT_MASK] = NLA_POLICY_MASK(NLA_U32,
						 MRC_CTL_EV_EVENT_MASK_ALL),
	[MRC_CTL_A_EP_REQS] = NLA_POLICY_NESTED_ARRAY(mrc_ctl_ep_policy),
};

/* Names of enum mrc_preset, as the uapi spells them. */
static const char *const mrc_ctl_preset_names[MRC_PRESET_COUNT] = {
	[MRC_PRESET_NIC] = MRC_CTL_PRESET_NIC,
	[MRC_PRESET_LAB] = MRC_CTL_PRESET_LAB,
};

/* The preset @attr names, or -EINVAL. */
static int mrc_ctl_preset(const struct nlattr *attr,
			  struct netlink_ext_ack *extack)
{
	int i;

	for (i = 0; i < MRC_PRESET_COUNT; i++)
		if (!nla_strcmp(attr, mrc_ctl_preset_names[i]))
			return i;
	NL_SET_ERR_MSG_ATTR(extack, attr, "the presets are nic and lab");
	return -EINVAL;
}

/* The named mrc device, with a registration reference, or an ERR_PTR. */
static struct mrc_dev *mrc_ctl_get_dev(struct nlattr **attrs, struct net *net,
				       struct netlink_ext_ack *extack)
{
	struct ib_device *ibdev;

	if (!attrs[MRC_CTL_A_DEV]) {
		NL_SET_ERR_MSG(extack, "no device named");
		return ERR_PTR(-EINVAL);
	}
	ibdev = mrc_ib_device_get_by_name(nla_data(attrs[MRC_CTL_A_DEV]));
	if (!ibdev) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[MRC_CTL_A_DEV],
				    "no such RDMA device");
		return ERR_PTR(-ENODEV);
	}
	if (ibdev->ops.owner != THIS_MODULE ||
	    !rdma_dev_access_netns(ibdev, net)) {
		ib_device_put(ibdev);
		NL_SET_ERR_MSG_ATTR(extack, attrs[MRC_CTL_A_DEV],
				    "not an mrc device");
		return ERR_PTR(-ENODEV);
	}
	return to_mrc_dev(ibdev);
}

static void mrc_ctl_put_dev(struct mrc_dev *mdev)
{
	ib_device_put(&mdev->ib_dev);
}

/* ------------------------------------------------------------------ */
/* Creating a profile                                                  */
/* ------------------------------------------------------------------ */

static int mrc_ctl_parse_ev(const struct nlattr *nest, u8 format,
			    struct mrc_ev_value *ev,
			    struct netlink_ext_ack *extack)
{
	struct nlattr *tb[MRC_CTL_EV_A_MAX + 1];
	int err;

	err = nla_parse_nested(tb, MRC_CTL_EV_A_MAX, nest, mrc_ctl_ev_policy,
			       extack);
	if (err)
		return err;

	memset(ev, 0, sizeof(*ev));
	ev->format = format;
	ev->plane = tb[MRC_CTL_EV_A_PLANE] ?
		nla_get_u32(tb[MRC_CTL_EV_A_PLANE]) : 0;
	if (format == MRC_CTL_EV_FMT_UDP) {
		if (!tb[MRC_CTL_EV_A_UDP_SPORT] || tb[MRC_CTL_EV_A_SRV6]) {
			NL_SET_ERR_MSG_ATTR(extack, nest,
					    "a UDP EV is one source port");
			return -EINVAL;
		}
		ev->udp_sport = nla_get_u16(tb[MRC_CTL_EV_A_UDP_SPORT]);
	} else {
		if (!tb[MRC_CTL_EV_A_SRV6] || tb[MRC_CTL_EV_A_UDP_SPORT]) {
			NL_SET_ERR_MSG_ATTR(extack, nest,
					    "an SRv6 EV is one IPv6 address");
			return -EINVAL;
		}
		nla_memcpy(ev->srv6, tb[MRC_CTL_EV_A_SRV6], sizeof(ev->srv6));
	}
	err = mrc_ev_value_check(ev, MRC_EV_PROFILE_MAX_PLANES);
	if (err)
		NL_SET_ERR_MSG_ATTR(extack, nest, "unusable EV value");
	return err;
}

static struct mrc_profile *
mrc_ctl_explicit_profile(struct nlattr **attrs, u8 format,
			 struct netlink_ext_ack *extack)
{
	struct mrc_profile *profile;
	struct nlattr *nest;
	int rem, count = 0, err;
	u32 i = 0;

	if (!attrs[MRC_CTL_A_EVS] || attrs[MRC_CTL_A_FIELDS]) {
		NL_SET_ERR_MSG(extack, "an explicit profile lists EVs");
		return ERR_PTR(-EINVAL);
	}
	nla_for_each_nested(nest, attrs[MRC_CTL_A_EVS], rem)
		count++;
	if (!count || count > MRC_EV_PROFILE_MAX_EVS) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[MRC_CTL_A_EVS],
				    "1 to 1024 EVs");
		return ERR_PTR(count ? -E2BIG : -EINVAL);
	}

	profile = mrc_profile_alloc(count);
	if (!profile)
		return ERR_PTR(-ENOMEM);
	nla_for_each_nested(nest, attrs[MRC_CTL_A_EVS], rem) {
		err = mrc_ctl_parse_ev(nest, format, &profile->evs[i], extack);
		if (err)
			goto err;
		i++;
	}
	return profile;
err:
	mrc_profile_put(profile);
	return ERR_PTR(err);
}

static u32 mrc_ctl_u32_or_zero(const struct nlattr *attr)
{
	return attr ? nla_get_u32(attr) : 0;
}

static int mrc_ctl_parse_fields(const struct nlattr *list,
				struct mrc_ev_field *fields, u32 *num_fields,
				struct netlink_ext_ack *extack)
{
	struct nlattr *tb[MRC_CTL_FIELD_A_MAX + 1];
	struct nlattr *nest;
	int rem, err;
	u32 n = 0;

	nla_for_each_nested(nest, list, rem) {
		if (n == MRC_EV_MAX_FIELDS) {
			NL_SET_ERR_MSG_ATTR(extack, nest, "at most 8 fields");
			return -EINVAL;
		}
		err = nla_parse_nested(tb, MRC_CTL_FIELD_A_MAX, nest,
				       mrc_ctl_field_policy, extack);
		if (err)
			return err;
		if (!tb[MRC_CTL_FIELD_A_WIDTH]) {
			NL_SET_ERR_MSG_ATTR(extack, nest, "a field has a width");
			return -EINVAL;
		}
		fields[n].width = nla_get_u32(tb[MRC_CTL_FIELD_A_WIDTH]);
		fields[n].init = mrc_ctl_u32_or_zero(tb[MRC_CTL_FIELD_A_INIT]);
		fields[n].min = mrc_ctl_u32_or_zero(tb[MRC_CTL_FIELD_A_MIN_VAL]);
		fields[n].max = mrc_ctl_u32_or_zero(tb[MRC_CTL_FIELD_A_MAX_VAL]);
		fields[n].mask = mrc_ctl_u32_or_zero(tb[MRC_CTL_FIELD_A_MASK]);
		n++;
	}
	*num_fields = n;
	return 0;
}

static struct mrc_profile *
mrc_ctl_generated_profile(struct nlattr **attrs, u8 format,
			  struct netlink_ext_ack *extack)
{
	struct mrc_ev_field fields[MRC_EV_MAX_FIELDS];
	struct mrc_profile *profile;
	u32 num_fields, values, planes, plane_mask, v, p, i = 0;
	int err;

	if (!attrs[MRC_CTL_A_FIELDS] || attrs[MRC_CTL_A_EVS]) {
		NL_SET_ERR_MSG(extack, "a generated profile lists fields");
		return ERR_PTR(-EINVAL);
	}
	err = mrc_ctl_parse_fields(attrs[MRC_CTL_A_FIELDS], fields,
				   &num_fields, extack);
	if (err)
		return ERR_PTR(err);
	err = mrc_ev_fields_check(format, fields, num_fields, &values);
	if (err) {
		if (err == -E2BIG)
			NL_SET_ERR_MSG_ATTR(extack, attrs[MRC_CTL_A_FIELDS],
					    "expands to over 1024 EVs");
		else
			NL_SET_ERR_MSG_ATTR(extack, attrs[MRC_CTL_A_FIELDS],
					    "malformed fields");
		return ERR_PTR(err);
	}
	plane_mask = attrs[MRC_CTL_A_PLANE_MASK] ?
		nla_get_u32(attrs[MRC_CTL_A_PLANE_MASK]) : BIT(0);
	planes = hweight32(plane_mask);
	if (!planes || values * planes > MRC_EV_PROFILE_MAX_EVS) {
		NL_SET_ERR_MSG(extack, "no plane, or over 1024 EVs");
		return ERR_PTR(planes ? -E2BIG : -EINVAL);
	}

	profile = mrc_profile_alloc(values * planes);
	if (!profile)
		return ERR_PTR(-ENOMEM);
	profile->plane_mask = plane_mask;
	profile->num_fields = num_fields;
	memcpy(profile->fields, fields, num_fields * sizeof(fields[0]));

	/* Each value on every plane, planes interleaved. */
	for (v = 0; v < values; v++) {
		for (p = 0; p < MRC_EV_PROFILE_MAX_PLANES; p++) {
			struct mrc_ev_value *ev = &profile->evs[i];

			if (!(plane_mask & BIT(p)))
				continue;
			mrc_ev_generate(format, fields, num_fields, v, ev);
			ev->plane = p;
			err = mrc_ev_value_check(ev, MRC_EV_PROFILE_MAX_PLANES);
			if (err) {
				NL_SET_ERR_MSG(extack,
					       "fields generate an unusable EV");
				mrc_profile_put(profile);
				return ERR_PTR(err);
			}
			i++;
		}
	}
	return profile;
}

static int mrc_ctl_profile_new(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **attrs = info->attrs;
	struct mrc_profile *profile;
	struct mrc_dev *mdev;
	u8 format, mode;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, MRC_CTL_A_PROFILE_ID) ||
	    GENL_REQ_ATTR_CHECK(info, MRC_CTL_A_FORMAT) ||
	    GENL_REQ_ATTR_CHECK(info, MRC_CTL_A_MODE))
		return -EINVAL;
	format = nla_get_u8(attrs[MRC_CTL_A_FORMAT]);
	mode = nla_get_u8(attrs[MRC_CTL_A_MODE]);

	mdev = mrc_ctl_get_dev(attrs, genl_info_net(info), extack);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);

	if (mode == MRC_CTL_EV_MODE_EXPLICIT)
		profile = mrc_ctl_explicit_profile(attrs, format, extack);
	else
		profile = mrc_ctl_generated_profile(attrs, format, extack);
	if (IS_ERR(profile)) {
		err = PTR_ERR(profile);
		goto out;
	}

	profile->id = nla_get_u32(attrs[MRC_CTL_A_PROFILE_ID]);
	profile->format = format;
	profile->mode = mode;
	profile->min_active = attrs[MRC_CTL_A_MIN_ACTIVE] ?
		nla_get_u32(attrs[MRC_CTL_A_MIN_ACTIVE]) : 1;
	if (profile->min_active > profile->num_evs) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[MRC_CTL_A_MIN_ACTIVE],
				    "more than the profile's EVs");
		mrc_profile_put(profile);
		err = -EINVAL;
		goto out;
	}
	profile->event_mask =
		mrc_ctl_u32_or_zero(attrs[MRC_CTL_A_EVENT_MASK]);
	if (attrs[MRC_CTL_A_PEER]) {
		profile->has_peer = true;
		nla_memcpy(&profile->peer, attrs[MRC_CTL_A_PEER],
			   sizeof(profile->peer));
	}

	err = mrc_profile_add(mdev, profile,
			      nla_get_flag(attrs[MRC_CTL_A_REPLACE]),
			      nla_get_flag(attrs[MRC_CTL_A_DEFAULT]), extack);
out:
	mrc_ctl_put_dev(mdev);
	return err;
}

static int mrc_ctl_profile_del(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_dev *mdev;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, MRC_CTL_A_PROFILE_ID))
		return -EINVAL;
	mdev = mrc_ctl_get_dev(info->attrs, genl_info_net(info),
			       info->extack);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	err = mrc_profile_del(mdev,
			      nla_get_u32(info->attrs[MRC_CTL_A_PROFILE_ID]));
	if (err == -EBUSY)
		NL_SET_ERR_MSG(info->extack, "QPs are bound to the profile");
	else if (err)
		NL_SET_ERR_MSG(info->extack, "no such profile");
	mrc_ctl_put_dev(mdev);
	return err;
}

/* ------------------------------------------------------------------ */
/* Denying and allowing one EV                                         */
/* ------------------------------------------------------------------ */

/* The EV an EV_SET names, by index or by value; -ENOENT if none. */
static int mrc_ctl_find_ev(const struct mrc_profile *profile,
			   struct nlattr **tb, const struct nlattr *nest,
			   struct netlink_ext_ack *extack)
{
	struct mrc_ev_value want;
	int err;
	u32 i;

	if (tb[MRC_CTL_EV_A_INDEX]) {
		i = nla_get_u32(tb[MRC_CTL_EV_A_INDEX]);
		return i < profile->num_evs ? i : -ENOENT;
	}
	err = mrc_ctl_parse_ev(nest, profile->format, &want, extack);
	if (err)
		return err;
	for (i = 0; i < profile->num_evs; i++)
		if (mrc_ev_value_equal(&profile->evs[i], &want))
			return i;
	return -ENOENT;
}

static int mrc_ctl_ev_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_CTL_EV_A_MAX + 1];
	struct netlink_ext_ack *extack = info->extack;
	struct mrc_profile *profile;
	struct mrc_dev *mdev;
	int err, index;
	u8 state;

	if (GENL_REQ_ATTR_CHECK(info, MRC_CTL_A_PROFILE_ID) ||
	    GENL_REQ_ATTR_CHECK(info, MRC_CTL_A_EV))
		return -EINVAL;
	err = nla_parse_nested(tb, MRC_CTL_EV_A_MAX, info->attrs[MRC_CTL_A_EV],
			       mrc_ctl_ev_policy, extack);
	if (err)
		return err;
	if (!tb[MRC_CTL_EV_A_STATE]) {
		NL_SET_ERR_MSG(extack, "no state given");
		return -EINVAL;
	}
	state = nla_get_u8(tb[MRC_CTL_EV_A_STATE]);
	/* The controller denies or allows; the data path decides the rest. */
	if (state != MRC_CTL_EV_DENIED && state != MRC_CTL_EV_GOOD) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_CTL_EV_A_STATE],
				    "only DENIED or GOOD (allow) can be set");
		return -EINVAL;
	}

	mdev = mrc_ctl_get_dev(info->attrs, genl_info_net(info), extack);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	profile = mrc_profile_get(mdev,
				  nla_get_u32(info->attrs[MRC_CTL_A_PROFILE_ID]));
	if (!profile) {
		NL_SET_ERR_MSG(extack, "no such profile");
		err = -ENOENT;
		goto out;
	}
	index = mrc_ctl_find_ev(profile, tb, info->attrs[MRC_CTL_A_EV],
				extack);
	if (index < 0) {
		if (index == -ENOENT)
			NL_SET_ERR_MSG(extack, "no such EV in the profile");
		err = index;
	} else {
		bool deny = state == MRC_CTL_EV_DENIED;
		bool was;

		if (deny)
			was = test_and_set_bit(index, profile->denied);
		else
			was = test_and_clear_bit(index, profile->denied);
		/* QPs re-read the bitmap when they see a new generation. */
		smp_mb__before_atomic();
		atomic_inc(&profile->deny_gen);
		/* The profile's own view changed: the controller hears it. */
		if (was != deny)
			mrc_ctl_event(mdev, profile, index,
				      profile->has_peer ? &profile->peer : NULL,
				      0, state,
				      deny ? MRC_CTL_EV_REASON_DENIED :
				      MRC_CTL_EV_REASON_ALLOWED);
		err = 0;
	}
	mrc_profile_put(profile);
out:
	mrc_ctl_put_dev(mdev);
	return err;
}

/* ------------------------------------------------------------------ */
/* Device settings                                                     */
/* ------------------------------------------------------------------ */

/* A DSCP attribute, if given, is 0..63; -ERANGE otherwise. */
static int mrc_ctl_check_dscp(const struct nlattr *attr,
			      struct netlink_ext_ack *extack)
{
	if (attr && nla_get_u8(attr) > MRC_DSCP_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "a DSCP is 0..63");
		return -ERANGE;
	}
	return 0;
}

static int mrc_ctl_dev_set(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **attrs = info->attrs;
	struct mrc_dev_settings *s;
	struct mrc_dev *mdev;
	int err, preset = -1;

	if (!attrs[MRC_CTL_A_SINGLE_PATH] && !attrs[MRC_CTL_A_DATA_DSCP] &&
	    !attrs[MRC_CTL_A_CTRL_DSCP] && !attrs[MRC_CTL_A_TXQ_PACKETS] &&
	    !attrs[MRC_CTL_A_CC_RTT_FROM_BUILD] && !attrs[MRC_CTL_A_PRESET]) {
		NL_SET_ERR_MSG(extack, "nothing to set");
		return -EINVAL;
	}
	if (attrs[MRC_CTL_A_PRESET]) {
		preset = mrc_ctl_preset(attrs[MRC_CTL_A_PRESET], extack);
		if (preset < 0)
			return preset;
	}
	err = mrc_ctl_check_dscp(attrs[MRC_CTL_A_DATA_DSCP], extack);
	if (!err)
		err = mrc_ctl_check_dscp(attrs[MRC_CTL_A_CTRL_DSCP], extack);
	if (err)
		return err;

	mdev = mrc_ctl_get_dev(attrs, genl_info_net(info), extack);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	s = &mdev->settings;
	/* The data path reads these lock-free (mrc_settings.h). */
	spin_lock_bh(&mdev->settings_lock);
	/* First, so the other attributes of the request apply on top. */
	if (preset >= 0)
		mrc_dev_settings_preset(s, preset);
	if (attrs[MRC_CTL_A_SINGLE_PATH])
		WRITE_ONCE(s->single_path,
			   !!nla_get_u8(attrs[MRC_CTL_A_SINGLE_PATH]));
	if (attrs[MRC_CTL_A_DATA_DSCP])
		WRITE_ONCE(s->data_dscp,
			   nla_get_u8(attrs[MRC_CTL_A_DATA_DSCP]));
	if (attrs[MRC_CTL_A_CTRL_DSCP])
		WRITE_ONCE(s->ctrl_dscp,
			   nla_get_u8(attrs[MRC_CTL_A_CTRL_DSCP]));
	if (attrs[MRC_CTL_A_TXQ_PACKETS])
		WRITE_ONCE(s->txq_packets,
			   nla_get_u32(attrs[MRC_CTL_A_TXQ_PACKETS]));
	if (attrs[MRC_CTL_A_CC_RTT_FROM_BUILD])
		s->cc_rtt_from_build =
			!!nla_get_u8(attrs[MRC_CTL_A_CC_RTT_FROM_BUILD]);
	spin_unlock_bh(&mdev->settings_lock);
	mrc_ctl_put_dev(mdev);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Reporting                                                           */
/* ------------------------------------------------------------------ */

/*
 * A plane's identity and state, in a PLANE nest of DEV_GET or PLANE_GET;
 * an empty slot has no netdev, so only INDEX and UP.
 */
static int mrc_ctl_put_plane_state(struct sk_buff *msg, u32 index,
				   const struct mrc_plane_report *r)
{
	if (nla_put_u32(msg, MRC_CTL_PLANE_A_INDEX, index) ||
	    nla_put_u8(msg, MRC_CTL_PLANE_A_UP, r->up))
		return -EMSGSIZE;
	if (!r->netdev[0])
		return 0;
	if (nla_put_string(msg, MRC_CTL_PLANE_A_NETDEV, r->netdev) ||
	    nla_put_u32(msg, MRC_CTL_PLANE_A_IFINDEX, r->ifindex) ||
	    nla_put_u8(msg, MRC_CTL_PLANE_A_ADMIN_UP, r->admin_up))
		return -EMSGSIZE;
	return 0;
}

/* DEV_GET's PLANES nest: the @n planes of one table, in index order. */
static int mrc_ctl_put_planes(struct sk_buff *msg,
			      const struct mrc_plane_report *r, unsigned int n)
{
	struct nlattr *list, *nest;
	unsigned int p;

	list = nla_nest_start(msg, MRC_CTL_A_PLANES);
	if (!list)
		return -EMSGSIZE;
	for (p = 0; p < n; p++) {
		nest = nla_nest_start(msg, MRC_CTL_A_PLANE);
		if (!nest || mrc_ctl_put_plane_state(msg, p, &r[p]))
			return -EMSGSIZE;
		nla_nest_end(msg, nest);
	}
	nla_nest_end(msg, list);
	return 0;
}

static int mrc_ctl_fill_dev(struct sk_buff *msg, struct mrc_dev *mdev,
			    u32 portid, u32 seq, int flags)
{
	struct mrc_plane_report planes[MRC_EV_MAX_PLANES];
	struct mrc_dev_settings s;
	unsigned int n_planes;
	u8 num_planes;
	void *hdr;

	spin_lock_bh(&mdev->settings_lock);
	s = mdev->settings;
	spin_unlock_bh(&mdev->settings_lock);
	/* NUM_PLANES and the nest from one table, so that they agree. */
	n_planes = mrc_planes_report_all(mdev, planes, &num_planes);

	hdr = genlmsg_put(msg, portid, seq, &mrc_ctl_family, flags,
			  MRC_CTL_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(msg, MRC_CTL_A_DEV, dev_name(&mdev->ib_dev.dev)) ||
	    nla_put_string(msg, MRC_CTL_A_NETDEV, mdev->ndev->name) ||
	    nla_put_u32(msg, MRC_CTL_A_NUM_PLANES, num_planes) ||
	    nla_put_u32(msg, MRC_CTL_A_DEFAULT_PROFILE,
			mrc_profile_default_id(mdev)) ||
	    nla_put_u8(msg, MRC_CTL_A_SINGLE_PATH, s.single_path) ||
	    nla_put_u8(msg, MRC_CTL_A_DATA_DSCP, s.data_dscp) ||
	    nla_put_u8(msg, MRC_CTL_A_CTRL_DSCP, s.ctrl_dscp) ||
	    nla_put_u32(msg, MRC_CTL_A_TXQ_PACKETS, s.txq_packets) ||
	    nla_put_u8(msg, MRC_CTL_A_CC_RTT_FROM_BUILD, s.cc_rtt_from_build) ||
	    nla_put_u8(msg, MRC_CTL_A_CC_ENABLED, s.cc_enabled) ||
	    nla_put_string(msg, MRC_CTL_A_PRESET,
			   mrc_ctl_preset_names[s.preset]) ||
	    mrc_ctl_put_planes(msg, planes, n_planes)) {
		genlmsg_cancel(msg, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

static int mrc_ctl_dev_get(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_dev *mdev;
	struct sk_buff *msg;
	int err;

	mdev = mrc_ctl_get_dev(info->attrs, genl_info_net(info),
			       info->extack);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto out;
	}
	err = mrc_ctl_fill_dev(msg, mdev, info->snd_portid, info->snd_seq, 0);
	if (err) {
		nlmsg_free(msg);
		goto out;
	}
	err = genlmsg_reply(msg, info);
out:
	mrc_ctl_put_dev(mdev);
	return err;
}

static int mrc_ctl_dev_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	struct mrc_dev *mdev;
	int err;

	/* cb->args[0]: how many devices earlier calls got through. */
	while ((mdev = mrc_dev_get_nth(cb->args[0]))) {
		err = 0;
		if (rdma_dev_access_netns(&mdev->ib_dev, net))
			err = mrc_ctl_fill_dev(skb, mdev,
					       NETLINK_CB(cb->skb).portid,
					       cb->nlh->nlmsg_seq,
					       NLM_F_MULTI);
		mrc_ctl_put_dev(mdev);
		if (err)
			break;
		cb->args[0]++;
	}
	return skb->len;
}

static int mrc_ctl_put_fields(struct sk_buff *msg,
			      const struct mrc_profile *profile)
{
	struct nlattr *list, *nest;
	u32 i;

	list = nla_nest_start(msg, MRC_CTL_A_FIELDS);
	if (!list)
		return -EMSGSIZE;
	for (i = 0; i < profile->num_fields; i++) {
		const struct mrc_ev_field *f = &profile->fields[i];

		nest = nla_nest_start(msg, MRC_CTL_A_FIELD);
		if (!nest ||
		    nla_put_u32(msg, MRC_CTL_FIELD_A_WIDTH, f->width) ||
		    nla_put_u32(msg, MRC_CTL_FIELD_A_INIT, f->init) ||
		    nla_put_u32(msg, MRC_CTL_FIELD_A_MIN_VAL, f->min) ||
		    nla_put_u32(msg, MRC_CTL_FIELD_A_MAX_VAL, f->max) ||
		    nla_put_u32(msg, MRC_CTL_FIELD_A_MASK, f->mask))
			return -EMSGSIZE;
		nla_nest_end(msg, nest);
	}
	nla_nest_end(msg, list);
	return 0;
}

static int mrc_ctl_fill_profile(struct sk_buff *msg, struct mrc_dev *mdev,
				const struct mrc_profile *profile,
				struct netlink_callback *cb)
{
	void *hdr;

	hdr = genlmsg_put(msg, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &mrc_ctl_family, NLM_F_MULTI,
			  MRC_CTL_CMD_PROFILE_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(msg, MRC_CTL_A_DEV, dev_name(&mdev->ib_dev.dev)) ||
	    nla_put_u32(msg, MRC_CTL_A_PROFILE_ID, profile->id) ||
	    nla_put_u8(msg, MRC_CTL_A_FORMAT, profile->format) ||
	    nla_put_u8(msg, MRC_CTL_A_MODE, profile->mode) ||
	    nla_put_u32(msg, MRC_CTL_A_MIN_ACTIVE, profile->min_active) ||
	    nla_put_u32(msg, MRC_CTL_A_NUM_EVS, profile->num_evs) ||
	    nla_put_u32(msg, MRC_CTL_A_EVENT_MASK, profile->event_mask) ||
	    (profile->has_peer &&
	     nla_put_in6_addr(msg, MRC_CTL_A_PEER, &profile->peer)) ||
	    (mrc_profile_default_id(mdev) == profile->id &&
	     nla_put_flag(msg, MRC_CTL_A_DEFAULT)) ||
	    (profile->mode == MRC_CTL_EV_MODE_GENERATED &&
	     (nla_put_u32(msg, MRC_CTL_A_PLANE_MASK, profile->plane_mask) ||
	      mrc_ctl_put_fields(msg, profile)))) {
		genlmsg_cancel(msg, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

static int mrc_ctl_profile_dump(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	struct nlattr **attrs = mrc_genl_dump_attrs(cb);
	struct mrc_profile *profile;
	struct mrc_dev *mdev;
	unsigned long id;
	int err = 0;

	mdev = mrc_ctl_get_dev(attrs, sock_net(skb->sk), cb->extack);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);

	/* cb->args[0]: the next profile id to report. */
	for (id = max_t(unsigned long, cb->args[0], MRC_CTL_PROFILE_ID_MIN);
	     id <= MRC_CTL_PROFILE_ID_MAX; id++) {
		profile = mrc_profile_get(mdev, id);
		if (!profile)
			continue;
		err = mrc_ctl_fill_profile(skb, mdev, profile, cb);
		mrc_profile_put(profile);
		if (err)
			break;
	}
	cb->args[0] = id;
	mrc_ctl_put_dev(mdev);
	/* A profile too big for an empty message would loop forever. */
	if (err && !skb->len)
		return err;
	return skb->len;
}

static int mrc_ctl_fill_ev(struct sk_buff *msg, struct mrc_dev *mdev,
			   const struct mrc_profile *profile, u32 index,
			   struct netlink_callback *cb)
{
	const struct mrc_ev_value *ev = &profile->evs[index];
	struct nlattr *nest;
	void *hdr;
	u8 state = test_bit(index, profile->denied) ? MRC_CTL_EV_DENIED :
						       MRC_CTL_EV_GOOD;

	hdr = genlmsg_put(msg, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &mrc_ctl_family, NLM_F_MULTI, MRC_CTL_CMD_EV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(msg, MRC_CTL_A_DEV, dev_name(&mdev->ib_dev.dev)) ||
	    nla_put_u32(msg, MRC_CTL_A_PROFILE_ID, profile->id))
		goto cancel;
	nest = nla_nest_start(msg, MRC_CTL_A_EV);
	if (!nest ||
	    nla_put_u32(msg, MRC_CTL_EV_A_INDEX, index) ||
	    nla_put_u32(msg, MRC_CTL_EV_A_PLANE, ev->plane) ||
	    nla_put_u8(msg, MRC_CTL_EV_A_STATE, state) ||
	    (ev->format == MRC_CTL_EV_FMT_UDP ?
	     nla_put_u16(msg, MRC_CTL_EV_A_UDP_SPORT, ev->udp_sport) :
	     nla_put(msg, MRC_CTL_EV_A_SRV6, sizeof(ev->srv6), ev->srv6)))
		goto cancel;
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	return 0;
cancel:
	genlmsg_cancel(msg, hdr);
	return -EMSGSIZE;
}

static int mrc_ctl_ev_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = mrc_genl_dump_attrs(cb);
	struct mrc_profile *profile;
	struct mrc_dev *mdev;
	u32 index;

	if (!attrs[MRC_CTL_A_PROFILE_ID]) {
		NL_SET_ERR_MSG(cb->extack, "no profile id");
		return -EINVAL;
	}
	mdev = mrc_ctl_get_dev(attrs, sock_net(skb->sk), cb->extack);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	profile = mrc_profile_get(mdev,
				  nla_get_u32(attrs[MRC_CTL_A_PROFILE_ID]));
	if (!profile) {
		mrc_ctl_put_dev(mdev);
		NL_SET_ERR_MSG(cb->extack, "no such profile");
		return -ENOENT;
	}
	/* cb->args[0]: the next EV index to report. */
	for (index = cb->args[0]; index < profile->num_evs; index++)
		if (mrc_ctl_fill_ev(skb, mdev, profile, index, cb))
			break;
	cb->args[0] = index;
	mrc_profile_put(profile);
	mrc_ctl_put_dev(mdev);
	return skb->len;
}

/* ------------------------------------------------------------------ */
/* The CC profile                                                      */
/* ------------------------------------------------------------------ */

/*
 * Where each CC attribute lives in struct mrc_nscc_params, and what to say
 * when it is the one that makes the profile unusable.
 */
struct mrc_ctl_cc_field {
	size_t offset;
	u8 size;		/* 8, 4 or 1 (bool) */
	const char *why;	/* static: extack keeps the pointer */
};

#define MRC_CTL_CC_OFF(member)	offsetof(struct mrc_nscc_params, member)
#define MRC_CTL_CC_SIZE(member)	sizeof_field(struct mrc_nscc_params, member)

static const struct mrc_ctl_cc_field mrc_ctl_cc_fields[MRC_CTL_CC_A_MAX + 1] = {
	[MRC_CTL_CC_A_BASE_RTT] = {
		MRC_CTL_CC_OFF(base_rtt), MRC_CTL_CC_SIZE(base_rtt),
		"base_rtt is at most 10 s",
	},
	[MRC_CTL_CC_A_TARGET_DELAY] = {
		MRC_CTL_CC_OFF(target_delay), MRC_CTL_CC_SIZE(target_delay),
		"target_delay is 1 ns..10 s and at most qa_threshold",
	},
	[MRC_CTL_CC_A_QA_THRESHOLD] = {
		MRC_CTL_CC_OFF(qa_threshold), MRC_CTL_CC_SIZE(qa_threshold),
		"qa_threshold is target_delay..10 s",
	},
	[MRC_CTL_CC_A_MTU] = {
		MRC_CTL_CC_OFF(mtu), MRC_CTL_CC_SIZE(mtu),
		"mtu is 64..65536 and at most max_cwnd",
	},
	[MRC_CTL_CC_A_MAX_CWND] = {
		MRC_CTL_CC_OFF(max_cwnd), MRC_CTL_CC_SIZE(max_cwnd),
		"max_cwnd is mtu..1 GiB and at least eta, fi and pi",
	},
	[MRC_CTL_CC_A_ETA] = {
		MRC_CTL_CC_OFF(eta), MRC_CTL_CC_SIZE(eta),
		"eta is at most max_cwnd",
	},
	[MRC_CTL_CC_A_FI] = {
		MRC_CTL_CC_OFF(fi), MRC_CTL_CC_SIZE(fi),
		"fi is at most max_cwnd",
	},
	[MRC_CTL_CC_A_FI_SCALE] = {
		MRC_CTL_CC_OFF(fi_scale), MRC_CTL_CC_SIZE(fi_scale),
		"fi_scale is 0..1000 thousandths",
	},
	[MRC_CTL_CC_A_PI] = {
		MRC_CTL_CC_OFF(pi), MRC_CTL_CC_SIZE(pi),
		"pi is at most max_cwnd",
	},
	[MRC_CTL_CC_A_GAMMA] = {
		MRC_CTL_CC_OFF(gamma), MRC_CTL_CC_SIZE(gamma),
		"gamma is 0..1000 thousandths",
	},
	[MRC_CTL_CC_A_MAX_MD_JUMP] = {
		MRC_CTL_CC_OFF(max_md_jump), MRC_CTL_CC_SIZE(max_md_jump),
		"max_md_jump is 1..999 thousandths",
	},
	[MRC_CTL_CC_A_QA_GATE] = {
		MRC_CTL_CC_OFF(qa_gate), MRC_CTL_CC_SIZE(qa_gate),
		"qa_gate is 0..31",
	},
	[MRC_CTL_CC_A_DISABLE_QA] = {
		MRC_CTL_CC_OFF(disable_qa), MRC_CTL_CC_SIZE(disable_qa),
		"disable_qa is 0 or 1",
	},
};

static void mrc_ctl_cc_copy_field(struct mrc_nscc_params *to,
				  const struct mrc_nscc_params *from, int type)
{
	const struct mrc_ctl_cc_field *f = &mrc_ctl_cc_fields[type];

	memcpy((u8 *)to + f->offset, (const u8 *)from + f->offset, f->size);
}

static void mrc_ctl_cc_set_field(struct mrc_nscc_params *p, int type,
				 const struct nlattr *attr)
{
	const struct mrc_ctl_cc_field *f = &mrc_ctl_cc_fields[type];
	void *field = (u8 *)p + f->offset;

	switch (f->size) {
	case sizeof(u64):
		*(u64 *)field = nla_get_u64(attr);
		break;
	case sizeof(u32):
		*(u32 *)field = nla_get_u32(attr);
		break;
	default:
		*(bool *)field = nla_get_u8(attr);
		break;
	}
}

/* Points the extended ack at @attr with a static message. */
static void mrc_ctl_cc_blame_attr(struct netlink_ext_ack *extack, int type,
				  const struct nlattr *attr)
{
	/* NL_SET_ERR_MSG_ATTR() wants a literal; this is its effect. */
	if (extack) {
		extack->_msg = mrc_ctl_cc_fields[type].why;
		extack->bad_attr = attr;
	}
}

/*
 * @p, made of @base and the attributes in @tb, fails the NSCC check. Name
 * an attribute that fails on its own with the rest as in @base; else one
 * without which @p would pass; else the nest.
 */
static void mrc_ctl_cc_blame(const struct mrc_nscc_params *p,
			     const struct mrc_nscc_params *base,
			     struct nlattr **tb, const struct nlattr *nest,
			     struct netlink_ext_ack *extack)
{
	struct mrc_nscc_params trial;
	int type;

	for (type = 1; type <= MRC_CTL_CC_A_MAX; type++) {
		if (!tb[type] || !mrc_ctl_cc_fields[type].why)
			continue;
		trial = *base;
		mrc_ctl_cc_copy_field(&trial, p, type);
		if (mrc_nscc_params_check(&trial)) {
			mrc_ctl_cc_blame_attr(extack, type, tb[type]);
			return;
		}
	}
	for (type = 1; type <= MRC_CTL_CC_A_MAX; type++) {
		if (!tb[type] || !mrc_ctl_cc_fields[type].why)
			continue;
		trial = *p;
		mrc_ctl_cc_copy_field(&trial, base, type);
		if (!mrc_nscc_params_check(&trial)) {
			mrc_ctl_cc_blame_attr(extack, type, tb[type]);
			return;
		}
	}
	NL_SET_ERR_MSG_ATTR(extack, nest,
			    "the CC parameters are not consistent together");
}

/*
 * CC_SET: the attributes given replace those of the current profile (or of
 * the device preset's with CC_RESET); the result must pass
 * mrc_nscc_params_check() as a whole, or nothing changes. The family's
 * handlers run in parallel (EP_PROBE waits), so CC_SETs take
 * mrc_ctl_cc_lock: two controllers cannot lose each other's changes
 * between the read and the write.
 */
static DEFINE_MUTEX(mrc_ctl_cc_lock);

static int mrc_ctl_cc_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_CTL_CC_A_MAX + 1] = {};
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **attrs = info->attrs;
	struct mrc_nscc_params base, p;
	bool reset = nla_get_flag(attrs[MRC_CTL_A_CC_RESET]);
	struct mrc_dev *mdev;
	int type, err;

	if (!attrs[MRC_CTL_A_CC] && !attrs[MRC_CTL_A_CC_ENABLED] && !reset) {
		NL_SET_ERR_MSG(extack, "nothing to set");
		return -EINVAL;
	}
	if (attrs[MRC_CTL_A_CC]) {
		err = nla_parse_nested(tb, MRC_CTL_CC_A_MAX,
				       attrs[MRC_CTL_A_CC], mrc_ctl_cc_policy,
				       extack);
		if (err)
			return err;
	}

	mdev = mrc_ctl_get_dev(attrs, genl_info_net(info), extack);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	mutex_lock(&mrc_ctl_cc_lock);
	spin_lock_bh(&mdev->settings_lock);
	if (reset)
		mrc_preset_cc(mdev->settings.preset, &base);
	else
		base = mdev->settings.cc;
	spin_unlock_bh(&mdev->settings_lock);
	p = base;
	for (type = 1; type <= MRC_CTL_CC_A_MAX; type++)
		if (tb[type] && mrc_ctl_cc_fields[type].size)
			mrc_ctl_cc_set_field(&p, type, tb[type]);
	err = mrc_nscc_params_check(&p);
	if (err) {
		mrc_ctl_cc_blame(&p, &base, tb, attrs[MRC_CTL_A_CC], extack);
		goto out;
	}

	spin_lock_bh(&mdev->settings_lock);
	if (attrs[MRC_CTL_A_CC] || reset)
		mdev->settings.cc = p;
	if (attrs[MRC_CTL_A_CC_ENABLED])
		WRITE_ONCE(mdev->settings.cc_enabled,
			   !!nla_get_u8(attrs[MRC_CTL_A_CC_ENABLED]));
	spin_unlock_bh(&mdev->settings_lock);
out:
	mutex_unlock(&mrc_ctl_cc_lock);
	mrc_ctl_put_dev(mdev);
	return err;
}

static int mrc_ctl_put_cc(struct sk_buff *msg, const struct mrc_nscc_params *p)
{
	struct nlattr *nest = nla_nest_start(msg, MRC_CTL_A_CC);

	if (!nest ||
	    nla_put_u64_64bit(msg, MRC_CTL_CC_A_BASE_RTT, p->base_rtt,
			      MRC_CTL_CC_A_PAD) ||
	    nla_put_u64_64bit(msg, MRC_CTL_CC_A_TARGET_DELAY, p->target_delay,
			      MRC_CTL_CC_A_PAD) ||
	    nla_put_u64_64bit(msg, MRC_CTL_CC_A_QA_THRESHOLD, p->qa_threshold,
			      MRC_CTL_CC_A_PAD) ||
	    nla_put_u32(msg, MRC_CTL_CC_A_MTU, p->mtu) ||
	    nla_put_u32(msg, MRC_CTL_CC_A_MAX_CWND, p->max_cwnd) ||
	    nla_put_u32(msg, MRC_CTL_CC_A_ETA, p->eta) ||
	    nla_put_u32(msg, MRC_CTL_CC_A_FI, p->fi) ||
	    nla_put_u32(msg, MRC_CTL_CC_A_FI_SCALE, p->fi_scale) ||
	    nla_put_u32(msg, MRC_CTL_CC_A_PI, p->pi) ||
	    nla_put_u32(msg, MRC_CTL_CC_A_GAMMA, p->gamma) ||
	    nla_put_u32(msg, MRC_CTL_CC_A_MAX_MD_JUMP, p->max_md_jump) ||
	    nla_put_u32(msg, MRC_CTL_CC_A_QA_GATE, p->qa_gate) ||
	    nla_put_u8(msg, MRC_CTL_CC_A_DISABLE_QA, p->disable_qa))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static int mrc_ctl_cc_get(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_nscc_params p;
	struct mrc_dev *mdev;
	struct sk_buff *msg;
	bool enabled;
	void *hdr;
	int err;

	mdev = mrc_ctl_get_dev(info->attrs, genl_info_net(info),
			       info->extack);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	spin_lock_bh(&mdev->settings_lock);
	p = mdev->settings.cc;
	enabled = mdev->settings.cc_enabled;
	spin_unlock_bh(&mdev->settings_lock);

	err = -ENOMEM;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		goto out;
	err = -EMSGSIZE;
	hdr = genlmsg_put(msg, info->snd_portid, info->snd_seq,
			  &mrc_ctl_family, 0, MRC_CTL_CMD_CC_GET);
	if (!hdr ||
	    nla_put_string(msg, MRC_CTL_A_DEV, dev_name(&mdev->ib_dev.dev)) ||
	    nla_put_u8(msg, MRC_CTL_A_CC_ENABLED, enabled) ||
	    nla_put_string(msg, MRC_CTL_A_CC_ALGORITHM, MRC_CTL_CC_ALGORITHM) ||
	    mrc_ctl_put_cc(msg, &p)) {
		nlmsg_free(msg);
		goto out;
	}
	genlmsg_end(msg, hdr);
	err = genlmsg_reply(msg, info);
out:
	mrc_ctl_put_dev(mdev);
	return err;
}

/* ------------------------------------------------------------------ */
/* Every connection's EVs                                              */
/* ------------------------------------------------------------------ */

static u8 mrc_ctl_ev_state(u8 state)
{
	switch (state) {
	case MRC_EV_GOOD:
		return MRC_CTL_EV_GOOD;
	case MRC_EV_ASSUMED_BAD:
		return MRC_CTL_EV_ASSUMED_BAD;
	case MRC_EV_DENIED:
		return MRC_CTL_EV_DENIED;
	default:
		return MRC_CTL_EV_UNKNOWN;
	}
}

/* One PATH_GET message: EV @index of @qp. Caller holds qp->lock. */
static int mrc_ctl_fill_qp_ev(struct sk_buff *msg, struct mrc_dev *mdev,
			      struct mrc_qp *qp, u32 index,
			      struct netlink_callback *cb)
{
	const struct mrc_qp_paths *paths = &qp->paths;
	const struct mrc_ev *e = &paths->set.evs[index];
	__be16 usids[MRC_EV_MAX_USIDS];
	struct nlattr *nest;
	void *hdr;
	u32 k;

	hdr = genlmsg_put(msg, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &mrc_ctl_family, NLM_F_MULTI, MRC_CTL_CMD_PATH_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(msg, MRC_CTL_A_DEV, dev_name(&mdev->ib_dev.dev)) ||
	    nla_put_u32(msg, MRC_CTL_A_QPN, qp->ibqp.qp_num) ||
	    nla_put_u32(msg, MRC_CTL_A_DEST_QPN, qp->dest_qpn) ||
	    nla_put(msg, MRC_CTL_A_PEER, sizeof(qp->path.dgid.raw),
		    qp->path.dgid.raw) ||
	    nla_put_u32(msg, MRC_CTL_A_PROFILE_ID,
			paths->profile ? paths->profile->id : 0))
		goto cancel;
	nest = nla_nest_start(msg, MRC_CTL_A_EV);
	if (!nest ||
	    nla_put_u32(msg, MRC_CTL_EV_A_INDEX, index) ||
	    nla_put_u32(msg, MRC_CTL_EV_A_PLANE, e->plane) ||
	    nla_put_u8(msg, MRC_CTL_EV_A_STATE, mrc_ctl_ev_state(e->state)) ||
	    nla_put_u64_64bit(msg, MRC_CTL_EV_A_SENT, e->sent,
			      MRC_CTL_EV_A_PAD) ||
	    nla_put_u64_64bit(msg, MRC_CTL_EV_A_ACKED, e->acked,
			      MRC_CTL_EV_A_PAD) ||
	    nla_put_u64_64bit(msg, MRC_CTL_EV_A_LOST, e->lost,
			      MRC_CTL_EV_A_PAD) ||
	    nla_put_u64_64bit(msg, MRC_CTL_EV_A_PROBES, e->probes,
			      MRC_CTL_EV_A_PAD) ||
	    (paths->profile &&
	     nla_put_u32(msg, MRC_CTL_EV_A_PROFILE_INDEX,
			 paths->profile_index[index])))
		goto cancel;
	if (e->path.n_usids) {
		for (k = 0; k < e->path.n_usids && k < MRC_EV_MAX_USIDS; k++)
			usids[k] = cpu_to_be16(e->path.usids[k]);
		if (nla_put(msg, MRC_CTL_EV_A_USIDS, k * sizeof(usids[0]),
			    usids))
			goto cancel;
	} else if (nla_put_u16(msg, MRC_CTL_EV_A_UDP_SPORT,
			       e->path.udp_sport)) {
		goto cancel;
	}
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	return 0;
cancel:
	genlmsg_cancel(msg, hdr);
	return -EMSGSIZE;
}

/*
 * The EVs of @qp from *@next on, as many as fit; *@next says where to
 * resume. -EMSGSIZE when the message filled up.
 */
static int mrc_ctl_fill_qp_paths(struct sk_buff *msg, struct mrc_dev *mdev,
				 struct mrc_qp *qp, const struct in6_addr *peer,
				 u32 *next, struct netlink_callback *cb)
{
	const struct mrc_qp_paths *paths = &qp->paths;
	int err = 0;
	u32 i;

	if (mrc_qp_is_ud(qp))
		return 0;
	/* A spinlock: the skb is already allocated, nothing here sleeps. */
	spin_lock_bh(&qp->lock);
	if (!paths->ready ||
	    (peer && memcmp(qp->path.dgid.raw, peer, sizeof(*peer))))
		goto unlock;
	for (i = *next; i < paths->set.n_evs; i++) {
		err = mrc_ctl_fill_qp_ev(msg, mdev, qp, i, cb);
		if (err)
			break;
	}
	*next = i;
unlock:
	spin_unlock_bh(&qp->lock);
	return err;
}

/*
 * PATH_GET: one message per EV of every RC QP with paths (RTR and later),
 * optionally only those to one peer. cb->args[0] is the QPN and
 * cb->args[1] the EV index the next call resumes at; a QP destroyed or
 * rebuilt between calls is simply skipped or continued as it is then, so
 * a dump is a consistent snapshot per EV, not across QPs.
 */
static int mrc_ctl_path_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = mrc_genl_dump_attrs(cb);
	const struct nlattr *peer_attr = attrs[MRC_CTL_A_PEER];
	struct in6_addr peer;
	unsigned long qpn = cb->args[0];
	u32 next = cb->args[1];
	struct mrc_dev *mdev;
	struct mrc_qp *qp;
	int err = 0;

	if (peer_attr)
		nla_memcpy(&peer, peer_attr, sizeof(peer));
	mdev = mrc_ctl_get_dev(attrs, sock_net(skb->sk), cb->extack);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);

	/* xa_find() walks under RCU; mrc_qp_get() pins the QP it found. */
	while (xa_find(&mdev->qps, &qpn, ULONG_MAX, XA_PRESENT)) {
		qp = mrc_qp_get(mdev, qpn);
		if (qp) {
			err = mrc_ctl_fill_qp_paths(skb, mdev, qp,
						    peer_attr ? &peer : NULL,
						    &next, cb);
			mrc_qp_put(qp);
			if (err)
				break;
		}
		if (qpn == ULONG_MAX)
			break;
		qpn++;
		next = 0;
	}
	cb->args[0] = qpn;
	cb->args[1] = next;
	mrc_ctl_put_dev(mdev);
	/* One EV always fits an empty message; never loop on nothing. */
	if (err && !skb->len)
		return err;
	return skb->len;
}

/* ------------------------------------------------------------------ */
/* Planes                                                              */
/* ------------------------------------------------------------------ */

/* One PLANE_GET message: plane @index of @mdev, as @r has it. */
static int mrc_ctl_fill_plane(struct sk_buff *msg, struct mrc_dev *mdev,
			      u32 index, const struct mrc_plane_report *r,
			      struct netlink_callback *cb)
{
	struct nlattr *nest;
	void *hdr;

	hdr = genlmsg_put(msg, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &mrc_ctl_family, NLM_F_MULTI, MRC_CTL_CMD_PLANE_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(msg, MRC_CTL_A_DEV, dev_name(&mdev->ib_dev.dev)) ||
	    nla_put_string(msg, MRC_CTL_A_NETDEV, mdev->ndev->name))
		goto cancel;
	nest = nla_nest_start(msg, MRC_CTL_A_PLANE);
	if (!nest || mrc_ctl_put_plane_state(msg, index, r) ||
	    nla_put_u64_64bit(msg, MRC_CTL_PLANE_A_TX_PACKETS, r->tx_packets,
			      MRC_CTL_PLANE_A_PAD) ||
	    nla_put_u64_64bit(msg, MRC_CTL_PLANE_A_TX_VIA_MASTER,
			      r->tx_via_master, MRC_CTL_PLANE_A_PAD))
		goto cancel;
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	return 0;
cancel:
	genlmsg_cancel(msg, hdr);
	return -EMSGSIZE;
}

/*
 * PLANE_GET: one message per plane of the device's current table, each
 * read under RCU on its own (mrc_planes_report()); cb->args[0] is the
 * plane the next call resumes at. A table replaced between calls is
 * continued as it is then.
 */
static int mrc_ctl_plane_dump(struct sk_buff *skb,
			      struct netlink_callback *cb)
{
	struct nlattr **attrs = mrc_genl_dump_attrs(cb);
	struct mrc_plane_report r;
	struct mrc_dev *mdev;
	unsigned int p;
	int err = 0;

	mdev = mrc_ctl_get_dev(attrs, sock_net(skb->sk), cb->extack);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	for (p = cb->args[0]; !mrc_planes_report(mdev, p, &r); p++) {
		err = mrc_ctl_fill_plane(skb, mdev, p, &r, cb);
		if (err)
			break;
	}
	cb->args[0] = p;
	mrc_ctl_put_dev(mdev);
	/* One plane always fits an empty message; never loop on nothing. */
	if (err && !skb->len)
		return err;
	return skb->len;
}

/* ------------------------------------------------------------------ */
/* EV events                                                           */
/* ------------------------------------------------------------------ */

enum mrc_ctl_mcgrp {
	MRC_CTL_MCGRP_EVENTS_ID,
};

/*
 * Joining needs CAP_NET_ADMIN over the namespace: events name peers and
 * paths, which only the controller may see. GENL_MCAST_CAP_NET_ADMIN
 * (6.7, in 6.1.y since 6.1.64) makes genetlink check it at bind time;
 * a kernel without it has no per-group check nor hook to make one, so
 * there the family has no group at all (mrc_compat.h) and the controller
 * finds no events rather than every user hearing them.
 */
static const struct genl_multicast_group mrc_ctl_mcgrps[] = {
	[MRC_CTL_MCGRP_EVENTS_ID] = {
		.name = MRC_CTL_MCGRP_EVENTS,
		MRC_GENL_MCGRP_ADMIN_ONLY
	},
};

/*
 * Serialises the work's sends with the family's unregistration, which
 * comes before the devices' at module exit: no event goes out on a group
 * number that is no longer ours.
 */
static DEFINE_MUTEX(mrc_ctl_events_mutex);
static bool mrc_ctl_family_up;	/* under the mutex; read locklessly too */

struct mrc_ctl_ev_event {
	struct list_head node;
	u32 profile_id;
	u32 index;
	struct mrc_ev_value ev;
	bool has_peer;
	struct in6_addr peer;
	u32 qpn;
	u8 state;
	u8 reason;
	u32 drop_count;
};

static int mrc_ctl_fill_event(struct sk_buff *msg, struct mrc_dev *mdev,
			      const struct mrc_ctl_ev_event *e)
{
	struct nlattr *nest;
	void *hdr;

	hdr = genlmsg_put(msg, 0, 0, &mrc_ctl_family, 0,
			  MRC_CTL_CMD_EV_EVENT);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(msg, MRC_CTL_A_DEV, dev_name(&mdev->ib_dev.dev)) ||
	    nla_put_u32(msg, MRC_CTL_A_PROFILE_ID, e->profile_id) ||
	    (e->has_peer &&
	     nla_put_in6_addr(msg, MRC_CTL_A_PEER, &e->peer)) ||
	    (e->qpn && nla_put_u32(msg, MRC_CTL_A_QPN, e->qpn)))
		goto cancel;
	nest = nla_nest_start(msg, MRC_CTL_A_EV);
	if (!nest ||
	    nla_put_u32(msg, MRC_CTL_EV_A_INDEX, e->index) ||
	    nla_put_u32(msg, MRC_CTL_EV_A_PROFILE_INDEX, e->index) ||
	    nla_put_u32(msg, MRC_CTL_EV_A_PLANE, e->ev.plane) ||
	    (e->ev.format == MRC_CTL_EV_FMT_UDP ?
	     nla_put_u16(msg, MRC_CTL_EV_A_UDP_SPORT, e->ev.udp_sport) :
	     nla_put(msg, MRC_CTL_EV_A_SRV6, sizeof(e->ev.srv6), e->ev.srv6)) ||
	    nla_put_u8(msg, MRC_CTL_EV_A_STATE, e->state) ||
	    nla_put_u8(msg, MRC_CTL_EV_A_REASON, e->reason) ||
	    nla_put_u32(msg, MRC_CTL_EV_A_DROP_COUNT, e->drop_count))
		goto cancel;
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	return 0;
cancel:
	genlmsg_cancel(msg, hdr);
	return -EMSGSIZE;
}

/* The namespace events go to: the netdev's, whose paths they describe. */
static struct net *mrc_ctl_events_net(struct mrc_dev *mdev)
{
	return dev_net(mdev->ndev);
}

static void mrc_ctl_events_work(struct work_struct *work)
{
	struct mrc_dev *mdev = container_of(work, struct mrc_dev,
					    events.work);
	struct mrc_ctl_events *q = &mdev->events;
	struct mrc_ctl_ev_event *e;
	struct sk_buff *msg;

	for (;;) {
		spin_lock_irq(&q->lock);
		e = list_first_entry_or_null(&q->queue,
					     struct mrc_ctl_ev_event, node);
		if (e) {
			list_del(&e->node);
			q->queued--;
		}
		spin_unlock_irq(&q->lock);
		if (!e)
			return;

		msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
		mutex_lock(&mrc_ctl_events_mutex);
		if (msg && mrc_ctl_family_up &&
		    !mrc_ctl_fill_event(msg, mdev, e)) {
			/* No listener (-ESRCH) is no one to tell. */
			genlmsg_multicast_netns(&mrc_ctl_family,
						mrc_ctl_events_net(mdev), msg,
						0, MRC_CTL_MCGRP_EVENTS_ID,
						GFP_KERNEL);
			msg = NULL;
		}
		mutex_unlock(&mrc_ctl_events_mutex);
		nlmsg_free(msg);
		kfree(e);
	}
}

void mrc_ctl_events_init(struct mrc_dev *mdev)
{
	struct mrc_ctl_events *q = &mdev->events;

	spin_lock_init(&q->lock);
	INIT_LIST_HEAD(&q->queue);
	q->queued = 0;
	q->dropped = 0;
	INIT_WORK(&q->work, mrc_ctl_events_work);
}

void mrc_ctl_events_flush(struct mrc_dev *mdev)
{
	struct mrc_ctl_events *q = &mdev->events;
	struct mrc_ctl_ev_event *e, *tmp;

	cancel_work_sync(&q->work);
	list_for_each_entry_safe(e, tmp, &q->queue, node)
		kfree(e);
	INIT_LIST_HEAD(&q->queue);
	q->queued = 0;
}

void mrc_ctl_event(struct mrc_dev *mdev, const struct mrc_profile *profile,
		   u32 index, const struct in6_addr *peer, u32 qpn, u8 state,
		   u8 reason)
{
	struct mrc_ctl_events *q = &mdev->events;
	struct mrc_ctl_ev_event *e = NULL;
	unsigned long flags;

	if (!(profile->event_mask & BIT(state)) || index >= profile->num_evs ||
	    !READ_ONCE(mrc_ctl_family_up) ||
	    !genl_has_listeners(&mrc_ctl_family, mrc_ctl_events_net(mdev),
				MRC_CTL_MCGRP_EVENTS_ID))
		return;
	if (READ_ONCE(q->queued) < MRC_CTL_EVENTS_MAX)
		e = kzalloc(sizeof(*e), GFP_ATOMIC);
	/* Any context: callers may hold qp->lock, or not. */
	spin_lock_irqsave(&q->lock, flags);
	if (!e || q->queued >= MRC_CTL_EVENTS_MAX) {
		q->dropped++;
		spin_unlock_irqrestore(&q->lock, flags);
		kfree(e);
		return;
	}
	e->profile_id = profile->id;
	e->index = index;
	e->ev = profile->evs[index];
	if (peer) {
		e->has_peer = true;
		e->peer = *peer;
	}
	e->qpn = qpn;
	e->state = state;
	e->reason = reason;
	e->drop_count = q->dropped;
	q->dropped = 0;
	list_add_tail(&e->node, &q->queue);
	q->queued++;
	spin_unlock_irqrestore(&q->lock, flags);
	queue_work(system_wq, &q->work);
}

/* ------------------------------------------------------------------ */
/* Connectionless probes                                               */
/* ------------------------------------------------------------------ */

/* The EV nest of a probe: its plane and path towards @dst. */
static int mrc_ctl_ep_parse_ev(const struct nlattr *nest,
			       const struct mrc_net_addr *dst,
			       struct mrc_ep_req *r,
			       struct netlink_ext_ack *extack)
{
	struct nlattr *tb[MRC_CTL_EV_A_MAX + 1];
	struct mrc_ev_value ev = {};
	int err;

	err = nla_parse_nested(tb, MRC_CTL_EV_A_MAX, nest, mrc_ctl_ev_policy,
			       extack);
	if (err)
		return err;
	if (!tb[MRC_CTL_EV_A_UDP_SPORT] == !tb[MRC_CTL_EV_A_SRV6]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "an EV is a UDP source port or an SRv6 address");
		return -EINVAL;
	}
	ev.plane = tb[MRC_CTL_EV_A_PLANE] ?
		nla_get_u32(tb[MRC_CTL_EV_A_PLANE]) : 0;
	if (tb[MRC_CTL_EV_A_UDP_SPORT]) {
		ev.format = MRC_EV_FMT_UDP;
		ev.udp_sport = nla_get_u16(tb[MRC_CTL_EV_A_UDP_SPORT]);
	} else {
		ev.format = MRC_EV_FMT_SRV6;
		nla_memcpy(ev.srv6, tb[MRC_CTL_EV_A_SRV6], sizeof(ev.srv6));
	}
	err = mrc_ev_value_check(&ev, MRC_EV_PROFILE_MAX_PLANES);
	if (!err && ev.format == MRC_EV_FMT_SRV6 && dst->family != AF_INET6)
		err = -EINVAL;
	if (!err)
		err = mrc_ev_profile_path(&ev, dst->v6.s6_addr, &r->path);
	if (err) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "unusable EV value, or an SRv6 path that does not end at DGID");
		return -EINVAL;
	}
	r->plane = ev.plane;
	return 0;
}

/* GID @attr as an address; one of @mdev's when @ours, else a peer's. */
static int mrc_ctl_ep_gid(struct mrc_dev *mdev, const struct nlattr *attr,
			  bool ours, struct mrc_net_addr *addr,
			  struct netlink_ext_ack *extack)
{
	const struct ib_gid_attr *gattr;
	union ib_gid gid;

	nla_memcpy(&gid, attr, sizeof(gid));
	mrc_net_addr_from_gid(&gid, addr);
	if (ours) {
		gattr = rdma_find_gid_by_port(&mdev->ib_dev, &gid,
					      IB_GID_TYPE_ROCE_UDP_ENCAP, 1,
					      NULL);
		if (IS_ERR(gattr)) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "not a RoCE v2 GID of the device");
			return -EINVAL;
		}
		rdma_put_gid_attr(gattr);
	} else if (!mrc_ep_addr_ok(addr)) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "not a unicast address");
		return -EINVAL;
	}
	return 0;
}

/*
 * A status's PORT_STATUS: the device's ports, of which one at least is up
 * (the codec refuses a status with none: nothing could answer it).
 */
static int mrc_ctl_ep_parse_ports(struct mrc_dev *mdev, u8 opcode,
				  struct nlattr *const *tb,
				  const struct nlattr *nest,
				  struct mrc_ep_req *r,
				  struct netlink_ext_ack *extack)
{
	const struct nlattr *attr = tb[MRC_CTL_EP_A_PORT_STATUS];
	u8 n = mrc_planes_count(mdev);
	u32 up;

	if (opcode != MRC_OP_EP_PORT_STATUS) {
		if (!attr)
			return 0;
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "PORT_STATUS is EP_PORT_STATUS's");
		return -EINVAL;
	}
	if (!attr) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "a port status needs PORT_STATUS");
		return -EINVAL;
	}
	up = nla_get_u32(attr);
	if (!up || up >> n) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "PORT_STATUS: ports of the device only, one up at least");
		return -EINVAL;
	}
	r->n_ports = n;
	r->up_mask = (u8)up;
	return 0;
}

static int mrc_ctl_ep_parse_req(struct mrc_dev *mdev, u8 opcode,
				const struct nlattr *nest,
				struct mrc_ep_req *r, unsigned long *ids,
				struct netlink_ext_ack *extack)
{
	struct nlattr *tb[MRC_CTL_EP_A_MAX + 1];
	u64 timeout;
	int err;

	err = nla_parse_nested(tb, MRC_CTL_EP_A_MAX, nest, mrc_ctl_ep_policy,
			       extack);
	if (err)
		return err;
	if (!tb[MRC_CTL_EP_A_REQ_ID] || !tb[MRC_CTL_EP_A_SGID] ||
	    !tb[MRC_CTL_EP_A_DGID] || !tb[MRC_CTL_EP_A_EV] ||
	    !tb[MRC_CTL_EP_A_TIMEOUT]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "a probe needs REQ_ID, SGID, DGID, EV and TIMEOUT");
		return -EINVAL;
	}
	r->req_id = nla_get_u16(tb[MRC_CTL_EP_A_REQ_ID]);
	if (test_and_set_bit(r->req_id, ids)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_CTL_EP_A_REQ_ID],
				    "REQ_ID used twice");
		return -EINVAL;
	}
	err = mrc_ctl_ep_gid(mdev, tb[MRC_CTL_EP_A_SGID], true, &r->src,
			     extack);
	if (!err)
		err = mrc_ctl_ep_gid(mdev, tb[MRC_CTL_EP_A_DGID], false,
				     &r->dst, extack);
	if (err)
		return err;
	if (r->src.family != r->dst.family) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "SGID and DGID of different families");
		return -EINVAL;
	}
	err = mrc_ctl_ep_parse_ev(tb[MRC_CTL_EP_A_EV], &r->dst, r, extack);
	if (!err)
		err = mrc_ctl_ep_parse_ports(mdev, opcode, tb, nest, r, extack);
	if (err)
		return err;
	err = mrc_ctl_check_dscp(tb[MRC_CTL_EP_A_DSCP], extack);
	if (err)
		return err;
	r->dscp = tb[MRC_CTL_EP_A_DSCP] ? nla_get_u8(tb[MRC_CTL_EP_A_DSCP]) :
		READ_ONCE(mdev->settings.ctrl_dscp);
	timeout = nla_get_u64(tb[MRC_CTL_EP_A_TIMEOUT]);
	if (!timeout || timeout > MRC_EP_TIMEOUT_MAX_NS) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_CTL_EP_A_TIMEOUT],
				    "a timeout is 1 ns to 10 s");
		return -ERANGE;
	}
	r->timeout_ns = timeout;
	return 0;
}

static int mrc_ctl_ep_parse(struct mrc_dev *mdev, const struct nlattr *list,
			    struct mrc_ep_batch *batch,
			    struct netlink_ext_ack *extack)
{
	unsigned long *ids;
	struct nlattr *nest;
	int rem, err = 0;
	u32 i = 0;

	ids = bitmap_zalloc(U16_MAX + 1, GFP_KERNEL);
	if (!ids)
		return -ENOMEM;
	nla_for_each_nested(nest, list, rem) {
		err = mrc_ctl_ep_parse_req(mdev, batch->opcode, nest,
					   &batch->reqs[i++], ids, extack);
		if (err)
			break;
	}
	bitmap_free(ids);
	return err;
}

static int mrc_ctl_ep_put_answers(struct sk_buff *msg,
				  const struct mrc_ep_batch *batch)
{
	struct nlattr *list, *nest;
	u32 i;

	list = nla_nest_start(msg, MRC_CTL_A_EP_REQS);
	if (!list)
		return -EMSGSIZE;
	for (i = 0; i < batch->n_answers; i++) {
		const struct mrc_ep_answer *a = &batch->answers[i];

		nest = nla_nest_start(msg, MRC_CTL_A_EP_REQ);
		if (!nest ||
		    nla_put_u16(msg, MRC_CTL_EP_A_REQ_ID, a->req_id) ||
		    nla_put_u32(msg, MRC_CTL_EP_A_PLANE, a->plane) ||
		    nla_put_u64_64bit(msg, MRC_CTL_EP_A_RTT, a->rtt_ns,
				      MRC_CTL_EP_A_PAD) ||
		    (a->svc_removed &&
		     nla_put_flag(msg, MRC_CTL_EP_A_SVC_TIME_REMOVED)))
			return -EMSGSIZE;
		nla_nest_end(msg, nest);
	}
	nla_nest_end(msg, list);
	return 0;
}

/*
 * EP_PROBE and EP_PORT_STATUS: the requests of @opcode, sent, then their
 * answers. The caller waits for them without a reference on the device,
 * so that removing it is not held up (mrc_ep.h); the family runs its
 * handlers in parallel, so that the wait holds no generic netlink mutex.
 */
static int mrc_ctl_ep_do(struct genl_info *info, u8 cmd, u8 opcode)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **attrs = info->attrs;
	struct mrc_ep_batch *batch;
	struct nlattr *nest;
	struct mrc_dev *mdev;
	struct sk_buff *msg;
	int rem, count = 0;
	void *hdr;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, MRC_CTL_A_EP_REQS))
		return -EINVAL;
	nla_for_each_nested(nest, attrs[MRC_CTL_A_EP_REQS], rem)
		count++;
	if (!count || count > MRC_EP_MAX_REQS) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[MRC_CTL_A_EP_REQS],
				    "1 to 512 requests");
		return count ? -E2BIG : -EINVAL;
	}
	mdev = mrc_ctl_get_dev(attrs, genl_info_net(info), extack);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	batch = mrc_ep_batch_alloc(count, opcode);
	if (!batch) {
		mrc_ctl_put_dev(mdev);
		return -ENOMEM;
	}
	err = mrc_ctl_ep_parse(mdev, attrs[MRC_CTL_A_EP_REQS], batch, extack);
	if (err) {
		mrc_ctl_put_dev(mdev);
		goto out;
	}
	mrc_ep_batch_start(mdev, batch);
	mrc_ctl_put_dev(mdev);
	err = mrc_ep_batch_wait(batch);
	if (err)
		goto out;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE + batch->n_answers *
			  nla_total_size(nla_total_size(sizeof(u16)) +
					 nla_total_size(sizeof(u32)) +
					 nla_total_size_64bit(sizeof(u64)) +
					 nla_total_size(0)), GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto out;
	}
	hdr = genlmsg_put_reply(msg, info, &mrc_ctl_family, 0, cmd);
	if (!hdr || nla_put(msg, MRC_CTL_A_DEV, nla_len(attrs[MRC_CTL_A_DEV]),
			    nla_data(attrs[MRC_CTL_A_DEV])) ||
	    mrc_ctl_ep_put_answers(msg, batch)) {
		nlmsg_free(msg);
		err = -EMSGSIZE;
		goto out;
	}
	genlmsg_end(msg, hdr);
	err = genlmsg_reply(msg, info);
out:
	mrc_ep_batch_free(batch);
	return err;
}

static int mrc_ctl_ep_probe(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_ctl_ep_do(info, MRC_CTL_CMD_EP_PROBE, MRC_OP_EP_PROBE);
}

static int mrc_ctl_ep_port_status(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_ctl_ep_do(info, MRC_CTL_CMD_EP_PORT_STATUS,
			     MRC_OP_EP_PORT_STATUS);
}

static const struct genl_small_ops mrc_ctl_ops[] = {
	{
		.cmd = MRC_CTL_CMD_DEV_GET,
		.doit = mrc_ctl_dev_get,
		.dumpit = mrc_ctl_dev_dump,
	},
	{
		.cmd = MRC_CTL_CMD_PROFILE_NEW,
		.doit = mrc_ctl_profile_new,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = MRC_CTL_CMD_PROFILE_DEL,
		.doit = mrc_ctl_profile_del,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = MRC_CTL_CMD_PROFILE_GET,
		.dumpit = mrc_ctl_profile_dump,
	},
	{
		.cmd = MRC_CTL_CMD_EV_GET,
		.dumpit = mrc_ctl_ev_dump,
	},
	{
		.cmd = MRC_CTL_CMD_EV_SET,
		.doit = mrc_ctl_ev_set,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = MRC_CTL_CMD_DEV_SET,
		.doit = mrc_ctl_dev_set,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = MRC_CTL_CMD_CC_GET,
		.doit = mrc_ctl_cc_get,
	},
	{
		.cmd = MRC_CTL_CMD_CC_SET,
		.doit = mrc_ctl_cc_set,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = MRC_CTL_CMD_PATH_GET,
		.dumpit = mrc_ctl_path_dump,
	},
	{
		.cmd = MRC_CTL_CMD_PLANE_GET,
		.dumpit = mrc_ctl_plane_dump,
	},
	{
		.cmd = MRC_CTL_CMD_EP_PROBE,
		.doit = mrc_ctl_ep_probe,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = MRC_CTL_CMD_EP_PORT_STATUS,
		.doit = mrc_ctl_ep_port_status,
		.flags = GENL_UNS_ADMIN_PERM,
	},
};

static struct genl_family mrc_ctl_family __ro_after_init = {
	.name = MRC_CTL_FAMILY_NAME,
	.version = MRC_CTL_FAMILY_VERSION,
	.maxattr = MRC_CTL_A_MAX,
	.policy = mrc_ctl_policy,
	.netnsok = true,
	/*
	 * EP_PROBE waits for seconds; every handler takes the locks of what
	 * it touches and needs no generic netlink mutex.
	 */
	.parallel_ops = true,
	.module = THIS_MODULE,
	.small_ops = mrc_ctl_ops,
	.n_small_ops = ARRAY_SIZE(mrc_ctl_ops),
	.mcgrps = mrc_ctl_mcgrps,
	.n_mcgrps = MRC_HAVE_EV_EVENTS ? ARRAY_SIZE(mrc_ctl_mcgrps) : 0,
};

int mrc_ctl_netlink_init(void)
{
	int err;

	err = genl_register_family(&mrc_ctl_family);
	if (!err && mrc_ctl_family.n_mcgrps) {
		mutex_lock(&mrc_ctl_events_mutex);
		WRITE_ONCE(mrc_ctl_family_up, true);
		mutex_unlock(&mrc_ctl_events_mutex);
	}
	return err;
}

void mrc_ctl_netlink_exit(void)
{
	/* Queued events are dropped from here on, and freed with devices. */
	mutex_lock(&mrc_ctl_events_mutex);
	WRITE_ONCE(mrc_ctl_family_up, false);
	mutex_unlock(&mrc_ctl_events_mutex);
	genl_unregister_family(&mrc_ctl_family);
}

/* A profile may name every plane a device can have, and no more. */
static_assert(MRC_EV_PROFILE_MAX_PLANES == MRC_EV_MAX_PLANES);
/* The uapi's DSCP bound is the settings'. */
static_assert(MRC_CTL_DSCP_MAX == MRC_DSCP_MAX);
/* The core's copy of the controller's limits and EV formats is the uapi's. */
static_assert(MRC_EV_PROFILE_MAX_EVS == MRC_CTL_MAX_EVS);
static_assert(MRC_EV_MAX_FIELDS == MRC_CTL_MAX_FIELDS);
static_assert(MRC_EV_PROFILE_MAX_PLANES == MRC_CTL_MAX_PLANES);
static_assert((int)MRC_EV_FMT_UDP == (int)MRC_CTL_EV_FMT_UDP);
static_assert((int)MRC_EV_FMT_SRV6 == (int)MRC_CTL_EV_FMT_SRV6);
static_assert(MRC_EP_MAX_REQS == MRC_CTL_EP_MAX_REQS);
static_assert(MRC_EP_TIMEOUT_MAX_NS == MRC_CTL_EP_TIMEOUT_MAX_NS);
