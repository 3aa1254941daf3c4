#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The lab's trimming switch port (tools/trim): a sender, a "switch" and a
# receiver namespace in a line, the program on the switch's port towards the
# receiver, at a rate far below what the sender offers. Checks that
# trimmable MRC packets over the queue limit arrive cut to their headers
# with a valid UDP checksum, the trimmed DSCP and the TRIMMED flag (IPv4
# and IPv6), also short of the last hop of an SRv6 uSID path (the checksum
# covers the final destination), that a packet too short to cut is trimmed
# in place, that other packets over the limit are dropped, that ECT
# packets get CE past the marking threshold, that packets already in the
# priority class are never queued, that the counters match what arrived
# (the whole data packets, their wire and payload bytes too), and that the
# port's rate holds.
# lab-timeout: 600
set -u
dir=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$dir/../.." && pwd)
# shellcheck source=ktap.sh
. "$dir/ktap.sh"
traffic=$dir/trim_traffic.py
trim_tool=$top/tools/trim/mrc-trim
# The distribution's python: a version manager's shim on PATH costs
# seconds per start under emulation.
PYTHON=python3
[ -x /usr/bin/python3 ] && PYTHON=/usr/bin/python3
trim()
{
	"$PYTHON" "$trim_tool" "$@"
}

[ "$(id -u)" -eq 0 ] || ktap_skip_all "needs root"
[ -x "$trim_tool" ] ||
	ktap_skip_all "needs soft-MRC's source tree (the lab's trimming switch port, tools/trim): run it from a built tree (selftests/run-lab, make run_tests), not installed"
for tool in tc bpftool clang python3 ethtool; do
	command -v $tool >/dev/null || ktap_skip_all "needs $tool (scripts/setup)"
done
[ -r /usr/include/bpf/bpf_helpers.h ] || ktap_skip_all "needs libbpf-dev"

RATE_BYTES=500000	# 4 Mbit/s: far below what python sends, even emulated
QUEUE=20000
ECN_THRESHOLD=10000
DSCP=10
TRIMMED_DSCP=46
PORT=4791
COUNT=1500
SIZE=1000
KEEP=68
# No dot in the path: libbpf turns dots of pin paths into underscores.
work=$(mktemp -d /tmp/mrc-trim-XXXXXX)
export MRC_TRIM_BPFFS=$work/bpffs

cleanup()
{
	ip netns del trs 2>/dev/null
	ip netns del trw 2>/dev/null
	ip netns del trr 2>/dev/null
	ip netns del tru 2>/dev/null
	umount "$MRC_TRIM_BPFFS" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
cleanup
mkdir -p "$work"

# trs (s0) --- (w0) trw (w1) --- (r0) trr (r1) --- (u0) tru; the program on
# w1; tru only for the SRv6 uSID phase.
setup()
{
	ip netns add trs && ip netns add trw && ip netns add trr &&
	ip link add s0 netns trs type veth peer name w0 netns trw &&
	ip link add w1 netns trw type veth peer name r0 netns trr &&
	ip -n trs addr add 10.90.1.1/24 dev s0 &&
	ip -n trs addr add fd90:1::1/64 dev s0 nodad &&
	ip -n trw addr add 10.90.1.2/24 dev w0 &&
	ip -n trw addr add fd90:1::2/64 dev w0 nodad &&
	ip -n trw addr add 10.90.2.2/24 dev w1 &&
	ip -n trw addr add fd90:2::2/64 dev w1 nodad &&
	ip -n trr addr add 10.90.2.1/24 dev r0 &&
	ip -n trr addr add fd90:2::1/64 dev r0 nodad &&
	for ns in trs trw trr; do ip -n $ns link set lo up; done &&
	ip -n trs link set s0 up && ip -n trw link set w0 up &&
	ip -n trw link set w1 up && ip -n trr link set r0 up &&
	ip -n trs route add default via 10.90.1.2 &&
	ip -n trs -6 route add default via fd90:1::2 &&
	ip -n trr route add default via 10.90.2.2 &&
	ip -n trr -6 route add default via fd90:2::2 &&
	ip netns exec trw sysctl -qw net.ipv4.ip_forward=1 &&
	ip netns exec trw sysctl -qw net.ipv6.conf.all.forwarding=1 &&
	# SRv6 uSIDs (F3216, block fc00:0::/32, Documentation/fabric.rst):
	# trr is also a uSID switch, 2000, in front of tru, which owns
	# fc00:0:5::/48, so a packet to the container fc00:0:2000:5:: crosses
	# the trimming port one shift short of its final destination. (An End
	# never delivers locally: the host must be a namespace of its own.)
	ip netns add tru &&
	ip link add r1 netns trr type veth peer name u0 netns tru &&
	ip -n trr addr add fd90:3::2/64 dev r1 nodad &&
	ip -n tru addr add fd90:3::1/64 dev u0 nodad &&
	ip -n tru addr add fc00:0:5::/48 dev u0 nodad &&
	ip -n tru link set lo up && ip -n tru link set u0 up &&
	ip -n trr link set r1 up &&
	ip -n tru -6 route add default via fd90:3::2 &&
	ip -n trw -6 route add fc00:0::/32 via fd90:2::1 dev w1 &&
	ip -n trr -6 route add fc00:0:5::/48 via fd90:3::1 dev r1 &&
	ip -n trr link add usid0 type dummy && ip -n trr link set usid0 up &&
	ip netns exec trr sysctl -qw net.ipv6.conf.all.forwarding=1 &&
	ip netns exec trr sysctl -qw net.ipv6.conf.all.seg6_enabled=1 &&
	ip netns exec trr sysctl -qw net.ipv6.conf.r0.seg6_enabled=1 &&
	ip -n trr -6 route add fc00:0:2000::/48 encap seg6local action End \
		flavors next-csid lblen 32 nflen 16 dev usid0 &&
	ip netns exec trr ping -q -c 1 -W 5 fd90:3::1 >/dev/null &&
	# The sender computes UDP checksums in software (no CHECKSUM_PARTIAL
	# over veth), so the receiving stack verifies every checksum, the
	# ones the switch rewrote included.
	ip netns exec trs ethtool -K s0 tx off >/dev/null &&
	# Resolve neighbours now: a burst must not wait in an ARP queue.
	ip netns exec trs ping -q -c 1 -W 5 10.90.2.1 >/dev/null &&
	ip netns exec trs ping -q -c 1 -W 5 fd90:2::1 >/dev/null &&
	ip netns exec trr ping -q -c 1 -W 5 10.90.1.1 >/dev/null &&
	ip netns exec trr ping -q -c 1 -W 5 fd90:1::1 >/dev/null
}

snmp_udp()	# FIELD: the receiver's UDP MIB counter
{
	ip netns exec trr awk -v f="$1" '$1 == "Udp:" && !h { for (i = 2; i <= NF; i++) c[i] = $i; h = 1; next }
		$1 == "Udp:" { for (i = 2; i <= NF; i++) if (c[i] == f) print $i }' /proc/net/snmp
}

snmp6()		# FIELD: the uSID receiver's IPv6 MIB counter (Udp6InCsumErrors...)
{
	ip netns exec tru awk -v f="$1" '$1 == f { print $2 }' /proc/net/snmp6
}

rx()		# PHASE KEY
{
	awk -v k="$2" '$1 == k { print $2 }' "$work/$1.rx"
}

st()		# PHASE KEY
{
	awk -v k="$2" '$1 == k { print $2 }' "$work/$1.stats"
}

sent()		# PHASE
{
	cat "$work/$1.sent"
}

# Stray IPv6 neighbour/multicast-listener packets also cross the port and
# count as forwarded; allow a few.
STRAY=4

check_trimmed_phase()	# PHASE
{
	local p=$1 full trimmed
	full=$(rx "$p" full) trimmed=$(rx "$p" trimmed)
	[ "$(sent "$p")" -eq "$COUNT" ] || { echo "sender sent $(sent "$p")"; return 1; }
	[ "$trimmed" -gt 0 ] && [ "$full" -gt 0 ] ||
		{ echo "no trimming: $full full, $trimmed trimmed"; return 1; }
	[ $((full + trimmed)) -eq "$COUNT" ] ||
		{ echo "lost: $full full + $trimmed trimmed of $COUNT"; return 1; }
	[ "$(rx "$p" bad_len)" -eq 0 ] && [ "$(rx "$p" duplicates)" -eq 0 ]
}

check_marks()		# PHASE
{
	local p=$1
	[ "$(rx "$p" trimmed_dscp)" -eq $TRIMMED_DSCP ] &&
	[ "$(rx "$p" trimmed_dscp_mixed)" -eq 0 ] &&
	[ "$(rx "$p" trimmed_flag_missing)" -eq 0 ] &&
	[ "$(rx "$p" full_dscp)" -eq $DSCP ] &&
	[ "$(rx "$p" full_dscp_mixed)" -eq 0 ] &&
	[ "$(rx "$p" full_flag_set)" -eq 0 ]
}

check_counters()	# PHASE
{
	local p=$1 fwd
	fwd=$(st "$p" forwarded)
	[ "$(st "$p" trimmed)" -eq "$(rx "$p" trimmed)" ] &&
	[ "$(st "$p" dropped)" -eq $((COUNT - $(rx "$p" full) - $(rx "$p" trimmed))) ] &&
	[ "$fwd" -ge "$(rx "$p" full)" ] &&
	[ "$fwd" -le $(($(rx "$p" full) + STRAY)) ] &&
	[ "$(st "$p" marked)" -eq "$(rx "$p" ce)" ]
}

ktap_begin 19
# Built on the host by make (tools); building it here, under emulation,
# takes minutes.
make -s -C "$top/tools/trim" >/dev/null ||
	ktap_skip_all "cannot build tools/trim/mrc_trim.bpf.o"
setup || ktap_skip_all "cannot build the three namespaces"
ktap_info "namespaces ready after ${SECONDS}s"
attach()	# RATE_BYTES
{
	trim -n trw attach w1 --rate $(($1 * 8)) --queue $QUEUE \
		--ecn $ECN_THRESHOLD --dscp $DSCP --trimmed-dscp $TRIMMED_DSCP \
		--port $PORT --keep $KEEP --usid-block fc00:0::/32
}
if ! attach $RATE_BYTES; then
	ktap_fail "attach"
	ktap_finish
fi
ktap_pass "attach"
ktap_info "$(tc -n trw qdisc show dev w1 | tr '\n' ' ')"

csum_before=$(snmp_udp InCsumErrors)
ip netns exec trs "$PYTHON" "$traffic" badsum 10.90.2.1 $PORT
sleep 1
ktap_check "receiver_rejects_bad_udp_checksum" \
	test "$(snmp_udp InCsumErrors)" -eq $((csum_before + 1))
csum_before=$(snmp_udp InCsumErrors)
rcvbuf_before=$(snmp_udp RcvbufErrors)
csum6_before=$(snmp6 Udp6InCsumErrors)

# Every burst from one process (python starts are slow when emulated):
# trimmable IPv4 and IPv6, then not trimmable, then not trimmable but ECT.
"$PYTHON" "$traffic" phases "$work" "$trim_tool" trw w1 trs trr $PORT \
	$COUNT $SIZE v4trim,4,10.90.2.1,$DSCP,0 v6trim,6,fd90:2::1,$DSCP,0 \
	v4plain,4,10.90.2.1,0,0 v4ecn,4,10.90.2.1,0,2 \
	v4prio,4,10.90.2.1,$TRIMMED_DSCP,0
# IPv6 to a uSID container, received by tru: the checksum against its
# final destination fc00:0:5::, as the mrc device sends.
"$PYTHON" "$traffic" phases "$work" "$trim_tool" trw w1 trs tru $PORT \
	$COUNT $SIZE v6usid,6,fc00:0:2000:5::,$DSCP,0,fc00:0:5::
# Packets no longer than a trimmed one (KEEP bytes of UDP payload), at an
# eighth of the rate so that even a slow python loop fills the queue.
attach $((RATE_BYTES / 8)) &&
	"$PYTHON" "$traffic" phases "$work" "$trim_tool" trw w1 trs trr $PORT \
		$COUNT $KEEP v4short,4,10.90.2.1,$DSCP,0
for p in v4trim v6trim v6usid v4plain v4ecn v4prio v4short; do
	ktap_info "$p: sent $(cat "$work/$p.sent" 2>/dev/null);" \
		"switch: $(tr '\n' ' ' <"$work/$p.stats" 2>/dev/null)"
	ktap_info "$p: received: $(tr '\n' ' ' <"$work/$p.rx" 2>/dev/null)"
done
ktap_info "traffic done after ${SECONDS}s"

ktap_check "ipv4_trimmable_over_limit_trimmed_not_lost" \
	check_trimmed_phase v4trim
ktap_check "ipv4_trimmed_dscp_flag_and_length" check_marks v4trim
ktap_check "ipv4_trim_counters_match" check_counters v4trim

ktap_check "ipv6_trimmable_over_limit_trimmed_not_lost" \
	check_trimmed_phase v6trim
ktap_check "ipv6_trimmed_dscp_flag_and_length" check_marks v6trim

# The priority class: trimmed packets leave at once, not behind the paced
# full-size packets queued before them.
ktap_check "trimmed_skip_the_queue" sh -c \
	"[ $(rx v4trim trimmed_after_last_full) -eq 0 ] && [ $(rx v6trim trimmed_after_last_full) -eq 0 ]"
ktap_check "trimmed_udp_checksums_valid" sh -c \
	"[ $(snmp_udp InCsumErrors) -eq $csum_before ] && [ $(snmp_udp RcvbufErrors) -eq $rcvbuf_before ]"

# Trimmed one uSID short of the final destination: the receiver takes
# every trimmed packet (a checksum against the container, the header's
# destination at the switch, would fail at the receiver: Udp6InCsumErrors).
ktap_check "usid_trimmed_short_of_last_hop_not_lost" \
	check_trimmed_phase v6usid
ktap_check "usid_trimmed_dscp_flag_and_length" check_marks v6usid
usid_checksums_valid()
{
	local errors=$(($(snmp6 Udp6InCsumErrors) - csum6_before))
	echo "receiver: $(rx v6usid trimmed) trimmed packets taken from the uSID path," \
		"Udp6InCsumErrors +$errors"
	[ "$errors" -eq 0 ] && [ "$(rx v6usid trimmed)" -gt 0 ] &&
		check_counters v6usid
}
ktap_check "usid_trimmed_udp_checksums_valid" usid_checksums_valid

# Nothing to cut: trimmed in place (flag, DSCP), never dropped.
short_trimmed_in_place()
{
	local p=v4short
	echo "$(rx $p full) whole, $(rx $p trimmed) trimmed in place of $COUNT;" \
		"switch trimmed $(st $p trimmed), dropped $(st $p dropped)"
	check_trimmed_phase $p && check_marks $p && check_counters $p
}
ktap_check "short_over_limit_trimmed_in_place" short_trimmed_in_place

unmarked_dropped()
{
	local p=v4plain
	[ "$(rx $p trimmed)" -eq 0 ] && [ "$(st $p trimmed)" -eq 0 ] &&
	[ "$(rx $p full)" -lt "$COUNT" ] && [ "$(st $p dropped)" -gt 0 ] &&
	check_counters $p
}
ktap_check "unmarked_over_limit_dropped" unmarked_dropped

rate_holds()
{
	local rate ratio
	rate=$(rx v4plain rate_bytes_per_s)
	ratio=$(awk -v r="$rate" -v c=$RATE_BYTES 'BEGIN { printf "%.2f", r / c }')
	echo "full-size packets left at $rate B/s, $ratio x the port rate"
	awk -v x="$ratio" 'BEGIN { exit !(x >= 0.75 && x <= 1.25) }'
}
ktap_check "port_rate_holds" rate_holds

ecn_marked()
{
	local p=v4ecn
	echo "$(rx $p ce) of $(rx $p full) arrivals CE"
	[ "$(rx $p ce)" -gt 0 ] && [ "$(rx $p ce)" -lt "$(rx $p full)" ] &&
	check_counters $p
}
ktap_check "ect_marked_ce_past_threshold" ecn_marked
# Without ECT nothing was marked.
ktap_check "not_ect_never_marked" sh -c \
	"[ $(rx v4trim ce) -eq 0 ] && [ $(rx v4plain ce) -eq 0 ] && [ $(st v4plain marked) -eq 0 ]"

# Packets already in the priority class (MRC's ACKs, NAKs, probes) leave
# at once, outside the queue: none trimmed, none dropped.
priority_class_unqueued()
{
	local p=v4prio
	echo "$(rx $p full) of $COUNT arrived, switch dropped $(st $p dropped)"
	[ "$(rx $p full)" -eq "$COUNT" ] && [ "$(st $p dropped)" -eq 0 ] &&
	[ "$(st $p trimmed)" -eq 0 ] && check_counters $p
}
ktap_check "priority_class_never_queued" priority_class_unqueued

# The goodput counters: of every phase, the whole MRC data packets the
# switch forwarded are those that arrived whole (trimmed ones, with the
# TRIMMED flag, are not), each SIZE bytes of UDP payload plus the UDP, IP
# and Ethernet headers on the wire, carrying SIZE - 60 bytes of payload
# after WRITE's 60 header bytes (trim_traffic.py).
whole_data_counted()
{
	local spec p size iphl full wire payload total=0 ok=0
	for spec in v4trim:$SIZE:20 v6trim:$SIZE:40 v6usid:$SIZE:40 \
		    v4plain:$SIZE:20 v4ecn:$SIZE:20 v4prio:$SIZE:20 \
		    v4short:$KEEP:20; do
		IFS=: read -r p size iphl <<<"$spec"
		full=$(rx "$p" full)
		wire=$((full * (14 + iphl + 8 + size)))
		payload=$((full * (size - 60)))
		echo "$p: $full arrived whole ($wire B on the wire, $payload B payload);" \
			"switch: data_packets $(st "$p" data_packets)" \
			"data_bytes $(st "$p" data_bytes) payload_bytes $(st "$p" payload_bytes)"
		[ "$(st "$p" data_packets)" -eq "$full" ] &&
		[ "$(st "$p" data_bytes)" -eq "$wire" ] &&
		[ "$(st "$p" payload_bytes)" -eq "$payload" ] || ok=1
		total=$((total + full))
	done
	[ "$ok" -eq 0 ] && [ "$total" -gt 0 ]
}
ktap_check "whole_data_and_payload_counted" whole_data_counted

trim -n trw detach w1
ktap_finish
