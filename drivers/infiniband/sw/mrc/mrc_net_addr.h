/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * IP addresses as the transport uses them, and their RoCEv2 GIDs. Apart
 * from the transport (mrc_net.h) so that address handles and QPs can
 * convert GIDs without depending on it.
 */
#ifndef MRC_NET_ADDR_H
#define MRC_NET_ADDR_H

#include <linux/in6.h>
#include <linux/socket.h>
#include <rdma/ib_verbs.h>

/**
 * struct mrc_net_addr - an IPv4 or IPv6 address
 * @family: AF_INET or AF_INET6
 * @v4: the IPv4 address, when @family is AF_INET
 * @v6: the IPv6 address, when @family is AF_INET6
 */
struct mrc_net_addr {
	sa_family_t family;
	union {
		__be32 v4;
		struct in6_addr v6;
	};
};

/* An IPv4-mapped GID (::ffff:a.b.c.d) is the IPv4 address a.b.c.d. */
void mrc_net_addr_from_gid(const union ib_gid *gid, struct mrc_net_addr *addr);
void mrc_net_addr_to_gid(const struct mrc_net_addr *addr, union ib_gid *gid);
bool mrc_net_addr_equal(const struct mrc_net_addr *a,
			const struct mrc_net_addr *b);

#endif /* MRC_NET_ADDR_H */
