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
MRC_ASSERT_SAME(IBV_WR_LOCAL_INV, IB_UVERBS_WR_LOCAL_INV);
MRC_ASSERT_SAME(IBV_WR_BIND_MW, IB_UVERBS_WR_BIND_MW);
MRC_ASSERT_SAME(IBV_WR_SEND_WITH_INV, IB_UVERBS_WR_SEND_WITH_INV);
/* A bind's rights go to the kernel as they are, as IB_ACCESS_* bits. */
MRC_ASSERT_SAME(IBV_ACCESS_LOCAL_WRITE, IB_UVERBS_ACCESS_LOCAL_WRITE);
MRC_ASSERT_SAME(IBV_ACCESS_REMOTE_WRITE, IB_UVERBS_ACCESS_REMOTE_WRITE);
MRC_ASSERT_SAME(IBV_ACCESS_REMOTE_READ, IB_UVERBS_ACCESS_REMOTE_READ);
MRC_ASSERT_SAME(IBV_ACCESS_REMOTE_ATOMIC, IB_UVERBS_ACCESS_REMOTE_ATOMIC);
MRC_ASSERT_SAME(IBV_ACCESS_ZERO_BASED, IB_UVERBS_ACCESS_ZERO_BASED);

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
MRC_ASSERT_SAME(IBV_WC_BIND_MW, IB_UVERBS_WC_BIND_MW);
MRC_ASSERT_SAME(IBV_WC_LOCAL_INV, IB_UVERBS_WC_LOCAL_INV);
MRC_ASSERT_SAME(IBV_WC_MW_BIND_ERR, 6);
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
 * READ and the two atomics, with or without immediate data, and
 * SEND_WITH_INV; LOCAL_INV and BIND_MW are local to the RC QP. A UD QP
 * sends datagrams: SEND and SEND_WITH_IMM. A UC QP sends SENDs and
 * WRITEs: with nothing coming back, it has no READ nor atomics, as in IBTA.
 */
static bool mrc_send_opcode_valid(enum ibv_qp_type qp_type,
				  enum ibv_wr_opcode opcode)
{
	if (qp_type == IBV_QPT_UD)
		return opcode == IBV_WR_SEND || opcode == IBV_WR_SEND_WITH_IMM;
	if (qp_type == IBV_QPT_UC)
		return opcode == IBV_WR_SEND ||
		       opcode == IBV_WR_SEND_WITH_IMM ||
		       opcode == IBV_WR_RDMA_WRITE ||
		       opcode == IBV_WR_RDMA_WRITE_WITH_IMM;
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
	case IBV_WR_SEND_WITH_INV:
	case IBV_WR_LOCAL_INV:
	case IBV_WR_BIND_MW:
		return true;
	default:
		return false;
	}
}

/* Requests that carry no data: no SGEs, nothing inline. */
static bool mrc_opcode_is_local(enum ibv_wr_opcode opcode)
{
	return opcode == IBV_WR_LOCAL_INV || opcode == IBV_WR_BIND_MW;
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
	       opcode == IBV_WR_SEND_WITH_INV ||
	       opcode == IBV_WR_RDMA_WRITE ||
	       opcode == IBV_WR_RDMA_WRITE_WITH_IMM;
}

/*
 * Room for one more request: EIO if the kernel's consumer index is not one
 * it could have reached, ENOMEM if max_wr requests are outstanding
 * (counting those of an ibv_wr_* batch not yet published).
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

int mrc_wqe_begin(const struct mrc_sq *sq, struct mrc_wqe_draft *draft,
		  uint64_t wr_id, enum ibv_wr_opcode opcode,
		  unsigned int send_flags)
{
	int err;

	if (!mrc_send_opcode_valid(sq->qp_type, opcode))
		return EINVAL;
	if (send_flags & ~MRC_SEND_FLAGS_SUPPORTED)
		return EINVAL;
	/* Checked before the slot is touched: it may still be the kernel's. */
	err = mrc_wq_has_room(&sq->ring, sq->max_wr);
	if (err)
		return err;

	/*
	 * The whole header is staged, reserved words included, so nothing
	 * of the slot's previous request survives into this one. Whether
	 * the data is inline is the data step's to say.
	 */
	*draft = (struct mrc_wqe_draft){
		.header = {
			.wr_id = wr_id,
			.opcode = opcode,
			.send_flags = send_flags & ~(unsigned int)IBV_SEND_INLINE,
		},
		.slot = mrc_uring_slot(&sq->ring, sq->ring.index),
	};
	return 0;
}

void mrc_wqe_set_imm(struct mrc_wqe_draft *draft, __be32 imm_data)
{
	draft->header.imm_data = imm_data;	/* network order, as given */
}

void mrc_wqe_set_rdma(struct mrc_wqe_draft *draft, uint32_t rkey,
		      uint64_t remote_addr)
{
	draft->header.rkey = rkey;
	draft->header.remote_addr = remote_addr;
}

void mrc_wqe_set_atomic(struct mrc_wqe_draft *draft, uint32_t rkey,
			uint64_t remote_addr, uint64_t compare_add,
			uint64_t swap)
{
	draft->header.rkey = rkey;
	draft->header.remote_addr = remote_addr;
	draft->header.compare_add = compare_add;
	if (draft->header.opcode == IBV_WR_ATOMIC_CMP_AND_SWP)
		draft->header.swap = swap;
}

void mrc_wqe_set_inv(struct mrc_wqe_draft *draft, uint32_t invalidate_rkey)
{
	draft->header.rkey = invalidate_rkey;
}

int mrc_wqe_set_bind(struct mrc_wqe_draft *draft, struct ibv_mw *mw,
		     uint32_t rkey, const struct ibv_mw_bind_info *info)
{
	/* The kernel finds the window by the index part of the new key. */
	if (!mw || !info || (rkey >> 8) != (mw->rkey >> 8) ||
	    (info->length && !info->mr))
		return EINVAL;
	draft->header.rkey = rkey;
	draft->header.remote_addr = info->addr;
	draft->header.bind_length = info->length;
	draft->header.bind_access = info->mw_access_flags;
	draft->header.bind_lkey = info->length ? info->mr->lkey : 0;
	return 0;
}

int mrc_wqe_set_ud_addr(const struct mrc_sq *sq, struct mrc_wqe_draft *draft,
			struct ibv_ah *ah, uint32_t remote_qpn,
			uint32_t remote_qkey)
{
	if (sq->qp_type != IBV_QPT_UD || !ah)
		return EINVAL;
	draft->header.ah_handle = mrc_ah_of(ah)->kernel_handle;
	draft->header.remote_qpn = remote_qpn;
	draft->header.remote_qkey = remote_qkey;
	draft->has_ah = true;
	return 0;
}

int mrc_wqe_set_sge_list(const struct mrc_sq *sq, struct mrc_wqe_draft *draft,
			 const struct ibv_sge *sg_list, size_t num_sge)
{
	struct mrc_sge *sge = (struct mrc_sge *)(draft->slot +
						 MRC_SEND_WQE_HEADER_SIZE);
	uint64_t total = 0;
	size_t i;

	if (num_sge > sq->max_sge || (num_sge && !sg_list) ||
	    mrc_opcode_is_local(draft->header.opcode))
		return EINVAL;

	/* 64 bits: 32 SGEs of 4 GiB each do not overflow it. */
	for (i = 0; i < num_sge; i++) {
		sge[i].addr = sg_list[i].addr;
		sge[i].length = sg_list[i].length;
		sge[i].lkey = sg_list[i].lkey;
		total += sg_list[i].length;
	}
	draft->header.send_flags &= ~(uint32_t)IBV_SEND_INLINE;
	draft->header.num_sge = (uint32_t)num_sge;
	draft->header.inline_len = 0;
	draft->length = total;
	return 0;
}

int mrc_wqe_start_inline(struct mrc_wqe_draft *draft)
{
	if (!mrc_opcode_sends_data(draft->header.opcode))
		return EINVAL;
	draft->header.send_flags |= IBV_SEND_INLINE;
	draft->header.num_sge = 0;
	draft->header.inline_len = 0;
	draft->length = 0;
	return 0;
}

int mrc_wqe_add_inline(const struct mrc_sq *sq, struct mrc_wqe_draft *draft,
		       const void *addr, size_t length)
{
	/* draft->length never exceeds max_inline_data. */
	if (length > sq->max_inline_data - draft->length)
		return EINVAL;
	if (!length)
		return 0;
	if (!addr)
		return EINVAL;
	/* The slot has room for max_inline_data bytes after the header. */
	memcpy(draft->slot + MRC_SEND_WQE_HEADER_SIZE + draft->length, addr,
	       length);
	draft->length += length;
	draft->header.inline_len = (uint32_t)draft->length;
	return 0;
}

int mrc_wqe_finish(struct mrc_sq *sq, struct mrc_wqe_draft *draft)
{
	/* A datagram names its destination. */
	if (sq->qp_type == IBV_QPT_UD && !draft->has_ah)
		return EINVAL;
	if (mrc_opcode_is_atomic(draft->header.opcode) &&
	    (draft->length != MRC_ATOMIC_BYTES ||
	     draft->header.remote_addr % MRC_ATOMIC_BYTES))
		return EINVAL;

	memcpy(draft->slot, &draft->header, sizeof(draft->header));
	sq->ring.index++;
	return 0;
}

/* ibv_post_send()'s front end: one request through the WQE steps. */
static int mrc_sq_post_one(struct mrc_sq *sq, const struct ibv_send_wr *wr)
{
	struct mrc_wqe_draft draft;
	int err, i;

	if (wr->num_sge < 0 || (uint32_t)wr->num_sge > sq->max_sge ||
	    (wr->num_sge && !wr->sg_list))
		return EINVAL;
	err = mrc_wqe_begin(sq, &draft, wr->wr_id, wr->opcode,
			    wr->send_flags);
	if (err)
		return err;

	if (mrc_opcode_has_imm(wr->opcode))
		mrc_wqe_set_imm(&draft, wr->imm_data);
	if (wr->opcode == IBV_WR_SEND_WITH_INV ||
	    wr->opcode == IBV_WR_LOCAL_INV)
		mrc_wqe_set_inv(&draft, wr->invalidate_rkey);
	if (wr->opcode == IBV_WR_BIND_MW) {
		err = mrc_wqe_set_bind(&draft, wr->bind_mw.mw,
				       wr->bind_mw.rkey,
				       &wr->bind_mw.bind_info);
		if (err)
			return err;
	}
	if (mrc_opcode_is_local(wr->opcode)) {
		if (wr->send_flags & IBV_SEND_INLINE)
			return EINVAL;
		return mrc_wqe_finish(sq, &draft);
	}
	if (mrc_opcode_is_rdma(wr->opcode))
		mrc_wqe_set_rdma(&draft, wr->wr.rdma.rkey,
				 wr->wr.rdma.remote_addr);
	else if (mrc_opcode_is_atomic(wr->opcode))
		mrc_wqe_set_atomic(&draft, wr->wr.atomic.rkey,
				   wr->wr.atomic.remote_addr,
				   wr->wr.atomic.compare_add,
				   wr->wr.atomic.swap);
	if (sq->qp_type == IBV_QPT_UD) {
		err = mrc_wqe_set_ud_addr(sq, &draft, wr->wr.ud.ah,
					  wr->wr.ud.remote_qpn,
					  wr->wr.ud.remote_qkey);
		if (err)
			return err;
	}

	if (wr->send_flags & IBV_SEND_INLINE) {
		/* The SGEs name the application's buffers; lkeys are moot. */
		err = mrc_wqe_start_inline(&draft);
		for (i = 0; !err && i < wr->num_sge; i++)
			err = mrc_wqe_add_inline(sq, &draft,
				(const void *)(uintptr_t)wr->sg_list[i].addr,
				wr->sg_list[i].length);
	} else {
		err = mrc_wqe_set_sge_list(sq, &draft, wr->sg_list,
					   (size_t)wr->num_sge);
	}
	if (err)
		return err;
	return mrc_wqe_finish(sq, &draft);
}

int mrc_sq_post(struct mrc_sq *sq, struct ibv_send_wr *wr,
		struct ibv_send_wr **bad_wr, uint32_t *posted)
{
	uint32_t start = sq->ring.index;
	int err = 0;

	for (; wr; wr = wr->next) {
		err = mrc_sq_post_one(sq, wr);
		if (err)
			break;
	}

	/* One release store covers every slot written above. */
	*posted = sq->ring.index - start;
	if (*posted)
		mrc_uring_publish_producer(&sq->ring);
	if (err)
		*bad_wr = wr;
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
