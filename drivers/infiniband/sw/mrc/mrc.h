/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * soft-MRC: Multipath Reliable Connection as a software RDMA device.
 *
 * Lock rules
 * ----------
 * mrc_devices_lock (mutex, mrc_main.c) guards mrc_devices and every
 *	mrc_dev's ->list and ->dead. It is taken in process context only.
 *	Order: rtnl_lock -> mrc_devices_lock. Nothing that takes rtnl_lock
 *	(ib_register_device(), ib_get_eth_speed(), ...) may be called while
 *	mrc_devices_lock is held.
 * mrc_dev->port_lock (spinlock) guards ->port_state, the last port state
 *	announced with an IB event. Never held across a call out of the
 *	driver.
 *
 * Lifetime
 * --------
 * ib_core owns an mrc_dev from ib_alloc_device() until the final
 * put_device() of its embedded struct device. mrc_devices holds one extra
 * device reference per entry so that module unload can always reach a
 * device and fence its unregistration (see mrc_unregister_all()); that
 * reference is dropped when the entry is reaped. The netdev is held (with a
 * tracker) from newlink until dealloc_driver.
 */
#ifndef MRC_H
#define MRC_H

#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/list.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "mrc_param.h"

struct mrc_dev {
	struct ib_device ib_dev;	/* first: ib_alloc_device() needs it */
	struct net_device *ndev;
	netdevice_tracker ndev_tracker;

	struct list_head list;		/* on mrc_devices */
	bool dead;			/* dealloc_driver has run */

	struct ib_device_attr attr;

	spinlock_t port_lock;		/* guards port_state */
	enum ib_port_state port_state;	/* last state announced */

	atomic_t num_ucontexts;
	atomic_t num_pds;

	/* Queues (mrc_cq.c, mrc_qp.c, mrc_srq.c). */
	atomic_t num_cqs;
	atomic_t num_srqs;
	atomic_t num_qps;
	struct xarray qps;		/* QPN -> mrc_qp; RCU lookups */
	u32 next_qpn;			/* xa_alloc_cyclic's cursor */
};

struct mrc_ucontext {
	struct ib_ucontext ibuc;
};

struct mrc_pd {
	struct ib_pd ibpd;
};

static inline struct mrc_dev *to_mrc_dev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct mrc_dev, ib_dev);
}

static inline struct mrc_dev *mrc_dev_of_ucontext(struct ib_ucontext *uc)
{
	return to_mrc_dev(uc->device);
}

/* mrc_device.c */
int mrc_device_register(struct mrc_dev *mdev, const char *name);
enum ib_port_state mrc_netdev_port_state(struct net_device *ndev);
void mrc_port_state_changed(struct mrc_dev *mdev);

/* Verbs ops tables, one per concern; merged by mrc_device_register(). */
extern const struct ib_device_ops mrc_dev_ops;
extern const struct ib_device_ops mrc_cq_ops;
extern const struct ib_device_ops mrc_qp_ops;
extern const struct ib_device_ops mrc_srq_ops;

/* mrc_main.c */
void mrc_dev_mark_dead(struct mrc_dev *mdev);

#endif /* MRC_H */
