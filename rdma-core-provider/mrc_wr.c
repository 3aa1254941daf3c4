// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * soft-MRC provider: the ibv_wr_* WR builders and setters. See mrc_wr.h.
 *
 * Each builder finishes the WQE before it (its data and destination are
 * complete once the next one begins) and begins its own with the
 * ibv_qp_ex's wr_id and wr_flags; each setter fills in the WQE begun last.
 * The calls return nothing, so the first failure is kept in the batch and
 * every later call of the batch does nothing: ibv_wr_complete() returns it
 * and posts none of the batch, as the ibv_wr_post(3) man page asks.
 */
#include <errno.h>
#include <stdbool.h>

#include "mrc_wr.h"

/* What mrc carries: the opcodes of MRC's wire format (mrc_fastpath.c). */
#define MRC_WR_OPS_RC							\
	(IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |	\
	 IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |		\
	 IBV_QP_EX_WITH_RDMA_READ | IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |	\
	 IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD |				\
	 IBV_QP_EX_WITH_SEND_WITH_INV | IBV_QP_EX_WITH_LOCAL_INV |	\
	 IBV_QP_EX_WITH_BIND_MW)
#define MRC_WR_OPS_UD	(IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM)
#define MRC_WR_OPS_UC							\
	(MRC_WR_OPS_UD | IBV_QP_EX_WITH_RDMA_WRITE |			\
	 IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM)

int mrc_wr_check_send_ops(enum ibv_qp_type qp_type, uint64_t send_ops_flags)
{
	if (send_ops_flags & ~(uint64_t)MRC_WR_OPS_RC)
		return EOPNOTSUPP;
	if (qp_type == IBV_QPT_UD && send_ops_flags & ~(uint64_t)MRC_WR_OPS_UD)
		return EINVAL;
	if (qp_type == IBV_QPT_UC && send_ops_flags & ~(uint64_t)MRC_WR_OPS_UC)
		return EINVAL;
	return 0;
}

static void mrc_wr_fail(struct mrc_wr_batch *batch, int err)
{
	if (!batch->err)
		batch->err = err;
}

/*
 * Finishes the WQE begun last, if any; false when the batch has failed,
 * now or before.
 */
static bool mrc_wr_finish_last(struct mrc_sq *sq)
{
	struct mrc_wr_batch *batch = &sq->wr;

	if (batch->err)
		return false;
	if (batch->building) {
		batch->building = false;
		mrc_wr_fail(batch, mrc_wqe_finish(sq, &batch->draft));
	}
	return !batch->err;
}

/* A builder's first step; NULL when the batch has failed. */
static struct mrc_wqe_draft *mrc_wr_begin(struct ibv_qp_ex *qpx,
					  enum ibv_wr_opcode opcode,
					  uint64_t send_op)
{
	struct mrc_sq *sq = mrc_qp_ex_sq(qpx);
	struct mrc_wr_batch *batch = &sq->wr;
	int err;

	if (!mrc_wr_finish_last(sq))
		return NULL;
	/* send_ops_flags names the operations the QP's ops were set for. */
	if (!(batch->send_ops & send_op)) {
		mrc_wr_fail(batch, EINVAL);
		return NULL;
	}
	err = mrc_wqe_begin(sq, &batch->draft, qpx->wr_id, opcode,
			    qpx->wr_flags);
	if (err) {
		mrc_wr_fail(batch, err);
		return NULL;
	}
	batch->building = true;
	return &batch->draft;
}

/* A setter's WQE: the one begun last; NULL (and EINVAL) if none. */
static struct mrc_wqe_draft *mrc_wr_current(struct mrc_sq *sq)
{
	struct mrc_wr_batch *batch = &sq->wr;

	if (batch->err)
		return NULL;
	if (!batch->building) {
		mrc_wr_fail(batch, EINVAL);
		return NULL;
	}
	return &batch->draft;
}

static void mrc_wr_send(struct ibv_qp_ex *qpx)
{
	mrc_wr_begin(qpx, IBV_WR_SEND, IBV_QP_EX_WITH_SEND);
}

static void mrc_wr_send_imm(struct ibv_qp_ex *qpx, __be32 imm_data)
{
	struct mrc_wqe_draft *draft;

	draft = mrc_wr_begin(qpx, IBV_WR_SEND_WITH_IMM,
			     IBV_QP_EX_WITH_SEND_WITH_IMM);
	if (draft)
		mrc_wqe_set_imm(draft, imm_data);
}

static void mrc_wr_rdma_write(struct ibv_qp_ex *qpx, uint32_t rkey,
			      uint64_t remote_addr)
{
	struct mrc_wqe_draft *draft;

	draft = mrc_wr_begin(qpx, IBV_WR_RDMA_WRITE,
			     IBV_QP_EX_WITH_RDMA_WRITE);
	if (draft)
		mrc_wqe_set_rdma(draft, rkey, remote_addr);
}

static void mrc_wr_rdma_write_imm(struct ibv_qp_ex *qpx, uint32_t rkey,
				  uint64_t remote_addr, __be32 imm_data)
{
	struct mrc_wqe_draft *draft;

	draft = mrc_wr_begin(qpx, IBV_WR_RDMA_WRITE_WITH_IMM,
			     IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM);
	if (draft) {
		mrc_wqe_set_rdma(draft, rkey, remote_addr);
		mrc_wqe_set_imm(draft, imm_data);
	}
}

static void mrc_wr_rdma_read(struct ibv_qp_ex *qpx, uint32_t rkey,
			     uint64_t remote_addr)
{
	struct mrc_wqe_draft *draft;

	draft = mrc_wr_begin(qpx, IBV_WR_RDMA_READ, IBV_QP_EX_WITH_RDMA_READ);
	if (draft)
		mrc_wqe_set_rdma(draft, rkey, remote_addr);
}

static void mrc_wr_atomic_cmp_swp(struct ibv_qp_ex *qpx, uint32_t rkey,
				  uint64_t remote_addr, uint64_t compare,
				  uint64_t swap)
{
	struct mrc_wqe_draft *draft;

	draft = mrc_wr_begin(qpx, IBV_WR_ATOMIC_CMP_AND_SWP,
			     IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP);
	if (draft)
		mrc_wqe_set_atomic(draft, rkey, remote_addr, compare, swap);
}

static void mrc_wr_atomic_fetch_add(struct ibv_qp_ex *qpx, uint32_t rkey,
				    uint64_t remote_addr, uint64_t add)
{
	struct mrc_wqe_draft *draft;

	draft = mrc_wr_begin(qpx, IBV_WR_ATOMIC_FETCH_AND_ADD,
			     IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD);
	if (draft)
		mrc_wqe_set_atomic(draft, rkey, remote_addr, add, 0);
}

/*
 * The builders mrc does not have. Creation refuses their send_ops_flags,
 * so only an application that calls what it did not ask for gets here: it
 * gets the error from ibv_wr_complete() rather than a NULL call.
 */
static void mrc_wr_unsupported(struct ibv_qp_ex *qpx)
{
	struct mrc_sq *sq = mrc_qp_ex_sq(qpx);

	if (mrc_wr_finish_last(sq))
		mrc_wr_fail(&sq->wr, EOPNOTSUPP);
}

/* The request is complete as it is: a bind takes no data. */
static void mrc_wr_bind_mw(struct ibv_qp_ex *qpx, struct ibv_mw *mw,
			   uint32_t rkey,
			   const struct ibv_mw_bind_info *bind_info)
{
	struct mrc_sq *sq = mrc_qp_ex_sq(qpx);
	struct mrc_wqe_draft *draft;

	draft = mrc_wr_begin(qpx, IBV_WR_BIND_MW, IBV_QP_EX_WITH_BIND_MW);
	if (draft)
		mrc_wr_fail(&sq->wr, mrc_wqe_set_bind(draft, mw, rkey,
						      bind_info));
}

static void mrc_wr_local_inv(struct ibv_qp_ex *qpx, uint32_t invalidate_rkey)
{
	struct mrc_wqe_draft *draft;

	draft = mrc_wr_begin(qpx, IBV_WR_LOCAL_INV, IBV_QP_EX_WITH_LOCAL_INV);
	if (draft)
		mrc_wqe_set_inv(draft, invalidate_rkey);
}

static void mrc_wr_send_inv(struct ibv_qp_ex *qpx, uint32_t invalidate_rkey)
{
	struct mrc_wqe_draft *draft;

	draft = mrc_wr_begin(qpx, IBV_WR_SEND_WITH_INV,
			     IBV_QP_EX_WITH_SEND_WITH_INV);
	if (draft)
		mrc_wqe_set_inv(draft, invalidate_rkey);
}

static void mrc_wr_send_tso(struct ibv_qp_ex *qpx, void *hdr, uint16_t hdr_sz,
			    uint16_t mss)
{
	(void)hdr;
	(void)hdr_sz;
	(void)mss;
	mrc_wr_unsupported(qpx);
}

static void mrc_wr_set_xrc_srqn(struct ibv_qp_ex *qpx, uint32_t remote_srqn)
{
	(void)remote_srqn;
	mrc_wr_unsupported(qpx);
}

static void mrc_wr_set_ud_addr(struct ibv_qp_ex *qpx, struct ibv_ah *ah,
			       uint32_t remote_qpn, uint32_t remote_qkey)
{
	struct mrc_sq *sq = mrc_qp_ex_sq(qpx);
	struct mrc_wqe_draft *draft = mrc_wr_current(sq);

	if (draft)
		mrc_wr_fail(&sq->wr, mrc_wqe_set_ud_addr(sq, draft, ah,
							 remote_qpn,
							 remote_qkey));
}

static void mrc_wr_set_sge_list(struct ibv_qp_ex *qpx, size_t num_sge,
				const struct ibv_sge *sg_list)
{
	struct mrc_sq *sq = mrc_qp_ex_sq(qpx);
	struct mrc_wqe_draft *draft = mrc_wr_current(sq);

	if (draft)
		mrc_wr_fail(&sq->wr, mrc_wqe_set_sge_list(sq, draft, sg_list,
							  num_sge));
}

static void mrc_wr_set_sge(struct ibv_qp_ex *qpx, uint32_t lkey,
			   uint64_t addr, uint32_t length)
{
	const struct ibv_sge sge = {
		.addr = addr,
		.length = length,
		.lkey = lkey,
	};

	mrc_wr_set_sge_list(qpx, 1, &sge);
}

/* The bytes are copied now: the caller may reuse its buffers at once. */
static void mrc_wr_set_inline_data_list(struct ibv_qp_ex *qpx, size_t num_buf,
					const struct ibv_data_buf *buf_list)
{
	struct mrc_sq *sq = mrc_qp_ex_sq(qpx);
	struct mrc_wqe_draft *draft = mrc_wr_current(sq);
	int err;
	size_t i;

	if (!draft)
		return;
	err = num_buf && !buf_list ? EINVAL : mrc_wqe_start_inline(draft);
	for (i = 0; !err && i < num_buf; i++)
		err = mrc_wqe_add_inline(sq, draft, buf_list[i].addr,
					 buf_list[i].length);
	mrc_wr_fail(&sq->wr, err);
}

static void mrc_wr_set_inline_data(struct ibv_qp_ex *qpx, void *addr,
				   size_t length)
{
	const struct ibv_data_buf buf = {
		.addr = addr,
		.length = length,
	};

	mrc_wr_set_inline_data_list(qpx, 1, &buf);
}

void mrc_wr_init(struct ibv_qp_ex *qpx, struct mrc_sq *sq,
		 uint64_t send_ops_flags)
{
	sq->wr = (struct mrc_wr_batch){ .send_ops = send_ops_flags };

	qpx->wr_send = mrc_wr_send;
	qpx->wr_send_imm = mrc_wr_send_imm;
	qpx->wr_rdma_write = mrc_wr_rdma_write;
	qpx->wr_rdma_write_imm = mrc_wr_rdma_write_imm;
	qpx->wr_rdma_read = mrc_wr_rdma_read;
	qpx->wr_atomic_cmp_swp = mrc_wr_atomic_cmp_swp;
	qpx->wr_atomic_fetch_add = mrc_wr_atomic_fetch_add;
	qpx->wr_bind_mw = mrc_wr_bind_mw;
	qpx->wr_local_inv = mrc_wr_local_inv;
	qpx->wr_send_inv = mrc_wr_send_inv;
	qpx->wr_send_tso = mrc_wr_send_tso;
	qpx->wr_set_ud_addr = mrc_wr_set_ud_addr;
	qpx->wr_set_xrc_srqn = mrc_wr_set_xrc_srqn;
	qpx->wr_set_sge = mrc_wr_set_sge;
	qpx->wr_set_sge_list = mrc_wr_set_sge_list;
	qpx->wr_set_inline_data = mrc_wr_set_inline_data;
	qpx->wr_set_inline_data_list = mrc_wr_set_inline_data_list;
	/*
	 * Builders that later rdma-core releases appended (wr_atomic_write
	 * in 44, wr_flush in 45) stay NULL: not every verbs.h we build
	 * against has them, and creation refuses their send_ops_flags.
	 */
}

void mrc_wr_batch_start(struct mrc_sq *sq)
{
	struct mrc_wr_batch *batch = &sq->wr;

	batch->start = sq->ring.index;
	batch->building = false;
	batch->err = 0;
}

int mrc_wr_batch_end(struct mrc_sq *sq, uint32_t *posted)
{
	int err;

	*posted = 0;
	if (!mrc_wr_finish_last(sq)) {
		err = sq->wr.err;
		mrc_wr_batch_abort(sq);
		return err;
	}
	*posted = sq->ring.index - sq->wr.start;
	/* One release store covers every slot of the batch. */
	if (*posted)
		mrc_uring_publish_producer(&sq->ring);
	return 0;
}

void mrc_wr_batch_abort(struct mrc_sq *sq)
{
	/* The slots taken were never published: the kernel saw none. */
	sq->ring.index = sq->wr.start;
	sq->wr.building = false;
	sq->wr.err = 0;
}
