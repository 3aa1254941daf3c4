// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrcctl without a kernel: each command run as a child process over lib_mrc's
 * scripted netlink socket (rdma-core-provider/lib_mrc/tests/fake_nl.c),
 * its output checked byte for byte against the lines the lab tests parse
 * (selftests/mrc/mrcctl.sh, mrc_ctl.sh, fabric.sh, scripts/mrc-fabric),
 * its exit status and error messages, and the requests it sent, attribute
 * by attribute, against the uapi (include/uapi/rdma/mrc-ctl.h).
 */
#include <linux/genetlink.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rdma/mrc-ctl.h>

#include "fake_nl.h"
#include "ktap.h"
#include "nl_attr.h"

#define main mrcctl_main
#include "mrcctl.c"
#undef main

/* What a child saw: its exit status, output, and the requests it sent. */
struct run {
	int status;
	char out[8192];
	char err[4096];
	int num_requests;
	struct fake_nl_request requests[FAKE_NL_MAX_TALKS];
};

static struct run *shared;	/* MAP_SHARED: written by the child */

static void keep_requests(void)
{
	shared->num_requests = fake_nl.num_requests;
	memcpy(shared->requests, fake_nl.requests, sizeof(shared->requests));
}

static void read_all(FILE *f, char *buf, size_t size)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
}

/* Runs "mrcctl ARGS..." over the answers queued in fake_nl. */
static struct run *mrcctl(const char *arg, ...)
{
	char *argv[32] = { "mrcctl" };
	FILE *out = tmpfile(), *err = tmpfile();
	int argc = 1, status;
	va_list ap;
	pid_t pid;

	va_start(ap, arg);
	for (; arg && argc < 31; arg = va_arg(ap, const char *))
		argv[argc++] = (char *)arg;
	va_end(ap);
	if (!shared) {
		shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (shared == MAP_FAILED)
			abort();
	}
	memset(shared, 0, sizeof(*shared));
	if (!out || !err)
		abort();
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		abort();
	if (!pid) {
		dup2(fileno(out), STDOUT_FILENO);
		dup2(fileno(err), STDERR_FILENO);
		atexit(keep_requests);
		exit(mrcctl_main(argc, argv));
	}
	waitpid(pid, &status, 0);
	shared->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
	read_all(out, shared->out, sizeof(shared->out));
	read_all(err, shared->err, sizeof(shared->err));
	fclose(out);
	fclose(err);
	/* The next run starts from a fresh script. */
	fake_nl_reset();
	return shared;
}

#define CHECK_STR(actual, expected)					\
	do {								\
		const char *a_ = (actual), *e_ = (expected);		\
		if (strcmp(a_, e_)) {					\
			printf("# %s:%d: %s is\n# '%s'\n# expected\n# '%s'\n", \
			       __FILE__, __LINE__, #actual, a_, e_);	\
			ktap_case_failed = 1;				\
		}							\
	} while (0)

static const struct nlmsghdr *req(const struct run *r, int i)
{
	return (const struct nlmsghdr *)r->requests[i].buf;
}

static uint8_t req_cmd(const struct run *r, int i)
{
	return ((const struct genlmsghdr *)mnl_nlmsg_get_payload(req(r, i)))->cmd;
}

static const char *str_of(const struct nlattr *a)
{
	return a ? mnl_attr_get_str(a) : "(none)";
}

/* ------------------------------------------------------------------ */
/* Answers, as the kernel builds them                                  */
/* ------------------------------------------------------------------ */

static void answer_dev(struct fake_nl_answer *a, const char *name,
		       const char *netdev, uint32_t default_profile,
		       const char *preset, uint8_t single_path, uint8_t cc)
{
	struct nlmsghdr *nlh = fake_nl_msg(a, MRC_CTL_CMD_DEV_GET);

	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, name);
	mnl_attr_put_strz(nlh, MRC_CTL_A_NETDEV, netdev);
	mnl_attr_put_u32(nlh, MRC_CTL_A_NUM_PLANES, 1);
	mnl_attr_put_u32(nlh, MRC_CTL_A_DEFAULT_PROFILE, default_profile);
	mnl_attr_put_u8(nlh, MRC_CTL_A_SINGLE_PATH, single_path);
	mnl_attr_put_u8(nlh, MRC_CTL_A_DATA_DSCP, 10);
	mnl_attr_put_u8(nlh, MRC_CTL_A_CTRL_DSCP, 46);
	mnl_attr_put_u32(nlh, MRC_CTL_A_TXQ_PACKETS, 64);
	mnl_attr_put_u8(nlh, MRC_CTL_A_CC_RTT_FROM_BUILD, 0);
	mnl_attr_put_u8(nlh, MRC_CTL_A_CC_ENABLED, cc);
	mnl_attr_put_strz(nlh, MRC_CTL_A_PRESET, preset);
	fake_nl_msg_end(a, nlh);
}

static void answer_ev(struct fake_nl_answer *a, uint32_t index,
		      uint32_t plane, const char *srv6, uint16_t sport,
		      uint8_t state)
{
	struct nlmsghdr *nlh = fake_nl_msg(a, MRC_CTL_CMD_EV_GET);
	struct nlattr *nest;
	struct in6_addr addr;

	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, "mrc0");
	mnl_attr_put_u32(nlh, MRC_CTL_A_PROFILE_ID, 2);
	nest = mnl_attr_nest_start(nlh, MRC_CTL_A_EV);
	mnl_attr_put_u32(nlh, MRC_CTL_EV_A_INDEX, index);
	mnl_attr_put_u32(nlh, MRC_CTL_EV_A_PLANE, plane);
	mnl_attr_put_u8(nlh, MRC_CTL_EV_A_STATE, state);
	if (srv6) {
		inet_pton(AF_INET6, srv6, &addr);
		mnl_attr_put(nlh, MRC_CTL_EV_A_SRV6, sizeof(addr), &addr);
	} else {
		mnl_attr_put_u16(nlh, MRC_CTL_EV_A_UDP_SPORT, sport);
	}
	mnl_attr_nest_end(nlh, nest);
	fake_nl_msg_end(a, nlh);
}

/* @usids: NULL for a UDP path (@sport). */
static void answer_path(struct fake_nl_answer *a, uint32_t qpn,
			uint32_t index, uint16_t sport, const uint8_t *usids,
			int n_usids, int profile_index, uint8_t state)
{
	static const uint8_t peer[16] = {
		[10] = 0xff, [11] = 0xff, 192, 0, 2, 2,
	};
	struct nlmsghdr *nlh = fake_nl_msg(a, MRC_CTL_CMD_PATH_GET);
	struct nlattr *nest;

	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, "mrc0");
	mnl_attr_put_u32(nlh, MRC_CTL_A_QPN, qpn);
	mnl_attr_put_u32(nlh, MRC_CTL_A_DEST_QPN, qpn + 1);
	mnl_attr_put(nlh, MRC_CTL_A_PEER, sizeof(peer), peer);
	mnl_attr_put_u32(nlh, MRC_CTL_A_PROFILE_ID, profile_index < 0 ? 0 : 1);
	nest = mnl_attr_nest_start(nlh, MRC_CTL_A_EV);
	mnl_attr_put_u32(nlh, MRC_CTL_EV_A_INDEX, index);
	mnl_attr_put_u32(nlh, MRC_CTL_EV_A_PLANE, 0);
	mnl_attr_put_u8(nlh, MRC_CTL_EV_A_STATE, state);
	mnl_attr_put_u64(nlh, MRC_CTL_EV_A_SENT, 95);
	mnl_attr_put_u64(nlh, MRC_CTL_EV_A_ACKED, 25);
	mnl_attr_put_u64(nlh, MRC_CTL_EV_A_LOST, 0);
	mnl_attr_put_u64(nlh, MRC_CTL_EV_A_PROBES, 3);
	if (profile_index >= 0)
		mnl_attr_put_u32(nlh, MRC_CTL_EV_A_PROFILE_INDEX,
				 profile_index);
	if (usids)
		mnl_attr_put(nlh, MRC_CTL_EV_A_USIDS, 2 * n_usids, usids);
	else
		mnl_attr_put_u16(nlh, MRC_CTL_EV_A_UDP_SPORT, sport);
	mnl_attr_nest_end(nlh, nest);
	fake_nl_msg_end(a, nlh);
}

/* @lower NULL: an empty slot. */
static void answer_plane(struct fake_nl_answer *a, uint32_t index,
			 const char *lower, uint8_t up, uint64_t tx,
			 uint64_t via_master)
{
	struct nlmsghdr *nlh = fake_nl_msg(a, MRC_CTL_CMD_PLANE_GET);
	struct nlattr *nest;

	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, "mrc0");
	mnl_attr_put_strz(nlh, MRC_CTL_A_NETDEV, "bond0");
	nest = mnl_attr_nest_start(nlh, MRC_CTL_A_PLANE);
	mnl_attr_put_u32(nlh, MRC_CTL_PLANE_A_INDEX, index);
	if (lower)
		mnl_attr_put_strz(nlh, MRC_CTL_PLANE_A_NETDEV, lower);
	mnl_attr_put_u8(nlh, MRC_CTL_PLANE_A_UP, up);
	mnl_attr_put_u64(nlh, MRC_CTL_PLANE_A_TX_PACKETS, tx);
	mnl_attr_put_u64(nlh, MRC_CTL_PLANE_A_TX_VIA_MASTER, via_master);
	mnl_attr_nest_end(nlh, nest);
	fake_nl_msg_end(a, nlh);
}

/* mrc_nscc_params_default(), as congestion.rst tables it. */
static void answer_cc(struct fake_nl_answer *a, uint8_t enabled)
{
	struct nlmsghdr *nlh = fake_nl_msg(a, MRC_CTL_CMD_CC_GET);
	struct nlattr *nest;

	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, "mrc0");
	mnl_attr_put_u8(nlh, MRC_CTL_A_CC_ENABLED, enabled);
	mnl_attr_put_strz(nlh, MRC_CTL_A_CC_ALGORITHM, MRC_CTL_CC_ALGORITHM);
	nest = mnl_attr_nest_start(nlh, MRC_CTL_A_CC);
	mnl_attr_put_u64(nlh, MRC_CTL_CC_A_BASE_RTT, 0);
	mnl_attr_put_u64(nlh, MRC_CTL_CC_A_TARGET_DELAY, 9000);
	mnl_attr_put_u64(nlh, MRC_CTL_CC_A_QA_THRESHOLD, 36000);
	mnl_attr_put_u32(nlh, MRC_CTL_CC_A_MTU, 4096);
	mnl_attr_put_u32(nlh, MRC_CTL_CC_A_MAX_CWND, 225000);
	mnl_attr_put_u32(nlh, MRC_CTL_CC_A_ETA, 614);
	mnl_attr_put_u32(nlh, MRC_CTL_CC_A_FI, 20480);
	mnl_attr_put_u32(nlh, MRC_CTL_CC_A_FI_SCALE, 250);
	mnl_attr_put_u32(nlh, MRC_CTL_CC_A_PI, 12288);
	mnl_attr_put_u32(nlh, MRC_CTL_CC_A_GAMMA, 800);
	mnl_attr_put_u32(nlh, MRC_CTL_CC_A_MAX_MD_JUMP, 500);
	mnl_attr_put_u32(nlh, MRC_CTL_CC_A_QA_GATE, 3);
	mnl_attr_put_u8(nlh, MRC_CTL_CC_A_DISABLE_QA, 0);
	mnl_attr_nest_end(nlh, nest);
	fake_nl_msg_end(a, nlh);
}

/* ------------------------------------------------------------------ */
/* Cases                                                               */
/* ------------------------------------------------------------------ */

static void dev_listing(void)
{
	struct fake_nl_answer *a = fake_nl_answer(0);
	struct run *r;

	answer_dev(a, "mrc0", "mrcc0", 0, "nic", 0, 1);
	answer_dev(a, "mrc1", "bond0", 3, "lab", 1, 0);
	r = mrcctl("dev", NULL);
	CHECK_EQ(r->status, 0);
	CHECK_STR(r->out,
		  "mrc0 netdev mrcc0 planes 1 default-profile 0 preset nic spray on data-dscp 10 ctrl-dscp 46 txq 64 cc-rtt departure cc on\n"
		  "mrc1 netdev bond0 planes 1 default-profile 3 preset lab spray off data-dscp 10 ctrl-dscp 46 txq 64 cc-rtt departure cc off\n");
	CHECK_STR(r->err, "");
	CHECK_EQ(r->num_requests, 1);
	CHECK_EQ(req_cmd(r, 0), MRC_CTL_CMD_DEV_GET);
	CHECK_EQ(req(r, 0)->nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
	CHECK(msg_attr(req(r, 0), MRC_CTL_A_DEV) == NULL);

	/* Both spellings of one device: a request for it alone. */
	answer_dev(fake_nl_answer(0), "mrc0", "mrcc0", 0, "nic", 0, 1);
	r = mrcctl("dev", "mrc0", "show", NULL);
	CHECK_STR(r->out,
		  "mrc0 netdev mrcc0 planes 1 default-profile 0 preset nic spray on data-dscp 10 ctrl-dscp 46 txq 64 cc-rtt departure cc on\n");
	CHECK_EQ(req(r, 0)->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
	CHECK_STR(str_of(msg_attr(req(r, 0), MRC_CTL_A_DEV)), "mrc0");
	answer_dev(fake_nl_answer(0), "mrc0", "mrcc0", 0, "nic", 0, 1);
	r = mrcctl("dev", "show", "mrc0", NULL);
	CHECK_EQ(r->status, 0);
	CHECK_STR(str_of(msg_attr(req(r, 0), MRC_CTL_A_DEV)), "mrc0");
}

static void dev_settings(void)
{
	struct fake_nl_answer *a;
	struct run *r;

	fake_nl_answer(0);
	r = mrcctl("dev", "mrc0", "set", "spray", "off", "data-dscp", "26",
		   "txq", "8", "cc-rtt", "build", "preset", "lab", NULL);
	CHECK_EQ(r->status, 0);
	CHECK_STR(r->out, "");
	CHECK_EQ(req_cmd(r, 0), MRC_CTL_CMD_DEV_SET);
	CHECK_STR(str_of(msg_attr(req(r, 0), MRC_CTL_A_DEV)), "mrc0");
	CHECK_EQ(attr_uint(msg_attr(req(r, 0), MRC_CTL_A_SINGLE_PATH), 1), 1);
	CHECK_EQ(attr_uint(msg_attr(req(r, 0), MRC_CTL_A_DATA_DSCP), 1), 26);
	CHECK_EQ(attr_uint(msg_attr(req(r, 0), MRC_CTL_A_TXQ_PACKETS), 4), 8);
	CHECK_EQ(attr_uint(msg_attr(req(r, 0), MRC_CTL_A_CC_RTT_FROM_BUILD), 1),
		 1);
	CHECK_STR(str_of(msg_attr(req(r, 0), MRC_CTL_A_PRESET)), "lab");
	CHECK(msg_attr(req(r, 0), MRC_CTL_A_CTRL_DSCP) == NULL);

	/* The kernel judges the DSCP, and says why it refuses it. */
	a = fake_nl_answer(ERANGE);
	a->why = "a DSCP is 0..63";
	r = mrcctl("dev", "set", "mrc0", "ctrl-dscp", "255", NULL);
	CHECK_EQ(r->status, 1);
	CHECK_STR(r->err,
		  "mrcctl: Numerical result out of range: a DSCP is 0..63\n");
	CHECK_EQ(attr_uint(msg_attr(req(r, 0), MRC_CTL_A_CTRL_DSCP), 1), 255);

	/* A preset name no kernel holds: EINVAL, as the kernel's. */
	r = mrcctl("dev", "mrc0", "set", "preset", "nicnicnicnicnicnicnic",
		   NULL);
	CHECK_EQ(r->status, 1);
	CHECK_STR(r->err, "mrcctl: Invalid argument\n");
	CHECK_EQ(r->num_requests, 0);

	r = mrcctl("dev", "mrc0", "set", "spray", NULL);
	CHECK_EQ(r->status, 2);
	CHECK(!strncmp(r->err, "mrcctl: 'spray' needs a value\nusage:", 36));
	r = mrcctl("dev", "mrc0", "set", "spray", "sideways", NULL);
	CHECK_EQ(r->status, 2);
	CHECK_STR(r->err, "mrcctl: spray is on or off, not 'sideways'\n");
	CHECK_EQ(r->num_requests, 0);
}

static void profiles_listed(void)
{
	struct fake_nl_answer *a = fake_nl_answer(0);
	struct nlmsghdr *nlh;
	struct nlattr *list, *f;
	struct in6_addr peer;
	struct run *r;

	nlh = fake_nl_msg(a, MRC_CTL_CMD_PROFILE_GET);
	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, "mrc0");
	mnl_attr_put_u32(nlh, MRC_CTL_A_PROFILE_ID, 2);
	mnl_attr_put_u8(nlh, MRC_CTL_A_FORMAT, MRC_CTL_EV_FMT_SRV6);
	mnl_attr_put_u8(nlh, MRC_CTL_A_MODE, MRC_CTL_EV_MODE_EXPLICIT);
	mnl_attr_put_u32(nlh, MRC_CTL_A_MIN_ACTIVE, 2);
	mnl_attr_put_u32(nlh, MRC_CTL_A_NUM_EVS, 4);
	inet_pton(AF_INET6, "fc00:0:1::", &peer);
	mnl_attr_put(nlh, MRC_CTL_A_PEER, sizeof(peer), &peer);
	fake_nl_msg_end(a, nlh);

	nlh = fake_nl_msg(a, MRC_CTL_CMD_PROFILE_GET);
	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, "mrc0");
	mnl_attr_put_u32(nlh, MRC_CTL_A_PROFILE_ID, 3);
	mnl_attr_put_u8(nlh, MRC_CTL_A_FORMAT, MRC_CTL_EV_FMT_UDP);
	mnl_attr_put_u8(nlh, MRC_CTL_A_MODE, MRC_CTL_EV_MODE_GENERATED);
	mnl_attr_put_u32(nlh, MRC_CTL_A_MIN_ACTIVE, 1);
	mnl_attr_put_u32(nlh, MRC_CTL_A_NUM_EVS, 16);
	mnl_attr_put(nlh, MRC_CTL_A_DEFAULT, 0, NULL);
	mnl_attr_put_u32(nlh, MRC_CTL_A_PLANE_MASK, 3);
	list = mnl_attr_nest_start(nlh, MRC_CTL_A_FIELDS);
	f = mnl_attr_nest_start(nlh, MRC_CTL_A_FIELD);
	mnl_attr_put_u32(nlh, MRC_CTL_FIELD_A_WIDTH, 16);
	mnl_attr_put_u32(nlh, MRC_CTL_FIELD_A_INIT, 0xc000);
	mnl_attr_put_u32(nlh, MRC_CTL_FIELD_A_MIN_VAL, 0);
	mnl_attr_put_u32(nlh, MRC_CTL_FIELD_A_MAX_VAL, 7);
	mnl_attr_put_u32(nlh, MRC_CTL_FIELD_A_MASK, 7);
	mnl_attr_nest_end(nlh, f);
	mnl_attr_nest_end(nlh, list);
	fake_nl_msg_end(a, nlh);

	r = mrcctl("profile", "show", "mrc0", NULL);
	CHECK_EQ(r->status, 0);
	CHECK_STR(r->out,
		  "profile 2 format srv6 mode explicit evs 4 min-active 2 peer fc00:0:1::\n"
		  "profile 3 format udp mode generated evs 16 min-active 1 default plane-mask 0x3 field 16:0xc000:0:7:0x7\n");
	CHECK_EQ(req_cmd(r, 0), MRC_CTL_CMD_PROFILE_GET);
	CHECK_EQ(req(r, 0)->nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
}

static void evs_listed(void)
{
	struct fake_nl_answer *a = fake_nl_answer(0);
	struct run *r;

	answer_ev(a, 0, 0, "fc00:0:100:200:1::", 0, MRC_CTL_EV_GOOD);
	answer_ev(a, 2, 1, "fc00:0:1100:1200:1::", 0, MRC_CTL_EV_DENIED);
	answer_ev(a, 3, 1, NULL, 49155, MRC_CTL_EV_GOOD);
	r = mrcctl("ev", "show", "mrc0", "2", NULL);
	CHECK_EQ(r->status, 0);
	CHECK_STR(r->out, "0 plane 0 fc00:0:100:200:1:: GOOD\n"
			  "2 plane 1 fc00:0:1100:1200:1:: DENIED\n"
			  "3 plane 1 49155 GOOD\n");
	CHECK_EQ(req_cmd(r, 0), MRC_CTL_CMD_EV_GET);
	CHECK_EQ(attr_uint(msg_attr(req(r, 0), MRC_CTL_A_PROFILE_ID), 4), 2);
}

static void paths_listed(void)
{
	static const uint8_t usids[4] = { 0x01, 0x00, 0x12, 0x00 };
	static const uint8_t v4peer[16] = {
		[10] = 0xff, [11] = 0xff, 192, 0, 2, 2,
	};
	struct fake_nl_answer *a = fake_nl_answer(0);
	const struct nlattr *peer;
	struct run *r;

	answer_path(a, 16, 0, 49152, NULL, 0, 0, MRC_CTL_EV_GOOD);
	answer_path(a, 16, 255, 49407, NULL, 0, 255, MRC_CTL_EV_UNKNOWN);
	answer_path(a, 17, 0, 0, usids, 2, -1, MRC_CTL_EV_ASSUMED_BAD);
	r = mrcctl("paths", "mrc0", NULL);
	CHECK_EQ(r->status, 0);
	CHECK_STR(r->out,
		  "qp 16 dest-qp 17 peer 192.0.2.2 profile 1\n"
		  "  ev 0 plane 0 udp 49152 profile-ev 0 state GOOD sent 95 acked 25 lost 0 probes 3\n"
		  "  ev 255 plane 0 udp 49407 profile-ev 255 state UNKNOWN sent 95 acked 25 lost 0 probes 3\n"
		  "qp 17 dest-qp 18 peer 192.0.2.2 profile 0\n"
		  "  ev 0 plane 0 usids 100,1200 state ASSUMED_BAD sent 95 acked 25 lost 0 probes 3\n");
	CHECK(msg_attr(req(r, 0), MRC_CTL_A_PEER) == NULL);

	fake_nl_answer(0);
	r = mrcctl("paths", "mrc0", "peer", "192.0.2.2", NULL);
	CHECK_EQ(r->status, 0);
	CHECK_STR(r->out, "");
	peer = msg_attr(req(r, 0), MRC_CTL_A_PEER);
	CHECK(peer && mnl_attr_get_payload_len(peer) == 16 &&
	      !memcmp(mnl_attr_get_payload(peer), v4peer, 16));

	r = mrcctl("paths", "mrc0", "peer", "192.0.2.300", NULL);
	CHECK_EQ(r->status, 2);
	CHECK_STR(r->err, "mrcctl: bad peer address '192.0.2.300'\n");
	CHECK_EQ(r->num_requests, 0);
}

static void planes_listed(void)
{
	struct fake_nl_answer *a = fake_nl_answer(0);
	struct run *r;

	answer_plane(a, 0, NULL, 0, 12, 3);
	answer_plane(a, 1, "pa1", 1, 5000000000ull, 0);
	r = mrcctl("planes", "mrc0", NULL);
	CHECK_EQ(r->status, 0);
	CHECK_STR(r->out,
		  "plane 0 netdev - state down tx 12 via-master 3\n"
		  "plane 1 netdev pa1 state up tx 5000000000 via-master 0\n");
	CHECK_EQ(r->num_requests, 1);
	CHECK_EQ(req_cmd(r, 0), MRC_CTL_CMD_PLANE_GET);
	CHECK_EQ(req(r, 0)->nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
	CHECK_STR(str_of(msg_attr(req(r, 0), MRC_CTL_A_DEV)), "mrc0");

	/* The kernel's refusal, and its reason. */
	a = fake_nl_answer(ENODEV);
	a->why = "no such RDMA device";
	r = mrcctl("planes", "mrc7", NULL);
	CHECK_EQ(r->status, 1);
	CHECK_STR(r->out, "");
	CHECK_STR(r->err, "mrcctl: No such device: no such RDMA device\n");

	r = mrcctl("planes", NULL);
	CHECK_EQ(r->status, 2);
	CHECK_EQ(r->num_requests, 0);
	r = mrcctl("planes", "mrc0", "extra", NULL);
	CHECK_EQ(r->status, 2);
	CHECK_EQ(r->num_requests, 0);
}

static const char cc_defaults[] =
	"algorithm uet-1.0-nscc base_rtt=0 target_delay=9000 qa_threshold=36000 mtu=4096 max_cwnd=225000 eta=614 fi=20480 fi_scale=250 pi=12288 gamma=800 max_md_jump=500 qa_gate=3 disable_qa=0\n";

static void cc_shown_and_set(void)
{
	char want[512];
	const struct nlattr *nest;
	struct run *r;

	answer_cc(fake_nl_answer(0), 1);
	r = mrcctl("cc", "mrc0", "show", NULL);
	CHECK_EQ(r->status, 0);
	snprintf(want, sizeof(want), "mrc0 cc on %s", cc_defaults);
	CHECK_STR(r->out, want);
	CHECK_EQ(req_cmd(r, 0), MRC_CTL_CMD_CC_GET);
	answer_cc(fake_nl_answer(0), 0);
	r = mrcctl("cc", "show", "mrc0", NULL);
	snprintf(want, sizeof(want), "mrc0 cc off %s", cc_defaults);
	CHECK_STR(r->out, want);

	/* Both spellings of a pair, dashes for underscores, time units. */
	fake_nl_answer(0);
	r = mrcctl("cc", "mrc0", "set", "base_rtt=20us", "target-delay",
		   "15000", "max_cwnd=300000", "disable_qa", "1",
		   "qa-threshold=1ms", NULL);
	CHECK_EQ(r->status, 0);
	CHECK_EQ(req_cmd(r, 0), MRC_CTL_CMD_CC_SET);
	nest = msg_attr(req(r, 0), MRC_CTL_A_CC);
	CHECK_EQ(attr_uint(nest_attr(nest, MRC_CTL_CC_A_BASE_RTT), 8), 20000);
	CHECK_EQ(attr_uint(nest_attr(nest, MRC_CTL_CC_A_TARGET_DELAY), 8), 15000);
	CHECK_EQ(attr_uint(nest_attr(nest, MRC_CTL_CC_A_QA_THRESHOLD), 8), 1000000);
	CHECK_EQ(attr_uint(nest_attr(nest, MRC_CTL_CC_A_MAX_CWND), 4), 300000);
	CHECK_EQ(attr_uint(nest_attr(nest, MRC_CTL_CC_A_DISABLE_QA), 1), 1);
	CHECK_EQ(count_nested(nest), 5);
	CHECK(msg_attr(req(r, 0), MRC_CTL_A_CC_ENABLED) == NULL);
	CHECK(msg_attr(req(r, 0), MRC_CTL_A_CC_RESET) == NULL);

	fake_nl_answer(0);
	r = mrcctl("cc", "mrc0", "disable", NULL);
	CHECK_EQ(attr_uint(msg_attr(req(r, 0), MRC_CTL_A_CC_ENABLED), 1), 0);
	CHECK(msg_attr(req(r, 0), MRC_CTL_A_CC) == NULL);
	fake_nl_answer(0);
	r = mrcctl("cc", "enable", "mrc0", NULL);
	CHECK_EQ(attr_uint(msg_attr(req(r, 0), MRC_CTL_A_CC_ENABLED), 1), 1);
	fake_nl_answer(0);
	r = mrcctl("cc", "mrc0", "reset", NULL);
	CHECK_EQ(r->status, 0);
	CHECK(msg_attr(req(r, 0), MRC_CTL_A_CC_RESET) != NULL);
	CHECK(msg_attr(req(r, 0), MRC_CTL_A_CC_ENABLED) == NULL);

	/* Refused by the kernel, naming the parameter. */
	fake_nl_answer(EINVAL)->why = "max_md_jump is 1..999 thousandths";
	r = mrcctl("cc", "mrc0", "set", "max_md_jump=1000", NULL);
	CHECK_EQ(r->status, 1);
	CHECK_STR(r->err,
		  "mrcctl: Invalid argument: max_md_jump is 1..999 thousandths\n");
	/* Usage errors: nothing sent. */
	r = mrcctl("cc", "mrc0", "set", "cwnd=5", NULL);
	CHECK_EQ(r->status, 2);
	CHECK(!strncmp(r->err, "mrcctl: no CC parameter 'cwnd'\n", 31));
	r = mrcctl("cc", "mrc0", "set", "base_rtt=5parsecs", NULL);
	CHECK_EQ(r->status, 2);
	CHECK_STR(r->err,
		  "mrcctl: bad base_rtt '5parsecs' (a time: N[ns|us|ms|s])\n");
	CHECK_EQ(r->num_requests, 0);
}

static void profiles_added(void)
{
	const struct nlattr *evs, *ev, *fields, *field;
	struct in6_addr want;
	struct run *r;

	fake_nl_answer(0);
	r = mrcctl("profile", "add", "mrc0", "2", "format", "srv6", "peer",
		   "fc00:0:1::", "min-active", "2", "ev",
		   "0:fc00:0:100:200:1::", "1:fc00:0:1100:1200:1::", NULL);
	CHECK_EQ(r->status, 0);
	CHECK_EQ(req_cmd(r, 0), MRC_CTL_CMD_PROFILE_NEW);
	CHECK_EQ(attr_uint(msg_attr(req(r, 0), MRC_CTL_A_PROFILE_ID), 4), 2);
	CHECK_EQ(attr_uint(msg_attr(req(r, 0), MRC_CTL_A_FORMAT), 1),
		 MRC_CTL_EV_FMT_SRV6);
	CHECK_EQ(attr_uint(msg_attr(req(r, 0), MRC_CTL_A_MODE), 1),
		 MRC_CTL_EV_MODE_EXPLICIT);
	CHECK_EQ(attr_uint(msg_attr(req(r, 0), MRC_CTL_A_MIN_ACTIVE), 4), 2);
	inet_pton(AF_INET6, "fc00:0:1::", &want);
	CHECK(msg_attr(req(r, 0), MRC_CTL_A_PEER) &&
	      !memcmp(mnl_attr_get_payload(msg_attr(req(r, 0), MRC_CTL_A_PEER)),
		      &want, 16));
	CHECK(msg_attr(req(r, 0), MRC_CTL_A_DEFAULT) == NULL);
	CHECK(msg_attr(req(r, 0), MRC_CTL_A_REPLACE) == NULL);
	evs = msg_attr(req(r, 0), MRC_CTL_A_EVS);
	CHECK_EQ(count_nested(evs), 2);
	ev = evs ? mnl_attr_get_payload(evs) : NULL;
	if (ev) {
		inet_pton(AF_INET6, "fc00:0:100:200:1::", &want);
		CHECK_EQ(attr_uint(nest_attr(ev, MRC_CTL_EV_A_PLANE), 4), 0);
		CHECK(nest_attr(ev, MRC_CTL_EV_A_SRV6) &&
		      !memcmp(mnl_attr_get_payload(nest_attr(ev, MRC_CTL_EV_A_SRV6)),
			      &want, 16));
		CHECK_EQ(count_nested(ev), 2);
	}

	/* Generated, without planes or floor: the kernel's defaults. */
	fake_nl_answer(0);
	r = mrcctl("profile", "add", "mrc0", "5", "format", "udp", "default",
		   "replace", "gen", "field", "16:0xc000:0:7:0x7", NULL);
	CHECK_EQ(r->status, 0);
	CHECK(msg_attr(req(r, 0), MRC_CTL_A_MIN_ACTIVE) == NULL);
	CHECK(msg_attr(req(r, 0), MRC_CTL_A_PLANE_MASK) == NULL);
	CHECK(msg_attr(req(r, 0), MRC_CTL_A_DEFAULT) != NULL);
	CHECK(msg_attr(req(r, 0), MRC_CTL_A_REPLACE) != NULL);
	CHECK_EQ(attr_uint(msg_attr(req(r, 0), MRC_CTL_A_MODE), 1),
		 MRC_CTL_EV_MODE_GENERATED);
	fields = msg_attr(req(r, 0), MRC_CTL_A_FIELDS);
	CHECK_EQ(count_nested(fields), 1);
	field = fields ? mnl_attr_get_payload(fields) : NULL;
	CHECK_EQ(attr_uint(nest_attr(field, MRC_CTL_FIELD_A_WIDTH), 4), 16);
	CHECK_EQ(attr_uint(nest_attr(field, MRC_CTL_FIELD_A_INIT), 4), 0xc000);
	CHECK_EQ(attr_uint(nest_attr(field, MRC_CTL_FIELD_A_MIN_VAL), 4), 0);
	CHECK_EQ(attr_uint(nest_attr(field, MRC_CTL_FIELD_A_MAX_VAL), 4), 7);
	CHECK_EQ(attr_uint(nest_attr(field, MRC_CTL_FIELD_A_MASK), 4), 7);

	fake_nl_answer(0);
	r = mrcctl("profile", "add", "mrc0", "1", "format", "udp", "gen",
		   "planes", "0,1", "min-active", "256", "field",
		   "16:0xc000:0:255:0xff", NULL);
	CHECK_EQ(attr_uint(msg_attr(req(r, 0), MRC_CTL_A_PLANE_MASK), 4), 3);
	CHECK_EQ(attr_uint(msg_attr(req(r, 0), MRC_CTL_A_MIN_ACTIVE), 4), 256);

	fake_nl_answer(EEXIST)->why = "another profile serves that peer";
	r = mrcctl("profile", "add", "mrc0", "4", "format", "udp", "ev",
		   "0:5000", NULL);
	CHECK_EQ(r->status, 1);
	CHECK_STR(r->err,
		  "mrcctl: File exists: another profile serves that peer\n");
	r = mrcctl("profile", "add", "mrc0", "4", "ev", "0:5000", NULL);
	CHECK_EQ(r->status, 2);
	CHECK_EQ(r->num_requests, 0);

	fake_nl_answer(ENOENT)->why = "no such profile";
	r = mrcctl("profile", "del", "mrc0", "3", NULL);
	CHECK_EQ(r->status, 1);
	CHECK_STR(r->err, "mrcctl: No such file or directory: no such profile\n");
	CHECK_EQ(req_cmd(r, 0), MRC_CTL_CMD_PROFILE_DEL);
	CHECK_EQ(attr_uint(msg_attr(req(r, 0), MRC_CTL_A_PROFILE_ID), 4), 3);
}

static void evs_denied_and_allowed(void)
{
	const struct nlattr *ev;
	struct in6_addr want;
	struct run *r;

	fake_nl_answer(0);
	r = mrcctl("ev", "deny", "mrc0", "2", "1:fc00:0:1100:1200:1::", NULL);
	CHECK_EQ(r->status, 0);
	CHECK_EQ(req_cmd(r, 0), MRC_CTL_CMD_EV_SET);
	ev = msg_attr(req(r, 0), MRC_CTL_A_EV);
	inet_pton(AF_INET6, "fc00:0:1100:1200:1::", &want);
	CHECK_EQ(attr_uint(nest_attr(ev, MRC_CTL_EV_A_PLANE), 4), 1);
	CHECK(nest_attr(ev, MRC_CTL_EV_A_SRV6) &&
	      !memcmp(mnl_attr_get_payload(nest_attr(ev, MRC_CTL_EV_A_SRV6)),
		      &want, 16));
	CHECK_EQ(attr_uint(nest_attr(ev, MRC_CTL_EV_A_STATE), 1),
		 MRC_CTL_EV_DENIED);
	CHECK(nest_attr(ev, MRC_CTL_EV_A_INDEX) == NULL);

	fake_nl_answer(0);
	r = mrcctl("ev", "allow", "mrc0", "2", "0:49152", NULL);
	ev = msg_attr(req(r, 0), MRC_CTL_A_EV);
	CHECK_EQ(attr_uint(nest_attr(ev, MRC_CTL_EV_A_UDP_SPORT), 2), 49152);
	CHECK_EQ(attr_uint(nest_attr(ev, MRC_CTL_EV_A_STATE), 1), MRC_CTL_EV_GOOD);

	fake_nl_answer(0);
	r = mrcctl("ev", "allow", "mrc0", "2", "2", NULL);
	ev = msg_attr(req(r, 0), MRC_CTL_A_EV);
	CHECK_EQ(attr_uint(nest_attr(ev, MRC_CTL_EV_A_INDEX), 4), 2);
	CHECK_EQ(attr_uint(nest_attr(ev, MRC_CTL_EV_A_STATE), 1), MRC_CTL_EV_GOOD);
	CHECK_EQ(count_nested(ev), 2);
}

/* No module, a malformed answer: said plainly, exit 1. */
static void failures_reported(void)
{
	struct fake_nl_answer *a;
	struct nlmsghdr *nlh;
	struct run *r;

	fake_nl.open_err = ENOENT;
	r = mrcctl("dev", NULL);
	CHECK_EQ(r->status, 1);
	CHECK_STR(r->err,
		  "mrcctl: the mrc module is not loaded (no \"mrc\" generic netlink family)\n");
	fake_nl.open_err = EPROTONOSUPPORT;
	r = mrcctl("dev", NULL);
	CHECK_EQ(r->status, 1);
	CHECK_STR(r->err, "mrcctl: Protocol not supported\n");

	/* A device without its plane count: not printed at all. */
	a = fake_nl_answer(0);
	answer_dev(a, "mrc0", "mrcc0", 0, "nic", 0, 1);
	nlh = fake_nl_msg(a, MRC_CTL_CMD_DEV_GET);
	mnl_attr_put_strz(nlh, MRC_CTL_A_DEV, "mrc1");
	mnl_attr_put_strz(nlh, MRC_CTL_A_NETDEV, "eth1");
	fake_nl_msg_end(a, nlh);
	r = mrcctl("dev", NULL);
	CHECK_EQ(r->status, 1);
	CHECK(!strncmp(r->out, "mrc0 netdev mrcc0 ", 18));
	CHECK(strstr(r->out, "mrc1") == NULL);
	CHECK_STR(r->err, "mrcctl: Bad message\n");

	r = mrcctl("bogus", NULL);
	CHECK_EQ(r->status, 2);
	CHECK(!strncmp(r->err, "usage:\n", 7));
}

static const struct ktap_case cases[] = {
	KTAP_CASE(dev_listing),
	KTAP_CASE(dev_settings),
	KTAP_CASE(profiles_listed),
	KTAP_CASE(evs_listed),
	KTAP_CASE(paths_listed),
	KTAP_CASE(planes_listed),
	KTAP_CASE(cc_shown_and_set),
	KTAP_CASE(profiles_added),
	KTAP_CASE(evs_denied_and_allowed),
	KTAP_CASE(failures_reported),
};

KTAP_MAIN("mrcctl", cases)
