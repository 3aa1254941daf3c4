/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A device's EV profiles, as the controller programmed them
 * (mrc_ctl_netlink.c), and the choice of a profile for a queue pair.
 *
 * Lifetime and locking: a profile never changes after it is published,
 * except for its denied bitmap (atomic bitops). The table's mutex
 * serialises additions, removals and the default; lookups take no lock
 * (RCU on the xarray) and return a reference (kref), so a QP may keep
 * using a profile the controller has since removed or replaced. The table
 * is emptied in dealloc_driver, after every QP is gone.
 *
 * A QP that names a profile at RESET to INIT (struct mrc_modify_qp_mrc)
 * binds it: bound_qps counts such QPs, and while it is not zero the
 * profile can be neither removed nor replaced (EBUSY). Binding and those
 * checks happen under the table's mutex, so no QP binds a profile that is
 * on its way out; unbinding takes no lock (it only makes a later removal
 * succeed).
 */
#ifndef MRC_PROFILE_H
#define MRC_PROFILE_H

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/in6.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/xarray.h>

#include "mrc_ev_profile.h"

struct mrc_dev;
struct netlink_ext_ack;

struct mrc_profile {
	struct kref ref;
	struct rcu_head rcu;

	u32 id;
	u8 format;			/* enum mrc_ctl_ev_format */
	u8 mode;			/* enum mrc_ctl_ev_mode */
	bool has_peer;
	struct in6_addr peer;		/* IPv6 or IPv4-mapped */
	u32 min_active;
	u32 plane_mask;			/* generated profiles */
	u32 num_fields;			/* generated profiles */
	struct mrc_ev_field fields[MRC_EV_MAX_FIELDS];

	DECLARE_BITMAP(denied, MRC_EV_PROFILE_MAX_EVS);
	atomic_t deny_gen;		/* bumped after each change of denied */
	/* bit 1 << enum mrc_ctl_ev_state: states that raise EV_EVENTs */
	u32 event_mask;
	/*
	 * Per EV, the connections that hold it ASSUMED_BAD: the profile sees
	 * it bad from the first one's retiring to the last one's restoring
	 * (mrc_qp_paths.c). num_evs entries.
	 */
	atomic_t *bad_qps;
	atomic_t bound_qps;		/* QPs bound to it (see above) */
	u32 num_evs;
	struct mrc_ev_value evs[];
};

struct mrc_profile_table {
	struct mutex lock;		/* serialises changes */
	struct xarray ids;		/* id -> mrc_profile */
	u32 default_id;			/* 0: built-in UDP spraying */
};

struct mrc_profile *mrc_profile_alloc(u32 num_evs);
void mrc_profile_put(struct mrc_profile *profile);

void mrc_profile_table_init(struct mrc_dev *mdev);
void mrc_profile_table_destroy(struct mrc_dev *mdev);

/*
 * Publishes @profile (the table takes the caller's reference, on failure
 * too). -EEXIST if the id is taken and !@replace, or if another profile
 * already serves the same peer; -EBUSY if it would replace a profile QPs
 * are bound to.
 */
int mrc_profile_add(struct mrc_dev *mdev, struct mrc_profile *profile,
		    bool replace, bool make_default,
		    struct netlink_ext_ack *extack);
/* -ENOENT if there is no such profile, -EBUSY if QPs are bound to it. */
int mrc_profile_del(struct mrc_dev *mdev, u32 id);
u32 mrc_profile_default_id(struct mrc_dev *mdev);

/* With a reference, or NULL. */
struct mrc_profile *mrc_profile_get(struct mrc_dev *mdev, u32 id);
/*
 * Binds a QP to profile @id: the profile with a reference and counted in
 * bound_qps, or NULL if the device has none of that id. Undone by
 * mrc_profile_unbind() (NULL: nothing).
 */
struct mrc_profile *mrc_profile_bind(struct mrc_dev *mdev, u32 id);
void mrc_profile_unbind(struct mrc_profile *profile);
/*
 * The profile a QP to @peer uses: the one serving that peer, else the
 * device's default; NULL means the built-in UDP source-port spraying.
 */
struct mrc_profile *mrc_profile_for_peer(struct mrc_dev *mdev,
					 const struct in6_addr *peer);

#endif /* MRC_PROFILE_H */
