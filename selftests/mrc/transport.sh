#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The UDP transport: a socket per network namespace that has mrc devices,
# receive validation with a counter per drop reason, the UDP checksum
# policy, transmission, the udp_port parameter beside rdma_rxe, and clean
# namespace deletion and module unload.
#
# Every device also brings up ib_mad's GSI QP (and posts its receive
# buffers), so the many device creations here take longer under TCG.
# lab-timeout: 600
#
# Two namespaces joined by a veth pair, an mrc device in each:
#   mrcns-a: mrcta 192.0.2.1/24 2001:db8::1/64  mrc0
#   mrcns-b: mrctb 192.0.2.2/24 2001:db8::2/64  mrc1
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
# The system's python: a version manager's shim costs seconds per start.
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=$(command -v python3) || ktap_skip_all "needs python3"
command -v ss >/dev/null || ktap_skip_all "needs ss (iproute2)"
mrc_require_loaded

PKT=$MRC_SELFTEST_DIR/mrc_packet.py
NSA=mrcns-a
NSB=mrcns-b
NSC=mrcns-c
A4=192.0.2.1
B4=192.0.2.2
A6=2001:db8::1
B6=2001:db8::2
PORT=4791
XMIT=/sys/kernel/debug/mrc/xmit
tmp=$(mktemp -d)

in_a() { ip netns exec "$NSA" "$@"; }
in_b() { ip netns exec "$NSB" "$@"; }

cleanup()
{
	local ns
	mrc_cleanup
	rdma link delete rxet0 2>/dev/null
	[ -d /sys/module/rdma_rxe ] && rmmod rdma_rxe 2>/dev/null
	for ns in "$NSA" "$NSB" "$NSC"; do
		ip netns del "$ns" 2>/dev/null
	done
	# Later tests expect the module loaded with the default port.
	if ! mrc_module_loaded || [ "$(mrc_udp_port)" != 4791 ]; then
		mrc_reload
	fi 2>/dev/null
	rm -rf "$tmp"
	return 0
}
trap cleanup EXIT

# The two namespaces and their veth pair, addressed, without devices.
make_namespaces()
{
	ip netns add "$NSA" && ip netns add "$NSB" &&
	ip link add mrcta netns "$NSA" type veth peer name mrctb netns "$NSB" &&
	in_a ip addr add "$A4/24" dev mrcta &&
	in_a ip addr add "$A6/64" dev mrcta nodad &&
	in_b ip addr add "$B4/24" dev mrctb &&
	in_b ip addr add "$B6/64" dev mrctb nodad &&
	in_a ip link set lo up && in_a ip link set mrcta up &&
	in_b ip link set lo up && in_b ip link set mrctb up
}

# mrc0 in A, mrc1 in B, created from inside their namespaces, with the
# GIDs of their addresses in place.
make_devices()
{
	in_a rdma link add mrc0 type mrc netdev mrcta &&
	in_b rdma link add mrc1 type mrc netdev mrctb &&
	mrc_select_preset mrc0 mrc1 &&
	wait_for 10 ib_has_gid mrc0 "ffff:c000:0201 " &&
	wait_for 10 ib_has_gid mrc1 "ffff:c000:0202 " &&
	wait_for 10 ib_has_gid mrc1 "^2001:0db8:0000:0000:0000:0000:0000:0002 "
}

# Lines of `ss -uln` bound to PORT in namespace NS (or here, for "-").
udp_listeners()	# NS PORT
{
	if [ "$1" = - ]; then
		ss -Huln "sport = :$2"
	else
		ip netns exec "$1" ss -Huln "sport = :$2"
	fi
}

# PORT is open for IPv4 and IPv6 in NS, or (PORT closed) not at all.
port_open()	# NS PORT
{
	local out
	out=$(udp_listeners "$1" "$2")
	echo "$1 port $2: ${out:-none}"
	echo "$out" | grep -q "0.0.0.0:$2 " && echo "$out" | grep -q "\[::\]:$2 "
}

port_closed()	# NS PORT
{
	local out
	out=$(udp_listeners "$1" "$2")
	echo "$1 port $2: ${out:-none}"
	[ -z "$out" ]
}

# Polls COMMAND until it succeeds or SECONDS of wall time pass (wait_for
# counts tries, which take long under emulation).
settle()	# SECONDS COMMAND...
{
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.1
	done
}

# Counters of IBDEV as "name value" lines.
counters()	# IBDEV
{
	mrc_counters "$1"
}

# Every counter in AFTER rose over BEFORE by what SPEC says (NAME=DELTA
# ...), every other one not at all; says what differs.
deltas_are()	# BEFORE AFTER SPEC...
{
	local before=$1 after=$2
	shift 2
	awk -v spec="$*" '
	BEGIN { n = split(spec, w, " ")
		for (i = 1; i <= n; i++) { split(w[i], kv, "="); want[kv[1]] = kv[2] } }
	NR == FNR { old[$1] = $2; next }
	{ seen[$1] = 1; d = $2 - old[$1]; e = ($1 in want) ? want[$1] : 0
	  if (d != e) { printf "%s rose by %d, expected %d\n", $1, d, e; bad = 1 } }
	END { for (k in want) if (!(k in seen)) { print "no counter " k; bad = 1 }
	      exit bad }' "$before" "$after"
}

counters_now_are()	# IBDEV BEFORE SPEC...
{
	local dev=$1 before=$2
	shift 2
	counters "$dev" >"$tmp/after" && deltas_are "$before" "$tmp/after" "$@"
}

# Snapshots IBDEV's counters, runs COMMAND (it prints "COUNT BYTES"), and
# checks the counters rose by SPEC, where the words COUNT and BYTES are
# replaced by what COMMAND printed.
counted()	# IBDEV SPEC COMMAND...
{
	local dev=$1 spec=$2 count bytes
	shift 2
	counters "$dev" >"$tmp/before" || return 1
	read -r count bytes < <("$@") || { echo "sending failed"; return 1; }
	spec=${spec//COUNT/$count}
	spec=${spec//BYTES/$bytes}
	echo "sent $count packets ($bytes bytes), expect $spec"
	# Delivery over the veth is asynchronous; the delta must settle.
	settle 10 counters_now_are "$dev" "$tmp/before" "$spec" >/dev/null
	sleep 0.2
	counters_now_are "$dev" "$tmp/before" "$spec"
}

# UDP InCsumErrors of namespace NS: "Udp" (IPv4) or "Udp6".
csum_errors()	# NS Udp|Udp6
{
	if [ "$2" = Udp ]; then
		ip netns exec "$1" awk '/^Udp:/ { if (!n++) for (i = 1; i <= NF; i++) col[$i] = i; else print $col["InCsumErrors"] }' /proc/net/snmp
	else
		ip netns exec "$1" awk '$1 == "Udp6InCsumErrors" { print $2 }' /proc/net/snmp6
	fi
}

# ktap_check, saying how long the case took (the lab may be slow).
check()	# NAME COMMAND...
{
	local start=$EPOCHREALTIME
	ktap_check "$@"
	ktap_info "$(awk "BEGIN { printf \"%.1f\", $EPOCHREALTIME - $start }") s"
}

# A case that unloads mrc and loads it again: it needs a module file.
check_reload()	# NAME COMMAND...
{
	if mrc_can_load; then
		check "$@"
	else
		ktap_skip "$1" "unloads and reloads mrc: $MRC_NO_LOADER"
	fi
}

# A case that also needs rdma_rxe.
check_rxe()	# NAME COMMAND...
{
	if rxe_available; then
		check_reload "$@"
	else
		ktap_skip "$1" "needs rdma_rxe (not in this kernel)"
	fi
}

if ! make_namespaces; then
	ktap_skip_all "cannot create namespaces and a veth pair"
fi

ktap_begin 32

# (a) Sockets.
both_closed() { port_closed "$NSA" "$PORT" && port_closed "$NSB" "$PORT"; }
both_open() { port_open "$NSA" "$PORT" && port_open "$NSB" "$PORT"; }
check "no_socket_before_a_device" both_closed
check "devices_created_inside_namespaces" make_devices
check "port_open_in_each_namespace" both_open
check "no_socket_in_init_net" port_closed - "$PORT"

socket_follows_devices()
{
	rdma link delete mrc1 && port_closed "$NSB" "$PORT" &&
	port_open "$NSA" "$PORT" &&
	in_b rdma link add mrc1 type mrc netdev mrctb &&
	port_open "$NSB" "$PORT" &&
	wait_for 10 ib_has_gid mrc1 "ffff:c000:0202 " &&
	wait_for 10 ib_has_gid mrc1 "^2001:0db8:0000:0000:0000:0000:0000:0002 "
}
check "socket_closed_with_last_device_and_reopened" socket_follows_devices

expected_counters()
{
	counters mrc1 | awk -v want="rx_packets rx_bytes tx_packets tx_bytes
		tx_errors rx_drop_bad_checksum rx_drop_no_device
		rx_drop_bad_address rx_drop_no_memory rx_drop_too_short
		rx_drop_bad_version rx_drop_bad_opcode rx_drop_reserved_set
		rx_drop_bad_flags rx_drop_bad_length rx_drop_bad_offset
		rx_drop_bad_sack rx_drop_bad_syndrome rx_drop_no_qp retransmits
		out_of_order duplicates timeouts trims" '
	{ have[$1] = 1; names = names " " $1
	  if ($2 != 0) { print "not zero:", $0; bad = 1 } }
	END { print "counters:" names
	      n = split(want, w, /[ \t\n]+/)
	      for (i = 1; i <= n; i++)
		if (w[i] != "" && !(w[i] in have)) { print "missing:", w[i]; bad = 1 }
	      exit bad }'
}
check "counters_listed_and_zero" expected_counters

# (b) Malformed packets, each counted by its reason and by nothing else:
# every kind is sent in one go, then each counter is checked.
send_all()
{
	counters mrc1 >"$tmp/all_before" &&
	in_a "$PYTHON" "$PKT" send all "$B4" "$PORT" >"$tmp/sent" || return 1
	cat "$tmp/sent"
	settle 10 counters_now_are mrc1 "$tmp/all_before" "$(all_spec)" \
		>/dev/null
	sleep 0.2
	counters mrc1 >"$tmp/all_after"
}
check "malformed_and_valid_packets_sent" send_all

# What sending every kind must do to mrc1's counters.
all_spec()
{
	awk '{ print "rx_drop_" $1 "=" $2 }
		$1 == "no_qp" { print "rx_packets=" $2; print "rx_bytes=" $3 }' \
		"$tmp/sent" | xargs
}

# KIND's packets raised rx_drop_KIND by their number.
kind_counted()	# KIND
{
	local count delta
	count=$(awk -v k="$1" '$1 == k { print $2 }' "$tmp/sent")
	delta=$(awk -v c="rx_drop_$1" 'NR == FNR { if ($1 == c) b = $2; next }
		$1 == c { print $2 - b }' "$tmp/all_before" "$tmp/all_after")
	echo "$1: sent ${count:-none}, rx_drop_$1 rose by ${delta:-none}"
	[ -n "$count" ] && [ "$count" = "$delta" ]
}
for kind in too_short bad_version bad_opcode reserved_set bad_flags \
	    bad_length bad_offset bad_sack bad_syndrome bad_planes; do
	check "malformed_${kind}_counted" kind_counted "$kind"
done

# The valid ones (no such QP) are the only packets received, and nothing
# else moved.
only_valid_received()
{
	deltas_are "$tmp/all_before" "$tmp/all_after" "$(all_spec)"
}
check "valid_packets_without_qp_counted" only_valid_received
check "valid_packets_over_ipv6_counted" \
	counted mrc1 "rx_packets=COUNT rx_bytes=BYTES rx_drop_no_qp=COUNT" \
	in_a "$PYTHON" "$PKT" send no_qp "$B6" "$PORT"

# An address of B that is not on mrctb (weak host model: B accepts it).
not_our_gid()
{
	in_b ip addr add 198.51.100.2/32 dev lo &&
	in_a ip route add 198.51.100.2/32 via "$B4" &&
	counted mrc1 "rx_drop_bad_address=COUNT" \
		in_a "$PYTHON" "$PKT" send no_qp 198.51.100.2 "$PORT"
}
check "destination_not_a_gid_counted" not_our_gid

# To 127.0.0.1 over lo: no mrc device has that GID. (B to its own address
# also goes over lo, but that is mrc1's GID: loopback, counted as mrc1's.)
check "no_device_counted" \
	counted mrc1 "rx_drop_no_device=COUNT" in_b "$PYTHON" "$PKT" send no_qp 127.0.0.1 "$PORT"
check "loopback_to_own_gid_reaches_device" \
	counted mrc1 "rx_packets=COUNT rx_bytes=BYTES rx_drop_no_qp=COUNT" \
	in_b "$PYTHON" "$PKT" send no_qp "$B4" "$PORT"

# (c) UDP checksums: none over IPv4 is refused by us, a wrong one (and none
# over IPv6) by the UDP layer before MRC sees it: its namespace counts it.
check "ipv4_without_udp_checksum_counted" \
	counted mrc1 "rx_drop_bad_checksum=COUNT" \
	in_a "$PYTHON" "$PKT" rawsend zero "$B4" "$PORT" 5

bad_checksum_refused()	# ADDR Udp|Udp6 zero|bad
{
	local before after
	before=$(csum_errors "$NSB" "$2")
	counted mrc1 "" in_a "$PYTHON" "$PKT" rawsend "$3" "$1" "$PORT" 5 || return 1
	after=$(csum_errors "$NSB" "$2")
	echo "$2 InCsumErrors $before -> $after"
	[ $((after - before)) -eq 5 ]
}
check "ipv4_bad_udp_checksum_dropped_by_udp" \
	bad_checksum_refused "$B4" Udp bad
check "ipv6_zero_udp_checksum_dropped_by_udp" \
	bad_checksum_refused "$B6" Udp6 zero

# Transmit: mrc0 sends through debugfs, a capture in B checks the headers
# and the UDP checksum (computed in software: tx offload off), mrc1 counts.
sent_and_received()	# SRC DST
{
	local hex len out pid
	[ -e "$XMIT" ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
	[ -w "$XMIT" ] || { echo "no $XMIT"; return 1; }
	in_a ethtool -K mrcta tx off >/dev/null 2>&1
	hex=$("$PYTHON" "$PKT" hex no_qp)
	len=$((${#hex} / 2))
	counters mrc0 >"$tmp/tx_before"
	counters mrc1 >"$tmp/before"
	in_b timeout 60 "$PYTHON" "$PKT" sniff mrctb "$PORT" 1 30 >"$tmp/sniff" &
	pid=$!
	wait_for 30 grep -q "^# ready" "$tmp/sniff" || { kill "$pid"; return 1; }
	echo "mrc0 $1 $2 49152 0x2a $hex" >"$XMIT" || { kill "$pid"; return 1; }
	wait "$pid"
	out=$(grep -v "^#" "$tmp/sniff")
	echo "captured: $out"
	echo "$out" | "$PYTHON" -c "
import json, sys
p = json.loads(sys.stdin.readline())
ok = (p['check_ok'] and p['tos'] == 0x2a and p['sport'] == 49152 and
      p['dport'] == $PORT and p['ulen'] == 8 + $len and
      p['payload'] == '$hex' and p['ttl'] == 64 and
      p['df'] in ((True,) if p['family'] == 4 else (None,)) and
      p['src'] == '$1' and p['dst'] == '$2')
sys.exit(0 if ok else 1)" || return 1
	settle 10 counters_now_are mrc1 "$tmp/before" \
		"rx_packets=1 rx_bytes=$len rx_drop_no_qp=1" >/dev/null
	counters_now_are mrc1 "$tmp/before" \
		"rx_packets=1 rx_bytes=$len rx_drop_no_qp=1" &&
	counters_now_are mrc0 "$tmp/tx_before" "tx_packets=1 tx_bytes=$len"
}
check "transmit_ipv4_checksum_and_headers" sent_and_received "$A4" "$B4"
check "transmit_ipv6_checksum_and_headers" sent_and_received "$A6" "$B6"

transmit_error_counted()
{
	counters mrc0 >"$tmp/tx_before"
	# 192.0.2.99 is not an address of A: the route lookup refuses it.
	if echo "mrc0 192.0.2.99 $B4 49152 0 $("$PYTHON" "$PKT" hex no_qp)" >"$XMIT"; then
		echo "sending from a foreign address succeeded"
		return 1
	fi
	counters_now_are mrc0 "$tmp/tx_before" "tx_errors=1"
}
check "transmit_error_counted" transmit_error_counted

# (d) The udp_port parameter, and rdma_rxe beside mrc.
other_port()
{
	mrc_reload udp_port=4792 || return 1
	echo "udp_port=$(mrc_udp_port)"
	[ "$(mrc_udp_port)" = 4792 ] && make_devices &&
	port_open "$NSB" 4792 && port_closed "$NSB" 4791 &&
	counted mrc1 "rx_packets=COUNT rx_bytes=BYTES rx_drop_no_qp=COUNT" \
		in_a "$PYTHON" "$PKT" send no_qp "$B4" 4792 &&
	counted mrc1 "" in_a "$PYTHON" "$PKT" send no_qp "$B4" 4791
}
check_reload "udp_port_parameter" other_port

beside_rxe()
{
	modprobe rdma_rxe || return 1
	make_veth mrctr mrctrp && make_veth mrcts mrctsp || return 1
	rdma link add rxet0 type rxe netdev mrctr &&
	rdma link add mrc2 type mrc netdev mrcts || return 1
	rdma link show | grep -E "link (rxet0|mrc2)/"
	port_open - 4791 && port_open - 4792 && ib_exists rxet0 && ib_exists mrc2
}
check_rxe "beside_rdma_rxe_in_init_net" beside_rxe

# With the default port, rxe's socket in init_net refuses an mrc device
# there; other namespaces do not care.
default_port_taken()
{
	local out
	mrc_reload || return 1
	if out=$(rdma link add mrc2 type mrc netdev mrcts 2>&1); then
		echo "mrc2 created on rxe's port"
		return 1
	fi
	echo "$out"
	echo "$out" | grep -qi "address already in use" && make_devices &&
	port_open "$NSA" 4791
}
check_rxe "default_port_in_use_by_rxe_refused" default_port_taken
rdma link delete rxet0 2>/dev/null
[ ! -d /sys/module/rdma_rxe ] || rmmod rdma_rxe

# (e) Deleting a namespace with a device in it removes the device.
netns_deleted()
{
	ip netns add "$NSC" &&
	ip -n "$NSC" link add mrctc type veth peer name mrctcp &&
	ip -n "$NSC" link set mrctc up && ip -n "$NSC" link set mrctcp up &&
	ip netns exec "$NSC" rdma link add mrc3 type mrc netdev mrctc &&
	ib_exists mrc3 && port_open "$NSC" "$PORT" || return 1
	ip netns del "$NSC" &&
	wait_for 20 ib_gone mrc3 || { echo "mrc3 survived its namespace"; return 1; }
	rmmod mrc && ! mrc_module_loaded && mrc_load
}
check_reload "namespace_deleted_with_device_then_unload" netns_deleted

# (f) Unloading with devices in two namespaces.
unload_with_namespaces()
{
	make_devices && port_open "$NSA" "$PORT" && port_open "$NSB" "$PORT" ||
		return 1
	rmmod mrc || return 1
	ib_gone mrc0 && ib_gone mrc1 || { echo "device survived unload"; return 1; }
	port_closed "$NSA" "$PORT" && port_closed "$NSB" "$PORT" &&
	timeout 20 ip netns del "$NSA" && timeout 20 ip netns del "$NSB" &&
	mrc_load
}
check_reload "unload_with_devices_in_two_namespaces" unload_with_namespaces
ktap_finish
