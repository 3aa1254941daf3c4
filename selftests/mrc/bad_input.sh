#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Bad `rdma link add` requests fail with a clear error and leave nothing.
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
mrc_require_loaded

ktap_begin 7
trap mrc_cleanup EXIT
mrc_cleanup
make_veth mrct0 mrct0p && make_veth mrct1 mrct1p ||
	ktap_skip_all "cannot create veth pairs"

# expect_refused ERROR-REGEX COMMAND...: COMMAND fails and says ERROR.
expect_refused()
{
	local want=$1 out
	shift
	if out=$("$@" 2>&1); then
		echo "unexpectedly succeeded: $*"
		return 1
	fi
	echo "$out"
	echo "$out" | grep -qiE "$want"
}

only_links()	# the mrc links that must exist, e.g. "mrc0"
{
	local have
	have=$(ls /sys/class/infiniband 2>/dev/null | grep '^mrc' | xargs)
	echo "devices: ${have:-none}"
	[ "$have" = "$*" ]
}

ktap_check "missing_netdev_refused" \
	expect_refused "no such device" rdma link add mrc0 type mrc netdev mrct-none
ktap_check "nothing_left_after_missing_netdev" only_links

rdma link add mrc0 type mrc netdev mrct0
ktap_check "second_device_on_same_netdev_refused" \
	expect_refused "file exists" rdma link add mrc1 type mrc netdev mrct0
ktap_check "duplicate_name_refused" \
	expect_refused "file exists" rdma link add mrc0 type mrc netdev mrct1
ktap_check "non_ethernet_netdev_refused" \
	expect_refused "not supported" rdma link add mrc1 type mrc netdev lo
ktap_check "name_without_mrc_prefix_refused" \
	expect_refused "invalid argument" rdma link add foo0 type mrc netdev mrct1
ktap_check "only_the_good_device_exists" \
	sh -c "$(declare -f only_links); only_links mrc0 && rdma link show mrc0/1 | grep -q 'netdev mrct0'"
ktap_finish
