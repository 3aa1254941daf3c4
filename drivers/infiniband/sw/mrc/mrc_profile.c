// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Storage of a device's EV profiles; see mrc_profile.h for the rules.
 */
#include <linux/netlink.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <net/ipv6.h>

#include "mrc.h"
#include "mrc_profile.h"

struct mrc_profile *mrc_profile_alloc(u32 num_evs)
{
	struct mrc_profile *profile;

	if (num_evs > MRC_EV_PROFILE_MAX_EVS)
		return NULL;
	profile = kvzalloc(struct_size(profile, evs, num_evs), GFP_KERNEL);
	if (!profile)
		return NULL;
	profile->bad_qps = kvcalloc(max(num_evs, 1u),
				    sizeof(*profile->bad_qps), GFP_KERNEL);
	if (!profile->bad_qps) {
		kvfree(profile);
		return NULL;
	}
	kref_init(&profile->ref);
	profile->num_evs = num_evs;
	return profile;
}

static void mrc_profile_free_rcu(struct rcu_head *head)
{
	struct mrc_profile *profile = container_of(head, struct mrc_profile,
						   rcu);

	kvfree(profile->bad_qps);
	kvfree(profile);
}

static void mrc_profile_release(struct kref *ref)
{
	struct mrc_profile *profile = container_of(ref, struct mrc_profile,
						   ref);

	/* Lookups may still be reading it under RCU. */
	call_rcu(&profile->rcu, mrc_profile_free_rcu);
}

void mrc_profile_put(struct mrc_profile *profile)
{
	if (profile)
		kref_put(&profile->ref, mrc_profile_release);
}

void mrc_profile_table_init(struct mrc_dev *mdev)
{
	mutex_init(&mdev->profiles.lock);
	xa_init(&mdev->profiles.ids);
	mdev->profiles.default_id = 0;
}

void mrc_profile_table_destroy(struct mrc_dev *mdev)
{
	struct mrc_profile *profile;
	unsigned long id;

	xa_for_each(&mdev->profiles.ids, id, profile) {
		xa_erase(&mdev->profiles.ids, id);
		mrc_profile_put(profile);
	}
	xa_destroy(&mdev->profiles.ids);
	mutex_destroy(&mdev->profiles.lock);
}

/* Caller holds the table lock. */
static bool mrc_peer_taken(struct mrc_dev *mdev,
			   const struct mrc_profile *profile)
{
	struct mrc_profile *other;
	unsigned long id;

	if (!profile->has_peer)
		return false;
	xa_for_each(&mdev->profiles.ids, id, other)
		if (other->id != profile->id && other->has_peer &&
		    ipv6_addr_equal(&other->peer, &profile->peer))
			return true;
	return false;
}

int mrc_profile_add(struct mrc_dev *mdev, struct mrc_profile *profile,
		    bool replace, bool make_default,
		    struct netlink_ext_ack *extack)
{
	u32 id = profile->id;
	struct mrc_profile *old;
	int err = 0;

	mutex_lock(&mdev->profiles.lock);
	if (!replace && xa_load(&mdev->profiles.ids, profile->id)) {
		NL_SET_ERR_MSG(extack, "profile id in use");
		err = -EEXIST;
		goto out;
	}
	old = xa_load(&mdev->profiles.ids, profile->id);
	if (old && atomic_read(&old->bound_qps)) {
		NL_SET_ERR_MSG(extack, "QPs are bound to the profile");
		err = -EBUSY;
		goto out;
	}
	if (mrc_peer_taken(mdev, profile)) {
		NL_SET_ERR_MSG(extack, "another profile serves that peer");
		err = -EEXIST;
		goto out;
	}
	old = xa_store(&mdev->profiles.ids, profile->id, profile, GFP_KERNEL);
	if (xa_is_err(old)) {
		err = xa_err(old);
		goto out;
	}
	profile = NULL;			/* the table's now */
	mrc_profile_put(old);
	if (make_default)
		WRITE_ONCE(mdev->profiles.default_id, id);
out:
	mutex_unlock(&mdev->profiles.lock);
	mrc_profile_put(profile);
	return err;
}

int mrc_profile_del(struct mrc_dev *mdev, u32 id)
{
	struct mrc_profile *old;

	mutex_lock(&mdev->profiles.lock);
	old = xa_load(&mdev->profiles.ids, id);
	if (!old) {
		mutex_unlock(&mdev->profiles.lock);
		return -ENOENT;
	}
	if (atomic_read(&old->bound_qps)) {
		mutex_unlock(&mdev->profiles.lock);
		return -EBUSY;
	}
	xa_erase(&mdev->profiles.ids, id);
	if (mdev->profiles.default_id == id)
		WRITE_ONCE(mdev->profiles.default_id, 0);
	mutex_unlock(&mdev->profiles.lock);
	mrc_profile_put(old);
	return 0;
}

struct mrc_profile *mrc_profile_bind(struct mrc_dev *mdev, u32 id)
{
	struct mrc_profile *profile;

	mutex_lock(&mdev->profiles.lock);
	profile = xa_load(&mdev->profiles.ids, id);
	if (profile) {
		/* The table's reference keeps it alive: it cannot be zero. */
		kref_get(&profile->ref);
		atomic_inc(&profile->bound_qps);
	}
	mutex_unlock(&mdev->profiles.lock);
	return profile;
}

void mrc_profile_unbind(struct mrc_profile *profile)
{
	if (!profile)
		return;
	atomic_dec(&profile->bound_qps);
	mrc_profile_put(profile);
}

u32 mrc_profile_default_id(struct mrc_dev *mdev)
{
	return READ_ONCE(mdev->profiles.default_id);
}

struct mrc_profile *mrc_profile_get(struct mrc_dev *mdev, u32 id)
{
	struct mrc_profile *profile;

	rcu_read_lock();
	profile = xa_load(&mdev->profiles.ids, id);
	if (profile && !kref_get_unless_zero(&profile->ref))
		profile = NULL;
	rcu_read_unlock();
	return profile;
}

struct mrc_profile *mrc_profile_for_peer(struct mrc_dev *mdev,
					 const struct in6_addr *peer)
{
	struct mrc_profile *profile;
	unsigned long id;

	rcu_read_lock();
	xa_for_each(&mdev->profiles.ids, id, profile)
		if (profile->has_peer &&
		    ipv6_addr_equal(&profile->peer, peer) &&
		    kref_get_unless_zero(&profile->ref)) {
			rcu_read_unlock();
			return profile;
		}
	rcu_read_unlock();
	return mrc_profile_get(mdev, mrc_profile_default_id(mdev));
}
