#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# perftest size sweeps (-a: every power of two from 2 bytes to 8 MiB) over
# mrc between two hosts: ib_write_bw, ib_send_bw, ib_read_bw, ib_write_lat,
# ib_send_lat, ib_read_lat, and ib_atomic_bw with its defaults. Few
# iterations per size (-n 20 for bandwidth, -n 5 for latency), so that the
# sweep stays short under emulation.
# Each case passes when both ends exit 0 and the client reported every
# size; the figures are printed, never judged (the lab is emulated).
# MRC_PERFTEST_BANDWIDTH_ONLY=1: the bandwidth sweeps and atomics only
# (the other releases' smoke set, scripts/run-tests).
#
# make_two_hosts: mrcna: mrcva 192.0.2.1/24 mrc0; mrcnb: mrcvb .2 mrc1.
# lab-timeout: 900
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
command -v ib_write_bw >/dev/null || ktap_skip_all "needs perftest"
mrc_require_loaded
GID=1
# Iterations per size: a latency test has one message in flight, so its
# 8 MiB round trips take over a second each under TCG.
BW_ITERS=${MRC_PERFTEST_BW_ITERS:-20}
LAT_ITERS=${MRC_PERFTEST_LAT_ITERS:-5}
RUN_TIMEOUT=300
tmp=$(mktemp -d)
port=18700

cleanup()
{
	remove_two_hosts
	rm -rf "$tmp"
	return 0
}
trap cleanup EXIT
remove_two_hosts
[ -d /sys/module/rdma_rxe ] && rmmod rdma_rxe 2>/dev/null
make_two_hosts || ktap_skip_all "cannot build the two hosts"

listening()	# PORT
{
	ip netns exec mrcnb ss -Hltn "sport = :$1" | grep -q .
}

# Result rows of a perftest report: lines that start with a size and an
# iteration count. Under TCG a latency row may read "inf" (a sample beyond
# what perftest's cycle arithmetic holds): still a size that completed.
rows()	# FILE
{
	grep -cE '^\s*[0-9]+\s+[0-9]+\s+([0-9.]+|inf|-?nan)\s' "$1"
}

# TOOL ARGS: server in B, client in A; both must exit 0 and the client
# must report WANT_ROWS sizes.
sweep_once()	# WANT_ROWS TOOL ARGS...
{
	local want=$1 tool=$2 server status got start=$SECONDS
	shift 2
	port=$((port + 1))
	ip netns exec mrcnb timeout "$RUN_TIMEOUT" "$tool" -d mrc1 -x "$GID" \
		-p "$port" "$@" >"$tmp/server" 2>&1 &
	server=$!
	if wait_for 20 listening "$port"; then
		ip netns exec mrcna timeout "$RUN_TIMEOUT" "$tool" -d mrc0 \
			-x "$GID" -p "$port" "$@" "$MRC_HOST_B" \
			>"$tmp/client" 2>&1
		status=$?
	else
		echo "the server never listened" >"$tmp/client"
		status=1
	fi
	[ $status -eq 0 ] || kill "$server" 2>/dev/null
	wait "$server" || status=1
	got=$(rows "$tmp/client")
	grep -E '^\s*#?\s*bytes|^\s*[0-9]+\s+[0-9]+\s' "$tmp/client" |
		sed -n '1p;2p;$p'
	echo "$tool $*: $got of $want sizes, $((SECONDS - start)) s"
	if [ $status -ne 0 ]; then
		echo "client:"; grep -v '^\s*$' "$tmp/client" | tail -n 8
		echo "server:"; grep -v '^\s*$' "$tmp/server" | tail -n 8
		return 1
	fi
	[ "$got" -eq "$want" ]
}

# perftest calibrates its cycle counter against gettimeofday() by linear
# regression and gives up ("Correlation coefficient r^2 ... < 0.9", "Can't
# produce a report", exit 1) when the fit is poor: under TCG on a busy host
# it often is, at any of the sizes of a sweep. That is perftest's clock,
# not the transport: such a run is said so and repeated, up to
# CALIBRATION_TRIES runs in all; any other failure counts at once. When
# every run failed on the calibration alone, the case is a skip that says
# so: nothing was learnt about the device.
CALIBRATION_TRIES=${MRC_PERFTEST_TRIES:-4}
sweep()	# WANT_ROWS TOOL ARGS...
{
	local try
	for ((try = 1; ; try++)); do
		sweep_once "$@" && return 0
		grep -q "Correlation coefficient" "$tmp/client" "$tmp/server" ||
			return 1
		[ "$try" -lt "$CALIBRATION_TRIES" ] || return "$KSFT_SKIP"
		echo "perftest's clock calibration failed (run $try): again"
	done
}

sweep_case()	# NAME WANT_ROWS TOOL ARGS...
{
	local name=$1 out status
	shift
	out=$(sweep "$@" 2>&1)
	status=$?
	[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/# /'
	case $status in
	0) ktap_pass "$name" ;;
	"$KSFT_SKIP") ktap_skip "$name" "perftest could not calibrate its clock (r^2 < 0.9) in $CALIBRATION_TRIES runs" ;;
	*) ktap_fail "$name" "exit status $status" ;;
	esac
}

# 2 B to 8 MiB: 23 sizes. ib_atomic_bw has one (8 bytes).
SIZES=23
latency=1
[ "${MRC_PERFTEST_BANDWIDTH_ONLY:-0}" = 1 ] && latency=0
ktap_begin $((4 + 3 * latency))
sweep_case "ib_write_bw_all_sizes" $SIZES ib_write_bw -a -n "$BW_ITERS"
sweep_case "ib_send_bw_all_sizes" $SIZES ib_send_bw -a -n "$BW_ITERS"
sweep_case "ib_read_bw_all_sizes" $SIZES ib_read_bw -a -n "$BW_ITERS"
sweep_case "ib_atomic_bw_default" 1 ib_atomic_bw
[ $latency = 1 ] || ktap_finish
sweep_case "ib_write_lat_all_sizes" $SIZES ib_write_lat -a -n "$LAT_ITERS"
sweep_case "ib_send_lat_all_sizes" $SIZES ib_send_lat -a -n "$LAT_ITERS"
sweep_case "ib_read_lat_all_sizes" $SIZES ib_read_lat -a -n "$LAT_ITERS"
ktap_finish
