#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# libibverbs sees mrc devices through our provider, beside rxe ones.
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
mrc_require_loaded
command -v ibv_devinfo >/dev/null || ktap_skip_all "needs ibverbs-utils"

# rdma_rxe takes UDP port 4791 in init_net when it loads, the port mrc's
# devices there use by default: run beside it on another one. That needs
# rdma_rxe and a module file to reload mrc with; without them, the other
# cases run on the loaded module and coexists_with_rxe skips.
rxe_why=
if ! rxe_available; then
	rxe_why="needs rdma_rxe (not in this kernel)"
elif ! mrc_can_load; then
	rxe_why="reloads mrc with udp_port=4792 to run beside rdma_rxe: $MRC_NO_LOADER"
else
	mrc_reload udp_port=4792 ||
		ktap_skip_all "mrc did not load with udp_port=4792 ($(mrc_loader))"
fi
# Without the reload, a loaded rdma_rxe would hold mrc's port in init_net.
[ -z "$rxe_why" ] || [ ! -d /sys/module/rdma_rxe ] || rmmod rdma_rxe 2>/dev/null

ktap_begin 7
cleanup()
{
	mrc_cleanup
	rdma link delete rxet0 2>/dev/null
	rmmod rdma_rxe 2>/dev/null
	[ -n "$rxe_why" ] || mrc_reload
}
trap cleanup EXIT
mrc_cleanup
make_veth mrct0 mrct0p || ktap_skip_all "cannot create a veth pair"
ip addr add 192.0.2.21/24 dev mrct0
rdma link add mrc0 type mrc netdev mrct0 ||
	ktap_skip_all "rdma link add failed (see link.sh)"

node_guid=$(cat /sys/class/infiniband/mrc0/node_guid)
ktap_check "ibv_devices_lists_device" \
	sh -c "ibv_devices | grep -E '^\s+mrc0\s+' | grep -q '${node_guid//:/}'"

devinfo()
{
	ibv_devinfo -v -d mrc0 >/tmp/devinfo.$$ 2>&1 || { cat /tmp/devinfo.$$; return 1; }
	cat /tmp/devinfo.$$
	grep -qE "^hca_id:\s+mrc0" /tmp/devinfo.$$ &&
	grep -qE "link_layer:\s+Ethernet" /tmp/devinfo.$$ &&
	grep -qE "state:\s+PORT_ACTIVE" /tmp/devinfo.$$ &&
	grep -qE "max_pd:\s+65536" /tmp/devinfo.$$ &&
	grep -qE "max_pkeys:\s+1\b" /tmp/devinfo.$$
}
ktap_check "ibv_devinfo_verbose" devinfo

# Every GID sysfs has, ibv_devinfo shows (it reads them through the provider
# path of libibverbs), and the address we added is among them.
gids_agree()
{
	wait_for 5 ib_has_gid mrc0 "ffff:c000:0215 RoCE v2" || return 1
	local sysfs_count devinfo_count
	sysfs_count=$(ib_gids mrc0 | wc -l)
	devinfo_count=$(ibv_devinfo -v -d mrc0 | grep -cE "GID\[ *[0-9]+\]:")
	echo "sysfs $sysfs_count GIDs, ibv_devinfo $devinfo_count"
	[ "$sysfs_count" -eq "$devinfo_count" ] &&
	ibv_devinfo -v -d mrc0 | grep -q "::ffff:192.0.2.21, RoCE v2"
}
ktap_check "ibv_devinfo_gids_match_sysfs" gids_agree

ktap_check "alloc_and_dealloc_pd" "$VERBS_PROBE" mrc0 pd
abi_matches()
{
	local want dev
	want=$(sed -n 's/^#define MRC_UVERBS_ABI_VERSION \([0-9]*\)$/\1/p' \
		"$MRC_TOP/include/uapi/rdma/mrc-abi.h")
	for dev in /sys/class/infiniband_verbs/uverbs*; do
		[ "$(cat "$dev/ibdev")" = mrc0 ] || continue
		echo "abi_version $(cat "$dev/abi_version"), header says $want"
		[ "$(cat "$dev/abi_version")" = "$want" ]
		return
	done
	echo "no uverbs device for mrc0"
	return 1
}
if [ -n "$MRC_TOP" ]; then
	ktap_check "uverbs_abi_version_matches_header" abi_matches
else
	ktap_skip "uverbs_abi_version_matches_header" "compares with the source tree's mrc-abi.h: runs from a source tree only"
fi

# An rxe device beside ours: each provider claims only its own device.
side_by_side()
{
	modprobe rdma_rxe || return 1
	make_veth mrct1 mrct1p && rdma link add rxet0 type rxe netdev mrct1 ||
		return 1
	ibv_devices
	ibv_devinfo -d rxet0 | grep -q "hca_id:\s*rxet0" &&
	ibv_devinfo -d mrc0 | grep -q "hca_id:\s*mrc0" &&
	"$VERBS_PROBE" mrc0 pd && "$VERBS_PROBE" rxet0 pd
}
if [ -z "$rxe_why" ]; then
	ktap_check "coexists_with_rxe" side_by_side
else
	ktap_skip "coexists_with_rxe" "$rxe_why"
fi
rdma link delete rxet0 2>/dev/null

ktap_check "device_removed_by_link_delete" \
	sh -c 'rdma link delete mrc0 && ! ibv_devices | grep -q mrc0'
ktap_finish
