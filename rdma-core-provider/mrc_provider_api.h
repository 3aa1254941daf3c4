/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The mrc provider's one exported entry, for lib_mrc alone.
 *
 * libibverbs has no way to pass driver data with ibv_modify_qp(), and the
 * MRC attributes of a QP (struct mrc_modify_qp_mrc in <rdma/mrc-abi.h>)
 * travel as the driver data of the extended MODIFY_QP request. So the
 * provider exports this function, under its own version node, and lib_mrc
 * looks it up with dlsym() in the provider libibverbs already loaded for
 * the context (the object that holds the context's post_send). Nothing of
 * libibverbs' public ABI changes, and a program using verbs alone never
 * sees it.
 *
 * It does what ibv_modify_qp() does (the state libibverbs records
 * included) and passes @mrc with it; @mrc NULL is plain ibv_modify_qp().
 * Returns 0 or a positive errno value, as ibv_modify_qp().
 */
#ifndef MRC_PROVIDER_API_H
#define MRC_PROVIDER_API_H

#include <infiniband/verbs.h>
#include <rdma/mrc-abi.h>

#define MRC_PROVIDER_MODIFY_QP_MRC		"mrc_provider_modify_qp_mrc"
#define MRC_PROVIDER_MODIFY_QP_MRC_VERSION	"MRC_PROVIDER_1"

typedef int (*mrc_provider_modify_qp_mrc_fn)(struct ibv_qp *qp,
					     struct ibv_qp_attr *attr,
					     int attr_mask,
					     const struct mrc_modify_qp_mrc *mrc);

int mrc_provider_modify_qp_mrc(struct ibv_qp *qp, struct ibv_qp_attr *attr,
			       int attr_mask,
			       const struct mrc_modify_qp_mrc *mrc);

#endif /* MRC_PROVIDER_API_H */
