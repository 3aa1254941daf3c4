// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: connectionless endpoint operations (EV probes, port status
 * updates to a peer). Not yet: the kernel probes an EV only inside a
 * connection (paths.rst) and has no request for a probe to an address,
 * nor a message carrying port status to a peer. The arguments are checked
 * (EINVAL, EPERM), then the call fails with EOPNOTSUPP, and
 * MRC_CTL_OPT_CAP_EP_OP_EV_PROBE is not in the device's opt_attr.
 * Documentation/mrc-api.rst, "Kernel work for the controller API", says
 * what the kernel needs.
 */
#include "mrc_ctl_lib.h"

MRC_EXPORT
int mrc_ctl_ep_batch_send_wait(struct mrc_context *mrc_ctx, uint8_t req_tc,
			       enum mrc_ctl_ep_op_type op_type,
			       struct mrc_ctl_ep_req *req, int num_req,
			       uint32_t rsp_timeout,
			       struct mrc_ctl_ep_rsp *rsp, int *num_rsp)
{
	(void)req_tc;
	(void)rsp_timeout;
	if (!mrc_ctx || !req || num_req < 1 || !rsp || !num_rsp ||
	    (op_type != MRC_CTL_EP_OP_EV_PROBE &&
	     op_type != MRC_CTL_EP_OP_PORT_STATUS_UPDATE))
		return mrc_fail(EINVAL);
	if (!mrc_ctl_capable())
		return mrc_fail(EPERM);
	*num_rsp = 0;
	return mrc_fail(EOPNOTSUPP);
}
