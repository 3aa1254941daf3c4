// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The scripted netlink socket of fake_nl.h. mrc_nl_talk() keeps the
 * request, takes the next queued answer, runs the library's callback on
 * each of its messages and returns its errno: an unscripted request is a
 * test failure (ENOTRECOVERABLE, which no library path expects).
 */
#include <errno.h>
#include <linux/genetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_nl.h"
#include "mrc_ctl_lib.h"

struct fake_netlink fake_nl;

void fake_nl_reset(void)
{
	memset(&fake_nl, 0, sizeof(fake_nl));
	fake_nl.capable = true;
	fake_nl.has_events = true;
	fake_nl.events_fd = -1;
}

struct fake_nl_datagram *fake_nl_datagram(int err)
{
	struct fake_nl_datagram *d;

	if (fake_nl.num_datagrams == FAKE_NL_MAX_DATAGRAMS)
		abort();
	d = &fake_nl.datagrams[fake_nl.num_datagrams++];
	memset(d, 0, sizeof(*d));
	d->err = err;
	return d;
}

struct nlmsghdr *fake_nl_dgram_msg(struct fake_nl_datagram *d, uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(d->buf + d->len);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = FAKE_NL_FAMILY;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = 1;
	return nlh;
}

void fake_nl_dgram_end(struct fake_nl_datagram *d, struct nlmsghdr *nlh)
{
	d->len += NLMSG_ALIGN(nlh->nlmsg_len);
}

int mrc_nl_events_open(struct mrc_nl **out, int rcvbuf)
{
	int err;

	if (!fake_nl.has_events)
		return EOPNOTSUPP;
	if (fake_nl.events_open_err)
		return fake_nl.events_open_err;
	err = mrc_nl_open(out);
	if (err)
		return err;
	fake_nl.events_opens++;
	fake_nl.events_rcvbuf = rcvbuf;
	return 0;
}

int mrc_nl_fd(const struct mrc_nl *nl)
{
	(void)nl;
	return fake_nl.events_fd;
}

int mrc_nl_events_recv(struct mrc_nl *nl)
{
	struct fake_nl_datagram *d;

	if (fake_nl.next_datagram == fake_nl.num_datagrams) {
		errno = EAGAIN;
		return -1;
	}
	d = &fake_nl.datagrams[fake_nl.next_datagram++];
	if (d->err) {
		errno = d->err;
		return -1;
	}
	memcpy(nl->buf, d->buf, d->len);
	return (int)d->len;
}

struct fake_nl_answer *fake_nl_answer(int err)
{
	struct fake_nl_answer *a;

	if (fake_nl.num_answers == FAKE_NL_MAX_TALKS)
		abort();
	a = &fake_nl.answers[fake_nl.num_answers++];
	memset(a, 0, sizeof(*a));
	a->err = err;
	return a;
}

struct nlmsghdr *fake_nl_msg(struct fake_nl_answer *a, uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(a->buf + a->len);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = FAKE_NL_FAMILY;
	nlh->nlmsg_flags = NLM_F_MULTI;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = 1;
	return nlh;
}

void fake_nl_msg_end(struct fake_nl_answer *a, struct nlmsghdr *nlh)
{
	a->len += NLMSG_ALIGN(nlh->nlmsg_len);
}

bool mrc_ctl_capable(void)
{
	return fake_nl.capable;
}

int mrc_nl_open(struct mrc_nl **out)
{
	struct mrc_nl *nl;

	if (fake_nl.open_err)
		return fake_nl.open_err;
	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return ENOMEM;
	nl->family = FAKE_NL_FAMILY;
	nl->has_events = fake_nl.has_events;
	nl->seq = 100;
	fake_nl.opens++;
	*out = nl;
	return 0;
}

void mrc_nl_close(struct mrc_nl *nl)
{
	if (!nl)
		return;
	fake_nl.closes++;
	free(nl);
}

int mrc_nl_talk(struct mrc_nl *nl, struct nlmsghdr *req, mnl_cb_t cb,
		void *data)
{
	struct fake_nl_request *r;
	struct fake_nl_answer *a;
	const struct nlmsghdr *nlh;
	int len;

	nl->why[0] = '\0';
	if (fake_nl.num_requests < FAKE_NL_MAX_TALKS) {
		r = &fake_nl.requests[fake_nl.num_requests++];
		r->len = req->nlmsg_len < sizeof(r->buf) ? req->nlmsg_len :
							    sizeof(r->buf);
		memcpy(r->buf, req, r->len);
	}
	if (fake_nl.next_answer == fake_nl.num_answers)
		return ENOTRECOVERABLE;
	a = &fake_nl.answers[fake_nl.next_answer++];
	len = (int)a->len;
	for (nlh = (const struct nlmsghdr *)a->buf; cb && mnl_nlmsg_ok(nlh, len);
	     nlh = mnl_nlmsg_next(nlh, &len)) {
		errno = 0;
		if (cb(nlh, data) < 0)
			return errno ? errno : EIO;
	}
	if (a->err && a->why)
		snprintf(nl->why, sizeof(nl->why), "%s", a->why);
	return a->err;
}
