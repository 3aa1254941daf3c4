#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# lab-timeout: 900
# Spraying over the multi-plane SRv6 fabric (scripts/mrc-fabric): `up`
# gives each host an mrc device on its bond and, through mrcctl, an EV
# profile per peer with its 8 paths (2 planes x 4 tier-1 switches). One RC
# QP from h1 to h5 (under another tier-0) must put packets on every path,
# balanced, with every byte of the integrity test intact; then again while
# a tier-0/tier-1 link goes down and up every 200 ms (down 100 ms, up 100
# ms), and the flapper must have kept that period.
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_tree "the lab fabric, scripts/mrc-fabric"
mrc_require_root_tools
mrc_require_loaded
FABRIC=$MRC_TOP/scripts/mrc-fabric
INTEGRITY=$MRC_SELFTEST_DIR/integrity
PATHS=/sys/kernel/debug/mrc/paths
SECONDS_PER_RUN=${MRC_SPRAY_SECONDS:-30}
FLAP_LINK=p1t0s1-p1t1s2
FLAP_PERIOD_MS=200
# The QPs' local ACK timeout exponent: perftest's default 14 (67 ms); the
# RTO adapts within [T, 4 T] (failover.sh says why it was 17 before).
QP_TIMEOUT=${MRC_SPRAY_QP_TIMEOUT:-14}
[ -x "$INTEGRITY" ] || ktap_skip_all "no $INTEGRITY: run make first"
[ -x "$MRC_TOP/tools/mrcctl/mrcctl" ] || ktap_skip_all "no tools/mrcctl/mrcctl: run make first"
[ -r "$PATHS" ] || ktap_skip_all "no $PATHS (debugfs)"
# rdma_rxe would take the UDP port our devices use.
[ -d /sys/module/rdma_rxe ] && rmmod rdma_rxe 2>/dev/null

tmp=$(mktemp -d /var/tmp/mrc-spray.XXXXXX)
flapper=
cleanup()
{
	[ -z "$flapper" ] || kill "$flapper" 2>/dev/null
	"$FABRIC" down >/dev/null 2>&1
	mrc_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT
"$FABRIC" down >/dev/null 2>&1

ktap_begin 7
ktap_check "fabric_up_with_profiles" "$FABRIC" up
A6=$("$FABRIC" addr h1 | sed -n 1p)
B6=$("$FABRIC" addr h5 | sed -n 1p)

plane_tx()	# IBDEV: "tx_plane0 tx_plane1 ..."
{
	awk -v d="$1" '$1 == d { printf "%s ", $6 }' /sys/kernel/debug/mrc/planes
}

# The integrity test from h1 to h5, the EV table sampled half-way.
integrity_sampled()	# NAME
{
	local pid status
	"$INTEGRITY" -t "$SECONDS_PER_RUN" -n 100000 -d 4 -T "$QP_TIMEOUT" \
		mrch1 "$A6" mrch5 "$B6" &
	pid=$!
	sleep $((SECONDS_PER_RUN / 2))
	cat "$PATHS" >"$tmp/paths.$1"
	wait $pid
	status=$?
	rdma statistic show link mrch1/1 | tr -s ' ' '\n' | paste - - |
		awk '$1 ~ /^(retransmits|timeouts|ev_retired|probes_sent|probes_answered|probes_lost|tx_errors)$/ { printf "%s %s  ", $1, $2 } END { print "" }'
	return $status
}

# The requester QP is the one of mrch1 that sent the most.
check_balance()	# NAME
{
	awk '$1 == "mrch1" { sent[$2] += $6 } END {
		for (q in sent) if (sent[q] > best) { best = sent[q]; qp = q }
		print qp }' "$tmp/paths.$1" >"$tmp/qp"
	awk -v qp="$(cat "$tmp/qp")" '$1 == "mrch1" && $2 == qp' "$tmp/paths.$1"
	awk -v qp="$(cat "$tmp/qp")" '
		$1 == "mrch1" && $2 == qp {
			n++; s += $6; if ($6 > max) max = $6
			if ($6 == 0) idle++
			if ($9 !~ /^usids:/) udp++
			planes[$4] = 1
		}
		END {
			np = 0; for (p in planes) np++
			if (!n) { print "no EV table for the QP"; exit 1 }
			printf "EVs %d planes %d idle %d max/mean %.2f\n", n, np, idle, max * n / s
			exit !(n == 8 && np == 2 && !idle && !udp && max * n / s <= 1.5)
		}' "$tmp/paths.$1"
}

before=$(plane_tx mrch1)
ktap_check "integrity_sprayed_over_srv6" integrity_sampled steady
ktap_check "every_ev_carries_traffic_balanced" check_balance steady
after=$(plane_tx mrch1)
ktap_check "both_planes_carry_packets" awk -v b="$before" -v a="$after" 'BEGIN {
	n = split(b, x, " "); split(a, y, " ")
	printf "per plane before: %s after: %s\n", b, a
	for (i = 1; i <= n; i++) if (y[i] - x[i] <= 0) exit 1
	exit n != 2 }'

# The link goes down and up every 200 ms, over and over, in one process of
# the fabric script (mrc-fabric flap).
"$FABRIC" flap "$FLAP_LINK" --every "$FLAP_PERIOD_MS" --for "$SECONDS_PER_RUN" \
	>"$tmp/flaps" 2>&1 &
flapper=$!
ktap_check "integrity_through_link_flaps" integrity_sampled flapping
wait "$flapper" 2>/dev/null
flapper=
mrc_flap_period_case "link_flap_kept_its_200ms_period" "$tmp/flaps" \
	"$FLAP_PERIOD_MS"
# Flapping retires the EV over the link, and probes bring it back; the
# other seven carry on.
check_flap_table()
{
	awk '$1 == "mrch1" { sent[$2] += $6 } END {
		for (q in sent) if (sent[q] > best) { best = sent[q]; qp = q }
		print qp }' "$tmp/paths.flapping" >"$tmp/qp"
	awk -v qp="$(cat "$tmp/qp")" '$1 == "mrch1" && $2 == qp' "$tmp/paths.flapping"
	awk -v qp="$(cat "$tmp/qp")" '
		$1 == "mrch1" && $2 == qp { n++; if ($6 > 0) used++ }
		END { printf "EVs %d used %d\n", n, used; exit !(n == 8 && used >= 7) }' \
		"$tmp/paths.flapping"
}
ktap_check "flapping_spares_the_other_paths" check_flap_table
ktap_finish
