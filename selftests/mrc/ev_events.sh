#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# EV events through the OCP controller API (lib_mrc's event CQ over the
# "mrc" family's "events" group; Documentation/controller.rst, mrc-api.rst)
# on a link cut. Two hosts, namespaces mrcna and mrcnb, each with bond0
# of two veth planes (pa0-pb0, pa1-pb1). A's controller programs an EV
# profile serving B (4 source ports on each of ports 1 and 2, every
# state's events wanted); an RC QP from A to B runs ibv_rc_pingpong over
# it. The controller, waiting on its completion channel's fd, cuts A's
# plane 1 (ip link set pa1 down): the 4 EVs of port 2 must be reported
# ASSUMED_BAD, none of another profile; it restores the plane: the same
# 4 must be reported GOOD once probes bring them back. The controller
# denies one of them, which must be reported DENIED, and allows it again:
# GOOD. The plane is cut once more and, with its 4 EVs ASSUMED_BAD, the
# traffic's client ends: no connection holds them bad any more, and they
# must be reported UNKNOWN (released). The latency from each command to
# the first such event is printed as "# ev-event latency N us". Joining
# the group without CAP_NET_ADMIN is EPERM.
# lab-timeout: 600
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
mrc_require_loaded
PROBE=$MRC_SELFTEST_DIR/mrc-ctl-probe
[ -x "$PROBE" ] || ktap_skip_all "no $PROBE: run make first"
if ldd "$PROBE" | grep -q "not found"; then
	ktap_skip_all "$PROBE cannot find its libraries: $(ldd "$PROBE" | grep 'not found' | tr -s ' \t' ' ')"
fi
MRCCTL=$(mrc_tool mrcctl) ||
	ktap_skip_all "needs mrcctl: the tree's tools/mrcctl (make) or an installed one (make install)"
command -v ibv_rc_pingpong >/dev/null ||
	ktap_skip_all "needs ibv_rc_pingpong (ibverbs-utils) for traffic"

tmp=$(mktemp -d)
in_a() { ip netns exec mrcna "$@"; }
in_b() { ip netns exec mrcnb "$@"; }

cleanup()
{
	[ -n "${cpid:-}" ] && kill "$cpid" 2>/dev/null
	[ -n "${spid:-}" ] && kill "$spid" 2>/dev/null
	wait 2>/dev/null
	remove_two_hosts
	mrc_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT
remove_two_hosts
mrc_cleanup

make_bond_host()	# NS P0 P1 V4
{
	ip -n "$1" link add bond0 type bond mode balance-xor miimon 100 &&
	ip -n "$1" link set "$2" master bond0 &&
	ip -n "$1" link set "$3" master bond0 &&
	ip -n "$1" link set bond0 up && ip -n "$1" link set lo up &&
	ip -n "$1" addr add "$4/24" dev bond0
}

make_bonded_hosts()
{
	ip netns add mrcna && ip netns add mrcnb &&
	ip link add pa0 netns mrcna type veth peer name pb0 netns mrcnb &&
	ip link add pa1 netns mrcna type veth peer name pb1 netns mrcnb &&
	make_bond_host mrcna pa0 pa1 $MRC_HOST_A &&
	make_bond_host mrcnb pb0 pb1 $MRC_HOST_B &&
	ip -n mrcna neigh replace $MRC_HOST_B dev bond0 nud permanent \
		lladdr "$(in_b cat /sys/class/net/bond0/address)" &&
	ip -n mrcnb neigh replace $MRC_HOST_A dev bond0 nud permanent \
		lladdr "$(in_a cat /sys/class/net/bond0/address)" &&
	in_a rdma link add mrc0 type mrc netdev bond0 &&
	in_b rdma link add mrc1 type mrc netdev bond0 &&
	mrc_select_preset mrc0 mrc1 &&
	wait_for 5 ib_has_gid mrc0 "ffff:c000:0201 RoCE v2" &&
	wait_for 5 ib_has_gid mrc1 "ffff:c000:0202 RoCE v2"
}

if ! make_bonded_hosts >"$tmp/setup" 2>&1; then
	sed 's/^/# /' "$tmp/setup"
	ktap_skip_all "cannot build two bonded hosts (bonding module?)"
fi

ktap_begin 5

ktap_check "ev_profile_for_the_peer_with_every_event" \
	in_a "$PROBE" mrc0 evprofile 9 $MRC_HOST_B 50000 50001 50002 50003

# ibv_rc_pingpong from A to B for as long as the cut takes; the QP is
# built at RTR from the profile above, which serves B.
start_traffic()
{
	local gid port=18515
	gid=$(mrc_gid_index mrc0 $MRC_HOST_A 5) || return 1
	in_b timeout 300 ibv_rc_pingpong -d mrc1 -g "$gid" -p $port \
		-s 1024 -n 10000000 >"$tmp/server" 2>&1 &
	spid=$!
	wait_for 30 sh -c "ip netns exec mrcnb ss -Hltn 'sport = :$port' | grep -q ." ||
		{ echo "# the server never listened"; return 1; }
	in_a timeout 300 ibv_rc_pingpong -d mrc0 -g "$gid" -p $port \
		-s 1024 -n 10000000 $MRC_HOST_B >"$tmp/client" 2>&1 &
	cpid=$!
	# Connected: the QP's paths are the profile's (PATH_GET names it).
	wait_for 30 sh -c "ip netns exec mrcna $MRCCTL paths mrc0 2>/dev/null | grep -q 'profile 9'" ||
		{ echo "# no connection over profile 9"; cat "$tmp/client"; return 1; }
}

cut_reported()
{
	start_traffic || return 1
	in_a "$PROBE" mrc0 cut 9 30 "ip link set pa1 down" \
		"ip link set pa1 up" 4 || return 1
	# The traffic rode through on plane 0.
	kill -0 "$cpid" 2>/dev/null ||
		{ echo "# the client stopped:"; tail -n 3 "$tmp/client"; return 1; }
}
ktap_check "link_cut_reported_assumed_bad_then_good" cut_reported

ktap_check "controller_deny_then_allow_reported" \
	in_a "$PROBE" mrc0 deny 9 30 50001

# The client's end destroys the only QP over profile 9 (found by name:
# ktap_check ran start_traffic in a subshell, so $cpid is not ours; the
# bracket keeps pkill's pattern from matching the shell that runs it).
connection_gone_released()
{
	pgrep -f "ibv_rc_pingpong -d mrc0" >/dev/null ||
		{ echo "# no traffic left"; return 1; }
	in_a "$PROBE" mrc0 release 9 30 "ip link set pa1 down" \
		"pkill -f 'ibv_rc_pingpon[g] -d mrc0'" 4
	local rc=$?
	in_a ip link set pa1 up
	return $rc
}
ktap_check "connection_gone_releases_its_bad_evs" connection_gone_released

ktap_check "join_without_cap_net_admin_eperm" in_a "$PROBE" mrc0 join
ktap_finish
