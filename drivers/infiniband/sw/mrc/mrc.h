/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * soft-MRC: Multipath Reliable Connection as a software RDMA device.
 *
 * Lock rules
 * ----------
 * mrc_devices_lock (mutex, mrc_devices.c) guards mrc_devices and every
 *	mrc_dev's ->list and ->dead. It is taken in process context only.
 *	Order: rtnl_lock -> mrc_devices_lock. Nothing that takes rtnl_lock
 *	(ib_register_device(), ib_get_eth_speed(), ...) may be called while
 *	mrc_devices_lock is held.
 * mrc_dev->port_lock (spinlock) guards ->port_state, the last port state
 *	announced with an IB event. Never held across a call out of the
 *	driver.
 * mrc_net->lock (mutex, mrc_net.c, one per network namespace) guards the
 *	namespace's UDP sockets, their user count and changes to its device
 *	list. Process context only; nothing is taken under it but what
 *	creating and releasing a socket takes (it spans synchronize_rcu()).
 *	It is not held across ib_unregister_device(), which takes it (in
 *	dealloc_driver).
 * mrc_dev->planes (mrc_plane.h): the plane table is rebuilt under
 *	rtnl_lock and mrc_devices_lock, published with RCU, and read by the
 *	data path under rcu_read_lock(). Each table holds tracked references
 *	on its slave netdevs, dropped an RCU grace period after it is
 *	replaced; the last table goes in dealloc_driver.
 * The receive path (mrc_net.c, mrc_recv.c) takes no lock of ours: it runs
 *	in softirq under rcu_read_lock(), finds the device on its namespace's
 *	RCU list and holds an ib_device reference (ib_device_try_get()) while
 *	it handles the packet. Per-CPU counters need no lock.
 * QPs (mrc_qp.h): qp->lock is a softirq-context lock (verbs take it with
 *	irqsave, the data path with _bh); never taken in a hard IRQ handler.
 *	Order: qp->lock -> srq->lock -> cq->lock; mdev->qps' xarray lock is a
 *	leaf that mrc_qp_get() takes for its lookup. No ULP callback
 *	(comp_handler, QP, SRQ, CQ or device events) is called under any lock
 *	of ours: completions record the handlers due and the poster runs them
 *	after unlocking (mrc_cq.h).
 * QP tasks (mrc_task.h): task->lock guards a task's run state. A leaf,
 *	taken with IRQs saved so that a kick may come from any context but a
 *	hard IRQ handler and under any lock of ours (qp->lock, the transmit
 *	budget's); nothing of ours is taken under it. The handler runs with
 *	no lock held and takes qp->lock itself.
 * Memory regions (mrc_mr.h): mrs.xa's own lock serialises allocating and
 *	freeing key indices (process context); key lookups take no lock
 *	(RCU plus a reference per MR). No lock of ours is taken in
 *	mrc_mr_*(); they may be called under any of them, from softirq.
 * Controller probes (mrc_ep.h): one module-wide spinlock (BH) guards the
 *	devices' lists of probe batches and their answers, a leaf taken by
 *	the receive path and the EP_PROBE handler; the handler waits for
 *	answers with no lock and no device reference held. Each device's
 *	ep.rl_lock (softirq only) guards its answer rate limiter.
 *
 * Lifetime
 * --------
 * ib_core owns an mrc_dev from ib_alloc_device() until the final
 * put_device() of its embedded struct device. mrc_devices holds one extra
 * device reference per entry so that module unload can always reach a
 * device and fence its unregistration (see mrc_unregister_all()); that
 * reference is dropped when the entry is reaped. The netdev is held (with a
 * tracker) from newlink until dealloc_driver.
 *
 * Transport: mrc_net_dev_init(), before ib_register_device(), puts the
 * device on its netdev's namespace's list and takes a reference on that
 * namespace's sockets (opening them for the first device);
 * mrc_net_dev_exit(), in dealloc_driver, reverses it, closing the sockets
 * with the last device. Sockets hold no namespace reference: the pernet
 * exit of a dying namespace finishes the unregistration of any device still
 * on its list before the namespace is freed. A packet being received holds
 * a device reference, so unregistration (disable_device) waits for it;
 * the mrc_dev memory is freed after an RCU grace period (ib_core's
 * kfree_rcu), so a reader that finds a dying device on the list may still
 * try to get it.
 *
 * Memory regions: an MR's key resolves from registration until dereg_mr,
 * which then waits for the data path's references (mrc_mr_get() ..
 * mrc_mr_put(), one packet or operation long) before unpinning; details in
 * mrc_mr.h.
 */
#ifndef MRC_H
#define MRC_H

#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/list.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "mrc_param.h"
#include "mrc_ep.h"
#include "mrc_mr.h"
#include "mrc_ctl_events.h"
#include "mrc_profile.h"
#include "mrc_plane.h"
#include "mrc_settings.h"

struct mrc_net;
struct mrc_pcpu_stats;

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

	/* Address handles (mrc_ah.c): handle -> mrc_ah, under xa_lock. */
	struct xarray ahs;
	u32 next_ah;
	atomic_t num_ahs;

	/* Transport (mrc_net.c, mrc_stats.c). */
	struct mrc_net *mnet;		/* netns state; NULL outside init..exit */
	struct list_head net_node;	/* on mnet->devs (RCU) */
	struct mrc_pcpu_stats __percpu *stats;
	/* mnet's count of datagrams that found no device; NULL with mnet. */
	atomic64_t *ns_rx_drop_no_device;

	/* Planes: bond slaves or the netdev itself (mrc_plane.c). */
	struct mrc_planes planes;

	/* Memory regions (mrc_mr.c). */
	struct mrc_mr_table mrs;

	/* Paths the controller programmed (mrc_profile.c). */
	struct mrc_profile_table profiles;
	/* EV events on their way to the controller (mrc_ctl_events.h). */
	struct mrc_ctl_events events;

	/* The controller's connectionless probes (mrc_ep.h). */
	struct mrc_ep_dev ep;

	/* What the controller set (mrc_settings.h has the lock rules). */
	spinlock_t settings_lock;
	struct mrc_dev_settings settings;
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

/* The port's state, from its netdev's (query_port and the IB events). */
static inline enum ib_port_state
mrc_netdev_port_state(const struct net_device *ndev)
{
	return netif_running(ndev) && netif_carrier_ok(ndev) ?
		IB_PORT_ACTIVE : IB_PORT_DOWN;
}

/* mrc_device.c */
int mrc_device_register(struct mrc_dev *mdev, const char *name);
void mrc_port_state_changed(struct mrc_dev *mdev);
/* Whether @ibdev is an mrc device (we have no driver id of our own). */
bool mrc_ibdev_is_mrc(const struct ib_device *ibdev);

/* Verbs ops tables, one per concern; merged by mrc_device_register(). */
extern const struct ib_device_ops mrc_dev_ops;
extern const struct ib_device_ops mrc_cq_ops;
extern const struct ib_device_ops mrc_qp_ops;
extern const struct ib_device_ops mrc_srq_ops;
extern const struct ib_device_ops mrc_mr_ops;
extern const struct ib_device_ops mrc_mw_ops;
extern const struct ib_device_ops mrc_ah_ops;

/* mrc_debugfs.c */
void mrc_debugfs_init(void);
void mrc_debugfs_exit(void);

/* mrc_ctl_netlink.c */
int mrc_ctl_netlink_init(void);
void mrc_ctl_netlink_exit(void);

#endif /* MRC_H */
