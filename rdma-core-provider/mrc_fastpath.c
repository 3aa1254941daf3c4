// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * soft-MRC provider: work requests into work queue slots, completion queue
 * slots into work completions. See mrc_fastpath.h for the rules.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "mrc_fastpath.h"

/*
 * The WQE opcode field takes enum ib_uverbs_wr_opcode; libibverbs' values
 * are the same numbers for every opcode we accept, so wr->opcode is
 * written as it is.
 */
#define MRC_ASSERT_SAME(a, b) _Static_assert((int)(a) == (int)(b), #a " != " #b)
MRC_ASSERT_SAME(IBV_WR_RDMA_WRITE, IB_UVERBS_WR_RDMA_WRITE);
MRC_ASSERT_SAME(IBV_WR_RDMA_WRITE_WITH_IMM, IB_UVERBS_WR_RDMA_WRITE_WITH_IMM);
MRC_ASSERT_SAME(IBV_WR_SEND, IB_UVERBS_WR_SEND);
MRC_ASSERT_SAME(IBV_WR_SEND_WITH_IMM, IB_UVERBS_WR_SEND_WITH_IMM);
MRC_ASSERT_SAME(IBV_WR_RDMA_READ, IB_UVERBS_WR_RDMA_READ);
MRC_ASSERT_SAME(IBV_WR_ATOMIC_CMP_AND_SWP, IB_UVERBS_WR_ATOMIC_CMP_AND_SWP);
MRC_ASSERT_SAME(IBV_WR_ATOMIC_FETCH_AND_ADD,
		IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD);

/*
 * send_flags likewise go to the kernel as they are. Its enum ib_send_flags
 * (include/rdma/ib_verbs.h, not a uapi header, hence the literals) has
 * IB_SEND_FENCE 1, IB_SEND_SIGNALED 2, IB_SEND_SOLICITED 4, IB_SEND_INLINE 8.
 */
MRC_ASSERT_SAME(IBV_SEND_FENCE, 1);
MRC_ASSERT_SAME(IBV_SEND_SIGNALED, 2);
MRC_ASSERT_SAME(IBV_SEND_SOLICITED, 4);
MRC_ASSERT_SAME(IBV_SEND_INLINE, 8);

/*
 * A CQE's status and opcode are the kernel's enum ib_wc_status and enum
 * ib_wc_opcode, copied into ibv_wc as they are: the same numbers for every
 * status and for every opcode mrc completes (IB_WC_RECV is 1 << 7 there).
 */
MRC_ASSERT_SAME(IBV_WC_SEND, IB_UVERBS_WC_SEND);
MRC_ASSERT_SAME(IBV_WC_RDMA_WRITE, IB_UVERBS_WC_RDMA_WRITE);
MRC_ASSERT_SAME(IBV_WC_RDMA_READ, IB_UVERBS_WC_RDMA_READ);
MRC_ASSERT_SAME(IBV_WC_COMP_SWAP, IB_UVERBS_WC_COMP_SWAP);
MRC_ASSERT_SAME(IBV_WC_FETCH_ADD, IB_UVERBS_WC_FETCH_ADD);
MRC_ASSERT_SAME(IBV_WC_RECV, 1 << 7);
MRC_ASSERT_SAME(IBV_WC_RECV_RDMA_WITH_IMM, (1 << 7) + 1);
MRC_ASSERT_SAME(IBV_WC_SUCCESS, 0);
MRC_ASSERT_SAME(IBV_WC_WR_FLUSH_ERR, 5);
MRC_ASSERT_SAME(IBV_WC_REM_ACCESS_ERR, 10);
MRC_ASSERT_SAME(IBV_WC_RETRY_EXC_ERR, 12);
MRC_ASSERT_SAME(IBV_WC_RNR_RETRY_EXC_ERR, 13);
MRC_ASSERT_SAME(IBV_WC_GENERAL_ERR, 21);

/* SGEs are copied field by field, but the layouts agree anyway. */
_Static_assert(sizeof(struct ibv_sge) == sizeof(struct mrc_sge),
	       "ibv_sge and mrc_sge differ in size");
_Static_assert(sizeof(struct mrc_send_wqe) == 64 &&
	       sizeof(struct mrc_recv_wqe) == 16 &&
	       sizeof(struct mrc_cqe) == 64,
	       "mrc-abi.h slot headers changed size");

/*
 * The kernel's enum ib_wc_flags (include/rdma/ib_verbs.h). It numbers
 * WITH_INVALIDATE and IP_CSUM_OK the other way round from enum
 * ibv_wc_flags, so these are translated, not copied.
 */
enum {
	MRC_KERNEL_WC_GRH = 1 << 0,
	MRC_KERNEL_WC_WITH_IMM = 1 << 1,
	MRC_KERNEL_WC_WITH_INVALIDATE = 1 << 2,
	MRC_KERNEL_WC_IP_CSUM_OK = 1 << 3,
};

#define MRC_SEND_FLAGS_SUPPORTED					\
	(IBV_SEND_FENCE | IBV_SEND_SIGNALED | IBV_SEND_SOLICITED |	\
	 IBV_SEND_INLINE)

/* An atomic works on one naturally aligned 64-bit word. */
#define MRC_ATOMIC_BYTES	8

/*
 * Which opcodes a QP type may post. MRC's wire format carries SEND, WRITE,
 * READ and the two atomics, with or without immediate data; there is no
 * SEND_WITH_INV, LOCAL_INV or memory window bind. A UD QP sends
 * datagrams: SEND and SEND_WITH_IMM.
 */
static bool mrc_send_opcode_valid(enum ibv_qp_type qp_type,
				  enum ibv_wr_opcode opcode)
{
	if (qp_type == IBV_QPT_UD)
		return opcode == IBV_WR_SEND || opcode == IBV_WR_SEND_WITH_IMM;
	if (qp_type != IBV_QPT_RC)
		return false;

	switch (opcode) {
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_SEND:
	case IBV_WR_SEND_WITH_IMM:
	case IBV_WR_RDMA_READ:
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		return true;
	default:
		return false;
	}
}

static bool mrc_opcode_has_imm(enum ibv_wr_opcode opcode)
{
	return opcode == IBV_WR_RDMA_WRITE_WITH_IMM ||
	       opcode == IBV_WR_SEND_WITH_IMM;
}

static bool mrc_opcode_is_rdma(enum ibv_wr_opcode opcode)
{
	return opcode == IBV_WR_RDMA_WRITE ||
	       opcode == IBV_WR_RDMA_WRITE_WITH_IMM ||
	       opcode == IBV_WR_RDMA_READ;
}

static bool mrc_opcode_is_atomic(enum ibv_wr_opcode opcode)
{
	return opcode == IBV_WR_ATOMIC_CMP_AND_SWP ||
	       opcode == IBV_WR_ATOMIC_FETCH_AND_ADD;
}

/*
 * Inline data is what a request sends; READ and the atomics receive into
 * their SGEs, so their SGEs must stay addresses.
 */
static bool mrc_opcode_sends_data(enum ibv_wr_opcode opcode)
{
	return opcode == IBV_WR_SEND || opcode == IBV_WR_SEND_WITH_IMM ||
	       opcode == IBV_WR_RDMA_WRITE ||
	       opcode == IBV_WR_RDMA_WRITE_WITH_IMM;
}

/* Checks one request against the QP's type and granted limits. */
static int mrc_check_send_wr(const struct mrc_sq *sq,
			     const struct ibv_send_wr *wr, uint64_t *length)
{
	uint64_t total = 0;
	int i;

	if (!mrc_send_opcode_valid(sq->qp_type, wr->opcode))
		return EINVAL;
	if (wr->send_flags & ~MRC_SEND_FLAGS_SUPPORTED)
		return EINVAL;
	if (wr->num_sge < 0 || (uint32_t)wr->num_sge > sq->max_sge)
		return EINVAL;
	if (wr->num_sge && !wr->sg_list)
		return EINVAL;
	/* A datagram names its destination. */
	if (sq->qp_type == IBV_QPT_UD && !wr->wr.ud.ah)
		return EINVAL;

	/* 64 bits: 32 SGEs of 4 GiB each do not overflow it. */
	for (i = 0; i < wr->num_sge; i++)
		total += wr->sg_list[i].length;

	if (wr->send_flags & IBV_SEND_INLINE &&
	    (!mrc_opcode_sends_data(wr->opcode) ||
	     total > sq->max_inline_data))
		return EINVAL;
	if (mrc_opcode_is_atomic(wr->opcode) &&
	    (total != MRC_ATOMIC_BYTES ||
	     wr->wr.atomic.remote_addr % MRC_ATOMIC_BYTES))
		return EINVAL;

	*length = total;
	return 0;
}

/* Fills one send slot; the request was checked, so inline data fits. */
static void mrc_write_send_wqe(void *slot, enum ibv_qp_type qp_type,
			       const struct ibv_send_wr *wr, uint64_t length)
{
	struct mrc_send_wqe header = {
		.wr_id = wr->wr_id,
		.opcode = wr->opcode,
		.send_flags = wr->send_flags,
	};
	struct mrc_send_wqe *wqe = slot;
	int i;

	if (mrc_opcode_has_imm(wr->opcode))
		header.imm_data = wr->imm_data;	/* network order, as given */
	if (mrc_opcode_is_rdma(wr->opcode)) {
		header.remote_addr = wr->wr.rdma.remote_addr;
		header.rkey = wr->wr.rdma.rkey;
	} else if (mrc_opcode_is_atomic(wr->opcode)) {
		header.remote_addr = wr->wr.atomic.remote_addr;
		header.rkey = wr->wr.atomic.rkey;
		header.compare_add = wr->wr.atomic.compare_add;
		if (wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP)
			header.swap = wr->wr.atomic.swap;
	}
	if (qp_type == IBV_QPT_UD) {
		header.ah_handle = mrc_ah_of(wr->wr.ud.ah)->kernel_handle;
		header.remote_qpn = wr->wr.ud.remote_qpn;
		header.remote_qkey = wr->wr.ud.remote_qkey;
	}

	if (wr->send_flags & IBV_SEND_INLINE) {
		uint8_t *data = (uint8_t *)slot + MRC_SEND_WQE_HEADER_SIZE;

		/* The SGEs name the application's buffers; lkeys are moot. */
		for (i = 0; i < wr->num_sge; i++) {
			uint32_t bytes = wr->sg_list[i].length;

			if (!bytes)
				continue;
			memcpy(data,
			       (const void *)(uintptr_t)wr->sg_list[i].addr,
			       bytes);
			data += bytes;
		}
		header.inline_len = (uint32_t)length;
	} else {
		for (i = 0; i < wr->num_sge; i++) {
			wqe->sge[i].addr = wr->sg_list[i].addr;
			wqe->sge[i].length = wr->sg_list[i].length;
			wqe->sge[i].lkey = wr->sg_list[i].lkey;
		}
		header.num_sge = (uint32_t)wr->num_sge;
	}

	/*
	 * The whole header is written, reserved words included, so nothing
	 * of the slot's previous request survives into this one.
	 */
	memcpy(wqe, &header, sizeof(header));
}

/*
 * Room for one more request: EIO if the kernel's consumer index is not one
 * it could have reached, ENOMEM if max_wr requests are outstanding.
 */
static int mrc_wq_has_room(const struct mrc_uring *ring, uint32_t max_wr)
{
	uint32_t in_use = mrc_uring_in_use(ring);

	if (in_use > ring->num_slots)
		return EIO;
	if (in_use >= max_wr)
		return ENOMEM;
	return 0;
}

int mrc_sq_post(struct mrc_sq *sq, struct ibv_send_wr *wr,
		struct ibv_send_wr **bad_wr, uint32_t *posted)
{
	uint32_t count = 0;
	uint64_t length;
	int err = 0;

	for (; wr; wr = wr->next) {
		err = mrc_check_send_wr(sq, wr, &length);
		if (err)
			break;
		err = mrc_wq_has_room(&sq->ring, sq->max_wr);
		if (err)
			break;

		mrc_write_send_wqe(mrc_uring_slot(&sq->ring, sq->ring.index),
				   sq->qp_type, wr, length);
		sq->ring.index++;
		count++;
	}

	/* One release store covers every slot written above. */
	if (count)
		mrc_uring_publish_producer(&sq->ring);
	if (err)
		*bad_wr = wr;
	*posted = count;
	return err;
}

int mrc_rq_post(struct mrc_rq *rq, struct ibv_recv_wr *wr,
		struct ibv_recv_wr **bad_wr, uint32_t *posted)
{
	struct mrc_recv_wqe *wqe;
	uint32_t count = 0;
	int err = 0;
	int i;

	for (; wr; wr = wr->next) {
		if (wr->num_sge < 0 || (uint32_t)wr->num_sge > rq->max_sge ||
		    (wr->num_sge && !wr->sg_list)) {
			err = EINVAL;
			break;
		}
		err = mrc_wq_has_room(&rq->ring, rq->max_wr);
		if (err)
			break;

		wqe = mrc_uring_slot(&rq->ring, rq->ring.index);
		wqe->wr_id = wr->wr_id;
		wqe->num_sge = (uint32_t)wr->num_sge;
		wqe->reserved = 0;
		for (i = 0; i < wr->num_sge; i++) {
			wqe->sge[i].addr = wr->sg_list[i].addr;
			wqe->sge[i].length = wr->sg_list[i].length;
			wqe->sge[i].lkey = wr->sg_list[i].lkey;
		}
		rq->ring.index++;
		count++;
	}

	if (count)
		mrc_uring_publish_producer(&rq->ring);
	if (err)
		*bad_wr = wr;
	*posted = count;
	return err;
}

unsigned int mrc_wc_flags_from_kernel(uint32_t kernel_flags)
{
	unsigned int flags = 0;

	if (kernel_flags & MRC_KERNEL_WC_GRH)
		flags |= IBV_WC_GRH;
	if (kernel_flags & MRC_KERNEL_WC_WITH_IMM)
		flags |= IBV_WC_WITH_IMM;
	if (kernel_flags & MRC_KERNEL_WC_WITH_INVALIDATE)
		flags |= IBV_WC_WITH_INV;
	if (kernel_flags & MRC_KERNEL_WC_IP_CSUM_OK)
		flags |= IBV_WC_IP_CSUM_OK;
	/* The rest (SMAC, VLAN, network header type) have no ibv_wc field. */
	return flags;
}

void mrc_cqe_to_wc(const struct mrc_cqe *cqe, struct ibv_wc *wc)
{
	const struct ib_uverbs_wc *kwc = &cqe->wc;

	wc->wr_id = kwc->wr_id;
	wc->status = (enum ibv_wc_status)kwc->status;
	wc->opcode = (enum ibv_wc_opcode)kwc->opcode;
	wc->vendor_err = kwc->vendor_err;
	wc->byte_len = kwc->byte_len;
	/* Network order in both, as is the invalidated rkey's union twin. */
	wc->imm_data = kwc->ex.imm_data;
	wc->qp_num = kwc->qp_num;
	wc->src_qp = kwc->src_qp;
	wc->wc_flags = mrc_wc_flags_from_kernel(kwc->wc_flags);
	wc->pkey_index = kwc->pkey_index;
	wc->slid = kwc->slid;
	wc->sl = kwc->sl;
	wc->dlid_path_bits = kwc->dlid_path_bits;
}

int mrc_cq_ring_poll(struct mrc_uring *ring, int num_entries,
		     struct ibv_wc *wc)
{
	uint32_t available = mrc_uring_available(ring);
	uint32_t count, i;

	if (available > ring->num_slots)
		return -EIO;
	if (num_entries <= 0)
		return 0;

	count = available < (uint32_t)num_entries ? available :
						    (uint32_t)num_entries;
	for (i = 0; i < count; i++)
		mrc_cqe_to_wc(mrc_uring_slot(ring, ring->index + i), &wc[i]);

	if (count) {
		ring->index += count;
		mrc_uring_publish_consumer(ring);
	}
	return (int)count;
}
