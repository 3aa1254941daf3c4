// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * setup_udp_tunnel_sock() and udp_tunnel_sock_release() take a struct sock
 * (7.x, and 7.0.y/7.1.y stable updates).
 */
#include <net/udp_tunnel.h>

void mrc_probe(struct net *net, struct sock *sk,
	       struct udp_tunnel_sock_cfg *cfg);
void mrc_probe(struct net *net, struct sock *sk,
	       struct udp_tunnel_sock_cfg *cfg)
{
	setup_udp_tunnel_sock(net, sk, cfg);
	udp_tunnel_sock_release(sk);
}
