/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Planes: the ports of an mrc device. When the device's netdev is a bond
 * master, each slave is one plane; otherwise the netdev itself is the only
 * plane. Documentation/paths.rst, "Planes", describes them.
 *
 * A plane keeps its index while its slave stays enslaved: a released slave
 * leaves an empty (down) slot, and a new slave takes the lowest free one,
 * so EV sets built earlier keep meaning the same port.
 *
 * Lock rules: the table is rebuilt under rtnl_lock (the bond's lower list)
 * and mrc_devices_lock (against dealloc_driver), and published with RCU;
 * the data path reads it under rcu_read_lock(). The per-slot counters are
 * atomics and survive rebuilds. A table holds a tracked reference on each
 * slave netdev, dropped after a grace period when the table is replaced.
 */
#ifndef MRC_PLANE_H
#define MRC_PLANE_H

#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/workqueue.h>

#include "mrc_ev.h"

struct mrc_dev;

/**
 * struct mrc_plane - one plane in a published table
 * @ndev: its netdev (a bond slave, or the device's own netdev); NULL for
 *	an empty slot
 * @tracker: the reference on @ndev
 * @up: the netdev is running and has carrier
 */
struct mrc_plane {
	struct net_device *ndev;
	netdevice_tracker tracker;
	bool up;
};

/**
 * struct mrc_plane_table - the planes of a device at one moment
 * @rcu: frees the table and drops its references after readers are done
 * @n_planes: slots in use, empty ones included (the highest index + 1)
 * @bonded: the device's netdev is a bond master and these are its slaves
 * @up_mask: bit p set when plane p is up
 * @plane: the slots
 */
struct mrc_plane_table {
	struct rcu_head rcu;
	u8 n_planes;
	bool bonded;
	u8 up_mask;
	struct mrc_plane plane[MRC_EV_MAX_PLANES];
};

/**
 * struct mrc_planes - the planes of an mrc device (in struct mrc_dev)
 * @table: the current table; NULL before the first scan and after release
 * @generation: bumped on every published change, for mrc_planes_apply()
 * @tx_packets: per slot, packets sent on the plane's own netdev
 * @tx_via_master: per slot, packets handed to the master's IP output
 *	instead (next hop not resolved yet)
 * @changes: tables published so far
 * @notify_work: tells the peers of the device's QPs which planes are down,
 *	again until each one acknowledged
 * @notify_qps: what the notify work runs (mrc_qp_paths_notify_all()): the
 *	planes know no QP. Returns true while an announcement awaits its
 *	ACK, with *@next_us the soonest time a copy is due.
 */
struct mrc_planes {
	struct mrc_plane_table __rcu *table;
	atomic_t generation;
	atomic64_t tx_packets[MRC_EV_MAX_PLANES];
	atomic64_t tx_via_master[MRC_EV_MAX_PLANES];
	unsigned int changes;
	struct delayed_work notify_work;
	bool (*notify_qps)(struct mrc_dev *mdev, u32 now_us, u32 *next_us);
};

/* Right after the device is allocated, before any other call here. */
void mrc_planes_init(struct mrc_dev *mdev,
		     bool (*notify_qps)(struct mrc_dev *mdev, u32 now_us,
					u32 *next_us));

/*
 * Any context: the QPs of @mdev check soon whether their peers must hear
 * of a plane change (the notify work runs at once).
 */
void mrc_planes_kick(struct mrc_dev *mdev);

/*
 * Caller holds rtnl_lock and mrc_devices_lock (or owns @mdev alone, before
 * it is listed). Re-reads the planes of mdev->ndev and publishes a new
 * table when anything changed (membership, carrier). Slaves that are being
 * unregistered are left out, so that their reference goes. Returns 0 or
 * -ENOMEM (the old table then stays).
 */
int mrc_planes_refresh(struct mrc_dev *mdev);

/*
 * Caller holds mrc_devices_lock, or owns @mdev alone: drops every plane and
 * waits for the notify work to stop. Its QPs are gone, so nothing kicks it
 * again.
 */
void mrc_planes_release(struct mrc_dev *mdev);

/* Module exit: waits for the tables being freed. */
void mrc_planes_exit(void);

/* Caller holds mrc_devices_lock (debugfs). One line per plane. */
void mrc_planes_show(struct mrc_dev *mdev, struct seq_file *m);

/**
 * struct mrc_plane_report - a copy of one plane, for the controller
 * @netdev: its netdev's name; "" for an empty slot
 * @ifindex: its netdev's ifindex; 0 for an empty slot
 * @up: the netdev is running and has carrier
 * @admin_up: the netdev is IFF_UP (what "ip link set up" sets)
 * @tx_packets: as struct mrc_planes counts them for the slot
 * @tx_via_master: likewise
 */
struct mrc_plane_report {
	char netdev[IFNAMSIZ];
	int ifindex;
	bool up;
	bool admin_up;
	u64 tx_packets;
	u64 tx_via_master;
};

/*
 * Any context, with a reference on @mdev: plane @p of the current table
 * into @r, or -ENOENT when the table has no plane @p (none before the
 * first scan).
 */
int mrc_planes_report(struct mrc_dev *mdev, unsigned int p,
		      struct mrc_plane_report *r);

/*
 * Any context, with a reference on @mdev: every plane of the current
 * table into @r (room for MRC_EV_MAX_PLANES) and mrc_planes_count()'s
 * answer into *@count, all from the same table so that they agree;
 * returns how many planes were copied, 0 before the first scan and after
 * release.
 */
unsigned int mrc_planes_report_all(struct mrc_dev *mdev,
				   struct mrc_plane_report *r, u8 *count);

/*
 * For the requester, any context: the number of plane slots, to size an
 * EV set (at least 1, even before the first scan).
 */
u8 mrc_planes_count(struct mrc_dev *mdev);

/*
 * Any context, with a reference on @mdev: bit p set when plane p is up
 * now; 0 before the first scan and after release.
 */
u8 mrc_planes_up_mask(struct mrc_dev *mdev);

/*
 * For the requester, any context, with the EV set's lock held: brings
 * @set's plane flags (MRC_EV_PLANE_DOWN) up to date with the device's
 * planes when the device's generation differs from *@seen, and stores the
 * generation in *@seen. Planes beyond the set's are ignored; empty slots
 * count as down. Cheap when nothing changed (one atomic read).
 */
void mrc_planes_apply(struct mrc_dev *mdev, struct mrc_ev_set *set,
		      u32 *seen, u32 now_us);

/*
 * True for the events of a netdev that may change some device's planes:
 * its own state, or a change of its upper or lower devices.
 */
bool mrc_planes_event_relevant(unsigned long event);

#endif /* MRC_PLANE_H */
