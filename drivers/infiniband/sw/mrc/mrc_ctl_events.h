/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * EV events: the controller hears when a profile's EV changes state as the
 * profile sees it (MRC_CTL_CMD_EV_EVENT on the "events" multicast group,
 * Documentation/controller.rst).
 *
 * The path state machine runs under qp->lock, in softirq or with bottom
 * halves off, where no netlink message may be built and sent: an event is
 * copied into a bounded per-device queue (GFP_ATOMIC, under events.lock, a
 * spinlock taken with interrupts off, innermost) and a work item sends
 * the queue in process context. A full queue, or no memory, drops the
 * event and counts it; the next event sent carries the count.
 *
 * Lifetime: the queue lives in struct mrc_dev. Events come from QPs and
 * from EV_SET, which all end before dealloc_driver; dealloc_driver calls
 * mrc_ctl_events_flush() before the netdev reference goes, so the work
 * never runs on a freed device and no event is left behind.
 */
#ifndef MRC_CTL_EVENTS_H
#define MRC_CTL_EVENTS_H

#include <linux/in6.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

struct mrc_dev;
struct mrc_profile;

/* Events a device holds before it drops new ones. */
#define MRC_CTL_EVENTS_MAX	256u

struct mrc_ctl_events {
	spinlock_t lock;		/* guards the members below */
	struct list_head queue;
	u32 queued;
	u32 dropped;			/* since the last event queued */
	struct work_struct work;
};

void mrc_ctl_events_init(struct mrc_dev *mdev);
/* Cancels the work and frees what is queued; nothing may queue any more. */
void mrc_ctl_events_flush(struct mrc_dev *mdev);

/*
 * EV @index of @profile is now in uapi state @state (enum
 * mrc_ctl_ev_state) for uapi @reason (enum mrc_ctl_ev_reason), as seen by
 * the connection @qpn (0: none, the controller's own change) to @peer
 * (NULL: none). Any context; the profile's event mask filters.
 */
void mrc_ctl_event(struct mrc_dev *mdev, const struct mrc_profile *profile,
		   u32 index, const struct in6_addr *peer, u32 qpn, u8 state,
		   u8 reason);

#endif /* MRC_CTL_EVENTS_H */
