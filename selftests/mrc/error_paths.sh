#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Verbs error paths between two hosts, each with its exact status: bad and
# out-of-bounds remote keys and addresses (B's memory untouched), a foreign
# lkey, posting in the wrong state, flushes of outstanding work, destroys
# with work outstanding; then processes killed mid-transfer and module
# unload under a live user context, with no user resource left in
# `rdma resource`.
#
# make_two_hosts: mrcna: mrcva 192.0.2.1/24 mrc0; mrcnb: mrcvb .2 mrc1.
# err-probe drives both devices from one process (shared rdma netns mode).
# lab-timeout: 400
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
ERR_PROBE=$MRC_SELFTEST_DIR/err-probe
[ -x "$ERR_PROBE" ] || ktap_skip_all "no $ERR_PROBE: run make first"
mrc_require_loaded
GID=1
tmp=$(mktemp -d)
holder=

cleanup()
{
	[ -z "$holder" ] || kill "$holder" 2>/dev/null
	remove_two_hosts
	mrc_cleanup
	mrc_load
	rm -rf "$tmp"
	return 0
}
trap cleanup EXIT
remove_two_hosts
# rdma_rxe would take the UDP port our devices use.
[ -d /sys/module/rdma_rxe ] && rmmod rdma_rxe 2>/dev/null
make_two_hosts || ktap_skip_all "cannot build the two hosts"

probe() { "$ERR_PROBE" mrc0 "$GID" mrc1 "$GID" "$@"; }

# No process holds anything on an mrc device any more. Kernel users stay:
# every device has ib_mad's GSI QP, its PD and CQ, which `rdma resource`
# lists with the kernel's "comm [ib_...]" and no pid.
resources_zero_quiet()
{
	local res held=0 n
	for res in ctx pd cq qp mr srq cm_id; do
		n=$(rdma resource show "$res" 2>/dev/null |
			grep -E '(link|dev) mrc' | grep -c ' pid ')
		held=$((held + n))
	done
	[ "$held" -eq 0 ]
}

# The same, within SECONDS of wall time, showing the counts at the end.
resources_zero()	# [SECONDS]
{
	local start=$SECONDS status
	until resources_zero_quiet; do
		[ $((SECONDS - start)) -lt "${1:-0}" ] || break
		sleep 0.2
	done
	resources_zero_quiet
	status=$?
	rdma resource show | grep -E '^[0-9]+: mrc'
	rdma resource show qp 2>/dev/null | grep -E 'link mrc' | grep ' pid '
	echo "after $((SECONDS - start)) s"
	return $status
}

ktap_begin 13

ktap_check "bad_rkey_is_remote_access_error" probe bad-rkey
ktap_check "out_of_bounds_address_is_remote_access_error" probe out-of-bounds
ktap_check "lkey_of_other_pd_is_local_protection_error" probe foreign-lkey
ktap_check "post_in_reset_init_rtr_is_einval" probe wrong-state
ktap_check "err_flushes_every_outstanding_wr" probe flush-on-err
ktap_check "destroy_with_work_outstanding" probe destroy-busy
ktap_check "traffic_after_the_errors" probe traffic
ktap_check "resources_released_after_errors" resources_zero 10

# A process writing without pause is killed: the kernel releases all it had
# (its QP had requests in flight), and new QPs work.
killed_probe()
{
	local pid
	# Started directly: $! must be the probe, not a subshell around it.
	"$ERR_PROBE" mrc0 "$GID" mrc1 "$GID" stream 120 >"$tmp/stream" 2>&1 &
	pid=$!
	if ! wait_for 60 grep -q ready "$tmp/stream"; then
		cat "$tmp/stream"
		kill "$pid"
		return 1
	fi
	sleep 2
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	resources_zero 10 && probe traffic
}
ktap_check "killed_writer_cleaned_up" killed_probe

server_listens()	# PORT
{
	ip netns exec mrcnb ss -Hltn "sport = :$1" | grep -q .
}

# ib_write_bw's client is killed mid-run: its server (the peer) ends
# rather than hanging (perftest's server of a write test only waits for the
# end over TCP: it may end with its figures, status 0), and every resource
# goes.
killed_perftest()
{
	local server status
	command -v ib_write_bw >/dev/null || { echo "no perftest"; return 4; }
	ip netns exec mrcnb timeout 120 ib_write_bw -d mrc1 -x "$GID" \
		-p 18600 -D 30 -s 65536 >"$tmp/server" 2>&1 &
	server=$!
	wait_for 20 server_listens 18600 || echo "the server never listened"
	# timeout's own SIGKILL reaches the client itself (killing timeout
	# would leave its child running).
	ip netns exec mrcna timeout -s KILL 10 ib_write_bw -d mrc0 -x "$GID" \
		-p 18600 -D 30 -s 65536 "$MRC_HOST_B" >"$tmp/client" 2>&1
	echo "client exit $? (137: killed)"
	wait "$server"
	status=$?
	tail -n 3 "$tmp/server" | sed 's/^/server: /'
	echo "server exit $status"
	[ "$status" -ne 124 ] || { echo "the server hung"; return 1; }
	resources_zero 10
}
out=$(killed_perftest 2>&1)
case $? in
0) ktap_pass "killed_ib_write_bw_cleaned_up" ;;
4) ktap_skip "killed_ib_write_bw_cleaned_up" "needs perftest" ;;
*) printf '%s\n' "$out" | sed 's/^/# /'
   ktap_fail "killed_ib_write_bw_cleaned_up" ;;
esac

unload_after_killed_processes()
{
	remove_two_hosts
	rmmod mrc && mrc_load
}
if mrc_can_load; then
	ktap_check "unload_after_killed_processes" unload_after_killed_processes
else
	ktap_skip "unload_after_killed_processes" "unloads and reloads mrc: $MRC_NO_LOADER"
	remove_two_hosts
fi

# A process holds a context (PD, CQ, QP, MR, mapped rings) while mrc is
# unloaded: either rmmod refuses while it is in use, or ib_core
# disassociates the context (the process sees IBV_EVENT_DEVICE_FATAL and
# its destroys still succeed). Either way the module goes once the process
# is gone, and nothing is left behind (mrc-vm fails on any splat).
unload_with_live_context()
{
	local status out
	ip link add mrcvh type dummy && ip link set mrcvh up &&
	rdma link add mrc2 type mrc netdev mrcvh || return 1
	"$ERR_PROBE" mrc2 hold >"$tmp/hold" 2>&1 &
	holder=$!
	wait_for 20 grep -q ready "$tmp/hold" || { cat "$tmp/hold"; return 1; }
	rdma resource show | grep mrc2
	if out=$(timeout 60 rmmod mrc 2>&1); then
		echo "rmmod succeeded: ib_core disassociated the context"
		wait "$holder"
		status=$?
		holder=
		cat "$tmp/hold"
		grep -q "async event: local catastrophic error" "$tmp/hold" &&
			[ "$status" -eq 0 ] || return 1
	else
		echo "rmmod refused: $out"
		grep -qi "in use\|busy" <<<"$out" || return 1
		mrc_module_loaded || return 1
		kill "$holder"
		wait "$holder"
		holder=
		cat "$tmp/hold"
		rmmod mrc || return 1
	fi
	! mrc_module_loaded && ib_gone mrc2
}
# Whatever happened, the later cases want the module and no dummy netdev.
unload_with_live_context_then_reload()
{
	local status
	unload_with_live_context
	status=$?
	ip link del mrcvh 2>/dev/null
	mrc_load
	return $status
}
if mrc_can_load; then
	ktap_check "unload_with_live_user_context" unload_with_live_context_then_reload
else
	ktap_skip "unload_with_live_user_context" "unloads and reloads mrc: $MRC_NO_LOADER"
fi

fresh_hosts_work()
{
	make_two_hosts && probe traffic && resources_zero
}
ktap_check "fresh_devices_work_after_reload" fresh_hosts_work
ktap_finish
