// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The UDP transport (mrc_net.h, Documentation/architecture.rst "Transport").
 *
 * Sockets. A network namespace with at least one mrc device has two kernel
 * UDP sockets bound to the udp_port module parameter: IPv4, and IPv6 with
 * IPV6_V6ONLY. The first device created on a netdev of the namespace opens
 * them, the last one going away closes them; a namespace without mrc
 * devices has none, so rdma_rxe (which takes 4791 in init_net when it
 * loads) and mrc collide only where both have devices.
 *
 * A device's lifetime fences its sockets: it is put on its namespace's
 * device list before ib_register_device() and taken off in dealloc_driver,
 * and a namespace is only freed after its pernet exit, which finishes the
 * removal of every device still on its list, so no socket outlives the
 * namespace it lives in.
 */
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <net/addrconf.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/ip6_fib.h>
#include <net/ip6_route.h>
#include <net/arp.h>
#include <net/ndisc.h>
#include <net/neighbour.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/route.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "mrc.h"
#include "mrc_compat.h"
#include "mrc_net.h"
#include "mrc_stats.h"

static ushort udp_port = MRC_UDP_PORT_DEFAULT;
module_param(udp_port, ushort, 0444);
MODULE_PARM_DESC(udp_port,
		 "UDP port of MRC in every network namespace (default 4791; pick another to run beside rdma_rxe, which takes 4791 in init_net)");

/**
 * struct mrc_net - the transport state of one network namespace
 * @net: the namespace
 * @lock: guards @users, @sock4, @sock6 and writes to @devs
 * @users: devices in @devs; the sockets exist while it is not 0
 * @sock4: the IPv4 socket
 * @sock6: the IPv6 socket; NULL when the kernel has IPv6 disabled
 * @devs: the mrc devices whose netdev is in @net, RCU-readable
 * @rx_drop_no_device: datagrams to the MRC port that arrived on a netdev
 *	without an mrc device (or on one being removed)
 */
struct mrc_net {
	struct net *net;
	struct mutex lock;		/* see @lock above */
	unsigned int users;
	struct socket *sock4;
	struct socket *sock6;
	struct list_head devs;
	atomic64_t rx_drop_no_device;
};

static unsigned int mrc_net_id __read_mostly;

u16 mrc_net_udp_port(void)
{
	return udp_port;
}

/* Receive */

/* An mrc device on @ndev, with a reference; NULL if none or going away. */
static struct mrc_dev *mrc_net_find_dev(struct mrc_net *mn,
					struct net_device *ndev)
{
	struct mrc_dev *mdev;

	list_for_each_entry_rcu(mdev, &mn->devs, net_node)
		if (mdev->ndev == ndev)
			return ib_device_try_get(&mdev->ib_dev) ? mdev : NULL;
	return NULL;
}

/*
 * Fills the outer-header part of @meta. False when the packet has no UDP
 * checksum (IPv4 checksum 0; over IPv6 the UDP layer already refuses 0).
 */
static bool mrc_net_outer(struct sk_buff *skb, struct mrc_rx_meta *meta)
{
	const struct udphdr *uh = udp_hdr(skb);

	memset(meta, 0, sizeof(*meta));
	meta->udp_sport = ntohs(uh->source);
	if (skb->protocol == htons(ETH_P_IP)) {
		const struct iphdr *iph = ip_hdr(skb);

		meta->saddr.family = AF_INET;
		meta->saddr.v4 = iph->saddr;
		meta->daddr.family = AF_INET;
		meta->daddr.v4 = iph->daddr;
		meta->ecn = iph->tos & INET_ECN_MASK;
		return uh->check != 0;
	}

	meta->saddr.family = AF_INET6;
	meta->saddr.v6 = ipv6_hdr(skb)->saddr;
	meta->daddr.family = AF_INET6;
	meta->daddr.v6 = ipv6_hdr(skb)->daddr;
	meta->ecn = ipv6_get_dsfield(ipv6_hdr(skb)) & INET_ECN_MASK;
	return uh->check != 0;
}

/*
 * A packet that a device of this namespace sent to an address of this host
 * comes back over the loopback netdev, not over the device's own: it
 * belongs to the device whose GID is its destination (a QP talking to a QP
 * of the same device, as in rdma-core's own tests). With a reference.
 */
static struct mrc_dev *mrc_net_find_gid_owner(struct mrc_net *mn,
					      struct sk_buff *skb)
{
	const struct ib_gid_attr *attr;
	struct mrc_rx_meta meta;
	struct mrc_dev *mdev;
	union ib_gid dgid;

	mrc_net_outer(skb, &meta);
	mrc_net_addr_to_gid(&meta.daddr, &dgid);
	list_for_each_entry_rcu(mdev, &mn->devs, net_node) {
		attr = rdma_find_gid_by_port(&mdev->ib_dev, &dgid,
					     IB_GID_TYPE_ROCE_UDP_ENCAP, 1,
					     NULL);
		if (IS_ERR(attr))
			continue;
		rdma_put_gid_attr(attr);
		return ib_device_try_get(&mdev->ib_dev) ? mdev : NULL;
	}
	return NULL;
}

/* Unicast to one of the port's GIDs, as rxe requires of RoCE packets. */
static bool mrc_net_dst_is_ours(struct mrc_dev *mdev, struct sk_buff *skb,
				const struct mrc_rx_meta *meta)
{
	const struct ib_gid_attr *attr;
	union ib_gid dgid;

	if (skb->pkt_type != PACKET_HOST)
		return false;
	mrc_net_addr_to_gid(&meta->daddr, &dgid);
	attr = rdma_find_gid_by_port(&mdev->ib_dev, &dgid,
				     IB_GID_TYPE_ROCE_UDP_ENCAP, 1, NULL);
	if (IS_ERR(attr))
		return false;
	rdma_put_gid_attr(attr);
	return true;
}

/*
 * The validation order of Documentation/architecture.rst. skb->data is the
 * UDP header; the UDP layer has verified a non-zero checksum and trimmed
 * the skb to the UDP length. Consumes @skb.
 */
static void mrc_net_rcv(struct mrc_dev *mdev, struct sk_buff *skb)
{
	enum mrc_counter drop;
	struct mrc_rx_meta meta;
	unsigned int ulen, len;
	struct mrc_pkt pkt;
	int err;

	drop = MRC_CNT_RX_DROP_BAD_CHECKSUM;
	if (!mrc_net_outer(skb, &meta))
		goto drop;
	drop = MRC_CNT_RX_DROP_BAD_ADDRESS;
	if (!mrc_net_dst_is_ours(mdev, skb, &meta))
		goto drop;

	/* Exactly what the UDP length covers, never link padding. */
	ulen = ntohs(udp_hdr(skb)->len);
	drop = mrc_cnt_wire_drop(MRC_DROP_TOO_SHORT);
	if (ulen < sizeof(struct udphdr) || ulen > skb->len)
		goto drop;
	drop = MRC_CNT_RX_DROP_NO_MEMORY;
	if (ulen < skb->len && pskb_trim_rcsum(skb, ulen))
		goto drop;
	__skb_pull(skb, sizeof(struct udphdr));
	len = skb->len;

	/* The decoder reads the headers only: make them linear. */
	if (!pskb_may_pull(skb, min_t(unsigned int, len, MRC_MAX_HDR_LEN)))
		goto drop;
	err = mrc_decode(skb->data, len, &pkt);
	if (err) {
		drop = mrc_cnt_wire_drop(-err);
		goto drop;
	}

	meta.trimmed = pkt.trimmed;
	mrc_stats_inc(mdev, MRC_CNT_RX_PACKETS);
	mrc_stats_add(mdev, MRC_CNT_RX_BYTES, len);
	mrc_rcv(mdev, skb, &pkt, &meta);
	return;

drop:
	mrc_stats_inc(mdev, drop);
	kfree_skb(skb);
}

/*
 * encap_rcv of both sockets: softirq, under rcu_read_lock(). Always takes
 * the skb (returns 0), so nothing reaches the sockets' receive queues.
 */
static int mrc_udp_encap_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct mrc_net *mn = rcu_dereference_sk_user_data(sk);
	struct net_device *ndev = skb->dev;
	struct mrc_dev *mdev;

	if (unlikely(!mn))	/* the socket is being closed */
		goto drop;

	mdev = mrc_net_find_dev(mn, ndev);
	/* A VLAN of the device's netdev carries its GIDs too. */
	if (!mdev && is_vlan_dev(ndev))
		mdev = mrc_net_find_dev(mn, vlan_dev_real_dev(ndev));
	if (!mdev && (ndev->flags & IFF_LOOPBACK))
		mdev = mrc_net_find_gid_owner(mn, skb);
	if (!mdev) {
		atomic64_inc(&mn->rx_drop_no_device);
		goto drop;
	}

	mrc_net_rcv(mdev, skb);
	ib_device_put(&mdev->ib_dev);
	return 0;

drop:
	kfree_skb(skb);
	return 0;
}

/* Sockets */

static int mrc_net_open_socket(struct mrc_net *mn, u8 family,
			       struct socket **sockp)
{
	struct udp_port_cfg cfg = {
		.family = family,
		.local_udp_port = htons(udp_port),
		.use_udp_checksums = 1,
		.use_udp6_tx_checksums = 1,
		.use_udp6_rx_checksums = 1,
		.ipv6_v6only = 1,
	};
	struct udp_tunnel_sock_cfg tcfg = {
		.sk_user_data = mn,
		.encap_type = 1,
		.encap_rcv = mrc_udp_encap_rcv,
	};
	int err;

	err = udp_sock_create(mn->net, &cfg, sockp);
	if (err)
		return err;
	mrc_setup_udp_tunnel_sock(mn->net, *sockp, &tcfg);
	return 0;
}

static void mrc_net_close_sockets(struct mrc_net *mn)
{
	/* Each waits for encap_rcv calls in flight (synchronize_rcu()). */
	if (mn->sock6)
		mrc_udp_tunnel_sock_release(mn->sock6);
	if (mn->sock4)
		mrc_udp_tunnel_sock_release(mn->sock4);
	mn->sock6 = NULL;
	mn->sock4 = NULL;
}

/* Caller holds mn->lock. */
static int mrc_net_open_sockets(struct mrc_net *mn)
{
	int err;

	err = mrc_net_open_socket(mn, AF_INET, &mn->sock4);
	if (!err && ipv6_mod_enabled())
		err = mrc_net_open_socket(mn, AF_INET6, &mn->sock6);
	if (err) {
		mrc_net_close_sockets(mn);
		if (err == -EADDRINUSE)
			pr_err("UDP port %u is in use in this network namespace (rdma_rxe takes 4791 in init_net: load mrc with udp_port=N to run beside it)\n",
			       udp_port);
		else
			pr_err("cannot open UDP port %u: %d\n", udp_port, err);
	}
	return err;
}

int mrc_net_dev_init(struct mrc_dev *mdev)
{
	struct mrc_net *mn = net_generic(dev_net(mdev->ndev), mrc_net_id);
	int err;

	err = mrc_stats_dev_alloc(mdev);
	if (err)
		return err;

	mutex_lock(&mn->lock);
	if (!mn->users) {
		err = mrc_net_open_sockets(mn);
		if (err) {
			mutex_unlock(&mn->lock);
			return err;
		}
	}
	mn->users++;
	list_add_tail_rcu(&mdev->net_node, &mn->devs);
	mdev->mnet = mn;
	WRITE_ONCE(mdev->ns_rx_drop_no_device, &mn->rx_drop_no_device);
	mutex_unlock(&mn->lock);
	return 0;
}

void mrc_net_dev_exit(struct mrc_dev *mdev)
{
	struct mrc_net *mn = mdev->mnet;

	if (mn) {
		mutex_lock(&mn->lock);
		/*
		 * Readers that still see the device find its refcount at zero
		 * (ib_core disabled it before dealloc_driver) and drop the
		 * packet; its memory is freed after a grace period.
		 */
		list_del_rcu(&mdev->net_node);
		if (!--mn->users)
			mrc_net_close_sockets(mn);
		mutex_unlock(&mn->lock);
		WRITE_ONCE(mdev->ns_rx_drop_no_device, NULL);
		mdev->mnet = NULL;
	}
	mrc_stats_dev_free(mdev);
}

bool mrc_net_dev_moved(struct mrc_dev *mdev)
{
	ASSERT_RTNL();
	return mdev->mnet && !net_eq(dev_net(mdev->ndev), mdev->mnet->net);
}

/* Transmit */

struct sk_buff *mrc_net_alloc_skb(struct mrc_dev *mdev,
				  const struct mrc_net_addr *src,
				  const struct mrc_net_addr *dst,
				  unsigned int mrc_len)
{
	struct net_device *ndev = mdev->ndev;
	unsigned int hdr_len = sizeof(struct udphdr);
	struct sk_buff *skb;

	if (src->family != dst->family)
		return NULL;
	if (dst->family == AF_INET)
		hdr_len += sizeof(struct iphdr);
	else if (dst->family == AF_INET6)
		hdr_len += sizeof(struct ipv6hdr);
	else
		return NULL;
	if (mrc_len > IP_MAX_MTU - hdr_len)
		return NULL;

	hdr_len += LL_RESERVED_SPACE(ndev);
	skb = alloc_skb(hdr_len + mrc_len + ndev->needed_tailroom, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, hdr_len);
	skb->protocol = dst->family == AF_INET ? htons(ETH_P_IP) :
						 htons(ETH_P_IPV6);
	return skb;
}

/* Makes room for the UDP and IP headers, and pushes the UDP header. */
static int mrc_net_push_udp(struct mrc_dev *mdev, struct sk_buff *skb,
			    unsigned int ip_hdr_len, u16 udp_src_port)
{
	struct udphdr *uh;

	if (skb_cow_head(skb, LL_RESERVED_SPACE(mdev->ndev) + ip_hdr_len +
			 sizeof(*uh)))
		return -ENOMEM;

	__skb_push(skb, sizeof(*uh));
	skb_reset_transport_header(skb);
	uh = udp_hdr(skb);
	uh->source = htons(udp_src_port);
	uh->dest = htons(udp_port);
	uh->len = htons(skb->len);
	uh->check = 0;
	return 0;
}

/**
 * struct mrc_net_out - where one packet leaves
 * @lower: the plane's own netdev (a bond slave) to send on directly, or
 *	NULL to hand the packet to the IP output of the device's netdev
 * @plane: the plane index, for its counters (when @lower is set)
 * @outer6: the IPv6 destination written in the header and routed on
 *	(an SRv6 uSID container); the final destination otherwise
 * @srv6: @outer6 differs from the final destination
 * @cache: the path's route cache, or NULL
 */
struct mrc_net_out {
	struct net_device *lower;
	u8 plane;
	struct in6_addr outer6;
	bool srv6;
	struct mrc_net_route_cache *cache;
};

/* The route cache (struct mrc_net_route_cache, mrc_net.h) */

/* What a route was looked up for: compared whole, so no padding. */
struct mrc_net_flow {
	struct in6_addr saddr;		/* IPv4: ::ffff:a.b.c.d */
	struct in6_addr daddr;		/* the outer destination */
	__be16 sport;
	u8 dscp_ecn;
	u8 family;
};

/**
 * struct mrc_net_route - a route and the flow it was looked up for
 * @rcu: freed after a grace period: transmitters read it without a lock
 * @dst: the route, with a reference of its own
 * @cookie: IPv6: the routing table's serial number for dst_check()
 * @flow: the lookup's inputs besides the namespace and the output netdev,
 *	which are the device's
 */
struct mrc_net_route {
	struct rcu_head rcu;
	struct dst_entry *dst;
	u32 cookie;
	struct mrc_net_flow flow;
};

static void mrc_net_flow4(struct mrc_net_flow *flow, __be32 saddr,
			  __be32 daddr, u16 sport, u8 dscp_ecn)
{
	memset(flow, 0, sizeof(*flow));
	ipv6_addr_set_v4mapped(saddr, &flow->saddr);
	ipv6_addr_set_v4mapped(daddr, &flow->daddr);
	flow->sport = htons(sport);
	flow->dscp_ecn = dscp_ecn;
	flow->family = AF_INET;
}

static void mrc_net_flow6(struct mrc_net_flow *flow,
			  const struct in6_addr *saddr,
			  const struct in6_addr *daddr, u16 sport, u8 dscp_ecn)
{
	memset(flow, 0, sizeof(*flow));
	flow->saddr = *saddr;
	flow->daddr = *daddr;
	flow->sport = htons(sport);
	flow->dscp_ecn = dscp_ecn;
	flow->family = AF_INET6;
}

/* The cached route of @flow with a reference, or NULL: look it up. */
static struct dst_entry *mrc_net_route_get(struct mrc_net_route_cache *cache,
					   const struct mrc_net_flow *flow)
{
	struct dst_entry *dst = NULL;
	struct mrc_net_route *r;

	if (!cache)
		return NULL;
	rcu_read_lock();
	r = rcu_dereference(cache->route);
	/* A route released under us has no references left to take. */
	if (r && !memcmp(&r->flow, flow, sizeof(*flow)) &&
	    dst_check(r->dst, r->cookie) && dst_hold_safe(r->dst))
		dst = r->dst;
	rcu_read_unlock();
	return dst;
}

static void mrc_net_route_free(struct mrc_net_route *r)
{
	dst_release(r->dst);
	kfree_rcu(r, rcu);
}

/* Keeps @dst (a reference of its own) as the route of @flow. */
static void mrc_net_route_put(struct mrc_net_route_cache *cache,
			      const struct mrc_net_flow *flow,
			      struct dst_entry *dst, u32 cookie)
{
	struct mrc_net_route *r, *old;

	if (!cache)
		return;
	/* Without memory the next packet looks the route up again. */
	r = kmalloc(sizeof(*r), GFP_ATOMIC);
	if (!r)
		return;
	dst_hold(dst);
	r->dst = dst;
	r->cookie = cookie;
	r->flow = *flow;
	old = unrcu_pointer(xchg(&cache->route, RCU_INITIALIZER(r)));
	if (old)
		mrc_net_route_free(old);
}

void mrc_net_route_cache_flush(struct mrc_net_route_cache *cache)
{
	struct mrc_net_route *none = NULL, *old;

	old = unrcu_pointer(xchg(&cache->route, RCU_INITIALIZER(none)));
	if (old)
		mrc_net_route_free(old);
}

/*
 * Sends a packet whose IP header is built on the plane's slave, with the
 * next hop's link address that the master's neighbour table holds, so the
 * bond's own transmit hashing never picks the port. False when the next
 * hop is not resolved (or not confirmed) there: the caller then uses the
 * master's IP output, whose neighbour code resolves or confirms it for
 * the packets after this one. Caller holds rcu_read_lock().
 */
static bool mrc_net_out_lower(struct mrc_dev *mdev, struct sk_buff *skb,
			      const struct mrc_net_out *out,
			      struct neighbour *neigh, int *err)
{
	struct net_device *lower = out->lower;
	char ha[MAX_ADDR_LEN];

	if (!neigh || !(READ_ONCE(neigh->nud_state) & NUD_CONNECTED))
		return false;
	if (skb_cow_head(skb, LL_RESERVED_SPACE(lower))) {
		kfree_skb(skb);
		*err = -ENOMEM;
		return true;
	}
	neigh_ha_snapshot(ha, neigh, neigh->dev);
	skb->dev = lower;
	if (dev_hard_header(skb, lower, ntohs(skb->protocol), ha,
			    lower->dev_addr, skb->len) < 0) {
		kfree_skb(skb);
		*err = -EINVAL;
		return true;
	}
	skb_reset_mac_header(skb);
	skb_dst_drop(skb);
	*err = dev_queue_xmit(skb);
	atomic64_inc(&mdev->planes.tx_packets[out->plane]);
	return true;
}

/*
 * The next hop's neighbour entry for an IPv4 route, as the IPv4 output
 * finds it (ip_neigh_for_gw()) but never creating one. A route may name
 * an IPv6 gateway (RFC 5549, `via inet6`, as the lab fabric routes IPv4):
 * its entry is then in the IPv6 neighbour table, and its link address is
 * the one an IPv4 packet is sent to. Caller holds rcu_read_lock_bh().
 */
static struct neighbour *mrc_net_neigh4(const struct rtable *rt,
					__be32 daddr)
{
	struct net_device *dev = rt->dst.dev;

#if IS_ENABLED(CONFIG_IPV6)
	if (rt->rt_gw_family == AF_INET6)
		return __ipv6_neigh_lookup_noref(dev, &rt->rt_gw6);
#endif
	return __ipv4_neigh_lookup_noref(dev,
					 (__force u32)rt_nexthop(rt, daddr));
}

static int mrc_net_xmit4(struct mrc_dev *mdev, struct sk_buff *skb,
			 __be32 saddr, __be32 daddr, u16 udp_src_port,
			 u8 dscp_ecn, const struct mrc_net_out *out)
{
	struct mrc_net *mn = mdev->mnet;
	struct net *net = mn->net;
	struct flowi4 fl4 = {
		.flowi4_oif = mdev->ndev->ifindex,
		.flowi4_proto = IPPROTO_UDP,
		.saddr = saddr,
		.daddr = daddr,
		.fl4_sport = htons(udp_src_port),
		.fl4_dport = htons(udp_port),
	};
	struct mrc_net_flow flow;
	struct dst_entry *cached;
	struct rtable *rt;
	struct iphdr *iph;
	int err;

	mrc_net_flow4(&flow, saddr, daddr, udp_src_port, dscp_ecn);
	cached = mrc_net_route_get(out->cache, &flow);
	if (cached) {
		/* As the lookup would: a source address that is not local. */
		rt = container_of(cached, struct rtable, dst);
		rcu_read_lock();
		err = __ip_dev_find(net, saddr, false) ? 0 : -ENETUNREACH;
		rcu_read_unlock();
		if (err) {
			ip_rt_put(rt);
			kfree_skb(skb);
			return err;
		}
	} else {
		mrc_flowi4_set_dsfield(&fl4, dscp_ecn);
		/* Refuses a source address that is not local (-ENETUNREACH). */
		rt = ip_route_output_key(net, &fl4);
		if (IS_ERR(rt)) {
			kfree_skb(skb);
			return PTR_ERR(rt);
		}
		mrc_net_route_put(out->cache, &flow, &rt->dst, 0);
	}

	err = mrc_net_push_udp(mdev, skb, sizeof(*iph), udp_src_port);
	if (err) {
		ip_rt_put(rt);
		kfree_skb(skb);
		return err;
	}
	udp_set_csum(false, skb, saddr, daddr, skb->len);

	__skb_push(skb, sizeof(*iph));
	skb_reset_network_header(skb);
	iph = ip_hdr(skb);
	iph->version = 4;
	iph->ihl = sizeof(*iph) >> 2;
	iph->tos = dscp_ecn;
	iph->tot_len = htons(skb->len);
	iph->frag_off = htons(IP_DF);
	iph->ttl = ip4_dst_hoplimit(&rt->dst);
	iph->protocol = IPPROTO_UDP;
	iph->saddr = saddr;
	iph->daddr = daddr;
	__ip_select_ident(net, iph, 1);

	memset(IPCB(skb), 0, sizeof(*IPCB(skb)));
	skb->protocol = htons(ETH_P_IP);
	skb_dst_set(skb, &rt->dst);	/* takes over the route's reference */

	if (out->lower && rt->dst.dev == mdev->ndev) {
		struct neighbour *neigh;
		bool sent;

		ip_send_check(iph);
		rcu_read_lock_bh();
		neigh = mrc_net_neigh4(rt, daddr);
		sent = mrc_net_out_lower(mdev, skb, out, neigh, &err);
		rcu_read_unlock_bh();
		if (sent)
			return err;
	}
	if (out->lower)
		atomic64_inc(&mdev->planes.tx_via_master[out->plane]);
	return ip_local_out(net, mn->sock4->sk, skb);
}

#if IS_ENABLED(CONFIG_IPV6)
/*
 * SRv6: the UDP checksum covers the final destination, which the last
 * switch's shift writes into the header; offload would use the header's.
 */
static void mrc_net_udp6_csum_final(struct sk_buff *skb,
				    const struct in6_addr *saddr,
				    const struct in6_addr *final)
{
	struct udphdr *uh = udp_hdr(skb);
	unsigned int len = skb->len;
	__wsum csum;

	uh->check = 0;
	csum = skb_checksum(skb, 0, len, 0);
	uh->check = csum_ipv6_magic(saddr, final, len, IPPROTO_UDP, csum);
	if (!uh->check)
		uh->check = CSUM_MANGLED_0;
	skb->ip_summed = CHECKSUM_NONE;
}

static int mrc_net_xmit6(struct mrc_dev *mdev, struct sk_buff *skb,
			 const struct in6_addr *saddr,
			 const struct in6_addr *daddr, u16 udp_src_port,
			 u8 dscp_ecn, const struct mrc_net_out *out)
{
	const struct in6_addr *outer = out->srv6 ? &out->outer6 : daddr;
	struct mrc_net *mn = mdev->mnet;
	struct net *net = mn->net;
	struct flowi6 fl6 = {
		.flowi6_oif = mdev->ndev->ifindex,
		.flowi6_proto = IPPROTO_UDP,
		.flowlabel = ip6_make_flowinfo(dscp_ecn, 0),
		.saddr = *saddr,
		.daddr = *outer,
		.fl6_sport = htons(udp_src_port),
		.fl6_dport = htons(udp_port),
	};
	struct mrc_net_flow flow;
	struct dst_entry *dst;
	struct ipv6hdr *ip6h;
	int err;

	if (!mn->sock6) {
		kfree_skb(skb);
		return -EAFNOSUPPORT;
	}
	/* The IPv6 route lookup does not check the source: do it here. */
	if (!ipv6_chk_addr(net, saddr, NULL, 0)) {
		kfree_skb(skb);
		return -ENETUNREACH;
	}
	mrc_net_flow6(&flow, saddr, outer, udp_src_port, dscp_ecn);
	dst = mrc_net_route_get(out->cache, &flow);
	if (!dst) {
		dst = mrc_ip6_dst_lookup_flow(net, mn->sock6->sk, &fl6);
		if (IS_ERR(dst)) {
			kfree_skb(skb);
			return PTR_ERR(dst);
		}
		mrc_net_route_put(out->cache, &flow, dst,
				  rt6_get_cookie(dst_rt6_info(dst)));
	}

	err = mrc_net_push_udp(mdev, skb, sizeof(*ip6h), udp_src_port);
	if (err) {
		dst_release(dst);
		kfree_skb(skb);
		return err;
	}
	if (out->srv6)
		mrc_net_udp6_csum_final(skb, saddr, daddr);
	else
		udp6_set_csum(false, skb, saddr, daddr, skb->len);

	__skb_push(skb, sizeof(*ip6h));
	skb_reset_network_header(skb);
	ip6h = ipv6_hdr(skb);
	ip6_flow_hdr(ip6h, dscp_ecn, 0);
	ip6h->payload_len = htons(skb->len - sizeof(*ip6h));
	ip6h->nexthdr = IPPROTO_UDP;
	ip6h->hop_limit = ip6_dst_hoplimit(dst);
	ip6h->saddr = *saddr;
	ip6h->daddr = *outer;

	memset(IP6CB(skb), 0, sizeof(*IP6CB(skb)));
	skb->protocol = htons(ETH_P_IPV6);
	skb_dst_set(skb, dst);		/* takes over the route's reference */

	if (out->lower && dst->dev == mdev->ndev) {
		const struct in6_addr *nh;
		struct neighbour *neigh;
		bool sent;

		rcu_read_lock_bh();
		nh = rt6_nexthop(dst_rt6_info(dst), outer);
		neigh = __ipv6_neigh_lookup_noref(dst->dev, nh);
		sent = mrc_net_out_lower(mdev, skb, out, neigh, &err);
		rcu_read_unlock_bh();
		if (sent)
			return err;
	}
	if (out->lower)
		atomic64_inc(&mdev->planes.tx_via_master[out->plane]);
	return ip6_local_out(net, mn->sock6->sk, skb);
}
#else
static int mrc_net_xmit6(struct mrc_dev *mdev, struct sk_buff *skb,
			 const struct in6_addr *saddr,
			 const struct in6_addr *daddr, u16 udp_src_port,
			 u8 dscp_ecn, const struct mrc_net_out *out)
{
	kfree_skb(skb);
	return -EAFNOSUPPORT;
}
#endif

static int mrc_net_xmit_out(struct mrc_dev *mdev, struct sk_buff *skb,
			    const struct mrc_net_addr *src,
			    const struct mrc_net_addr *dst,
			    u16 udp_src_port, u8 dscp_ecn,
			    const struct mrc_net_out *out)
{
	unsigned int len = skb->len;
	int err;

	if (src->family != dst->family) {
		kfree_skb(skb);
		err = -EINVAL;
	} else if (dst->family == AF_INET && !out->srv6) {
		err = mrc_net_xmit4(mdev, skb, src->v4, dst->v4, udp_src_port,
				    dscp_ecn, out);
	} else if (dst->family == AF_INET6) {
		err = mrc_net_xmit6(mdev, skb, &src->v6, &dst->v6,
				    udp_src_port, dscp_ecn, out);
	} else {
		kfree_skb(skb);
		err = -EAFNOSUPPORT;
	}

	/* ip_local_out() may return NET_XMIT_* codes: CN is a success. */
	err = net_xmit_eval(err);
	if (err > 0)
		err = -ENOBUFS;
	if (err) {
		mrc_stats_inc(mdev, MRC_CNT_TX_ERRORS);
		return err;
	}
	mrc_stats_inc(mdev, MRC_CNT_TX_PACKETS);
	mrc_stats_add(mdev, MRC_CNT_TX_BYTES, len);
	return 0;
}

int mrc_net_xmit(struct mrc_dev *mdev, struct sk_buff *skb,
		 const struct mrc_net_addr *src,
		 const struct mrc_net_addr *dst,
		 u16 udp_src_port, u8 dscp_ecn)
{
	struct mrc_net_out out = {};

	return mrc_net_xmit_out(mdev, skb, src, dst, udp_src_port, dscp_ecn,
				&out);
}

/*
 * The F3216 container of @path towards @final: @final's 32-bit block, the
 * path's switch uSIDs, then @final's own uSID (its bits 32-47), zeros
 * after. @final must be a uSID host address: zero beyond bit 47.
 */
static int mrc_net_usid_container(const struct in6_addr *final,
				  const struct mrc_ev_path *path,
				  struct in6_addr *container)
{
	unsigned int i;

	if (path->n_usids > MRC_EV_MAX_USIDS || final->s6_addr16[3] ||
	    final->s6_addr32[2] || final->s6_addr32[3] || !final->s6_addr16[2])
		return -EINVAL;
	memset(container, 0, sizeof(*container));
	container->s6_addr32[0] = final->s6_addr32[0];
	for (i = 0; i < path->n_usids; i++) {
		if (!path->usids[i])
			return -EINVAL;
		container->s6_addr16[2 + i] = htons(path->usids[i]);
	}
	container->s6_addr16[2 + i] = final->s6_addr16[2];
	return 0;
}

int mrc_net_xmit_ev(struct mrc_dev *mdev, struct sk_buff *skb, u8 plane,
		    const struct mrc_ev_path *path,
		    const struct mrc_net_addr *src,
		    const struct mrc_net_addr *dst, u8 dscp_ecn,
		    struct mrc_net_route_cache *cache)
{
	struct mrc_net_out out = { .plane = plane, .cache = cache };
	struct mrc_plane_table *t;
	int err = 0;

	if (path->n_usids) {
		if (dst->family != AF_INET6)
			err = -EINVAL;
		else
			err = mrc_net_usid_container(&dst->v6, path,
						     &out.outer6);
		out.srv6 = true;
	}

	rcu_read_lock();
	t = rcu_dereference(mdev->planes.table);
	if (!err && (!t || plane >= t->n_planes || !t->plane[plane].ndev))
		err = -ENODEV;
	else if (!err && !t->plane[plane].up)
		err = -ENETDOWN;
	if (err) {
		rcu_read_unlock();
		kfree_skb(skb);
		mrc_stats_inc(mdev, MRC_CNT_TX_ERRORS);
		return err;
	}
	/* A single netdev is its own plane: the IP output sends on it. */
	if (t->bonded)
		out.lower = t->plane[plane].ndev;
	/*
	 * Under rcu_read_lock() the table's reference on the slave holds;
	 * softirqs may be off here (rcu_read_lock_bh() inside), never
	 * hard IRQs (mrc_xmit.h).
	 */
	err = mrc_net_xmit_out(mdev, skb, src, dst, path->udp_sport, dscp_ecn,
			       &out);
	if (!err && !t->bonded)
		atomic64_inc(&mdev->planes.tx_packets[plane]);
	rcu_read_unlock();
	return err;
}

/* Namespaces */

static int __net_init mrc_net_init_net(struct net *net)
{
	struct mrc_net *mn = net_generic(net, mrc_net_id);

	mn->net = net;
	mutex_init(&mn->lock);
	INIT_LIST_HEAD(&mn->devs);
	atomic64_set(&mn->rx_drop_no_device, 0);
	return 0;
}

/*
 * Runs after every netdev of @net was unregistered or moved to init_net.
 * Either queued the removal of the netdev's mrc device, but only an
 * unregistration waits for it (our netdev reference): finish the removals
 * of devices on moved netdevs here, so that their sockets go before @net.
 */
static void __net_exit mrc_net_exit_net(struct net *net)
{
	struct mrc_net *mn = net_generic(net, mrc_net_id);
	struct mrc_dev *mdev;

	for (;;) {
		mutex_lock(&mn->lock);
		mdev = list_first_entry_or_null(&mn->devs, struct mrc_dev,
						net_node);
		/* On the list, the device is before dealloc_driver: alive. */
		if (mdev)
			get_device(&mdev->ib_dev.dev);
		mutex_unlock(&mn->lock);
		if (!mdev)
			break;
		/* Waits for a removal in flight, or does it. */
		ib_unregister_device(&mdev->ib_dev);
		put_device(&mdev->ib_dev.dev);
	}
	WARN_ON(mn->users || mn->sock4 || mn->sock6);
	mutex_destroy(&mn->lock);
}

static struct pernet_operations mrc_net_ops = {
	.init = mrc_net_init_net,
	.exit = mrc_net_exit_net,
	.id = &mrc_net_id,
	.size = sizeof(struct mrc_net),
};

/*
 * Module init, before any device can exist. A subsystem, not a device, so
 * that a dying namespace runs our exit after its netdevs are gone.
 */
int mrc_net_init(void)
{
	if (!udp_port) {
		pr_err("udp_port=0 is not a port\n");
		return -EINVAL;
	}
	mrc_stats_init();
	return register_pernet_subsys(&mrc_net_ops);
}

/* Module exit, after every device is gone. */
void mrc_net_exit(void)
{
	unregister_pernet_subsys(&mrc_net_ops);
}
