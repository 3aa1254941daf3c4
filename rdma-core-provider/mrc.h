/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * soft-MRC libibverbs provider: objects shared between the source files.
 */
#ifndef MRC_PROVIDER_H
#define MRC_PROVIDER_H

#include <stddef.h>

#include <rdma/mrc-abi.h>

#include "verbs_provider_abi.h"

#define mrc_container_of(ptr, type, member)				\
	((type *)((char *)(ptr) - offsetof(type, member)))

struct mrc_device {
	struct verbs_device vdev;
};

struct mrc_context {
	struct verbs_context vctx;
};

struct mrc_pd {
	struct ibv_pd ibv_pd;
};

struct mrc_mr {
	struct verbs_mr vmr;
};

/*
 * GET_CONTEXT response as the kernel writes it: struct
 * ib_uverbs_get_context_resp, whose driver_data[] holds the mrc tail. The
 * core fields are spelled out because a struct ending in a flexible array
 * may not be followed by more members (clang rejects it outright).
 */
struct mrc_get_context_resp {
	__u32 async_fd;
	__u32 num_comp_vectors;
	struct mrc_alloc_context_resp drv;
} __attribute__((aligned(8)));

_Static_assert(offsetof(struct mrc_get_context_resp, async_fd) ==
	       offsetof(struct ib_uverbs_get_context_resp, async_fd) &&
	       offsetof(struct mrc_get_context_resp, num_comp_vectors) ==
	       offsetof(struct ib_uverbs_get_context_resp, num_comp_vectors),
	       "core GET_CONTEXT response fields moved");
/* libibverbs splits core from driver data at sizeof(core response). */
_Static_assert(offsetof(struct mrc_get_context_resp, drv) ==
	       sizeof(struct ib_uverbs_get_context_resp) &&
	       offsetof(struct mrc_get_context_resp, drv) ==
	       offsetof(struct ib_uverbs_get_context_resp, driver_data),
	       "mrc tail does not start where driver data does");

static inline struct mrc_device *to_mrc_device(struct verbs_device *vdev)
{
	return mrc_container_of(vdev, struct mrc_device, vdev);
}

static inline struct mrc_context *to_mrc_context(struct ibv_context *ibctx)
{
	struct verbs_context *vctx =
		mrc_container_of(ibctx, struct verbs_context, context);

	return mrc_container_of(vctx, struct mrc_context, vctx);
}

static inline struct mrc_pd *to_mrc_pd(struct ibv_pd *ibpd)
{
	return mrc_container_of(ibpd, struct mrc_pd, ibv_pd);
}

static inline struct mrc_mr *to_mrc_mr(struct verbs_mr *vmr)
{
	return mrc_container_of(vmr, struct mrc_mr, vmr);
}

/* mrc_verbs.c */
extern const struct verbs_context_ops mrc_context_ops;

/* mrc_mr.c */
extern const struct verbs_context_ops mrc_mr_context_ops;

/* mrc_cq.c, mrc_qp.c, mrc_srq.c, mrc_ah.c: queues and address handles */
extern const struct verbs_context_ops mrc_cq_context_ops;
extern const struct verbs_context_ops mrc_qp_context_ops;
extern const struct verbs_context_ops mrc_srq_context_ops;
extern const struct verbs_context_ops mrc_ah_context_ops;

/* mrc_device.c */
void mrc_free_context(struct ibv_context *ibctx);

#endif /* MRC_PROVIDER_H */
