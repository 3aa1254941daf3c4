#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The local transmit budget (Documentation/controller.rst, mrc_txq.h): a
# queue pair hands no more than the device's txq packets to the network
# stack while earlier ones still wait in this host's queues. Two hosts;
# mrc0's port is slowed by tbf so that a window's worth would queue there.
# The integrity test's WRITEs run from mrc0 (every byte checked) while
# debugfs `req` is sampled: with txq 4 no QP ever has more than 4 packets
# queued locally and it did wait for them; with no limit it queues far
# more, which shows that the budget is what held it, and the held run is
# not much slower (the port, not the wakeups, sets its pace). The wait
# from build to departure that the requester takes out of congestion
# control's RTT samples (mrc_departure.h, debugfs WAIT) follows the local
# queue. Then the module unloads with packets still in the slow qdisc
# when the QPs went away.
# lab-timeout: 420
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
MRCCTL=$(mrc_tool mrcctl) ||
	ktap_skip_all "needs mrcctl: the tree's tools/mrcctl (make) or an installed one (make install)"
INTEGRITY=$MRC_SELFTEST_DIR/integrity
REQ=/sys/kernel/debug/mrc/req
command -v tc >/dev/null || ktap_skip_all "needs tc (iproute2) and sch_tbf"
[ -x "$INTEGRITY" ] || ktap_skip_all "no $INTEGRITY: run make first"
mrc_require_loaded
[ -r "$REQ" ] || ktap_skip_all "no $REQ (debugfs not mounted?)"
modprobe sch_tbf 2>/dev/null

tmp=$(mktemp -d)
cleanup()
{
	[ -n "${sampler:-}" ] && kill "$sampler" 2>/dev/null
	wait 2>/dev/null
	remove_two_hosts
	mrc_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT

ktap_begin 9
remove_two_hosts
make_two_hosts || ktap_skip_all "cannot build the two hosts"
# 20 Mbit/s out of mrc0's port: a 1 KiB packet every 0.4 ms, while the
# emulated CPU builds them faster.
ip netns exec mrcna tc qdisc add dev mrcva root tbf rate 20mbit \
	burst 4096 latency 2s ||
	ktap_skip_all "cannot add tbf to mrcva (needs sch_tbf)"

ktap_check "txq_default_64" \
	sh -c "'$MRCCTL' dev mrc0 show | grep -q ' txq 64 '"

txq_range()
{
	local out
	if out=$("$MRCCTL" dev mrc0 set txq 16385 2>&1); then
		echo "txq 16385 was accepted"
		return 1
	fi
	echo "$out"
	echo "$out" | grep -q "out of range" &&
		"$MRCCTL" dev mrc0 show | grep -q ' txq 64 '
}
ktap_check "txq_over_16384_is_ERANGE_and_changes_nothing" txq_range

cc_rtt_setting()
{
	"$MRCCTL" dev mrc0 show | grep -q ' cc-rtt departure' || {
		echo "default is not departure"; return 1; }
	"$MRCCTL" dev mrc0 set cc-rtt build &&
		"$MRCCTL" dev mrc0 show | grep -q ' cc-rtt build' || return 1
	"$MRCCTL" dev mrc0 set cc-rtt sideways 2>/dev/null && {
		echo "cc-rtt sideways was accepted"; return 1; }
	"$MRCCTL" dev mrc0 set cc-rtt departure &&
		"$MRCCTL" dev mrc0 show | grep -q ' cc-rtt departure'
}
ktap_check "cc_rtt_departure_by_default_and_settable" cc_rtt_setting

# Samples mrc0's QPs in debugfs req (TXQ is field 10, THROTTLES 11, WAIT
# 12) into FILE every 20 ms until killed.
sample_req()	# FILE
{
	while :; do
		awk '$1 == "mrc0" { print $10, $11, $12 }' "$REQ" >>"$1"
		sleep 0.02
	done
}

# Integrity WRITEs from mrc0 with txq LIMIT (0: none); prints the most
# packets any of mrc0's QPs had queued locally and the throttles seen.
run_with_txq()	# LIMIT NAME
{
	local status
	"$MRCCTL" dev mrc0 set txq "$1" || return 1
	: >"$tmp/$2"
	sample_req "$tmp/$2" &
	sampler=$!
	"$INTEGRITY" -w -s "$RANDOM$RANDOM" -t 12 -n 200 -d 4 \
		mrc0 "$MRC_HOST_A" mrc1 "$MRC_HOST_B" | tee "$tmp/$2.out"
	status=${PIPESTATUS[0]}
	kill "$sampler"
	wait "$sampler" 2>/dev/null
	sampler=
	awk '{ if ($1 > q) q = $1; if ($2 > t) t = $2 }
	     END { printf "txq %s: %d samples, most queued %d, throttles %d\n", "'"$1"'", NR, q, t }' "$tmp/$2"
	return "$status"
}

held()
{
	run_with_txq 4 held || return 1
	awk 'END { exit !(NR > 0) }' "$tmp/held" || { echo "no samples"; return 1; }
	awk '{ if ($1 > q) q = $1; if ($2 > t) t = $2 }
	     END { exit !(q <= 4 && t > 0) }' "$tmp/held"
}
ktap_check "txq_4_holds_local_queue_to_4_bytes_intact" held

unbounded()
{
	run_with_txq 0 unbounded || return 1
	awk '{ if ($1 > q) q = $1 } END { exit !(q > 16) }' "$tmp/unbounded"
}
ktap_check "no_limit_queues_more_than_16_bytes_intact" unbounded

# Bytes checked per second of a run's integrity output.
run_rate()	# NAME
{
	sed -n 's/.*bytes checked \([0-9]*\), corrupted [0-9]*, \([0-9.]*\) s.*/\1 \2/p' \
		"$tmp/$1.out" | awk '{ if ($2 > 0) printf "%.0f", $1 / $2 }'
}

# A budget that lost its wakeups would leave the QP waiting for ACKs
# instead of for the port: both runs are bound by the same tbf, so the
# held one must not be far slower (a first version ran at 0.1 of it).
held_keeps_rate()
{
	local held unb
	held=$(run_rate held)
	unb=$(run_rate unbounded)
	echo "bytes/s: txq 4 ${held:-?}, no limit ${unb:-?}"
	[ -n "$held" ] && [ -n "$unb" ] &&
		awk -v h="$held" -v u="$unb" 'BEGIN { printf "ratio %.2f (want >= 0.5)\n", h / u; exit !(h >= 0.5 * u) }'
}
ktap_check "txq_4_rate_at_least_half_of_no_limit" held_keeps_rate

# Median of the smoothed local wait (us) over a run's samples with one.
median_wait()	# NAME
{
	awk '$3 > 0 { print $3 }' "$tmp/$1" | sort -n |
		awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}

# More than 16 packets of 1 KiB queued at 20 Mbit/s wait over 6 ms before
# they leave; 4 wait at most 1.6 ms. A destructor that recorded nothing
# (or the wrong PSN) leaves WAIT at 0.
local_wait_follows_queue()
{
	local held unb
	held=$(median_wait held)
	unb=$(median_wait unbounded)
	echo "median local wait (us): txq 4 ${held:-none}, no limit ${unb:-none}"
	[ -n "$unb" ] && [ "$unb" -ge 2000 ] &&
		[ "${held:-0}" -lt $((unb / 2)) ]
}
ktap_check "local_wait_measured_and_follows_local_queue" \
	local_wait_follows_queue

# Packets of a QP still queued in tbf when the QP and its device go: the
# skb destructor must still find its budget, and unload must wait for it.
unload_while_queued()
{
	ip netns exec mrcna tc qdisc change dev mrcva root tbf rate 1mbit \
		burst 4096 latency 10s || return 1
	"$MRCCTL" dev mrc0 set txq 0 || return 1
	timeout -s KILL 4 "$INTEGRITY" -w -s 1 -t 30 -n 100 -d 4 \
		mrc0 "$MRC_HOST_A" mrc1 "$MRC_HOST_B" >/dev/null 2>&1
	local queued
	queued=$(ip netns exec mrcna tc -s qdisc show dev mrcva |
		 awk '/backlog/ { print $3; exit }')
	echo "tbf backlog when the QPs' owner died: ${queued:-?}"
	remove_two_hosts
	mrc_cleanup
	mrc_unload && ! mrc_module_loaded
}
if mrc_can_load; then
	ktap_check "module_unloads_after_qps_die_with_packets_queued" \
		unload_while_queued
	ktap_check "module_loads_again" mrc_load
else
	ktap_skip "module_unloads_after_qps_die_with_packets_queued" \
		"unloads and reloads mrc: $MRC_NO_LOADER"
	ktap_skip "module_loads_again" "unloads and reloads mrc: $MRC_NO_LOADER"
fi
ktap_finish
