#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# lab-timeout: 1300
# N-to-1 incast through trimming switch ports (issue 5). The fabric
# (scripts/mrc-fabric up --trim) makes every tier-0 port toward a host a
# shallow-buffer port of a low rate (tools/trim), so the two ports of the
# receiver, not the emulated CPU, are the bottleneck. Six senders (h2..h7)
# each run the integrity test (WRITEs and SENDs, every byte checked) to h1
# at once:
#   - with trimming: every transfer completes intact, no retransmit timeout,
#     trims happen, and every trim the switches made reached the receiver,
#     came back as exactly one NAK and was answered by exactly one
#     retransmission; no EV is retired (ev_retired) or seen ASSUMED_BAD;
#   - the same workload with the same ports dropping instead (drop-tail):
#     it completes too, timeouts allowed; the comparison is printed; the
#     paths that drop are retired (a drop is still a failure signal).
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_tree "the lab fabric, scripts/mrc-fabric, and tools/trim"
mrc_require_root_tools
FABRIC=$MRC_TOP/scripts/mrc-fabric
INTEGRITY=$MRC_SELFTEST_DIR/integrity
# Per receiver port (h1 has one per plane): low enough that the ports, not
# the emulated CPUs, limit the incast.
RATE=${MRC_INCAST_RATE:-4mbit}
QUEUE=${MRC_INCAST_QUEUE:-16384}
TRANSFERS=${MRC_INCAST_TRANSFERS:-3}
# The QPs' retransmission timeout, 4.096 us * 2^N: 18 is 1.07 s. With 14
# (67 ms, perftest's) the round trip of the emulated incast, a 32 ms queue
# plus CPUs saturated by six senders, outlasts the timer: spurious
# timeouts, and transfers failed with "retry counter exceeded" in both the
# trimming and the drop-tail runs.
QP_TIMEOUT=${MRC_INCAST_QP_TIMEOUT:-$(mrc_scaled_qp_timeout 18)}
SENDERS="h2 h3 h4 h5 h6 h7"
RECEIVER=h1

for tool in bpftool clang tc; do
	command -v $tool >/dev/null || ktap_skip_all "needs $tool (scripts/setup)"
done
[ -r /usr/include/bpf/bpf_helpers.h ] || ktap_skip_all "needs libbpf-dev"
mrc_require_loaded
[ -x "$INTEGRITY" ] || ktap_skip_all "no $INTEGRITY: run make first"
[ -x "$MRC_TOP/tools/mrcctl/mrcctl" ] || ktap_skip_all "no tools/mrcctl/mrcctl: run make first"
make -s -C "$MRC_TOP/tools/trim" >/dev/null 2>&1 ||
	ktap_skip_all "cannot build tools/trim/mrc_trim.bpf.o"
# rdma_rxe would take the UDP port our devices use.
[ -d /sys/module/rdma_rxe ] && rmmod rdma_rxe 2>/dev/null

tmp=$(mktemp -d /var/tmp/mrc-incast.XXXXXX)
sampler=
backlog=$(cat /proc/sys/net/core/netdev_max_backlog)
cleanup()
{
	[ -z "$sampler" ] || kill "$sampler" 2>/dev/null
	"$FABRIC" down >/dev/null 2>&1
	mrc_cleanup
	echo "$backlog" >/proc/sys/net/core/netdev_max_backlog
	rm -rf "$tmp"
}
trap cleanup EXIT
"$FABRIC" down >/dev/null 2>&1
# Every veth hop of the fabric queues packets on the CPU's backlog, which
# holds 1000 by default: the burst of trimmed headers an incast makes at
# emulated-CPU speed would overflow it, and a host's backlog is not the
# switch port under test. The backlog drops are still printed.
echo 100000 >/proc/sys/net/core/netdev_max_backlog

# Packets the stack dropped for a full backlog (softnet_stat column 2).
backlog_drops()
{
	local drops=0 col
	while read -r _ col _; do
		drops=$((drops + 0x$col))
	done </proc/net/softnet_stat
	echo $drops
}

# The receiver's UDP checksum failures (its namespace's UDP6 MIB).
rx_csum_errors()
{
	ip netns exec "mf-$RECEIVER" awk '$1 == "Udp6InCsumErrors" { print $2 }' /proc/net/snmp6
}

# Every counter the checks read, of every host, into FILE: HOST NAME VALUE.
snapshot()	# FILE
{
	local h
	for h in $RECEIVER $SENDERS; do
		mrc_counters "mrc$h" trims retransmits timeouts ev_retired \
			tx_packets duplicates rx_drop_out_of_window \
			retransmits_trim retransmits_loss retransmits_timeout \
			cc_decreases cc_quick_adapts ev_charges_cancelled |
			sed "s/^/$h /"
	done >"$1"
	echo "all backlog_drops $(backlog_drops)" >>"$1"
	echo "$RECEIVER udp6_csum_errors $(rx_csum_errors)" >>"$1"
	# Every counter of the receiver, for the record.
	mrc_counters "mrc$RECEIVER" | sed 's/^/rx:/' >"$1.rx"
	# Switch ports: SWITCH PORT forwarded N trimmed N dropped N marked N
	# other N (other: not MRC, passed outside the queue).
	"$FABRIC" trimstats >"$1.switch"
}

# The growth of COUNTER over HOSTS between snapshots BEFORE and AFTER.
delta()		# BEFORE AFTER COUNTER HOSTS...
{
	local before=$1 after=$2 c=$3
	shift 3
	awk -v c="$c" -v hosts=" $* " '
		FILENAME == ARGV[1] && $2 == c && index(hosts, " " $1 " ") { b += $3 }
		FILENAME == ARGV[2] && $2 == c && index(hosts, " " $1 " ") { a += $3 }
		END { print a - b }' "$before" "$after"
}

# The growth of switch counter FIELD summed over the ports toward HOST.
switch_delta()	# BEFORE AFTER FIELD HOST
{
	awk -v f="$3" -v h="$4" '
		$2 == h { for (i = 3; i < NF; i += 2) if ($i == f) {
			if (FILENAME == ARGV[1]) b += $(i + 1); else a += $(i + 1) } }
		END { print a - b }' "$1.switch" "$2.switch"
}

# The incast: every sender runs integrity to the receiver, each with its
# own fixed seed (the same workload in every run); all start their
# transfers at once, when every QP is connected. The EV table is sampled
# every second meanwhile.
run_incast()	# NAME
{
	local name=$1 h i=0 pids=() rx6 status=0 go=$tmp/$1.go
	rx6=$("$FABRIC" addr $RECEIVER | sed -n 1p)
	for h in $SENDERS; do
		i=$((i + 1))
		"$INTEGRITY" -w -W "$go" -s $((4000 + i)) -n "$TRANSFERS" -t 600 \
			-T "$QP_TIMEOUT" -d 2 "mrc$h" "$("$FABRIC" addr "$h" | sed -n 1p)" \
			"mrc$RECEIVER" "$rx6" >"$tmp/$name.$h.out" 2>&1 &
		pids+=($!)
	done
	# Setting up (memory, QPs) takes seconds each under emulation.
	wait_for 300 sh -c "[ \$(cat $tmp/$name.h*.out 2>/dev/null | grep -c '^# connected') -eq $i ]" ||
		ktap_info "not every sender connected; starting anyway"
	snapshot "$tmp/$name.before"
	(while :; do
		for h in $SENDERS; do mrc_ev_table "mrc$h"; done
		sleep 1
	done) >"$tmp/$name.paths" &
	sampler=$!
	touch "$go"
	i=0
	for h in $SENDERS; do
		wait "${pids[$i]}"
		echo $? >"$tmp/$name.$h.rc"
		i=$((i + 1))
	done
	kill "$sampler" 2>/dev/null
	wait "$sampler" 2>/dev/null
	sampler=
	snapshot "$tmp/$name.after"
	for h in $SENDERS; do
		read -r rc <"$tmp/$name.$h.rc"
		awk -v h="$h" -v rc="$rc" \
			'/^# transfers/ { sub(/^# /, ""); line = $0 }
			END { printf "%s: exit %d: %s\n", h, rc, line }' \
			"$tmp/$name.$h.out"
		[ "$rc" -eq 0 ] || { status=1; sed 's/^/    /' "$tmp/$name.$h.out"; }
	done
	return $status
}

# A sender's completion time: integrity's own, from the start line.
completion_times()	# NAME: one per sender
{
	cat "$tmp"/"$1".h*.out | awk '/^# transfers/ { t = $NF == "s" ? $(NF - 1) : 0; print t }'
}

# Slowest sender's completion time and the bytes moved, of run NAME.
summary()	# NAME
{
	local b=$tmp/$1.before a=$tmp/$1.after
	completion_times "$1" | awk -v n="$1" '{ if ($1 > max) max = $1; sum += $1; k++ }
		END { printf "%s: p100 completion %.1f s, mean %.1f s; ", n, max, sum / k }'
	cat "$tmp"/"$1".h*.out | awk '/^# transfers/ { for (i = 1; i <= NF; i++) if ($i == "checked") b += $(i + 1) }
		END { printf "%.0f bytes checked; ", b }'
	echo "senders: timeouts $(delta "$b" "$a" timeouts $SENDERS)" \
		"retransmits $(delta "$b" "$a" retransmits $SENDERS)" \
		"NAKs(trimmed) $(delta "$b" "$a" trims $SENDERS)" \
		"ev_retired $(delta "$b" "$a" ev_retired $SENDERS)" \
		"retransmits_trim $(delta "$b" "$a" retransmits_trim $SENDERS)" \
		"retransmits_loss $(delta "$b" "$a" retransmits_loss $SENDERS)" \
		"retransmits_timeout $(delta "$b" "$a" retransmits_timeout $SENDERS)" \
		"cc_decreases $(delta "$b" "$a" cc_decreases $SENDERS)" \
		"cc_quick_adapts $(delta "$b" "$a" cc_quick_adapts $SENDERS)" \
		"ev_charges_cancelled $(delta "$b" "$a" ev_charges_cancelled $SENDERS);" \
		"receiver: trims $(delta "$b" "$a" trims $RECEIVER)" \
		"duplicates $(delta "$b" "$a" duplicates $RECEIVER);" \
		"switch ports to $RECEIVER: trimmed $(switch_delta "$b" "$a" trimmed $RECEIVER)" \
		"dropped $(switch_delta "$b" "$a" dropped $RECEIVER)" \
		"forwarded $(switch_delta "$b" "$a" forwarded $RECEIVER)" \
		"other $(switch_delta "$b" "$a" other $RECEIVER);" \
		"backlog drops $(delta "$b" "$a" backlog_drops all)," \
		"$RECEIVER UDP checksum errors $(delta "$b" "$a" udp6_csum_errors $RECEIVER)"
	# The receiver's counters that moved.
	echo "$RECEIVER: $(awk 'FNR == NR { v[$1] = $2; next }
		$2 != v[$1] { printf "%s %d  ", substr($1, 4), $2 - v[$1] }' "$b.rx" "$a.rx")"
}

# Any EV of a QP of the SENDERS seen ASSUMED_BAD in run NAME's samples
# (only the senders' devices are sampled).
assumed_bad()	# NAME
{
	awk "$MRC_EV_FIELDS"'f["state"] == "ASSUMED_BAD" { n++ }
		END { print n + 0 }' "$tmp/$1.paths"
}

ktap_begin 11
# The ports mark CE past the bytes that drain in NSCC's target_delay (10
# ms, the lab profile) at RATE: NSCC decreases only on ECN with a delay
# past the target (UET's decision table); without marks only trims would
# hold the queue, at its limit.
ECN=$(echo "$RATE" | awk '{ v = $1 + 0; u = tolower($1); sub(/^[0-9.]+/, "", u)
	m = u == "kbit" ? 1e3 : u == "mbit" ? 1e6 : u == "gbit" ? 1e9 : 1
	printf "%d", v * m / 8 * 0.010 }')
ktap_check "fabric_up_trimming" "$FABRIC" up --rate "$RATE" --trim \
	--queue "$QUEUE" --ecn "$ECN"
# NSCC on every host of the fabric (Documentation/congestion.rst): a queue
# pair copies its device's CC profile at RTR, so this holds for both runs,
# the trimming one and the drop-tail one. base_rtt is configured, as a
# controller that knows its fabric would, from the smallest of 20 idle
# pings: learnt per QP, senders that start into one queue learn different
# values and one whose "base" includes the queue never decreases
# (selftests/unit/nscc_lab_test.c).
nscc_everywhere()
{
	local n us
	# The smallest of 20 idle pings h2 -> h1, set on every device.
	us=$("$FABRIC" base-rtt --set) || return 1
	echo "base_rtt $us us"
	for n in 1 2 3 4 5 6 7 8; do
		"$MRC_TOP/tools/mrcctl/mrcctl" cc "mrch$n" enable || return 1
	done
}
ktap_check "nscc_enabled_on_every_host" nscc_everywhere
ktap_info "ports toward hosts: $RATE, queue $QUEUE B, CE past $ECN B; $(echo $SENDERS | wc -w) senders to $RECEIVER," \
	"$TRANSFERS transfers each (1 B to 4 MiB), 2 in flight; NSCC on in both runs"

# ---- with trimming ----
ktap_check "incast_trimming_completes_intact" run_incast trim
B=$tmp/trim.before A=$tmp/trim.after
summary trim | sed "s/^/# /"
ktap_check "incast_trimming_no_timeouts" \
	test "$(delta "$B" "$A" timeouts $SENDERS $RECEIVER)" -eq 0
sw_trims=$(switch_delta "$B" "$A" trimmed $RECEIVER)
ktap_check "incast_trimming_trims" sh -c "[ $sw_trims -gt 0 ] && [ $(delta "$B" "$A" trims $RECEIVER) -gt 0 ]"
# Each trim is seen once: the switch's count arrives at the receiver, whose
# NAKs arrive at the senders, which retransmit once per NAK and for nothing
# else (no loss, no timeout); and nothing arrived twice. These raw counters
# are the right quantities only together with dups = 0 and retx = naks: h1
# counts a trimmed copy of a PSN it already has as a trim (and a duplicate,
# re-ACKed, not NAKed), and a sender counts a NAK it ignores (PSN no longer
# in flight, or a copy older than its current transmission) as a trim too;
# both follow only a retransmission no trim asked for, which fails this
# check anyway (Documentation/congestion.rst, "The incast test"). A loss
# the loss rule declared (count rule or path evidence) before its
# NAK(trimmed) came back is one retransmission for one NAK too: it stays
# in retransmits_loss, and the late NAK withdraws the EV charge
# (ev_charges_cancelled).
each_trim_one_retransmit()
{
	local rx_trims naks retx dups
	rx_trims=$(delta "$B" "$A" trims $RECEIVER)
	naks=$(delta "$B" "$A" trims $SENDERS)
	retx=$(delta "$B" "$A" retransmits $SENDERS)
	dups=$(delta "$B" "$A" duplicates $RECEIVER)
	echo "switch trimmed $sw_trims, receiver trims $rx_trims, NAKs(trimmed) at the senders $naks, retransmits $retx, duplicates $dups"
	[ "$sw_trims" -eq "$rx_trims" ] && [ "$rx_trims" -eq "$naks" ] &&
		[ "$naks" -eq "$retx" ] && [ "$dups" -eq 0 ]
}
# Every sender's queue pair has more than one EV, so its loss rule runs on
# path evidence from RTS (Documentation/reliability.rst): reordering
# between EVs is not taken for loss.
ktap_check "incast_trimming_each_trim_one_retransmit" \
	each_trim_one_retransmit
ktap_check "incast_trimming_no_drops_at_the_switch" \
	test "$(switch_delta "$B" "$A" dropped $RECEIVER)" -eq 0
trims_not_failures()
{
	local retired bad
	retired=$(delta "$B" "$A" ev_retired $SENDERS)
	bad=$(assumed_bad trim)
	echo "ev_retired $retired, ASSUMED_BAD EVs in the samples $bad"
	[ "$retired" -eq 0 ] && [ "$bad" -eq 0 ]
}
# Every loss the rule declares waits for its EV verdict (Documentation/
# reliability.rst, "Deferred EV charges"): a late NAK(trimmed) of the copy,
# an ACK echoing the copy's own arrival, or a delivery sooner after the
# resend than the least RTT withdraws it; a live EV waits up to an RTO of
# the copy's age.
ktap_check "trims_never_retire_a_path" trims_not_failures

# ---- drop-tail: the same ports, trimming nothing ----
ktap_check "trimming_off" "$FABRIC" trimming off
ktap_check "incast_droptail_completes_intact" run_incast droptail
summary droptail | sed "s/^/# /"
B=$tmp/droptail.before A=$tmp/droptail.after
drops_still_retire()
{
	local dropped retired bad
	dropped=$(switch_delta "$B" "$A" dropped $RECEIVER)
	retired=$(delta "$B" "$A" ev_retired $SENDERS)
	bad=$(assumed_bad droptail)
	echo "switch dropped $dropped, ev_retired $retired, ASSUMED_BAD EVs in the samples $bad," \
		"timeouts $(delta "$B" "$A" timeouts $SENDERS)"
	[ "$dropped" -gt 0 ] && [ "$retired" -gt 0 ]
}
ktap_check "drops_still_retire_paths" drops_still_retire
ktap_info "trimming against drop-tail, p100 completion:" \
	"$(completion_times trim | sort -n | tail -1) s against $(completion_times droptail | sort -n | tail -1) s"
ktap_finish
