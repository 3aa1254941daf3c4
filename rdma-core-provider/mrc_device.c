// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * soft-MRC libibverbs provider: registration with libibverbs, device
 * matching, and the lifetime of devices and contexts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* Also <rdma/ib_user_ioctl_verbs.h>, in the order verbs_provider_abi.h needs. */
#include "mrc.h"

/*
 * The kernel driver registers as RDMA_DRIVER_UNKNOWN (with
 * uverbs_no_driver_id_binding), so libibverbs has no driver id to give us
 * and the device name is what identifies an mrc device. The kernel refuses
 * `rdma link add` names without the prefix, so the prefix alone is the
 * contract; the pattern is anchored, so it does not match "xmrc0".
 */
static const struct verbs_match_ent mrc_match_table[] = {
	{
		.u.modalias = "rdma_device:N" MRC_DEVICE_NAME_PREFIX "*",
		.kind = VERBS_MATCH_MODALIAS,
	},
	{ .kind = VERBS_MATCH_SENTINEL },
};

static bool mrc_match_device(struct verbs_sysfs_dev *sysfs_dev)
{
	/*
	 * A device whose kernel driver announces a driver id belongs to that
	 * driver's provider, whatever it is called: an rxe device renamed to
	 * "mrc0" must stay with librxe.
	 */
	return sysfs_dev->match &&
	       sysfs_dev->driver_id == RDMA_DRIVER_UNKNOWN;
}

static struct verbs_device *mrc_alloc_device(struct verbs_sysfs_dev *sysfs_dev)
{
	struct mrc_device *dev;

	(void)sysfs_dev;

	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return NULL;

	return &dev->vdev;
}

static void mrc_uninit_device(struct verbs_device *vdev)
{
	free(to_mrc_device(vdev));
}

static struct verbs_context *mrc_alloc_context(struct ibv_device *ibdev,
					       int cmd_fd, void *private_data)
{
	struct verbs_cmd_get_context cmd = {};
	struct mrc_get_context_resp resp = {};
	struct mrc_context *ctx;
	int ret;

	(void)private_data;

	/* From here on cmd_fd belongs to the context, even on failure. */
	ctx = _verbs_init_and_alloc_context(
		ibdev, cmd_fd, sizeof(*ctx),
		(struct verbs_context *)offsetof(struct mrc_context, vctx),
		RDMA_DRIVER_UNKNOWN);
	if (!ctx)
		return NULL;

	ret = mrc_cmd_get_context(&ctx->vctx, &cmd, sizeof(cmd),
				  (struct ib_uverbs_get_context_resp *)&resp,
				  sizeof(resp));
	if (ret)
		goto err_uninit;

	/*
	 * sysfs abi_version was already checked when the device was matched;
	 * this catches a kernel module that says one thing in sysfs and lays
	 * out its responses another way, or one too old to fill the tail
	 * (which then reads as 0).
	 */
	if (resp.drv.abi_version != MRC_UVERBS_ABI_VERSION) {
		fprintf(stderr,
			"mrc: %s: kernel driver reports mrc ABI version %u but this provider needs %u; install a matching mrc kernel module and libmrc provider\n",
			ibdev->name, resp.drv.abi_version,
			MRC_UVERBS_ABI_VERSION);
		ret = EPROTO;
		goto err_uninit;
	}

	verbs_set_ops(&ctx->vctx, &mrc_context_ops);
	verbs_set_ops(&ctx->vctx, &mrc_mr_context_ops);
	verbs_set_ops(&ctx->vctx, &mrc_cq_context_ops);
	verbs_set_ops(&ctx->vctx, &mrc_qp_context_ops);
	verbs_set_ops(&ctx->vctx, &mrc_srq_context_ops);
	verbs_set_ops(&ctx->vctx, &mrc_ah_context_ops);
	return &ctx->vctx;

err_uninit:
	verbs_uninit_context(&ctx->vctx);
	free(ctx);
	errno = ret;
	return NULL;
}

void mrc_free_context(struct ibv_context *ibctx)
{
	struct mrc_context *ctx = to_mrc_context(ibctx);

	verbs_uninit_context(&ctx->vctx);
	free(ctx);
}

static const struct verbs_device_ops mrc_device_ops = {
	.name = "mrc",
	.match_min_abi_version = MRC_UVERBS_ABI_VERSION,
	.match_max_abi_version = MRC_UVERBS_ABI_VERSION,
	.match_table = mrc_match_table,
	.match_device = mrc_match_device,
	.alloc_device = mrc_alloc_device,
	.uninit_device = mrc_uninit_device,
	.alloc_context = mrc_alloc_context,
};

/* libibverbs dlopen()s us and learns about the provider from this. */
static void __attribute__((constructor)) mrc_register_driver(void)
{
	verbs_register_driver(&mrc_device_ops);
}
