// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: asynchronous events. The verbs device reports them per
 * ibv_context; an event about a CQ or QP this library made is handed on
 * naming the MRC object, a port or device event as it is. An event about
 * another verbs object of the same ibv_context (the program's own) is not
 * an MRC event: it is acknowledged and skipped.
 */
#include <stddef.h>

#include "mrc_lib.h"

static bool mrc_event_is_qp(enum ibv_event_type type)
{
	switch (type) {
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
	case IBV_EVENT_COMM_EST:
	case IBV_EVENT_SQ_DRAINED:
	case IBV_EVENT_PATH_MIG:
	case IBV_EVENT_PATH_MIG_ERR:
	case IBV_EVENT_QP_LAST_WQE_REACHED:
		return true;
	default:
		return false;
	}
}

static bool mrc_event_is_port(enum ibv_event_type type)
{
	switch (type) {
	case IBV_EVENT_PORT_ACTIVE:
	case IBV_EVENT_PORT_ERR:
	case IBV_EVENT_LID_CHANGE:
	case IBV_EVENT_PKEY_CHANGE:
	case IBV_EVENT_SM_CHANGE:
	case IBV_EVENT_CLIENT_REREGISTER:
	case IBV_EVENT_GID_CHANGE:
		return true;
	default:
		return false;
	}
}

static struct mrc_cq *mrc_cq_of(struct mrc_context *ctx, struct ibv_cq *cq)
{
	struct mrc_cq *m;

	pthread_mutex_lock(&ctx->lock);
	for (m = ctx->cqs; m && m->cq != cq; m = m->next)
		;
	pthread_mutex_unlock(&ctx->lock);
	return m;
}

MRC_EXPORT
int mrc_get_async_event(struct mrc_context *mrc_ctx,
			struct mrc_async_event *event)
{
	struct ibv_async_event ev;

	if (!mrc_ctx || !event)
		return mrc_fail(EINVAL);
	for (;;) {
		if (ibv_get_async_event(mrc_ctx->vctx, &ev))
			return -1;
		event->event_type = ev.event_type;
		if (ev.event_type == IBV_EVENT_CQ_ERR) {
			event->element.cq = mrc_cq_of(mrc_ctx, ev.element.cq);
			if (event->element.cq)
				return 0;
		} else if (mrc_event_is_qp(ev.event_type)) {
			struct mrc_qp *qp = mrc_qp_lookup(mrc_ctx,
							  ev.element.qp->qp_num);

			if (qp && qp->qp == ev.element.qp) {
				event->element.qp = qp;
				return 0;
			}
		} else if (mrc_event_is_port(ev.event_type) ||
			   ev.event_type == IBV_EVENT_DEVICE_FATAL) {
			event->element.port_num = ev.element.port_num;
			return 0;
		}
		ibv_ack_async_event(&ev);
	}
}

MRC_EXPORT
void mrc_ack_async_event(struct mrc_async_event *event)
{
	struct ibv_async_event ev = { .event_type = IBV_EVENT_DEVICE_FATAL };

	if (!event)
		return;
	ev.event_type = event->event_type;
	if (event->event_type == IBV_EVENT_CQ_ERR) {
		if (!event->element.cq)
			return;
		ev.element.cq = event->element.cq->cq;
	} else if (mrc_event_is_qp(event->event_type)) {
		if (!event->element.qp)
			return;
		ev.element.qp = event->element.qp->qp;
	} else {
		ev.element.port_num = event->element.port_num;
	}
	ibv_ack_async_event(&ev);
}
