/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * User/kernel ABI of the mrc RDMA device (soft-MRC).
 *
 * The uverbs commands themselves are the standard ones from
 * <rdma/ib_user_verbs.h>; this header holds only what is specific to mrc:
 * the ABI version both sides must agree on and the driver-private parts of
 * command requests and responses. Every structure is padded to 8 bytes and
 * uses fixed-width types so that 32-bit and 64-bit userspace see one layout.
 */
#ifndef MRC_ABI_USER_H
#define MRC_ABI_USER_H

#include <linux/types.h>
#include <rdma/ib_user_verbs.h>

/*
 * Bumped whenever a structure below changes incompatibly. The kernel reports
 * it as the device's uverbs ABI version; the provider refuses any other.
 */
#define MRC_UVERBS_ABI_VERSION 2

/* Device names start with this; libibverbs matches the provider by it. */
#define MRC_DEVICE_NAME_PREFIX "mrc"

/* Driver-private tail of the GET_CONTEXT response. */
struct mrc_alloc_context_resp {
	__u32 abi_version;	/* MRC_UVERBS_ABI_VERSION, echoed */
	__u32 reserved;
};

/*
 * Work queues and completion queues are rings shared with userspace through
 * mmap(). A ring is one mapping: struct mrc_ring_indices, then num_slots
 * slots of slot_size bytes each (both powers of two).
 *
 * Indices run freely over all 32-bit values; slot = index & (num_slots - 1).
 * Each side writes only its own index, with release ordering after the slot
 * contents, and reads the other's with acquire ordering:
 *	send/receive queues: userspace produces, the kernel consumes;
 *	completion queues: the kernel produces, userspace consumes.
 * The kernel never trusts the userspace index: it keeps its own copy of its
 * index, copies each slot before looking at it, and treats an index that
 * claims more than num_slots entries as a broken queue.
 */
#define MRC_RING_CACHELINE	64

struct mrc_ring_indices {
	__u32 producer;
	__u32 producer_pad[MRC_RING_CACHELINE / 4 - 1];
	__u32 consumer;
	__u32 consumer_pad[MRC_RING_CACHELINE / 4 - 1];
};

/* Where a ring is and how it is laid out, returned at creation. */
struct mrc_ring_info {
	__aligned_u64 mmap_offset;	/* pass to mmap() on the uverbs fd */
	__u32 mmap_length;		/* bytes to map */
	__u32 num_slots;
	__u32 slot_size;
	__u32 reserved;
};

/* A scatter/gather element in a work request. */
struct mrc_sge {
	__aligned_u64 addr;
	__u32 length;
	__u32 lkey;
};

/*
 * A send queue slot. opcode takes the IB_UVERBS_WR_* values of
 * <rdma/ib_user_verbs.h>; send_flags the IB_SEND_* bits of the kernel's
 * verbs, which equal libibverbs' IBV_SEND_*. With IB_SEND_INLINE the data
 * (inline_len bytes) sits where the SGEs would, and num_sge is 0.
 *
 * A UD QP's slot (SEND and SEND_WITH_IMM only) names its destination:
 * ah_handle is what CREATE_AH returned in struct mrc_create_ah_resp for an
 * AH of the QP's PD, remote_qpn the destination QP, remote_qkey its Q_Key
 * (one with bit 31 set means the sending QP's own Q_Key). RC slots leave
 * ah_handle and remote_qpn zero.
 *
 * SEND_WITH_INV and LOCAL_INV carry the rkey to invalidate in rkey.
 * BIND_MW (RC only; no SGEs) binds the memory window that the index of
 * rkey names: rkey is the window's new key, remote_addr and bind_length
 * the range, bind_access its IB_ACCESS_* rights and bind_lkey the lkey of
 * the MR it lies in (ignored when bind_length is 0). The unions below give
 * the atomic and UD fields these second names; the layout is unchanged.
 */
struct mrc_send_wqe {
	__aligned_u64 wr_id;
	__u32 opcode;
	__u32 send_flags;
	__be32 imm_data;	/* WITH_IMM opcodes */
	__u32 num_sge;
	__u32 inline_len;
	union {
		__u32 rkey;		/* RDMA, atomics, INV, BIND_MW */
		__u32 remote_qkey;	/* UD */
	};
	__aligned_u64 remote_addr;
	union {
		__aligned_u64 compare_add;	/* atomic compare, or add */
		__aligned_u64 bind_length;	/* BIND_MW */
	};
	union {
		__aligned_u64 swap;
		__aligned_u64 bind_access;	/* BIND_MW */
	};
	union {
		__u32 ah_handle;	/* UD */
		__u32 bind_lkey;	/* BIND_MW */
	};
	__u32 remote_qpn;	/* UD */
	struct mrc_sge sge[];
};

/* A receive queue (or shared receive queue) slot. */
struct mrc_recv_wqe {
	__aligned_u64 wr_id;
	__u32 num_sge;
	__u32 reserved;
	struct mrc_sge sge[];
};

/* A completion queue slot: the uverbs work completion, padded to 64. */
struct mrc_cqe {
	struct ib_uverbs_wc wc;
	__aligned_u64 reserved[2];
};

struct mrc_create_cq_resp {
	struct mrc_ring_info cq;
};

/*
 * Driver-private tail of the RESIZE_CQ response: the CQ's new ring, which
 * holds every completion not yet polled at the indices it had in the old
 * one. The old ring can no longer be mapped; an existing mapping of it
 * stays valid until unmapped, but the kernel writes no more to it.
 */
struct mrc_resize_cq_resp {
	struct mrc_ring_info cq;
};

struct mrc_create_qp_resp {
	struct mrc_ring_info sq;
	struct mrc_ring_info rq;	/* all zero when the QP uses an SRQ */
};

/*
 * Driver-private data of the extended MODIFY_QP request
 * (IB_USER_VERBS_EX_CMD_MODIFY_QP; the legacy MODIFY_QP carries none): the
 * MRC attributes of an RC QP that verbs has no field for. comp_mask says
 * which fields are given; the others keep their value, and a request
 * without this data changes none of them. A comp_mask bit the kernel does
 * not know is EOPNOTSUPP, non-zero reserved bytes EINVAL, and so is any of
 * these on a QP that is not RC. A request shorter than this structure is
 * zero-filled; bytes beyond it must be zero (EOPNOTSUPP), so that fields
 * appended later fail cleanly on an older kernel.
 *
 * exp_retry_cnt: after the QP's retry_cnt timeouts, this many more, each
 * RTO twice the one before (Documentation/reliability.rst), before the
 * oldest request fails with IB_WC_RETRY_EXC_ERR; MRC_EXP_RETRY_FOREVER
 * never fails it. 0 to MRC_EXP_RETRY_FOREVER (else EINVAL), and only
 * before RTS (the requester takes it at RTR to RTS; EINVAL once in RTS).
 *
 * mpr: the requester's PSN window, in units of MRC_MPR_PSNS: at most
 * mpr x MRC_MPR_PSNS PSNs outstanding. 0 is the whole window the kernel
 * has (its responder's reordering window, 1024 PSNs); above that, EINVAL.
 * Only before RTS, as exp_retry_cnt.
 *
 * flags: enum mrc_modify_qp_flag, all of them at once; any state, taken
 * from the next packet on. MRC_QP_F_NO_TRIM_NAK: the QP's peer takes no
 * NAK(trimmed) (the OCP API's MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED), so
 * the responder answers a trimmed request with nothing and the peer finds
 * the hole in the next ACK's SACK, as for a drop. A flag this kernel does
 * not know is EOPNOTSUPP. These two bytes were reserved before: without
 * MRC_MODIFY_QP_FLAGS they must still be zero (else EINVAL), and a request
 * without it means what it did.
 *
 * ev_profile_id: the EV profile (the controller's, mrc_ctl_netlink.c) the
 * QP's paths are built from, instead of the one the kernel chooses by the
 * peer's address; 0 keeps that choice. Only at RESET to INIT (else
 * EINVAL), and EINVAL if the device has no profile of that id. The QP holds
 * the profile until it is reset or destroyed; meanwhile deleting or
 * replacing the profile is EBUSY. At INIT to RTR, a profile with no EV
 * towards the peer over a plane of the device is EINVAL (the QP stays in
 * INIT). Appended after flags (with the bytes after it, the 8-byte
 * multiple the extended request counts in): a request of the older,
 * 8-byte size has no ev_profile_id and means what it did; with
 * MRC_MODIFY_QP_EV_PROFILE set it is EINVAL.
 *
 * mpr_dest: the responder's reordering window, in units of MRC_MPR_PSNS:
 * new request PSNs at most mpr_dest x MRC_MPR_PSNS from the expected one
 * are taken, those further ahead dropped (rx_drop_out_of_window) and left
 * to the requester to send again. 0 is the whole window (1024 PSNs);
 * above that, EINVAL. Only before RTR (the responder takes it at INIT to
 * RTR; EINVAL from RTR on). It sits in the first byte of what was
 * reserved2: a request of the older 8-byte size with MRC_MODIFY_QP_MPR_DEST
 * set is EINVAL.
 */
enum mrc_modify_qp_mask {
	MRC_MODIFY_QP_EXP_RETRY_CNT	= 1 << 0,
	MRC_MODIFY_QP_MPR		= 1 << 1,
	MRC_MODIFY_QP_EV_PROFILE	= 1 << 2,
	MRC_MODIFY_QP_FLAGS		= 1 << 3,
	MRC_MODIFY_QP_MPR_DEST		= 1 << 4,
};

enum mrc_modify_qp_flag {
	MRC_QP_F_NO_TRIM_NAK		= 1 << 0,
};

#define MRC_EXP_RETRY_FOREVER	25
#define MRC_MPR_PSNS		128

struct mrc_modify_qp_mrc {
	__u32 comp_mask;	/* enum mrc_modify_qp_mask */
	__u8 exp_retry_cnt;
	__u8 mpr;
	__u16 flags;		/* enum mrc_modify_qp_flag */
	__u32 ev_profile_id;
	__u8 mpr_dest;
	__u8 reserved2[3];
};

struct mrc_create_srq_resp {
	struct mrc_ring_info rq;
};

/*
 * Driver-private tail of the CREATE_AH response: the handle a UD send slot
 * names the AH by. Handles are per device, never 0, and the kernel checks
 * that the AH belongs to the sending QP's protection domain.
 */
struct mrc_create_ah_resp {
	__u32 ah_handle;
	__u32 reserved;
};

#endif /* MRC_ABI_USER_H */
