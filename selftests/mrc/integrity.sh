#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# RC data integrity between two hosts (network namespaces), first over a
# clean veth pair, then with netem on both ends: 2% loss, 25% reordering,
# 1% duplication. The integrity tool sends WRITEs, SENDs and READs of
# random size (1 B to 4 MiB), at unaligned offsets and over several SGEs,
# and checks every byte, every completion status, and that nothing
# completes twice. The transport's counters are shown for each variant.
# On the clean link it runs twice: requests posted with ibv_post_send(),
# then with the ibv_wr_* API (integrity -x; perftest cannot test that API
# on mrc: it posts with it only on devices it knows, conformance.rst).
# lab-timeout: 480
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
mrc_require_loaded
INTEGRITY=$MRC_SELFTEST_DIR/integrity
[ -x "$INTEGRITY" ] || ktap_skip_all "no $INTEGRITY: run make first"
# Each variant stops posting after this many seconds (or transfers).
SECONDS_PER_VARIANT=${MRC_INTEGRITY_SECONDS:-45}
WR_API_SECONDS=${MRC_INTEGRITY_WR_API_SECONDS:-20}
TRANSFERS=${MRC_INTEGRITY_TRANSFERS:-600}
NETEM="loss 2% delay 1ms reorder 25% duplicate 1%"

ktap_begin 3
trap 'remove_two_hosts; mrc_cleanup' EXIT
remove_two_hosts
make_two_hosts || ktap_skip_all "cannot build the two hosts"

# The requester's and the responder's counters of interest, one line each.
counters()
{
	local ns dev
	for ns_dev in mrcna:mrc0 mrcnb:mrc1; do
		ns=${ns_dev%%:*}
		dev=${ns_dev#*:}
		printf '%s: ' "$dev"
		ip netns exec "$ns" rdma statistic show link "$dev/1" |
			tr -s ' ' '\n' | paste - - |
			awk '$1 ~ /^(retransmits|timeouts|duplicates|out_of_order|trims|rx_drop_out_of_window)$/ { printf "%s %s  ", $1, $2 }'
		echo
	done
	# Packets the stack dropped for a full backlog (softnet_stat column 2).
	local drops=0 col
	while read -r _ col _; do
		drops=$((drops + 0x$col))
	done </proc/net/softnet_stat
	echo "backlog drops $drops"
}

run_variant()	# NAME [SECONDS [INTEGRITY_OPTION...]]
{
	local seed=$RANDOM$RANDOM status name=$1 seconds=${2:-$SECONDS_PER_VARIANT}
	shift $(($# < 2 ? $# : 2))
	echo "counters before $name:"
	counters
	"$INTEGRITY" -s "$seed" -t "$seconds" -n "$TRANSFERS" "$@" \
		-d 4 mrc0 "$MRC_HOST_A" mrc1 "$MRC_HOST_B"
	status=$?
	echo "counters after $name:"
	counters
	return $status
}

ktap_check "integrity_clean_link" run_variant clean
ktap_check "integrity_wr_api_clean_link" run_variant wr_api "$WR_API_SECONDS" -x

if ! command -v tc >/dev/null; then
	ktap_skip "integrity_netem_loss_reorder_duplicate" "needs tc (iproute2)"
elif ! modprobe sch_netem 2>/dev/null && ! tc qdisc add dev lo root netem 2>/dev/null; then
	ktap_skip "integrity_netem_loss_reorder_duplicate" "needs sch_netem (tc netem)"
elif ! { ip netns exec mrcna tc qdisc add dev mrcva root netem $NETEM &&
	 ip netns exec mrcnb tc qdisc add dev mrcvb root netem $NETEM; }; then
	ktap_fail "integrity_netem_loss_reorder_duplicate" "tc netem failed"
else
	ktap_info "netem on both ends: $NETEM"
	ktap_check "integrity_netem_loss_reorder_duplicate" run_variant netem
fi
ktap_finish
