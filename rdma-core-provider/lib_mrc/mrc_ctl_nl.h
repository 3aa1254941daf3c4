/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * lib_mrc's side of the kernel's "mrc" generic netlink family
 * (include/uapi/rdma/mrc-ctl.h, Documentation/controller.rst): a socket,
 * and each request the controller API needs encoded and each answer
 * decoded into the plain structures below. Not installed.
 *
 * The uapi header and the OCP mrc_ctl.h both name enum mrc_ctl_ev_state,
 * enum mrc_ctl_ev_mode and MRC_CTL_EV_GOOD (with other values), so no
 * file may include both: mrc_ctl_nl_msg.c includes the uapi one and
 * this header, the mrc_ctl_*.c files of the API include mrc_ctl.h and
 * this header, and the values below are checked against the uapi's where
 * it is included.
 */
#ifndef LIB_MRC_CTL_NL_H
#define LIB_MRC_CTL_NL_H

#include <stdbool.h>
#include <stdint.h>
#include <libmnl/libmnl.h>

/* The kernel's bounds (mrc-ctl.h), restated. */
#define MRC_NL_PROFILE_ID_MIN	1
#define MRC_NL_PROFILE_ID_MAX	64
#define MRC_NL_MAX_EVS		1024
#define MRC_NL_MAX_FIELDS	8
#define MRC_NL_MAX_PLANES	8
#define MRC_NL_NAME_MAX		64	/* device and netdev names, with NUL */

enum mrc_nl_format {
	MRC_NL_FMT_UDP = 1,
	MRC_NL_FMT_SRV6 = 2,
};

enum mrc_nl_mode {
	MRC_NL_MODE_EXPLICIT = 1,
	MRC_NL_MODE_GENERATED = 2,
};

enum mrc_nl_ev_state {
	MRC_NL_EV_UNKNOWN = 0,
	MRC_NL_EV_GOOD = 1,
	MRC_NL_EV_ASSUMED_BAD = 2,
	MRC_NL_EV_DENIED = 3,
};

/* Large enough for PROFILE_NEW with 1024 SRv6 EVs (about 33 KiB). */
#define MRC_NL_BUF_SIZE		(1 << 16)

struct mrc_nl {
	struct mnl_socket *sock;	/* NULL in the unit tests */
	uint16_t family;
	uint32_t portid;
	uint32_t seq;
	char why[128];			/* the kernel's last extended ack */
	char buf[MRC_NL_BUF_SIZE];
};

struct mrc_nl_dev {
	char netdev[MRC_NL_NAME_MAX];
	uint32_t num_planes;
	uint32_t default_profile;
	uint8_t cc_enabled;
};

struct mrc_nl_field {
	uint32_t width, init, min, max, mask;
};

struct mrc_nl_ev {
	uint32_t index;
	uint32_t plane;
	uint16_t udp_sport;		/* UDP format */
	uint8_t srv6[16];		/* SRv6 format */
	uint8_t state;			/* enum mrc_nl_ev_state */
};

struct mrc_nl_profile {
	uint32_t id;
	uint8_t format;			/* enum mrc_nl_format */
	uint8_t mode;			/* enum mrc_nl_mode */
	uint32_t min_active;
	uint32_t num_evs;
	bool is_default;
	bool has_peer;
	uint8_t peer[16];
	uint32_t plane_mask;		/* generated */
	uint32_t num_fields;		/* generated */
	struct mrc_nl_field fields[MRC_NL_MAX_FIELDS];
	const struct mrc_nl_ev *evs;	/* explicit, num_evs of them (NEW) */
	bool replace;			/* NEW */
};

/* The CC nest; @has has bit N set for each MRC_CTL_CC_A_* N given. */
struct mrc_nl_cc {
	uint32_t has;
	uint64_t base_rtt, target_delay, qa_threshold;
	uint32_t mtu, max_cwnd, eta, fi, fi_scale, pi, gamma, max_md_jump;
	uint32_t qa_gate;
	uint8_t disable_qa;
};

/* The CC attribute numbers this library sets (checked against the uapi). */
enum mrc_nl_cc_attr {
	MRC_NL_CC_BASE_RTT = 1,
	MRC_NL_CC_TARGET_DELAY = 2,
	MRC_NL_CC_QA_THRESHOLD = 3,
	MRC_NL_CC_MTU = 4,
	MRC_NL_CC_MAX_CWND = 5,
	MRC_NL_CC_ETA = 6,
	MRC_NL_CC_FI = 7,
	MRC_NL_CC_FI_SCALE = 8,
	MRC_NL_CC_PI = 9,
	MRC_NL_CC_GAMMA = 10,
	MRC_NL_CC_MAX_MD_JUMP = 11,
	MRC_NL_CC_QA_GATE = 12,
	MRC_NL_CC_DISABLE_QA = 13,
};

struct mrc_nl_cc_state {
	bool enabled;
	char algorithm[32];
	struct mrc_nl_cc cc;
};

/* --- mrc_ctl_nl_sock.c: the socket (the unit tests supply their own) */

/* 0, or an errno (ENOENT: the mrc module is not loaded). */
int mrc_nl_open(struct mrc_nl **nl);
void mrc_nl_close(struct mrc_nl *nl);
/*
 * Sends @req and runs @cb on each answer until the ACK or the end of the
 * dump. 0, or the kernel's errno (its message in nl->why).
 */
int mrc_nl_talk(struct mrc_nl *nl, struct nlmsghdr *req, mnl_cb_t cb,
		void *data);

/* --- mrc_ctl_nl_msg.c: requests, built in nl->buf */

struct nlmsghdr *mrc_nl_req_dev_get(struct mrc_nl *nl, const char *dev);
struct nlmsghdr *mrc_nl_req_profile_new(struct mrc_nl *nl, const char *dev,
					const struct mrc_nl_profile *p);
struct nlmsghdr *mrc_nl_req_profile_del(struct mrc_nl *nl, const char *dev,
					uint32_t id);
struct nlmsghdr *mrc_nl_req_profile_dump(struct mrc_nl *nl, const char *dev);
struct nlmsghdr *mrc_nl_req_ev_dump(struct mrc_nl *nl, const char *dev,
				    uint32_t id);
struct nlmsghdr *mrc_nl_req_ev_set(struct mrc_nl *nl, const char *dev,
				   uint32_t id, uint32_t index, uint8_t state);
struct nlmsghdr *mrc_nl_req_cc_get(struct mrc_nl *nl, const char *dev);
/* @enabled: -1 leaves it, 0 or 1 sets it; @cc may be NULL. */
struct nlmsghdr *mrc_nl_req_cc_set(struct mrc_nl *nl, const char *dev,
				   const struct mrc_nl_cc *cc, int enabled);
struct nlmsghdr *mrc_nl_req_path_dump(struct mrc_nl *nl, const char *dev);

/* --- mrc_ctl_nl_msg.c: answers, one message each call */

/* @data: struct mrc_nl_dev. */
int mrc_nl_parse_dev(const struct nlmsghdr *nlh, void *data);

/* PROFILE_GET: @data is struct mrc_nl_profile_find. */
struct mrc_nl_profile_find {
	uint32_t id;			/* the one wanted; 0: none */
	bool found;
	struct mrc_nl_profile profile;
	uint32_t total_evs;		/* of every profile */
	uint32_t count;			/* profiles */
};
int mrc_nl_parse_profile(const struct nlmsghdr *nlh, void *data);

/* EV_GET: @data is struct mrc_nl_ev_list (evs[index] filled). */
struct mrc_nl_ev_list {
	uint8_t format;
	uint32_t capacity;
	struct mrc_nl_ev *evs;
	uint32_t seen;
};
int mrc_nl_parse_ev(const struct nlmsghdr *nlh, void *data);

/*
 * PATH_GET: @data is struct mrc_nl_path_bad; bad[i] is set when a
 * connection using profile @id holds its EV i ASSUMED_BAD.
 */
struct mrc_nl_path_bad {
	uint32_t id;
	uint32_t capacity;
	bool *bad;
};
int mrc_nl_parse_path(const struct nlmsghdr *nlh, void *data);

/* CC_GET: @data is struct mrc_nl_cc_state. */
int mrc_nl_parse_cc(const struct nlmsghdr *nlh, void *data);

#endif /* LIB_MRC_CTL_NL_H */
