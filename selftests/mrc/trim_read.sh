#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# RDMA READs through a trimming switch port (tools/trim): two hosts
# (mrcna, mrcnb) whose link carries, on mrcnb's egress toward the reader,
# a shallow-buffer port far slower than the responder sends
# (MRC_TRIM_READ_RATE, default 4mbit, queue MRC_TRIM_READ_QUEUE, default
# 16384 B). The integrity tool reads (integrity -r: READs only, 1 B to 4
# MiB, scattered, every byte checked) from mrc1 into mrc0, so every data
# packet crossing the port is a READ response. Checks that every READ
# completes intact, that the port trimmed READ responses and dropped none,
# that the reader saw them trimmed (its `trims`) and asked for them again
# at once, never after a retransmission timeout (`timeouts` 0), and that
# the whole responses the port forwarded carried at least the bytes the
# reader checked. With MRC_TRIM_READ_DROPTAIL=1, the same READs through
# the port dropping instead of trimming (drop-tail) are printed for
# comparison only; off by default, since the reader then recovers by its
# timer alone and takes minutes (two lab runs: 131.7 s and 111.0 s against
# 3.9 s and 4.0 s trimming; another seed left a READ unfinished after
# integrity's 60 s).
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
INTEGRITY=$MRC_SELFTEST_DIR/integrity
[ -x "$INTEGRITY" ] || ktap_skip_all "no $INTEGRITY: run make first"
# Built on the host by make; under emulation a build takes minutes.
make -s -C "$MRC_TOP/tools/trim" >/dev/null 2>&1 ||
	ktap_skip_all "cannot build tools/trim/mrc_trim.bpf.o"
PYTHON=python3
[ -x /usr/bin/python3 ] && PYTHON=/usr/bin/python3
TRIM_TOOL=$MRC_TOP/tools/trim/mrc-trim

RATE=${MRC_TRIM_READ_RATE:-4mbit}
QUEUE=${MRC_TRIM_READ_QUEUE:-16384}
TRANSFERS=${MRC_TRIM_READ_TRANSFERS:-12}
# A fixed seed: every run reads the same lengths and layouts.
SEED=${MRC_TRIM_READ_SEED:-7001}
# 1.07 s, as incast.sh: the emulated round trip behind a full queue is
# tens of ms with as much jitter; a timeout here must mean a READ whose
# responses stopped, not a slow host (so it grows with run-lab's scale:
# on the debug kernel, one READ of twelve timed out at 1.07 s).
QP_TIMEOUT=${MRC_TRIM_READ_QP_TIMEOUT:-$(mrc_scaled_qp_timeout 18)}

# Every veth hop queues on the CPU's backlog (1000 packets by default): a
# burst of trimmed headers, which skip the port's paced queue, must not
# overflow it, since the host's backlog is not the switch port under test
# (incast.sh does the same). Its drops are printed.
backlog=$(cat /proc/sys/net/core/netdev_max_backlog)
echo 100000 >/proc/sys/net/core/netdev_max_backlog
work=$(mktemp -d /tmp/mrc-trimread-XXXXXX)
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

# COUNTER of mrc device DEV (port 1).
counter()	# DEV COUNTER
{
	cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2" 2>/dev/null || echo 0
}

# Every counter the checks read into FILE, "KEY VALUE" lines: the
# reader's (mrc0) and the responder's (mrc1), then the port's.
snapshot()	# FILE
{
	local dev c
	for dev in mrc0 mrc1; do
		for c in trims timeouts retransmits retransmits_trim \
			retransmits_loss retransmits_timeout duplicates \
			out_of_order ev_retired rto_timer_late; do
			echo "$dev.$c $(counter "$dev" "$c")"
		done
	done >"$1"
	# Packets the stack dropped for a full backlog (softnet_stat column 2).
	local drops=0 col
	while read -r _ col _; do
		drops=$((drops + 0x$col))
	done </proc/net/softnet_stat
	echo "host.backlog_drops $drops" >>"$1"
	trim -n mrcnb stats mrcvb | sed 's/^/port./' >>"$1"
}

# The growth of KEY between snapshots of run NAME.
delta()		# NAME KEY
{
	awk -v k="$2" 'FILENAME == ARGV[1] && $1 == k { b = $2 }
		FILENAME == ARGV[2] && $1 == k { a = $2 }
		END { print a - b }' "$work/$1.before" "$work/$1.after"
}

# Reads from mrc1 into mrc0 through the port; every byte checked.
run_reads()	# NAME
{
	local status
	snapshot "$work/$1.before"
	"$INTEGRITY" -r -s "$SEED" -n "$TRANSFERS" -t 300 -d 4 -T "$QP_TIMEOUT" \
		mrc0 "$MRC_HOST_A" mrc1 "$MRC_HOST_B" >"$work/$1.out" 2>&1
	status=$?
	snapshot "$work/$1.after"
	# integrity's errors, if any, then its summary line.
	grep -v '^#' "$work/$1.out" | head -20
	grep '^# transfers' "$work/$1.out" | sed 's/^# //'
	echo "$1: reader: trims $(delta "$1" mrc0.trims)" \
		"timeouts $(delta "$1" mrc0.timeouts)" \
		"retransmits $(delta "$1" mrc0.retransmits)" \
		"(trim $(delta "$1" mrc0.retransmits_trim)," \
		"loss $(delta "$1" mrc0.retransmits_loss)," \
		"timeout $(delta "$1" mrc0.retransmits_timeout))" \
		"ev_retired $(delta "$1" mrc0.ev_retired)" \
		"rto_timer_late $(delta "$1" mrc0.rto_timer_late);" \
		"responder: duplicates $(delta "$1" mrc1.duplicates)" \
		"trims $(delta "$1" mrc1.trims);" \
		"port: forwarded $(delta "$1" port.forwarded)" \
		"trimmed $(delta "$1" port.trimmed)" \
		"dropped $(delta "$1" port.dropped)" \
		"data_packets $(delta "$1" port.data_packets)" \
		"payload_bytes $(delta "$1" port.payload_bytes)" \
		"other $(delta "$1" port.other);" \
		"backlog drops $(delta "$1" host.backlog_drops)"
	return $status
}

checked_bytes()	# NAME
{
	awk '/^# transfers/ { for (i = 1; i <= NF; i++) if ($i == "checked") print $(i + 1) + 0 }' \
		"$work/$1.out"
}

ktap_begin 6
if ! trim -n mrcnb attach mrcvb --rate "$RATE" --queue "$QUEUE" \
	--port "$(mrc_udp_port)"; then
	ktap_fail "attach_trimming_port"
	ktap_finish
fi
ktap_pass "attach_trimming_port"
ktap_info "mrcnb's port toward the reader: $RATE, queue $QUEUE B;" \
	"$TRANSFERS READs (seed $SEED), 4 in flight, QP timeout $QP_TIMEOUT"

ktap_check "reads_through_trimming_port_intact" run_reads trim

# READ responses are the only data toward the reader: the port's trims
# are theirs, and the reader received them trimmed.
read_responses_trimmed()
{
	local sw rx
	sw=$(delta trim port.trimmed) rx=$(delta trim mrc0.trims)
	echo "port trimmed $sw, reader received $rx trimmed READ responses"
	[ "$sw" -gt 0 ] && [ "$rx" -gt 0 ] && [ "$rx" -le "$sw" ]
}
ktap_check "read_responses_trimmed" read_responses_trimmed
ktap_check "trimming_port_dropped_nothing" \
	test "$(delta trim port.dropped)" -eq 0
# A trimmed response is asked for again at once (mrc_req.c,
# mrc_req_read_trims_done()): no READ waits for its timer.
no_timeouts()
{
	echo "reader timeouts $(delta trim mrc0.timeouts)," \
		"retransmits_timeout $(delta trim mrc0.retransmits_timeout)"
	[ "$(delta trim mrc0.timeouts)" -eq 0 ]
}
ktap_check "trimmed_reads_reasked_without_timeouts" no_timeouts
# The whole responses the port forwarded carried every byte checked (more
# when a re-asked range repeated some that had come whole).
payload_covers_checked()
{
	local payload checked
	payload=$(delta trim port.payload_bytes) checked=$(checked_bytes trim)
	echo "whole READ responses forwarded: $payload payload bytes; bytes checked: $checked"
	[ -n "$checked" ] && [ "$checked" -gt 0 ] && [ "$payload" -ge "$checked" ]
}
ktap_check "forwarded_payload_covers_bytes_read" payload_covers_checked

# For comparison only: the same READs, the port dropping what is over its
# limit. Losses are found by the reader's timer alone.
if [ "${MRC_TRIM_READ_DROPTAIL:-0}" != 1 ]; then
	ktap_info "drop-tail comparison skipped (MRC_TRIM_READ_DROPTAIL=1 runs it)"
elif trim -n mrcnb attach mrcvb --rate "$RATE" --queue "$QUEUE" \
	--port "$(mrc_udp_port)" --no-trim && run_reads droptail >"$work/dt.log" 2>&1; then
	ktap_info "drop-tail (comparison): $(grep '^droptail:' "$work/dt.log")"
	ktap_info "trimming against drop-tail: $(awk '/^# transfers/ { print $NF == "s" ? $(NF - 1) : "?" }' "$work/trim.out") s" \
		"against $(awk '/^# transfers/ { print $NF == "s" ? $(NF - 1) : "?" }' "$work/droptail.out") s"
else
	ktap_info "drop-tail comparison failed:"
	sed 's/^/# /' "$work/dt.log"
fi
trim -n mrcnb detach mrcvb
ktap_finish
