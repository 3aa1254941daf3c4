// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * soft-MRC libibverbs provider: address handles.
 *
 * The plain uverbs commands with no driver data either way: the kernel
 * keeps the address, and a UD send WQE will name the AH by the handle
 * libibverbs stores in ibv_ah.
 */
#include <errno.h>
#include <stdlib.h>

#include "mrc.h"

struct mrc_ah {
	struct ibv_ah ibv_ah;
};

static struct ibv_ah *mrc_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct ib_uverbs_create_ah_resp resp = {};
	struct mrc_ah *ah;
	int ret;

	ah = calloc(1, sizeof(*ah));
	if (!ah)
		return NULL;

	ret = ibv_cmd_create_ah(pd, &ah->ibv_ah, attr, &resp, sizeof(resp));
	if (ret) {
		free(ah);
		errno = ret;
		return NULL;
	}
	return &ah->ibv_ah;
}

static int mrc_destroy_ah(struct ibv_ah *ibah)
{
	int ret;

	/* On failure the kernel still holds the AH, so the memory stays. */
	ret = ibv_cmd_destroy_ah(ibah);
	if (ret)
		return ret;

	free(mrc_container_of(ibah, struct mrc_ah, ibv_ah));
	return 0;
}

/* Set by alloc_context; verbs_set_ops() merges it with the other tables. */
const struct verbs_context_ops mrc_ah_context_ops = {
	.create_ah = mrc_create_ah,
	.destroy_ah = mrc_destroy_ah,
};
