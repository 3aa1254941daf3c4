#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The OCP controller API (mrc_ctl.h, lib_mrc; Documentation/mrc-api.rst)
# on a live device, each step checked with mrcctl, which reads the kernel
# through the same netlink family: the device query; an explicit and a
# generated EV profile created through lib_mrc and seen by mrcctl; EV
# states set through lib_mrc and read by mrcctl, and the other way round;
# a profile withdrawn; the CC profile changed and read back by mrcctl;
# port 1's admin state; on a device over a 2-slave bond, port 2 disabled
# and enabled through lib_mrc, seen by ip link and mrcctl, and ports out
# of range refused; the documented errnos for bad input and the parts
# the kernel does not offer yet; EPERM without CAP_NET_ADMIN. (EV events:
# ev_events.sh.)
# lab-timeout: 120
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
MRCCTL=$(mrc_tool mrcctl) ||
	ktap_skip_all "needs mrcctl: the tree's tools/mrcctl (make) or an installed one (make install)"
PROBE=$MRC_SELFTEST_DIR/mrc-ctl-probe
[ -x "$PROBE" ] || ktap_skip_all "no $PROBE: run make first"
if ldd "$PROBE" | grep -q "not found"; then
	ktap_skip_all "$PROBE cannot find its libraries: $(ldd "$PROBE" | grep 'not found' | tr -s ' \t' ' ')"
fi
mrc_require_loaded

cleanup()
{
	mrc_cleanup
}
trap cleanup EXIT
mrc_cleanup
make_veth mrctc0 mrctc0p || ktap_skip_all "cannot create a veth pair"
rdma link add mrc0 type mrc netdev mrctc0 ||
	ktap_skip_all "rdma link add failed (see link.sh)"

ktap_begin 13

# contains TEXT COMMAND...: runs it, prints its output, which holds TEXT.
contains()
{
	local want=$1 out
	shift
	out=$("$@" 2>&1) || { echo "$out"; echo "# failed: $*"; return 1; }
	echo "$out"
	echo "$out" | grep -q -- "$want" ||
		{ echo "# '$want' not in the output of: $*"; return 1; }
}

ktap_check "device_query" contains \
	"profiles 64 evs 65536 free 65536 per-profile 1024 fmt 0x6 modes 0x6 ports 0x2 opt 0x26 cc uet-1.0-nscc" \
	"$PROBE" mrc0 device

explicit_seen_by_mrcctl()
{
	"$PROBE" mrc0 explicit 7 50000 50001 50002 50003 || return 1
	contains "profile 7 format udp mode explicit evs 4 min-active 1" \
		"$MRCCTL" profile show mrc0 || return 1
	contains "3 plane 0 50003 GOOD" "$MRCCTL" ev show mrc0 7 || return 1
	contains "ev 3 port 1 udp 50003 GOOD" "$PROBE" mrc0 show 7
}
ktap_check "explicit_profile_created_and_queried" explicit_seen_by_mrcctl

generated_seen_by_mrcctl()
{
	"$PROBE" mrc0 generated 8 || return 1
	contains "profile 8 format udp mode generated evs 32 min-active 2 plane-mask 0x1 field 16:0xc000:0:31:0x1f" \
		"$MRCCTL" profile show mrc0 || return 1
	contains "31 plane 0 49183 GOOD" "$MRCCTL" ev show mrc0 8 || return 1
	contains "profile 8 state 2 mode gen count 32 min-active 2" \
		"$PROBE" mrc0 show 8
}
ktap_check "generated_profile_created_and_queried" generated_seen_by_mrcctl

ev_state_through_lib_mrc()
{
	"$PROBE" mrc0 set 7 50001 DENIED || return 1
	contains "1 plane 0 50001 DENIED" "$MRCCTL" ev show mrc0 7 || return 1
	"$PROBE" mrc0 set 7 50001 GOOD || return 1
	contains "1 plane 0 50001 GOOD" "$MRCCTL" ev show mrc0 7
}
ktap_check "ev_states_set_through_lib_mrc_seen_by_mrcctl" ev_state_through_lib_mrc

ev_state_through_mrcctl()
{
	"$MRCCTL" ev deny mrc0 7 2 || return 1
	contains "ev 2 port 1 udp 50002 DENIED" "$PROBE" mrc0 show 7 || return 1
	"$MRCCTL" ev allow mrc0 7 2 || return 1
	contains "ev 2 port 1 udp 50002 GOOD" "$PROBE" mrc0 show 7
}
ktap_check "ev_states_set_by_mrcctl_seen_through_lib_mrc" ev_state_through_mrcctl

withdrawn()
{
	"$PROBE" mrc0 offline 8 || return 1
	if "$MRCCTL" profile show mrc0 | grep -q "^profile 8 "; then
		echo "# profile 8 still in the kernel"
		return 1
	fi
	contains "^profile 7 " "$MRCCTL" profile show mrc0
}
ktap_check "offline_withdraws_the_profile" withdrawn

cc_through_lib_mrc()
{
	contains "cc algorithm uet-1.0-nscc target_delay 12000 " \
		"$PROBE" mrc0 cc 12000 || return 1
	contains "target_delay=12000 " "$MRCCTL" cc mrc0 show
}
ktap_check "cc_profile_set_through_lib_mrc_seen_by_mrcctl" cc_through_lib_mrc

port_admin()
{
	contains "port 1 enabled" "$PROBE" mrc0 port || return 1
	ip link set dev mrctc0 down || return 1
	contains "port 1 disabled" "$PROBE" mrc0 port
	local rc=$?
	ip link set dev mrctc0 up
	return $rc
}
ktap_check "port_admin_state_is_the_netdevs" port_admin

# mrc1 over mrctb0, a bond of mrctb1 (plane 0, port 1) and mrctb2 (plane 1,
# port 2): slaves take the planes in the order they are enslaved.
make_bond()
{
	ip link add mrctb1 type veth peer name mrctb1p &&
	ip link add mrctb2 type veth peer name mrctb2p &&
	ip link set mrctb1p up && ip link set mrctb2p up &&
	ip link add mrctb0 type bond mode balance-xor miimon 100 &&
	ip link set mrctb1 master mrctb0 &&
	ip link set mrctb2 master mrctb0 &&
	ip link set mrctb0 up &&
	rdma link add mrc1 type mrc netdev mrctb0
}

# IFF_UP of netdev $1 as ip link says it: "up" or "down".
admin_of()
{
	ip -o link show dev "$1" | grep -q '<[^>]*\bUP\b' && echo up || echo down
}

bonded_port()
{
	local rc=0
	contains "mrc1 netdev mrctb0 planes 2 " "$MRCCTL" dev mrc1 show || return 1
	contains "port 2 plane 1 netdev mrctb2 ifindex $(cat /sys/class/net/mrctb2/ifindex) admin up " \
		"$MRCCTL" dev mrc1 ports || return 1
	contains "port 2 enabled" "$PROBE" mrc1 port 2 || return 1
	contains "port 2 disabled" "$PROBE" mrc1 port 2 disable || return 1
	echo "# ip link: mrctb1 $(admin_of mrctb1), mrctb2 $(admin_of mrctb2)"
	[ "$(admin_of mrctb2)" = down ] || { echo "# mrctb2 still up"; rc=1; }
	[ "$(admin_of mrctb1)" = up ] || { echo "# mrctb1 went down too"; rc=1; }
	contains "port 2 plane 1 netdev mrctb2 ifindex [0-9]* admin down state down" \
		"$MRCCTL" dev mrc1 ports || rc=1
	contains "port 1 enabled" "$PROBE" mrc1 port 1 || rc=1
	contains "port 2 enabled" "$PROBE" mrc1 port 2 enable || rc=1
	echo "# ip link: mrctb2 $(admin_of mrctb2)"
	[ "$(admin_of mrctb2)" = up ] || { echo "# mrctb2 still down"; rc=1; }
	contains "port 2 enabled" "$PROBE" mrc1 port 2 || rc=1
	ip link set dev mrctb2 up
	return $rc
}
if make_bond; then
	ktap_check "bonded_port_2_disabled_and_enabled" bonded_port
	ktap_check "bonded_ports_outside_1_to_2_einval" "$PROBE" mrc1 port-range 2
	ktap_check "single_netdev_ports_outside_1_einval" "$PROBE" mrc0 port-range 1
else
	ktap_skip "bonded_port_2_disabled_and_enabled" "cannot build a bond of two veths (its error is above)"
	ktap_skip "bonded_ports_outside_1_to_2_einval" "cannot build a bond"
	ktap_check "single_netdev_ports_outside_1_einval" "$PROBE" mrc0 port-range 1
fi

ktap_check "bad_input_and_missing_parts_refused" "$PROBE" mrc0 refused
ktap_check "without_cap_net_admin_eperm" "$PROBE" mrc0 unprivileged
ktap_finish
