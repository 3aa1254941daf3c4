// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * soft-MRC libibverbs provider: queue pairs.
 *
 * A QP's send and receive queues are rings we map at creation and post
 * into without the kernel (mrc_fastpath.c). Posting sends ends with one
 * doorbell, the uverbs POST_SEND command with no work requests, which
 * tells the kernel to look at the ring. Receives need none: the kernel
 * reads the receive queue when a message arrives.
 *
 * RC and UD. A UD send slot names its destination by the kernel's AH
 * handle (mrc_ah.c) plus remote QPN and Q_Key; receives are as for RC, the
 * kernel putting the 40-byte GRH area first.
 *
 * Sends are posted with ibv_post_send() or, on a QP created with
 * send_ops_flags, with the ibv_wr_* calls (mrc_wr.c); both build their
 * WQEs with the same steps (mrc_fastpath.h), under the same lock.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "mrc.h"
#include "mrc_provider_api.h"
#include "mrc_fastpath.h"
#include "mrc_wr.h"

struct mrc_qp {
	struct verbs_qp vqp;
	/*
	 * libibverbs allows concurrent posting from several threads; each
	 * lock makes its ring's producer single. Send and receive are
	 * independent, so they do not share one. An ibv_wr_* batch holds
	 * sq_lock from ibv_wr_start() to ibv_wr_complete() or _abort().
	 */
	pthread_spinlock_t sq_lock;
	pthread_spinlock_t rq_lock;
	struct mrc_sq sq;
	struct mrc_rq rq;	/* unused when the QP has an SRQ */
};

/*
 * CREATE_QP response as the kernel writes it; see mrc_create_cq_resp_full
 * in mrc_cq.c for why the core fields are spelled out.
 */
struct mrc_create_qp_resp_full {
	__u32 qp_handle;
	__u32 qpn;
	__u32 max_send_wr;
	__u32 max_recv_wr;
	__u32 max_send_sge;
	__u32 max_recv_sge;
	__u32 max_inline_data;
	__u32 reserved;
	struct mrc_create_qp_resp drv;
};

_Static_assert(offsetof(struct mrc_create_qp_resp_full, qp_handle) ==
	       offsetof(struct ib_uverbs_create_qp_resp, qp_handle) &&
	       offsetof(struct mrc_create_qp_resp_full, max_inline_data) ==
	       offsetof(struct ib_uverbs_create_qp_resp, max_inline_data),
	       "core CREATE_QP response fields moved");
_Static_assert(offsetof(struct mrc_create_qp_resp_full, drv) ==
	       sizeof(struct ib_uverbs_create_qp_resp),
	       "mrc tail does not start where CREATE_QP driver data does");

/*
 * The doorbell: a legacy write() command, header then request, as
 * ib_uverbs_write() parses it (in_words counts both, out_words the
 * response). POST_SEND and POST_RECV share the request layout up to their
 * flexible arrays, which we leave empty.
 */
struct mrc_doorbell_cmd {
	struct ib_uverbs_cmd_hdr hdr;
	__aligned_u64 response;
	__u32 qp_handle;
	__u32 wr_count;
	__u32 sge_count;
	__u32 wqe_size;
};

#define MRC_ASSERT_DOORBELL_FIELD(field)				\
	_Static_assert(offsetof(struct mrc_doorbell_cmd, field) -	\
		       sizeof(struct ib_uverbs_cmd_hdr) ==		\
		       offsetof(struct ib_uverbs_post_send, field) &&	\
		       offsetof(struct mrc_doorbell_cmd, field) -	\
		       sizeof(struct ib_uverbs_cmd_hdr) ==		\
		       offsetof(struct ib_uverbs_post_recv, field),	\
		       "doorbell field " #field " moved")
MRC_ASSERT_DOORBELL_FIELD(response);
MRC_ASSERT_DOORBELL_FIELD(qp_handle);
MRC_ASSERT_DOORBELL_FIELD(wr_count);
MRC_ASSERT_DOORBELL_FIELD(sge_count);
MRC_ASSERT_DOORBELL_FIELD(wqe_size);
_Static_assert(sizeof(struct mrc_doorbell_cmd) ==
	       sizeof(struct ib_uverbs_cmd_hdr) +
	       sizeof(struct ib_uverbs_post_send) &&
	       sizeof(struct ib_uverbs_post_send) ==
	       sizeof(struct ib_uverbs_post_recv),
	       "doorbell command is not header plus request");
_Static_assert(sizeof(struct ib_uverbs_post_send_resp) ==
	       sizeof(struct ib_uverbs_post_recv_resp),
	       "POST_SEND and POST_RECV responses differ");

static struct mrc_qp *to_mrc_qp(struct ibv_qp *ibqp)
{
	struct verbs_qp *vqp = mrc_container_of(ibqp, struct verbs_qp, qp);

	return mrc_container_of(vqp, struct mrc_qp, vqp);
}

struct mrc_sq *mrc_qp_ex_sq(struct ibv_qp_ex *qpx)
{
	return &to_mrc_qp(&qpx->qp_base)->sq;
}

/*
 * libibverbs updates ibqp->state after every successful ibv_modify_qp() and
 * ibv_query_qp(); another thread may be doing so, hence the atomic load. A
 * QP the kernel moved to ERR on its own still reads as RTS here, which is
 * harmless: posting is allowed in ERR too.
 */
static enum ibv_qp_state mrc_qp_state(struct ibv_qp *ibqp)
{
	return __atomic_load_n(&ibqp->state, __ATOMIC_RELAXED);
}

/*
 * The verbs spec makes posting a send before RTS an immediate error. The
 * kernel would flush such requests; refusing them tells the application at
 * once.
 */
static bool mrc_qp_may_send(struct ibv_qp *ibqp)
{
	enum ibv_qp_state state = mrc_qp_state(ibqp);

	return state != IBV_QPS_RESET && state != IBV_QPS_INIT &&
	       state != IBV_QPS_RTR;
}

/* Returns 0 or an errno value. */
static int mrc_ring_doorbell(struct ibv_qp *ibqp, __u32 command,
			     __u32 wqe_size)
{
	struct ib_uverbs_post_send_resp resp;
	struct mrc_doorbell_cmd cmd = {
		.hdr = {
			.command = command,
			.in_words = sizeof(cmd) / 4,
			.out_words = sizeof(resp) / 4,
		},
		.response = (uintptr_t)&resp,
		.qp_handle = ibqp->handle,
		/* The kernel checks wqe_size even for no requests. */
		.wqe_size = wqe_size,
	};
	ssize_t written;

	written = write(ibqp->context->cmd_fd, &cmd, sizeof(cmd));
	if (written == (ssize_t)sizeof(cmd))
		return 0;
	return written < 0 ? errno : EIO;
}

static int mrc_qp_init_locks(struct mrc_qp *qp)
{
	if (pthread_spin_init(&qp->sq_lock, PTHREAD_PROCESS_PRIVATE))
		return ENOMEM;
	if (pthread_spin_init(&qp->rq_lock, PTHREAD_PROCESS_PRIVATE)) {
		pthread_spin_destroy(&qp->sq_lock);
		return ENOMEM;
	}
	return 0;
}

static void mrc_qp_free(struct mrc_qp *qp)
{
	pthread_spin_destroy(&qp->rq_lock);
	pthread_spin_destroy(&qp->sq_lock);
	free(qp);
}

/*
 * Maps the rings of a QP the kernel has just created with the capacities
 * in cap (what it granted, as the create helper left them), and keeps
 * those capacities as the limits post_send and post_recv enforce.
 */
static int mrc_qp_map(struct mrc_qp *qp, int cmd_fd,
		      const struct ibv_qp_cap *cap, bool has_srq,
		      const struct mrc_create_qp_resp *resp)
{
	int err;

	err = mrc_uring_map(&qp->sq.ring, cmd_fd, &resp->sq, cap->max_send_wr,
			    mrc_send_slot_min_size(cap->max_send_sge,
						   cap->max_inline_data),
			    MRC_URING_PRODUCER);
	if (err)
		return err;
	qp->sq.qp_type = qp->vqp.qp.qp_type;
	qp->sq.max_wr = cap->max_send_wr;
	qp->sq.max_sge = cap->max_send_sge;
	qp->sq.max_inline_data = cap->max_inline_data;

	if (has_srq) {
		/* Receives go to the SRQ's ring; the kernel made none here. */
		if (!mrc_ring_info_is_empty(&resp->rq)) {
			mrc_uring_unmap(&qp->sq.ring);
			return EPROTO;
		}
		return 0;
	}

	err = mrc_uring_map(&qp->rq.ring, cmd_fd, &resp->rq, cap->max_recv_wr,
			    mrc_recv_slot_min_size(cap->max_recv_sge),
			    MRC_URING_PRODUCER);
	if (err) {
		mrc_uring_unmap(&qp->sq.ring);
		return err;
	}
	qp->rq.max_wr = cap->max_recv_wr;
	qp->rq.max_sge = cap->max_recv_sge;
	return 0;
}

/* Undoes a successful create command after a later step failed. */
static void mrc_qp_undo_create(struct mrc_qp *qp, int err)
{
	ibv_cmd_destroy_qp(&qp->vqp.qp);
	mrc_qp_free(qp);
	errno = err;
}

static struct ibv_qp *mrc_create_qp(struct ibv_pd *pd,
				    struct ibv_qp_init_attr *attr)
{
	struct mrc_create_qp_resp_full resp = {};
	struct mrc_qp *qp;
	int err;

	if (attr->qp_type != IBV_QPT_RC && attr->qp_type != IBV_QPT_UC &&
	    attr->qp_type != IBV_QPT_UD) {
		errno = EOPNOTSUPP;
		return NULL;
	}

	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return NULL;
	err = mrc_qp_init_locks(qp);
	if (err) {
		free(qp);
		errno = err;
		return NULL;
	}

	/* On success attr->cap holds what the kernel granted. */
	err = ibv_cmd_create_qp(pd, &qp->vqp.qp, attr, NULL, 0,
				(struct ib_uverbs_create_qp_resp *)&resp,
				sizeof(resp));
	if (err) {
		mrc_qp_free(qp);
		errno = err;
		return NULL;
	}

	err = mrc_qp_map(qp, pd->context->cmd_fd, &attr->cap,
			 attr->srq != NULL, &resp.drv);
	if (err) {
		mrc_qp_undo_create(qp, err);
		return NULL;
	}
	return &qp->vqp.qp;
}

/*
 * The QP's part of the ibv_wr_* API: the lock, the state and the doorbell,
 * as in mrc_post_send() below.
 */
static void mrc_wr_start(struct ibv_qp_ex *qpx)
{
	struct mrc_qp *qp = to_mrc_qp(&qpx->qp_base);

	pthread_spin_lock(&qp->sq_lock);
	mrc_wr_batch_start(&qp->sq);
}

static int mrc_wr_complete(struct ibv_qp_ex *qpx)
{
	struct mrc_qp *qp = to_mrc_qp(&qpx->qp_base);
	uint32_t posted;
	int err;

	if (!mrc_qp_may_send(&qpx->qp_base)) {
		mrc_wr_batch_abort(&qp->sq);
		pthread_spin_unlock(&qp->sq_lock);
		return EINVAL;
	}
	err = mrc_wr_batch_end(&qp->sq, &posted);
	pthread_spin_unlock(&qp->sq_lock);
	if (err || !posted)
		return err;
	/*
	 * As for ibv_post_send(): the requests are published, but if the
	 * kernel did not hear of them the batch is reported as failed.
	 */
	return mrc_ring_doorbell(&qpx->qp_base, IB_USER_VERBS_CMD_POST_SEND,
				 sizeof(struct ib_uverbs_send_wr));
}

static void mrc_wr_abort(struct ibv_qp_ex *qpx)
{
	struct mrc_qp *qp = to_mrc_qp(&qpx->qp_base);

	mrc_wr_batch_abort(&qp->sq);
	pthread_spin_unlock(&qp->sq_lock);
}

/*
 * ibv_create_qp_ex() comes here only for comp_mask bits beyond
 * IBV_QP_INIT_ATTR_PD. Of those we take CREATE_FLAGS without flags (which
 * asks for nothing) and SEND_OPS_FLAGS (the ibv_wr_* posting API, for the
 * operations mrc has); the rest (XRC, RSS, TSO, ...) are nothing mrc does.
 */
static struct ibv_qp *mrc_create_qp_ex(struct ibv_context *ibctx,
				       struct ibv_qp_init_attr_ex *attr)
{
	struct mrc_create_qp_resp_full resp = {};
	struct ibv_qp_init_attr_ex core_attr;
	uint64_t send_ops = 0;
	struct mrc_qp *qp;
	int err;

	if (!(attr->comp_mask & IBV_QP_INIT_ATTR_PD) ||
	    attr->comp_mask & ~(uint32_t)(IBV_QP_INIT_ATTR_PD |
					  IBV_QP_INIT_ATTR_CREATE_FLAGS |
					  IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) ||
	    (attr->comp_mask & IBV_QP_INIT_ATTR_CREATE_FLAGS &&
	     attr->create_flags) ||
	    (attr->qp_type != IBV_QPT_RC && attr->qp_type != IBV_QPT_UC &&
	     attr->qp_type != IBV_QPT_UD)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) {
		send_ops = attr->send_ops_flags;
		err = mrc_wr_check_send_ops(attr->qp_type, send_ops);
		if (err) {
			errno = err;
			return NULL;
		}
	}

	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return NULL;
	err = mrc_qp_init_locks(qp);
	if (err) {
		free(qp);
		errno = err;
		return NULL;
	}

	/* The helper refuses CREATE_FLAGS, which asks for nothing here. */
	core_attr = *attr;
	core_attr.comp_mask = IBV_QP_INIT_ATTR_PD;
	err = ibv_cmd_create_qp_ex(ibctx, &qp->vqp, &core_attr, NULL, 0,
				   (struct ib_uverbs_create_qp_resp *)&resp,
				   sizeof(resp));
	if (err) {
		mrc_qp_free(qp);
		errno = err;
		return NULL;
	}
	attr->cap = core_attr.cap;

	err = mrc_qp_map(qp, ibctx->cmd_fd, &attr->cap, attr->srq != NULL,
			 &resp.drv);
	if (err) {
		mrc_qp_undo_create(qp, err);
		return NULL;
	}

	if (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) {
		mrc_wr_init(&qp->vqp.qp_ex, &qp->sq, send_ops);
		qp->vqp.qp_ex.wr_start = mrc_wr_start;
		qp->vqp.qp_ex.wr_complete = mrc_wr_complete;
		qp->vqp.qp_ex.wr_abort = mrc_wr_abort;
		/*
		 * What ibv_qp_to_qp_ex() looks for; the create helper set
		 * comp_mask, so this comes after it.
		 */
		qp->vqp.comp_mask |= VERBS_QP_EX;
	}
	return &qp->vqp.qp;
}

static int mrc_modify_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr,
			 int attr_mask)
{
	struct verbs_cmd_modify_qp cmd = {};

	/* libibverbs records the new state in ibqp->state on success. */
	return ibv_cmd_modify_qp(ibqp, attr, attr_mask, &cmd, sizeof(cmd));
}

/* The extended request with our driver data right after the core one. */
struct mrc_modify_qp_ex_cmd {
	struct verbs_cmd_modify_qp_ex ibv;
	struct mrc_modify_qp_mrc drv;
};

_Static_assert(offsetof(struct mrc_modify_qp_ex_cmd, drv) ==
	       sizeof(struct verbs_cmd_modify_qp_ex),
	       "driver data must follow the core request");
_Static_assert(sizeof(struct mrc_modify_qp_mrc) % 8 == 0,
	       "the extended request counts driver data in 8-byte words");

/* mrc_provider_api.h */
__attribute__((visibility("default")))
int mrc_provider_modify_qp_mrc(struct ibv_qp *ibqp, struct ibv_qp_attr *attr,
			       int attr_mask,
			       const struct mrc_modify_qp_mrc *mrc)
{
	struct ib_uverbs_ex_modify_qp_resp resp;
	struct mrc_modify_qp_ex_cmd cmd;
	int err;

	if (!ibqp || (attr_mask && !attr))
		return EINVAL;
	if (!mrc || !mrc->comp_mask)
		return ibv_modify_qp(ibqp, attr, attr_mask);
	memset(&cmd, 0, sizeof(cmd));
	cmd.drv = *mrc;
	err = ibv_cmd_modify_qp_ex(ibqp, attr, attr_mask, &cmd.ibv,
				   sizeof(cmd), &resp, sizeof(resp));
	if (err)
		return err;
	/* What ibv_modify_qp() would record; mrc_qp_state() reads it. */
	if (attr_mask & IBV_QP_STATE)
		__atomic_store_n(&ibqp->state, attr->qp_state,
				 __ATOMIC_RELAXED);
	return 0;
}

static int mrc_query_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr,
			int attr_mask, struct ibv_qp_init_attr *init_attr)
{
	struct verbs_cmd_query_qp cmd = {};

	return ibv_cmd_query_qp(ibqp, attr, attr_mask, init_attr,
				&cmd, sizeof(cmd));
}

static int mrc_destroy_qp(struct ibv_qp *ibqp)
{
	struct mrc_qp *qp = to_mrc_qp(ibqp);
	int ret;

	/* On failure the QP lives on and may still be posted to. */
	ret = ibv_cmd_destroy_qp(ibqp);
	if (ret)
		return ret;

	mrc_uring_unmap(&qp->rq.ring);
	mrc_uring_unmap(&qp->sq.ring);
	mrc_qp_free(qp);
	return 0;
}

static int mrc_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
			 struct ibv_send_wr **bad_wr)
{
	struct mrc_qp *qp = to_mrc_qp(ibqp);
	uint32_t posted;
	int err, doorbell_err;

	if (!mrc_qp_may_send(ibqp)) {
		*bad_wr = wr;
		return EINVAL;
	}

	pthread_spin_lock(&qp->sq_lock);
	err = mrc_sq_post(&qp->sq, wr, bad_wr, &posted);
	pthread_spin_unlock(&qp->sq_lock);

	/*
	 * One doorbell for the whole list, outside the lock: the requests
	 * are already published, and a doorbell rung by a concurrent poster
	 * after our publish would do as well.
	 */
	if (!posted)
		return err;
	doorbell_err = mrc_ring_doorbell(ibqp, IB_USER_VERBS_CMD_POST_SEND,
					 sizeof(struct ib_uverbs_send_wr));
	if (doorbell_err && !err) {
		/*
		 * The kernel did not hear of the requests (the device is
		 * gone, or it had no memory for the command); report the
		 * whole list as failed rather than claim it is under way.
		 */
		*bad_wr = wr;
		err = doorbell_err;
	}
	return err;
}

static int mrc_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
			 struct ibv_recv_wr **bad_wr)
{
	struct mrc_qp *qp = to_mrc_qp(ibqp);
	enum ibv_qp_state state = mrc_qp_state(ibqp);
	uint32_t posted;
	int err, doorbell_err;

	/* Receives for an SRQ QP go to the SRQ; none before INIT. */
	if (ibqp->srq || state == IBV_QPS_RESET) {
		*bad_wr = wr;
		return EINVAL;
	}

	pthread_spin_lock(&qp->rq_lock);
	err = mrc_rq_post(&qp->rq, wr, bad_wr, &posted);
	pthread_spin_unlock(&qp->rq_lock);

	/*
	 * No message will ever arrive for a QP in ERR, so nothing would make
	 * the kernel look at these receives; ring for them so it completes
	 * them with a flush error, as the verbs spec asks (the drain idiom:
	 * move to ERR, post one last receive, wait for its completion).
	 */
	if (!posted || state != IBV_QPS_ERR)
		return err;
	doorbell_err = mrc_ring_doorbell(ibqp, IB_USER_VERBS_CMD_POST_RECV,
					 sizeof(struct ib_uverbs_recv_wr));
	if (doorbell_err && !err) {
		*bad_wr = wr;
		err = doorbell_err;
	}
	return err;
}

/* Set by alloc_context; verbs_set_ops() merges it with the other tables. */
const struct verbs_context_ops mrc_qp_context_ops = {
	.create_qp = mrc_create_qp,
	.create_qp_ex = mrc_create_qp_ex,
	.destroy_qp = mrc_destroy_qp,
	.modify_qp = mrc_modify_qp,
	.post_recv = mrc_post_recv,
	.post_send = mrc_post_send,
	.query_qp = mrc_query_qp,
};
