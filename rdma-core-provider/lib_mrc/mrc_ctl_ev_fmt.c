// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: EV format profiles. The kernel has two fixed formats and no
 * format object (each EV profile carries its format), so format profiles
 * live in the library, per context: a controller creates one (state INIT),
 * gives it a mode, UDP or SRv6 (STEV: EOPNOTSUPP), and brings it OFFLINE
 * and ONLINE; EV profiles then name it. Its fields are the kernel's fixed
 * layout: UDP one 16-bit field (the source port); SRv6 the F3216 uSID
 * container, a 32-bit locator block then six 16-bit uSIDs. Giving exactly
 * that layout is accepted, any other EOPNOTSUPP.
 *
 * States (all profile kinds, Documentation/mrc-api.rst): a profile is
 * created by a modify to INIT; INIT -> OFFLINE needs its configuration
 * complete; OFFLINE <-> ONLINE; OFFLINE -> INIT clears the configuration.
 * Configuration changes only outside ONLINE (EBUSY).
 */
#include <string.h>

#include "mrc_ctl_lib.h"

static const struct mrc_ctl_ev_fmt_field mrc_ctl_udp_layout[] = { { 16 } };
static const struct mrc_ctl_ev_fmt_field mrc_ctl_srv6_layout[] = {
	{ 32 }, { 16 }, { 16 }, { 16 }, { 16 }, { 16 }, { 16 },
};

static const struct mrc_ctl_ev_fmt_field *
mrc_ctl_fmt_layout(enum mrc_ctl_ev_fmt_mode mode, int *count)
{
	if (mode == MRC_CTL_EV_FMT_MODE_SRV6) {
		*count = sizeof(mrc_ctl_srv6_layout) /
			 sizeof(mrc_ctl_srv6_layout[0]);
		return mrc_ctl_srv6_layout;
	}
	*count = 1;
	return mrc_ctl_udp_layout;
}

#define MRC_CTL_FMT_MASK (MRC_CTL_EV_FMT_PROFILE_STATE |		\
			  MRC_CTL_EV_FMT_PROFILE_CUR_STATE |		\
			  MRC_CTL_EV_FMT_PROFILE_MODE |			\
			  MRC_CTL_EV_FMT_PROFILE_OP |			\
			  MRC_CTL_EV_FMT_VENDOR_CFG)

/* An ONLINE EV profile of this context names format profile @id. */
static bool mrc_ctl_fmt_in_use(const struct mrc_ctl_state *st, uint64_t id)
{
	int i;

	for (i = MRC_CTL_LIB_ID_MIN; i <= MRC_CTL_LIB_ID_MAX; i++)
		if (st->ev[i].exists && st->ev[i].fmt_id == id &&
		    st->ev[i].state == MRC_CTL_PROFILE_ONLINE)
			return true;
	return false;
}

static int mrc_ctl_fmt_modify(struct mrc_ctl_state *st, uint64_t id,
			      const struct mrc_ctl_ev_fmt_profile_attr *attr,
			      int mask)
{
	struct mrc_ctl_fmt_profile *p = &st->fmt[id];
	enum mrc_ctl_ev_fmt_mode mode;
	bool configures;
	uint8_t format;
	int err;

	configures = mask & (MRC_CTL_EV_FMT_PROFILE_MODE |
			     MRC_CTL_EV_FMT_PROFILE_OP);
	if (!p->exists) {
		if (!(mask & MRC_CTL_EV_FMT_PROFILE_STATE))
			return ENOENT;
		if (attr->profile_state != MRC_CTL_PROFILE_INIT)
			return ENOENT;
	} else if (p->state == MRC_CTL_PROFILE_ONLINE && configures) {
		return EBUSY;
	}
	mode = p->exists ? p->mode : 0;
	if (mask & MRC_CTL_EV_FMT_PROFILE_MODE) {
		err = mrc_ctl_fmt_to_nl(attr->ev_fmt_mode, &format);
		if (err)
			return err;
		mode = attr->ev_fmt_mode;
	}
	if (mask & MRC_CTL_EV_FMT_PROFILE_OP) {
		const struct mrc_ctl_ev_fmt_field *layout;
		int count, i;

		if (attr->ev_fmt_op.op != MRC_CTL_EV_FMT_OP_MODIFY_FIELDS ||
		    !attr->ev_fmt_op.fmt_fields ||
		    attr->ev_fmt_op.fmt_field_count <= 0 || !mode)
			return EINVAL;
		layout = mrc_ctl_fmt_layout(mode, &count);
		if (attr->ev_fmt_op.fmt_field_count != count)
			return EOPNOTSUPP;
		for (i = 0; i < count; i++)
			if (attr->ev_fmt_op.fmt_fields[i].width !=
			    layout[i].width)
				return EOPNOTSUPP;
	}
	if ((mask & MRC_CTL_EV_FMT_VENDOR_CFG) &&
	    !mrc_ctl_bytes_zero(attr->vendor_cfg, sizeof(attr->vendor_cfg)))
		return EOPNOTSUPP;
	if (mask & MRC_CTL_EV_FMT_PROFILE_STATE) {
		enum mrc_ctl_profile_state from, to = attr->profile_state;

		from = p->exists ? p->state : MRC_CTL_PROFILE_INIT;
		if (!mrc_ctl_profile_move_ok(from, to))
			return EINVAL;
		if (to == MRC_CTL_PROFILE_OFFLINE && !mode)
			return EINVAL;
		if (from == MRC_CTL_PROFILE_ONLINE && to != from &&
		    mrc_ctl_fmt_in_use(st, id))
			return EBUSY;
		/* Back to INIT: the configuration goes (a new one may come
		 * in the same call only when the profile is new).
		 */
		if (to == MRC_CTL_PROFILE_INIT && p->exists && from != to)
			mode = 0;
		p->state = to;
	}
	p->exists = true;
	p->mode = mode;
	return 0;
}

MRC_EXPORT
int mrc_ctl_modify_ev_fmt_profile(struct mrc_context *mrc_ctx,
				  uint64_t ev_fmt_profile_id,
				  struct mrc_ctl_ev_fmt_profile_attr *attr,
				  int attr_mask)
{
	struct mrc_ctl_state *st;
	int err;

	if (!attr || (attr_mask & ~MRC_CTL_FMT_MASK) ||
	    (attr_mask & MRC_CTL_EV_FMT_PROFILE_CUR_STATE) ||
	    ev_fmt_profile_id < MRC_CTL_LIB_ID_MIN ||
	    ev_fmt_profile_id > MRC_CTL_LIB_ID_MAX)
		return mrc_fail(EINVAL);
	err = mrc_ctl_enter(mrc_ctx, &st);
	if (err)
		return mrc_fail(err);
	err = mrc_ctl_fmt_modify(st, ev_fmt_profile_id, attr, attr_mask);
	mrc_ctl_leave(st);
	return err ? mrc_fail(err) : 0;
}

static int mrc_ctl_fmt_query(const struct mrc_ctl_state *st, uint64_t id,
			     struct mrc_ctl_ev_fmt_profile_attr *attr,
			     int mask)
{
	const struct mrc_ctl_fmt_profile *p = &st->fmt[id];
	const struct mrc_ctl_ev_fmt_field *layout;
	int count, i;

	if (!p->exists)
		return ENOENT;
	if (mask & MRC_CTL_EV_FMT_PROFILE_OP) {
		if (attr->ev_fmt_op.op != MRC_CTL_EV_FMT_OP_QUERY_FIELDS ||
		    attr->ev_fmt_op.fmt_field_count < 0 ||
		    (attr->ev_fmt_op.fmt_field_count &&
		     !attr->ev_fmt_op.fmt_fields))
			return EINVAL;
		if (!p->mode) {
			attr->ev_fmt_op.fmt_field_count = 0;
		} else {
			layout = mrc_ctl_fmt_layout(p->mode, &count);
			if (attr->ev_fmt_op.fmt_field_count &&
			    attr->ev_fmt_op.fmt_field_count < count) {
				attr->ev_fmt_op.fmt_field_count = count;
				return ENOSPC;
			}
			if (attr->ev_fmt_op.fmt_field_count)
				for (i = 0; i < count; i++)
					attr->ev_fmt_op.fmt_fields[i] = layout[i];
			attr->ev_fmt_op.fmt_field_count = count;
		}
	}
	if (mask & MRC_CTL_EV_FMT_PROFILE_STATE)
		attr->profile_state = p->state;
	if (mask & MRC_CTL_EV_FMT_PROFILE_CUR_STATE)
		attr->cur_profile_state = p->state;
	if (mask & MRC_CTL_EV_FMT_PROFILE_MODE)
		attr->ev_fmt_mode = p->mode;
	if (mask & MRC_CTL_EV_FMT_VENDOR_CFG)
		memset(attr->vendor_cfg, 0, sizeof(attr->vendor_cfg));
	return 0;
}

MRC_EXPORT
int mrc_ctl_query_ev_fmt_profile(struct mrc_context *mrc_ctx,
				 uint64_t ev_fmt_profile_id,
				 struct mrc_ctl_ev_fmt_profile_attr *attr,
				 int attr_mask)
{
	struct mrc_ctl_state *st;
	int err;

	if (!attr || (attr_mask & ~MRC_CTL_FMT_MASK) ||
	    ev_fmt_profile_id < MRC_CTL_LIB_ID_MIN ||
	    ev_fmt_profile_id > MRC_CTL_LIB_ID_MAX)
		return mrc_fail(EINVAL);
	err = mrc_ctl_enter(mrc_ctx, &st);
	if (err)
		return mrc_fail(err);
	err = mrc_ctl_fmt_query(st, ev_fmt_profile_id, attr, attr_mask);
	mrc_ctl_leave(st);
	return err ? mrc_fail(err) : 0;
}
