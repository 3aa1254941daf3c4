#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# mrcctl and the "mrc" generic netlink family: EV profiles in and out
# (explicit and generated, SRv6 and UDP), denying and allowing EVs, the
# device default, the device settings (presets, spraying, DSCPs), the CC
# profile, and the errors a controller gets for bad requests. Then, between two
# hosts carrying the integrity test's traffic (two runs at once, every
# byte checked), the per-connection EV listing (mrcctl paths) of live QPs,
# and spraying on and off seen through it; the planes (mrcctl planes) of a
# device on a plain netdev, its state and its count of packets sent.
# lab-timeout: 420
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
MRCCTL=$(mrc_tool mrcctl) ||
	ktap_skip_all "needs mrcctl: the tree's tools/mrcctl (make) or an installed one (make install)"
mrc_require_loaded

tmp=$(mktemp -d)
cleanup()
{
	[ -n "${run1:-}" ] && kill "$run1" 2>/dev/null
	[ -n "${run2:-}" ] && kill "$run2" 2>/dev/null
	wait 2>/dev/null
	remove_two_hosts
	mrc_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT
remove_two_hosts
mrc_cleanup
make_veth mrcc0 mrcc0p || ktap_skip_all "cannot create a veth pair"
rdma link add mrc0 type mrc netdev mrcc0 ||
	ktap_skip_all "rdma link add failed (see link.sh)"

ktap_begin 48

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

# A new device: the nic preset, NSCC on (Documentation/real-nics.rst).
ktap_check "dev_listed_with_netdev_and_defaults" \
	sh -c "'$MRCCTL' dev | grep -qx 'mrc0 netdev mrcc0 planes 1 default-profile 0 preset nic spray on data-dscp 10 ctrl-dscp 46 txq 64 cc-rtt departure cc on'"

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

# The CC profile: defaults, partial changes, enable, errors, reset.
# mrc_nscc_params_default() (the nic preset's) and mrc_nscc_params_lab()
# (the lab preset's), as Documentation/congestion.rst tables them.
cc_defaults="algorithm uet-1.0-nscc base_rtt=0 target_delay=9000 qa_threshold=36000 mtu=4096 max_cwnd=225000 eta=614 fi=20480 fi_scale=250 pi=12288 gamma=800 max_md_jump=500 qa_gate=3 disable_qa=0"
cc_lab="algorithm uet-1.0-nscc base_rtt=0 target_delay=10000000 qa_threshold=100000000 mtu=1024 max_cwnd=262144 eta=153 fi=5120 fi_scale=250 pi=3072 gamma=800 max_md_jump=500 qa_gate=3 disable_qa=0"
ktap_check "cc_show_defaults" \
	sh -c "'$MRCCTL' cc mrc0 show | tee /dev/stderr | grep -qx 'mrc0 cc on $cc_defaults'"
cc_partial()
{
	local out
	# Both spellings of a pair, dashes for underscores, time units.
	"$MRCCTL" cc mrc0 set base_rtt=20us target-delay 15000 \
		max_cwnd=300000 disable_qa 1 qa-threshold=1ms || return 1
	out=$("$MRCCTL" cc mrc0 show) || return 1
	echo "$out"
	# The defaults with exactly the five named fields changed.
	[ "$out" = "mrc0 cc on $(echo "$cc_defaults" | sed -e 's/ base_rtt=[0-9]*/ base_rtt=20000/' \
		-e 's/ target_delay=[0-9]*/ target_delay=15000/' \
		-e 's/ qa_threshold=[0-9]*/ qa_threshold=1000000/' \
		-e 's/ max_cwnd=[0-9]*/ max_cwnd=300000/' \
		-e 's/ disable_qa=[0-9]*/ disable_qa=1/')" ]
}
ktap_check "cc_set_changes_only_what_it_names" cc_partial
cc_enable()
{
	"$MRCCTL" cc mrc0 disable &&
	"$MRCCTL" cc mrc0 show | grep -q '^mrc0 cc off ' &&
	"$MRCCTL" dev mrc0 show | grep -q ' cc off$' &&
	"$MRCCTL" cc enable mrc0 &&
	"$MRCCTL" dev mrc0 show | grep -q ' cc on$' &&
	"$MRCCTL" cc mrc0 disable &&
	"$MRCCTL" dev mrc0 show | grep -q ' cc off$'
}
ktap_check "cc_enable_and_disable_reported" cc_enable
# Each refused with EINVAL and the parameter at fault; nothing changes.
cc_bad_values()
{
	local before
	before=$("$MRCCTL" cc mrc0 show) || return 1
	expect_error "Invalid argument: max_md_jump is 1..999 thousandths" \
		"$MRCCTL" cc mrc0 set gamma=700 max_md_jump=1000 || return 1
	expect_error "Invalid argument: gamma is 0..1000 thousandths" \
		"$MRCCTL" cc mrc0 set gamma=1001 || return 1
	expect_error "Invalid argument: qa_gate is 0..31" \
		"$MRCCTL" cc mrc0 set qa_gate=32 || return 1
	expect_error "Invalid argument: fi_scale is 0..1000 thousandths" \
		"$MRCCTL" cc mrc0 set fi_scale=1001 || return 1
	# Valid alone, not with the current qa_threshold (1 ms).
	expect_error "Invalid argument: target_delay is 1 ns..10 s and at most qa_threshold" \
		"$MRCCTL" cc mrc0 set target_delay=2ms || return 1
	expect_error "Invalid argument: max_cwnd is mtu..1 GiB" \
		"$MRCCTL" cc mrc0 set max_cwnd=1000 || return 1
	expect_error "Invalid argument: base_rtt is at most 10 s" \
		"$MRCCTL" cc mrc0 set base_rtt=11s || return 1
	[ "$("$MRCCTL" cc mrc0 show)" = "$before" ]
}
ktap_check "cc_bad_value_is_EINVAL_naming_it_and_changes_nothing" cc_bad_values
ktap_check "cc_consistent_together_accepted" \
	"$MRCCTL" cc mrc0 set target_delay=2ms qa_threshold=8ms
ktap_check "cc_disable_qa_over_1_is_ERANGE" \
	expect_error "Numerical result out of range" \
	"$MRCCTL" cc mrc0 set disable_qa=2
ktap_check "cc_reset_restores_defaults" \
	sh -c "'$MRCCTL' cc mrc0 reset && '$MRCCTL' cc mrc0 show | grep -qx 'mrc0 cc off $cc_defaults'"
# Presets: each applies exactly its CC profile and keeps every other
# setting (CC stays off here, as the case above left it).
preset_lab()
{
	local out
	"$MRCCTL" dev mrc0 set preset lab || return 1
	out=$("$MRCCTL" dev mrc0 show) || return 1
	echo "$out"
	[ "$out" = "mrc0 netdev mrcc0 planes 1 default-profile 3 preset lab spray on data-dscp 10 ctrl-dscp 46 txq 64 cc-rtt departure cc off" ] || return 1
	out=$("$MRCCTL" cc mrc0 show) || return 1
	echo "$out"
	[ "$out" = "mrc0 cc off $cc_lab" ]
}
ktap_check "preset_lab_applies_exactly_its_values" preset_lab
ktap_check "cc_reset_returns_to_the_preset" \
	sh -c "'$MRCCTL' cc mrc0 set gamma=700 target_delay=20ms qa_threshold=1s &&
	       '$MRCCTL' cc mrc0 reset && '$MRCCTL' cc mrc0 show | grep -qx 'mrc0 cc off $cc_lab'"
# The kernel, not mrcctl, knows the presets; a request refused in part
# changes nothing.
bad_preset()
{
	expect_error "Invalid argument: the presets are nic and lab" \
		"$MRCCTL" dev mrc0 set preset sideways || return 1
	expect_error "Invalid argument" \
		"$MRCCTL" dev mrc0 set preset nicnicnicnicnicnicnic || return 1
	expect_error "Numerical result out of range: a DSCP is 0..63" \
		"$MRCCTL" dev mrc0 set preset nic data-dscp 64 || return 1
	expect_error "Operation not permitted" \
		setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$MRCCTL" dev mrc0 set preset nic || return 1
	"$MRCCTL" dev mrc0 show | grep -q ' preset lab spray on data-dscp 10 ' &&
	"$MRCCTL" cc mrc0 show | grep -qx "mrc0 cc off $cc_lab"
}
ktap_check "preset_unknown_is_EINVAL_and_changes_nothing" bad_preset
ktap_check "preset_nic_restores_the_defaults" \
	sh -c "'$MRCCTL' dev mrc0 set preset nic && '$MRCCTL' cc mrc0 enable &&
	       '$MRCCTL' dev mrc0 show | grep -q ' default-profile 3 preset nic spray on .* cc on$' &&
	       '$MRCCTL' cc mrc0 show | grep -qx 'mrc0 cc on $cc_defaults'"
ktap_check "cc_unknown_device_is_ENODEV" \
	expect_error "No such device: no such RDMA device" \
	"$MRCCTL" cc nosuch0 set gamma=500
cc_unprivileged()
{
	expect_error "Operation not permitted" \
		setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$MRCCTL" cc mrc0 disable || return 1
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$MRCCTL" cc mrc0 show | grep -q '^mrc0 cc on '
}
ktap_check "cc_set_unprivileged_is_EPERM_show_is_not" cc_unprivileged
cc_unknown_param()
{
	"$MRCCTL" cc mrc0 set cwnd=5 2>&1
	[ $? -eq 2 ] || return 1
	"$MRCCTL" cc mrc0 set base_rtt=5parsecs 2>&1
	[ $? -eq 2 ]
}
ktap_check "cc_unknown_parameter_or_unit_is_a_usage_error" cc_unknown_param

ktap_check "paths_unknown_device_is_ENODEV" \
	expect_error "No such device: no such RDMA device" \
	"$MRCCTL" paths nosuch0
ktap_check "paths_without_qps_is_empty" \
	sh -c "out=\$('$MRCCTL' paths mrc0) && [ -z \"\$out\" ]"

ktap_check "planes_unknown_device_is_ENODEV" \
	expect_error "No such device: no such RDMA device" \
	"$MRCCTL" planes nosuch0
# A device on a plain netdev has one plane, the netdev itself, which
# follows its state; anyone may read it.
plain_netdev_plane()
{
	local re='^plane 0 netdev mrcc0 state %s tx [0-9]+ via-master [0-9]+$'
	local out
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$MRCCTL" planes mrc0) || return 1
	echo "$out"
	[ "$(echo "$out" | wc -l)" -eq 1 ] &&
		echo "$out" | grep -Eq "$(printf "$re" up)" || return 1
	ip link set mrcc0 down || return 1
	wait_for 5 sh -c "'$MRCCTL' planes mrc0 | grep -Eq '$(printf "$re" down)'"
	out=$?
	"$MRCCTL" planes mrc0
	ip link set mrcc0 up || return 1
	[ "$out" -eq 0 ] &&
		wait_for 5 sh -c "'$MRCCTL' planes mrc0 | grep -Eq '$(printf "$re" up)'"
}
ktap_check "planes_one_plain_netdev_follows_its_state" plain_netdev_plane

delete_default()
{
	"$MRCCTL" profile del mrc0 3 &&
	"$MRCCTL" dev show mrc0 | grep -q 'default-profile 0' &&
	expect_error "No such file" "$MRCCTL" profile del mrc0 3
}
ktap_check "delete_resets_default_then_ENOENT" delete_default

# Profiles die with their device, and the module still unloads.
if mrc_can_load; then
	ktap_check "device_and_module_go_with_profiles" \
		sh -c "rdma link delete mrc0 && rmmod mrc && ! '$MRCCTL' dev 2>/dev/null"
else
	ktap_skip "device_and_module_go_with_profiles" "unloads and reloads mrc: $MRC_NO_LOADER"
fi

# Live QPs. Two hosts; mrc0's default profile has 256 UDP EVs, so each QP
# has 256 and a listing of two QPs (over 100 KB) takes several dump calls.
# Its floor (min-active) is all of them: the emulated host loses packets
# now and then, and a loss would retire an EV and move a single-path QP
# for a while (documented, and unit-tested in ev_single_test); here the
# only other EV a single-path QP may use is the one its retransmissions
# take (they avoid the EV they were lost on).
# Counters of every EV line, "QPN EV SENT", sorted.
ev_counters()	# FILE
{
	awk '$1 == "qp" { qp = $2 } $1 == "ev" {
		for (i = 3; i < NF; i++) if ($i == "sent") print qp, $2, $(i + 1)
	}' "$1" | sort -k1,1n -k2,2n
}

two_hosts_with_profile()
{
	mrc_load && make_two_hosts &&
	"$MRCCTL" profile add mrc0 1 format udp default gen min-active 256 \
		field 16:0xc000:0:255:0xff
}
INTEGRITY=$MRC_SELFTEST_DIR/integrity
live=yes
if [ ! -x "$INTEGRITY" ]; then
	live="no $INTEGRITY: run make first"
	ktap_skip "two_hosts_with_a_256_ev_profile" "$live"
elif out=$(two_hosts_with_profile 2>&1); then
	ktap_pass "two_hosts_with_a_256_ev_profile"
else
	printf '%s\n' "$out" | sed 's/^/# /'
	live="the two hosts could not be set up"
	ktap_fail "two_hosts_with_a_256_ev_profile"
fi

# Every EV of both QPs has sent packets: spraying reached all 256.
all_evs_sent()
{
	"$MRCCTL" paths mrc0 >"$tmp/paths0" || return 1
	[ "$(ev_counters "$tmp/paths0" | awk '$3 > 0' | wc -l)" = 512 ]
}

# Two integrity runs, two QPs on each device, until the checks below are
# done with them (the stop file), at most 100 s (times the scale of a slow
# kernel): long enough for the checks on a slow emulated host (60 s was not
# always).
RUN_LIMIT=$(mrc_scaled 100)
if [ "$live" = yes ]; then
	"$INTEGRITY" -s 1 -t "$RUN_LIMIT" -S "$tmp/stop" -n 1000000 -d 4 \
		mrc0 "$MRC_HOST_A" mrc1 "$MRC_HOST_B" >"$tmp/run1" 2>&1 &
	run1=$!
	"$INTEGRITY" -s 2 -t "$RUN_LIMIT" -S "$tmp/stop" -n 1000000 -d 4 \
		mrc0 "$MRC_HOST_A" mrc1 "$MRC_HOST_B" >"$tmp/run2" 2>&1 &
	run2=$!
	wait_for "$(mrc_scaled 50)" all_evs_sent
	planes_during=$("$MRCCTL" planes mrc0)
fi

live_listing()
{
	local qps out
	"$MRCCTL" paths mrc0 >"$tmp/paths0" || return 1
	"$MRCCTL" paths mrc1 >"$tmp/paths1" || return 1
	grep '^qp' "$tmp/paths0" "$tmp/paths1"
	sed -n 2,3p "$tmp/paths0"
	# Two QPs to 192.0.2.2 on profile 1, each with EVs 0..255 once.
	qps=$(grep -c '^qp [0-9]* dest-qp [0-9]* peer 192.0.2.2 profile 1$' "$tmp/paths0")
	[ "$qps" = 2 ] || { echo "# $qps QPs to 192.0.2.2"; return 1; }
	out=$(ev_counters "$tmp/paths0" | awk '{ print $1, $2 }' | sort -u | wc -l)
	[ "$out" = 512 ] || { echo "# $out distinct (QP, EV) pairs"; return 1; }
	[ "$(grep -c '^  ev ' "$tmp/paths0")" = 512 ] || return 1
	[ "$(ev_counters "$tmp/paths0" | awk '$2 > 255' | wc -l)" = 0 ] || return 1
	grep -q '^  ev 255 plane 0 udp 49407 profile-ev 255 state \(GOOD\|UNKNOWN\|ASSUMED_BAD\) sent [0-9]* acked [0-9]* lost [0-9]* probes [0-9]*$' "$tmp/paths0" || return 1
	# Each end's (QP, peer QP) is the other's, reversed.
	[ "$(awk '$1 == "qp" { print $2, $4 }' "$tmp/paths0" | sort)" = \
	  "$(awk '$1 == "qp" { print $4, $2 }' "$tmp/paths1" | sort)" ]
}
# mrc0's one plane, mrcva, carried the runs' packets: between a listing
# once every EV has sent and one after the runs, its tx count rose. (The
# listings take no time from the runs' checks, which need their QPs.)
plane_tx_of()	# "mrcctl planes" OUTPUT
{
	echo "$1" | awk '{ for (i = 1; i < NF; i++) if ($i == "tx") print $(i + 1) }'
}
planes_tx_rises()	# BEFORE AFTER
{
	local re='^plane 0 netdev mrcva state up tx [0-9]+ via-master [0-9]+$'
	printf 'during the runs: %s\nafter: %s\n' "$1" "$2"
	echo "$1" | grep -Eqx "$re" && echo "$2" | grep -Eqx "$re" &&
	[ "$(plane_tx_of "$2")" -gt "$(plane_tx_of "$1")" ]
}
peer_filter()
{
	local a b
	a=$("$MRCCTL" paths mrc0 peer 192.0.2.2 | grep -c '^  ev ') || return 1
	b=$("$MRCCTL" paths mrc0 peer 192.0.2.9 | wc -l) || return 1
	echo "# peer 192.0.2.2: $a EV lines; peer 192.0.2.9: $b lines"
	[ "$a" = 512 ] && [ "$b" = 0 ]
}
# The busiest EV's share of the packets sent between two listings, per QP,
# in percent: "QPN SHARE EVS-USED".
busiest_share()	# BEFORE AFTER
{
	join -j1 <(ev_counters "$1" | awk '{ print $1 ":" $2, $3 }') \
		 <(ev_counters "$2" | awk '{ print $1 ":" $2, $3 }') |
	awk '{ split($1, k, ":"); d = $3 - $2; tot[k[1]] += d
	       if (d > max[k[1]]) max[k[1]] = d; if (d > 0) used[k[1]]++ }
	     END { for (q in tot) printf "%s %d %d\n", q,
			tot[q] ? 100 * max[q] / tot[q] : 0, used[q] }'
}
spraying_spreads()
{
	local out
	"$MRCCTL" paths mrc0 >"$tmp/s0" && sleep 4 &&
	"$MRCCTL" paths mrc0 >"$tmp/s1" || return 1
	grep -q '^qp' "$tmp/s1" || { echo "the QPs are gone already"; return 1; }
	out=$(busiest_share "$tmp/s0" "$tmp/s1")
	echo "$out" | awk '{ printf "QP %s: busiest EV %s%% of its packets, %s EVs used\n", $1, $2, $3 }'
	[ "$(echo "$out" | wc -l)" = 2 ] &&
	echo "$out" | awk '$2 > 10 || $3 < 128 { bad = 1 } END { exit bad }'
}
spray_off_one_ev()
{
	local out
	"$MRCCTL" dev mrc0 set spray off || return 1
	sleep 1
	"$MRCCTL" paths mrc0 >"$tmp/o0" && sleep 4 &&
	"$MRCCTL" paths mrc0 >"$tmp/o1" || return 1
	"$MRCCTL" dev mrc0 set spray on || return 1
	grep -q '^qp' "$tmp/o1" || { echo "the QPs are gone already"; return 1; }
	out=$(busiest_share "$tmp/o0" "$tmp/o1")
	echo "$out" | awk '{ printf "QP %s, spraying off: busiest EV %s%% of its packets, %s EVs used\n", $1, $2, $3 }'
	awk '$1 == "ev" { for (i = 3; i < NF; i++) if ($i == "lost") l += $(i + 1) }
	     END { print "lost, all EVs, since the start: " l }' "$tmp/o1"
	# One EV carries the QP, a second its retransmissions.
	[ "$(echo "$out" | wc -l)" = 2 ] &&
	echo "$out" | awk '$2 < 80 || $3 > 2 { bad = 1 } END { exit bad }'
}
# The integrity runs' statuses (waited for by the main shell, whose
# children they are): every byte arrived intact, spraying on or off.
traffic_ended()	# STATUS1 STATUS2
{
	tail -n 2 "$tmp/run1" | sed 's/^/run 1: /'
	tail -n 2 "$tmp/run2" | sed 's/^/run 2: /'
	echo "integrity exits $1 and $2"
	[ "$1" -eq 0 ] && [ "$2" -eq 0 ]
}
if [ "$live" = yes ]; then
	ktap_check "paths_lists_every_ev_of_live_qps_across_dump_calls" live_listing
	ktap_check "paths_peer_filter" peer_filter
	ktap_check "spraying_uses_all_256_evs" spraying_spreads
	ktap_check "spray_off_keeps_each_qp_on_one_ev" spray_off_one_ev
	touch "$tmp/stop"
	wait "$run1"
	status1=$?
	wait "$run2"
	status2=$?
	run1= run2=
	ktap_check "traffic_intact" traffic_ended $status1 $status2
	ktap_check "planes_tx_rises_with_traffic" planes_tx_rises \
		"$planes_during" "$("$MRCCTL" planes mrc0)"
	ktap_check "paths_empty_once_qps_are_gone" \
		wait_for 10 sh -c "[ -z \"\$('$MRCCTL' paths mrc0)\" ]"
else
	for name in paths_lists_every_ev_of_live_qps_across_dump_calls \
		    paths_peer_filter spraying_uses_all_256_evs \
		    spray_off_keeps_each_qp_on_one_ev traffic_intact \
		    planes_tx_rises_with_traffic \
		    paths_empty_once_qps_are_gone; do
		ktap_skip "$name" "$live"
	done
fi
ktap_finish
