#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Memory regions through libibverbs: access rules, limits, keys, and
# deregistration, also under a device that goes away.
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
mrc_require_loaded
MR_PROBE=$MRC_SELFTEST_DIR/mr-probe
[ -x "$MR_PROBE" ] || ktap_skip_all "no $MR_PROBE: run make first"

ktap_begin 8
trap mrc_cleanup EXIT
mrc_cleanup

# The copy and atomic helpers have no user until queue pairs move data:
# the module checks them itself when loaded with mr_selftest=1, and
# refuses to load if any check fails.
helpers_selftest()
{
	local line status=0
	mrc_unload || return 1
	mrc_load mr_selftest=1 || status=1
	line=$(dmesg | grep "mr selftest:" | tail -n 1)
	echo "${line:-no selftest line in dmesg}"
	mrc_reload || return 1
	[ $status -eq 0 ] && echo "$line" | grep -qE "[1-9][0-9]* checks, 0 failed$"
}
if mrc_can_load; then
	ktap_check "data_path_helpers_selftest" helpers_selftest
else
	ktap_skip "data_path_helpers_selftest" "reloads mrc with mr_selftest=1: $MRC_NO_LOADER"
fi
ip link add mrct0 type dummy && ip link set mrct0 up ||
	ktap_skip_all "cannot create a dummy netdev"
rdma link add mrc0 type mrc netdev mrct0 ||
	ktap_skip_all "rdma link add failed (see link.sh)"

# What ibv_devinfo prints is what mrc_param.h says the device enforces.
limits_reported()
{
	local param=$MRC_TOP/drivers/infiniband/sw/mrc/mrc_param.h
	local max_mr bits out
	max_mr=$(($(sed -n 's/^#define MRC_MAX_MR\s\+\(0x[0-9a-f]*\|[0-9]*\)$/\1/p' "$param")))
	bits=$(sed -n 's/^#define MRC_MAX_MR_SIZE\s\+BIT_ULL(\([0-9]*\)).*/\1/p' "$param")
	out=$(ibv_devinfo -v -d mrc0) || return 1
	echo "$out" | grep -E "max_mr|max_mr_size"
	echo "header: max_mr $max_mr, max_mr_size 2^$bits"
	echo "$out" | grep -qE "^\s+max_mr:\s+$max_mr$" &&
	echo "$out" | grep -qiE "^\s+max_mr_size:\s+0x$(printf '%x' $((1 << bits)))$"
}
if [ -n "$MRC_TOP" ]; then
	ktap_check "limits_reported" limits_reported
else
	ktap_skip "limits_reported" "compares with the source tree's mrc_param.h: runs from a source tree only"
fi

ktap_check "access_flags" "$MR_PROBE" mrc0 access
ktap_check "lengths_and_iova" "$MR_PROBE" mrc0 length
ktap_check "read_only_buffer" "$MR_PROBE" mrc0 readonly

# Fills the device to its MR limit, then re-registers one index.
limit_and_rekey()
{
	local start=$SECONDS
	"$MR_PROBE" mrc0 limit || return 1
	echo "took $((SECONDS - start)) s"
}
ktap_check "mr_limit_and_key_byte_rotation" limit_and_rekey

# The device goes away under a process holding MRs: ib_core deregisters
# them (our dereg_mr runs), the process is told, and its own
# ibv_dereg_mr calls still succeed.
mrs_survive_device_removal()
{
	local out=/tmp/mr-probe.$$ pid status
	"$MR_PROBE" mrc0 hold 30 >"$out" 2>&1 &
	pid=$!
	wait_for 10 grep -q ready "$out" || { cat "$out"; kill "$pid"; return 1; }
	timeout 30 rdma link delete mrc0 || { echo "link delete hung"; return 1; }
	wait "$pid"
	status=$?
	cat "$out"
	rm -f "$out"
	wait_for 5 ib_gone mrc0 && [ "$status" -eq 0 ]
}
ktap_check "mrs_released_when_device_removed" mrs_survive_device_removal

# A fresh device works after all of the above (and the module holds no
# leftover state: mrc_mr_table_cleanup() warns on MRs left behind).
fresh_device()
{
	rdma link add mrc1 type mrc netdev mrct0 &&
	"$MR_PROBE" mrc1 access >/dev/null &&
	rdma link delete mrc1
}
ktap_check "fresh_device_after_removal" fresh_device
ktap_finish
