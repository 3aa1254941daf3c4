#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Memory windows between two hosts: bytes written and read through a type
# 2 and a type 1 window land in (and come from) the window and nowhere
# else; an access outside the window, with the MR's own rkey, to a
# read-only window, or after LOCAL_INV, SEND_WITH_INV, dealloc or a
# zero-length type 1 bind fails with IBV_WC_REM_ACCESS_ERR and leaves the
# memory untouched; a bind of another PD's window, or to an MR without
# MW_BIND, completes with IBV_WC_MW_BIND_ERR; an MR with a bound window
# cannot be deregistered (EBUSY), and a process killed with windows
# bound, or whose device is removed, leaves nothing behind.
#
# make_two_hosts: mrcna: mrcva 192.0.2.1/24 mrc0; mrcnb: mrcvb .2 mrc1.
# mw-probe drives both devices from one process (shared rdma netns mode);
# each case runs on a new connection, as a refused access ends one.
# lab-timeout: 300
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
MW_PROBE=$MRC_SELFTEST_DIR/mw-probe
[ -x "$MW_PROBE" ] || ktap_skip_all "no $MW_PROBE: run make first"
mrc_require_loaded
GID=1
CASES=(type2-bytes type1-bytes outside-before outside-after mr-rkey
	read-only local-inv send-inv dealloc type1-unbind wrong-pd
	no-bind-right)

cleanup()
{
	remove_two_hosts
	mrc_cleanup
	return 0
}
trap cleanup EXIT
remove_two_hosts
# rdma_rxe would take the UDP port our devices use.
[ -d /sys/module/rdma_rxe ] && rmmod rdma_rxe 2>/dev/null
make_two_hosts || ktap_skip_all "cannot build the two hosts"

ktap_begin $((${#CASES[@]} + 3))
for c in "${CASES[@]}"; do
	ktap_check "${c//-/_}" timeout 120 "$MW_PROBE" mrc0 "$GID" mrc1 "$GID" "$c"
done

# The device says it has windows of both types.
caps_reported()
{
	local out
	out=$(ibv_devinfo -v -d mrc0) || return 1
	echo "$out" | grep -E "max_mw|MEM_WINDOW"
	echo "$out" | grep -qE "^\s+max_mw:\s+[1-9]" &&
	echo "$out" | grep -q "MEM_WINDOW_TYPE_2B" &&
	echo "$out" | grep -qw "MEM_WINDOW"
}
ktap_check "device_caps" caps_reported

# No process holds an MR or PD on an mrc device.
no_user_mrs()
{
	local res n held=0
	for res in mr pd; do
		n=$(rdma resource show "$res" 2>/dev/null |
			grep -E '(link|dev) mrc' | grep -c ' pid ')
		held=$((held + n))
	done
	[ "$held" -eq 0 ]
}

# A process killed with windows bound to its MR: ib_core's cleanup meets
# the MR's EBUSY first and frees it once the windows are gone, with
# nothing left over and no warning.
killed_with_bound_windows()
{
	local out=/tmp/mw-probe.$$ pid warns
	warns=$(dmesg | grep -c -E "WARNING|BUG:")
	"$MW_PROBE" mrc0 "$GID" mrc1 "$GID" hold >"$out" 2>&1 &
	pid=$!
	wait_for 60 grep -q ready "$out" || { cat "$out"; kill "$pid"; return 1; }
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	grep -E "bind|write" "$out"
	rm -f "$out"
	wait_for 10 no_user_mrs || { rdma resource show mr; return 1; }
	[ "$(dmesg | grep -c -E "WARNING|BUG:")" -eq "$warns" ] ||
		{ dmesg | tail -n 30; return 1; }
}
ktap_check "killed_with_bound_windows" killed_with_bound_windows

# The device goes away under a process with windows bound: ib_core
# destroys its objects (the same EBUSY and retry), without a hang or a
# warning. Last: it takes mrc1 away.
device_removed_with_bound_windows()
{
	local out=/tmp/mw-probe.$$ pid warns status=0
	warns=$(dmesg | grep -c -E "WARNING|BUG:")
	"$MW_PROBE" mrc0 "$GID" mrc1 "$GID" hold >"$out" 2>&1 &
	pid=$!
	wait_for 60 grep -q ready "$out" || { cat "$out"; kill "$pid"; return 1; }
	timeout 30 rdma link delete mrc1 || { echo "link delete failed or hung"; status=1; }
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	rm -f "$out"
	wait_for 10 no_user_mrs || { rdma resource show mr; status=1; }
	[ "$(dmesg | grep -c -E "WARNING|BUG:")" -eq "$warns" ] ||
		{ dmesg | tail -n 30; status=1; }
	return $status
}
ktap_check "device_removed_with_bound_windows" device_removed_with_bound_windows
ktap_finish
