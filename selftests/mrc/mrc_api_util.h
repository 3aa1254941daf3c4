/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the programs on the OCP MRC API (mrc.h) share: an MRC QP taken
 * RESET -> INIT -> RTR -> RTS towards a peer with MRC attributes.
 */
#ifndef MRC_API_UTIL_H
#define MRC_API_UTIL_H

#include <stdint.h>
#include <mrc.h>

/* The MRC attributes of one end, and the peer it connects to. */
struct mrc_conn {
	uint32_t dest_qpn;
	union ibv_gid dgid;
	int sgid_index;
	enum ibv_mtu mtu;
	uint32_t psn;		/* both directions start here */
	uint64_t ev_profile;	/* 0: the device's default */
	uint8_t mpr, mpr_dest;
	uint16_t max_wimm, max_wimm_dest;
	uint8_t timeout, linear_cnt, exp_cnt;
	uint64_t cap;		/* enum mrc_qp_cap, given at INIT -> RTR */
};

/*
 * RESET to INIT, remote WRITE allowed, naming EV profile @ev_profile and
 * @mask's other fields (zero). Returns 0 or mrc_modify_qp()'s error.
 */
int mrc_util_to_init(struct mrc_qp *qp, uint64_t ev_profile, uint32_t mask);

/* @v: the verbs attributes of INIT -> RTR (mask MRC_UTIL_RTR_MASK). */
void mrc_util_rtr_attr(struct ibv_qp_attr *v, const struct mrc_conn *c);

#define MRC_UTIL_RTR_MASK (IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | \
			   IBV_QP_DEST_QPN | IBV_QP_RQ_PSN)

/*
 * RESET to RTS with @c's attributes. Returns 0, or -1 having said on
 * stderr which step failed (prefixed @who).
 */
int mrc_util_connect(struct mrc_qp *qp, const struct mrc_conn *c,
		     const char *who);

#endif
