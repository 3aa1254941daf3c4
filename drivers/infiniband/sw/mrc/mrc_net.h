/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The UDP transport: one pair of UDP sockets (IPv4, IPv6) per network
 * namespace that has an mrc device, the receive path from those sockets to
 * mrc_rcv(), and the transmit path for the protocol code.
 * Documentation/architecture.rst, "Transport", describes it.
 */
#ifndef MRC_NET_H
#define MRC_NET_H

#include <linux/in6.h>
#include <linux/skbuff.h>
#include <linux/socket.h>
#include <rdma/ib_verbs.h>

#include "mrc_ev.h"
#include "mrc_net_addr.h"
#include "mrc_wire.h"

struct mrc_dev;
struct mrc_net;

/**
 * struct mrc_rx_meta - what the outer headers say about a received packet
 * @saddr: IP source address
 * @daddr: IP destination address (one of the port's GIDs)
 * @udp_sport: UDP source port, host order
 * @ecn: ECN bits of the IP header (INET_ECN_*; INET_ECN_CE: CE-marked)
 * @trimmed: the packet was trimmed (= the decoded packet's ->trimmed)
 */
struct mrc_rx_meta {
	struct mrc_net_addr saddr;
	struct mrc_net_addr daddr;
	u16 udp_sport;
	u8 ecn;
	bool trimmed;
};

/* Module init and exit: the per-namespace state, counters' names. */
int mrc_net_init(void);
void mrc_net_exit(void);
u16 mrc_net_udp_port(void);

/*
 * Process context. mrc_net_dev_init(), before ib_register_device(), takes a
 * reference on the sockets of the netdev's namespace (creating them for its
 * first device) and makes the device reachable from them;
 * mrc_net_dev_exit(), from dealloc_driver, undoes it and is safe on a
 * device whose init failed or never ran.
 */
int mrc_net_dev_init(struct mrc_dev *mdev);
void mrc_net_dev_exit(struct mrc_dev *mdev);
/* Caller holds rtnl_lock: the netdev is no longer in the device's netns. */
bool mrc_net_dev_moved(struct mrc_dev *mdev);

/*
 * Transmit, any context (softirq included). The caller holds a device
 * reference or an object of the device.
 *
 * mrc_net_alloc_skb() returns an empty skb (GFP_ATOMIC) with headroom for
 * the link, IP and UDP headers of @dst's family and tailroom for @mrc_len
 * bytes, which the caller appends (skb_put()): the MRC headers, then the
 * payload. NULL when out of memory, when the families of @src and @dst
 * differ or are unknown, or when @mrc_len does not fit in one datagram.
 *
 * mrc_net_xmit() routes from @src to @dst in the netdev's namespace with
 * the device's netdev as output interface, adds the UDP header (source
 * port @udp_src_port, host order; destination port the udp_port module
 * parameter; checksum over the final addresses) and the IP header (DSCP
 * and ECN bits @dscp_ecn, DF set), and sends. It always consumes @skb.
 * Returns 0 or a negative errno (no route, unknown or mixed families, a
 * source address that is not local, no IPv6 socket, drop by the IP layer).
 */
struct sk_buff *mrc_net_alloc_skb(struct mrc_dev *mdev,
				  const struct mrc_net_addr *src,
				  const struct mrc_net_addr *dst,
				  unsigned int mrc_len);
int mrc_net_xmit(struct mrc_dev *mdev, struct sk_buff *skb,
		 const struct mrc_net_addr *src,
		 const struct mrc_net_addr *dst,
		 u16 udp_src_port, u8 dscp_ecn);

/**
 * struct mrc_net_route_cache - the route of one path of a sender, kept
 *	from one packet to the next
 * @route: the last route looked up on the path, with the flow it was
 *	looked up for (addresses, UDP source port, DSCP/ECN); NULL: none
 *
 * A route lookup per packet is most of the transport's cost where the
 * policy rules are many; a connected sender's flow stays the same from
 * one packet to the next, so mrc_net_xmit_ev() keeps the route it found
 * and uses it again while the flow is the same and the route still valid
 * (dst_check(): any change to the routing tables or the device makes it
 * stale). The source address is still checked to be local on every packet.
 * Transmitters share a cache without a lock; the cache holds a route
 * reference until mrc_net_route_cache_flush(), which the owner calls when
 * no transmitter can use the cache any more (and may call at any time).
 */
struct mrc_net_route;
struct mrc_net_route_cache {
	struct mrc_net_route __rcu *route;
};

void mrc_net_route_cache_flush(struct mrc_net_route_cache *cache);

/*
 * mrc_net_xmit_ev() sends like mrc_net_xmit(), but on plane @plane along
 * the EV path @path (mrc_ev.h, Documentation/paths.rst):
 *  - UDP mode (@path->n_usids == 0): the UDP source port is
 *    @path->udp_sport and the destination is routed normally;
 *  - SRv6 mode (n_usids > 0, IPv6 only): the outer destination is the F3216
 *    uSID container of @dst's 32-bit block, the path's uSIDs and @dst's own
 *    uSID (@dst must be zero beyond bit 47); the route is looked up for the
 *    container; the UDP checksum is computed in software against @dst, the
 *    final destination.
 * On a bond, the packet is sent directly on the plane's slave with the
 * next hop's link address from the bond's neighbour table, bypassing the
 * bond's hashing; when that next hop is not confirmed (NUD_CONNECTED) the
 * packet goes through the bond's IP output instead, which resolves it
 * (counted per plane as via_master). A plain netdev is plane 0, sent
 * through its IP output. Same context rules as mrc_net_xmit(); consumes
 * @skb. Errors: -ENODEV (no such plane), -ENETDOWN (plane without
 * carrier), -EINVAL (bad SRv6 destination or path), and mrc_net_xmit()'s.
 * @cache, when not NULL, keeps the path's route between packets.
 */
int mrc_net_xmit_ev(struct mrc_dev *mdev, struct sk_buff *skb, u8 plane,
		    const struct mrc_ev_path *path,
		    const struct mrc_net_addr *src,
		    const struct mrc_net_addr *dst, u8 dscp_ecn,
		    struct mrc_net_route_cache *cache);

/*
 * mrc_recv.c: a validated packet for @mdev. Softirq context, under
 * rcu_read_lock(), with a device reference held for the duration of the
 * call; whoever keeps the packet past the call takes references of its
 * own. skb->data is the first byte of the MRC base header, skb->len the
 * MRC packet length (UDP length - 8, link padding removed), and at least
 * pkt->payload_off bytes (the headers) are linear; the payload may be in
 * fragments: copy it with skb_copy_bits(skb, pkt->payload_off, ...).
 * skb_network_header() and skb_transport_header() are the outer IP and UDP
 * headers. mrc_rcv() consumes @skb.
 */
void mrc_rcv(struct mrc_dev *mdev, struct sk_buff *skb,
	     const struct mrc_pkt *pkt, const struct mrc_rx_meta *meta);

#endif /* MRC_NET_H */
