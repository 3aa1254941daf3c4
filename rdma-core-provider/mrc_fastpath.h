/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * soft-MRC provider: the data path on the shared rings. Work requests are
 * checked and written into work queue slots, completions read out of
 * completion queue slots.
 *
 * Nothing here locks, makes a system call or uses libibverbs' private ABI:
 * the verbs (mrc_qp.c, mrc_srq.c, mrc_cq.c) hold the object's lock around
 * these and ring the doorbell, and the unit tests in tests/ drive them on
 * rings in ordinary memory.
 */
#ifndef MRC_PROVIDER_FASTPATH_H
#define MRC_PROVIDER_FASTPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "mrc_ring.h"

/*
 * An address handle: the kernel's handle for it (struct
 * mrc_create_ah_resp) is what a UD send slot names.
 */
struct mrc_ah {
	struct ibv_ah ibv_ah;
	uint32_t kernel_handle;
};

static inline struct mrc_ah *mrc_ah_of(struct ibv_ah *ibah)
{
	return (struct mrc_ah *)((char *)ibah - offsetof(struct mrc_ah, ibv_ah));
}

/*
 * A send WQE being written: its header is staged here and its SGEs or
 * inline bytes go straight into the slot after the last one taken, which
 * stays ours until the producer index is published.
 */
struct mrc_wqe_draft {
	struct mrc_send_wqe header;	/* copied into the slot by finish */
	uint8_t *slot;
	uint64_t length;		/* bytes its SGEs or inline data hold */
	bool has_ah;			/* a UD destination was given */
};

/*
 * An ibv_wr_* batch (mrc_wr.c): what ibv_wr_start() to ibv_wr_complete()
 * or ibv_wr_abort() have built. Its WQEs take slots as they are finished
 * but are published only by a complete without error.
 */
struct mrc_wr_batch {
	struct mrc_wqe_draft draft;
	uint64_t send_ops;	/* IBV_QP_EX_WITH_* the QP was created with */
	uint32_t start;		/* the ring's index at ibv_wr_start() */
	bool building;		/* draft holds a WQE begun and not finished */
	int err;		/* the first error of the batch, or 0 */
};

/* A send queue and what the kernel granted for it at QP creation. */
struct mrc_sq {
	struct mrc_uring ring;
	enum ibv_qp_type qp_type;	/* decides which opcodes are valid */
	uint32_t max_wr;		/* at most this many WQEs in the ring */
	uint32_t max_sge;
	uint32_t max_inline_data;
	struct mrc_wr_batch wr;		/* only for a QP with send_ops_flags */
};

/* A receive queue or shared receive queue and its granted limits. */
struct mrc_rq {
	struct mrc_uring ring;
	uint32_t max_wr;
	uint32_t max_sge;
};

/* Bytes of a send slot's header; SGEs or inline data follow it. */
#define MRC_SEND_WQE_HEADER_SIZE	sizeof(struct mrc_send_wqe)
#define MRC_RECV_WQE_HEADER_SIZE	sizeof(struct mrc_recv_wqe)

/* The slot size a queue with these limits needs at least. */
static inline uint32_t mrc_send_slot_min_size(uint32_t max_sge,
					       uint32_t max_inline_data)
{
	uint32_t sge_bytes = max_sge * (uint32_t)sizeof(struct mrc_sge);

	return MRC_SEND_WQE_HEADER_SIZE +
	       (sge_bytes > max_inline_data ? sge_bytes : max_inline_data);
}

static inline uint32_t mrc_recv_slot_min_size(uint32_t max_sge)
{
	return MRC_RECV_WQE_HEADER_SIZE +
	       max_sge * (uint32_t)sizeof(struct mrc_sge);
}

/*
 * The one way a send WQE is built, for both posting interfaces
 * (ibv_post_send() below, the ibv_wr_* calls in mrc_wr.c): begin, then the
 * opcode's fields and the UD destination, then the data as an SGE list or
 * as inline bytes (start_inline, then add_inline per buffer), then finish,
 * which takes the slot (advances sq->ring.index, publishing nothing). Each
 * step that can fail returns 0 or an errno value and leaves the slot free:
 * EINVAL for a request this QP cannot carry (opcode for its type, flags,
 * too many SGEs, inline data beyond max_inline_data or on a READ or an
 * atomic, an atomic not on 8 aligned bytes, a datagram without an AH),
 * ENOMEM when max_wr requests are outstanding, EIO when the kernel's
 * consumer index is impossible.
 */
int mrc_wqe_begin(const struct mrc_sq *sq, struct mrc_wqe_draft *draft,
		  uint64_t wr_id, enum ibv_wr_opcode opcode,
		  unsigned int send_flags);
void mrc_wqe_set_imm(struct mrc_wqe_draft *draft, __be32 imm_data);
void mrc_wqe_set_rdma(struct mrc_wqe_draft *draft, uint32_t rkey,
		      uint64_t remote_addr);
/* swap is taken for compare-and-swap only. */
void mrc_wqe_set_atomic(struct mrc_wqe_draft *draft, uint32_t rkey,
			uint64_t remote_addr, uint64_t compare_add,
			uint64_t swap);
/* SEND_WITH_INV and LOCAL_INV: the rkey to invalidate. */
void mrc_wqe_set_inv(struct mrc_wqe_draft *draft, uint32_t invalidate_rkey);
/*
 * BIND_MW: window mw gets key rkey (same index as mw->rkey) over info's
 * range of info->mr; EINVAL if rkey names another window or a range has
 * no MR. The rest of the bind rules are the kernel's.
 */
int mrc_wqe_set_bind(struct mrc_wqe_draft *draft, struct ibv_mw *mw,
		     uint32_t rkey, const struct ibv_mw_bind_info *info);
int mrc_wqe_set_ud_addr(const struct mrc_sq *sq, struct mrc_wqe_draft *draft,
			struct ibv_ah *ah, uint32_t remote_qpn,
			uint32_t remote_qkey);
int mrc_wqe_set_sge_list(const struct mrc_sq *sq, struct mrc_wqe_draft *draft,
			 const struct ibv_sge *sg_list, size_t num_sge);
int mrc_wqe_start_inline(struct mrc_wqe_draft *draft);
int mrc_wqe_add_inline(const struct mrc_sq *sq, struct mrc_wqe_draft *draft,
		       const void *addr, size_t length);
int mrc_wqe_finish(struct mrc_sq *sq, struct mrc_wqe_draft *draft);

/*
 * Writes wr and the requests chained after it into the send queue, in
 * order, and publishes the producer index once at the end. Stops at the
 * first request that is invalid (EINVAL) or finds the queue full (ENOMEM),
 * or when the kernel's consumer index is impossible (EIO); that request is
 * then *bad_wr and the ones before it are posted. *posted counts the
 * requests written, which the caller needs to decide on a doorbell.
 */
int mrc_sq_post(struct mrc_sq *sq, struct ibv_send_wr *wr,
		struct ibv_send_wr **bad_wr, uint32_t *posted);

/* The same for a receive queue or a shared receive queue. */
int mrc_rq_post(struct mrc_rq *rq, struct ibv_recv_wr *wr,
		struct ibv_recv_wr **bad_wr, uint32_t *posted);

/*
 * Reads up to num_entries completions into wc and gives their slots back.
 * Returns how many were read, or -EIO when the kernel's producer index is
 * impossible (ibv_poll_cq() reports errors as negative values).
 */
int mrc_cq_ring_poll(struct mrc_uring *ring, int num_entries,
		     struct ibv_wc *wc);

/* One completion queue slot as an ibv_wc. */
void mrc_cqe_to_wc(const struct mrc_cqe *cqe, struct ibv_wc *wc);

/* The kernel's enum ib_wc_flags, as a CQE carries them, to ibv_wc_flags. */
unsigned int mrc_wc_flags_from_kernel(uint32_t kernel_flags);

#endif /* MRC_PROVIDER_FASTPATH_H */
