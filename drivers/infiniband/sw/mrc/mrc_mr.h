/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Memory regions: registration verbs, keys, and the lookup and copy API the
 * data path uses.
 *
 * Kinds
 * -----
 * MRC_MR_USER	reg_user_mr: pinned user pages (ib_umem), plus an array of
 *		their struct page pointers built at registration, so an
 *		address resolves to its page in O(1).
 * MRC_MR_DMA	get_dma_mr: every kernel virtual address, for kernel users
 *		(ib_alloc_pd() takes one per PD as its local_dma_lkey). The
 *		iova of a DMA MR is a kernel virtual address.
 * MRC_MR_FAST	alloc_mr/map_mr_sg: fast registration for kernel ULPs. The
 *		mapping (PAGE_SIZE blocks of kernel memory) only takes effect
 *		when the QP executes the REG_MR work request
 *		(mrc_mr_fast_reg()), and LOCAL_INV or SEND_WITH_INV undo it
 *		(mrc_mr_invalidate()).
 *
 * Keys
 * ----
 * lkey == rkey == index << 8 | key byte. The index comes from the device's
 * xarray, cyclically allocated in [1, MRC_MAX_MR], so the MR count limit is
 * the size of the index space and keys below 256 (index 0, key 0 included)
 * never resolve. The key byte of an index is one more than that of the
 * index's previous registration (last_key[] remembers it), so a key that
 * outlives its registration fails to resolve until the same index has been
 * registered 256 more times. A ULP may choose the key byte of a fast-reg MR
 * itself (ib_update_fast_reg_key()); the index never changes.
 *
 * Lifetime
 * --------
 * An MR is published in mrs.xa (xa_store) only when fully built, and
 * dereg_mr removes it first, so its key stops resolving at once. The table
 * holds one reference (refs); mrc_mr_get() takes more under RCU with
 * refcount_inc_not_zero(). dereg_mr drops the table's reference and waits
 * (unreferenced) until the data path has put all of its own; only then are
 * the pages unpinned, and the struct itself is freed after an RCU grace
 * period because lookups may still be looking at it. The data path holds a
 * reference for one packet or one operation, never while it sleeps or
 * waits for the network: dereg_mr waits for it uninterruptibly.
 *
 * Locks
 * -----
 * mrs.xa's own lock serialises index allocation and removal (process
 * context only); lookups take none. Atomics are CPU atomics (cmpxchg64)
 * on the target word, so they are atomic against each other and against
 * CPU atomics on the same memory, with no lock of ours. The state of a
 * fast-reg MR changes by cmpxchg: FREE -> BUSY -> VALID in
 * mrc_mr_fast_reg(), VALID -> FREE in mrc_mr_invalidate(). Everything in
 * the data path API may be called from softirq; nothing in it sleeps.
 *
 * Fast registration and invalidation
 * ----------------------------------
 * Invalidation stops new lookups at once, but a user that already holds a
 * reference finishes what it is doing, so unlike a hardware HCA we do not
 * fence in-flight accesses: the QP should not complete LOCAL_INV to the ULP
 * while another context may still be copying with the old key. A fast-reg
 * mapping is made of PAGE_SIZE blocks, and the data path only ever indexes
 * blocks below nblocks and max_blocks, so even a lookup racing a
 * re-registration touches nothing but pages the ULP mapped.
 */
#ifndef MRC_MR_H
#define MRC_MR_H

#include <linux/completion.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

struct mrc_dev;
struct sk_buff;

#define MRC_MR_KEY_SHIFT	8
#define MRC_MR_KEY_BYTE_MASK	0xffU

/* Per-device MR table, embedded in struct mrc_dev as ->mrs. */
struct mrc_mr_table {
	struct xarray xa;	/* index -> mrc_mr; RCU lookups */
	u32 next;		/* xa_alloc_cyclic()'s cursor */
	u8 *last_key;		/* [index]: key byte of its last registration */
	struct xarray mws;	/* MW index -> mrc_mw_win; RCU lookups */
	u32 next_mw;		/* its xa_alloc_cyclic() cursor */
};

enum mrc_mr_type {
	MRC_MR_USER,
	MRC_MR_DMA,
	MRC_MR_FAST,
};

enum mrc_mr_state {
	MRC_MR_FREE,		/* fast-reg only: no mapping, key dead */
	MRC_MR_BUSY,		/* fast-reg only: mrc_mr_fast_reg() at work */
	MRC_MR_VALID,
};

struct mrc_mr {
	struct ib_mr ibmr;
	struct mrc_dev *mdev;
	struct ib_pd *pd;	/* ibmr.pd is set by ib_core only later */
	enum mrc_mr_type type;
	u32 index;
	u32 key;		/* lkey == rkey */
	int state;		/* enum mrc_mr_state */
	refcount_t refs;	/* the table's one, plus the data path's */
	/*
	 * Memory windows bound to it (mrc_mw.h); dereg_mr sets it to -1
	 * (dying) if it is 0 and fails with -EBUSY otherwise, and a bind
	 * counts only while it is not negative.
	 */
	atomic_t mw_binds;
	struct completion unreferenced;
	struct rcu_head rcu;

	/*
	 * The registered range and rights (IB_ACCESS_LOCAL_WRITE and
	 * IB_ACCESS_REMOTE_*). Fixed for USER and DMA; for FAST, set by each
	 * mrc_mr_fast_reg().
	 */
	u64 iova;
	u64 length;
	int access;

	union {
		struct {
			struct ib_umem *umem;
			struct page **pages;
			unsigned long npages;
			unsigned int offset;	/* of iova in pages[0] */
		} user;
		struct {
			u32 max_blocks;
			/* Live mapping, used by the data path. */
			u32 nblocks;
			unsigned int offset;	/* of iova in blocks[0] */
			u64 *blocks;		/* kernel VAs, PAGE_SIZE each */
			/* What map_mr_sg prepared for the next REG_MR. */
			u32 staged_nblocks;
			unsigned int staged_offset;
			u64 *staged;
		} fast;
	};
};

static inline struct mrc_mr *to_mrc_mr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct mrc_mr, ibmr);
}

/* Device setup and teardown (mrc_device_register(), dealloc_driver). */
int mrc_mr_table_init(struct mrc_dev *mdev);
void mrc_mr_table_cleanup(struct mrc_dev *mdev);

/* Module load: 0, or an error if the mr_selftest parameter is set and fails. */
int mrc_mr_selftest(void);

/*
 * The data path API. Errors are distinct so that the caller can choose the
 * completion status or NAK:
 *	NULL from mrc_mr_get()	the key does not resolve (no such MR, stale
 *				key byte, or a fast-reg MR not VALID)
 *	-EPERM			the MR belongs to another PD
 *	-EACCES			the MR lacks a right the operation needs
 *	-ERANGE			[iova, iova + len) is not inside the MR
 *	-EINVAL			atomic: iova is not 8-byte aligned (NAK
 *				INVALID_REQUEST)
 *	-EFAULT			skb copies: offset/len outside the skb
 * @access is the set of IB_ACCESS_* rights the operation needs: 0 for a
 * local read (send source), IB_ACCESS_LOCAL_WRITE for a receive buffer or
 * an RDMA READ response landing, IB_ACCESS_REMOTE_READ/_WRITE/_ATOMIC for
 * a responder.
 */
struct mrc_mr *mrc_mr_get(struct mrc_dev *mdev, u32 key);
void mrc_mr_put(struct mrc_mr *mr);
int mrc_mr_check(struct mrc_mr *mr, struct ib_pd *pd, u64 iova, u64 len,
		 int access);

/*
 * Copies. "to" is into the MR, "from" is out of it; the _skb variants take
 * the other side from, or put it into, an skb at @offset (skb_copy_bits()
 * and skb_store_bits() on each mapped page: no bounce buffer; the skb
 * bytes must exist already, e.g. skb_put() before mrc_mr_copy_skb_from()).
 * They check bounds (-ERANGE) but not PD or rights: call mrc_mr_check()
 * first. On an error the destination may have been partly written.
 */
int mrc_mr_copy_to(struct mrc_mr *mr, u64 iova, const void *src, size_t len);
int mrc_mr_copy_from(struct mrc_mr *mr, u64 iova, void *dst, size_t len);
int mrc_mr_copy_skb_to(struct mrc_mr *mr, u64 iova,
		       const struct sk_buff *skb, int offset, size_t len);
int mrc_mr_copy_skb_from(struct mrc_mr *mr, u64 iova, struct sk_buff *skb,
			 int offset, size_t len);

/*
 * An 8-byte atomic at @iova: compare-and-swap (if the old value equals
 * @compare_or_add, @swap is stored) or fetch-and-add (@compare_or_add is
 * added). *orig gets the old value. Values are in host byte order. Checks
 * alignment, bounds and IB_ACCESS_REMOTE_ATOMIC itself; PD via
 * mrc_mr_check().
 */
int mrc_mr_atomic(struct mrc_mr *mr, u64 iova, bool is_cmp_swap,
		  u64 compare_or_add, u64 swap, u64 *orig);

/*
 * Fast registration, for the QP's REG_MR, LOCAL_INV and SEND_WITH_INV.
 * mrc_mr_fast_reg() makes the mapping of the last map_mr_sg live with @key
 * (same index as the MR's) and @access; the MR must be FREE (-EINVAL
 * otherwise, as for a key of another index or bad rights).
 * mrc_mr_invalidate() makes the fast-reg MR that @key names FREE (one
 * already FREE stays so): -EPERM if @key names no MR (or one in another PD
 * than @pd, when @pd is given), -EINVAL if it names an MR of another kind
 * or one being registered. The QP layer maps these to completion statuses
 * and NAKs (Documentation/datapath.rst, "Memory management extensions").
 */
int mrc_mr_fast_reg(struct mrc_mr *mr, u32 key, int access);
int mrc_mr_invalidate(struct mrc_dev *mdev, struct ib_pd *pd, u32 key);
/*
 * mrc_mr_may_invalidate(): would mrc_mr_invalidate() succeed now? The same
 * answers, nothing changed (a responder checks a SEND_INV's rkey on the
 * message's first packet and invalidates at its in-order point).
 * mrc_mr_get_fast(): the fast-reg MR of table index @index with a
 * reference, whatever its state (a REG_MR names its MR by index, so a
 * stale or forged index finds nothing or another MR, never freed memory);
 * NULL if there is none.
 */
int mrc_mr_may_invalidate(struct mrc_dev *mdev, struct ib_pd *pd, u32 key);
struct mrc_mr *mrc_mr_get_fast(struct mrc_dev *mdev, u64 index);

#endif /* MRC_MR_H */
