// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * genetlink checks CAP_NET_ADMIN when a socket joins a group that asks for
 * it (6.7; 6.1.64 and later 6.1.y).
 */
#include <net/genetlink.h>

extern const struct genl_multicast_group mrc_probe_grp;
const struct genl_multicast_group mrc_probe_grp = {
	.name = "probe",
	.flags = GENL_MCAST_CAP_NET_ADMIN,
};
