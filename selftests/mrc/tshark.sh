#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# tshark reads our packets: the Wireshark dissector (tools/wireshark/mrc.lua)
# on a capture of real RC and UD traffic. Two hosts (mrcna, mrcnb); each
# host's port carries a trimming switch port (tools/trim) far slower than
# the sender, so that data packets arrive trimmed, are NAKed and
# retransmitted, and ACKs carry SACK bitmaps. dumpcap captures mrcvb (both
# directions, after mrcnb's trimming port) while the integrity tool runs
# WRITEs, SENDs and READs (every byte checked), perftest both atomics and
# ibv_ud_pingpong datagrams. Checks that every packet the devices sent is in
# the capture, that tshark decodes each one as MRC with no malformed mark
# and no warning or error, that every field of every frame is what the
# protocol core's mrc_decode() reads from the same bytes
# (tools/wireshark/test/run --capture), that the opcodes of what ran all
# appear, and that trimmed packets (as many as the ports trimmed), NAK
# TRIMMED, retransmissions and SACKs appear.
# lab-timeout: 900
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_tree "the dissector (tools/wireshark) and the trimming port (tools/trim)"
mrc_require_root_tools
for tool in tshark dumpcap bpftool clang tc ib_atomic_bw ibv_ud_pingpong; do
	command -v $tool >/dev/null || ktap_skip_all "needs $tool (scripts/setup)"
done
[ -r /usr/include/bpf/bpf_helpers.h ] || ktap_skip_all "needs libbpf-dev"
mrc_require_loaded
INTEGRITY=$MRC_SELFTEST_DIR/integrity
GEN=$MRC_TOP/tools/wireshark/test/build/pcap_gen
LUA=$MRC_TOP/tools/wireshark/mrc.lua
CHECK=$MRC_TOP/tools/wireshark/test/run
[ -x "$INTEGRITY" ] || ktap_skip_all "no $INTEGRITY: run make first"
[ -x "$GEN" ] || ktap_skip_all "no $GEN: run make first"
make -s -C "$MRC_TOP/tools/trim" >/dev/null 2>&1 ||
	ktap_skip_all "cannot build tools/trim/mrc_trim.bpf.o"
PYTHON=python3
[ -x /usr/bin/python3 ] && PYTHON=/usr/bin/python3
TRIM_TOOL=$MRC_TOP/tools/trim/mrc-trim
trim() { "$PYTHON" "$TRIM_TOOL" "$@"; }

RATE=${MRC_TSHARK_RATE:-4mbit}
QUEUE=${MRC_TSHARK_QUEUE:-16384}
TRANSFERS=${MRC_TSHARK_TRANSFERS:-12}
SEED=${MRC_TSHARK_SEED:-7002}
PORT=$(mrc_udp_port)
# Ethernet, IPv6, UDP and the longest MRC header (88 bytes): every header
# whole, payload not kept.
SNAPLEN=160

backlog=$(cat /proc/sys/net/core/netdev_max_backlog)
echo 100000 >/proc/sys/net/core/netdev_max_backlog
work=$(mktemp -d /tmp/mrc-tshark-XXXXXX)
export MRC_TRIM_BPFFS=$work/bpffs
capture_pid=
cleanup()
{
	[ -n "$capture_pid" ] && kill "$capture_pid" 2>/dev/null
	remove_two_hosts
	umount "$MRC_TRIM_BPFFS" 2>/dev/null
	rm -rf "$work"
	mrc_cleanup
	echo "$backlog" >/proc/sys/net/core/netdev_max_backlog
}
trap cleanup EXIT
remove_two_hosts
make_two_hosts || ktap_skip_all "cannot build the two hosts"

counter()	# DEV COUNTER
{
	cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2" 2>/dev/null || echo 0
}

port_counter()	# NETNS DEV COUNTER
{
	trim -n "$1" stats "$2" | awk -v k="$3" '$1 == k { print $2 }'
}

# Packets both devices sent, and the ports' drops and trims.
snapshot()	# FILE
{
	{
		echo "tx $(($(counter mrc0 tx_packets) + $(counter mrc1 tx_packets)))"
		echo "dropped $(($(port_counter mrcna mrcva dropped) + \
			$(port_counter mrcnb mrcvb dropped)))"
		echo "trimmed $(($(port_counter mrcna mrcva trimmed) + \
			$(port_counter mrcnb mrcvb trimmed)))"
	} >"$1"
}

delta()		# KEY
{
	awk -v k="$1" 'FILENAME == ARGV[1] && $1 == k { b = $2 }
		FILENAME == ARGV[2] && $1 == k { a = $2 }
		END { printf "%.0f\n", a - b }' "$work/before" "$work/after"
}

capturing()
{
	grep -q "Capturing on" "$work/dumpcap.err"
}

ktap_begin 11

if trim -n mrcna attach mrcva --rate "$RATE" --queue "$QUEUE" --port "$PORT" &&
	trim -n mrcnb attach mrcvb --rate "$RATE" --queue "$QUEUE" --port "$PORT"; then
	ktap_pass "attach_trimming_ports"
else
	ktap_fail "attach_trimming_ports"
	ktap_finish
fi
ktap_info "both ports: $RATE, queue $QUEUE B; $TRANSFERS transfers (seed $SEED)"

snapshot "$work/before"
ip netns exec mrcnb dumpcap -i mrcvb -P -s $SNAPLEN -f "udp dst port $PORT" \
	-w "$work/mrc.pcap" 2>"$work/dumpcap.err" &
capture_pid=$!
if wait_for 30 capturing; then
	ktap_pass "capture_started"
else
	sed 's/^/# dumpcap: /' "$work/dumpcap.err"
	ktap_fail "capture_started"
	ktap_finish
fi

ktap_check "write_send_read_intact" "$INTEGRITY" -s "$SEED" -n "$TRANSFERS" \
	-t 300 -d 4 -T 18 mrc0 "$MRC_HOST_A" mrc1 "$MRC_HOST_B"
ktap_check "atomic_fetch_add" run_perftest_pair 120 ib_atomic_bw -x 1 -n 50 \
	-A FETCH_AND_ADD
ktap_check "atomic_cmp_swap" run_perftest_pair 120 ib_atomic_bw -x 1 -n 50 \
	-A CMP_AND_SWAP
ktap_check "ud_datagrams" run_client_server 120 ibv_ud_pingpong -g 1 -s 512 \
	-n 20

# Whatever is still on its way (a last ACK) arrives before the counters
# are read and the capture stops.
sleep 1
snapshot "$work/after"
kill -INT "$capture_pid"
wait "$capture_pid"
capture_pid=

# One tshark pass: every field of every frame against the core's decode,
# and tshark's output kept for the checks below (under emulation, each
# start of tshark costs tens of seconds).
"$CHECK" --capture "$work/mrc.pcap" --fields-out "$work/fields" "$GEN" \
	"$LUA" "$PORT" >"$work/check.out" 2>&1
check_status=$?
# The columns the checks read, by name: frame number, opcode, retransmit
# flag, trimmed, syndrome, SACK words, malformed mark, expert severities
# and messages.
awk -F'\t' -v OFS='\t' '
	NR == 1 {
		for (i = 1; i <= NF; i++)
			col[$i] = i
		next
	}
	{
		print $col["frame.number"], $col["mrc.opcode"],
			$col["mrc.flags.retransmit"], $col["mrc.trimmed"],
			$col["mrc.ack.syndrome"], $col["mrc.ack.sack_words"],
			$col["_ws.malformed"], $col["_ws.expert.severity"],
			$col["_ws.expert.message"]
	}' "$work/fields" >"$work/frames" 2>/dev/null

every_packet_captured()
{
	local captured tx dropped
	captured=$(wc -l <"$work/frames")
	tx=$(delta tx) dropped=$(delta dropped)
	echo "devices sent $tx packets, the ports dropped $dropped," \
		"the capture holds $captured"
	grep -i "dropped" "$work/dumpcap.err"
	[ "$captured" -gt 0 ] && [ "$captured" -eq $((tx - dropped)) ]
}
ktap_check "every_packet_sent_is_captured" every_packet_captured

# Every frame is MRC, none malformed, no expert above a note (trimmed,
# retransmission, NAK and plane notes are the notes).
decoded_cleanly()
{
	awk -F'\t' '
		$2 == "" { nomrc++; if (nomrc <= 5) print "frame " $1 ": not decoded as MRC" }
		$7 != "" { bad++; if (bad <= 5) print "frame " $1 ": malformed: " $9 }
		{
			n = split($8, sev, ",")
			for (i = 1; i <= n; i++)
				if (sev[i] + 0 >= 6291456) {	# PI_WARN
					loud++
					if (loud <= 5) print "frame " $1 ": " $9
					break
				}
		}
		END {
			printf "%d frames: %d not MRC, %d malformed, %d with warnings or errors\n",
				NR, nomrc, bad, loud
			exit !(NR > 0 && nomrc + bad + loud == 0)
		}' "$work/frames"
}
ktap_check "every_frame_decodes_cleanly" decoded_cleanly

fields_as_the_core_decodes_them()
{
	cat "$work/check.out"
	return "$check_status"
}
ktap_check "fields_as_the_core_decodes_them" fields_as_the_core_decodes_them

# Frames with OPCODE (0x.. as tshark prints it).
count_opcode()	# OPCODE
{
	awk -F'\t' -v op="$1" '$2 == op { n++ } END { print n + 0 }' "$work/frames"
}

opcodes_of_what_ran()
{
	local name code n missing=0
	for name in WRITE:0x01 SEND:0x03 READ_REQ:0x05 READ_RESP:0x06 \
		ATOMIC_CMP_SWAP:0x07 ATOMIC_FETCH_ADD:0x08 ATOMIC_RESP:0x09 \
		ACK:0x10 NAK:0x11 UD_SEND:0x30; do
		code=${name#*:}
		n=$(count_opcode "$code")
		echo "${name%:*}: $n"
		[ "$n" -gt 0 ] || missing=1
	done
	awk -F'\t' '{ seen[$2]++ } END { for (op in seen) printf "opcode %s: %d frames\n", op, seen[op] }' \
		"$work/frames" | sort
	[ $missing -eq 0 ]
}
ktap_check "opcodes_of_what_ran_all_seen" opcodes_of_what_ran

# The ports' trims are the capture's trimmed frames, one for one; the
# receivers NAKed some (syndrome TRIMMED), senders retransmitted and ACKs
# carried SACK words.
loss_recovery_decoded()
{
	local trimmed ports naks retrans sacks
	trimmed=$(awk -F'\t' '$4 == "1" || $4 == "True" { n++ } END { print n + 0 }' "$work/frames")
	naks=$(awk -F'\t' '$2 == "0x11" && $5 == 1 { n++ } END { print n + 0 }' "$work/frames")
	retrans=$(awk -F'\t' '$3 == "1" || $3 == "True" { n++ } END { print n + 0 }' "$work/frames")
	sacks=$(awk -F'\t' '$6 + 0 > 0 { n++ } END { print n + 0 }' "$work/frames")
	ports=$(delta trimmed)
	echo "trimmed frames $trimmed (the ports trimmed $ports)," \
		"NAK TRIMMED $naks, retransmissions $retrans, ACKs with SACK $sacks"
	[ "$trimmed" -gt 0 ] && [ "$trimmed" -eq "$ports" ] &&
		[ "$naks" -gt 0 ] && [ "$retrans" -gt 0 ] && [ "$sacks" -gt 0 ]
}
ktap_check "trims_naks_retransmits_sacks_decoded" loss_recovery_decoded

trim -n mrcna detach mrcva
trim -n mrcnb detach mrcvb
ktap_finish
