#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The parent device of an mrc device (/sys/class/infiniband/DEV/device,
# which NCCL's topology and rdma-core's rdma_cm tests read): the NIC of a
# netdev that has one, the real netdev's NIC for a VLAN, none for a virtual
# netdev (Documentation/real-nics.rst). The NIC cases need a netdev with a
# parent device; the lab VM has none unless one is added, e.g.
#   MRC_VM_QEMU_EXTRA='-netdev hubport,id=n0,hubid=0 -device virtio-net-pci,netdev=n0'
# With MRC_PARENT_REMOVE_NIC=1 (never on a machine whose NIC matters), the
# NIC's PCI function is removed under a device and rescanned after: the
# device goes first, and the kernel log stays clean (mrc-vm checks it).
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
mrc_require_loaded

trap mrc_cleanup EXIT
mrc_cleanup

# A network controller on the PCI bus may only lack its driver (the lab
# VM has no udev to load it).
if ! nic_netdev >/dev/null &&
   grep -qs '^0x0200' /sys/bus/pci/devices/*/class; then
	modprobe -q virtio_net 2>/dev/null
	wait_for 5 nic_netdev >/dev/null
fi

ktap_begin 6

no_parent_on_veth()
{
	make_veth mrct0 mrct0p && rdma link add mrc0 type mrc netdev mrct0 &&
	ib_exists mrc0 || return 1
	ls -l /sys/class/infiniband/mrc0/ | grep -w device
	[ ! -e /sys/class/infiniband/mrc0/device ] &&
	[ ! -L /sys/class/infiniband/mrc0/device ]
}
ktap_check "veth_device_has_no_parent" no_parent_on_veth

nic=$(nic_netdev)
if [ -z "$nic" ]; then
	why="no netdev with a parent device here (the lab VM has no NIC unless MRC_VM_QEMU_EXTRA adds one)"
	ktap_skip "nic_device_parent_is_the_nic" "$why"
	ktap_skip "nic_parent_lists_the_netdev" "$why"
	ktap_skip "vlan_device_parent_is_the_real_nic" "$why"
	ktap_skip "nic_parent_left_clean_after_delete" "$why"
	ktap_skip "nic_removed_under_device" "$why"
	ktap_finish
fi
want=$(readlink -f "/sys/class/net/$nic/device")
echo "# NIC netdev $nic, device $want"

parent_is_nic()	# IBDEV NETDEV
{
	local got
	rdma link add "$1" type mrc netdev "$2" && ib_exists "$1" || return 1
	got=$(readlink -f "/sys/class/infiniband/$1/device")
	echo "$1/device -> $got"
	[ -n "$got" ] && [ "$got" = "$want" ]
}
ktap_check "nic_device_parent_is_the_nic" parent_is_nic mrcn0 "$nic"
# What rdma-core's rdma_cm tests read to find the device's netdev.
ktap_check "nic_parent_lists_the_netdev" \
	test -e "/sys/class/infiniband/mrcn0/device/net/$nic"

vlan_parent()
{
	ip link add link "$nic" name mrctv type vlan id 7 || return 1
	parent_is_nic mrcv0 mrctv
}
ktap_check "vlan_device_parent_is_the_real_nic" vlan_parent

# Deleting the devices (and the VLAN under one) leaves nothing under the
# NIC's device; a later device on the same NIC gets the same parent.
clean_after_delete()
{
	rdma link delete mrcn0 && ip link del mrctv &&
	wait_for 10 ib_gone mrcv0 && wait_for 10 ib_gone mrcn0 || return 1
	[ ! -e "$want/infiniband/mrcn0" ] && [ ! -e "$want/infiniband/mrcv0" ] ||
		return 1
	parent_is_nic mrcn0 "$nic" && rdma link delete mrcn0 &&
	wait_for 10 ib_gone mrcn0
}
ktap_check "nic_parent_left_clean_after_delete" clean_after_delete

# The PCI function the NIC hangs off (for virtio, the virtio device's
# parent).
pci_function()
{
	local d=$want
	while [ "$d" != / ]; do
		[ "$(readlink -f "$d/subsystem")" = /sys/bus/pci ] &&
			{ echo "$d"; return 0; }
		d=$(dirname "$d")
	done
	return 1
}

nic_removed()
{
	local pci status=0
	pci=$(pci_function) || { echo "no PCI function above $want"; return 1; }
	parent_is_nic mrcn0 "$nic" || return 1
	echo "removing $pci"
	echo 1 >"$pci/remove" || return 1
	wait_for 10 ib_gone mrcn0 || { echo "mrcn0 outlived its NIC"; status=1; }
	[ ! -e "$pci" ] || { echo "$pci is still there"; status=1; }
	echo 1 >/sys/bus/pci/rescan
	wait_for 10 nic_netdev >/dev/null || { echo "no NIC after a rescan"; status=1; }
	return $status
}
if [ "${MRC_PARENT_REMOVE_NIC:-0}" = 1 ]; then
	ktap_check "nic_removed_under_device" nic_removed
else
	ktap_skip "nic_removed_under_device" "removes the NIC's PCI function: set MRC_PARENT_REMOVE_NIC=1 where that is harmless (a lab VM)"
fi
ktap_finish
