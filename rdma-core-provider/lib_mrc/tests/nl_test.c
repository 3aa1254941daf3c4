// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc's netlink layer (mrc_ctl_nl.h) on its own, as mrcctl uses it:
 * the requests beyond the controller API's (DEV_SET, the device dump, an
 * EV by value, CC_RESET, a path dump for one peer, the kernel's defaults
 * left out), every answer decoded whole with each attribute's length
 * checked and no string cut short, the CC parameters by number, and the
 * calls over a scripted socket (fake_nl.c): dumps walked message by
 * message, a callback's errno ending a dump, the kernel's errno and
 * message passed through, and names the kernel cannot hold refused before
 * anything is sent.
 *
 * Unlike ctl_test.c, this file does not include mrc_ctl.h, so it uses the
 * uapi's own numbers.
 */
#include <errno.h>
#include <linux/genetlink.h>
#include <string.h>

#include <rdma/mrc-ctl.h>

#include "fake_nl.h"
#include "ktap.h"
#include "nl_attr.h"

static struct mrc_nl test_nl = { .family = FAKE_NL_FAMILY, .seq = 100 };

static const struct nlmsghdr *sent(int i)
{
	return (const struct nlmsghdr *)fake_nl.requests[i].buf;
}

static uint8_t sent_cmd(int i)
{
	return ((const struct genlmsghdr *)mnl_nlmsg_get_payload(sent(i)))->cmd;
}

/* ------------------------------------------------------------------ */
/* Requests                                                            */
/* ------------------------------------------------------------------ */

static void request_dev_dump_and_set(void)
{
	struct mrc_nl_dev_set set = {
		.has = MRC_NL_DEV_PRESET | MRC_NL_DEV_SINGLE_PATH |
		       MRC_NL_DEV_TXQ_PACKETS | MRC_NL_DEV_CC_RTT_FROM_BUILD,
		.preset = "lab", .single_path = 1, .txq_packets = 16384,
		.cc_rtt_from_build = 1,
		.data_dscp = 26,	/* not in @has: not sent */
	};
	struct mrc_nl nl = test_nl;
	struct nlmsghdr *nlh;

	nlh = mrc_nl_req_dev_get(&nl, NULL);
	CHECK_EQ(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
	CHECK_EQ(count_attrs(nlh), 0);
	nlh = mrc_nl_req_dev_get(&nl, "mrc9");
	CHECK_EQ(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);

	nlh = mrc_nl_req_dev_set(&nl, "mrc9", &set);
	CHECK_EQ(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
	CHECK_EQ(((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->cmd,
		 MRC_CTL_CMD_DEV_SET);
	CHECK(!strcmp(mnl_attr_get_str(msg_attr(nlh, MRC_CTL_A_PRESET)),
		      "lab"));
	CHECK_EQ(attr_uint(msg_attr(nlh, MRC_CTL_A_SINGLE_PATH), 1), 1);
	CHECK_EQ(attr_uint(msg_attr(nlh, MRC_CTL_A_TXQ_PACKETS), 4), 16384);
	CHECK_EQ(attr_uint(msg_attr(nlh, MRC_CTL_A_CC_RTT_FROM_BUILD), 1), 1);
	CHECK(msg_attr(nlh, MRC_CTL_A_DATA_DSCP) == NULL);
	CHECK_EQ(count_attrs(nlh), 5);	/* with DEV */

	set = (struct mrc_nl_dev_set){
		.has = MRC_NL_DEV_DATA_DSCP | MRC_NL_DEV_CTRL_DSCP,
		.data_dscp = 255, .ctrl_dscp = 0,
	};
	nlh = mrc_nl_req_dev_set(&nl, "mrc9", &set);
	/* Past 63 too: the kernel judges, and says why. */
	CHECK_EQ(attr_uint(msg_attr(nlh, MRC_CTL_A_DATA_DSCP), 1), 255);
	CHECK_EQ(attr_uint(msg_attr(nlh, MRC_CTL_A_CTRL_DSCP), 1), 0);
	CHECK_EQ(count_attrs(nlh), 3);
}

static void request_ev_set_by_value(void)
{
	struct mrc_nl_ev udp = {
		.format = MRC_NL_FMT_UDP, .plane = 1, .udp_sport = 49153,
		.index = 7,	/* by value: not sent */
	};
	struct mrc_nl_ev srv6 = {
		.format = MRC_NL_FMT_SRV6, .plane = 0,
		.srv6 = { 0xfc, 0, 0, 0, 1, 0, 2, 0 },
	};
	struct mrc_nl nl = test_nl;
	const struct nlattr *ev;
	struct nlmsghdr *nlh;

	nlh = mrc_nl_req_ev_set(&nl, "mrc9", 2, &udp, MRC_NL_EV_DENIED);
	CHECK_EQ(attr_uint(msg_attr(nlh, MRC_CTL_A_PROFILE_ID), 4), 2);
	ev = msg_attr(nlh, MRC_CTL_A_EV);
	CHECK(ev != NULL);
	CHECK_EQ(attr_uint(nest_attr(ev, MRC_CTL_EV_A_PLANE), 4), 1);
	CHECK_EQ(attr_uint(nest_attr(ev, MRC_CTL_EV_A_UDP_SPORT), 2), 49153);
	CHECK_EQ(attr_uint(nest_attr(ev, MRC_CTL_EV_A_STATE), 1),
		 MRC_CTL_EV_DENIED);
	CHECK(nest_attr(ev, MRC_CTL_EV_A_INDEX) == NULL);
	CHECK_EQ(count_nested(ev), 3);

	nlh = mrc_nl_req_ev_set(&nl, "mrc9", 2, &srv6, MRC_NL_EV_GOOD);
	ev = msg_attr(nlh, MRC_CTL_A_EV);
	CHECK(nest_attr(ev, MRC_CTL_EV_A_SRV6) &&
	      mnl_attr_get_payload_len(nest_attr(ev, MRC_CTL_EV_A_SRV6)) == 16 &&
	      !memcmp(mnl_attr_get_payload(nest_attr(ev, MRC_CTL_EV_A_SRV6)),
		      srv6.srv6, 16));
	CHECK_EQ(attr_uint(nest_attr(ev, MRC_CTL_EV_A_PLANE), 4), 0);
	CHECK_EQ(attr_uint(nest_attr(ev, MRC_CTL_EV_A_STATE), 1),
		 MRC_CTL_EV_GOOD);
	CHECK_EQ(count_nested(ev), 3);
}

/* What the command line leaves out, the kernel defaults: not sent. */
static void request_profile_kernel_defaults(void)
{
	struct mrc_nl_profile p = {
		.id = 3, .format = MRC_NL_FMT_UDP,
		.mode = MRC_NL_MODE_GENERATED, .num_fields = 1,
		.fields = { { 16, 0xc000, 0, 7, 0x7 } },
		.min_active = 5, .min_active_unset = true,
		.plane_mask = 3, .plane_mask_unset = true,
	};
	struct mrc_nl nl = test_nl;
	struct nlmsghdr *nlh;

	nlh = mrc_nl_req_profile_new(&nl, "mrc9", &p);
	CHECK(msg_attr(nlh, MRC_CTL_A_MIN_ACTIVE) == NULL);
	CHECK(msg_attr(nlh, MRC_CTL_A_PLANE_MASK) == NULL);
	CHECK(msg_attr(nlh, MRC_CTL_A_FIELDS) != NULL);
	p.min_active_unset = false;
	p.plane_mask_unset = false;
	nlh = mrc_nl_req_profile_new(&nl, "mrc9", &p);
	CHECK_EQ(attr_uint(msg_attr(nlh, MRC_CTL_A_MIN_ACTIVE), 4), 5);
	CHECK_EQ(attr_uint(msg_attr(nlh, MRC_CTL_A_PLANE_MASK), 4), 3);
}

static void request_cc_reset_and_path_peer(void)
{
	static const uint8_t peer[16] = {
		[10] = 0xff, [11] = 0xff, 192, 0, 2, 2,
	};
	struct mrc_nl nl = test_nl;
	const struct nlattr *a;
	struct nlmsghdr *nlh;

	nlh = mrc_nl_req_cc_set(&nl, "mrc9", NULL, -1, true);
	a = msg_attr(nlh, MRC_CTL_A_CC_RESET);
	CHECK(a && !mnl_attr_get_payload_len(a));
	CHECK(msg_attr(nlh, MRC_CTL_A_CC) == NULL);
	CHECK(msg_attr(nlh, MRC_CTL_A_CC_ENABLED) == NULL);
	nlh = mrc_nl_req_cc_set(&nl, "mrc9", NULL, 1, false);
	CHECK(msg_attr(nlh, MRC_CTL_A_CC_RESET) == NULL);

	nlh = mrc_nl_req_path_dump(&nl, "mrc9", peer);
	CHECK_EQ(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
	a = msg_attr(nlh, MRC_CTL_A_PEER);
	CHECK(a && mnl_attr_get_payload_len(a) == 16 &&
	      !memcmp(mnl_attr_get_payload(a), peer, 16));
}

static void cc_params_by_number(void)
{
	struct mrc_nl_cc cc = { 0 };
	uint64_t v = 0;

	CHECK(!mrc_nl_cc_param_get(&cc, MRC_CTL_CC_A_MTU, &v));
	CHECK_EQ(mrc_nl_cc_param_set(&cc, MRC_CTL_CC_A_BASE_RTT,
				     10000000000ull), 0);
	CHECK_EQ(cc.base_rtt, 10000000000ull);
	CHECK_EQ(mrc_nl_cc_param_set(&cc, MRC_CTL_CC_A_MAX_CWND, UINT32_MAX),
		 0);
	CHECK_EQ(cc.max_cwnd, UINT32_MAX);
	CHECK_EQ(mrc_nl_cc_param_set(&cc, MRC_CTL_CC_A_DISABLE_QA, 1), 0);
	CHECK_EQ(cc.disable_qa, 1);
	CHECK_EQ(cc.has, 1u << MRC_CTL_CC_A_BASE_RTT |
		 1u << MRC_CTL_CC_A_MAX_CWND | 1u << MRC_CTL_CC_A_DISABLE_QA);
	CHECK(mrc_nl_cc_param_get(&cc, MRC_CTL_CC_A_BASE_RTT, &v));
	CHECK_EQ(v, 10000000000ull);
	CHECK(mrc_nl_cc_param_get(&cc, MRC_CTL_CC_A_DISABLE_QA, &v));
	CHECK_EQ(v, 1);

	/* Too wide for the attribute: refused, nothing changed. */
	CHECK_EQ(mrc_nl_cc_param_set(&cc, MRC_CTL_CC_A_GAMMA,
				     (uint64_t)UINT32_MAX + 1), ERANGE);
	CHECK_EQ(mrc_nl_cc_param_set(&cc, MRC_CTL_CC_A_DISABLE_QA, 256),
		 ERANGE);
	CHECK_EQ(cc.disable_qa, 1);
	CHECK(!mrc_nl_cc_param_get(&cc, MRC_CTL_CC_A_GAMMA, &v));
	/* Not parameters. */
	CHECK_EQ(mrc_nl_cc_param_set(&cc, 0, 1), EINVAL);
	CHECK_EQ(mrc_nl_cc_param_set(&cc, MRC_CTL_CC_A_PAD, 1), EINVAL);
	CHECK_EQ(mrc_nl_cc_param_set(&cc, 99, 1), EINVAL);
	CHECK(!mrc_nl_cc_param_get(&cc, -1, &v));
}

/* ------------------------------------------------------------------ */
/* Answers                                                             */
/* ------------------------------------------------------------------ */

/* A device as the kernel's mrc_ctl_fill_dev() reports it. */
static void answer_full_dev(struct fake_nl_answer *a, const char *name,
			    const char *netdev, const char *preset)
{
	struct nlmsghdr *nlh = fake_nl_msg(a, MRC_CTL_CMD_DEV_GET);

	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, name);
	mnl_attr_put_strz(nlh, MRC_CTL_A_NETDEV, netdev);
	mnl_attr_put_u32(nlh, MRC_CTL_A_NUM_PLANES, 2);
	mnl_attr_put_u32(nlh, MRC_CTL_A_DEFAULT_PROFILE, 3);
	mnl_attr_put_u8(nlh, MRC_CTL_A_SINGLE_PATH, 1);
	mnl_attr_put_u8(nlh, MRC_CTL_A_DATA_DSCP, 26);
	mnl_attr_put_u8(nlh, MRC_CTL_A_CTRL_DSCP, 46);
	mnl_attr_put_u32(nlh, MRC_CTL_A_TXQ_PACKETS, 64);
	mnl_attr_put_u8(nlh, MRC_CTL_A_CC_RTT_FROM_BUILD, 1);
	mnl_attr_put_u8(nlh, MRC_CTL_A_CC_ENABLED, 0);
	mnl_attr_put_strz(nlh, MRC_CTL_A_PRESET, preset);
	fake_nl_msg_end(a, nlh);
}

static const struct nlmsghdr *last_msg(const struct fake_nl_answer *a)
{
	const struct nlmsghdr *nlh = (const void *)a->buf, *last = NULL;
	int len = (int)a->len;

	for (; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len))
		last = nlh;
	return last;
}

static void answer_dev_whole(void)
{
	char long_name[MRC_NL_NAME_MAX + 1];
	struct fake_nl_answer *a;
	struct mrc_nl_dev d;

	fake_nl_reset();
	a = fake_nl_answer(0);
	answer_full_dev(a, "mrc9", "bond0", "lab");
	CHECK_EQ(mrc_nl_decode_dev(last_msg(a), &d), 0);
	CHECK(!strcmp(d.name, "mrc9"));
	CHECK(!strcmp(d.netdev, "bond0"));
	CHECK(!strcmp(d.preset, "lab"));
	CHECK_EQ(d.num_planes, 2);
	CHECK_EQ(d.default_profile, 3);
	CHECK_EQ(d.single_path, 1);
	CHECK_EQ(d.data_dscp, 26);
	CHECK_EQ(d.ctrl_dscp, 46);
	CHECK_EQ(d.txq_packets, 64);
	CHECK_EQ(d.cc_rtt_from_build, 1);
	CHECK_EQ(d.cc_enabled, 0);
	CHECK_EQ(d.has, MRC_NL_DEV_DEFAULT_PROFILE | MRC_NL_DEV_PRESET |
		 MRC_NL_DEV_SINGLE_PATH | MRC_NL_DEV_DATA_DSCP |
		 MRC_NL_DEV_CTRL_DSCP | MRC_NL_DEV_TXQ_PACKETS |
		 MRC_NL_DEV_CC_RTT_FROM_BUILD | MRC_NL_DEV_CC_ENABLED);

	/* Names too long for their fields: refused, not cut short. */
	memset(long_name, 'n', MRC_NL_NAME_MAX);
	long_name[MRC_NL_NAME_MAX] = '\0';
	a = fake_nl_answer(0);
	answer_full_dev(a, "mrc9", long_name, "lab");
	CHECK_EQ(mrc_nl_decode_dev(last_msg(a), &d), EBADMSG);
	a = fake_nl_answer(0);
	answer_full_dev(a, long_name, "eth0", "lab");
	CHECK_EQ(mrc_nl_decode_dev(last_msg(a), &d), EBADMSG);
	long_name[MRC_NL_PRESET_MAX] = '\0';
	a = fake_nl_answer(0);
	answer_full_dev(a, "mrc9", "eth0", long_name);
	CHECK_EQ(mrc_nl_decode_dev(last_msg(a), &d), EBADMSG);
	/* One shorter fits. */
	long_name[MRC_NL_PRESET_MAX - 1] = '\0';
	a = fake_nl_answer(0);
	answer_full_dev(a, "mrc9", "eth0", long_name);
	CHECK_EQ(mrc_nl_decode_dev(last_msg(a), &d), 0);
	CHECK_EQ(strlen(d.preset), MRC_NL_PRESET_MAX - 1);
}

static void answer_dev_malformed(void)
{
	struct fake_nl_answer *a;
	struct nlmsghdr *nlh;
	struct mrc_nl_dev d;

	fake_nl_reset();
	/* A name without its NUL. */
	a = fake_nl_answer(0);
	nlh = fake_nl_msg(a, MRC_CTL_CMD_DEV_GET);
	mnl_attr_put(nlh, MRC_CTL_A_NETDEV, 4, "eth0");
	mnl_attr_put_u32(nlh, MRC_CTL_A_NUM_PLANES, 1);
	fake_nl_msg_end(a, nlh);
	CHECK_EQ(mrc_nl_decode_dev(nlh, &d), EBADMSG);
	/* TXQ_PACKETS as a u8. */
	a = fake_nl_answer(0);
	nlh = fake_nl_msg(a, MRC_CTL_CMD_DEV_GET);
	mnl_attr_put_strz(nlh, MRC_CTL_A_NETDEV, "eth0");
	mnl_attr_put_u32(nlh, MRC_CTL_A_NUM_PLANES, 1);
	mnl_attr_put_u8(nlh, MRC_CTL_A_TXQ_PACKETS, 64);
	fake_nl_msg_end(a, nlh);
	CHECK_EQ(mrc_nl_decode_dev(nlh, &d), EBADMSG);
	/* An attribute running past the message: not read (nor its value). */
	a = fake_nl_answer(0);
	nlh = fake_nl_msg(a, MRC_CTL_CMD_DEV_GET);
	mnl_attr_put_strz(nlh, MRC_CTL_A_NETDEV, "eth0");
	mnl_attr_put_u32(nlh, MRC_CTL_A_NUM_PLANES, 1);
	((struct nlattr *)((char *)nlh + nlh->nlmsg_len - 8))->nla_len = 64;
	fake_nl_msg_end(a, nlh);
	CHECK_EQ(mrc_nl_decode_dev(nlh, &d), EBADMSG);
}

/* One plane of DEV_GET's PLANES nest; @lower NULL: an empty slot. */
static void put_dev_plane(struct nlmsghdr *nlh, uint32_t index,
			  const char *lower, uint32_t ifindex, uint8_t admin)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, MRC_CTL_A_PLANE);

	mnl_attr_put_u32(nlh, MRC_CTL_PLANE_A_INDEX, index);
	mnl_attr_put_u8(nlh, MRC_CTL_PLANE_A_UP, lower && admin);
	if (lower) {
		mnl_attr_put_strz(nlh, MRC_CTL_PLANE_A_NETDEV, lower);
		mnl_attr_put_u32(nlh, MRC_CTL_PLANE_A_IFINDEX, ifindex);
		mnl_attr_put_u8(nlh, MRC_CTL_PLANE_A_ADMIN_UP, admin);
	}
	mnl_attr_nest_end(nlh, nest);
}

/* DEV_GET of a device over a bond of @num_planes, as @planes lists them. */
static struct nlmsghdr *dev_with_planes(struct fake_nl_answer *a,
					uint32_t num_planes,
					struct nlattr **list)
{
	struct nlmsghdr *nlh = fake_nl_msg(a, MRC_CTL_CMD_DEV_GET);

	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, "mrc9");
	mnl_attr_put_strz(nlh, MRC_CTL_A_NETDEV, "bond0");
	mnl_attr_put_u32(nlh, MRC_CTL_A_NUM_PLANES, num_planes);
	*list = mnl_attr_nest_start(nlh, MRC_CTL_A_PLANES);
	return nlh;
}

static int dev_planes_end(struct fake_nl_answer *a, struct nlmsghdr *nlh,
			  struct nlattr *list, struct mrc_nl_dev *d)
{
	mnl_attr_nest_end(nlh, list);
	fake_nl_msg_end(a, nlh);
	return mrc_nl_decode_dev(nlh, d);
}

static void answer_dev_planes(void)
{
	struct fake_nl_answer *a;
	struct nlattr *list;
	struct nlmsghdr *nlh;
	struct mrc_nl_dev d;

	fake_nl_reset();
	/* Three slots, the middle one's slave gone. */
	a = fake_nl_answer(0);
	nlh = dev_with_planes(a, 3, &list);
	put_dev_plane(nlh, 0, "eth1", 4, 1);
	put_dev_plane(nlh, 1, NULL, 0, 0);
	put_dev_plane(nlh, 2, "eth3", 9, 0);
	CHECK_EQ(dev_planes_end(a, nlh, list, &d), 0);
	CHECK(d.has_planes);
	CHECK_EQ(d.num_planes, 3);
	CHECK_EQ(d.num_plane_info, 3);
	CHECK(!strcmp(d.planes[0].netdev, "eth1"));
	CHECK_EQ(d.planes[0].ifindex, 4);
	CHECK(d.planes[0].up && d.planes[0].admin_up);
	CHECK(!strcmp(d.planes[1].netdev, ""));
	CHECK_EQ(d.planes[1].ifindex, 0);
	CHECK(!d.planes[1].up && !d.planes[1].admin_up);
	CHECK(!strcmp(d.planes[2].netdev, "eth3"));
	CHECK_EQ(d.planes[2].ifindex, 9);
	CHECK(!d.planes[2].up && !d.planes[2].admin_up);

	/* An empty nest: the kernel has not scanned the planes yet. */
	a = fake_nl_answer(0);
	nlh = dev_with_planes(a, 1, &list);
	CHECK_EQ(dev_planes_end(a, nlh, list, &d), 0);
	CHECK(d.has_planes);
	CHECK_EQ(d.num_plane_info, 0);

	/* No nest (an older kernel). */
	a = fake_nl_answer(0);
	answer_full_dev(a, "mrc9", "bond0", "lab");
	CHECK_EQ(mrc_nl_decode_dev(last_msg(a), &d), 0);
	CHECK(!d.has_planes);
	CHECK_EQ(d.num_plane_info, 0);
}

static void answer_dev_planes_malformed(void)
{
	char long_name[MRC_NL_NAME_MAX + 1];
	struct fake_nl_answer *a;
	struct nlattr *list, *nest;
	struct nlmsghdr *nlh;
	struct mrc_nl_dev d;
	uint32_t p;

	fake_nl_reset();
	/* Fewer planes than NUM_PLANES: the ports would not line up. */
	a = fake_nl_answer(0);
	nlh = dev_with_planes(a, 2, &list);
	put_dev_plane(nlh, 0, "eth1", 4, 1);
	CHECK_EQ(dev_planes_end(a, nlh, list, &d), EBADMSG);
	/* More. */
	a = fake_nl_answer(0);
	nlh = dev_with_planes(a, 1, &list);
	put_dev_plane(nlh, 0, "eth1", 4, 1);
	put_dev_plane(nlh, 1, "eth2", 5, 1);
	CHECK_EQ(dev_planes_end(a, nlh, list, &d), EBADMSG);
	/* Out of order. */
	a = fake_nl_answer(0);
	nlh = dev_with_planes(a, 2, &list);
	put_dev_plane(nlh, 1, "eth2", 5, 1);
	put_dev_plane(nlh, 0, "eth1", 4, 1);
	CHECK_EQ(dev_planes_end(a, nlh, list, &d), EBADMSG);
	/* Past the planes a device can have. */
	a = fake_nl_answer(0);
	nlh = dev_with_planes(a, MRC_NL_MAX_PLANES + 1, &list);
	for (p = 0; p <= MRC_NL_MAX_PLANES; p++)
		put_dev_plane(nlh, p, "eth1", 4, 1);
	CHECK_EQ(dev_planes_end(a, nlh, list, &d), EBADMSG);
	/* A plane without UP. */
	a = fake_nl_answer(0);
	nlh = dev_with_planes(a, 1, &list);
	nest = mnl_attr_nest_start(nlh, MRC_CTL_A_PLANE);
	mnl_attr_put_u32(nlh, MRC_CTL_PLANE_A_INDEX, 0);
	mnl_attr_put_strz(nlh, MRC_CTL_PLANE_A_NETDEV, "eth1");
	mnl_attr_nest_end(nlh, nest);
	CHECK_EQ(dev_planes_end(a, nlh, list, &d), EBADMSG);
	/* IFINDEX as a u8. */
	a = fake_nl_answer(0);
	nlh = dev_with_planes(a, 1, &list);
	nest = mnl_attr_nest_start(nlh, MRC_CTL_A_PLANE);
	mnl_attr_put_u32(nlh, MRC_CTL_PLANE_A_INDEX, 0);
	mnl_attr_put_u8(nlh, MRC_CTL_PLANE_A_UP, 1);
	mnl_attr_put_u8(nlh, MRC_CTL_PLANE_A_IFINDEX, 4);
	mnl_attr_nest_end(nlh, nest);
	CHECK_EQ(dev_planes_end(a, nlh, list, &d), EBADMSG);
	/* Something else than a PLANE in the list. */
	a = fake_nl_answer(0);
	nlh = dev_with_planes(a, 1, &list);
	nest = mnl_attr_nest_start(nlh, MRC_CTL_A_EV);
	mnl_attr_put_u32(nlh, MRC_CTL_PLANE_A_INDEX, 0);
	mnl_attr_put_u8(nlh, MRC_CTL_PLANE_A_UP, 1);
	mnl_attr_nest_end(nlh, nest);
	CHECK_EQ(dev_planes_end(a, nlh, list, &d), EBADMSG);
	/* A slave's name too long to hold: refused, not cut short. */
	memset(long_name, 'n', MRC_NL_NAME_MAX);
	long_name[MRC_NL_NAME_MAX] = '\0';
	a = fake_nl_answer(0);
	nlh = dev_with_planes(a, 1, &list);
	put_dev_plane(nlh, 0, long_name, 4, 1);
	CHECK_EQ(dev_planes_end(a, nlh, list, &d), EBADMSG);
	/* PLANES not a nest. */
	a = fake_nl_answer(0);
	nlh = fake_nl_msg(a, MRC_CTL_CMD_DEV_GET);
	mnl_attr_put_strz(nlh, MRC_CTL_A_NETDEV, "bond0");
	mnl_attr_put_u32(nlh, MRC_CTL_A_NUM_PLANES, 1);
	mnl_attr_put_u8(nlh, MRC_CTL_A_PLANES, 1);
	fake_nl_msg_end(a, nlh);
	CHECK_EQ(mrc_nl_decode_dev(nlh, &d), EBADMSG);
}

static struct nlmsghdr *ev_msg(struct fake_nl_answer *a, uint8_t cmd,
			       struct nlattr **nest)
{
	struct nlmsghdr *nlh = fake_nl_msg(a, cmd);

	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, "mrc9");
	mnl_attr_put_u32(nlh, MRC_CTL_A_PROFILE_ID, 2);
	if (cmd == MRC_CTL_CMD_PATH_GET) {
		static const uint8_t peer[16] = { 0xfc, 0, 0, 2 };

		mnl_attr_put_u32(nlh, MRC_CTL_A_QPN, 17);
		mnl_attr_put_u32(nlh, MRC_CTL_A_DEST_QPN, 18);
		mnl_attr_put(nlh, MRC_CTL_A_PEER, sizeof(peer), peer);
	}
	*nest = mnl_attr_nest_start(nlh, MRC_CTL_A_EV);
	mnl_attr_put_u32(nlh, MRC_CTL_EV_A_INDEX, 3);
	mnl_attr_put_u32(nlh, MRC_CTL_EV_A_PLANE, 1);
	mnl_attr_put_u8(nlh, MRC_CTL_EV_A_STATE, MRC_CTL_EV_ASSUMED_BAD);
	return nlh;
}

static void ev_msg_end(struct fake_nl_answer *a, struct nlmsghdr *nlh,
		       struct nlattr *nest)
{
	mnl_attr_nest_end(nlh, nest);
	fake_nl_msg_end(a, nlh);
}

static void answer_ev_formats(void)
{
	static const uint8_t addr[16] = { 0xfc, 0, 0, 0, 1, 0 };
	struct fake_nl_answer *a;
	struct nlattr *nest;
	struct nlmsghdr *nlh;
	struct mrc_nl_ev ev;
	uint32_t id = 0;

	fake_nl_reset();
	a = fake_nl_answer(0);
	nlh = ev_msg(a, MRC_CTL_CMD_EV_GET, &nest);
	mnl_attr_put(nlh, MRC_CTL_EV_A_SRV6, sizeof(addr), addr);
	ev_msg_end(a, nlh, nest);
	CHECK_EQ(mrc_nl_decode_ev(nlh, &id, &ev), 0);
	CHECK_EQ(id, 2);
	CHECK_EQ(ev.format, MRC_NL_FMT_SRV6);
	CHECK_EQ(ev.index, 3);
	CHECK_EQ(ev.plane, 1);
	CHECK_EQ(ev.state, MRC_NL_EV_ASSUMED_BAD);
	CHECK(!memcmp(ev.srv6, addr, 16));

	a = fake_nl_answer(0);
	nlh = ev_msg(a, MRC_CTL_CMD_EV_GET, &nest);
	mnl_attr_put_u16(nlh, MRC_CTL_EV_A_UDP_SPORT, 5000);
	ev_msg_end(a, nlh, nest);
	CHECK_EQ(mrc_nl_decode_ev(nlh, &id, &ev), 0);
	CHECK_EQ(ev.format, MRC_NL_FMT_UDP);
	CHECK_EQ(ev.udp_sport, 5000);

	/* Both values, or none: which is the EV? */
	a = fake_nl_answer(0);
	nlh = ev_msg(a, MRC_CTL_CMD_EV_GET, &nest);
	mnl_attr_put_u16(nlh, MRC_CTL_EV_A_UDP_SPORT, 5000);
	mnl_attr_put(nlh, MRC_CTL_EV_A_SRV6, sizeof(addr), addr);
	ev_msg_end(a, nlh, nest);
	CHECK_EQ(mrc_nl_decode_ev(nlh, &id, &ev), EBADMSG);
	a = fake_nl_answer(0);
	nlh = ev_msg(a, MRC_CTL_CMD_EV_GET, &nest);
	ev_msg_end(a, nlh, nest);
	CHECK_EQ(mrc_nl_decode_ev(nlh, &id, &ev), EBADMSG);
	/* An SRv6 value of 17 bytes. */
	a = fake_nl_answer(0);
	nlh = ev_msg(a, MRC_CTL_CMD_EV_GET, &nest);
	mnl_attr_put(nlh, MRC_CTL_EV_A_SRV6, 17, "0123456789abcdefg");
	ev_msg_end(a, nlh, nest);
	CHECK_EQ(mrc_nl_decode_ev(nlh, &id, &ev), EBADMSG);
}

static void answer_path_whole(void)
{
	static const uint8_t usids[6] = { 0x01, 0x00, 0x12, 0x00, 0xab, 0xcd };
	struct fake_nl_answer *a;
	struct mrc_nl_path path;
	struct nlattr *nest;
	struct nlmsghdr *nlh;

	fake_nl_reset();
	a = fake_nl_answer(0);
	nlh = ev_msg(a, MRC_CTL_CMD_PATH_GET, &nest);
	mnl_attr_put_u64(nlh, MRC_CTL_EV_A_SENT, 95);
	mnl_attr_put_u64(nlh, MRC_CTL_EV_A_ACKED, 25);
	mnl_attr_put_u64(nlh, MRC_CTL_EV_A_LOST, 1ull << 40);
	mnl_attr_put_u64(nlh, MRC_CTL_EV_A_PROBES, 4);
	mnl_attr_put_u32(nlh, MRC_CTL_EV_A_PROFILE_INDEX, 9);
	mnl_attr_put(nlh, MRC_CTL_EV_A_USIDS, sizeof(usids), usids);
	ev_msg_end(a, nlh, nest);
	CHECK_EQ(mrc_nl_decode_path(nlh, &path), 0);
	CHECK_EQ(path.qpn, 17);
	CHECK_EQ(path.dest_qpn, 18);
	CHECK(path.has_peer && path.peer[0] == 0xfc && path.peer[3] == 2);
	CHECK_EQ(path.profile_id, 2);
	CHECK_EQ(path.ev.index, 3);
	CHECK_EQ(path.ev.plane, 1);
	CHECK_EQ(path.ev.format, 0);
	CHECK(path.has_profile_index);
	CHECK_EQ(path.profile_index, 9);
	CHECK_EQ(path.num_usids, 3);
	CHECK_EQ(path.usids[0], 0x100);
	CHECK_EQ(path.usids[1], 0x1200);
	CHECK_EQ(path.usids[2], 0xabcd);
	CHECK_EQ(path.sent, 95);
	CHECK_EQ(path.acked, 25);
	CHECK_EQ(path.lost, 1ull << 40);
	CHECK_EQ(path.probes, 4);

	/* Half a uSID; more uSIDs than a container holds. */
	a = fake_nl_answer(0);
	nlh = ev_msg(a, MRC_CTL_CMD_PATH_GET, &nest);
	mnl_attr_put(nlh, MRC_CTL_EV_A_USIDS, 3, usids);
	ev_msg_end(a, nlh, nest);
	CHECK_EQ(mrc_nl_decode_path(nlh, &path), EBADMSG);
	a = fake_nl_answer(0);
	nlh = ev_msg(a, MRC_CTL_CMD_PATH_GET, &nest);
	mnl_attr_put(nlh, MRC_CTL_EV_A_USIDS, 2 * (MRC_NL_MAX_USIDS + 1),
		     "0123456789abcd");
	ev_msg_end(a, nlh, nest);
	CHECK_EQ(mrc_nl_decode_path(nlh, &path), EBADMSG);
	/* A counter as a u32. */
	a = fake_nl_answer(0);
	nlh = ev_msg(a, MRC_CTL_CMD_PATH_GET, &nest);
	mnl_attr_put_u32(nlh, MRC_CTL_EV_A_SENT, 95);
	ev_msg_end(a, nlh, nest);
	CHECK_EQ(mrc_nl_decode_path(nlh, &path), EBADMSG);
	/* A peer of 15 bytes. */
	a = fake_nl_answer(0);
	nlh = fake_nl_msg(a, MRC_CTL_CMD_PATH_GET);
	mnl_attr_put_u32(nlh, MRC_CTL_A_QPN, 17);
	mnl_attr_put_u32(nlh, MRC_CTL_A_PROFILE_ID, 0);
	mnl_attr_put(nlh, MRC_CTL_A_PEER, 15, "0123456789abcde");
	nest = mnl_attr_nest_start(nlh, MRC_CTL_A_EV);
	mnl_attr_put_u32(nlh, MRC_CTL_EV_A_INDEX, 0);
	mnl_attr_put_u8(nlh, MRC_CTL_EV_A_STATE, 1);
	ev_msg_end(a, nlh, nest);
	CHECK_EQ(mrc_nl_decode_path(nlh, &path), EBADMSG);
}

/* A PLANE_GET message; @lower NULL for an empty slot. */
static struct nlmsghdr *plane_msg(struct fake_nl_answer *a, uint32_t index,
				  const char *lower, struct nlattr **nest)
{
	struct nlmsghdr *nlh = fake_nl_msg(a, MRC_CTL_CMD_PLANE_GET);

	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, "mrc9");
	mnl_attr_put_strz(nlh, MRC_CTL_A_NETDEV, "bond0");
	*nest = mnl_attr_nest_start(nlh, MRC_CTL_A_PLANE);
	mnl_attr_put_u32(nlh, MRC_CTL_PLANE_A_INDEX, index);
	if (lower)
		mnl_attr_put_strz(nlh, MRC_CTL_PLANE_A_NETDEV, lower);
	mnl_attr_put_u8(nlh, MRC_CTL_PLANE_A_UP, 1);
	return nlh;
}

static void answer_plane_whole(void)
{
	char long_name[MRC_NL_NAME_MAX + 1];
	struct mrc_nl_plane plane;
	struct fake_nl_answer *a;
	struct nlattr *nest;
	struct nlmsghdr *nlh;

	fake_nl_reset();
	a = fake_nl_answer(0);
	nlh = plane_msg(a, 1, "pa1", &nest);
	mnl_attr_put_u64(nlh, MRC_CTL_PLANE_A_TX_PACKETS, 1ull << 33);
	mnl_attr_put_u64(nlh, MRC_CTL_PLANE_A_TX_VIA_MASTER, 7);
	ev_msg_end(a, nlh, nest);
	CHECK_EQ(mrc_nl_decode_plane(nlh, &plane), 0);
	CHECK(!strcmp(plane.dev, "mrc9") && !strcmp(plane.netdev, "bond0"));
	CHECK_EQ(plane.index, 1);
	CHECK(!strcmp(plane.lower, "pa1"));
	CHECK(plane.up);
	CHECK_EQ(plane.tx_packets, 1ull << 33);
	CHECK_EQ(plane.tx_via_master, 7);

	/* An empty slot has no netdev. */
	a = fake_nl_answer(0);
	nlh = plane_msg(a, 0, NULL, &nest);
	ev_msg_end(a, nlh, nest);
	CHECK_EQ(mrc_nl_decode_plane(nlh, &plane), 0);
	CHECK(!plane.lower[0]);
	CHECK_EQ(plane.tx_packets, 0);

	/* No nest; no index; a counter as a u32; a name too long. */
	a = fake_nl_answer(0);
	nlh = fake_nl_msg(a, MRC_CTL_CMD_PLANE_GET);
	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, "mrc9");
	fake_nl_msg_end(a, nlh);
	CHECK_EQ(mrc_nl_decode_plane(nlh, &plane), EBADMSG);
	a = fake_nl_answer(0);
	nlh = fake_nl_msg(a, MRC_CTL_CMD_PLANE_GET);
	nest = mnl_attr_nest_start(nlh, MRC_CTL_A_PLANE);
	mnl_attr_put_u8(nlh, MRC_CTL_PLANE_A_UP, 1);
	ev_msg_end(a, nlh, nest);
	CHECK_EQ(mrc_nl_decode_plane(nlh, &plane), EBADMSG);
	a = fake_nl_answer(0);
	nlh = plane_msg(a, 0, "pa0", &nest);
	mnl_attr_put_u32(nlh, MRC_CTL_PLANE_A_TX_PACKETS, 5);
	ev_msg_end(a, nlh, nest);
	CHECK_EQ(mrc_nl_decode_plane(nlh, &plane), EBADMSG);
	memset(long_name, 'p', MRC_NL_NAME_MAX);
	long_name[MRC_NL_NAME_MAX] = '\0';
	a = fake_nl_answer(0);
	nlh = plane_msg(a, 0, long_name, &nest);
	ev_msg_end(a, nlh, nest);
	CHECK_EQ(mrc_nl_decode_plane(nlh, &plane), EBADMSG);
}

static void answer_cc_names(void)
{
	struct mrc_nl_cc_state st;
	struct fake_nl_answer *a;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	char algorithm[MRC_NL_ALGORITHM_MAX + 1];
	uint64_t v;

	fake_nl_reset();
	a = fake_nl_answer(0);
	nlh = fake_nl_msg(a, MRC_CTL_CMD_CC_GET);
	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, "mrc9");
	mnl_attr_put_u8(nlh, MRC_CTL_A_CC_ENABLED, 1);
	mnl_attr_put_strz(nlh, MRC_CTL_A_CC_ALGORITHM, MRC_CTL_CC_ALGORITHM);
	nest = mnl_attr_nest_start(nlh, MRC_CTL_A_CC);
	mnl_attr_put_u64(nlh, MRC_CTL_CC_A_QA_THRESHOLD, 36000);
	mnl_attr_put_u8(nlh, MRC_CTL_CC_A_DISABLE_QA, 1);
	mnl_attr_nest_end(nlh, nest);
	fake_nl_msg_end(a, nlh);
	CHECK_EQ(mrc_nl_decode_cc(nlh, &st), 0);
	CHECK(!strcmp(st.dev, "mrc9"));
	CHECK(!strcmp(st.algorithm, MRC_CTL_CC_ALGORITHM));
	CHECK(st.enabled);
	CHECK_EQ(st.cc.has, 1u << MRC_CTL_CC_A_QA_THRESHOLD |
		 1u << MRC_CTL_CC_A_DISABLE_QA);
	CHECK(mrc_nl_cc_param_get(&st.cc, MRC_CTL_CC_A_QA_THRESHOLD, &v) &&
	      v == 36000);

	memset(algorithm, 'a', MRC_NL_ALGORITHM_MAX);
	algorithm[MRC_NL_ALGORITHM_MAX] = '\0';
	a = fake_nl_answer(0);
	nlh = fake_nl_msg(a, MRC_CTL_CMD_CC_GET);
	mnl_attr_put_u8(nlh, MRC_CTL_A_CC_ENABLED, 1);
	mnl_attr_put_strz(nlh, MRC_CTL_A_CC_ALGORITHM, algorithm);
	nest = mnl_attr_nest_start(nlh, MRC_CTL_A_CC);
	mnl_attr_nest_end(nlh, nest);
	fake_nl_msg_end(a, nlh);
	CHECK_EQ(mrc_nl_decode_cc(nlh, &st), EBADMSG);
}

/* ------------------------------------------------------------------ */
/* Calls                                                               */
/* ------------------------------------------------------------------ */

struct seen {
	int calls;
	int stop_at;		/* the call that answers ENOSPC; 0: none */
	char names[4][MRC_NL_NAME_MAX];
};

static int see_dev(const struct mrc_nl_dev *d, void *arg)
{
	struct seen *seen = arg;

	if (seen->calls < 4)
		strcpy(seen->names[seen->calls], d->name);
	return ++seen->calls == seen->stop_at ? ENOSPC : 0;
}

static int see_path(const struct mrc_nl_path *path, void *arg)
{
	struct seen *seen = arg;

	(void)path;
	seen->calls++;
	return 0;
}

static int see_plane(const struct mrc_nl_plane *plane, void *arg)
{
	struct seen *seen = arg;

	if (seen->calls < 4)
		strcpy(seen->names[seen->calls], plane->lower);
	seen->calls++;
	return 0;
}

static void calls_walk_dumps(void)
{
	static const uint8_t peer[16] = { 0xfc, 0, 0, 2 };
	struct seen seen = { 0 };
	struct fake_nl_answer *a;
	struct mrc_nl *nl;
	struct nlattr *nest;
	struct nlmsghdr *nlh;

	fake_nl_reset();
	CHECK_EQ(mrc_nl_open(&nl), 0);
	a = fake_nl_answer(0);
	answer_full_dev(a, "mrc0", "eth0", "nic");
	answer_full_dev(a, "mrc1", "eth1", "lab");
	CHECK_EQ(mrc_nl_dev_list(nl, NULL, see_dev, &seen), 0);
	CHECK_EQ(seen.calls, 2);
	CHECK(!strcmp(seen.names[0], "mrc0") && !strcmp(seen.names[1], "mrc1"));
	CHECK_EQ(sent_cmd(0), MRC_CTL_CMD_DEV_GET);
	CHECK_EQ(sent(0)->nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);

	/* The callback's errno ends the walk and is the call's. */
	seen = (struct seen){ .stop_at = 1 };
	a = fake_nl_answer(0);
	answer_full_dev(a, "mrc0", "eth0", "nic");
	answer_full_dev(a, "mrc1", "eth1", "lab");
	CHECK_EQ(mrc_nl_dev_list(nl, "mrc0", see_dev, &seen), ENOSPC);
	CHECK_EQ(seen.calls, 1);
	CHECK(!strcmp(mnl_attr_get_str(msg_attr(sent(1), MRC_CTL_A_DEV)),
		      "mrc0"));

	/* A malformed message ends it with EBADMSG. */
	seen = (struct seen){ 0 };
	a = fake_nl_answer(0);
	answer_full_dev(a, "mrc0", "eth0", "nic");
	nlh = fake_nl_msg(a, MRC_CTL_CMD_DEV_GET);
	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, "mrc1");
	fake_nl_msg_end(a, nlh);
	CHECK_EQ(mrc_nl_dev_list(nl, NULL, see_dev, &seen), EBADMSG);
	CHECK_EQ(seen.calls, 1);

	/* Paths to one peer: the peer is in the request. */
	seen = (struct seen){ 0 };
	a = fake_nl_answer(0);
	nlh = ev_msg(a, MRC_CTL_CMD_PATH_GET, &nest);
	mnl_attr_put_u16(nlh, MRC_CTL_EV_A_UDP_SPORT, 49152);
	ev_msg_end(a, nlh, nest);
	CHECK_EQ(mrc_nl_path_list(nl, "mrc0", peer, see_path, &seen), 0);
	CHECK_EQ(seen.calls, 1);
	CHECK_EQ(sent_cmd(3), MRC_CTL_CMD_PATH_GET);
	CHECK(msg_attr(sent(3), MRC_CTL_A_PEER) &&
	      !memcmp(mnl_attr_get_payload(msg_attr(sent(3), MRC_CTL_A_PEER)),
		      peer, 16));

	/* Planes: a dump naming the device, each message decoded. */
	seen = (struct seen){ 0 };
	a = fake_nl_answer(0);
	nlh = plane_msg(a, 0, "pa0", &nest);
	ev_msg_end(a, nlh, nest);
	nlh = plane_msg(a, 1, "pa1", &nest);
	ev_msg_end(a, nlh, nest);
	CHECK_EQ(mrc_nl_plane_list(nl, "mrc0", see_plane, &seen), 0);
	CHECK_EQ(seen.calls, 2);
	CHECK(!strcmp(seen.names[0], "pa0") && !strcmp(seen.names[1], "pa1"));
	CHECK_EQ(sent_cmd(4), MRC_CTL_CMD_PLANE_GET);
	CHECK_EQ(sent(4)->nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
	CHECK(!strcmp(mnl_attr_get_str(msg_attr(sent(4), MRC_CTL_A_DEV)),
		      "mrc0"));
	mrc_nl_close(nl);
}

/* The kernel's errno, and its reason, come back as they are. */
static void calls_pass_kernel_errors(void)
{
	struct mrc_nl_dev_set set = {
		.has = MRC_NL_DEV_DATA_DSCP, .data_dscp = 64,
	};
	struct fake_nl_answer *a;
	struct mrc_nl *nl;

	fake_nl_reset();
	CHECK_EQ(mrc_nl_open(&nl), 0);
	a = fake_nl_answer(ERANGE);
	a->why = "a DSCP is 0..63";
	CHECK_EQ(mrc_nl_dev_set(nl, "mrc0", &set), ERANGE);
	CHECK(!strcmp(nl->why, "a DSCP is 0..63"));
	a = fake_nl_answer(ENOENT);
	CHECK_EQ(mrc_nl_profile_del(nl, "mrc0", 3), ENOENT);
	CHECK(!nl->why[0]);
	CHECK_EQ(sent_cmd(1), MRC_CTL_CMD_PROFILE_DEL);
	CHECK_EQ(attr_uint(msg_attr(sent(1), MRC_CTL_A_PROFILE_ID), 4), 3);
	mrc_nl_close(nl);
}

/* What the kernel cannot hold, or nl->buf could not: nothing is sent. */
static void calls_refuse_oversized(void)
{
	char name[MRC_NL_NAME_MAX + 1];
	struct mrc_nl_dev_set set = { .has = MRC_NL_DEV_PRESET };
	struct mrc_nl_profile p = {
		.id = 1, .format = MRC_NL_FMT_UDP,
		.mode = MRC_NL_MODE_EXPLICIT, .num_evs = MRC_NL_MAX_EVS + 1,
	};
	struct mrc_nl_ev ev = { 0 };
	struct mrc_nl_cc_state st;
	struct mrc_nl_dev d;
	struct mrc_nl *nl;

	fake_nl_reset();
	CHECK_EQ(mrc_nl_open(&nl), 0);
	memset(name, 'm', MRC_NL_NAME_MAX);
	name[MRC_NL_NAME_MAX] = '\0';
	strcpy(nl->why, "an earlier request's reason");
	CHECK_EQ(mrc_nl_dev_get(nl, name, &d), EINVAL);
	CHECK(!nl->why[0]);
	CHECK_EQ(mrc_nl_dev_list(nl, name, see_dev, NULL), EINVAL);
	CHECK_EQ(mrc_nl_profile_del(nl, name, 1), EINVAL);
	CHECK_EQ(mrc_nl_ev_set(nl, name, 1, &ev, MRC_NL_EV_GOOD), EINVAL);
	CHECK_EQ(mrc_nl_cc_get(nl, name, &st), EINVAL);
	CHECK_EQ(mrc_nl_cc_set(nl, name, NULL, 1, false), EINVAL);
	CHECK_EQ(mrc_nl_path_list(nl, name, NULL, see_path, NULL), EINVAL);
	CHECK_EQ(mrc_nl_plane_list(nl, name, see_plane, NULL), EINVAL);
	set.preset = name + MRC_NL_NAME_MAX - MRC_NL_PRESET_MAX;
	CHECK_EQ(mrc_nl_dev_set(nl, "mrc0", &set), EINVAL);
	set.preset = NULL;
	CHECK_EQ(mrc_nl_dev_set(nl, "mrc0", &set), EINVAL);
	CHECK_EQ(mrc_nl_profile_new(nl, "mrc0", &p), EINVAL);
	p.num_evs = 1;		/* and no EVs */
	CHECK_EQ(mrc_nl_profile_new(nl, "mrc0", &p), EINVAL);
	p.mode = MRC_NL_MODE_GENERATED;
	p.num_fields = MRC_NL_MAX_FIELDS + 1;
	CHECK_EQ(mrc_nl_profile_new(nl, "mrc0", &p), EINVAL);
	CHECK_EQ(fake_nl.num_requests, 0);

	/* One shorter fits, and goes to the kernel. */
	name[MRC_NL_NAME_MAX - 1] = '\0';
	fake_nl_answer(ENODEV);
	CHECK_EQ(mrc_nl_profile_del(nl, name, 1), ENODEV);
	CHECK_EQ(fake_nl.num_requests, 1);
	mrc_nl_close(nl);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(request_dev_dump_and_set),
	KTAP_CASE(request_ev_set_by_value),
	KTAP_CASE(request_profile_kernel_defaults),
	KTAP_CASE(request_cc_reset_and_path_peer),
	KTAP_CASE(cc_params_by_number),
	KTAP_CASE(answer_dev_whole),
	KTAP_CASE(answer_dev_malformed),
	KTAP_CASE(answer_dev_planes),
	KTAP_CASE(answer_dev_planes_malformed),
	KTAP_CASE(answer_ev_formats),
	KTAP_CASE(answer_path_whole),
	KTAP_CASE(answer_plane_whole),
	KTAP_CASE(answer_cc_names),
	KTAP_CASE(calls_walk_dumps),
	KTAP_CASE(calls_pass_kernel_errors),
	KTAP_CASE(calls_refuse_oversized),
};

KTAP_MAIN("lib_mrc_nl", cases)
