// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Planes of an mrc device: the slaves of its bond, or its one netdev,
 * followed live from the netdev notifier (mrc_main.c). See mrc_plane.h for
 * the lock rules and Documentation/paths.rst, "Planes".
 */
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>

#include "mrc.h"
#include "mrc_clock.h"
#include "mrc_plane.h"

/* Enough to see every lower device that could become a plane. */
#define MRC_PLANE_SCAN_MAX	(2 * MRC_EV_MAX_PLANES)

static bool mrc_plane_netdev_alive(const struct net_device *ndev)
{
	return ndev->reg_state == NETREG_REGISTERED;
}

static bool mrc_plane_netdev_up(const struct net_device *ndev)
{
	return netif_running(ndev) && netif_carrier_ok(ndev);
}

static void mrc_plane_table_free_rcu(struct rcu_head *head)
{
	struct mrc_plane_table *t = container_of(head, struct mrc_plane_table,
						 rcu);
	unsigned int p;

	for (p = 0; p < MRC_EV_MAX_PLANES; p++)
		if (t->plane[p].ndev)
			netdev_put(t->plane[p].ndev, &t->plane[p].tracker);
	kfree(t);
}

/* The published table, for writers (see the lock rules in mrc_plane.h). */
static struct mrc_plane_table *mrc_planes_locked(struct mrc_dev *mdev)
{
	return rcu_dereference_protected(mdev->planes.table, true);
}

/* Generation 0 means "never applied" to mrc_planes_apply() callers. */
static void mrc_planes_bump(struct mrc_planes *planes)
{
	if (!atomic_inc_return(&planes->generation))
		atomic_inc(&planes->generation);
}

static void mrc_planes_publish(struct mrc_dev *mdev,
			       struct mrc_plane_table *new)
{
	struct mrc_plane_table *old = mrc_planes_locked(mdev);

	rcu_assign_pointer(mdev->planes.table, new);
	mrc_planes_bump(&mdev->planes);
	mdev->planes.changes++;
	if (!old)
		return;		/* the first scan: no QP exists yet */
	call_rcu(&old->rcu, mrc_plane_table_free_rcu);
	/* Our QPs retire the plane's EVs and tell their peers now. */
	mrc_planes_kick(mdev);
}

static bool mrc_plane_table_equal(const struct mrc_plane_table *a,
				  const struct mrc_plane_table *b)
{
	unsigned int p;

	if (a->n_planes != b->n_planes || a->bonded != b->bonded ||
	    a->up_mask != b->up_mask)
		return false;
	for (p = 0; p < MRC_EV_MAX_PLANES; p++)
		if (a->plane[p].ndev != b->plane[p].ndev)
			return false;
	return true;
}

/* The live lower devices of a bond master, at most MRC_PLANE_SCAN_MAX. */
static unsigned int mrc_plane_scan_lowers(struct net_device *master,
					  struct net_device **lowers)
{
	struct net_device *lower;
	struct list_head *iter;
	unsigned int n = 0;

	netdev_for_each_lower_dev(master, lower, iter) {
		if (!mrc_plane_netdev_alive(lower))
			continue;
		if (n == MRC_PLANE_SCAN_MAX)
			break;
		lowers[n++] = lower;
	}
	return n;
}

static bool mrc_plane_in(struct net_device *ndev, struct net_device **set,
			 unsigned int n)
{
	while (n--)
		if (set[n] == ndev)
			return true;
	return false;
}

/* Slots of a bond: survivors keep theirs, newcomers take the lowest free. */
static void mrc_plane_fill_bonded(struct mrc_dev *mdev,
				  struct mrc_plane_table *new,
				  const struct mrc_plane_table *old)
{
	struct net_device *lowers[MRC_PLANE_SCAN_MAX];
	unsigned int n, i, p;

	n = mrc_plane_scan_lowers(mdev->ndev, lowers);
	if (old && old->bonded)
		for (p = 0; p < MRC_EV_MAX_PLANES; p++)
			if (old->plane[p].ndev &&
			    mrc_plane_in(old->plane[p].ndev, lowers, n))
				new->plane[p].ndev = old->plane[p].ndev;

	for (i = 0; i < n; i++) {
		bool placed = false;

		for (p = 0; p < MRC_EV_MAX_PLANES && !placed; p++)
			placed = new->plane[p].ndev == lowers[i];
		for (p = 0; p < MRC_EV_MAX_PLANES && !placed; p++) {
			if (new->plane[p].ndev)
				continue;
			new->plane[p].ndev = lowers[i];
			placed = true;
		}
		if (!placed)
			dev_warn_ratelimited(&mdev->ib_dev.dev,
					     "%s: more than %u slaves; %s is not a plane\n",
					     mdev->ndev->name, MRC_EV_MAX_PLANES,
					     lowers[i]->name);
	}
}

int mrc_planes_refresh(struct mrc_dev *mdev)
{
	struct mrc_plane_table *old = mrc_planes_locked(mdev);
	struct net_device *ndev = mdev->ndev;
	struct mrc_plane_table *new;
	unsigned int p;

	ASSERT_RTNL();
	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;

	/* A netdev on its way out has no planes left to hold. */
	if (mrc_plane_netdev_alive(ndev)) {
		new->bonded = netif_is_bond_master(ndev);
		if (new->bonded)
			mrc_plane_fill_bonded(mdev, new, old);
		else
			new->plane[0].ndev = ndev;
	}

	new->n_planes = 1;
	for (p = 0; p < MRC_EV_MAX_PLANES; p++) {
		struct mrc_plane *pl = &new->plane[p];

		if (!pl->ndev)
			continue;
		new->n_planes = p + 1;
		pl->up = mrc_plane_netdev_up(pl->ndev);
		if (pl->up)
			new->up_mask |= 1u << p;
	}

	if (old && mrc_plane_table_equal(old, new)) {
		kfree(new);
		return 0;
	}
	for (p = 0; p < MRC_EV_MAX_PLANES; p++)
		if (new->plane[p].ndev)
			netdev_hold(new->plane[p].ndev, &new->plane[p].tracker,
				    GFP_KERNEL);
	mrc_planes_publish(mdev, new);
	return 0;
}

void mrc_planes_release(struct mrc_dev *mdev)
{
	struct mrc_plane_table *old = mrc_planes_locked(mdev);

	cancel_delayed_work_sync(&mdev->planes.notify_work);
	if (!old)
		return;
	rcu_assign_pointer(mdev->planes.table, NULL);
	mrc_planes_bump(&mdev->planes);
	call_rcu(&old->rcu, mrc_plane_table_free_rcu);
}

/*
 * Makes the device's QPs announce a change of our planes to their peers, or
 * repeat an unacknowledged announcement that is due (->notify_qps). Runs
 * again when the soonest repeat is due, as long as one is awaited.
 */
static void mrc_planes_notify_work(struct work_struct *work)
{
	struct mrc_planes *planes = container_of(to_delayed_work(work),
						 struct mrc_planes,
						 notify_work);
	struct mrc_dev *mdev = container_of(planes, struct mrc_dev, planes);
	u32 soonest_us = 0;
	s32 wait_us;

	if (!planes->notify_qps(mdev, (u32)mrc_now_us(), &soonest_us))
		return;
	/* At least a tick later: a repeat due now must not spin. */
	wait_us = (s32)(soonest_us - (u32)mrc_now_us());
	queue_delayed_work(system_wq, &planes->notify_work,
			   max_t(unsigned long, 1,
				 usecs_to_jiffies(max_t(s32, wait_us, 0))));
}

void mrc_planes_init(struct mrc_dev *mdev,
		     bool (*notify_qps)(struct mrc_dev *mdev, u32 now_us,
					u32 *next_us))
{
	mdev->planes.notify_qps = notify_qps;
	INIT_DELAYED_WORK(&mdev->planes.notify_work, mrc_planes_notify_work);
}

void mrc_planes_kick(struct mrc_dev *mdev)
{
	mod_delayed_work(system_wq, &mdev->planes.notify_work, 0);
}

void mrc_planes_exit(void)
{
	/* The tables' callbacks drop netdev references and run our code. */
	rcu_barrier();
}

void mrc_planes_show(struct mrc_dev *mdev, struct seq_file *m)
{
	struct mrc_plane_table *t;
	unsigned int p;

	rcu_read_lock();
	t = rcu_dereference(mdev->planes.table);
	if (!t) {
		rcu_read_unlock();
		return;
	}
	for (p = 0; p < t->n_planes; p++) {
		const struct mrc_plane *pl = &t->plane[p];

		seq_printf(m, "%s %s %u %s %s %lld %lld\n",
			   dev_name(&mdev->ib_dev.dev), mdev->ndev->name, p,
			   pl->ndev ? pl->ndev->name : "-",
			   pl->up ? "up" : "down",
			   (long long)atomic64_read(&mdev->planes.tx_packets[p]),
			   (long long)atomic64_read(&mdev->planes.tx_via_master[p]));
	}
	rcu_read_unlock();
}

/* Caller holds rcu_read_lock() over @t. */
static void mrc_plane_copy(struct mrc_dev *mdev,
			   const struct mrc_plane_table *t, unsigned int p,
			   struct mrc_plane_report *r)
{
	const struct mrc_plane *pl = &t->plane[p];

	/* The table's reference keeps the netdev until after the grace. */
	if (pl->ndev) {
		strscpy(r->netdev, pl->ndev->name, sizeof(r->netdev));
		r->ifindex = READ_ONCE(pl->ndev->ifindex);
		r->admin_up = READ_ONCE(pl->ndev->flags) & IFF_UP;
	} else {
		r->netdev[0] = '\0';
		r->ifindex = 0;
		r->admin_up = false;
	}
	r->up = pl->up;
	r->tx_packets = atomic64_read(&mdev->planes.tx_packets[p]);
	r->tx_via_master = atomic64_read(&mdev->planes.tx_via_master[p]);
}

int mrc_planes_report(struct mrc_dev *mdev, unsigned int p,
		      struct mrc_plane_report *r)
{
	struct mrc_plane_table *t;

	if (p >= MRC_EV_MAX_PLANES)
		return -ENOENT;
	rcu_read_lock();
	t = rcu_dereference(mdev->planes.table);
	if (!t || p >= t->n_planes) {
		rcu_read_unlock();
		return -ENOENT;
	}
	mrc_plane_copy(mdev, t, p, r);
	rcu_read_unlock();
	return 0;
}

unsigned int mrc_planes_report_all(struct mrc_dev *mdev,
				   struct mrc_plane_report *r, u8 *count)
{
	struct mrc_plane_table *t;
	unsigned int p, n;

	rcu_read_lock();
	t = rcu_dereference(mdev->planes.table);
	n = t ? min_t(unsigned int, t->n_planes, MRC_EV_MAX_PLANES) : 0;
	for (p = 0; p < n; p++)
		mrc_plane_copy(mdev, t, p, &r[p]);
	*count = t ? t->n_planes : 1;
	rcu_read_unlock();
	return n;
}

u8 mrc_planes_count(struct mrc_dev *mdev)
{
	struct mrc_plane_table *t;
	u8 n;

	rcu_read_lock();
	t = rcu_dereference(mdev->planes.table);
	n = t ? t->n_planes : 1;
	rcu_read_unlock();
	return n;
}

u8 mrc_planes_up_mask(struct mrc_dev *mdev)
{
	struct mrc_plane_table *t;
	u8 up;

	rcu_read_lock();
	t = rcu_dereference(mdev->planes.table);
	up = t ? t->up_mask : 0;
	rcu_read_unlock();
	return up;
}

void mrc_planes_apply(struct mrc_dev *mdev, struct mrc_ev_set *set,
		      u32 *seen, u32 now_us)
{
	/* Read before the table: a table at least this new is applied. */
	u32 gen = (u32)atomic_read(&mdev->planes.generation);
	struct mrc_plane_table *t;
	u8 up_mask, p;

	if (gen == *seen)
		return;
	rcu_read_lock();
	t = rcu_dereference(mdev->planes.table);
	up_mask = t ? t->up_mask : 0;
	rcu_read_unlock();

	for (p = 0; p < set->n_planes; p++)
		mrc_ev_plane_set(set, p, MRC_EV_PLANE_DOWN,
				 !(up_mask & (1u << p)), now_us);
	*seen = gen;
}

bool mrc_planes_event_relevant(unsigned long event)
{
	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
	case NETDEV_UNREGISTER:
	case NETDEV_CHANGEUPPER:
	case NETDEV_CHANGELOWERSTATE:
		return true;
	}
	return false;
}
