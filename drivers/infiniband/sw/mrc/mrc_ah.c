// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Address handle verbs (mrc_ah.h).
 */
#include <net/ipv6.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/mrc-abi.h>

#include "mrc.h"
#include "mrc_ah.h"

int mrc_av_from_attr(const struct rdma_ah_attr *attr, struct mrc_av *av)
{
	const struct ib_gid_attr *sgid_attr = attr->grh.sgid_attr;
	const struct ib_global_route *grh;

	if (attr->type != RDMA_AH_ATTR_TYPE_ROCE ||
	    !(rdma_ah_get_ah_flags(attr) & IB_AH_GRH) || !sgid_attr ||
	    rdma_ah_get_port_num(attr) != 1)
		return -EINVAL;
	/* MRC rides on UDP/IP: only RoCEv2-type GIDs name an address. */
	if (sgid_attr->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return -EINVAL;
	grh = rdma_ah_read_grh(attr);
	if (rdma_is_multicast_addr((struct in6_addr *)grh->dgid.raw) ||
	    ipv6_addr_any((struct in6_addr *)grh->dgid.raw))
		return -EINVAL;

	memset(av, 0, sizeof(*av));
	mrc_net_addr_from_gid(&sgid_attr->gid, &av->saddr);
	mrc_net_addr_from_gid(&grh->dgid, &av->daddr);
	if (av->saddr.family != av->daddr.family)
		return -EINVAL;
	av->flow_label = grh->flow_label;
	av->traffic_class = grh->traffic_class;
	av->hop_limit = grh->hop_limit;
	return 0;
}

int mrc_ah_lookup(struct mrc_dev *mdev, u32 handle, struct ib_pd *pd,
		  struct mrc_av *av)
{
	struct mrc_ah *ah;
	unsigned long flags;
	int err = -EINVAL;

	/* The table's lock, not RCU: destroy_ah frees the AH at once. */
	xa_lock_irqsave(&mdev->ahs, flags);
	ah = xa_load(&mdev->ahs, handle);
	if (ah && ah->ibah.pd == pd) {
		*av = ah->av;
		err = 0;
	}
	xa_unlock_irqrestore(&mdev->ahs, flags);
	return err;
}

/*
 * Kernel ULPs create AHs in any context (ib_mad and the CM from softirq
 * and with locks held): without RDMA_CREATE_AH_SLEEPABLE nothing sleeps.
 */
static int mrc_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
			 struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mrc_dev(ibah->device);
	bool sleepable = init->flags & RDMA_CREATE_AH_SLEEPABLE;
	struct mrc_create_ah_resp resp = {};
	struct mrc_ah *ah = to_mrc_ah(ibah);
	unsigned long flags;
	int err;

	if (udata) {
		if (udata->inlen &&
		    !ib_is_udata_cleared(udata, 0, udata->inlen))
			return -EOPNOTSUPP;
		/* A provider without the handle could not use the AH. */
		if (udata->outlen < sizeof(resp))
			return -EINVAL;
	}
	err = mrc_av_from_attr(init->ah_attr, &ah->av);
	if (err)
		return err;

	if (atomic_inc_return(&mdev->num_ahs) > MRC_MAX_AH) {
		err = -ENOMEM;
		goto err_count;
	}
	if (sleepable) {
		err = xa_alloc_cyclic_irq(&mdev->ahs, &ah->handle, ah,
					  XA_LIMIT(1, MRC_MAX_AH_HANDLE),
					  &mdev->next_ah, GFP_KERNEL);
	} else {
		/* The caller may have IRQs disabled: restore, not enable. */
		xa_lock_irqsave(&mdev->ahs, flags);
		err = __xa_alloc_cyclic(&mdev->ahs, &ah->handle, ah,
					XA_LIMIT(1, MRC_MAX_AH_HANDLE),
					&mdev->next_ah, GFP_ATOMIC);
		xa_unlock_irqrestore(&mdev->ahs, flags);
	}
	if (err < 0)
		goto err_count;

	if (udata) {
		resp.ah_handle = ah->handle;
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			goto err_handle;
	}
	return 0;

err_handle:
	xa_lock_irqsave(&mdev->ahs, flags);
	__xa_erase(&mdev->ahs, ah->handle);
	xa_unlock_irqrestore(&mdev->ahs, flags);
err_count:
	atomic_dec(&mdev->num_ahs);
	return err;
}

static int mrc_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	struct mrc_ah *ah = to_mrc_ah(ibah);
	union ib_gid dgid;

	memset(attr, 0, sizeof(*attr));
	attr->type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(attr, 1);
	mrc_net_addr_to_gid(&ah->av.daddr, &dgid);
	rdma_ah_set_grh(attr, &dgid, ah->av.flow_label, 0, ah->av.hop_limit,
			ah->av.traffic_class);
	return 0;
}

/* Any context, like create_ah. */
static int mrc_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	struct mrc_dev *mdev = to_mrc_dev(ibah->device);
	struct mrc_ah *ah = to_mrc_ah(ibah);
	unsigned long irqflags;

	xa_lock_irqsave(&mdev->ahs, irqflags);
	__xa_erase(&mdev->ahs, ah->handle);
	xa_unlock_irqrestore(&mdev->ahs, irqflags);
	atomic_dec(&mdev->num_ahs);
	return 0;
}

const struct ib_device_ops mrc_ah_ops = {
	.create_ah = mrc_create_ah,
	.create_user_ah = mrc_create_ah,
	.destroy_ah = mrc_destroy_ah,
	.query_ah = mrc_query_ah,

	INIT_RDMA_OBJ_SIZE(ib_ah, mrc_ah, ibah),
};
