// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Completion queue verbs and the completion producer.
 */
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/mrc-abi.h>

#include "mrc.h"
#include "mrc_compat.h"
#include "mrc_cq.h"

/* A kernel CQ's slots hold struct ib_wc; a user CQ's hold struct mrc_cqe. */
static u32 mrc_cq_slot_size(bool user)
{
	return user ? sizeof(struct mrc_cqe) :
		      roundup_pow_of_two(sizeof(struct ib_wc));
}

static void mrc_wc_to_user(struct mrc_cqe *cqe, const struct ib_wc *wc)
{
	memset(cqe, 0, sizeof(*cqe));
	cqe->wc.wr_id = wc->wr_id;
	cqe->wc.status = wc->status;
	cqe->wc.opcode = wc->opcode;
	cqe->wc.vendor_err = wc->vendor_err;
	cqe->wc.byte_len = wc->byte_len;
	cqe->wc.ex.imm_data = wc->ex.imm_data;
	cqe->wc.qp_num = wc->qp->qp_num;
	cqe->wc.src_qp = wc->src_qp;
	cqe->wc.wc_flags = wc->wc_flags;
	cqe->wc.pkey_index = wc->pkey_index;
	cqe->wc.slid = wc->slid;
	cqe->wc.sl = wc->sl;
	cqe->wc.dlid_path_bits = wc->dlid_path_bits;
	cqe->wc.port_num = wc->port_num;
}

/* The handlers a completion made due; run by mrc_cq_notify(). */
#define MRC_CQ_DUE_COMP		BIT(0)
#define MRC_CQ_DUE_ERR		BIT(1)

int mrc_cq_post(struct mrc_cq *cq, const struct ib_wc *wc, bool solicited)
{
	unsigned long flags;
	void *slot;

	spin_lock_irqsave(&cq->lock, flags);
	if (cq->overflowed || mrc_ring_free(&cq->ring, cq->produced) <= 0) {
		/* Report once: the CQ is broken until destroyed. */
		if (!cq->overflowed)
			WRITE_ONCE(cq->due, cq->due | MRC_CQ_DUE_ERR);
		cq->overflowed = true;
		spin_unlock_irqrestore(&cq->lock, flags);
		return -ENOSPC;
	}

	slot = mrc_ring_slot(&cq->ring, cq->produced);
	if (cq->user)
		mrc_wc_to_user(slot, wc);
	else
		memcpy(slot, wc, sizeof(*wc));
	mrc_ring_publish_producer(&cq->ring, ++cq->produced);

	if (cq->notify == IB_CQ_NEXT_COMP ||
	    (cq->notify == IB_CQ_SOLICITED && solicited)) {
		cq->notify = 0;
		WRITE_ONCE(cq->due, cq->due | MRC_CQ_DUE_COMP);
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return 0;
}

void mrc_cq_notify(struct mrc_cq *cq)
{
	struct ib_event event = {
		.device = cq->ibcq.device,
		.element.cq = &cq->ibcq,
		.event = IB_EVENT_CQ_ERR,
	};
	unsigned long flags;
	u8 due;

	/* Whoever sets a due bit calls us after it: a stale 0 loses nothing. */
	if (!READ_ONCE(cq->due))
		return;
	spin_lock_irqsave(&cq->lock, flags);
	due = cq->due;
	WRITE_ONCE(cq->due, 0);
	spin_unlock_irqrestore(&cq->lock, flags);

	if (due & MRC_CQ_DUE_ERR && cq->ibcq.event_handler)
		cq->ibcq.event_handler(&event, cq->ibcq.cq_context);
	if (due & MRC_CQ_DUE_COMP && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
}

static int mrc_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
			 struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mrc_dev(ibcq->device);
	struct mrc_cq *cq = to_mrc_cq(ibcq);
	struct mrc_create_cq_resp resp = {};
	struct ib_ucontext *ucontext;
	int err;

	if (attr->flags)
		return -EOPNOTSUPP;
	if (attr->cqe < 1 || attr->cqe > MRC_MAX_CQE)
		return -EINVAL;
	if (attr->comp_vector >= ibcq->device->num_comp_vectors)
		return -EINVAL;

	err = mrc_ring_ucontext(udata, sizeof(resp), &ucontext);
	if (err)
		return err;

	if (atomic_inc_return(&mdev->num_cqs) > MRC_MAX_CQ) {
		err = -ENOMEM;
		goto err_count;
	}

	spin_lock_init(&cq->lock);
	cq->user = !!udata;
	err = mrc_ring_create(&cq->ring, attr->cqe, mrc_cq_slot_size(cq->user),
			      ucontext, &resp.cq);
	if (err)
		goto err_count;
	ibcq->cqe = cq->ring.num_slots;

	if (udata) {
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			goto err_ring;
	}
	return 0;

err_ring:
	mrc_ring_destroy(&cq->ring);
err_count:
	atomic_dec(&mdev->num_cqs);
	return err;
}

MRC_COMPAT_CREATE_CQ(mrc_create_cq)

static int mrc_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct mrc_cq *cq = to_mrc_cq(ibcq);

	mrc_ring_destroy(&cq->ring);
	atomic_dec(&to_mrc_dev(ibcq->device)->num_cqs);
	return 0;
}

/*
 * Moves the CQ to a ring of at least @cqe slots, keeping every completion
 * not yet polled, in order and at the same indices, so the consumer's
 * index carries over and nothing queued is lost or reordered.
 *
 * The new ring is built and, for a user CQ, described to userspace before
 * cq->lock is taken: it cannot be copied to userspace under a spinlock,
 * and a response written for a resize that then fails is never read. The
 * count check, the copy and the switch happen under cq->lock, so a
 * completion is posted either to the old ring before the copy or to the
 * new one after it. The provider holds its CQ lock across the call, so
 * the consumer index it left in the old ring does not move meanwhile; one
 * that claims more than the ring holds is refused like too small a size.
 *
 * The old ring goes the way of a destroyed CQ's (mrc_ring_destroy()): its
 * mmap entry is removed, so no new mapping of it can be made, and the
 * entry frees the memory once an mmap() in progress has dropped its
 * reference; pages the provider still has mapped stay allocated until it
 * unmaps them, as remap_vmalloc_range() took a reference on each.
 *
 * Two resizes of one CQ may run at once (uverbs looks the CQ up shared);
 * each switch happens whole under cq->lock, and the later one wins.
 */
static int mrc_resize_cq(struct ib_cq *ibcq, unsigned int cqe,
			 struct ib_udata *udata)
{
	struct mrc_cq *cq = to_mrc_cq(ibcq);
	struct mrc_resize_cq_resp resp = {};
	struct ib_ucontext *ucontext;
	struct mrc_ring ring, old;
	unsigned long flags;
	u32 consumer, queued, i;
	int err;

	if (cqe < 1 || cqe > MRC_MAX_CQE)
		return -EINVAL;
	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EOPNOTSUPP;
	err = mrc_ring_ucontext(udata, sizeof(resp), &ucontext);
	if (err)
		return err;
	/* A user CQ keeps user slots: its ring is only ever mapped. */
	if (!!udata != cq->user)
		return -EINVAL;

	err = mrc_ring_create(&ring, cqe, mrc_cq_slot_size(cq->user),
			      ucontext, &resp.cq);
	if (err)
		return err;
	if (udata) {
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			goto err_ring;
	}

	spin_lock_irqsave(&cq->lock, flags);
	/* Acquire pairs with the provider's release of its consumer index. */
	consumer = cq->user ? smp_load_acquire(&cq->ring.indices->consumer) :
			      cq->consumed;
	queued = cq->produced - consumer;
	if (queued > cq->ring.num_slots || queued > cqe) {
		spin_unlock_irqrestore(&cq->lock, flags);
		err = -EINVAL;
		goto err_ring;
	}
	for (i = consumer; i != cq->produced; i++)
		memcpy(mrc_ring_slot(&ring, i), mrc_ring_slot(&cq->ring, i),
		       ring.slot_size);
	ring.indices->consumer = consumer;
	mrc_ring_publish_producer(&ring, cq->produced);
	old = cq->ring;
	cq->ring = ring;
	ibcq->cqe = ring.num_slots;
	spin_unlock_irqrestore(&cq->lock, flags);

	mrc_ring_destroy(&old);
	return 0;

err_ring:
	mrc_ring_destroy(&ring);
	return err;
}

MRC_COMPAT_RESIZE_CQ(mrc_resize_cq)

/* Kernel consumers only: a user CQ is polled through its mapped ring. */
static int mrc_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct mrc_cq *cq = to_mrc_cq(ibcq);
	unsigned long flags;
	int n;

	if (cq->user)
		return -EINVAL;

	spin_lock_irqsave(&cq->lock, flags);
	for (n = 0; n < num_entries && cq->consumed != cq->produced; n++)
		memcpy(&wc[n], mrc_ring_slot(&cq->ring, cq->consumed++),
		       sizeof(*wc));
	mrc_ring_publish_consumer(&cq->ring, cq->consumed);
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

static int mrc_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct mrc_cq *cq = to_mrc_cq(ibcq);
	unsigned long irqflags;
	bool pending;
	u32 consumer;

	spin_lock_irqsave(&cq->lock, irqflags);
	/* A pending next-completion request is not narrowed to solicited. */
	if (cq->notify != IB_CQ_NEXT_COMP)
		cq->notify = flags & IB_CQ_SOLICITED_MASK;
	/* Acquire pairs with the provider's release of its consumer index. */
	consumer = cq->user ? smp_load_acquire(&cq->ring.indices->consumer) :
			      cq->consumed;
	pending = consumer != cq->produced;
	spin_unlock_irqrestore(&cq->lock, irqflags);

	return (flags & IB_CQ_REPORT_MISSED_EVENTS) && pending ? 1 : 0;
}

const struct ib_device_ops mrc_cq_ops = {
	MRC_COMPAT_CREATE_CQ_OPS(mrc_create_cq),
	.destroy_cq = mrc_destroy_cq,
	.poll_cq = mrc_poll_cq,
	.req_notify_cq = mrc_req_notify_cq,
	MRC_COMPAT_RESIZE_CQ_OPS(mrc_resize_cq),

	INIT_RDMA_OBJ_SIZE(ib_cq, mrc_cq, ibcq),
};

/*
 * Self-test of a kernel CQ's resize, run at module load when the
 * cq_selftest parameter is set (selftests/mrc/queues.sh does): no kernel
 * ULP resizes a CQ, so nothing else reaches this path. It drives a CQ
 * built by hand, without a device, through the same post, resize and
 * poll code a ULP's CQ uses. A failure makes the module refuse to load.
 */
static bool cq_selftest;
module_param(cq_selftest, bool, 0444);
MODULE_PARM_DESC(cq_selftest, "check kernel CQ resize at load (default: no)");

struct mrc_cq_st {
	struct mrc_cq *cq;
	u64 next_post;		/* wr_id of the next completion posted */
	u64 next_poll;		/* wr_id the next poll must return */
	unsigned int checked;
	unsigned int failed;
};

static void cq_st_expect(struct mrc_cq_st *st, bool ok, int line,
			 const char *what)
{
	st->checked++;
	if (!ok) {
		st->failed++;
		pr_err("cq selftest: line %d: %s\n", line, what);
	}
}

#define CQ_ST_EXPECT(st, cond)	cq_st_expect(st, cond, __LINE__, #cond)

static int cq_st_post(struct mrc_cq_st *st, unsigned int n)
{
	struct ib_wc wc = {};
	int err = 0;

	while (n-- && !err) {
		wc.wr_id = st->next_post;
		/* Statuses vary, so a slot copied whole is told apart. */
		wc.status = st->next_post % 3 ? IB_WC_SUCCESS :
						IB_WC_WR_FLUSH_ERR;
		wc.byte_len = (u32)st->next_post * 7;
		err = mrc_cq_post(st->cq, &wc, false);
		if (!err)
			st->next_post++;
	}
	return err;
}

/*
 * Polls @n completions in batches of up to 8; all must come in order, and
 * none may follow them if the CQ is to be @empty then.
 */
static void cq_st_poll(struct mrc_cq_st *st, unsigned int n, bool empty)
{
	struct ib_wc wc[8];
	int got, i;

	while (n) {
		got = mrc_poll_cq(&st->cq->ibcq, min_t(int, n, 8), wc);
		CQ_ST_EXPECT(st, got > 0);
		if (got <= 0)
			return;
		for (i = 0; i < got; i++, st->next_poll++) {
			CQ_ST_EXPECT(st, wc[i].wr_id == st->next_poll);
			CQ_ST_EXPECT(st, wc[i].byte_len ==
					 (u32)st->next_poll * 7);
			CQ_ST_EXPECT(st, wc[i].status ==
				     (st->next_poll % 3 ? IB_WC_SUCCESS :
				      IB_WC_WR_FLUSH_ERR));
		}
		n -= got;
	}
	if (empty)
		CQ_ST_EXPECT(st, mrc_poll_cq(&st->cq->ibcq, 1, wc) == 0);
}

static void cq_st_run(struct mrc_cq_st *st)
{
	struct ib_cq *ibcq = &st->cq->ibcq;
	int i;

	/* Three queued on four slots: what the resize may and may not do. */
	CQ_ST_EXPECT(st, !cq_st_post(st, 3));
	CQ_ST_EXPECT(st, mrc_resize_cq(ibcq, 2, NULL) == -EINVAL);
	CQ_ST_EXPECT(st, mrc_resize_cq(ibcq, 0, NULL) == -EINVAL);
	CQ_ST_EXPECT(st, mrc_resize_cq(ibcq, MRC_MAX_CQE + 1, NULL) ==
			 -EINVAL);
	CQ_ST_EXPECT(st, ibcq->cqe == 4);
	CQ_ST_EXPECT(st, !mrc_resize_cq(ibcq, 3, NULL));
	CQ_ST_EXPECT(st, ibcq->cqe == 4);

	/* Part polled, more queued, then grow and queue behind them. */
	cq_st_poll(st, 1, false);
	CQ_ST_EXPECT(st, !cq_st_post(st, 1));
	CQ_ST_EXPECT(st, !mrc_resize_cq(ibcq, 64, NULL));
	CQ_ST_EXPECT(st, ibcq->cqe == 64);
	CQ_ST_EXPECT(st, !cq_st_post(st, 50));

	/* 53 queued: shrink to exactly that, then read them all. */
	CQ_ST_EXPECT(st, mrc_resize_cq(ibcq, 52, NULL) == -EINVAL);
	CQ_ST_EXPECT(st, !mrc_resize_cq(ibcq, 53, NULL));
	CQ_ST_EXPECT(st, ibcq->cqe == 64);
	cq_st_poll(st, 53, true);

	/* Round the new ring, then down to one slot, which holds one. */
	for (i = 0; i < 3 * 64 && !st->failed; i++) {
		CQ_ST_EXPECT(st, !cq_st_post(st, 1));
		cq_st_poll(st, 1, true);
	}
	CQ_ST_EXPECT(st, !mrc_resize_cq(ibcq, 1, NULL));
	CQ_ST_EXPECT(st, ibcq->cqe == 1);
	CQ_ST_EXPECT(st, !cq_st_post(st, 1));
	CQ_ST_EXPECT(st, cq_st_post(st, 1) == -ENOSPC);
	cq_st_poll(st, 1, true);
}

int mrc_cq_selftest(void)
{
	struct mrc_cq_st st = {};
	int err;

	if (!cq_selftest)
		return 0;

	st.cq = kzalloc(sizeof(*st.cq), GFP_KERNEL);
	if (!st.cq)
		return -ENOMEM;
	spin_lock_init(&st.cq->lock);
	err = mrc_ring_create(&st.cq->ring, 4, mrc_cq_slot_size(false), NULL,
			      NULL);
	if (err) {
		kfree(st.cq);
		return err;
	}
	st.cq->ibcq.cqe = st.cq->ring.num_slots;

	cq_st_run(&st);

	mrc_ring_destroy(&st.cq->ring);
	kfree(st.cq);
	pr_info("cq selftest: %u checks, %u failed\n", st.checked, st.failed);
	return st.failed ? -EINVAL : 0;
}
