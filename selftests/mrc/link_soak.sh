#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# lab-timeout: 14400
# Soak: FLAPS link flaps (default 10000; MRC_SOAK_FLAPS or the first
# argument) on the multi-plane fabric (scripts/mrc-fabric) under traffic
# whose every byte is checked. h1's tier-0 uplinks take turns, each going
# down and up every MRC_SOAK_FLAP_MS (default 200, down half of it) for
# MRC_SOAK_ROUND seconds (default 60), while the integrity test (RC
# WRITEs, SENDs and READs from h1 to h5, run after run on new QPs) checks
# every byte. Passes when every flap happened, every run and every byte
# was intact, no RC QP ended in the error state and the kernel printed no
# report. Prints flaps per minute and bytes checked, so that a long run's
# duration can be predicted from a short one.
#   flock /tmp/mrc-lab.lock scripts/mrc-vm [--debug-kernel] --timeout 14400 \
#       -- selftests/run-lab link_soak.sh        (MRC_SOAK_FLAPS=10000)
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_tree "the lab fabric, scripts/mrc-fabric"
mrc_require_root_tools
mrc_require_loaded
FABRIC=$MRC_TOP/scripts/mrc-fabric
INTEGRITY=$MRC_SELFTEST_DIR/integrity
FLAPS=${1:-${MRC_SOAK_FLAPS:-10000}}
FLAP_MS=${MRC_SOAK_FLAP_MS:-200}
ROUND=${MRC_SOAK_ROUND:-60}
# As failover.sh: perftest's default local ACK timeout, 67 ms.
QP_TIMEOUT=${MRC_SOAK_QP_TIMEOUT:-14}
[ -x "$INTEGRITY" ] || ktap_skip_all "no $INTEGRITY: run make first"
[ -d /sys/module/rdma_rxe ] && rmmod rdma_rxe 2>/dev/null

tmp=$(mktemp -d /var/tmp/mrc-soak.XXXXXX)
traffic=
cleanup()
{
	touch "$tmp/stop"
	[ -z "$traffic" ] || wait "$traffic" 2>/dev/null
	"$FABRIC" down >/dev/null 2>&1
	mrc_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT
"$FABRIC" down >/dev/null 2>&1

ktap_begin 5
ktap_info "$FLAPS flaps, one every $FLAP_MS ms, $ROUND s per link in turn"
dmesg_before=$(dmesg | wc -l)
ktap_check "fabric_up" "$FABRIC" up
A6=$("$FABRIC" addr h1 | sed -n 1p)
B6=$("$FABRIC" addr h5 | sed -n 1p)
mapfile -t links < <("$FABRIC" links | grep -E '^p[0-9]+t0s1-p[0-9]+t1s[0-9]+$')
[ ${#links[@]} -gt 0 ] || links=(p1t0s1-p1t1s2)
ktap_info "flapping in turn: ${links[*]}"

# Checked traffic until told to stop: each run's summary line in runs, a
# failed run's output in failed.
traffic_loop()
{
	local i=0
	while [ ! -e "$tmp/stop" ]; do
		i=$((i + 1))
		if "$INTEGRITY" -s "$i" -t 30 -n 100000 -d 4 -T "$QP_TIMEOUT" \
			mrch1 "$A6" mrch5 "$B6" >"$tmp/run" 2>&1; then
			grep '^# transfers' "$tmp/run" >>"$tmp/runs"
		else
			{ echo "run $i:"; tail -n 20 "$tmp/run"; } >>"$tmp/failed"
		fi
	done
}
traffic_loop &
traffic=$!

start=$(date +%s.%N)
flapped=0 round=0
while [ "$flapped" -lt "$FLAPS" ] && [ ! -e "$tmp/failed" ]; do
	link=${links[$((round % ${#links[@]}))]}
	round=$((round + 1))
	left=$(( (FLAPS - flapped) * FLAP_MS / 1000 + 1 ))
	"$FABRIC" flap "$link" --every "$FLAP_MS" --for $((left < ROUND ? left : ROUND)) \
		>"$tmp/flap" 2>&1
	n=$(sed -n 's/^\([0-9]*\) flaps of .*/\1/p' "$tmp/flap")
	[ -n "$n" ] && [ "$n" -gt 0 ] || { cat "$tmp/flap"; break; }
	flapped=$((flapped + n))
	echo "# round $round: $(head -n 1 "$tmp/flap")"
done
elapsed=$(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $start }")
touch "$tmp/stop"
wait "$traffic"
traffic=

flaps_done()
{
	awk -v n="$flapped" -v t="$elapsed" -v want="$FLAPS" 'BEGIN {
		printf "%d flaps in %s s: %.1f flaps/min; %d would take %.0f min\n",
		       n, t, n * 60 / t, 10000, 10000 * t / n / 60
		exit n < want }'
}
ktap_check "all_${FLAPS}_flaps_done" flaps_done

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
ktap_check "every_byte_checked_intact" traffic_checked

no_qp_in_error()
{
	! rdma resource show qp link mrch1/1 2>/dev/null | grep 'type RC' |
		grep 'state ERR'
}
ktap_check "no_rc_qp_in_error" no_qp_in_error

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
