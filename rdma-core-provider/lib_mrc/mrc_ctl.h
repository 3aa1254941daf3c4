/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * soft-MRC: the OCP MRC controller API.
 *
 * soft-MRC's own header for the controller half of the OCP companion
 * repository's MRC interface, written from its facts (names, signatures,
 * layouts, constants) so that controllers built against either header
 * agree with lib_mrc.so. One privileged process per host (CAP_NET_ADMIN)
 * uses it to administer ports, to define how paths (EVs, entropy values)
 * are encoded and enumerated, to define congestion control profiles, to
 * hear of paths found bad and to probe paths.
 *
 * Profiles of every kind move INIT -> OFFLINE -> ONLINE and back the same
 * way; only OFFLINE profiles change freely. Calls return 0, or -1 with
 * errno set (EPERM without CAP_NET_ADMIN).
 *
 * Status on soft-MRC: every call is in lib_mrc.so, over the kernel's "mrc"
 * generic netlink family (the EV event CQ over its "events" group); the
 * endpoint operations fail with EOPNOTSUPP until the kernel has them
 * (Documentation/mrc-api.rst).
 */
#ifndef SOFT_MRC_OCP_CTL_API_H
#define SOFT_MRC_OCP_CTL_API_H

#include <stdint.h>
#include <infiniband/verbs.h>

#include <mrc.h>
#include <mrc_ctl_api_ver.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MRC_CTL_MAX_VENDOR_CFG_SIZE 128

/* Bytes of an EV value (an SRv6 address and an SRH segment at most). */
#define MRC_CTL_EV_MAX_BYTES 32

enum mrc_ctl_protocol_version {
	MRC_CTL_PROTOCOL_VERSION_0 = 0,		/* the device's choice */
	MRC_CTL_PROTOCOL_VERSION_1 = 1 << 0,
};

enum mrc_ctl_profile_state {
	MRC_CTL_PROFILE_INIT,		/* created, to be configured */
	MRC_CTL_PROFILE_OFFLINE,	/* configured, not in use */
	MRC_CTL_PROFILE_ONLINE,		/* in use */
};

/* ---------------------------------------------------------------------
 * Device and versions
 */

enum mrc_ctl_attr_opt {
	MRC_CTL_OPT_CAP_EV_PROFILE_MODIFY_ONLINE = 1 << 0,
	MRC_CTL_OPT_CAP_CC_PROFILE_MODIFY_ONLINE = 1 << 1,
	MRC_CTL_OPT_CAP_EV_EVENT = 1 << 2,
	/* explicit EV lists must be base, base + 1, ..., base + count - 1 */
	MRC_CTL_OPT_CAP_EV_EXPLICIT_RANGE = 1 << 3,
	/* drop_count of an EV event is a count, not a flag */
	MRC_CTL_OPT_CAP_EV_EVENT_PRECISE_DROP_CNT = 1 << 4,
	MRC_CTL_OPT_CAP_EP_OP_EV_PROBE = 1 << 5,
};

struct mrc_ctl_device_attr {
	uint32_t mrc_ctl_protocol_version;	/* set of enum mrc_ctl_protocol_version */
	struct {
		uint32_t ev_max_fmt_profiles;
		uint32_t ev_max_profiles;
		uint32_t ev_max_count;		/* EVs of all profiles together */
		uint32_t ev_free_count;		/* of which not yet allocated */
		uint32_t ev_max_count_profile;	/* EVs of one profile */
		uint32_t ev_count_align;	/* explicit lists: a multiple of it */
		uint32_t ev_max_width;		/* bits of an expanded EV */
		uint32_t ev_fmt_mode_mask;	/* set of enum mrc_ctl_ev_fmt_mode */
		uint32_t ev_mode_mask;		/* set of enum mrc_ctl_ev_mode */
		uint32_t ev_op_max_entries;	/* per EV operation; 0: no cap */
	} ev;
	struct {
		uint32_t cc_max_profiles;
		/* NULL-terminated, owned by the library: "uet-1.0-nscc", ... */
		const char **algorithms;
	} cc;
	uint32_t phy_port_mask;		/* bit N: port N (1-based) is ours */
	uint32_t opt_attr;		/* set of enum mrc_ctl_attr_opt */
};

/*
 * Controllers written for 1.0.1 and later call mrc_ctl_query_device_ex();
 * mrc_ctl_query_device() answers with the semantics of 1.0.0.
 */
#if MRC_CTL_API_VER_USED >= MRC_CTL_API_VER(1, 0, 1)
int mrc_ctl_query_device_ex(struct ibv_context *context,
			    struct mrc_context *mcontext,
			    struct mrc_ctl_device_attr *ctl_attr,
			    int *supported);
#endif
int mrc_ctl_query_device(struct ibv_context *context,
			 struct mrc_ctl_device_attr *ctl_attr);

/* As mrc_query_version(), for the controller API's own version numbers. */
void mrc_ctl_query_version(uint32_t *current_version,
			   uint32_t *last_supported_version,
			   uint32_t *vendor_version,
			   uint32_t *last_supported_vendor_version);

/* ---------------------------------------------------------------------
 * Ports
 */

enum mrc_ctl_port_admin_state {
	MRC_CTL_PORT_ADMIN_DISABLED = 0,	/* ibv_query_port() says DOWN */
	MRC_CTL_PORT_ADMIN_ENABLED = 1,
};

enum mrc_ctl_port_attr_mask {
	MRC_CTL_PORT_ADMIN_STATE = 1 << 0,
};

struct mrc_ctl_port_attr {
	enum mrc_ctl_port_admin_state port_admin_state;
};

int mrc_ctl_query_port(struct mrc_context *context,
		       uint8_t port_num,
		       struct mrc_ctl_port_attr *attr,
		       int attr_mask);
int mrc_ctl_modify_port(struct mrc_context *context,
			uint8_t port_num,
			struct mrc_ctl_port_attr *attr,
			int attr_mask);

/* ---------------------------------------------------------------------
 * EV formats: where the bits of an EV go in a packet
 */

enum mrc_ctl_ev_fmt_mode {
	/* IPv6 flow label plus UDP source port */
	MRC_CTL_EV_FMT_MODE_STEV = 1 << 0,
	/* an SRv6 uSID container, optionally with an SRH */
	MRC_CTL_EV_FMT_MODE_SRV6 = 1 << 1,
	/* the UDP source port alone */
	MRC_CTL_EV_FMT_MODE_UDP = 1 << 2,
};

enum mrc_ctl_ev_fmt_op {
	MRC_CTL_EV_FMT_OP_MODIFY_FIELDS,
	MRC_CTL_EV_FMT_OP_QUERY_FIELDS,
};

enum mrc_ctl_ev_fmt_profile_attr_mask {
	MRC_CTL_EV_FMT_PROFILE_STATE = 1 << 0,
	MRC_CTL_EV_FMT_PROFILE_CUR_STATE = 1 << 1,
	MRC_CTL_EV_FMT_PROFILE_MODE = 1 << 2,
	MRC_CTL_EV_FMT_PROFILE_OP = 1 << 3,
	MRC_CTL_EV_FMT_VENDOR_CFG = INT32_MIN,	/* bit 31 */
};

struct mrc_ctl_ev_fmt_field {
	uint8_t width;		/* bits */
};

struct mrc_ctl_ev_fmt_profile_attr {
	enum mrc_ctl_profile_state profile_state;	/* wanted */
	enum mrc_ctl_profile_state cur_profile_state;	/* now */
	enum mrc_ctl_ev_fmt_mode ev_fmt_mode;
	struct {
		enum mrc_ctl_ev_fmt_op op;
		struct mrc_ctl_ev_fmt_field *fmt_fields;
		int fmt_field_count;	/* in: array length; out: fields */
	} ev_fmt_op;
	uint8_t vendor_cfg[MRC_CTL_MAX_VENDOR_CFG_SIZE];
};

int mrc_ctl_modify_ev_fmt_profile(struct mrc_context *mrc_ctx,
				  uint64_t ev_fmt_profile_id,
				  struct mrc_ctl_ev_fmt_profile_attr *attr,
				  int attr_mask);
int mrc_ctl_query_ev_fmt_profile(struct mrc_context *mrc_ctx,
				 uint64_t ev_fmt_profile_id,
				 struct mrc_ctl_ev_fmt_profile_attr *attr,
				 int attr_mask);

/* ---------------------------------------------------------------------
 * EVs and EV profiles
 */

/* STEV uses the first 4 bytes; SRv6 an address, then an SRH segment. */
typedef uint8_t mrc_ctl_ev_t[MRC_CTL_EV_MAX_BYTES];

struct mrc_ctl_ev {
	mrc_ctl_ev_t val;
	uint8_t port;		/* 1-based */
};

/* An EV that names no path. */
#define MRC_CTL_EV_UNPOPULATED \
	((struct mrc_ctl_ev){ .val = { 0 }, .port = 0 })

enum mrc_ctl_ev_state {
	MRC_CTL_EV_GOOD = 1 << 0,
	MRC_CTL_EV_ASSUMED_BAD = 1 << 1,
	MRC_CTL_EV_DENIED = 1 << 2,
	MRC_CTL_EV_UNKNOWN = INT32_MIN,		/* bit 31 */
};

enum mrc_ctl_ev_mode {
	MRC_CTL_EV_MODE_AUTO = 1 << 0,	/* the device's own (ECMP) */
	MRC_CTL_EV_MODE_EXP = 1 << 1,	/* a list from the controller */
	MRC_CTL_EV_MODE_GEN = 1 << 2,	/* generated from field ranges */
};

enum mrc_ctl_ev_op {
	MRC_CTL_EV_OP_REPLACE_EV,
	MRC_CTL_EV_OP_MODIFY_EV_STATE,
	MRC_CTL_EV_OP_QUERY_EV_STATE,
	MRC_CTL_EV_OP_QUERY_EV_ARRAY,
};

enum mrc_ctl_ev_fields_op {
	MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS,
	MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS,
};

enum mrc_ctl_ev_profile_attr_mask {
	MRC_CTL_EV_PROFILE_STATE = 1 << 0,
	MRC_CTL_EV_PROFILE_CUR_STATE = 1 << 1,
	MRC_CTL_EV_PROFILE_MODE = 1 << 2,
	MRC_CTL_EV_PROFILE_FMT_ID = 1 << 3,
	MRC_CTL_EV_PROFILE_COUNT = 1 << 4,
	MRC_CTL_EV_PROFILE_MIN_ACTIVE = 1 << 5,
	MRC_CTL_EV_PROFILE_EVENT_MASK = 1 << 6,
	MRC_CTL_EV_PROFILE_EV_OP = 1 << 7,
	MRC_CTL_EV_PROFILE_EV_FIELDS_OP = 1 << 8,
	MRC_CTL_EV_PROFILE_VENDOR_CFG = INT32_MIN,	/* bit 31 */
};

/*
 * One field of a generated or explicit EV: @width bits starting from
 * @init_val; the EV's bits, most significant first, replace the bits set in
 * @mask; generated values run from @min_val to @max_val.
 */
struct mrc_ctl_ev_field {
	uint32_t width;
	uint32_t init_val;
	uint32_t min_val;
	uint32_t max_val;
	uint32_t mask;
};

enum mrc_ctl_ev_op_flags {
	/* REPLACE_EV: every copy of the EV, not one of them */
	MRC_CTL_EV_OP_F_ALL_COPIES = 1 << 0,
};

/* One entry of an EV operation; which members count depends on the op. */
struct mrc_ctl_ev_op_entry {
	struct mrc_ctl_ev ev;
	struct mrc_ctl_ev ev_new;	/* REPLACE_EV only */
	enum mrc_ctl_ev_state state;
	uint32_t flags;			/* set of enum mrc_ctl_ev_op_flags */
};

struct mrc_ctl_ev_profile_attr {
	enum mrc_ctl_profile_state profile_state;	/* wanted */
	enum mrc_ctl_profile_state cur_profile_state;	/* now */
	enum mrc_ctl_ev_mode ev_mode;
	uint64_t ev_fmt_profile_id;
	uint32_t ev_count;	/* EVs in the profile (adjusted on query) */
	uint32_t ev_min_active;	/* never retire below this many */
	int ev_event_mask;	/* states whose changes raise EV events */
	struct {
		enum mrc_ctl_ev_op op;
		struct mrc_ctl_ev_op_entry *entries;
		int entry_count;	/* in: array length; out: needed */
	} ev_op;
	struct {
		enum mrc_ctl_ev_fields_op op;
		struct mrc_ctl_ev_field *fields;
		int field_count;	/* in: array length; out: needed */
	} ev_fields_op;
	uint8_t vendor_cfg[MRC_CTL_MAX_VENDOR_CFG_SIZE];
};

int mrc_ctl_modify_ev_profile(struct mrc_context *mrc_ctx,
			      uint64_t ev_profile_id,
			      struct mrc_ctl_ev_profile_attr *attr,
			      int attr_mask);
int mrc_ctl_query_ev_profile(struct mrc_context *mrc_ctx,
			     uint64_t ev_profile_id,
			     struct mrc_ctl_ev_profile_attr *attr,
			     int attr_mask);

/* ---------------------------------------------------------------------
 * Congestion control profiles
 */

enum mrc_ctl_cc_profile_attr_mask {
	MRC_CTL_CC_PROFILE_STATE = 1 << 0,
	MRC_CTL_CC_PROFILE_CUR_STATE = 1 << 1,
	MRC_CTL_CC_PROFILE_ALGORITHM = 1 << 2,
	MRC_CTL_CC_PROFILE_CONFIG = 1 << 3,
	MRC_CTL_CC_PROFILE_VENDOR_CFG = INT32_MIN,	/* bit 31 */
};

struct mrc_ctl_cc_profile_attr {
	enum mrc_ctl_profile_state profile_state;	/* wanted */
	enum mrc_ctl_profile_state cur_profile_state;	/* now */
	const char *algorithm;	/* one of the device's; NULL: CC off */
	const void *cc_config;	/* the algorithm's own structure */
	uint8_t vendor_cfg[MRC_CTL_MAX_VENDOR_CFG_SIZE];
};

/* cc_config of "uet-1.0-nscc". Times in ns, sizes in bytes. */
struct mrc_ctl_cc_nscc_cfg {
	uint8_t disable_qa;
	uint32_t adjust_bytes_threshold;
	uint32_t adjust_period_threshold;
	uint32_t base_rtt;
	float eta;
	float fi;
	float fi_scale;
	float gamma;
	float max_md_jump;
	uint32_t max_cwnd;
	uint8_t qa_gate;
	uint32_t qa_threshold;
	uint32_t target_delay;
};

int mrc_ctl_modify_cc_profile(struct mrc_context *mrc_ctx,
			      uint64_t cc_profile_id,
			      struct mrc_ctl_cc_profile_attr *attr,
			      int attr_mask);
int mrc_ctl_query_cc_profile(struct mrc_context *mrc_ctx,
			     uint64_t cc_profile_id,
			     struct mrc_ctl_cc_profile_attr *attr,
			     int attr_mask);

/* ---------------------------------------------------------------------
 * EV events: paths whose state changed
 */

struct mrc_ctl_ev_event {
	uint64_t profile_id;
	struct mrc_ctl_ev ev;
	/* events lost before this one: a count, or a flag (see opt_attr) */
	uint32_t drop_count;
#if MRC_CTL_API_VER_USED >= MRC_CTL_API_VER(1, 0, 1)
	enum mrc_ctl_ev_state state;	/* the EV's new state */
#endif
};

/* An EV event CQ never overruns. NULL with errno set on failure. */
struct mrc_cq *mrc_ctl_create_ev_event_cq(struct mrc_context *mrc_ctx,
					  int cqe,
					  void *cq_context,
					  struct mrc_comp_channel *channel,
					  int comp_vector);

/* How many events were written to @ev_event, or a negative errno. */
int mrc_ctl_poll_ev_event(struct mrc_cq *ev_cq,
			  int num_entries,
			  struct mrc_ctl_ev_event *ev_event);

/* ---------------------------------------------------------------------
 * Endpoint operations: probes and port status, without a connection
 */

enum mrc_ctl_ep_op_type {
	MRC_CTL_EP_OP_EV_PROBE,
	MRC_CTL_EP_OP_PORT_STATUS_UPDATE,
};

struct mrc_ctl_ep_req {
	uint16_t req_id;	/* unique among requests still answerable */
	union ibv_gid sgid;	/* RoCE v2 GIDs only */
	union ibv_gid dgid;
	enum mrc_ctl_ev_fmt_mode ev_fmt_mode;
	struct mrc_ctl_ev req_ev;
	union {
		struct {
			uint32_t port_status;	/* bit N: port N up */
		} port_status_update;
	} op;
};

struct mrc_ctl_ep_rsp {
	uint16_t req_id;
	uint8_t port;		/* arrived on, 1-based */
	unsigned int rtt;	/* ns */
	uint8_t adj_svc_time;	/* rtt has the responder's service time removed */
};

/*
 * Sends @num_req requests of one @op_type with traffic class @req_tc and
 * waits up to @rsp_timeout ns; *num_rsp answers in @rsp, in arrival order.
 */
int mrc_ctl_ep_batch_send_wait(struct mrc_context *mrc_ctx,
			       uint8_t req_tc,
			       enum mrc_ctl_ep_op_type op_type,
			       struct mrc_ctl_ep_req *req,
			       int num_req,
			       uint32_t rsp_timeout,
			       struct mrc_ctl_ep_rsp *rsp,
			       int *num_rsp);

#ifdef __cplusplus
}
#endif

#endif /* SOFT_MRC_OCP_CTL_API_H */
