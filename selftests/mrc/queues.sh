#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# CQs, QPs and SRQs through libibverbs and the provider's shared rings:
# creation, states, limits, flushes through the doorbells (queue-probe),
# then traffic between two devices with the rdma-core examples and, when
# installed, perftest.
#
# Two namespaces joined by a veth pair, an mrc device in each:
#   mrcqa: mrcqa0 192.0.2.1/24  mrc0
#   mrcqb: mrcqb0 192.0.2.2/24  mrc1
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
mrc_require_loaded
command -v ibv_rc_pingpong >/dev/null || ktap_skip_all "needs ibverbs-utils"
QUEUE_PROBE=$MRC_SELFTEST_DIR/queue-probe
[ -x "$QUEUE_PROBE" ] || ktap_skip_all "no $QUEUE_PROBE: run make first"

NSA=mrcqa
NSB=mrcqb
A4=192.0.2.1
B4=192.0.2.2
# Each example or perftest run, client and server alike.
RUN_TIMEOUT=$(mrc_scaled 60)
tmp=

in_a() { ip netns exec "$NSA" "$@"; }
in_b() { ip netns exec "$NSB" "$@"; }

cleanup()
{
	mrc_cleanup
	ip netns del "$NSA" 2>/dev/null
	ip netns del "$NSB" 2>/dev/null
	[ -z "$tmp" ] || rm -rf "$tmp"
	return 0
}
trap cleanup EXIT
cleanup
tmp=$(mktemp -d)
# Every run listens on a port of its own: no waiting out TIME_WAIT. A file,
# since the cases run in subshells.
echo 18515 >"$tmp/next_port"

# rdma_rxe would take the UDP port our devices use.
[ -d /sys/module/rdma_rxe ] && rmmod rdma_rxe 2>/dev/null

# No kernel ULP resizes a CQ: the module checks a kernel CQ's resize
# itself when loaded with cq_selftest=1 (and refuses to load if a check
# fails). Before any device exists, since it reloads the module.
kernel_cq_resize_selftest()
{
	local line status=0
	mrc_unload || return 1
	mrc_load cq_selftest=1 || status=1
	line=$(dmesg | grep "cq selftest:" | tail -n 1)
	echo "${line:-no selftest line in dmesg}"
	mrc_reload || return 1
	[ $status -eq 0 ] && echo "$line" | grep -qE "[1-9][0-9]* checks, 0 failed$"
}
if mrc_can_load; then
	kernel_cq_out=$(kernel_cq_resize_selftest 2>&1)
	kernel_cq_status=$?
fi

ip netns add "$NSA" && ip netns add "$NSB" &&
ip link add mrcqa0 netns "$NSA" type veth peer name mrcqb0 netns "$NSB" &&
in_a ip addr add "$A4/24" dev mrcqa0 && in_b ip addr add "$B4/24" dev mrcqb0 &&
in_a ip link set mrcqa0 up && in_b ip link set mrcqb0 up &&
in_a ip link set lo up && in_b ip link set lo up ||
	ktap_skip_all "cannot build the namespaces"
in_a rdma link add mrc0 type mrc netdev mrcqa0 &&
in_b rdma link add mrc1 type mrc netdev mrcqb0 ||
	ktap_skip_all "rdma link add failed (see link.sh)"
mrc_select_preset mrc0 mrc1 || ktap_skip_all "mrcctl could not select the $MRC_PRESET preset"

GA=$(mrc_gid_index mrc0 "$A4" 5) && GB=$(mrc_gid_index mrc1 "$B4" 5) ||
	ktap_skip_all "the devices got no IPv4 GIDs"

take_port()
{
	local port
	port=$(cat "$tmp/next_port")
	echo $((port + 1)) >"$tmp/next_port"
	echo "$port"
}

tcp_listening()	# PORT
{
	in_b ss -Hltn "sport = :$1" | grep -q .
}

# A server in B, then its client in A once the server listens; both must
# succeed. GID_OPT is how the tool takes a GID index (-g for the examples,
# -x for perftest); both take the TCP port with -p.
client_server()	# GID_OPT TOOL ARGS...
{
	local opt=$1 tool=$2 port server status
	shift 2
	port=$(take_port)
	ip netns exec "$NSB" timeout "$RUN_TIMEOUT" \
		"$tool" -d mrc1 "$opt" "$GB" -p "$port" "$@" \
		>"$tmp/server" 2>&1 &
	server=$!
	if wait_for 20 tcp_listening "$port"; then
		in_a timeout "$RUN_TIMEOUT" \
			"$tool" -d mrc0 "$opt" "$GA" -p "$port" "$@" "$B4" \
			>"$tmp/client" 2>&1
		status=$?
	else
		echo "the server never listened" >"$tmp/client"
		status=1
	fi
	# A server whose client failed would wait for it until its timeout.
	[ $status -eq 0 ] || kill "$server" 2>/dev/null
	wait "$server" || status=1
	if [ $status -eq 0 ]; then
		grep -v '^\s*$' "$tmp/client" | tail -n 3
	else
		echo "client:"; grep -v '^\s*$' "$tmp/client" | tail -n 25
		echo "server:"; grep -v '^\s*$' "$tmp/server" | tail -n 25
		in_a rdma statistic show link mrc0/1
		in_b rdma statistic show link mrc1/1
	fi
	return $status
}

# perftest's client sometimes exits 1 right after printing its result
# header, with no message and no retransmission, timeout or drop on either
# device; rxe does it too under load (Documentation/figures.rst). Such a
# run is shown in full and run once more; any other failure fails at once.
perftest_case()	# TOOL ARGS...
{
	local out
	out=$(client_server -x "$@")
	local status=$?
	printf '%s\n' "$out"
	[ $status -eq 0 ] && return 0
	if ! grep -A1 '#bytes' "$tmp/client" | grep -qE '^ *[0-9]+ +[0-9]+ ' &&
	   ! grep -qiE 'error|fail|couldn|unable' "$tmp/client"; then
		echo "silent client exit after the header: running once more"
		client_server -x "$@"
		return
	fi
	return $status
}

perftest_cases=(write_bw read_bw atomic_bw send_lat)
ktap_begin $((14 + ${#perftest_cases[@]}))

ktap_check "cq_create_poll_arm" "$QUEUE_PROBE" mrc0 cq
ktap_check "qp_states_limits_and_send_flush" "$QUEUE_PROBE" mrc0 flush
# Needs the kernel to take POST_RECV as a doorbell (Documentation/abi.rst).
recv_flush_out=$("$QUEUE_PROBE" mrc0 recv-flush 2>&1)
case $? in
0) ktap_pass "receive_posted_in_err_is_flushed" ;;
"$KSFT_SKIP") ktap_skip "receive_posted_in_err_is_flushed" \
	"kernel has no POST_RECV doorbell" ;;
*) printf '%s\n' "$recv_flush_out" | sed 's/^/# /'
   ktap_fail "receive_posted_in_err_is_flushed" ;;
esac
ktap_check "cq_ex_and_qp_ex" "$QUEUE_PROBE" mrc0 cq-ex
ktap_check "srq_attributes_and_capacity" "$QUEUE_PROBE" mrc0 srq
ktap_check "cq_resize_keeps_queued_in_order" "$QUEUE_PROBE" mrc0 cq-resize
if ! mrc_can_load; then
	ktap_skip "kernel_cq_resize_selftest" "reloads mrc with cq_selftest=1: $MRC_NO_LOADER"
else
	printf '%s\n' "$kernel_cq_out" | sed 's/^/# /'
	if [ "$kernel_cq_status" -eq 0 ]; then
		ktap_pass "kernel_cq_resize_selftest"
	else
		ktap_fail "kernel_cq_resize_selftest" "exit status $kernel_cq_status"
	fi
fi
ktap_check "send_queue_full_is_enomem" "$QUEUE_PROBE" mrc0 full "$GA" "$B4"

# 1000 round trips through rings of 16 receives: many wraps. 64-byte
# messages fit the granted inline size, so ibv_rc_pingpong sends inline.
ktap_check "rc_pingpong_inline_wraps" \
	client_server -g ibv_rc_pingpong -n 1000 -s 64 -r 16
ktap_check "rc_pingpong_completion_events" \
	client_server -g ibv_rc_pingpong -n 100 -s 1024 -e
ktap_check "rc_pingpong_64k" client_server -g ibv_rc_pingpong -n 10 -s 65536
ktap_check "srq_pingpong_4_qps" \
	client_server -g ibv_srq_pingpong -n 100 -q 4 -s 512 -r 64

# UD: datagrams through address handles; 512 bytes plus the 40-byte GRH
# fit the 1024-byte MTU of a 1500-byte veth.
ktap_check "ud_pingpong" \
	client_server -g ibv_ud_pingpong -n 100 -s 512

# Killed mid-run, a client must not leave the kernel unhappy: destroying
# mapped rings with requests outstanding is the provider's exit path too.
killed_client()
{
	local port server
	port=$(take_port)
	ip netns exec "$NSB" timeout 30 ibv_rc_pingpong -d mrc1 -g "$GB" \
		-p "$port" -n 100000 -s 4096 >/dev/null 2>&1 &
	server=$!
	wait_for 20 tcp_listening "$port" || echo "the server never listened"
	in_a timeout -s KILL 3 ibv_rc_pingpong -d mrc0 -g "$GA" -p "$port" \
		-n 100000 -s 4096 "$B4" >/dev/null 2>&1
	kill "$server" 2>/dev/null
	wait "$server" 2>/dev/null
	"$QUEUE_PROBE" mrc0 cq
}
ktap_check "client_killed_mid_traffic" killed_client

for t in "${perftest_cases[@]}"; do
	if ! command -v "ib_$t" >/dev/null; then
		ktap_skip "perftest_$t" "needs perftest"
		continue
	fi
	case $t in
	*_lat) args=(-n 100 -s 32) ;;
	atomic_bw) args=(-n 100) ;;
	*) args=(-n 100 -s 4096) ;;
	esac
	ktap_check "perftest_$t" perftest_case "ib_$t" "${args[@]}"
done

ktap_finish
