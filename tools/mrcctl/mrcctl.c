// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrcctl: the path controller's command line. It programs an mrc device's
 * EV profiles, denies or allows single EVs, sets the device's spraying,
 * DSCPs and CC profile, and lists every connection's EV states, over the
 * "mrc" generic netlink family (include/uapi/rdma/mrc-ctl.h,
 * Documentation/controller.rst).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdma/mrc-ctl.h>

#define MAX_EVS		MRC_CTL_MAX_EVS
#define MAX_FIELDS	MRC_CTL_MAX_FIELDS

static const char *usage_text =
"usage:\n"
"  mrcctl dev [show [DEV]]\n"
"  mrcctl dev DEV show\n"
"  mrcctl dev DEV set [preset nic|lab] [spray on|off] [data-dscp N]\n"
"                     [ctrl-dscp N] [txq N] [cc-rtt departure|build]\n"
"  mrcctl profile add DEV ID format udp|srv6 [peer ADDR] [default]\n"
"                 [min-active N] [replace] EVS\n"
"      EVS: ev PLANE:VALUE...       explicit EVs (VALUE: a UDP source\n"
"                                   port, or an SRv6 uSID container)\n"
"           evs-from FILE|-         explicit EVs, one 'PLANE VALUE' a line\n"
"           gen [planes P,P...] field WIDTH:INIT:MIN:MAX:MASK...\n"
"  mrcctl profile del DEV ID\n"
"  mrcctl profile show DEV\n"
"  mrcctl ev show DEV ID\n"
"  mrcctl ev deny|allow DEV ID INDEX|PLANE:VALUE\n"
"  mrcctl paths DEV [peer ADDR]\n"
"  mrcctl cc DEV show|enable|disable|reset\n"
"  mrcctl cc DEV set PARAM VALUE|PARAM=VALUE...\n"
"      PARAM: base_rtt target_delay qa_threshold (ns, or with a unit:\n"
"             ns us ms s), mtu max_cwnd eta fi pi (bytes), fi_scale\n"
"             gamma max_md_jump (thousandths), qa_gate, disable_qa 0|1\n"
"             ('-' for '_' also accepted)\n";

static void usage(void)
{
	fputs(usage_text, stderr);
	exit(2);
}

static void die(const char *what)
{
	fprintf(stderr, "mrcctl: %s\n", what);
	exit(1);
}

/* ------------------------------------------------------------------ */
/* Netlink plumbing                                                    */
/* ------------------------------------------------------------------ */

struct ctl {
	struct mnl_socket *nl;
	uint16_t family;
	uint32_t portid;
	uint32_t seq;
	char buf[1 << 16];
};

static int family_id_cb(const struct nlattr *attr, void *data)
{
	if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID)
		*(uint16_t *)data = mnl_attr_get_u16(attr);
	return MNL_CB_OK;
}

static int family_msg_cb(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), family_id_cb,
			      data);
}

static struct nlmsghdr *ctl_msg(struct ctl *ctl, uint16_t type, uint8_t cmd,
				uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(ctl->buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++ctl->seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = type == GENL_ID_CTRL ? 1 : MRC_CTL_FAMILY_VERSION;
	return nlh;
}

static int extack_attr_cb(const struct nlattr *attr, void *data)
{
	if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
	    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) >= 0)
		*(const char **)data = mnl_attr_get_str(attr);
	return MNL_CB_OK;
}

/* The kernel's explanation of a refused request, if it gave one. */
static const char *extack_message(const char *buf, int len)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
	const char *msg = NULL;

	for (; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
		const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
		size_t offset = sizeof(*err);

		if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
			continue;
		if (nlh->nlmsg_type == NLMSG_DONE) {
			/* A failed dump: its errno, then the attributes. */
			mnl_attr_parse(nlh, sizeof(int), extack_attr_cb, &msg);
			continue;
		}
		if (nlh->nlmsg_type != NLMSG_ERROR)
			continue;
		/* Unless capped, the refused request is echoed first. */
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			offset += err->msg.nlmsg_len - sizeof(err->msg);
		mnl_attr_parse(nlh, offset, extack_attr_cb, &msg);
	}
	return msg;
}

/* The end of a dump carries the dump's errno (libmnl ignores it). */
static int done_cb(const struct nlmsghdr *nlh, void *data)
{
	const int *err = mnl_nlmsg_get_payload(nlh);

	(void)data;
	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(*err) && *err < 0) {
		errno = -*err;
		return MNL_CB_ERROR;
	}
	return MNL_CB_STOP;
}

/* An ACK (error 0) ends a request; an error ends it with that errno. */
static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);

	(void)data;
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*err)) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (err->error < 0) {
		errno = -err->error;
		return MNL_CB_ERROR;
	}
	return MNL_CB_STOP;
}

static int overrun_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(void)data;
	errno = ENOSPC;
	return MNL_CB_ERROR;
}

static int noop_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(void)data;
	return MNL_CB_OK;
}

/*
 * Every control message type has its handler here: mnl_cb_run2() falls
 * back to libmnl's defaults only for types past the array.
 */
static mnl_cb_t ctl_cbs[NLMSG_MIN_TYPE] = {
	[0] = noop_cb,
	[NLMSG_NOOP] = noop_cb,
	[NLMSG_ERROR] = error_cb,
	[NLMSG_DONE] = done_cb,
	[NLMSG_OVERRUN] = overrun_cb,
};

/*
 * Sends @nlh and runs @cb on every answer. Returns 0, or prints the
 * kernel's error (with its extended message) and exits.
 */
static void ctl_talk(struct ctl *ctl, struct nlmsghdr *nlh, mnl_cb_t cb,
		     void *data)
{
	uint32_t seq = nlh->nlmsg_seq;
	int len, ret;

	if (mnl_socket_sendto(ctl->nl, nlh, nlh->nlmsg_len) < 0)
		die(strerror(errno));
	do {
		len = mnl_socket_recvfrom(ctl->nl, ctl->buf, sizeof(ctl->buf));
		if (len < 0)
			die(strerror(errno));
		ret = mnl_cb_run2(ctl->buf, len, seq, ctl->portid, cb, data,
				  ctl_cbs, NLMSG_MIN_TYPE);
	} while (ret > 0);
	if (ret < 0) {
		const char *why = extack_message(ctl->buf, len);

		fprintf(stderr, "mrcctl: %s%s%s\n", strerror(errno),
			why ? ": " : "", why ? why : "");
		exit(1);
	}
}

static void ctl_open(struct ctl *ctl)
{
	struct nlmsghdr *nlh;
	int one = 1;

	ctl->nl = mnl_socket_open(NETLINK_GENERIC);
	if (!ctl->nl)
		die(strerror(errno));
	if (mnl_socket_bind(ctl->nl, 0, MNL_SOCKET_AUTOPID) < 0)
		die(strerror(errno));
	/* The kernel's extended ack says which attribute it refused. */
	mnl_socket_setsockopt(ctl->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	ctl->portid = mnl_socket_get_portid(ctl->nl);
	ctl->seq = (uint32_t)time(NULL);

	nlh = ctl_msg(ctl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, MRC_CTL_FAMILY_NAME);
	if (mnl_socket_sendto(ctl->nl, nlh, nlh->nlmsg_len) < 0)
		die(strerror(errno));
	{
		int len = mnl_socket_recvfrom(ctl->nl, ctl->buf,
					      sizeof(ctl->buf));

		if (len < 0 ||
		    mnl_cb_run(ctl->buf, len, nlh->nlmsg_seq, ctl->portid,
			       family_msg_cb, &ctl->family) < 0 ||
		    !ctl->family)
			die("the mrc module is not loaded (no \"mrc\" generic netlink family)");
	}
}

/* ------------------------------------------------------------------ */
/* Parsing the command line                                            */
/* ------------------------------------------------------------------ */

static unsigned long parse_ulong(const char *s, unsigned long max,
				 const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || v > max || *s == '-') {
		fprintf(stderr, "mrcctl: bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

struct ev_arg {
	uint32_t plane;
	uint16_t sport;
	struct in6_addr srv6;
};

/* "PLANE:VALUE" or PLANE and VALUE apart; VALUE per the format. */
static void parse_ev_value(const char *plane, const char *value, int format,
			   struct ev_arg *ev)
{
	ev->plane = parse_ulong(plane, MRC_CTL_MAX_PLANES - 1, "plane");
	if (format == MRC_CTL_EV_FMT_UDP) {
		ev->sport = parse_ulong(value, 65535, "UDP source port");
	} else if (inet_pton(AF_INET6, value, &ev->srv6) != 1) {
		fprintf(stderr, "mrcctl: bad SRv6 address '%s'\n", value);
		exit(2);
	}
}

static void parse_ev(const char *arg, int format, struct ev_arg *ev)
{
	char plane[16];
	const char *colon = strchr(arg, ':');

	if (!colon || colon - arg >= (long)sizeof(plane)) {
		fprintf(stderr, "mrcctl: '%s' is not PLANE:VALUE\n", arg);
		exit(2);
	}
	memcpy(plane, arg, colon - arg);
	plane[colon - arg] = 0;
	parse_ev_value(plane, colon + 1, format, ev);
}

static void put_ev(struct nlmsghdr *nlh, int format, const struct ev_arg *ev)
{
	mnl_attr_put_u32(nlh, MRC_CTL_EV_A_PLANE, ev->plane);
	if (format == MRC_CTL_EV_FMT_UDP)
		mnl_attr_put_u16(nlh, MRC_CTL_EV_A_UDP_SPORT, ev->sport);
	else
		mnl_attr_put(nlh, MRC_CTL_EV_A_SRV6, sizeof(ev->srv6),
			     &ev->srv6);
}

/* Lines of "PLANE VALUE [anything]"; '#' starts a comment. */
static int read_evs(const char *path, int format, struct ev_arg *evs)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char line[512], plane[64], value[128];
	int n = 0;

	if (!f) {
		fprintf(stderr, "mrcctl: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	while (fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#');

		if (hash)
			*hash = 0;
		if (sscanf(line, "%63s %127s", plane, value) != 2)
			continue;
		if (n == MAX_EVS)
			die("more than 1024 EVs");
		parse_ev_value(plane, value, format, &evs[n++]);
	}
	if (f != stdin)
		fclose(f);
	return n;
}

static void put_field(struct nlmsghdr *nlh, const char *arg)
{
	unsigned long v[5];
	char copy[128], *tok, *save = NULL;
	struct nlattr *nest;
	int i = 0;

	snprintf(copy, sizeof(copy), "%s", arg);
	for (tok = strtok_r(copy, ":", &save); tok && i < 5;
	     tok = strtok_r(NULL, ":", &save))
		v[i++] = parse_ulong(tok, UINT32_MAX, "field value");
	if (i != 5 || tok) {
		fprintf(stderr, "mrcctl: field '%s' is not WIDTH:INIT:MIN:MAX:MASK\n",
			arg);
		exit(2);
	}
	nest = mnl_attr_nest_start(nlh, MRC_CTL_A_FIELD);
	mnl_attr_put_u32(nlh, MRC_CTL_FIELD_A_WIDTH, v[0]);
	mnl_attr_put_u32(nlh, MRC_CTL_FIELD_A_INIT, v[1]);
	mnl_attr_put_u32(nlh, MRC_CTL_FIELD_A_MIN_VAL, v[2]);
	mnl_attr_put_u32(nlh, MRC_CTL_FIELD_A_MAX_VAL, v[3]);
	mnl_attr_put_u32(nlh, MRC_CTL_FIELD_A_MASK, v[4]);
	mnl_attr_nest_end(nlh, nest);
}

static uint32_t parse_planes(const char *arg)
{
	char copy[128], *tok, *save = NULL;
	uint32_t mask = 0;

	snprintf(copy, sizeof(copy), "%s", arg);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		mask |= 1u << parse_ulong(tok, MRC_CTL_MAX_PLANES - 1, "plane");
	return mask;
}

static int parse_format(const char *s)
{
	if (!strcmp(s, "udp"))
		return MRC_CTL_EV_FMT_UDP;
	if (!strcmp(s, "srv6"))
		return MRC_CTL_EV_FMT_SRV6;
	fprintf(stderr, "mrcctl: format is udp or srv6, not '%s'\n", s);
	exit(2);
}

static void put_peer(struct nlmsghdr *nlh, const char *s)
{
	struct in6_addr a6;
	struct in_addr a4;

	if (inet_pton(AF_INET, s, &a4) == 1) {
		/* IPv4 peers are stored IPv4-mapped, as GIDs hold them. */
		memset(&a6, 0, sizeof(a6));
		a6.s6_addr[10] = 0xff;
		a6.s6_addr[11] = 0xff;
		memcpy(&a6.s6_addr[12], &a4, 4);
	} else if (inet_pton(AF_INET6, s, &a6) != 1) {
		fprintf(stderr, "mrcctl: bad peer address '%s'\n", s);
		exit(2);
	}
	mnl_attr_put(nlh, MRC_CTL_A_PEER, sizeof(a6), &a6);
}

/* ------------------------------------------------------------------ */
/* Printing answers                                                    */
/* ------------------------------------------------------------------ */

static int collect_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (type <= MRC_CTL_A_MAX)
		tb[type] = attr;
	return MNL_CB_OK;
}

static int collect_ev_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (type <= MRC_CTL_EV_A_MAX)
		tb[type] = attr;
	return MNL_CB_OK;
}

static const char *format_name(int format)
{
	return format == MRC_CTL_EV_FMT_UDP ? "udp" :
	       format == MRC_CTL_EV_FMT_SRV6 ? "srv6" : "?";
}

static void print_addr(const struct nlattr *attr)
{
	char text[INET6_ADDRSTRLEN];
	const uint8_t *a = mnl_attr_get_payload(attr);
	static const uint8_t v4mapped[12] = { [10] = 0xff, [11] = 0xff };

	if (!memcmp(a, v4mapped, sizeof(v4mapped)))
		inet_ntop(AF_INET, a + 12, text, sizeof(text));
	else
		inet_ntop(AF_INET6, a, text, sizeof(text));
	fputs(text, stdout);
}

static int dev_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_CTL_A_MAX + 1] = { 0 };

	(void)data;
	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), collect_cb, tb);
	if (!tb[MRC_CTL_A_DEV])
		return MNL_CB_OK;
	printf("%s", mnl_attr_get_str(tb[MRC_CTL_A_DEV]));
	if (tb[MRC_CTL_A_NETDEV])
		printf(" netdev %s", mnl_attr_get_str(tb[MRC_CTL_A_NETDEV]));
	if (tb[MRC_CTL_A_NUM_PLANES])
		printf(" planes %u", mnl_attr_get_u32(tb[MRC_CTL_A_NUM_PLANES]));
	if (tb[MRC_CTL_A_DEFAULT_PROFILE])
		printf(" default-profile %u",
		       mnl_attr_get_u32(tb[MRC_CTL_A_DEFAULT_PROFILE]));
	if (tb[MRC_CTL_A_PRESET])
		printf(" preset %s", mnl_attr_get_str(tb[MRC_CTL_A_PRESET]));
	if (tb[MRC_CTL_A_SINGLE_PATH])
		printf(" spray %s",
		       mnl_attr_get_u8(tb[MRC_CTL_A_SINGLE_PATH]) ? "off" : "on");
	if (tb[MRC_CTL_A_DATA_DSCP])
		printf(" data-dscp %u", mnl_attr_get_u8(tb[MRC_CTL_A_DATA_DSCP]));
	if (tb[MRC_CTL_A_CTRL_DSCP])
		printf(" ctrl-dscp %u", mnl_attr_get_u8(tb[MRC_CTL_A_CTRL_DSCP]));
	if (tb[MRC_CTL_A_TXQ_PACKETS])
		printf(" txq %u", mnl_attr_get_u32(tb[MRC_CTL_A_TXQ_PACKETS]));
	if (tb[MRC_CTL_A_CC_RTT_FROM_BUILD])
		printf(" cc-rtt %s",
		       mnl_attr_get_u8(tb[MRC_CTL_A_CC_RTT_FROM_BUILD]) ?
		       "build" : "departure");
	if (tb[MRC_CTL_A_CC_ENABLED])
		printf(" cc %s",
		       mnl_attr_get_u8(tb[MRC_CTL_A_CC_ENABLED]) ? "on" : "off");
	putchar('\n');
	return MNL_CB_OK;
}

static int profile_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_CTL_A_MAX + 1] = { 0 };
	const struct nlattr *field;

	(void)data;
	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), collect_cb, tb);
	if (!tb[MRC_CTL_A_PROFILE_ID])
		return MNL_CB_OK;
	printf("profile %u format %s mode %s evs %u min-active %u",
	       mnl_attr_get_u32(tb[MRC_CTL_A_PROFILE_ID]),
	       tb[MRC_CTL_A_FORMAT] ?
	       format_name(mnl_attr_get_u8(tb[MRC_CTL_A_FORMAT])) : "?",
	       tb[MRC_CTL_A_MODE] &&
	       mnl_attr_get_u8(tb[MRC_CTL_A_MODE]) ==
	       MRC_CTL_EV_MODE_GENERATED ? "generated" : "explicit",
	       tb[MRC_CTL_A_NUM_EVS] ?
	       mnl_attr_get_u32(tb[MRC_CTL_A_NUM_EVS]) : 0,
	       tb[MRC_CTL_A_MIN_ACTIVE] ?
	       mnl_attr_get_u32(tb[MRC_CTL_A_MIN_ACTIVE]) : 0);
	if (tb[MRC_CTL_A_PEER]) {
		fputs(" peer ", stdout);
		print_addr(tb[MRC_CTL_A_PEER]);
	}
	if (tb[MRC_CTL_A_DEFAULT])
		fputs(" default", stdout);
	if (tb[MRC_CTL_A_PLANE_MASK])
		printf(" plane-mask 0x%x",
		       mnl_attr_get_u32(tb[MRC_CTL_A_PLANE_MASK]));
	if (tb[MRC_CTL_A_FIELDS]) {
		mnl_attr_for_each_nested(field, tb[MRC_CTL_A_FIELDS]) {
			const struct nlattr *f[MRC_CTL_FIELD_A_MAX + 1] = { 0 };
			const struct nlattr *a;

			mnl_attr_for_each_nested(a, field)
				if (mnl_attr_get_type(a) <= MRC_CTL_FIELD_A_MAX)
					f[mnl_attr_get_type(a)] = a;
			printf(" field %u:0x%x:%u:%u:0x%x",
			       f[1] ? mnl_attr_get_u32(f[1]) : 0,
			       f[2] ? mnl_attr_get_u32(f[2]) : 0,
			       f[3] ? mnl_attr_get_u32(f[3]) : 0,
			       f[4] ? mnl_attr_get_u32(f[4]) : 0,
			       f[5] ? mnl_attr_get_u32(f[5]) : 0);
		}
	}
	putchar('\n');
	return MNL_CB_OK;
}

static const char *state_name(int state)
{
	switch (state) {
	case MRC_CTL_EV_GOOD:
		return "GOOD";
	case MRC_CTL_EV_ASSUMED_BAD:
		return "ASSUMED_BAD";
	case MRC_CTL_EV_DENIED:
		return "DENIED";
	default:
		return "UNKNOWN";
	}
}

static int ev_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_CTL_A_MAX + 1] = { 0 };
	const struct nlattr *ev[MRC_CTL_EV_A_MAX + 1] = { 0 };

	(void)data;
	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), collect_cb, tb);
	if (!tb[MRC_CTL_A_EV])
		return MNL_CB_OK;
	mnl_attr_parse_nested(tb[MRC_CTL_A_EV], collect_ev_cb, ev);
	printf("%u plane %u ",
	       ev[MRC_CTL_EV_A_INDEX] ?
	       mnl_attr_get_u32(ev[MRC_CTL_EV_A_INDEX]) : 0,
	       ev[MRC_CTL_EV_A_PLANE] ?
	       mnl_attr_get_u32(ev[MRC_CTL_EV_A_PLANE]) : 0);
	if (ev[MRC_CTL_EV_A_UDP_SPORT])
		printf("%u", mnl_attr_get_u16(ev[MRC_CTL_EV_A_UDP_SPORT]));
	else if (ev[MRC_CTL_EV_A_SRV6])
		print_addr(ev[MRC_CTL_EV_A_SRV6]);
	printf(" %s\n", ev[MRC_CTL_EV_A_STATE] ?
	       state_name(mnl_attr_get_u8(ev[MRC_CTL_EV_A_STATE])) :
	       "UNKNOWN");
	return MNL_CB_OK;
}

struct paths_print {
	uint32_t last_qpn;
	bool any;
};

static uint64_t u64_or_zero(const struct nlattr *attr)
{
	return attr ? mnl_attr_get_u64(attr) : 0;
}

/* A QP line when the QP changes, then one line per EV. */
static int path_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_CTL_A_MAX + 1] = { 0 };
	const struct nlattr *ev[MRC_CTL_EV_A_MAX + 1] = { 0 };
	struct paths_print *pp = data;
	uint32_t qpn;

	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), collect_cb, tb);
	if (!tb[MRC_CTL_A_QPN] || !tb[MRC_CTL_A_EV])
		return MNL_CB_OK;
	qpn = mnl_attr_get_u32(tb[MRC_CTL_A_QPN]);
	if (!pp->any || qpn != pp->last_qpn) {
		printf("qp %u dest-qp %u", qpn,
		       tb[MRC_CTL_A_DEST_QPN] ?
		       mnl_attr_get_u32(tb[MRC_CTL_A_DEST_QPN]) : 0);
		if (tb[MRC_CTL_A_PEER]) {
			fputs(" peer ", stdout);
			print_addr(tb[MRC_CTL_A_PEER]);
		}
		printf(" profile %u\n", tb[MRC_CTL_A_PROFILE_ID] ?
		       mnl_attr_get_u32(tb[MRC_CTL_A_PROFILE_ID]) : 0);
		pp->last_qpn = qpn;
		pp->any = true;
	}
	mnl_attr_parse_nested(tb[MRC_CTL_A_EV], collect_ev_cb, ev);
	printf("  ev %u plane %u",
	       ev[MRC_CTL_EV_A_INDEX] ?
	       mnl_attr_get_u32(ev[MRC_CTL_EV_A_INDEX]) : 0,
	       ev[MRC_CTL_EV_A_PLANE] ?
	       mnl_attr_get_u32(ev[MRC_CTL_EV_A_PLANE]) : 0);
	if (ev[MRC_CTL_EV_A_UDP_SPORT]) {
		printf(" udp %u", mnl_attr_get_u16(ev[MRC_CTL_EV_A_UDP_SPORT]));
	} else if (ev[MRC_CTL_EV_A_USIDS]) {
		const uint8_t *u = mnl_attr_get_payload(ev[MRC_CTL_EV_A_USIDS]);
		unsigned int k, n = mnl_attr_get_payload_len(ev[MRC_CTL_EV_A_USIDS]) / 2;

		for (k = 0; k < n; k++)
			printf("%s%x", k ? "," : " usids ",
			       (unsigned int)(u[2 * k] << 8 | u[2 * k + 1]));
	}
	if (ev[MRC_CTL_EV_A_PROFILE_INDEX])
		printf(" profile-ev %u",
		       mnl_attr_get_u32(ev[MRC_CTL_EV_A_PROFILE_INDEX]));
	printf(" state %s sent %" PRIu64 " acked %" PRIu64 " lost %" PRIu64
	       " probes %" PRIu64 "\n",
	       ev[MRC_CTL_EV_A_STATE] ?
	       state_name(mnl_attr_get_u8(ev[MRC_CTL_EV_A_STATE])) : "UNKNOWN",
	       u64_or_zero(ev[MRC_CTL_EV_A_SENT]),
	       u64_or_zero(ev[MRC_CTL_EV_A_ACKED]),
	       u64_or_zero(ev[MRC_CTL_EV_A_LOST]),
	       u64_or_zero(ev[MRC_CTL_EV_A_PROBES]));
	return MNL_CB_OK;
}

/* The CC parameters by name, in the order they are shown. */
enum cc_kind { CC_TIME, CC_U32, CC_BOOL };

static const struct cc_param {
	const char *name;
	int attr;
	enum cc_kind kind;
} cc_params[] = {
	{ "base_rtt", MRC_CTL_CC_A_BASE_RTT, CC_TIME },
	{ "target_delay", MRC_CTL_CC_A_TARGET_DELAY, CC_TIME },
	{ "qa_threshold", MRC_CTL_CC_A_QA_THRESHOLD, CC_TIME },
	{ "mtu", MRC_CTL_CC_A_MTU, CC_U32 },
	{ "max_cwnd", MRC_CTL_CC_A_MAX_CWND, CC_U32 },
	{ "eta", MRC_CTL_CC_A_ETA, CC_U32 },
	{ "fi", MRC_CTL_CC_A_FI, CC_U32 },
	{ "fi_scale", MRC_CTL_CC_A_FI_SCALE, CC_U32 },
	{ "pi", MRC_CTL_CC_A_PI, CC_U32 },
	{ "gamma", MRC_CTL_CC_A_GAMMA, CC_U32 },
	{ "max_md_jump", MRC_CTL_CC_A_MAX_MD_JUMP, CC_U32 },
	{ "qa_gate", MRC_CTL_CC_A_QA_GATE, CC_U32 },
	{ "disable_qa", MRC_CTL_CC_A_DISABLE_QA, CC_BOOL },
};

#define N_CC_PARAMS (sizeof(cc_params) / sizeof(cc_params[0]))

static int collect_cc_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (type <= MRC_CTL_CC_A_MAX)
		tb[type] = attr;
	return MNL_CB_OK;
}

/* "DEV cc on|off algorithm A name=value...": set's own syntax. */
static int cc_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_CTL_A_MAX + 1] = { 0 };
	const struct nlattr *cc[MRC_CTL_CC_A_MAX + 1] = { 0 };
	size_t i;

	(void)data;
	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), collect_cb, tb);
	if (!tb[MRC_CTL_A_CC])
		return MNL_CB_OK;
	mnl_attr_parse_nested(tb[MRC_CTL_A_CC], collect_cc_cb, cc);
	printf("%s cc %s algorithm %s",
	       tb[MRC_CTL_A_DEV] ? mnl_attr_get_str(tb[MRC_CTL_A_DEV]) : "?",
	       tb[MRC_CTL_A_CC_ENABLED] &&
	       mnl_attr_get_u8(tb[MRC_CTL_A_CC_ENABLED]) ? "on" : "off",
	       tb[MRC_CTL_A_CC_ALGORITHM] ?
	       mnl_attr_get_str(tb[MRC_CTL_A_CC_ALGORITHM]) : "?");
	for (i = 0; i < N_CC_PARAMS; i++) {
		const struct nlattr *a = cc[cc_params[i].attr];

		if (!a)
			continue;
		if (cc_params[i].kind == CC_TIME)
			printf(" %s=%" PRIu64, cc_params[i].name,
			       mnl_attr_get_u64(a));
		else if (cc_params[i].kind == CC_U32)
			printf(" %s=%u", cc_params[i].name, mnl_attr_get_u32(a));
		else
			printf(" %s=%u", cc_params[i].name, mnl_attr_get_u8(a));
	}
	putchar('\n');
	return MNL_CB_OK;
}

/* ------------------------------------------------------------------ */
/* Commands                                                            */
/* ------------------------------------------------------------------ */

static bool parse_on_off(const char *s, const char *what)
{
	if (!strcmp(s, "on"))
		return true;
	if (!strcmp(s, "off"))
		return false;
	fprintf(stderr, "mrcctl: %s is on or off, not '%s'\n", what, s);
	exit(2);
}

/* cc-rtt: where NSCC's RTT samples start; true for "build". */
static bool parse_rtt_start(const char *s)
{
	if (!strcmp(s, "build"))
		return true;
	if (!strcmp(s, "departure"))
		return false;
	fprintf(stderr, "mrcctl: cc-rtt is departure or build, not '%s'\n",
		s);
	exit(2);
}

static void dev_show(struct ctl *ctl, const char *dev)
{
	struct nlmsghdr *nlh;

	nlh = ctl_msg(ctl, ctl->family, MRC_CTL_CMD_DEV_GET,
		      dev ? NLM_F_ACK : NLM_F_DUMP);
	if (dev)
		mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, dev);
	ctl_talk(ctl, nlh, dev_cb, NULL);
}

/*
 * "set" followed by settings: preset NAME, spray on|off, data-dscp N,
 * ctrl-dscp N, txq N, cc-rtt departure|build. The kernel checks the preset
 * name and the DSCP and txq ranges, so that its error is the one reported.
 */
static void dev_set(struct ctl *ctl, const char *dev, int argc, char **argv)
{
	struct nlmsghdr *nlh;
	int i;

	if (!argc)
		usage();
	nlh = ctl_msg(ctl, ctl->family, MRC_CTL_CMD_DEV_SET, NLM_F_ACK);
	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, dev);
	for (i = 0; i < argc; i += 2) {
		const char *key = argv[i];

		if (i + 1 == argc) {
			fprintf(stderr, "mrcctl: '%s' needs a value\n", key);
			usage();
		}
		if (!strcmp(key, "preset"))
			mnl_attr_put_strz(nlh, MRC_CTL_A_PRESET, argv[i + 1]);
		else if (!strcmp(key, "spray"))
			mnl_attr_put_u8(nlh, MRC_CTL_A_SINGLE_PATH,
					!parse_on_off(argv[i + 1], "spray"));
		else if (!strcmp(key, "data-dscp"))
			mnl_attr_put_u8(nlh, MRC_CTL_A_DATA_DSCP,
					parse_ulong(argv[i + 1], 255, "DSCP"));
		else if (!strcmp(key, "ctrl-dscp"))
			mnl_attr_put_u8(nlh, MRC_CTL_A_CTRL_DSCP,
					parse_ulong(argv[i + 1], 255, "DSCP"));
		else if (!strcmp(key, "txq"))
			mnl_attr_put_u32(nlh, MRC_CTL_A_TXQ_PACKETS,
					 parse_ulong(argv[i + 1], UINT32_MAX,
						     "packets"));
		else if (!strcmp(key, "cc-rtt"))
			mnl_attr_put_u8(nlh, MRC_CTL_A_CC_RTT_FROM_BUILD,
					parse_rtt_start(argv[i + 1]));
		else {
			fprintf(stderr, "mrcctl: no device setting '%s'\n",
				key);
			usage();
		}
	}
	ctl_talk(ctl, nlh, NULL, NULL);
}

/*
 * dev [show [DEV]] | dev DEV show | dev DEV set ... | dev set DEV ...
 * (a device named "show" or "set" is only reachable the first way).
 */
static int cmd_dev(struct ctl *ctl, int argc, char **argv)
{
	if (!argc) {
		dev_show(ctl, NULL);
	} else if (!strcmp(argv[0], "show")) {
		if (argc > 2)
			usage();
		dev_show(ctl, argc == 2 ? argv[1] : NULL);
	} else if (!strcmp(argv[0], "set")) {
		if (argc < 2)
			usage();
		dev_set(ctl, argv[1], argc - 2, argv + 2);
	} else if (argc == 2 && !strcmp(argv[1], "show")) {
		dev_show(ctl, argv[0]);
	} else if (argc >= 2 && !strcmp(argv[1], "set")) {
		dev_set(ctl, argv[0], argc - 2, argv + 2);
	} else {
		usage();
	}
	return 0;
}

static int profile_add(struct ctl *ctl, int argc, char **argv)
{
	static struct ev_arg evs[MAX_EVS];
	const char *peer = NULL, *planes = NULL;
	const char *fields[MAX_FIELDS];
	int format = 0, nevs = 0, nfields = 0, i;
	bool is_default = false, replace = false, gen = false;
	long min_active = -1;
	struct nlmsghdr *nlh;
	struct nlattr *list;
	uint32_t id;

	if (argc < 2)
		usage();
	id = parse_ulong(argv[1], MRC_CTL_PROFILE_ID_MAX, "profile id");
	for (i = 2; i < argc; i++) {
		const char *arg = argv[i], *next = i + 1 < argc ? argv[i + 1] :
									NULL;

		if (!strcmp(arg, "format") && next) {
			format = parse_format(next);
			i++;
		} else if (!strcmp(arg, "peer") && next) {
			peer = next;
			i++;
		} else if (!strcmp(arg, "min-active") && next) {
			min_active = parse_ulong(next, MAX_EVS, "min-active");
			i++;
		} else if (!strcmp(arg, "default")) {
			is_default = true;
		} else if (!strcmp(arg, "replace")) {
			replace = true;
		} else if (!strcmp(arg, "ev") && next && format) {
			for (i++; i < argc && strchr(argv[i], ':') &&
			     strcmp(argv[i], "gen"); i++) {
				if (nevs == MAX_EVS)
					die("more than 1024 EVs");
				parse_ev(argv[i], format, &evs[nevs++]);
			}
			i--;
		} else if (!strcmp(arg, "evs-from") && next && format) {
			nevs = read_evs(next, format, evs);
			i++;
		} else if (!strcmp(arg, "gen")) {
			gen = true;
		} else if (!strcmp(arg, "planes") && next && gen) {
			planes = next;
			i++;
		} else if (!strcmp(arg, "field") && next && gen) {
			if (nfields == MAX_FIELDS)
				die("at most 8 fields");
			fields[nfields++] = next;
			i++;
		} else {
			fprintf(stderr, "mrcctl: unexpected '%s' (format comes before EVs)\n",
				arg);
			usage();
		}
	}
	if (!format || (gen ? !nfields : !nevs))
		usage();

	nlh = ctl_msg(ctl, ctl->family, MRC_CTL_CMD_PROFILE_NEW, NLM_F_ACK);
	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, argv[0]);
	mnl_attr_put_u32(nlh, MRC_CTL_A_PROFILE_ID, id);
	mnl_attr_put_u8(nlh, MRC_CTL_A_FORMAT, format);
	mnl_attr_put_u8(nlh, MRC_CTL_A_MODE, gen ? MRC_CTL_EV_MODE_GENERATED :
					      MRC_CTL_EV_MODE_EXPLICIT);
	if (min_active >= 0)
		mnl_attr_put_u32(nlh, MRC_CTL_A_MIN_ACTIVE, min_active);
	if (peer)
		put_peer(nlh, peer);
	if (is_default)
		mnl_attr_put(nlh, MRC_CTL_A_DEFAULT, 0, NULL);
	if (replace)
		mnl_attr_put(nlh, MRC_CTL_A_REPLACE, 0, NULL);
	if (gen) {
		if (planes)
			mnl_attr_put_u32(nlh, MRC_CTL_A_PLANE_MASK,
					 parse_planes(planes));
		list = mnl_attr_nest_start(nlh, MRC_CTL_A_FIELDS);
		for (i = 0; i < nfields; i++)
			put_field(nlh, fields[i]);
		mnl_attr_nest_end(nlh, list);
	} else {
		list = mnl_attr_nest_start(nlh, MRC_CTL_A_EVS);
		for (i = 0; i < nevs; i++) {
			struct nlattr *nest = mnl_attr_nest_start(nlh,
								  MRC_CTL_A_EV);

			put_ev(nlh, format, &evs[i]);
			mnl_attr_nest_end(nlh, nest);
		}
		mnl_attr_nest_end(nlh, list);
	}
	ctl_talk(ctl, nlh, NULL, NULL);
	return 0;
}

static int cmd_profile(struct ctl *ctl, int argc, char **argv)
{
	struct nlmsghdr *nlh;

	if (argc < 2)
		usage();
	if (!strcmp(argv[0], "add"))
		return profile_add(ctl, argc - 1, argv + 1);
	if (!strcmp(argv[0], "del") && argc == 3) {
		nlh = ctl_msg(ctl, ctl->family, MRC_CTL_CMD_PROFILE_DEL,
			      NLM_F_ACK);
		mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, argv[1]);
		mnl_attr_put_u32(nlh, MRC_CTL_A_PROFILE_ID,
				 parse_ulong(argv[2], MRC_CTL_PROFILE_ID_MAX,
					     "profile id"));
		ctl_talk(ctl, nlh, NULL, NULL);
		return 0;
	}
	if (!strcmp(argv[0], "show") && argc == 2) {
		nlh = ctl_msg(ctl, ctl->family, MRC_CTL_CMD_PROFILE_GET,
			      NLM_F_DUMP);
		mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, argv[1]);
		ctl_talk(ctl, nlh, profile_cb, NULL);
		return 0;
	}
	usage();
	return 2;
}

static int cmd_ev(struct ctl *ctl, int argc, char **argv)
{
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	uint32_t id;
	bool deny;

	if (argc < 3)
		usage();
	id = parse_ulong(argv[2], MRC_CTL_PROFILE_ID_MAX, "profile id");
	if (!strcmp(argv[0], "show") && argc == 3) {
		nlh = ctl_msg(ctl, ctl->family, MRC_CTL_CMD_EV_GET, NLM_F_DUMP);
		mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, argv[1]);
		mnl_attr_put_u32(nlh, MRC_CTL_A_PROFILE_ID, id);
		ctl_talk(ctl, nlh, ev_cb, NULL);
		return 0;
	}
	deny = !strcmp(argv[0], "deny");
	if ((!deny && strcmp(argv[0], "allow")) || argc != 4)
		usage();

	nlh = ctl_msg(ctl, ctl->family, MRC_CTL_CMD_EV_SET, NLM_F_ACK);
	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, argv[1]);
	mnl_attr_put_u32(nlh, MRC_CTL_A_PROFILE_ID, id);
	nest = mnl_attr_nest_start(nlh, MRC_CTL_A_EV);
	if (strchr(argv[3], ':')) {
		/* By value: the kernel reads it in the profile's format. */
		struct ev_arg ev;
		struct in6_addr probe;
		const char *value = strchr(argv[3], ':') + 1;
		int format = inet_pton(AF_INET6, value, &probe) == 1 ?
			     MRC_CTL_EV_FMT_SRV6 : MRC_CTL_EV_FMT_UDP;

		parse_ev(argv[3], format, &ev);
		put_ev(nlh, format, &ev);
	} else {
		mnl_attr_put_u32(nlh, MRC_CTL_EV_A_INDEX,
				 parse_ulong(argv[3], MAX_EVS - 1, "EV index"));
	}
	mnl_attr_put_u8(nlh, MRC_CTL_EV_A_STATE,
			deny ? MRC_CTL_EV_DENIED : MRC_CTL_EV_GOOD);
	mnl_attr_nest_end(nlh, nest);
	ctl_talk(ctl, nlh, NULL, NULL);
	return 0;
}

static int cmd_paths(struct ctl *ctl, int argc, char **argv)
{
	struct paths_print pp = { 0 };
	struct nlmsghdr *nlh;

	if (argc != 1 && !(argc == 3 && !strcmp(argv[1], "peer")))
		usage();
	nlh = ctl_msg(ctl, ctl->family, MRC_CTL_CMD_PATH_GET, NLM_F_DUMP);
	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, argv[0]);
	if (argc == 3)
		put_peer(nlh, argv[2]);
	ctl_talk(ctl, nlh, path_cb, &pp);
	return 0;
}

/* Nanoseconds, from a number with an optional unit: ns, us, ms, s. */
static uint64_t parse_time_ns(const char *s, const char *what)
{
	static const struct { const char *unit; uint64_t ns; } units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000 },
	};
	unsigned long long v;
	char *end;
	size_t i;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (!errno && end != s && *s != '-') {
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strcmp(end, units[i].unit) &&
			    v <= UINT64_MAX / units[i].ns)
				return v * units[i].ns;
	}
	fprintf(stderr, "mrcctl: bad %s '%s' (a time: N[ns|us|ms|s])\n", what,
		s);
	exit(2);
}

static const struct cc_param *find_cc_param(const char *name, size_t len)
{
	char canon[32];
	size_t i;

	if (len >= sizeof(canon))
		return NULL;
	for (i = 0; i < len; i++)
		canon[i] = name[i] == '-' ? '_' : name[i];
	canon[len] = 0;
	for (i = 0; i < N_CC_PARAMS; i++)
		if (!strcmp(canon, cc_params[i].name))
			return &cc_params[i];
	return NULL;
}

/* PARAM VALUE or PARAM=VALUE pairs into a CC nest. */
static void put_cc_params(struct nlmsghdr *nlh, int argc, char **argv)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, MRC_CTL_A_CC);
	int i;

	for (i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		size_t len = eq ? (size_t)(eq - argv[i]) : strlen(argv[i]);
		const struct cc_param *param = find_cc_param(argv[i], len);
		const char *value = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;

		if (!param) {
			fprintf(stderr, "mrcctl: no CC parameter '%.*s'\n",
				(int)len, argv[i]);
			usage();
		}
		if (!value) {
			fprintf(stderr, "mrcctl: %s needs a value\n", param->name);
			usage();
		}
		if (param->kind == CC_TIME)
			mnl_attr_put_u64(nlh, param->attr,
					 parse_time_ns(value, param->name));
		else if (param->kind == CC_U32)
			mnl_attr_put_u32(nlh, param->attr,
					 parse_ulong(value, UINT32_MAX,
						     param->name));
		else
			mnl_attr_put_u8(nlh, param->attr,
					parse_ulong(value, 255, param->name));
	}
	mnl_attr_nest_end(nlh, nest);
}

/* cc DEV show|enable|disable|reset|set ...; also cc show|... DEV. */
static int cmd_cc(struct ctl *ctl, int argc, char **argv)
{
	static const char *const verbs[] = {
		"show", "enable", "disable", "reset", "set",
	};
	const char *dev, *verb;
	struct nlmsghdr *nlh;
	size_t i;

	if (argc < 2)
		usage();
	dev = argv[0];
	verb = argv[1];
	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (!strcmp(argv[0], verbs[i])) {
			dev = argv[1];
			verb = argv[0];
		}
	argc -= 2;
	argv += 2;

	if (!strcmp(verb, "show") && !argc) {
		nlh = ctl_msg(ctl, ctl->family, MRC_CTL_CMD_CC_GET, NLM_F_ACK);
		mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, dev);
		ctl_talk(ctl, nlh, cc_cb, NULL);
		return 0;
	}
	nlh = ctl_msg(ctl, ctl->family, MRC_CTL_CMD_CC_SET, NLM_F_ACK);
	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, dev);
	if ((!strcmp(verb, "enable") || !strcmp(verb, "disable")) && !argc)
		mnl_attr_put_u8(nlh, MRC_CTL_A_CC_ENABLED, verb[0] == 'e');
	else if (!strcmp(verb, "reset") && !argc)
		mnl_attr_put(nlh, MRC_CTL_A_CC_RESET, 0, NULL);
	else if (!strcmp(verb, "set") && argc)
		put_cc_params(nlh, argc, argv);
	else
		usage();
	ctl_talk(ctl, nlh, NULL, NULL);
	return 0;
}

int main(int argc, char **argv)
{
	static struct ctl ctl;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		usage();
	ctl_open(&ctl);
	if (!strcmp(argv[1], "dev"))
		return cmd_dev(&ctl, argc - 2, argv + 2);
	if (!strcmp(argv[1], "profile"))
		return cmd_profile(&ctl, argc - 2, argv + 2);
	if (!strcmp(argv[1], "ev"))
		return cmd_ev(&ctl, argc - 2, argv + 2);
	if (!strcmp(argv[1], "paths"))
		return cmd_paths(&ctl, argc - 2, argv + 2);
	if (!strcmp(argv[1], "cc"))
		return cmd_cc(&ctl, argc - 2, argv + 2);
	usage();
	return 2;
}
