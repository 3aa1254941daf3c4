#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The GID table follows the netdev's IP addresses, as RoCEv2 GIDs.
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
mrc_require_loaded
command -v ibv_devinfo >/dev/null || ktap_skip_all "needs ibv_devinfo"

ktap_begin 7
trap mrc_cleanup EXIT
mrc_cleanup
make_veth mrct0 mrct0p || ktap_skip_all "cannot create a veth pair"
rdma link add mrc0 type mrc netdev mrct0 ||
	ktap_skip_all "rdma link add failed (see link.sh)"

V4_GID='0000:0000:0000:0000:0000:ffff:c000:020b RoCE v2'
V6_GID='2001:0db8:0000:0000:0000:0000:0000:0011 RoCE v2'

only_rocev2()
{
	ib_gids mrc0
	[ -n "$(ib_gids mrc0)" ] && ! ib_gids mrc0 | grep -v "RoCE v2$"
}
ktap_check "link_local_gid_is_rocev2" wait_for 5 ib_has_gid mrc0 '^fe80:.* RoCE v2$'
ktap_check "only_rocev2_gids" only_rocev2

ip addr add 192.0.2.11/24 dev mrct0
ktap_check "ipv4_address_adds_gid" wait_for 5 ib_has_gid mrc0 "^$V4_GID$"
ktap_check "ibv_devinfo_shows_ipv4_gid" \
	sh -c 'ibv_devinfo -v -d mrc0 | grep -E "GID\[ *[0-9]+\]:" | grep -q "::ffff:192.0.2.11, RoCE v2"'
ip addr del 192.0.2.11/24 dev mrct0
ktap_check "ipv4_address_removal_drops_gid" \
	wait_for 5 ib_lacks_gid mrc0 "^$V4_GID$"

ip addr add 2001:db8::11/64 dev mrct0 nodad
ktap_check "ipv6_address_adds_gid" wait_for 5 ib_has_gid mrc0 "^$V6_GID$"
ip addr del 2001:db8::11/64 dev mrct0
ktap_check "ipv6_address_removal_drops_gid" \
	wait_for 5 ib_lacks_gid mrc0 "^$V6_GID$"
ktap_finish
