#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The per-QP trim NAK switch of the OCP MRC API
# (MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED: the QP's peer takes no
# NAK(trimmed)). MRC QPs (mrc.h) WRITE from mrc0 to mrc1 through a
# trimming switch port (tools/trim) on mrcna's egress, far slower than the
# writer sends (MRC_TRIM_NAK_RATE, default 4mbit, queue
# MRC_TRIM_NAK_QUEUE, default 16384 B); mrc-api-bench checks every byte
# that lands. Once with the switch on both QPs: the responder answers no
# trimmed packet with a NAK(trimmed) (it counts the new ones in
# trims_unanswered), so the writer resends nothing for a trim and recovers
# every packet from the ACKs' SACKs and its timer. Once without, as a
# control: every trim is NAKed and resent for it, none unanswered.
# lab-timeout: 420
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_tree "the lab's trimming switch port, tools/trim"
mrc_require_root_tools
for tool in bpftool clang tc; do
	command -v $tool >/dev/null || ktap_skip_all "needs $tool (scripts/setup)"
done
[ -r /usr/include/bpf/bpf_helpers.h ] || ktap_skip_all "needs libbpf-dev"
mrc_require_loaded
BENCH=$MRC_SELFTEST_DIR/mrc-api-bench
[ -x "$BENCH" ] || ktap_skip_all "no $BENCH: run make first"
# Built on the host by make; under emulation a build takes minutes.
make -s -C "$MRC_TOP/tools/trim" >/dev/null 2>&1 ||
	ktap_skip_all "cannot build tools/trim/mrc_trim.bpf.o"
PYTHON=python3
[ -x /usr/bin/python3 ] && PYTHON=/usr/bin/python3
TRIM_TOOL=$MRC_TOP/tools/trim/mrc-trim

RATE=${MRC_TRIM_NAK_RATE:-4mbit}
QUEUE=${MRC_TRIM_NAK_QUEUE:-16384}
# 16 WRITEs of 64 KiB, all in flight: a burst far over the port's queue.
ITERS=${MRC_TRIM_NAK_ITERS:-16}
SIZE=65536

# A burst of trimmed headers skips the port's paced queue: the veth
# backlog behind it is not the switch under test (trim_read.sh).
backlog=$(cat /proc/sys/net/core/netdev_max_backlog)
echo 100000 >/proc/sys/net/core/netdev_max_backlog
work=$(mktemp -d /tmp/mrc-trimnak-XXXXXX)
# No dot in the path: libbpf turns dots of pin paths into underscores.
export MRC_TRIM_BPFFS=$work/bpffs
cleanup()
{
	remove_two_hosts
	umount "$MRC_TRIM_BPFFS" 2>/dev/null
	rm -rf "$work"
	mrc_cleanup
	echo "$backlog" >/proc/sys/net/core/netdev_max_backlog
}
trap cleanup EXIT
remove_two_hosts
make_two_hosts || ktap_skip_all "cannot build the two hosts"

trim() { "$PYTHON" "$TRIM_TOOL" "$@"; }

counter()	# DEV COUNTER
{
	cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2" 2>/dev/null || echo 0
}

# The writer's (mrc0) and the responder's (mrc1) counters the checks
# read, then the port's, as "KEY VALUE" lines.
snapshot()	# FILE
{
	local dev c
	for dev in mrc0 mrc1; do
		for c in trims trims_unanswered retransmits retransmits_trim \
			retransmits_loss retransmits_timeout timeouts; do
			echo "$dev.$c $(counter "$dev" "$c")"
		done
	done >"$1"
	trim -n mrcna stats mrcva | sed 's/^/port./' >>"$1"
}

delta()		# NAME KEY
{
	awk -v k="$2" 'FILENAME == ARGV[1] && $1 == k { b = $2 }
		FILENAME == ARGV[2] && $1 == k { a = $2 }
		END { print a - b }' "$work/$1.before" "$work/$1.after"
}

# The WRITEs through the port, every byte checked; NAME's counters kept.
run_writes()	# NAME [--no-trim-nak]
{
	local name=$1 status
	shift
	snapshot "$work/$name.before"
	"$BENCH" --api mrc --mode write_bw -s "$SIZE" -n "$ITERS" -w "$ITERS" \
		--timeout 300 "$@" mrc0 "$MRC_HOST_A" mrc1 "$MRC_HOST_B" \
		>"$work/$name.out" 2>&1
	status=$?
	snapshot "$work/$name.after"
	grep -v '^# write_bw' "$work/$name.out" | head -20
	echo "$name: port trimmed $(delta "$name" port.trimmed)" \
		"dropped $(delta "$name" port.dropped);" \
		"responder: trims $(delta "$name" mrc1.trims)" \
		"unanswered $(delta "$name" mrc1.trims_unanswered);" \
		"writer: retransmits $(delta "$name" mrc0.retransmits)" \
		"(trim $(delta "$name" mrc0.retransmits_trim)," \
		"loss $(delta "$name" mrc0.retransmits_loss)," \
		"timeout $(delta "$name" mrc0.retransmits_timeout))" \
		"timeouts $(delta "$name" mrc0.timeouts)"
	return $status
}

ktap_begin 5
if ! trim -n mrcna attach mrcva --rate "$RATE" --queue "$QUEUE" \
	--port "$(mrc_udp_port)"; then
	ktap_fail "attach_trimming_port"
	ktap_finish
fi
ktap_pass "attach_trimming_port"
ktap_info "mrcna's port toward the responder: $RATE, queue $QUEUE B;" \
	"$ITERS WRITEs of $SIZE B, all in flight"

ktap_check "writes_intact_without_trim_naks" run_writes off --no-trim-nak

# The responder left the new trims it received unanswered (a trimmed
# copy of a PSN it already holds is a duplicate, ACKed as ever), and the
# writer resent nothing for a NAK(trimmed).
trims_unanswered()
{
	local rx un naked
	rx=$(delta off mrc1.trims) un=$(delta off mrc1.trims_unanswered)
	naked=$(delta off mrc0.retransmits_trim)
	echo "responder received $rx trimmed, left $un unanswered;" \
		"writer resent $naked for a NAK(trimmed)"
	[ "$un" -gt 0 ] && [ "$un" -le "$rx" ] && [ "$naked" -eq 0 ]
}
ktap_check "trims_left_unanswered" trims_unanswered

ktap_check "writes_intact_with_trim_naks" run_writes on

# The control: the same WRITEs, each trim NAKed and resent for it.
trims_naked()
{
	local rx un naked
	rx=$(delta on mrc1.trims) un=$(delta on mrc1.trims_unanswered)
	naked=$(delta on mrc0.retransmits_trim)
	echo "responder received $rx trimmed, left $un unanswered;" \
		"writer resent $naked for a NAK(trimmed)"
	[ "$rx" -gt 0 ] && [ "$un" -eq 0 ] && [ "$naked" -gt 0 ]
}
ktap_check "trims_naked_by_default" trims_naked
ktap_finish
