// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: whether the caller may act as the controller. The kernel checks
 * CAP_NET_ADMIN on every request that changes its state
 * (GENL_UNS_ADMIN_PERM: over the user namespace owning the caller's network
 * namespace); the controller API asks it of every call, queries and the
 * library's own profiles included, so the library checks the effective set
 * first. A process with CAP_NET_ADMIN in its own user namespace passes here
 * and is then judged by the kernel. The unit tests replace this file.
 */
#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mrc_ctl_lib.h"

bool mrc_ctl_capable(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
		.pid = 0,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};

	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[CAP_TO_INDEX(CAP_NET_ADMIN)].effective &
	       CAP_TO_MASK(CAP_NET_ADMIN);
}
