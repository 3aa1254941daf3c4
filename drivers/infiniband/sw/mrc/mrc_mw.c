// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory windows: the verbs, binding, invalidation and the responder's
 * lookup. Types, keys, lifetimes and locks are described in mrc_mw.h.
 */
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include <rdma/mrc-abi.h>

#include "mrc.h"
#include "mrc_mr.h"
#include "mrc_mw.h"
#include "mrc_qp.h"

/* What a bind may grant; LOCAL_WRITE is accepted and means nothing here. */
#define MRC_MW_RIGHTS	(IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE | \
			 IB_ACCESS_REMOTE_ATOMIC)
#define MRC_MW_BIND_ACCESS	(MRC_MW_RIGHTS | IB_ACCESS_LOCAL_WRITE)

static int mrc_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct mrc_mr_table *t = &to_mrc_dev(ibmw->device)->mrs;
	struct mrc_mw *mw = to_mrc_mw(ibmw);
	struct mrc_mw_win *win;
	u32 index;
	void *old;
	int err;

	/* uverbs checks it too; a kernel caller may not. */
	if (ibmw->type != IB_MW_TYPE_1 && ibmw->type != IB_MW_TYPE_2)
		return -EINVAL;
	/* No driver data is defined; refuse what we would ignore. */
	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EOPNOTSUPP;

	win = kzalloc(sizeof(*win), GFP_KERNEL);
	if (!win)
		return -ENOMEM;
	/* Reserved, not visible: a lookup sees the slot empty. */
	err = xa_alloc_cyclic(&t->mws, &index, NULL, XA_LIMIT(1, MRC_MAX_MW),
			      &t->next_mw, GFP_KERNEL);
	if (err < 0) {
		kfree(win);
		return err == -EBUSY ? -ENOMEM : err;
	}

	win->mdev = to_mrc_dev(ibmw->device);
	win->pd = ibmw->pd;
	win->type = ibmw->type;
	win->index = index;
	spin_lock_init(&win->lock);
	win->state = ibmw->type == IB_MW_TYPE_1 ? MRC_MW_VALID : MRC_MW_FREE;
	win->key = (MRC_MW_INDEX_FLAG | index) << MRC_MR_KEY_SHIFT |
		   (get_random_u32() & MRC_MR_KEY_BYTE_MASK);
	ibmw->rkey = win->key;
	mw->win = win;

	old = xa_store(&t->mws, index, win, GFP_KERNEL);
	WARN_ON_ONCE(xa_is_err(old));
	return 0;
}

/* Under win->lock: no binding any more. */
static void mrc_mw_unbind(struct mrc_mw_win *win)
{
	if (win->mr)
		atomic_dec(&win->mr->mw_binds);
	win->mr = NULL;
	win->qp = NULL;
	win->iova = 0;
	win->length = 0;
	win->access = 0;
}

static int mrc_dealloc_mw(struct ib_mw *ibmw)
{
	struct mrc_mw_win *win = to_mrc_mw(ibmw)->win;
	unsigned long flags;

	spin_lock_irqsave(&win->lock, flags);
	mrc_mw_unbind(win);
	win->state = MRC_MW_DEAD;
	spin_unlock_irqrestore(&win->lock, flags);

	xa_erase(&win->mdev->mrs.mws, win->index);
	/* A lookup may still be reading it; ib_core frees ibmw at once. */
	kfree_rcu(win, rcu);
	return 0;
}

const struct ib_device_ops mrc_mw_ops = {
	.alloc_mw = mrc_alloc_mw,
	.dealloc_mw = mrc_dealloc_mw,

	INIT_RDMA_OBJ_SIZE(ib_mw, mrc_mw, ibmw),
};

/* The window of @key's index, under RCU; NULL if none. */
static struct mrc_mw_win *mrc_mw_lookup(struct mrc_dev *mdev, u32 key)
{
	u32 index = key >> MRC_MR_KEY_SHIFT;

	if (!(index & MRC_MW_INDEX_FLAG))
		return NULL;
	index &= ~MRC_MW_INDEX_FLAG;
	if (!index || index > MRC_MAX_MW)
		return NULL;
	return xa_load(&mdev->mrs.mws, index);
}

/* The MR a bind names, with a reference, if it may carry windows. */
static struct mrc_mr *mrc_mw_bind_mr(struct mrc_qp *qp, u32 lkey, u64 iova,
				     u64 length, int access)
{
	struct mrc_mr *mr = mrc_mr_get(to_mrc_dev(qp->ibqp.device), lkey);

	if (!mr)
		return NULL;
	/* C10-73, C10-74, C10-75; user memory only (all a user has). */
	if (mr->type != MRC_MR_USER || !(mr->access & IB_ACCESS_MW_BIND) ||
	    ((access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	     !(mr->access & IB_ACCESS_LOCAL_WRITE)) ||
	    mrc_mr_check(mr, qp->ibqp.pd, iova, length, 0)) {
		mrc_mr_put(mr);
		return NULL;
	}
	return mr;
}

/* Under win->lock: may @qp bind the window with @key and @length? */
static bool mrc_mw_may_bind(const struct mrc_mw_win *win,
			    const struct mrc_qp *qp, u32 key, u64 length)
{
	if (win->state == MRC_MW_DEAD || win->pd != qp->ibqp.pd)
		return false;
	/* A new key, so no holder of an old one reaches the new binding. */
	if ((key & MRC_MR_KEY_BYTE_MASK) == (win->key & MRC_MR_KEY_BYTE_MASK))
		return false;
	/* Type 2: o10-37.2.30 (FREE only), o10-37.2.40 (not empty). */
	if (win->type == IB_MW_TYPE_2 &&
	    (win->state != MRC_MW_FREE || !length))
		return false;
	return true;
}

int mrc_mw_bind(struct mrc_qp *qp, const struct mrc_send_wqe *wqe)
{
	u64 iova = wqe->remote_addr, length = wqe->bind_length;
	u32 key = wqe->rkey;
	struct mrc_mr *mr = NULL;
	struct mrc_mw_win *win;
	unsigned long flags;
	int access;
	int err = -EINVAL;

	if (wqe->bind_access & ~(u64)MRC_MW_BIND_ACCESS)
		return -EINVAL;
	access = (int)wqe->bind_access & MRC_MW_RIGHTS;
	if (length) {
		mr = mrc_mw_bind_mr(qp, wqe->bind_lkey, iova, length, access);
		if (!mr)
			return -EINVAL;
	}

	rcu_read_lock();
	win = mrc_mw_lookup(to_mrc_dev(qp->ibqp.device), key);
	if (!win)
		goto out;
	spin_lock_irqsave(&win->lock, flags);
	if (!mrc_mw_may_bind(win, qp, key, length))
		goto out_unlock;
	/* A dereg_mr that has begun wins: its MR takes no new window. */
	if (mr && !atomic_inc_unless_negative(&mr->mw_binds))
		goto out_unlock;
	mrc_mw_unbind(win);
	if (length) {
		win->mr = mr;
		win->iova = iova;
		win->length = length;
		win->access = access;
	}
	if (win->type == IB_MW_TYPE_2)
		win->qp = qp;
	win->key = key;
	win->state = MRC_MW_VALID;
	err = 0;
out_unlock:
	spin_unlock_irqrestore(&win->lock, flags);
out:
	rcu_read_unlock();
	if (mr)
		mrc_mr_put(mr);
	return err;
}

int mrc_mw_invalidate(struct mrc_qp *qp, u32 key, bool remote, bool apply)
{
	struct mrc_mw_win *win;
	unsigned long flags;
	int err = 0;

	rcu_read_lock();
	win = mrc_mw_lookup(to_mrc_dev(qp->ibqp.device), key);
	if (!win) {
		rcu_read_unlock();
		return -EPERM;
	}
	spin_lock_irqsave(&win->lock, flags);
	if (win->state == MRC_MW_DEAD || win->key != key ||
	    win->pd != qp->ibqp.pd ||
	    (remote && win->state == MRC_MW_VALID && win->qp != qp))
		err = -EPERM;
	else if (win->type != IB_MW_TYPE_2)	/* o10-37.2.26 */
		err = -EINVAL;
	else if (apply && win->state == MRC_MW_VALID) {
		mrc_mw_unbind(win);
		win->state = MRC_MW_FREE;
	}
	spin_unlock_irqrestore(&win->lock, flags);
	rcu_read_unlock();
	return err;
}

/* Is [va, va + len) inside the window? Written not to overflow. */
static bool mrc_mw_in_range(const struct mrc_mw_win *win, u64 va, u64 len)
{
	return va >= win->iova && len <= win->length &&
	       va - win->iova <= win->length - len;
}

struct mrc_mr *mrc_mw_get_mr(struct mrc_qp *qp, u32 key, u64 va, u64 len,
			     int access)
{
	struct mrc_mr *mr = NULL;
	struct mrc_mw_win *win;
	unsigned long flags;

	rcu_read_lock();
	win = mrc_mw_lookup(to_mrc_dev(qp->ibqp.device), key);
	if (!win)
		goto out;
	spin_lock_irqsave(&win->lock, flags);
	if (win->state == MRC_MW_VALID && win->key == key && win->mr &&
	    win->pd == qp->ibqp.pd &&
	    (win->type == IB_MW_TYPE_1 || win->qp == qp) &&
	    !(access & ~win->access) && mrc_mw_in_range(win, va, len) &&
	    refcount_inc_not_zero(&win->mr->refs))
		mr = win->mr;
	spin_unlock_irqrestore(&win->lock, flags);
out:
	rcu_read_unlock();
	return mr;
}

void mrc_mw_qp_destroyed(struct mrc_qp *qp)
{
	struct mrc_mr_table *t = &to_mrc_dev(qp->ibqp.device)->mrs;
	struct mrc_mw_win *win;
	unsigned long index, flags;

	if (xa_empty(&t->mws))
		return;
	rcu_read_lock();
	xa_for_each(&t->mws, index, win) {
		spin_lock_irqsave(&win->lock, flags);
		if (win->type == IB_MW_TYPE_2 && win->state == MRC_MW_VALID &&
		    win->qp == qp) {
			mrc_mw_unbind(win);
			win->state = MRC_MW_FREE;
		}
		spin_unlock_irqrestore(&win->lock, flags);
	}
	rcu_read_unlock();
}
