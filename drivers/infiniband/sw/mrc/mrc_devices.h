/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The list of mrc devices, in creation order, with mrc_devices_lock (lock
 * rules and the list's device reference: mrc.h). Module init adds and
 * unregisters devices; dealloc_driver marks them dead; the controller,
 * debugfs and the netdev notifier look them up. Process context only.
 */
#ifndef MRC_DEVICES_H
#define MRC_DEVICES_H

struct ib_device;
struct mrc_dev;
struct net_device;
struct seq_file;

/*
 * Caller holds rtnl_lock. The first plane scan of @mdev and its listing,
 * with a device reference, in one section under mrc_devices_lock: every
 * later change of the planes reaches the notifier, which finds the device
 * on the list. -EEXIST when mdev->ndev already has a live device, or the
 * scan's error.
 */
int mrc_devices_add(struct mrc_dev *mdev);
/* Undoes mrc_devices_add() when registering the device failed. */
void mrc_devices_del(struct mrc_dev *mdev);

/* dealloc_driver: the device is unregistered and will never be used again. */
void mrc_dev_mark_dead(struct mrc_dev *mdev);
/* Before a new device: drops the list's reference of every dead one. */
void mrc_devices_reap_dead(void);
/* Module exit: unregisters every device and drops the list's references. */
void mrc_devices_unregister_all(void);

/*
 * The live device on @ndev, with a registration reference (ib_device_put()),
 * or NULL.
 */
struct mrc_dev *mrc_devices_get_by_netdev(struct net_device *ndev);
/* Calls @fn on every live device, under mrc_devices_lock. */
void mrc_devices_each_live(void (*fn)(struct mrc_dev *mdev, void *arg),
			   void *arg);
/*
 * The @n-th live device, with a registration reference (ib_device_put()),
 * or NULL past the end (the controller's device dump).
 */
struct mrc_dev *mrc_dev_get_nth(unsigned long n);
/* debugfs: what @show prints of each live device, in creation order. */
void mrc_devices_show(struct seq_file *m,
		      void (*show)(struct mrc_dev *mdev, struct seq_file *m));

#endif /* MRC_DEVICES_H */
