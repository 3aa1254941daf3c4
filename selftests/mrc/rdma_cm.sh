#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# rdma_cm between two hosts (network namespaces): the CM's MADs travel over
# each device's GSI QP (QPN 1, ib_mad's) as MRC datagrams, and the tools
# then use RC (rping, perftest -R) or UD (udaddy) queue pairs.
# lab-timeout: 900
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
mrc_require_loaded
command -v rping >/dev/null || ktap_skip_all "needs rdmacm-utils"
command -v ib_write_bw >/dev/null || ktap_skip_all "needs perftest"

OUT=$(mktemp -d /tmp/mrc-rdma-cm.XXXXXX)
ktap_begin 9
trap 'remove_two_hosts; mrc_cleanup; rm -rf "$OUT"' EXIT
remove_two_hosts
make_two_hosts || ktap_skip_all "cannot build the two hosts"

# Every device has its GSI QP, ready (ib_mad creates and moves it to RTS).
gsi_qp_ready()	# IBDEV
{
	rdma resource show qp link "$1/1" | grep -E "lqpn 1 .*type GSI.*state RTS"
}

# A cm_id listens (the server is ready for its client).
cm_listening()
{
	rdma resource show cm_id 2>/dev/null | grep -q "state LISTEN"
}

# cm_pair NAME LIMIT 'SERVER ARGS' 'CLIENT ARGS': runs the server in mrcnb
# until it listens, then the client in mrcna; both must exit 0. Their
# outputs stay in $OUT/NAME.server and $OUT/NAME.client for the checks.
cm_pair()
{
	local name=$1 limit=$2 server=$3 client=$4 spid sstatus cstatus
	# shellcheck disable=SC2086 # the argument strings are word lists
	ip netns exec mrcnb timeout "$limit" $server >"$OUT/$name.server" 2>&1 &
	spid=$!
	if ! wait_for 30 cm_listening; then
		echo "server never listened"
		kill "$spid" 2>/dev/null
	fi
	# shellcheck disable=SC2086
	ip netns exec mrcna timeout "$limit" $client >"$OUT/$name.client" 2>&1
	cstatus=$?
	wait "$spid"
	sstatus=$?
	sed 's/^/server: /' "$OUT/$name.server" | tail -n 20 | cut -c 1-160
	sed 's/^/client: /' "$OUT/$name.client" | tail -n 20 | cut -c 1-160
	echo "client exit $cstatus, server exit $sstatus"
	[ $cstatus -eq 0 ] && [ $sstatus -eq 0 ]
}

gsi_qps_ready()
{
	wait_for 10 gsi_qp_ready mrc0 && wait_for 10 gsi_qp_ready mrc1
}
ktap_check "gsi_qp1_in_rts_on_both_devices" gsi_qps_ready

# rping -v prints each ping's data pattern, -V compares every buffer that
# came back with what was sent ("data mismatch" and a failure otherwise).
PINGS=20
rping_verified()
{
	local pings
	cm_pair rping 300 "rping -s -a $MRC_HOST_B -v -V -C $PINGS -S 256" \
		"rping -c -a $MRC_HOST_B -v -V -C $PINGS -S 256" || return 1
	pings=$(grep -c "ping data: rdma-ping-" "$OUT/rping.client")
	echo "client printed $pings of $PINGS pings"
	! grep -qi "mismatch\|miscompare" "$OUT/rping.client" \
		"$OUT/rping.server" && [ "$pings" -eq $PINGS ]
}
ktap_check "rping_${PINGS}_pings_verified" rping_verified

# perftest over rdma_cm: address and route resolution, REQ/REP/RTU, then
# WRITEs on the RC QPs the CM connected. The result line carries figures.
write_bw_over_cm()
{
	local try
	for ((try = 1; ; try++)); do
		cm_pair write_bw 300 "ib_write_bw -R -d mrc1 -n 500 -s 65536" \
			"ib_write_bw -R -d mrc0 -n 500 -s 65536 $MRC_HOST_B" && break
		# Its message comes before the header, past the lines shown.
		grep -q "$MRC_PERFTEST_CLOCK_FAILED" "$OUT/write_bw.client" \
			"$OUT/write_bw.server" && [ "$try" -lt "${MRC_PERFTEST_TRIES:-4}" ] ||
			return 1
		echo "perftest's clock calibration failed (run $try): again"
	done
	grep -E "^[[:space:]]*65536[[:space:]]+500([[:space:]]+[0-9.]+){3}" \
		"$OUT/write_bw.client"
}
ktap_check "ib_write_bw_over_rdma_cm" write_bw_over_cm

# udaddy: SIDR over the GSI QPs gives the client the server's UD QPN and
# Q_Key; messages go out as datagrams, the server answers through an AH it
# builds from the receive completion's GRH (ibv_create_ah_from_wc).
udaddy_both_sides()
{
	cm_pair udaddy 300 "udaddy -C 20" "udaddy -s $MRC_HOST_B -C 20" ||
		return 1
	grep -q "return status 0" "$OUT/udaddy.server" &&
	grep -q "return status 0" "$OUT/udaddy.client"
}
ktap_check "udaddy_20_datagrams_each_way" udaddy_both_sides

ucmatose_both_sides()
{
	cm_pair ucmatose 300 "ucmatose -C 20" "ucmatose -s $MRC_HOST_B -C 20" ||
		return 1
	grep -q "return status 0" "$OUT/ucmatose.server" &&
	grep -q "return status 0" "$OUT/ucmatose.client"
}
ktap_check "ucmatose_20_messages" ucmatose_both_sides

# The same over IPv6: the GRH area then holds the IPv6 header, and the
# server's reply AH comes from it.
HOST_A6=2001:db8:2::1
HOST_B6=2001:db8:2::2
udaddy_over_ipv6()
{
	ip -n mrcna addr add $HOST_A6/64 dev mrcva nodad &&
	ip -n mrcnb addr add $HOST_B6/64 dev mrcvb nodad &&
	wait_for 5 ib_has_gid mrc0 "^2001:0db8:0002:0000:0000:0000:0000:0001 RoCE v2" &&
	wait_for 5 ib_has_gid mrc1 "^2001:0db8:0002:0000:0000:0000:0000:0002 RoCE v2" ||
		return 1
	cm_pair udaddy6 300 "udaddy -b $HOST_B6 -C 20" \
		"udaddy -s $HOST_B6 -b $HOST_A6 -C 20" || return 1
	grep -q "return status 0" "$OUT/udaddy6.server" &&
	grep -q "return status 0" "$OUT/udaddy6.client"
}
ktap_check "udaddy_over_ipv6" udaddy_over_ipv6

# The datagrams were all accepted: no Q_Key, buffer or trim drops, and the
# receive queues never ran dry (ib_mad and udaddy post before sending).
COUNTERS="rx_drop_bad_qkey rx_drop_no_recv rx_drop_recv_too_small rx_drop_ud_trimmed rx_drop_qp_state rx_drop_no_qp"
no_datagram_drops()
{
	local dev cnt val bad=0
	for dev in mrc0 mrc1; do
		for cnt in $COUNTERS; do
			val=$(mrc_counters "$dev" "$cnt" 2>/dev/null |
			      cut -d' ' -f2)
			echo "$dev $cnt ${val:-missing}"
			[ "${val:-x}" = 0 ] || bad=1
		done
	done
	return $bad
}
ktap_check "no_datagram_drops" no_datagram_drops

# Hand-made datagrams to mrc1's GSI QP, each refused for one reason and
# counted by it alone: the receive path validates Q_Key, length and trim.
counter()	# IBDEV NAME
{
	mrc_counters "$1" "$2" | cut -d' ' -f2
}

bad_datagrams_counted()
{
	local cnt before after bad=0
	local -A want=(
		[rx_drop_bad_qkey]=1 [rx_drop_recv_too_small]=1
		[rx_drop_ud_trimmed]=1 [rx_drop_bad_flags]=1
		[rx_drop_bad_length]=1 [rx_drop_reserved_set]=1
	)
	local -A old
	for cnt in "${!want[@]}"; do
		old[$cnt]=$(counter mrc1 "$cnt")
	done
	ip netns exec mrcna python3 - "$MRC_SELFTEST_DIR" "$MRC_HOST_B" \
		"$(mrc_udp_port)" <<'PY' || return 1
import socket, struct, sys
sys.path.insert(0, sys.argv[1])
from mrc_packet import base  # noqa: E402 (wire-format.rst's base header)

UD_SEND, UD_SEND_IMM, GSI_QKEY = 0x30, 0x31, 0x80010000


def ud(qkey=GSI_QKEY, payload=b"m" * 256, declared=None, flags=0, rsvd=0,
       imm=None):
    declared = len(payload) if declared is None else declared
    op = UD_SEND if imm is None else UD_SEND_IMM
    hdr = base(op, flags, dqpn=1, payload_len=declared)
    hdr += struct.pack(">II", qkey, rsvd)
    if imm is not None:
        hdr += struct.pack(">II", imm, 0)
    return hdr + payload


pkts = [
    ud(qkey=0x12345678),                        # rx_drop_bad_qkey
    ud(payload=b"x" * 1000),                    # rx_drop_recv_too_small
    ud(payload=b"t" * 10, declared=256, imm=7),  # rx_drop_ud_trimmed
    ud(flags=0x01),                             # ACK_REQ: rx_drop_bad_flags
    ud(payload=b"l" * 10, declared=5000),       # > 4096: rx_drop_bad_length
    ud(rsvd=1),                                 # rx_drop_reserved_set
]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for p in pkts:
    s.sendto(p, (sys.argv[2], int(sys.argv[3])))
print("sent %d datagrams" % len(pkts))
PY
	sleep 2
	for cnt in "${!want[@]}"; do
		after=$(counter mrc1 "$cnt")
		before=${old[$cnt]}
		echo "$cnt: ${before:-missing} -> ${after:-missing}"
		[ -n "$before" ] && [ -n "$after" ] &&
			[ $((after - before)) -eq "${want[$cnt]}" ] || bad=1
	done
	return $bad
}
ktap_check "bad_datagrams_dropped_and_counted" bad_datagrams_counted

# Every AH and QP the tools made is gone once they exit.
no_leftovers()
{
	rdma resource show qp | grep -v "type GSI" | grep "lqpn" && return 1
	rdma resource show cm_id | grep -q . && return 1
	return 0
}
ktap_check "no_qps_or_cm_ids_left" no_leftovers
ktap_finish
