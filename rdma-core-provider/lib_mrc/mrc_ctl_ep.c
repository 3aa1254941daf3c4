// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: connectionless endpoint operations. EV probes are the kernel's
 * EP_PROBE (Documentation/controller.rst): each request becomes a probe
 * from its SGID to its DGID over the EV's port (plane port - 1) and path,
 * with the DSCP of @req_tc, which the peer's device answers; the kernel
 * waits up to @rsp_timeout ns for every answer and reports them in
 * arrival order, RTTs in ns with the responder's service time removed
 * where it reported one. The context's other controller calls wait while
 * a batch is out. Port status updates are the kernel's EP_PORT_STATUS,
 * sent and answered the same way: port_status bit N (port N) is the
 * kernel's PORT_STATUS bit N - 1 (plane N - 1); bit 0 names no port.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mrc_ctl_lib.h"

static int mrc_ctl_ep_req_to_nl(const struct mrc_ctl_ep_req *req,
				enum mrc_ctl_ep_op_type op_type,
				uint8_t req_tc, uint32_t rsp_timeout,
				struct mrc_nl_ep_req *out)
{
	uint32_t ports = req->op.port_status_update.port_status;
	uint8_t format;
	int err;

	memset(out, 0, sizeof(*out));
	if (op_type == MRC_CTL_EP_OP_PORT_STATUS_UPDATE) {
		/* Port 0 does not exist; the kernel bounds the others. */
		if (ports & 1)
			return EINVAL;
		out->has_port_status = true;
		out->port_status = ports >> 1;
	}
	err = mrc_ctl_fmt_to_nl(req->ev_fmt_mode, &format);
	if (!err)
		err = mrc_ctl_ev_to_nl(&req->req_ev, format, &out->ev);
	if (err)
		return err;
	out->ev.format = format;
	out->req_id = req->req_id;
	memcpy(out->sgid, req->sgid.raw, sizeof(out->sgid));
	memcpy(out->dgid, req->dgid.raw, sizeof(out->dgid));
	/* A traffic class byte: the DSCP, then the ECN bits (not ours). */
	out->has_dscp = true;
	out->dscp = req_tc >> 2;
	out->timeout_ns = rsp_timeout;
	return 0;
}

static int mrc_ctl_ep_send(struct mrc_context *mrc_ctx, uint8_t req_tc,
			   enum mrc_ctl_ep_op_type op_type,
			   const struct mrc_ctl_ep_req *req, int num_req,
			   uint32_t rsp_timeout, struct mrc_ctl_ep_rsp *rsp,
			   int *num_rsp)
{
	struct mrc_nl_ep_req *reqs;
	struct mrc_nl_ep_rsp *got;
	struct mrc_ctl_state *st;
	uint32_t n = 0, i;
	int err = 0;

	reqs = calloc(num_req, sizeof(*reqs));
	got = calloc(num_req, sizeof(*got));
	if (!reqs || !got) {
		err = ENOMEM;
		goto out;
	}
	for (i = 0; i < (uint32_t)num_req && !err; i++)
		err = mrc_ctl_ep_req_to_nl(&req[i], op_type, req_tc,
					   rsp_timeout, &reqs[i]);
	if (err)
		goto out;
	err = mrc_ctl_enter(mrc_ctx, &st);
	if (err)
		goto out;
	if (op_type == MRC_CTL_EP_OP_PORT_STATUS_UPDATE)
		err = mrc_nl_ep_port_status(st->nl, st->dev, reqs, num_req,
					    got, &n);
	else
		err = mrc_nl_ep_probe(st->nl, st->dev, reqs, num_req, got, &n);
	mrc_ctl_leave(st);
	if (err)
		goto out;
	for (i = 0; i < n; i++) {
		memset(&rsp[i], 0, sizeof(rsp[i]));
		rsp[i].req_id = got[i].req_id;
		rsp[i].port = (uint8_t)(got[i].plane + 1);
		rsp[i].rtt = got[i].rtt_ns > UINT_MAX ? UINT_MAX :
			     (unsigned int)got[i].rtt_ns;
		rsp[i].adj_svc_time = got[i].svc_time_removed;
	}
	*num_rsp = (int)n;
out:
	free(reqs);
	free(got);
	return err;
}

MRC_EXPORT
int mrc_ctl_ep_batch_send_wait(struct mrc_context *mrc_ctx, uint8_t req_tc,
			       enum mrc_ctl_ep_op_type op_type,
			       struct mrc_ctl_ep_req *req, int num_req,
			       uint32_t rsp_timeout,
			       struct mrc_ctl_ep_rsp *rsp, int *num_rsp)
{
	int err;

	if (num_rsp)
		*num_rsp = 0;
	if (!mrc_ctx || !req || num_req < 1 || !rsp || !num_rsp ||
	    (op_type != MRC_CTL_EP_OP_EV_PROBE &&
	     op_type != MRC_CTL_EP_OP_PORT_STATUS_UPDATE))
		return mrc_fail(EINVAL);
	if (!mrc_ctl_capable())
		return mrc_fail(EPERM);
	/* The kernel's bounds: a batch, and a wait of 1 ns at least. */
	if (num_req > MRC_NL_EP_MAX_REQS || !rsp_timeout)
		return mrc_fail(EINVAL);
	err = mrc_ctl_ep_send(mrc_ctx, req_tc, op_type, req, num_req,
			      rsp_timeout, rsp, num_rsp);
	return err ? mrc_fail(err) : 0;
}
