// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * soft-MRC libibverbs provider: address handles.
 *
 * The kernel keeps the address; its CREATE_AH response carries the handle
 * (struct mrc_create_ah_resp) that a UD send slot names the AH by.
 */
#include <errno.h>
#include <stdlib.h>

#include "mrc.h"
#include "mrc_fastpath.h"

/* CREATE_AH response as the kernel writes it: core field, then ours. */
struct mrc_create_ah_resp_full {
	__u32 ah_handle;
	struct mrc_create_ah_resp drv;
};

/* The kernel's write() commands put driver data right after the core. */
_Static_assert(offsetof(struct mrc_create_ah_resp_full, drv) ==
	       sizeof(struct ib_uverbs_create_ah_resp),
	       "mrc tail of CREATE_AH is not where driver data starts");

static struct ibv_ah *mrc_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct mrc_create_ah_resp_full resp = {};
	struct mrc_ah *ah;
	int ret;

	ah = calloc(1, sizeof(*ah));
	if (!ah)
		return NULL;

	ret = ibv_cmd_create_ah(pd, &ah->ibv_ah, attr,
				(struct ib_uverbs_create_ah_resp *)&resp,
				sizeof(resp));
	if (ret) {
		free(ah);
		errno = ret;
		return NULL;
	}
	/* 0 is never a handle: a kernel that wrote none is not ours. */
	if (!resp.drv.ah_handle) {
		ibv_cmd_destroy_ah(&ah->ibv_ah);
		free(ah);
		errno = EPROTO;
		return NULL;
	}
	ah->kernel_handle = resp.drv.ah_handle;
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
