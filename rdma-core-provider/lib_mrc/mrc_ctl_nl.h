/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * lib_mrc's side of the kernel's "mrc" generic netlink family
 * (include/uapi/rdma/mrc-ctl.h, Documentation/controller.rst): a socket,
 * each request encoded and each answer decoded into the plain structures
 * below, and each command as one call. The controller API (mrc_ctl.h) and
 * mrcctl (tools/mrcctl, linked with libmrc_nl.a) are its two users: the
 * one implementation of the family in userspace. Not installed.
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
#define MRC_NL_PRESET_MAX	16	/* preset names, with NUL */
#define MRC_NL_ALGORITHM_MAX	32	/* CC algorithm names, with NUL */
/* Connectionless probes: requests of one EP_PROBE, and a timeout, at most. */
#define MRC_NL_EP_MAX_REQS	512
#define MRC_NL_EP_TIMEOUT_MAX_NS	10000000000ULL

/* An F3216 container holds six 16-bit uSIDs after its locator block. */
#define MRC_NL_MAX_USIDS	6

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
	bool has_events;		/* the family has the events group */
	uint32_t portid;
	uint32_t seq;
	char why[256];			/* the kernel's last extended ack */
	char buf[MRC_NL_BUF_SIZE];
};

/* Bits of mrc_nl_dev.has and mrc_nl_dev_set.has: the optional settings. */
enum mrc_nl_dev_has {
	MRC_NL_DEV_DEFAULT_PROFILE = 1u << 0,
	MRC_NL_DEV_PRESET = 1u << 1,
	MRC_NL_DEV_SINGLE_PATH = 1u << 2,
	MRC_NL_DEV_DATA_DSCP = 1u << 3,
	MRC_NL_DEV_CTRL_DSCP = 1u << 4,
	MRC_NL_DEV_TXQ_PACKETS = 1u << 5,
	MRC_NL_DEV_CC_RTT_FROM_BUILD = 1u << 6,
	MRC_NL_DEV_CC_ENABLED = 1u << 7,
};

/* A plane in DEV_GET's answer: which netdev is which port. */
struct mrc_nl_dev_plane {
	char netdev[MRC_NL_NAME_MAX];	/* "" for an empty slot */
	uint32_t ifindex;		/* 0 for an empty slot */
	bool up;			/* running, with carrier */
	bool admin_up;			/* IFF_UP; false for an empty slot */
};

/* DEV_GET's answer; @has says which optional attributes it carried. */
struct mrc_nl_dev {
	char name[MRC_NL_NAME_MAX];	/* "" if the answer did not say */
	char netdev[MRC_NL_NAME_MAX];
	uint32_t num_planes;
	/*
	 * The PLANES nest, plane i in planes[i]: @has_planes false from a
	 * kernel without it; then, or before the kernel's first scan of the
	 * planes, @num_plane_info is 0. Otherwise it is @num_planes.
	 */
	bool has_planes;
	uint32_t num_plane_info;
	struct mrc_nl_dev_plane planes[MRC_NL_MAX_PLANES];
	uint32_t has;			/* enum mrc_nl_dev_has */
	uint32_t default_profile;
	char preset[MRC_NL_PRESET_MAX];
	uint8_t single_path, data_dscp, ctrl_dscp, cc_rtt_from_build;
	uint8_t cc_enabled;
	uint32_t txq_packets;
};

/*
 * DEV_SET: the settings @has names (never DEFAULT_PROFILE or CC_ENABLED).
 * The kernel judges every value, the preset's name included.
 */
struct mrc_nl_dev_set {
	uint32_t has;			/* enum mrc_nl_dev_has */
	const char *preset;
	uint8_t single_path, data_dscp, ctrl_dscp, cc_rtt_from_build;
	uint32_t txq_packets;
};

struct mrc_nl_field {
	uint32_t width, init, min, max, mask;
};

/*
 * An EV. In PROFILE_NEW the profile's format says which value is sent; in
 * EV_SET and in answers @format does: MRC_NL_FMT_UDP or _SRV6, or 0 for
 * none (EV_SET names the EV by @index; a path of SRv6 uSIDs has none).
 */
struct mrc_nl_ev {
	uint32_t index;
	uint32_t plane;
	uint8_t format;			/* enum mrc_nl_format, or 0 */
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
	/*
	 * NEW: leave MIN_ACTIVE, PLANE_MASK out (the kernel's defaults);
	 * answers: they were not in the message
	 */
	bool min_active_unset, plane_mask_unset;
	/* bit 1 << enum mrc_nl_ev_state: states raising EV events; 0: none */
	uint32_t event_mask;
};

/* One message of PATH_GET: an EV of a connected QP, and its counters. */
struct mrc_nl_path {
	uint32_t qpn, dest_qpn;
	bool has_peer;
	uint8_t peer[16];
	uint32_t profile_id;		/* 0: the built-in spraying */
	struct mrc_nl_ev ev;
	bool has_profile_index;
	uint32_t profile_index;		/* the EV's index in the profile */
	uint32_t num_usids;		/* SRv6: the switch uSIDs */
	uint16_t usids[MRC_NL_MAX_USIDS];
	uint64_t sent, acked, lost, probes;
};

/* Why an EV event's EV changed state (enum mrc_ctl_ev_reason). */
enum mrc_nl_ev_reason {
	MRC_NL_REASON_LOSS = 1,
	MRC_NL_REASON_TIMEOUT = 2,
	MRC_NL_REASON_PLANE_DOWN = 3,
	MRC_NL_REASON_PROBES = 4,
	MRC_NL_REASON_DENIED = 5,
	MRC_NL_REASON_ALLOWED = 6,
	MRC_NL_REASON_RELEASED = 7,
};

/*
 * One EV_EVENT notification: EV @ev.index of profile @profile_id is now in
 * @ev.state, as connection @qpn (0: none, the controller's change) to
 * @peer saw it; @drop_count events of the device were dropped before it.
 */
struct mrc_nl_event {
	char dev[MRC_NL_NAME_MAX];
	uint32_t profile_id;
	bool has_peer;
	uint8_t peer[16];
	uint32_t qpn;
	struct mrc_nl_ev ev;		/* ev.format says which value */
	uint8_t reason;			/* enum mrc_nl_ev_reason */
	uint32_t drop_count;
};

/* One message of PLANE_GET: a plane of the device, and its counters. */
struct mrc_nl_plane {
	char dev[MRC_NL_NAME_MAX];	/* "" if the answer did not say */
	char netdev[MRC_NL_NAME_MAX];	/* the device's; "" if not said */
	uint32_t index;
	char lower[MRC_NL_NAME_MAX];	/* the plane's netdev; "" if none */
	bool up;
	uint64_t tx_packets, tx_via_master;
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

/*
 * A CC parameter of @cc by its attribute number: false if @cc lacks it;
 * set: EINVAL for no such attribute, ERANGE for a value wider than it.
 */
bool mrc_nl_cc_param_get(const struct mrc_nl_cc *cc, int type,
			 uint64_t *value);
int mrc_nl_cc_param_set(struct mrc_nl_cc *cc, int type, uint64_t value);

struct mrc_nl_cc_state {
	char dev[MRC_NL_NAME_MAX];	/* "" if the answer did not say */
	bool enabled;
	char algorithm[MRC_NL_ALGORITHM_MAX];
	struct mrc_nl_cc cc;
};

/*
 * One request of EP_PROBE or EP_PORT_STATUS: @ev's format says whether it
 * carries a UDP source port or an SRv6 container, @ev.plane the plane it
 * leaves on. @port_status (EP_PORT_STATUS only): bit p set when plane p
 * is up.
 */
struct mrc_nl_ep_req {
	uint16_t req_id;
	uint8_t sgid[16], dgid[16];
	struct mrc_nl_ev ev;
	bool has_dscp;
	uint8_t dscp;
	uint64_t timeout_ns;
	bool has_port_status;
	uint32_t port_status;
};

/* One answer of EP_PROBE or EP_PORT_STATUS, in arrival order. */
struct mrc_nl_ep_rsp {
	uint16_t req_id;
	uint32_t plane;			/* the answer came back on */
	uint64_t rtt_ns;
	bool svc_time_removed;
};

/* --- mrc_ctl_nl_sock.c: the socket (the unit tests supply their own) */

/* 0, or an errno (ENOENT: the mrc module is not loaded). */
int mrc_nl_open(struct mrc_nl **nl);
void mrc_nl_close(struct mrc_nl *nl);
/*
 * A socket joined to the family's "events" group, for EV events only
 * (never for requests): 0, or an errno (EPERM without CAP_NET_ADMIN,
 * EOPNOTSUPP if the kernel has no such group, ENOENT without the module).
 * @rcvbuf: the receive buffer to ask for, in bytes (0: the default).
 */
int mrc_nl_events_open(struct mrc_nl **nl, int rcvbuf);
/* The socket's file descriptor, readable while events wait. */
int mrc_nl_fd(const struct mrc_nl *nl);
/*
 * Reads one datagram of events into nl->buf without waiting: its length,
 * or -1 with errno (EAGAIN: none waiting; ENOBUFS: the socket overran and
 * some events are lost).
 */
int mrc_nl_events_recv(struct mrc_nl *nl);
/*
 * Sends @req and runs @cb on each answer until the ACK or the end of the
 * dump. 0, or the kernel's errno (its message in nl->why).
 */
int mrc_nl_talk(struct mrc_nl *nl, struct nlmsghdr *req, mnl_cb_t cb,
		void *data);

/* --- mrc_ctl_nl_msg.c: requests, built in nl->buf */

/* @dev NULL: every device (a dump). */
struct nlmsghdr *mrc_nl_req_dev_get(struct mrc_nl *nl, const char *dev);
struct nlmsghdr *mrc_nl_req_dev_set(struct mrc_nl *nl, const char *dev,
				    const struct mrc_nl_dev_set *set);
struct nlmsghdr *mrc_nl_req_profile_new(struct mrc_nl *nl, const char *dev,
					const struct mrc_nl_profile *p);
struct nlmsghdr *mrc_nl_req_profile_del(struct mrc_nl *nl, const char *dev,
					uint32_t id);
struct nlmsghdr *mrc_nl_req_profile_dump(struct mrc_nl *nl, const char *dev);
struct nlmsghdr *mrc_nl_req_ev_dump(struct mrc_nl *nl, const char *dev,
				    uint32_t id);
/* @ev by its index, or by its value (@ev->format); @state its new one. */
struct nlmsghdr *mrc_nl_req_ev_set(struct mrc_nl *nl, const char *dev,
				   uint32_t id, const struct mrc_nl_ev *ev,
				   uint8_t state);
struct nlmsghdr *mrc_nl_req_cc_get(struct mrc_nl *nl, const char *dev);
/*
 * @enabled: -1 leaves it, 0 or 1 sets it; @cc may be NULL; @reset starts
 * from the preset's CC profile.
 */
struct nlmsghdr *mrc_nl_req_cc_set(struct mrc_nl *nl, const char *dev,
				   const struct mrc_nl_cc *cc, int enabled,
				   bool reset);
/* @peer (16 bytes) NULL: the QPs to every peer. */
struct nlmsghdr *mrc_nl_req_path_dump(struct mrc_nl *nl, const char *dev,
				      const uint8_t *peer);
struct nlmsghdr *mrc_nl_req_plane_dump(struct mrc_nl *nl, const char *dev);
struct nlmsghdr *mrc_nl_req_ep_probe(struct mrc_nl *nl, const char *dev,
				     const struct mrc_nl_ep_req *reqs,
				     uint32_t num);
struct nlmsghdr *mrc_nl_req_ep_port_status(struct mrc_nl *nl, const char *dev,
					   const struct mrc_nl_ep_req *reqs,
					   uint32_t num);

/*
 * --- mrc_ctl_nl_msg.c: answers, one message each call. Decoders return
 * 0 or EBADMSG (nothing past an attribute's length is read, no string is
 * cut short); the mrc_nl_parse_*() wrap them as mnl callbacks.
 */

int mrc_nl_decode_dev(const struct nlmsghdr *nlh, struct mrc_nl_dev *dev);
/* The profile with its fields (an answer lists no EVs: @p->evs NULL). */
int mrc_nl_decode_profile(const struct nlmsghdr *nlh,
			  struct mrc_nl_profile *p);
/* EV_GET: @id is the profile's. */
int mrc_nl_decode_ev(const struct nlmsghdr *nlh, uint32_t *id,
		     struct mrc_nl_ev *ev);
int mrc_nl_decode_path(const struct nlmsghdr *nlh, struct mrc_nl_path *path);
int mrc_nl_decode_plane(const struct nlmsghdr *nlh,
			struct mrc_nl_plane *plane);
int mrc_nl_decode_cc(const struct nlmsghdr *nlh, struct mrc_nl_cc_state *st);
/*
 * An EV_EVENT; ENOMSG for another message of the family's (not an
 * event), EBADMSG for a malformed one.
 */
int mrc_nl_decode_event(const struct nlmsghdr *nlh, uint16_t family,
			struct mrc_nl_event *event);
/*
 * EP_PROBE's or EP_PORT_STATUS's answer into @rsp (room for @cap), *@num
 * of them; EBADMSG also for more answers than @cap, or a request id twice.
 */
int mrc_nl_decode_ep_probe(const struct nlmsghdr *nlh,
			   struct mrc_nl_ep_rsp *rsp, uint32_t cap,
			   uint32_t *num);

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

/*
 * --- mrc_ctl_nl_calls.c: each command as one call, 0 or an errno (the
 * kernel's, its message in nl->why; EINVAL before sending for a device or
 * preset name longer than the kernel takes). A dump hands each decoded
 * message to @cb, which returns 0, or an errno that ends the dump.
 */

int mrc_nl_dev_get(struct mrc_nl *nl, const char *dev, struct mrc_nl_dev *d);
/* @dev NULL: every device the caller's namespace sees. */
int mrc_nl_dev_list(struct mrc_nl *nl, const char *dev,
		    int (*cb)(const struct mrc_nl_dev *d, void *arg),
		    void *arg);
int mrc_nl_dev_set(struct mrc_nl *nl, const char *dev,
		   const struct mrc_nl_dev_set *set);
int mrc_nl_profile_new(struct mrc_nl *nl, const char *dev,
		       const struct mrc_nl_profile *p);
int mrc_nl_profile_del(struct mrc_nl *nl, const char *dev, uint32_t id);
int mrc_nl_profile_list(struct mrc_nl *nl, const char *dev,
			int (*cb)(const struct mrc_nl_profile *p, void *arg),
			void *arg);
int mrc_nl_ev_list(struct mrc_nl *nl, const char *dev, uint32_t id,
		   int (*cb)(const struct mrc_nl_ev *ev, void *arg),
		   void *arg);
int mrc_nl_ev_set(struct mrc_nl *nl, const char *dev, uint32_t id,
		  const struct mrc_nl_ev *ev, uint8_t state);
/* @peer (16 bytes) NULL: the QPs to every peer. */
int mrc_nl_path_list(struct mrc_nl *nl, const char *dev, const uint8_t *peer,
		     int (*cb)(const struct mrc_nl_path *path, void *arg),
		     void *arg);
int mrc_nl_plane_list(struct mrc_nl *nl, const char *dev,
		      int (*cb)(const struct mrc_nl_plane *plane, void *arg),
		      void *arg);
int mrc_nl_cc_get(struct mrc_nl *nl, const char *dev,
		  struct mrc_nl_cc_state *st);
/* As mrc_nl_req_cc_set(). */
int mrc_nl_cc_set(struct mrc_nl *nl, const char *dev,
		  const struct mrc_nl_cc *cc, int enabled, bool reset);
/*
 * Sends @num (1..MRC_NL_EP_MAX_REQS, else EINVAL) probes and waits for
 * the kernel's answer: *@num_rsp answers in @rsp, which has room for @num.
 */
int mrc_nl_ep_probe(struct mrc_nl *nl, const char *dev,
		    const struct mrc_nl_ep_req *reqs, uint32_t num,
		    struct mrc_nl_ep_rsp *rsp, uint32_t *num_rsp);
/* As mrc_nl_ep_probe(), port status updates (each with its port_status). */
int mrc_nl_ep_port_status(struct mrc_nl *nl, const char *dev,
			  const struct mrc_nl_ep_req *reqs, uint32_t num,
			  struct mrc_nl_ep_rsp *rsp, uint32_t *num_rsp);

#endif /* LIB_MRC_CTL_NL_H */
