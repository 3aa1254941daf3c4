// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The list of mrc devices (mrc_devices.h; lock rules in mrc.h).
 */
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/seq_file.h>
#include <rdma/ib_verbs.h>

#include "mrc.h"
#include "mrc_compat.h"
#include "mrc_devices.h"

static LIST_HEAD(mrc_devices);
static DEFINE_MUTEX(mrc_devices_lock);

void mrc_dev_mark_dead(struct mrc_dev *mdev)
{
	mutex_lock(&mrc_devices_lock);
	mdev->dead = true;
	/* The notifier no longer finds it: no table after this one. */
	mrc_planes_release(mdev);
	mutex_unlock(&mrc_devices_lock);

	netdev_put(mdev->ndev, &mdev->ndev_tracker);
}

/*
 * ib_unregister_device() on an already unregistered device only waits for
 * a concurrent unregistration (and so our dealloc_driver) to return, which
 * fences module unload.
 */
void mrc_devices_reap_dead(void)
{
	struct mrc_dev *mdev, *next;
	LIST_HEAD(dead);

	mutex_lock(&mrc_devices_lock);
	list_for_each_entry_safe(mdev, next, &mrc_devices, list)
		if (mdev->dead)
			list_move(&mdev->list, &dead);
	mutex_unlock(&mrc_devices_lock);

	list_for_each_entry_safe(mdev, next, &dead, list) {
		list_del(&mdev->list);
		ib_unregister_device(&mdev->ib_dev);
		put_device(&mdev->ib_dev.dev);
	}
}

void mrc_devices_unregister_all(void)
{
	struct mrc_dev *mdev;

	mutex_lock(&mrc_devices_lock);
	while ((mdev = list_first_entry_or_null(&mrc_devices, struct mrc_dev,
						list))) {
		list_del(&mdev->list);
		mutex_unlock(&mrc_devices_lock);

		ib_unregister_device(&mdev->ib_dev);
		put_device(&mdev->ib_dev.dev);

		mutex_lock(&mrc_devices_lock);
	}
	mutex_unlock(&mrc_devices_lock);
}

/* Caller holds mrc_devices_lock. */
static struct mrc_dev *mrc_find_by_netdev(struct net_device *ndev)
{
	struct mrc_dev *mdev;

	list_for_each_entry(mdev, &mrc_devices, list)
		if (!mdev->dead && mdev->ndev == ndev)
			return mdev;
	return NULL;
}

/* The controller's dump walks the list across calls: it cannot hold the lock. */
struct mrc_dev *mrc_dev_get_nth(unsigned long n)
{
	struct mrc_dev *mdev;

	mutex_lock(&mrc_devices_lock);
	list_for_each_entry(mdev, &mrc_devices, list) {
		if (mdev->dead || n--)
			continue;
		if (!ib_device_try_get(&mdev->ib_dev))
			break;
		mutex_unlock(&mrc_devices_lock);
		return mdev;
	}
	mutex_unlock(&mrc_devices_lock);
	return NULL;
}

/*
 * The live mrc device named @name, with a registration reference
 * (ib_device_put()), or NULL: the lookup of kernels whose ib_core no longer
 * exports ib_device_get_by_name() (mrc_compat.h). The name is read from
 * ib_dev.name, which a rename rewrites in place, never from the struct
 * device, whose name string a rename frees.
 */
struct ib_device *mrc_ibdev_get_by_name(const char *name)
{
	struct mrc_dev *mdev;

	mutex_lock(&mrc_devices_lock);
	list_for_each_entry(mdev, &mrc_devices, list) {
		if (mdev->dead ||
		    strncmp(mdev->ib_dev.name, name, IB_DEVICE_NAME_MAX))
			continue;
		if (!ib_device_try_get(&mdev->ib_dev))
			continue;
		mutex_unlock(&mrc_devices_lock);
		return &mdev->ib_dev;
	}
	mutex_unlock(&mrc_devices_lock);
	return NULL;
}

int mrc_devices_add(struct mrc_dev *mdev)
{
	int err = -EEXIST;

	mutex_lock(&mrc_devices_lock);
	if (mrc_find_by_netdev(mdev->ndev))
		goto out;
	err = mrc_planes_refresh(mdev);
	if (err)
		goto out;
	get_device(&mdev->ib_dev.dev);
	list_add_tail(&mdev->list, &mrc_devices);
out:
	mutex_unlock(&mrc_devices_lock);
	return err;
}

void mrc_devices_del(struct mrc_dev *mdev)
{
	mutex_lock(&mrc_devices_lock);
	list_del(&mdev->list);
	mutex_unlock(&mrc_devices_lock);
	put_device(&mdev->ib_dev.dev);
}

struct mrc_dev *mrc_devices_get_by_netdev(struct net_device *ndev)
{
	struct mrc_dev *mdev;

	mutex_lock(&mrc_devices_lock);
	mdev = mrc_find_by_netdev(ndev);
	/* A device not yet (or no longer) registered is not ours to touch. */
	if (mdev && !ib_device_try_get(&mdev->ib_dev))
		mdev = NULL;
	mutex_unlock(&mrc_devices_lock);
	return mdev;
}

void mrc_devices_each_live(void (*fn)(struct mrc_dev *mdev, void *arg),
			   void *arg)
{
	struct mrc_dev *mdev;

	mutex_lock(&mrc_devices_lock);
	list_for_each_entry(mdev, &mrc_devices, list)
		if (!mdev->dead)
			fn(mdev, arg);
	mutex_unlock(&mrc_devices_lock);
}

void mrc_devices_show(struct seq_file *m,
		      void (*show)(struct mrc_dev *mdev, struct seq_file *m))
{
	struct mrc_dev *mdev;

	mutex_lock(&mrc_devices_lock);
	list_for_each_entry(mdev, &mrc_devices, list)
		if (!mdev->dead)
			show(mdev, m);
	mutex_unlock(&mrc_devices_lock);
}

