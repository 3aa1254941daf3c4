// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Verbs answered by every mrc device: device and port queries, user
 * contexts and protection domains.
 */
#include <linux/netdevice.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_mad.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/mrc-abi.h>

#include "mrc.h"
#include "mrc_devices.h"
#include "mrc_net.h"
#include "mrc_ring.h"

static int mrc_query_device(struct ib_device *ibdev,
			    struct ib_device_attr *attr,
			    struct ib_udata *udata)
{
	/* No driver-private query data is defined; refuse what we'd ignore. */
	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;

	*attr = to_mrc_dev(ibdev)->attr;
	return 0;
}

static int mrc_query_port(struct ib_device *ibdev, u32 port_num,
			  struct ib_port_attr *attr)
{
	struct mrc_dev *mdev = to_mrc_dev(ibdev);
	struct net_device *ndev = mdev->ndev;

	/* ib_core zeroes *attr and checks port_num before calling us. */
	attr->state = mrc_netdev_port_state(ndev);
	if (attr->state == IB_PORT_ACTIVE)
		attr->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	else if (netif_running(ndev))
		attr->phys_state = IB_PORT_PHYS_STATE_POLLING;
	else
		attr->phys_state = IB_PORT_PHYS_STATE_DISABLED;

	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = mrc_active_mtu(ndev);
	attr->gid_tbl_len = MRC_PORT_GID_TABLE_LEN;
	attr->pkey_tbl_len = MRC_PORT_PKEY_TABLE_LEN;
	attr->port_cap_flags = IB_PORT_CM_SUP;
	attr->max_msg_sz = MRC_PORT_MAX_MSG_SIZE;
	attr->max_vl_num = 1;

	/*
	 * Once the netdev unregisters, ib_core no longer finds it for the
	 * port, while its port events still query us until the device is
	 * removed: the port is down then, and its speed the least there is,
	 * rather than an error that ib_core's cache update logs.
	 */
	if (ib_get_eth_speed(ibdev, port_num, &attr->active_speed,
			     &attr->active_width)) {
		attr->active_speed = IB_SPEED_SDR;
		attr->active_width = IB_WIDTH_1X;
	}
	return 0;
}

static int mrc_get_port_immutable(struct ib_device *ibdev, u32 port_num,
				  struct ib_port_immutable *immutable)
{
	struct ib_port_attr attr;
	int err;

	err = ib_query_port(ibdev, port_num, &attr);
	if (err)
		return err;

	immutable->pkey_tbl_len = attr.pkey_tbl_len;
	immutable->gid_tbl_len = attr.gid_tbl_len;
	/* RoCEv2 addressing only: GIDs are IP addresses carried over UDP. */
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static enum rdma_link_layer mrc_get_link_layer(struct ib_device *ibdev,
					       u32 port_num)
{
	return IB_LINK_LAYER_ETHERNET;
}

static int mrc_query_pkey(struct ib_device *ibdev, u32 port_num, u16 index,
			  u16 *pkey)
{
	if (index >= MRC_PORT_PKEY_TABLE_LEN)
		return -EINVAL;

	*pkey = MRC_DEFAULT_PKEY;
	return 0;
}

static int mrc_alloc_ucontext(struct ib_ucontext *ibuc,
			      struct ib_udata *udata)
{
	struct mrc_dev *mdev = mrc_dev_of_ucontext(ibuc);
	struct mrc_alloc_context_resp resp = {
		.abi_version = MRC_UVERBS_ABI_VERSION,
	};
	int err;

	/* A provider of another ABI would misread our responses: refuse. */
	if (udata->inlen && !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EOPNOTSUPP;
	if (udata->outlen < sizeof(resp))
		return -EINVAL;

	if (atomic_inc_return(&mdev->num_ucontexts) > MRC_MAX_UCONTEXT) {
		err = -ENOMEM;
		goto err_count;
	}

	err = ib_copy_to_udata(udata, &resp, sizeof(resp));
	if (err)
		goto err_count;
	return 0;

err_count:
	atomic_dec(&mdev->num_ucontexts);
	return err;
}

static void mrc_dealloc_ucontext(struct ib_ucontext *ibuc)
{
	atomic_dec(&mrc_dev_of_ucontext(ibuc)->num_ucontexts);
}

/*
 * Lets ib_core tear down a live user context when the device goes away (link
 * delete, netdev removal, module unload) instead of waiting for the process
 * to close it. Nothing of ours is mapped into userspace yet, so there is
 * nothing to revoke here; ib_core zaps rdma_user_mmap entries itself.
 */
static void mrc_disassociate_ucontext(struct ib_ucontext *ibuc)
{
}

static int mrc_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mrc_dev(ibpd->device);

	if (atomic_inc_return(&mdev->num_pds) > MRC_MAX_PD) {
		atomic_dec(&mdev->num_pds);
		return -ENOMEM;
	}
	return 0;
}

static int mrc_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	atomic_dec(&to_mrc_dev(ibpd->device)->num_pds);
	return 0;
}

static void mrc_dealloc_driver(struct ib_device *ibdev)
{
	struct mrc_dev *mdev = to_mrc_dev(ibdev);

	WARN_ON(atomic_read(&mdev->num_pds));
	WARN_ON(atomic_read(&mdev->num_ucontexts));
	WARN_ON(atomic_read(&mdev->num_cqs));
	WARN_ON(atomic_read(&mdev->num_srqs));
	WARN_ON(!xa_empty(&mdev->qps));
	xa_destroy(&mdev->qps);
	WARN_ON(!xa_empty(&mdev->ahs));
	xa_destroy(&mdev->ahs);
	mrc_mr_table_cleanup(mdev);
	/* Every QP and request is gone: no event comes after this. */
	mrc_ctl_events_flush(mdev);
	mrc_profile_table_destroy(mdev);
	mrc_ep_dev_close(mdev);
	mrc_net_dev_exit(mdev);
	mrc_dev_mark_dead(mdev);
}

const struct ib_device_ops mrc_dev_ops = {
	.owner = THIS_MODULE,
	/* Out of tree: no driver id of our own, the provider binds by name. */
	.driver_id = RDMA_DRIVER_UNKNOWN,
	.uverbs_no_driver_id_binding = 1,
	.uverbs_abi_ver = MRC_UVERBS_ABI_VERSION,

	.alloc_pd = mrc_alloc_pd,
	.alloc_ucontext = mrc_alloc_ucontext,
	.dealloc_driver = mrc_dealloc_driver,
	.dealloc_pd = mrc_dealloc_pd,
	.dealloc_ucontext = mrc_dealloc_ucontext,
	.disassociate_ucontext = mrc_disassociate_ucontext,
	.get_link_layer = mrc_get_link_layer,
	.get_port_immutable = mrc_get_port_immutable,
	.mmap = mrc_mmap,
	.mmap_free = mrc_mmap_free,
	.query_device = mrc_query_device,
	.query_pkey = mrc_query_pkey,
	.query_port = mrc_query_port,

	INIT_RDMA_OBJ_SIZE(ib_pd, mrc_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, mrc_ucontext, ibuc),
};
