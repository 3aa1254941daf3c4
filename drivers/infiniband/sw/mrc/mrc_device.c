// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Device and port attributes of an mrc device, and its registration with
 * ib_core.
 */
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/if_arp.h>
#include <linux/if_vlan.h>
#include <net/addrconf.h>
#include <rdma/ib_verbs.h>
#include <rdma/mrc-abi.h>

#include "mrc.h"
#include "mrc_net.h"
#include "mrc_stats.h"

/* Read when a device is created: the controller may change it per device. */
static bool mrc_cc_default = true;
module_param_named(cc, mrc_cc_default, bool, 0644);
MODULE_PARM_DESC(cc, "new devices start with NSCC congestion control on (default on; the controller may change it per device)");

static void mrc_init_device_attr(struct mrc_dev *mdev)
{
	struct ib_device_attr *attr = &mdev->attr;

	memset(attr, 0, sizeof(*attr));
	attr->vendor_id = MRC_VENDOR_ID;
	attr->vendor_part_id = MRC_VENDOR_PART_ID;
	attr->hw_ver = MRC_HW_VERSION;
	attr->page_size_cap = PAGE_SIZE;
	attr->max_pd = MRC_MAX_PD;
	attr->max_mr = MRC_MAX_MR;
	attr->max_mr_size = MRC_MAX_MR_SIZE;
	attr->max_fast_reg_page_list_len = MRC_MAX_FAST_REG_PAGES;
	attr->max_cq = MRC_MAX_CQ;
	attr->max_cqe = MRC_MAX_CQE;
	attr->max_qp = MRC_MAX_QP;
	attr->max_qp_wr = MRC_MAX_QP_WR;
	attr->max_send_sge = MRC_MAX_SGE;
	attr->max_recv_sge = MRC_MAX_SGE;
	attr->max_sge_rd = MRC_MAX_SGE;
	attr->max_qp_rd_atom = MRC_MAX_RD_ATOMIC;
	attr->max_qp_init_rd_atom = MRC_MAX_RD_ATOMIC;
	attr->max_res_rd_atom = MRC_MAX_RD_ATOMIC * MRC_MAX_QP;
	attr->atomic_cap = IB_ATOMIC_HCA;
	attr->max_srq = MRC_MAX_SRQ;
	attr->max_srq_wr = MRC_MAX_SRQ_WR;
	attr->max_srq_sge = MRC_MAX_SRQ_SGE;
	attr->max_pkeys = MRC_PORT_PKEY_TABLE_LEN;
	attr->max_ah = MRC_MAX_AH;
	/* `rdma link delete` is how users remove a soft device. */
	attr->kernel_cap_flags = IBK_ALLOW_USER_UNREG;
	/*
	 * REG_MR, LOCAL_INV and SEND_WITH_INV on kernel QPs; memory windows
	 * of type 1 and 2B for user QPs (datapath.rst).
	 */
	attr->device_cap_flags = IB_DEVICE_MEM_MGT_EXTENSIONS |
				 IB_DEVICE_MEM_WINDOW |
				 IB_DEVICE_MEM_WINDOW_TYPE_2B;
	attr->max_mw = MRC_MAX_MW;
	addrconf_addr_eui48((unsigned char *)&attr->sys_image_guid,
			    mdev->ndev->dev_addr);
}

/*
 * Called from the netdev notifier on every state-relevant event; it sends an
 * IB event only when the port state really changed, so consumers see one
 * PORT_ACTIVE or PORT_ERR per transition however many netdev events fire.
 */
void mrc_port_state_changed(struct mrc_dev *mdev)
{
	enum ib_port_state now = mrc_netdev_port_state(mdev->ndev);
	struct ib_event event = {
		.device = &mdev->ib_dev,
		.element.port_num = 1,
	};
	bool changed;

	spin_lock_bh(&mdev->port_lock);
	changed = mdev->port_state != now;
	mdev->port_state = now;
	spin_unlock_bh(&mdev->port_lock);

	if (!changed)
		return;

	event.event = now == IB_PORT_ACTIVE ? IB_EVENT_PORT_ACTIVE :
					      IB_EVENT_PORT_ERR;
	ib_dispatch_event(&event);
	dev_info(&mdev->ib_dev.dev, "port %s on %s\n",
		 now == IB_PORT_ACTIVE ? "active" : "down", mdev->ndev->name);
}

/*
 * Each concern (device, memory regions, queues, transport, ...) keeps its
 * verbs in its own file and its own ops table; ib_set_device_ops() merges
 * them.
 */
static const struct ib_device_ops *const mrc_ops_tables[] = {
	&mrc_dev_ops,
	&mrc_cq_ops,
	&mrc_qp_ops,
	&mrc_srq_ops,
	&mrc_mr_ops,
	&mrc_mw_ops,
	&mrc_ah_ops,
	&mrc_stats_ops,
};

/* Only mrc_device_register() installs our ops: they mark our devices. */
bool mrc_ibdev_is_mrc(const struct ib_device *ibdev)
{
	return ibdev->ops.query_device == mrc_dev_ops.query_device;
}

/*
 * The NIC the device's port is, which ib_core makes its parent in sysfs
 * (/sys/class/infiniband/DEV/device, where NCCL's topology and rdma-core's
 * tests look): the netdev's own parent device, or for a VLAN (stacked ones
 * too) that of the real netdev below. Both are unregistered before their
 * NIC is removed, and the unregistration waits for this device to go, so
 * the parent outlives it. None for a netdev without one: virtual ones
 * (veth, dummy) and bonds. A bond's slave NIC may be removed while the
 * bond stays, and ib_core cannot move the device, nor its copies in other
 * namespaces, away from it first (Documentation/real-nics.rst).
 */
static struct device *mrc_netdev_parent(struct net_device *ndev)
{
	while (is_vlan_dev(ndev))
		ndev = vlan_dev_real_dev(ndev);
	return ndev->dev.parent;
}

int mrc_device_register(struct mrc_dev *mdev, const char *name)
{
	struct ib_device *ibdev = &mdev->ib_dev;
	unsigned int i;
	int err;

	spin_lock_init(&mdev->port_lock);
	mdev->port_state = mrc_netdev_port_state(mdev->ndev);
	atomic_set(&mdev->num_ucontexts, 0);
	atomic_set(&mdev->num_pds, 0);
	atomic_set(&mdev->num_cqs, 0);
	atomic_set(&mdev->num_srqs, 0);
	atomic_set(&mdev->num_qps, 0);
	xa_init_flags(&mdev->qps, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_IRQ);
	atomic_set(&mdev->num_ahs, 0);
	xa_init_flags(&mdev->ahs, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	mrc_init_device_attr(mdev);

	strscpy(ibdev->node_desc, "soft-MRC", sizeof(ibdev->node_desc));
	ibdev->node_type = RDMA_NODE_IB_CA;
	ibdev->phys_port_cnt = 1;
	ibdev->num_comp_vectors = num_possible_cpus();
	ibdev->node_guid = mdev->attr.sys_image_guid;
	ibdev->dev.parent = mrc_netdev_parent(mdev->ndev);
	/*
	 * The user POST_SEND and POST_RECV commands are doorbells, and
	 * completion events need REQ_NOTIFY_CQ; all are opt-in write()
	 * commands.
	 */
	ibdev->uverbs_cmd_mask |= BIT_ULL(IB_USER_VERBS_CMD_POST_SEND) |
				  BIT_ULL(IB_USER_VERBS_CMD_POST_RECV) |
				  BIT_ULL(IB_USER_VERBS_CMD_REQ_NOTIFY_CQ);
	for (i = 0; i < ARRAY_SIZE(mrc_ops_tables); i++)
		ib_set_device_ops(ibdev, mrc_ops_tables[i]);

	/* Undone by dealloc_driver, which may run from here on. */
	mrc_profile_table_init(mdev);
	mrc_ctl_events_init(mdev);
	mrc_ep_dev_init(mdev);
	spin_lock_init(&mdev->settings_lock);
	mrc_dev_settings_default(&mdev->settings);
	mdev->settings.cc_enabled = READ_ONCE(mrc_cc_default);
	err = mrc_mr_table_init(mdev);
	if (err)
		return err;

	err = ib_device_set_netdev(ibdev, mdev->ndev, 1);
	if (err)
		return err;

	/* Counters and the namespace's UDP sockets; undone by dealloc_driver. */
	err = mrc_net_dev_init(mdev);
	if (err)
		return err;

	/*
	 * No DMA device: ib_core then keeps kernel virtual addresses in SGEs,
	 * which is what a software device copies from.
	 */
	return ib_register_device(ibdev, name, NULL);
}
