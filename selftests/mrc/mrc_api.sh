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
# A QP bound to an EV profile at RESET -> INIT (issue 18): an id no profile
# has, in range (the kernel's EINVAL) and out of it (lib_mrc's), refused
# with the QP left in RESET; bound to an SRv6 profile with no EV towards
# the IPv4 peer, INIT but RTR refused (EINVAL), and after a reset that
# profile is free to delete; bound to a UDP profile of its own ports,
# rounds checked byte for byte, the path dump shows the profile on that QP
# and only its ports carrying the traffic, and deleting or replacing the
# profile is EBUSY while the QP lives and succeeds once it is gone.
# The benchmark tool (mrc-api-bench, issue 18), short: WRITE bandwidth,
# WRITE_IMM message rate and WRITE_IMM ping-pong latency (sleeping on the
# completion channel, and busy polling), each through mrc.h and through
# plain verbs RC QPs of the same devices, every byte of every message
# checked where it landed. The figures are shown, nothing is asserted of
# them: scripts/bench-mrc-api compares the APIs.
# lab-timeout: 300
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
mrc_require_loaded
PROBE=$MRC_SELFTEST_DIR/mrc-api-probe
PROBE_NV=$MRC_SELFTEST_DIR/mrc-api-probe-nv
BENCH=$MRC_SELFTEST_DIR/mrc-api-bench
ROUNDS=${MRC_API_ROUNDS:-200}
OUTAGE=${MRC_API_OUTAGE:-3}

ktap_begin 13
for p in "$PROBE" "$PROBE_NV" "$BENCH"; do
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
mpr_dest_case()	# MPR_DEST
{
	[ -r /sys/kernel/debug/mrc/req ] || { echo "no debugfs"; return 1; }
	"$PROBE" --mpr-dest "$1" mrc0 "$MRC_HOST_A" mrc1 "$MRC_HOST_B"
}
ktap_check "mpr_dest_1_sets_the_responders_window" mpr_dest_case 1

# The profile's ports: nothing else sprays on them.
EVP_ID=7
EVP_NOPATH=8
EVP_PORTS="50070 50071 50072 50073"
ev_profile_case()
{
	local mrcctl check ev rc
	mrcctl=$(mrc_tool mrcctl) || { echo "no mrcctl"; return 1; }
	"$mrcctl" profile del mrc0 "$EVP_ID" 2>/dev/null
	for ev in $EVP_PORTS; do set -- "$@" "0:$ev"; done
	"$mrcctl" profile add mrc0 "$EVP_ID" format udp ev "$@" || return 1
	"$mrcctl" profile del mrc0 "$EVP_NOPATH" 2>/dev/null
	"$mrcctl" profile add mrc0 "$EVP_NOPATH" format srv6 ev 0:fc00:0:9:: ||
		return 1
	check=$(mktemp) || return 1
	cat > "$check" <<CHECK
#!/bin/bash
out=\$("$mrcctl" paths mrc0) || exit 1
echo "\$out" | awk -v qpn="\$MRC_QPN" '\$1 == "qp" { on = \$2 == qpn } on'
echo "\$out" | awk -v qpn="\$MRC_QPN" -v id="$EVP_ID" -v ports="$EVP_PORTS" '
	BEGIN { n = split(ports, p, " "); for (i = 1; i <= n; i++) want[p[i]] = 1 }
	\$1 == "qp" { on = \$2 == qpn; if (on) { seen = 1; prof = \$NF; hdr = \$(NF - 1) } next }
	on && \$1 == "ev" {
		for (i = 1; i < NF; i += 2) f[\$i] = \$(i + 1)
		if (!(f["udp"] in want)) { print "# EV on port " f["udp"] " is not one of the profile"; bad = 1 }
		sent += f["sent"]; evs++
	}
	END {
		if (!seen) { print "# QP " qpn " not in the path dump"; exit 1 }
		if (hdr != "profile" || prof != id) { print "# QP shows profile " prof ", want " id; exit 1 }
		if (!evs || !sent) { print "# no EV of the QP sent anything"; exit 1 }
		print "# QP " qpn ": profile " prof ", " evs " EVs, " sent " packets sent on its ports"
		exit bad
	}' || exit 1
# The reset QP let the profile without a path go.
"$mrcctl" profile del mrc0 $EVP_NOPATH || { echo "# profile $EVP_NOPATH still held"; exit 1; }
echo "# profile $EVP_NOPATH deleted: the reset QP let it go"
if out=\$("$mrcctl" profile del mrc0 $EVP_ID 2>&1); then
	echo "# profile deleted under a bound QP"; exit 1
fi
echo "# delete while bound: \$out"
echo "\$out" | grep -q "Device or resource busy" || exit 1
if out=\$("$mrcctl" profile add mrc0 $EVP_ID format udp replace ev 0:50079 2>&1); then
	echo "# profile replaced under a bound QP"; exit 1
fi
echo "# replace while bound: \$out"
echo "\$out" | grep -q "Device or resource busy"
CHECK
	chmod +x "$check"
	MRC_BOUND_CHECK=$check "$PROBE" --ev-profile "$EVP_ID" 9 "$EVP_NOPATH" \
		mrc0 "$MRC_HOST_A" mrc1 "$MRC_HOST_B"
	rc=$?
	rm -f "$check"
	if [ "$rc" != 0 ]; then
		"$mrcctl" profile del mrc0 "$EVP_ID"
		"$mrcctl" profile del mrc0 "$EVP_NOPATH" 2>/dev/null
		return 1
	fi
	# The QPs are gone: the profile is free again.
	"$mrcctl" profile del mrc0 "$EVP_ID" ||
		{ echo "profile not deleted after its QP"; return 1; }
	echo "profile $EVP_ID deleted after the QP was destroyed"
}
ktap_check "qp_bound_to_ev_profile" ev_profile_case

# FIGURE MODE ARGS...: the run through each API, then their figures.
bench_both()
{
	local figure=$1 api out value status line=""
	shift
	for api in mrc verbs; do
		out=$("$BENCH" --api "$api" --mode "$@" --seed "$RANDOM$RANDOM" \
			mrc0 "$MRC_HOST_A" mrc1 "$MRC_HOST_B" 2>&1)
		status=$?
		echo "$out"
		[ "$status" = 0 ] || { echo "--api $api failed ($status)"; return 1; }
		value=$(echo "$out" | awk -v f="$figure" '$1 == "#" && $2 == f { print $NF }')
		[ -n "$value" ] || { echo "--api $api printed no $figure"; return 1; }
		line+=" $api $value"
	done
	echo "$figure$line"
}
bench_latency()
{
	bench_both lat_us lat -n 200 && bench_both lat_us lat -s 4000 -n 50 --poll
}
ktap_check "bench_write_bw_bytes_checked" bench_both write_bw write_bw -s 65536 -n 48 -w 16
ktap_check "bench_wimm_rate_bytes_checked" bench_both wimm_rate wimm_rate -s 8 -n 2000 -w 32
ktap_check "bench_latency_bytes_checked" bench_latency
ktap_finish
