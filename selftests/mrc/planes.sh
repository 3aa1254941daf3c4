#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Planes: an mrc device on a bond has one plane per slave, follows carrier,
# release and enslave live, sends a packet of plane P on slave P (UDP and
# SRv6 EVs), lets go of slaves and bonds being deleted and of the module
# being unloaded; RC traffic runs over a bond and over a plain netdev.
#
# Two hosts, namespaces mrcna and mrcnb, each with bond0 (balance-xor) of
# veth plane ports pa0/pa1 and pb0/pb1, joined plane by plane (pa0-pb0,
# pa1-pb1). IPv4 192.0.2.1/.2 and uSID addresses fc00:0:1:: and fc00:0:2::
# (block fc00:0::/32); A routes the uSID container fc00:0:100:2:: (switch
# uSID 0x0100, then B) through B. B cannot shift it to itself: seg6local
# End refuses local delivery after the shift (seg6_lookup_any_nexthop), so
# SRv6 is checked on the wire as A sends it, not by delivery.
# lab-timeout: 900
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=$(command -v python3) || ktap_skip_all "needs python3"
mrc_require_loaded

MRCCTL=$(mrc_tool mrcctl) ||
	ktap_skip_all "needs mrcctl: the tree's tools/mrcctl (make) or an installed one (make install)"
# Packets are injected on a chosen plane through debugfs (xmit_ev).
DBG=/sys/kernel/debug/mrc
[ -e "$DBG/xmit_ev" ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
[ -w "$DBG/xmit_ev" ] || ktap_skip_all "no $DBG/xmit_ev"
PKT=$MRC_SELFTEST_DIR/mrc_packet.py
A6=fc00:0:1::
B6=fc00:0:2::
SWITCH_USID=100
tmp=$(mktemp -d)

in_a() { ip netns exec mrcna "$@"; }
in_b() { ip netns exec mrcnb "$@"; }

cleanup()
{
	remove_two_hosts
	mrc_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT
cleanup
mkdir -p "$tmp"

# One host: bond0 of P0 and P1 in namespace NS, with its addresses.
make_bond_host()	# NS P0 P1 V4 V6
{
	local ns=$1
	ip -n "$ns" link add bond0 type bond mode balance-xor miimon 100 &&
	ip -n "$ns" link set "$2" master bond0 &&
	ip -n "$ns" link set "$3" master bond0 &&
	ip -n "$ns" link set bond0 up && ip -n "$ns" link set lo up &&
	ip -n "$ns" addr add "$4/24" dev bond0 &&
	ip -n "$ns" addr add "$5/32" dev bond0 nodad
}

make_bonded_hosts()
{
	ip netns add mrcna && ip netns add mrcnb &&
	ip link add pa0 netns mrcna type veth peer name pb0 netns mrcnb &&
	ip link add pa1 netns mrcna type veth peer name pb1 netns mrcnb &&
	make_bond_host mrcna pa0 pa1 $MRC_HOST_A $A6 &&
	make_bond_host mrcnb pb0 pb1 $MRC_HOST_B $B6 || return 1
	# Slaves: software checksums, so captures see the real ones.
	for d in pa0 pa1; do in_a ethtool -K $d tx off >/dev/null 2>&1; done
	# Permanent neighbours, as the fabric has for its gateway.
	ip -n mrcna neigh replace $MRC_HOST_B dev bond0 nud permanent \
		lladdr "$(in_b cat /sys/class/net/bond0/address)" &&
	ip -n mrcna neigh replace $B6 dev bond0 nud permanent \
		lladdr "$(in_b cat /sys/class/net/bond0/address)" &&
	# The container's first uSID is reached through B, as the fabric's
	# gateway would be.
	ip -n mrcna -6 route add fc00:0:$SWITCH_USID::/48 via $B6 dev bond0 &&
	in_a rdma link add mrc0 type mrc netdev bond0 &&
	in_b rdma link add mrc1 type mrc netdev bond0 &&
	mrc_select_preset mrc0 mrc1 &&
	wait_for 5 ib_has_gid mrc0 "ffff:c000:0201 RoCE v2" &&
	wait_for 5 ib_has_gid mrc1 "ffff:c000:0202 RoCE v2" &&
	wait_for 5 ib_has_gid mrc1 "fc00:0000:0002:0000:0000:0000:0000:0000 RoCE v2"
}

# Plane N of IBDEV (the controller's PLANE_GET): "PORT STATE TX VIA_MASTER",
# PORT "-" for an empty slot.
plane()	# IBDEV N
{
	mrc_plane "$1" "$2" netdev state tx via_master
}

plane_is()	# IBDEV N PORT STATE
{
	local p
	p=$(plane "$1" "$2")
	[ "${p%% [0-9]*}" = "$3 $4" ]
}

plane_count()	# IBDEV
{
	mrc_planes "$1" index | wc -l
}

rx_packets()	# IBDEV
{
	mrc_counters "$1" rx_packets | cut -d' ' -f2
}

tx_of()	# NS NETDEV
{
	ip netns exec "$1" cat "/sys/class/net/$2/statistics/tx_packets"
}

HEX=$("$PYTHON" "$PKT" hex no_qp)

# COUNT packets from A to B on PLANE along USIDS ("-": UDP mode).
send_ev()	# PLANE SRC DST USIDS COUNT
{
	local i
	for ((i = 0; i < $5; i++)); do
		echo "mrc0 $1 $2 $3 $((49152 + i)) 0 $4 $HEX" >"$DBG/xmit_ev" ||
			return 1
	done
}

ktap_begin 17

if ! make_bonded_hosts >"$tmp/setup" 2>&1; then
	sed 's/^/# /' "$tmp/setup"
	ktap_skip_all "cannot build two bonded hosts (bonding module?)"
fi

planes_reported()
{
	"$MRCCTL" planes mrc0 && "$MRCCTL" planes mrc1
	plane_is mrc0 0 pa0 up && plane_is mrc0 1 pa1 up &&
	plane_is mrc1 0 pb0 up && plane_is mrc1 1 pb1 up &&
	[ "$(plane_count mrc0)" -eq 2 ]
}
ktap_check "device_reports_one_plane_per_slave" planes_reported

carrier_followed()
{
	# The peer end going down takes pa1's carrier, not the bond's.
	ip -n mrcnb link set pb1 down &&
	wait_for 5 plane_is mrc0 1 pa1 down &&
	plane_is mrc0 0 pa0 up && ib_port_state_is mrc0 ACTIVE || return 1
	ip -n mrcnb link set pb1 up &&
	wait_for 5 plane_is mrc0 1 pa1 up
}
ktap_check "plane_carrier_followed_live" carrier_followed

down_plane_refuses()
{
	local err
	ip -n mrcna link set pa1 down && wait_for 5 plane_is mrc0 1 pa1 down ||
		return 1
	err=$(send_ev 1 $MRC_HOST_A $MRC_HOST_B - 1 2>&1) && {
		echo "sent on a down plane"; return 1; }
	echo "$err"
	ip -n mrcna link set pa1 up && wait_for 5 plane_is mrc0 1 pa1 up
}
ktap_check "send_on_down_plane_refused" down_plane_refuses

# Plane P of A: each packet leaves on slave P, none on the other, and
# RX of them arrive at mrc1 (so their UDP checksum was good).
leaves_on_plane()	# PLANE SRC DST USIDS RX
{
	local other=$((1 - $1)) n=20 tx_p tx_o rx before after
	before=$(plane mrc0 "$1")
	tx_p=$(tx_of mrcna pa$1)
	tx_o=$(tx_of mrcna pa$other)
	rx=$(rx_packets mrc1)
	send_ev "$1" "$2" "$3" "$4" $n || return 1
	wait_for 5 test "$(rx_packets mrc1)" -ge $((rx + $5))
	after=$(plane mrc0 "$1")
	tx_p=$(($(tx_of mrcna pa$1) - tx_p))
	tx_o=$(($(tx_of mrcna pa$other) - tx_o))
	rx=$(($(rx_packets mrc1) - rx))
	echo "plane $1: $before -> $after; pa$1 +$tx_p, pa$other +$tx_o, mrc1 rx +$rx"
	# Neighbour or MLD chatter may add a packet or two elsewhere.
	[ "$tx_p" -ge $n ] && [ "$tx_o" -lt 5 ] && [ "$rx" -eq "$5" ] &&
	[ "${after##* }" = "${before##* }" ] &&
	[ "$(echo "$after" | cut -d' ' -f3)" -eq \
	  $(($(echo "$before" | cut -d' ' -f3) + n)) ]
}
ktap_check "udp_ev_leaves_on_plane_0_and_arrives" \
	leaves_on_plane 0 $MRC_HOST_A $MRC_HOST_B - 20
ktap_check "udp_ev_leaves_on_plane_1_and_arrives" \
	leaves_on_plane 1 $MRC_HOST_A $MRC_HOST_B - 20
ktap_check "udp6_ev_leaves_on_plane_1_and_arrives" leaves_on_plane 1 $A6 $B6 - 20
ktap_check "srv6_ev_leaves_on_plane_1" leaves_on_plane 1 $A6 $B6 $SWITCH_USID 0

# The wire, as A sends it on pa0 (a capture in B may see the header after
# B's own processing): the outer destination is the container, the source
# port the EV's, and the UDP checksum matches the final destination.
srv6_headers()
{
	local pid out
	in_a timeout 60 "$PYTHON" "$PKT" sniff pa0 "$(mrc_udp_port)" 1 30 \
		>"$tmp/sniff" &
	pid=$!
	wait_for 30 grep -q "^# ready" "$tmp/sniff" || { kill $pid; return 1; }
	echo "mrc0 0 $A6 $B6 50000 0 $SWITCH_USID $HEX" >"$DBG/xmit_ev" ||
		{ kill $pid; return 1; }
	wait $pid
	out=$(grep -v "^#" "$tmp/sniff")
	echo "captured: $out"
	echo "$out" | "$PYTHON" -c "
import json, sys, ipaddress, struct, socket
p = json.loads(sys.stdin.readline())
pay = bytes.fromhex(p['payload'])
def csum(data):
    if len(data) % 2: data += b'\0'
    s = sum(struct.unpack('!%dH' % (len(data) // 2), data))
    while s >> 16: s = (s & 0xffff) + (s >> 16)
    return s
final = ipaddress.ip_address('$B6').packed
src = ipaddress.ip_address('$A6').packed
ulen = 8 + len(pay)
uh = struct.pack('!HHHH', p['sport'], p['dport'], ulen, 0)
pseudo = src + final + struct.pack('!IxxxB', ulen, 17)
want = 0xffff - csum(pseudo + uh + pay) or 0xffff
print('checksum', hex(p['check']), 'want', hex(want))
ok = (ipaddress.ip_address(p['dst']) == ipaddress.ip_address('fc00:0:$SWITCH_USID:2::')
      and p['sport'] == 50000 and p['check'] == want and not p['check_ok'])
sys.exit(0 if ok else 1)"
}
ktap_check "srv6_container_and_final_checksum_on_wire" srv6_headers

# An unresolved next hop: the packet goes through the bond's IP output,
# which resolves it (ARP); once the neighbour is confirmed, the plane's
# slave again.
unresolved_next_hop()
{
	local before via tx
	ip -n mrcna neigh del $MRC_HOST_B dev bond0 || return 1
	before=$(plane mrc0 0)
	send_ev 0 $MRC_HOST_A $MRC_HOST_B - 1 || return 1
	wait_for 10 sh -c "ip -n mrcna neigh show $MRC_HOST_B dev bond0 | grep -q REACHABLE" ||
		{ ip -n mrcna neigh show; return 1; }
	send_ev 0 $MRC_HOST_A $MRC_HOST_B - 1 || return 1
	via=$(($(plane mrc0 0 | cut -d' ' -f4) - $(echo "$before" | cut -d' ' -f4)))
	tx=$(($(plane mrc0 0 | cut -d' ' -f3) - $(echo "$before" | cut -d' ' -f3)))
	echo "plane 0: $before -> $(plane mrc0 0)"
	ip -n mrcna neigh replace $MRC_HOST_B dev bond0 nud permanent \
		lladdr "$(in_b cat /sys/class/net/bond0/address)"
	[ "$via" -eq 1 ] && [ "$tx" -eq 1 ]
}
ktap_check "unresolved_next_hop_via_bond_then_direct" unresolved_next_hop

# The controller's dump (PLANE_GET) and the debugfs table are two views of
# one plane table: after the cases above (mrc0's planes have sent on their
# slaves and through the bond), every field of both devices' planes
# agrees, and an unprivileged caller gets the same dump.
dump_matches_debugfs()
{
	local dev nl dbg user
	for dev in mrc0 mrc1; do
		nl=$(mrc_planes $dev index netdev state tx via_master) ||
			return 1
		dbg=$(awk -v d=$dev '$1 == d { print $3, $4, $5, $6, $7 }' \
			"$DBG/planes")
		user=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$MRCCTL" planes $dev) || return 1
		printf '%s PLANE_GET:\n%s\ndebugfs:\n%s\n' $dev "$nl" "$dbg"
		[ -n "$nl" ] && [ "$nl" = "$dbg" ] &&
			[ "$user" = "$("$MRCCTL" planes $dev)" ] || return 1
	done
}
ktap_check "plane_dump_matches_debugfs_table" dump_matches_debugfs

release_enslave_live()
{
	# Plane 1 keeps its index while plane 0's slave is away.
	ip -n mrcna link set pa0 nomaster &&
	wait_for 5 plane_is mrc0 0 - down && plane_is mrc0 1 pa1 up &&
	ip -n mrcna link set pa0 down &&
	ip -n mrcna link set pa0 master bond0 && ip -n mrcna link set pa0 up &&
	wait_for 5 plane_is mrc0 0 pa0 up && plane_is mrc0 1 pa1 up
}
ktap_check "release_and_enslave_followed_live" release_enslave_live

slave_deleted()
{
	# `ip link del` waits for every reference to the slave.
	timeout 30 ip -n mrcna link del pa1 || { echo "del pa1 hung"; return 1; }
	wait_for 5 test "$(plane_count mrc0)" -eq 1 &&
	plane_is mrc0 0 pa0 up && ib_exists mrc0
}
ktap_check "deleted_slave_released" slave_deleted

# ibv_rc_pingpong --chk between mrc1 (server, B) and mrc0 (client, A)
# with GID index GID on both; the client starts once the server listens.
rc_pingpong()	# GID
{
	local port=18515 spid status
	in_b timeout 120 ibv_rc_pingpong -d mrc1 -g "$1" -p $port -s 4096 \
		-n 50 -c >"$tmp/server" 2>&1 &
	spid=$!
	if wait_for 30 sh -c "ip netns exec mrcnb ss -Hltn 'sport = :$port' | grep -q ."; then
		in_a timeout 120 ibv_rc_pingpong -d mrc0 -g "$1" -p $port \
			-s 4096 -n 50 -c $MRC_HOST_B 2>&1 | tail -n 2
		status=${PIPESTATUS[0]}
	else
		echo "the server never listened"
		status=1
	fi
	[ "$status" -eq 0 ] || kill $spid 2>/dev/null
	wait $spid || status=1
	sed 's/^/server: /' "$tmp/server" | tail -n 2
	return "$status"
}

rc_over_bond()
{
	local gid
	gid=$(mrc_gid_index mrc0 192.0.2.1 5) || return 1
	[ "$gid" = "$(mrc_gid_index mrc1 192.0.2.2 5)" ] || return 1
	rc_pingpong "$gid"
}

if command -v ibv_rc_pingpong >/dev/null; then
	ktap_check "rc_pingpong_checked_over_bond" rc_over_bond
else
	ktap_skip "rc_pingpong_checked_over_bond" "needs ibverbs-utils"
fi

unload_with_bonds()
{
	timeout 60 rmmod mrc || { echo "rmmod failed"; return 1; }
	! mrc_module_loaded || return 1
	# Every reference went with the module: bond and slave go at once.
	timeout 30 ip -n mrcnb link del bond0 || { echo "del bond0 hung"; return 1; }
	timeout 30 ip -n mrcnb link del pb0 || { echo "del pb0 hung"; return 1; }
	# A bond with no slave: one empty plane, until a slave comes.
	mrc_load && in_a rdma link add mrc0 type mrc netdev bond0 &&
	wait_for 5 plane_is mrc0 0 - down || return 1
	ip link add pa2 netns mrcna type veth peer name pb2 netns mrcnb &&
	ip -n mrcnb link set pb2 up &&
	ip -n mrcna link set pa2 master bond0 && ip -n mrcna link set pa2 up &&
	wait_for 5 plane_is mrc0 0 pa2 up
}
if mrc_can_load; then
	ktap_check "module_unload_with_bonds" unload_with_bonds
else
	ktap_skip "module_unload_with_bonds" "unloads and reloads mrc: $MRC_NO_LOADER"
fi

bond_deleted()
{
	timeout 30 ip -n mrcna link del bond0 || { echo "del bond0 hung"; return 1; }
	wait_for 10 ib_gone mrc0 &&
	timeout 30 ip -n mrcna link del pa2 || { echo "del pa2 hung"; return 1; }
}
if mrc_can_load; then
	ktap_check "bond_deleted_device_removed" bond_deleted
else
	ktap_skip "bond_deleted_device_removed" "runs on module_unload_with_bonds' bond (skipped: $MRC_NO_LOADER)"
fi

rc_over_plain_netdev()
{
	remove_two_hosts
	make_two_hosts || return 1
	local before after
	[ "$(plane_count mrc0)" -eq 1 ] && plane_is mrc0 0 mrcva up || return 1
	# The QP's packets are sprayed on the one plane, the netdev itself.
	rc_pingpong 1 || return 1
	before=$(plane mrc0 0 | awk '{ print $3 }')
	send_ev 0 $MRC_HOST_A $MRC_HOST_B - 3 && "$MRCCTL" planes mrc0 || return 1
	after=$(plane mrc0 0 | awk '{ print $3 }')
	echo "plane 0 tx: $before after the pingpong, $after after 3 more"
	[ "${before:-0}" -gt 0 ] && [ "$after" -eq $((before + 3)) ] &&
		plane mrc0 0 | grep -q " 0$"
}
if command -v ibv_rc_pingpong >/dev/null; then
	ktap_check "one_plane_plain_netdev_rc_pingpong" rc_over_plain_netdev
else
	ktap_skip "one_plane_plain_netdev_rc_pingpong" "needs ibverbs-utils"
fi

remove_two_hosts
ktap_check "no_stale_link" sh -c '! rdma link show 2>/dev/null | grep -q "link mrc"'
ktap_finish
