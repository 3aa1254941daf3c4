// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * IP addresses and their GIDs (mrc_net_addr.h).
 */
#include <linux/string.h>
#include <net/ipv6.h>

#include "mrc_net_addr.h"

void mrc_net_addr_from_gid(const union ib_gid *gid, struct mrc_net_addr *addr)
{
	const struct in6_addr *a6 = (const struct in6_addr *)gid->raw;

	memset(addr, 0, sizeof(*addr));
	if (ipv6_addr_v4mapped(a6)) {
		addr->family = AF_INET;
		addr->v4 = a6->s6_addr32[3];
	} else {
		addr->family = AF_INET6;
		addr->v6 = *a6;
	}
}

void mrc_net_addr_to_gid(const struct mrc_net_addr *addr, union ib_gid *gid)
{
	if (addr->family == AF_INET)
		ipv6_addr_set_v4mapped(addr->v4, (struct in6_addr *)gid->raw);
	else
		memcpy(gid->raw, &addr->v6, sizeof(gid->raw));
}

bool mrc_net_addr_equal(const struct mrc_net_addr *a,
			const struct mrc_net_addr *b)
{
	if (a->family != b->family)
		return false;
	if (a->family == AF_INET)
		return a->v4 == b->v4;
	return ipv6_addr_equal(&a->v6, &b->v6);
}
