// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: the "mrc" generic netlink family's messages, as the controller
 * API and mrcctl use them (Documentation/controller.rst has the table).
 * Requests are built in nl->buf with the next sequence number; answers are
 * decoded one message at a time, with every attribute's type and length
 * checked before it is read, so a malformed answer is EBADMSG and never
 * read past its end, and a string too long for its field is refused, not
 * cut short.
 */
#include <assert.h>
#include <errno.h>
#include <linux/genetlink.h>
#include <stddef.h>
#include <string.h>

#include <rdma/mrc-ctl.h>

#include "mrc_ctl_nl.h"

static_assert(MRC_NL_PROFILE_ID_MIN == MRC_CTL_PROFILE_ID_MIN, "uapi");
static_assert(MRC_NL_PROFILE_ID_MAX == MRC_CTL_PROFILE_ID_MAX, "uapi");
static_assert(MRC_NL_MAX_EVS == MRC_CTL_MAX_EVS, "uapi");
static_assert(MRC_NL_MAX_FIELDS == MRC_CTL_MAX_FIELDS, "uapi");
static_assert(MRC_NL_MAX_PLANES == MRC_CTL_MAX_PLANES, "uapi");
static_assert(MRC_NL_PRESET_MAX == MRC_CTL_PRESET_NAME_MAX, "uapi");
static_assert(MRC_NL_EP_MAX_REQS == MRC_CTL_EP_MAX_REQS, "uapi");
static_assert(MRC_NL_EP_TIMEOUT_MAX_NS == MRC_CTL_EP_TIMEOUT_MAX_NS, "uapi");
static_assert((int)MRC_NL_FMT_UDP == (int)MRC_CTL_EV_FMT_UDP, "uapi");
static_assert((int)MRC_NL_FMT_SRV6 == (int)MRC_CTL_EV_FMT_SRV6, "uapi");
static_assert((int)MRC_NL_MODE_EXPLICIT == (int)MRC_CTL_EV_MODE_EXPLICIT, "uapi");
static_assert((int)MRC_NL_MODE_GENERATED == (int)MRC_CTL_EV_MODE_GENERATED, "uapi");
static_assert((int)MRC_NL_EV_UNKNOWN == (int)MRC_CTL_EV_UNKNOWN, "uapi");
static_assert((int)MRC_NL_EV_GOOD == (int)MRC_CTL_EV_GOOD, "uapi");
static_assert((int)MRC_NL_EV_ASSUMED_BAD == (int)MRC_CTL_EV_ASSUMED_BAD, "uapi");
static_assert((int)MRC_NL_EV_DENIED == (int)MRC_CTL_EV_DENIED, "uapi");
static_assert((int)MRC_NL_REASON_LOSS == (int)MRC_CTL_EV_REASON_LOSS, "uapi");
static_assert((int)MRC_NL_REASON_TIMEOUT == (int)MRC_CTL_EV_REASON_TIMEOUT, "uapi");
static_assert((int)MRC_NL_REASON_PLANE_DOWN == (int)MRC_CTL_EV_REASON_PLANE_DOWN, "uapi");
static_assert((int)MRC_NL_REASON_PROBES == (int)MRC_CTL_EV_REASON_PROBES, "uapi");
static_assert((int)MRC_NL_REASON_DENIED == (int)MRC_CTL_EV_REASON_DENIED, "uapi");
static_assert((int)MRC_NL_REASON_ALLOWED == (int)MRC_CTL_EV_REASON_ALLOWED, "uapi");
static_assert((int)MRC_NL_REASON_RELEASED == (int)MRC_CTL_EV_REASON_RELEASED, "uapi");
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
/* CC parameters by attribute number                                   */
/* ------------------------------------------------------------------ */

/* Where each CC attribute lives in struct mrc_nl_cc, and its width. */
static const struct mrc_nl_cc_slot {
	uint8_t size;			/* 0: not a parameter */
	uint8_t offset;
} mrc_nl_cc_slots[MRC_CTL_CC_A_MAX + 1] = {
#define MRC_NL_CC_SLOT(attr, member) \
	[attr] = { sizeof(((struct mrc_nl_cc *)0)->member), \
		   offsetof(struct mrc_nl_cc, member) }
	MRC_NL_CC_SLOT(MRC_CTL_CC_A_BASE_RTT, base_rtt),
	MRC_NL_CC_SLOT(MRC_CTL_CC_A_TARGET_DELAY, target_delay),
	MRC_NL_CC_SLOT(MRC_CTL_CC_A_QA_THRESHOLD, qa_threshold),
	MRC_NL_CC_SLOT(MRC_CTL_CC_A_MTU, mtu),
	MRC_NL_CC_SLOT(MRC_CTL_CC_A_MAX_CWND, max_cwnd),
	MRC_NL_CC_SLOT(MRC_CTL_CC_A_ETA, eta),
	MRC_NL_CC_SLOT(MRC_CTL_CC_A_FI, fi),
	MRC_NL_CC_SLOT(MRC_CTL_CC_A_FI_SCALE, fi_scale),
	MRC_NL_CC_SLOT(MRC_CTL_CC_A_PI, pi),
	MRC_NL_CC_SLOT(MRC_CTL_CC_A_GAMMA, gamma),
	MRC_NL_CC_SLOT(MRC_CTL_CC_A_MAX_MD_JUMP, max_md_jump),
	MRC_NL_CC_SLOT(MRC_CTL_CC_A_QA_GATE, qa_gate),
	MRC_NL_CC_SLOT(MRC_CTL_CC_A_DISABLE_QA, disable_qa),
#undef MRC_NL_CC_SLOT
};

static_assert(MRC_CTL_CC_A_MAX < 32, "mrc_nl_cc.has has a bit for each");

static const struct mrc_nl_cc_slot *mrc_nl_cc_slot(int type)
{
	if (type < 1 || type > MRC_CTL_CC_A_MAX || !mrc_nl_cc_slots[type].size)
		return NULL;
	return &mrc_nl_cc_slots[type];
}

bool mrc_nl_cc_param_get(const struct mrc_nl_cc *cc, int type,
			 uint64_t *value)
{
	const struct mrc_nl_cc_slot *slot = mrc_nl_cc_slot(type);
	const uint8_t *at;

	if (!slot || !(cc->has & (1u << type)))
		return false;
	at = (const uint8_t *)cc + slot->offset;
	if (slot->size == sizeof(uint64_t)) {
		uint64_t v;

		memcpy(&v, at, sizeof(v));
		*value = v;
	} else if (slot->size == sizeof(uint32_t)) {
		uint32_t v;

		memcpy(&v, at, sizeof(v));
		*value = v;
	} else {
		*value = *at;
	}
	return true;
}

int mrc_nl_cc_param_set(struct mrc_nl_cc *cc, int type, uint64_t value)
{
	const struct mrc_nl_cc_slot *slot = mrc_nl_cc_slot(type);
	uint8_t *at;

	if (!slot)
		return EINVAL;
	at = (uint8_t *)cc + slot->offset;
	if (slot->size == sizeof(uint64_t)) {
		memcpy(at, &value, sizeof(value));
	} else if (slot->size == sizeof(uint32_t)) {
		uint32_t v = (uint32_t)value;

		if (value > UINT32_MAX)
			return ERANGE;
		memcpy(at, &v, sizeof(v));
	} else {
		if (value > UINT8_MAX)
			return ERANGE;
		*at = (uint8_t)value;
	}
	cc->has |= 1u << type;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Requests                                                            */
/* ------------------------------------------------------------------ */

/* @dev NULL: no device named (a dump of every device). */
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
	if (dev)
		mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, dev);
	return nlh;
}

struct nlmsghdr *mrc_nl_req_dev_get(struct mrc_nl *nl, const char *dev)
{
	return mrc_nl_req(nl, MRC_CTL_CMD_DEV_GET, dev ? 0 : NLM_F_DUMP, dev);
}

struct nlmsghdr *mrc_nl_req_dev_set(struct mrc_nl *nl, const char *dev,
				    const struct mrc_nl_dev_set *set)
{
	struct nlmsghdr *nlh = mrc_nl_req(nl, MRC_CTL_CMD_DEV_SET, 0, dev);

	if (set->has & MRC_NL_DEV_PRESET)
		mnl_attr_put_strz(nlh, MRC_CTL_A_PRESET, set->preset);
	if (set->has & MRC_NL_DEV_SINGLE_PATH)
		mnl_attr_put_u8(nlh, MRC_CTL_A_SINGLE_PATH, set->single_path);
	if (set->has & MRC_NL_DEV_DATA_DSCP)
		mnl_attr_put_u8(nlh, MRC_CTL_A_DATA_DSCP, set->data_dscp);
	if (set->has & MRC_NL_DEV_CTRL_DSCP)
		mnl_attr_put_u8(nlh, MRC_CTL_A_CTRL_DSCP, set->ctrl_dscp);
	if (set->has & MRC_NL_DEV_TXQ_PACKETS)
		mnl_attr_put_u32(nlh, MRC_CTL_A_TXQ_PACKETS, set->txq_packets);
	if (set->has & MRC_NL_DEV_CC_RTT_FROM_BUILD)
		mnl_attr_put_u8(nlh, MRC_CTL_A_CC_RTT_FROM_BUILD,
				set->cc_rtt_from_build);
	return nlh;
}

/* The EV's value in @format's attribute. */
static void mrc_nl_put_ev_value(struct nlmsghdr *nlh, uint8_t format,
				const struct mrc_nl_ev *ev)
{
	mnl_attr_put_u32(nlh, MRC_CTL_EV_A_PLANE, ev->plane);
	if (format == MRC_NL_FMT_UDP)
		mnl_attr_put_u16(nlh, MRC_CTL_EV_A_UDP_SPORT, ev->udp_sport);
	else
		mnl_attr_put(nlh, MRC_CTL_EV_A_SRV6, sizeof(ev->srv6),
			     ev->srv6);
}

static void mrc_nl_put_ev(struct nlmsghdr *nlh, uint8_t format,
			  const struct mrc_nl_ev *ev)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, MRC_CTL_A_EV);

	mrc_nl_put_ev_value(nlh, format, ev);
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
	if (!p->min_active_unset)
		mnl_attr_put_u32(nlh, MRC_CTL_A_MIN_ACTIVE, p->min_active);
	if (p->has_peer)
		mnl_attr_put(nlh, MRC_CTL_A_PEER, sizeof(p->peer), p->peer);
	if (p->is_default)
		mnl_attr_put(nlh, MRC_CTL_A_DEFAULT, 0, NULL);
	if (p->replace)
		mnl_attr_put(nlh, MRC_CTL_A_REPLACE, 0, NULL);
	/* Left out when 0, the kernel's default, as kernels before it. */
	if (p->event_mask)
		mnl_attr_put_u32(nlh, MRC_CTL_A_EVENT_MASK, p->event_mask);
	if (p->mode == MRC_NL_MODE_EXPLICIT) {
		struct nlattr *list = mnl_attr_nest_start(nlh, MRC_CTL_A_EVS);

		for (i = 0; i < p->num_evs; i++)
			mrc_nl_put_ev(nlh, p->format, &p->evs[i]);
		mnl_attr_nest_end(nlh, list);
	} else {
		if (!p->plane_mask_unset)
			mnl_attr_put_u32(nlh, MRC_CTL_A_PLANE_MASK,
					 p->plane_mask);
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
				   uint32_t id, const struct mrc_nl_ev *ev,
				   uint8_t state)
{
	struct nlmsghdr *nlh = mrc_nl_req(nl, MRC_CTL_CMD_EV_SET, 0, dev);
	struct nlattr *nest;

	mnl_attr_put_u32(nlh, MRC_CTL_A_PROFILE_ID, id);
	nest = mnl_attr_nest_start(nlh, MRC_CTL_A_EV);
	/* By value, the kernel reads it in the profile's format. */
	if (ev->format)
		mrc_nl_put_ev_value(nlh, ev->format, ev);
	else
		mnl_attr_put_u32(nlh, MRC_CTL_EV_A_INDEX, ev->index);
	mnl_attr_put_u8(nlh, MRC_CTL_EV_A_STATE, state);
	mnl_attr_nest_end(nlh, nest);
	return nlh;
}

struct nlmsghdr *mrc_nl_req_cc_get(struct mrc_nl *nl, const char *dev)
{
	return mrc_nl_req(nl, MRC_CTL_CMD_CC_GET, 0, dev);
}

struct nlmsghdr *mrc_nl_req_cc_set(struct mrc_nl *nl, const char *dev,
				   const struct mrc_nl_cc *cc, int enabled,
				   bool reset)
{
	struct nlmsghdr *nlh = mrc_nl_req(nl, MRC_CTL_CMD_CC_SET, 0, dev);
	struct nlattr *nest;
	uint64_t v;
	int type;

	if (reset)
		mnl_attr_put(nlh, MRC_CTL_A_CC_RESET, 0, NULL);
	if (cc && cc->has) {
		nest = mnl_attr_nest_start(nlh, MRC_CTL_A_CC);
		for (type = 1; type <= MRC_CTL_CC_A_MAX; type++) {
			if (!mrc_nl_cc_param_get(cc, type, &v))
				continue;
			switch (mrc_nl_cc_slots[type].size) {
			case sizeof(uint64_t):
				mnl_attr_put_u64(nlh, type, v);
				break;
			case sizeof(uint32_t):
				mnl_attr_put_u32(nlh, type, (uint32_t)v);
				break;
			default:
				mnl_attr_put_u8(nlh, type, (uint8_t)v);
			}
		}
		mnl_attr_nest_end(nlh, nest);
	}
	if (enabled >= 0)
		mnl_attr_put_u8(nlh, MRC_CTL_A_CC_ENABLED, !!enabled);
	return nlh;
}

struct nlmsghdr *mrc_nl_req_path_dump(struct mrc_nl *nl, const char *dev,
				      const uint8_t *peer)
{
	struct nlmsghdr *nlh = mrc_nl_req(nl, MRC_CTL_CMD_PATH_GET, NLM_F_DUMP,
					  dev);

	if (peer)
		mnl_attr_put(nlh, MRC_CTL_A_PEER, 16, peer);
	return nlh;
}

struct nlmsghdr *mrc_nl_req_plane_dump(struct mrc_nl *nl, const char *dev)
{
	return mrc_nl_req(nl, MRC_CTL_CMD_PLANE_GET, NLM_F_DUMP, dev);
}

static struct nlmsghdr *mrc_nl_req_ep(struct mrc_nl *nl, uint8_t cmd,
				      const char *dev,
				      const struct mrc_nl_ep_req *reqs,
				      uint32_t num)
{
	struct nlmsghdr *nlh = mrc_nl_req(nl, cmd, 0, dev);
	struct nlattr *list, *req, *ev;
	uint32_t i;

	list = mnl_attr_nest_start(nlh, MRC_CTL_A_EP_REQS);
	for (i = 0; i < num; i++) {
		const struct mrc_nl_ep_req *r = &reqs[i];

		req = mnl_attr_nest_start(nlh, MRC_CTL_A_EP_REQ);
		mnl_attr_put_u16(nlh, MRC_CTL_EP_A_REQ_ID, r->req_id);
		mnl_attr_put(nlh, MRC_CTL_EP_A_SGID, 16, r->sgid);
		mnl_attr_put(nlh, MRC_CTL_EP_A_DGID, 16, r->dgid);
		ev = mnl_attr_nest_start(nlh, MRC_CTL_EP_A_EV);
		mrc_nl_put_ev_value(nlh, r->ev.format, &r->ev);
		mnl_attr_nest_end(nlh, ev);
		if (r->has_dscp)
			mnl_attr_put_u8(nlh, MRC_CTL_EP_A_DSCP, r->dscp);
		mnl_attr_put_u64(nlh, MRC_CTL_EP_A_TIMEOUT, r->timeout_ns);
		if (r->has_port_status)
			mnl_attr_put_u32(nlh, MRC_CTL_EP_A_PORT_STATUS,
					 r->port_status);
		mnl_attr_nest_end(nlh, req);
	}
	mnl_attr_nest_end(nlh, list);
	return nlh;
}

struct nlmsghdr *mrc_nl_req_ep_probe(struct mrc_nl *nl, const char *dev,
				     const struct mrc_nl_ep_req *reqs,
				     uint32_t num)
{
	return mrc_nl_req_ep(nl, MRC_CTL_CMD_EP_PROBE, dev, reqs, num);
}

struct nlmsghdr *mrc_nl_req_ep_port_status(struct mrc_nl *nl, const char *dev,
					   const struct mrc_nl_ep_req *reqs,
					   uint32_t num)
{
	return mrc_nl_req_ep(nl, MRC_CTL_CMD_EP_PORT_STATUS, dev, reqs, num);
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

/*
 * Each present attribute of @tb has the type @types says (a binary one
 * its exact length in @lens, where that is not 0).
 */
static bool mrc_nl_valid(const struct nlattr **tb, int max,
			 const enum mnl_attr_data_type *types,
			 const uint8_t *lens)
{
	int i;

	for (i = 1; i <= max; i++) {
		if (!tb[i] || types[i] == MNL_TYPE_UNSPEC)
			continue;
		if (mnl_attr_validate(tb[i], types[i]) < 0)
			return false;
		if (lens && lens[i] &&
		    mnl_attr_get_payload_len(tb[i]) != lens[i])
			return false;
	}
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
	[MRC_CTL_A_SINGLE_PATH] = MNL_TYPE_U8,
	[MRC_CTL_A_DATA_DSCP] = MNL_TYPE_U8,
	[MRC_CTL_A_CTRL_DSCP] = MNL_TYPE_U8,
	[MRC_CTL_A_CC_ENABLED] = MNL_TYPE_U8,
	[MRC_CTL_A_CC_ALGORITHM] = MNL_TYPE_NUL_STRING,
	[MRC_CTL_A_CC] = MNL_TYPE_NESTED,
	[MRC_CTL_A_QPN] = MNL_TYPE_U32,
	[MRC_CTL_A_DEST_QPN] = MNL_TYPE_U32,
	[MRC_CTL_A_TXQ_PACKETS] = MNL_TYPE_U32,
	[MRC_CTL_A_CC_RTT_FROM_BUILD] = MNL_TYPE_U8,
	[MRC_CTL_A_PRESET] = MNL_TYPE_NUL_STRING,
	[MRC_CTL_A_PLANE] = MNL_TYPE_NESTED,
	[MRC_CTL_A_EVENT_MASK] = MNL_TYPE_U32,
	[MRC_CTL_A_EP_REQS] = MNL_TYPE_NESTED,
	[MRC_CTL_A_EP_REQ] = MNL_TYPE_NESTED,
	[MRC_CTL_A_PLANES] = MNL_TYPE_NESTED,
};

static const uint8_t mrc_nl_lens[MRC_CTL_A_MAX + 1] = {
	[MRC_CTL_A_PEER] = 16,
};

static const enum mnl_attr_data_type mrc_nl_ev_types[MRC_CTL_EV_A_MAX + 1] = {
	[MRC_CTL_EV_A_INDEX] = MNL_TYPE_U32,
	[MRC_CTL_EV_A_PLANE] = MNL_TYPE_U32,
	[MRC_CTL_EV_A_UDP_SPORT] = MNL_TYPE_U16,
	[MRC_CTL_EV_A_SRV6] = MNL_TYPE_BINARY,
	[MRC_CTL_EV_A_STATE] = MNL_TYPE_U8,
	[MRC_CTL_EV_A_USIDS] = MNL_TYPE_BINARY,
	[MRC_CTL_EV_A_PROFILE_INDEX] = MNL_TYPE_U32,
	[MRC_CTL_EV_A_SENT] = MNL_TYPE_U64,
	[MRC_CTL_EV_A_ACKED] = MNL_TYPE_U64,
	[MRC_CTL_EV_A_LOST] = MNL_TYPE_U64,
	[MRC_CTL_EV_A_PROBES] = MNL_TYPE_U64,
	[MRC_CTL_EV_A_REASON] = MNL_TYPE_U8,
	[MRC_CTL_EV_A_DROP_COUNT] = MNL_TYPE_U32,
};

static const uint8_t mrc_nl_ev_lens[MRC_CTL_EV_A_MAX + 1] = {
	[MRC_CTL_EV_A_SRV6] = 16,
};

static const enum mnl_attr_data_type mrc_nl_field_types[MRC_CTL_FIELD_A_MAX + 1] = {
	[MRC_CTL_FIELD_A_WIDTH] = MNL_TYPE_U32,
	[MRC_CTL_FIELD_A_INIT] = MNL_TYPE_U32,
	[MRC_CTL_FIELD_A_MIN_VAL] = MNL_TYPE_U32,
	[MRC_CTL_FIELD_A_MAX_VAL] = MNL_TYPE_U32,
	[MRC_CTL_FIELD_A_MASK] = MNL_TYPE_U32,
};

static const enum mnl_attr_data_type mrc_nl_plane_types[MRC_CTL_PLANE_A_MAX + 1] = {
	[MRC_CTL_PLANE_A_INDEX] = MNL_TYPE_U32,
	[MRC_CTL_PLANE_A_NETDEV] = MNL_TYPE_NUL_STRING,
	[MRC_CTL_PLANE_A_UP] = MNL_TYPE_U8,
	[MRC_CTL_PLANE_A_TX_PACKETS] = MNL_TYPE_U64,
	[MRC_CTL_PLANE_A_TX_VIA_MASTER] = MNL_TYPE_U64,
	[MRC_CTL_PLANE_A_IFINDEX] = MNL_TYPE_U32,
	[MRC_CTL_PLANE_A_ADMIN_UP] = MNL_TYPE_U8,
};

static const enum mnl_attr_data_type mrc_nl_ep_types[MRC_CTL_EP_A_MAX + 1] = {
	[MRC_CTL_EP_A_REQ_ID] = MNL_TYPE_U16,
	[MRC_CTL_EP_A_PLANE] = MNL_TYPE_U32,
	[MRC_CTL_EP_A_RTT] = MNL_TYPE_U64,
	[MRC_CTL_EP_A_SVC_TIME_REMOVED] = MNL_TYPE_FLAG,
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
	    !mrc_nl_valid(tb, MRC_CTL_A_MAX, mrc_nl_types, mrc_nl_lens))
		return EBADMSG;
	return 0;
}

/*
 * A string attribute (validated as NUL-terminated) into @buf of @size:
 * EBADMSG if it does not fit whole.
 */
static int mrc_nl_get_str(const struct nlattr *attr, char *buf, size_t size)
{
	const char *s = mnl_attr_get_str(attr);
	size_t len = strnlen(s, mnl_attr_get_payload_len(attr));

	if (len >= size)
		return EBADMSG;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return 0;
}

/* mnl callbacks answer MNL_CB_OK or MNL_CB_ERROR with errno set. */
static int mrc_nl_cb_result(int err)
{
	if (!err)
		return MNL_CB_OK;
	errno = err;
	return MNL_CB_ERROR;
}

/*
 * DEV_GET's PLANES: a PLANE nest per plane, INDEX and UP in each, indices
 * 0, 1, ... in order, none or as many as the device has planes.
 */
static int mrc_nl_decode_dev_planes(const struct nlattr *list,
				    struct mrc_nl_dev *dev)
{
	const struct nlattr *ptb[MRC_CTL_PLANE_A_MAX + 1];
	const struct nlattr *nest;

	mnl_attr_for_each_nested(nest, list) {
		struct mrc_nl_dev_plane *pl;

		if (mnl_attr_get_type(nest) != MRC_CTL_A_PLANE ||
		    dev->num_plane_info == MRC_NL_MAX_PLANES ||
		    mnl_attr_validate(nest, MNL_TYPE_NESTED) < 0 ||
		    mrc_nl_parse_nest(nest, ptb, MRC_CTL_PLANE_A_MAX) ||
		    !mrc_nl_valid(ptb, MRC_CTL_PLANE_A_MAX, mrc_nl_plane_types,
				  NULL) ||
		    !ptb[MRC_CTL_PLANE_A_INDEX] || !ptb[MRC_CTL_PLANE_A_UP] ||
		    mnl_attr_get_u32(ptb[MRC_CTL_PLANE_A_INDEX]) !=
		    dev->num_plane_info)
			return EBADMSG;
		pl = &dev->planes[dev->num_plane_info++];
		if (ptb[MRC_CTL_PLANE_A_NETDEV] &&
		    mrc_nl_get_str(ptb[MRC_CTL_PLANE_A_NETDEV], pl->netdev,
				   sizeof(pl->netdev)))
			return EBADMSG;
		pl->up = mnl_attr_get_u8(ptb[MRC_CTL_PLANE_A_UP]);
		if (ptb[MRC_CTL_PLANE_A_IFINDEX])
			pl->ifindex =
				mnl_attr_get_u32(ptb[MRC_CTL_PLANE_A_IFINDEX]);
		if (ptb[MRC_CTL_PLANE_A_ADMIN_UP])
			pl->admin_up =
				mnl_attr_get_u8(ptb[MRC_CTL_PLANE_A_ADMIN_UP]);
	}
	/* A plane left out (or a nest cut short) would shift the ports. */
	if (dev->num_plane_info && dev->num_plane_info != dev->num_planes)
		return EBADMSG;
	dev->has_planes = true;
	return 0;
}

int mrc_nl_decode_dev(const struct nlmsghdr *nlh, struct mrc_nl_dev *dev)
{
	static const struct {
		int attr;
		uint32_t has;
		size_t offset;
	} u8s[] = {
		{ MRC_CTL_A_SINGLE_PATH, MRC_NL_DEV_SINGLE_PATH,
		  offsetof(struct mrc_nl_dev, single_path) },
		{ MRC_CTL_A_DATA_DSCP, MRC_NL_DEV_DATA_DSCP,
		  offsetof(struct mrc_nl_dev, data_dscp) },
		{ MRC_CTL_A_CTRL_DSCP, MRC_NL_DEV_CTRL_DSCP,
		  offsetof(struct mrc_nl_dev, ctrl_dscp) },
		{ MRC_CTL_A_CC_RTT_FROM_BUILD, MRC_NL_DEV_CC_RTT_FROM_BUILD,
		  offsetof(struct mrc_nl_dev, cc_rtt_from_build) },
		{ MRC_CTL_A_CC_ENABLED, MRC_NL_DEV_CC_ENABLED,
		  offsetof(struct mrc_nl_dev, cc_enabled) },
	};
	const struct nlattr *tb[MRC_CTL_A_MAX + 1];
	size_t i;

	memset(dev, 0, sizeof(*dev));
	if (mrc_nl_parse_top(nlh, tb) || !tb[MRC_CTL_A_NETDEV] ||
	    !tb[MRC_CTL_A_NUM_PLANES] ||
	    mrc_nl_get_str(tb[MRC_CTL_A_NETDEV], dev->netdev,
			   sizeof(dev->netdev)) ||
	    (tb[MRC_CTL_A_DEV] &&
	     mrc_nl_get_str(tb[MRC_CTL_A_DEV], dev->name, sizeof(dev->name))))
		return EBADMSG;
	dev->num_planes = mnl_attr_get_u32(tb[MRC_CTL_A_NUM_PLANES]);
	if (tb[MRC_CTL_A_DEFAULT_PROFILE]) {
		dev->default_profile =
			mnl_attr_get_u32(tb[MRC_CTL_A_DEFAULT_PROFILE]);
		dev->has |= MRC_NL_DEV_DEFAULT_PROFILE;
	}
	if (tb[MRC_CTL_A_PRESET]) {
		if (mrc_nl_get_str(tb[MRC_CTL_A_PRESET], dev->preset,
				   sizeof(dev->preset)))
			return EBADMSG;
		dev->has |= MRC_NL_DEV_PRESET;
	}
	if (tb[MRC_CTL_A_TXQ_PACKETS]) {
		dev->txq_packets = mnl_attr_get_u32(tb[MRC_CTL_A_TXQ_PACKETS]);
		dev->has |= MRC_NL_DEV_TXQ_PACKETS;
	}
	for (i = 0; i < sizeof(u8s) / sizeof(u8s[0]); i++) {
		if (!tb[u8s[i].attr])
			continue;
		*((uint8_t *)dev + u8s[i].offset) =
			mnl_attr_get_u8(tb[u8s[i].attr]);
		dev->has |= u8s[i].has;
	}
	if (tb[MRC_CTL_A_PLANES])
		return mrc_nl_decode_dev_planes(tb[MRC_CTL_A_PLANES], dev);
	return 0;
}

int mrc_nl_parse_dev(const struct nlmsghdr *nlh, void *data)
{
	return mrc_nl_cb_result(mrc_nl_decode_dev(nlh, data));
}

static int mrc_nl_decode_fields(const struct nlattr *list,
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
		    !mrc_nl_valid(tb, MRC_CTL_FIELD_A_MAX, mrc_nl_field_types,
				  NULL) ||
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

int mrc_nl_decode_profile(const struct nlmsghdr *nlh,
			  struct mrc_nl_profile *p)
{
	const struct nlattr *tb[MRC_CTL_A_MAX + 1];

	memset(p, 0, sizeof(*p));
	if (mrc_nl_parse_top(nlh, tb) || !tb[MRC_CTL_A_PROFILE_ID] ||
	    !tb[MRC_CTL_A_FORMAT] || !tb[MRC_CTL_A_MODE] ||
	    !tb[MRC_CTL_A_NUM_EVS])
		return EBADMSG;
	p->id = mnl_attr_get_u32(tb[MRC_CTL_A_PROFILE_ID]);
	p->format = mnl_attr_get_u8(tb[MRC_CTL_A_FORMAT]);
	p->mode = mnl_attr_get_u8(tb[MRC_CTL_A_MODE]);
	p->num_evs = mnl_attr_get_u32(tb[MRC_CTL_A_NUM_EVS]);
	if (p->num_evs > MRC_NL_MAX_EVS)
		return EBADMSG;
	if (tb[MRC_CTL_A_MIN_ACTIVE])
		p->min_active = mnl_attr_get_u32(tb[MRC_CTL_A_MIN_ACTIVE]);
	else
		p->min_active_unset = true;
	p->is_default = tb[MRC_CTL_A_DEFAULT] != NULL;
	if (tb[MRC_CTL_A_PEER]) {
		p->has_peer = true;
		memcpy(p->peer, mnl_attr_get_payload(tb[MRC_CTL_A_PEER]),
		       sizeof(p->peer));
	}
	if (tb[MRC_CTL_A_PLANE_MASK])
		p->plane_mask = mnl_attr_get_u32(tb[MRC_CTL_A_PLANE_MASK]);
	else
		p->plane_mask_unset = true;
	if (tb[MRC_CTL_A_EVENT_MASK])
		p->event_mask = mnl_attr_get_u32(tb[MRC_CTL_A_EVENT_MASK]);
	if (tb[MRC_CTL_A_FIELDS] &&
	    mrc_nl_decode_fields(tb[MRC_CTL_A_FIELDS], p))
		return EBADMSG;
	return 0;
}

int mrc_nl_parse_profile(const struct nlmsghdr *nlh, void *data)
{
	struct mrc_nl_profile_find *find = data;
	struct mrc_nl_profile p = { 0 };
	int err = mrc_nl_decode_profile(nlh, &p);

	if (err)
		return mrc_nl_cb_result(err);
	find->count++;
	find->total_evs += p.num_evs;
	if (p.id == find->id) {
		find->profile = p;
		find->found = true;
	}
	return MNL_CB_OK;
}

/* An EV nest: index and state always, a value in at most one format. */
static int mrc_nl_decode_ev_nest(const struct nlattr *nest,
				 const struct nlattr **tb,
				 struct mrc_nl_ev *ev)
{
	memset(ev, 0, sizeof(*ev));
	if (mrc_nl_parse_nest(nest, tb, MRC_CTL_EV_A_MAX) ||
	    !mrc_nl_valid(tb, MRC_CTL_EV_A_MAX, mrc_nl_ev_types,
			  mrc_nl_ev_lens) ||
	    !tb[MRC_CTL_EV_A_INDEX] || !tb[MRC_CTL_EV_A_STATE] ||
	    (tb[MRC_CTL_EV_A_UDP_SPORT] && tb[MRC_CTL_EV_A_SRV6]))
		return EBADMSG;
	ev->index = mnl_attr_get_u32(tb[MRC_CTL_EV_A_INDEX]);
	ev->state = mnl_attr_get_u8(tb[MRC_CTL_EV_A_STATE]);
	if (tb[MRC_CTL_EV_A_PLANE])
		ev->plane = mnl_attr_get_u32(tb[MRC_CTL_EV_A_PLANE]);
	if (tb[MRC_CTL_EV_A_UDP_SPORT]) {
		ev->format = MRC_NL_FMT_UDP;
		ev->udp_sport = mnl_attr_get_u16(tb[MRC_CTL_EV_A_UDP_SPORT]);
	} else if (tb[MRC_CTL_EV_A_SRV6]) {
		ev->format = MRC_NL_FMT_SRV6;
		memcpy(ev->srv6, mnl_attr_get_payload(tb[MRC_CTL_EV_A_SRV6]),
		       sizeof(ev->srv6));
	}
	return 0;
}

int mrc_nl_decode_ev(const struct nlmsghdr *nlh, uint32_t *id,
		     struct mrc_nl_ev *ev)
{
	const struct nlattr *tb[MRC_CTL_A_MAX + 1];
	const struct nlattr *ev_tb[MRC_CTL_EV_A_MAX + 1];

	if (mrc_nl_parse_top(nlh, tb) || !tb[MRC_CTL_A_EV] ||
	    mrc_nl_decode_ev_nest(tb[MRC_CTL_A_EV], ev_tb, ev) ||
	    !ev->format)
		return EBADMSG;
	*id = tb[MRC_CTL_A_PROFILE_ID] ?
	      mnl_attr_get_u32(tb[MRC_CTL_A_PROFILE_ID]) : 0;
	return 0;
}

int mrc_nl_parse_ev(const struct nlmsghdr *nlh, void *data)
{
	struct mrc_nl_ev_list *list = data;
	struct mrc_nl_ev ev;
	uint32_t id;

	/* Each in the profile's format, at an index the profile has. */
	if (mrc_nl_decode_ev(nlh, &id, &ev) || ev.format != list->format ||
	    ev.index >= list->capacity)
		return mrc_nl_cb_result(EBADMSG);
	list->evs[ev.index] = ev;
	list->seen++;
	return MNL_CB_OK;
}

int mrc_nl_decode_path(const struct nlmsghdr *nlh, struct mrc_nl_path *path)
{
	const struct nlattr *tb[MRC_CTL_A_MAX + 1];
	const struct nlattr *ev_tb[MRC_CTL_EV_A_MAX + 1];
	const uint8_t *u;
	uint32_t k, len;

	memset(path, 0, sizeof(*path));
	if (mrc_nl_parse_top(nlh, tb) || !tb[MRC_CTL_A_QPN] ||
	    !tb[MRC_CTL_A_PROFILE_ID] || !tb[MRC_CTL_A_EV] ||
	    mrc_nl_decode_ev_nest(tb[MRC_CTL_A_EV], ev_tb, &path->ev))
		return EBADMSG;
	path->qpn = mnl_attr_get_u32(tb[MRC_CTL_A_QPN]);
	path->profile_id = mnl_attr_get_u32(tb[MRC_CTL_A_PROFILE_ID]);
	if (tb[MRC_CTL_A_DEST_QPN])
		path->dest_qpn = mnl_attr_get_u32(tb[MRC_CTL_A_DEST_QPN]);
	if (tb[MRC_CTL_A_PEER]) {
		path->has_peer = true;
		memcpy(path->peer, mnl_attr_get_payload(tb[MRC_CTL_A_PEER]),
		       sizeof(path->peer));
	}
	if (ev_tb[MRC_CTL_EV_A_PROFILE_INDEX]) {
		path->has_profile_index = true;
		path->profile_index =
			mnl_attr_get_u32(ev_tb[MRC_CTL_EV_A_PROFILE_INDEX]);
	}
	if (ev_tb[MRC_CTL_EV_A_USIDS]) {
		/* Big-endian 16-bit words, as many as a container holds. */
		len = mnl_attr_get_payload_len(ev_tb[MRC_CTL_EV_A_USIDS]);
		if (len % 2 || len / 2 > MRC_NL_MAX_USIDS)
			return EBADMSG;
		u = mnl_attr_get_payload(ev_tb[MRC_CTL_EV_A_USIDS]);
		path->num_usids = len / 2;
		for (k = 0; k < path->num_usids; k++)
			path->usids[k] = (uint16_t)(u[2 * k] << 8 | u[2 * k + 1]);
	}
#define MRC_NL_COUNTER(attr) \
	(ev_tb[attr] ? mnl_attr_get_u64(ev_tb[attr]) : 0)
	path->sent = MRC_NL_COUNTER(MRC_CTL_EV_A_SENT);
	path->acked = MRC_NL_COUNTER(MRC_CTL_EV_A_ACKED);
	path->lost = MRC_NL_COUNTER(MRC_CTL_EV_A_LOST);
	path->probes = MRC_NL_COUNTER(MRC_CTL_EV_A_PROBES);
#undef MRC_NL_COUNTER
	return 0;
}

int mrc_nl_parse_path(const struct nlmsghdr *nlh, void *data)
{
	struct mrc_nl_path_bad *paths = data;
	struct mrc_nl_path path;

	if (mrc_nl_decode_path(nlh, &path))
		return mrc_nl_cb_result(EBADMSG);
	/* EVs of the built-in spraying, or of another profile. */
	if (path.profile_id != paths->id || !path.has_profile_index)
		return MNL_CB_OK;
	/* A QP may still use an older profile of the same id: skip it. */
	if (path.profile_index < paths->capacity &&
	    path.ev.state == MRC_NL_EV_ASSUMED_BAD)
		paths->bad[path.profile_index] = true;
	return MNL_CB_OK;
}

/* A plane: its index and state always, its counters when given. */
int mrc_nl_decode_plane(const struct nlmsghdr *nlh,
			struct mrc_nl_plane *plane)
{
	const struct nlattr *tb[MRC_CTL_A_MAX + 1];
	const struct nlattr *ptb[MRC_CTL_PLANE_A_MAX + 1];

	memset(plane, 0, sizeof(*plane));
	if (mrc_nl_parse_top(nlh, tb) || !tb[MRC_CTL_A_PLANE] ||
	    mrc_nl_parse_nest(tb[MRC_CTL_A_PLANE], ptb, MRC_CTL_PLANE_A_MAX) ||
	    !mrc_nl_valid(ptb, MRC_CTL_PLANE_A_MAX, mrc_nl_plane_types,
			  NULL) ||
	    !ptb[MRC_CTL_PLANE_A_INDEX] || !ptb[MRC_CTL_PLANE_A_UP] ||
	    (tb[MRC_CTL_A_DEV] &&
	     mrc_nl_get_str(tb[MRC_CTL_A_DEV], plane->dev,
			    sizeof(plane->dev))) ||
	    (tb[MRC_CTL_A_NETDEV] &&
	     mrc_nl_get_str(tb[MRC_CTL_A_NETDEV], plane->netdev,
			    sizeof(plane->netdev))) ||
	    (ptb[MRC_CTL_PLANE_A_NETDEV] &&
	     mrc_nl_get_str(ptb[MRC_CTL_PLANE_A_NETDEV], plane->lower,
			    sizeof(plane->lower))))
		return EBADMSG;
	plane->index = mnl_attr_get_u32(ptb[MRC_CTL_PLANE_A_INDEX]);
	plane->up = mnl_attr_get_u8(ptb[MRC_CTL_PLANE_A_UP]);
	if (ptb[MRC_CTL_PLANE_A_TX_PACKETS])
		plane->tx_packets =
			mnl_attr_get_u64(ptb[MRC_CTL_PLANE_A_TX_PACKETS]);
	if (ptb[MRC_CTL_PLANE_A_TX_VIA_MASTER])
		plane->tx_via_master =
			mnl_attr_get_u64(ptb[MRC_CTL_PLANE_A_TX_VIA_MASTER]);
	return 0;
}

int mrc_nl_decode_cc(const struct nlmsghdr *nlh, struct mrc_nl_cc_state *st)
{
	const struct nlattr *tb[MRC_CTL_A_MAX + 1];
	const struct nlattr *cc_tb[MRC_CTL_CC_A_MAX + 1];
	const struct nlattr *a;
	int type;

	memset(st, 0, sizeof(*st));
	if (mrc_nl_parse_top(nlh, tb) || !tb[MRC_CTL_A_CC_ENABLED] ||
	    !tb[MRC_CTL_A_CC] ||
	    mrc_nl_parse_nest(tb[MRC_CTL_A_CC], cc_tb, MRC_CTL_CC_A_MAX) ||
	    !mrc_nl_valid(cc_tb, MRC_CTL_CC_A_MAX, mrc_nl_cc_types, NULL) ||
	    (tb[MRC_CTL_A_DEV] &&
	     mrc_nl_get_str(tb[MRC_CTL_A_DEV], st->dev, sizeof(st->dev))) ||
	    (tb[MRC_CTL_A_CC_ALGORITHM] &&
	     mrc_nl_get_str(tb[MRC_CTL_A_CC_ALGORITHM], st->algorithm,
			    sizeof(st->algorithm))))
		return EBADMSG;
	st->enabled = mnl_attr_get_u8(tb[MRC_CTL_A_CC_ENABLED]);
	for (type = 1; type <= MRC_CTL_CC_A_MAX; type++) {
		a = cc_tb[type];
		if (!a || mrc_nl_cc_types[type] == MNL_TYPE_UNSPEC)
			continue;
		switch (mrc_nl_cc_types[type]) {
		case MNL_TYPE_U64:
			mrc_nl_cc_param_set(&st->cc, type, mnl_attr_get_u64(a));
			break;
		case MNL_TYPE_U32:
			mrc_nl_cc_param_set(&st->cc, type, mnl_attr_get_u32(a));
			break;
		default:
			mrc_nl_cc_param_set(&st->cc, type, mnl_attr_get_u8(a));
		}
	}
	return 0;
}

int mrc_nl_parse_cc(const struct nlmsghdr *nlh, void *data)
{
	return mrc_nl_cb_result(mrc_nl_decode_cc(nlh, data));
}

int mrc_nl_decode_event(const struct nlmsghdr *nlh, uint16_t family,
			struct mrc_nl_event *event)
{
	const struct nlattr *tb[MRC_CTL_A_MAX + 1];
	const struct nlattr *ev_tb[MRC_CTL_EV_A_MAX + 1];
	const struct genlmsghdr *genl;

	memset(event, 0, sizeof(*event));
	if (nlh->nlmsg_type != family ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*genl))
		return ENOMSG;
	genl = mnl_nlmsg_get_payload(nlh);
	if (genl->cmd != MRC_CTL_CMD_EV_EVENT)
		return ENOMSG;
	/* Every EV event names its device, profile, EV, state and value. */
	if (mrc_nl_parse_top(nlh, tb) || !tb[MRC_CTL_A_DEV] ||
	    !tb[MRC_CTL_A_PROFILE_ID] || !tb[MRC_CTL_A_EV] ||
	    mrc_nl_get_str(tb[MRC_CTL_A_DEV], event->dev, sizeof(event->dev)) ||
	    mrc_nl_decode_ev_nest(tb[MRC_CTL_A_EV], ev_tb, &event->ev) ||
	    !event->ev.format || !ev_tb[MRC_CTL_EV_A_PLANE] ||
	    event->ev.state > MRC_NL_EV_DENIED)
		return EBADMSG;
	event->profile_id = mnl_attr_get_u32(tb[MRC_CTL_A_PROFILE_ID]);
	if (tb[MRC_CTL_A_PEER]) {
		event->has_peer = true;
		memcpy(event->peer, mnl_attr_get_payload(tb[MRC_CTL_A_PEER]),
		       sizeof(event->peer));
	}
	if (tb[MRC_CTL_A_QPN])
		event->qpn = mnl_attr_get_u32(tb[MRC_CTL_A_QPN]);
	if (ev_tb[MRC_CTL_EV_A_REASON])
		event->reason = mnl_attr_get_u8(ev_tb[MRC_CTL_EV_A_REASON]);
	if (ev_tb[MRC_CTL_EV_A_DROP_COUNT])
		event->drop_count =
			mnl_attr_get_u32(ev_tb[MRC_CTL_EV_A_DROP_COUNT]);
	return 0;
}

int mrc_nl_decode_ep_probe(const struct nlmsghdr *nlh,
			   struct mrc_nl_ep_rsp *rsp, uint32_t cap,
			   uint32_t *num)
{
	const struct nlattr *tb[MRC_CTL_A_MAX + 1];
	const struct nlattr *etb[MRC_CTL_EP_A_MAX + 1];
	const struct nlattr *nest;
	uint32_t n = 0, i;

	*num = 0;
	if (mrc_nl_parse_top(nlh, tb) || !tb[MRC_CTL_A_EP_REQS])
		return EBADMSG;
	mnl_attr_for_each_nested(nest, tb[MRC_CTL_A_EP_REQS]) {
		struct mrc_nl_ep_rsp *r = &rsp[n];

		if (mnl_attr_get_type(nest) != MRC_CTL_A_EP_REQ || n == cap ||
		    mrc_nl_parse_nest(nest, etb, MRC_CTL_EP_A_MAX) ||
		    !mrc_nl_valid(etb, MRC_CTL_EP_A_MAX, mrc_nl_ep_types,
				  NULL) ||
		    !etb[MRC_CTL_EP_A_REQ_ID] || !etb[MRC_CTL_EP_A_PLANE] ||
		    !etb[MRC_CTL_EP_A_RTT])
			return EBADMSG;
		memset(r, 0, sizeof(*r));
		r->req_id = mnl_attr_get_u16(etb[MRC_CTL_EP_A_REQ_ID]);
		r->plane = mnl_attr_get_u32(etb[MRC_CTL_EP_A_PLANE]);
		r->rtt_ns = mnl_attr_get_u64(etb[MRC_CTL_EP_A_RTT]);
		r->svc_time_removed = etb[MRC_CTL_EP_A_SVC_TIME_REMOVED];
		if (r->plane >= MRC_NL_MAX_PLANES)
			return EBADMSG;
		for (i = 0; i < n; i++)
			if (rsp[i].req_id == r->req_id)
				return EBADMSG;
		n++;
	}
	*num = n;
	return 0;
}
