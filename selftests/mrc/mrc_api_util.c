// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <string.h>

#include "mrc_api_util.h"

int mrc_util_to_init(struct mrc_qp *qp, uint64_t ev_profile, uint32_t mask)
{
	struct ibv_qp_attr v = { .qp_state = IBV_QPS_INIT };
	struct mrc_qp_attr m;

	memset(&m, 0, sizeof(m));
	m.profile.ev_profile_id = ev_profile;
	v.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
	return mrc_modify_qp(qp, &v, IBV_QP_STATE | IBV_QP_ACCESS_FLAGS, &m,
			     MRC_QP_EV_PROFILE_ID | mask);
}

void mrc_util_rtr_attr(struct ibv_qp_attr *v, const struct mrc_conn *c)
{
	memset(v, 0, sizeof(*v));
	v->qp_state = IBV_QPS_RTR;
	v->path_mtu = c->mtu;
	v->dest_qp_num = c->dest_qpn;
	v->rq_psn = c->psn;
	v->ah_attr.is_global = 1;
	v->ah_attr.grh.dgid = c->dgid;
	v->ah_attr.grh.sgid_index = c->sgid_index;
	v->ah_attr.grh.hop_limit = 64;
	v->ah_attr.port_num = 1;
}

int mrc_util_connect(struct mrc_qp *qp, const struct mrc_conn *c,
		     const char *who)
{
	const char *step = "modify to INIT";
	struct ibv_qp_attr v;
	struct mrc_qp_attr m;
	int err;

	/* The probes name the CC profile and the hint (zero) on the way. */
	err = mrc_util_to_init(qp, c->ev_profile,
			       MRC_QP_CC_PROFILE_ID | MRC_QP_HINT);
	if (err)
		goto fail;

	step = "modify to RTR";
	mrc_util_rtr_attr(&v, c);
	memset(&m, 0, sizeof(m));
	m.mpr.mpr_dest = c->mpr_dest;
	m.wimm.max_wimm_dest = c->max_wimm_dest;
	m.cap = c->cap;
	err = mrc_modify_qp(qp, &v, MRC_UTIL_RTR_MASK, &m,
			    MRC_QP_MPR_DEST | MRC_QP_MAX_WIMM_DEST |
			    (c->cap ? MRC_QP_CAP : 0));
	if (err)
		goto fail;

	step = "modify to RTS";
	memset(&v, 0, sizeof(v));
	v.qp_state = IBV_QPS_RTS;
	v.sq_psn = c->psn;
	m.mpr.mpr = c->mpr;
	m.wimm.max_wimm = c->max_wimm;
	m.timeout = c->timeout;
	m.retry.linear_cnt = c->linear_cnt;
	m.retry.exp_cnt = c->exp_cnt;
	err = mrc_modify_qp(qp, &v, IBV_QP_STATE | IBV_QP_SQ_PSN, &m,
			    MRC_QP_MPR | MRC_QP_MAX_WIMM | MRC_QP_TIMEOUT |
			    MRC_QP_RETRY_CNT);
	if (err)
		goto fail;
	return 0;
fail:
	fprintf(stderr, "%s: %s: %s\n", who, step, strerror(err));
	return -1;
}
