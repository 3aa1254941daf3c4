// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fake libibverbs of lib_mrc's unit tests (fake_verbs.h). Its state
 * machine checks the verbs attributes each RC transition requires, as the
 * kernel's ib_modify_qp_is_ok() does, so a transition lib_mrc leaves
 * incomplete fails here too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake_verbs.h"
#include "mrc_lib.h"

struct fake_device fake, fake_other;

static struct ibv_async_event async_q[16];
static int async_n;
static struct ibv_cq *cq_event_q[16];
static int cq_event_n;
static uint32_t next_qpn = 0x11;

struct fake_qp *fake_qp_of(struct ibv_qp *qp)
{
	return (struct fake_qp *)qp;
}

struct fake_cq *fake_cq_of(struct ibv_cq *cq)
{
	return (struct fake_cq *)cq;
}

static int fake_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	struct fake_cq *f = fake_cq_of(cq);
	int got = 0;

	while (got < n && f->tail != f->head) {
		wc[got++] = f->wc[f->tail % FAKE_CQ_DEPTH];
		f->tail++;
	}
	return got;
}

static int fake_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	fake_cq_of(cq)->armed = solicited_only ? 2 : 1;
	return 0;
}

static int fake_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
			  struct ibv_send_wr **bad)
{
	struct fake_qp *f = fake_qp_of(qp);

	for (; wr; wr = wr->next) {
		if (f->num_send == fake.post_send_fail_at ||
		    f->num_send == FAKE_MAX_WR) {
			*bad = wr;
			return ENOMEM;
		}
		f->send[f->num_send++] = (struct fake_wr){
			.wr_id = wr->wr_id,
			.signaled = f->sq_sig_all || wr->send_flags & IBV_SEND_SIGNALED,
			.opcode = wr->opcode,
		};
	}
	return 0;
}

static int fake_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
			  struct ibv_recv_wr **bad)
{
	struct fake_qp *f = fake_qp_of(qp);

	for (; wr; wr = wr->next) {
		if (f->num_recv == FAKE_MAX_WR) {
			*bad = wr;
			return ENOMEM;
		}
		f->recv[f->num_recv++] = (struct fake_wr){ .wr_id = wr->wr_id };
	}
	return 0;
}

static void fake_device_init(struct fake_device *d, uint32_t part)
{
	memset(d, 0, sizeof(*d));
	d->ctx.num_comp_vectors = 2;
	d->ctx.ops.poll_cq = fake_poll_cq;
	d->ctx.ops.req_notify_cq = fake_req_notify_cq;
	d->ctx.ops.post_send = fake_post_send;
	d->ctx.ops.post_recv = fake_post_recv;
	d->pd.context = &d->ctx;
	d->vendor_id = 0xffffff;
	d->vendor_part_id = part;
	d->post_send_fail_at = -1;
}

void fake_reset(void)
{
	fake_device_init(&fake, 0x4d52);
	fake_device_init(&fake_other, 0x4d52);
	async_n = 0;
	cq_event_n = 0;
}

static struct fake_device *fake_dev(struct ibv_context *ctx)
{
	return ctx == &fake.ctx ? &fake : &fake_other;
}

int ibv_query_device(struct ibv_context *ctx, struct ibv_device_attr *attr)
{
	struct fake_device *d = fake_dev(ctx);

	memset(attr, 0, sizeof(*attr));
	attr->vendor_id = d->vendor_id;
	attr->vendor_part_id = d->vendor_part_id;
	attr->max_qp_wr = 0x4000;
	attr->max_cqe = 0xffff;
	return 0;
}

struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *ctx)
{
	struct ibv_comp_channel *ch = calloc(1, sizeof(*ch));

	if (!ch)
		return NULL;
	ch->context = ctx;
	ch->fd = 100 + fake_dev(ctx)->live_channels;
	fake_dev(ctx)->live_channels++;
	return ch;
}

int ibv_destroy_comp_channel(struct ibv_comp_channel *ch)
{
	fake_dev(ch->context)->live_channels--;
	free(ch);
	return 0;
}

struct ibv_cq *ibv_create_cq(struct ibv_context *ctx, int cqe, void *cq_context,
			     struct ibv_comp_channel *channel, int comp_vector)
{
	struct fake_cq *f = calloc(1, sizeof(*f));

	(void)comp_vector;
	if (!f)
		return NULL;
	f->cq.context = ctx;
	f->cq.cq_context = cq_context;
	f->cq.channel = channel;
	f->cq.cqe = cqe;
	fake_dev(ctx)->live_cqs++;
	return &f->cq;
}

int ibv_destroy_cq(struct ibv_cq *cq)
{
	fake_dev(cq->context)->live_cqs--;
	free(fake_cq_of(cq));
	return 0;
}

struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *a)
{
	struct fake_qp *f;

	if (a->qp_type != IBV_QPT_RC || a->cap.max_send_wr > FAKE_MAX_WR ||
	    a->cap.max_recv_wr > FAKE_MAX_WR) {
		errno = EINVAL;
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->qp.context = pd->context;
	f->qp.pd = pd;
	f->qp.qp_context = a->qp_context;
	f->qp.send_cq = a->send_cq;
	f->qp.recv_cq = a->recv_cq;
	f->qp.qp_num = next_qpn++;
	f->qp.qp_type = a->qp_type;
	f->qp.state = IBV_QPS_RESET;
	f->sq_sig_all = a->sq_sig_all;
	f->attr.qp_state = IBV_QPS_RESET;
	fake_dev(pd->context)->live_qps++;
	return &f->qp;
}

int ibv_destroy_qp(struct ibv_qp *qp)
{
	fake_dev(qp->context)->live_qps--;
	free(fake_qp_of(qp));
	return 0;
}

/* The attributes an RC transition requires (IBTA, as the kernel checks). */
static int fake_required(enum ibv_qp_state cur, enum ibv_qp_state next)
{
	if (cur == IBV_QPS_RESET && next == IBV_QPS_INIT)
		return IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
	if (cur == IBV_QPS_INIT && next == IBV_QPS_RTR)
		return IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
		       IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
		       IBV_QP_MIN_RNR_TIMER;
	if (cur == IBV_QPS_RTR && next == IBV_QPS_RTS)
		return IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC |
		       IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_TIMEOUT;
	return -1;
}

int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask)
{
	struct fake_qp *f = fake_qp_of(qp);
	enum ibv_qp_state next = mask & IBV_QP_STATE ? attr->qp_state : f->attr.qp_state;

	if (mask & IBV_QP_STATE && next != IBV_QPS_ERR && next != IBV_QPS_RESET) {
		int req = fake_required(f->attr.qp_state, next);

		if (req < 0 || (mask & req) != req)
			return EINVAL;
	}
	if (mask & IBV_QP_PORT && attr->port_num != 1)
		return EINVAL;
	if (mask & IBV_QP_TIMEOUT && attr->timeout > 31)
		return EINVAL;
	f->last_mask = mask;
	f->last_attr = *attr;
	f->attr.qp_state = next;
	qp->state = next;
	return 0;
}

/* The provider's lib_mrc entry: the kernel's checks of the MRC data. */
static int fake_modify_qp_mrc(struct ibv_qp *qp, struct ibv_qp_attr *attr,
			      int mask, const struct mrc_modify_qp_mrc *mrc)
{
	struct fake_qp *f = fake_qp_of(qp);
	int err;

	if (mrc && (mrc->comp_mask & ~(MRC_MODIFY_QP_EXP_RETRY_CNT |
					MRC_MODIFY_QP_MPR |
					MRC_MODIFY_QP_EV_PROFILE |
					MRC_MODIFY_QP_FLAGS |
					MRC_MODIFY_QP_MPR_DEST) ||
		    mrc->mpr_dest > 8 ||
		    (!(mrc->comp_mask & MRC_MODIFY_QP_MPR_DEST) &&
		     mrc->mpr_dest) ||
		    mrc->flags & ~MRC_QP_F_NO_TRIM_NAK ||
		    (!(mrc->comp_mask & MRC_MODIFY_QP_FLAGS) && mrc->flags) ||
		    (mrc->comp_mask & MRC_MODIFY_QP_EV_PROFILE &&
		     (!mrc->ev_profile_id || mrc->ev_profile_id > 64)) ||
		    mrc->exp_retry_cnt > MRC_EXP_RETRY_FOREVER ||
		    mrc->mpr > 8))
		return EINVAL;
	err = ibv_modify_qp(qp, attr, mask);
	if (err)
		return err;
	if (mrc) {
		f->last_mrc = *mrc;
		f->mrc_modifies++;
	}
	return 0;
}

mrc_provider_modify_qp_mrc_fn mrc_provider_get(struct ibv_context *vctx,
						void **handle)
{
	struct fake_device *d = (struct fake_device *)vctx;

	d->provider_refs++;
	*handle = d;
	return fake_modify_qp_mrc;
}

void mrc_provider_put(void *handle)
{
	if (handle)
		((struct fake_device *)handle)->provider_refs--;
}

int ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
		 struct ibv_qp_init_attr *init)
{
	(void)mask;
	memset(init, 0, sizeof(*init));
	*attr = fake_qp_of(qp)->attr;
	return 0;
}

void fake_complete_sends(struct ibv_qp *qp, int n, enum ibv_wc_status status)
{
	struct fake_qp *f = fake_qp_of(qp);
	struct fake_cq *cq = fake_cq_of(qp->send_cq);

	for (int i = 0; i < f->num_send && n; i++) {
		struct fake_wr *w = &f->send[i];

		if (w->done)
			continue;
		w->done = true;
		n--;
		if (!w->signaled && status == IBV_WC_SUCCESS)
			continue;
		cq->wc[cq->head++ % FAKE_CQ_DEPTH] = (struct ibv_wc){
			.wr_id = w->wr_id, .status = status,
			.opcode = IBV_WC_RDMA_WRITE, .qp_num = qp->qp_num,
		};
	}
}

void fake_complete_recv(struct ibv_qp *qp, uint32_t imm, uint32_t byte_len)
{
	struct fake_qp *f = fake_qp_of(qp);
	struct fake_cq *cq = fake_cq_of(qp->recv_cq);

	for (int i = 0; i < f->num_recv; i++) {
		if (f->recv[i].done)
			continue;
		f->recv[i].done = true;
		cq->wc[cq->head++ % FAKE_CQ_DEPTH] = (struct ibv_wc){
			.wr_id = f->recv[i].wr_id, .status = IBV_WC_SUCCESS,
			.opcode = IBV_WC_RECV_RDMA_WITH_IMM, .qp_num = qp->qp_num,
			.imm_data = imm, .byte_len = byte_len,
			.wc_flags = IBV_WC_WITH_IMM,
		};
		return;
	}
}

void fake_push_async_event(struct ibv_async_event ev)
{
	async_q[async_n++] = ev;
}

int ibv_get_async_event(struct ibv_context *ctx, struct ibv_async_event *ev)
{
	(void)ctx;
	if (!async_n) {
		errno = EAGAIN;
		return -1;
	}
	*ev = async_q[0];
	memmove(async_q, async_q + 1, --async_n * sizeof(async_q[0]));
	return 0;
}

void ibv_ack_async_event(struct ibv_async_event *ev)
{
	(void)ev;
	fake.async_acks++;
}

void fake_push_cq_event(struct ibv_cq *cq)
{
	cq_event_q[cq_event_n++] = cq;
}

int ibv_get_cq_event(struct ibv_comp_channel *ch, struct ibv_cq **cq,
		     void **cq_context)
{
	(void)ch;
	if (!cq_event_n) {
		errno = EAGAIN;
		return -1;
	}
	*cq = cq_event_q[0];
	*cq_context = (*cq)->cq_context;
	memmove(cq_event_q, cq_event_q + 1, --cq_event_n * sizeof(cq_event_q[0]));
	return 0;
}

void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)
{
	(void)cq;
	fake.cq_event_acks += nevents;
}

/* Both fake devices answer to one name: the controller API needs one. */
const char *ibv_get_device_name(struct ibv_device *device)
{
	(void)device;
	return "mrc9";
}
