#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Loading and unloading mrc leaves nothing behind: no device, no netdev
# reference, no module reference on ib_core or ib_uverbs.
# Needs a module file to load (MRC_KO, the tree's mrc.ko, or an installed
# one for modprobe): a loaded module alone is not enough.
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
mrc_require_reload

# The debug lab kernel (KASAN, kmemleak) loads a module in tens of seconds,
# so its smoke run asks for fewer rounds.
ROUNDS=${MRC_MODULE_LOAD_ROUNDS:-10}
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] ||
	{ echo "MRC_MODULE_LOAD_ROUNDS must be a positive count: $ROUNDS" >&2; exit 2; }
ktap_begin 4
trap mrc_cleanup EXIT

mrc_cleanup
mrc_unload
modprobe ib_uverbs
core_refs=$(cat /sys/module/ib_core/refcnt)
uverbs_refs=$(cat /sys/module/ib_uverbs/refcnt)
ktap_info "ib_core refcnt $core_refs, ib_uverbs refcnt $uverbs_refs before"

load_unload_rounds()
{
	local i
	for ((i = 1; i <= ROUNDS; i++)); do
		mrc_load || { echo "load round $i failed"; return 1; }
		mrc_module_loaded || { echo "not loaded in round $i"; return 1; }
		rmmod mrc || { echo "rmmod round $i failed"; return 1; }
		! mrc_module_loaded || { echo "still loaded in round $i"; return 1; }
	done
}
ktap_check "load_and_unload_${ROUNDS}_times" load_unload_rounds

# Unload with devices present: every device goes, and the netdevs they held
# can be deleted at once (a leaked reference would make `ip link del` hang).
unload_with_devices()
{
	local i
	for ((i = 1; i <= ROUNDS; i++)); do
		mrc_load || return 1
		ip link add mrct0 type dummy && ip link set mrct0 up || return 1
		ip link add mrct1 type dummy && ip link set mrct1 up || return 1
		rdma link add mrc0 type mrc netdev mrct0 || return 1
		rdma link add mrc1 type mrc netdev mrct1 || return 1
		ib_exists mrc0 && ib_exists mrc1 || { echo "no device"; return 1; }
		rmmod mrc || { echo "rmmod with devices failed"; return 1; }
		ib_gone mrc0 && ib_gone mrc1 ||
			{ echo "device survived unload"; return 1; }
		timeout 10 ip link del mrct0 &&
		timeout 10 ip link del mrct1 ||
			{ echo "netdev still referenced after unload"; return 1; }
	done
}
ktap_check "unload_with_live_devices_${ROUNDS}_times" unload_with_devices

module_refs_released()
{
	local core uverbs
	core=$(cat /sys/module/ib_core/refcnt)
	uverbs=$(cat /sys/module/ib_uverbs/refcnt)
	echo "ib_core refcnt $core, ib_uverbs refcnt $uverbs after"
	[ "$core" = "$core_refs" ] && [ "$uverbs" = "$uverbs_refs" ]
}
ktap_check "module_references_released" module_refs_released

ktap_check "reload_for_later_tests" mrc_load
ktap_finish
