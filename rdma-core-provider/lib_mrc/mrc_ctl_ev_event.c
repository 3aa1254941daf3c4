// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: the EV event CQ. The kernel multicasts an EV_EVENT to the "mrc"
 * family's "events" group whenever a profile's EV changes state as the
 * profile sees it (Documentation/controller.rst); an event CQ is a netlink
 * socket of its own joined to that group (the kernel checks CAP_NET_ADMIN
 * at the join), and polling it decodes the waiting messages of its
 * context's device into struct mrc_ctl_ev_event.
 *
 * Completion channel: a channel given at creation serves this CQ alone;
 * its file descriptor (mrc_get_comp_channel_fd()) is the socket's, which
 * poll() finds readable while events wait, so mrc_req_notify_cq() has
 * nothing to arm and mrc_get_cq_event() waits for the socket.
 *
 * Losses: the kernel counts the events its bounded queue dropped and
 * sends the count with the next one; a socket overrun (ENOBUFS) loses an
 * unknown number, counted here as one. Both go into the next event's
 * drop_count, which is therefore a lower bound, not a precise count
 * (opt_attr has no EV_EVENT_PRECISE_DROP_CNT).
 */
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "mrc_ctl_lib.h"

/* Bytes of socket buffer an event takes, with the kernel's overhead. */
#define MRC_CTL_EVQ_BYTES_PER_EVENT	1024

struct mrc_ctl_evq {
	struct mrc_nl *nl;
	char dev[MRC_NL_NAME_MAX];
	uint32_t lost;		/* not yet reported in a drop_count */
	/* Serialises polls of one CQ: they share nl->buf. */
	pthread_mutex_t lock;
};

MRC_EXPORT
struct mrc_cq *mrc_ctl_create_ev_event_cq(struct mrc_context *mrc_ctx,
					  int cqe, void *cq_context,
					  struct mrc_comp_channel *channel,
					  int comp_vector)
{
	struct mrc_ctl_state *st;
	struct mrc_ctl_evq *evq;
	struct mrc_cq *cq;
	int err, rcvbuf;

	if (!mrc_ctx || cqe < 1 || comp_vector < 0 ||
	    (channel && channel->ctx != mrc_ctx)) {
		errno = EINVAL;
		return NULL;
	}
	/* The capability, and the device's name (the context's state). */
	err = mrc_ctl_enter(mrc_ctx, &st);
	if (err) {
		errno = err;
		return NULL;
	}
	cq = calloc(1, sizeof(*cq));
	evq = calloc(1, sizeof(*evq));
	if (!cq || !evq) {
		err = ENOMEM;
		goto fail;
	}
	strcpy(evq->dev, st->dev);
	rcvbuf = cqe > (1 << 20) / MRC_CTL_EVQ_BYTES_PER_EVENT ?
		 1 << 20 : cqe * MRC_CTL_EVQ_BYTES_PER_EVENT;
	err = mrc_nl_events_open(&evq->nl, rcvbuf);
	if (err)
		goto fail;
	pthread_mutex_init(&evq->lock, NULL);
	cq->ctx = mrc_ctx;
	cq->channel = channel;
	cq->cq_context = cq_context;
	cq->evq = evq;

	pthread_mutex_lock(&mrc_ctx->lock);
	if (channel && (channel->num_cqs || channel->ev_cq)) {
		pthread_mutex_unlock(&mrc_ctx->lock);
		pthread_mutex_destroy(&evq->lock);
		mrc_nl_close(evq->nl);
		err = EBUSY;
		goto fail;
	}
	mrc_ctx->num_cqs++;
	if (channel) {
		channel->num_cqs++;
		channel->ev_cq = cq;
	}
	pthread_mutex_unlock(&mrc_ctx->lock);
	mrc_ctl_leave(st);
	return cq;
fail:
	mrc_ctl_leave(st);
	free(evq);
	free(cq);
	errno = err;
	return NULL;
}

int mrc_ctl_ev_cq_destroy(struct mrc_cq *cq)
{
	struct mrc_context *ctx = cq->ctx;

	pthread_mutex_lock(&ctx->lock);
	ctx->num_cqs--;
	if (cq->channel) {
		cq->channel->num_cqs--;
		cq->channel->ev_cq = NULL;
	}
	pthread_mutex_unlock(&ctx->lock);
	mrc_nl_close(cq->evq->nl);
	pthread_mutex_destroy(&cq->evq->lock);
	free(cq->evq);
	free(cq);
	return 0;
}

int mrc_ctl_ev_cq_fd(const struct mrc_cq *cq)
{
	return mrc_nl_fd(cq->evq->nl);
}

int mrc_ctl_ev_cq_wait(struct mrc_cq *cq)
{
	struct pollfd pfd = { .fd = mrc_nl_fd(cq->evq->nl), .events = POLLIN };

	for (;;) {
		int n = poll(&pfd, 1, -1);

		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -1;
	}
}

/* @e as the OCP event, with the losses not yet told. */
static void mrc_ctl_ev_event_from_nl(struct mrc_ctl_evq *evq,
				     const struct mrc_nl_event *e,
				     struct mrc_ctl_ev_event *out)
{
	uint64_t drops = (uint64_t)e->drop_count + evq->lost;

	memset(out, 0, sizeof(*out));
	out->profile_id = e->profile_id;
	mrc_ctl_ev_from_nl(&e->ev, e->ev.format, &out->ev);
	out->drop_count = drops > UINT32_MAX ? UINT32_MAX : (uint32_t)drops;
	evq->lost = 0;
#if MRC_CTL_API_VER_USED >= MRC_CTL_API_VER(1, 0, 1)
	out->state = mrc_ctl_state_from_nl(e->ev.state);
#endif
}

/*
 * The events of one datagram (one message, as the kernel multicasts
 * them; several are taken all the same) into @out, at most @room; what
 * does not fit is lost and counted. Messages that are not EV events of
 * our device are skipped; a malformed one too, counted as a loss.
 */
static int mrc_ctl_ev_take(struct mrc_ctl_evq *evq, int len,
			   struct mrc_ctl_ev_event *out, int room)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)evq->nl->buf;
	struct mrc_nl_event e;
	int n = 0, err;

	for (; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
		err = mrc_nl_decode_event(nlh, evq->nl->family, &e);
		if (err == ENOMSG || (!err && strcmp(e.dev, evq->dev)))
			continue;
		if (err || n == room) {
			evq->lost++;
			continue;
		}
		mrc_ctl_ev_event_from_nl(evq, &e, &out[n++]);
	}
	return n;
}

MRC_EXPORT
int mrc_ctl_poll_ev_event(struct mrc_cq *ev_cq, int num_entries,
			  struct mrc_ctl_ev_event *ev_event)
{
	struct mrc_ctl_evq *evq;
	int n = 0, len, err = 0;

	if (!ev_cq || !ev_cq->evq || num_entries < 0 ||
	    (num_entries && !ev_event))
		return -EINVAL;
	evq = ev_cq->evq;
	pthread_mutex_lock(&evq->lock);
	while (n < num_entries) {
		len = mrc_nl_events_recv(evq->nl);
		if (len < 0) {
			if (errno == ENOBUFS) {
				/* Overrun: lost, but the socket goes on. */
				evq->lost++;
				continue;
			}
			if (errno != EAGAIN && errno != EWOULDBLOCK &&
			    errno != EINTR)
				err = -errno;
			break;
		}
		/* One message per datagram: a whole one fits what is left. */
		n += mrc_ctl_ev_take(evq, len, ev_event + n, num_entries - n);
	}
	pthread_mutex_unlock(&evq->lock);
	return n ? n : err;
}
