#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The OCP MRC application API (lib_mrc, Documentation/mrc-api.rst) between
# two hosts (network namespaces): MRC QPs made and connected through
# mrc.h, rounds of an RDMA WRITE and a WRITE with immediate with every byte
# checked, a READ refused and the WIMM limit enforced on the live QP. Once
# through lib_mrc.so (the OCP examples' name), once through libnv_mrc.so
# (NCCL's MRC plugins'), and the companion repository's way of building:
# the headers and the library in one folder.
# The exponential retry stage (Documentation/reliability.rst): both links
# dropping everything (netem loss 100%) for OUTAGE seconds, far longer
# than A's one linear retry: with exp_cnt 25 (never give up) the WRITE
# survives it, through exponential timeouts the counters show, and every
# byte arrives after; with exp_cnt 0 it fails with IBV_WC_RETRY_EXC_ERR
# during the outage, and with exp_cnt 3 too (a bounded stage).
# The requester's PSN window: with MPR 1 and 8, 512 KiB WRITEs checked,
# and debugfs's req line shows the window (128, 1024 PSNs) and a peak of
# PSNs outstanding within it.
# lab-timeout: 300
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
mrc_require_loaded
PROBE=$MRC_SELFTEST_DIR/mrc-api-probe
PROBE_NV=$MRC_SELFTEST_DIR/mrc-api-probe-nv
ROUNDS=${MRC_API_ROUNDS:-200}
OUTAGE=${MRC_API_OUTAGE:-3}

ktap_begin 8
for p in "$PROBE" "$PROBE_NV"; do
	[ -x "$p" ] || ktap_skip_all "no $p: run make first"
	if ldd "$p" | grep -q "not found"; then
		ktap_skip_all "$p cannot find lib_mrc: $(ldd "$p" | grep 'not found' | tr -s ' \t' ' ')"
	fi
done
trap 'remove_two_hosts; mrc_cleanup' EXIT
remove_two_hosts
make_two_hosts || ktap_skip_all "cannot build the two hosts"

loads()	# PROBE LIBRARY
{
	ldd "$1" | grep -q "^[[:space:]]*$2 =>" ||
		{ echo "$1 does not load $2:"; ldd "$1"; return 1; }
}

run_probe()	# PROBE LIBRARY
{
	loads "$1" "$2" || return 1
	"$1" mrc0 "$MRC_HOST_A" mrc1 "$MRC_HOST_B" "$ROUNDS" "$RANDOM$RANDOM"
}

ktap_check "write_and_write_imm_through_lib_mrc" run_probe "$PROBE" lib_mrc.so
ktap_check "write_and_write_imm_through_libnv_mrc" run_probe "$PROBE_NV" libnv_mrc.so

# A plain verbs RC QP of the same device still works beside lib_mrc's.
plain_rc_alongside()
{
	local integrity=$MRC_SELFTEST_DIR/integrity
	[ -x "$integrity" ] || { echo "no $integrity"; return 1; }
	"$integrity" -s 1 -t 5 -n 20 -d 2 mrc0 "$MRC_HOST_A" mrc1 "$MRC_HOST_B"
}
ktap_check "plain_rc_qps_still_run" plain_rc_alongside

export MRC_OUTAGE_DOWN="ip netns exec mrcna tc qdisc add dev mrcva root netem loss 100% &&
	ip netns exec mrcnb tc qdisc add dev mrcvb root netem loss 100%"
export MRC_OUTAGE_UP="ip netns exec mrcna tc qdisc del dev mrcva root;
	ip netns exec mrcnb tc qdisc del dev mrcvb root"

exp_count()
{
	mrc_counters mrc0 exp_timeouts | awk '{ print $2 }'
}

# EXP_CNT ok|retry-exc
outage_case()
{
	local before after
	before=$(exp_count) || { echo "no exp_timeouts counter"; return 1; }
	"$PROBE" --outage "$OUTAGE" "$1" "$2" mrc0 "$MRC_HOST_A" mrc1 "$MRC_HOST_B" ||
		return 1
	after=$(exp_count)
	echo "exp_timeouts $before -> $after"
	if [ "$1" = 0 ]; then
		[ "$after" -eq "$before" ] ||
			{ echo "exponential timeouts without the stage"; return 1; }
	else
		[ "$after" -gt "$before" ] ||
			{ echo "no exponential timeout counted"; return 1; }
	fi
	[ "$1" != 3 ] || [ $((after - before)) -le 3 ] ||
		{ echo "more than 3 exponential timeouts"; return 1; }
}
ktap_check "exp_retry_forever_survives_outage" outage_case 25 ok
ktap_check "no_exp_retry_fails_in_outage" outage_case 0 retry-exc
ktap_check "exp_retry_3_fails_in_outage" outage_case 3 retry-exc

mpr_case()	# MPR
{
	[ -r /sys/kernel/debug/mrc/req ] || { echo "no debugfs"; return 1; }
	"$PROBE" --mpr "$1" mrc0 "$MRC_HOST_A" mrc1 "$MRC_HOST_B"
}
ktap_check "mpr_1_bounds_psns_in_flight" mpr_case 1
ktap_check "mpr_8_is_the_whole_window" mpr_case 8
ktap_finish
