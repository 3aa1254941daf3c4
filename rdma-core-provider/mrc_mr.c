// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * soft-MRC libibverbs provider: memory regions and memory windows.
 *
 * Registration is the plain uverbs command with no driver data either way
 * (see Documentation/abi.rst); the kernel pins the pages and returns one
 * key, lkey == rkey. rereg_mr is left to the EOPNOTSUPP default. Memory
 * windows are allocated by the plain uverbs command too, and bound by a
 * BIND_MW in the send queue (mrc_fastpath.c), ibv_bind_mw() included.
 */
#include <errno.h>
#include <stdlib.h>

#include "mrc.h"

static struct ibv_mr *mrc_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
				 uint64_t hca_va, int access)
{
	struct ib_uverbs_reg_mr_resp resp = {};
	struct verbs_cmd_reg_mr cmd = {};
	struct mrc_mr *mr;
	int ret;

	mr = calloc(1, sizeof(*mr));
	if (!mr)
		return NULL;

	ret = ibv_cmd_reg_mr(pd, addr, length, hca_va, access, &mr->vmr,
			     &cmd, sizeof(cmd), &resp, sizeof(resp));
	if (ret) {
		free(mr);
		errno = ret;
		return NULL;
	}

	return &mr->vmr.ibv_mr;
}

static int mrc_dereg_mr(struct verbs_mr *vmr)
{
	int ret;

	/* On failure the kernel still holds the MR, so the memory stays. */
	ret = ibv_cmd_dereg_mr(vmr);
	if (ret)
		return ret;

	free(to_mrc_mr(vmr));
	return 0;
}

static struct ibv_mw *mrc_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type)
{
	struct ib_uverbs_alloc_mw_resp resp = {};
	struct verbs_cmd_alloc_mw cmd = {};
	struct ibv_mw *mw;
	int ret;

	/* The kernel would refuse them as well; this says so sooner. */
	if (type != IBV_MW_TYPE_1 && type != IBV_MW_TYPE_2) {
		errno = EINVAL;
		return NULL;
	}
	mw = calloc(1, sizeof(*mw));
	if (!mw)
		return NULL;

	ret = ibv_cmd_alloc_mw(pd, type, mw, &cmd, sizeof(cmd), &resp,
			       sizeof(resp));
	if (ret) {
		free(mw);
		errno = ret;
		return NULL;
	}
	return mw;
}

static int mrc_dealloc_mw(struct ibv_mw *mw)
{
	int ret;

	ret = ibv_cmd_dealloc_mw(mw);
	if (ret)
		return ret;
	free(mw);
	return 0;
}

/*
 * ibv_bind_mw() of a type 1 window (libibverbs checked the type and the
 * MR's PD): a BIND_MW request with the next key, posted like any other.
 * The window's rkey is the new key from here on, as the verbs ask; if the
 * bind completes in error, the window keeps its old key in the kernel.
 */
static int mrc_bind_mw(struct ibv_qp *qp, struct ibv_mw *mw,
		       struct ibv_mw_bind *mw_bind)
{
	struct ibv_send_wr wr = {
		.wr_id = mw_bind->wr_id,
		.opcode = IBV_WR_BIND_MW,
		.send_flags = mw_bind->send_flags,
	};
	struct ibv_send_wr *bad_wr;
	int ret;

	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = ibv_inc_rkey(mw->rkey);
	wr.bind_mw.bind_info = mw_bind->bind_info;
	ret = ibv_post_send(qp, &wr, &bad_wr);
	if (ret)
		return ret;
	mw->rkey = wr.bind_mw.rkey;
	return 0;
}

/* Set by alloc_context after mrc_context_ops; verbs_set_ops() merges. */
const struct verbs_context_ops mrc_mr_context_ops = {
	.alloc_mw = mrc_alloc_mw,
	.bind_mw = mrc_bind_mw,
	.dealloc_mw = mrc_dealloc_mw,
	.dereg_mr = mrc_dereg_mr,
	.reg_mr = mrc_reg_mr,
};
