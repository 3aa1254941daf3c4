// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory regions: the registration verbs, the key table, and the lookup,
 * copy and atomic helpers of the data path. Keys, lifetimes and locks are
 * described at the top of mrc_mr.h.
 */
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/sched.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>

#include "mrc.h"
#include "mrc_compat.h"
#include "mrc_mr.h"

/* The rights an MR records; the other accepted flags are hints. */
#define MRC_MR_RIGHTS	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
			 IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC | \
			 IB_ACCESS_MW_BIND)

/* Would [start, start + length) wrap? It may end at the very top. */
static bool mrc_mr_wraps(u64 start, u64 length)
{
	return length && start > U64_MAX - (length - 1);
}

/*
 * Access flags of a registration. Unknown bits and the IB rule (remote
 * write or remote atomic needs local write) are -EINVAL, as in ib_core's
 * own ib_check_mr_access(); what the device does not implement (zero-based
 * MRs, on-demand paging) is -EOPNOTSUPP. Relaxed
 * ordering, HUGETLB and the other optional bits are accepted and ignored.
 */
static int mrc_mr_check_access_flags(int access)
{
	if (access & ~IB_ACCESS_SUPPORTED)
		return -EINVAL;
	if ((access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & IB_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	if (access & (IB_ZERO_BASED | IB_ACCESS_ON_DEMAND))
		return -EOPNOTSUPP;
	return 0;
}

int mrc_mr_table_init(struct mrc_dev *mdev)
{
	struct mrc_mr_table *t = &mdev->mrs;

	xa_init_flags(&t->xa, XA_FLAGS_ALLOC);
	t->next = 1;
	xa_init_flags(&t->mws, XA_FLAGS_ALLOC);
	t->next_mw = 1;
	/* One byte per index; index 0 is never used but keeps this simple. */
	t->last_key = kvzalloc(MRC_MAX_MR + 1, GFP_KERNEL);
	return t->last_key ? 0 : -ENOMEM;
}

void mrc_mr_table_cleanup(struct mrc_dev *mdev)
{
	struct mrc_mr_table *t = &mdev->mrs;

	/* ib_core deregisters every MR before dealloc_driver. */
	WARN_ON(!xa_empty(&t->xa));
	xa_destroy(&t->xa);
	WARN_ON(!xa_empty(&t->mws));
	xa_destroy(&t->mws);
	kvfree(t->last_key);
	t->last_key = NULL;
}

static struct mrc_mr *mrc_mr_alloc(struct ib_pd *ibpd, enum mrc_mr_type type)
{
	struct mrc_mr *mr;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return NULL;

	mr->mdev = to_mrc_dev(ibpd->device);
	mr->pd = ibpd;
	mr->type = type;
	refcount_set(&mr->refs, 1);
	init_completion(&mr->unreferenced);
	return mr;
}

/* Frees what an MR holds; it may be only partly built. */
static void mrc_mr_free(struct mrc_mr *mr)
{
	switch (mr->type) {
	case MRC_MR_USER:
		kvfree(mr->user.pages);
		ib_umem_release(mr->user.umem);
		break;
	case MRC_MR_FAST:
		kfree(mr->fast.blocks);
		kfree(mr->fast.staged);
		break;
	case MRC_MR_DMA:
		break;
	}
	/* A lookup may still be reading the struct (never its pages). */
	kfree_rcu(mr, rcu);
}

/*
 * Takes an index for the MR, without making it visible: lookups see a
 * reserved slot as empty. The index space is the MR count limit.
 */
static int mrc_mr_reserve_index(struct mrc_mr *mr)
{
	struct mrc_mr_table *t = &mr->mdev->mrs;
	int err;

	err = xa_alloc_cyclic(&t->xa, &mr->index, NULL,
			      XA_LIMIT(1, MRC_MAX_MR), &t->next, GFP_KERNEL);
	if (err == -EBUSY)
		return -ENOMEM;
	return err < 0 ? err : 0;
}

/* Gives the fully built MR its key and makes that key resolve. */
static void mrc_mr_publish(struct mrc_mr *mr, enum mrc_mr_state state)
{
	struct mrc_mr_table *t = &mr->mdev->mrs;
	u8 key_byte = t->last_key[mr->index] + 1;
	void *old;

	mr->key = mr->index << MRC_MR_KEY_SHIFT | key_byte;
	mr->ibmr.lkey = mr->key;
	mr->ibmr.rkey = mr->key;
	mr->state = state;

	/* Into the reserved slot: nothing to allocate, so nothing fails. */
	old = xa_store(&t->xa, mr->index, mr, GFP_KERNEL);
	WARN_ON_ONCE(xa_is_err(old));
}

/*
 * The key stops resolving here. The key byte is remembered before the
 * index is freed (xa_erase() orders the two for the next owner).
 */
static void mrc_mr_unpublish(struct mrc_mr *mr)
{
	struct mrc_mr_table *t = &mr->mdev->mrs;

	t->last_key[mr->index] = READ_ONCE(mr->key) & MRC_MR_KEY_BYTE_MASK;
	xa_erase(&t->xa, mr->index);
}

/* Builds the page array that makes an iova -> page lookup O(1). */
static int mrc_mr_pin(struct mrc_mr *mr, u64 start, u64 length, int access)
{
	struct sg_page_iter piter;
	struct ib_umem *umem;
	unsigned long npages, i = 0;

	umem = ib_umem_get_va(&mr->mdev->ib_dev, start, length, access);
	if (IS_ERR(umem))
		return PTR_ERR(umem);
	mr->user.umem = umem;

	npages = ib_umem_num_pages(umem);
	mr->user.pages = kvmalloc_array(npages, sizeof(*mr->user.pages),
					GFP_KERNEL);
	if (!mr->user.pages)
		return -ENOMEM;

	for_each_sgtable_page(&umem->sgt_append.sgt, &piter, 0) {
		if (WARN_ON_ONCE(i == npages))
			return -EFAULT;
		mr->user.pages[i++] = sg_page_iter_page(&piter);
		if (!(i % 4096))
			cond_resched();
	}
	if (WARN_ON_ONCE(i != npages))
		return -EFAULT;

	mr->user.npages = npages;
	mr->user.offset = start & ~PAGE_MASK;
	return 0;
}

static struct ib_mr *mrc_reg_user_mr(struct ib_pd *ibpd, u64 start,
				     u64 length, u64 iova, int access,
				     struct ib_udata *udata)
{
	struct mrc_mr *mr;
	int err;

	/* No driver data is defined; refuse what we would ignore. */
	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen))
		return ERR_PTR(-EOPNOTSUPP);

	err = mrc_mr_check_access_flags(access);
	if (err)
		return ERR_PTR(err);
	if (!length || length > MRC_MAX_MR_SIZE ||
	    mrc_mr_wraps(start, length) || mrc_mr_wraps(iova, length))
		return ERR_PTR(-EINVAL);
	/* uverbs checks it too: iova and memory share the page offset. */
	if ((start ^ iova) & ~PAGE_MASK)
		return ERR_PTR(-EINVAL);

	mr = mrc_mr_alloc(ibpd, MRC_MR_USER);
	if (!mr)
		return ERR_PTR(-ENOMEM);

	/* Before pinning: hitting the MR limit should cost nothing. */
	err = mrc_mr_reserve_index(mr);
	if (err)
		goto err_free;

	err = mrc_mr_pin(mr, start, length, access);
	if (err)
		goto err_unreserve;

	mr->iova = iova;
	mr->length = length;
	mr->access = access & MRC_MR_RIGHTS;
	mrc_mr_publish(mr, MRC_MR_VALID);
	return &mr->ibmr;

err_unreserve:
	xa_erase(&mr->mdev->mrs.xa, mr->index);
err_free:
	mrc_mr_free(mr);
	return ERR_PTR(err);
}

MRC_COMPAT_REG_USER_MR(mrc_reg_user_mr)

/*
 * The MR of a kernel PD (ib_alloc_pd() takes one as pd->local_dma_lkey,
 * since the device does not set IBK_LOCAL_DMA_LKEY). With no DMA device,
 * ib_core hands kernel virtual addresses to the driver as DMA addresses,
 * so this MR's iova is a kernel virtual address, all of them valid.
 */
static struct ib_mr *mrc_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct mrc_mr *mr;
	int err;

	err = mrc_mr_check_access_flags(access);
	if (err)
		return ERR_PTR(err);

	mr = mrc_mr_alloc(ibpd, MRC_MR_DMA);
	if (!mr)
		return ERR_PTR(-ENOMEM);

	err = mrc_mr_reserve_index(mr);
	if (err) {
		mrc_mr_free(mr);
		return ERR_PTR(err);
	}

	mr->iova = 0;
	mr->length = U64_MAX;
	mr->access = access & MRC_MR_RIGHTS;
	mrc_mr_publish(mr, MRC_MR_VALID);
	return &mr->ibmr;
}

static struct ib_mr *mrc_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
				  u32 max_num_sg)
{
	struct mrc_mr *mr;
	int err = -ENOMEM;

	if (type != IB_MR_TYPE_MEM_REG)
		return ERR_PTR(-EINVAL);
	if (!max_num_sg || max_num_sg > MRC_MAX_FAST_REG_PAGES)
		return ERR_PTR(-EINVAL);

	mr = mrc_mr_alloc(ibpd, MRC_MR_FAST);
	if (!mr)
		return ERR_PTR(-ENOMEM);

	mr->fast.max_blocks = max_num_sg;
	mr->fast.blocks = kcalloc(max_num_sg, sizeof(u64), GFP_KERNEL);
	mr->fast.staged = kcalloc(max_num_sg, sizeof(u64), GFP_KERNEL);
	if (!mr->fast.blocks || !mr->fast.staged)
		goto err_free;

	err = mrc_mr_reserve_index(mr);
	if (err)
		goto err_free;

	/* Its key resolves only once a REG_MR makes it VALID. */
	mrc_mr_publish(mr, MRC_MR_FREE);
	return &mr->ibmr;

err_free:
	mrc_mr_free(mr);
	return ERR_PTR(err);
}

static int mrc_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct mrc_mr *mr = to_mrc_mr(ibmr);

	/* ib_sg_to_pages() aligns them; the data path relies on it. */
	if (addr & ~PAGE_MASK)
		return -EINVAL;
	if (mr->fast.staged_nblocks == mr->fast.max_blocks)
		return -ENOMEM;
	mr->fast.staged[mr->fast.staged_nblocks++] = addr;
	return 0;
}

/*
 * Prepares the mapping the next REG_MR will make live. The addresses are
 * kernel virtual addresses (no DMA device); only PAGE_SIZE blocks are
 * accepted, the page size the device advertises.
 */
static int mrc_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg,
			 int sg_nents, unsigned int *sg_offset)
{
	struct mrc_mr *mr = to_mrc_mr(ibmr);
	int n;

	if (mr->type != MRC_MR_FAST || ibmr->page_size != PAGE_SIZE)
		return -EINVAL;

	mr->fast.staged_nblocks = 0;
	n = ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, mrc_set_page);
	/* Taken now: a ULP may rewrite ibmr->iova (zero-based) later. */
	mr->fast.staged_offset = ibmr->iova & ~PAGE_MASK;
	return n;
}

static int mrc_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct mrc_mr *mr = to_mrc_mr(ibmr);

	/* Not while windows are bound to it; none can bind once it dies. */
	if (atomic_cmpxchg(&mr->mw_binds, 0, -1))
		return -EBUSY;
	mrc_mr_unpublish(mr);
	/* Lookups can no longer succeed; wait for those that did. */
	mrc_mr_put(mr);
	wait_for_completion(&mr->unreferenced);
	mrc_mr_free(mr);
	return 0;
}

const struct ib_device_ops mrc_mr_ops = {
	.alloc_mr = mrc_alloc_mr,
	.dereg_mr = mrc_dereg_mr,
	.get_dma_mr = mrc_get_dma_mr,
	.map_mr_sg = mrc_map_mr_sg,
	MRC_COMPAT_REG_USER_MR_OPS(mrc_reg_user_mr),
};

struct mrc_mr *mrc_mr_get(struct mrc_dev *mdev, u32 key)
{
	struct mrc_mr *mr;

	rcu_read_lock();
	mr = xa_load(&mdev->mrs.xa, key >> MRC_MR_KEY_SHIFT);
	/* VALID first: for a fast-reg MR it orders the key and mapping. */
	if (mr && (smp_load_acquire(&mr->state) != MRC_MR_VALID ||
		   READ_ONCE(mr->key) != key ||
		   !refcount_inc_not_zero(&mr->refs)))
		mr = NULL;
	rcu_read_unlock();
	return mr;
}

void mrc_mr_put(struct mrc_mr *mr)
{
	if (refcount_dec_and_test(&mr->refs))
		complete(&mr->unreferenced);
}

/* Is [iova, iova + len) inside the MR? Written not to overflow. */
static int mrc_mr_range(const struct mrc_mr *mr, u64 iova, u64 len)
{
	u64 start = mr->iova, length = mr->length;

	if (iova < start || len > length || iova - start > length - len)
		return -ERANGE;
	return 0;
}

int mrc_mr_check(struct mrc_mr *mr, struct ib_pd *pd, u64 iova, u64 len,
		 int access)
{
	if (mr->pd != pd)
		return -EPERM;
	if (access & ~mr->access)
		return -EACCES;
	return mrc_mr_range(mr, iova, len);
}

/*
 * Maps the start of [iova, iova + len), already range-checked, and returns
 * its kernel address; *seg is how much of the range is contiguous there:
 * up to the end of the page (or of the range, for a DMA MR). Returns NULL
 * if the MR has no memory there. mrc_mr_unmap() undoes it.
 */
static void *mrc_mr_map(struct mrc_mr *mr, u64 iova, size_t len, size_t *seg)
{
	u64 pos = iova - mr->iova;
	unsigned long idx;
	unsigned int off;
	u64 va;

	switch (mr->type) {
	case MRC_MR_USER:
		pos += mr->user.offset;
		idx = pos >> PAGE_SHIFT;
		off = pos & ~PAGE_MASK;
		if (unlikely(idx >= mr->user.npages))
			return NULL;
		*seg = min_t(size_t, len, PAGE_SIZE - off);
		return kmap_local_page(mr->user.pages[idx]) + off;
	case MRC_MR_FAST:
		pos += READ_ONCE(mr->fast.offset);
		idx = pos >> PAGE_SHIFT;
		off = pos & ~PAGE_MASK;
		if (unlikely(idx >= READ_ONCE(mr->fast.nblocks) ||
			     idx >= mr->fast.max_blocks))
			return NULL;
		va = READ_ONCE(mr->fast.blocks[idx]);
		if (unlikely(!va))
			return NULL;
		*seg = min_t(size_t, len, PAGE_SIZE - off);
		return (void *)(uintptr_t)(va + off);
	case MRC_MR_DMA:
		*seg = len;
		return (void *)(uintptr_t)iova;
	}
	return NULL;
}

static void mrc_mr_unmap(struct mrc_mr *mr, void *addr)
{
	if (mr->type == MRC_MR_USER)
		kunmap_local(addr);
}

int mrc_mr_copy_to(struct mrc_mr *mr, u64 iova, const void *src, size_t len)
{
	size_t seg;
	void *addr;
	int err;

	err = mrc_mr_range(mr, iova, len);
	if (err)
		return err;

	for (; len; iova += seg, src += seg, len -= seg) {
		addr = mrc_mr_map(mr, iova, len, &seg);
		if (!addr)
			return -ERANGE;
		memcpy(addr, src, seg);
		mrc_mr_unmap(mr, addr);
	}
	return 0;
}

int mrc_mr_copy_from(struct mrc_mr *mr, u64 iova, void *dst, size_t len)
{
	size_t seg;
	void *addr;
	int err;

	err = mrc_mr_range(mr, iova, len);
	if (err)
		return err;

	for (; len; iova += seg, dst += seg, len -= seg) {
		addr = mrc_mr_map(mr, iova, len, &seg);
		if (!addr)
			return -ERANGE;
		memcpy(dst, addr, seg);
		mrc_mr_unmap(mr, addr);
	}
	return 0;
}

/* skb offsets and lengths are ints; skb_*_bits() check the skb's end. */
static int mrc_mr_skb_range(int offset, size_t len)
{
	if (offset < 0 || len > INT_MAX - offset)
		return -EFAULT;
	return 0;
}

int mrc_mr_copy_skb_to(struct mrc_mr *mr, u64 iova,
		       const struct sk_buff *skb, int offset, size_t len)
{
	size_t seg;
	void *addr;
	int err;

	err = mrc_mr_skb_range(offset, len) ?: mrc_mr_range(mr, iova, len);
	if (err)
		return err;

	for (; len; iova += seg, offset += seg, len -= seg) {
		addr = mrc_mr_map(mr, iova, len, &seg);
		if (!addr)
			return -ERANGE;
		err = skb_copy_bits(skb, offset, addr, seg);
		mrc_mr_unmap(mr, addr);
		if (err)
			return err;
	}
	return 0;
}

int mrc_mr_copy_skb_from(struct mrc_mr *mr, u64 iova, struct sk_buff *skb,
			 int offset, size_t len)
{
	size_t seg;
	void *addr;
	int err;

	err = mrc_mr_skb_range(offset, len) ?: mrc_mr_range(mr, iova, len);
	if (err)
		return err;

	for (; len; iova += seg, offset += seg, len -= seg) {
		addr = mrc_mr_map(mr, iova, len, &seg);
		if (!addr)
			return -ERANGE;
		err = skb_store_bits(skb, offset, addr, seg);
		mrc_mr_unmap(mr, addr);
		if (err)
			return err;
	}
	return 0;
}

int mrc_mr_atomic(struct mrc_mr *mr, u64 iova, bool is_cmp_swap,
		  u64 compare_or_add, u64 swap, u64 *orig)
{
	u64 *addr, old, val;
	size_t seg;
	int err;

	if (!IS_ALIGNED(iova, sizeof(u64)))
		return -EINVAL;
	if (!(mr->access & IB_ACCESS_REMOTE_ATOMIC))
		return -EACCES;
	err = mrc_mr_range(mr, iova, sizeof(u64));
	if (err)
		return err;

	addr = mrc_mr_map(mr, iova, sizeof(u64), &seg);
	if (!addr)
		return -ERANGE;
	/*
	 * Always aligned, and so inside one page, except in a fast-reg MR
	 * whose ULP moved its iova to another alignment than its memory's.
	 */
	if (seg < sizeof(u64) || !IS_ALIGNED((uintptr_t)addr, sizeof(u64))) {
		mrc_mr_unmap(mr, addr);
		return -EINVAL;
	}

	if (is_cmp_swap) {
		old = cmpxchg64(addr, compare_or_add, swap);
	} else {
		val = READ_ONCE(*addr);
		do {
			old = val;
			val = cmpxchg64(addr, old, old + compare_or_add);
		} while (val != old);
	}
	mrc_mr_unmap(mr, addr);

	*orig = old;
	return 0;
}

int mrc_mr_fast_reg(struct mrc_mr *mr, u32 key, int access)
{
	u32 nblocks = mr->fast.staged_nblocks;
	unsigned int offset = mr->fast.staged_offset;
	u64 iova = mr->ibmr.iova, length = mr->ibmr.length;

	if (mr->type != MRC_MR_FAST || key >> MRC_MR_KEY_SHIFT != mr->index)
		return -EINVAL;
	if (mrc_mr_check_access_flags(access))
		return -EINVAL;
	/* The blocks must hold the whole range the MR claims. */
	if (mrc_mr_wraps(iova, length) ||
	    (u64)offset + length > (u64)nblocks << PAGE_SHIFT)
		return -EINVAL;
	if (cmpxchg(&mr->state, MRC_MR_FREE, MRC_MR_BUSY) != MRC_MR_FREE)
		return -EINVAL;

	memcpy(mr->fast.blocks, mr->fast.staged, nblocks * sizeof(u64));
	WRITE_ONCE(mr->fast.nblocks, nblocks);
	WRITE_ONCE(mr->fast.offset, offset);
	mr->iova = iova;
	mr->length = length;
	mr->access = access & MRC_MR_RIGHTS;
	WRITE_ONCE(mr->key, key);
	/* A lookup that sees VALID sees all of the above. */
	smp_store_release(&mr->state, MRC_MR_VALID);
	return 0;
}

struct mrc_mr *mrc_mr_get_fast(struct mrc_dev *mdev, u64 index)
{
	struct mrc_mr *mr;

	if (!index || index > MRC_MAX_MR)
		return NULL;
	rcu_read_lock();
	mr = xa_load(&mdev->mrs.xa, index);
	if (mr && (mr->type != MRC_MR_FAST ||
		   !refcount_inc_not_zero(&mr->refs)))
		mr = NULL;
	rcu_read_unlock();
	return mr;
}

/*
 * The rules of an invalidation, and (@apply) the invalidation itself, under
 * RCU: the struct stays, and a concurrent dereg makes the answer moot.
 */
static int mrc_mr_do_invalidate(struct mrc_dev *mdev, struct ib_pd *pd,
				u32 key, bool apply)
{
	struct mrc_mr *mr;
	int err = 0;

	rcu_read_lock();
	mr = xa_load(&mdev->mrs.xa, key >> MRC_MR_KEY_SHIFT);
	if (!mr || READ_ONCE(mr->key) != key || (pd && mr->pd != pd))
		err = -EPERM;
	else if (mr->type != MRC_MR_FAST)
		err = -EINVAL;
	else if (!apply)
		err = READ_ONCE(mr->state) == MRC_MR_BUSY ? -EINVAL : 0;
	else if (cmpxchg(&mr->state, MRC_MR_VALID, MRC_MR_FREE) ==
		 MRC_MR_BUSY)
		err = -EINVAL;
	rcu_read_unlock();
	return err;
}

int mrc_mr_invalidate(struct mrc_dev *mdev, struct ib_pd *pd, u32 key)
{
	return mrc_mr_do_invalidate(mdev, pd, key, true);
}

int mrc_mr_may_invalidate(struct mrc_dev *mdev, struct ib_pd *pd, u32 key)
{
	return mrc_mr_do_invalidate(mdev, pd, key, false);
}
