// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* ib_device_ops.create_cq takes a uverbs_attr_bundle, not a udata (6.11). */
#include <rdma/ib_verbs.h>

static int mrc_probe_create_cq(struct ib_cq *cq,
			       const struct ib_cq_init_attr *attr,
			       struct uverbs_attr_bundle *attrs)
{
	return 0;
}

const struct ib_device_ops mrc_probe_ops = {
	.create_cq = mrc_probe_create_cq,
};
