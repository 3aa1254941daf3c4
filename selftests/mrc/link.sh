#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# `rdma link add ... type mrc` and `rdma link delete`.
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
mrc_require_loaded

ktap_begin 6
trap mrc_cleanup EXIT
mrc_cleanup
make_veth mrct0 mrct0p && make_veth mrct1 mrct1p ||
	ktap_skip_all "cannot create veth pairs"

ktap_check "link_add" rdma link add mrc0 type mrc netdev mrct0
ktap_check "device_bound_to_netdev" \
	sh -c 'rdma link show mrc0/1 && rdma link show mrc0/1 | grep -q "netdev mrct0"'
ktap_check "second_device_on_other_netdev" \
	sh -c 'rdma link add mrc1 type mrc netdev mrct1 && rdma link show mrc1/1 | grep -q "netdev mrct1"'
ktap_check "link_delete" \
	sh -c 'rdma link delete mrc0 && ! rdma link show mrc0/1 2>/dev/null && [ ! -e /sys/class/infiniband/mrc0 ]'
ktap_check "other_device_untouched" \
	sh -c 'rdma link show mrc1/1 | grep -q "netdev mrct1"'
readd()
{
	rdma link add mrc0 type mrc netdev mrct0 &&
	rdma link show mrc0/1 | grep -q "netdev mrct0" &&
	rdma link delete mrc0 && rdma link delete mrc1 &&
	ib_gone mrc0 && ib_gone mrc1
}
ktap_check "same_name_and_netdev_reusable_after_delete" readd
ktap_finish
