// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: the "mrc" generic netlink family's messages, as the controller
 * API uses them (Documentation/controller.rst has the table). Requests are
 * built in nl->buf with the next sequence number; answers are decoded one
 * message at a time, with every attribute's type checked before it is
 * read, so a malformed answer is EBADMSG and never read past its end.
 */
#include <assert.h>
#include <errno.h>
#include <linux/genetlink.h>
#include <string.h>

#include <rdma/mrc-ctl.h>

#include "mrc_ctl_nl.h"

static_assert(MRC_NL_PROFILE_ID_MIN == MRC_CTL_PROFILE_ID_MIN, "uapi");
static_assert(MRC_NL_PROFILE_ID_MAX == MRC_CTL_PROFILE_ID_MAX, "uapi");
static_assert(MRC_NL_MAX_EVS == MRC_CTL_MAX_EVS, "uapi");
static_assert(MRC_NL_MAX_FIELDS == MRC_CTL_MAX_FIELDS, "uapi");
static_assert(MRC_NL_MAX_PLANES == MRC_CTL_MAX_PLANES, "uapi");
static_assert((int)MRC_NL_FMT_UDP == (int)MRC_CTL_EV_FMT_UDP, "uapi");
static_assert((int)MRC_NL_FMT_SRV6 == (int)MRC_CTL_EV_FMT_SRV6, "uapi");
static_assert((int)MRC_NL_MODE_EXPLICIT == (int)MRC_CTL_EV_MODE_EXPLICIT, "uapi");
static_assert((int)MRC_NL_MODE_GENERATED == (int)MRC_CTL_EV_MODE_GENERATED, "uapi");
static_assert((int)MRC_NL_EV_UNKNOWN == (int)MRC_CTL_EV_UNKNOWN, "uapi");
static_assert((int)MRC_NL_EV_GOOD == (int)MRC_CTL_EV_GOOD, "uapi");
static_assert((int)MRC_NL_EV_ASSUMED_BAD == (int)MRC_CTL_EV_ASSUMED_BAD, "uapi");
static_assert((int)MRC_NL_EV_DENIED == (int)MRC_CTL_EV_DENIED, "uapi");
static_assert((int)MRC_NL_CC_BASE_RTT == (int)MRC_CTL_CC_A_BASE_RTT, "uapi");
static_assert((int)MRC_NL_CC_TARGET_DELAY == (int)MRC_CTL_CC_A_TARGET_DELAY, "uapi");
static_assert((int)MRC_NL_CC_QA_THRESHOLD == (int)MRC_CTL_CC_A_QA_THRESHOLD, "uapi");
static_assert((int)MRC_NL_CC_MTU == (int)MRC_CTL_CC_A_MTU, "uapi");
static_assert((int)MRC_NL_CC_MAX_CWND == (int)MRC_CTL_CC_A_MAX_CWND, "uapi");
static_assert((int)MRC_NL_CC_ETA == (int)MRC_CTL_CC_A_ETA, "uapi");
static_assert((int)MRC_NL_CC_FI == (int)MRC_CTL_CC_A_FI, "uapi");
static_assert((int)MRC_NL_CC_FI_SCALE == (int)MRC_CTL_CC_A_FI_SCALE, "uapi");
static_assert((int)MRC_NL_CC_PI == (int)MRC_CTL_CC_A_PI, "uapi");
static_assert((int)MRC_NL_CC_GAMMA == (int)MRC_CTL_CC_A_GAMMA, "uapi");
static_assert((int)MRC_NL_CC_MAX_MD_JUMP == (int)MRC_CTL_CC_A_MAX_MD_JUMP, "uapi");
static_assert((int)MRC_NL_CC_QA_GATE == (int)MRC_CTL_CC_A_QA_GATE, "uapi");
static_assert((int)MRC_NL_CC_DISABLE_QA == (int)MRC_CTL_CC_A_DISABLE_QA, "uapi");

/* ------------------------------------------------------------------ */
/* Requests                                                            */
/* ------------------------------------------------------------------ */

static struct nlmsghdr *mrc_nl_req(struct mrc_nl *nl, uint8_t cmd,
				   uint16_t flags, const char *dev)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = nl->family;
	/* A dump ends with NLMSG_DONE; any other request with its ACK. */
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	if (!(flags & NLM_F_DUMP))
		nlh->nlmsg_flags |= NLM_F_ACK;
	nlh->nlmsg_seq = ++nl->seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = MRC_CTL_FAMILY_VERSION;
	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, dev);
	return nlh;
}

struct nlmsghdr *mrc_nl_req_dev_get(struct mrc_nl *nl, const char *dev)
{
	return mrc_nl_req(nl, MRC_CTL_CMD_DEV_GET, 0, dev);
}

static void mrc_nl_put_ev(struct nlmsghdr *nlh, uint8_t format,
			  const struct mrc_nl_ev *ev)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, MRC_CTL_A_EV);

	mnl_attr_put_u32(nlh, MRC_CTL_EV_A_PLANE, ev->plane);
	if (format == MRC_NL_FMT_UDP)
		mnl_attr_put_u16(nlh, MRC_CTL_EV_A_UDP_SPORT, ev->udp_sport);
	else
		mnl_attr_put(nlh, MRC_CTL_EV_A_SRV6, sizeof(ev->srv6),
			     ev->srv6);
	mnl_attr_nest_end(nlh, nest);
}

static void mrc_nl_put_fields(struct nlmsghdr *nlh,
			      const struct mrc_nl_profile *p)
{
	struct nlattr *list = mnl_attr_nest_start(nlh, MRC_CTL_A_FIELDS);
	uint32_t i;

	for (i = 0; i < p->num_fields; i++) {
		const struct mrc_nl_field *f = &p->fields[i];
		struct nlattr *nest = mnl_attr_nest_start(nlh, MRC_CTL_A_FIELD);

		mnl_attr_put_u32(nlh, MRC_CTL_FIELD_A_WIDTH, f->width);
		mnl_attr_put_u32(nlh, MRC_CTL_FIELD_A_INIT, f->init);
		mnl_attr_put_u32(nlh, MRC_CTL_FIELD_A_MIN_VAL, f->min);
		mnl_attr_put_u32(nlh, MRC_CTL_FIELD_A_MAX_VAL, f->max);
		mnl_attr_put_u32(nlh, MRC_CTL_FIELD_A_MASK, f->mask);
		mnl_attr_nest_end(nlh, nest);
	}
	mnl_attr_nest_end(nlh, list);
}

/* The caller has bounded num_evs and num_fields (the buffer fits them). */
struct nlmsghdr *mrc_nl_req_profile_new(struct mrc_nl *nl, const char *dev,
					const struct mrc_nl_profile *p)
{
	struct nlmsghdr *nlh = mrc_nl_req(nl, MRC_CTL_CMD_PROFILE_NEW, 0, dev);
	uint32_t i;

	mnl_attr_put_u32(nlh, MRC_CTL_A_PROFILE_ID, p->id);
	mnl_attr_put_u8(nlh, MRC_CTL_A_FORMAT, p->format);
	mnl_attr_put_u8(nlh, MRC_CTL_A_MODE, p->mode);
	mnl_attr_put_u32(nlh, MRC_CTL_A_MIN_ACTIVE, p->min_active);
	if (p->has_peer)
		mnl_attr_put(nlh, MRC_CTL_A_PEER, sizeof(p->peer), p->peer);
	if (p->is_default)
		mnl_attr_put(nlh, MRC_CTL_A_DEFAULT, 0, NULL);
	if (p->replace)
		mnl_attr_put(nlh, MRC_CTL_A_REPLACE, 0, NULL);
	if (p->mode == MRC_NL_MODE_EXPLICIT) {
		struct nlattr *list = mnl_attr_nest_start(nlh, MRC_CTL_A_EVS);

		for (i = 0; i < p->num_evs; i++)
			mrc_nl_put_ev(nlh, p->format, &p->evs[i]);
		mnl_attr_nest_end(nlh, list);
	} else {
		mnl_attr_put_u32(nlh, MRC_CTL_A_PLANE_MASK, p->plane_mask);
		mrc_nl_put_fields(nlh, p);
	}
	return nlh;
}

struct nlmsghdr *mrc_nl_req_profile_del(struct mrc_nl *nl, const char *dev,
					uint32_t id)
{
	struct nlmsghdr *nlh = mrc_nl_req(nl, MRC_CTL_CMD_PROFILE_DEL, 0, dev);

	mnl_attr_put_u32(nlh, MRC_CTL_A_PROFILE_ID, id);
	return nlh;
}

struct nlmsghdr *mrc_nl_req_profile_dump(struct mrc_nl *nl, const char *dev)
{
	return mrc_nl_req(nl, MRC_CTL_CMD_PROFILE_GET, NLM_F_DUMP, dev);
}

struct nlmsghdr *mrc_nl_req_ev_dump(struct mrc_nl *nl, const char *dev,
				    uint32_t id)
{
	struct nlmsghdr *nlh = mrc_nl_req(nl, MRC_CTL_CMD_EV_GET, NLM_F_DUMP,
					  dev);

	mnl_attr_put_u32(nlh, MRC_CTL_A_PROFILE_ID, id);
	return nlh;
}

struct nlmsghdr *mrc_nl_req_ev_set(struct mrc_nl *nl, const char *dev,
				   uint32_t id, uint32_t index, uint8_t state)
{
	struct nlmsghdr *nlh = mrc_nl_req(nl, MRC_CTL_CMD_EV_SET, 0, dev);
	struct nlattr *nest;

	mnl_attr_put_u32(nlh, MRC_CTL_A_PROFILE_ID, id);
	nest = mnl_attr_nest_start(nlh, MRC_CTL_A_EV);
	mnl_attr_put_u32(nlh, MRC_CTL_EV_A_INDEX, index);
	mnl_attr_put_u8(nlh, MRC_CTL_EV_A_STATE, state);
	mnl_attr_nest_end(nlh, nest);
	return nlh;
}

struct nlmsghdr *mrc_nl_req_cc_get(struct mrc_nl *nl, const char *dev)
{
	return mrc_nl_req(nl, MRC_CTL_CMD_CC_GET, 0, dev);
}

static bool mrc_nl_cc_has(const struct mrc_nl_cc *cc, int type)
{
	return cc->has & (1u << type);
}

struct nlmsghdr *mrc_nl_req_cc_set(struct mrc_nl *nl, const char *dev,
				   const struct mrc_nl_cc *cc, int enabled)
{
	struct nlmsghdr *nlh = mrc_nl_req(nl, MRC_CTL_CMD_CC_SET, 0, dev);
	const struct {
		int type;
		const uint32_t *val;
	} u32s[] = {
		{ MRC_CTL_CC_A_MTU, cc ? &cc->mtu : NULL },
		{ MRC_CTL_CC_A_MAX_CWND, cc ? &cc->max_cwnd : NULL },
		{ MRC_CTL_CC_A_ETA, cc ? &cc->eta : NULL },
		{ MRC_CTL_CC_A_FI, cc ? &cc->fi : NULL },
		{ MRC_CTL_CC_A_FI_SCALE, cc ? &cc->fi_scale : NULL },
		{ MRC_CTL_CC_A_PI, cc ? &cc->pi : NULL },
		{ MRC_CTL_CC_A_GAMMA, cc ? &cc->gamma : NULL },
		{ MRC_CTL_CC_A_MAX_MD_JUMP, cc ? &cc->max_md_jump : NULL },
		{ MRC_CTL_CC_A_QA_GATE, cc ? &cc->qa_gate : NULL },
	};
	struct nlattr *nest;
	size_t i;

	if (cc && cc->has) {
		nest = mnl_attr_nest_start(nlh, MRC_CTL_A_CC);
		if (mrc_nl_cc_has(cc, MRC_CTL_CC_A_BASE_RTT))
			mnl_attr_put_u64(nlh, MRC_CTL_CC_A_BASE_RTT,
					 cc->base_rtt);
		if (mrc_nl_cc_has(cc, MRC_CTL_CC_A_TARGET_DELAY))
			mnl_attr_put_u64(nlh, MRC_CTL_CC_A_TARGET_DELAY,
					 cc->target_delay);
		if (mrc_nl_cc_has(cc, MRC_CTL_CC_A_QA_THRESHOLD))
			mnl_attr_put_u64(nlh, MRC_CTL_CC_A_QA_THRESHOLD,
					 cc->qa_threshold);
		for (i = 0; i < sizeof(u32s) / sizeof(u32s[0]); i++)
			if (mrc_nl_cc_has(cc, u32s[i].type))
				mnl_attr_put_u32(nlh, u32s[i].type,
						 *u32s[i].val);
		if (mrc_nl_cc_has(cc, MRC_CTL_CC_A_DISABLE_QA))
			mnl_attr_put_u8(nlh, MRC_CTL_CC_A_DISABLE_QA,
					cc->disable_qa);
		mnl_attr_nest_end(nlh, nest);
	}
	if (enabled >= 0)
		mnl_attr_put_u8(nlh, MRC_CTL_A_CC_ENABLED, !!enabled);
	return nlh;
}

struct nlmsghdr *mrc_nl_req_path_dump(struct mrc_nl *nl, const char *dev)
{
	return mrc_nl_req(nl, MRC_CTL_CMD_PATH_GET, NLM_F_DUMP, dev);
}

/* ------------------------------------------------------------------ */
/* Answers                                                             */
/* ------------------------------------------------------------------ */

/* Attributes by type, up to @max; unknown (newer) types are skipped. */
struct mrc_nl_table {
	const struct nlattr **tb;
	int max;
};

static int mrc_nl_collect(const struct nlattr *attr, void *data)
{
	const struct mrc_nl_table *t = data;
	int type = mnl_attr_get_type(attr);

	if (type <= t->max)
		t->tb[type] = attr;
	return MNL_CB_OK;
}

static int mrc_nl_parse_msg(const struct nlmsghdr *nlh,
			    const struct nlattr **tb, int max)
{
	struct mrc_nl_table t = { tb, max };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), mrc_nl_collect,
			   &t) < 0)
		return EBADMSG;
	return 0;
}

static int mrc_nl_parse_nest(const struct nlattr *nest,
			     const struct nlattr **tb, int max)
{
	struct mrc_nl_table t = { tb, max };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	if (mnl_attr_parse_nested(nest, mrc_nl_collect, &t) < 0)
		return EBADMSG;
	return 0;
}

/* Each present attribute of @tb has the type @types says. */
static bool mrc_nl_valid(const struct nlattr **tb, int max,
			 const enum mnl_attr_data_type *types)
{
	int i;

	for (i = 1; i <= max; i++)
		if (tb[i] && types[i] != MNL_TYPE_UNSPEC &&
		    mnl_attr_validate(tb[i], types[i]) < 0)
			return false;
	return true;
}

static const enum mnl_attr_data_type mrc_nl_types[MRC_CTL_A_MAX + 1] = {
	[MRC_CTL_A_DEV] = MNL_TYPE_NUL_STRING,
	[MRC_CTL_A_NETDEV] = MNL_TYPE_NUL_STRING,
	[MRC_CTL_A_NUM_PLANES] = MNL_TYPE_U32,
	[MRC_CTL_A_DEFAULT_PROFILE] = MNL_TYPE_U32,
	[MRC_CTL_A_PROFILE_ID] = MNL_TYPE_U32,
	[MRC_CTL_A_FORMAT] = MNL_TYPE_U8,
	[MRC_CTL_A_MODE] = MNL_TYPE_U8,
	[MRC_CTL_A_MIN_ACTIVE] = MNL_TYPE_U32,
	[MRC_CTL_A_PEER] = MNL_TYPE_BINARY,
	[MRC_CTL_A_DEFAULT] = MNL_TYPE_FLAG,
	[MRC_CTL_A_PLANE_MASK] = MNL_TYPE_U32,
	[MRC_CTL_A_EVS] = MNL_TYPE_NESTED,
	[MRC_CTL_A_EV] = MNL_TYPE_NESTED,
	[MRC_CTL_A_FIELDS] = MNL_TYPE_NESTED,
	[MRC_CTL_A_FIELD] = MNL_TYPE_NESTED,
	[MRC_CTL_A_NUM_EVS] = MNL_TYPE_U32,
	[MRC_CTL_A_CC_ENABLED] = MNL_TYPE_U8,
	[MRC_CTL_A_CC_ALGORITHM] = MNL_TYPE_NUL_STRING,
	[MRC_CTL_A_CC] = MNL_TYPE_NESTED,
	[MRC_CTL_A_QPN] = MNL_TYPE_U32,
	[MRC_CTL_A_DEST_QPN] = MNL_TYPE_U32,
};

static const enum mnl_attr_data_type mrc_nl_ev_types[MRC_CTL_EV_A_MAX + 1] = {
	[MRC_CTL_EV_A_INDEX] = MNL_TYPE_U32,
	[MRC_CTL_EV_A_PLANE] = MNL_TYPE_U32,
	[MRC_CTL_EV_A_UDP_SPORT] = MNL_TYPE_U16,
	[MRC_CTL_EV_A_STATE] = MNL_TYPE_U8,
	[MRC_CTL_EV_A_PROFILE_INDEX] = MNL_TYPE_U32,
};

static const enum mnl_attr_data_type mrc_nl_field_types[MRC_CTL_FIELD_A_MAX + 1] = {
	[MRC_CTL_FIELD_A_WIDTH] = MNL_TYPE_U32,
	[MRC_CTL_FIELD_A_INIT] = MNL_TYPE_U32,
	[MRC_CTL_FIELD_A_MIN_VAL] = MNL_TYPE_U32,
	[MRC_CTL_FIELD_A_MAX_VAL] = MNL_TYPE_U32,
	[MRC_CTL_FIELD_A_MASK] = MNL_TYPE_U32,
};

static const enum mnl_attr_data_type mrc_nl_cc_types[MRC_CTL_CC_A_MAX + 1] = {
	[MRC_CTL_CC_A_BASE_RTT] = MNL_TYPE_U64,
	[MRC_CTL_CC_A_TARGET_DELAY] = MNL_TYPE_U64,
	[MRC_CTL_CC_A_QA_THRESHOLD] = MNL_TYPE_U64,
	[MRC_CTL_CC_A_MTU] = MNL_TYPE_U32,
	[MRC_CTL_CC_A_MAX_CWND] = MNL_TYPE_U32,
	[MRC_CTL_CC_A_ETA] = MNL_TYPE_U32,
	[MRC_CTL_CC_A_FI] = MNL_TYPE_U32,
	[MRC_CTL_CC_A_FI_SCALE] = MNL_TYPE_U32,
	[MRC_CTL_CC_A_PI] = MNL_TYPE_U32,
	[MRC_CTL_CC_A_GAMMA] = MNL_TYPE_U32,
	[MRC_CTL_CC_A_MAX_MD_JUMP] = MNL_TYPE_U32,
	[MRC_CTL_CC_A_QA_GATE] = MNL_TYPE_U32,
	[MRC_CTL_CC_A_DISABLE_QA] = MNL_TYPE_U8,
};

static int mrc_nl_parse_top(const struct nlmsghdr *nlh,
			    const struct nlattr **tb)
{
	if (mrc_nl_parse_msg(nlh, tb, MRC_CTL_A_MAX) ||
	    !mrc_nl_valid(tb, MRC_CTL_A_MAX, mrc_nl_types))
		return EBADMSG;
	return 0;
}

/* mnl callbacks answer MNL_CB_OK or MNL_CB_ERROR with errno set. */
static int mrc_nl_bad(void)
{
	errno = EBADMSG;
	return MNL_CB_ERROR;
}

int mrc_nl_parse_dev(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_CTL_A_MAX + 1];
	struct mrc_nl_dev *dev = data;

	if (mrc_nl_parse_top(nlh, tb) || !tb[MRC_CTL_A_NETDEV] ||
	    !tb[MRC_CTL_A_NUM_PLANES])
		return mrc_nl_bad();
	memset(dev, 0, sizeof(*dev));
	strncpy(dev->netdev, mnl_attr_get_str(tb[MRC_CTL_A_NETDEV]),
		sizeof(dev->netdev) - 1);
	dev->num_planes = mnl_attr_get_u32(tb[MRC_CTL_A_NUM_PLANES]);
	if (tb[MRC_CTL_A_DEFAULT_PROFILE])
		dev->default_profile =
			mnl_attr_get_u32(tb[MRC_CTL_A_DEFAULT_PROFILE]);
	if (tb[MRC_CTL_A_CC_ENABLED])
		dev->cc_enabled = mnl_attr_get_u8(tb[MRC_CTL_A_CC_ENABLED]);
	return MNL_CB_OK;
}

static int mrc_nl_parse_fields(const struct nlattr *list,
			       struct mrc_nl_profile *p)
{
	const struct nlattr *tb[MRC_CTL_FIELD_A_MAX + 1];
	const struct nlattr *nest;

	p->num_fields = 0;
	mnl_attr_for_each_nested(nest, list) {
		struct mrc_nl_field *f;

		if (p->num_fields == MRC_NL_MAX_FIELDS ||
		    mnl_attr_validate(nest, MNL_TYPE_NESTED) < 0 ||
		    mrc_nl_parse_nest(nest, tb, MRC_CTL_FIELD_A_MAX) ||
		    !mrc_nl_valid(tb, MRC_CTL_FIELD_A_MAX, mrc_nl_field_types) ||
		    !tb[MRC_CTL_FIELD_A_WIDTH])
			return EBADMSG;
		f = &p->fields[p->num_fields++];
		f->width = mnl_attr_get_u32(tb[MRC_CTL_FIELD_A_WIDTH]);
#define MRC_NL_FIELD(attr) (tb[attr] ? mnl_attr_get_u32(tb[attr]) : 0)
		f->init = MRC_NL_FIELD(MRC_CTL_FIELD_A_INIT);
		f->min = MRC_NL_FIELD(MRC_CTL_FIELD_A_MIN_VAL);
		f->max = MRC_NL_FIELD(MRC_CTL_FIELD_A_MAX_VAL);
		f->mask = MRC_NL_FIELD(MRC_CTL_FIELD_A_MASK);
#undef MRC_NL_FIELD
	}
	return 0;
}

int mrc_nl_parse_profile(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_CTL_A_MAX + 1];
	struct mrc_nl_profile_find *find = data;
	struct mrc_nl_profile *p = &find->profile;
	uint32_t id, num_evs;

	if (mrc_nl_parse_top(nlh, tb) || !tb[MRC_CTL_A_PROFILE_ID] ||
	    !tb[MRC_CTL_A_FORMAT] || !tb[MRC_CTL_A_MODE] ||
	    !tb[MRC_CTL_A_NUM_EVS])
		return mrc_nl_bad();
	id = mnl_attr_get_u32(tb[MRC_CTL_A_PROFILE_ID]);
	num_evs = mnl_attr_get_u32(tb[MRC_CTL_A_NUM_EVS]);
	if (num_evs > MRC_NL_MAX_EVS)
		return mrc_nl_bad();
	find->count++;
	find->total_evs += num_evs;
	if (id != find->id)
		return MNL_CB_OK;

	memset(p, 0, sizeof(*p));
	p->id = id;
	p->format = mnl_attr_get_u8(tb[MRC_CTL_A_FORMAT]);
	p->mode = mnl_attr_get_u8(tb[MRC_CTL_A_MODE]);
	p->num_evs = num_evs;
	if (tb[MRC_CTL_A_MIN_ACTIVE])
		p->min_active = mnl_attr_get_u32(tb[MRC_CTL_A_MIN_ACTIVE]);
	p->is_default = tb[MRC_CTL_A_DEFAULT] != NULL;
	if (tb[MRC_CTL_A_PEER]) {
		if (mnl_attr_get_payload_len(tb[MRC_CTL_A_PEER]) !=
		    sizeof(p->peer))
			return mrc_nl_bad();
		p->has_peer = true;
		memcpy(p->peer, mnl_attr_get_payload(tb[MRC_CTL_A_PEER]),
		       sizeof(p->peer));
	}
	if (tb[MRC_CTL_A_PLANE_MASK])
		p->plane_mask = mnl_attr_get_u32(tb[MRC_CTL_A_PLANE_MASK]);
	if (tb[MRC_CTL_A_FIELDS] &&
	    mrc_nl_parse_fields(tb[MRC_CTL_A_FIELDS], p))
		return mrc_nl_bad();
	find->found = true;
	return MNL_CB_OK;
}

/* An EV nest into @ev; EBADMSG if malformed. */
static int mrc_nl_parse_ev_nest(const struct nlattr *nest,
				const struct nlattr **tb)
{
	if (mrc_nl_parse_nest(nest, tb, MRC_CTL_EV_A_MAX) ||
	    !mrc_nl_valid(tb, MRC_CTL_EV_A_MAX, mrc_nl_ev_types) ||
	    !tb[MRC_CTL_EV_A_INDEX] || !tb[MRC_CTL_EV_A_STATE])
		return EBADMSG;
	return 0;
}

int mrc_nl_parse_ev(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_CTL_A_MAX + 1];
	const struct nlattr *ev_tb[MRC_CTL_EV_A_MAX + 1];
	struct mrc_nl_ev_list *list = data;
	struct mrc_nl_ev *ev;
	uint32_t index;

	if (mrc_nl_parse_top(nlh, tb) || !tb[MRC_CTL_A_EV] ||
	    mrc_nl_parse_ev_nest(tb[MRC_CTL_A_EV], ev_tb))
		return mrc_nl_bad();
	index = mnl_attr_get_u32(ev_tb[MRC_CTL_EV_A_INDEX]);
	if (index >= list->capacity)
		return mrc_nl_bad();
	ev = &list->evs[index];
	memset(ev, 0, sizeof(*ev));
	ev->index = index;
	ev->state = mnl_attr_get_u8(ev_tb[MRC_CTL_EV_A_STATE]);
	if (ev_tb[MRC_CTL_EV_A_PLANE])
		ev->plane = mnl_attr_get_u32(ev_tb[MRC_CTL_EV_A_PLANE]);
	if (list->format == MRC_NL_FMT_UDP) {
		if (!ev_tb[MRC_CTL_EV_A_UDP_SPORT])
			return mrc_nl_bad();
		ev->udp_sport = mnl_attr_get_u16(ev_tb[MRC_CTL_EV_A_UDP_SPORT]);
	} else {
		if (!ev_tb[MRC_CTL_EV_A_SRV6] ||
		    mnl_attr_get_payload_len(ev_tb[MRC_CTL_EV_A_SRV6]) !=
		    sizeof(ev->srv6))
			return mrc_nl_bad();
		memcpy(ev->srv6, mnl_attr_get_payload(ev_tb[MRC_CTL_EV_A_SRV6]),
		       sizeof(ev->srv6));
	}
	list->seen++;
	return MNL_CB_OK;
}

int mrc_nl_parse_path(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_CTL_A_MAX + 1];
	const struct nlattr *ev_tb[MRC_CTL_EV_A_MAX + 1];
	struct mrc_nl_path_bad *paths = data;
	uint32_t index;

	if (mrc_nl_parse_top(nlh, tb) || !tb[MRC_CTL_A_PROFILE_ID] ||
	    !tb[MRC_CTL_A_EV] ||
	    mrc_nl_parse_ev_nest(tb[MRC_CTL_A_EV], ev_tb))
		return mrc_nl_bad();
	/* EVs of the built-in spraying, or of another profile. */
	if (mnl_attr_get_u32(tb[MRC_CTL_A_PROFILE_ID]) != paths->id ||
	    !ev_tb[MRC_CTL_EV_A_PROFILE_INDEX])
		return MNL_CB_OK;
	index = mnl_attr_get_u32(ev_tb[MRC_CTL_EV_A_PROFILE_INDEX]);
	/* A QP may still use an older profile of the same id: skip it. */
	if (index < paths->capacity &&
	    mnl_attr_get_u8(ev_tb[MRC_CTL_EV_A_STATE]) == MRC_NL_EV_ASSUMED_BAD)
		paths->bad[index] = true;
	return MNL_CB_OK;
}

int mrc_nl_parse_cc(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_CTL_A_MAX + 1];
	const struct nlattr *cc_tb[MRC_CTL_CC_A_MAX + 1];
	struct mrc_nl_cc_state *st = data;
	struct mrc_nl_cc *cc = &st->cc;
	int type;

	if (mrc_nl_parse_top(nlh, tb) || !tb[MRC_CTL_A_CC_ENABLED] ||
	    !tb[MRC_CTL_A_CC] ||
	    mrc_nl_parse_nest(tb[MRC_CTL_A_CC], cc_tb, MRC_CTL_CC_A_MAX) ||
	    !mrc_nl_valid(cc_tb, MRC_CTL_CC_A_MAX, mrc_nl_cc_types))
		return mrc_nl_bad();
	memset(st, 0, sizeof(*st));
	st->enabled = mnl_attr_get_u8(tb[MRC_CTL_A_CC_ENABLED]);
	if (tb[MRC_CTL_A_CC_ALGORITHM])
		strncpy(st->algorithm,
			mnl_attr_get_str(tb[MRC_CTL_A_CC_ALGORITHM]),
			sizeof(st->algorithm) - 1);
	for (type = 1; type <= MRC_CTL_CC_A_MAX; type++) {
		const struct nlattr *a = cc_tb[type];

		if (!a || mrc_nl_cc_types[type] == MNL_TYPE_UNSPEC)
			continue;
		cc->has |= 1u << type;
		switch (type) {
		case MRC_CTL_CC_A_BASE_RTT:
			cc->base_rtt = mnl_attr_get_u64(a);
			break;
		case MRC_CTL_CC_A_TARGET_DELAY:
			cc->target_delay = mnl_attr_get_u64(a);
			break;
		case MRC_CTL_CC_A_QA_THRESHOLD:
			cc->qa_threshold = mnl_attr_get_u64(a);
			break;
		case MRC_CTL_CC_A_MTU:
			cc->mtu = mnl_attr_get_u32(a);
			break;
		case MRC_CTL_CC_A_MAX_CWND:
			cc->max_cwnd = mnl_attr_get_u32(a);
			break;
		case MRC_CTL_CC_A_ETA:
			cc->eta = mnl_attr_get_u32(a);
			break;
		case MRC_CTL_CC_A_FI:
			cc->fi = mnl_attr_get_u32(a);
			break;
		case MRC_CTL_CC_A_FI_SCALE:
			cc->fi_scale = mnl_attr_get_u32(a);
			break;
		case MRC_CTL_CC_A_PI:
			cc->pi = mnl_attr_get_u32(a);
			break;
		case MRC_CTL_CC_A_GAMMA:
			cc->gamma = mnl_attr_get_u32(a);
			break;
		case MRC_CTL_CC_A_MAX_MD_JUMP:
			cc->max_md_jump = mnl_attr_get_u32(a);
			break;
		case MRC_CTL_CC_A_QA_GATE:
			cc->qa_gate = mnl_attr_get_u32(a);
			break;
		case MRC_CTL_CC_A_DISABLE_QA:
			cc->disable_qa = mnl_attr_get_u8(a);
			break;
		}
	}
	return MNL_CB_OK;
}
