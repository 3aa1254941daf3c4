#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Removing devices while they carry traffic of every kind of request (RDMA
# WRITE, SEND and READ, several QPs each, both ways): first by deleting
# their netdevs, then by unloading the module. Each removal must finish
# promptly, leave no process stuck in the kernel and no stale device, and
# the module must load again and move data checked byte for byte. On the
# debug lab kernel (scripts/mrc-vm --debug-kernel) the VM's verdict adds
# that no lockdep, KASAN, UBSAN, kmemleak or sleep-in-atomic report came.
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
mrc_require_reload
for tool in ib_write_bw ib_send_bw ib_read_bw ibv_rc_pingpong ss; do
	command -v $tool >/dev/null ||
		ktap_skip_all "needs $tool (perftest, ibverbs-utils, iproute2)"
done

GID=1
# perftest runs for this long (-D) unless its device goes first: longer
# than any case waits, so that every client is still sending when its
# device is removed.
LOAD_SECONDS=$(mrc_scaled 120)
# How long the traffic runs before the removal, and how long a removal and
# the processes' exits may take.
WARMUP_SECONDS=$(mrc_scaled 5)
REMOVAL_LIMIT=$(mrc_scaled 60)
tmp=$(mktemp -d)
# The load's pids, one a line: each case runs in a subshell of its own.
PIDS=$tmp/pids

cleanup()
{
	local pid
	for pid in $(cat "$PIDS" 2>/dev/null); do
		kill "$pid" 2>/dev/null
	done
	remove_two_hosts
	rm -rf "$tmp"
	mrc_load >/dev/null 2>&1
	return 0
}
trap cleanup EXIT

ktap_begin 7
remove_two_hosts
mrc_load || ktap_skip_all "mrc did not load ($(mrc_loader)); see dmesg"

# TOOL PORT ARGS: a perftest server in B and its client in A, in the
# background (their output to files, so that the case's own output ends);
# their pids go to $PIDS.
start_pair()	# TOOL PORT ARGS...
{
	local tool=$1 port=$2
	shift 2
	ip netns exec mrcnb "$tool" -d mrc1 -x $GID -p "$port" -D "$LOAD_SECONDS" \
		"$@" >"$tmp/$tool-server" 2>&1 </dev/null &
	echo $! >>"$PIDS"
	wait_for 30 tcp_listening_in_b "$port" || {
		echo "$tool: the server never listened"
		return 1
	}
	ip netns exec mrcna "$tool" -d mrc0 -x $GID -p "$port" -D "$LOAD_SECONDS" \
		"$@" "$MRC_HOST_B" >"$tmp/$tool-client" 2>&1 </dev/null &
	echo $! >>"$PIDS"
}

tx_packets()	# IBDEV
{
	mrc_counters "$1" tx_packets | awk '{ print $2 }'
}

# Both devices' packet counts grow by thousands within the warm-up: every
# client is connected and sending.
traffic_flows()
{
	local a0 b0 a1 b1
	a0=$(tx_packets mrc0) && b0=$(tx_packets mrc1) || return 1
	sleep "$WARMUP_SECONDS"
	a1=$(tx_packets mrc0) && b1=$(tx_packets mrc1) || return 1
	echo "# tx packets in ${WARMUP_SECONDS} s: mrc0 +$((a1 - a0)), mrc1 +$((b1 - b0))"
	[ $((a1 - a0)) -ge 1000 ] && [ $((b1 - b0)) -ge 1000 ]
}

start_load()
{
	: >"$PIDS"
	make_two_hosts || { echo "cannot build the two hosts"; return 1; }
	start_pair ib_write_bw 18601 -q 4 -s 65536 --report_gbits &&
		start_pair ib_send_bw 18602 -q 2 -s 4096 --report_gbits &&
		start_pair ib_read_bw 18603 -q 2 -s 65536 -o 4 --report_gbits &&
		traffic_flows || {
		tail -n 3 "$tmp"/*-client "$tmp"/*-server 2>/dev/null | sed 's/^/# /'
		return 1
	}
}

# A process of the load that has not ended: an orphan's zombie counts as
# ended (the VM's init may reap late).
running()	# PID
{
	local stat
	stat=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${stat:0:1}" != Z ]
}

# The load's processes after a removal: perftest does not listen for the
# device's fatal event and may spin on its gone queues until its run ends,
# as it would on a NIC, so what is checked is the kernel's side: every one
# dies on SIGKILL within the limit. One that cannot is stuck in the kernel
# (uninterruptible sleep on a device that is gone, a lost reference).
load_dies()
{
	local pid deadline states=""
	for pid in $(cat "$PIDS"); do
		running "$pid" && states+=" $(ps -o stat=,comm= -p "$pid" | tr -s ' ' :)"
	done
	echo "# after the removal:${states:- every process ended}"
	for pid in $(cat "$PIDS"); do
		kill -KILL "$pid" 2>/dev/null
	done
	deadline=$((SECONDS + REMOVAL_LIMIT))
	for pid in $(cat "$PIDS"); do
		while running "$pid"; do
			if [ $SECONDS -ge $deadline ]; then
				echo "# pid $pid outlived SIGKILL by ${REMOVAL_LIMIT} s:" \
					"$(ps -o stat=,wchan:32=,comm= -p "$pid")"
				return 1
			fi
			sleep 0.2
		done
	done
	: >"$PIDS"
}

netdev_removed_under_load()
{
	local t0=$SECONDS
	# Deleting one end of the veth pair takes the other, and both devices.
	timeout "$REMOVAL_LIMIT" ip -n mrcna link del mrcva || {
		echo "# ip link del did not return within ${REMOVAL_LIMIT} s"
		return 1
	}
	echo "# ip link del returned after $((SECONDS - t0)) s"
	wait_for 10 ib_gone mrc0 && wait_for 10 ib_gone mrc1
}

module_unloaded_under_load()
{
	local t0=$SECONDS
	timeout "$REMOVAL_LIMIT" rmmod mrc || {
		echo "# rmmod mrc failed or did not return within ${REMOVAL_LIMIT} s"
		return 1
	}
	echo "# rmmod returned after $((SECONDS - t0)) s"
	! mrc_module_loaded && ib_gone mrc0 && ib_gone mrc1
}

ktap_check "load_over_write_send_and_read" start_load
ktap_check "netdevs_removed_under_load" netdev_removed_under_load
ktap_check "load_dies_after_netdev_removal" load_dies
remove_two_hosts

ktap_check "load_again" start_load
ktap_check "module_unloaded_under_load" module_unloaded_under_load
ktap_check "load_dies_after_unload" load_dies
remove_two_hosts

# The module loads again and moves data, every received byte checked.
reloaded_moves_data()
{
	mrc_load && make_two_hosts &&
		run_client_server "$(mrc_scaled 60)" ibv_rc_pingpong -g $GID \
			-s 65536 -n 200 -c
}
ktap_check "reloaded_module_moves_checked_data" reloaded_moves_data
ktap_finish
