// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * soft-MRC libibverbs provider: memory regions.
 *
 * Registration is the plain uverbs command with no driver data either way
 * (see Documentation/abi.rst); the kernel pins the pages and returns one
 * key, lkey == rkey. rereg_mr is left to the EOPNOTSUPP default.
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

/* Set by alloc_context after mrc_context_ops; verbs_set_ops() merges. */
const struct verbs_context_ops mrc_mr_context_ops = {
	.dereg_mr = mrc_dereg_mr,
	.reg_mr = mrc_reg_mr,
};
