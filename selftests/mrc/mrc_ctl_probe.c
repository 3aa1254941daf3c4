// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc-ctl-probe: the OCP controller API (mrc_ctl.h, lib_mrc) against a live
 * mrc device, one step per invocation so that mrc_ctl.sh can check each
 * with mrcctl in between (Documentation/mrc-api.rst):
 *
 *   mrc-ctl-probe DEV device             the device query, printed
 *   mrc-ctl-probe DEV explicit ID PORT.. an explicit UDP profile of those
 *                                        source ports on port 1, ONLINE
 *   mrc-ctl-probe DEV generated ID       a generated UDP profile, ONLINE
 *   mrc-ctl-probe DEV show ID            the profile and its EVs' states
 *   mrc-ctl-probe DEV set ID PORT STATE  STATE: GOOD or DENIED
 *   mrc-ctl-probe DEV offline ID         withdraw the profile
 *   mrc-ctl-probe DEV cc TARGET_NS       set NSCC's target delay, show it
 *   mrc-ctl-probe DEV port [N [enable|disable]]
 *                                        port N's (default 1) admin state,
 *                                        after setting it if asked
 *   mrc-ctl-probe DEV port-range PLANES  ports 0 and PLANES + 1: EINVAL
 *   mrc-ctl-probe DEV refused            the errnos the API documents
 *                                        for bad input and missing parts
 *   mrc-ctl-probe DEV unprivileged       without CAP_NET_ADMIN: EPERM
 *   mrc-ctl-probe DEV evprofile ID PEER PORT..
 *                                        an explicit UDP profile serving
 *                                        IPv4 PEER: each source port on
 *                                        ports 1 and 2, every state's
 *                                        events wanted, ONLINE
 *   mrc-ctl-probe DEV cut ID SECONDS DOWN UP N
 *                                        with an event CQ on a channel:
 *                                        runs the shell command DOWN, then
 *                                        waits for N of profile ID's EVs on
 *                                        port 2 to be reported ASSUMED_BAD,
 *                                        runs UP and waits for them GOOD;
 *                                        prints each event and the
 *                                        latencies ("# ev-event latency")
 *   mrc-ctl-probe DEV deny ID SECONDS SPORT
 *                                        with an event CQ on a channel:
 *                                        denies the EV of port 2 with
 *                                        source port SPORT, waits for it
 *                                        reported DENIED, allows it and
 *                                        waits for it GOOD (latencies)
 *   mrc-ctl-probe DEV release ID SECONDS DOWN STOP N
 *                                        with an event CQ: runs DOWN,
 *                                        waits for N EVs of port 2
 *                                        ASSUMED_BAD, runs STOP (which
 *                                        ends the only connection over
 *                                        profile ID) and waits for the
 *                                        same N reported UNKNOWN: no
 *                                        connection holds them bad
 *   mrc-ctl-probe DEV join               without CAP_NET_ADMIN, joining
 *                                        the events group: EPERM
 *   mrc-ctl-probe DEV probe SRC DST TIMEOUT_NS PORT:SPORT...
 *                                        one batch of EV probes from
 *                                        SRC to DST (IP addresses), req
 *                                        ids 1.., each answer printed
 *   mrc-ctl-probe DEV probe-refused SRC DST
 *                                        the errnos of bad probes
 *   mrc-ctl-probe DEV port-status SRC DST TIMEOUT_NS STATUS PORT:SPORT...
 *                                        one batch of port status updates
 *                                        (STATUS: bit N, port N up) from
 *                                        SRC to DST, printed as probes
 *   mrc-ctl-probe DEV port-status-refused SRC DST
 *                                        the errnos of bad updates
 *
 * Exit status 0 when every call did what the documentation says; each
 * failure is printed with the call and its errno.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/capability.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <mrc_ctl.h>

#include "probe_util.h"

static int failures;

#define EXPECT(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			printf("FAIL %s:%d: ", __FILE__, __LINE__);	\
			printf(__VA_ARGS__);				\
			printf(" (errno %d %s)\n", errno,		\
			       strerror(errno));			\
			failures++;					\
		}							\
	} while (0)

#define EXPECT_ERRNO(call, err)						\
	do {								\
		errno = 0;						\
		int ret_ = (call);					\
		EXPECT(ret_ == -1 && errno == (err), "%s = %d, want errno %d", \
		       #call, ret_, err);				\
	} while (0)

static struct mrc_ctl_ev udp_ev(uint8_t port, uint16_t sport)
{
	struct mrc_ctl_ev ev = MRC_CTL_EV_UNPOPULATED;

	ev.port = port;
	ev.val[0] = sport >> 8;
	ev.val[1] = sport & 0xff;
	return ev;
}

static const char *state_name(enum mrc_ctl_ev_state s)
{
	switch (s) {
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

/* Format profile 1, UDP, ONLINE (it lives in this process's context). */
static void udp_format(struct mrc_context *ctx)
{
	struct mrc_ctl_ev_fmt_profile_attr a = {
		.profile_state = MRC_CTL_PROFILE_INIT,
		.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_UDP,
	};

	EXPECT(!mrc_ctl_modify_ev_fmt_profile(ctx, 1, &a,
				MRC_CTL_EV_FMT_PROFILE_STATE |
				MRC_CTL_EV_FMT_PROFILE_MODE),
	       "format profile INIT");
	a.profile_state = MRC_CTL_PROFILE_OFFLINE;
	EXPECT(!mrc_ctl_modify_ev_fmt_profile(ctx, 1, &a,
				MRC_CTL_EV_FMT_PROFILE_STATE),
	       "format profile OFFLINE");
	a.profile_state = MRC_CTL_PROFILE_ONLINE;
	EXPECT(!mrc_ctl_modify_ev_fmt_profile(ctx, 1, &a,
				MRC_CTL_EV_FMT_PROFILE_STATE),
	       "format profile ONLINE");
}

static void set_state(struct mrc_context *ctx, uint64_t id,
		      enum mrc_ctl_profile_state state)
{
	struct mrc_ctl_ev_profile_attr a = { .profile_state = state };

	EXPECT(!mrc_ctl_modify_ev_profile(ctx, id, &a,
					  MRC_CTL_EV_PROFILE_STATE),
	       "EV profile %llu to state %d", (unsigned long long)id, state);
}

static void explicit_profile(struct mrc_context *ctx, uint64_t id,
			     int argc, char **argv)
{
	struct mrc_ctl_ev_op_entry e[64] = { 0 };
	struct mrc_ctl_ev_profile_attr a = {
		.profile_state = MRC_CTL_PROFILE_INIT,
		.ev_mode = MRC_CTL_EV_MODE_EXP, .ev_fmt_profile_id = 1,
		.ev_count = argc, .ev_min_active = 1,
	};
	int i;

	udp_format(ctx);
	EXPECT(!mrc_ctl_modify_ev_profile(ctx, id, &a,
				MRC_CTL_EV_PROFILE_STATE |
				MRC_CTL_EV_PROFILE_MODE |
				MRC_CTL_EV_PROFILE_FMT_ID |
				MRC_CTL_EV_PROFILE_COUNT |
				MRC_CTL_EV_PROFILE_MIN_ACTIVE),
	       "EV profile INIT and configured");
	for (i = 0; i < argc && i < 64; i++) {
		e[i].ev = MRC_CTL_EV_UNPOPULATED;
		e[i].ev_new = udp_ev(1, (uint16_t)strtoul(argv[i], NULL, 0));
	}
	a.ev_op.op = MRC_CTL_EV_OP_REPLACE_EV;
	a.ev_op.entries = e;
	a.ev_op.entry_count = argc;
	EXPECT(!mrc_ctl_modify_ev_profile(ctx, id, &a,
					  MRC_CTL_EV_PROFILE_EV_OP),
	       "REPLACE_EV of %d EVs", argc);
	set_state(ctx, id, MRC_CTL_PROFILE_OFFLINE);
	set_state(ctx, id, MRC_CTL_PROFILE_ONLINE);
}

static void generated_profile(struct mrc_context *ctx, uint64_t id)
{
	struct mrc_ctl_ev_field f = {
		.width = 16, .init_val = 0xc000, .min_val = 0, .max_val = 31,
		.mask = 0x1f,
	};
	struct mrc_ctl_ev_profile_attr a = {
		.profile_state = MRC_CTL_PROFILE_INIT,
		.ev_mode = MRC_CTL_EV_MODE_GEN, .ev_fmt_profile_id = 1,
		.ev_min_active = 2,
		.ev_fields_op = {
			.op = MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS,
			.fields = &f, .field_count = 1,
		},
	};

	udp_format(ctx);
	EXPECT(!mrc_ctl_modify_ev_profile(ctx, id, &a,
				MRC_CTL_EV_PROFILE_STATE |
				MRC_CTL_EV_PROFILE_MODE |
				MRC_CTL_EV_PROFILE_FMT_ID |
				MRC_CTL_EV_PROFILE_MIN_ACTIVE |
				MRC_CTL_EV_PROFILE_EV_FIELDS_OP),
	       "generated profile INIT and configured");
	set_state(ctx, id, MRC_CTL_PROFILE_OFFLINE);
	set_state(ctx, id, MRC_CTL_PROFILE_ONLINE);
}

static void show(struct mrc_context *ctx, uint64_t id)
{
	struct mrc_ctl_ev_op_entry *e;
	struct mrc_ctl_ev_profile_attr a = {
		.ev_op = { .op = MRC_CTL_EV_OP_QUERY_EV_ARRAY },
	};
	int i, n;

	/* The count first, then the array. */
	if (mrc_ctl_query_ev_profile(ctx, id, &a, MRC_CTL_EV_PROFILE_EV_OP)) {
		EXPECT(0, "query EV profile %llu", (unsigned long long)id);
		return;
	}
	n = a.ev_op.entry_count;
	e = calloc(n ? n : 1, sizeof(*e));
	a.ev_op.entries = e;
	EXPECT(!mrc_ctl_query_ev_profile(ctx, id, &a,
				MRC_CTL_EV_PROFILE_EV_OP |
				MRC_CTL_EV_PROFILE_CUR_STATE |
				MRC_CTL_EV_PROFILE_MODE |
				MRC_CTL_EV_PROFILE_COUNT |
				MRC_CTL_EV_PROFILE_MIN_ACTIVE),
	       "query EV profile %llu", (unsigned long long)id);
	printf("profile %llu state %d mode %s count %u min-active %u\n",
	       (unsigned long long)id, a.cur_profile_state,
	       a.ev_mode == MRC_CTL_EV_MODE_GEN ? "gen" : "exp", a.ev_count,
	       a.ev_min_active);
	for (i = 0; i < a.ev_op.entry_count; i++)
		printf("ev %d port %u udp %u %s\n", i, e[i].ev.port,
		       e[i].ev.val[0] << 8 | e[i].ev.val[1],
		       state_name(e[i].state));
	free(e);
}

static void set_ev(struct mrc_context *ctx, uint64_t id, uint16_t sport,
		   const char *state)
{
	struct mrc_ctl_ev_op_entry e = { .ev = udp_ev(1, sport) };
	struct mrc_ctl_ev_profile_attr a = {
		.ev_op = {
			.op = MRC_CTL_EV_OP_MODIFY_EV_STATE,
			.entries = &e, .entry_count = 1,
		},
	};

	e.state = !strcmp(state, "DENIED") ? MRC_CTL_EV_DENIED :
						MRC_CTL_EV_GOOD;
	EXPECT(!mrc_ctl_modify_ev_profile(ctx, id, &a,
					  MRC_CTL_EV_PROFILE_EV_OP),
	       "EV %u of profile %llu to %s", sport,
	       (unsigned long long)id, state);
	e.state = 0;
	a.ev_op.op = MRC_CTL_EV_OP_QUERY_EV_STATE;
	EXPECT(!mrc_ctl_query_ev_profile(ctx, id, &a,
					 MRC_CTL_EV_PROFILE_EV_OP) &&
	       !strcmp(state_name(e.state), state),
	       "EV %u reads back %s, not %s", sport, state_name(e.state),
	       state);
}

static void cc(struct mrc_context *ctx, uint32_t target)
{
	struct mrc_ctl_cc_profile_attr a = { 0 };
	struct mrc_ctl_cc_nscc_cfg cfg;

	EXPECT(!mrc_ctl_query_cc_profile(ctx, 1, &a,
					 MRC_CTL_CC_PROFILE_ALGORITHM |
					 MRC_CTL_CC_PROFILE_CONFIG),
	       "query CC profile 1");
	if (!a.cc_config)
		return;
	/* Change one parameter: the rest as the kernel has them. */
	cfg = *(const struct mrc_ctl_cc_nscc_cfg *)a.cc_config;
	cfg.target_delay = target;
	a.cc_config = &cfg;
	EXPECT(!mrc_ctl_modify_cc_profile(ctx, 1, &a,
					  MRC_CTL_CC_PROFILE_ALGORITHM |
					  MRC_CTL_CC_PROFILE_CONFIG),
	       "modify CC profile 1");
	EXPECT(!mrc_ctl_query_cc_profile(ctx, 1, &a,
					 MRC_CTL_CC_PROFILE_ALGORITHM |
					 MRC_CTL_CC_PROFILE_CONFIG),
	       "query CC profile 1 again");
	if (a.cc_config)
		printf("cc algorithm %s target_delay %u qa_threshold %u "
		       "gamma %.3f\n", a.algorithm ? a.algorithm : "off",
		       ((const struct mrc_ctl_cc_nscc_cfg *)a.cc_config)->target_delay,
		       ((const struct mrc_ctl_cc_nscc_cfg *)a.cc_config)->qa_threshold,
		       ((const struct mrc_ctl_cc_nscc_cfg *)a.cc_config)->gamma);
}

static void refused(struct ibv_context *vctx, struct mrc_context *ctx)
{
	struct mrc_ctl_ev_profile_attr a = {
		.profile_state = MRC_CTL_PROFILE_INIT,
	};
	struct mrc_ctl_ev_op_entry e = { .ev = udp_ev(1, 1),
					 .state = MRC_CTL_EV_ASSUMED_BAD };
	struct mrc_ctl_ep_req req = { 0 };
	struct mrc_ctl_ep_rsp rsp;
	struct mrc_ctl_cc_profile_attr cc = { .algorithm = "dcqcn" };
	int n;

	EXPECT_ERRNO(mrc_ctl_query_device(vctx, NULL), EINVAL);
	EXPECT_ERRNO(mrc_ctl_modify_ev_profile(ctx, 65, &a,
				MRC_CTL_EV_PROFILE_STATE), EINVAL);
	EXPECT_ERRNO(mrc_ctl_query_ev_profile(ctx, 63, &a, 0), ENOENT);
	a.ev_mode = MRC_CTL_EV_MODE_AUTO;
	EXPECT_ERRNO(mrc_ctl_modify_ev_profile(ctx, 63, &a,
				MRC_CTL_EV_PROFILE_STATE |
				MRC_CTL_EV_PROFILE_MODE), EOPNOTSUPP);
	/* ... and left nothing behind. */
	EXPECT_ERRNO(mrc_ctl_query_ev_profile(ctx, 63, &a, 0), ENOENT);
	/* The kernel refuses more active EVs than the profile has. */
	a.ev_mode = MRC_CTL_EV_MODE_EXP;
	a.ev_count = 1;
	a.ev_fmt_profile_id = 1;
	a.ev_min_active = 5;
	udp_format(ctx);
	EXPECT(!mrc_ctl_modify_ev_profile(ctx, 62, &a,
				MRC_CTL_EV_PROFILE_STATE |
				MRC_CTL_EV_PROFILE_MODE |
				MRC_CTL_EV_PROFILE_FMT_ID |
				MRC_CTL_EV_PROFILE_MIN_ACTIVE |
				MRC_CTL_EV_PROFILE_COUNT), "profile 62 INIT");
	e.ev = MRC_CTL_EV_UNPOPULATED;
	e.ev_new = udp_ev(1, 4000);
	a.ev_op.op = MRC_CTL_EV_OP_REPLACE_EV;
	a.ev_op.entries = &e;
	a.ev_op.entry_count = 1;
	a.profile_state = MRC_CTL_PROFILE_OFFLINE;
	EXPECT(!mrc_ctl_modify_ev_profile(ctx, 62, &a,
				MRC_CTL_EV_PROFILE_EV_OP |
				MRC_CTL_EV_PROFILE_STATE), "profile 62 OFFLINE");
	a.profile_state = MRC_CTL_PROFILE_ONLINE;
	EXPECT_ERRNO(mrc_ctl_modify_ev_profile(ctx, 62, &a,
				MRC_CTL_EV_PROFILE_STATE), EINVAL);
	EXPECT_ERRNO(mrc_ctl_modify_cc_profile(ctx, 1, &cc,
				MRC_CTL_CC_PROFILE_ALGORITHM), EINVAL);
	/* No format: EINVAL, for a probe and for a port status update. */
	EXPECT_ERRNO(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
						&req, 1, 1000000, &rsp, &n),
		     EINVAL);
	EXPECT_ERRNO(mrc_ctl_ep_batch_send_wait(ctx, 0,
						MRC_CTL_EP_OP_PORT_STATUS_UPDATE,
						&req, 1, 1000000, &rsp, &n),
		     EINVAL);
	errno = 0;
	EXPECT(!mrc_ctl_create_ev_event_cq(ctx, 0, NULL, NULL, 0) &&
	       errno == EINVAL, "event CQ of no entries not EINVAL");
	a.ev_event_mask = 1 << 7;
	EXPECT_ERRNO(mrc_ctl_modify_ev_profile(ctx, 62, &a,
				MRC_CTL_EV_PROFILE_EVENT_MASK), EINVAL);
}

static void ev_profile(struct mrc_context *ctx, uint64_t id, const char *peer,
		       int argc, char **argv)
{
	struct mrc_ctl_ev_op_entry e[64] = { 0 };
	struct mrc_ctl_ev_profile_attr a = {
		.profile_state = MRC_CTL_PROFILE_INIT,
		.ev_mode = MRC_CTL_EV_MODE_EXP, .ev_fmt_profile_id = 1,
		.ev_count = 2 * argc, .ev_min_active = 1,
		.ev_event_mask = MRC_CTL_EV_GOOD | MRC_CTL_EV_ASSUMED_BAD |
				 MRC_CTL_EV_DENIED | MRC_CTL_EV_UNKNOWN,
	};
	int i, n = 0;

	/* vendor_cfg: the PEER flag, the IPv4-mapped address at 16. */
	a.vendor_cfg[0] = 1u << 1;
	a.vendor_cfg[16 + 10] = 0xff;
	a.vendor_cfg[16 + 11] = 0xff;
	EXPECT(inet_pton(AF_INET, peer, &a.vendor_cfg[16 + 12]) == 1,
	       "peer %s", peer);
	udp_format(ctx);
	EXPECT(!mrc_ctl_modify_ev_profile(ctx, id, &a,
				MRC_CTL_EV_PROFILE_STATE |
				MRC_CTL_EV_PROFILE_MODE |
				MRC_CTL_EV_PROFILE_FMT_ID |
				MRC_CTL_EV_PROFILE_COUNT |
				MRC_CTL_EV_PROFILE_MIN_ACTIVE |
				MRC_CTL_EV_PROFILE_EVENT_MASK |
				MRC_CTL_EV_PROFILE_VENDOR_CFG),
	       "EV profile INIT and configured");
	for (i = 0; i < argc && n + 1 < 64; i++) {
		uint16_t sport = (uint16_t)strtoul(argv[i], NULL, 0);

		e[n].ev = MRC_CTL_EV_UNPOPULATED;
		e[n++].ev_new = udp_ev(1, sport);
		e[n].ev = MRC_CTL_EV_UNPOPULATED;
		e[n++].ev_new = udp_ev(2, sport);
	}
	a.ev_op.op = MRC_CTL_EV_OP_REPLACE_EV;
	a.ev_op.entries = e;
	a.ev_op.entry_count = n;
	EXPECT(!mrc_ctl_modify_ev_profile(ctx, id, &a,
					  MRC_CTL_EV_PROFILE_EV_OP),
	       "REPLACE_EV of %d EVs", n);
	set_state(ctx, id, MRC_CTL_PROFILE_OFFLINE);
	set_state(ctx, id, MRC_CTL_PROFILE_ONLINE);
	a.ev_event_mask = 0;
	EXPECT(!mrc_ctl_query_ev_profile(ctx, id, &a,
					 MRC_CTL_EV_PROFILE_EVENT_MASK) &&
	       a.ev_event_mask == (int)(MRC_CTL_EV_GOOD |
					MRC_CTL_EV_ASSUMED_BAD |
					MRC_CTL_EV_DENIED |
					MRC_CTL_EV_UNKNOWN),
	       "event mask read back: 0x%x", (unsigned int)a.ev_event_mask);
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/*
 * Waits up to @deadline_us for events; returns when every one of @want
 * EVs on port 2 of profile @id (only the one of source port @sport, if
 * not 0) is in @state, with *@first_us the time of the first such event.
 * Every event is printed.
 */
static bool wait_events(struct mrc_comp_channel *ch, struct mrc_cq *cq,
			uint64_t id, uint16_t sport_only,
			enum mrc_ctl_ev_state state, int want,
			uint64_t t0, uint64_t deadline_us, uint64_t *first_us)
{
	uint16_t seen[64];
	int n_seen = 0, fd = -1, i, j;

	EXPECT(!mrc_get_comp_channel_fd(ch, &fd), "channel fd");
	*first_us = 0;
	while (now_us() < deadline_us && n_seen < want) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct mrc_ctl_ev_event ev[16];
		int left = (int)((deadline_us - now_us()) / 1000) + 1, n;

		if (poll(&pfd, 1, left) <= 0)
			continue;
		n = mrc_ctl_poll_ev_event(cq, 16, ev);
		EXPECT(n > 0, "poll after the fd was readable: %d", n);
		for (i = 0; i < n; i++) {
			uint16_t sport = ev[i].ev.val[0] << 8 | ev[i].ev.val[1];
			uint64_t t = now_us() - t0;

			printf("event at %llu us: profile %llu port %u udp %u %s drops %u\n",
			       (unsigned long long)t,
			       (unsigned long long)ev[i].profile_id,
			       ev[i].ev.port, sport, state_name(ev[i].state),
			       ev[i].drop_count);
			EXPECT(ev[i].profile_id == id, "an event of profile %llu",
			       (unsigned long long)ev[i].profile_id);
			if (ev[i].ev.port != 2 || ev[i].state != state ||
			    (sport_only && sport != sport_only))
				continue;
			if (!*first_us)
				*first_us = t;
			for (j = 0; j < n_seen && seen[j] != sport; j++)
				;
			if (j == n_seen && n_seen < 64)
				seen[n_seen++] = sport;
		}
	}
	return n_seen >= want;
}

static void cut(struct mrc_context *ctx, uint64_t id, int seconds,
		const char *down, const char *up, int want)
{
	struct mrc_comp_channel *ch = NULL;
	struct mrc_cq *cq, *got;
	uint64_t t0, first;
	void *cq_ctx;

	EXPECT(!mrc_create_comp_channel(ctx, &ch), "comp channel");
	cq = mrc_ctl_create_ev_event_cq(ctx, 256, (void *)0x1234, ch, 0);
	EXPECT(cq != NULL, "event CQ");
	if (!cq || !ch)
		return;
	/* Nothing yet: polling an empty CQ answers 0. */
	EXPECT(mrc_ctl_poll_ev_event(cq, 1, NULL) == -EINVAL, "NULL array");

	t0 = now_us();
	EXPECT(system(down) == 0, "%s", down);
	/* The kernel reacts while the command runs: its time is included. */
	printf("cut command took %llu us\n",
	       (unsigned long long)(now_us() - t0));
	if (wait_events(ch, cq, id, 0, MRC_CTL_EV_ASSUMED_BAD, want, t0,
			t0 + seconds * 1000000ull, &first))
		printf("ev-event latency %llu us (cut: ASSUMED_BAD)\n",
		       (unsigned long long)first);
	else
		EXPECT(0, "%d EVs of port 2 reported ASSUMED_BAD in %d s",
		       want, seconds);

	/* The channel hands back the event CQ and its context. */
	EXPECT(!mrc_req_notify_cq(cq, 0), "notify");
	t0 = now_us();
	EXPECT(system(up) == 0, "%s", up);
	printf("restore command took %llu us\n",
	       (unsigned long long)(now_us() - t0));
	EXPECT(!mrc_get_cq_event(ch, &got, &cq_ctx) && got == cq &&
	       cq_ctx == (void *)0x1234, "get_cq_event");
	if (wait_events(ch, cq, id, 0, MRC_CTL_EV_GOOD, want, t0,
			t0 + seconds * 1000000ull, &first))
		printf("ev-event latency %llu us (restore: GOOD)\n",
		       (unsigned long long)first);
	else
		EXPECT(0, "%d EVs of port 2 reported GOOD in %d s", want,
		       seconds);
	EXPECT(!mrc_destroy_cq(cq), "destroy event CQ");
	EXPECT(!mrc_destroy_comp_channel(ch), "destroy channel");
}

/* An event CQ on a channel of its own, or NULL having said why. */
static struct mrc_cq *event_cq(struct mrc_context *ctx,
			       struct mrc_comp_channel **ch)
{
	struct mrc_cq *cq;

	*ch = NULL;
	EXPECT(!mrc_create_comp_channel(ctx, ch), "comp channel");
	if (!*ch)
		return NULL;
	cq = mrc_ctl_create_ev_event_cq(ctx, 256, NULL, *ch, 0);
	EXPECT(cq != NULL, "event CQ");
	if (!cq) {
		mrc_destroy_comp_channel(*ch);
		*ch = NULL;
	}
	return cq;
}

static void event_cq_done(struct mrc_cq *cq, struct mrc_comp_channel *ch)
{
	EXPECT(!mrc_destroy_cq(cq), "destroy event CQ");
	EXPECT(!mrc_destroy_comp_channel(ch), "destroy channel");
}

/*
 * The controller's own word on one EV: a denial is reported DENIED, an
 * allowance GOOD, each once for the profile.
 */
static void deny(struct mrc_context *ctx, uint64_t id, int seconds,
		 uint16_t sport)
{
	struct mrc_ctl_ev_op_entry e = { .ev = udp_ev(2, sport) };
	struct mrc_ctl_ev_profile_attr a = {
		.ev_op = {
			.op = MRC_CTL_EV_OP_MODIFY_EV_STATE,
			.entries = &e, .entry_count = 1,
		},
	};
	struct mrc_comp_channel *ch;
	struct mrc_cq *cq = event_cq(ctx, &ch);
	uint64_t t0, first;

	if (!cq)
		return;
	e.state = MRC_CTL_EV_DENIED;
	t0 = now_us();
	EXPECT(!mrc_ctl_modify_ev_profile(ctx, id, &a,
					  MRC_CTL_EV_PROFILE_EV_OP),
	       "deny EV %u of port 2", sport);
	if (wait_events(ch, cq, id, sport, MRC_CTL_EV_DENIED, 1, t0,
			t0 + seconds * 1000000ull, &first))
		printf("ev-event latency %llu us (deny: DENIED)\n",
		       (unsigned long long)first);
	else
		EXPECT(0, "EV %u of port 2 reported DENIED in %d s", sport,
		       seconds);
	e.state = MRC_CTL_EV_GOOD;
	t0 = now_us();
	EXPECT(!mrc_ctl_modify_ev_profile(ctx, id, &a,
					  MRC_CTL_EV_PROFILE_EV_OP),
	       "allow EV %u of port 2", sport);
	if (wait_events(ch, cq, id, sport, MRC_CTL_EV_GOOD, 1, t0,
			t0 + seconds * 1000000ull, &first))
		printf("ev-event latency %llu us (allow: GOOD)\n",
		       (unsigned long long)first);
	else
		EXPECT(0, "EV %u of port 2 reported GOOD in %d s", sport,
		       seconds);
	event_cq_done(cq, ch);
}

/*
 * EVs that a connection found bad, when that connection goes: no one
 * holds them bad any more, and none has seen them good either, so they
 * are reported UNKNOWN (released), not GOOD.
 */
static void release(struct mrc_context *ctx, uint64_t id, int seconds,
		    const char *down, const char *stop, int want)
{
	struct mrc_comp_channel *ch;
	struct mrc_cq *cq = event_cq(ctx, &ch);
	uint64_t t0, first;

	if (!cq)
		return;
	t0 = now_us();
	EXPECT(system(down) == 0, "%s", down);
	if (!wait_events(ch, cq, id, 0, MRC_CTL_EV_ASSUMED_BAD, want, t0,
			 t0 + seconds * 1000000ull, &first))
		EXPECT(0, "%d EVs of port 2 reported ASSUMED_BAD in %d s",
		       want, seconds);
	t0 = now_us();
	EXPECT(system(stop) == 0, "%s", stop);
	if (wait_events(ch, cq, id, 0, MRC_CTL_EV_UNKNOWN, want, t0,
			t0 + seconds * 1000000ull, &first))
		printf("ev-event latency %llu us (connection gone: UNKNOWN)\n",
		       (unsigned long long)first);
	else
		EXPECT(0, "%d EVs of port 2 reported UNKNOWN in %d s", want,
		       seconds);
	event_cq_done(cq, ch);
}

/* A raw join of the events group, as any program could try it. */
static int raw_join(void)
{
	struct {
		struct nlmsghdr nlh;
		struct genlmsghdr genl;
		char attrs[64];
	} req = { 0 };
	char buf[8192];
	struct nlattr *a, *grp, *g;
	int fd, len, rem, rem2, group = -1;

	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
	if (fd < 0)
		return -errno;
	req.nlh.nlmsg_type = GENL_ID_CTRL;
	req.nlh.nlmsg_flags = NLM_F_REQUEST;
	req.genl.cmd = CTRL_CMD_GETFAMILY;
	req.genl.version = 1;
	a = (struct nlattr *)req.attrs;
	a->nla_type = CTRL_ATTR_FAMILY_NAME;
	a->nla_len = NLA_HDRLEN + 4;
	memcpy((char *)a + NLA_HDRLEN, "mrc", 4);
	req.nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN) + NLA_ALIGN(a->nla_len);
	if (send(fd, &req, req.nlh.nlmsg_len, 0) < 0)
		return -errno;
	len = recv(fd, buf, sizeof(buf), 0);
	if (len < (int)NLMSG_LENGTH(GENL_HDRLEN))
		return -EIO;
	rem = len - NLMSG_LENGTH(GENL_HDRLEN);
	for (a = (struct nlattr *)(buf + NLMSG_LENGTH(GENL_HDRLEN));
	     rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	     a->nla_len <= rem;
	     rem -= NLA_ALIGN(a->nla_len),
	     a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len))) {
		if ((a->nla_type & NLA_TYPE_MASK) != CTRL_ATTR_MCAST_GROUPS)
			continue;
		rem2 = a->nla_len - NLA_HDRLEN;
		for (grp = (struct nlattr *)((char *)a + NLA_HDRLEN);
		     rem2 >= NLA_HDRLEN && grp->nla_len >= NLA_HDRLEN &&
		     grp->nla_len <= rem2;
		     rem2 -= NLA_ALIGN(grp->nla_len),
		     grp = (struct nlattr *)((char *)grp +
					     NLA_ALIGN(grp->nla_len))) {
			int r = grp->nla_len - NLA_HDRLEN, id = -1;
			bool events = false;

			for (g = (struct nlattr *)((char *)grp + NLA_HDRLEN);
			     r >= NLA_HDRLEN && g->nla_len >= NLA_HDRLEN &&
			     g->nla_len <= r;
			     r -= NLA_ALIGN(g->nla_len),
			     g = (struct nlattr *)((char *)g +
						   NLA_ALIGN(g->nla_len))) {
				if (g->nla_type == CTRL_ATTR_MCAST_GRP_ID)
					id = *(int *)((char *)g + NLA_HDRLEN);
				if (g->nla_type == CTRL_ATTR_MCAST_GRP_NAME)
					events = !strcmp((char *)g + NLA_HDRLEN,
							 "events");
			}
			if (events)
				group = id;
		}
	}
	if (group < 0)
		return -ENOENT;
	if (setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &group,
		       sizeof(group)))
		return -errno;
	close(fd);
	return 0;
}

/* An IPv4 or IPv6 address as a GID (IPv4-mapped for IPv4). */
static int parse_gid(const char *s, union ibv_gid *gid)
{
	struct in_addr v4;

	memset(gid, 0, sizeof(*gid));
	if (inet_pton(AF_INET6, s, gid->raw) == 1)
		return 0;
	if (inet_pton(AF_INET, s, &v4) != 1)
		return -1;
	gid->raw[10] = 0xff;
	gid->raw[11] = 0xff;
	memcpy(gid->raw + 12, &v4, 4);
	return 0;
}

static void probe_req(struct mrc_ctl_ep_req *r, uint16_t id,
		      const union ibv_gid *src, const union ibv_gid *dst,
		      uint8_t port, uint16_t sport)
{
	memset(r, 0, sizeof(*r));
	r->req_id = id;
	r->sgid = *src;
	r->dgid = *dst;
	r->ev_fmt_mode = MRC_CTL_EV_FMT_MODE_UDP;
	r->req_ev = udp_ev(port, sport);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * One batch of @op (@status: each port status update's); prints every
 * answer and the call's wall time.
 */
static void probe(struct mrc_context *ctx, enum mrc_ctl_ep_op_type op,
		  uint32_t status, const char *src, const char *dst,
		  uint32_t timeout, int count, char **evs)
{
	struct mrc_ctl_ep_req *req = calloc(count, sizeof(*req));
	struct mrc_ctl_ep_rsp *rsp = calloc(count, sizeof(*rsp));
	union ibv_gid s, d;
	uint64_t t0;
	int i, n = -1, ret;

	if (!req || !rsp || parse_gid(src, &s) || parse_gid(dst, &d)) {
		EXPECT(0, "bad arguments");
		goto out;
	}
	for (i = 0; i < count; i++) {
		unsigned int port, sport;

		if (sscanf(evs[i], "%u:%u", &port, &sport) != 2) {
			EXPECT(0, "bad EV %s", evs[i]);
			goto out;
		}
		probe_req(&req[i], (uint16_t)(i + 1), &s, &d, (uint8_t)port,
			  (uint16_t)sport);
		req[i].op.port_status_update.port_status = status;
	}
	t0 = now_ns();
	ret = mrc_ctl_ep_batch_send_wait(ctx, 0, op, req, count, timeout, rsp,
					 &n);
	t0 = now_ns() - t0;
	EXPECT(!ret, "mrc_ctl_ep_batch_send_wait");
	if (ret) {
		printf("error %d %s\n", errno, strerror(errno));
		goto out;
	}
	for (i = 0; i < n; i++)
		printf("rsp req %u port %u rtt %u adj %u\n", rsp[i].req_id,
		       rsp[i].port, rsp[i].rtt, rsp[i].adj_svc_time);
	printf("answered %d of %d in %llu us\n", n, count,
	       (unsigned long long)(t0 / 1000));
out:
	free(req);
	free(rsp);
}

/* What lib_mrc and the kernel refuse, each alone. */
static void probe_refused(struct mrc_context *ctx, const char *src,
			  const char *dst)
{
	struct mrc_ctl_ep_req req[2];
	struct mrc_ctl_ep_rsp rsp[2];
	union ibv_gid s, d, none;
	int n = 7;

	if (parse_gid(src, &s) || parse_gid(dst, &d)) {
		EXPECT(0, "bad arguments");
		return;
	}
	probe_req(&req[0], 1, &s, &d, 1, 49152);
	probe_req(&req[1], 1, &s, &d, 1, 49153);
	/* The kernel: the same request id twice. */
	EXPECT_ERRNO(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
						req, 2, 1000000, rsp, &n),
		     EINVAL);
	EXPECT(n == 0, "num_rsp %d after a failure", n);
	/* The kernel: a source that is not one of the device's GIDs. */
	req[0].sgid = d;
	EXPECT_ERRNO(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
						req, 1, 1000000, rsp, &n),
		     EINVAL);
	/* The kernel: no unicast destination. */
	req[0].sgid = s;
	memset(&none, 0, sizeof(none));
	none.raw[0] = 0xff;
	none.raw[15] = 1;
	req[0].dgid = none;
	EXPECT_ERRNO(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
						req, 1, 1000000, rsp, &n),
		     EINVAL);
	/* lib_mrc: port 9, source port 0, a timeout of 0, no requests. */
	probe_req(&req[0], 1, &s, &d, 9, 49152);
	EXPECT_ERRNO(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
						req, 1, 1000000, rsp, &n),
		     EINVAL);
	probe_req(&req[0], 1, &s, &d, 1, 0);
	EXPECT_ERRNO(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
						req, 1, 1000000, rsp, &n),
		     EINVAL);
	probe_req(&req[0], 1, &s, &d, 1, 49152);
	EXPECT_ERRNO(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
						req, 1, 0, rsp, &n),
		     EINVAL);
	EXPECT_ERRNO(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
						req, 0, 1000000, rsp, &n),
		     EINVAL);
	/* STEV is no carrier of the kernel's. */
	req[0].ev_fmt_mode = MRC_CTL_EV_FMT_MODE_STEV;
	EXPECT_ERRNO(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
						req, 1, 1000000, rsp, &n),
		     EOPNOTSUPP);
}

/* What lib_mrc and the kernel refuse of port status updates (2 ports). */
static void port_status_refused(struct mrc_context *ctx, const char *src,
				const char *dst)
{
	const enum mrc_ctl_ep_op_type op = MRC_CTL_EP_OP_PORT_STATUS_UPDATE;
	struct mrc_ctl_ep_req req;
	struct mrc_ctl_ep_rsp rsp;
	union ibv_gid s, d;
	int n = 7;

	if (parse_gid(src, &s) || parse_gid(dst, &d)) {
		EXPECT(0, "bad arguments");
		return;
	}
	probe_req(&req, 1, &s, &d, 1, 49152);
	/* lib_mrc: bit 0 names no port. */
	req.op.port_status_update.port_status = 0x7;
	EXPECT_ERRNO(mrc_ctl_ep_batch_send_wait(ctx, 0, op, &req, 1, 1000000,
						&rsp, &n), EINVAL);
	EXPECT(n == 0, "num_rsp %d after a failure", n);
	/* The kernel: no port up, and a port the device lacks. */
	req.op.port_status_update.port_status = 0;
	EXPECT_ERRNO(mrc_ctl_ep_batch_send_wait(ctx, 0, op, &req, 1, 1000000,
						&rsp, &n), EINVAL);
	req.op.port_status_update.port_status = 0xe;
	EXPECT_ERRNO(mrc_ctl_ep_batch_send_wait(ctx, 0, op, &req, 1, 1000000,
						&rsp, &n), EINVAL);
	/* The kernel: a source that is not one of the device's GIDs. */
	req.op.port_status_update.port_status = 0x2;
	req.sgid = d;
	EXPECT_ERRNO(mrc_ctl_ep_batch_send_wait(ctx, 0, op, &req, 1, 1000000,
						&rsp, &n), EINVAL);
	/* lib_mrc: no requests, a timeout of 0. */
	req.sgid = s;
	EXPECT_ERRNO(mrc_ctl_ep_batch_send_wait(ctx, 0, op, &req, 0, 1000000,
						&rsp, &n), EINVAL);
	EXPECT_ERRNO(mrc_ctl_ep_batch_send_wait(ctx, 0, op, &req, 1, 0,
						&rsp, &n), EINVAL);
}

static void drop_net_admin(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};

	if (syscall(SYS_capget, &hdr, data)) {
		perror("capget");
		exit(1);
	}
	data[CAP_TO_INDEX(CAP_NET_ADMIN)].effective &=
		~CAP_TO_MASK(CAP_NET_ADMIN);
	if (syscall(SYS_capset, &hdr, data)) {
		perror("capset");
		exit(1);
	}
}

/*
 * Port @port's admin state, set first to @set ("enable" or "disable")
 * unless NULL, and printed as "port N enabled|disabled".
 */
static void port_admin(struct mrc_context *ctx, int port, const char *set)
{
	struct mrc_ctl_port_attr p = { 0 };

	if (set) {
		p.port_admin_state = strcmp(set, "enable") ?
				     MRC_CTL_PORT_ADMIN_DISABLED :
				     MRC_CTL_PORT_ADMIN_ENABLED;
		EXPECT(!mrc_ctl_modify_port(ctx, (uint8_t)port, &p,
					    MRC_CTL_PORT_ADMIN_STATE),
		       "modify port %d to %s", port, set);
		p.port_admin_state = 0;
	}
	EXPECT(!mrc_ctl_query_port(ctx, (uint8_t)port, &p,
				   MRC_CTL_PORT_ADMIN_STATE),
	       "query port %d", port);
	printf("port %d %s\n", port, p.port_admin_state ==
	       MRC_CTL_PORT_ADMIN_ENABLED ? "enabled" : "disabled");
}

/* Ports 0 and @planes + 1 do not exist: EINVAL, queried or modified. */
static void port_range(struct mrc_context *ctx, int planes)
{
	struct mrc_ctl_port_attr p = {
		.port_admin_state = MRC_CTL_PORT_ADMIN_ENABLED,
	};

	EXPECT_ERRNO(mrc_ctl_query_port(ctx, 0, &p, MRC_CTL_PORT_ADMIN_STATE),
		     EINVAL);
	EXPECT_ERRNO(mrc_ctl_query_port(ctx, (uint8_t)(planes + 1), &p,
					MRC_CTL_PORT_ADMIN_STATE), EINVAL);
	EXPECT_ERRNO(mrc_ctl_modify_port(ctx, (uint8_t)(planes + 1), &p,
					 MRC_CTL_PORT_ADMIN_STATE), EINVAL);
}

int main(int argc, char **argv)
{
	struct ibv_context *vctx;
	struct mrc_context *ctx;
	const char *cmd;

	if (argc < 3) {
		fprintf(stderr, "usage: see the header of mrc_ctl_probe.c\n");
		return 2;
	}
	cmd = argv[2];
	vctx = probe_open_device(argv[1]);
	if (!vctx)
		return 1;
	if (!strcmp(cmd, "unprivileged") || !strcmp(cmd, "join"))
		drop_net_admin();
	ctx = mrc_create_context(vctx, NULL);
	if (!ctx) {
		perror("mrc_create_context");
		return 1;
	}

	if (!strcmp(cmd, "device")) {
		struct mrc_ctl_device_attr d;

		EXPECT(!mrc_ctl_query_device(vctx, &d), "query device");
		printf("profiles %u evs %u free %u per-profile %u fmt 0x%x "
		       "modes 0x%x ports 0x%x opt 0x%x cc %s\n",
		       d.ev.ev_max_profiles, d.ev.ev_max_count,
		       d.ev.ev_free_count, d.ev.ev_max_count_profile,
		       d.ev.ev_fmt_mode_mask, d.ev.ev_mode_mask,
		       d.phy_port_mask, d.opt_attr,
		       d.cc.algorithms && d.cc.algorithms[0] ?
		       d.cc.algorithms[0] : "none");
	} else if (!strcmp(cmd, "explicit") && argc >= 5) {
		explicit_profile(ctx, strtoull(argv[3], NULL, 0), argc - 4,
				 argv + 4);
	} else if (!strcmp(cmd, "generated") && argc == 4) {
		generated_profile(ctx, strtoull(argv[3], NULL, 0));
	} else if (!strcmp(cmd, "show") && argc == 4) {
		show(ctx, strtoull(argv[3], NULL, 0));
	} else if (!strcmp(cmd, "set") && argc == 6) {
		set_ev(ctx, strtoull(argv[3], NULL, 0),
		       (uint16_t)strtoul(argv[4], NULL, 0), argv[5]);
	} else if (!strcmp(cmd, "offline") && argc == 4) {
		set_state(ctx, strtoull(argv[3], NULL, 0),
			  MRC_CTL_PROFILE_OFFLINE);
	} else if (!strcmp(cmd, "cc") && argc == 4) {
		cc(ctx, (uint32_t)strtoul(argv[3], NULL, 0));
	} else if (!strcmp(cmd, "port") && argc <= 5) {
		port_admin(ctx, argc > 3 ? atoi(argv[3]) : 1,
			   argc > 4 ? argv[4] : NULL);
	} else if (!strcmp(cmd, "port-range") && argc == 4) {
		port_range(ctx, atoi(argv[3]));
	} else if (!strcmp(cmd, "probe") && argc >= 7) {
		probe(ctx, MRC_CTL_EP_OP_EV_PROBE, 0, argv[3], argv[4],
		      (uint32_t)strtoul(argv[5], NULL, 0), argc - 6, argv + 6);
	} else if (!strcmp(cmd, "probe-refused") && argc == 5) {
		probe_refused(ctx, argv[3], argv[4]);
	} else if (!strcmp(cmd, "port-status") && argc >= 8) {
		probe(ctx, MRC_CTL_EP_OP_PORT_STATUS_UPDATE,
		      (uint32_t)strtoul(argv[6], NULL, 0), argv[3], argv[4],
		      (uint32_t)strtoul(argv[5], NULL, 0), argc - 7, argv + 7);
	} else if (!strcmp(cmd, "port-status-refused") && argc == 5) {
		port_status_refused(ctx, argv[3], argv[4]);
	} else if (!strcmp(cmd, "refused")) {
		refused(vctx, ctx);
	} else if (!strcmp(cmd, "unprivileged")) {
		struct mrc_ctl_device_attr d;
		struct mrc_ctl_ev_profile_attr a = { 0 };

		EXPECT_ERRNO(mrc_ctl_query_device(vctx, &d), EPERM);
		EXPECT_ERRNO(mrc_ctl_query_ev_profile(ctx, 1, &a, 0), EPERM);
		{
			struct mrc_ctl_port_attr p = {
				.port_admin_state = MRC_CTL_PORT_ADMIN_DISABLED,
			};

			EXPECT_ERRNO(mrc_ctl_modify_port(ctx, 1, &p,
					MRC_CTL_PORT_ADMIN_STATE), EPERM);
		}
		{
			struct mrc_ctl_ep_req r = { 0 };
			struct mrc_ctl_ep_rsp s;
			int n;

			r.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_UDP;
			r.req_ev = udp_ev(1, 49152);
			EXPECT_ERRNO(mrc_ctl_ep_batch_send_wait(ctx, 0,
					MRC_CTL_EP_OP_EV_PROBE, &r, 1, 1000000,
					&s, &n), EPERM);
			r.op.port_status_update.port_status = 0x6;
			EXPECT_ERRNO(mrc_ctl_ep_batch_send_wait(ctx, 0,
					MRC_CTL_EP_OP_PORT_STATUS_UPDATE, &r,
					1, 1000000, &s, &n), EPERM);
		}
		errno = 0;
		EXPECT(!mrc_ctl_create_ev_event_cq(ctx, 16, NULL, NULL, 0) &&
		       errno == EPERM, "event CQ without CAP_NET_ADMIN");
	} else if (!strcmp(cmd, "join")) {
		int err = raw_join();

		printf("join of the events group: %s\n", strerror(-err));
		EXPECT(err == -EPERM, "raw join answered %d, want EPERM", err);
	} else if (!strcmp(cmd, "evprofile") && argc >= 6) {
		ev_profile(ctx, strtoull(argv[3], NULL, 0), argv[4], argc - 5,
			   argv + 5);
	} else if (!strcmp(cmd, "cut") && argc == 8) {
		cut(ctx, strtoull(argv[3], NULL, 0), atoi(argv[4]), argv[5],
		    argv[6], atoi(argv[7]));
	} else if (!strcmp(cmd, "deny") && argc == 6) {
		deny(ctx, strtoull(argv[3], NULL, 0), atoi(argv[4]),
		     (uint16_t)strtoul(argv[5], NULL, 0));
	} else if (!strcmp(cmd, "release") && argc == 8) {
		release(ctx, strtoull(argv[3], NULL, 0), atoi(argv[4]),
			argv[5], argv[6], atoi(argv[7]));
	} else {
		fprintf(stderr, "unknown command or arguments: %s\n", cmd);
		return 2;
	}
	if (mrc_destroy_context(ctx))
		EXPECT(0, "destroy context");
	ibv_close_device(vctx);
	return failures ? 1 : 0;
}
