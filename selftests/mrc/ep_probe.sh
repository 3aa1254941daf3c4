#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Connectionless EV probes (MRC_CTL_CMD_EP_PROBE through lib_mrc's
# mrc_ctl_ep_batch_send_wait; Documentation/controller.rst): two hosts,
# each an mrc device on a bond of two planes joined plane by plane (as in
# planes.sh). A probe over every EV of a profile (both ports, four source
# ports each) to the peer is answered by the peer's device on the same
# port, RTT > 0, printed beside ping's for the same pair; a probe to an
# unknown peer, and one over a dead plane, go unanswered and the call
# returns at its timeout; bad requests are refused (EINVAL, EOPNOTSUPP,
# EPERM); a peer answers at most a burst of 1024 and then its rate
# (ep_replies_limited); removing the device wakes a waiting caller (ENODEV).
# Port status updates (MRC_CTL_EP_OP_PORT_STATUS_UPDATE, EP_PORT_STATUS):
# while the integrity test runs an RC QP from B to A, A tells B "port 2
# down": B's EVs to A over plane 1 go ASSUMED_BAD and carry nothing, the
# traffic goes on over plane 0, and "all up" brings them back; the same
# status from another address of A's host does not touch B's paths to A;
# bad updates are refused (EINVAL, EPERM).
# lab-timeout: 600
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
PROBE=$MRC_SELFTEST_DIR/mrc-ctl-probe
[ -x "$PROBE" ] || ktap_skip_all "no $PROBE: run make first"
INTEGRITY=$MRC_SELFTEST_DIR/integrity
[ -x "$INTEGRITY" ] || ktap_skip_all "no $INTEGRITY: run make first"
if ldd "$PROBE" | grep -q "not found"; then
	ktap_skip_all "$PROBE cannot find its libraries: $(ldd "$PROBE" | grep 'not found' | tr -s ' \t' ' ')"
fi
MRCCTL=$(mrc_tool mrcctl) ||
	ktap_skip_all "needs mrcctl: the tree's tools/mrcctl (make) or an installed one (make install)"
mrc_require_loaded
A=$MRC_HOST_A
B=$MRC_HOST_B
tmp=$(mktemp -d)

in_a() { ip netns exec mrcna "$@"; }
in_b() { ip netns exec mrcnb "$@"; }

cleanup()
{
	[ -n "${INT_PID:-}" ] && kill "$INT_PID" 2>/dev/null
	remove_two_hosts
	mrc_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT
cleanup
mkdir -p "$tmp"

make_bond_host()	# NS P0 P1 V4
{
	local ns=$1
	ip -n "$ns" link add bond0 type bond mode balance-xor miimon 100 &&
	ip -n "$ns" link set "$2" master bond0 &&
	ip -n "$ns" link set "$3" master bond0 &&
	ip -n "$ns" link set bond0 up && ip -n "$ns" link set lo up &&
	ip -n "$ns" addr add "$4/24" dev bond0
}

make_bonded_hosts()
{
	ip netns add mrcna && ip netns add mrcnb &&
	ip link add pa0 netns mrcna type veth peer name pb0 netns mrcnb &&
	ip link add pa1 netns mrcna type veth peer name pb1 netns mrcnb &&
	make_bond_host mrcna pa0 pa1 $A &&
	make_bond_host mrcnb pb0 pb1 $B || return 1
	# Permanent neighbours, as the fabric has for its gateway.
	ip -n mrcna neigh replace $B dev bond0 nud permanent \
		lladdr "$(in_b cat /sys/class/net/bond0/address)" &&
	ip -n mrcnb neigh replace $A dev bond0 nud permanent \
		lladdr "$(in_a cat /sys/class/net/bond0/address)" &&
	in_a rdma link add mrc0 type mrc netdev bond0 &&
	in_b rdma link add mrc1 type mrc netdev bond0 &&
	mrc_select_preset mrc0 mrc1 &&
	wait_for 5 ib_has_gid mrc0 "ffff:c000:0201 RoCE v2" &&
	wait_for 5 ib_has_gid mrc1 "ffff:c000:0202 RoCE v2"
}

counter()	# IBDEV NAME
{
	mrc_counters "$1" "$2" | cut -d' ' -f2
}

ktap_begin 14

if ! make_bonded_hosts >"$tmp/setup" 2>&1; then
	sed 's/^/# /' "$tmp/setup"
	ktap_skip_all "cannot build two bonded hosts (bonding module?)"
fi

# The profile's EVs: ports 1 and 2 (planes 0 and 1), four source ports each.
EVS="1:49152 1:49153 1:49154 1:49155 2:49152 2:49153 2:49154 2:49155"

every_ev_answered()
{
	local out n rtts="" ping_ms replies0 replies1
	replies0=$(counter mrc1 ep_replies_sent)
	# shellcheck disable=SC2086
	out=$("$PROBE" mrc0 probe $A $B 1000000000 $EVS) ||
		{ echo "$out" | sed 's/^/# /'; return 1; }
	echo "$out" | sed 's/^/# /'
	echo "$out" | grep -q "^answered 8 of 8 " ||
		{ echo "# not every EV answered"; return 1; }
	# Each request once, on the port it was sent on, with an RTT.
	for ((n = 1; n <= 8; n++)); do
		local line port want rtt
		line=$(echo "$out" | grep "^rsp req $n ") ||
			{ echo "# no answer to request $n"; return 1; }
		port=$(echo "$line" | awk '{print $5}')
		rtt=$(echo "$line" | awk '{print $7}')
		want=$(( n <= 4 ? 1 : 2 ))
		[ "$port" -eq "$want" ] ||
			{ echo "# request $n came back on port $port, not $want"; return 1; }
		[ "$rtt" -gt 0 ] || { echo "# request $n: RTT $rtt"; return 1; }
		rtts+="$rtt "
	done
	replies1=$(counter mrc1 ep_replies_sent)
	[ $((replies1 - replies0)) -ge 8 ] ||
		{ echo "# mrc1 answered $((replies1 - replies0)) probes"; return 1; }
	ping_ms=$(in_a ping -c 5 -i 0.2 -q $B | awk -F/ '/^rtt/ {print $5}')
	# The median of the eight, beside ping's average over five.
	echo "# probe rtt $(echo $rtts | tr ' ' '\n' | sort -n | sed -n 4p | awk '{printf "%d", $1 / 1000}') us, ping $(awk -v m="$ping_ms" 'BEGIN {printf "%d", m * 1000}') us"
}
ktap_check "probe_over_every_ev_answered_beside_ping" every_ev_answered

unknown_peer_unanswered()
{
	local out us
	out=$("$PROBE" mrc0 probe $A 192.0.2.99 300000000 1:49152 2:49153) ||
		{ echo "$out" | sed 's/^/# /'; return 1; }
	echo "$out" | sed 's/^/# /'
	echo "$out" | grep -q "^answered 0 of 2 " || return 1
	# Not answered: the call waited its timeout (300 ms), not much more.
	us=$(echo "$out" | awk '/^answered/ {print $6}')
	[ "$us" -ge 300000 ] && [ "$us" -lt 3000000 ] ||
		{ echo "# waited $us us for a 300 ms timeout"; return 1; }
}
ktap_check "probe_to_unknown_peer_unanswered_within_its_timeout" unknown_peer_unanswered

dead_plane_unanswered()
{
	local out rc=0
	# B's slave of plane 1 down: A's plane 1 loses its carrier.
	ip -n mrcnb link set pb1 down || return 1
	wait_for 5 sh -c "ip -n mrcna link show pa1 | grep -q NO-CARRIER" || rc=1
	out=$("$PROBE" mrc0 probe $A $B 300000000 1:49152 2:49152) || rc=1
	echo "$out" | sed 's/^/# /'
	echo "$out" | grep -q "^answered 1 of 2 " || rc=1
	echo "$out" | grep -q "^rsp req 1 port 1 " || rc=1
	ip -n mrcnb link set pb1 up
	wait_for 5 sh -c "ip -n mrcna link show pa1 | grep -qv NO-CARRIER"
	return $rc
}
ktap_check "probe_over_a_dead_plane_unanswered" dead_plane_unanswered

ktap_check "bad_probes_refused" "$PROBE" mrc0 probe-refused $A $B
ktap_check "probe_without_cap_net_admin_eperm" "$PROBE" mrc0 unprivileged

# The peer's answer rate down to 20 a second, then three batches of 512
# back to back (mrcctl: planes count from 0): the first two are the
# peer's burst of 1024, the third finds its credit spent. A slower kernel
# (MRC_TEST_TIMEOUT_SCALE) gets longer waits, up to the kernel's 10 s, and
# a rate cut as much, so that the waits do not refill the credit.
RATE=/sys/module/mrc/parameters/ep_reply_rate
RATE_LIMITED_WAIT_MS=$((500 * MRC_TIME_SCALE > 10000 ? 10000 : 500 * MRC_TIME_SCALE))
RATE_LIMITED_RATE=$((20 / MRC_TIME_SCALE > 0 ? 20 / MRC_TIME_SCALE : 1))
rate_limited()
{
	local evs="" i out total=0 limited0 limited1 n rate rc=0
	rate=$(cat $RATE) || return 1
	for ((i = 0; i < 512; i++)); do
		evs+=" $((i % 2)):$((49152 + i))"
	done
	limited0=$(counter mrc1 ep_replies_limited)
	echo $RATE_LIMITED_RATE >$RATE || return 1
	for i in 1 2 3; do
		# shellcheck disable=SC2086
		out=$("$MRCCTL" probe mrc0 $A $B timeout ${RATE_LIMITED_WAIT_MS}ms $evs 2>&1) ||
			{ echo "$out" | tail -3 | sed 's/^/# /'; rc=1; break; }
		n=$(echo "$out" | awk '/^answered/ {print $2}')
		echo "# batch $i: $(echo "$out" | grep '^answered')"
		total=$((total + n))
	done
	echo "$rate" >$RATE
	limited1=$(counter mrc1 ep_replies_limited)
	echo "# answered $total of 1536, mrc1 ep_replies_limited +$((limited1 - limited0))"
	[ $rc -eq 0 ] && [ "$total" -ge 1024 ] && [ "$total" -lt 1536 ] &&
		[ $((limited1 - limited0)) -gt 0 ]
}
ktap_check "answers_rate_limited" rate_limited

# Port status updates. B's EVs (its QPs' paths, all to A), one line each:
# PLANE STATE SENT.
b_evs()
{
	mrc_ev_table mrc1 |
		awk "$MRC_EV_FIELDS"'{ print f["plane"], f["state"], f["sent"] }'
}

b_count()	# PLANE STATE
{
	b_evs | awk -v p="$1" -v s="$2" '$1 == p && $2 == s { n++ }
		END { print n + 0 }'
}

b_sent()	# PLANE: packets B's EVs over it sent
{
	b_evs | awk -v p="$1" '$1 == p { n += $3 } END { print n + 0 }'
}

b_plane_down()	# PLANE: it has EVs, all ASSUMED_BAD
{
	local total
	total=$(b_evs | awk -v p="$1" '$1 == p' | wc -l)
	[ "$total" -gt 0 ] && [ "$(b_count "$1" ASSUMED_BAD)" -eq "$total" ]
}

b_plane_usable()	# PLANE: one of its EVs at least GOOD or UNKNOWN
{
	[ $(($(b_count "$1" GOOD) + $(b_count "$1" UNKNOWN))) -gt 0 ]
}

b_summary()
{
	echo "# B's EVs: plane 0 $(b_count 0 ASSUMED_BAD) bad, sent $(b_sent 0); plane 1 $(b_count 1 ASSUMED_BAD) bad, sent $(b_sent 1)"
}

# One port status update from SRC to B over PORT:SPORT, answered on port
# ANSWER_PORT (B answers on the request's port unless the status says it
# is down).
status_answered()	# SRC STATUS PORT:SPORT ANSWER_PORT
{
	local out
	out=$("$PROBE" mrc0 port-status "$1" $B 1000000000 "$2" "$3") ||
		{ echo "$out" | sed 's/^/# /'; return 1; }
	echo "$out" | sed 's/^/# /'
	echo "$out" | grep -q "^answered 1 of 1 " &&
		echo "$out" | grep -q "^rsp req 1 port $4 "
}

# The integrity test from B (requester, mrc1) to A (mrc0), WRITEs and
# SENDs only, so that every data packet goes B to A; connected, then
# holding its first transfer until $tmp/go. Started here, not in a check
# (a subshell), so that its exit status can be waited for.
A3=192.0.2.3
"$INTEGRITY" -w -n 100000 -t $((120 * MRC_TIME_SCALE)) -d 4 -W "$tmp/go" -S "$tmp/stop" \
	mrc1 $B mrc0 $A >"$tmp/int" 2>&1 &
INT_PID=$!
status_setup()
{
	wait_for $((30 * MRC_TIME_SCALE)) grep -q "^# connected" "$tmp/int" ||
		{ sed 's/^/# /' "$tmp/int"; return 1; }
	# A second address of A's host: a GID of mrc0, a peer B has no QP to.
	in_a ip addr add $A3/24 dev bond0 &&
	ip -n mrcnb neigh replace $A3 dev bond0 nud permanent \
		lladdr "$(in_a cat /sys/class/net/bond0/address)" &&
	wait_for 5 ib_has_gid mrc0 "ffff:c000:0203 RoCE v2" || return 1
	b_summary
	! b_plane_down 0 && ! b_plane_down 1
}
ktap_check "port_status_setup_b_to_a_connected" status_setup

other_address_spares()
{
	local rc=0
	status_answered $A3 0x2 1:49152 1 || rc=1
	# Applied (if at all) by the time the answer left; give the work a
	# moment anyway.
	sleep "$MRC_TIME_SCALE"
	b_summary
	[ "$(b_count 1 ASSUMED_BAD)" -eq 0 ] ||
		{ echo "# a status from $A3 took B's paths to $A down"; rc=1; }
	status_answered $A3 0x6 1:49152 1 || rc=1
	return $rc
}
ktap_check "port_status_from_another_address_spares_paths_to_a" other_address_spares

status_down()
{
	local rc=0
	# Sent over port 2 itself: B answers on port 1.
	status_answered $A 0x2 2:49152 1 || rc=1
	wait_for $((5 * MRC_TIME_SCALE)) b_plane_down 1 ||
		{ echo "# B's EVs over plane 1 not all ASSUMED_BAD"; rc=1; }
	b_summary
	[ "$(b_count 0 ASSUMED_BAD)" -eq 0 ] || rc=1
	return $rc
}
ktap_check "port_2_down_retires_b_paths_over_plane_1" status_down

traffic_avoids()
{
	local s0 s1 p0
	s0=$(b_sent 1)
	touch "$tmp/go"
	sleep 4
	s1=$(b_sent 1)
	p0=$(b_sent 0)
	b_summary
	echo "# B sent $((s1 - s0)) packets over plane 1 in 4 s of traffic, $p0 over plane 0"
	[ "$s1" -eq "$s0" ] && [ "$p0" -gt 0 ] && kill -0 "$INT_PID"
}
ktap_check "traffic_b_to_a_leaves_plane_1" traffic_avoids

status_up()
{
	local rc=0 s0 s1
	status_answered $A 0x6 2:49152 2 || rc=1
	wait_for $((10 * MRC_TIME_SCALE)) b_plane_usable 1 ||
		{ echo "# B's EVs over plane 1 not back"; rc=1; }
	s0=$(b_sent 1)
	sleep 2
	s1=$(b_sent 1)
	b_summary
	echo "# B sent $((s1 - s0)) packets over plane 1 in 2 s after all up"
	[ "$s1" -gt "$s0" ] || rc=1
	return $rc
}
ktap_check "all_up_restores_plane_1" status_up

touch "$tmp/stop"
wait "$INT_PID"
INT_RC=$?
INT_PID=
in_a ip addr del $A3/24 dev bond0
traffic_intact()
{
	tail -4 "$tmp/int" | sed 's/^/# /'
	echo "# integrity exit status $INT_RC"
	[ "$INT_RC" -eq 0 ]
}
ktap_check "traffic_b_to_a_every_byte_checked" traffic_intact

ktap_check "bad_port_status_refused" "$PROBE" mrc0 port-status-refused $A $B

# Through mrcctl, which opens no verbs context of the device: only the
# probe's own wait is under test here, not a context's disassociation.
# ENODEV shows the removal woke it before its 8 s ran out; the time bound
# (scaled for a slow kernel), that it did so soon after the delete began.
probes_sent_beyond()	# COUNT
{
	[ "$(counter mrc0 ep_probes_sent)" -gt "$1" ]
}

removal_wakes_waiter()
{
	local pid rc t0 t1 sent0
	sent0=$(counter mrc0 ep_probes_sent) || return 1
	"$MRCCTL" probe mrc0 $A 192.0.2.99 timeout 8s 0:49152 >"$tmp/waiter" 2>&1 &
	pid=$!
	# The probe is out, so its caller waits: the ENODEV below is the
	# removal's wake, not a lookup that came after the device went.
	wait_for "$(mrc_scaled 4)" probes_sent_beyond "$sent0" ||
		{ echo "# the probe never left"; kill $pid; return 1; }
	t0=$(date +%s%N)
	in_a rdma link delete mrc0 || { kill $pid; return 1; }
	wait $pid
	rc=$?
	t1=$(date +%s%N)
	sed 's/^/# /' "$tmp/waiter"
	echo "# the waiter returned $(((t1 - t0) / 1000000)) ms after the delete began"
	[ $rc -ne 0 ] && grep -q "No such device" "$tmp/waiter" &&
		[ $(((t1 - t0) / 1000000)) -lt $((6000 * MRC_TIME_SCALE)) ] &&
		wait_for "$(mrc_scaled 10)" ib_gone mrc0
}
ktap_check "device_removal_wakes_a_waiting_prober_enodev" removal_wakes_waiter

ktap_finish
