#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Hostile packets aimed at a LIVE queue pair: truncated, bad lengths, PSNs
# beyond the receive window, a QPN nobody has, a forged source QP, wrong
# rkeys. Each is counted under its reason in `rdma statistic` (and under no
# other drop reason), none touches the responder's memory or moves either
# QP out of RTS, and the connection then carries traffic whose bytes are
# checked. mrc-vm fails the run on any kernel splat.
#
# make_two_hosts: mrcna: mrcva 192.0.2.1/24 mrc0 (A, requester);
#                 mrcnb: mrcvb 192.0.2.2/24 mrc1 (B, responder).
# The packets leave from namespace A, so their source address is A's GID.
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
ERR_PROBE=$MRC_SELFTEST_DIR/err-probe
PKT=$MRC_SELFTEST_DIR/mrc_packet.py
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || ktap_skip_all "needs python3"
[ -x "$ERR_PROBE" ] || ktap_skip_all "no $ERR_PROBE: run make first"
mrc_require_loaded
tmp=$(mktemp -d)
live=

cleanup()
{
	exec 3>&- 2>/dev/null
	[ -z "$live" ] || kill "$live" 2>/dev/null
	remove_two_hosts
	rm -rf "$tmp"
	return 0
}
trap cleanup EXIT
remove_two_hosts
[ -d /sys/module/rdma_rxe ] && rmmod rdma_rxe 2>/dev/null
make_two_hosts || ktap_skip_all "cannot build the two hosts"
PORT=$(mrc_udp_port)

# KIND and the counter of mrc1 that must rise by the number sent.
cases=(
	too_short:rx_drop_too_short
	bad_length:rx_drop_bad_length
	out_of_window:rx_drop_out_of_window
	no_qp:rx_drop_no_qp
	bad_source_qp:rx_drop_bad_source_qp
	wrong_rkey_bad_source_qp:rx_drop_bad_source_qp
	wrong_rkey_out_of_window:rx_drop_out_of_window
	wrong_rkey_duplicate:duplicates
)
ktap_begin $((1 + ${#cases[@]} + 1))

# The live connection: err-probe waits on a FIFO while packets fly.
mkfifo "$tmp/go"
"$ERR_PROBE" mrc0 1 mrc1 1 live <"$tmp/go" >"$tmp/live" 2>&1 &
live=$!
exec 3>"$tmp/go"
connected()
{
	wait_for 60 grep -q '^ready' "$tmp/live"
	local status=$?
	cat "$tmp/live"
	return $status
}
ktap_check "live_connection_up" connected
read -r _ QPN_A _ QPN_B _ RKEY _ VA _ EPSN < <(grep '^qpn_a' "$tmp/live")

# Counters of IBDEV as "name value" lines.
counters()	# IBDEV
{
	rdma statistic show link "$1/1" |
	awk '{ for (i = 1; i < NF; i++)
		if ($i ~ /^[a-z_]+$/ && $(i + 1) ~ /^[0-9]+$/) print $i, $(i + 1) }'
}

# COUNTER rose by WANT between the files BEFORE and now, and no other
# rx_drop_ counter moved.
counter_rose()	# BEFORE COUNTER WANT
{
	counters mrc1 >"$tmp/after"
	awk -v c="$2" -v want="$3" '
	NR == FNR { old[$1] = $2; next }
	{ d = $2 - old[$1]
	  if ($1 == c) { seen = 1; if (d != want) { printf "%s rose by %d, not %d\n", c, d, want; bad = 1 } }
	  else if ($1 ~ /^rx_drop_/ && d != 0) { printf "%s rose by %d too\n", $1, d; bad = 1 } }
	END { if (!seen) { print "no counter " c; bad = 1 }; exit bad }' \
		"$1" "$tmp/after"
}

aimed()	# KIND COUNTER
{
	local count bytes
	counters mrc1 >"$tmp/before"
	read -r count bytes < <(ip netns exec mrcna "$PYTHON" "$PKT" aim "$1" \
		"$MRC_HOST_B" "$PORT" "$QPN_A" "$QPN_B" "$RKEY" "$VA" "$EPSN") ||
		{ echo "sending failed"; return 1; }
	echo "sent $count packets ($bytes bytes) at QP $QPN_B"
	wait_for 10 counter_rose "$tmp/before" "$2" "$count" >/dev/null
	sleep 0.2
	counter_rose "$tmp/before" "$2" "$count"
}
for c in "${cases[@]}"; do
	if [ -z "${QPN_B:-}" ]; then
		ktap_skip "${c%%:*}_counted" "no live connection"
		continue
	fi
	ktap_check "${c%%:*}_counted_as_${c#*:}" aimed "${c%%:*}" "${c#*:}"
done

# The probe checks B's memory, both QPs' states, then real traffic. Not in
# ktap_check: its subshell could not wait for the probe.
echo go >&3
exec 3>&-
wait "$live"
status=$?
live=
sed -n '/^ready/,$p' "$tmp/live" | tail -n +2 | sed 's/^/# /'
if [ $status -eq 0 ]; then
	ktap_pass "live_connection_untouched_and_still_works"
else
	ktap_fail "live_connection_untouched_and_still_works" "exit status $status"
fi
ktap_finish
