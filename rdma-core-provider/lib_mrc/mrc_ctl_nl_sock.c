// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: the netlink socket the controller API talks through. One per
 * controller context (and a short-lived one for mrc_ctl_query_device()),
 * in the caller's network namespace: the kernel shows a device only where
 * ib_core lets that namespace see it, and checks CAP_NET_ADMIN there.
 * The unit tests replace this file (tests/fake_nl.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <linux/genetlink.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "mrc_ctl_nl.h"

#define MRC_NL_FAMILY_NAME	"mrc"	/* MRC_CTL_FAMILY_NAME */
#define MRC_NL_MCGRP_EVENTS	"events"	/* MRC_CTL_MCGRP_EVENTS */

/* What CTRL_CMD_GETFAMILY tells of the family. */
struct mrc_nl_family_info {
	uint16_t id;
	uint32_t events_group;		/* 0: the kernel has none */
};

static int mrc_nl_group_attr(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (type == CTRL_ATTR_MCAST_GRP_NAME &&
	    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) >= 0)
		tb[type] = attr;
	else if (type == CTRL_ATTR_MCAST_GRP_ID &&
		 mnl_attr_validate(attr, MNL_TYPE_U32) >= 0)
		tb[type] = attr;
	return MNL_CB_OK;
}

static void mrc_nl_family_groups(const struct nlattr *list,
				 struct mrc_nl_family_info *info)
{
	const struct nlattr *grp;

	mnl_attr_for_each_nested(grp, list) {
		const struct nlattr *tb[CTRL_ATTR_MCAST_GRP_MAX + 1] = { 0 };

		if (mnl_attr_parse_nested(grp, mrc_nl_group_attr, tb) < 0 ||
		    !tb[CTRL_ATTR_MCAST_GRP_NAME] ||
		    !tb[CTRL_ATTR_MCAST_GRP_ID])
			continue;
		if (!strcmp(mnl_attr_get_str(tb[CTRL_ATTR_MCAST_GRP_NAME]),
			    MRC_NL_MCGRP_EVENTS))
			info->events_group =
				mnl_attr_get_u32(tb[CTRL_ATTR_MCAST_GRP_ID]);
	}
}

static int mrc_nl_family_attr(const struct nlattr *attr, void *data)
{
	struct mrc_nl_family_info *info = data;

	if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID &&
	    mnl_attr_validate(attr, MNL_TYPE_U16) >= 0)
		info->id = mnl_attr_get_u16(attr);
	else if (mnl_attr_get_type(attr) == CTRL_ATTR_MCAST_GROUPS &&
		 mnl_attr_validate(attr, MNL_TYPE_NESTED) >= 0)
		mrc_nl_family_groups(attr, info);
	return MNL_CB_OK;
}

static int mrc_nl_family_msg(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr),
			      mrc_nl_family_attr, data);
}

static int mrc_nl_extack_attr(const struct nlattr *attr, void *data)
{
	if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
	    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) >= 0)
		*(const char **)data = mnl_attr_get_str(attr);
	return MNL_CB_OK;
}

/* The kernel's explanation of a refused request into nl->why. */
static void mrc_nl_keep_extack(struct mrc_nl *nl, int len)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)nl->buf;
	const char *msg = NULL;

	for (; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
		const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
		size_t offset = sizeof(*err);

		if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
			continue;
		if (nlh->nlmsg_type == NLMSG_DONE) {
			mnl_attr_parse(nlh, sizeof(int), mrc_nl_extack_attr,
				       &msg);
			continue;
		}
		if (nlh->nlmsg_type != NLMSG_ERROR ||
		    mnl_nlmsg_get_payload_len(nlh) < sizeof(*err))
			continue;
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			offset += err->msg.nlmsg_len - sizeof(err->msg);
		mnl_attr_parse(nlh, offset, mrc_nl_extack_attr, &msg);
	}
	if (!msg)
		return;
	/* Longer than the kernel's own (80 bytes formatted): say it is cut. */
	if (snprintf(nl->why, sizeof(nl->why), "%s", msg) >=
	    (int)sizeof(nl->why))
		strcpy(nl->why + sizeof(nl->why) - 4, "...");
}

static int mrc_nl_done(const struct nlmsghdr *nlh, void *data)
{
	const int *err = mnl_nlmsg_get_payload(nlh);

	(void)data;
	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(*err) && *err < 0) {
		errno = -*err;
		return MNL_CB_ERROR;
	}
	return MNL_CB_STOP;
}

static int mrc_nl_error(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);

	(void)data;
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*err)) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (err->error < 0) {
		errno = -err->error;
		return MNL_CB_ERROR;
	}
	return MNL_CB_STOP;
}

static int mrc_nl_overrun(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(void)data;
	errno = ENOBUFS;
	return MNL_CB_ERROR;
}

static int mrc_nl_noop(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(void)data;
	return MNL_CB_OK;
}

static mnl_cb_t mrc_nl_ctl_cbs[NLMSG_MIN_TYPE] = {
	[0] = mrc_nl_noop,
	[NLMSG_NOOP] = mrc_nl_noop,
	[NLMSG_ERROR] = mrc_nl_error,
	[NLMSG_DONE] = mrc_nl_done,
	[NLMSG_OVERRUN] = mrc_nl_overrun,
};

/* Whether the @len bytes in nl->buf hold the end of the answer. */
static bool mrc_nl_ended(const struct mrc_nl *nl, int len)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)nl->buf;

	for (; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len))
		if (nlh->nlmsg_type == NLMSG_DONE ||
		    nlh->nlmsg_type == NLMSG_ERROR)
			return true;
	return false;
}

int mrc_nl_talk(struct mrc_nl *nl, struct nlmsghdr *req, mnl_cb_t cb,
		void *data)
{
	bool dump = (req->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
	uint32_t seq = req->nlmsg_seq;
	int len, ret, err;

	nl->why[0] = '\0';
	if (mnl_socket_sendto(nl->sock, req, req->nlmsg_len) < 0)
		return errno;
	do {
		len = mnl_socket_recvfrom(nl->sock, nl->buf, sizeof(nl->buf));
		if (len < 0)
			return errno;
		errno = 0;
		ret = mnl_cb_run2(nl->buf, len, seq, nl->portid, cb, data,
				  mrc_nl_ctl_cbs, NLMSG_MIN_TYPE);
	} while (ret > 0);
	if (ret == 0)
		return 0;
	err = errno ? errno : EIO;
	mrc_nl_keep_extack(nl, len);
	/*
	 * A dump whose answer we refused part-way (a malformed message)
	 * goes on arriving: read it to its end, or the next request would
	 * meet it.
	 */
	while (dump && !mrc_nl_ended(nl, len)) {
		len = mnl_socket_recvfrom(nl->sock, nl->buf, sizeof(nl->buf));
		if (len < 0)
			break;
	}
	return err;
}

static int mrc_nl_open_info(struct mrc_nl **out,
			    struct mrc_nl_family_info *info)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *genl;
	struct mrc_nl *nl;
	int one = 1, err;

	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return ENOMEM;
	nl->sock = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sock) {
		err = errno;
		free(nl);
		return err;
	}
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = errno;
		goto fail;
	}
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	/* Answers are read whole; a dump part never exceeds a page here. */
	nl->portid = mnl_socket_get_portid(nl->sock);
	nl->seq = (uint32_t)time(NULL);

	nlh = mnl_nlmsg_put_header(nl->buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++nl->seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = CTRL_CMD_GETFAMILY;
	genl->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, MRC_NL_FAMILY_NAME);
	memset(info, 0, sizeof(*info));
	err = mrc_nl_talk(nl, nlh, mrc_nl_family_msg, info);
	nl->family = info->id;
	nl->has_events = info->events_group != 0;
	if (!err && !nl->family)
		err = ENOENT;
	if (err)
		goto fail;
	*out = nl;
	return 0;
fail:
	mnl_socket_close(nl->sock);
	free(nl);
	return err;
}

int mrc_nl_open(struct mrc_nl **out)
{
	struct mrc_nl_family_info info;

	return mrc_nl_open_info(out, &info);
}

int mrc_nl_events_open(struct mrc_nl **out, int rcvbuf)
{
	struct mrc_nl_family_info info;
	struct mrc_nl *nl;
	int fd, err;

	err = mrc_nl_open_info(&nl, &info);
	if (err)
		return err;
	if (!info.events_group) {
		mrc_nl_close(nl);
		return EOPNOTSUPP;
	}
	fd = mnl_socket_get_fd(nl->sock);
	/* The kernel checks CAP_NET_ADMIN here: EPERM without it. */
	if (mnl_socket_setsockopt(nl->sock, NETLINK_ADD_MEMBERSHIP,
				  &info.events_group,
				  sizeof(info.events_group)) < 0) {
		err = errno;
		mrc_nl_close(nl);
		return err;
	}
	/* Best effort: a smaller buffer only means overruns sooner. */
	if (rcvbuf > 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	*out = nl;
	return 0;
}

int mrc_nl_fd(const struct mrc_nl *nl)
{
	return mnl_socket_get_fd(nl->sock);
}

int mrc_nl_events_recv(struct mrc_nl *nl)
{
	ssize_t len;

	len = recv(mnl_socket_get_fd(nl->sock), nl->buf, sizeof(nl->buf),
		   MSG_DONTWAIT);
	if (len < 0)
		return -1;
	return (int)len;
}

void mrc_nl_close(struct mrc_nl *nl)
{
	if (!nl)
		return;
	mnl_socket_close(nl->sock);
	free(nl);
}
