// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * soft-MRC libibverbs provider: context operations.
 *
 * Ops left out of mrc_context_ops keep the defaults verbs_init_context()
 * installed, which fail with EOPNOTSUPP.
 */
#include <errno.h>
#include <stdlib.h>

#include "mrc.h"

static int mrc_query_device_ex(struct ibv_context *ibctx,
			       const struct ibv_query_device_ex_input *input,
			       struct ibv_device_attr_ex *attr,
			       size_t attr_size)
{
	/* mrc adds nothing to the response, so libibverbs may use its own. */
	return ibv_cmd_query_device_any(ibctx, input, attr, attr_size,
					NULL, NULL);
}

static int mrc_query_port(struct ibv_context *ibctx, uint8_t port_num,
			  struct ibv_port_attr *port_attr)
{
	struct verbs_cmd_query_port cmd = {};

	return ibv_cmd_query_port(ibctx, port_num, port_attr,
				  &cmd, sizeof(cmd));
}

static struct ibv_pd *mrc_alloc_pd(struct ibv_context *ibctx)
{
	struct ib_uverbs_alloc_pd_resp resp = {};
	struct verbs_cmd_alloc_pd cmd = {};
	struct mrc_pd *pd;
	int ret;

	pd = calloc(1, sizeof(*pd));
	if (!pd)
		return NULL;

	ret = ibv_cmd_alloc_pd(ibctx, &pd->ibv_pd, &cmd, sizeof(cmd),
			       &resp, sizeof(resp));
	if (ret) {
		free(pd);
		errno = ret;
		return NULL;
	}

	return &pd->ibv_pd;
}

static int mrc_dealloc_pd(struct ibv_pd *ibpd)
{
	int ret;

	/* On failure the kernel still holds the PD, so the memory stays. */
	ret = ibv_cmd_dealloc_pd(ibpd);
	if (ret)
		return ret;

	free(to_mrc_pd(ibpd));
	return 0;
}

const struct verbs_context_ops mrc_context_ops = {
	.alloc_pd = mrc_alloc_pd,
	.dealloc_pd = mrc_dealloc_pd,
	.free_context = mrc_free_context,
	.query_device_ex = mrc_query_device_ex,
	.query_port = mrc_query_port,
};
