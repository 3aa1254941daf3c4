/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Memory windows: alloc_mw/dealloc_mw, the BIND_MW work request, their
 * invalidation, and the responder's lookup of an rkey that names one.
 *
 * Types
 * -----
 * Type 1 and type 2B (IB_DEVICE_MEM_WINDOW_TYPE_2B). Both are bound by a
 * BIND_MW in a user send queue (libibverbs turns ibv_bind_mw() of a type 1
 * into one); kernel ULPs have no bind work request. A type 1 window is
 * always valid and a bind of length 0 unbinds it; only a bind undoes it. A
 * type 2 window is FREE until bound, is then tied to the QP that bound it,
 * and goes back to FREE by LOCAL_INV, by a SEND_WITH_INV received on that
 * QP, by dealloc_mw, or when that QP is destroyed.
 *
 * Keys
 * ----
 * rkey = (MRC_MW_INDEX_FLAG | index) << 8 | key byte, index 1..MRC_MAX_MW.
 * The flag keeps MW keys out of the MR table's index space (mrc_mr_get()
 * never resolves one) and tells every user of an rkey which table to ask
 * (mrc_key_is_mw()). A bind names its window by the index of the new key
 * and must change the key byte, so no key of an earlier binding resolves
 * to the new one.
 *
 * Lifetime and locks
 * ------------------
 * ib_core allocates and frees struct mrc_mw itself, with no grace period,
 * so the state lookups read lives in a separate struct mrc_mw_win, which
 * the table (mws, an xarray: its lock serialises allocation and removal)
 * points to and which is freed after an RCU grace period. win->lock (a
 * spinlock, irqsave: binds and lookups run from the QP engines) guards
 * everything in it that a bind changes. A lookup finds the window under
 * RCU, checks it under win->lock and, still under it, takes a reference
 * on the bound MR (refcount_inc_not_zero()); the data path then holds only
 * that reference, as for an MR's own rkey. A bound window counts in its
 * MR's mw_binds, which makes dereg_mr fail with -EBUSY, so the MR pointer
 * of a bound window is always a live, published MR. The QP pointer of a
 * type 2 window is only compared, never followed: destroy_qp unbinds the
 * windows of its QP after the QP's engines have stopped.
 */
#ifndef MRC_MW_H
#define MRC_MW_H

#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>

struct mrc_dev;
struct mrc_mr;
struct mrc_qp;
struct mrc_send_wqe;

#define MRC_MW_INDEX_FLAG	BIT(23)

static inline bool mrc_key_is_mw(u32 key)
{
	return (key >> 8) & MRC_MW_INDEX_FLAG;
}

enum mrc_mw_state {
	MRC_MW_FREE,		/* type 2 only: no binding */
	MRC_MW_VALID,		/* type 1 always; type 2 bound */
	MRC_MW_DEAD,		/* dealloc_mw has run */
};

struct mrc_mw_win {
	struct mrc_dev *mdev;
	struct ib_pd *pd;
	enum ib_mw_type type;
	u32 index;		/* without MRC_MW_INDEX_FLAG */
	spinlock_t lock;	/* guards all below */
	enum mrc_mw_state state;
	u32 key;
	struct mrc_mr *mr;	/* NULL when not bound (or length 0) */
	const struct mrc_qp *qp;	/* type 2: the QP that bound it */
	u64 iova;
	u64 length;
	int access;		/* IB_ACCESS_REMOTE_* */
	struct rcu_head rcu;
};

struct mrc_mw {
	struct ib_mw ibmw;
	struct mrc_mw_win *win;
};

static inline struct mrc_mw *to_mrc_mw(struct ib_mw *ibmw)
{
	return container_of(ibmw, struct mrc_mw, ibmw);
}

/*
 * A BIND_MW from a send queue slot (include/uapi/rdma/mrc-abi.h): 0, or
 * -EINVAL when the request breaks a bind rule (unknown window, window or
 * MR of another PD, MR without MW_BIND or without local write for a
 * writable window, range outside the MR, type 2 window not FREE, type 2
 * of length 0, key of another index or same key byte, bad rights). The QP
 * completes it with IB_WC_MW_BIND_ERR then.
 */
int mrc_mw_bind(struct mrc_qp *qp, const struct mrc_send_wqe *wqe);

/*
 * Invalidation of the type 2 window that @key names, for LOCAL_INV
 * (@remote false: the window must be in @qp's PD) and SEND_WITH_INV
 * (@remote: it must also be bound to @qp). -EPERM if @key names no such
 * window, -EINVAL if it names a type 1 window. A FREE window with that
 * key stays FREE. With @apply false, only the answer.
 */
int mrc_mw_invalidate(struct mrc_qp *qp, u32 key, bool remote, bool apply);

/*
 * The responder's lookup: the MR bound under the window @key names, with
 * a reference (mrc_mr_put() it), when [@va, @va + @len) lies inside the
 * window, the window allows @access, is valid, in @qp's PD and, type 2,
 * bound to @qp; else NULL.
 */
struct mrc_mr *mrc_mw_get_mr(struct mrc_qp *qp, u32 key, u64 va, u64 len,
			     int access);

/* destroy_qp: the type 2 windows bound to @qp go back to FREE. */
void mrc_mw_qp_destroyed(struct mrc_qp *qp);

#endif /* MRC_MW_H */
