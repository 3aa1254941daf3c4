// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: the EV event CQ. Not yet: the kernel retires and restores
 * paths per connection (paths.rst) but tells no one; the netlink family
 * has no multicast group and no event message. The arguments are checked
 * (EINVAL, EPERM), then the call fails with EOPNOTSUPP, and
 * MRC_CTL_OPT_CAP_EV_EVENT is not in the device's opt_attr.
 * Documentation/mrc-api.rst, "Kernel work for the controller API", says
 * what the kernel needs.
 */
#include <stddef.h>

#include "mrc_ctl_lib.h"

MRC_EXPORT
struct mrc_cq *mrc_ctl_create_ev_event_cq(struct mrc_context *mrc_ctx,
					  int cqe, void *cq_context,
					  struct mrc_comp_channel *channel,
					  int comp_vector)
{
	(void)cq_context;
	if (!mrc_ctx || cqe < 1 || comp_vector < 0 ||
	    (channel && channel->ctx != mrc_ctx)) {
		errno = EINVAL;
		return NULL;
	}
	errno = mrc_ctl_capable() ? EOPNOTSUPP : EPERM;
	return NULL;
}

MRC_EXPORT
int mrc_ctl_poll_ev_event(struct mrc_cq *ev_cq, int num_entries,
			  struct mrc_ctl_ev_event *ev_event)
{
	if (!ev_cq || num_entries < 0 || (num_entries && !ev_event))
		return -EINVAL;
	/* No EV event CQ can exist: this is not one. */
	return -EOPNOTSUPP;
}
