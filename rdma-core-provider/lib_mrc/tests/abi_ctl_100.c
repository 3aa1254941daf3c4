// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The controller header as a program written for 1.0.0 sees it: the EV
 * event has no state member.
 */
#include <stddef.h>

#define MRC_CTL_API_VER_USED MRC_CTL_API_VER(1, 0, 0)
#include <mrc_ctl.h>

size_t abi_ctl_100_ev_event_size(void);

size_t abi_ctl_100_ev_event_size(void)
{
	return sizeof(struct mrc_ctl_ev_event);
}
