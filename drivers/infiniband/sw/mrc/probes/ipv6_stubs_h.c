// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* ipv6_stub and <net/ipv6_stubs.h>, removed in 7.x. */
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>

struct dst_entry *mrc_probe(struct net *net, struct sock *sk,
			    struct flowi6 *fl6);
struct dst_entry *mrc_probe(struct net *net, struct sock *sk,
			    struct flowi6 *fl6)
{
	return ipv6_stub->ipv6_dst_lookup_flow(net, sk, fl6, NULL);
}
