// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Module entry points, `rdma link add ... type mrc`, and the netdev events
 * that drive the devices (their list: mrc_devices.c).
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/if_arp.h>
#include <linux/rtnetlink.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>
#include <rdma/mrc-abi.h>

#include "mrc.h"
#include "mrc_compat.h"
#include "mrc_cq.h"
#include "mrc_devices.h"
#include "mrc_net.h"
#include "mrc_qp_paths.h"
#include "mrc_removal.h"
#include "mrc_txq.h"
#include "mrc_wq.h"

static int mrc_check_newlink(const char *name, struct net_device *ndev)
{
	struct ib_device *existing;

	/*
	 * libibverbs binds our provider by this prefix; a device named
	 * otherwise would exist but be unusable from userspace.
	 */
	if (strncmp(name, MRC_DEVICE_NAME_PREFIX,
		    strlen(MRC_DEVICE_NAME_PREFIX))) {
		pr_err("device name %s must start with \"%s\"\n", name,
		       MRC_DEVICE_NAME_PREFIX);
		return -EINVAL;
	}

	if (ndev->type != ARPHRD_ETHER) {
		pr_err("%s is not an Ethernet device (type %u)\n", ndev->name,
		       ndev->type);
		return -EOPNOTSUPP;
	}

	/* ib_core would say -ENFILE, which misleads; say what is wrong. */
	existing = mrc_ib_device_get_by_name(name);
	if (existing) {
		ib_device_put(existing);
		pr_err("an RDMA device named %s already exists\n", name);
		return -EEXIST;
	}
	return 0;
}

/*
 * A netdev that started unregistering while we registered would never send
 * us NETDEV_UNREGISTER again, and its unregistration would wait forever for
 * our reference. Checked under rtnl_lock, the same lock the notifier runs
 * under, so exactly one of the two paths queues the unregistration.
 */
static void mrc_unregister_if_netdev_gone(struct mrc_dev *mdev)
{
	/* try_get fails if `rdma link delete` already got there. */
	if (!ib_device_try_get(&mdev->ib_dev))
		return;

	rtnl_lock();
	/* A namespace change unregisters the netdev only for its notifier. */
	if (mdev->ndev->reg_state != NETREG_REGISTERED ||
	    mrc_net_dev_moved(mdev))
		ib_unregister_device_queued(&mdev->ib_dev);
	rtnl_unlock();
	ib_device_put(&mdev->ib_dev);
}

static int mrc_newlink(const char *name, struct net_device *ndev)
{
	struct mrc_dev *mdev;
	int err;

	mrc_devices_reap_dead();

	err = mrc_check_newlink(name, ndev);
	if (err)
		return err;

	mdev = ib_alloc_device(mrc_dev, ib_dev);
	if (!mdev)
		return -ENOMEM;

	mdev->ndev = ndev;
	netdev_hold(ndev, &mdev->ndev_tracker, GFP_KERNEL);
	mrc_planes_init(mdev, mrc_qp_paths_notify_all);

	/*
	 * The first plane scan and the listing in one section under both
	 * locks: every later change of the planes reaches the notifier,
	 * which finds the device on the list.
	 */
	rtnl_lock();
	err = mrc_devices_add(mdev);
	rtnl_unlock();
	if (err == -EEXIST)
		pr_err("%s already has an mrc device\n", ndev->name);
	if (err)
		goto err_free;

	err = mrc_device_register(mdev, name);
	if (err) {
		pr_err("registering %s on %s failed: %d\n", name, ndev->name,
		       err);
		mrc_devices_del(mdev);
		/* dealloc_driver drops the netdev reference. */
		ib_dealloc_device(&mdev->ib_dev);
		return err;
	}

	mrc_unregister_if_netdev_gone(mdev);
	dev_info(&mdev->ib_dev.dev, "created on %s\n", ndev->name);
	return 0;

err_free:
	mrc_planes_release(mdev);
	netdev_put(ndev, &mdev->ndev_tracker);
	/* Ops are not set yet, so this frees without calling dealloc_driver. */
	ib_dealloc_device(&mdev->ib_dev);
	return err;
}

static struct rdma_link_ops mrc_link_ops = {
	.type = "mrc",
	.newlink = mrc_newlink,
};

/* The netdevs whose devices rescan their planes. */
struct mrc_planes_event {
	struct net_device *ndev, *upper, *changed;
};

/* Under rtnl_lock and mrc_devices_lock (mrc_devices_each_live()). */
static void mrc_planes_event_dev(struct mrc_dev *mdev, void *arg)
{
	const struct mrc_planes_event *e = arg;

	if (mdev->ndev != e->ndev && mdev->ndev != e->upper &&
	    mdev->ndev != e->changed)
		return;
	if (mrc_planes_refresh(mdev))
		dev_warn(&mdev->ib_dev.dev,
			 "out of memory: planes of %s not updated\n",
			 mdev->ndev->name);
}

/*
 * Rescans the planes of every device that @ndev is, or is a lower device
 * of. Runs under rtnl_lock (the notifier). On CHANGEUPPER the link is
 * already made or already gone, so the upper device comes from @ptr. No
 * device reference is needed: a listed device that is not dead is before
 * dealloc_driver, which takes mrc_devices_lock to mark it dead.
 */
static void mrc_planes_netdev_event(struct net_device *ndev,
				    unsigned long event, void *ptr)
{
	struct mrc_planes_event e = {
		.ndev = ndev,
		.upper = netdev_master_upper_dev_get(ndev),
	};

	if (event == NETDEV_CHANGEUPPER) {
		struct netdev_notifier_changeupper_info *info = ptr;

		e.changed = info->upper_dev;
	}
	mrc_devices_each_live(mrc_planes_event_dev, &e);
}

static int mrc_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct mrc_dev *mdev;

	if (mrc_planes_event_relevant(event))
		mrc_planes_netdev_event(ndev, event, ptr);

	switch (event) {
	case NETDEV_UNREGISTER:
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		break;
	default:
		return NOTIFY_DONE;
	}

	mdev = mrc_devices_get_by_netdev(ndev);
	if (!mdev)
		return NOTIFY_DONE;

	if (event == NETDEV_UNREGISTER)
		ib_unregister_device_queued(&mdev->ib_dev);
	else
		mrc_port_state_changed(mdev);

	ib_device_put(&mdev->ib_dev);
	return NOTIFY_OK;
}

static struct notifier_block mrc_netdev_notifier = {
	.notifier_call = mrc_netdev_event,
};

static int __init mrc_module_init(void)
{
	int err;

	/* Opt-in check of the MR data path helpers (mr_selftest=1). */
	err = mrc_mr_selftest();
	if (err)
		return err;
	/* And of a kernel CQ's resize (cq_selftest=1). */
	err = mrc_cq_selftest();
	if (err)
		return err;

	/* Namespaces first: a device needs its namespace's state. */
	err = mrc_net_init();
	if (err)
		return err;
	mrc_debugfs_init();

	err = mrc_wq_init();
	if (err) {
		mrc_debugfs_exit();
		mrc_net_exit();
		return err;
	}

	err = register_netdevice_notifier(&mrc_netdev_notifier);
	if (err)
		goto err_wq;

	err = mrc_ctl_netlink_init();
	if (err)
		goto err_notifier;

	err = mrc_removal_init();
	if (err)
		goto err_netlink;

	rdma_link_register(&mrc_link_ops);
	pr_info("loaded (uverbs ABI %d)\n", MRC_UVERBS_ABI_VERSION);
	return 0;

err_netlink:
	mrc_ctl_netlink_exit();
err_notifier:
	unregister_netdevice_notifier(&mrc_netdev_notifier);
err_wq:
	mrc_wq_exit();
	mrc_debugfs_exit();
	mrc_net_exit();
	return err;
}

static void __exit mrc_module_exit(void)
{
	/* Waits for newlink calls in flight; no new device after this. */
	rdma_link_unregister(&mrc_link_ops);
	/* Waits for controller requests in flight; none starts after. */
	mrc_ctl_netlink_exit();
	mrc_devices_unregister_all();
	mrc_removal_exit();
	unregister_netdevice_notifier(&mrc_netdev_notifier);
	mrc_planes_exit();
	/* Every device is gone, and with them every socket and QP. */
	mrc_wq_exit();
	/* Packets of gone QPs still queued somewhere run our destructor. */
	mrc_txq_exit();
	mrc_debugfs_exit();
	mrc_net_exit();
	pr_info("unloaded\n");
}

module_init(mrc_module_init);
module_exit(mrc_module_exit);

MODULE_AUTHOR("soft-MRC developers");
MODULE_DESCRIPTION("Multipath Reliable Connection (MRC) software RDMA device");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_ALIAS_RDMA_LINK("mrc");
