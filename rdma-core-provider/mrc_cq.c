// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * soft-MRC libibverbs provider: completion queues.
 *
 * The kernel writes completions into a ring we map at creation; polling
 * reads them there without a system call (mrc_fastpath.c). Arming goes
 * through the plain uverbs command. A resize maps the ring the kernel moved
 * the CQ to and unmaps the old one.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "mrc.h"
#include "mrc_fastpath.h"

struct mrc_cq {
	struct verbs_cq vcq;
	/*
	 * libibverbs lets several threads poll one CQ; the lock makes each
	 * poll (or each start_poll..end_poll of the extended API) the ring's
	 * only consumer.
	 */
	pthread_spinlock_t lock;
	struct mrc_uring ring;
	/*
	 * A resize succeeded in the kernel but its new ring could not be
	 * mapped: the kernel writes completions where we cannot read them,
	 * so polling fails (EIO) until the CQ is destroyed.
	 */
	int lost;
	/* Extended polling: the completion the read_* ops report on. */
	const struct mrc_cqe *current;
};

/*
 * Create responses as the kernel writes them: the core response, whose
 * driver_data[] holds the mrc tail. The core fields are spelled out
 * because a struct ending in a flexible array may not be followed by more
 * members.
 */
struct mrc_create_cq_resp_full {
	__u32 cq_handle;
	__u32 cqe;
	struct mrc_create_cq_resp drv;
};

_Static_assert(offsetof(struct mrc_create_cq_resp_full, cq_handle) ==
	       offsetof(struct ib_uverbs_create_cq_resp, cq_handle) &&
	       offsetof(struct mrc_create_cq_resp_full, cqe) ==
	       offsetof(struct ib_uverbs_create_cq_resp, cqe),
	       "core CREATE_CQ response fields moved");
_Static_assert(offsetof(struct mrc_create_cq_resp_full, drv) ==
	       sizeof(struct ib_uverbs_create_cq_resp),
	       "mrc tail does not start where CREATE_CQ driver data does");

struct mrc_create_cq_ex_resp_full {
	__u32 cq_handle;
	__u32 cqe;
	__u32 comp_mask;
	__u32 response_length;
	struct mrc_create_cq_resp drv;
};

_Static_assert(offsetof(struct mrc_create_cq_ex_resp_full, cq_handle) ==
	       offsetof(struct ib_uverbs_ex_create_cq_resp, base.cq_handle) &&
	       offsetof(struct mrc_create_cq_ex_resp_full, cqe) ==
	       offsetof(struct ib_uverbs_ex_create_cq_resp, base.cqe) &&
	       offsetof(struct mrc_create_cq_ex_resp_full, comp_mask) ==
	       offsetof(struct ib_uverbs_ex_create_cq_resp, comp_mask) &&
	       offsetof(struct mrc_create_cq_ex_resp_full, response_length) ==
	       offsetof(struct ib_uverbs_ex_create_cq_resp, response_length),
	       "core extended CREATE_CQ response fields moved");
_Static_assert(offsetof(struct mrc_create_cq_ex_resp_full, drv) ==
	       sizeof(struct ib_uverbs_ex_create_cq_resp),
	       "mrc tail does not start where extended CREATE_CQ driver data does");

/* What a struct mrc_cqe can answer for the extended polling API. */
#define MRC_CQ_EX_WC_FLAGS						\
	(IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM |		\
	 IBV_WC_EX_WITH_QP_NUM | IBV_WC_EX_WITH_SRC_QP |		\
	 IBV_WC_EX_WITH_SLID | IBV_WC_EX_WITH_SL |			\
	 IBV_WC_EX_WITH_DLID_PATH_BITS)

static struct mrc_cq *to_mrc_cq(struct ibv_cq *ibcq)
{
	struct verbs_cq *vcq = mrc_container_of(ibcq, struct verbs_cq, cq);

	return mrc_container_of(vcq, struct mrc_cq, vcq);
}

static struct mrc_cq *to_mrc_cq_ex(struct ibv_cq_ex *ibcq_ex)
{
	struct verbs_cq *vcq = mrc_container_of(ibcq_ex, struct verbs_cq,
						cq_ex);

	return mrc_container_of(vcq, struct mrc_cq, vcq);
}

static struct mrc_cq *mrc_cq_alloc(void)
{
	struct mrc_cq *cq;

	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return NULL;
	if (pthread_spin_init(&cq->lock, PTHREAD_PROCESS_PRIVATE)) {
		free(cq);
		return NULL;
	}
	return cq;
}

static void mrc_cq_free(struct mrc_cq *cq)
{
	pthread_spin_destroy(&cq->lock);
	free(cq);
}

/*
 * Maps the ring of a CQ the kernel has just created, which must hold at
 * least the cqe entries it reported. On failure the CQ is destroyed again
 * and freed, and errno is set.
 */
static int mrc_cq_map(struct mrc_cq *cq, struct ibv_context *ibctx,
		      const struct mrc_ring_info *info)
{
	struct ibv_cq *ibcq = &cq->vcq.cq;
	int err;

	err = ibcq->cqe < 0 ? EPROTO :
	      mrc_uring_map(&cq->ring, ibctx->cmd_fd, info,
			    (uint32_t)ibcq->cqe, sizeof(struct mrc_cqe),
			    MRC_URING_CONSUMER);
	if (err) {
		ibv_cmd_destroy_cq(ibcq);
		mrc_cq_free(cq);
		errno = err;
	}
	return err;
}

static struct ibv_cq *mrc_create_cq(struct ibv_context *ibctx, int cqe,
				    struct ibv_comp_channel *channel,
				    int comp_vector)
{
	struct mrc_create_cq_resp_full resp = {};
	struct mrc_cq *cq;
	int ret;

	cq = mrc_cq_alloc();
	if (!cq)
		return NULL;

	ret = ibv_cmd_create_cq(ibctx, cqe, channel, comp_vector, &cq->vcq.cq,
				NULL, 0,
				(struct ib_uverbs_create_cq_resp *)&resp,
				sizeof(resp));
	if (ret) {
		mrc_cq_free(cq);
		errno = ret;
		return NULL;
	}

	if (mrc_cq_map(cq, ibctx, &resp.drv.cq))
		return NULL;
	return &cq->vcq.cq;
}

/*
 * RESIZE_CQ response as the kernel writes it: struct
 * ib_uverbs_resize_cq_resp, whose driver_data[] holds the mrc tail.
 */
struct mrc_resize_cq_resp_full {
	__u32 cqe;
	__u32 reserved;
	struct mrc_resize_cq_resp drv;
};

_Static_assert(offsetof(struct mrc_resize_cq_resp_full, cqe) ==
	       offsetof(struct ib_uverbs_resize_cq_resp, cqe) &&
	       offsetof(struct mrc_resize_cq_resp_full, reserved) ==
	       offsetof(struct ib_uverbs_resize_cq_resp, reserved),
	       "core RESIZE_CQ response fields moved");
_Static_assert(offsetof(struct mrc_resize_cq_resp_full, drv) ==
	       sizeof(struct ib_uverbs_resize_cq_resp) &&
	       offsetof(struct mrc_resize_cq_resp_full, drv) ==
	       offsetof(struct ib_uverbs_resize_cq_resp, driver_data),
	       "mrc tail does not start where RESIZE_CQ driver data does");

/*
 * The kernel copies every completion we have not polled into the new ring
 * at the index it had, and takes our index from the old ring's consumer
 * word. Holding the lock across the command keeps that word still and
 * keeps every poller off both rings until we read from the new one; the
 * new ring gives us our index back (mrc_uring_attach()), so polling goes
 * on where it stopped.
 */
static int mrc_resize_cq(struct ibv_cq *ibcq, int cqe)
{
	struct mrc_cq *cq = to_mrc_cq(ibcq);
	struct mrc_resize_cq_resp_full resp = {};
	struct verbs_cmd_resize_cq cmd = {};
	struct mrc_uring ring = {};
	int ret;

	/* The kernel takes an unsigned count from 7.x on: keep its answer. */
	if (cqe < 1)
		return EINVAL;

	pthread_spin_lock(&cq->lock);
	if (cq->lost) {
		ret = EIO;
		goto out;
	}
	ret = ibv_cmd_resize_cq(ibcq, cqe, &cmd, sizeof(cmd),
				(struct ib_uverbs_resize_cq_resp *)&resp,
				sizeof(resp));
	if (ret)
		goto out;

	ret = ibcq->cqe < cqe ? EPROTO :
	      mrc_uring_map(&ring, ibcq->context->cmd_fd, &resp.drv.cq,
			    (uint32_t)ibcq->cqe, sizeof(struct mrc_cqe),
			    MRC_URING_CONSUMER);
	if (ret) {
		/* Completions now go to a ring we do not have. */
		cq->lost = 1;
		goto out;
	}
	/* No one reads the old ring any more: the lock is held. */
	mrc_uring_unmap(&cq->ring);
	cq->ring = ring;
out:
	pthread_spin_unlock(&cq->lock);
	return ret;
}

static int mrc_poll_cq(struct ibv_cq *ibcq, int num_entries,
		       struct ibv_wc *wc)
{
	struct mrc_cq *cq = to_mrc_cq(ibcq);
	int polled;

	pthread_spin_lock(&cq->lock);
	polled = cq->lost ? -EIO :
		 mrc_cq_ring_poll(&cq->ring, num_entries, wc);
	pthread_spin_unlock(&cq->lock);
	return polled;
}

/*
 * Extended polling. start_poll takes the lock and end_poll drops it, so
 * the slot being read stays ours throughout; the consumer index is given
 * back once, at end_poll, for everything read in between.
 */
static int mrc_cq_next_entry(struct mrc_cq *cq)
{
	uint32_t available;

	if (cq->lost)
		return EIO;
	available = mrc_uring_available(&cq->ring);
	if (available > cq->ring.num_slots)
		return EIO;
	if (!available) {
		cq->current = NULL;
		return ENOENT;
	}

	cq->current = mrc_uring_slot(&cq->ring, cq->ring.index++);
	cq->vcq.cq_ex.wr_id = cq->current->wc.wr_id;
	cq->vcq.cq_ex.status = (enum ibv_wc_status)cq->current->wc.status;
	return 0;
}

static int mrc_cq_start_poll(struct ibv_cq_ex *ibcq_ex,
			     struct ibv_poll_cq_attr *attr)
{
	struct mrc_cq *cq = to_mrc_cq_ex(ibcq_ex);
	int err;

	if (attr->comp_mask)
		return EINVAL;

	pthread_spin_lock(&cq->lock);
	err = mrc_cq_next_entry(cq);
	/* Only a successful start_poll is followed by end_poll. */
	if (err)
		pthread_spin_unlock(&cq->lock);
	return err;
}

static int mrc_cq_next_poll(struct ibv_cq_ex *ibcq_ex)
{
	return mrc_cq_next_entry(to_mrc_cq_ex(ibcq_ex));
}

static void mrc_cq_end_poll(struct ibv_cq_ex *ibcq_ex)
{
	struct mrc_cq *cq = to_mrc_cq_ex(ibcq_ex);

	cq->current = NULL;
	mrc_uring_publish_consumer(&cq->ring);
	pthread_spin_unlock(&cq->lock);
}

static enum ibv_wc_opcode mrc_cq_read_opcode(struct ibv_cq_ex *ibcq_ex)
{
	return (enum ibv_wc_opcode)to_mrc_cq_ex(ibcq_ex)->current->wc.opcode;
}

static uint32_t mrc_cq_read_vendor_err(struct ibv_cq_ex *ibcq_ex)
{
	return to_mrc_cq_ex(ibcq_ex)->current->wc.vendor_err;
}

static uint32_t mrc_cq_read_byte_len(struct ibv_cq_ex *ibcq_ex)
{
	return to_mrc_cq_ex(ibcq_ex)->current->wc.byte_len;
}

static __be32 mrc_cq_read_imm_data(struct ibv_cq_ex *ibcq_ex)
{
	return to_mrc_cq_ex(ibcq_ex)->current->wc.ex.imm_data;
}

static uint32_t mrc_cq_read_qp_num(struct ibv_cq_ex *ibcq_ex)
{
	return to_mrc_cq_ex(ibcq_ex)->current->wc.qp_num;
}

static uint32_t mrc_cq_read_src_qp(struct ibv_cq_ex *ibcq_ex)
{
	return to_mrc_cq_ex(ibcq_ex)->current->wc.src_qp;
}

static unsigned int mrc_cq_read_wc_flags(struct ibv_cq_ex *ibcq_ex)
{
	return mrc_wc_flags_from_kernel(
		to_mrc_cq_ex(ibcq_ex)->current->wc.wc_flags);
}

static uint32_t mrc_cq_read_slid(struct ibv_cq_ex *ibcq_ex)
{
	return to_mrc_cq_ex(ibcq_ex)->current->wc.slid;
}

static uint8_t mrc_cq_read_sl(struct ibv_cq_ex *ibcq_ex)
{
	return to_mrc_cq_ex(ibcq_ex)->current->wc.sl;
}

static uint8_t mrc_cq_read_dlid_path_bits(struct ibv_cq_ex *ibcq_ex)
{
	return to_mrc_cq_ex(ibcq_ex)->current->wc.dlid_path_bits;
}

static void mrc_cq_set_ex_ops(struct ibv_cq_ex *cq_ex, uint64_t wc_flags)
{
	cq_ex->start_poll = mrc_cq_start_poll;
	cq_ex->next_poll = mrc_cq_next_poll;
	cq_ex->end_poll = mrc_cq_end_poll;
	cq_ex->read_opcode = mrc_cq_read_opcode;
	cq_ex->read_vendor_err = mrc_cq_read_vendor_err;
	cq_ex->read_wc_flags = mrc_cq_read_wc_flags;
	/* Only what was asked for, as the other providers do. */
	if (wc_flags & IBV_WC_EX_WITH_BYTE_LEN)
		cq_ex->read_byte_len = mrc_cq_read_byte_len;
	if (wc_flags & IBV_WC_EX_WITH_IMM)
		cq_ex->read_imm_data = mrc_cq_read_imm_data;
	if (wc_flags & IBV_WC_EX_WITH_QP_NUM)
		cq_ex->read_qp_num = mrc_cq_read_qp_num;
	if (wc_flags & IBV_WC_EX_WITH_SRC_QP)
		cq_ex->read_src_qp = mrc_cq_read_src_qp;
	if (wc_flags & IBV_WC_EX_WITH_SLID)
		cq_ex->read_slid = mrc_cq_read_slid;
	if (wc_flags & IBV_WC_EX_WITH_SL)
		cq_ex->read_sl = mrc_cq_read_sl;
	if (wc_flags & IBV_WC_EX_WITH_DLID_PATH_BITS)
		cq_ex->read_dlid_path_bits = mrc_cq_read_dlid_path_bits;
}

static struct ibv_cq_ex *mrc_create_cq_ex(struct ibv_context *ibctx,
					  struct ibv_cq_init_attr_ex *attr)
{
	struct mrc_create_cq_ex_resp_full resp = {};
	struct mrc_cq *cq;
	int ret;

	/*
	 * No timestamps, no flags (IGNORE_OVERRUN, single-threaded) and no
	 * parent domain: the kernel fills none of them in.
	 */
	if (attr->wc_flags & ~(uint64_t)MRC_CQ_EX_WC_FLAGS ||
	    attr->comp_mask & ~(uint32_t)IBV_CQ_INIT_ATTR_MASK_FLAGS ||
	    (attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS && attr->flags)) {
		errno = EOPNOTSUPP;
		return NULL;
	}

	cq = mrc_cq_alloc();
	if (!cq)
		return NULL;

	ret = mrc_cmd_create_cq_ex(ibctx, attr, &cq->vcq, NULL, 0,
				   (struct ib_uverbs_ex_create_cq_resp *)&resp,
				   sizeof(resp), 0);
	if (ret) {
		mrc_cq_free(cq);
		errno = ret;
		return NULL;
	}

	if (mrc_cq_map(cq, ibctx, &resp.drv.cq))
		return NULL;
	mrc_cq_set_ex_ops(&cq->vcq.cq_ex, attr->wc_flags);
	return &cq->vcq.cq_ex;
}

static int mrc_destroy_cq(struct ibv_cq *ibcq)
{
	struct mrc_cq *cq = to_mrc_cq(ibcq);
	int ret;

	/* On failure the kernel still writes to the ring: keep it mapped. */
	ret = ibv_cmd_destroy_cq(ibcq);
	if (ret)
		return ret;

	mrc_uring_unmap(&cq->ring);
	mrc_cq_free(cq);
	return 0;
}

/* Set by alloc_context; verbs_set_ops() merges it with the other tables. */
const struct verbs_context_ops mrc_cq_context_ops = {
	.create_cq = mrc_create_cq,
	.create_cq_ex = mrc_create_cq_ex,
	.destroy_cq = mrc_destroy_cq,
	.poll_cq = mrc_poll_cq,
	.req_notify_cq = ibv_cmd_req_notify_cq,
	.resize_cq = mrc_resize_cq,
};
