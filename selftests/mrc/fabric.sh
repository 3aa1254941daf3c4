#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# scripts/mrc-fabric: the default multi-plane Clos comes up; every host
# reaches every other over plain IPv6 and IPv4; every SRv6 uSID path that
# `paths` prints delivers a packet to its final destination; a link or switch
# taken down loses exactly the paths through it and `up` brings them back;
# rate limiting and delay are measurable; `down` leaves no namespace;
# `up --trim` makes the last hops trimming switch ports (tools/trim);
# `up --mark` makes every port a marking one; `base-rtt` pings; `up --mtu`
# gives every port jumbo frames and the mrc devices IB MTU 4096.
# lab-timeout: 1500
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_tree "the lab fabric, scripts/mrc-fabric"

FABRIC=$MRC_TOP/scripts/mrc-fabric
# Default topology: 8 hosts, 2 planes, 2 tier-0 (4 hosts each) and 4 tier-1
# switches per plane. h1 is under p*t0s1, h5 under p*t0s2.
DEFAULT_LINKS=$((8 * 2 + 2 * 2 * 4))
DEFAULT_NODES=$((8 + 2 * (2 + 4)))
SHAPED_RATE_MBIT=8
SHAPED_DELAY_MS=2

[ "$(id -u)" -eq 0 ] || ktap_skip_all "needs root"
# With mrc loaded, `up` also gives the hosts mrc devices and EV profiles.
mrc_load >/dev/null 2>&1 || true	# checked by mrc_profiles_programmed
for tool in ip tc python3 ping; do
	command -v $tool >/dev/null || ktap_skip_all "needs $tool (scripts/setup)"
done

# Retries COMMAND up to TRIES times, a second apart (wait_for counts
# iterations of 0.1 s, too few for a command that itself takes seconds).
retry()	# TRIES COMMAND...
{
	local tries=$1 i
	shift
	for ((i = 1; i < tries; i++)); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 1
	done
	"$@"
}

# Every fabric command is bounded: an intermittent stall seen under a heavily
# loaded TCG host (see Documentation/fabric.rst) fails a case instead of the
# whole program, and shows where the stuck processes wait.
fabric()
{
	local status
	timeout 90 "$FABRIC" "$@"
	status=$?
	if [ $status -eq 124 ]; then
		echo "# mrc-fabric $* timed out; processes:" >&2
		ps -eo pid,stat,wchan:32,args | grep -E 'mrc-fabric|netns|ip |ping|iperf' |
			grep -v grep | sed 's/^/#   /' >&2
	fi
	return $status
}

cleanup()
{
	fabric down >/dev/null 2>&1
}

usid_of()	# NODE
{
	fabric nodes | awk -v n="$1" '$1 == n { print $2 }'
}

fabric_namespaces()
{
	ip netns list | awk '{ print $1 }' | grep '^mf-'
}

check_listing()
{
	local links nodes long
	links=$(fabric links) && nodes=$(fabric nodes) || return 1
	echo "links: $(wc -l <<<"$links"), nodes: $(wc -l <<<"$nodes")"
	[ "$(wc -l <<<"$links")" -eq $DEFAULT_LINKS ] &&
		[ "$(sort -u <<<"$links" | wc -l)" -eq $DEFAULT_LINKS ] &&
		[ "$(wc -l <<<"$nodes")" -eq $DEFAULT_NODES ] || return 1
	# Interface names are node names: they must fit IFNAMSIZ.
	long=$(awk 'length($1) > 15' <<<"$nodes")
	[ -z "$long" ] || { echo "too long for an interface name: $long"; return 1; }
}

check_paths_listed()
{
	local cross same
	cross=$(fabric paths h1 h5) && same=$(fabric paths h1 h2) || return 1
	printf '%s\n' "$cross"
	# Under different tier-0: one path per plane and tier-1 switch; under
	# the same tier-0: one per plane. All distinct, all in the uSID block.
	[ "$(sort -u <<<"$cross" | wc -l)" -eq 8 ] &&
		[ "$(sort -u <<<"$same" | wc -l)" -eq 2 ] &&
		! grep -qv '^[12] fc00:0:' <<<"$cross$same"
}

# Every host's addresses as mrc-fabric gives them, read once into
# host_address[HOST 6] and [HOST 4] (mrc-fabric is a Python start each
# time, seconds under the lab's emulated CPU).
declare -A host_address
read_host_addresses()
{
	local host addrs
	host_address=()
	for host in $(fabric nodes | awk '$1 ~ /^h/ { print $1 }'); do
		addrs=$(fabric addr "$host") || return 1
		host_address[$host 6]=$(sed -n 1p <<<"$addrs")
		host_address[$host 4]=$(sed -n 2p <<<"$addrs")
	done
}

# Pings every host from every host (in parallel per source host), in the
# hosts' namespaces (mrc-fabric's "mf-HOST").
check_all_pairs()	# 6|4
{
	local family=$1 key src dst targets failed=0 out hosts=()
	for key in "${!host_address[@]}"; do
		[ "${key#* }" = "$family" ] && hosts+=("${key% *}")
	done
	[ ${#hosts[@]} -ge 2 ] || { echo "no host addresses read"; return 1; }
	for src in "${hosts[@]}"; do
		targets=()
		for dst in "${hosts[@]}"; do
			[ "$dst" = "$src" ] ||
				targets+=("$dst=${host_address[$dst $family]}")
		done
		# shellcheck disable=SC2016
		out=$(ip netns exec "mf-$src" bash -c '
			family=$1; shift; pids=(); names=()
			for t; do
				ping -"$family" -c 1 -W 5 -q "${t#*=}" >/dev/null 2>&1 &
				pids+=($!); names+=("${t%%=*}")
			done
			for i in "${!pids[@]}"; do
				wait "${pids[$i]}" || echo "${names[$i]}"
			done' _ "$family" "${targets[@]}")
		if [ -n "$out" ]; then
			echo "$src cannot reach: $out"
			failed=1
		fi
	done
	echo "${#hosts[@]} hosts, $((${#hosts[@]} * (${#hosts[@]} - 1))) ordered pairs"
	[ $failed -eq 0 ]
}

# Every path from SRC to DST delivers.
check_all_paths()	# SRC DST
{
	local out
	out=$(fabric probe "$1" "$2" 2>&1)
	printf '%s\n' "$out"
	[ "$(grep -c ' ok$' <<<"$out")" -eq "$(fabric paths "$1" "$2" | wc -l)" ]
}

# The paths from SRC to DST that are lost are exactly those whose container
# holds one of the uSID sequences given (":1101:2102:" = the link between
# those switches, ":2203:" = through that switch), and there are some.
check_lost_exactly()	# SRC DST SEQUENCE...
{
	local src=$1 dst=$2 expected actual patterns=()
	shift 2
	for p; do
		patterns+=(-e "$p")
	done
	expected=$(fabric paths "$src" "$dst" | grep -F "${patterns[@]}")
	actual=$(fabric probe "$src" "$dst" 2>/dev/null |
		awk '$3 != "ok" { print $1, $2 }')
	echo "expected lost: ${expected//$'\n'/, }"
	echo "lost: ${actual//$'\n'/, }"
	[ -n "$expected" ] && [ "$actual" = "$expected" ]
}

check_link_down()	# LINK SRC DST
{
	local x=${1%-*} y=${1#*-} ux uy
	ux=$(usid_of "$x") uy=$(usid_of "$y")
	fabric link "$1" down &&
		check_lost_exactly "$2" "$3" ":$ux:$uy:" ":$uy:$ux:"
}

check_switch_down()	# SW SRC DST
{
	fabric switch "$1" down && check_lost_exactly "$2" "$3" ":$(usid_of "$1"):"
}

# Restoration is immediate for the fabric; a host port also waits for the
# bond's miimon, hence a few seconds of patience.
check_restored()	# link|switch NAME SRC DST
{
	fabric "$1" "$2" up && retry 3 check_all_paths "$3" "$4"
}

# Bits per second of a 3 s TCP transfer from SRC to DST (iperf3).
throughput()	# SRC DST
{
	local addr server
	addr=$(fabric addr "$2" | sed -n 1p)
	fabric exec "$2" timeout 30 iperf3 -s -1 -p 5201 >/dev/null 2>&1 &
	server=$!
	retry 10 sh -c "'$FABRIC' exec '$2' ss -Hltn | grep -q ':5201 '" ||
		return 1
	fabric exec "$1" timeout 30 iperf3 -c "$addr" -p 5201 -t 3 -J |
		python3 -c 'import json, sys
print(int(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"]))'
	wait $server
}

# The minimum RTT (ms) of a few pings from SRC to DST.
min_rtt()	# SRC DST
{
	fabric exec "$1" ping -6 -c 5 -i 0.2 -w 10 -q "$(fabric addr "$2" | sed -n 1p)" |
		awk -F'[/ ]+' '/^rtt/ { print $7 }'
}

# With mrc loaded, `up` gives every host an mrc device on bond0 and one EV
# profile per peer holding every path `paths` lists (planes from 0).
check_profiles()
{
	local mrcctl=$MRC_TOP/tools/mrcctl/mrcctl want got
	[ -d /sys/module/mrc ] || { echo "mrc not loaded"; return 1; }
	[ "$("$mrcctl" profile show mrch1 | wc -l)" = 7 ] || return 1
	want=$(fabric paths h1 h5 | awk '{ printf "%d %s GOOD\n", $1 - 1, $2 }')
	got=$("$mrcctl" ev show mrch1 5 | awk '{ print $3, $4, $5 }')
	echo "$got"
	[ -n "$want" ] && [ "$got" = "$want" ]
}

# A connectionless EV probe (mrcctl probe: the controller API's
# EP_PROBE) over every SRv6 path of h1's profile towards h5 (profile 5),
# all in one batch: each must be answered, with an RTT, on its plane.
check_probes_every_path()
{
	local mrcctl=$MRC_TOP/tools/mrcctl/mrcctl evs src dst out n
	evs=$("$mrcctl" ev show mrch1 5 | awk '{ printf "%s:%s ", $3, $4 }')
	src=$(fabric addr h1 | sed -n 1p) dst=$(fabric addr h5 | sed -n 1p)
	n=$(wc -w <<<"$evs")
	# shellcheck disable=SC2086 # one argument per EV
	out=$(ip netns exec mf-h1 "$mrcctl" probe mrch1 "$src" "$dst" timeout 10s $evs 2>&1)
	echo "$out"
	[ "$n" -gt 0 ] &&
	[ "$(awk '$1 == "probe" && $5 == "rtt" && $6 > 0' <<<"$out" | wc -l)" -eq "$n" ] &&
	# Each on its own plane: answers of plane 0 and of plane 1.
	[ "$(awk '$1 == "probe" { print $4 }' <<<"$out" | sort -u | wc -l)" -eq 2 ]
}

# Every port that carries the fabric's traffic (both ends of every link,
# veths: NAME@PEER; each host's bond0) has MTU $1: "N of M ports at MTU".
# (Fallback tunnel devices a namespace may get are no port.)
check_port_mtus()	# MTU
{
	local ns n=0 good=0 bad=""
	for ns in $(fabric_namespaces); do
		while read -r dev mtu; do
			n=$((n + 1))
			if [ "$mtu" = "$1" ]; then
				good=$((good + 1))
			else
				bad+=" ${ns#mf-}/$dev:$mtu"
			fi
		done < <(ip -n "$ns" -o link show | awk -F': ' '$2 ~ /@/ || $2 == "bond0" {
			split($2, d, "@"); m = $3; sub(/.* mtu /, "", m); sub(/ .*/, "", m); print d[1], m }')
	done
	echo "$good of $n ports at MTU $1${bad:+; not:$bad}"
	[ "$n" -eq $((2 * DEFAULT_LINKS + 8)) ] && [ "$good" -eq "$n" ]
}

# The largest IPv6 packet of MTU $3, not fragmentable, crosses both tiers.
check_df_ping()	# SRC DST MTU
{
	fabric exec "$1" ping -6 -M do -c 1 -W 5 -s $(($3 - 48)) \
		"$(fabric addr "$2" | sed -n 1p)"
}

check_ib_mtu()	# HOST IB_MTU
{
	local out
	out=$(fabric exec "$1" ibv_devinfo -d "mrc$1" 2>&1 | grep -E 'active_mtu|max_mtu')
	echo "$out"
	grep -q "active_mtu:[[:space:]]*$2 " <<<"$out"
}

ktap_begin 46
trap cleanup EXIT
cleanup

ktap_check "fabric_up" fabric up
ktap_check "links_and_nodes_listed" check_listing
ktap_check "paths_listed" check_paths_listed
ktap_check "mrc_profiles_programmed" check_profiles
ktap_check "ev_probes_answered_on_every_srv6_path" check_probes_every_path
read_host_addresses
ktap_check "ipv6_every_host_pair" check_all_pairs 6
ktap_check "ipv4_every_host_pair" check_all_pairs 4
ktap_check "every_path_delivers_across_tier0" check_all_paths h1 h5
ktap_check "every_path_delivers_back" check_all_paths h8 h3
ktap_check "every_path_delivers_within_tier0" check_all_paths h1 h2

ktap_check "fabric_link_down_loses_its_paths" \
	check_link_down p1t0s1-p1t1s2 h1 h5
ktap_check "fabric_link_up_restores" check_restored link p1t0s1-p1t1s2 h1 h5
ktap_check "host_link_down_loses_its_paths" check_link_down h5-p2t0s2 h1 h5
ktap_check "host_link_up_restores" check_restored link h5-p2t0s2 h1 h5
ktap_check "tier1_switch_down_loses_its_paths" \
	check_switch_down p2t1s3 h1 h5
ktap_check "tier1_switch_up_restores" check_restored switch p2t1s3 h1 h5
ktap_check "tier0_switch_down_loses_its_plane" \
	check_switch_down p2t0s1 h1 h5
# The bond stops hashing onto the dead plane port: plain traffic goes on.
ktap_check "bond_carries_on_without_a_plane" \
	retry 3 fabric exec h1 ping -6 -c 1 -W 2 -q fc00:0:5::
ktap_check "tier0_switch_up_restores" check_restored switch p2t0s1 h1 h5
ktap_check "ipv6_every_host_pair_after_restores" check_all_pairs 6

have_iperf3=0
command -v iperf3 >/dev/null && have_iperf3=1
if [ $have_iperf3 -eq 1 ]; then
	unlimited=$(throughput h1 h5)
	ktap_info "unlimited: h1 -> h5 ${unlimited:-?} bit/s"
fi
rtt_unshaped=$(min_rtt h1 h5)
ktap_info "unshaped min RTT h1 -> h5: ${rtt_unshaped:-?} ms"

ktap_check "down_removes_every_namespace" \
	sh -c "'$FABRIC' down && [ -z \"\$(ip netns list | grep '^mf-')\" ]"

ktap_check "fabric_up_shaped" fabric up --rate ${SHAPED_RATE_MBIT}mbit \
	--delay ${SHAPED_DELAY_MS}ms
rtt=$(min_rtt h1 h5)
# h1 -> h5 crosses 4 links each way, each end of each link delaying.
rtt_floor=$((8 * SHAPED_DELAY_MS))
ktap_check "delay_adds_to_every_link" awk -v r="${rtt:-0}" -v f=$rtt_floor \
	'BEGIN { printf "min RTT %s ms, floor %d ms\n", r, f; exit !(r >= f) }'
ktap_check "paths_deliver_when_shaped" check_all_paths h1 h5
# Rate-limited links: every mrc device's local transmit budget is a few
# packets (`up --txq`, default 8), not the device's 64.
ktap_check "shaped_fabric_sets_txq_8" sh -c "for h in 1 2 3 4 5 6 7 8; do
	'$MRC_TOP/tools/mrcctl/mrcctl' dev mrch\$h show | grep -q ' txq 8 ' || exit 1; done"
if [ $have_iperf3 -eq 1 ]; then
	limited=$(throughput h1 h5)
	ktap_info "shaped to ${SHAPED_RATE_MBIT} Mbit/s: h1 -> h5 ${limited:-?} bit/s"
	# The shaper, not the emulated CPU, is the bottleneck: well below the
	# unshaped figure, and not above the configured rate.
	ktap_check "rate_limits_a_transfer" awk -v l="${limited:-0}" \
		-v u="${unlimited:-0}" -v r=$SHAPED_RATE_MBIT 'BEGIN {
		if (l <= 0 || u <= 0) exit 1
		printf "shaped/unshaped %.3f, shaped/rate %.2f\n", l / u, l / (r * 1e6)
		exit !(l / u < 0.5 && l <= 1.2 * r * 1e6)
	}'
else
	ktap_skip "rate_limits_a_transfer" "iperf3 not installed (scripts/setup)"
fi
ktap_check "down_again_leaves_nothing" \
	sh -c "'$FABRIC' down && [ -z \"\$(ip netns list | grep '^mf-')\" ] && [ ! -e \"\${MRC_FABRIC_STATE_DIR:-/run/mrc-fabric}\" ]"

# `up --mtu`: jumbo frames on every port; the mrc devices get IB MTU 4096.
ktap_check "mtu_out_of_range_refused" sh -c "! '$FABRIC' up --mtu 1279 2>&1 &&
	! '$FABRIC' up --mtu 65536 2>&1 && ! '$FABRIC' up --mtu 9k 2>&1 &&
	[ -z \"\$(ip netns list | grep '^mf-')\" ]"
ktap_check "fabric_up_mtu_9000" fabric up --mtu 9000
ktap_check "mtu_9000_on_every_port" check_port_mtus 9000
ktap_check "jumbo_ping_unfragmented_across_tiers" check_df_ping h1 h5 9000
if [ -d /sys/module/mrc ] && command -v ibv_devinfo >/dev/null; then
	ktap_check "mrc_device_ib_mtu_4096" check_ib_mtu h1 4096
else
	ktap_skip "mrc_device_ib_mtu_4096" "needs the mrc module and ibv_devinfo"
fi
fabric down >/dev/null 2>&1

# `up --trim`: the tier-0 ports toward hosts become trimming switch ports
# (tools/trim). Bad combinations are refused before anything is built.
ktap_check "trim_needs_a_rate" sh -c "! '$FABRIC' up --trim 2>&1 && [ -z \"\$(ip netns list | grep '^mf-')\" ]"
ktap_check "queue_needs_trim" sh -c "! '$FABRIC' up --rate 8mbit --queue 16k 2>&1"
if command -v bpftool >/dev/null && command -v clang >/dev/null &&
	[ -r /usr/include/bpf/bpf_helpers.h ] &&
	make -s -C "$MRC_TOP/tools/trim" >/dev/null 2>&1; then
	ktap_check "fabric_up_trimming" fabric up --rate ${SHAPED_RATE_MBIT}mbit \
		--trim --queue 16k --ecn 8k
	# One trimming port per host and plane, every counter readable.
	ktap_check "trimstats_every_host_port" sh -c "'$FABRIC' trimstats |
		awk '{ print } NF == 18 && \$3 == \"forwarded\" { n++ } END { exit n != 16 }'"
	ktap_check "paths_deliver_when_trimming" check_all_paths h1 h5
	# A burst of trimmable (DSCP 10) UDP to the MRC port, 40 times what
	# the queue holds, far faster than 8 Mbit/s: h5's ports trim.
	sum_trimstats()	# SWITCH_PREFIX PORT FIELD
	{
		"$FABRIC" trimstats | awk -v s="$1" -v p="$2" -v f="$3" \
			'index($1, s) == 1 && $2 == p { for (i = 3; i < NF; i += 2) if ($i == f) n += $(i + 1) } END { print n + 0 }'
	}
	B6=$("$FABRIC" addr h5 | sed -n 1p)
	before=$(sum_trimstats p h5 trimmed)
	ip netns exec mf-h1 python3 -c "
import socket
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_TCLASS, 10 << 2)
for i in range(600):
    s.sendto(bytes(1000), ('$B6', $(mrc_udp_port 2>/dev/null || echo 4791)))
"
	sleep 1
	after=$(sum_trimstats p h5 trimmed)
	ktap_check "trimmable_burst_trimmed_at_the_last_hop" awk -v b="$before" -v a="$after" \
		'BEGIN { printf "trimmed at h5 ports: %d\n", a - b; exit !(a - b > 0) }'
	ktap_check "down_removes_the_trim_pins" sh -c "'$FABRIC' down &&
		! ls \"\${MRC_TRIM_BPFFS:-/run/mrc-trim}\" 2>/dev/null | grep -q '^ns-mf-'"

	# `up --mark`: every port of the fabric a marking, drop-tail port.
	ktap_check "mark_refuses_trim_and_no_rate" sh -c "! '$FABRIC' up --rate 8mbit --trim --mark 8k 2>&1 &&
		! '$FABRIC' up --mark 8k 2>&1 && [ -z \"\$(ip netns list | grep '^mf-')\" ]"
	# 64 ports to attach take minutes under a loaded TCG host: not
	# the 90 s of fabric().
	ktap_check "fabric_up_marking" timeout 900 "$FABRIC" up \
		--rate ${SHAPED_RATE_MBIT}mbit --mark 8k --queue 16k
	ktap_check "trimstats_every_port_when_marking" sh -c "'$FABRIC' trimstats |
		awk 'NF == 18 && \$3 == \"forwarded\" { n++ } END { print n \" ports\"; exit n != $((2 * DEFAULT_LINKS)) }'"
	ktap_check "paths_deliver_when_marking" check_all_paths h1 h5
	# An ECT(0) burst of AF11 UDP to the MRC port, far faster than the
	# ports: marked CE on its way (at h1's own port first), never
	# trimmed.
	ip netns exec mf-h1 python3 -c "
import socket
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_TCLASS, 10 << 2 | 2)
for i in range(600):
    s.sendto(bytes(1000), ('$B6', $(mrc_udp_port 2>/dev/null || echo 4791)))
"
	sleep 3
	ktap_check "ect_burst_marked_not_trimmed" sh -c "'$FABRIC' trimstats | awk '
		{ for (i = 3; i < NF; i += 2) v[\$i] += \$(i + 1) }
		END { printf \"marked %d trimmed %d dropped %d\\n\", v[\"marked\"], v[\"trimmed\"], v[\"dropped\"]
			exit !(v[\"marked\"] > 0 && v[\"trimmed\"] == 0) }'"
	ktap_check "base_rtt_idle_ping" sh -c "us=\$('$FABRIC' base-rtt) && echo \"base_rtt \$us us\" && [ \"\$us\" -gt 0 ]"
	ktap_check "down_after_marking" sh -c "'$FABRIC' down &&
		! ls \"\${MRC_TRIM_BPFFS:-/run/mrc-trim}\" 2>/dev/null | grep -q '^ns-mf-'"
else
	for c in fabric_up_trimming trimstats_every_host_port \
		paths_deliver_when_trimming trimmable_burst_trimmed_at_the_last_hop \
		down_removes_the_trim_pins mark_refuses_trim_and_no_rate \
		fabric_up_marking trimstats_every_port_when_marking \
		paths_deliver_when_marking ect_burst_marked_not_trimmed \
		base_rtt_idle_ping down_after_marking; do
		ktap_skip "$c" "needs bpftool, clang and libbpf-dev (scripts/setup)"
	done
fi
ktap_finish
