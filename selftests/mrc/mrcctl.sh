#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# mrcctl and the "mrc" generic netlink family: EV profiles in and out
# (explicit and generated, SRv6 and UDP), denying and allowing EVs, the
# device default, and the errors a controller gets for bad requests.
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
MRCCTL=$MRC_TOP/tools/mrcctl/mrcctl
[ -x "$MRCCTL" ] || ktap_skip_all "no $MRCCTL: run make first"
mrc_load || ktap_skip_all "cannot load $MRC_KO"

tmp=$(mktemp -d)
cleanup()
{
	mrc_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT
mrc_cleanup
make_veth mrcc0 mrcc0p || ktap_skip_all "cannot create a veth pair"
rdma link add mrc0 type mrc netdev mrcc0 ||
	ktap_skip_all "rdma link add failed (see link.sh)"

ktap_begin 22

# expect_error ERRNO-TEXT COMMAND...: fails, and says why with that errno.
expect_error()
{
	local want=$1 out
	shift
	if out=$("$@" 2>&1); then
		echo "# succeeded, expected '$want'"
		return 1
	fi
	echo "$out"
	echo "$out" | grep -q "$want"
}

ktap_check "dev_listed_with_netdev_and_defaults" \
	sh -c "'$MRCCTL' dev | grep -qx 'mrc0 netdev mrcc0 planes 1 default-profile 0 spray on data-dscp 10 ctrl-dscp 46 cc off'"

# Device settings: both spellings, partial changes keep the rest.
dev_settings()
{
	local out
	"$MRCCTL" dev mrc0 set spray off data-dscp 26 || return 1
	out=$("$MRCCTL" dev mrc0 show) || return 1
	echo "$out"
	echo "$out" | grep -q ' spray off data-dscp 26 ctrl-dscp 46 ' || return 1
	"$MRCCTL" dev set mrc0 ctrl-dscp 0 spray on || return 1
	out=$("$MRCCTL" dev show mrc0) || return 1
	echo "$out"
	echo "$out" | grep -q ' spray on data-dscp 26 ctrl-dscp 0 ' || return 1
	"$MRCCTL" dev mrc0 set data-dscp 63 ctrl-dscp 46 &&
	"$MRCCTL" dev mrc0 show | grep -q ' data-dscp 63 ctrl-dscp 46 ' &&
	"$MRCCTL" dev mrc0 set data-dscp 10
}
ktap_check "dev_set_spray_and_dscps" dev_settings
# The kernel, not mrcctl, refuses a DSCP past 63, and nothing changes.
bad_dscp()
{
	expect_error "Numerical result out of range: a DSCP is 0..63" \
		"$MRCCTL" dev mrc0 set spray off data-dscp 64 || return 1
	expect_error "Numerical result out of range: a DSCP is 0..63" \
		"$MRCCTL" dev mrc0 set ctrl-dscp 255 || return 1
	"$MRCCTL" dev mrc0 show | grep -q ' spray on data-dscp 10 ctrl-dscp 46 '
}
ktap_check "dscp_over_63_is_ERANGE_and_changes_nothing" bad_dscp
ktap_check "dev_set_unknown_device_is_ENODEV" \
	expect_error "No such device: no such RDMA device" \
	"$MRCCTL" dev nosuch0 set spray off
ktap_check "dev_set_unprivileged_is_EPERM" \
	expect_error "Operation not permitted" \
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$MRCCTL" dev mrc0 set spray off
ktap_check "dev_show_unprivileged_allowed" \
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$MRCCTL" dev mrc0 show

# Two planes, two paths each, as mrc-fabric would program them.
cat >"$tmp/paths" <<PATHS
# plane container
0 fc00:0:100:200:1::
0 fc00:0:101:200:1::
1 fc00:0:1100:1200:1::
1 fc00:0:1101:1200:1::
PATHS
ktap_check "explicit_srv6_profile_added" \
	"$MRCCTL" profile add mrc0 2 format srv6 peer fc00:0:1:: min-active 2 \
		evs-from "$tmp/paths"

want_srv6="0 plane 0 fc00:0:100:200:1:: GOOD
1 plane 0 fc00:0:101:200:1:: GOOD
2 plane 1 fc00:0:1100:1200:1:: GOOD
3 plane 1 fc00:0:1101:1200:1:: GOOD"
explicit_read_back()
{
	local out
	out=$("$MRCCTL" ev show mrc0 2) || return 1
	echo "$out"
	[ "$out" = "$want_srv6" ]
}
ktap_check "explicit_evs_read_back" explicit_read_back

ktap_check "profile_summary" \
	sh -c "'$MRCCTL' profile show mrc0 | grep -qx 'profile 2 format srv6 mode explicit evs 4 min-active 2 peer fc00:0:1::'"

deny_then_allow()
{
	"$MRCCTL" ev deny mrc0 2 1:fc00:0:1100:1200:1:: &&
	"$MRCCTL" ev show mrc0 2 | grep -qx '2 plane 1 fc00:0:1100:1200:1:: DENIED' &&
	[ "$("$MRCCTL" ev show mrc0 2 | grep -c DENIED)" = 1 ] &&
	"$MRCCTL" ev allow mrc0 2 2 &&
	! "$MRCCTL" ev show mrc0 2 | grep -q DENIED
}
ktap_check "deny_and_allow_one_ev" deny_then_allow

# Generated: ports 0xc000..0xc007 on planes 0 and 1, planes interleaved.
generated()
{
	local out i p n=0
	"$MRCCTL" profile add mrc0 3 format udp default gen planes 0,1 \
		field 16:0xc000:0:7:0x7 || return 1
	out=$("$MRCCTL" ev show mrc0 3) || return 1
	for i in 0 1 2 3 4 5 6 7; do
		for p in 0 1; do
			echo "$out" | grep -qx "$n plane $p $((0xc000 + i)) GOOD" ||
				{ echo "# missing EV $n: plane $p port $((0xc000 + i))"; return 1; }
			n=$((n + 1))
		done
	done
	[ "$(echo "$out" | wc -l)" = 16 ]
}
ktap_check "generated_udp_profile_expands" generated
ktap_check "default_profile_reported" \
	sh -c "'$MRCCTL' dev show mrc0 | grep -q 'default-profile 3' &&
	       '$MRCCTL' profile show mrc0 | grep -q '^profile 3 format udp mode generated evs 16 .* default plane-mask 0x3 field 16:0xc000:0:7:0x7$'"

ktap_check "duplicate_id_is_EEXIST" \
	expect_error "File exists" "$MRCCTL" profile add mrc0 2 format udp ev 0:5000
ktap_check "peer_served_twice_is_EEXIST" \
	expect_error "another profile serves that peer" \
	"$MRCCTL" profile add mrc0 4 format srv6 peer fc00:0:1:: ev 0:fc00:0:9::
ktap_check "replace_keeps_id" \
	sh -c "'$MRCCTL' profile add mrc0 2 format udp replace ev 0:5000 1:5001 &&
	       [ \"\$('$MRCCTL' ev show mrc0 2 | wc -l)\" = 2 ]"
ktap_check "bad_field_is_EINVAL_with_reason" \
	expect_error "malformed fields" \
	"$MRCCTL" profile add mrc0 5 format udp gen field 8:0:0:9:0x7
ktap_check "too_many_evs_is_E2BIG" \
	expect_error "Argument list too long" \
	"$MRCCTL" profile add mrc0 5 format srv6 gen planes 0,1 field 32:0xfc000000:0:0:0 field 16:0:0:1023:0x3ff
ktap_check "unusable_ev_is_EINVAL" \
	expect_error "unusable EV value" \
	"$MRCCTL" profile add mrc0 5 format srv6 ev 0:ff02::1
ktap_check "unknown_device_is_ENODEV" \
	expect_error "No such device" "$MRCCTL" profile add nosuch0 5 format udp ev 0:5000
ktap_check "unprivileged_change_is_EPERM" \
	expect_error "Operation not permitted" \
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$MRCCTL" profile add mrc0 6 format udp ev 0:5000

delete_default()
{
	"$MRCCTL" profile del mrc0 3 &&
	"$MRCCTL" dev show mrc0 | grep -q 'default-profile 0' &&
	expect_error "No such file" "$MRCCTL" profile del mrc0 3
}
ktap_check "delete_resets_default_then_ENOENT" delete_default

# Profiles die with their device, and the module still unloads.
ktap_check "device_and_module_go_with_profiles" \
	sh -c "rdma link delete mrc0 && rmmod mrc && ! '$MRCCTL' dev 2>/dev/null"
ktap_finish
