// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Self-test of the memory region data path helpers, run at module load
 * when the mr_selftest parameter is set (selftests/mrc/mr.sh does). Until
 * queue pairs move data, nothing else exercises the copies and atomics.
 *
 * It builds MRs by hand, without a device: a user-like MR over three
 * scattered pages, a fast-reg MR over three blocks, a DMA MR over a kernel
 * buffer, and compares every copy (buffers and skbs, across page and skb
 * fragment boundaries) and atomic with a flat reference buffer. It also
 * drives key lookup, fast registration and invalidation on a table of its
 * own. A failure makes the module refuse to load.
 */
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "mrc.h"
#include "mrc_mr.h"

static bool mr_selftest;
module_param(mr_selftest, bool, 0444);
MODULE_PARM_DESC(mr_selftest,
		 "check the memory region helpers at load (default: no)");

#define ST_PAGES	3
#define ST_HEAD		100	/* MR starts this far into its first page */
#define ST_TAIL		50	/* and ends this far before the last's end */
#define ST_LEN		(ST_PAGES * PAGE_SIZE - ST_HEAD - ST_TAIL)
#define ST_IOVA		(0x7f0000000000ULL + ST_HEAD)
#define ST_ALL_RIGHTS	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
			 IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC)

struct mrc_mr_st {
	struct page *pages[ST_PAGES];
	u8 *ref;		/* what the MR's bytes must be */
	u8 *buf;		/* scratch */
	unsigned int failed;
	unsigned int checked;
};

static void st_expect(struct mrc_mr_st *st, bool ok, int line,
		      const char *what)
{
	st->checked++;
	if (!ok) {
		st->failed++;
		pr_err("mr selftest: line %d: %s\n", line, what);
	}
}

#define ST_EXPECT(st, cond)	st_expect(st, cond, __LINE__, #cond)

/* The MR's byte at MR offset pos, read straight from its pages. */
static u8 st_byte(struct mrc_mr_st *st, size_t pos)
{
	size_t abs = pos + ST_HEAD;

	return ((u8 *)page_address(st->pages[abs / PAGE_SIZE]))
		[abs % PAGE_SIZE];
}

static bool st_pages_match_ref(struct mrc_mr_st *st)
{
	size_t i;

	for (i = 0; i < ST_LEN; i++)
		if (st_byte(st, i) != st->ref[i])
			return false;
	return true;
}

/*
 * Buffer copies on an MR whose memory is st->pages: spans inside one page,
 * across one and two page boundaries, the whole MR, and out of bounds.
 */
static void st_copies(struct mrc_mr_st *st, struct mrc_mr *mr)
{
	static const struct { size_t pos, len; } spans[] = {
		{ 0, 1 }, { 0, 64 }, { 5, PAGE_SIZE - ST_HEAD - 5 },
		{ PAGE_SIZE - ST_HEAD - 3, 7 }, { 1000, 2 * PAGE_SIZE },
		{ 0, ST_LEN }, { ST_LEN - 1, 1 }, { ST_LEN, 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(spans); i++) {
		u64 iova = mr->iova + spans[i].pos;
		size_t len = spans[i].len;

		get_random_bytes(st->buf, len);
		ST_EXPECT(st, !mrc_mr_copy_to(mr, iova, st->buf, len));
		memcpy(st->ref + spans[i].pos, st->buf, len);
		ST_EXPECT(st, st_pages_match_ref(st));

		memset(st->buf, 0, len);
		ST_EXPECT(st, !mrc_mr_copy_from(mr, iova, st->buf, len));
		ST_EXPECT(st, !memcmp(st->buf, st->ref + spans[i].pos, len));
	}

	ST_EXPECT(st, mrc_mr_copy_to(mr, mr->iova - 1, st->buf, 1) == -ERANGE);
	ST_EXPECT(st, mrc_mr_copy_to(mr, mr->iova, st->buf, ST_LEN + 1) ==
		      -ERANGE);
	ST_EXPECT(st, mrc_mr_copy_from(mr, mr->iova + ST_LEN, st->buf, 1) ==
		      -ERANGE);
	ST_EXPECT(st, mrc_mr_copy_from(mr, U64_MAX, st->buf, 2) == -ERANGE);
	ST_EXPECT(st, st_pages_match_ref(st));
}

/* An skb with 300 linear bytes and a page fragment of len - 300 bytes. */
static struct sk_buff *st_skb(struct mrc_mr_st *st, size_t len)
{
	struct sk_buff *skb;
	struct page *page;
	size_t frag = len - 300;

	skb = alloc_skb(300, GFP_KERNEL);
	page = alloc_page(GFP_KERNEL);
	if (!skb || !page) {
		kfree_skb(skb);
		if (page)
			__free_page(page);
		return NULL;
	}
	skb_put(skb, 300);
	skb_fill_page_desc(skb, 0, page, 16, frag);
	skb->len += frag;
	skb->data_len += frag;
	skb->truesize += PAGE_SIZE;
	return skb;
}

/* skb -> MR and MR -> skb across the skb's linear/fragment boundary. */
static void st_skb_copies(struct mrc_mr_st *st, struct mrc_mr *mr)
{
	const size_t len = 2000, pos = PAGE_SIZE - ST_HEAD - 700;
	const int off = 100;	/* 200 linear bytes, 1800 in the fragment */
	struct sk_buff *skb;

	skb = st_skb(st, off + len + 64);
	ST_EXPECT(st, skb);
	if (!skb)
		return;

	get_random_bytes(st->buf, len);
	ST_EXPECT(st, !skb_store_bits(skb, off, st->buf, len));
	ST_EXPECT(st, !mrc_mr_copy_skb_to(mr, mr->iova + pos, skb, off, len));
	memcpy(st->ref + pos, st->buf, len);
	ST_EXPECT(st, st_pages_match_ref(st));

	/* Out of the skb, out of the MR, negative offset. */
	ST_EXPECT(st, mrc_mr_copy_skb_to(mr, mr->iova, skb, skb->len - 10,
					 11) == -EFAULT);
	ST_EXPECT(st, mrc_mr_copy_skb_to(mr, mr->iova + ST_LEN - 10, skb, 0,
					 11) == -ERANGE);
	ST_EXPECT(st, mrc_mr_copy_skb_to(mr, mr->iova, skb, -1, 1) == -EFAULT);

	/* Back out of the MR into the skb, shifted by 30 bytes. */
	memset(st->buf, 0, off + len);
	ST_EXPECT(st, !skb_store_bits(skb, 0, st->buf, off + len));
	ST_EXPECT(st, !mrc_mr_copy_skb_from(mr, mr->iova + pos, skb, off + 30,
					    len - 30));
	ST_EXPECT(st, !skb_copy_bits(skb, off + 30, st->buf, len - 30));
	ST_EXPECT(st, !memcmp(st->buf, st->ref + pos, len - 30));
	ST_EXPECT(st, mrc_mr_copy_skb_from(mr, mr->iova, skb, skb->len, 1) ==
		      -EFAULT);
	ST_EXPECT(st, st_pages_match_ref(st));

	kfree_skb(skb);
}

static void st_atomics(struct mrc_mr_st *st, struct mrc_mr *mr)
{
	/* The last word of the first page, then the first of the second. */
	u64 first = ALIGN(mr->iova, 8), word, orig, old;
	size_t pos;

	for (word = ALIGN(mr->iova + PAGE_SIZE - ST_HEAD - 8, 8);
	     word <= mr->iova + PAGE_SIZE - ST_HEAD; word += 8) {
		pos = word - mr->iova;
		memcpy(&old, st->ref + pos, 8);

		ST_EXPECT(st, !mrc_mr_atomic(mr, word, true, old + 1, 5,
					     &orig));
		ST_EXPECT(st, orig == old);	/* no match: unchanged */
		ST_EXPECT(st, !mrc_mr_atomic(mr, word, true, old, 42, &orig));
		ST_EXPECT(st, orig == old);
		ST_EXPECT(st, !mrc_mr_atomic(mr, word, false, 8, 0, &orig));
		ST_EXPECT(st, orig == 42);
		old = 50;
		memcpy(st->ref + pos, &old, 8);
		ST_EXPECT(st, st_pages_match_ref(st));
	}

	ST_EXPECT(st, mrc_mr_atomic(mr, first + 4, false, 1, 0, &orig) ==
		      -EINVAL);
	/* A word that straddles the end of the MR, then one past it. */
	ST_EXPECT(st, mrc_mr_atomic(mr, ALIGN_DOWN(mr->iova + ST_LEN, 8),
				    false, 1, 0, &orig) == -ERANGE);
	ST_EXPECT(st, mrc_mr_atomic(mr, ALIGN(mr->iova + ST_LEN, 8), false,
				    1, 0, &orig) == -ERANGE);
	mr->access &= ~IB_ACCESS_REMOTE_ATOMIC;
	ST_EXPECT(st, mrc_mr_atomic(mr, first, false, 1, 0, &orig) ==
		      -EACCES);
	mr->access |= IB_ACCESS_REMOTE_ATOMIC;
	ST_EXPECT(st, st_pages_match_ref(st));
}

static void st_check(struct mrc_mr_st *st, struct mrc_mr *mr)
{
	struct ib_pd *other = (struct ib_pd *)st;	/* any other pointer */

	ST_EXPECT(st, !mrc_mr_check(mr, mr->pd, mr->iova, ST_LEN,
				    ST_ALL_RIGHTS));
	ST_EXPECT(st, !mrc_mr_check(mr, mr->pd, mr->iova + ST_LEN, 0, 0));
	ST_EXPECT(st, mrc_mr_check(mr, other, mr->iova, 1, 0) == -EPERM);
	ST_EXPECT(st, mrc_mr_check(mr, mr->pd, mr->iova - 1, 1, 0) ==
		      -ERANGE);
	ST_EXPECT(st, mrc_mr_check(mr, mr->pd, mr->iova + 1, ST_LEN, 0) ==
		      -ERANGE);
	ST_EXPECT(st, mrc_mr_check(mr, mr->pd, mr->iova, U64_MAX, 0) ==
		      -ERANGE);
	ST_EXPECT(st, mrc_mr_check(mr, mr->pd, U64_MAX, U64_MAX, 0) ==
		      -ERANGE);
	mr->access = IB_ACCESS_REMOTE_READ;
	ST_EXPECT(st, mrc_mr_check(mr, mr->pd, mr->iova, 1,
				   IB_ACCESS_LOCAL_WRITE) == -EACCES);
	ST_EXPECT(st, !mrc_mr_check(mr, mr->pd, mr->iova, 1,
				    IB_ACCESS_REMOTE_READ));
	mr->access = ST_ALL_RIGHTS;
}

static void st_all_helpers(struct mrc_mr_st *st, struct mrc_mr *mr)
{
	size_t i;

	for (i = 0; i < ST_LEN; i++)
		st->ref[i] = st_byte(st, i);
	st_check(st, mr);
	st_copies(st, mr);
	st_skb_copies(st, mr);
	st_atomics(st, mr);
}

static void st_user_mr(struct mrc_mr_st *st, struct mrc_mr *mr)
{
	memset(mr, 0, sizeof(*mr));
	mr->type = MRC_MR_USER;
	mr->iova = ST_IOVA;
	mr->length = ST_LEN;
	mr->access = ST_ALL_RIGHTS;
	mr->pd = (struct ib_pd *)mr;
	mr->user.pages = st->pages;
	mr->user.npages = ST_PAGES;
	mr->user.offset = ST_HEAD;
	st_all_helpers(st, mr);
}

/*
 * A fast-reg MR over the same pages, made VALID the way a REG_MR would, on
 * a lookup table of its own; then lookups, re-keying and invalidation. Its
 * iova (4) is near zero, as a ULP's zero-based one, and agrees with its
 * memory (offset ST_HEAD) modulo 8.
 */
static void st_fast_mr(struct mrc_mr_st *st, struct mrc_mr *mr)
{
	struct mrc_dev *mdev;
	u64 staged[ST_PAGES], blocks[ST_PAGES];
	const u32 index = 5, key = index << MRC_MR_KEY_SHIFT | 7;
	struct mrc_mr *got;
	u64 orig;
	int i;

	mdev = kzalloc(sizeof(*mdev), GFP_KERNEL);
	ST_EXPECT(st, mdev && !mrc_mr_table_init(mdev));
	if (!mdev || !mdev->mrs.last_key)
		goto out;

	memset(mr, 0, sizeof(*mr));
	mr->type = MRC_MR_FAST;
	mr->index = index;
	mr->key = index << MRC_MR_KEY_SHIFT | 1;
	mr->state = MRC_MR_FREE;
	mr->pd = (struct ib_pd *)mr;
	refcount_set(&mr->refs, 1);
	for (i = 0; i < ST_PAGES; i++)
		staged[i] = (uintptr_t)page_address(st->pages[i]);
	mr->fast.max_blocks = ST_PAGES;
	mr->fast.blocks = blocks;
	mr->fast.staged = staged;
	mr->fast.staged_nblocks = ST_PAGES;
	mr->fast.staged_offset = ST_HEAD;
	mr->ibmr.iova = 4;
	mr->ibmr.length = ST_LEN;
	ST_EXPECT(st, !xa_is_err(xa_store(&mdev->mrs.xa, index, mr,
					  GFP_KERNEL)));

	ST_EXPECT(st, !mrc_mr_get(mdev, mr->key));	/* FREE */
	ST_EXPECT(st, mrc_mr_fast_reg(mr, key + 256, 0) == -EINVAL);
	ST_EXPECT(st, mrc_mr_fast_reg(mr, key, IB_ACCESS_REMOTE_WRITE) ==
		      -EINVAL);
	mr->ibmr.length = ST_LEN + PAGE_SIZE;	/* more than the blocks */
	ST_EXPECT(st, mrc_mr_fast_reg(mr, key, 0) == -EINVAL);
	mr->ibmr.length = ST_LEN;
	ST_EXPECT(st, !mrc_mr_fast_reg(mr, key, ST_ALL_RIGHTS));
	ST_EXPECT(st, mrc_mr_fast_reg(mr, key, ST_ALL_RIGHTS) == -EINVAL);
	ST_EXPECT(st, mr->iova == 4 && mr->length == ST_LEN);

	ST_EXPECT(st, !mrc_mr_get(mdev, index << MRC_MR_KEY_SHIFT | 1));
	ST_EXPECT(st, !mrc_mr_get(mdev, key + 256));
	got = mrc_mr_get(mdev, key);
	ST_EXPECT(st, got == mr && refcount_read(&mr->refs) == 2);
	if (got) {
		st_all_helpers(st, mr);
		/* A live mapping shorter than its length: no access past it. */
		mr->fast.nblocks = 1;
		ST_EXPECT(st, mrc_mr_copy_from(mr, PAGE_SIZE, st->buf, 1) ==
			      -ERANGE);
		mr->fast.nblocks = ST_PAGES;
		/* Memory misaligned where the iova is not: refused, quietly. */
		mr->fast.offset = ST_HEAD + 1;
		ST_EXPECT(st, mrc_mr_atomic(mr, 8, false, 1, 0, &orig) ==
			      -EINVAL);
		mr->fast.offset = ST_HEAD;
		mrc_mr_put(got);
	}

	/* A REG_MR finds its MR by index, whatever its state. */
	got = mrc_mr_get_fast(mdev, index);
	ST_EXPECT(st, got == mr && refcount_read(&mr->refs) == 2);
	if (got)
		mrc_mr_put(got);
	ST_EXPECT(st, !mrc_mr_get_fast(mdev, 0));
	ST_EXPECT(st, !mrc_mr_get_fast(mdev, index + 1));
	ST_EXPECT(st, !mrc_mr_get_fast(mdev, (u64)MRC_MAX_MR + 1));
	ST_EXPECT(st, !mrc_mr_get_fast(mdev, BIT_ULL(32) | index));

	/* A SEND_INV's first packet asks; the answer changes nothing. */
	ST_EXPECT(st, mrc_mr_may_invalidate(mdev, NULL, key + 1) == -EPERM);
	ST_EXPECT(st, mrc_mr_may_invalidate(mdev, (struct ib_pd *)st, key) ==
		      -EPERM);
	ST_EXPECT(st, !mrc_mr_may_invalidate(mdev, mr->pd, key));
	got = mrc_mr_get(mdev, key);
	ST_EXPECT(st, got == mr);
	if (got)
		mrc_mr_put(got);
	/* Being registered: neither may nor can it be invalidated. */
	mr->state = MRC_MR_BUSY;
	ST_EXPECT(st, mrc_mr_may_invalidate(mdev, NULL, key) == -EINVAL);
	ST_EXPECT(st, mrc_mr_invalidate(mdev, NULL, key) == -EINVAL);
	mr->state = MRC_MR_VALID;

	ST_EXPECT(st, mrc_mr_invalidate(mdev, NULL, key + 1) == -EPERM);
	ST_EXPECT(st, mrc_mr_invalidate(mdev, (struct ib_pd *)st, key) ==
		      -EPERM);
	ST_EXPECT(st, !mrc_mr_invalidate(mdev, mr->pd, key));
	ST_EXPECT(st, !mrc_mr_get(mdev, key));
	ST_EXPECT(st, !mrc_mr_invalidate(mdev, NULL, key));	/* FREE */
	ST_EXPECT(st, !mrc_mr_may_invalidate(mdev, NULL, key));
	mr->type = MRC_MR_USER;
	ST_EXPECT(st, mrc_mr_invalidate(mdev, NULL, key) == -EINVAL);
	ST_EXPECT(st, mrc_mr_may_invalidate(mdev, NULL, key) == -EINVAL);
	ST_EXPECT(st, !mrc_mr_get_fast(mdev, index));

	xa_erase(&mdev->mrs.xa, index);
	ST_EXPECT(st, refcount_read(&mr->refs) == 1);
	mrc_mr_table_cleanup(mdev);
out:
	kfree(mdev);
}

/* A DMA MR: its iova is the kernel address of st->buf. */
static void st_dma_mr(struct mrc_mr_st *st, struct mrc_mr *mr)
{
	u64 *word = (u64 *)st->ref, orig;
	u64 base = (uintptr_t)st->ref;

	memset(mr, 0, sizeof(*mr));
	mr->type = MRC_MR_DMA;
	mr->length = U64_MAX;
	mr->access = ST_ALL_RIGHTS;

	get_random_bytes(st->buf, 3 * PAGE_SIZE);
	ST_EXPECT(st, !mrc_mr_copy_to(mr, base + 10, st->buf, 2 * PAGE_SIZE));
	ST_EXPECT(st, !memcmp(st->ref + 10, st->buf, 2 * PAGE_SIZE));
	ST_EXPECT(st, !mrc_mr_copy_from(mr, base + 20, st->buf, 100));
	ST_EXPECT(st, !memcmp(st->ref + 20, st->buf, 100));
	*word = 1;
	ST_EXPECT(st, !mrc_mr_atomic(mr, base, false, 2, 0, &orig));
	ST_EXPECT(st, orig == 1 && *word == 3);
	ST_EXPECT(st, mrc_mr_check(mr, NULL, U64_MAX, 2, 0) == -ERANGE);
}

int mrc_mr_selftest(void)
{
	struct mrc_mr_st *st;
	struct mrc_mr *mr;
	int i, err = -ENOMEM;

	if (!mr_selftest)
		return 0;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!st || !mr)
		goto out;
	st->ref = kzalloc(ST_PAGES * PAGE_SIZE, GFP_KERNEL);
	st->buf = kzalloc(ST_PAGES * PAGE_SIZE, GFP_KERNEL);
	if (!st->ref || !st->buf)
		goto out;
	/* Three separate pages, in reverse order: never contiguous. */
	for (i = ST_PAGES - 1; i >= 0; i--) {
		st->pages[i] = alloc_page(GFP_KERNEL);
		if (!st->pages[i])
			goto out;
		get_random_bytes(page_address(st->pages[i]), PAGE_SIZE);
	}

	st_user_mr(st, mr);
	st_fast_mr(st, mr);
	st_dma_mr(st, mr);

	pr_info("mr selftest: %u checks, %u failed\n", st->checked,
		st->failed);
	err = st->failed ? -EINVAL : 0;
out:
	if (st) {
		for (i = 0; i < ST_PAGES; i++)
			if (st->pages[i])
				__free_page(st->pages[i]);
		kfree(st->ref);
		kfree(st->buf);
	}
	kfree(st);
	kfree(mr);
	return err;
}
