#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# lab-timeout: 14400
# Long form of hostile_packets.sh: COUNT raw hostile packets (default
# 100000; MRC_FLOOD_PACKETS or the first argument), seeded mutations of the
# live traffic's own packets (hostile_flood.py: header fields, opcodes,
# PSNs, lengths, SACK bitmaps, QPNs, truncations; flood-send sends them in
# sendmmsg batches), sent at live QPs while they carry traffic whose every
# byte is checked (integrity -w, run again and again, each run on new QPs
# that the flood finds by capture). Half the
# packets go at the responder (from A, made from A's requests), half at
# the requester (from B, made from B's ACKs). Then the QPs must still move
# checked bytes, and the kernel must have printed no report (mrc-vm fails
# the run on any too; --debug-kernel adds KASAN, lockdep and UBSAN).
#   flock /tmp/mrc-lab.lock scripts/mrc-vm [--debug-kernel] -- \
#       selftests/run-lab hostile_flood.sh       (MRC_FLOOD_PACKETS=1000000)
# MRC_FLOOD_SEED (default 1) makes the mutations reproducible.
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
INTEGRITY=$MRC_SELFTEST_DIR/integrity
FLOOD=$MRC_SELFTEST_DIR/hostile_flood.py
FLOOD_SEND=$MRC_SELFTEST_DIR/flood-send
PYTHON=/usr/bin/python3
COUNT=${1:-${MRC_FLOOD_PACKETS:-100000}}
SEED=${MRC_FLOOD_SEED:-1}
[ -x "$PYTHON" ] || ktap_skip_all "needs python3"
[ -x "$INTEGRITY" ] || ktap_skip_all "no $INTEGRITY: run make first"
[ -x "$FLOOD_SEND" ] || ktap_skip_all "no $FLOOD_SEND: run make first"
mrc_require_loaded
tmp=$(mktemp -d)
traffic=

cleanup()
{
	touch "$tmp/stop"
	[ -z "$traffic" ] || wait "$traffic" 2>/dev/null
	remove_two_hosts
	rm -rf "$tmp"
	return 0
}
trap cleanup EXIT
remove_two_hosts
[ -d /sys/module/rdma_rxe ] && rmmod rdma_rxe 2>/dev/null
make_two_hosts || ktap_skip_all "cannot build the two hosts"
PORT=$(mrc_udp_port)
ktap_begin 5
ktap_info "$COUNT hostile packets, seed $SEED"
dmesg_before=$(dmesg | wc -l)

# Checked traffic until told to stop: each run's summary line in runs, a
# failed run's output in failed.
traffic_loop()
{
	local i=0
	while [ ! -e "$tmp/stop" ]; do
		i=$((i + 1))
		if "$INTEGRITY" -w -s $((SEED * 1000 + i)) -t 20 -d 4 \
			mrc0 "$MRC_HOST_A" mrc1 "$MRC_HOST_B" >"$tmp/run" 2>&1; then
			grep '^# transfers' "$tmp/run" >>"$tmp/runs"
		else
			{ echo "run $i:"; tail -n 20 "$tmp/run"; } >>"$tmp/failed"
		fi
	done
}
traffic_loop &
traffic=$!

# Half at each side; each flooder waits for live packets to mutate.
half=$((COUNT / 2))
start=$(date +%s.%N)
ip netns exec mrcna "$PYTHON" "$FLOOD" mrcva "$MRC_HOST_B" "$PORT" "$half" \
	"$SEED" "$FLOOD_SEND" >"$tmp/flood_a" 2>&1 &
flood_a=$!
ip netns exec mrcnb "$PYTHON" "$FLOOD" mrcvb "$MRC_HOST_A" "$PORT" \
	$((COUNT - half)) $((SEED + 1)) "$FLOOD_SEND" >"$tmp/flood_b" 2>&1 &
flood_b=$!
wait "$flood_a"
status_a=$?
wait "$flood_b"
status_b=$?
elapsed=$(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $start }")
touch "$tmp/stop"
wait "$traffic"
traffic=

flood_sent()
{
	echo "at B: $(cat "$tmp/flood_a"); at A: $(cat "$tmp/flood_b")"
	[ $status_a -eq 0 ] && [ $status_b -eq 0 ] || return 1
	awk -v want="$COUNT" -v t="$elapsed" '
	$1 == "sent" { n += $2 }
	END { printf "%d packets in %s s, %.0f packets/s\n", n, t, n / t
	      exit n != want }' "$tmp/flood_a" "$tmp/flood_b"
}
ktap_check "all_${COUNT}_hostile_packets_sent" flood_sent

# Transfers and bytes checked, summed over the runs' summary lines.
traffic_checked()
{
	[ -e "$tmp/failed" ] && { cat "$tmp/failed"; return 1; }
	[ -s "$tmp/runs" ] || { echo "no traffic run finished"; return 1; }
	awk '{ for (i = 1; i < NF; i++) {
		if ($i == "transfers") t += $(i + 1)
		if ($i == "checked") b += $(i + 1)
		if ($i == "corrupted") c += $(i + 1) } }
	END { printf "%d runs, %d transfers, %.0f bytes checked, %d corrupted\n",
	      NR, t, b, c; exit (t == 0 || c != 0) }' "$tmp/runs"
}
ktap_check "traffic_during_flood_intact" traffic_checked

after_flood()
{
	"$INTEGRITY" -s $((SEED + 7)) -t 10 -d 4 mrc0 "$MRC_HOST_A" \
		mrc1 "$MRC_HOST_B" | tail -n 1
	return "${PIPESTATUS[0]}"
}
ktap_check "new_qps_after_flood_move_checked_bytes" after_flood

# The drop counters saw the flood (a flood nobody noticed proves nothing).
drops_counted()
{
	local dev total=0 n
	for dev in mrc0 mrc1; do
		n=$(mrc_counters "$dev" |
			awk '$1 ~ /^(rx_drop_|duplicates$)/ { s += $2 }
			END { print s + 0 }')
		echo "$dev: $n drops and duplicates"
		total=$((total + n))
	done
	[ "$total" -gt 0 ]
}
ktap_check "flood_counted_as_drops_and_duplicates" drops_counted

kernel_quiet()
{
	dmesg | tail -n +$((dmesg_before + 1)) >"$tmp/dmesg"
	if grep -E 'BUG|WARNING|UBSAN|KASAN|lockdep|circular locking|Call Trace|refcount_t' \
		"$tmp/dmesg"; then
		return 1
	fi
	echo "$(wc -l <"$tmp/dmesg") new kernel log lines, no report"
}
ktap_check "kernel_printed_no_report" kernel_quiet
ktap_finish
