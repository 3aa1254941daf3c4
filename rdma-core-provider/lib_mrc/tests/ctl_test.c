// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The controller API (mrc_ctl.h) without a kernel: the netlink requests
 * lib_mrc builds, checked byte for byte or attribute by attribute against
 * the uapi (include/uapi/rdma/mrc-ctl.h); answers built here as the kernel
 * builds them, decoded, and malformed ones refused; the EV, state and CC
 * mappings; every call's argument checks and errnos, and its exchanges
 * with the kernel over a scripted socket (fake_nl.c).
 * Documentation/mrc-api.rst is the specification.
 *
 * The uapi header and mrc_ctl.h clash (enum mrc_ctl_ev_state and others),
 * so this file includes only mrc_ctl.h and builds answers with the uapi
 * numbers restated in ctl_uapi.h, which ctl_uapi_check.c holds to the uapi.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <linux/genetlink.h>
#include <math.h>
#include <string.h>

#include "check_errno.h"
#include "fake_nl.h"
#include "fake_verbs.h"
#include "ctl_uapi.h"
#include "ktap.h"
#include "mrc_ctl_lib.h"
#include "nl_attr.h"

#define CHECK_NULL(call, err)						\
	do {								\
		errno = 0;						\
		CHECK((call) == NULL);					\
		CHECK_EQ(errno, err);					\
	} while (0)

static struct mrc_nl test_nl = { .family = FAKE_NL_FAMILY, .seq = 100 };

/* ------------------------------------------------------------------ */
/* Helpers over requests                                               */
/* ------------------------------------------------------------------ */

static const struct nlmsghdr *req_msg(int i)
{
	return (const struct nlmsghdr *)fake_nl.requests[i].buf;
}

static uint8_t req_cmd(int i)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(req_msg(i));

	return g->cmd;
}

static uint32_t attr_u32(const struct nlattr *a)
{
	return a && mnl_attr_get_payload_len(a) == 4 ? mnl_attr_get_u32(a) :
						       0xdeadbeef;
}

static uint64_t attr_u64(const struct nlattr *a)
{
	return a && mnl_attr_get_payload_len(a) == 8 ? mnl_attr_get_u64(a) :
						       0xdeadbeef;
}

static int attr_u8(const struct nlattr *a)
{
	return a && mnl_attr_get_payload_len(a) == 1 ? mnl_attr_get_u8(a) :
						       -1;
}

/* ------------------------------------------------------------------ */
/* Requests, encoded                                                   */
/* ------------------------------------------------------------------ */

/* DEV_GET for "mrc9", little-endian (x86_64, aarch64). */
static void request_dev_get_bytes(void)
{
	static const uint8_t want[] = {
		32, 0, 0, 0,		/* nlmsg_len */
		0x2a, 0,		/* the family */
		0x05, 0,		/* REQUEST | ACK */
		101, 0, 0, 0,		/* seq */
		0, 0, 0, 0,		/* pid */
		U_CMD_DEV_GET, 1, 0, 0,	/* genl: cmd, version */
		9, 0, U_A_DEV, 0, 'm', 'r', 'c', '9', 0, 0, 0, 0,
	};
	struct mrc_nl nl = test_nl;
	struct nlmsghdr *nlh = mrc_nl_req_dev_get(&nl, "mrc9");

	CHECK_EQ(nlh->nlmsg_len, sizeof(want));
	CHECK(!memcmp(nlh, want, sizeof(want)));
	CHECK_EQ(nl.seq, 101);
}

/* EV_SET: deny EV 3 of profile 7. */
static void request_ev_set_bytes(void)
{
	static const uint8_t want[] = {
		60, 0, 0, 0, 0x2a, 0, 0x05, 0, 101, 0, 0, 0, 0, 0, 0, 0,
		U_CMD_EV_SET, 1, 0, 0,
		9, 0, U_A_DEV, 0, 'm', 'r', 'c', '9', 0, 0, 0, 0,
		8, 0, U_A_PROFILE_ID, 0, 7, 0, 0, 0,
		20, 0, U_A_EV, 0x80,	/* NLA_F_NESTED */
		8, 0, U_EV_INDEX, 0, 3, 0, 0, 0,
		5, 0, U_EV_STATE, 0, 3, 0, 0, 0,	/* DENIED */
	};
	struct mrc_nl_ev by_index = { .index = 3 };
	struct mrc_nl nl = test_nl;
	struct nlmsghdr *nlh = mrc_nl_req_ev_set(&nl, "mrc9", 7, &by_index,
						 MRC_NL_EV_DENIED);

	CHECK_EQ(nlh->nlmsg_len, sizeof(want));
	CHECK(!memcmp(nlh, want, sizeof(want)));
}

/* Dumps carry NLM_F_DUMP and no ACK flag (they end with NLMSG_DONE). */
static void request_dumps(void)
{
	struct mrc_nl nl = test_nl;
	struct nlmsghdr *nlh;

	nlh = mrc_nl_req_ev_dump(&nl, "mrc9", 12);
	CHECK_EQ(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
	CHECK_EQ(((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->cmd,
		 U_CMD_EV_GET);
	CHECK_EQ(attr_u32(msg_attr(nlh, U_A_PROFILE_ID)), 12);
	nlh = mrc_nl_req_path_dump(&nl, "mrc9", NULL);
	CHECK_EQ(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
	CHECK(!strcmp(mnl_attr_get_str(msg_attr(nlh, U_A_DEV)), "mrc9"));
	nlh = mrc_nl_req_profile_del(&nl, "mrc9", 64);
	CHECK_EQ(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
	CHECK_EQ(attr_u32(msg_attr(nlh, U_A_PROFILE_ID)), 64);
}

static void request_profile_new_explicit(void)
{
	struct mrc_nl_ev evs[2] = {
		{ .plane = 0, .srv6 = { 0xfc, 0, 0, 0, 1, 0 } },
		{ .plane = 1, .srv6 = { 0xfc, 0, 0, 0, 2, 0 } },
	};
	struct mrc_nl_profile p = {
		.id = 7, .format = MRC_NL_FMT_SRV6,
		.mode = MRC_NL_MODE_EXPLICIT, .min_active = 2, .num_evs = 2,
		.evs = evs, .is_default = true, .has_peer = true,
		.peer = { 0xfc, 0, 0, 2 }, .replace = true,
	};
	struct mrc_nl nl = test_nl;
	struct nlmsghdr *nlh = mrc_nl_req_profile_new(&nl, "mrc9", &p);
	const struct nlattr *list, *ev;

	CHECK_EQ(((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->cmd,
		 U_CMD_PROFILE_NEW);
	CHECK_EQ(attr_u32(msg_attr(nlh, U_A_PROFILE_ID)), 7);
	CHECK_EQ(attr_u8(msg_attr(nlh, U_A_FORMAT)), 2);
	CHECK_EQ(attr_u8(msg_attr(nlh, U_A_MODE)), 1);
	CHECK_EQ(attr_u32(msg_attr(nlh, U_A_MIN_ACTIVE)), 2);
	CHECK(msg_attr(nlh, U_A_DEFAULT) &&
	      !mnl_attr_get_payload_len(msg_attr(nlh, U_A_DEFAULT)));
	CHECK(msg_attr(nlh, U_A_REPLACE) != NULL);
	CHECK(msg_attr(nlh, U_A_PEER) &&
	      mnl_attr_get_payload_len(msg_attr(nlh, U_A_PEER)) == 16 &&
	      !memcmp(mnl_attr_get_payload(msg_attr(nlh, U_A_PEER)), p.peer,
		      16));
	CHECK(msg_attr(nlh, U_A_FIELDS) == NULL);
	CHECK(msg_attr(nlh, U_A_PLANE_MASK) == NULL);
	list = msg_attr(nlh, U_A_EVS);
	CHECK(list && (list->nla_type & NLA_F_NESTED));
	ev = nest_nth(list, 1);
	CHECK(ev && mnl_attr_get_type(ev) == U_A_EV);
	CHECK_EQ(attr_u32(nest_attr(ev, U_EV_PLANE)), 1);
	CHECK(nest_attr(ev, U_EV_SRV6) &&
	      !memcmp(mnl_attr_get_payload(nest_attr(ev, U_EV_SRV6)),
		      evs[1].srv6, 16));
	CHECK(nest_attr(ev, U_EV_UDP_SPORT) == NULL);
	CHECK(nest_nth(list, 2) == NULL);
	/* The attributes fill the message exactly. */
	CHECK_EQ((char *)mnl_nlmsg_get_payload_tail(nlh) - (char *)nlh,
		 nlh->nlmsg_len);
}

static void request_profile_new_generated(void)
{
	struct mrc_nl_profile p = {
		.id = 1, .format = MRC_NL_FMT_UDP,
		.mode = MRC_NL_MODE_GENERATED, .min_active = 1,
		.plane_mask = 0x3, .num_fields = 2,
		.fields = { { 10, 0x300, 0, 0, 0 }, { 6, 0, 0, 63, 0x3f } },
	};
	struct mrc_nl nl = test_nl;
	struct nlmsghdr *nlh = mrc_nl_req_profile_new(&nl, "mrc9", &p);
	const struct nlattr *f;

	CHECK_EQ(attr_u8(msg_attr(nlh, U_A_FORMAT)), 1);
	CHECK_EQ(attr_u8(msg_attr(nlh, U_A_MODE)), 2);
	CHECK_EQ(attr_u32(msg_attr(nlh, U_A_PLANE_MASK)), 3);
	CHECK(msg_attr(nlh, U_A_EVS) == NULL);
	CHECK(msg_attr(nlh, U_A_DEFAULT) == NULL);
	CHECK(msg_attr(nlh, U_A_REPLACE) == NULL);
	f = nest_nth(msg_attr(nlh, U_A_FIELDS), 1);
	CHECK(f && mnl_attr_get_type(f) == U_A_FIELD);
	CHECK_EQ(attr_u32(nest_attr(f, U_FIELD_WIDTH)), 6);
	CHECK_EQ(attr_u32(nest_attr(f, U_FIELD_INIT)), 0);
	CHECK_EQ(attr_u32(nest_attr(f, U_FIELD_MIN)), 0);
	CHECK_EQ(attr_u32(nest_attr(f, U_FIELD_MAX)), 63);
	CHECK_EQ(attr_u32(nest_attr(f, U_FIELD_MASK)), 0x3f);
	f = nest_nth(msg_attr(nlh, U_A_FIELDS), 0);
	CHECK_EQ(attr_u32(nest_attr(f, U_FIELD_INIT)), 0x300);
}

static void request_cc_set(void)
{
	struct mrc_nl_cc cc = {
		.has = 1u << MRC_NL_CC_TARGET_DELAY | 1u << MRC_NL_CC_GAMMA |
		       1u << MRC_NL_CC_DISABLE_QA,
		.target_delay = 15000, .gamma = 800, .disable_qa = 1,
		.mtu = 4096,	/* not in @has: not sent */
	};
	struct mrc_nl nl = test_nl;
	struct nlmsghdr *nlh = mrc_nl_req_cc_set(&nl, "mrc9", &cc, 1,
						 false);
	const struct nlattr *nest = msg_attr(nlh, U_A_CC);

	CHECK(nest != NULL);
	CHECK_EQ(attr_u64(nest_attr(nest, MRC_NL_CC_TARGET_DELAY)), 15000);
	CHECK_EQ(attr_u32(nest_attr(nest, MRC_NL_CC_GAMMA)), 800);
	CHECK_EQ(attr_u8(nest_attr(nest, MRC_NL_CC_DISABLE_QA)), 1);
	CHECK(nest_attr(nest, MRC_NL_CC_MTU) == NULL);
	CHECK(nest_nth(nest, 3) == NULL);
	CHECK_EQ(attr_u8(msg_attr(nlh, U_A_CC_ENABLED)), 1);

	nlh = mrc_nl_req_cc_set(&nl, "mrc9", NULL, 0, false);
	CHECK(msg_attr(nlh, U_A_CC) == NULL);
	CHECK_EQ(attr_u8(msg_attr(nlh, U_A_CC_ENABLED)), 0);
	nlh = mrc_nl_req_cc_set(&nl, "mrc9", &cc, -1, false);
	CHECK(msg_attr(nlh, U_A_CC_ENABLED) == NULL);
}

/* ------------------------------------------------------------------ */
/* Answers, decoded                                                    */
/* ------------------------------------------------------------------ */

static struct nlmsghdr *answer_dev(struct fake_nl_answer *a, uint32_t planes)
{
	struct nlmsghdr *nlh = fake_nl_msg(a, U_CMD_DEV_GET);

	mnl_attr_put_strz(nlh, U_A_DEV, "mrc9");
	mnl_attr_put_strz(nlh, U_A_NETDEV, "bond0");
	mnl_attr_put_u32(nlh, U_A_NUM_PLANES, planes);
	mnl_attr_put_u32(nlh, U_A_DEFAULT_PROFILE, 4);
	mnl_attr_put_u8(nlh, U_A_CC_ENABLED, 1);
	/* An attribute from a newer kernel is skipped. */
	mnl_attr_put_u32(nlh, 200, 1);
	fake_nl_msg_end(a, nlh);
	return nlh;
}

static void answer_dev_decoded(void)
{
	struct fake_nl_answer *a;
	struct mrc_nl_dev d;
	struct nlmsghdr *nlh;

	fake_nl_reset();
	a = fake_nl_answer(0);
	nlh = answer_dev(a, 2);
	CHECK_EQ(mrc_nl_parse_dev(nlh, &d), MNL_CB_OK);
	CHECK(!strcmp(d.netdev, "bond0"));
	CHECK_EQ(d.num_planes, 2);
	CHECK_EQ(d.default_profile, 4);
	CHECK_EQ(d.cc_enabled, 1);

	/* NUM_PLANES as a u16: malformed. */
	a = fake_nl_answer(0);
	nlh = fake_nl_msg(a, U_CMD_DEV_GET);
	mnl_attr_put_strz(nlh, U_A_NETDEV, "eth0");
	mnl_attr_put_u16(nlh, U_A_NUM_PLANES, 1);
	fake_nl_msg_end(a, nlh);
	errno = 0;
	CHECK_EQ(mrc_nl_parse_dev(nlh, &d), MNL_CB_ERROR);
	CHECK_EQ(errno, EBADMSG);

	/* No NUM_PLANES at all. */
	a = fake_nl_answer(0);
	nlh = fake_nl_msg(a, U_CMD_DEV_GET);
	mnl_attr_put_strz(nlh, U_A_NETDEV, "eth0");
	fake_nl_msg_end(a, nlh);
	CHECK_EQ(mrc_nl_parse_dev(nlh, &d), MNL_CB_ERROR);
}

static void answer_profile(struct fake_nl_answer *a, uint32_t id,
			   uint8_t format, uint8_t mode, uint32_t num_evs)
{
	struct nlmsghdr *nlh = fake_nl_msg(a, U_CMD_PROFILE_GET);

	mnl_attr_put_strz(nlh, U_A_DEV, "mrc9");
	mnl_attr_put_u32(nlh, U_A_PROFILE_ID, id);
	mnl_attr_put_u8(nlh, U_A_FORMAT, format);
	mnl_attr_put_u8(nlh, U_A_MODE, mode);
	mnl_attr_put_u32(nlh, U_A_MIN_ACTIVE, 1);
	mnl_attr_put_u32(nlh, U_A_NUM_EVS, num_evs);
	if (mode == MRC_NL_MODE_GENERATED) {
		struct nlattr *list, *f;

		mnl_attr_put_u32(nlh, U_A_PLANE_MASK, 1);
		list = mnl_attr_nest_start(nlh, U_A_FIELDS);
		f = mnl_attr_nest_start(nlh, U_A_FIELD);
		mnl_attr_put_u32(nlh, U_FIELD_WIDTH, 16);
		mnl_attr_put_u32(nlh, U_FIELD_INIT, 0xc000);
		mnl_attr_put_u32(nlh, U_FIELD_MIN, 0);
		mnl_attr_put_u32(nlh, U_FIELD_MAX, num_evs - 1);
		mnl_attr_put_u32(nlh, U_FIELD_MASK, 0xff);
		mnl_attr_nest_end(nlh, f);
		mnl_attr_nest_end(nlh, list);
	} else {
		uint8_t peer[16] = { 0xfc, 0, 0, 2 };

		mnl_attr_put(nlh, U_A_PEER, sizeof(peer), peer);
		mnl_attr_put(nlh, U_A_DEFAULT, 0, NULL);
	}
	fake_nl_msg_end(a, nlh);
}

static void answer_profiles_decoded(void)
{
	struct mrc_nl_profile_find find = { .id = 2 };
	struct fake_nl_answer *a;
	const struct nlmsghdr *nlh;
	int len;

	fake_nl_reset();
	a = fake_nl_answer(0);
	answer_profile(a, 1, MRC_NL_FMT_UDP, MRC_NL_MODE_GENERATED, 64);
	answer_profile(a, 2, MRC_NL_FMT_SRV6, MRC_NL_MODE_EXPLICIT, 4);
	len = (int)a->len;
	for (nlh = (void *)a->buf; mnl_nlmsg_ok(nlh, len);
	     nlh = mnl_nlmsg_next(nlh, &len))
		CHECK_EQ(mrc_nl_parse_profile(nlh, &find), MNL_CB_OK);
	CHECK(find.found);
	CHECK_EQ(find.count, 2);
	CHECK_EQ(find.total_evs, 68);
	CHECK_EQ(find.profile.id, 2);
	CHECK_EQ(find.profile.format, MRC_NL_FMT_SRV6);
	CHECK_EQ(find.profile.mode, MRC_NL_MODE_EXPLICIT);
	CHECK_EQ(find.profile.num_evs, 4);
	CHECK(find.profile.is_default && find.profile.has_peer);
	CHECK_EQ(find.profile.peer[0], 0xfc);

	find = (struct mrc_nl_profile_find){ .id = 1 };
	len = (int)a->len;
	for (nlh = (void *)a->buf; mnl_nlmsg_ok(nlh, len);
	     nlh = mnl_nlmsg_next(nlh, &len))
		mrc_nl_parse_profile(nlh, &find);
	CHECK(find.found);
	CHECK_EQ(find.profile.num_fields, 1);
	CHECK_EQ(find.profile.fields[0].width, 16);
	CHECK_EQ(find.profile.fields[0].init, 0xc000);
	CHECK_EQ(find.profile.fields[0].max, 63);
	CHECK_EQ(find.profile.fields[0].mask, 0xff);
	CHECK_EQ(find.profile.plane_mask, 1);
	CHECK(!find.profile.is_default);

	/* More EVs than a profile holds: malformed. */
	a = fake_nl_answer(0);
	answer_profile(a, 3, MRC_NL_FMT_UDP, MRC_NL_MODE_EXPLICIT, 1025);
	CHECK_EQ(mrc_nl_parse_profile((void *)a->buf, &find), MNL_CB_ERROR);
}

static void answer_ev(struct fake_nl_answer *a, uint8_t cmd, uint32_t id,
		      uint32_t index, uint32_t plane, uint16_t sport,
		      uint8_t state, int profile_index)
{
	struct nlmsghdr *nlh = fake_nl_msg(a, cmd);
	struct nlattr *nest;

	mnl_attr_put_strz(nlh, U_A_DEV, "mrc9");
	mnl_attr_put_u32(nlh, U_A_PROFILE_ID, id);
	if (cmd == U_CMD_PATH_GET) {
		mnl_attr_put_u32(nlh, U_A_QPN, 17);
		mnl_attr_put_u32(nlh, U_A_DEST_QPN, 18);
	}
	nest = mnl_attr_nest_start(nlh, U_A_EV);
	mnl_attr_put_u32(nlh, U_EV_INDEX, index);
	mnl_attr_put_u32(nlh, U_EV_PLANE, plane);
	mnl_attr_put_u8(nlh, U_EV_STATE, state);
	mnl_attr_put_u16(nlh, U_EV_UDP_SPORT, sport);
	if (profile_index >= 0)
		mnl_attr_put_u32(nlh, U_EV_PROFILE_INDEX, profile_index);
	if (cmd == U_CMD_PATH_GET)
		mnl_attr_put_u64(nlh, U_EV_SENT, 95);
	mnl_attr_nest_end(nlh, nest);
	fake_nl_msg_end(a, nlh);
}

static void answer_evs_decoded(void)
{
	struct mrc_nl_ev evs[2];
	struct mrc_nl_ev_list list = {
		.format = MRC_NL_FMT_UDP, .capacity = 2, .evs = evs,
	};
	bool bad[3] = { false };
	struct mrc_nl_path_bad paths = { .id = 5, .capacity = 3, .bad = bad };
	struct fake_nl_answer *a;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	uint8_t wrong[15] = { 0 };

	fake_nl_reset();
	a = fake_nl_answer(0);
	answer_ev(a, U_CMD_EV_GET, 5, 1, 1, 49153, MRC_NL_EV_DENIED, -1);
	CHECK_EQ(mrc_nl_parse_ev((void *)a->buf, &list), MNL_CB_OK);
	CHECK_EQ(evs[1].index, 1);
	CHECK_EQ(evs[1].plane, 1);
	CHECK_EQ(evs[1].udp_sport, 49153);
	CHECK_EQ(evs[1].state, MRC_NL_EV_DENIED);
	CHECK_EQ(list.seen, 1);

	/* An index past the profile: refused, not written. */
	a = fake_nl_answer(0);
	answer_ev(a, U_CMD_EV_GET, 5, 2, 0, 1, MRC_NL_EV_GOOD, -1);
	CHECK_EQ(mrc_nl_parse_ev((void *)a->buf, &list), MNL_CB_ERROR);
	CHECK_EQ(list.seen, 1);

	/* An SRv6 value of 15 bytes: refused. */
	list.format = MRC_NL_FMT_SRV6;
	a = fake_nl_answer(0);
	nlh = fake_nl_msg(a, U_CMD_EV_GET);
	nest = mnl_attr_nest_start(nlh, U_A_EV);
	mnl_attr_put_u32(nlh, U_EV_INDEX, 0);
	mnl_attr_put_u8(nlh, U_EV_STATE, 1);
	mnl_attr_put(nlh, U_EV_SRV6, sizeof(wrong), wrong);
	mnl_attr_nest_end(nlh, nest);
	fake_nl_msg_end(a, nlh);
	CHECK_EQ(mrc_nl_parse_ev(nlh, &list), MNL_CB_ERROR);

	/* PATH_GET: ASSUMED_BAD counts for its own profile only. */
	a = fake_nl_answer(0);
	answer_ev(a, U_CMD_PATH_GET, 5, 0, 0, 49152, MRC_NL_EV_GOOD, 0);
	answer_ev(a, U_CMD_PATH_GET, 5, 1, 0, 49154, MRC_NL_EV_ASSUMED_BAD, 2);
	answer_ev(a, U_CMD_PATH_GET, 6, 2, 0, 49153, MRC_NL_EV_ASSUMED_BAD, 1);
	answer_ev(a, U_CMD_PATH_GET, 5, 3, 0, 49155, MRC_NL_EV_ASSUMED_BAD, 9);
	{
		const struct nlmsghdr *m;
		int len = (int)a->len;

		for (m = (void *)a->buf; mnl_nlmsg_ok(m, len);
		     m = mnl_nlmsg_next(m, &len))
			CHECK_EQ(mrc_nl_parse_path(m, &paths), MNL_CB_OK);
	}
	CHECK(!bad[0] && !bad[1] && bad[2]);
}

static void answer_cc(struct fake_nl_answer *a, uint8_t enabled)
{
	struct nlmsghdr *nlh = fake_nl_msg(a, U_CMD_CC_GET);
	struct nlattr *nest;

	mnl_attr_put_strz(nlh, U_A_DEV, "mrc9");
	mnl_attr_put_u8(nlh, U_A_CC_ENABLED, enabled);
	mnl_attr_put_strz(nlh, U_A_CC_ALGORITHM, "uet-1.0-nscc");
	nest = mnl_attr_nest_start(nlh, U_A_CC);
	mnl_attr_put_u64(nlh, MRC_NL_CC_BASE_RTT, 20000);
	mnl_attr_put_u64(nlh, MRC_NL_CC_TARGET_DELAY, 9000);
	mnl_attr_put_u64(nlh, MRC_NL_CC_QA_THRESHOLD, 36000);
	mnl_attr_put_u32(nlh, MRC_NL_CC_MTU, 4096);
	mnl_attr_put_u32(nlh, MRC_NL_CC_MAX_CWND, 225000);
	mnl_attr_put_u32(nlh, MRC_NL_CC_ETA, 614);
	mnl_attr_put_u32(nlh, MRC_NL_CC_FI, 20480);
	mnl_attr_put_u32(nlh, MRC_NL_CC_FI_SCALE, 250);
	mnl_attr_put_u32(nlh, MRC_NL_CC_PI, 12288);
	mnl_attr_put_u32(nlh, MRC_NL_CC_GAMMA, 800);
	mnl_attr_put_u32(nlh, MRC_NL_CC_MAX_MD_JUMP, 500);
	mnl_attr_put_u32(nlh, MRC_NL_CC_QA_GATE, 3);
	mnl_attr_put_u8(nlh, MRC_NL_CC_DISABLE_QA, 0);
	mnl_attr_nest_end(nlh, nest);
	fake_nl_msg_end(a, nlh);
}

static void answer_cc_decoded(void)
{
	struct mrc_nl_cc_state st;
	struct mrc_ctl_cc_nscc_cfg cfg;
	struct fake_nl_answer *a;

	fake_nl_reset();
	a = fake_nl_answer(0);
	answer_cc(a, 1);
	CHECK_EQ(mrc_nl_parse_cc((void *)a->buf, &st), MNL_CB_OK);
	CHECK(st.enabled);
	CHECK(!strcmp(st.algorithm, "uet-1.0-nscc"));
	CHECK_EQ(st.cc.base_rtt, 20000);
	CHECK_EQ(st.cc.qa_threshold, 36000);
	CHECK_EQ(st.cc.pi, 12288);
	CHECK_EQ(st.cc.qa_gate, 3);
	CHECK_EQ(st.cc.has & (1u << MRC_NL_CC_DISABLE_QA),
		 1u << MRC_NL_CC_DISABLE_QA);

	mrc_ctl_cc_from_nl(&st.cc, &cfg);
	CHECK_EQ(cfg.base_rtt, 20000);
	CHECK_EQ(cfg.target_delay, 9000);
	CHECK_EQ(cfg.max_cwnd, 225000);
	CHECK(cfg.eta == 614.0f && cfg.fi == 20480.0f);
	CHECK(fabsf(cfg.fi_scale - 0.25f) < 1e-6f);
	CHECK(fabsf(cfg.gamma - 0.8f) < 1e-6f);
	CHECK(fabsf(cfg.max_md_jump - 0.5f) < 1e-6f);
	CHECK_EQ(cfg.qa_gate, 3);
	CHECK_EQ(cfg.adjust_bytes_threshold, 0);
}

/* ------------------------------------------------------------------ */
/* The mappings                                                        */
/* ------------------------------------------------------------------ */

static struct mrc_ctl_ev udp_ev(uint8_t port, uint16_t sport)
{
	struct mrc_ctl_ev ev = MRC_CTL_EV_UNPOPULATED;

	ev.port = port;
	ev.val[0] = sport >> 8;
	ev.val[1] = sport & 0xff;
	return ev;
}

static bool ev_is(const struct mrc_ctl_ev *ev, uint8_t port, uint16_t sport)
{
	struct mrc_ctl_ev want = udp_ev(port, sport);

	return mrc_ctl_ev_equal(ev, &want);
}

static void ev_values_mapped(void)
{
	struct mrc_ctl_ev ev = udp_ev(2, 49153), back;
	struct mrc_nl_ev nl;
	uint8_t s;

	CHECK_EQ(mrc_ctl_ev_to_nl(&ev, MRC_NL_FMT_UDP, &nl), 0);
	CHECK_EQ(nl.plane, 1);
	CHECK_EQ(nl.udp_sport, 49153);
	mrc_ctl_ev_from_nl(&nl, MRC_NL_FMT_UDP, &back);
	CHECK(mrc_ctl_ev_equal(&ev, &back));

	ev = udp_ev(0, 1);
	CHECK_EQ(mrc_ctl_ev_to_nl(&ev, MRC_NL_FMT_UDP, &nl), EINVAL);
	ev = udp_ev(9, 1);
	CHECK_EQ(mrc_ctl_ev_to_nl(&ev, MRC_NL_FMT_UDP, &nl), EINVAL);
	ev = udp_ev(1, 0);
	CHECK_EQ(mrc_ctl_ev_to_nl(&ev, MRC_NL_FMT_UDP, &nl), EINVAL);
	ev = udp_ev(1, 1);
	ev.val[2] = 1;		/* past a UDP port's two bytes */
	CHECK_EQ(mrc_ctl_ev_to_nl(&ev, MRC_NL_FMT_UDP, &nl), EINVAL);

	memset(&ev, 0, sizeof(ev));
	ev.port = 1;
	ev.val[0] = 0xfc;
	ev.val[15] = 2;
	CHECK_EQ(mrc_ctl_ev_to_nl(&ev, MRC_NL_FMT_SRV6, &nl), 0);
	CHECK_EQ(nl.srv6[0], 0xfc);
	CHECK_EQ(nl.srv6[15], 2);
	mrc_ctl_ev_from_nl(&nl, MRC_NL_FMT_SRV6, &back);
	CHECK(mrc_ctl_ev_equal(&ev, &back));
	ev.val[16] = 1;		/* an SRH segment */
	CHECK_EQ(mrc_ctl_ev_to_nl(&ev, MRC_NL_FMT_SRV6, &nl), EOPNOTSUPP);
	memset(&ev, 0, sizeof(ev));
	ev.port = 1;
	CHECK_EQ(mrc_ctl_ev_to_nl(&ev, MRC_NL_FMT_SRV6, &nl), EINVAL);

	ev = MRC_CTL_EV_UNPOPULATED;
	CHECK(mrc_ctl_ev_unpopulated(&ev));
	ev.port = 1;
	CHECK(!mrc_ctl_ev_unpopulated(&ev));

	/* States, both ways. */
	CHECK_EQ(mrc_ctl_state_to_nl(MRC_CTL_EV_GOOD, &s), 0);
	CHECK_EQ(s, MRC_NL_EV_GOOD);
	CHECK_EQ(mrc_ctl_state_to_nl(MRC_CTL_EV_DENIED, &s), 0);
	CHECK_EQ(s, MRC_NL_EV_DENIED);
	CHECK_EQ(mrc_ctl_state_to_nl(MRC_CTL_EV_ASSUMED_BAD, &s), EOPNOTSUPP);
	CHECK_EQ(mrc_ctl_state_to_nl(MRC_CTL_EV_UNKNOWN, &s), EINVAL);
	CHECK_EQ(mrc_ctl_state_to_nl(MRC_CTL_EV_GOOD | MRC_CTL_EV_DENIED, &s),
		 EINVAL);
	CHECK_EQ(mrc_ctl_state_from_nl(MRC_NL_EV_UNKNOWN), MRC_CTL_EV_UNKNOWN);
	CHECK_EQ(mrc_ctl_state_from_nl(MRC_NL_EV_GOOD), MRC_CTL_EV_GOOD);
	CHECK_EQ(mrc_ctl_state_from_nl(MRC_NL_EV_ASSUMED_BAD),
		 MRC_CTL_EV_ASSUMED_BAD);
	CHECK_EQ(mrc_ctl_state_from_nl(MRC_NL_EV_DENIED), MRC_CTL_EV_DENIED);
	CHECK_EQ(mrc_ctl_state_from_nl(77), MRC_CTL_EV_UNKNOWN);

	/* Formats. */
	CHECK_EQ(mrc_ctl_fmt_to_nl(MRC_CTL_EV_FMT_MODE_UDP, &s), 0);
	CHECK_EQ(s, MRC_NL_FMT_UDP);
	CHECK_EQ(mrc_ctl_fmt_to_nl(MRC_CTL_EV_FMT_MODE_SRV6, &s), 0);
	CHECK_EQ(s, MRC_NL_FMT_SRV6);
	CHECK_EQ(mrc_ctl_fmt_to_nl(MRC_CTL_EV_FMT_MODE_STEV, &s), EOPNOTSUPP);
	CHECK_EQ(mrc_ctl_fmt_to_nl(0, &s), EINVAL);
}

static struct mrc_ctl_cc_nscc_cfg nscc_cfg(void)
{
	return (struct mrc_ctl_cc_nscc_cfg){
		.base_rtt = 20000, .target_delay = 15000,
		.qa_threshold = 36000, .max_cwnd = 300000, .eta = 614.4f,
		.fi = 20480, .fi_scale = 0.25f, .gamma = 0.8f,
		.max_md_jump = 0.5f, .qa_gate = 3,
	};
}

static void cc_config_mapped(void)
{
	struct mrc_ctl_cc_nscc_cfg cfg = nscc_cfg();
	struct mrc_nl_cc cc;

	CHECK_EQ(mrc_ctl_cc_to_nl(&cfg, &cc), 0);
	CHECK_EQ(cc.base_rtt, 20000);
	CHECK_EQ(cc.target_delay, 15000);
	CHECK_EQ(cc.qa_threshold, 36000);
	CHECK_EQ(cc.max_cwnd, 300000);
	CHECK_EQ(cc.eta, 614);
	CHECK_EQ(cc.fi, 20480);
	CHECK_EQ(cc.fi_scale, 250);
	CHECK_EQ(cc.gamma, 800);
	CHECK_EQ(cc.max_md_jump, 500);
	CHECK_EQ(cc.qa_gate, 3);
	/* Every OCP parameter is sent; MTU and PI (ours) are left as they are. */
	CHECK(!(cc.has & (1u << MRC_NL_CC_MTU | 1u << MRC_NL_CC_PI)));
	CHECK_EQ(__builtin_popcount(cc.has), 11);

	cfg.adjust_bytes_threshold = 4096;
	CHECK_EQ(mrc_ctl_cc_to_nl(&cfg, &cc), EOPNOTSUPP);
	cfg = nscc_cfg();
	cfg.adjust_period_threshold = 1;
	CHECK_EQ(mrc_ctl_cc_to_nl(&cfg, &cc), EOPNOTSUPP);
	cfg = nscc_cfg();
	cfg.gamma = NAN;
	CHECK_EQ(mrc_ctl_cc_to_nl(&cfg, &cc), EINVAL);
	cfg = nscc_cfg();
	cfg.eta = -1;
	CHECK_EQ(mrc_ctl_cc_to_nl(&cfg, &cc), EINVAL);
	cfg = nscc_cfg();
	cfg.fi = 1e12f;
	CHECK_EQ(mrc_ctl_cc_to_nl(&cfg, &cc), EINVAL);
	cfg = nscc_cfg();
	cfg.disable_qa = 2;
	CHECK_EQ(mrc_ctl_cc_to_nl(&cfg, &cc), EINVAL);
}

/* ------------------------------------------------------------------ */
/* The calls                                                           */
/* ------------------------------------------------------------------ */

static struct mrc_context *ctl_setup(void)
{
	fake_reset();
	fake_nl_reset();
	return mrc_create_context(&fake.ctx, NULL);
}

static void versions(void)
{
	uint32_t cur = 0, last = 1, vend = 0, last_vend = 1;

	mrc_ctl_query_version(&cur, &last, &vend, &last_vend);
	CHECK_EQ(cur, MRC_CTL_API_VER(1, 0, 1));
	CHECK_EQ(last, MRC_CTL_API_VER(0, 0, 0));
	CHECK_EQ(vend, MRC_CTL_API_VER(1, 0, 0));
	CHECK_EQ(last_vend, 0);
	mrc_ctl_query_version(NULL, NULL, NULL, NULL);
}

static void bad_arguments(void)
{
	struct mrc_context *ctx = ctl_setup();
	struct mrc_ctl_device_attr dattr;
	struct mrc_ctl_port_attr pattr = { 0 };
	struct mrc_ctl_ev_fmt_profile_attr fattr = { 0 };
	struct mrc_ctl_ev_profile_attr eattr = { 0 };
	struct mrc_ctl_cc_profile_attr cattr = { 0 };
	int supported;

	CHECK(ctx != NULL);
	CHECK_FAILS(mrc_ctl_query_device(NULL, &dattr), EINVAL);
	CHECK_FAILS(mrc_ctl_query_device(&fake.ctx, NULL), EINVAL);
	CHECK_FAILS(mrc_ctl_query_device_ex(&fake.ctx, ctx, &dattr, NULL),
		    EINVAL);
	CHECK_FAILS(mrc_ctl_query_device_ex(&fake_other.ctx, ctx, &dattr,
					    &supported), EINVAL);

	CHECK_FAILS(mrc_ctl_query_port(NULL, 1, &pattr, 0), EINVAL);
	CHECK_FAILS(mrc_ctl_query_port(ctx, 1, NULL, 0), EINVAL);
	CHECK_FAILS(mrc_ctl_query_port(ctx, 1, &pattr, 1 << 1), EINVAL);
	pattr.port_admin_state = 2;
	CHECK_FAILS(mrc_ctl_modify_port(ctx, 1, &pattr,
					MRC_CTL_PORT_ADMIN_STATE), EINVAL);

	CHECK_FAILS(mrc_ctl_modify_ev_fmt_profile(ctx, 0, &fattr, 0), EINVAL);
	CHECK_FAILS(mrc_ctl_modify_ev_fmt_profile(ctx, 65, &fattr, 0), EINVAL);
	CHECK_FAILS(mrc_ctl_modify_ev_fmt_profile(ctx, 1, NULL, 0), EINVAL);
	CHECK_FAILS(mrc_ctl_modify_ev_fmt_profile(NULL, 1, &fattr, 0), EINVAL);
	CHECK_FAILS(mrc_ctl_modify_ev_fmt_profile(ctx, 1, &fattr, 1 << 4),
		    EINVAL);
	CHECK_FAILS(mrc_ctl_modify_ev_fmt_profile(ctx, 1, &fattr,
				MRC_CTL_EV_FMT_PROFILE_CUR_STATE), EINVAL);
	CHECK_FAILS(mrc_ctl_query_ev_fmt_profile(ctx, 1, &fattr, 0), ENOENT);
	CHECK_FAILS(mrc_ctl_query_ev_fmt_profile(ctx, UINT64_MAX, &fattr, 0),
		    EINVAL);

	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 0, &eattr, 0), EINVAL);
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 1ull << 32, &eattr, 0),
		    EINVAL);
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 1, NULL, 0), EINVAL);
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 1, &eattr, 1 << 9), EINVAL);
	CHECK_FAILS(mrc_ctl_query_ev_profile(ctx, 65, &eattr, 0), EINVAL);
	CHECK_FAILS(mrc_ctl_query_ev_profile(NULL, 1, &eattr, 0), EINVAL);

	CHECK_FAILS(mrc_ctl_modify_cc_profile(ctx, 0, &cattr, 0), EINVAL);
	CHECK_FAILS(mrc_ctl_modify_cc_profile(ctx, 2, &cattr, 0), ENOENT);
	CHECK_FAILS(mrc_ctl_modify_cc_profile(ctx, 1, NULL, 0), EINVAL);
	CHECK_FAILS(mrc_ctl_modify_cc_profile(ctx, 1, &cattr, 1 << 5), EINVAL);
	CHECK_FAILS(mrc_ctl_query_cc_profile(ctx, 3, &cattr, 0), ENOENT);
	CHECK_FAILS(mrc_ctl_query_cc_profile(ctx, 1, NULL, 0), EINVAL);

	/* Nothing above reached the kernel. */
	CHECK_EQ(fake_nl.num_requests, 0);
	CHECK_EQ(mrc_destroy_context(ctx), 0);
	CHECK_EQ(fake_nl.opens, fake_nl.closes);
}

static void unprivileged(void)
{
	struct mrc_context *ctx = ctl_setup();
	struct mrc_ctl_device_attr dattr;
	struct mrc_ctl_port_attr pattr = { 0 };
	struct mrc_ctl_ev_fmt_profile_attr fattr = {
		.profile_state = MRC_CTL_PROFILE_INIT,
	};
	struct mrc_ctl_ev_profile_attr eattr = { 0 };
	struct mrc_ctl_cc_profile_attr cattr = { 0 };
	struct mrc_ctl_ep_req req = { 0 };
	struct mrc_ctl_ep_rsp rsp;
	int n = 5;

	fake_nl.capable = false;
	CHECK_FAILS(mrc_ctl_query_device(&fake.ctx, &dattr), EPERM);
	CHECK_FAILS(mrc_ctl_query_port(ctx, 1, &pattr,
				       MRC_CTL_PORT_ADMIN_STATE), EPERM);
	CHECK_FAILS(mrc_ctl_modify_ev_fmt_profile(ctx, 1, &fattr,
				MRC_CTL_EV_FMT_PROFILE_STATE), EPERM);
	CHECK_FAILS(mrc_ctl_query_ev_profile(ctx, 1, &eattr, 0), EPERM);
	CHECK_FAILS(mrc_ctl_query_cc_profile(ctx, 1, &cattr, 0), EPERM);
	CHECK_NULL(mrc_ctl_create_ev_event_cq(ctx, 16, NULL, NULL, 0), EPERM);
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					       &req, 1, 1000, &rsp, &n),
		    EPERM);
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0,
					       MRC_CTL_EP_OP_PORT_STATUS_UPDATE,
					       &req, 1, 1000, &rsp, &n),
		    EPERM);
	/* Refused before any socket was opened. */
	CHECK_EQ(fake_nl.opens, 0);
	CHECK_EQ(fake_nl.num_requests, 0);
	fake_nl.capable = true;
	CHECK_FAILS(mrc_ctl_modify_ev_fmt_profile(ctx, 1, &fattr, 0), ENOENT);
	CHECK_EQ(mrc_destroy_context(ctx), 0);
}

static void no_module(void)
{
	struct mrc_context *ctx = ctl_setup();
	struct mrc_ctl_device_attr dattr;
	struct mrc_ctl_cc_profile_attr cattr = { 0 };

	fake_nl.open_err = ENOENT;	/* no "mrc" family */
	CHECK_FAILS(mrc_ctl_query_device(&fake.ctx, &dattr), ENODEV);
	CHECK_FAILS(mrc_ctl_query_cc_profile(ctx, 1, &cattr, 0), ENODEV);
	CHECK_EQ(mrc_destroy_context(ctx), 0);
}

static void device_query(void)
{
	struct mrc_context *ctx = ctl_setup();
	struct mrc_ctl_device_attr attr;
	struct fake_nl_answer *a;
	int supported = -1;

	answer_dev(fake_nl_answer(0), 2);
	a = fake_nl_answer(0);
	answer_profile(a, 1, MRC_NL_FMT_UDP, MRC_NL_MODE_GENERATED, 64);
	answer_profile(a, 2, MRC_NL_FMT_SRV6, MRC_NL_MODE_EXPLICIT, 4);
	CHECK_EQ(mrc_ctl_query_device_ex(&fake.ctx, ctx, &attr, &supported), 0);
	CHECK_EQ(supported, 1);
	CHECK_EQ(fake_nl.num_requests, 2);
	CHECK_EQ(req_cmd(0), U_CMD_DEV_GET);
	CHECK_EQ(req_cmd(1), U_CMD_PROFILE_GET);
	CHECK(!strcmp(mnl_attr_get_str(msg_attr(req_msg(0), U_A_DEV)),
		      "mrc9"));
	CHECK_EQ(attr.mrc_ctl_protocol_version, 0);
	CHECK_EQ(attr.ev.ev_max_profiles, 64);
	CHECK_EQ(attr.ev.ev_max_count, 65536);
	CHECK_EQ(attr.ev.ev_free_count, 65536 - 68);
	CHECK_EQ(attr.ev.ev_max_count_profile, 1024);
	CHECK_EQ(attr.ev.ev_fmt_mode_mask,
		 MRC_CTL_EV_FMT_MODE_UDP | MRC_CTL_EV_FMT_MODE_SRV6);
	CHECK_EQ(attr.ev.ev_mode_mask, MRC_CTL_EV_MODE_EXP |
					MRC_CTL_EV_MODE_GEN);
	CHECK_EQ(attr.cc.cc_max_profiles, 1);
	CHECK(attr.cc.algorithms && !strcmp(attr.cc.algorithms[0],
					    "uet-1.0-nscc") &&
	      !attr.cc.algorithms[1]);
	CHECK_EQ(attr.phy_port_mask, 0x6);
	/* EV events, whose drop_count is a lower bound only; EV probes. */
	CHECK_EQ(attr.opt_attr, MRC_CTL_OPT_CAP_CC_PROFILE_MODIFY_ONLINE |
				MRC_CTL_OPT_CAP_EV_EVENT |
				MRC_CTL_OPT_CAP_EP_OP_EV_PROBE);
	CHECK(!(attr.opt_attr & MRC_CTL_OPT_CAP_EV_EVENT_PRECISE_DROP_CNT));

	/* A device of another vendor: supported 0, nothing asked. */
	fake_other.vendor_part_id = 1;
	CHECK_EQ(mrc_ctl_query_device_ex(&fake_other.ctx, NULL, &attr,
					 &supported), 0);
	CHECK_EQ(supported, 0);
	CHECK_EQ(attr.ev.ev_max_profiles, 0);
	CHECK_FAILS(mrc_ctl_query_device(&fake_other.ctx, &attr), ENODEV);
	CHECK_EQ(fake_nl.num_requests, 2);

	/* The kernel's errno comes through (a device in no namespace of ours). */
	fake_nl_answer(ENODEV);
	CHECK_FAILS(mrc_ctl_query_device(&fake.ctx, &attr), ENODEV);
	/* That query had a socket of its own, closed again. */
	CHECK_EQ(fake_nl.opens, 2);
	CHECK_EQ(fake_nl.closes, 1);
	CHECK_EQ(mrc_destroy_context(ctx), 0);
	CHECK_EQ(fake_nl.closes, 2);
}

/*
 * The ifindex the kernel would name @lower by: lo's is 1 in every
 * namespace; the others' name nothing here.
 */
static uint32_t lower_index(const char *lower)
{
	if (!strcmp(lower, "lo"))
		return 1;
	if (!strcmp(lower, "lo-renamed"))
		return 1;
	return 0x7ffffff0;
}

/*
 * DEV_GET of a device over a bond whose planes are @lowers (NULL: an
 * empty slot), or without the PLANES nest (an older kernel) for NULL.
 */
static void answer_dev_planes(struct fake_nl_answer *a, uint32_t planes,
			      const char *const *lowers)
{
	struct nlmsghdr *nlh = fake_nl_msg(a, U_CMD_DEV_GET);
	struct nlattr *list, *nest;
	uint32_t p;

	mnl_attr_put_strz(nlh, U_A_DEV, "mrc9");
	mnl_attr_put_strz(nlh, U_A_NETDEV, "bond0");
	mnl_attr_put_u32(nlh, U_A_NUM_PLANES, planes);
	if (lowers) {
		list = mnl_attr_nest_start(nlh, U_A_PLANES);
		for (p = 0; p < planes; p++) {
			nest = mnl_attr_nest_start(nlh, U_A_PLANE);
			mnl_attr_put_u32(nlh, U_PLANE_INDEX, p);
			mnl_attr_put_u8(nlh, U_PLANE_UP, 0);
			if (lowers[p]) {
				mnl_attr_put_strz(nlh, U_PLANE_NETDEV,
						  lowers[p]);
				mnl_attr_put_u32(nlh, U_PLANE_IFINDEX,
						 lower_index(lowers[p]));
				mnl_attr_put_u8(nlh, U_PLANE_ADMIN_UP, 0);
			}
			mnl_attr_nest_end(nlh, nest);
		}
		mnl_attr_nest_end(nlh, list);
	}
	fake_nl_msg_end(a, nlh);
}

static void port_on_bond(void)
{
	/* "lo" is up in every network namespace, and readable unprivileged. */
	static const char *const lowers[] = { "mrc-no-such0", NULL, "lo",
					      "lo-renamed" };
	struct mrc_context *ctx = ctl_setup();
	struct mrc_ctl_port_attr attr = { 0 };

	/* Port 3 is plane 2's slave: its IFF_UP, found by its ifindex. */
	answer_dev_planes(fake_nl_answer(0), 3, lowers);
	attr.port_admin_state = MRC_CTL_PORT_ADMIN_DISABLED;
	CHECK_EQ(mrc_ctl_query_port(ctx, 3, &attr, MRC_CTL_PORT_ADMIN_STATE),
		 0);
	CHECK_EQ(attr.port_admin_state, MRC_CTL_PORT_ADMIN_ENABLED);
	CHECK_EQ(req_cmd(0), U_CMD_DEV_GET);
	/* Already enabled: nothing to write, so no privilege needed. */
	answer_dev_planes(fake_nl_answer(0), 3, lowers);
	CHECK_EQ(mrc_ctl_modify_port(ctx, 3, &attr, MRC_CTL_PORT_ADMIN_STATE),
		 0);
	/* Renamed since DEV_GET: found by its index. */
	answer_dev_planes(fake_nl_answer(0), 4, lowers);
	attr.port_admin_state = MRC_CTL_PORT_ADMIN_DISABLED;
	CHECK_EQ(mrc_ctl_query_port(ctx, 4, &attr, MRC_CTL_PORT_ADMIN_STATE),
		 0);
	CHECK_EQ(attr.port_admin_state, MRC_CTL_PORT_ADMIN_ENABLED);
	/* Port 1's slave is not there (gone since DEV_GET). */
	answer_dev_planes(fake_nl_answer(0), 3, lowers);
	CHECK_FAILS(mrc_ctl_query_port(ctx, 1, &attr,
				       MRC_CTL_PORT_ADMIN_STATE), ENODEV);
	/* Port 2's slot is empty: its slave left the bond. */
	answer_dev_planes(fake_nl_answer(0), 3, lowers);
	CHECK_FAILS(mrc_ctl_query_port(ctx, 2, &attr,
				       MRC_CTL_PORT_ADMIN_STATE), ENODEV);
	answer_dev_planes(fake_nl_answer(0), 3, lowers);
	CHECK_FAILS(mrc_ctl_modify_port(ctx, 2, &attr,
					MRC_CTL_PORT_ADMIN_STATE), ENODEV);
	/* Outside 1..planes. */
	answer_dev_planes(fake_nl_answer(0), 3, lowers);
	CHECK_FAILS(mrc_ctl_query_port(ctx, 4, &attr,
				       MRC_CTL_PORT_ADMIN_STATE), EINVAL);
	answer_dev_planes(fake_nl_answer(0), 3, lowers);
	CHECK_FAILS(mrc_ctl_modify_port(ctx, 0, &attr,
					MRC_CTL_PORT_ADMIN_STATE), EINVAL);

	/* A kernel without PLANES: its slaves are not named. */
	answer_dev(fake_nl_answer(0), 2);
	CHECK_FAILS(mrc_ctl_query_port(ctx, 1, &attr,
				       MRC_CTL_PORT_ADMIN_STATE), EOPNOTSUPP);
	answer_dev(fake_nl_answer(0), 2);
	CHECK_FAILS(mrc_ctl_query_port(ctx, 3, &attr,
				       MRC_CTL_PORT_ADMIN_STATE), EINVAL);
	answer_dev(fake_nl_answer(0), 2);
	CHECK_FAILS(mrc_ctl_query_port(ctx, 0, &attr,
				       MRC_CTL_PORT_ADMIN_STATE), EINVAL);
	CHECK_EQ(mrc_destroy_context(ctx), 0);
}

static void port_single_netdev(void)
{
	static const char *const lowers[] = { "lo" };
	struct mrc_context *ctx = ctl_setup();
	struct mrc_ctl_port_attr attr = { 0 };
	struct fake_nl_answer *a;
	struct nlattr *list, *nest;
	struct nlmsghdr *nlh;

	/* Without the nest (an older kernel): the device's own netdev. */
	a = fake_nl_answer(0);
	nlh = fake_nl_msg(a, U_CMD_DEV_GET);
	mnl_attr_put_strz(nlh, U_A_NETDEV, "lo");
	mnl_attr_put_u32(nlh, U_A_NUM_PLANES, 1);
	fake_nl_msg_end(a, nlh);
	CHECK_EQ(mrc_ctl_query_port(ctx, 1, &attr, MRC_CTL_PORT_ADMIN_STATE),
		 0);
	CHECK_EQ(attr.port_admin_state, MRC_CTL_PORT_ADMIN_ENABLED);
	/* With it: plane 0 is that netdev. */
	answer_dev_planes(fake_nl_answer(0), 1, lowers);
	attr.port_admin_state = MRC_CTL_PORT_ADMIN_DISABLED;
	CHECK_EQ(mrc_ctl_query_port(ctx, 1, &attr, MRC_CTL_PORT_ADMIN_STATE),
		 0);
	CHECK_EQ(attr.port_admin_state, MRC_CTL_PORT_ADMIN_ENABLED);
	answer_dev_planes(fake_nl_answer(0), 1, lowers);
	CHECK_FAILS(mrc_ctl_query_port(ctx, 2, &attr,
				       MRC_CTL_PORT_ADMIN_STATE), EINVAL);

	/* A nest that disagrees with NUM_PLANES: the kernel's answer is bad. */
	a = fake_nl_answer(0);
	nlh = fake_nl_msg(a, U_CMD_DEV_GET);
	mnl_attr_put_strz(nlh, U_A_NETDEV, "bond0");
	mnl_attr_put_u32(nlh, U_A_NUM_PLANES, 2);
	list = mnl_attr_nest_start(nlh, U_A_PLANES);
	nest = mnl_attr_nest_start(nlh, U_A_PLANE);
	mnl_attr_put_u32(nlh, U_PLANE_INDEX, 0);
	mnl_attr_put_u8(nlh, U_PLANE_UP, 1);
	mnl_attr_put_strz(nlh, U_PLANE_NETDEV, "lo");
	mnl_attr_nest_end(nlh, nest);
	mnl_attr_nest_end(nlh, list);
	fake_nl_msg_end(a, nlh);
	CHECK_FAILS(mrc_ctl_query_port(ctx, 1, &attr,
				       MRC_CTL_PORT_ADMIN_STATE), EBADMSG);
	CHECK_EQ(mrc_destroy_context(ctx), 0);
}

static void fmt_profiles(void)
{
	struct mrc_context *ctx = ctl_setup();
	struct mrc_ctl_ev_fmt_field fields[8] = { { 16 } };
	struct mrc_ctl_ev_fmt_profile_attr a = {
		.profile_state = MRC_CTL_PROFILE_INIT,
	};
	int st = MRC_CTL_EV_FMT_PROFILE_STATE;

	/* Created by a move to INIT; not configured: cannot be OFFLINE. */
	CHECK_FAILS(mrc_ctl_modify_ev_fmt_profile(ctx, 3, &a,
				MRC_CTL_EV_FMT_PROFILE_MODE), ENOENT);
	CHECK_EQ(mrc_ctl_modify_ev_fmt_profile(ctx, 3, &a, st), 0);
	a.profile_state = MRC_CTL_PROFILE_OFFLINE;
	CHECK_FAILS(mrc_ctl_modify_ev_fmt_profile(ctx, 3, &a, st), EINVAL);
	a.profile_state = MRC_CTL_PROFILE_ONLINE;
	CHECK_FAILS(mrc_ctl_modify_ev_fmt_profile(ctx, 3, &a, st), EINVAL);

	a.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_STEV;
	CHECK_FAILS(mrc_ctl_modify_ev_fmt_profile(ctx, 3, &a,
				MRC_CTL_EV_FMT_PROFILE_MODE), EOPNOTSUPP);
	a.ev_fmt_mode = 1 << 5;
	CHECK_FAILS(mrc_ctl_modify_ev_fmt_profile(ctx, 3, &a,
				MRC_CTL_EV_FMT_PROFILE_MODE), EINVAL);
	a.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_UDP;
	a.ev_fmt_op.op = MRC_CTL_EV_FMT_OP_MODIFY_FIELDS;
	a.ev_fmt_op.fmt_fields = fields;
	a.ev_fmt_op.fmt_field_count = 1;
	fields[0].width = 14;	/* not the kernel's layout */
	CHECK_FAILS(mrc_ctl_modify_ev_fmt_profile(ctx, 3, &a,
				MRC_CTL_EV_FMT_PROFILE_MODE |
				MRC_CTL_EV_FMT_PROFILE_OP), EOPNOTSUPP);
	fields[0].width = 16;
	a.vendor_cfg[7] = 1;
	CHECK_FAILS(mrc_ctl_modify_ev_fmt_profile(ctx, 3, &a,
				MRC_CTL_EV_FMT_VENDOR_CFG), EOPNOTSUPP);
	a.vendor_cfg[7] = 0;
	a.profile_state = MRC_CTL_PROFILE_OFFLINE;
	CHECK_EQ(mrc_ctl_modify_ev_fmt_profile(ctx, 3, &a,
				MRC_CTL_EV_FMT_PROFILE_MODE |
				MRC_CTL_EV_FMT_PROFILE_OP | st), 0);
	a.profile_state = MRC_CTL_PROFILE_ONLINE;
	CHECK_EQ(mrc_ctl_modify_ev_fmt_profile(ctx, 3, &a, st), 0);
	/* ONLINE: no change. */
	CHECK_FAILS(mrc_ctl_modify_ev_fmt_profile(ctx, 3, &a,
				MRC_CTL_EV_FMT_PROFILE_MODE), EBUSY);

	memset(&a, 0, sizeof(a));
	a.ev_fmt_op.op = MRC_CTL_EV_FMT_OP_QUERY_FIELDS;
	a.ev_fmt_op.fmt_fields = fields;
	a.ev_fmt_op.fmt_field_count = 8;
	CHECK_EQ(mrc_ctl_query_ev_fmt_profile(ctx, 3, &a,
				MRC_CTL_EV_FMT_PROFILE_OP |
				MRC_CTL_EV_FMT_PROFILE_MODE |
				MRC_CTL_EV_FMT_PROFILE_CUR_STATE), 0);
	CHECK_EQ(a.cur_profile_state, MRC_CTL_PROFILE_ONLINE);
	CHECK_EQ(a.ev_fmt_mode, MRC_CTL_EV_FMT_MODE_UDP);
	CHECK_EQ(a.ev_fmt_op.fmt_field_count, 1);
	CHECK_EQ(fields[0].width, 16);

	/* SRv6: seven fields; an array of 2 is too small and says so. */
	memset(&a, 0, sizeof(a));
	a.profile_state = MRC_CTL_PROFILE_INIT;
	a.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_SRV6;
	CHECK_EQ(mrc_ctl_modify_ev_fmt_profile(ctx, 4, &a, st |
				MRC_CTL_EV_FMT_PROFILE_MODE), 0);
	a.ev_fmt_op.op = MRC_CTL_EV_FMT_OP_QUERY_FIELDS;
	a.ev_fmt_op.fmt_fields = fields;
	a.ev_fmt_op.fmt_field_count = 2;
	CHECK_FAILS(mrc_ctl_query_ev_fmt_profile(ctx, 4, &a,
				MRC_CTL_EV_FMT_PROFILE_OP), ENOSPC);
	CHECK_EQ(a.ev_fmt_op.fmt_field_count, 7);
	/* INIT -> ONLINE skips OFFLINE. */
	a.profile_state = MRC_CTL_PROFILE_ONLINE;
	CHECK_FAILS(mrc_ctl_modify_ev_fmt_profile(ctx, 4, &a, st), EINVAL);
	CHECK_EQ(fake_nl.num_requests, 0);	/* all in the library */
	CHECK_EQ(mrc_destroy_context(ctx), 0);
}

/* Format profile @id of mode @mode, ONLINE. */
static void make_fmt(struct mrc_context *ctx, uint64_t id,
		     enum mrc_ctl_ev_fmt_mode mode)
{
	struct mrc_ctl_ev_fmt_profile_attr a = {
		.profile_state = MRC_CTL_PROFILE_INIT, .ev_fmt_mode = mode,
	};
	int st = MRC_CTL_EV_FMT_PROFILE_STATE;

	CHECK_EQ(mrc_ctl_modify_ev_fmt_profile(ctx, id, &a, st |
				MRC_CTL_EV_FMT_PROFILE_MODE), 0);
	a.profile_state = MRC_CTL_PROFILE_OFFLINE;
	CHECK_EQ(mrc_ctl_modify_ev_fmt_profile(ctx, id, &a, st), 0);
	a.profile_state = MRC_CTL_PROFILE_ONLINE;
	CHECK_EQ(mrc_ctl_modify_ev_fmt_profile(ctx, id, &a, st), 0);
}

static void explicit_profile(void)
{
	struct mrc_context *ctx = ctl_setup();
	struct mrc_ctl_ev_op_entry e[3];
	struct mrc_ctl_ev_profile_attr a = {
		.profile_state = MRC_CTL_PROFILE_INIT,
	};
	int st = MRC_CTL_EV_PROFILE_STATE;
	const struct nlattr *list, *ev;
	struct fake_nl_answer *ans;
	int r;

	make_fmt(ctx, 3, MRC_CTL_EV_FMT_MODE_UDP);

	/* Unknown to the library and to the kernel: created by INIT. */
	a.profile_state = MRC_CTL_PROFILE_OFFLINE;
	fake_nl_answer(0);
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 5, &a, st), ENOENT);
	a.profile_state = MRC_CTL_PROFILE_INIT;
	fake_nl_answer(0);
	CHECK_EQ(mrc_ctl_modify_ev_profile(ctx, 5, &a, st), 0);
	CHECK_EQ(fake_nl.num_requests, 2);
	CHECK_EQ(req_cmd(1), U_CMD_PROFILE_GET);

	a.ev_mode = MRC_CTL_EV_MODE_AUTO;
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 5, &a,
				MRC_CTL_EV_PROFILE_MODE), EOPNOTSUPP);
	a.ev_mode = MRC_CTL_EV_MODE_EXP;
	a.ev_fmt_profile_id = 9;	/* no such format profile */
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 5, &a,
				MRC_CTL_EV_PROFILE_MODE |
				MRC_CTL_EV_PROFILE_FMT_ID), ENOENT);
	a.ev_fmt_profile_id = 3;
	a.ev_count = 1025;
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 5, &a,
				MRC_CTL_EV_PROFILE_MODE |
				MRC_CTL_EV_PROFILE_FMT_ID |
				MRC_CTL_EV_PROFILE_COUNT), EINVAL);
	a.ev_event_mask = MRC_CTL_EV_ASSUMED_BAD | 1 << 5;	/* no state */
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 5, &a,
				MRC_CTL_EV_PROFILE_EVENT_MASK), EINVAL);
	a.ev_event_mask = MRC_CTL_EV_ASSUMED_BAD | MRC_CTL_EV_GOOD |
			  MRC_CTL_EV_UNKNOWN;
	CHECK_EQ(mrc_ctl_modify_ev_profile(ctx, 5, &a,
				MRC_CTL_EV_PROFILE_EVENT_MASK), 0);
	a.ev_event_mask = 0;
	CHECK_EQ(mrc_ctl_query_ev_profile(ctx, 5, &a,
				MRC_CTL_EV_PROFILE_EVENT_MASK), 0);
	CHECK_EQ(a.ev_event_mask, MRC_CTL_EV_ASSUMED_BAD | MRC_CTL_EV_GOOD |
				  MRC_CTL_EV_UNKNOWN);
	a.vendor_cfg[0] = 0x80;		/* an unknown flag */
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 5, &a,
				MRC_CTL_EV_PROFILE_VENDOR_CFG), EINVAL);
	a.vendor_cfg[0] = MRC_CTL_LIB_VCFG_DEFAULT;
	a.ev_count = 2;
	a.ev_min_active = 1;
	CHECK_EQ(mrc_ctl_modify_ev_profile(ctx, 5, &a,
				MRC_CTL_EV_PROFILE_MODE |
				MRC_CTL_EV_PROFILE_FMT_ID |
				MRC_CTL_EV_PROFILE_COUNT |
				MRC_CTL_EV_PROFILE_MIN_ACTIVE |
				MRC_CTL_EV_PROFILE_VENDOR_CFG), 0);

	/* Two slots unpopulated: not complete. */
	a.profile_state = MRC_CTL_PROFILE_OFFLINE;
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 5, &a, st), EINVAL);
	memset(e, 0, sizeof(e));
	e[0].ev = MRC_CTL_EV_UNPOPULATED;
	e[0].ev_new = udp_ev(1, 49152);
	e[1].ev = MRC_CTL_EV_UNPOPULATED;
	e[1].ev_new = udp_ev(2, 49153);
	a.ev_op.op = MRC_CTL_EV_OP_REPLACE_EV;
	a.ev_op.entries = e;
	a.ev_op.entry_count = 2;
	CHECK_EQ(mrc_ctl_modify_ev_profile(ctx, 5, &a,
				MRC_CTL_EV_PROFILE_EV_OP | st), 0);
	/* A third replace finds no unpopulated slot, and changes nothing. */
	e[2].ev = MRC_CTL_EV_UNPOPULATED;
	e[2].ev_new = udp_ev(1, 7);
	a.ev_op.entries = &e[2];
	a.ev_op.entry_count = 1;
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 5, &a,
				MRC_CTL_EV_PROFILE_EV_OP), ENOENT);
	CHECK_EQ(fake_nl.num_requests, 2);	/* still nothing sent */

	/* OFFLINE: its EVs are the library's, with no state yet. */
	memset(e, 0, sizeof(e));
	a.ev_op.op = MRC_CTL_EV_OP_QUERY_EV_ARRAY;
	a.ev_op.entries = e;
	a.ev_op.entry_count = 3;
	CHECK_EQ(mrc_ctl_query_ev_profile(ctx, 5, &a,
				MRC_CTL_EV_PROFILE_EV_OP |
				MRC_CTL_EV_PROFILE_CUR_STATE), 0);
	CHECK_EQ(a.ev_op.entry_count, 2);
	CHECK_EQ(a.cur_profile_state, MRC_CTL_PROFILE_OFFLINE);
	CHECK(ev_is(&e[1].ev, 2, 49153));
	CHECK_EQ(e[1].state, MRC_CTL_EV_UNKNOWN);
	a.ev_op.op = MRC_CTL_EV_OP_MODIFY_EV_STATE;
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 5, &a,
				MRC_CTL_EV_PROFILE_EV_OP), EINVAL);

	/* ONLINE: published, a refusal first (nothing changes). */
	a.profile_state = MRC_CTL_PROFILE_ONLINE;
	fake_nl_answer(EEXIST);
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 5, &a, st), EEXIST);
	a.cur_profile_state = 99;
	CHECK_EQ(mrc_ctl_query_ev_profile(ctx, 5, &a,
				MRC_CTL_EV_PROFILE_CUR_STATE), 0);
	CHECK_EQ(a.cur_profile_state, MRC_CTL_PROFILE_OFFLINE);
	fake_nl_answer(0);
	r = fake_nl.num_requests;
	CHECK_EQ(mrc_ctl_modify_ev_profile(ctx, 5, &a, st), 0);
	CHECK_EQ(req_cmd(r), U_CMD_PROFILE_NEW);
	CHECK_EQ(attr_u32(msg_attr(req_msg(r), U_A_PROFILE_ID)), 5);
	CHECK_EQ(attr_u8(msg_attr(req_msg(r), U_A_FORMAT)), MRC_NL_FMT_UDP);
	CHECK_EQ(attr_u8(msg_attr(req_msg(r), U_A_MODE)),
		 MRC_NL_MODE_EXPLICIT);
	CHECK(msg_attr(req_msg(r), U_A_DEFAULT) != NULL);
	CHECK(msg_attr(req_msg(r), U_A_REPLACE) != NULL);
	CHECK(msg_attr(req_msg(r), U_A_PEER) == NULL);
	/* 1 << the kernel's states: UNKNOWN 0, GOOD 1, ASSUMED_BAD 2. */
	CHECK_EQ(attr_u32(msg_attr(req_msg(r), U_A_EVENT_MASK)), 0x7);
	list = msg_attr(req_msg(r), U_A_EVS);
	ev = nest_nth(list, 0);
	CHECK_EQ(attr_u32(nest_attr(ev, U_EV_PLANE)), 0);
	CHECK_EQ(nest_attr(ev, U_EV_UDP_SPORT) ?
		 mnl_attr_get_u16(nest_attr(ev, U_EV_UDP_SPORT)) : 0, 49152);
	ev = nest_nth(list, 1);
	CHECK_EQ(attr_u32(nest_attr(ev, U_EV_PLANE)), 1);
	CHECK(nest_nth(list, 2) == NULL);

	/* ONLINE: configuration is refused, states are the kernel's. */
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 5, &a,
				MRC_CTL_EV_PROFILE_MIN_ACTIVE), EBUSY);
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 5, &a,
				MRC_CTL_EV_PROFILE_EVENT_MASK), EBUSY);
	ans = fake_nl_answer(0);
	answer_profile(ans, 5, MRC_NL_FMT_UDP, MRC_NL_MODE_EXPLICIT, 2);
	ans = fake_nl_answer(0);
	answer_ev(ans, U_CMD_EV_GET, 5, 0, 0, 49152, MRC_NL_EV_GOOD, -1);
	answer_ev(ans, U_CMD_EV_GET, 5, 1, 1, 49153, MRC_NL_EV_GOOD, -1);
	ans = fake_nl_answer(0);
	answer_ev(ans, U_CMD_PATH_GET, 5, 3, 1, 49153, MRC_NL_EV_ASSUMED_BAD,
		  1);
	memset(e, 0, sizeof(e));
	a.ev_op.op = MRC_CTL_EV_OP_QUERY_EV_ARRAY;
	a.ev_op.entries = e;
	a.ev_op.entry_count = 2;
	CHECK_EQ(mrc_ctl_query_ev_profile(ctx, 5, &a,
				MRC_CTL_EV_PROFILE_EV_OP |
				MRC_CTL_EV_PROFILE_COUNT |
				MRC_CTL_EV_PROFILE_FMT_ID |
				MRC_CTL_EV_PROFILE_MODE |
				MRC_CTL_EV_PROFILE_VENDOR_CFG |
				MRC_CTL_EV_PROFILE_CUR_STATE), 0);
	CHECK_EQ(a.cur_profile_state, MRC_CTL_PROFILE_ONLINE);
	CHECK_EQ(a.ev_count, 2);
	CHECK_EQ(a.ev_fmt_profile_id, 3);
	CHECK_EQ(a.ev_mode, MRC_CTL_EV_MODE_EXP);
	CHECK_EQ(e[0].state, MRC_CTL_EV_GOOD);
	CHECK_EQ(e[1].state, MRC_CTL_EV_ASSUMED_BAD);
	CHECK(ev_is(&e[0].ev, 1, 49152));
	/* The answer's profile is the default and has a peer. */
	CHECK_EQ(a.vendor_cfg[0],
		 MRC_CTL_LIB_VCFG_DEFAULT | MRC_CTL_LIB_VCFG_PEER);
	CHECK_EQ(a.vendor_cfg[MRC_CTL_LIB_VCFG_PEER_OFFSET], 0xfc);

	/* Deny the second EV: found by value, set by index. */
	memset(e, 0, sizeof(e));
	e[0].ev = udp_ev(2, 49153);
	e[0].state = MRC_CTL_EV_DENIED;
	a.ev_op.op = MRC_CTL_EV_OP_MODIFY_EV_STATE;
	a.ev_op.entries = e;
	a.ev_op.entry_count = 1;
	ans = fake_nl_answer(0);
	answer_profile(ans, 5, MRC_NL_FMT_UDP, MRC_NL_MODE_EXPLICIT, 2);
	ans = fake_nl_answer(0);
	answer_ev(ans, U_CMD_EV_GET, 5, 0, 0, 49152, MRC_NL_EV_GOOD, -1);
	answer_ev(ans, U_CMD_EV_GET, 5, 1, 1, 49153, MRC_NL_EV_GOOD, -1);
	fake_nl_answer(0);
	r = fake_nl.num_requests;
	CHECK_EQ(mrc_ctl_modify_ev_profile(ctx, 5, &a,
				MRC_CTL_EV_PROFILE_EV_OP), 0);
	CHECK_EQ(fake_nl.num_requests, r + 3);
	CHECK_EQ(req_cmd(r + 2), U_CMD_EV_SET);
	ev = msg_attr(req_msg(r + 2), U_A_EV);
	CHECK_EQ(attr_u32(nest_attr(ev, U_EV_INDEX)), 1);
	CHECK_EQ(attr_u8(nest_attr(ev, U_EV_STATE)), MRC_NL_EV_DENIED);

	/* ASSUMED_BAD cannot be forced; nothing is asked of the kernel. */
	e[0].state = MRC_CTL_EV_ASSUMED_BAD;
	r = fake_nl.num_requests;
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 5, &a,
				MRC_CTL_EV_PROFILE_EV_OP), EOPNOTSUPP);
	e[0].state = MRC_CTL_EV_UNKNOWN;
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 5, &a,
				MRC_CTL_EV_PROFILE_EV_OP), EINVAL);
	CHECK_EQ(fake_nl.num_requests, r);

	/* An EV the profile does not have: ENOENT, no EV_SET sent. */
	e[0].state = MRC_CTL_EV_GOOD;
	e[1] = e[0];
	e[1].ev = udp_ev(1, 4000);
	a.ev_op.entry_count = 2;
	ans = fake_nl_answer(0);
	answer_profile(ans, 5, MRC_NL_FMT_UDP, MRC_NL_MODE_EXPLICIT, 2);
	ans = fake_nl_answer(0);
	answer_ev(ans, U_CMD_EV_GET, 5, 0, 0, 49152, MRC_NL_EV_GOOD, -1);
	answer_ev(ans, U_CMD_EV_GET, 5, 1, 1, 49153, MRC_NL_EV_DENIED, -1);
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 5, &a,
				MRC_CTL_EV_PROFILE_EV_OP), ENOENT);
	CHECK_EQ(fake_nl.num_requests, r + 2);

	/*
	 * A QP bound to it (mrc_modify_qp() naming id 5): the kernel's
	 * EBUSY is the caller's, and the profile stays ONLINE.
	 */
	a.profile_state = MRC_CTL_PROFILE_OFFLINE;
	r = fake_nl.num_requests;
	fake_nl_answer(EBUSY);
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 5, &a, st), EBUSY);
	CHECK_EQ(fake_nl.num_requests, r + 1);
	CHECK_EQ(req_cmd(r), U_CMD_PROFILE_DEL);

	/* OFFLINE again, the QP gone: withdrawn (still ONLINE until now). */
	fake_nl_answer(0);
	CHECK_EQ(mrc_ctl_modify_ev_profile(ctx, 5, &a, st), 0);
	CHECK_EQ(fake_nl.num_requests, r + 2);
	CHECK_EQ(req_cmd(fake_nl.num_requests - 1), U_CMD_PROFILE_DEL);
	CHECK_EQ(mrc_destroy_context(ctx), 0);
}

static void generated_profile(void)
{
	struct mrc_context *ctx = ctl_setup();
	struct mrc_ctl_ev_field f[2] = {
		{ .width = 16, .init_val = 0xc000, .min_val = 0,
		  .max_val = 63, .mask = 0x3f },
	};
	struct mrc_ctl_ev_profile_attr a = {
		.profile_state = MRC_CTL_PROFILE_INIT,
		.ev_mode = MRC_CTL_EV_MODE_GEN, .ev_fmt_profile_id = 2,
	};
	int st = MRC_CTL_EV_PROFILE_STATE;
	const struct nlattr *field;
	int r;

	make_fmt(ctx, 2, MRC_CTL_EV_FMT_MODE_UDP);
	fake_nl_answer(0);
	CHECK_EQ(mrc_ctl_modify_ev_profile(ctx, 1, &a, st |
				MRC_CTL_EV_PROFILE_MODE |
				MRC_CTL_EV_PROFILE_FMT_ID), 0);
	a.ev_fields_op.op = MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS;
	a.ev_fields_op.fields = f;
	a.ev_fields_op.field_count = 9;
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 1, &a,
				MRC_CTL_EV_PROFILE_EV_FIELDS_OP), EINVAL);
	a.ev_fields_op.field_count = 2;	/* f[1] has width 0 */
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 1, &a,
				MRC_CTL_EV_PROFILE_EV_FIELDS_OP), EINVAL);
	a.ev_fields_op.field_count = 1;
	a.ev_count = 4;		/* a generated profile's count is its own */
	CHECK_FAILS(mrc_ctl_modify_ev_profile(ctx, 1, &a,
				MRC_CTL_EV_PROFILE_EV_FIELDS_OP |
				MRC_CTL_EV_PROFILE_COUNT), EINVAL);
	a.profile_state = MRC_CTL_PROFILE_OFFLINE;
	CHECK_EQ(mrc_ctl_modify_ev_profile(ctx, 1, &a, st |
				MRC_CTL_EV_PROFILE_EV_FIELDS_OP), 0);

	/* ONLINE: on every plane of the device (DEV_GET says 2). */
	answer_dev(fake_nl_answer(0), 2);
	fake_nl_answer(0);
	r = fake_nl.num_requests;
	a.profile_state = MRC_CTL_PROFILE_ONLINE;
	CHECK_EQ(mrc_ctl_modify_ev_profile(ctx, 1, &a, st), 0);
	CHECK_EQ(req_cmd(r), U_CMD_DEV_GET);
	CHECK_EQ(req_cmd(r + 1), U_CMD_PROFILE_NEW);
	CHECK_EQ(attr_u8(msg_attr(req_msg(r + 1), U_A_MODE)),
		 MRC_NL_MODE_GENERATED);
	CHECK_EQ(attr_u32(msg_attr(req_msg(r + 1), U_A_PLANE_MASK)), 3);
	CHECK(msg_attr(req_msg(r + 1), U_A_DEFAULT) == NULL);
	field = nest_nth(msg_attr(req_msg(r + 1), U_A_FIELDS), 0);
	CHECK_EQ(attr_u32(nest_attr(field, U_FIELD_WIDTH)), 16);
	CHECK_EQ(attr_u32(nest_attr(field, U_FIELD_INIT)), 0xc000);
	CHECK_EQ(attr_u32(nest_attr(field, U_FIELD_MAX)), 63);
	CHECK_EQ(attr_u32(nest_attr(field, U_FIELD_MASK)), 0x3f);
	CHECK(nest_nth(msg_attr(req_msg(r + 1), U_A_FIELDS), 1) == NULL);
	CHECK_EQ(mrc_destroy_context(ctx), 0);
}

/* A profile mrcctl published is ONLINE here, its fields readable. */
static void foreign_profile(void)
{
	struct mrc_context *ctx = ctl_setup();
	struct mrc_ctl_ev_field f[4];
	struct mrc_ctl_ev_profile_attr a = { 0 };
	struct fake_nl_answer *ans;

	ans = fake_nl_answer(0);
	answer_profile(ans, 1, MRC_NL_FMT_UDP, MRC_NL_MODE_GENERATED, 2);
	ans = fake_nl_answer(0);
	answer_ev(ans, U_CMD_EV_GET, 1, 0, 0, 49152, MRC_NL_EV_GOOD, -1);
	answer_ev(ans, U_CMD_EV_GET, 1, 1, 0, 49153, MRC_NL_EV_GOOD, -1);
	a.ev_fields_op.op = MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS;
	a.ev_fields_op.fields = f;
	a.ev_fields_op.field_count = 4;
	CHECK_EQ(mrc_ctl_query_ev_profile(ctx, 1, &a,
				MRC_CTL_EV_PROFILE_EV_FIELDS_OP |
				MRC_CTL_EV_PROFILE_STATE |
				MRC_CTL_EV_PROFILE_COUNT |
				MRC_CTL_EV_PROFILE_FMT_ID), 0);
	CHECK_EQ(a.profile_state, MRC_CTL_PROFILE_ONLINE);
	CHECK_EQ(a.ev_count, 2);
	CHECK_EQ(a.ev_fmt_profile_id, 0);	/* no format profile here */
	CHECK_EQ(a.ev_fields_op.field_count, 1);
	CHECK_EQ(f[0].width, 16);
	CHECK_EQ(f[0].init_val, 0xc000);

	/* An id the kernel does not have either. */
	fake_nl_answer(0);
	CHECK_FAILS(mrc_ctl_query_ev_profile(ctx, 2, &a, 0), ENOENT);
	CHECK_EQ(mrc_destroy_context(ctx), 0);
}

static void cc_profile(void)
{
	struct mrc_context *ctx = ctl_setup();
	struct mrc_ctl_cc_nscc_cfg cfg = nscc_cfg();
	const struct mrc_ctl_cc_nscc_cfg *got;
	struct mrc_ctl_cc_profile_attr a = {
		.algorithm = "uet-1.0-nscc", .cc_config = &cfg,
	};
	const struct nlattr *nest;
	int r;

	fake_nl_answer(0);
	CHECK_EQ(mrc_ctl_modify_cc_profile(ctx, 1, &a,
				MRC_CTL_CC_PROFILE_ALGORITHM |
				MRC_CTL_CC_PROFILE_CONFIG), 0);
	CHECK_EQ(req_cmd(0), U_CMD_CC_SET);
	CHECK_EQ(attr_u8(msg_attr(req_msg(0), U_A_CC_ENABLED)), 1);
	nest = msg_attr(req_msg(0), U_A_CC);
	CHECK_EQ(attr_u64(nest_attr(nest, MRC_NL_CC_TARGET_DELAY)), 15000);
	CHECK_EQ(attr_u32(nest_attr(nest, MRC_NL_CC_FI_SCALE)), 250);
	CHECK_EQ(attr_u32(nest_attr(nest, MRC_NL_CC_ETA)), 614);
	CHECK(nest_attr(nest, MRC_NL_CC_MTU) == NULL);

	/* The kernel's check refuses: its errno comes back. */
	fake_nl_answer(EINVAL);
	CHECK_FAILS(mrc_ctl_modify_cc_profile(ctx, 1, &a,
				MRC_CTL_CC_PROFILE_CONFIG), EINVAL);
	/* Off: algorithm NULL; a config for no algorithm is EINVAL. */
	a.algorithm = NULL;
	r = fake_nl.num_requests;
	CHECK_FAILS(mrc_ctl_modify_cc_profile(ctx, 1, &a,
				MRC_CTL_CC_PROFILE_ALGORITHM |
				MRC_CTL_CC_PROFILE_CONFIG), EINVAL);
	a.algorithm = "dcqcn";
	CHECK_FAILS(mrc_ctl_modify_cc_profile(ctx, 1, &a,
				MRC_CTL_CC_PROFILE_ALGORITHM), EINVAL);
	a.profile_state = MRC_CTL_PROFILE_OFFLINE;
	CHECK_FAILS(mrc_ctl_modify_cc_profile(ctx, 1, &a,
				MRC_CTL_CC_PROFILE_STATE), EBUSY);
	a.vendor_cfg[0] = 1;
	CHECK_FAILS(mrc_ctl_modify_cc_profile(ctx, 1, &a,
				MRC_CTL_CC_PROFILE_VENDOR_CFG), EOPNOTSUPP);
	cfg.adjust_period_threshold = 10;
	a.algorithm = "uet-1.0-nscc";
	CHECK_FAILS(mrc_ctl_modify_cc_profile(ctx, 1, &a,
				MRC_CTL_CC_PROFILE_CONFIG), EOPNOTSUPP);
	CHECK_EQ(fake_nl.num_requests, r);
	a.algorithm = NULL;
	fake_nl_answer(0);
	CHECK_EQ(mrc_ctl_modify_cc_profile(ctx, 1, &a,
				MRC_CTL_CC_PROFILE_ALGORITHM), 0);
	CHECK_EQ(attr_u8(msg_attr(req_msg(r), U_A_CC_ENABLED)), 0);
	CHECK(msg_attr(req_msg(r), U_A_CC) == NULL);

	answer_cc(fake_nl_answer(0), 1);
	memset(&a, 0, sizeof(a));
	CHECK_EQ(mrc_ctl_query_cc_profile(ctx, 1, &a,
				MRC_CTL_CC_PROFILE_ALGORITHM |
				MRC_CTL_CC_PROFILE_CONFIG |
				MRC_CTL_CC_PROFILE_CUR_STATE), 0);
	CHECK(a.algorithm && !strcmp(a.algorithm, "uet-1.0-nscc"));
	CHECK_EQ(a.cur_profile_state, MRC_CTL_PROFILE_ONLINE);
	got = a.cc_config;
	CHECK(got != NULL);
	if (got) {
		CHECK_EQ(got->target_delay, 9000);
		CHECK_EQ(got->max_cwnd, 225000);
	}
	answer_cc(fake_nl_answer(0), 0);
	CHECK_EQ(mrc_ctl_query_cc_profile(ctx, 1, &a,
				MRC_CTL_CC_PROFILE_ALGORITHM), 0);
	CHECK(a.algorithm == NULL);
	CHECK_EQ(mrc_destroy_context(ctx), 0);
}

/*
 * An EV_EVENT as the kernel multicasts it: @dev, profile @id, EV @index on
 * @plane with UDP port @sport (0: an SRv6 address instead), @state,
 * @reason, @drops; @qpn 0 leaves QPN and PEER out.
 */
static void dgram_event(struct fake_nl_datagram *d, const char *dev,
			uint32_t id, uint32_t index, uint32_t plane,
			uint16_t sport, uint8_t state, uint8_t reason,
			uint32_t drops, uint32_t qpn)
{
	static const uint8_t peer[16] = { [10] = 0xff, [11] = 0xff, 192, 0,
					   2, 2 };
	static const uint8_t srv6[16] = { 0xfc, 0, 0, 0, 0, 1, 0, 2 };
	struct nlmsghdr *nlh = fake_nl_dgram_msg(d, U_CMD_EV_EVENT);
	struct nlattr *nest;

	mnl_attr_put_strz(nlh, U_A_DEV, dev);
	mnl_attr_put_u32(nlh, U_A_PROFILE_ID, id);
	if (qpn) {
		mnl_attr_put(nlh, U_A_PEER, sizeof(peer), peer);
		mnl_attr_put_u32(nlh, U_A_QPN, qpn);
	}
	nest = mnl_attr_nest_start(nlh, U_A_EV);
	mnl_attr_put_u32(nlh, U_EV_INDEX, index);
	mnl_attr_put_u32(nlh, U_EV_PROFILE_INDEX, index);
	mnl_attr_put_u32(nlh, U_EV_PLANE, plane);
	if (sport)
		mnl_attr_put_u16(nlh, U_EV_UDP_SPORT, sport);
	else
		mnl_attr_put(nlh, U_EV_SRV6, sizeof(srv6), srv6);
	mnl_attr_put_u8(nlh, U_EV_STATE, state);
	mnl_attr_put_u8(nlh, U_EV_REASON, reason);
	mnl_attr_put_u32(nlh, U_EV_DROP_COUNT, drops);
	mnl_attr_nest_end(nlh, nest);
	fake_nl_dgram_end(d, nlh);
}

static void ev_event_decoded(void)
{
	struct mrc_nl_event e;
	struct fake_nl_datagram *d;
	const struct nlmsghdr *nlh;
	struct nlattr *nest;
	struct nlmsghdr *bad;

	fake_nl_reset();
	d = fake_nl_datagram(0);
	dgram_event(d, "mrc9", 4, 17, 1, 49153, MRC_NL_EV_ASSUMED_BAD,
		    MRC_NL_REASON_PLANE_DOWN, 3, 0x11);
	nlh = (const struct nlmsghdr *)d->buf;
	CHECK_EQ(mrc_nl_decode_event(nlh, FAKE_NL_FAMILY, &e), 0);
	CHECK(!strcmp(e.dev, "mrc9"));
	CHECK_EQ(e.profile_id, 4);
	CHECK_EQ(e.ev.index, 17);
	CHECK_EQ(e.ev.plane, 1);
	CHECK_EQ(e.ev.format, MRC_NL_FMT_UDP);
	CHECK_EQ(e.ev.udp_sport, 49153);
	CHECK_EQ(e.ev.state, MRC_NL_EV_ASSUMED_BAD);
	CHECK_EQ(e.reason, MRC_NL_REASON_PLANE_DOWN);
	CHECK_EQ(e.drop_count, 3);
	CHECK_EQ(e.qpn, 0x11);
	CHECK(e.has_peer && e.peer[12] == 192 && e.peer[15] == 2);
	/* Another family's message, or another command: not an event. */
	CHECK_EQ(mrc_nl_decode_event(nlh, FAKE_NL_FAMILY + 1, &e), ENOMSG);

	/* An SRv6 EV; no connection named (the controller's own change). */
	d = fake_nl_datagram(0);
	dgram_event(d, "mrc9", 4, 2, 0, 0, MRC_NL_EV_DENIED,
		    MRC_NL_REASON_DENIED, 0, 0);
	nlh = (const struct nlmsghdr *)d->buf;
	CHECK_EQ(mrc_nl_decode_event(nlh, FAKE_NL_FAMILY, &e), 0);
	CHECK_EQ(e.ev.format, MRC_NL_FMT_SRV6);
	CHECK_EQ(e.ev.srv6[5], 1);
	CHECK(!e.has_peer);
	CHECK_EQ(e.qpn, 0);

	/* Malformed: no EV nest; a state beyond DENIED; no plane. */
	d = fake_nl_datagram(0);
	bad = fake_nl_dgram_msg(d, U_CMD_EV_EVENT);
	mnl_attr_put_strz(bad, U_A_DEV, "mrc9");
	mnl_attr_put_u32(bad, U_A_PROFILE_ID, 4);
	CHECK_EQ(mrc_nl_decode_event(bad, FAKE_NL_FAMILY, &e), EBADMSG);
	d = fake_nl_datagram(0);
	bad = fake_nl_dgram_msg(d, U_CMD_EV_EVENT);
	mnl_attr_put_strz(bad, U_A_DEV, "mrc9");
	mnl_attr_put_u32(bad, U_A_PROFILE_ID, 4);
	nest = mnl_attr_nest_start(bad, U_A_EV);
	mnl_attr_put_u32(bad, U_EV_INDEX, 1);
	mnl_attr_put_u32(bad, U_EV_PLANE, 0);
	mnl_attr_put_u16(bad, U_EV_UDP_SPORT, 49152);
	mnl_attr_put_u8(bad, U_EV_STATE, 4);
	mnl_attr_nest_end(bad, nest);
	CHECK_EQ(mrc_nl_decode_event(bad, FAKE_NL_FAMILY, &e), EBADMSG);
	d = fake_nl_datagram(0);
	bad = fake_nl_dgram_msg(d, U_CMD_EV_EVENT);
	mnl_attr_put_strz(bad, U_A_DEV, "mrc9");
	mnl_attr_put_u32(bad, U_A_PROFILE_ID, 4);
	nest = mnl_attr_nest_start(bad, U_A_EV);
	mnl_attr_put_u32(bad, U_EV_INDEX, 1);
	mnl_attr_put_u16(bad, U_EV_UDP_SPORT, 49152);
	mnl_attr_put_u8(bad, U_EV_STATE, 1);
	mnl_attr_nest_end(bad, nest);
	CHECK_EQ(mrc_nl_decode_event(bad, FAKE_NL_FAMILY, &e), EBADMSG);
	/* A reason of the wrong width. */
	d = fake_nl_datagram(0);
	bad = fake_nl_dgram_msg(d, U_CMD_EV_EVENT);
	mnl_attr_put_strz(bad, U_A_DEV, "mrc9");
	mnl_attr_put_u32(bad, U_A_PROFILE_ID, 4);
	nest = mnl_attr_nest_start(bad, U_A_EV);
	mnl_attr_put_u32(bad, U_EV_INDEX, 1);
	mnl_attr_put_u32(bad, U_EV_PLANE, 0);
	mnl_attr_put_u16(bad, U_EV_UDP_SPORT, 49152);
	mnl_attr_put_u8(bad, U_EV_STATE, 1);
	mnl_attr_put_u32(bad, U_EV_REASON, 1);
	mnl_attr_nest_end(bad, nest);
	CHECK_EQ(mrc_nl_decode_event(bad, FAKE_NL_FAMILY, &e), EBADMSG);
}

static void ev_event_cq(void)
{
	struct mrc_context *ctx = ctl_setup();
	struct mrc_comp_channel *ch;
	struct mrc_ctl_ev_event ev[4];
	struct fake_nl_datagram *d;
	struct mrc_cq *cq, *other;
	int fd = -1;

	/* Arguments, then the privilege, before any socket. */
	CHECK_NULL(mrc_ctl_create_ev_event_cq(ctx, 0, NULL, NULL, 0), EINVAL);
	CHECK_NULL(mrc_ctl_create_ev_event_cq(NULL, 16, NULL, NULL, 0),
		   EINVAL);
	CHECK_NULL(mrc_ctl_create_ev_event_cq(ctx, 16, NULL, NULL, -1),
		   EINVAL);
	fake_nl.capable = false;
	CHECK_NULL(mrc_ctl_create_ev_event_cq(ctx, 16, NULL, NULL, 0), EPERM);
	CHECK_EQ(fake_nl.opens, 0);
	fake_nl.capable = true;
	/* A kernel without the group; the kernel refusing the join. */
	fake_nl.has_events = false;
	CHECK_NULL(mrc_ctl_create_ev_event_cq(ctx, 16, NULL, NULL, 0),
		   EOPNOTSUPP);
	fake_nl.has_events = true;
	fake_nl.events_open_err = EPERM;
	CHECK_NULL(mrc_ctl_create_ev_event_cq(ctx, 16, NULL, NULL, 0), EPERM);
	fake_nl.events_open_err = 0;
	CHECK_EQ(mrc_ctl_poll_ev_event(NULL, 1, ev), -EINVAL);

	/* A CQ of 64 events asks for a buffer that holds them. */
	cq = mrc_ctl_create_ev_event_cq(ctx, 64, (void *)0x5, NULL, 0);
	CHECK(cq != NULL);
	if (!cq)
		return;
	CHECK_EQ(fake_nl.events_rcvbuf, 64 * 1024);
	CHECK_EQ(mrc_ctl_poll_ev_event(cq, -1, ev), -EINVAL);
	CHECK_EQ(mrc_ctl_poll_ev_event(cq, 1, NULL), -EINVAL);
	CHECK_EQ(mrc_ctl_poll_ev_event(cq, 4, ev), 0);	/* none waiting */
	/* Not a verbs CQ: mrc_poll_cq() refuses it. */
	CHECK_EQ(mrc_poll_cq(cq, 1, (struct ibv_wc *)ev), -1);
	CHECK_EQ(errno, EINVAL);
	/* Nothing to arm: the socket is readable while events wait. */
	CHECK_EQ(mrc_req_notify_cq(cq, 0), 0);

	/*
	 * Events: ours (UDP, then SRv6 denied), another device's (skipped),
	 * a malformed one and an overrun (counted into the next drop_count
	 * with the kernel's own count), a message that is not an event.
	 */
	d = fake_nl_datagram(0);
	dgram_event(d, "mrc9", 4, 17, 1, 49153, MRC_NL_EV_ASSUMED_BAD,
		    MRC_NL_REASON_LOSS, 0, 0x11);
	d = fake_nl_datagram(0);
	dgram_event(d, "mrc7", 4, 1, 0, 49152, MRC_NL_EV_GOOD,
		    MRC_NL_REASON_PROBES, 0, 0x11);
	d = fake_nl_datagram(0);
	fake_nl_dgram_end(d, fake_nl_dgram_msg(d, U_CMD_EV_EVENT));
	d = fake_nl_datagram(ENOBUFS);
	d = fake_nl_datagram(0);
	fake_nl_dgram_end(d, fake_nl_dgram_msg(d, U_CMD_DEV_GET));
	d = fake_nl_datagram(0);
	dgram_event(d, "mrc9", 4, 17, 1, 49153, MRC_NL_EV_GOOD,
		    MRC_NL_REASON_PROBES, 5, 0x11);
	d = fake_nl_datagram(0);
	dgram_event(d, "mrc9", 6, 2, 0, 0, MRC_NL_EV_DENIED,
		    MRC_NL_REASON_DENIED, 0, 0);
	memset(ev, 0xa5, sizeof(ev));
	CHECK_EQ(mrc_ctl_poll_ev_event(cq, 2, ev), 2);
	CHECK_EQ(ev[0].profile_id, 4);
	CHECK(ev_is(&ev[0].ev, 2, 49153));
	CHECK_EQ(ev[0].state, MRC_CTL_EV_ASSUMED_BAD);
	CHECK_EQ(ev[0].drop_count, 0);
	CHECK_EQ(ev[1].profile_id, 4);
	CHECK(ev_is(&ev[1].ev, 2, 49153));
	CHECK_EQ(ev[1].state, MRC_CTL_EV_GOOD);
	/* The kernel's 5, the malformed message and the overrun. */
	CHECK_EQ(ev[1].drop_count, 7);
	CHECK_EQ(mrc_ctl_poll_ev_event(cq, 4, ev), 1);
	CHECK_EQ(ev[0].profile_id, 6);
	CHECK_EQ(ev[0].ev.port, 1);
	CHECK_EQ(ev[0].ev.val[0], 0xfc);
	CHECK_EQ(ev[0].ev.val[5], 1);
	CHECK_EQ(ev[0].state, MRC_CTL_EV_DENIED);
	CHECK_EQ(ev[0].drop_count, 0);
	CHECK_EQ(mrc_ctl_poll_ev_event(cq, 0, NULL), 0);
	CHECK_EQ(mrc_destroy_cq(cq), 0);
	CHECK_EQ(fake_nl.closes, 1);

	/*
	 * A completion channel serves the event CQ alone: its fd is the
	 * socket's, it takes no other CQ, and it stays busy until the CQ
	 * is destroyed.
	 */
	CHECK_EQ(mrc_create_comp_channel(ctx, &ch), 0);
	other = mrc_create_cq(ctx, 4, NULL, ch, 0);
	CHECK(other != NULL);
	CHECK_NULL(mrc_ctl_create_ev_event_cq(ctx, 16, NULL, ch, 0), EBUSY);
	CHECK_EQ(mrc_destroy_cq(other), 0);
	fake_nl.events_fd = 42;
	cq = mrc_ctl_create_ev_event_cq(ctx, 16, (void *)0x7, ch, 0);
	CHECK(cq != NULL);
	if (!cq)
		return;
	CHECK_EQ(mrc_get_comp_channel_fd(ch, &fd), 0);
	CHECK_EQ(fd, 42);
	CHECK_NULL(mrc_create_cq(ctx, 4, NULL, ch, 0), EBUSY);
	CHECK_NULL(mrc_ctl_create_ev_event_cq(ctx, 16, NULL, ch, 0), EBUSY);
	CHECK_EQ(mrc_destroy_comp_channel(ch), EBUSY);
	CHECK_FAILS(mrc_destroy_context(ctx), EBUSY);
	CHECK_EQ(mrc_destroy_cq(cq), 0);
	CHECK_EQ(mrc_destroy_comp_channel(ch), 0);
	CHECK_EQ(mrc_destroy_context(ctx), 0);
}

/* ------------------------------------------------------------------ */
/* EV probes                                                           */
/* ------------------------------------------------------------------ */

static const uint8_t ep_src[16] = { [10] = 0xff, [11] = 0xff, 192, 0, 2, 1 };
static const uint8_t ep_dst[16] = { [10] = 0xff, [11] = 0xff, 192, 0, 2, 2 };
static const uint8_t ep_srv6[16] = { 0xfc, 0, 0, 0, 0x01, 0x00, 0, 2 };

static void ep_req(struct mrc_ctl_ep_req *r, uint16_t id, uint8_t port,
		   uint16_t sport)
{
	memset(r, 0, sizeof(*r));
	r->req_id = id;
	memcpy(r->sgid.raw, ep_src, 16);
	memcpy(r->dgid.raw, ep_dst, 16);
	r->ev_fmt_mode = MRC_CTL_EV_FMT_MODE_UDP;
	r->req_ev.port = port;
	r->req_ev.val[0] = sport >> 8;
	r->req_ev.val[1] = sport & 0xff;
}

/* One answer of EP_PROBE's, inside the EP_REQS nest being built. */
static void ep_answer(struct nlmsghdr *nlh, uint16_t id, uint32_t plane,
		      uint64_t rtt, bool svc)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, U_A_EP_REQ);

	mnl_attr_put_u16(nlh, U_EP_REQ_ID, id);
	mnl_attr_put_u32(nlh, U_EP_PLANE, plane);
	mnl_attr_put_u64(nlh, U_EP_RTT, rtt);
	if (svc)
		mnl_attr_put(nlh, U_EP_SVC_TIME_REMOVED, 0, NULL);
	mnl_attr_nest_end(nlh, nest);
}

/* Checks request @i's EP_REQ @n: id, GIDs, EV, DSCP and timeout. */
static void ep_check_req(const struct nlattr *list, int n, uint16_t id,
			 uint32_t plane, int sport, const uint8_t *srv6,
			 uint8_t dscp, uint64_t timeout)
{
	const struct nlattr *r = nest_nth(list, n), *ev;

	CHECK(r && mnl_attr_get_type(r) == U_A_EP_REQ);
	CHECK_EQ(attr_uint(nest_attr(r, U_EP_REQ_ID), 2), id);
	CHECK(!memcmp(mnl_attr_get_payload(nest_attr(r, U_EP_SGID)), ep_src,
		      16));
	CHECK(!memcmp(mnl_attr_get_payload(nest_attr(r, U_EP_DGID)), ep_dst,
		      16));
	ev = nest_attr(r, U_EP_EV);
	CHECK_EQ(attr_uint(nest_attr(ev, U_EV_PLANE), 4), plane);
	if (srv6) {
		CHECK(!nest_attr(ev, U_EV_UDP_SPORT));
		CHECK(!memcmp(mnl_attr_get_payload(nest_attr(ev, U_EV_SRV6)),
			      srv6, 16));
	} else {
		CHECK(!nest_attr(ev, U_EV_SRV6));
		CHECK_EQ(attr_uint(nest_attr(ev, U_EV_UDP_SPORT), 2), sport);
	}
	CHECK_EQ(attr_uint(nest_attr(r, U_EP_DSCP), 1), dscp);
	CHECK_EQ(attr_uint(nest_attr(r, U_EP_TIMEOUT), 8), (long long)timeout);
	CHECK_EQ(count_nested(r), 6);
}

static void ep_probe_request_and_answer(void)
{
	struct mrc_context *ctx = ctl_setup();
	struct mrc_ctl_ep_req req[3];
	struct mrc_ctl_ep_rsp rsp[3];
	const struct nlattr *list;
	struct fake_nl_answer *a;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	int n = 9;

	ep_req(&req[0], 7, 1, 49152);
	ep_req(&req[1], 8, 2, 0);
	req[1].ev_fmt_mode = MRC_CTL_EV_FMT_MODE_SRV6;
	memcpy(req[1].req_ev.val, ep_srv6, 16);
	ep_req(&req[2], 9, 8, 65535);
	/* The kernel answers 8 then 7, out of order; 9 unanswered. */
	a = fake_nl_answer(0);
	nlh = fake_nl_msg(a, U_CMD_EP_PROBE);
	mnl_attr_put_strz(nlh, U_A_DEV, "mrc9");
	nest = mnl_attr_nest_start(nlh, U_A_EP_REQS);
	ep_answer(nlh, 8, 1, 1500, true);
	ep_answer(nlh, 7, 0, 5000000000ull, false);
	mnl_attr_nest_end(nlh, nest);
	fake_nl_msg_end(a, nlh);
	CHECK_EQ(mrc_ctl_ep_batch_send_wait(ctx, 46 << 2 | 1,
					    MRC_CTL_EP_OP_EV_PROBE, req, 3,
					    250000000, rsp, &n), 0);
	CHECK_EQ(n, 2);
	CHECK_EQ(rsp[0].req_id, 8);
	CHECK_EQ(rsp[0].port, 2);
	CHECK_EQ(rsp[0].rtt, 1500);
	CHECK_EQ(rsp[0].adj_svc_time, 1);
	CHECK_EQ(rsp[1].req_id, 7);
	CHECK_EQ(rsp[1].port, 1);
	CHECK_EQ(rsp[1].rtt, UINT_MAX);	/* 5 s does not fit */
	CHECK_EQ(rsp[1].adj_svc_time, 0);

	/* The request: DEV and the three probes, attribute by attribute. */
	CHECK_EQ(fake_nl.num_requests, 1);
	CHECK_EQ(req_cmd(0), U_CMD_EP_PROBE);
	CHECK(!(req_msg(0)->nlmsg_flags & NLM_F_DUMP));
	CHECK(!strcmp(mnl_attr_get_str(msg_attr(req_msg(0), U_A_DEV)),
		      "mrc9"));
	CHECK_EQ(count_attrs(req_msg(0)), 2);
	list = msg_attr(req_msg(0), U_A_EP_REQS);
	CHECK_EQ(count_nested(list), 3);
	/* The DSCP is the traffic class's upper six bits. */
	ep_check_req(list, 0, 7, 0, 49152, NULL, 46, 250000000);
	ep_check_req(list, 1, 8, 1, -1, ep_srv6, 46, 250000000);
	ep_check_req(list, 2, 9, 7, 65535, NULL, 46, 250000000);

	/* No answer at all: success, none reported. */
	fake_nl_reset();
	a = fake_nl_answer(0);
	nlh = fake_nl_msg(a, U_CMD_EP_PROBE);
	nest = mnl_attr_nest_start(nlh, U_A_EP_REQS);
	mnl_attr_nest_end(nlh, nest);
	fake_nl_msg_end(a, nlh);
	n = 9;
	CHECK_EQ(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					    req, 1, 1, rsp, &n), 0);
	CHECK_EQ(n, 0);
	CHECK_EQ(mrc_destroy_context(ctx), 0);
}

/* Each answer in @bad is malformed: EBADMSG, nothing reported. */
static void ep_probe_bad_answers(void)
{
	struct mrc_context *ctx = ctl_setup();
	struct mrc_ctl_ep_req req[2];
	struct mrc_ctl_ep_rsp rsp[2];
	int n, i;

	ep_req(&req[0], 1, 1, 49152);
	ep_req(&req[1], 2, 1, 49153);
	for (i = 0; i < 6; i++) {
		struct fake_nl_answer *a;
		struct nlmsghdr *nlh;
		struct nlattr *nest, *r;

		fake_nl_reset();
		a = fake_nl_answer(0);
		nlh = fake_nl_msg(a, U_CMD_EP_PROBE);
		if (i != 0) {
			nest = mnl_attr_nest_start(nlh, U_A_EP_REQS);
			switch (i) {
			case 1:		/* no RTT */
				r = mnl_attr_nest_start(nlh, U_A_EP_REQ);
				mnl_attr_put_u16(nlh, U_EP_REQ_ID, 1);
				mnl_attr_put_u32(nlh, U_EP_PLANE, 0);
				mnl_attr_nest_end(nlh, r);
				break;
			case 2:		/* a plane the wire cannot name */
				ep_answer(nlh, 1, 8, 10, false);
				break;
			case 3:		/* one request answered twice */
				ep_answer(nlh, 1, 0, 10, false);
				ep_answer(nlh, 1, 0, 11, false);
				break;
			case 4:		/* more answers than requests */
				ep_answer(nlh, 1, 0, 10, false);
				ep_answer(nlh, 2, 0, 10, false);
				ep_answer(nlh, 3, 0, 10, false);
				break;
			case 5:		/* RTT as a u32 */
				r = mnl_attr_nest_start(nlh, U_A_EP_REQ);
				mnl_attr_put_u16(nlh, U_EP_REQ_ID, 1);
				mnl_attr_put_u32(nlh, U_EP_PLANE, 0);
				mnl_attr_put_u32(nlh, U_EP_RTT, 10);
				mnl_attr_nest_end(nlh, r);
				break;
			}
			mnl_attr_nest_end(nlh, nest);
		}
		fake_nl_msg_end(a, nlh);
		n = 9;
		CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0,
						       MRC_CTL_EP_OP_EV_PROBE,
						       req, 2, 1000, rsp, &n),
			    EBADMSG);
		CHECK_EQ(n, 0);
		if (ktap_case_failed) {
			printf("# answer %d\n", i);
			break;
		}
	}
	CHECK_EQ(mrc_destroy_context(ctx), 0);
}

static void ep_probe_refused(void)
{
	struct mrc_context *ctx = ctl_setup();
	struct mrc_ctl_ep_req req[2];
	struct mrc_ctl_ep_rsp rsp[2];
	int n;

	/* Refused by lib_mrc, nothing sent. */
	ep_req(&req[0], 1, 0, 49152);		/* port 0 */
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					       req, 1, 1000, rsp, &n), EINVAL);
	ep_req(&req[0], 1, 9, 49152);		/* port 9 */
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					       req, 1, 1000, rsp, &n), EINVAL);
	ep_req(&req[0], 1, 1, 0);		/* source port 0 */
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					       req, 1, 1000, rsp, &n), EINVAL);
	ep_req(&req[0], 1, 1, 49152);
	req[0].req_ev.val[5] = 1;		/* bytes past the port */
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					       req, 1, 1000, rsp, &n), EINVAL);
	ep_req(&req[0], 1, 1, 49152);
	req[0].ev_fmt_mode = MRC_CTL_EV_FMT_MODE_STEV;
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					       req, 1, 1000, rsp, &n),
		    EOPNOTSUPP);
	req[0].ev_fmt_mode = 0;
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					       req, 1, 1000, rsp, &n), EINVAL);
	ep_req(&req[0], 1, 1, 49152);
	req[0].ev_fmt_mode = MRC_CTL_EV_FMT_MODE_SRV6;
	req[0].req_ev.val[20] = 1;		/* an SRH segment */
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					       req, 1, 1000, rsp, &n),
		    EOPNOTSUPP);
	ep_req(&req[0], 1, 1, 49152);
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					       req, 1, 0, rsp, &n), EINVAL);
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					       req, 513, 1000, rsp, &n),
		    EINVAL);
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					       NULL, 1, 1000, rsp, &n), EINVAL);
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					       req, 1, 1000, NULL, &n), EINVAL);
	CHECK_EQ(fake_nl.num_requests, 0);

	/* Refused by the kernel: its errno and message, nothing reported. */
	ep_req(&req[1], 1, 1, 49153);
	fake_nl_answer(EINVAL)->why = "REQ_ID used twice";
	n = 9;
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					       req, 2, 1000, rsp, &n), EINVAL);
	CHECK_EQ(n, 0);
	CHECK_EQ(fake_nl.num_requests, 1);
	fake_nl_answer(ENODEV);
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					       req, 1, 1000, rsp, &n), ENODEV);
	fake_nl_answer(EINTR);
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					       req, 1, 1000, rsp, &n), EINTR);
	CHECK_EQ(mrc_destroy_context(ctx), 0);
}

/* ------------------------------------------------------------------ */
/* Port status updates                                                 */
/* ------------------------------------------------------------------ */

/*
 * EP_PORT_STATUS: the probe's request with PORT_STATUS, port N's bit as
 * plane N - 1's; the answer as EP_PROBE's.
 */
static void ep_port_status_request_and_answer(void)
{
	struct mrc_context *ctx = ctl_setup();
	struct mrc_ctl_ep_req req[3];
	struct mrc_ctl_ep_rsp rsp[3];
	const struct nlattr *list;
	struct fake_nl_answer *a;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	int n = 9, i;

	ep_req(&req[0], 3, 1, 49152);
	req[0].op.port_status_update.port_status = 0x2;	/* port 2 down */
	ep_req(&req[1], 4, 2, 49153);
	req[1].op.port_status_update.port_status = 0x6;	/* all up */
	ep_req(&req[2], 5, 8, 49154);
	req[2].op.port_status_update.port_status = 0x1fe;
	a = fake_nl_answer(0);
	nlh = fake_nl_msg(a, U_CMD_EP_PORT_STATUS);
	mnl_attr_put_strz(nlh, U_A_DEV, "mrc9");
	nest = mnl_attr_nest_start(nlh, U_A_EP_REQS);
	ep_answer(nlh, 4, 1, 2500, true);
	ep_answer(nlh, 3, 0, 4000, true);
	mnl_attr_nest_end(nlh, nest);
	fake_nl_msg_end(a, nlh);
	CHECK_EQ(mrc_ctl_ep_batch_send_wait(ctx, 10 << 2,
					    MRC_CTL_EP_OP_PORT_STATUS_UPDATE,
					    req, 3, 1000000, rsp, &n), 0);
	CHECK_EQ(n, 2);
	CHECK_EQ(rsp[0].req_id, 4);
	CHECK_EQ(rsp[0].port, 2);
	CHECK_EQ(rsp[0].rtt, 2500);
	CHECK_EQ(rsp[0].adj_svc_time, 1);
	CHECK_EQ(rsp[1].req_id, 3);
	CHECK_EQ(rsp[1].port, 1);
	CHECK_EQ(rsp[1].rtt, 4000);

	CHECK_EQ(fake_nl.num_requests, 1);
	CHECK_EQ(req_cmd(0), U_CMD_EP_PORT_STATUS);
	CHECK(!(req_msg(0)->nlmsg_flags & NLM_F_DUMP));
	CHECK_EQ(count_attrs(req_msg(0)), 2);
	list = msg_attr(req_msg(0), U_A_EP_REQS);
	CHECK_EQ(count_nested(list), 3);
	for (i = 0; i < 3; i++) {
		const struct nlattr *r = nest_nth(list, i);
		const uint32_t want[] = { 0x1, 0x3, 0xff };
		const uint32_t planes[] = { 0, 1, 7 };
		const struct nlattr *ev;

		CHECK(r && mnl_attr_get_type(r) == U_A_EP_REQ);
		if (!r)
			break;
		CHECK_EQ(attr_uint(nest_attr(r, U_EP_REQ_ID), 2), 3 + i);
		ev = nest_attr(r, U_EP_EV);
		CHECK_EQ(attr_uint(nest_attr(ev, U_EV_PLANE), 4), planes[i]);
		CHECK_EQ(attr_uint(nest_attr(ev, U_EV_UDP_SPORT), 2),
			 49152 + i);
		CHECK_EQ(attr_uint(nest_attr(r, U_EP_DSCP), 1), 10);
		CHECK_EQ(attr_uint(nest_attr(r, U_EP_TIMEOUT), 8), 1000000);
		CHECK_EQ(attr_uint(nest_attr(r, U_EP_PORT_STATUS), 4), want[i]);
		CHECK_EQ(count_nested(r), 7);
	}

	/* A probe carries no PORT_STATUS, whatever the union holds. */
	fake_nl_reset();
	a = fake_nl_answer(0);
	nlh = fake_nl_msg(a, U_CMD_EP_PROBE);
	nest = mnl_attr_nest_start(nlh, U_A_EP_REQS);
	mnl_attr_nest_end(nlh, nest);
	fake_nl_msg_end(a, nlh);
	CHECK_EQ(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					    req, 1, 1000, rsp, &n), 0);
	CHECK_EQ(req_cmd(0), U_CMD_EP_PROBE);
	CHECK(!nest_attr(nest_nth(msg_attr(req_msg(0), U_A_EP_REQS), 0),
			 U_EP_PORT_STATUS));
	CHECK_EQ(mrc_destroy_context(ctx), 0);
}

static void ep_port_status_refused(void)
{
	struct mrc_context *ctx = ctl_setup();
	struct mrc_ctl_ep_req req[2];
	struct mrc_ctl_ep_rsp rsp[2];
	int n = 7;

	/* Refused by lib_mrc, nothing sent. */
	ep_req(&req[0], 1, 1, 49152);
	req[0].op.port_status_update.port_status = 0x3;	/* bit 0: no port */
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0,
					       MRC_CTL_EP_OP_PORT_STATUS_UPDATE,
					       req, 1, 1000, rsp, &n), EINVAL);
	CHECK_EQ(n, 0);
	req[0].op.port_status_update.port_status = 0x2;
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0,
					       MRC_CTL_EP_OP_PORT_STATUS_UPDATE,
					       req, 0, 1000, rsp, &n), EINVAL);
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0,
					       MRC_CTL_EP_OP_PORT_STATUS_UPDATE,
					       req, 1, 0, rsp, &n), EINVAL);
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0,
					       MRC_CTL_EP_OP_PORT_STATUS_UPDATE,
					       req, 513, 1000, rsp, &n),
		    EINVAL);
	ep_req(&req[0], 1, 0, 49152);		/* port 0 */
	req[0].op.port_status_update.port_status = 0x2;
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0,
					       MRC_CTL_EP_OP_PORT_STATUS_UPDATE,
					       req, 1, 1000, rsp, &n), EINVAL);
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0, 7, req, 1, 1000, rsp,
					       &n), EINVAL);
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0,
					       MRC_CTL_EP_OP_PORT_STATUS_UPDATE,
					       req, 1, 1000, rsp, NULL),
		    EINVAL);
	CHECK_EQ(fake_nl.num_requests, 0);

	/*
	 * Refused by the kernel (no port up, or a port the device lacks):
	 * its errno, nothing reported.
	 */
	ep_req(&req[0], 1, 1, 49152);
	req[0].op.port_status_update.port_status = 0;
	fake_nl_answer(EINVAL)->why = "PORT_STATUS: ports of the device only";
	n = 9;
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0,
					       MRC_CTL_EP_OP_PORT_STATUS_UPDATE,
					       req, 1, 1000, rsp, &n), EINVAL);
	CHECK_EQ(n, 0);
	CHECK_EQ(fake_nl.num_requests, 1);
	CHECK_EQ(req_cmd(0), U_CMD_EP_PORT_STATUS);
	CHECK_EQ(attr_uint(nest_attr(nest_nth(msg_attr(req_msg(0),
						       U_A_EP_REQS), 0),
				     U_EP_PORT_STATUS), 4), 0);
	fake_nl_answer(ENODEV);
	CHECK_FAILS(mrc_ctl_ep_batch_send_wait(ctx, 0,
					       MRC_CTL_EP_OP_PORT_STATUS_UPDATE,
					       req, 1, 1000, rsp, &n), ENODEV);
	CHECK_EQ(mrc_destroy_context(ctx), 0);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(request_dev_get_bytes),
	KTAP_CASE(request_ev_set_bytes),
	KTAP_CASE(request_dumps),
	KTAP_CASE(request_profile_new_explicit),
	KTAP_CASE(request_profile_new_generated),
	KTAP_CASE(request_cc_set),
	KTAP_CASE(answer_dev_decoded),
	KTAP_CASE(answer_profiles_decoded),
	KTAP_CASE(answer_evs_decoded),
	KTAP_CASE(answer_cc_decoded),
	KTAP_CASE(ev_values_mapped),
	KTAP_CASE(cc_config_mapped),
	KTAP_CASE(versions),
	KTAP_CASE(bad_arguments),
	KTAP_CASE(unprivileged),
	KTAP_CASE(no_module),
	KTAP_CASE(device_query),
	KTAP_CASE(port_on_bond),
	KTAP_CASE(port_single_netdev),
	KTAP_CASE(fmt_profiles),
	KTAP_CASE(explicit_profile),
	KTAP_CASE(generated_profile),
	KTAP_CASE(foreign_profile),
	KTAP_CASE(cc_profile),
	KTAP_CASE(ev_event_decoded),
	KTAP_CASE(ev_event_cq),
	KTAP_CASE(ep_probe_request_and_answer),
	KTAP_CASE(ep_probe_bad_answers),
	KTAP_CASE(ep_probe_refused),
	KTAP_CASE(ep_port_status_request_and_answer),
	KTAP_CASE(ep_port_status_refused),
};

KTAP_MAIN("lib_mrc_ctl", cases)
