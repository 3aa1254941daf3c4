// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* ib_device_ops.resize_user_cq: resize_cq for user CQs only (7.x). */
#include <rdma/ib_verbs.h>

static int mrc_probe_resize_user_cq(struct ib_cq *cq, unsigned int cqe,
				    struct ib_udata *udata)
{
	return 0;
}

const struct ib_device_ops mrc_probe_ops = {
	.resize_user_cq = mrc_probe_resize_user_cq,
};
