// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* ib_device_ops.reg_user_mr takes a DMA handle (struct ib_dmah, 6.17). */
#include <rdma/ib_verbs.h>

static struct ib_mr *mrc_probe_reg_user_mr(struct ib_pd *pd, u64 start,
					   u64 length, u64 iova, int access,
					   struct ib_dmah *dmah,
					   struct ib_udata *udata)
{
	return NULL;
}

const struct ib_device_ops mrc_probe_ops = {
	.reg_user_mr = mrc_probe_reg_user_mr,
};
