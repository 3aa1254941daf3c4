/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * soft-MRC: the OCP MRC application API.
 *
 * An open implementation of the interface the OCP companion repository
 * (opencomputeproject/OCP-Multipath-Reliable-Connection) publishes for MRC
 * queue pairs. This header is soft-MRC's own, written from the API's facts:
 * every name, signature, structure layout and constant matches the
 * published one, so that a program (or a binary) built against either
 * header works with lib_mrc.so. Documentation/mrc-api.rst says what each
 * call does on soft-MRC and what it refuses.
 *
 * The API sits beside libibverbs: the caller opens the device, allocates
 * protection domains and registers memory with ibv_* calls, then creates
 * MRC objects from the ibv_context. Completions are struct ibv_wc and work
 * requests struct ibv_send_wr / ibv_recv_wr. MRC queue pairs carry RDMA
 * WRITE and RDMA WRITE with immediate only, and never answer
 * receiver-not-ready: receives for immediates are posted in advance.
 *
 * Calls that return int return 0 on success. On failure every call sets
 * errno; calls documented as returning -1 return -1, the others return the
 * errno value itself, as their libibverbs counterparts do.
 */
#ifndef SOFT_MRC_OCP_API_H
#define SOFT_MRC_OCP_API_H

#include <stdint.h>
#include <infiniband/verbs.h>

#include <mrc_api_ver.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque objects, all owned by an mrc_context. */
struct mrc_context;
struct mrc_comp_channel;
struct mrc_cq;
struct mrc_qp_hint;
struct mrc_qp;

/* Size of the opaque, vendor-defined byte arrays in attributes. */
#define MRC_MAX_VENDOR_CFG_SIZE 128

/*
 * Versions of the MRC wire protocol, one bit each. A device reports the set
 * it speaks; a QP asks for one of them, or for 0 (the device's choice).
 */
enum mrc_protocol_version {
	MRC_PROTOCOL_VERSION_0 = 0,
	MRC_PROTOCOL_VERSION_1 = 1 << 0,
};

/* ---------------------------------------------------------------------
 * Versions and devices
 */

/* Optional device features. */
enum mrc_device_cap {
	MRC_DEVICE_CAP_TRIM_NACK = 1 << 0,	/* answers a trimmed packet with a NACK */
	MRC_DEVICE_CAP_DYNAMIC_MPR = 1 << 1,	/* MPR can follow the load */
	MRC_DEVICE_CAP_SVC_TIME = 1 << 2,	/* responder reports service time */
};

/*
 * What a device offers MRC queue pairs. MPR (the PSN window) is counted in
 * units of 128 PSNs; WIMM is the number of RDMA WRITE with immediate
 * operations in flight.
 */
struct mrc_device_attr {
	uint32_t mrc_protocol_version;	/* set of enum mrc_protocol_version */
	struct {
		uint16_t max_wimm;	/* as requester */
		uint16_t max_wimm_dest;	/* as responder */
	} wimm_attr;
	struct {
		uint8_t max_mpr;
		uint8_t mpr_resolution;	/* MPRs are allocated in these steps */
	} mpr_attr;
	struct {
		uint32_t max_qp_hint;
	} qp_attr;
	uint32_t cap;			/* set of enum mrc_device_cap */
};

/*
 * Whether the device of @context speaks MRC (*supported non-zero) and with
 * what limits. Returns 0, or -1 with errno set. mrc_query_device() answers
 * with the semantics of API 1.0.0; programs written for 1.0.1 and later use
 * mrc_query_device_ex(), which also takes the MRC context (may be NULL).
 */
#if MRC_API_VER_USED >= MRC_API_VER(1, 0, 1)
int mrc_query_device_ex(struct ibv_context *context,
			struct mrc_context *mcontext,
			struct mrc_device_attr *attr,
			int *supported);
#endif
int mrc_query_device(struct ibv_context *context,
		     struct mrc_device_attr *attr,
		     int *supported);

/*
 * The library's range of API versions and of vendor API versions, encoded
 * by MRC_API_VER(). Callable before any context exists. A NULL pointer
 * leaves that value out.
 */
void mrc_query_version(uint32_t *current_version,
		       uint32_t *last_supported_version,
		       uint32_t *vendor_version,
		       uint32_t *last_supported_vendor_version);

/* ---------------------------------------------------------------------
 * Contexts
 */

/* The versions the program is written for; 0 means "not stated". */
struct mrc_context_attr {
	uint32_t mrc_api_version_used;
	uint32_t mrc_vendor_api_version_used;
};

/*
 * An instance of the library on an open verbs device, parent of every other
 * MRC object. @context_attr may be NULL. Returns NULL with errno set on
 * failure.
 */
struct mrc_context *mrc_create_context(struct ibv_context *vcontext,
				       struct mrc_context_attr *context_attr);

/* Returns 0, or -1 with errno set (EBUSY while it still owns objects). */
int mrc_destroy_context(struct mrc_context *mrc_ctx);

/* ---------------------------------------------------------------------
 * Completion channels and completion queues
 */

/* Returns 0 and *channel, or an error as ibv_create_comp_channel() would. */
int mrc_create_comp_channel(struct mrc_context *mrc_ctx,
			    struct mrc_comp_channel **channel);

/* The file descriptor to poll() on. Returns 0, or -1 with errno set. */
int mrc_get_comp_channel_fd(struct mrc_comp_channel *channel, int *fd);

/* Returns 0, or an error as ibv_destroy_comp_channel() would. */
int mrc_destroy_comp_channel(struct mrc_comp_channel *channel);

/*
 * A CQ of at least @cqe entries. @channel (may be NULL) receives its
 * events on @comp_vector. Returns NULL with errno set on failure.
 */
struct mrc_cq *mrc_create_cq(struct mrc_context *mrc_ctx,
			     int cqe,
			     void *cq_context,
			     struct mrc_comp_channel *channel,
			     int comp_vector);

/*
 * Up to @num_entries completions into @wc, as ibv_poll_cq(): returns how
 * many (fewer than asked: the CQ is now empty), or -1 on error.
 */
int mrc_poll_cq(struct mrc_cq *cq, int num_entries, struct ibv_wc *wc);

/* Returns 0, or an error as ibv_destroy_cq() would. */
int mrc_destroy_cq(struct mrc_cq *cq);

/* ---------------------------------------------------------------------
 * QP hints: how a group of QPs will be used, so that the provider can
 * size its resources for them.
 */

struct mrc_qp_hint_attr {
	/* QPs of the group sending to one peer (destination IP) at a time */
	int num_qps_per_peer;
	/* distinct peers the group sends to at the same time */
	int num_send_peers;
	/* remote QPs sending to this QP's peer meanwhile (its incast) */
	int num_remote_recv_peers;
	uint8_t vendor_cfg[MRC_MAX_VENDOR_CFG_SIZE];
};

/* Which members of struct mrc_qp_hint_attr a call reads or writes. */
enum mrc_qp_hint_attr_mask {
	MRC_QP_HINT_NUM_QPS_PER_PEER = 1 << 0,
	MRC_QP_HINT_NUM_SEND_PEERS = 1 << 1,
	MRC_QP_HINT_NUM_REMOTE_RECV_PEERS = 1 << 2,
	MRC_QP_HINT_VENDOR_CFG = INT32_MIN,	/* bit 31 */
};

struct mrc_qp_hint_init_attr {
	struct mrc_qp_hint_attr attr;
};

/* Returns NULL with errno set on failure. */
struct mrc_qp_hint *mrc_create_qp_hint(struct mrc_context *mrc_ctx,
				       struct mrc_qp_hint_init_attr *init_attr);

/* Returns 0, or -1 with errno set: EINVAL, or EBUSY while a QP uses it. */
int mrc_destroy_qp_hint(struct mrc_qp_hint *qp_hint);

/* Return 0, or -1 with errno set. */
int mrc_query_qp_hint(struct mrc_qp_hint *qp_hint,
		      struct mrc_qp_hint_attr *qp_hint_attr,
		      int qp_hint_attr_mask);
int mrc_modify_qp_hint(struct mrc_qp_hint *qp_hint,
		       struct mrc_qp_hint_attr *qp_hint_attr,
		       int qp_hint_attr_mask);

/* ---------------------------------------------------------------------
 * MRC queue pairs
 */

struct mrc_qp_init_attr {
	void *qp_context;
	struct mrc_cq *send_cq;
	struct mrc_cq *recv_cq;
	struct ibv_qp_cap cap;
	int sq_sig_all;
	struct ibv_pd *pd;
	uint64_t send_ops_flags;	/* IBV_QP_EX_WITH_* bits */
	enum mrc_protocol_version protocol_version;	/* 0: the device's */
};

/* A QP in RESET. Returns NULL with errno set, as ibv_create_qp(). */
struct mrc_qp *mrc_create_qp(struct mrc_context *mrc_ctx,
			     struct mrc_qp_init_attr *mrc_qp_attr);

/* Returns 0, or an error as ibv_destroy_qp() would. */
int mrc_destroy_qp(struct mrc_qp *qp);

/*
 * Which members of struct mrc_qp_attr a call reads or writes. The profiles
 * and the hint belong to RESET->INIT, the responder's MPR and WIMM to
 * INIT->RTR, the requester's MPR, WIMM, timeout and retries to RTR->RTS.
 */
enum mrc_qp_attr_mask {
	MRC_QP_MAX_WIMM = 1 << 0,
	MRC_QP_MAX_WIMM_DEST = 1 << 1,
	MRC_QP_MPR = 1 << 2,
	MRC_QP_MPR_DEST = 1 << 3,
	MRC_QP_TIMEOUT = 1 << 4,
	MRC_QP_EV_PROFILE_ID = 1 << 5,
	MRC_QP_CC_PROFILE_ID = 1 << 6,
	MRC_QP_HINT = 1 << 7,
	MRC_QP_RETRY_CNT = 1 << 8,
	MRC_QP_CAP = 1 << 9,
	MRC_QP_VENDOR_CFG = INT32_MIN,		/* bit 31 */
};

/* Per-QP feature switches (struct mrc_qp_attr.cap). */
enum mrc_qp_cap {
	MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED = 1 << 0,	/* peer cannot take trim NACKs */
	MRC_QP_CAP_DYNAMIC_MPR = 1 << 1,		/* both roles; both ends must agree */
	MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED = 1 << 2,	/* peer reports no service time */
};

struct mrc_qp_attr {
	struct {
		uint8_t mpr;		/* requester, units of 128 PSNs */
		uint8_t mpr_dest;	/* responder, units of 128 PSNs */
	} mpr;
	struct {
		uint16_t max_wimm;	/* requester */
		uint16_t max_wimm_dest;	/* responder */
	} wimm;
	uint8_t timeout;	/* ACK timeout 1.024 us << timeout; at most 24 */
	/* Profiles a controller programmed; their ids are learnt out of band. */
	struct {
		uint64_t ev_profile_id;
		uint64_t cc_profile_id;
	} profile;
	struct {
		uint8_t linear_cnt;	/* fixed-interval retries, at most 7 */
		uint8_t exp_cnt;	/* backed-off retries, at most 25 (25: forever) */
	} retry;
	struct mrc_qp_hint *qp_hint;	/* NULL: none */
	uint32_t cap;			/* set of enum mrc_qp_cap */
	uint8_t vendor_cfg[MRC_MAX_VENDOR_CFG_SIZE];
};

/*
 * The verbs attributes of @vattr_mask into @vattr and the MRC attributes of
 * @mrc_attr_mask into @mrc_attr; the creation attributes into @init_attr.
 * Returns 0 or an error as ibv_query_qp().
 */
int mrc_query_qp(struct mrc_qp *qp,
		 struct ibv_qp_attr *vattr,
		 int vattr_mask,
		 struct mrc_qp_attr *mrc_attr,
		 int mrc_attr_mask,
		 struct mrc_qp_init_attr *init_attr);

/*
 * Moves the QP through RESET, INIT, RTR and RTS (IBV_QP_STATE, with
 * IBV_QP_CUR_STATE as an assertion) and sets verbs and MRC attributes. The
 * ACK timeout and the retry counts are MRC attributes; the verbs ones
 * (IBV_QP_TIMEOUT, IBV_QP_RETRY_CNT, IBV_QP_RNR_RETRY, IBV_QP_MIN_RNR_TIMER,
 * IBV_QP_MAX_QP_RD_ATOMIC, IBV_QP_MAX_DEST_RD_ATOMIC, IBV_QP_ALT_PATH,
 * IBV_QP_PATH_MIG_STATE) and IBV_QP_PORT are not MRC's. The source GID of
 * IBV_QP_AV is looked up on the context's device. Returns 0 or an error as
 * ibv_modify_qp().
 */
int mrc_modify_qp(struct mrc_qp *qp,
		  struct ibv_qp_attr *vattr,
		  int vattr_mask,
		  struct mrc_qp_attr *mrc_attr,
		  int mrc_attr_mask);

/* Returns 0, or -1 with errno set. */
int mrc_get_qpn(struct mrc_qp *qp, uint32_t *qpn);

/* Receives for WRITE with immediate. Returns 0, or -1 with errno set. */
int mrc_post_recv(struct mrc_qp *qp,
		  struct ibv_recv_wr *wr,
		  struct ibv_recv_wr **bad_wr);

/*
 * IBV_WR_RDMA_WRITE and IBV_WR_RDMA_WRITE_WITH_IMM only. Returns 0 or an
 * error as ibv_post_send(), *bad_wr naming the first request not posted.
 */
int mrc_post_send(struct mrc_qp *qp,
		  struct ibv_send_wr *wr,
		  struct ibv_send_wr **bad_wr);

/* ---------------------------------------------------------------------
 * Events
 */

struct mrc_async_event {
	union {
		struct mrc_cq *cq;
		struct mrc_qp *qp;
		int port_num;
	} element;
	enum ibv_event_type event_type;
};

/*
 * Blocks for the context's next asynchronous event, which must later be
 * passed to mrc_ack_async_event(). Returns 0, or -1 with errno set, as
 * ibv_get_async_event().
 */
int mrc_get_async_event(struct mrc_context *mrc_ctx,
			struct mrc_async_event *event);
void mrc_ack_async_event(struct mrc_async_event *event);

/* Arms @cq, as ibv_req_notify_cq(). Returns 0 or an errno value. */
int mrc_req_notify_cq(struct mrc_cq *cq, int solicited_only);

/*
 * Blocks for the channel's next CQ event (as ibv_get_cq_event(); 0 or -1).
 * Every event got is acknowledged, in any grouping, with
 * mrc_ack_cq_events(); mrc_destroy_cq() waits for those acknowledgements.
 */
int mrc_get_cq_event(struct mrc_comp_channel *channel,
		     struct mrc_cq **cq,
		     void **cq_context);
void mrc_ack_cq_events(struct mrc_cq *cq, unsigned int nevents);

#ifdef __cplusplus
}
#endif

#endif /* SOFT_MRC_OCP_API_H */
