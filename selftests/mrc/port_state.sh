#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The port state follows the netdev: administratively and by carrier.
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
mrc_require_loaded
command -v ibv_devinfo >/dev/null || ktap_skip_all "needs ibv_devinfo"

ktap_begin 6
trap mrc_cleanup EXIT
mrc_cleanup
make_veth mrct0 mrct0p || ktap_skip_all "cannot create a veth pair"
rdma link add mrc0 type mrc netdev mrct0 ||
	ktap_skip_all "rdma link add failed (see link.sh)"

devinfo_state_is()	# PORT_STATE
{
	ibv_devinfo -d mrc0 | grep -E "^\s+state:" | grep -q "$1"
}

ktap_check "active_with_carrier" ib_port_state_is mrc0 ACTIVE
ktap_check "ibv_devinfo_shows_active" devinfo_state_is PORT_ACTIVE

ip link set mrct0 down
ktap_check "down_when_netdev_down" wait_for 5 ib_port_state_is mrc0 DOWN
ktap_check "ibv_devinfo_shows_down" devinfo_state_is PORT_DOWN

ip link set mrct0 up
ktap_check "active_again_when_up" wait_for 5 ib_port_state_is mrc0 ACTIVE

# Carrier loss: the peer end going down takes our carrier away.
carrier_follows()
{
	ip link set mrct0p down &&
	wait_for 5 ib_port_state_is mrc0 DOWN &&
	cat /sys/class/infiniband/mrc0/ports/1/phys_state &&
	grep -q ": Polling$" /sys/class/infiniband/mrc0/ports/1/phys_state &&
	ip link set mrct0p up &&
	wait_for 5 ib_port_state_is mrc0 ACTIVE
}
ktap_check "follows_carrier" carrier_follows
ktap_finish
