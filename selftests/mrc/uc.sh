#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Unreliable Connected QPs between two hosts (network namespaces):
# ibv_uc_pingpong --chk (every received buffer checked), uc-probe's SEND,
# SEND_WITH_IMM, WRITE and WRITE_WITH_IMM with every byte checked and what
# UC refuses, then messages through a lossy veth (netem): the receiver
# completes whole messages only, later ones still, and counts the rest.
# lab-timeout: 600
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
mrc_require_loaded
PROBE=$MRC_SELFTEST_DIR/uc-probe
[ -x "$PROBE" ] || ktap_skip_all "no $PROBE: run make first"

ktap_begin 5
trap 'remove_two_hosts; mrc_cleanup' EXIT
remove_two_hosts
make_two_hosts || ktap_skip_all "cannot build the two hosts"

for size in 1 4096; do
	if command -v ibv_uc_pingpong >/dev/null; then
		ktap_check "uc_pingpong_${size}B_checked" run_client_server 120 \
			ibv_uc_pingpong -g 1 -s $size -n 100 -c
	else
		ktap_skip "uc_pingpong_${size}B_checked" "needs ibverbs-utils"
	fi
done

ktap_check "uc_probe_data_and_refusals" timeout 120 "$PROBE" data \
	mrc0 $MRC_HOST_A mrc1 $MRC_HOST_B

counter()	# NAME
{
	mrc_counters mrc1 "$1" | awk '{ print $2 }'
}

# 10 % of A's packets lost: a 4-packet message arrives whole about two
# times in three.
uc_loss()
{
	local before after
	before=$(counter uc_msgs_dropped) || return 1
	ip netns exec mrcna tc qdisc add dev mrcva root netem loss 10% ||
		return 1
	timeout 120 "$PROBE" loss mrc0 $MRC_HOST_A mrc1 $MRC_HOST_B
	local status=$?
	ip netns exec mrcna tc qdisc del dev mrcva root
	after=$(counter uc_msgs_dropped) || return 1
	echo "uc_msgs_dropped on mrc1: $before -> $after," \
	     "uc_pkts_discarded $(counter uc_pkts_discarded)"
	[ $status -eq 0 ] || return 1
	# A loss in a message's first packet leaves nothing to drop, so the
	# counter need not match the lost messages, but some were cut short.
	[ "$after" -gt "$before" ]
}
ktap_check "uc_loss_drops_whole_messages_only" uc_loss

# The same QPs' kind of traffic still flows once the link is clean again.
ktap_check "uc_probe_after_loss" timeout 120 "$PROBE" data \
	mrc0 $MRC_HOST_A mrc1 $MRC_HOST_B
ktap_finish
