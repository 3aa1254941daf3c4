#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# rdma-core's own verbs test suite (python3-pyverbs, in
# /usr/share/doc/rdma-core/tests) against an mrc device, then against an rxe
# device in the same boot. The suite puts both ends of its traffic tests on
# one device (--dev), which sends to its own address: the packets come back
# over the loopback netdev.
#
# Parity: every test that passes on rxe passes on mrc, unless
# NOT_APPLICABLE below names it with the reason (Documentation/
# conformance.rst has the same list).
#
# Required: no failure in the modules of the verbs this device has (device,
# PD, MR, CQ, QP, CQ events, extended CQ, atomics, the ibv_wr_* extended QP
# API), and the RC traffic and RC QP tests among them, and every ibv_wr_*
# test of an operation mrc has, pass rather than skip. Every other module is
# reported: counts and failures as diagnostics, skips with their reasons.
# Documentation/conformance.rst has the table.
#
# mrc: one namespace, a veth pair: mrcna: mrcva 192.0.2.1/24, mrc0 (GID 1);
# then the rdma_cm tests on mrcn0 over the first NIC, 203.0.113.1/24.
# rxe: a veth pair in init_net, mrcrxa 198.51.100.1/24, rxe0. 6.1's rxe
# sends through one UDP socket in init_net, so its device cannot live in a
# namespace the way mrc's can.
# lab-timeout: 600
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
SUITE=/usr/share/doc/rdma-core/tests
PYTHON=/usr/bin/python3
[ -d "$SUITE" ] || ktap_skip_all "needs python3-pyverbs (no $SUITE)"
"$PYTHON" -c 'import pyverbs.device' 2>/dev/null ||
	ktap_skip_all "needs python3-pyverbs (no pyverbs module)"
mrc_require_loaded

REQUIRED_MODULES=(test_device test_pd test_mr test_cq test_qp test_cq_events
	test_cqex test_atomic test_qpex)
# Each must pass, not merely not fail.
REQUIRED_TESTS=(
	test_qp.QPTest.test_create_rc_qp_no_attr
	test_qp.QPTest.test_create_rc_qp_with_attr
	test_qp.QPTest.test_create_rc_qp_ex_no_attr
	test_qp.QPTest.test_create_rc_qp_ex_with_attr
	test_qp.QPTest.test_query_rc_qp
	test_qp.QPTest.test_create_uc_qp_no_attr
	test_qp.QPTest.test_create_uc_qp_with_attr
	test_qp.QPTest.test_create_uc_qp_ex_no_attr
	test_qp.QPTest.test_create_uc_qp_ex_with_attr
	test_qp.QPTest.test_query_uc_qp
	test_cq_events.CqEventsTestCase.test_cq_events_rc
	test_cqex.CqExTestCase.test_rc_traffic_cq_ex
	test_relaxed_ordering.RoTestCase.test_ro_rc_traffic
	test_atomic.AtomicTest.test_atomic_cmp_and_swap
	test_atomic.AtomicTest.test_atomic_fetch_and_add
	test_atomic.AtomicTest.test_atomic_invalid_rkey
	test_atomic.AtomicTest.test_atomic_invalid_lkey
	# Memory windows, type 1 and 2 (mw.sh has our own checks).
	test_mr.MWTest.test_mw_type1
	test_mr.MWTest.test_invalidate_mw_type1
	test_mr.MWTest.test_mw_type2
	test_mr.MWTest.test_mw_type2_invalidate_local
	test_mr.MWTest.test_mw_type2_invalidate_remote
	test_mr.MWTest.test_mw_type2_invalidate_dealloc
	test_mr.MWTest.test_reg_mw_wrong_type
	test_qpex.QpExTestCase.test_qp_ex_rc_bind_mw
	# The ibv_wr_* API; not XRC nor atomic write.
	test_qpex.QpExTestCase.test_qp_ex_rc_send
	test_qpex.QpExTestCase.test_qp_ex_rc_send_imm
	test_qpex.QpExTestCase.test_qp_ex_rc_rdma_write
	test_qpex.QpExTestCase.test_qp_ex_rc_rdma_write_imm
	test_qpex.QpExTestCase.test_qp_ex_rc_rdma_write_zero_length
	test_qpex.QpExTestCase.test_qp_ex_rc_rdma_read
	test_qpex.QpExTestCase.test_qp_ex_rc_rdma_read_zero_size
	test_qpex.QpExTestCase.test_qp_ex_rc_atomic_cmp_swp
	test_qpex.QpExTestCase.test_qp_ex_rc_atomic_fetch_add
	test_qpex.QpExTestCase.test_qp_ex_ud_send
	test_qpex.QpExTestCase.test_qp_ex_ud_send_imm
	test_qpex.QpExTestCase.test_qp_ex_ud_zero_size
	test_qpex.QpExTestCase.test_post_send_qp_state_bad_flow
	test_qpex.QpExTestCase.test_post_receive_qp_state_bad_flow
	test_qpex.QpExTestCase.test_full_rq_bad_flow
	test_qpex.QpExTestCase.test_rq_with_larger_sgl_bad_flow
)
# Tests that pass on rxe and may not on mrc, with the reason. Empty: every
# rxe pass is required of mrc.
declare -A NOT_APPLICABLE=()
# Tests that pass on rxe and not yet on mrc, for a feature mrc still lacks:
# while any is left, rxe_parity is a skip that names them, not a pass.
declare -A NOT_YET=()
RXE_ADDR=198.51.100.1
NIC_ADDR=203.0.113.1
tmp=
rxe_made=
nic=

remove_rxe()
{
	[ -n "$rxe_made" ] || return 0
	rdma link delete rxe0 2>/dev/null
	ip link delete mrcrxa 2>/dev/null
	rmmod rdma_rxe 2>/dev/null
	rxe_made=
	return 0
}

remove_nic_device()
{
	[ -n "$nic" ] || return 0
	rdma link delete mrcn0 2>/dev/null
	wait_for 10 ib_gone mrcn0
	ip addr flush dev "$nic" 2>/dev/null
	ip link set "$nic" down 2>/dev/null
	nic=
	return 0
}

cleanup()
{
	remove_nic_device
	remove_rxe
	remove_two_hosts
	mrc_cleanup
	[ -z "$tmp" ] || rm -rf "$tmp"
	return 0
}
trap cleanup EXIT
cleanup
tmp=$(mktemp -d)
# rdma_rxe would take the UDP port our devices use.
[ -d /sys/module/rdma_rxe ] && rmmod rdma_rxe 2>/dev/null
make_two_hosts || ktap_skip_all "cannot build the namespaces and devices"

# The suite ships some modules gzipped, as Debian compresses docs.
cp -r "$SUITE" "$tmp/tests" && gunzip -f "$tmp"/tests/*.gz ||
	ktap_skip_all "cannot unpack $SUITE"

ktap_begin $((4 + ${#REQUIRED_MODULES[@]} + ${#REQUIRED_TESTS[@]}))

# run_suite RESULTS DEVICE GID_INDEX [NETNS [NAME...]]: the suite (or its
# modules or tests NAME) on DEVICE, in NETNS ("" or none: init_net).
run_suite()
{
	local results=$1 dev=$2 gid=$3 netns=${4:-} status
	local -a in_netns=()
	shift $(($# < 4 ? $# : 4))
	[ -z "$netns" ] || in_netns=(ip netns exec "$netns")
	"${in_netns[@]}" timeout 500 "$PYTHON" \
		"$MRC_SELFTEST_DIR/pyverbs_run.py" "$tmp/tests" "$dev" "$gid" "$@" \
		>"$results" 2>"$results.stderr"
	status=$?
	grep '^# ran' "$results"
	tail -n 5 "$results.stderr"
	[ $status -eq 0 ] && grep -q '^# ran [1-9]' "$results"
}
ktap_check "suite_ran" run_suite "$tmp/results" mrc0 1 mrcna

# "ok N fail N skip N" of the tests whose id starts with PREFIX, in
# RESULTS (default: mrc's).
counts()	# PREFIX [RESULTS]
{
	awk -v p="tests.$1" '
	index($2, p) == 1 { n[$1]++ }
	END { printf "ok %d fail %d skip %d\n", n["ok"], n["fail"], n["skip"] }' \
		"${2:-$tmp/results}"
}

module_clean()	# MODULE [RESULTS]
{
	local c
	c=$(counts "$1." "${2:-$tmp/results}")
	echo "$1: $c"
	grep "^fail tests\.$1\." "${2:-$tmp/results}"
	[[ $c == ok\ [1-9]*\ fail\ 0\ * ]]
}
for m in "${REQUIRED_MODULES[@]}"; do
	ktap_check "${m#test_}_module_no_failures" module_clean "$m"
done

passed()	# TEST
{
	grep -E "^(ok|fail|skip) tests\.$1(:|$)" "$tmp/results" ||
		echo "$1: not run"
	grep -qx "ok tests\.$1" "$tmp/results"
}
for t in "${REQUIRED_TESTS[@]}"; do
	ktap_check "${t##*.}" passed "$t"
done

remove_two_hosts

# rdma-core's rdma_cm tests find a device's netdev under
# /sys/class/infiniband/DEV/device/net, so they run on a device over a NIC
# (the lab VM has one), in init_net; their results replace the skips of
# the run above.
make_nic_device()
{
	nic=$(nic_netdev) || { nic_why="no netdev with a parent device (a NIC)"; return 1; }
	ip addr add $NIC_ADDR/24 dev "$nic" && ip link set "$nic" up &&
	rdma link add mrcn0 type mrc netdev "$nic" &&
	mrc_select_preset mrcn0 &&
	nic_gid=$(mrc_gid_index mrcn0 $NIC_ADDR 5) ||
		{ nic_why="cannot make mrcn0 on $nic"; return 1; }
}
nic_why=
if make_nic_device; then
	run_suite "$tmp/rdmacm" mrcn0 "$nic_gid" "" test_rdmacm
	ktap_check "rdmacm_module_no_failures" module_clean test_rdmacm "$tmp/rdmacm"
	grep -v '^[a-z]* tests\.test_rdmacm\.' "$tmp/results" >"$tmp/results.new"
	grep '^[a-z]* tests\.test_rdmacm\.' "$tmp/rdmacm" >>"$tmp/results.new"
	mv "$tmp/results.new" "$tmp/results"
else
	ktap_skip "rdmacm_module_no_failures" "$nic_why"
fi
remove_nic_device

# The rxe column, after mrc's devices are gone.
rxe_why=
make_rxe()
{
	modprobe rdma_rxe 2>/dev/null || { rxe_why="needs rdma_rxe"; return 1; }
	rxe_made=1
	ip link add mrcrxa type veth peer name mrcrxb &&
	ip addr add $RXE_ADDR/24 dev mrcrxa &&
	ip link set mrcrxa up && ip link set mrcrxb up &&
	rdma link add rxe0 type rxe netdev mrcrxa ||
		{ rxe_why="cannot make an rxe device"; return 1; }
	rxe_gid=$(mrc_gid_index rxe0 $RXE_ADDR 5) ||
		{ rxe_why="rxe0 has no GID for $RXE_ADDR"; return 1; }
}
if make_rxe; then
	ktap_check "rxe_suite_ran" run_suite "$tmp/rxe" rxe0 "$rxe_gid"
else
	ktap_skip "rxe_suite_ran" "$rxe_why"
fi
remove_rxe

# "ok ID" lines of RESULTS, IDs only, sorted.
passes()	# RESULTS
{
	sed -n 's/^ok \([^:]*\)$/\1/p; s/^ok \([^:]*\): expected failure$/\1/p' "$1" |
		sort -u
}

# Every test rxe passes, mrc passes too, or NOT_APPLICABLE says why not;
# those NOT_YET names are counted in $tmp/not_yet.
rxe_parity()
{
	local t id outcome missing=0
	: >"$tmp/not_yet"
	for t in $(comm -23 <(passes "$tmp/rxe") <(passes "$tmp/results")); do
		id=${t#tests.}
		outcome=$(grep -m1 -E "^(fail|skip) $t(:|$)" "$tmp/results" ||
			echo "not run $t")
		if [ -n "${NOT_APPLICABLE[$id]:-}" ]; then
			echo "not applicable: $id: ${NOT_APPLICABLE[$id]}"
		elif [ -n "${NOT_YET[$id]:-}" ]; then
			echo "not yet: $id: ${NOT_YET[$id]}"
			echo "$id" >>"$tmp/not_yet"
		else
			echo "passes on rxe only: $outcome"
			missing=$((missing + 1))
		fi
	done
	for id in "${!NOT_YET[@]}"; do
		grep -qx "ok tests\.$id" "$tmp/results" &&
			echo "listed as not yet, yet passes: $id"
	done
	echo "passes on mrc only:"
	comm -13 <(passes "$tmp/rxe") <(passes "$tmp/results") | sed 's/^/  /'
	[ $missing -eq 0 ]
}
if [ -s "$tmp/rxe" ] && grep -q '^# ran [1-9]' "$tmp/rxe"; then
	rxe_parity >"$tmp/parity" 2>&1
	status=$?
	sed 's/^/# /' "$tmp/parity"
	if [ $status -ne 0 ]; then
		ktap_fail "rxe_parity"
	elif [ -s "$tmp/not_yet" ]; then
		ktap_skip "rxe_parity" "$(wc -l <"$tmp/not_yet") tests pass on rxe and not yet on mrc (NOT_YET)"
	else
		ktap_pass "rxe_parity"
	fi
else
	ktap_skip "rxe_parity" "no rxe results: ${rxe_why:-the rxe run failed}"
fi

# The rest, reported: per module, mrc's counts, then rxe's.
report()
{
	local m rxe=
	[ -s "$tmp/rxe" ] && rxe=$tmp/rxe
	for m in $(awk '{ split($2, w, "."); print w[2] }' "$tmp/results" |
		   sort -u); do
		[ -n "$m" ] && [ "$m" != ran ] &&
			echo "$m: mrc $(counts "$m.")${rxe:+ | rxe $(counts "$m." "$rxe")}"
	done
	echo "total: mrc $(counts "")${rxe:+ | rxe $(counts "" "$rxe")}"
	echo "failures outside the required modules:"
	grep '^fail ' "$tmp/results" | sed 's/^fail tests\./  /'
	echo "skip reasons (count, reason):"
	sed -n 's/^skip [^:]*: //p' "$tmp/results" | sort | uniq -c |
		sort -rn | sed 's/^/  /'
	return 0
}
report | sed 's/^/# /'
ktap_finish
