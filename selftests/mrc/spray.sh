#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# lab-timeout: 900
# Spraying over the multi-plane SRv6 fabric (scripts/mrc-fabric): `up`
# gives each host an mrc device on its bond and, through mrcctl, an EV
# profile per peer with its 8 paths (2 planes x 4 tier-1 switches). One RC
# QP from h1 to h5 (under another tier-0) must put packets on every path,
# balanced, with every byte of the integrity test intact; then again while
# a tier-0/tier-1 link goes down and up every 200 ms (down 100 ms, up 100
# ms), and the flapper must have kept that period. Between the two, the
# same integrity run over the hosts' IPv4 addresses (NCCL's default GID
# choice): the fabric routes IPv4 through an IPv6 next hop (RFC 5549), and
# the QP must still send on the plane ports themselves, never through the
# bond, over every EV of the built-in UDP spraying (the controller's
# profiles are SRv6, which is IPv6 only), and the tier-0 switches' ECMP
# must spread it over the tier-1 switches.
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_tree "the lab fabric, scripts/mrc-fabric"
mrc_require_root_tools
mrc_require_loaded
FABRIC=$MRC_TOP/scripts/mrc-fabric
INTEGRITY=$MRC_SELFTEST_DIR/integrity
SECONDS_PER_RUN=${MRC_SPRAY_SECONDS:-30}
FLAP_LINK=p1t0s1-p1t1s2
FLAP_PERIOD_MS=200
# The QPs' local ACK timeout exponent: perftest's default 14 (67 ms); the
# RTO adapts within [T, 4 T] (failover.sh says why it was 17 before).
QP_TIMEOUT=${MRC_SPRAY_QP_TIMEOUT:-14}
[ -x "$INTEGRITY" ] || ktap_skip_all "no $INTEGRITY: run make first"
[ -x "$MRC_TOP/tools/mrcctl/mrcctl" ] || ktap_skip_all "no tools/mrcctl/mrcctl: run make first"
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

ktap_begin 11
ktap_check "fabric_up_with_profiles" "$FABRIC" up
A6=$("$FABRIC" addr h1 | sed -n 1p)
B6=$("$FABRIC" addr h5 | sed -n 1p)
A4=$("$FABRIC" addr h1 | sed -n 2p)
B4=$("$FABRIC" addr h5 | sed -n 2p)

# Per plane of both ends: "DEV TX VIA_MASTER DEV TX VIA_MASTER ...".
plane_tx()
{
	local dev
	for dev in mrch1 mrch5; do
		mrc_planes $dev tx via_master | sed "s/^/$dev /"
	done | tr '\n' ' '
}

# Every plane of both ends sent packets between two plane_tx samples, each
# on its own port: none through the bond (VIA_MASTER: the next hop was not
# found confirmed in the neighbour table the route names).
planes_carried()	# BEFORE AFTER
{
	awk -v b="$1" -v a="$2" 'BEGIN {
		n = split(b, x, " "); split(a, y, " ")
		printf "per plane (dev tx via_master) before: %s after: %s\n", b, a
		for (i = 1; i <= n; i += 3) {
			if (x[i] != y[i]) exit 1
			if (y[i + 1] - x[i + 1] <= 0 || y[i + 2] != x[i + 2]) bad++
		}
		exit n != 12 || bad }'
}

# The integrity test from h1 to h5 (IPv6 addresses, or those given), the
# EV table sampled half-way.
integrity_sampled()	# NAME [IP_A IP_B]
{
	local pid status
	"$INTEGRITY" -t "$SECONDS_PER_RUN" -n 100000 -d 4 -T "$QP_TIMEOUT" \
		mrch1 "${2:-$A6}" mrch5 "${3:-$B6}" &
	pid=$!
	sleep $((SECONDS_PER_RUN / 2))
	mrc_ev_table mrch1 >"$tmp/paths.$1" || echo "no path dump of mrch1"
	wait $pid
	status=$?
	mrc_counters mrch1 tx_errors retransmits timeouts ev_retired \
		probes_sent probes_answered probes_lost |
		awk '{ printf "%s %s  ", $1, $2 } END { print "" }'
	return $status
}

# The requester QP: the one of mrch1 that sent the most.
busiest_qp()	# TABLE
{
	awk "$MRC_EV_FIELDS"'{ sent[f["qp"]] += f["sent"] } END {
		for (q in sent) if (sent[q] > best) { best = sent[q]; qp = q }
		print qp }' "$1"
}

check_balance()	# NAME
{
	local qp
	qp=$(busiest_qp "$tmp/paths.$1")
	awk -v qp="$qp" "$MRC_EV_FIELDS"'f["qp"] == qp' "$tmp/paths.$1"
	awk -v qp="$qp" "$MRC_EV_FIELDS"'
		f["qp"] == qp {
			n++; s += f["sent"]; if (f["sent"] > max) max = f["sent"]
			if (f["sent"] == 0) idle++
			if (!("usids" in f)) udp++
			planes[f["plane"]] = 1
		}
		END {
			np = 0; for (p in planes) np++
			if (!n) { print "no EV table for the QP"; exit 1 }
			printf "EVs %d planes %d idle %d max/mean %.2f\n", n, np, idle, max * n / s
			exit !(n == 8 && np == 2 && !idle && !udp && max * n / s <= 1.5)
		}' "$tmp/paths.$1"
}

before=$(plane_tx)
ktap_check "integrity_sprayed_over_srv6" integrity_sampled steady
ktap_check "every_ev_carries_traffic_balanced" check_balance steady
after=$(plane_tx)
ktap_check "both_planes_carry_packets" planes_carried "$before" "$after"

# Packets each uplink of the tier-0 switch of h1 (on every plane) sent:
# "PORT TX PORT TX ...".
uplinks_tx()
{
	local p m
	for p in 1 2; do
		for m in 1 2 3 4; do
			printf "p%st0s1:p%st1s%s %s " $p $p $m "$("$FABRIC" exec \
				p${p}t0s1 cat /sys/class/net/p${p}t1s$m/statistics/tx_packets)"
		done
	done
}

# The IPv4 QP has the built-in spraying: 16 UDP EVs a plane, every one used.
check_ipv4_evs()
{
	awk -v qp="$(busiest_qp "$tmp/paths.ipv4")" "$MRC_EV_FIELDS"'
		f["qp"] == qp {
			n++; if (f["sent"] == 0) idle++
			if (!("udp" in f)) other++
			planes[f["plane"]] = 1
		}
		END {
			np = 0; for (p in planes) np++
			printf "EVs %d planes %d idle %d not udp %d\n", n, np, idle, other
			exit !(n == 32 && np == 2 && !idle && !other)
		}' "$tmp/paths.ipv4"
}

# Each plane's ECMP at the tier-0 spread the UDP EVs over at least 3 of
# its 4 tier-1 switches (all 16 ports of a plane hashing onto 2 of 4
# uplinks: 6 in 2^16 picks).
check_ipv4_uplinks()	# BEFORE AFTER
{
	awk -v b="$1" -v a="$2" 'BEGIN {
		n = split(b, x, " "); split(a, y, " ")
		for (i = 1; i <= n; i += 2) {
			d = y[i + 1] - x[i + 1]
			printf "%s +%d  ", x[i], d
			if (d >= 10) used[substr(x[i], 1, 2)]++
		}
		print ""
		exit n != 16 || used["p1"] < 3 || used["p2"] < 3 }'
}

before=$(plane_tx)
before_up=$(uplinks_tx)
ktap_check "integrity_ipv4_sprayed_over_planes" integrity_sampled ipv4 "$A4" "$B4"
after=$(plane_tx)
after_up=$(uplinks_tx)
ktap_check "ipv4_every_udp_ev_carries_traffic" check_ipv4_evs
ktap_check "ipv4_plane_ports_carry_packets_not_the_bond" \
	planes_carried "$before" "$after"
ktap_check "ipv4_ecmp_spreads_over_tier1" \
	check_ipv4_uplinks "$before_up" "$after_up"

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
	local qp
	qp=$(busiest_qp "$tmp/paths.flapping")
	awk -v qp="$qp" "$MRC_EV_FIELDS"'f["qp"] == qp' "$tmp/paths.flapping"
	awk -v qp="$qp" "$MRC_EV_FIELDS"'
		f["qp"] == qp { n++; if (f["sent"] > 0) used++ }
		END { printf "EVs %d used %d\n", n, used; exit !(n == 8 && used >= 7) }' \
		"$tmp/paths.flapping"
}
ktap_check "flapping_spares_the_other_paths" check_flap_table
ktap_finish
