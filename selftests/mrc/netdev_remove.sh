#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Deleting the netdev under a live mrc device removes the device, releases
# the netdev, and tells a process using the device that it is gone.
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
mrc_require_loaded

ktap_begin 4
trap mrc_cleanup EXIT
mrc_cleanup

# `ip link del` itself waits for every netdev reference to go: a reference
# we failed to drop shows up as this timeout.
idle_device_removed()
{
	ip link add mrct0 type dummy && ip link set mrct0 up &&
	rdma link add mrc0 type mrc netdev mrct0 &&
	timeout 20 ip link del mrct0 &&
	wait_for 5 ib_gone mrc0
}
ktap_check "idle_device_removed_with_netdev" idle_device_removed

veth_peer_removed()
{
	make_veth mrct1 mrct1p &&
	rdma link add mrc1 type mrc netdev mrct1 &&
	timeout 20 ip link del mrct1p &&	# takes mrct1 with it
	wait_for 5 ib_gone mrc1
}
ktap_check "device_removed_with_veth_peer" veth_peer_removed

busy_device_removed()
{
	local out=/tmp/verbs-probe.$$ pid status
	[ -x "$VERBS_PROBE" ] || { echo "no $VERBS_PROBE"; return 1; }
	ip link add mrct2 type dummy && ip link set mrct2 up &&
	rdma link add mrc2 type mrc netdev mrct2 || return 1
	"$VERBS_PROBE" mrc2 hold 30 >"$out" 2>&1 &
	pid=$!
	wait_for 10 grep -q ready "$out" || { cat "$out"; return 1; }
	timeout 30 ip link del mrct2 || { echo "ip link del hung"; return 1; }
	wait "$pid"
	status=$?
	cat "$out"
	rm -f "$out"
	wait_for 5 ib_gone mrc2 && [ "$status" -eq 0 ]
}
ktap_check "device_in_use_removed_and_user_told" busy_device_removed

ktap_check "no_stale_link" sh -c '! rdma link show 2>/dev/null | grep -q "link mrc"'
ktap_finish
